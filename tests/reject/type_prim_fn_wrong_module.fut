-- i32 has no sqrt.
-- ==
-- error: type_prim_fn_wrong_module\.fut:4:21: error: the numeric module 'i32' has no member 'sqrt'
def main (x: i32) = i32.sqrt x
