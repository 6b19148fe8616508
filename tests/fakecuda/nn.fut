-- bench/nn.fut's entry with a case for the fake driver (no expected output: its kernels
-- do not run): a reduction with two scalar results.
-- ==
-- random input { [100000]f32 [100000]f32 0.5f32 0.5f32 }
entry main [n] (lat: [n]f32) (lng: [n]f32) (tlat: f32) (tlng: f32) : (f32, i64) =
  let dist = map (\i -> f32.sqrt ((lat[i] - tlat) * (lat[i] - tlat)
                                  + (lng[i] - tlng) * (lng[i] - tlng)))
                 (iota n)
  in reduce_comm (\(d1, i1) (d2, i2) ->
                    if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2))
                 (f32.inf, -1i64) (zip dist (iota n))
