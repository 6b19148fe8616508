-- `auto output` (Futhark's test format): the results must be the reference
-- interpreter's, on random and on given inputs.
-- ==
-- random input { [100]i32 } auto output
-- random input { [0]i32 } auto output
-- input { [1, 2, 3] } auto output

def main (xs: []i32) = map (* 2) xs |> scan (+) 0 |> map (\x -> x % 7)
