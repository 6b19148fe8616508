-- Cases that fail on purpose, to test how `kerb test` reports failures (cli_test.sh).
-- ==
-- input { 1 } output { 3 }
-- input { 1 } output { 2 }
-- input { 1 } error: never
-- input { 0 } output { 1 }
entry main (x: i32) : i32 = 2 / x
