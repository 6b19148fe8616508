-- let-in nested inside if branches, loop bodies and tuple components.
-- ==
-- input { 4 } output { 20 9 }
-- input { -3 } output { 6 -12 }
entry main (x: i32) : (i32, i32) =
  let a = if x > 0 then (let y = x * x in y + x) else (let z = -x in z * 2)
  let b = loop acc = 0 for i < 3 do
            let t = acc + x
            let u = t - i
            in u - acc + acc
  in (a, b)
