-- A float literal beyond the largest finite f32 is out of bounds, as in Futhark.
-- ==
-- error: type_literal_range_float\.fut:4:27: error: Literal 3\.5e38 out of bounds for type f32
def main (x: f32) : f32 = 3.5e38 + x
