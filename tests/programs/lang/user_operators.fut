-- User-defined operators (defined prefix or infix, with the precedence of their first
-- characters), backticks (looser than every operator), and sections of both.
-- ==
-- input { 2 3 }  output { 13 2 10 [2, 4] 8 5 }

def (+^) (a: i32) (b: i32) = a * a + b
def (x: i32) <*> (y: i32) : i32 = x * 10 + y
def clamp_to (hi: i32) (x: i32) = i32.min hi x

entry main (a: i32) (b: i32) =
  let c = a +^ b * 3        -- +^ binds like +: a +^ (b * 3)
  let d = a `clamp_to` 10 + 5
  in (c, d, 1 <*> 0, map (+^ 1) [1, 3] |> map (`clamp_to` 4), (`clamp_to` 8) 9, (b +^) 1 - 5)
