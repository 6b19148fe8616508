-- The accelerations of N bodies under softened gravity (issue 17: a nested map-reduce
-- with reuse): for each body i, the sum over every body j of
--     m_j * (p_j - p_i) / (|p_j - p_i|^2 + eps2)^(3/2)
-- (body i's own term is zero: eps2 > 0). Positions and masses are four [n]f32 arrays,
-- the three components of the result three more; 2^15 bodies, 2^30 pairs: every body's
-- position and mass is read by every other, so the bodies are read n times over (the
-- reuse that shared memory or the caches should serve). The sum of a body's terms is a
-- reduce_comm over triples (the order of the terms does not matter, as in N-body codes
-- everywhere). No checks left in it.
-- ==
-- nobench input { [0f32, 1f32] [0f32, 0f32] [0f32, 0f32] [1f32, 2f32] 3f32 }
--         output { [0.25f32, -0.125f32] [0f32, 0f32] [0f32, 0f32] }
-- nobench input { [0f32, 1f32, 1f32] [0f32, 1f32, 0f32] [0f32, 0f32, 1f32] [1f32, 2f32, 4f32] 2f32 }
--         output { [0.75f32, -0.125f32, -0.125f32] [0.25f32, -0.625f32, 0.25f32] [0.5f32, 0.5f32, -0.375f32] }
-- nobench input { [1f32] [2f32] [3f32] [5f32] 0.5f32 } output { [0f32] [0f32] [0f32] }
-- nobench input { empty([0]f32) empty([0]f32) empty([0]f32) empty([0]f32) 1f32 }
--         output { empty([0]f32) empty([0]f32) empty([0]f32) }
-- nobench random input { [300]f32 [300]f32 [300]f32 [300]f32 f32 } auto output
-- "2^15 bodies" no_interp no_cpu input @ data/nbody.in output @ data/nbody.out

entry main [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) (eps2: f32) : ([n]f32, [n]f32, [n]f32) =
  unzip3 (map3 (\xi yi zi ->
                  reduce_comm (\(ax, ay, az) (bx, by, bz) -> (ax + bx, ay + by, az + bz))
                              (0f32, 0f32, 0f32)
                              (map4 (\xj yj zj mj ->
                                       let dx = xj - xi
                                       let dy = yj - yi
                                       let dz = zj - zi
                                       let r2 = dx * dx + dy * dy + dz * dz + eps2
                                       let inv = 1f32 / f32.sqrt r2
                                       let s = mj * inv * inv * inv
                                       in (s * dx, s * dy, s * dz))
                                    xs ys zs ms))
               xs ys zs)
