-- Calling an undefined function.
-- ==
-- error: type_unknown_function\.fut:4:21: error: unknown function 'frobnicate'
def main (x: i32) = frobnicate x
