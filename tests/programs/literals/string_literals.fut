-- String literals are arrays of u8, the UTF-8 bytes of their characters, with Haskell's
-- escapes as in Futhark: \n \t \" \\, decimal (\955), hexadecimal (\x41) and octal
-- (\o102) code points, control characters by name (\SOH, \^A), \& (nothing) and a gap
-- (a backslash, spaces, a backslash). The input picks bytes of them, so that nothing is
-- folded away. A string inside a map's function is made in the kernel.
-- ==
-- entry: main
-- input { 0i64 }
-- output { [104u8, 105u8] 0i64 [10u8, 9u8, 34u8, 92u8, 39u8] [206u8, 187u8, 65u8, 66u8, 49u8, 1u8, 1u8, 120u8, 121u8]
--          [104u8, 195u8, 169u8] true false 104u8 6i64 }
-- input { 1i64 }
-- output { [104u8, 105u8] 0i64 [10u8, 9u8, 34u8, 92u8, 39u8] [206u8, 187u8, 65u8, 66u8, 49u8, 1u8, 1u8, 120u8, 121u8]
--          [104u8, 195u8, 169u8] true false 105u8 7i64 }
-- ==
-- entry: in_map
-- input { 6i64 } output { [99u8, 100u8, 101u8, 102u8, 99u8, 100u8] }

def greeting = "hi"

-- A string as a parameter and a result: any []u8.
def shout [n] (s: [n]u8) : [n]u8 = map (\c -> if c >= 'a' && c <= 'z' then c - 32 else c) s

entry main (i: i64) =
  ( copy greeting
  , length "" + i - i
  , "\n\t\"\\'"
  , "\955\x41\o102\&1\SOH\^A\   \xy"
  , "hé"
  , "abc" == "abc"
  , shout "abc" == "abc"
  , greeting[i]
  , length ("abc" ++ "def") + i
  )

entry in_map (n: i64) = map (\i -> "abcd"[i % 4] + u8.i64 (length "xy")) (iota n)
