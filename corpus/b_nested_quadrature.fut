-- Nested streams: for each target t, sum over Gaussian centres j (weights cw)
-- of a quadrature over nodes k (offsets qn, weights qw) of a smoothed
-- Gaussian: sum_j cw_j * sum_k qw_k * exp(-(t - c_j - qn_k)^2). f32.
fun [f32, nt] main([f32, nt] t, [f32, nc] cpos, [f32, nc] cw, [f32, nq] qn, [f32, nq] qw) =
  map(fn f32 (f32 tv) =>
        streamSeq(fn f32 (int j0, [f32, a] cp, [f32, a] cwt, f32 outer) =>
                    loop (outer) = for j < a do
                      let base = tv - cp[j] in
                      let inner = streamSeq(fn f32 (int k0, [f32, b] nodes, [f32, b] wts, f32 s) =>
                                              loop (s) = for k < b do
                                                let u = base - nodes[k] in
                                                s + wts[k] * exp(-(u * u))
                                              in s
                                           , qn, qw, 0f32)
                      in outer + cwt[j] * inner
                    in outer
                 , cpos, cw, 0f32)
     , t)
