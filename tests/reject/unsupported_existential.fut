-- Existential sizes in return types are left out of the subset.
-- ==
-- error: unsupported_existential\.fut:4:20: error: existential sizes are not supported
def main (n: i64): ?[m].[m]i64 = iota n
