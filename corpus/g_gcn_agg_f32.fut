-- Graph convolution aggregation over a fixed-degree neighbour list: point i
-- sums the ReLU of its K neighbours' feature rows, each scaled by the
-- symmetric normalisation 1/sqrt(deg[i] * deg[j]).
-- out[i, f] = sum_k rsqrt(deg[i] * deg[nbr[i, k]]) * max(X[nbr[i, k], f], 0).
fun f32 relu(f32 x) = max(x, 0f32)

fun [[f32, d], n] main([[f32, d], n] X, [f32, n] deg, [[int, K], n] nbr) =
  map(fn [f32, d] (int i) =>
        let di = deg[i] in
        map(fn f32 (int f) =>
              streamSeq(fn f32 (int k0, [int, c] js, f32 acc) =>
                          loop (acc) = for k < c do
                            let j = js[k] in
                            acc + rsqrt(di * deg[j]) * relu(X[j, f])
                          in acc,
                        nbr[i], 0f32),
            iota(d)),
      iota(n))
