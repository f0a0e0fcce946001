-- FIR filter: a long signal x convolved with a 31-tap filter h, the output
-- aligned with the input (tap 15 is the centre). Reads past either end of
-- the signal repeat the edge sample (clamped with min/max).
--   y[i] = sum_{t<31} h[t] * x[clamp(i + t - 15)]
fun int clampi(int i, int n) = max(0, min(i, n - 1))

fun [f64, n] main([f64, n] x, [f64, 31] h) =
  map(fn f64 (int i) =>
        loop (s = 0f64) = for t < 31 do
          s + h[t] * x[clampi(i + t - 15, n)]
        in s,
      iota(n))
