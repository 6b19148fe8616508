-- The size of a parameter may not depend on a later parameter.
-- ==
-- error: type_size_scope_violation\.fut:4:22: error: Cannot apply "zip" to "iota n" \(invalid type\): the second argument must be of type \[\]t3, but has type \[n\]i64 \(Cannot link size "s_0" to "n" \(scope violation\): "n" is not in scope when "s_0" is introduced\. For more information, see https://futhark-lang\.org/error-index\.html#scope-violation\)
def f xs n = zip xs (iota n)
