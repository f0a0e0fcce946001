-- Static structure factor S(q) = |sum_j exp(i q.r_j)|^2 / N for nq wave
-- vectors against N atom positions streamed in three arrays. f32 sin/cos.
fun [f32, nq] main([f32, nq] qx, [f32, nq] qy, [f32, nq] qz,
                   [f32, na] rx, [f32, na] ry, [f32, na] rz) =
  map(fn f32 (f32 a, f32 b, f32 c) =>
        let (re, im) = streamSeq(fn (f32, f32) (int s, [f32, k] xs, [f32, k] ys, [f32, k] zs, f32 re, f32 im) =>
                                   loop (re, im) = for j < k do
                                     let ph = a * xs[j] + b * ys[j] + c * zs[j] in
                                     (re + cos(ph), im + sin(ph))
                                   in (re, im)
                                , rx, ry, rz, 0f32, 0f32)
        in (re * re + im * im) / f32(na)
     , zip(qx, qy, qz))
