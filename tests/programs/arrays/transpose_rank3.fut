-- transpose of a rank-3 array swaps the two outer dimensions; inner rows stay intact.
-- ==
-- input { [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]] }
-- output { [[[1, 2], [7, 8]], [[3, 4], [9, 10]], [[5, 6], [11, 12]]] }
entry main (x: [][][]i32) : [][][]i32 = transpose x
