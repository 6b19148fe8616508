-- A string literal indexed by the input (tests/cli/cli_test.sh reads its LLVM IR).
entry main (i: i64) = "hello"[i]
