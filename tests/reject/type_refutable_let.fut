-- A let binding must match every value; only match may select constructors.
-- ==
-- error: type_refutable_let\.fut:5:25: error: Refutable pattern not allowed here\. Unmatched cases: #none
type opt = #none | #some i32
def main (o: opt) = let #some x = o in x
