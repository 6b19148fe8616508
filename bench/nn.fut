-- Rodinia's nearest neighbour (nn), ported with explicit indexing and k = 1: the
-- distance of every record (latitude, longitude) to a target, and the nearest record
-- (an argmin reduction over pairs; ties go to the lower index). 2^25 records.
-- The argmin is a reduce_comm, as in Futhark's own port of Rodinia's nn: the operator
-- commutes (the minimum distance, then the lower index), and the hand-written version's
-- grid-stride running argmin (bench/cuda/reductions.cu, nn_partials) relies on that
-- too, so both run the same algorithm. (Until 2026-11-24 a `reduce`, which Kerb ran
-- in order, warp-contiguous: bench/NOTES.md.)
-- ==
-- nobench input { [0f32, 3f32, 1f32, 1f32] [0f32, 4f32, 1f32, 1f32] 1f32 2f32 }
--         output { 1f32 2i64 }
-- nobench input { empty([0]f32) empty([0]f32) 0f32 0f32 } output { f32.inf -1i64 }
-- "2^25 records" no_interp no_cpu input @ data/nn.in output @ data/nn.out
entry main [n] (lat: [n]f32) (lng: [n]f32) (tlat: f32) (tlng: f32) : (f32, i64) =
  let dist = map (\i -> f32.sqrt ((lat[i] - tlat) * (lat[i] - tlat)
                                  + (lng[i] - tlng) * (lng[i] - tlng)))
                 (iota n)
  in reduce_comm (\(d1, i1) (d2, i2) ->
                    if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2))
                 (f32.inf, -1i64) (zip dist (iota n))
