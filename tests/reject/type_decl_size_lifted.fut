-- A non-lifted abbreviation may not hold a size-lifted one.
-- ==
-- error: type_decl_size_lifted\.fut:5:1: error: Non-size-lifted type abbreviations may not contain size-lifted types\.\nHint: consider using 'type~'\.
type~ row = []i32
type two_rows = (row, row)
def main (x: i32) = x
