-- & ^ | share one precedence level and associate to the left; they bind tighter than ==;
-- ! on an integer is bitwise complement.
-- ==
-- input { 12 10 8 7 } output { 6 14 8 14 6 -13 true true }
-- input { -1 3 5 255 } output { 250 -1 3 -1 -4 0 false false }
entry main (a: i32) (b: i32) (c: i32) (d: i32) : (i32, i32, i32, i32, i32, i32, bool, bool) =
  (a | b ^ c & d, a | (b ^ (c & d)), a & b, a | b, a ^ b, !a, a & b == c, a & 1 == 0)
