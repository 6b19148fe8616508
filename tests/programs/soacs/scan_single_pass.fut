-- The single-pass scan (decoupled look-back: Note [Single-pass scan] in
-- codegen/scan_kernels.cpp) at sizes around its tiles. A scan of one scalar of at most
-- 32 bits keeps its elements in registers, 24 a thread (Note [Single-pass tiles in
-- registers]): tiles of 8 x 24 = 192 elements on the CPU device (warps of 4 x 24 = 96)
-- and 128 x 24 = 3072 on the GPU (warps of 768); wider ones go through a tile in shared
-- memory of 8 x 15 = 120 and 256 x 15 = 3840 elements of 4 bytes (8 bytes: 56 and 1792;
-- 16 bytes: 24 and 768). So each entry runs empty, one element, a tile -1, exactly and
-- +1 on both devices (the 32-bit ones also at both tile sizes and a warp's part + 1),
-- and a million elements (thousands of tiles on the CPU, hundreds on the GPU) and 2^24
-- (thousands of tiles on the GPU; not interpreted). Each returns one element of the
-- result and a checksum weighted by position (a tile scanned from a wrong prefix,
-- misplaced or not written changes it); the expected values were computed apart
-- (Python, wrapping as the types do) and agree with `kerb run --device interp` on the
-- small inputs (those of the 24-element tiles were taken from the interpreter).
-- Operators: + on i32 (packed status words), i64 and f32; || on bool; two
-- non-commutative ones: affine maps x -> a*x + b composed, on (i32, i32) (a flag and
-- two arrays of values per tile) and packed into one u32 (16-bit a and b: one status
-- word), and 2 x 2 matrix products on four i32 (16 bytes); several scans in one call.
-- ==
-- entry: add_i32
-- input { 0i64 0i64 } output { 0 0 }
-- input { 1i64 0i64 } output { -6 -6 }
-- input { 119i64 118i64 } output { -5 -48805 }
-- input { 120i64 119i64 } output { -10 -50005 }
-- input { 121i64 120i64 } output { -8 -50973 }
-- input { 3839i64 3838i64 } output { -8 -12987158 }
-- input { 3840i64 3839i64 } output { -12 -12997238 }
-- input { 3841i64 3840i64 } output { -9 -13004807 }
-- input { 1000000i64 500000i64 } output { -8 791460289 }
-- input { 97i64 96i64 } output { -9i32 -33407i32 }
-- input { 191i64 190i64 } output { -10i32 -130287i32 }
-- input { 192i64 191i64 } output { -5i32 -131247i32 }
-- input { 193i64 192i64 } output { -6i32 -132405i32 }
-- input { 769i64 768i64 } output { -5i32 -2064780i32 }
-- input { 3071i64 3070i64 } output { -10i32 -10542920i32 }
-- input { 3072i64 3071i64 } output { -8i32 -10543496i32 }
-- input { 3073i64 3072i64 } output { -12i32 -10544372i32 }
-- no_interp no_cpu input { 16777216i64 8388608i64 } output { -8 1351121313 }
-- ==
-- entry: add_f32
-- input { 0i64 0i64 } output { 0.0f32 0i64 }
-- input { 1i64 0i64 } output { 0.0f32 0i64 }
-- input { 119i64 118i64 } output { 177.0f32 0i64 }
-- input { 120i64 119i64 } output { 180.0f32 0i64 }
-- input { 121i64 120i64 } output { 180.0f32 0i64 }
-- input { 3839i64 3838i64 } output { 5757.0f32 0i64 }
-- input { 3840i64 3839i64 } output { 5760.0f32 0i64 }
-- input { 3841i64 3840i64 } output { 5760.0f32 0i64 }
-- input { 1000000i64 500000i64 } output { 750000.0f32 0i64 }
-- input { 97i64 96i64 } output { 144.0f32 0i64 }
-- input { 191i64 190i64 } output { 285.0f32 0i64 }
-- input { 192i64 191i64 } output { 288.0f32 0i64 }
-- input { 193i64 192i64 } output { 288.0f32 0i64 }
-- input { 769i64 768i64 } output { 1152.0f32 0i64 }
-- input { 3071i64 3070i64 } output { 4605.0f32 0i64 }
-- input { 3072i64 3071i64 } output { 4608.0f32 0i64 }
-- input { 3073i64 3072i64 } output { 4608.0f32 0i64 }
-- no_interp no_cpu input { 4194304i64 2097152i64 } output { 3145728.0f32 0i64 }
-- ==
-- entry: or_bool
-- input { 0i64 0i64 } output { 0i64 }
-- input { 1i64 0i64 } output { 1i64 }
-- input { 119i64 39i64 } output { 80i64 }
-- input { 120i64 40i64 } output { 80i64 }
-- input { 121i64 40i64 } output { 81i64 }
-- input { 3839i64 1279i64 } output { 2560i64 }
-- input { 3840i64 1280i64 } output { 2560i64 }
-- input { 3841i64 1280i64 } output { 2561i64 }
-- input { 1000000i64 333333i64 } output { 666667i64 }
-- input { 97i64 32i64 } output { 65i64 }
-- input { 191i64 63i64 } output { 128i64 }
-- input { 192i64 64i64 } output { 128i64 }
-- input { 193i64 64i64 } output { 129i64 }
-- input { 769i64 256i64 } output { 513i64 }
-- input { 3071i64 1023i64 } output { 2048i64 }
-- input { 3072i64 1024i64 } output { 2048i64 }
-- input { 3073i64 1024i64 } output { 2049i64 }
-- ==
-- entry: affine16
-- input { 0i64 0i64 } output { 0u32 0 }
-- input { 1i64 0i64 } output { 65536u32 65536 }
-- input { 119i64 118i64 } output { 3990875304u32 1656499093 }
-- input { 120i64 119i64 } output { 3990875313u32 -474800499 }
-- input { 121i64 120i64 } output { 3382560285u32 793100866 }
-- input { 3839i64 3838i64 } output { 3952048279u32 -910407311 }
-- input { 3840i64 3839i64 } output { 1894337569u32 1195251129 }
-- input { 3841i64 3840i64 } output { 4164005162u32 -1569721165 }
-- input { 1000000i64 500000i64 } output { 338764971u32 -946263353 }
-- input { 97i64 96i64 } output { 3817171360u32 1711334216i32 }
-- input { 191i64 190i64 } output { 299705239u32 1782868676i32 }
-- input { 192i64 191i64 } output { 1498526199u32 1737090052i32 }
-- input { 193i64 192i64 } output { 1899486662u32 -1029171638i32 }
-- input { 769i64 768i64 } output { 1602593262u32 -1897182047i32 }
-- input { 3071i64 3070i64 } output { 1517368842u32 2085691538i32 }
-- input { 3072i64 3071i64 } output { 3806024304u32 1241534482i32 }
-- input { 3073i64 3072i64 } output { 2233413555u32 1071966749i32 }
-- ==
-- entry: twice
-- input { 0i64 0i64 } output { 0 0 }
-- input { 1i64 0i64 } output { -2 -2 }
-- input { 119i64 118i64 } output { -17853236 -808831800 }
-- input { 120i64 119i64 } output { -18450952 1272021256 }
-- input { 121i64 120i64 } output { -19063550 -1034668294 }
-- input { 3839i64 3838i64 } output { -618049664 -1524901088 }
-- input { 3840i64 3839i64 } output { 1960296704 151855904 }
-- input { 3841i64 3840i64 } output { 228914814 -604313842 }
-- input { 100000i64 99999i64 } output { -1189497248 133993664 }
-- input { 97i64 96i64 } output { -7998270i32 -249446142i32 }
-- input { 191i64 190i64 } output { -115598548i32 1813922855i32 }
-- input { 192i64 191i64 } output { -118013324i32 630201127i32 }
-- input { 193i64 192i64 } output { -120465735i32 -1144849248i32 }
-- input { 769i64 768i64 } output { 618502066i32 -965215053i32 }
-- input { 3071i64 3070i64 } output { -1072008500i32 -512723817i32 }
-- input { 3072i64 3071i64 } output { 2135058228i32 -1407354057i32 }
-- input { 3073i64 3072i64 } output { 1037708185i32 1330899416i32 }
-- ==
-- entry: mat2
-- input { 0i64 0i64 } output { 0 0 0 }
-- input { 1i64 0i64 } output { 1 0 1 }
-- input { 23i64 22i64 } output { 70304 123032 5990212 }
-- input { 24i64 23i64 } output { 193336 263640 12317572 }
-- input { 25i64 24i64 } output { 193336 263640 18908572 }
-- input { 767i64 766i64 } output { 0 0 797145932 }
-- input { 768i64 767i64 } output { 0 0 797145932 }
-- input { 769i64 768i64 } output { 0 0 797145932 }
-- input { 1000000i64 500000i64 } output { 0 0 797145932 }
-- ==
-- entry: add_i64
-- input { 0i64 0i64 } output { 0i64 0i64 }
-- input { 1i64 0i64 } output { -1000001i64 -1000001i64 }
-- input { 55i64 54i64 } output { -27997787i64 -28880278868i64 }
-- input { 56i64 55i64 } output { -27997704i64 -30448150292i64 }
-- input { 57i64 56i64 } output { -28997621i64 -32101014689i64 }
-- input { 1791i64 1790i64 } output { -893596031i64 -405636752583536i64 }
-- input { 1792i64 1791i64 } output { -893593344i64 -406344478511984i64 }
-- input { 1793i64 1792i64 } output { -894590657i64 -407053888902985i64 }
-- input { 1000000i64 500000i64 } output { -62500750001i64 9080862377503667157i64 }
-- no_interp no_cpu input { 16777216i64 8388608i64 } output { -81043667291i64 -3618099962036281149i64 }
-- ==
-- entry: affine
-- input { 0i64 0i64 } output { 0 0 0 }
-- input { 1i64 0i64 } output { -1 0 0 }
-- input { 55i64 54i64 } output { -387420489 -62169497 788778893 }
-- input { 56i64 55i64 } output { -387420489 -62169497 1602254357 }
-- input { 57i64 56i64 } output { -1162261467 -186508490 -438794981 }
-- input { 1791i64 1790i64 } output { 1452166733 -752411536 -18168969 }
-- input { 1792i64 1791i64 } output { -1452166733 752411545 -1108679473 }
-- input { 1793i64 1792i64 } output { -1452166733 752411555 -1446770502 }
-- input { 1000000i64 500000i64 } output { -1762936827 1700906059 211744699 }

def weigh [n] (s: [n]i32) : i32 =
  reduce (+) 0 (map2 (\x i -> x * (i32.i64 (i % 1000) + 1)) s (iota n))

def weigh64 [n] (s: [n]i64) : i64 =
  reduce (+) 0 (map2 (\x i -> x * (i % 1000 + 1)) s (iota n))

def at 't [n] (s: [n]t) (k: i64) (z: t) : t = if n == 0 then z else s[k]

entry add_i32 (n: i64) (k: i64) : (i32, i32) =
  let s = scan (+) 0 (map (\i -> i32.i64 (i * 7 % 13) - 6) (iota n))
  in (at s k 0, weigh s)

entry add_i64 (n: i64) (k: i64) : (i64, i64) =
  let s = scan (+) 0 (map (\i -> i * 1000003 % 2000003 - 1000001) (iota n))
  in (at s k 0, weigh64 s)

-- Prefix sums of i % 4 are exact in f32 up to 2^24: each element is compared with
-- its closed form (the count of wrong ones, expected 0).
entry add_f32 (n: i64) (k: i64) : (f32, i64) =
  let s = scan (+) 0 (map (\i -> f32.i64 (i % 4)) (iota n))
  let want (i: i64) = let q = (i + 1) / 4 let r = (i + 1) % 4 in f32.i64 (q * 6 + r * (r - 1) / 2)
  in (at s k 0, reduce (+) 0 (map2 (\x i -> if x == want i then 0 else 1) s (iota n)))

entry or_bool (n: i64) (k: i64) : i64 =
  let s = scan (||) false (map (\i -> i == k) (iota n))
  in reduce (+) 0 (map (\b -> if b then 1 else 0) s)

def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

entry affine (n: i64) (k: i64) : (i32, i32, i32) =
  let s = scan compose (1, 0) (map (\i -> (i32.i64 (i % 3) * 2 - 1, i32.i64 (i % 11))) (iota n))
  let (as, bs) = unzip s
  in (at as k 0, at bs k 0, weigh bs)

def compose16 (f: u32) (g: u32) : u32 =
  let fa = f >> 16
  let fb = f & 0xffff
  let ga = g >> 16
  let gb = g & 0xffff
  in (((ga * fa) & 0xffff) << 16) | ((ga * fb + gb) & 0xffff)

entry affine16 (n: i64) (k: i64) : (u32, i32) =
  let s = scan compose16 0x10000 (map (\i -> (u32.i64 (i % 7 * 2 + 1) << 16) | u32.i64 (i % 11)) (iota n))
  in (at s k 0, weigh (map i32.u32 s))

def mul2 (a: (i32, i32, i32, i32)) (b: (i32, i32, i32, i32)) : (i32, i32, i32, i32) =
  (a.0 * b.0 + a.1 * b.2, a.0 * b.1 + a.1 * b.3, a.2 * b.0 + a.3 * b.2, a.2 * b.1 + a.3 * b.3)

entry mat2 (n: i64) (k: i64) : (i32, i32, i32) =
  let s = scan mul2 (1, 0, 0, 1) (map (\i -> (1, i32.i64 (i % 3), i32.i64 (i % 2), 1)) (iota n))
  let (a, b, _, d) = unzip4 s
  in (at a k 0, at b k 0, weigh d)

-- Five scans in one call (the counter and statuses are cleared for each launch).
entry twice (n: i64) (k: i64) : (i32, i32) =
  let a = scan (+) 0 (map (\i -> i32.i64 (i % 5) - 2) (iota n))
  let b = scan (+) 0 a
  let c = loop c = b for _j < 3 do scan (+) 0 c
  in (at c k 0, weigh c)
