-- A non-lifted type parameter cannot be instantiated with a lifted one.
-- ==
-- error: type_instantiate_lifted_param\.fut:5:24: error: Cannot instantiate type parameter "a" of 'dup' with type containing lifted type parameter "b"\.
def dup 'a (x: a) = (x, x)
def twice '^b (f: b) = dup f
def main (x: i32) = x
