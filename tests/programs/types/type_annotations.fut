-- Parameter, return and let annotations with every primitive type in one function.
-- ==
-- input { 1i8 2i16 3i32 4i64 5u8 6u16 7u32 8u64 true 1.5f32 2.5f64 }
-- output { 40.0f64 false }
entry main (a: i8) (b: i16) (c: i32) (d: i64) (e: u8) (f: u16) (g: u32) (h: u64)
           (p: bool) (x: f32) (y: f64) : (f64, bool) =
  let s: f64 = f64.i8 a + f64.i16 b + f64.i32 c + f64.i64 d + f64.u8 e + f64.u16 f
               + f64.u32 g + f64.u64 h + f64.f32 x + y
  let q: bool = !p
  in (s, q)
