-- map's array argument must be an array.
-- ==
-- error: type_map_not_array\.fut:4:30: error: Cannot apply "map" to "x" \(invalid type\): the second argument must be an array, but has type i32
def main (x: i32) = map (+1) x
