-- Top-level helper functions (def and the older let) called from main and from each other.
-- ==
-- input { 3 } output { 10 16 }
-- input { 0 } output { 1 1 }
-- input { -4 } output { 17 9 }
def sq (x: i32) : i32 = x * x
let inc (x: i32) : i32 = x + 1
def poly (x: i32) : i32 = sq x + 2 * x + inc 0
def main (x: i32) : (i32, i32) =
  (inc (sq x), poly x)
