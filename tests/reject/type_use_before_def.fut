-- Functions must be defined before their use; this also rules out recursion.
-- ==
-- error: type_use_before_def\.fut:4:21: error: 'helper' is used before its definition \(definitions must come before their uses; recursion is not supported\)
def main (x: i32) = helper x
def helper (x: i32) = x
