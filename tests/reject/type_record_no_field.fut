-- A field access needs a field the record has.
-- ==
-- error: type_record_no_field\.fut:4:21: error: Record type \{a: i32, b: i32\} has no field 'c'
def main (x: i32) = {a = x, b = 2}.c
