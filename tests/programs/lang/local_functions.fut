-- Local functions: defined with `let` inside an expression, capturing variables of the
-- enclosing scope, passed to built-ins, polymorphic, operators (`<+>` binds like `<`,
-- looser than `+`), and nested.
-- ==
-- input { 3 [1, 2, 3] }  output { 5 [4, 5, 6] [8i64, 10i64] 7 true 12 }
-- input { 0 [7] }        output { 5 [7] [8i64, 10i64] 19 false 0 }
-- input { 1 [1, 2] }     error: Index \[5\] out of bounds for array of shape \[2\]

entry main (k: i32) (xs: []i32) =
  let add_k (x: i32) = x + k
  let twice f x = f (f x)
  let pair 'a (x: a) = (x, x)
  let (<+>) a b = a + 2 * b
  let bad (i: i64) = xs[i]
  let ys = map add_k xs
  let (a, b) = pair 4i64
  let r = if k == 1 then bad 5 else 0
  in (twice (\x -> x + 1) 3, ys, [a * 2, b + 6], 1 <+> 3 + xs[0] - 1, (pair true).0 && k > 0,
      r + k * 4)
