-- Rodinia's hotspot, ported with explicit indexing: the temperature of a chip's grid
-- under a power map, `iters` explicit-Euler steps of a 5-point stencil with Rodinia's
-- constants; neighbours beyond the border are the cell itself (clamped indices).
-- Written as a Futhark programmer would: a loop of a map of maps. 1024x1024, 100 steps.
-- ==
-- nobench input { 1 [[320f32, 330f32], [340f32, 350f32]] [[1f32, 0f32], [0f32, 2f32]] }
--         output { [[319.984f32, 329.98334f32], [339.98267f32, 349.982f32]] }
-- nobench input { 0 [[1f32]] [[1f32]] } output { [[1f32]] }
-- "1024x1024, 100 steps" no_interp no_cpu input @ data/hotspot.in output @ data/hotspot.out

def t_chip : f32 = 0.0005f32
def chip_height : f32 = 0.016f32
def chip_width : f32 = 0.016f32
def amb_temp : f32 = 80f32

entry main [rows][cols] (iters: i32) (temp: [rows][cols]f32) (power: [rows][cols]f32)
    : [rows][cols]f32 =
  let grid_height = chip_height / f32.i64 rows
  let grid_width = chip_width / f32.i64 cols
  let cap = 0.5f32 * 1.75e6f32 * t_chip * grid_width * grid_height
  let rx = grid_width / (2f32 * 100f32 * t_chip * grid_height)
  let ry = grid_height / (2f32 * 100f32 * t_chip * grid_width)
  let rz = t_chip / (100f32 * grid_height * grid_width)
  let max_slope = 3.0e6f32 / (0.5f32 * t_chip * 1.75e6f32)
  let step = 0.001f32 / max_slope
  in loop temp for _i < iters do
       map (\r ->
              map (\c ->
                     let t = temp[r, c]
                     let n = temp[i64.max 0 (r - 1), c]
                     let s = temp[i64.min (rows - 1) (r + 1), c]
                     let w = temp[r, i64.max 0 (c - 1)]
                     let e = temp[r, i64.min (cols - 1) (c + 1)]
                     let delta = (step / cap)
                                 * (power[r, c] + (s + n - 2f32 * t) / ry
                                    + (e + w - 2f32 * t) / rx + (amb_temp - t) / rz)
                     in t + delta)
                  (iota cols))
           (iota rows)
