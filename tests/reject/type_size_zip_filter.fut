-- filter's result has a size of its own (an existential), which the parameter's size cannot be.
-- ==
-- error: type_size_zip_filter\.fut:4:32: error: Cannot apply "zip" to "filter \(> 0\) xs" \(invalid type\): the second argument must be of type \[\]t2, but has type \[\]i32 \(Cannot link size "s_0" to "d_0" \(scope violation\): "d_0" is not in scope when "s_0" is introduced; "d_0" is unknown size returned by "filter" at 4:32-46\. For more information, see https://futhark-lang\.org/error-index\.html#scope-violation\)
def main (xs: []i32) = zip xs (filter (> 0) xs)
