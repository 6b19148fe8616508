-- unzip needs an array of pairs.
-- ==
-- error: type_unzip_non_tuples\.fut:4:30: error: 'unzip' needs an array of 2-tuples, but its argument has type \[\]i32
def main (xs: []i32) = unzip xs
