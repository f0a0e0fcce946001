-- Each row's first position whose element passes a threshold, as a
-- streamRed: the loop's update reads the carried position in its test, so
-- no operator of tiler's algebra describes it; the row's lanes each fold a
-- share from the initial value and merge the shares with the program's
-- combine, the smaller position (rows with no such element give the
-- largest int).
-- rows: 1
-- reduction: 13:21 split the streamRed's combine
fun [int, n] main([[f32, m], n] A, f32 t) =
  map(fn int ([f32, m] r) =>
        streamRed(fn int (int a, int b) => min(a, b),
                  fn int (int kk, [f32, c] xs, int first) =>
                    loop (first) = for k < c do
                      if first == 2147483647 && xs[k] > t then kk + k else first
                    in first,
                  r, 2147483647),
      A)
