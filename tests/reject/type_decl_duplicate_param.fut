-- A type abbreviation may not name the same type parameter twice.
-- ==
-- error: type_decl_duplicate_param\.fut:5:14: error: Type parameter "a" previously defined in the parameters of type 'pair'\.
def main (x: i32) = x
type pair 'a 'a = (a, a)
