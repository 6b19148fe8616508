-- A program that must not compile: the block expects the type checker's diagnostic.
-- ==
-- error: error:
def main (x: i32) (y: f32) = x + y
