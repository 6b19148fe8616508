-- A variable cannot be applied like a function.
-- ==
-- error: type_variable_applied\.fut:4:21: error: 'x' is a variable, not a function
def main (x: i32) = x 1
