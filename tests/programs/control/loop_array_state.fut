-- A loop whose state is an array updated in place each iteration (prefix sums).
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
-- input { [5] } output { [5] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry main [n] (xs: [n]i32) : [n]i32 =
  loop acc = copy xs for i < n do
    if i == 0 then acc else acc with [i] = acc[i - 1] + acc[i]
