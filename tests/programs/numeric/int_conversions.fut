-- Integer-to-integer conversions wrap when narrowing; widening sign-extends only when
-- both types are signed (u64.i32 and u16.i8 zero-extend, as in Futhark's prelude).
-- ==
-- input { 300 }  output { 44u8 44i8 300u64 300i64 44u16 44i16 300 300u32 }
-- input { -1 }   output { 255u8 -1i8 4294967295u64 -1i64 255u16 255i16 -1 4294967295u32 }
-- input { 200 }  output { 200u8 -56i8 200u64 200i64 200u16 200i16 200 200u32 }
entry main (a: i32) : (u8, i8, u64, i64, u16, i16, i32, u32) =
  (u8.i32 a, i8.i32 a, u64.i32 a, i64.i32 a, u16.i8 (i8.i32 a), i16.u8 (u8.i32 a),
   i32.u64 (u64.i32 a), u32.i32 a)
