-- Attributes: Futhark's are accepted and, except #[unsafe], ignored: on definitions,
-- expressions, parameters and patterns, with arguments.
-- ==
-- input { [1, 2, 3] }  output { 6 [2, 3, 4] }
-- input { empty([0]i32) }  error: Assertion is false: n > 0

#[noinline]
def add1 (#[maxval(100)] x: i32) = x + 1

#[inline] #[unsafe]
def total (xs: []i32) = #[sequential] reduce (+) 0 xs

entry main (xs: []i32) =
  let n = #[trace(n)] length xs
  let #[unroll] ys = #[incremental_flattening(only_inner)] map add1 xs
  in (assert (n > 0) (total xs), ys)
