-- Apply a 3x3 linear map and a translation to n points in 3-D:
-- out[i, r] = sum_c R[r, c] * P[i, c] + t[r]. Literal dimension 3.
fun [[f32, 3], n] main([[f32, 3], 3] R, [f32, 3] t, [[f32, 3], n] P) =
  map(fn [f32, 3] ([f32, 3] p) =>
        map(fn f32 ([f32, 3] row, f32 tr) =>
              row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + tr,
            R, t),
      P)
