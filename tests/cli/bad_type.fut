-- A type error for `kerb check` in the CLI tests: i32 plus f32.
def main (x: i32) (y: f32) = x + y
