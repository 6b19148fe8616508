-- The loop body must keep the size the loop parameter declares.
-- ==
-- error: type_size_loop_body\.fut:4:83: error: Loop body does not have expected type: the loop parameters have type \[n\]bool, but the body has type \[2\]bool \(Sizes "n" and "2" do not match\)
def main (n: i64) : [n]bool = loop (bs: [n]bool) = replicate n true for _i < 3 do replicate 2 false
