-- Sum types with different constructors do not unify; the message names them.
-- ==
-- error: type_sum_unshared_constructors\.fut:4:39: error: Expression does not have expected type from type ascription: it is ascribed type #blue \| #red, but has type #green \(Unshared constructors: #green\.\)
def f (b: bool) = if b then #red else #green : #red | #blue
def main (b: bool) = match f b case #red -> 1 case _ -> 2
