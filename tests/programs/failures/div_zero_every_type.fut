-- Division and remainder by zero (/ % // %%) fail for every integer type, inside a
-- kernel (a map over the divisors): one entry per type, `op` picks the operator. The
-- location says which operator failed. (div_zero_types.fut has the host-side forms.)

-- ==
-- entry: i8s
-- input { 0 [7i8, 7i8, 7i8] [3i8, 2i8, 1i8] } output { [2i8, 3i8, 7i8] }
-- input { 1 [7i8, 7i8, 7i8] [3i8, 2i8, 1i8] } output { [1i8, 1i8, 0i8] }
-- input { 2 [7i8, 7i8, 7i8] [3i8, 2i8, 1i8] } output { [2i8, 3i8, 7i8] }
-- input { 3 [7i8, 7i8, 7i8] [3i8, 2i8, 1i8] } output { [1i8, 1i8, 0i8] }
-- input { 0 [7i8, 7i8, 7i8] [3i8, 0i8, 1i8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:125:33-37
-- input { 1 [7i8, 7i8, 7i8] [3i8, 0i8, 1i8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:125:60-64
-- input { 2 [7i8, 7i8, 7i8] [3i8, 0i8, 1i8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:125:87-92
-- input { 3 [7i8, 7i8, 7i8] [3i8, 0i8, 1i8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:125:99-104

-- ==
-- entry: i16s
-- input { 0 [7i16, 7i16, 7i16] [3i16, 2i16, 1i16] } output { [2i16, 3i16, 7i16] }
-- input { 1 [7i16, 7i16, 7i16] [3i16, 2i16, 1i16] } output { [1i16, 1i16, 0i16] }
-- input { 2 [7i16, 7i16, 7i16] [3i16, 2i16, 1i16] } output { [2i16, 3i16, 7i16] }
-- input { 3 [7i16, 7i16, 7i16] [3i16, 2i16, 1i16] } output { [1i16, 1i16, 0i16] }
-- input { 0 [7i16, 7i16, 7i16] [3i16, 0i16, 1i16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:127:33-37
-- input { 1 [7i16, 7i16, 7i16] [3i16, 0i16, 1i16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:127:60-64
-- input { 2 [7i16, 7i16, 7i16] [3i16, 0i16, 1i16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:127:87-92
-- input { 3 [7i16, 7i16, 7i16] [3i16, 0i16, 1i16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:127:99-104

-- ==
-- entry: i32s
-- input { 0 [7i32, 7i32, 7i32] [3i32, 2i32, 1i32] } output { [2i32, 3i32, 7i32] }
-- input { 1 [7i32, 7i32, 7i32] [3i32, 2i32, 1i32] } output { [1i32, 1i32, 0i32] }
-- input { 2 [7i32, 7i32, 7i32] [3i32, 2i32, 1i32] } output { [2i32, 3i32, 7i32] }
-- input { 3 [7i32, 7i32, 7i32] [3i32, 2i32, 1i32] } output { [1i32, 1i32, 0i32] }
-- input { 0 [7i32, 7i32, 7i32] [3i32, 0i32, 1i32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:129:33-37
-- input { 1 [7i32, 7i32, 7i32] [3i32, 0i32, 1i32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:129:60-64
-- input { 2 [7i32, 7i32, 7i32] [3i32, 0i32, 1i32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:129:87-92
-- input { 3 [7i32, 7i32, 7i32] [3i32, 0i32, 1i32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:129:99-104

-- ==
-- entry: i64s
-- input { 0 [7i64, 7i64, 7i64] [3i64, 2i64, 1i64] } output { [2i64, 3i64, 7i64] }
-- input { 1 [7i64, 7i64, 7i64] [3i64, 2i64, 1i64] } output { [1i64, 1i64, 0i64] }
-- input { 2 [7i64, 7i64, 7i64] [3i64, 2i64, 1i64] } output { [2i64, 3i64, 7i64] }
-- input { 3 [7i64, 7i64, 7i64] [3i64, 2i64, 1i64] } output { [1i64, 1i64, 0i64] }
-- input { 0 [7i64, 7i64, 7i64] [3i64, 0i64, 1i64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:131:33-37
-- input { 1 [7i64, 7i64, 7i64] [3i64, 0i64, 1i64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:131:60-64
-- input { 2 [7i64, 7i64, 7i64] [3i64, 0i64, 1i64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:131:87-92
-- input { 3 [7i64, 7i64, 7i64] [3i64, 0i64, 1i64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:131:99-104

-- ==
-- entry: u8s
-- input { 0 [7u8, 7u8, 7u8] [3u8, 2u8, 1u8] } output { [2u8, 3u8, 7u8] }
-- input { 1 [7u8, 7u8, 7u8] [3u8, 2u8, 1u8] } output { [1u8, 1u8, 0u8] }
-- input { 2 [7u8, 7u8, 7u8] [3u8, 2u8, 1u8] } output { [2u8, 3u8, 7u8] }
-- input { 3 [7u8, 7u8, 7u8] [3u8, 2u8, 1u8] } output { [1u8, 1u8, 0u8] }
-- input { 0 [7u8, 7u8, 7u8] [3u8, 0u8, 1u8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:133:33-37
-- input { 1 [7u8, 7u8, 7u8] [3u8, 0u8, 1u8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:133:60-64
-- input { 2 [7u8, 7u8, 7u8] [3u8, 0u8, 1u8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:133:87-92
-- input { 3 [7u8, 7u8, 7u8] [3u8, 0u8, 1u8] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:133:99-104

-- ==
-- entry: u16s
-- input { 0 [7u16, 7u16, 7u16] [3u16, 2u16, 1u16] } output { [2u16, 3u16, 7u16] }
-- input { 1 [7u16, 7u16, 7u16] [3u16, 2u16, 1u16] } output { [1u16, 1u16, 0u16] }
-- input { 2 [7u16, 7u16, 7u16] [3u16, 2u16, 1u16] } output { [2u16, 3u16, 7u16] }
-- input { 3 [7u16, 7u16, 7u16] [3u16, 2u16, 1u16] } output { [1u16, 1u16, 0u16] }
-- input { 0 [7u16, 7u16, 7u16] [3u16, 0u16, 1u16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:135:33-37
-- input { 1 [7u16, 7u16, 7u16] [3u16, 0u16, 1u16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:135:60-64
-- input { 2 [7u16, 7u16, 7u16] [3u16, 0u16, 1u16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:135:87-92
-- input { 3 [7u16, 7u16, 7u16] [3u16, 0u16, 1u16] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:135:99-104

-- ==
-- entry: u32s
-- input { 0 [7u32, 7u32, 7u32] [3u32, 2u32, 1u32] } output { [2u32, 3u32, 7u32] }
-- input { 1 [7u32, 7u32, 7u32] [3u32, 2u32, 1u32] } output { [1u32, 1u32, 0u32] }
-- input { 2 [7u32, 7u32, 7u32] [3u32, 2u32, 1u32] } output { [2u32, 3u32, 7u32] }
-- input { 3 [7u32, 7u32, 7u32] [3u32, 2u32, 1u32] } output { [1u32, 1u32, 0u32] }
-- input { 0 [7u32, 7u32, 7u32] [3u32, 0u32, 1u32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:137:33-37
-- input { 1 [7u32, 7u32, 7u32] [3u32, 0u32, 1u32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:137:60-64
-- input { 2 [7u32, 7u32, 7u32] [3u32, 0u32, 1u32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:137:87-92
-- input { 3 [7u32, 7u32, 7u32] [3u32, 0u32, 1u32] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:137:99-104

-- ==
-- entry: u64s
-- input { 0 [7u64, 7u64, 7u64] [3u64, 2u64, 1u64] } output { [2u64, 3u64, 7u64] }
-- input { 1 [7u64, 7u64, 7u64] [3u64, 2u64, 1u64] } output { [1u64, 1u64, 0u64] }
-- input { 2 [7u64, 7u64, 7u64] [3u64, 2u64, 1u64] } output { [2u64, 3u64, 7u64] }
-- input { 3 [7u64, 7u64, 7u64] [3u64, 2u64, 1u64] } output { [1u64, 1u64, 0u64] }
-- input { 0 [7u64, 7u64, 7u64] [3u64, 0u64, 1u64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:139:33-37
-- input { 1 [7u64, 7u64, 7u64] [3u64, 0u64, 1u64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:139:60-64
-- input { 2 [7u64, 7u64, 7u64] [3u64, 0u64, 1u64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:139:87-92
-- input { 3 [7u64, 7u64, 7u64] [3u64, 0u64, 1u64] }
-- error: division by zero[\s\S]*div_zero_every_type\.fut:139:99-104
entry i8s [n] (op: i32) (xs: [n]i8) (ds: [n]i8) : []i8 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry i16s [n] (op: i32) (xs: [n]i16) (ds: [n]i16) : []i16 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry i32s [n] (op: i32) (xs: [n]i32) (ds: [n]i32) : []i32 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry i64s [n] (op: i32) (xs: [n]i64) (ds: [n]i64) : []i64 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry u8s [n] (op: i32) (xs: [n]u8) (ds: [n]u8) : []u8 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry u16s [n] (op: i32) (xs: [n]u16) (ds: [n]u16) : []u16 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry u32s [n] (op: i32) (xs: [n]u32) (ds: [n]u32) : []u32 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
entry u64s [n] (op: i32) (xs: [n]u64) (ds: [n]u64) : []u64 =
  map2 (\x d -> if op == 0 then x / d else if op == 1 then x % d else if op == 2 then x // d else x %% d) xs ds
