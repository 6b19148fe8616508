-- while loop with a tuple state and a compound condition: integer square root by search.
-- ==
-- input { 0 } output { 0 }
-- input { 15 } output { 3 }
-- input { 16 } output { 4 }
-- input { 1000000 } output { 1000 }
entry main (n: i64) : i64 =
  let (r, _) = loop (r, done) = (0i64, false) while !done && r <= n do
                 if (r + 1) * (r + 1) > n then (r, true) else (r + 1, false)
  in r
