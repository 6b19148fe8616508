-- map cannot take a function whose result's size is its argument (its type parameters are not size-lifted).
-- ==
-- error: type_size_map_iota\.fut:4:28: error: Cannot apply "map" to "iota" \(invalid type\): the result of the function given as the first argument has type \[\]i64, but must have type t2 \(Cannot instantiate type variable "t2" with type \[\]i64: it would have the existential size "n"\. This is because a type parameter would be instantiated with a type containing anonymous sizes \(it must be '~ or '\^ to allow it\)\)
def main (ns: []i64) = map iota ns
