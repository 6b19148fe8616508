-- A non-lifted abbreviation may not hold a lifted type parameter (it may be a function).
-- ==
-- error: type_decl_nonlifted_lifted_param\.fut:4:1: error: Non-lifted type abbreviations may not contain functions\.\nHint: consider using 'type\^'\.
type box '^a = (a, i32)
def main (x: i32) = x
