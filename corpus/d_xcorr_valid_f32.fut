-- Matched filter: 'valid' cross-correlation of a long signal with a template
-- of length tl, one output per full overlap (n = len - tl + 1 of them):
--   out[i] = sum_{k<tl} tpl[k] * sig[i + k]
-- Each output streams over the template; kk + k is the template position.
fun [f32, n] main(int n, [f32, len] sig, [f32, tl] tpl) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] tc, f32 acc) =>
                    loop (acc) = for k < c do acc + tc[k] * sig[i + kk + k]
                    in acc,
                  tpl, 0f32),
      iota(n))
