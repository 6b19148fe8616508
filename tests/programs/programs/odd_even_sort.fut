-- Odd-even transposition sort: n rounds, each a map that compares disjoint neighbour
-- pairs (even pairs in even rounds, odd pairs in odd rounds).
-- ==
-- input { [5, 2, 9, 1, 5, 6, -3] }  output { [-3, 1, 2, 5, 5, 6, 9] }
-- input { [2, 1] }                  output { [1, 2] }
-- input { [42] }                    output { [42] }
-- input { empty([0]i32) }           output { empty([0]i32) }
def step [n] (parity: i64) (xs: [n]i32) : [n]i32 =
  map (\i ->
         let partner = if (i - parity) % 2 == 0 then i + 1 else i - 1
         in if partner < 0 || partner >= n then xs[i]
            else if partner > i then i32.min (xs[i]) (xs[partner])
            else i32.max (xs[i]) (xs[partner]))
      (iota n)

entry main [n] (xs: [n]i32) : [n]i32 =
  loop ys = xs for r < n do step (r % 2) ys
