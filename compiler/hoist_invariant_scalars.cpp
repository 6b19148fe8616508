// Moves the scalar statements of a map's lambda that read nothing the lambda binds (its
// parameters or its earlier statements) to just before the map (see passes.h), repeatedly
// outwards: out of a nested map's inner lambda, then out of the outer lambda, so that a
// constant of the loop step such as hotspot's `step / cap` is computed once on the host
// instead of once per element (a division per thread in the kernel, which the
// hand-written kernel takes as an argument).
//
// Note [Hoisting out of map lambdas]
// Only scalar statements that cannot fail are moved: SubExp, BinOp, UnOp, Convert and
// PrimFn statements without a check site (not an array's SubExp: a size coercion's view,
// valid only where its check, inside the lambda, passed), and not an integer division, remainder or `**` (those
// leave no defined result on a zero divisor or a negative exponent even unchecked, and
// the interpreter reports them under --unsafe: moving one out of a map of no elements
// would make it run where it did not). What remains is total and pure (prim_ops.h:
// integers wrap, float to integer conversions are defined for every value, shifts by any
// amount are defined), so running it once before the map instead of once per element
// (or not at all for an empty map) gives the same values and the same failures; a float
// operation with a nan site (opt-in) has a site and stays. Statements inside the bodies
// of ifs and loops are not moved out of them (the map's own lambda body only), nor out of
// the lambdas of other operators (reduction operators keep their shapes for the code
// generator's patterns).
#include "compiler/passes.h"

#include "compiler/prim_ops.h"

#include <algorithm>
#include <set>
#include <vector>

namespace kerb {

namespace {

bool total_scalar(const core::Program &p, const core::Exp &e) {
  if (e.site >= 0) return false;
  switch (e.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::UnOp: case core::ExpKind::Convert:
  case core::ExpKind::PrimFn:
    return true;
  case core::ExpKind::BinOp: {
    PrimType t = p.type_of(e.args[0]).prim;
    return !is_checked_division(e.binop, t) && !(e.binop == BinOp::Pow && is_int(t));
  }
  default: return false;
  }
}

class Hoist {
public:
  explicit Hoist(const core::Program &p) : p_(p) {}

  void body(core::Body &b) {
    std::vector<core::Stm> out;
    out.reserve(b.stms.size());
    for (core::Stm &s : b.stms) {
      for (auto &nb : s.exp.bodies)
        if (nb) body(*nb);
      if (s.exp.lambda) {
        body(s.exp.lambda->body);
        if (s.exp.kind == core::ExpKind::Map)
          for (core::Stm &h : invariant(*s.exp.lambda)) out.push_back(std::move(h));
      }
      out.push_back(std::move(s));
    }
    b.stms = std::move(out);
  }

private:
  // Takes the lambda's invariant statements out of its body, in their order.
  std::vector<core::Stm> invariant(core::Lambda &l) {
    std::set<int> bound(l.params.begin(), l.params.end());
    std::vector<core::Stm> keep, up;
    for (core::Stm &s : l.body.stms) {
      bool reads_bound = false;
      for (const core::SubExp &a : s.exp.args)
        if (a.is_var() && bound.count(a.var)) reads_bound = true;
      bool scalar = std::all_of(s.pat.begin(), s.pat.end(), [&](int v) { return p_.var(v).type.rank == 0; });
      if (!reads_bound && scalar && s.exp.arrays.empty() && total_scalar(p_, s.exp)) {
        up.push_back(std::move(s));
        continue;
      }
      bound.insert(s.pat.begin(), s.pat.end());
      keep.push_back(std::move(s));
    }
    l.body.stms = std::move(keep);
    return up;
  }

  const core::Program &p_;
};

} // namespace

void hoist_invariant_scalars(core::Program &p, const CheckOptions &) {
  Hoist h(p);
  for (core::Function &f : p.functions) h.body(f.body);
}

} // namespace kerb
