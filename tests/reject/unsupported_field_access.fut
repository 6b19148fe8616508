-- Record field access is left out of the subset.
-- ==
-- error: unsupported_field_access\.fut:4:34: error: field access '\.x' is not supported
def main (x: i32) = let p = x in p.x
