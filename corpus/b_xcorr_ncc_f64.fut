-- Normalised cross-correlation of a template b (length nb) against every
-- offset of a longer signal a (length no + nb): three accumulators, f64.
fun [f64, no] main(int no, [f64, na] a, [f64, nb] b) =
  map(fn f64 (int off) =>
        let (sab, saa, sbb) =
          streamSeq(fn (f64, f64, f64) (int j0, [f64, c] bc, f64 sab, f64 saa, f64 sbb) =>
                      loop (sab, saa, sbb) = for j < c do
                        let av = a[off + j0 + j] in
                        (sab + av * bc[j], saa + av * av, sbb + bc[j] * bc[j])
                      in (sab, saa, sbb)
                   , b, 0f64, 0f64, 0f64)
        in sab / sqrt(saa * sbb + 1e-30f64)
     , iota(no))
