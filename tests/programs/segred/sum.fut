-- A map over few segments whose lambda reduces a long inner map, then scalar code
-- (backprop's hidden layer): with long segments the compiled program runs it as a
-- segmented reduction (each segment over several blocks, then one block per segment
-- for the statements after the reduction). Segment counts 1, 2, 16, 40, none; empty
-- segments; segments of one element (one thread per segment).
-- ==
-- input { 1i64 100000i64 } output { [599990i64] }
-- input { 2i64 100000i64 } output { [599990i64, 599997i64] }
-- input { 16i64 20000i64 } output { [119994i64, 119995i64, 119996i64, 119997i64, 119998i64, 119999i64, 6i64, 120001i64, 120002i64, 120003i64, 120004i64, 120005i64, 120006i64, 13i64, 120008i64, 120009i64] }
-- input { 0i64 100000i64 } output { empty([0]i64) }
-- input { 3i64 0i64 } output { [0i64, 1i64, 2i64] }
-- input { 5i64 1i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 40i64 3000i64 } output { [17988i64, 18001i64, 18000i64, 17999i64, 17998i64, 18011i64, 6i64, 17995i64, 18008i64, 18007i64, 18006i64, 18005i64, 18018i64, 13i64, 18002i64, 18015i64, 18014i64, 18013i64, 18012i64, 18025i64, 20i64, 18009i64, 18022i64, 18021i64, 18020i64, 18019i64, 18032i64, 27i64, 18016i64, 18029i64, 18028i64, 18027i64, 18026i64, 18039i64, 34i64, 18023i64, 18036i64, 18035i64, 18034i64, 18033i64] }
entry main (n: i64) (m: i64) : []i64 =
  map (\j -> let s = reduce (+) 0 (map (\i -> (i * (j + 1)) % 7) (iota m))
             in s * 2 + j)
      (iota n)
