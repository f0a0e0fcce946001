-- 1-D sheet model: force on each sheet is sum of m_j * sign(x_j - x_i)
-- (softened: (x_j - x_i) / (|x_j - x_i| + eps)), f64, terse.
fun [f64, n] main([f64, n] x, [f64, n] m) =
  map(fn f64 (f64 xi) =>
        loop (f = 0f64) = for j < n do
          let d = x[j] - xi in f + m[j] * d / (abs(d) + 1e-6f64)
        in f
     , x)
