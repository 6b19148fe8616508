-- Numeric-module functions as arguments: unary ones to map, binary ones to map2 / reduce / scan.
-- ==
-- input { [1.0f32, 4.0f32, 2.25f32] [2.0f32, 1.0f32, 3.0f32] }
-- output { [1.0f32, 2.0f32, 1.5f32] [2.0f32, 4.0f32, 3.0f32] 4.0f32 [1.0f32, 1.0f32, 1.0f32] [1.0f32, 4.0f32, 2.25f32] }
entry main [n] (xs: [n]f32) (ys: [n]f32) =
  ( map f32.sqrt xs
  , map2 f32.max xs ys
  , reduce f32.max (-f32.inf) xs
  , scan f32.min f32.inf xs
  , map2 f32.min xs (map (* 2) xs) |> map f32.abs )
