-- A 'let' whose body is not introduced by 'in' must be rejected.
-- ==
-- error: syntax_missing_in\.fut:6:3: error: expected 'in' after the value of 'let', found '\)'
def main (x: i32) =
  let y = x + 1
  )
