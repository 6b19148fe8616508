-- foldl and foldr with non-associative operators show the traversal order:
-- foldl f acc [a,b,c] = f (f (f acc a) b) c,  foldr g acc [a,b,c] = g a (g b (g c acc)).
-- ==
-- input { [1, 2, 3] }     output { 123 321 -6 2 }
-- input { [5] }           output { 5 5 -5 5 }
-- input { empty([0]i32) } output { 0 0 0 0 }
entry main (xs: []i32) : (i32, i32, i32, i32) =
  ( foldl (\acc x -> acc * 10 + x) 0 xs
  , foldr (\x acc -> acc * 10 + x) 0 xs
  , foldl (\acc x -> acc - x) 0 xs
  , foldr (\x acc -> x - acc) 0 xs )
