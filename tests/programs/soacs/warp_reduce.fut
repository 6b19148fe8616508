-- Non-commutative reductions in warp-contiguous parts (Note [Warp-contiguous
-- reductions] in codegen/block_kernels.cpp): each warp (4 emulated threads x 2 on the
-- CPU, 32 x 8 on the GPU) folds its own contiguous run of the block's part in warp
-- tiles of w * items elements (items: 15 for i8, 7 for (i32, i32), 5 for (f32, i64)).
-- Every length of a sweep (empty runs of some warps, partial tiles, one block on the
-- GPU up to 2048) and the lengths around a full warp tile in each of the GPU's 1024
-- blocks (1024 * 8 * 32 * items) are checked against references that do not use the
-- tiled kernels: a sequential loop in one thread (compose), a commutative max of the
-- indices (the last non-zero) and a commutative min then min index (argmin with ties);
-- and a scan (whose tiles scan per warp, Note [Tiled block kernels]) element by element.
-- ==
-- entry: sweep
-- input { 0i64 300i64 } output { 0i64 }
-- input { 2040i64 2060i64 } output { 0i64 }
-- input { 4090i64 4100i64 } output { 0i64 }

-- ==
-- entry: one
-- input { 1i64 } output { 0i64 }
-- input { 100000i64 } output { 0i64 }
-- no_interp input { 1310719i64 } output { 0i64 }
-- no_interp input { 1310720i64 } output { 0i64 }
-- no_interp input { 1310721i64 } output { 0i64 }
-- no_interp input { 1835008i64 } output { 0i64 }
-- no_interp input { 1835009i64 } output { 0i64 }
-- no_interp input { 3932159i64 } output { 0i64 }
-- no_interp input { 3932160i64 } output { 0i64 }
-- no_interp input { 3932161i64 } output { 0i64 }

-- apply f first, then g
def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

def lastnz (a: i8) (b: i8) : i8 = if b != 0 then b else a

def argmin (a: (f32, i64)) (b: (f32, i64)) : (f32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b

-- How many of the three reductions over n elements differ from their references.
def check (n: i64) : i64 =
  let fs = map (\i -> (2 * i32.i64 (i % 3) - 1, i32.i64 ((i * 31) % 17) - 8)) (iota n)
  let r = reduce compose (1, 0) fs
  let e = (map (\_ -> loop acc = (1, 0) for i < n do compose acc fs[i]) (iota 1))[0]
  let xs = map (\i -> if i % 37 == 5 then i8.i64 (i % 100) + 1 else 0) (iota n)
  let z = reduce lastnz 0 xs
  let zi = reduce i64.max (-1) (map (\i -> if xs[i] != 0 then i else -1) (iota n))
  let ez = if zi < 0 then 0 else xs[zi]
  let ds = map (\i -> f32.i64 ((i * 13) % 7) + (if i < n / 2 then 1 else 0)) (iota n)
  let a = reduce argmin (f32.inf, -1) (zip ds (iota n))
  let dmin = reduce f32.min f32.inf ds
  let imin = reduce i64.min n (map (\i -> if ds[i] == dmin then i else n) (iota n))
  let ea = if n == 0 then (f32.inf, -1) else (dmin, imin)
  -- The scan (its tiles scan per warp): each element from the one before, the last
  -- against the loop.
  let s = scan compose (1, 0) fs
  let sbad = reduce (+) 0 (map (\i -> let p = if i == 0 then (1, 0) else s[i - 1]
                                     let q = compose p fs[i]
                                     in if s[i].0 == q.0 && s[i].1 == q.1 then 0i64 else 1i64) (iota n))
  let slast = if n == 0 then (1, 0) else s[n - 1]
  in (if r.0 == e.0 && r.1 == e.1 then 0 else 1) + (if z == ez then 0 else 1)
     + (if a.0 == ea.0 && a.1 == ea.1 then 0 else 1)
     + sbad + (if slast.0 == e.0 && slast.1 == e.1 then 0 else 1)

entry one (n: i64) : i64 = check n

entry sweep (lo: i64) (hi: i64) : i64 = loop bad = 0i64 for n < hi - lo do bad + check (lo + n)
