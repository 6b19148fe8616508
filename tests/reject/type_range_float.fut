-- Ranges need integer bounds.
-- ==
-- error: type_range_float\.fut:4:21: error: a range needs integer bounds, but they have type f32
def main (x: f32) = 0f32..<x
