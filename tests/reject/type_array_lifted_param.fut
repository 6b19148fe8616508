-- An array may not hold a lifted type parameter, which may be a function.
-- ==
-- error: type_array_lifted_param\.fut:4:16: error: Cannot create array with elements of lifted type "a" \(might contain function\)\.
def count '^a (xs: []a) = length xs
def main (xs: []i32) = count xs
