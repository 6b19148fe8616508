// Flattens `flatten (map (\i -> map (\f -> g i f) (iota d)) (iota n))` (a Reshape to one
// dimension of a perfectly nested map over iotas, in host code) into one map over
// `iota (n * d)` whose lambda computes i = q / d and f = q % d, then g (see passes.h).
// The code generator fuses a one-dimensional map into the kernels that read it whole
// (maps, reductions, the indices and values of reduce_by_index: kmeans' `slots`), while
// a rank-2 map read through a reshape is materialised. Runs after the checks are
// decided: a bounds site the range analysis eliminated for i < n stays eliminated, as
// q / d < n holds for q < n * d.
//
// Conditions: the Reshape's source is bound in the same body by a Map over an `iota n`
// (i64) whose lambda is `iota d` (i64), scalar statements without check sites, and one
// inner Map over that iota whose single scalar result is the lambda's; nothing else
// reads the nested map. With d = 0 the flat map has no elements, and neither has the
// nested one's inner map; the outer statements have no checks, so nothing observable is
// lost. The division and remainder run only for q < n * d, where d > 0.
#include "compiler/passes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace kerb {

namespace {

bool scalar_unchecked(const core::Exp &e) {
  switch (e.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
  case core::ExpKind::Convert: case core::ExpKind::PrimFn:
    return e.site < 0;
  default: return false;
  }
}

// Uses of each variable in a body's statements and result (nested bodies and lambdas
// included).
void count_uses(const core::Body &b, std::map<int, int> &uses) {
  for (const core::Stm &s : b.stms) {
    const core::Exp &e = s.exp;
    for (const core::SubExp &a : e.args)
      if (a.is_var()) uses[a.var]++;
    for (int a : e.arrays) uses[a]++;
    for (const auto &nb : e.bodies)
      if (nb) count_uses(*nb, uses);
    if (e.lambda) count_uses(e.lambda->body, uses);
  }
  for (const core::SubExp &r : b.result)
    if (r.is_var()) uses[r.var]++;
}

class Flatten {
public:
  explicit Flatten(core::Program &p) : p_(p) {}

  void function(core::Function &f) {
    for (int r : f.results) uses_[r]++;
    count_uses(f.body, uses_);
    body(f.body);
  }

private:
  static std::optional<size_t> binding(const core::Body &b, int v) {
    for (size_t k = 0; k < b.stms.size(); k++)
      if (std::find(b.stms[k].pat.begin(), b.stms[k].pat.end(), v) != b.stms[k].pat.end()) return k;
    return std::nullopt;
  }
  static bool iota_i64(const core::Stm &s) {
    return s.exp.kind == core::ExpKind::Iota && s.exp.to == PrimType::I64;
  }

  // Host-level bodies only (loops and ifs included): kernels' lambdas are left alone.
  void body(core::Body &b) {
    for (core::Stm &s : b.stms)
      for (auto &nb : s.exp.bodies)
        if (nb) body(*nb);
    std::set<size_t> drop;
    std::map<size_t, core::Stm> iotas;
    for (size_t k = 0; k < b.stms.size(); k++) {
      if (b.stms[k].exp.kind != core::ExpKind::Reshape) continue;
      std::optional<size_t> m = nested_map(b, k);
      if (!m) continue;
      drop.insert(*m);
      iotas.emplace(k, flatten(b.stms[*m], b.stms[k]));
    }
    if (drop.empty()) return;
    std::vector<core::Stm> out;
    for (size_t k = 0; k < b.stms.size(); k++) {
      if (drop.count(k)) continue;
      auto io = iotas.find(k);
      if (io != iotas.end()) out.push_back(std::move(io->second));
      out.push_back(std::move(b.stms[k]));
    }
    b.stms = std::move(out);
  }

