-- A qualified name must name a member of the module.
-- ==
-- error: unknown_member\.fut:6:21: error: Unknown name 'M.y'
module M = { def x = 1i32 }

def main (z: i32) = M.y + z
