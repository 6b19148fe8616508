-- loop over the elements of an array (for x in xs), on rank 1 and rank 2 arrays.
-- ==
-- input { [3, 1, 4, 1, 5] [[1, 2], [3, 4]] } output { 14 5 [4, 6] }
-- input { empty([0]i32) empty([0][2]i32) } output { 0 -2147483648 [0, 0] }
entry main (xs: []i32) (m: [][2]i32) : (i32, i32, [2]i32) =
  let s = loop acc = 0 for x in xs do acc + x
  let mx = loop best = i32.lowest for x in xs do if x > best then x else best
  let colsum = loop acc = [0, 0] for row in m do [acc[0] + row[0], acc[1] + row[1]]
  in (s, mx, colsum)
