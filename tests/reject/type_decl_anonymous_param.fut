-- A function type in an abbreviation may not take an array of anonymous size: nothing
-- would give that size.
-- ==
-- error: type_decl_anonymous_param\.fut:5:1: error: Type abbreviation contains an anonymous size not used constructively as an array size\.
type^ pred = []f32 -> bool
def main (x: f32) = x
