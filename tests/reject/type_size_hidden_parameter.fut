-- A declared result may not name what a parameter binds inside a tuple.
-- ==
-- error: type_size_hidden_parameter\.fut:4:5: error: The return type annotation \[n\]i32 refers to the name "n" which is bound to an inner component of a function parameter\.
def f (n: i64, _: bool) : [n]i32 = replicate n 0
