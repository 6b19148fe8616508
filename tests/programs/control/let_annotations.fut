-- let bindings with type annotations, including on tuple patterns and arrays.
-- ==
-- input { 5 } output { 5i64 10 2.5f32 [5, 6] }
-- input { -1 } output { -1i64 -2 -0.5f32 [-1, 0] }
entry main (x: i32) : (i64, i32, f32, []i32) =
  let a: i64 = i64.i32 x
  let (b: i32, c: f32) = (x * 2, f32.i32 x / 2)
  let arr: []i32 = [x, x + 1]
  let arr2: [2]i32 = arr :> [2]i32
  in (a, b, c, arr2)
