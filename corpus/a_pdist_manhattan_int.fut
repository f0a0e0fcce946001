-- Pairwise Manhattan (L1) distances between integer feature vectors (e.g. byte
-- histograms), written with index maps and a loop over the features.
fun int l1([int, d] a, [int, d] b) =
  loop (s = 0) = for k < d do s + abs(a[k] - b[k]) in s

fun [[int, m], n] main([[int, d], n] P, [[int, d], m] Q) =
  map(fn [int, m] (int i) =>
        map(fn int (int j) => l1(P[i], Q[j]), iota(m)),
      iota(n))
