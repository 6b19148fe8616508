-- Two unique components of a result may not alias each other, also through a call
-- whose tuple result aliases its argument.
-- ==
-- error: type_uniq_result_components\.fut:7:3: error: A unique-typed component of the return value is aliased to some other component\.
def twice 't (x: t) = (x, x)
def main (xs: []i32) : (*[]i32, *[]i32) =
  twice (copy xs)
