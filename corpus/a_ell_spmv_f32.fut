-- Sparse matrix-vector product in ELLPACK form: row i has wdt stored entries
-- vals[i, k] in columns cols[i, k] (padding entries carry value 0).
fun [f32, n] main([[int, wdt], n] cols, [[f32, wdt], n] vals, [f32, m] x) =
  map(fn f32 ([int, wdt] cr, [f32, wdt] vr) =>
        streamSeq(fn f32 (int k0, [int, c] cc, [f32, c] vc, f32 y) =>
                    loop (y) = for k < c do y + vc[k] * x[cc[k]] in y,
                  cr, vr, 0f32),
      cols, vals)
