-- The sizes a let binds are not in scope in the value it binds.
-- ==
-- error: type_size_let_value\.fut:4:45: error: Unknown name "n": the sizes a let binds are not in scope in the value it binds
def main = let [n] (xs: [n]i32) = replicate n 0 in xs
