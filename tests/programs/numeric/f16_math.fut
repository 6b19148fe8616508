-- f16's libm functions are computed in single precision and rounded to half, by the
-- interpreter and the compiled code alike (found by kerb difftest: the code generator
-- stopped with an internal error on f16.exp).
-- ==
-- input { [0.5f16, 1.0f16, -2.0f16] }
-- output { [1.648f16, 2.719f16, 0.1354f16] [0.4795f16, 0.8413f16, -0.909f16] [0.5f16, 1.0f16, 2.0f16]
--          [0.4636f16, 0.785f16, 1.107f16] }
entry main (xs: []f16) : ([]f16, []f16, []f16, []f16) =
  ( map f16.exp xs
  , map f16.sin xs
  , map (\x -> f16.pow (f16.abs x) 1.0f16) xs
  , map (\x -> f16.atan2 (f16.abs x) 1.0f16 + f16.tanh 0.0f16 - f16.log 1.0f16 * x) xs )
