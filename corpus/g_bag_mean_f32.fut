-- Embedding bag, mean mode: bag b uses the first lens[b] of its L slots in
-- idx (the rest is padding); an id may repeat within a bag and counts each
-- time. out[b, e] = mean of table[idx[b, l], e] over those slots; an empty
-- bag gives 0.
fun [[f32, d], nb] main([[f32, d], v] table, [[int, L], nb] idx, [int, nb] lens) =
  map(fn [f32, d] ([int, L] bag, int len) =>
        map(fn f32 (int e) =>
              let (s, cnt) =
                streamSeq(fn (f32, int) (int l0, [int, c] ic, f32 s, int cnt) =>
                            loop (s, cnt) = for l < c do
                              if l0 + l < len then (s + table[ic[l], e], cnt + 1)
                              else (s, cnt)
                            in (s, cnt),
                          bag, 0f32, 0)
              in if cnt > 0 then s / f32(cnt) else 0f32,
            iota(d)),
      zip(idx, lens))
