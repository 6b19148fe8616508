// Removes statements whose results are never used: scalar statements (SubExp, BinOp,
// UnOp, Convert, PrimFn) without a check site, mostly the conditions of checks that
// remove_disabled_checks took out (see passes.h), and maps whose results are not used
// (at most their sizes, which the lowering binds apart), checks and all: Futhark lets
// dead-code elimination remove an assertion whose value is not used, and compiled code
// would compute such a map nowhere anyway (compiler/fusion.h). The kept sites inside a
// removed map become "removed (dead code: ...)" in --report-checks, and `kerb difftest`
// accepts the interpreter failing at them alone (docs/CHECKS.md, Note [Checks in dead
// code]). Other statements stay: control flow and the other array statements are the
// code generator's business, and a scalar statement with a site may fail.
//
// Variables are bound once, so one walk backwards over each body suffices: a statement
// is dead when none of its variables is used by the statements after it (nested bodies
// and lambdas included), by the body's result, or in the sizes of a variable in use. A
// map read only by a dead map is dead too.
#include "compiler/check_sites.h"
#include "compiler/passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
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

  // The sites of the removed maps (by failure code), and why each went (by candidate).
  std::vector<bool> removed_sites;
  std::map<int, std::string> why;

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
    case core::ExpKind::Map: return true;
    default: return false;
    }
  }

  // A dead map goes with its sites.
  void removing(const core::Exp &map) {
    std::string reason = fmt::format("the result of the map at {} is not used, at most its size", map.span.place());
    std::function<void(const core::Exp &)> walk = [&](const core::Exp &e) {
      if (e.site >= 0) {
        if (removed_sites.size() <= size_t(e.site)) removed_sites.resize(size_t(e.site) + 1, false);
        removed_sites[size_t(e.site)] = true;
        if (e.check >= 0) why[e.check] = reason;
      }
      auto in = [&](const core::Body &b) {
        for (const core::Stm &t : b.stms) walk(t.exp);
      };
      for (const auto &nb : e.bodies)
        if (nb) in(*nb);
      if (e.lambda) in(e.lambda->body);
    };
    walk(map);
  }

  void body(core::Body &b) {
    for (const core::SubExp &r : b.result) use(r);
    std::vector<bool> keep(b.stms.size(), true);
    for (size_t i = b.stms.size(); i-- > 0;) {
      core::Stm &s = b.stms[i];
      bool live = !removable(s.exp) ||
                  std::any_of(s.pat.begin(), s.pat.end(), [&](int v) { return used_.count(v) > 0; });
      if (!live) {
        if (s.exp.kind == core::ExpKind::Map) removing(s.exp);
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
  std::vector<bool> removed;
  std::map<int, std::string> why;
  for (core::Function &f : p.functions) {
    DeadCode dc(p);
    dc.function(f);
    if (removed.size() < dc.removed_sites.size()) removed.resize(dc.removed_sites.size(), false);
    for (size_t k = 0; k < dc.removed_sites.size(); k++)
      if (dc.removed_sites[k]) removed[k] = true;
    why.insert(dc.why.begin(), dc.why.end());
  }
  remove_sites(
      p, removed,
      [&](const core::CheckCandidate &c) {
        auto w = why.find(int(&c - p.candidates.data()));
        return w != why.end() ? w->second : std::string("in a map whose result is not used");
      },
      core::CheckCandidate::kDead);
}

} // namespace kerb
