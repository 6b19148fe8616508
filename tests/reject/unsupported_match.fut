-- Match expressions are left out of the subset.
-- ==
-- error: unsupported_match\.fut:5:3: error: match expressions are not supported
def main (x: i32) =
  match x
  case 0 -> 1
  case _ -> 2
