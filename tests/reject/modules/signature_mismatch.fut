-- A module that lacks a value its module type specifies does not match it.
-- ==
-- error: signature_mismatch\.fut:9:23: error: Module does not define a value named 'zero'
module type monoid = {
  type t
  val zero : t
  val op : t -> t -> t
}
module sum : monoid = {
  type t = i32
  def op (x: i32) (y: i32) = x + y
}
def main (x: i32) = sum.op x x
