-- For every key, hash it into nbuck buckets with a 64-bit multiply/fold mixer
-- (xor and shifts written as adds, divisions and remainders, since the
-- language has no bit operators) and count how many keys share its bucket.
fun i64 clear_top(i64 h) = if h < 0i64 then (h + 9223372036854775807i64) + 1i64 else h

fun i64 mix64(i64 k) =
  let h1 = clear_top(k * (-7046029254386353131i64) + 1442695040888963407i64) in
  let h2 = clear_top((h1 / 2147483648i64 + h1 % 2147483648i64) * (-4658895280553007687i64)) in
  let h3 = clear_top((h2 / 8589934592i64 + h2) * 6364136223846793005i64 + 1i64) in
  h3 / 65536i64

fun [int, n] main(i64 nbuck, [i64, n] keys) =
  map(fn int (i64 key) =>
        let mine = mix64(key) % nbuck in
        streamSeq(fn int (int j0, [i64, c] ks, int cnt) =>
                    loop (cnt) = for j < c do
                      if mix64(ks[j]) % nbuck == mine then cnt + 1 else cnt
                    in cnt
                 , keys, 0)
     , keys)
