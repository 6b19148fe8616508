-- A module must be declared before it is used.
-- ==
-- error: unknown_module\.fut:4:12: error: Unknown module 'N'
module M = N
def main (z: i32) = z
