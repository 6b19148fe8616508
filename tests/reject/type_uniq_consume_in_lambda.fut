-- An anonymous function may not consume a value from outside it.
-- ==
-- error: type_uniq_consume_in_lambda\.fut:6:17: error: Consuming variable "xs", which is not consumable \(it is made outside this anonymous function, local function or loop body\)\.
def main (n: i64) : [][]i64 =
  let xs = iota n
  in map (\i -> xs with [i] = 0) (iota n)
