-- A batch of matrices; each thread (b, i) sums row i of matrix b by index
-- reads. The rows lie along threadIdx.x's dimension (i), so the launch
-- transposes each matrix (the last two axes) when the rows are long. (The
-- sum of the steps along a row stops short of its end: a loop, not a stream.)
-- transpose: X yes m >= 2048 and b * n <= 16896
fun [[f32, n], b] main([[[f32, m], n], b] X) =
  map(fn [f32, n] (int j) =>
        map(fn f32 (int i) =>
              loop (acc = 0f32) = for k < m - 1 do acc + abs(X[j, i, k + 1] - X[j, i, k]) in acc
           , iota(n))
     , iota(b))
