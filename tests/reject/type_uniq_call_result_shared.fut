-- The parts of a call's non-unique result alias the call: consuming one consumes the
-- other.
-- ==
-- error: type_uniq_call_result_shared\.fut:9:6: error: Using result of applying "twice" \(at 7:16-22\), but this was consumed at 8:7-14\. \(Possibly through aliases\.\)
def twice (n: i64) : ([]i64, []i64) = let a = iota n in (a, a)
def main (n: i64) : []i64 =
  let (a, b) = twice n
  let a[0] = 1
  in b
