// Removes scalar statements (SubExp, BinOp, UnOp, Convert, PrimFn) whose results are
// never used and that have no check site, mostly the conditions of checks that
// remove_disabled_checks took out (see passes.h). Other statements stay: arrays and
// control flow are the code generator's business, and a statement with a site may fail.
//
// Variables are bound once, so one walk backwards over each body suffices: a statement
// is dead when none of its variables is used by the statements after it (nested bodies
// and lambdas included), by the body's result, or in the sizes of a variable in use.
#include "compiler/passes.h"

#include <algorithm>
#include <set>

namespace kerb {

namespace {

class DeadCode {
public:
  explicit DeadCode(const core::Program &p) : p_(p) {}

  void function(core::Function &f) {
    for (int r : f.results) use(r);
    body(f.body);
  }

private:
  void use(int v) {
    if (v < 0 || !used_.insert(v).second) return;
    for (const core::SubExp &d : p_.var(v).shape) use(d);
  }
  void use(const core::SubExp &s) {
    if (s.is_var()) use(s.var);
  }

  static bool removable(const core::Exp &e) {
    switch (e.kind) {
    case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
    case core::ExpKind::Convert: case core::ExpKind::PrimFn:
      return e.site < 0;
    default: return false;
    }
  }

  void body(core::Body &b) {
    for (const core::SubExp &r : b.result) use(r);
    std::vector<bool> keep(b.stms.size(), true);
    for (size_t i = b.stms.size(); i-- > 0;) {
      core::Stm &s = b.stms[i];
      bool live = !removable(s.exp) ||
                  std::any_of(s.pat.begin(), s.pat.end(), [&](int v) { return used_.count(v) > 0; });
      if (!live) {
        keep[i] = false;
        continue;
      }
      for (int v : s.pat) use(v);
      exp(s.exp);
    }
    size_t k = 0;
    for (size_t i = 0; i < b.stms.size(); i++) {
      if (!keep[i]) continue;
      if (k != i) b.stms[k] = std::move(b.stms[i]);
      k++;
    }
    b.stms.resize(k);
  }

  void exp(core::Exp &e) {
    for (const core::SubExp &a : e.args) use(a);
    for (int a : e.arrays) use(a);
    for (int v : e.loop_params) use(v);
    use(e.loop_var);
    for (auto &nb : e.bodies)
      if (nb) body(*nb);
    if (e.lambda) {
      for (int v : e.lambda->params) use(v);
      body(e.lambda->body);
    }
  }

  const core::Program &p_;
  std::set<int> used_;
};

} // namespace

void remove_dead_code(core::Program &p, const CheckOptions &) {
  for (core::Function &f : p.functions) DeadCode(p).function(f);
}

} // namespace kerb
