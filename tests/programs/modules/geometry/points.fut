-- Points, for imports.fut: imports the stats library a second time (it is read once),
-- and defines a function named like one of imports.fut and an entry point (which is
-- not one of the importing program).

import "../lib/github.com/kerb-tests/stats/stats"

type point = (f64, f64)

def helper (p: point) : f64 = p.0

def centroid (ps: []point) : point = (mean (map (.0) ps), mean (map (.1) ps))

entry spread (ps: []point) = stats.variance (map helper ps)
