-- Two definitions of the same name.
-- ==
-- error: type_duplicate_def\.fut:5:5: error: 'f' is already defined \(line 4\)
def f (x: i32) = x
def f (x: i32) = x + 1
def main (x: i32) = f x
