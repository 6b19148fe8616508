-- The prelude written in the language (compiler/prelude.cpp): array functions, and
-- numeric-module members (`f32.to_bits` is the prelude's `f32'to_bits`), on ordinary,
-- subnormal, negative and special values.
-- ==
-- input { [3, 1, 2] }
-- output { [0, 3, 4]
--          [3217031168u32, 71362u32, 2139095040u32] [-1.5f32, 1e-40f32]
--          [4614500768194494464u64, 9223372036854775809u64] [3.25f64, -5e-324f64]
--          1.316958f32 9.99995e-6f32 1.2009736023470738f64 8u8 1i32 [0i64, 1i64, 3i64] }

entry main (xs: []i32) =
  (exscan (+) 0 xs,
   map f32.to_bits [-1.5, 1e-40, f32.inf], map f32.from_bits [3217031168, 71362],
   map f64.to_bits [3.25, -5e-324], map f64.from_bits [4614500768194494464, 9223372036854775809],
   f32.acosh 2, f32.log1p 1e-5, f64.lgamma 3.5, u8.set_bit 3 0 1, i64.get_bit 63 (-1),
   tabulate_2d 2 3 (\i j -> i + j) |> flatten |> filter (> 0) |> take 3 |> indices
   |> map (\i -> i * (i + 1) / 2))
