-- A type specification may not name a size parameter twice.
-- ==
-- error: spec_duplicate_param\.fut:4:27: error: Type parameter "n" previously defined in the parameters of type 'cells'\.
module type grid = { type cells [n] [n] }
def main (x: i32) = x
