// Which maps compiled code computes where they are read (see fusion.h).
#include "compiler/fusion.h"

#include <algorithm>

namespace kerb::core {

bool mentions(const Exp &e, const std::set<int> &vars) {
  for (const SubExp &a : e.args)
    if (a.is_var() && vars.count(a.var)) return true;
  for (int a : e.arrays)
    if (vars.count(a)) return true;
  auto in_body = [&](const Body &b) {
    for (const Stm &t : b.stms)
      if (mentions(t.exp, vars)) return true;
    for (const SubExp &r : b.result)
      if (r.is_var() && vars.count(r.var)) return true;
    return false;
  };
  for (const auto &b : e.bodies)
    if (b && in_body(*b)) return true;
  return e.lambda && in_body(e.lambda->body);
}

bool reads_only_whole(const Exp &e, const std::set<int> &vars) {
  for (const SubExp &a : e.args)
    if (a.is_var() && vars.count(a.var)) return false;
  bool whole = e.kind == ExpKind::Map || e.kind == ExpKind::Reduce;
  // reduce_by_index reads its indices and values element by element (not its
  // destinations, which it copies).
  size_t first_whole = e.kind == ExpKind::Hist ? e.arrays.size() / 2 : 0;
  for (size_t j = 0; j < e.arrays.size(); j++)
    if (vars.count(e.arrays[j]) && !whole && !(first_whole > 0 && j >= first_whole)) return false;
  auto body_ok = [&](const Body &b) {
    for (const Stm &t : b.stms)
      if (!reads_only_whole(t.exp, vars)) return false;
    for (const SubExp &r : b.result)
      if (r.is_var() && vars.count(r.var)) return false;
    return true;
  };
  for (const auto &b : e.bodies)
    if (b && !body_ok(*b)) return false;
  if (e.lambda && !body_ok(e.lambda->body)) return false;
  return true;
}

bool has_sites(const Body &b) {
  for (const Stm &t : b.stms) {
    if (t.exp.site >= 0) return true;
    for (const auto &nb : t.exp.bodies)
      if (nb && has_sites(*nb)) return true;
    if (t.exp.lambda && has_sites(t.exp.lambda->body)) return true;
  }
  return false;
}

bool map_chain_has_sites(const Body &body, const Stm &s) {
  if (has_sites(s.exp.lambda->body)) return true;
  for (int a : s.exp.arrays)
    for (const Stm &t : body.stms) {
      if (&t == &s) break;
      if (t.exp.kind == ExpKind::Map && t.exp.lambda &&
          std::find(t.pat.begin(), t.pat.end(), a) != t.pat.end() && map_chain_has_sites(body, t))
        return true;
    }
  return false;
}

bool computed_where_read(const Program &p, const Body &body, const Stm &s) {
  if (s.exp.kind == ExpKind::Map)
    for (int v : s.pat)
      if (p.var(v).type.rank != 1) return false;
  std::set<int> vars(s.pat.begin(), s.pat.end());
  bool after = false, used = false;
  for (const Stm &t : body.stms) {
    if (&t == &s) {
      after = true;
      continue;
    }
    if (!after) continue;
    if (!reads_only_whole(t.exp, vars)) return false;
    used = used || mentions(t.exp, vars);
  }
  for (const SubExp &r : body.result)
    if (r.is_var() && vars.count(r.var)) return false;
  // A map that nothing reads would never be computed: that is fine unless its lambda,
  // or that of a map fused into it, can fail. compiler/remove_dead_code.cpp removes such
  // maps (and says so in --report-checks), so only what a later pass leaves unread gets
  // here; its checks still happen. (Found by kerb difftest: an unused map with a bad
  // index, seeds 357 and 457, and an unused map over a map with an assert, seed 403658.)
  if (!used && s.exp.kind == ExpKind::Map && map_chain_has_sites(body, s)) return false;
  return true;
}

} // namespace kerb::core
