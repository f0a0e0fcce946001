-- k-means assignment step: for every sample, the index of the nearest centre
-- (squared Euclidean distance) and that distance. The centres are streamed in
-- chunks; the running best is kept as two accumulators.
fun f32 sqdist([f32, d] a, [f32, d] b) =
  loop (s = 0f32) = for t < d do
    let u = a[t] - b[t] in s + u * u
  in s

fun ([int, n], [f32, n]) main([[f32, d], n] X, [[f32, d], k] C) =
  map(fn (int, f32) ([f32, d] x) =>
        let (best, bd) =
          streamSeq(fn (int, f32) (int c0, [[f32, d], c] cs, int best, f32 bd) =>
                      loop (best, bd) = for j < c do
                        let e = sqdist(x, cs[j]) in
                        if e < bd then (c0 + j, e) else (best, bd)
                      in (best, bd),
                    C, 0, 3.0e38f32)
        in (best, bd),
      X)
