-- Found by kerb difftest (seed 90906, interp vs cpu): a map over no elements whose rows
-- are a map over an array of 2 elements (of a size the types do not know: a loop's
-- result) that fail: compiled code gave empty([0][2]), the interpreter empty([0][0]),
-- since its trial call of the lambda (Note [Inner sizes of empty arrays] in
-- compiler/interpreter.cpp) failed. In the trial, map elements are isolated now, so a map
-- whose every element fails still has its length.
-- ==
-- input { empty([0]i16) }   output { empty([0][2]f64) }
-- input { [1i16] }   error: Assertion is false: false
entry main [m] (xs: [m]i16) : [][]f64 =
  let v = map (\_ -> 8u8) (loop acc = replicate 2 0i64 for i < 3 do acc)
  in map (\_ -> map (\_ -> assert false 0.0) v) xs
