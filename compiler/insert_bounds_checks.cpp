// Check insertion: bounds (see passes.h). The lowering describes a bounds candidate on
// every Index and Update with indices (one per access of an array of tuples: the first
// component's check covers the others), and an Assert candidate for every slice (its
// condition and message follow the interpreter's slice rules). An access whose indices
// and array sizes are all constants in range cannot fail.
#include "compiler/check_sites.h"
#include "compiler/passes.h"

namespace kerb {

namespace {

std::string constant_in_bounds(const core::Program &p, const core::Exp &e) {
  if (e.kind != core::ExpKind::Index && e.kind != core::ExpKind::Update) return "";
  size_t n = e.kind == core::ExpKind::Update ? e.args.size() - 1 : e.args.size();
  const std::vector<core::SubExp> &shape = p.var(e.arrays[0]).shape;
  if (n > shape.size()) return "";
  for (size_t d = 0; d < n; d++) {
    const core::SubExp &i = e.args[d], &w = shape[d];
    if (i.is_var() || w.is_var()) return "";
    if (i.constant.bits.i < 0 || i.constant.bits.i >= w.constant.bits.i) return "";
  }
  return "constant index in bounds";
}

} // namespace

void insert_bounds_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::Bounds, opts, constant_in_bounds);
}

} // namespace kerb
