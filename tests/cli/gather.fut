-- Entry points for the CLI tests (cli_test.sh): a checked gather, a tuple result,
-- an array-of-tuples result and a tuple parameter.
entry main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is

entry split (x: i32) : (i32, bool) = (x * 2, x > 0)

entry pairs (xs: []i32) (ys: []f32) : [](i32, f32) = zip xs ys

entry add_pair (p: (i32, i32)) : i32 = p.0 + p.1

entry constant : i32 = 42
