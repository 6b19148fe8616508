-- Dot products in i32 (wrapping), i64 and f32, and the squared Euclidean norm.
-- ==
-- input { [1, 2, 3] [4, -5, 6] [0.5f32, 1.5f32, -2.0f32] }  output { 12 12i64 6.5f32 }
-- input { [65536, 1] [65536, 1] [3.0f32] }                output { 1 4294967297i64 9.0f32 }
-- input { empty([0]i32) empty([0]i32) empty([0]f32) }     output { 0 0i64 0.0f32 }
def dot_i32 [n] (a: [n]i32) (b: [n]i32) : i32 = reduce (+) 0 (map2 (*) a b)

def dot_i64 [n] (a: [n]i32) (b: [n]i32) : i64 =
  map2 (\x y -> i64.i32 x * i64.i32 y) a b |> i64.sum

def norm2 [n] (v: [n]f32) : f32 = f32.sum (map (\x -> x * x) v)

entry main [n] (a: [n]i32) (b: [n]i32) (v: []f32) : (i32, i64, f32) =
  (dot_i32 a b, dot_i64 a b, norm2 v)
