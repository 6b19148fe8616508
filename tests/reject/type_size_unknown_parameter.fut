-- An existential size cannot be the size of a returned function's parameter only.
-- ==
-- error: type_size_unknown_parameter\.fut:4:5: error: Unknown size "d_1" in parameter of "f", which is inferred as: bool -> \[\]i32 -> i32; "d_1" is an unknown size arising from "n" going out of scope at 5:3-6:27
def f (b: bool) =
  let n = if b then 10 else 20
  in \(xs: [n]i32) -> xs[0]
