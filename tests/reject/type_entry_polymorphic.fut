-- An entry point must be monomorphic: here the array's element type is left open.
-- ==
-- error: type_entry_polymorphic\.fut:4:5: error: Entry point functions may not be polymorphic: 'main' has type parameter 't0'
def main (xs: []i32) = length
