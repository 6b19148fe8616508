-- A sequential loop of 2^20 iterations with wrapping u32 arithmetic (an LCG),
-- checked against a Python model, and the number of odd states.
-- ==
-- input { 1048576 } output { 2320498688u32 524288 }
-- input { 3 } output { 3519870697u32 2 }
entry main (n: i32) : (u32, i32) =
  loop (x, odd) = (0u32, 0) for _i < n do
    let x1 = x * 1664525u32 + 1013904223u32
    in (x1, odd + i32.u32 (x1 & 1))
