-- Parameters for `kerb dataset` (tests/cli/cli_test.sh): sizes shared by name, a size
-- expression, a constant size, an integer parameter that names a size, a tuple, a record
-- and an array of tuples.
entry main [n] [m] (k: i64) (xs: [n][m]f32) (ys: [m * 2]i32) (c: [3]u8) (p: (bool, [n]i64))
                   (r: {b: f64, a: i32}) (zs: [k]i16) (ps: [m](i8, u64)) : i64 =
  n + m + k + i64.i32 r.a * 0 + length ys + length c + length p.1 + length zs + length ps

entry none : i32 = 7

-- A size named by a top-level constant has the constant's value (5), not --size.
def width : i64 = 2 + 3
entry fixed (xs: [width]i32) (ys: [width][2]f32) : i64 = length xs + length ys
