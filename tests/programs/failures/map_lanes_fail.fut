-- Failures in maps that run four elements per thread (docs/CODEGEN.md): in a lane of a
-- full, aligned group of four (nothing of the group is stored), in the tail that runs
-- element by element, and the first failure of a group in index order.
-- ==
-- entry: gather
-- input { [10, 20, 30, 40, 50, 60, 70, 80] [0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 0i64] }
-- output { [10, 20, 30, 40, 50, 60, 70, 80, 10] }
-- input { [10, 20, 30, 40, 50, 60, 70, 80] [0i64, 1i64, 9i64, 3i64, 4i64, 5i64, 6i64, 7i64] }
-- error: Index \[9\] out of bounds for array of shape \[8\]\.[\s\S]*map_lanes_fail\.fut:22:
-- input { [10, 20, 30, 40, 50, 60, 70, 80] [0i64, 1i64, 2i64, 3i64, 4i64, -1i64] }
-- error: Index \[-1\] out of bounds for array of shape \[8\]
-- input { [10, 20, 30, 40] [0i64, 5i64, 6i64, 3i64] }
-- error: Index \[5\] out of bounds for array of shape \[4\]

-- ==
-- entry: divide
-- input { [8, 9, 10, 11, 12] [2, 3, 5, 11, 4] } output { [4, 3, 2, 1, 3] }
-- input { [8, 9, 10, 11, 12] [2, 3, 5, 0, 4] }
-- error: division by zero[\s\S]*map_lanes_fail\.fut:24:
-- input { [8, 9, 10, 11, 12] [2, 3, 5, 11, 0] }
-- error: division by zero[\s\S]*map_lanes_fail\.fut:24:
entry gather (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is

entry divide [n] (xs: [n]i32) (ds: [n]i32) : []i32 = map2 (\x d -> x / d) xs ds
