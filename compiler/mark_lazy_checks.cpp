// Marks the kept check sites that compiled code may skip where the interpreter makes
// them: those in a map that is computed only where its result is read (compiler/
// fusion.h) when no reader that surely runs reads it. Such a map, read only inside a
// branch of an `if`, a loop's body or another map's lambda, runs its checks only when
// that branch runs, the loop iterates, the other map has elements: where its result is
// not used, it is dead code, and so are its checks (Futhark lets dead-code elimination
// remove them). The mark (CheckCandidate::lazy) says so in --report-checks, and lets
// `kerb difftest` accept the interpreter failing there alone (docs/CHECKS.md, Note
// [Checks in dead code]). Nothing changes in the program.
//
// A reader surely runs when it is a statement of the map's own body that reads the map
// directly as one of its arrays (a map of the same width reads every element) and is
// itself stored or read surely in turn, or when both branches of an `if` of that body
// read it surely. The last pass: the code generator sees the program as this pass does.
#include "compiler/fusion.h"
#include "compiler/passes.h"

#include <fmt/format.h>

#include <functional>

namespace kerb {

namespace {

const char *kind_name(core::ExpKind k) {
  switch (k) {
  case core::ExpKind::If: return "if";
  case core::ExpKind::Loop: return "loop";
  case core::ExpKind::Map: return "map";
  case core::ExpKind::Reduce: return "reduction";
  case core::ExpKind::Scan: return "scan";
  case core::ExpKind::Hist: return "reduce_by_index";
  default: return "statement";
  }
}

class LazyChecks {
public:
  explicit LazyChecks(core::Program &p) : p_(p) {}

  void body(core::Body &b) {
    for (core::Stm &s : b.stms) {
      if (s.exp.kind == core::ExpKind::Map && core::has_sites(s.exp.lambda->body) &&
          core::computed_where_read(p_, b, s)) {
        std::string why;
        if (!surely_read(b, s, why)) mark(s.exp.lambda->body, why);
      }
      for (auto &nb : s.exp.bodies)
        if (nb) body(*nb);
      if (s.exp.lambda) body(s.exp.lambda->body);
    }
  }

private:
  // Whether a reader of the map `s` of `b` that surely runs reads it; if not, `why`.
  bool surely_read(const core::Body &b, const core::Stm &s, std::string &why) {
    std::set<int> vars(s.pat.begin(), s.pat.end());
    std::string first;
    if (surely_reads(b, &s, vars, first)) return true;
    why = fmt::format("skipped where dead: the map at {} is computed only where its result is read, {}",
                      s.exp.span.place(), first);
    return false;
  }

  // Whether a statement of `b` (after `from`, if given) that surely runs reads `vars`
  // whole: directly, as the arrays of a statement that is not a map computed where it
  // is read (or is, and is surely read itself), or in both branches of an `if`. If
  // not, `first` says where the first reader is.
  bool surely_reads(const core::Body &b, const core::Stm *from, const std::set<int> &vars, std::string &first) {
    bool after = from == nullptr;
    for (const core::Stm &t : b.stms) {
      if (&t == from) {
        after = true;
        continue;
      }
      if (!after || !core::mentions(t.exp, vars)) continue;
      bool direct = false;
      for (int a : t.exp.arrays) direct = direct || vars.count(a) > 0;
      std::string where = fmt::format("the {} at {}", kind_name(t.exp.kind), t.exp.span.place());
      std::string inner;
      if (direct) {
        if (t.exp.kind != core::ExpKind::Map || !core::computed_where_read(p_, b, t) ||
            surely_reads(b, &t, std::set<int>(t.pat.begin(), t.pat.end()), inner))
          return true;
        if (first.empty()) first = "by " + where + ", itself computed only where it is read";
        continue;
      }
      if (t.exp.kind == core::ExpKind::If && surely_reads(*t.exp.bodies[0], nullptr, vars, inner) &&
          surely_reads(*t.exp.bodies[1], nullptr, vars, inner))
        return true;
      if (first.empty()) first = "inside " + where;
    }
    return false;
  }

  void mark(core::Body &b, const std::string &why) {
    for (core::Stm &t : b.stms) {
      if (t.exp.site >= 0 && t.exp.check >= 0) {
        core::CheckCandidate &c = p_.candidates[size_t(t.exp.check)];
        if (c.lazy.empty()) c.lazy = why;
      }
      for (auto &nb : t.exp.bodies)
        if (nb) mark(*nb, why);
      if (t.exp.lambda) mark(t.exp.lambda->body, why);
    }
  }

  core::Program &p_;
};

} // namespace

void mark_lazy_checks(core::Program &p, const CheckOptions &) {
  for (core::Function &f : p.functions) LazyChecks(p).body(f.body);
}

} // namespace kerb
