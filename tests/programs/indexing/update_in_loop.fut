-- let-updates inside a loop: reverse an array in place by swapping.
-- ==
-- input { [1, 2, 3, 4, 5] } output { [5, 4, 3, 2, 1] }
-- input { [1, 2] } output { [2, 1] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry main [n] (xs: [n]i32) : [n]i32 =
  loop a = copy xs for i < n / 2 do
    let t = a[i]
    let a[i] = a[n - 1 - i]
    let a[n - 1 - i] = t
    in a
