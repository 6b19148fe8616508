-- reduce with numeric-module functions as the operator and their constants as neutral elements.
-- ==
-- input { [3, -8, 12, 5] [2.5f32, -1.0f32, 7.25f32] }  output { 12 -8 7.25f32 -1.0f32 }
-- input { empty([0]i32) empty([0]f32) }  output { -2147483648 2147483647 -f32.inf f32.inf }
entry main (xs: []i32) (fs: []f32) : (i32, i32, f32, f32) =
  ( reduce i32.max i32.lowest xs
  , reduce i32.min i32.highest xs
  , reduce f32.max (-f32.inf) fs
  , reduce f32.min f32.inf fs )
