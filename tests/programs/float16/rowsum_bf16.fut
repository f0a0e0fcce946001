-- Each row's sum in bf16, by a stream over the row: the block stages its
-- threads' own rows to coalesce them, and the launch splits long rows among
-- a warp's threads (the shares merged in bf16 in another order: not exact).
-- stream: 8:9 tiled 1-D
-- reduction: 9:21 split +
fun [bf16, n] main([[bf16, m], n] A) =
  map(fn bf16 ([bf16, m] row) =>
        streamSeq(fn bf16 (int kk, [bf16, c] xs, bf16 acc) =>
                    loop (acc) = for j < c do acc + xs[j] in acc
                 , row, 0bf16)
     , A)
