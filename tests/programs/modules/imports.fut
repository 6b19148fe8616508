-- Imports: a vendored library (lib/github.com/...) and a file in a subdirectory that
-- imports the library again; `.fut` is implied; names of the imported files are in
-- scope, the library's local import is not; a definition named like one of an imported
-- file keeps its name here.
-- ==
-- input { [1f64, 2f64, 3f64] } output { 2f64 2f64 0.6666666666666667f64 3f64 -1f64 }

import "lib/github.com/kerb-tests/stats/stats"
import "geometry/points"

def helper (x: f64) = x - 1

entry main (xs: []f64) =
  let c = centroid (map (\x -> (x, x)) xs)
  in (mean xs, c.1, stats.variance xs, stats.helper 2, helper 0)
