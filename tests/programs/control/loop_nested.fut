-- Nested for loops whose inner bound depends on the outer index.
-- ==
-- input { 4 } output { 6 12 }
-- input { 0 } output { 0 0 }
-- input { 6 } output { 15 30 }
entry main (n: i32) : (i32, i32) =
  let count = loop c = 0 for i < n do
                loop c = c for _j < i do c + 1
  let weighted = loop acc = 0 for i < n do
                   let row = loop r = 0 for _j < i do r + 2
                   in acc + row
  in (count, weighted)
