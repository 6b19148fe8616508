-- An entry point whose first parameter's size is an expression of sizes that only later
-- parameters bind ([r * c] before [r][c], as in finpar's OptionPricing): every size is
-- bound from the arguments before any is checked, on every device.
-- ==
-- input { [1, 2, 3, 4, 5, 6] [[10, 10, 10], [20, 20, 20]] }  output { [[11, 12, 13], [24, 25, 26]] }
-- input { [1, 2, 3, 4, 5] [[10, 10, 10], [20, 20, 20]] }  error: entry point arguments have invalid sizes

entry main [r] [c] (flat: [r * c]i32) (offsets: [r][c]i32) : [r][c]i32 =
  map2 (map2 (+)) (unflatten flat) offsets
