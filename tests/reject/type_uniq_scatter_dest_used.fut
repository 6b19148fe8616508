-- scatter consumes its destination, as in Futhark: it may not be read afterwards.
-- ==
-- error: type_uniq_scatter_dest_used\.fut:7:17: error: Using variable "dest", but this was consumed at 6:19-22\. \(Possibly through aliases\.\)
def main (n: i64) : []i64 =
  let dest = replicate n 0
  let r = scatter dest [0] [1]
  in map2 (+) r dest
