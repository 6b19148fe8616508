-- Pathfinder-style dynamic programming: walk down the rows of a cost grid, each step
-- moving to the column below or diagonally; dp is updated row by row in a loop with a map.
-- Returns the final dp row and the minimal total cost.
-- ==
-- input { [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]] }
-- output { [15, 13, 15, 11] 11 }
-- input { [[4, 2, 7]] }  output { [4, 2, 7] 2 }
-- input { [[1], [2], [3]] }  output { [6] 6 }
def min3 (a: i32) (b: i32) (c: i32) : i32 = i32.min a (i32.min b c)

entry main [n][m] (cost: [n][m]i32) : ([m]i32, i32) =
  let dp = loop dp = cost[0] for r in 1..<n do
             map (\j ->
                    let left = if j > 0 then dp[j - 1] else i32.highest
                    let right = if j < m - 1 then dp[j + 1] else i32.highest
                    in cost[r, j] + min3 left (dp[j]) right)
                 (iota m)
  in (dp, i32.minimum dp)
