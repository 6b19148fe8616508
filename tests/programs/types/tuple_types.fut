-- Tuples of mixed primitive types as parameters, results and let-bound values.
-- ==
-- input { 1 2.0f32 true } output { 2.0f32 1 false 3i64 }
-- input { -4 0.5f32 false } output { 0.5f32 -4 true 3i64 }
def swap_pair (t: (i32, f32)) : (f32, i32) = (t.1, t.0)
entry main (a: i32) (b: f32) (c: bool) : (f32, i32, bool, i64) =
  let (x, y) = swap_pair (a, b)
  let nested: ((bool, i64), i32) = ((!c, 3), 0)
  let ((n0, n1), _) = nested
  in (x, y, n0, n1)
