-- Mandelbrot-style escape-time iteration with a while loop per pixel, over a small grid
-- of complex points c = (x0 + j*dx, y0 + i*dy) in f64.
-- ==
-- input { 3i64 5i64 -2.0f64 -1.0f64 0.75f64 1.0f64 20 }
-- output { [[1, 3, 4, 4, 2], [20, 20, 20, 20, 3], [1, 3, 4, 4, 2]] }
def escape (cr: f64) (ci: f64) (limit: i32) : i32 =
  let (_, _, it) =
    loop (zr, zi, it) = (0f64, 0f64, 0i32) while it < limit && zr * zr + zi * zi <= 4.0 do
      (zr * zr - zi * zi + cr, 2.0 * zr * zi + ci, it + 1)
  in it

entry main (rows: i64) (cols: i64) (x0: f64) (y0: f64) (dx: f64) (dy: f64) (limit: i32) : [rows][cols]i32 =
  tabulate rows (\i -> tabulate cols (\j -> escape (x0 + f64.i64 j * dx) (y0 + f64.i64 i * dy) limit))
