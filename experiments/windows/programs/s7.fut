-- One step of 3-D heat diffusion, the 7-point Laplacian, neighbours past a
-- face clamped to it. Its reads move with the point along all three
-- dimensions: a window of one neighbour each way.
fun [[[f32, nx], ny], nz] main(f32 alpha, [[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
        map(fn [f32, nx] (int y) =>
              map(fn f32 (int x) =>
                    let c = u[z, y, x] in
                    let lap = u[max(z - 1, 0), y, x] + u[min(z + 1, nz - 1), y, x]
                            + u[z, max(y - 1, 0), x] + u[z, min(y + 1, ny - 1), x]
                            + u[z, y, max(x - 1, 0)] + u[z, y, min(x + 1, nx - 1)]
                            - 6f32 * c in
                    c + alpha * lap,
                  iota(nx)),
            iota(ny)),
      iota(nz))
