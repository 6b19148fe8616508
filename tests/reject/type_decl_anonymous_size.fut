-- A non-lifted abbreviation may not hide a size: it needs a size parameter or 'type~'.
-- ==
-- error: type_decl_anonymous_size\.fut:4:1: error: Non-lifted type abbreviations may not use existential sizes in their definition\.\nHint: use 'type~' or add size parameters to "row"\.
type row = []i32
def main (x: i32) = x
