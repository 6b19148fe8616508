-- A literal with a type suffix is read modulo the type's width, as Futhark's lexer reads
-- it (255i8 is -1; fluid.fut's clamp returns 255i8): only an unsuffixed literal, whose
-- type inference chose, must fit its type. A float beyond the type's range is infinite.
-- Values in test data and inputs are read the same way (255i8 is -1).
-- ==
-- input { 0i8 }  output { -1i8 0u8 255u8 0i16 4294967295u32 true -128i8 }
-- input { 1i8 }  output { 0i8 1u8 0u8 1i16 0u32 true -127i8 }
-- input { 255i8 }  output { -2i8 255u8 254u8 -1i16 254u32 true 127i8 }
entry main (x: i8) : (i8, u8, u8, i16, u32, bool, i8) =
  ( 255i8 + x
  , 256u8 + u8.i8 x
  , 0x1FFu8 + u8.i8 x
  , 65536i16 + i16.i8 x
  , -1u32 + u32.i8 x
  , f32.isinf 1e40f32
  , 128i8 + x
  )
