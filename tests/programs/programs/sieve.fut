-- Sieve of Eratosthenes: a loop over candidate factors, each round a scatter that
-- clears the multiples; then filter the primes.
-- ==
-- input { 30i64 }  output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] 10i64 }
-- input { 2i64 }   output { empty([0]i64) 0i64 }
-- input { 3i64 }   output { [2i64] 1i64 }
entry main (n: i64) : ([]i64, i64) =
  let is_prime = map (\i -> i >= 2) (iota n)
  let is_prime =
    loop is_prime = is_prime for p in 2..<n do
      if p * p < n && is_prime[p]
      then let m = (n - 1) / p - 1
           let idx = map (\k -> (k + 2) * p) (iota m)
           in scatter is_prime idx (replicate m false)
      else is_prime
  let primes = filter (\i -> is_prime[i]) (iota n)
  in (primes, length primes)
