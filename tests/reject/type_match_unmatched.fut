-- A match must cover every value: here #c is missing.
-- ==
-- error: type_match_unmatched\.fut:6:3: error: Unmatched cases in match expression: #c
type abc = #a | #b | #c
def main (x: abc) : i32 =
  match x
  case #a -> 1
  case #b -> 2
