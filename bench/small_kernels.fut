-- Many small kernels with a scalar read back every iteration (Futhark's worst case for
-- checks, srad-like): 1000 iterations of a diffusion step over 64k f32, each computing
-- the mean and the variance of the image (reductions) and using them on the host (the
-- loop condition), so that every iteration synchronises. `--sync-checks` reads the
-- failure slot after every launch on top of that.
-- ==
-- nobench input { [1f32, 2f32, 3f32, 4f32] 1 }
--         output { [1.0833334f32, 2f32, 3f32, 3.9166667f32] 1 }
-- nobench input { [1f32, 1f32] 5 } output { [1f32, 1f32] 1 }
-- nobench input { [1f32, 3f32, 2f32] 0 } output { [1f32, 3f32, 2f32] 0 }
-- "64k, 1000 iterations" no_interp no_cpu input @ data/small_kernels.in output @ data/small_kernels.out
entry main [n] (img: [n]f32) (iters: i32) : ([n]f32, i32) =
  let (img, it, _) =
    loop (img, it, q) = (img, 0i32, 1f32) while it < iters && q > 0f32 do
      let mean = f32.sum img / f32.i64 n
      let var = f32.sum (map (\x -> (x - mean) * (x - mean)) img) / f32.i64 n
      let q = var / (mean * mean)
      let step = 0.1f32 / (1f32 + q)
      let img' =
        map (\i ->
               let c = img[i]
               let l = img[i64.max 0 (i - 1)]
               let r = img[i64.min (n - 1) (i + 1)]
               in c + step * (l + r - 2f32 * c))
            (iota n)
      in (img', it + 1, q)
  in (img, it)
