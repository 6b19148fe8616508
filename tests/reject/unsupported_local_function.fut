-- Local function definitions are left out of the subset.
-- ==
-- error: unsupported_local_function\.fut:5:3: error: local function definitions are not supported
def main (x: i32) =
  let inc y = y + 1
  in inc x
