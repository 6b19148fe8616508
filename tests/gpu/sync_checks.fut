-- What --sync-checks costs on the many-small-kernels program when its kernels can fail:
-- bench/small_kernels.fut (srad-like, 1000 iterations over 64k f32, a scalar read back
-- every iteration) with the neighbours read through index arrays, as Rodinia's srad
-- does (iN, iS, jW, jE). The clamped indices of small_kernels.fut are proved in range,
-- so its kernels cannot fail and --sync-checks has nothing to wait for; an index read
-- from an array is data, so here the stencil kernel keeps its two checks and
-- --sync-checks synchronises after every launch of it. Same inputs and results as
-- small_kernels. Run on the GPU (bench data from `python3 bench/gen_data.py small_kernels`):
--   kerb bench tests/gpu/sync_checks.fut --device cuda --variant=--unsafe --variant= --variant=--sync-checks
-- ==
-- nobench input { [1f32, 2f32, 3f32, 4f32] 1 }
--         output { [1.0833334f32, 2f32, 3f32, 3.9166667f32] 1 }
-- nobench input { [1f32, 1f32] 5 } output { [1f32, 1f32] 1 }
-- "64k, 1000 iterations, index arrays" no_interp no_cpu input @ ../../bench/data/small_kernels.in output @ ../../bench/data/small_kernels.out

entry main [n] (img: [n]f32) (iters: i32) : ([n]f32, i32) =
  let west = map (\i -> i64.max 0 (i - 1)) (iota n)
  let east = map (\i -> i64.min (n - 1) (i + 1)) (iota n)
  let (img, it, _) =
    loop (img, it, q) = (img, 0i32, 1f32) while it < iters && q > 0f32 do
      let mean = f32.sum img / f32.i64 n
      let var = f32.sum (map (\x -> (x - mean) * (x - mean)) img) / f32.i64 n
      let q = var / (mean * mean)
      let step = 0.1f32 / (1f32 + q)
      let img' =
        map (\i ->
               let c = img[i]
               let l = img[west[i]]
               let r = img[east[i]]
               in c + step * (l + r - 2f32 * c))
            (iota n)
      in (img', it + 1, q)
  in (img, it)
