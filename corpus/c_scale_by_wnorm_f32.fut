-- Scale every column j of X by w[j] / ||w||_2. The norm of the parameter
-- vector w varies with no parallel dimension, but the author calls the
-- helper from inside each element's body.
fun f32 l2norm([f32, k] v) =
  sqrt(streamSeq(fn f32 (int base, [f32, cs] vc, f32 ss) =>
                   loop (ss) = for t < cs do ss + vc[t] * vc[t] in ss,
                 v, 0f32))

fun [[f32, m], n] main([[f32, m], n] X, [f32, m] w) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x, f32 wj) => x * (wj / l2norm(w)), zip(row, w)),
      X)
