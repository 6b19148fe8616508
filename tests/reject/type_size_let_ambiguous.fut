-- A size a let binds that its value does not decide is ambiguous.
-- ==
-- error: type_size_let_ambiguous\.fut:4:12: error: Ambiguous size "m"\.
def main = let [n][m] (xss: [n][m]i32) = [] in (n, m)
