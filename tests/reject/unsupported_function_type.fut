-- Function-typed parameters (user-defined higher-order functions) are left out.
-- ==
-- error: unsupported_function_type\.fut:4:19: error: function types are not supported
def twice (f: i32 -> i32) (x: i32) = f (f x)
def main (x: i32) = x
