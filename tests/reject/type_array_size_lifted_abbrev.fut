-- An array of a size-lifted type could be irregular.
-- ==
-- error: type_array_size_lifted_abbrev\.fut:5:12: error: Cannot create array with elements of size-lifted type "row" \(might cause irregular array\)\.
type~ row = []i32
def first (rows: [2]row) = rows[0]
def main (x: i32) = x
