-- Polymorphic functions (type parameters) are left out of the subset.
-- ==
-- error: unsupported_type_param\.fut:4:8: error: type parameters are not supported
def id 'a (x: a): a = x
def main (x: i32) = id x
