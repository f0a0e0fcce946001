-- The first row holding each column's largest value, for each matrix of a
-- batch: the columns side by side down the rows, the batch on the grid.
-- rows: 2
-- columns: yes
-- reduction: 9:15 split argmax,argmax
fun [[int, m], b] main([[[f32, m], n], b] X) =
  map(fn [int, m] (int k) =>
        map(fn int (int j) =>
              loop (best = X[k, 0, j], at = 0) = for i < n do
                if X[k, i, j] > best then (X[k, i, j], i) else (best, at)
              in at,
            iota(m)),
      iota(b))
