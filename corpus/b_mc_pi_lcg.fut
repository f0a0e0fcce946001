-- Monte Carlo estimate of pi per seed: a fixed 8000 draws of an int32 LCG per
-- point, counting points inside the unit quarter circle. No arrays streamed.
fun int lcg(int s) = s * 1103515245 + 12345

fun f32 unit(int s) = f32((if s < 0 then 0 - (s + 1) else s) / 128) / 16777216f32

fun [f32, n] main([int, n] seeds) =
  map(fn f32 (int seed) =>
        let (s, hits) =
          loop (s = seed, hits = 0) = for t < 8000 do
            let s1 = lcg(s) in
            let s2 = lcg(s1) in
            let x = unit(s1) in
            let y = unit(s2) in
            (s2, if x*x + y*y < 1f32 then hits + 1 else hits)
          in (s, hits)
        in 4f32 * f32(hits) / 8000f32
     , seeds)
