-- A loop that changes its parameter's size returns an unknown size.
-- ==
-- error: type_size_loop_variant\.fut:4:30: error: Function body does not have expected type: the body of 'main' has type \[\]i32, but its declared return type is \[1\]i32 \(Sizes "1" and "d_2" do not match; "d_2" is unknown size of value returned at 4:30-65\)
def main (k: i32) : [1]i32 = loop xs = [0] for _i < k do xs ++ xs
