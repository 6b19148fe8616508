-- A constructor's sum type needs its payloads' sizes when it is made: #none's cannot come
-- from the other branch, computed later (Futhark's causality check).
-- ==
-- error: type_size_causality\.fut:7:13: error: Causality check: size "d_0" needed for type of "#none": #none \| #some \[\]i32\. But "d_0" is computed at 7:31-45\. Hint: Bind the expression producing "d_0" with 'let' beforehand\.
type opt 'a = #none | #some a
def main (b: bool) (xs: []i32) : opt ([]i32) =
  if b then #none else #some (filter (> 0) xs)
