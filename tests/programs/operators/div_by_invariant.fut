-- Integer division by a scalar that a kernel gets from the host (a parameter, a size)
-- goes by a magic number when 1 <= d <= 2^31 and 0 <= x < 2^31, else by the division
-- (Note [Magic divisors] in codegen/scalar_ops.cpp). Each entry divides dividends
-- around 0, 2^31 and the type's limits by d (the magic path where it applies) and by
-- the same d read from an array (always the division), and returns the number of
-- elements where / % // %% differ between the two (0) and a sum of the results (as the
-- interpreter computes it), for divisors on both sides of 1 and 2^31. A zero divisor
-- still fails.
-- ==
-- entry: i64s
-- input { 1i64 3000i64 } output { 0i64 22606055557500i64 }
-- input { 3i64 3000i64 } output { 0i64 7535351877500i64 }
-- input { 16i64 4099i64 } output { 0i64 2133978518262i64 }
-- input { 1000003i64 3000i64 } output { 0i64 15449025978i64 }
-- input { 2147483647i64 3000i64 } output { 0i64 27249041825052i64 }
-- input { 2147483648i64 3000i64 } output { 0i64 27249041820898i64 }
-- input { 2147483649i64 3000i64 } output { 0i64 27249041816744i64 }
-- input { -1i64 3000i64 } output { 0i64 -22606055557500i64 }
-- input { -3i64 3000i64 } output { 0i64 -7535351850500i64 }
-- input { -9223372036854775808i64 100i64 } output { 0i64 904626261106i64 }
-- input { 7i64 0i64 } output { 0i64 0i64 }
-- input { 0i64 10i64 } error: division by zero
entry i64s (d: i64) (n: i64) : (i64, i64) =
  let ds = replicate n d
  let xs = map (\i -> let k = i % 8
                      in if k == 0 then i
                         else if k == 1 then 2147483647 - i
                         else if k == 2 then 2147483648 + i
                         else if k == 3 then -i
                         else if k == 4 then 9223372036854775807 - i
                         else if k == 5 then -9223372036854775807 - 1 + i
                         else if k == 6 then i * 104729
                         else (i << 20) + i)
               (iota n)
  let diff = map2 (\x e -> i64.bool (x / d != x / e || x % d != x % e || x // d != x // e || x %% d != x %% e))
                  xs ds
  let sum = map (\x -> (x / d) * 3 + (x % d) * 5 + (x // d) * 7 + (x %% d) * 11) xs
  in (reduce (+) 0 diff, reduce (+) 0 sum)

-- ==
-- entry: i32s
-- input { 1i32 3000i64 } output { 0i64 -7500i32 }
-- input { 3i32 3000i64 } output { 0i64 9500i32 }
-- input { 2147483647i32 3000i64 } output { 0i64 -24000i32 }
-- input { -1i32 3000i64 } output { 0i64 7500i32 }
-- input { -7i32 3000i64 } output { 0i64 -47860i32 }
-- input { -2147483648i32 100i64 } output { 0i64 2147483101i32 }
-- input { 0i32 10i64 } error: division by zero
entry i32s (d: i32) (n: i64) : (i64, i32) =
  let ds = replicate n d
  let xs = map (\i -> let k = i32.i64 (i % 4)
                      let j = i32.i64 i
                      in if k == 0 then j
                         else if k == 1 then 2147483647 - j
                         else if k == 2 then -j
                         else -2147483647 - 1 + j)
               (iota n)
  let diff = map2 (\x e -> i64.bool (x / d != x / e || x % d != x % e || x // d != x // e || x %% d != x %% e))
                  xs ds
  let sum = map (\x -> (x / d) * 3 + (x % d) * 5 + (x // d) * 7 + (x %% d) * 11) xs
  in (reduce (+) 0 diff, reduce (+) 0 sum)

-- ==
-- entry: u32s
-- input { 1u32 3000i64 } output { 0i64 4486500u32 }
-- input { 10u32 3000i64 } output { 0i64 512100u32 }
-- input { 2147483648u32 3000i64 } output { 0i64 7483500u32 }
-- input { 2147483649u32 3000i64 } output { 0i64 2154957150u32 }
-- input { 4294967295u32 3000i64 } output { 0i64 7477500u32 }
entry u32s (d: u32) (n: i64) : (i64, u32) =
  let ds = replicate n d
  let xs = map (\i -> let j = u32.i64 i
                      in if i % 3 == 0 then j else if i % 3 == 1 then 2147483647 + j else 4294967295 - j)
               (iota n)
  let diff = map2 (\x e -> i64.bool (x / d != x / e || x % d != x % e)) xs ds
  let sum = map (\x -> (x / d) * 3 + (x % d) * 5) xs
  in (reduce (+) 0 diff, reduce (+) 0 sum)

-- ==
-- entry: u64s
-- input { 1u64 3000i64 } output { 0i64 6442455430500u64 }
-- input { 12345u64 3000i64 } output { 0i64 4482805364817923010u64 }
-- input { 2147483648u64 3000i64 } output { 0i64 36507229493500u64 }
-- input { 18446744073709551615u64 3000i64 } output { 0i64 10737425717500u64 }
entry u64s (d: u64) (n: i64) : (i64, u64) =
  let ds = replicate n d
  let xs = map (\i -> let j = u64.i64 i
                      in if i % 3 == 0 then j else if i % 3 == 1 then 2147483647 + j else 18446744073709551615 - j)
               (iota n)
  let diff = map2 (\x e -> i64.bool (x / d != x / e || x % d != x % e)) xs ds
  let sum = map (\x -> (x / d) * 3 + (x % d) * 5) xs
  in (reduce (+) 0 diff, reduce (+) 0 sum)
