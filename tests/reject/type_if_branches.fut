-- The branches of an if must have the same type.
-- ==
-- error: type_if_branches\.fut:4:30: error: the branches of 'if' have different types: 'then' has type i32, 'else' has type f32
def main (x: i32) (y: f32) = if x > 0 then x else y
