// The passes over the core IR, in the order compiler/pipeline.cpp runs them. Each is
// defined in the file named after it.
//
// Check insertion, one pass per kind of check: the lowering described every check the
// program could make (core::CheckCandidate); a pass decides each candidate of its kind:
// kept (a check site with a dense failure code and a failure-table record), disabled by
// the toggles (--unsafe, --checks, #[unsafe]), or eliminated when it cannot fail.
#pragma once

#include "compiler/check_options.h"
#include "compiler/core_ir.h"

namespace kerb {

// Indexing of any rank, slices (and take/drop/split/...), in-place updates. Scatter and
// reduce_by_index have no candidates: their out-of-range targets are ignored.
void insert_bounds_checks(core::Program &p, const CheckOptions &opts);
// Integer / % // %% by zero (every integer type) and ** with a negative exponent.
void insert_division_checks(core::Program &p, const CheckOptions &opts);
// `assert c e`.
void insert_assert_checks(core::Program &p, const CheckOptions &opts);
// Ranges a..b...c, iota and replicate of a negative count.
void insert_range_checks(core::Program &p, const CheckOptions &opts);
// Sizes that must match: map2/zip arguments, size coercions, function arguments and
// results, array literal rows, concat, unflatten, updates of rows.
void insert_size_checks(core::Program &p, const CheckOptions &opts);
// The opt-in kind: a float operation producing NaN from operands that are not NaN.
void insert_nan_checks(core::Program &p, const CheckOptions &opts);

// Removes the bounds and division sites that a range analysis proves cannot fail
// (indices from iota and loop counters into arrays of those sizes, clamps, ...).
void remove_proved_checks(core::Program &p, const CheckOptions &opts);
// Removes the Assert statements that did not become sites (their conditions become
// dead code).
void remove_disabled_checks(core::Program &p, const CheckOptions &opts);
// Removes scalar statements whose results are never used (those of disabled checks'
// conditions, mostly; scalar statements with a check site are kept: they may fail), and
// maps whose results are never used (at most their sizes), whose sites become removed as
// dead code (docs/CHECKS.md, Note [Checks in dead code]).
void remove_dead_code(core::Program &p, const CheckOptions &opts);

// For the code generator, after the checks: flatten (map (\i -> map (\f -> g i f) (iota
// d)) (iota n)) in host code becomes one map over iota (n * d) (i = q / d, f = q % d),
// which fuses into the kernels that read it whole (kmeans' slots into its sums).
void flatten_nested_maps(core::Program &p, const CheckOptions &opts);
// Moves the scalar statements of a map's lambda that cannot fail and read nothing the
// lambda binds to before the map, outwards through nested maps (Note [Hoisting out of
// map lambdas]): loop-step constants are computed once on the host, not per element.
void hoist_invariant_scalars(core::Program &p, const CheckOptions &opts);
// Rewrites a sequential loop of host code whose body is scalar work that reads arrays
// (no SOAC, no array made) into a map over `iota 1` whose lambda is the loop, and reads
// of element 0 of its results (Note [Sequential loops in one thread]): one kernel of one
// thread, not a device-to-host copy per element read per iteration.
void offload_sequential_loops(core::Program &p, const CheckOptions &opts);

// Last, for the report: marks the kept sites of maps that compiled code computes only
// where their results are read (compiler/fusion.h) when that may not happen, since the
// interpreter makes them anyway (Note [Checks in dead code]). Changes no statement.
void mark_lazy_checks(core::Program &p, const CheckOptions &opts);

} // namespace kerb
