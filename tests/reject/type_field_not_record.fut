-- A field access needs a record.
-- ==
-- error: type_field_not_record\.fut:4:34: error: field access '\.x' needs a record, but this has type i32
def main (x: i32) = let p = x in p.x
