-- A program's own definitions of prelude names (not, and) are the ones its code calls.
-- ==
-- input { true } output { true false }
-- input { false } output { false false }

def not (b: bool) : bool = b
def and (_: []bool) : bool = false

entry main (b: bool) : (bool, bool) = (not b, and [b, true])
