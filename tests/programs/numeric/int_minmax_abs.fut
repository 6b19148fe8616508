-- i32.min, i32.max, i32.abs, i32.sgn and the same on i8, i64 and u32.
-- ==
-- input { -5 3 } output { -5 3 5 -1 -5i8 3i8 5i64 3u32 4294967291u32 }
-- input { 7 7 } output { 7 7 7 1 7i8 7i8 7i64 7u32 7u32 }
-- input { 0 -1 } output { -1 0 0 0 -1i8 0i8 0i64 0u32 4294967295u32 }
entry main (a: i32) (b: i32) : (i32, i32, i32, i32, i8, i8, i64, u32, u32) =
  (i32.min a b, i32.max a b, i32.abs a, i32.sgn a,
   i8.min (i8.i32 a) (i8.i32 b), i8.max (i8.i32 a) (i8.i32 b), i64.abs (i64.i32 a),
   u32.min (u32.i32 a) (u32.i32 b), u32.max (u32.i32 a) (u32.i32 b))
