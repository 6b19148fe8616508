-- A library in the vendored layout of Futhark packages (lib/github.com/USER/PKG), for
-- imports.fut. It imports a file of its own package without re-exporting it.

local import "moments"

def mean (xs: []f64) : f64 = moments.first xs

module stats = {
  def variance (xs: []f64) : f64 = moments.second xs - mean xs * mean xs
  def helper (x: f64) = x + 1
}
