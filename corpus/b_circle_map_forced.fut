-- Forced circle map, few points with a long time series: each (omega, K)
-- pair iterates theta <- theta + omega - K/(2 pi) sin(2 pi theta) + amp*force[t]
-- over the whole streamed forcing signal; returns the winding number. f32 sin.
fun [f32, np] main(f32 amp, [f32, np] omega, [f32, np] kpar, [f32, nt] force) =
  map(fn f32 (f32 om, f32 kp) =>
        let (th, wind) =
          streamSeq(fn (f32, f32) (int t0, [f32, c] fc, f32 th, f32 wind) =>
                      loop (th, wind) = for t < c do
                        let th1 = th + om - kp * 0.15915494f32 * sin(6.2831853f32 * th) + amp * fc[t] in
                        let fl = floor(th1) in
                        (th1 - fl, wind + fl)
                      in (th, wind)
                   , force, 0f32, 0f32)
        in (wind + th) / f32(nt)
     , zip(omega, kpar))
