-- Each invalid range form fails with its own text, for i64 and u8 ranges.
-- ==
-- entry: i64_upto
-- input { 0i64 } output { 0i64 }
-- input { 4i64 } error: Range 4\.\.<0 is invalid\.

-- ==
-- entry: u8_incl
-- input { 7u8 } output { 1i64 }
-- input { 8u8 } error: Range 8\.\.\.7 is invalid\.

-- ==
-- entry: zero_step
-- input { 2 } error: Range 2\.\.2\.\.\.10 is invalid\.
-- input { 3 } output { 9i64 }
entry i64_upto (a: i64) : i64 = length (a..<0)
entry u8_incl (a: u8) : i64 = length (a...7)
entry zero_step (s: i32) : i64 = length (2..s...10)
