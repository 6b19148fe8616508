-- One step of PageRank over an edge list: 2^22 vertices, 2^25 edges (sorted by source,
-- random destinations), f32. Every edge e sends rank[src[e]] / outdeg[src[e]] to
-- dst[e]; the contributions are summed per destination with reduce_by_index (as in
-- Futhark, destinations out of range are ignored, not failures), then damped: (1 - d) /
-- n + d * sum with d = 0.85. Measures a map of gathers through an index read from memory
-- (rank[s] and outdeg[s]: no analysis can prove s in bounds) feeding a scatter with
-- atomics.
-- Inputs from bench/gen_data.py (bench/data/graph_step.in); part of the group of
-- programs whose checks cannot be proved (bench/README.md, "Checks that cannot be
-- proved").
--
-- The cases: results (the second with destinations out of range), then a source out of
-- bounds in the first, a middle and the last edge.
-- ==
-- nobench input { [0.25f32, 0.5f32, 0.125f32, 0.125f32] [2, 1, 1, 0]
--                 [0i64, 0i64, 1i64, 2i64] [1i64, 2i64, 2i64, 0i64] }
--         output { [0.14375f32, 0.14375f32, 0.56875f32, 0.0375f32] }
-- nobench input { [1f32, 2f32] [1, 1] [0i64, 1i64, 1i64] [1i64, 2i64, -1i64] }
--         output { [0.075f32, 0.925f32] }
-- nobench input { [0.25f32, 0.5f32, 0.25f32] [1, 1, 1] [-1i64, 1i64, 2i64] [1i64, 2i64, 0i64] }
--         error: Index \[-1\] out of bounds for array of shape \[3\][\s\S]*graph_step\.fut:29:28-34
-- nobench input { [0.25f32, 0.5f32, 0.25f32] [1, 1, 1] [0i64, 3i64, 2i64] [1i64, 2i64, 0i64] }
--         error: Index \[3\] out of bounds for array of shape \[3\][\s\S]*graph_step\.fut:29:28-34
-- nobench input { [0.25f32, 0.5f32, 0.25f32] [1, 1, 1] [0i64, 1i64, 1000000000000i64]
--                 [1i64, 2i64, 0i64] }
--         error: Index \[1000000000000\] out of bounds for array of shape \[3\][\s\S]*graph_step\.fut:29:28-34
-- "2^22 vertices, 2^25 edges" no_interp no_cpu input @ ../data/graph_step.in output @ ../data/graph_step.out
entry main [nv][ne] (rank: [nv]f32) (outdeg: [nv]i32) (src: [ne]i64) (dst: [ne]i64) : [nv]f32 =
  let contrib = map (\s -> rank[s] / f32.i32 outdeg[s]) src
  let sums = reduce_by_index (replicate nv 0f32) (+) 0f32 dst contrib
  let base = (1f32 - 0.85f32) / f32.i64 nv
  in map (\x -> base + 0.85f32 * x) sums
