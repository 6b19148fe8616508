-- Recursion is not supported (Futhark has none).
-- ==
-- error: type_recursion\.fut:4:52: error: 'fact' is used before its definition \(definitions must come before their uses; recursion is not supported\)
def fact (n: i32): i32 = if n == 0 then 1 else n * fact (n - 1)
def main (n: i32) = fact n
