-- reduce_comm with a tuple operator in segmented reductions: the argmin of each column
-- of w with ties to the lower row, whose operator the code generator does not know as
-- commutative but the program says is (core IR `reduce_comm`): across rows for 1 to
-- 64 segments (segred_rows), segment-minor for more; against `reduce` with the same
-- operator (order-keeping: segred) and a loop. Results: how many columns differ, and the sum
-- of the rows found.
-- ==
-- input { 1i64 3000i64 } output { 0i64 0i64 }
-- input { 2i64 5001i64 } output { 0i64 9i64 }
-- input { 16i64 3000i64 } output { 0i64 79i64 }
-- input { 40i64 2049i64 } output { 0i64 200i64 }
-- input { 64i64 4100i64 } output { 0i64 324i64 }
-- input { 65i64 3000i64 } output { 0i64 328i64 }
-- input { 3i64 2i64 } output { 0i64 1i64 }
-- input { 5i64 1i64 } output { 0i64 0i64 }
-- input { 7i64 0i64 } output { 0i64 -7i64 }
-- input { 0i64 5000i64 } output { 0i64 0i64 }
-- input { 3i64 70001i64 } output { 0i64 16i64 }

def argmin (a: (f32, i64)) (b: (f32, i64)) : (f32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b

entry main (n: i64) (m: i64) : (i64, i64) =
  let w = map (\i -> map (\j -> f32.i64 ((i * 7 + j * 3) % 11)) (iota n)) (iota m)
  let c = map (\j -> reduce_comm argmin (f32.inf, -1) (map (\i -> (w[i, j], i)) (iota m))) (iota n)
  let o = map (\j -> reduce argmin (f32.inf, -1) (map (\i -> (w[i, j], i)) (iota m))) (iota n)
  let l = map (\j -> loop (d, k) = (f32.inf, -1i64) for i < m do argmin (d, k) (w[i, j], i)) (iota n)
  let bad = map3 (\x y z -> if x.0 == y.0 && x.1 == y.1 && x.0 == z.0 && x.1 == z.1 then 0 else 1i64) c o l
  -- (Element 0 read on the host: c, o and l are made by their own kernels, not fused.)
  let first = if n > 0 then c[0].1 + o[0].1 - l[0].1 - l[0].1 else 0
  in (reduce (+) 0 bad + first, reduce (+) 0 (map (\x -> x.1) c))
