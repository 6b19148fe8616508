-- Float to integer conversions truncate towards zero: i32.f32, i64.f64, u8.f32, i8.f64.
-- ==
-- input { 2.7f32 -2.7f64 } output { 2 -2i64 2u8 -2i8 }
-- input { -0.5f32 100.99f64 } output { 0 100i64 0u8 100i8 }
-- input { 255.9f32 -127.9f64 } output { 255 -127i64 255u8 -127i8 }
entry main (a: f32) (b: f64) : (i32, i64, u8, i8) =
  (i32.f32 a, i64.f64 b, u8.f32 (f32.abs a), i8.f64 b)
