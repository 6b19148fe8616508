-- A character literal is an integer literal of its code point: unsuffixed, so its type
-- comes from its use and defaults to i32. Quotes in names (x', f'') and type parameters
-- ('t, '^t, '~t) are not character literals.
-- ==
-- input { 119 }  output { 1 97 10u8 39i64 34u16 955 65i8 false 120 }
-- input { 115 }  output { -1 97 10u8 39i64 34u16 955 65i8 false 116 }
-- input { 120 }  output { 0 97 10u8 39i64 34u16 955 65i8 true 121 }

def pick 't '^f '~g (x: t) (_: f) (_: g) : t = x

def direction (k: i32) : i32 =
  match k
  case 'w' -> 1
  case 's' -> -1
  case _ -> 0

entry main (k: i32) : (i32, i32, u8, i64, u16, i32, i8, bool, i32) =
  let k' = k
  let f'' = k' + 1
  let newline : u8 = '\n'
  in ( direction k
     , 'a'
     , newline
     , '\'' + i64.i32 (k - k)
     , '"'
     , 'λ'
     , pick '\65' (\(x: i32) -> x) 0
     , k == 'x'
     , f''
     )
