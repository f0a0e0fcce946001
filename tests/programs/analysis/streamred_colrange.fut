-- Each column's range (largest minus smallest element) through a streamRed
-- down a transposed matrix: rows side by side (a column's elements lie a
-- row apart, so 32 columns a block read each row's run), each column's
-- lanes merged by the program's combine.
-- rows: 1
-- columns: yes
-- reduction: 13:36 split the streamRed's combine,the streamRed's combine
fun [f32, m] main([[f32, m], n] X) =
  let Xt = transpose(X) in
  map(fn f32 (int j) =>
        let (lo, hi) = streamRed(fn (f32, f32) (f32 l1, f32 h1, f32 l2, f32 h2) => (min(l1, l2), max(h1, h2)),
                                 fn (f32, f32) (int kk, [f32, c] xs, f32 l, f32 h) =>
                                   loop (l, h) = for k < c do
                                     (if xs[k] < l then xs[k] else l, if xs[k] > h then xs[k] else h)
                                   in (l, h),
                                 Xt[j], 3.4028235e38f32, -3.4028235e38f32)
        in hi - lo,
      iota(m))
