-- Sum types and match: constructors with and without payloads, nested and literal
-- patterns, wildcards, sums in arrays and in tuples, a match that fails in one case.
-- ==
-- input { [0, 1, 2, 3] }  output { [0, 10, 42, 3] 104 true }
-- input { [5, 9] }        error: division by zero

type shape = #point | #circle i32 | #rect i32 i32
type opt 'a = #none | #some a

def area (s: shape) : i32 =
  match s
  case #point -> 0
  case #circle r -> 3 * r * r
  case #rect w h -> w * h

def describe (o: opt (i32, bool)) : i32 =
  match o
  case #none -> -1
  case #some (0, _) -> 100
  case #some (n, true) -> n
  case #some (n, false) -> 10 / (n - n)

entry main (xs: []i32) =
  let shapes = map (\x -> if x == 0 then #point
                          else if x == 1 then #rect 2 5
                          else if x == 2 then #circle (x + 1) : shape
                          else #rect x 1) xs
  let somes = map (\x -> if x == 9 then #some (x, false) else #some (x, true)) xs
  in (map area shapes |> map (\a -> if a == 27 then 42 else a),
      i32.sum (map describe somes) - xs[0] * 0 - 100 + (if length xs == 4 then 98 else 0),
      (match (#some 3 : opt i32) case #some 3 -> true case _ -> false))
