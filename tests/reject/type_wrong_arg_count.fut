-- A function applied to too many arguments.
-- ==
-- error: type_wrong_arg_count\.fut:5:21: error: 'f' takes 1 argument\(s\), but is given 2
def f (x: i32) = x + 1
def main (x: i32) = f x x
