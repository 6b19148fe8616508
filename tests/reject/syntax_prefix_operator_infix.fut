-- '!' is a prefix operator; it cannot be defined as an infix one.
-- ==
-- error: syntax_prefix_operator_infix\.fut:4:7: error: '!' is a prefix operator and cannot be used as infix operator
def x ! y = x + y
def main (x: i32) = x
