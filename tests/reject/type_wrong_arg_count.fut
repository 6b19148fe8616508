-- A function applied to too many arguments.
-- ==
-- error: type_wrong_arg_count\.fut:5:21: error: Cannot apply "f" to 2 arguments: the function accepts only 1 argument
def f (x: i32) = x + 1
def main (x: i32) = f x x
