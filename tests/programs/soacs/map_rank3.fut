-- Three nested maps over a rank-3 array.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]] }
-- output { [[[-1, -2], [-3, -4]], [[-5, -6], [-7, -8]], [[-9, -10], [-11, -12]]] }
-- input { empty([0][2][2]i32) }  output { empty([0][2][2]i32) }
entry main (xsss: [][][]i32) : [][][]i32 =
  map (\xss -> map (\xs -> map (\x -> -x) xs) xss) xsss
