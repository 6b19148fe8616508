-- Found by kerb difftest (seed 79, interp vs cpu): a host loop whose body yields a view
-- (a reversed or strided slice) copied it to carry it, then freed the copy with the
-- iteration's memory: the CPU device returned freed memory ("a result's memory is not
-- the call's nor an argument's") or wrong values.
-- ==
-- entry: main
-- input { [true] }   output { [true] }
-- input { [false, false, false, false, true, true] }   output { [true, true, false, false, false, false] }
-- ==
-- entry: twice
-- input { [1, 2, 3] }   output { [1, 2, 3] }
-- input { empty([0]i32) }   output { empty([0]i32) }
-- ==
-- entry: rows
-- input { [[1, 2], [3, 4], [5, 6]] }   output { [[5, 6], [3, 4], [1, 2]] }
entry main [n] (p2: [n]bool) : []bool =
  let v31 = (loop acc27 = p2 for i28 < 4i64 do (reverse p2))
  let v49 = (map (\x45 -> 0u64) (iota 3i64))
  in v31

entry twice [n] (xs: [n]i32) : []i32 = loop acc = xs for i < 2 do reverse acc

entry rows [n][m] (xs: [n][m]i32) : [n][m]i32 = loop acc = xs for i < 3 do reverse acc
