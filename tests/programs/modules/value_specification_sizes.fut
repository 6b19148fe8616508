-- A value specification's sizes do not become the definition's (Note [Value
-- specifications]): `def vzip = id` ascribed `val vzip [n] 'a : vector ([n]a) ->
-- [n](vector a)` returns the size it is given, so the pairs that the concatenated
-- module's vzip zips have one size, as in the vector library's cat_vector (a
-- specification's `[n]` erased to an unknown size made each result an existential of
-- its own, and `zip` of two of them a size mismatch); and `def from_array as = as[0]`
-- ascribed `[length]a -> vector a` takes arrays of any size, each use its own (a size
-- variable left in its type made every later use share one size: v2's from_array took
-- only v1.length elements).
-- ==
-- entry: zips
-- input { [1, 2] [3, 4] [5, 6] [7, 8] }
-- output { [1, 2] [3, 4] [5, 6] [7, 8] }
-- ==
-- entry: from
-- input { [1, 2, 3, 4] }
-- output { [4, 3, 2, 1] }

module type vec = {
  type vector 'a
  val length : i64
  val vzip [n] 'a : vector ([n]a) -> [n](vector a)
  val from_array 'a : [length]a -> vector a
}

module v1 : vec = {
  type vector 'a = a
  def length = 1i64
  def vzip = id
  def from_array as = as[0]
}

module cat (X: vec) (Y: vec) : vec = {
  type vector 'a = (X.vector a, Y.vector a)
  def length = X.length + Y.length
  def vzip (xs, ys) = zip (X.vzip xs) (Y.vzip ys)
  def from_array 't as = let xs = X.from_array (take X.length as)
                         let ys = Y.from_array (take Y.length (drop X.length as))
                         in (xs, ys)
}

module v2 = cat v1 v1
module v4 = cat v2 v2

entry zips (a: [2]i32) (b: [2]i32) (c: [2]i32) (d: [2]i32) =
  let r = v4.vzip ((a, b), (c, d))
  in (map (.0.0) r, map (.0.1) r, map (.1.0) r, map (.1.1) r)

entry from (a: [4]i32) =
  let ((x, y), (z, w)) = v4.from_array a
  in [w, z, y, x]
