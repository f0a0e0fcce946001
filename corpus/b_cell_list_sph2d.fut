-- SPH density in 2-D with a cell list: the unit square is cut into ncx x ncx
-- cells, cell (cy, cx) lists ccount[cy, cx] particle ids in cells[cy, cx].
-- Each particle visits the 3 x 3 cells around its own and sums the poly6
-- kernel m_j (h^2 - r^2)^3 over members within h = 1/ncx. f32.
fun f32 poly6(f32 r2, f32 h2) = if r2 < h2 then (h2 - r2) * (h2 - r2) * (h2 - r2) else 0f32

fun [f32, n] main([f32, n] x, [f32, n] y, [f32, n] mass,
                  [[[int, cap], ncx], ncx] cells, [[int, ncx], ncx] ccount) =
  let h = 1f32 / f32(ncx) in
  let h2 = h * h in
  let norm = 4f32 / (3.14159265f32 * h2 * h2 * h2 * h2) in
  map(fn f32 (f32 px, f32 py) =>
        let cx = min(int(px / h), ncx - 1) in
        let cy = min(int(py / h), ncx - 1) in
        let rho = loop (rho = 0f32) = for nb < 9 do
                    let gy = cy + nb / 3 - 1 in
                    let gx = cx + nb % 3 - 1 in
                    if gx >= 0 && gx < ncx && gy >= 0 && gy < ncx then
                      loop (rho) = for k < ccount[gy, gx] do
                        let j = cells[gy, gx, k] in
                        let dx = px - x[j] in
                        let dy = py - y[j] in
                        rho + mass[j] * poly6(dx*dx + dy*dy, h2)
                      in rho
                    else rho
                  in rho
        in norm * rho
     , zip(x, y))
