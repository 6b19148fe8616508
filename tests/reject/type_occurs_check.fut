-- A function applied to itself would need an infinite type.
-- ==
-- error: type_occurs_check\.fut:4:15: error: Cannot apply 'f' as function, as it has non-function type t2 \(Occurs check: cannot instantiate t2 with \(t0 -> t2\) -> t3\)
def bad a f = f a f
def main (x: i32) = x
