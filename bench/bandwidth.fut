-- Bandwidth probes for the codegen issue: a map over 2^26 f32 (one read and one write
-- per element) and a sum reduction over 2^26 f32 (one read per element), each run
-- `reps` times in a loop so that KERB_PROFILE=1 times every launch. The inputs come
-- from bench/bandwidth_input.py. Not a test: there is no `-- ==` block.
entry map_scale (reps: i32) (xs: []f32) : []f32 =
  loop ys = xs for _i < reps do map (\x -> x * 1.0001f32 + 0.5f32) ys

entry sum (reps: i32) (xs: []f32) : f32 =
  loop acc = 0f32 for _i < reps do acc + reduce (+) 0f32 xs
