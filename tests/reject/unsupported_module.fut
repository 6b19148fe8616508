-- Modules are left out of the subset.
-- ==
-- error: unsupported_module\.fut:4:1: error: modules are not supported \('module'\)
module M = { def x = 1 }
def main (x: i32) = x
