// Comparison of results between executors (kerb difftest) and against recorded
// results (golden files of `kerb run`), in the manner of PCAST's autocompare:
// integers and bools exactly; floats within a number of units in the last place (ULPs)
// or a relative difference, with NaN equal to NaN (whatever its payload) and -0.0
// equal to +0.0. It also measures the largest float difference seen, agreeing or not,
// so that a run can report how close its results were.
#pragma once

#include "runtime/value.h"

#include <string>

namespace kerb {

// Two floats agree when they are both NaN, equal, at most `ulps` ULPs apart, or
// |a - b| <= rtol * max(|a|, |b|). ULPs are counted in the values' own type (f16, f32
// or f64); an infinity is one ULP beyond the largest finite value.
struct FloatTolerance {
  double ulps = 0;
  double rtol = 0;
};

struct Comparison {
  bool equal = true;
  std::string why;         // the first disagreement: where, the two values, how far apart
  int64_t differences = 0; // how many elements (or mismatched types/shapes) disagree
  double worst_ulps = 0;   // largest ULP distance between finite floats seen
  double worst_rel = 0;    // largest relative difference between finite floats seen
  // Where the largest ULP distance was seen ("at [3, 1]", "component 1, at [0]"; ""
  // for a scalar) and the two values there; empty when every float was equal.
  std::string worst_where, worst_values;
};

// Compares `actual` with `expected` (types and shapes must match exactly). It looks at
// every element, so that `differences` and the worst difference cover them all; `why`
// stays the first disagreement.
Comparison compare_values(const Value &expected, const Value &actual, const FloatTolerance &tol);

// The distance between two floats of one type in ULPs (0 for -0.0 and +0.0);
// infinite when exactly one of them is NaN.
double ulp_distance(const PrimValue &a, const PrimValue &b);

} // namespace kerb
