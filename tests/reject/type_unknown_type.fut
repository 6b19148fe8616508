-- Types must be declared before their use.
-- ==
-- error: type_unknown_type\.fut:4:11: error: Unknown type 'vec'
def main (v: vec) = v
