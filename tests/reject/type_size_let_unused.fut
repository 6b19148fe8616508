-- A size a let binds must be the size of something in its pattern.
-- ==
-- error: type_size_let_unused\.fut:4:24: error: Size \[n\] unused in pattern\.
def main (xs: []i32) = let [n] ys = filter (> 0) xs in (n, ys)
