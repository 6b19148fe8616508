-- Two parameters of one function cannot share a name.
-- ==
-- error: type_duplicate_param\.fut:4:9: error: Name 'x' also bound in another parameter of 'f' \(duplicate name\)
def f x x = x + 1
def main (y: i32) = f y y
