-- Fourteen streamed arrays: staged in a 256-thread block (14 KiB). With
-- --tile 1024 they need 56 KiB, over the default limit of 48 KiB (see
-- test_plans_over_48_kib_use_dynamic_shared_memory).
-- stream: 8:5 tiled 1-D
-- input: 8:5 x13c invariant=0 shared
fun [f32, n] main([f32, m] x0, [f32, m] x1, [f32, m] x2, [f32, m] x3, [f32, m] x4, [f32, m] x5, [f32, m] x6, [f32, m] x7, [f32, m] x8, [f32, m] x9, [f32, m] x10, [f32, m] x11, [f32, m] x12, [f32, m] x13, [f32, n] ys) =
  map(fn f32 (f32 y) =>
    streamSeq(fn f32 (int kk, [f32, c] x0c, [f32, c] x1c, [f32, c] x2c, [f32, c] x3c, [f32, c] x4c, [f32, c] x5c, [f32, c] x6c, [f32, c] x7c, [f32, c] x8c, [f32, c] x9c, [f32, c] x10c, [f32, c] x11c, [f32, c] x12c, [f32, c] x13c, f32 acc) =>
      loop (acc) = for k < c do acc + y * (x0c[k] + x1c[k] + x2c[k] + x3c[k] + x4c[k] + x5c[k] + x6c[k] + x7c[k] + x8c[k] + x9c[k] + x10c[k] + x11c[k] + x12c[k] + x13c[k]) in acc
    , x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, 0f32)
  , ys)
