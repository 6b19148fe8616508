-- A function passed where one with a unique result is expected must give a unique
-- result.
-- ==
-- error: type_uniq_function_result_not_unique\.fut:8:11: error: Cannot apply "fill" to "g" \(invalid type\): return types \[\]i32 and \*\[\]i32 have incompatible uniqueness\.
def fill (f: i64 -> *[]i32) : *[]i32 = f 3 with [0] = 1
def main (xs: []i32) : *[]i32 =
  let g (_: i64) : []i32 = xs
  in fill g
