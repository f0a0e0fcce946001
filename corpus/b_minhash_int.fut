-- MinHash signature of one set of int keys under nh hash functions
-- h_i(k) = fmix(a_i * k + b_i) (32-bit wrapping arithmetic); also counts keys
-- whose hash falls below a threshold. Points: hash functions; streamed: keys.
fun int nonneg(int h) = if h < 0 then (h + 2147483647) + 1 else h

fun int fmix(int x) =
  let a = nonneg(x) in
  let b = nonneg((a + a / 65536) * (-2048144789)) in
  let c = nonneg((b + b / 8192) * (-1028477387)) in
  c + c / 65536

fun ([int, nh], [int, nh]) main([int, nh] ha, [int, nh] hb, [int, n] keys) =
  map(fn (int, int) (int a, int b) =>
        streamSeq(fn (int, int) (int k0, [int, c] kc, int mn, int low) =>
                    loop (mn, low) = for k < c do
                      let h = nonneg(fmix(a * kc[k] + b)) in
                      (min(mn, h), if h < 2097152 then low + 1 else low)
                    in (mn, low)
                 , keys, 2147483647, 0)
     , zip(ha, hb))
