-- A parametric type abbreviation needs its arguments.
-- ==
-- error: type_abbrev_arity\.fut:5:11: error: type 'pair' takes 1 argument\(s\), but is given 0
type pair 'a = (a, a)
def main (p: pair) = p
