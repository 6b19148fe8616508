-- A type parameter that is not size-lifted ('b) cannot stand for a type with an existential size.
-- ==
-- error: type_size_unlifted_existential\.fut:5:27: error: Cannot apply "apply" to "iota" \(invalid type\): the result of the function given as the first argument has type \[\]i64, but must have type t2 \(Cannot instantiate type variable "t2" with type \[\]i64: it would have the existential size "n"\. This is because a type parameter would be instantiated with a type containing anonymous sizes \(it must be '~ or '\^ to allow it\)\)
def apply 'a 'b (f: a -> b) (x: a) : b = f x
def main (n: i64) = apply iota n
