-- A segmented reduction whose operator is neither commutative nor a single operator:
-- composition of affine maps x -> a * x + b, on pairs (a tuple operator; the order of
-- the elements matters). Wrapping i64 arithmetic keeps it associative.
-- ==
-- input { 1i64 70000i64 } output { [-3349098157864021269i64] }
-- input { 3i64 50000i64 } output { [-248805036232059989i64, -6139361967332439075i64, -5613093723156234707i64] }
-- input { 16i64 5000i64 } output { [6726854487439852891i64, 836297556339338805i64, 8338225324187186053i64, 8118078459667950253i64, 1779411934516427613i64, 3006502741481623985i64, -2884054189618890096i64, 897521832270728256i64, 4242712057628128483i64, 4724690400066692154i64, -713849004476604921i64, -6604405935577118997i64, -6543181659645729541i64, 367345655588306713i64, 7669968865616956695i64, -4434200750434833827i64] }
-- input { 0i64 10i64 } output { empty([0]i64) }
-- input { 2i64 0i64 } output { [1i64, 1i64] }
def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) = (a1 * a2, b1 * a2 + b2)

entry main (n: i64) (m: i64) : []i64 =
  map (\j -> let (a, b) = reduce compose (1, 0) (map (\i -> ((i + j) % 5 + 1, i * 3 + j)) (iota m))
             in a + b)
      (iota n)
