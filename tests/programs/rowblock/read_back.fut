-- One block per row whose map result is also read by a later reduction of the row,
-- reversed (the row written, a barrier, then read back from memory by other threads;
-- plain loads, not read-only ones), with a row result and a scalar result together.
-- ==
-- input { 3i64 100i64 } output { [[-9i64, -9i64], [5i64, 5i64], [-3i64, -3i64]] [-1800i64, 1708i64, 1692i64] }
-- input { 2i64 300i64 } output { [[-9i64, 3i64], [5i64, -5i64]] [5004i64, -5572i64] }
-- input { 3i64 10i64 } output { [[-9i64, 1i64], [5i64, -7i64], [-3i64, 7i64]] [182i64, -34i64, -290i64] }
-- input { 0i64 70i64 } output { empty([0][2]i64) empty([0]i64) }
entry main (n: i64) (m: i64) : ([][]i64, []i64) =
  let xss = unflatten (map (\q -> (q / m * 7 + q % m * 3) % 11 - 5) (iota (n * m)))
  in unzip (map (\xs -> let ys = map (\x -> x * 2 + 1) xs
                        let s = reduce (+) 0 (map2 (*) ys (reverse ys))
                        in (ys, s))
                xss)
  |> \(yss, ss) -> (map (\ys -> [ys[0], ys[m - 1]]) yss, ss)