  // The statement of the nested map that reshape statement k flattens, if it has the
  // shape above.
  std::optional<size_t> nested_map(const core::Body &b, size_t k) {
    const core::Stm &r = b.stms[k];
    if (r.exp.args.size() != 1 || r.exp.arrays.size() != 1 || r.pat.size() != 1) return std::nullopt;
    int src = r.exp.arrays[0];
    std::optional<size_t> mi = binding(b, src);
    if (!mi || uses_[src] != 1 || p_.var(src).type.rank != 2) return std::nullopt;
    const core::Stm &m = b.stms[*mi];
    if (m.exp.kind != core::ExpKind::Map || m.pat.size() != 1 || m.exp.arrays.size() != 1) return std::nullopt;
    std::optional<size_t> oi = binding(b, m.exp.arrays[0]);
    if (!oi || !iota_i64(b.stms[*oi])) return std::nullopt;
    const core::Lambda &outer = *m.exp.lambda;
    if (outer.params.size() != 1 || outer.body.result.size() != 1 || !outer.body.result[0].is_var())
      return std::nullopt;
    std::optional<size_t> ii = binding(outer.body, outer.body.result[0].var);
    if (!ii) return std::nullopt;
    const core::Stm &inner = outer.body.stms[*ii];
    if (inner.exp.kind != core::ExpKind::Map || inner.pat.size() != 1 || inner.exp.arrays.size() != 1 ||
        inner.exp.lambda->params.size() != 1 || inner.exp.lambda->body.result.size() != 1 ||
        p_.var(inner.pat[0]).type.rank != 1)
      return std::nullopt;
    std::optional<size_t> iio = binding(outer.body, inner.exp.arrays[0]);
    if (!iio || !iota_i64(outer.body.stms[*iio])) return std::nullopt;
    std::map<int, int> uses;
    count_uses(outer.body, uses);
    if (uses[inner.exp.arrays[0]] != 1) return std::nullopt;
    for (size_t j = 0; j < outer.body.stms.size(); j++)
      if (j != *ii && j != *iio && !scalar_unchecked(outer.body.stms[j].exp)) return std::nullopt;
    return mi;
  }

  // Turns reshape statement r into the flat map (moving the nested map m's statements
  // into it); returns the flat map's iota statement.
  core::Stm flatten(core::Stm &m, core::Stm &r) {
    core::Lambda &outer = *m.exp.lambda;
    int inner_var = outer.body.result[0].var;
    core::Stm *inner = nullptr;
    for (core::Stm &s : outer.body.stms)
      if (std::find(s.pat.begin(), s.pat.end(), inner_var) != s.pat.end()) inner = &s;
    int inner_iota = inner->exp.arrays[0];
    core::Lambda &in = *inner->exp.lambda;
    const core::SubExp total = r.exp.args[0];
    core::SubExp d;
    for (const core::Stm &s : outer.body.stms)
      if (!s.pat.empty() && s.pat[0] == inner_iota) d = s.exp.args[0];

    core::Stm io;
    io.pat = {p_.new_var("flat_iota", core::CType{PrimType::I64, 1}, {total})};
    io.exp.kind = core::ExpKind::Iota;
    io.exp.args = {total};
    io.exp.to = PrimType::I64;
    io.exp.span = r.exp.span;

    auto lam = std::make_unique<core::Lambda>();
    int q = p_.new_var("flat_q", core::CType{PrimType::I64, 0});
    lam->params = {q};
    // The outer and inner parameters, now bound in the lambda: q / d and q % d.
    auto divmod = [&](BinOp op, int into) {
      core::Stm st;
      st.pat = {into};
      st.exp.kind = core::ExpKind::BinOp;
      st.exp.binop = op;
      st.exp.args = {core::SubExp::of_var(q), d};
      st.exp.span = r.exp.span;
      lam->body.stms.push_back(std::move(st));
    };
    divmod(BinOp::Quot, outer.params[0]);
    divmod(BinOp::Rem, in.params[0]);
    for (core::Stm &s : outer.body.stms)
      if (&s != inner && !(s.pat.size() == 1 && s.pat[0] == inner_iota)) lam->body.stms.push_back(std::move(s));
    for (core::Stm &s : in.body.stms) lam->body.stms.push_back(std::move(s));
    lam->body.result = in.body.result;

    core::Exp flat;
    flat.kind = core::ExpKind::Map;
    flat.args = {total};
    flat.arrays = {io.pat[0]};
    flat.lambda = std::move(lam);
    flat.span = r.exp.span;
    r.exp = std::move(flat);
    return io;
  }

  core::Program &p_;
  std::map<int, int> uses_;
};

} // namespace

void flatten_nested_maps(core::Program &p, const CheckOptions &) {
  for (core::Function &f : p.functions) Flatten(p).function(f);
}

} // namespace kerb
