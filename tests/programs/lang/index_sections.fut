-- Index sections: (.[i]), (.[i:j]), and paths mixing fields and indices such as
-- (.a[1:].b), each a function of the value it indexes; used polymorphically at two
-- ranks, with free variables in the indices, and piped.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 }
-- output { [4, 5, 6] 2 [[4, 5, 6]] [3, 2, 1] [5, 4] 6 }
-- input { [[1, 2, 3], [4, 5, 6]] 2i64 }
-- error: Index \[2\] out of bounds for array of shape \[2\]

def first = (.[0])

entry main (xss: [][]i32) (k: i64) =
  let rs = map (\xs -> {row = xs, tail = {vals = reverse xs}}) xss
  in ((.[k]) xss,
      first (first xss) + 1,
      (.[k:]) xss,
      (.[0].tail.vals) rs,
      (.tail.vals[1:]) rs[k],
      xss |> (.[1][2]))
