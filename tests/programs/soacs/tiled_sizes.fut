-- Scans and reductions in tiles (Note [Tiled block kernels] in codegen/block_kernels.cpp)
-- at sizes around a tile (nt threads * items per thread; nt = 8 emulated threads on the
-- CPU, 256 on the GPU; items = 15, 7, 5, 3 for elements of 1-4, 8, 12, 16 bytes) and
-- over many blocks (the large cases: up to the GPU's 1024 blocks, whose prefix over the
-- block totals then spans two tiles of 4 x i32), with non-commutative operators on
-- tuples. Each entry checks every element of its scan with the recurrence
-- s[i] = s[i-1] op x[i] (a map) and returns the number of mismatches, whether the
-- reduction equals the scan's last element, and that element.
-- ==
-- entry: sum32
-- input { 0i64 } output { 0i64 true 0i32 }
-- input { 1i64 } output { 0i64 true -500i32 }
-- input { 2i64 } output { 0i64 true -88i32 }
-- input { 119i64 } output { 0i64 true 1316i32 }
-- input { 120i64 } output { 0i64 true 1236i32 }
-- input { 121i64 } output { 0i64 true 1067i32 }
-- input { 241i64 } output { 0i64 true 2314i32 }
-- input { 3839i64 } output { 0i64 true 1782i32 }
-- input { 3840i64 } output { 0i64 true 1953i32 }
-- input { 3841i64 } output { 0i64 true 2035i32 }
-- input { 100000i64 } output { 0i64 true 950i32 }
-- no_interp input { 2500000i64 } output { 0i64 true 3463i32 }

-- ==
-- entry: affine
-- input { 0i64 } output { 0i64 true 1i32 0i32 }
-- input { 1i64 } output { 0i64 true -1i32 -8i32 }
-- input { 55i64 } output { 0i64 true -387420489i32 1027951719i32 }
-- input { 56i64 } output { 0i64 true -387420489i32 1027951716i32 }
-- input { 57i64 } output { 0i64 true -1162261467i32 -1211112154i32 }
-- input { 1791i64 } output { 0i64 true 1452166733i32 -244414546i32 }
-- input { 1792i64 } output { 0i64 true -1452166733i32 244414554i32 }
-- input { 1793i64 } output { 0i64 true -1452166733i32 244414559i32 }
-- input { 100000i64 } output { 0i64 true 1989557811i32 401404008i32 }

-- ==
-- entry: matrix
-- input { 0i64 } output { 0i64 true 1i32 0i32 0i32 1i32 }
-- input { 1i64 } output { 0i64 true 1i32 1i32 0i32 1i32 }
-- input { 23i64 } output { 0i64 true -403i32 -639i32 -292i32 -463i32 }
-- input { 24i64 } output { 0i64 true -403i32 -1042i32 -292i32 -755i32 }
-- input { 25i64 } output { 0i64 true 1042i32 -403i32 755i32 -292i32 }
-- input { 767i64 } output { 0i64 true -1576333507i32 1036384114i32 266516559i32 -1043300389i32 }
-- input { 768i64 } output { 0i64 true -1036384114i32 -1576333507i32 1043300389i32 266516559i32 }
-- input { 769i64 } output { 0i64 true -1036384114i32 1682249675i32 1043300389i32 1309816948i32 }
-- input { 100000i64 } output { 0i64 true -393955774i32 1960848633i32 844890897i32 1466615845i32 }
-- no_interp input { 1600000i64 } output { 0i64 true -1575011518i32 1626359289i32 1266222161i32 -513681467i32 }

-- ==
-- entry: argmins
-- input { 0i64 } output { 0i64 true f32.inf -1i64 }
-- input { 1i64 } output { 0i64 true 0.0f32 0i64 }
-- input { 39i64 } output { 0i64 true 0.0f32 21i64 }
-- input { 40i64 } output { 0i64 true 0.0f32 21i64 }
-- input { 41i64 } output { 0i64 true 0.0f32 21i64 }
-- input { 1279i64 } output { 0i64 true 0.0f32 644i64 }
-- input { 1280i64 } output { 0i64 true 0.0f32 644i64 }
-- input { 1281i64 } output { 0i64 true 0.0f32 644i64 }
-- input { 300000i64 } output { 0i64 true 0.0f32 150003i64 }

