-- reduce_by_index in parallel (docs/CODEGEN.md): one thread per update, atomics for
-- + (integers and floats), min/max (integers), & | ^; a compare-and-swap loop for the
-- other operators known to be commutative (min/max on floats, *); in index order on
-- one thread for operators that are not (`\_ b -> b`, the last value wins) and for
-- types without atomics (bool). Out-of-range indices (-1, 5) are ignored. Collisions
-- are heavy: 5 bins; with 100000 updates the CPU device runs them on several host
-- threads at once. The expected values were computed by a Python model of the
-- semantics (sequential, in index order).
-- ==
-- entry: ops
-- input { 0i64 }
-- output { [0i32, 0i32, 0i32, 0i32, 0i32] [1i64, 1i64, 1i64, 1i64, 1i64] [0u32, 0u32, 0u32, 0u32, 0u32] [7u64, 7u64, 7u64, 7u64, 7u64] [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32] [0.25f64, 0.25f64, 0.25f64, 0.25f64, 0.25f64] [0i32, 0i32, 0i32, 0i32, 0i32] [0i64, 0i64, 0i64, 0i64, 0i64] [2147483648u32, 2147483648u32, 2147483648u32, 2147483648u32, 2147483648u32] [0u64, 0u64, 0u64, 0u64, 0u64] [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32] [-10.0f64, -10.0f64, -10.0f64, -10.0f64, -10.0f64] [-1i32, -1i32, -1i32, -1i32, -1i32] [0u64, 0u64, 0u64, 0u64, 0u64] [5i32, 5i32, 5i32, 5i32, 5i32] [1i32, 1i32, 1i32, 1i32, 1i32] [2.0f64, 2.0f64, 2.0f64, 2.0f64, 2.0f64] [0i32, 0i32, 0i32, 0i32, 0i32] [false, false, false, false, false] }
-- input { 13i64 }
-- output { [-885i32, -588i32, -879i32, -589i32, -587i32] [-14874i64, -9877i64, -14802i64, -9926i64, -9902i64] [1161830751u32, 1788458060u32, 4203543429u32, 3428989595u32, 147926525u32] [4990025626462012738u64, 7681369315911520515u64, 18054082321272548800u64, 14727398570297873646u64, 635340061525167384u64] [0.5f32, 0.0f32, 3.5f32, -0.5f32, 0.5f32] [0.75f64, 0.25f64, 3.75f64, -0.25f64, 0.75f64] [-300i32, -299i32, -298i32, -297i32, -296i32] [0i64, 0i64, 0i64, 0i64, 0i64] [0u32, 2147483648u32, 1013904226u32, 2147483648u32, 2027808452u32] [3326683750974675154u64, 14727398570297873639u64, 7681369315911520508u64, 17418742259747381416u64, 10372713005361028285u64] [-1.0f32, -0.5f32, 0.0f32, -1.0f32, -0.5f32] [1.5f64, 0.5f64, 2.5f64, 0.5f64, 1.0f64] [-304i32, -299i32, -304i32, -300i32, -296i32] [61680u64, 28912u64, 61680u64, 61616u64, 61680u64] [-298i32, 15i32, -280i32, 14i32, 0i32] [1i32, 4i32, 27i32, 16i32, 25i32] [-2.0f64, 2.0f64, -2.0f64, -2.0f64, -2.0f64] [-290i32, -289i32, -288i32, -292i32, -291i32] [true, false, false, false, false] }
-- input { 100000i64 }
-- output { [3386100i32, 3403098i32, 3420101i32, 3437099i32, 3454102i32] [771190677i64, 765070552i64, 766770558i64, 772190732i64, 772630765i64] [265578720u32, 3715031518u32, 1544488625u32, 698974127u32, 2823398530u32] [13974051954079889511u64, 10344784483459119645u64, 1020914039895711004u64, 15838390642984492754u64, 6514520199421084113u64] [12857.0f32, 12856.0f32, 12857.5f32, 12856.5f32, 12858.0f32] [12857.25f64, 12856.25f64, 12857.75f64, 12856.75f64, 12858.25f64] [-300i32, -299i32, -298i32, -297i32, -296i32] [94998i64, 95000i64, 95000i64, 94996i64, 95001i64] [0u32, 82466u32, 164932u32, 247398u32, 671275u32] [18445634573989002582u64, 18446388240602937152u64, 18445812490542309814u64, 18446566157156244384u64, 18446100365572623483u64] [-1.0f32, -1.0f32, -1.0f32, -1.0f32, -1.0f32] [2.5f64, 2.5f64, 2.5f64, 2.5f64, 2.5f64] [1048592i32, 1048592i32, 1048592i32, 1048592i32, 1048592i32] [61680u64, 61680u64, 61680u64, 61680u64, 61680u64] [-203i32, -145i32, -838i32, -548i32, -901i32] [1i32, 0i32, -160772917i32, 0i32, 828506221i32] [-2.0f64, 2.0f64, -2.0f64, -2.0f64, -2.0f64] [695i32, 696i32, 697i32, 698i32, 699i32] [true, true, true, true, true] }
entry ops (n: i64) =
  let is = map (\i -> if i % 7 == 6 then (if i % 2 == 0 then -1 else 5) else i % 5) (iota n)
  let vi32 = map (\i -> i32.i64 (i % 1000) - 300) (iota n)
  let vi64 = map (\i -> (i * i) % 100003 - 5000) (iota n)
  let vu32 = map (\i -> u32.i64 i * 2654435761u32) (iota n)
  let vu64 = map (\i -> u64.i64 i * 11400714819323198485u64) (iota n)
  let vf32 = map (\i -> f32.i64 (i % 8) * 0.5 - 1) (iota n)
  let vf64 = map f64.f32 vf32
  in (reduce_by_index (replicate 5 0i32) (+) 0i32 is vi32,
      reduce_by_index (replicate 5 1i64) (+) 0i64 is vi64,
      reduce_by_index (replicate 5 0u32) (+) 0u32 is vu32,
      reduce_by_index (replicate 5 7u64) (+) 0u64 is vu64,
      reduce_by_index (replicate 5 0f32) (+) 0f32 is vf32,
      reduce_by_index (replicate 5 0.25f64) (+) 0f64 is vf64,
      reduce_by_index (replicate 5 0i32) i32.min i32.highest is vi32,
      reduce_by_index (replicate 5 0i64) i64.max i64.lowest is vi64,
      reduce_by_index (replicate 5 2147483648u32) u32.min u32.highest is vu32,
      reduce_by_index (replicate 5 0u64) u64.max u64.lowest is vu64,
      reduce_by_index (replicate 5 0f32) f32.min f32.inf is vf32,
      reduce_by_index (replicate 5 (-10f64)) f64.max (-f64.inf) is vf64,
      reduce_by_index (replicate 5 (-1i32)) (&) (-1i32) is (map (\v -> v | 0x10 | (1 << 20)) vi32),
      reduce_by_index (replicate 5 0u64) (|) 0u64 is (map (\v -> v & 0xF0F0) vu64),
      reduce_by_index (replicate 5 5i32) (^) 0i32 is vi32,
      reduce_by_index (replicate 5 1i32) (*) 1i32 is (map (\i -> i32.i64 (i % 5 + 1)) (iota n)),
      reduce_by_index (replicate 5 2f64) (*) 1f64 is (map (\i -> if i % 3 == 0 then -1 else 1) (iota n)),
      reduce_by_index (replicate 5 0i32) (\_ b -> b) 0i32 is vi32,
      reduce_by_index (replicate 5 false) (\a b -> a || b) false is (map (\i -> i % 97 == 0) (iota n)))
