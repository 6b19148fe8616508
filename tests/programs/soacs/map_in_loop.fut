-- A map inside a for loop: each iteration adds the iteration number to every element.
-- ==
-- input { [1, 2, 3] 4 }  output { [7, 8, 9] }
-- input { [1, 2, 3] 0 }  output { [1, 2, 3] }
-- input { empty([0]i32) 3 }  output { empty([0]i32) }
entry main (xs: []i32) (k: i32) : []i32 =
  loop acc = xs for i < k do map (\x -> x + i) acc