-- ==
-- entry: lastnzs
-- input { 0i64 } output { 0i64 true 0i8 }
-- input { 1i64 } output { 0i64 true 0i8 }
-- input { 119i64 } output { 0i64 true 17i8 }
-- input { 120i64 } output { 0i64 true 17i8 }
-- input { 121i64 } output { 0i64 true 17i8 }
-- input { 3839i64 } output { 0i64 true 17i8 }
-- input { 3840i64 } output { 0i64 true 17i8 }
-- input { 3841i64 } output { 0i64 true 17i8 }
-- input { 100000i64 } output { 0i64 true 80i8 }

def mat (a: (i32, i32, i32, i32)) (b: (i32, i32, i32, i32)) : (i32, i32, i32, i32) =
  (a.0 * b.0 + a.1 * b.2, a.0 * b.1 + a.1 * b.3, a.2 * b.0 + a.3 * b.2, a.2 * b.1 + a.3 * b.3)

-- apply f first, then g
def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

def argmin (a: (f32, i64)) (b: (f32, i64)) : (f32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b

def lastnz (a: i8) (b: i8) : i8 = if b != 0 then b else a

entry sum32 (n: i64) : (i64, bool, i32) =
  let xs = map (\i -> i32.i64 ((i * 7919) % 1001) - 500) (iota n)
  let s = scan (+) 0 xs
  let r = reduce (+) 0 xs
  let bad = reduce (+) 0 (map (\i -> if (if i == 0 then s[0] == xs[0] else s[i] == s[i - 1] + xs[i]) then 0i64 else 1i64) (iota n))
  let last = if n == 0 then 0 else s[n - 1]
  in (bad, r == last, last)

entry affine (n: i64) : (i64, bool, i32, i32) =
  let fs = map (\i -> (2 * i32.i64 (i % 3) - 1, i32.i64 ((i * 31) % 17) - 8)) (iota n)
  let s = scan compose (1, 0) fs
  let r = reduce compose (1, 0) fs
  let bad = reduce (+) 0 (map (\i -> if (let e = if i == 0 then compose (1, 0) fs[i] else compose s[i - 1] fs[i]
                          in s[i].0 == e.0 && s[i].1 == e.1) then 0i64 else 1i64) (iota n))
  let last = if n == 0 then (1, 0) else s[n - 1]
  in (bad, r.0 == last.0 && r.1 == last.1, last.0, last.1)

entry matrix (n: i64) : (i64, bool, i32, i32, i32, i32) =
  let ms = map (\i -> let k = (i * i + i / 3) % 5
                      in if k < 2 then (1, 1, 0, 1) else if k < 4 then (1, 0, 1, 1) else (0, 1, -1, 0))
                (iota n)
  let s = scan mat (1, 0, 0, 1) ms
  let r = reduce mat (1, 0, 0, 1) ms
  let bad = reduce (+) 0 (map (\i -> if (let e = if i == 0 then ms[0] else mat s[i - 1] ms[i]
                          in s[i].0 == e.0 && s[i].1 == e.1 && s[i].2 == e.2 && s[i].3 == e.3) then 0i64 else 1i64) (iota n))
  let last = if n == 0 then (1, 0, 0, 1) else s[n - 1]
  in (bad, r.0 == last.0 && r.1 == last.1 && r.2 == last.2 && r.3 == last.3,
      last.0, last.1, last.2, last.3)

-- Ties everywhere (distances take 8 values, the smallest only in the second half):
-- the lowest index must win.
entry argmins (n: i64) : (i64, bool, f32, i64) =
  let ds = map (\i -> f32.i64 ((i * 13) % 7) + (if i < n / 2 then 1 else 0)) (iota n)
  let s = scan argmin (f32.inf, -1) (zip ds (iota n))
  let r = reduce argmin (f32.inf, -1) (zip ds (iota n))
  let bad = reduce (+) 0 (map (\i -> if (let e = if i == 0 then (ds[0], 0) else argmin s[i - 1] (ds[i], i)
                          in s[i].0 == e.0 && s[i].1 == e.1) then 0i64 else 1i64) (iota n))
  let last = if n == 0 then (f32.inf, -1) else s[n - 1]
  in (bad, r.0 == last.0 && r.1 == last.1, last.0, last.1)

entry lastnzs (n: i64) : (i64, bool, i8) =
  let xs = map (\i -> if i % 37 == 5 then i8.i64 (i % 100) + 1 else 0) (iota n)
  let s = scan lastnz 0 xs
  let r = reduce lastnz 0 xs
  let bad = reduce (+) 0 (map (\i -> if (s[i] == (if i == 0 then xs[0] else lastnz s[i - 1] xs[i])) then 0i64 else 1i64) (iota n))
  let last = if n == 0 then 0 else s[n - 1]
  in (bad, r == last, last)
