// Removes the bounds check sites (and division-by-zero sites) that a simple range
// analysis proves cannot fail (see passes.h and docs/CHECKS.md, Note [Proved in range]).
//
// The facts, all about i64 variables (variables are bound once, so a fact about how a
// variable is computed holds wherever it is in scope; the other facts hold from where
// they are learnt to the end of the body, nested bodies included):
//   - the parameter of a map lambda over `iota e` (read at row i of an array bound by
//     `iota e`, with the map's width e) and the counter of `for k < e` are in [0, e-1];
//     inside that lambda or loop body, e >= 1 (it runs);
//   - the entry's size parameters are >= 0 (sizes of the arrays passed in);
//   - a kept assert's condition is true after it: equal sizes (`n == m`, the size
//     checks of map2, entry points, ...), also `n == m || k == 0` where k >= 1;
//   - in the branches of an `if`, its condition (`i == 0 || i == n - 1` false: i != 0,
//     i != n - 1).
// An index x into a dimension d is in range when 0 <= x <= d - 1 holds as integers
// (not modulo 2^64): the query `in_range(x, L, T)` (L <= x <= T, T a variable plus a
// constant) follows how x is computed: x + c and x - c with a constant c (only where the
// i64 operation cannot wrap, which the query's bounds show), min and max, x / p and
// x % p for x >= 0 and p >= 1 (x < a * p gives x / p < a when a >= 0).
//
// Only compiled code changes: the interpreter works on the AST and makes every bounds
// check. A removed site cannot fail, so the program behaves as before.
#include "compiler/check_sites.h"
#include "compiler/passes.h"

#include <climits>
#include <map>
#include <unordered_map>

namespace kerb {

namespace {

using I = __int128;
constexpr I kMin = INT64_MIN, kMax = INT64_MAX;
constexpr int kMaxDepth = 24;
constexpr long kMaxSteps = 20000; // per proof: past it, not proved

// The value var + k (var < 0: the constant k), as an integer.
struct Aff {
  int var = -1;
  I k = 0;
};

Aff plus(Aff a, I c) { return Aff{a.var, a.k + c}; }
const Aff kInf{-1, kMax}; // no upper bound beyond i64's

// What holds at a point of the program (copied into nested bodies).
struct Env {
  std::map<int, int> alias;            // equal variables (assert n == m): var -> representative
  std::map<int, I> lo;                 // var >= lo
  std::map<int, core::SubExp> below;   // var in [0, e-1] (iota element, loop counter)
  std::vector<std::pair<int, core::SubExp>> neq; // var != value
  struct CondEq { int a, b, unless; };           // a == b unless `unless` == 0
  std::vector<CondEq> cond_eq;
};

class Prover {
public:
  explicit Prover(core::Program &p) : p_(p) {}

  void function(core::Function &f) {
    Env env;
    for (const auto &shape : f.param_shape_vars)
      for (int v : shape) env.lo[v] = 0;
    body(f.body, env);
  }

  // Per site: every expression with the site is proved (true), or some is not (false).
  std::map<int, bool> proved;

private:
  const core::Exp *def(int v) const {
    auto it = def_.find(v);
    return it == def_.end() ? nullptr : it->second;
  }

  bool is_i64(int v) const { return p_.var(v).type == core::CType{PrimType::I64, 0}; }

  // Follows `let x = y` and assert equalities to a representative.
  int canon(int v) const {
    for (int i = 0; i < 64; i++) {
      auto it = env_->alias.find(v);
      if (it != env_->alias.end()) {
        v = it->second;
        continue;
      }
      const core::Exp *e = def(v);
      if (e && e->kind == core::ExpKind::SubExp && e->args[0].is_var()) {
        v = e->args[0].var;
        continue;
      }
      break;
    }
    return v;
  }

  bool same(int a, int b, int depth) {
    a = canon(a), b = canon(b);
    if (a == b) return true;
    for (const Env::CondEq &c : env_->cond_eq) {
      int x = canon(c.a), y = canon(c.b);
      if (((x == a && y == b) || (x == b && y == a)) &&
          in_range(core::SubExp::of_var(c.unless), 1, kInf, depth + 1))
        return true;
    }
    return false;
  }

  static bool constant_i64(const core::SubExp &s, I &c) {
    if (s.is_var() || s.constant.type != PrimType::I64) return false;
    c = s.constant.bits.i;
    return true;
  }

  // x = y + c with a constant c (x + c, c + x, x - c): y and c.
  bool offset_of(const core::Exp &e, core::SubExp &y, I &c) const {
    if (e.kind != core::ExpKind::BinOp) return false;
    if (e.binop == BinOp::Add) {
      if (constant_i64(e.args[1], c) && e.args[0].is_var()) return y = e.args[0], true;
      if (constant_i64(e.args[0], c) && e.args[1].is_var()) return y = e.args[1], true;
    }
    if (e.binop == BinOp::Sub && constant_i64(e.args[1], c) && e.args[0].is_var()) {
      c = -c;
      return y = e.args[0], true;
    }
    return false;
  }

  // The lower bound known of v (from the facts, not from how it is computed), and
  // whether v is in [lo, e + hk] by an iota/loop fact (refined by the facts v != ...).
  I known_lo(int v) const {
    I lo = kMin;
    for (const auto &[w, l] : env_->lo)
      if (canon(w) == v && l > lo) lo = l;
    return lo;
  }

  // Whether the value of s is a (as an integer).
  bool equals(const core::SubExp &s, Aff a, int depth) {
    if (depth > kMaxDepth || ++steps_ > kMaxSteps) return false;
    I c;
    if (constant_i64(s, c)) return a.var < 0 && a.k == c;
    if (!s.is_var()) return false;
    if (a.var >= 0 && a.k == 0 && same(s.var, a.var, depth)) return true;
    const core::Exp *e = def(canon(s.var));
    core::SubExp y;
    if (e && is_i64(canon(s.var)) && offset_of(*e, y, c) && no_wrap(y, c, depth))
      return equals(y, plus(a, -c), depth + 1);
    return false;
  }

  bool no_wrap(const core::SubExp &y, I c, int depth) {
    if (c >= 0) return in_range(y, kMin, Aff{-1, kMax - c}, depth + 1);
    return in_range(y, kMin - c, kInf, depth + 1);
  }

  // Whether a <= t as integers.
  bool le(Aff a, Aff t, int depth) {
    if (depth > kMaxDepth) return false;
    if (a.var < 0) {
      if (t.var < 0) return a.k <= t.k;
      return in_range(core::SubExp::of_var(t.var), a.k - t.k, kInf, depth + 1);
    }
    if (t.var >= 0 && same(a.var, t.var, depth)) return a.k <= t.k;
    if (in_range(core::SubExp::of_var(a.var), kMin, plus(t, -a.k), depth + 1)) return true;
    // t = u + c (no wrap): a <= u + c + t.k.
    if (t.var >= 0) {
      const core::Exp *e = def(canon(t.var));
      core::SubExp y;
      I c;
      if (e && is_i64(canon(t.var)) && offset_of(*e, y, c) && no_wrap(y, c, depth))
        return le(a, Aff{y.var, t.k + c}, depth + 1);
    }
    return false;
  }

  // Whether L <= x <= t as integers (x's i64 value, computed without wrapping).
  bool in_range(const core::SubExp &x, I L, Aff t, int depth) {
    if (depth > kMaxDepth || ++steps_ > kMaxSteps) return false;
    if (t.var < 0 && t.k > kMax) t.k = kMax;
    if (L <= kMin && t.var < 0 && t.k >= kMax) return true;
    I c;
    if (constant_i64(x, c)) return L <= c && le(Aff{-1, c}, t, depth + 1);
    if (!x.is_var() || !is_i64(x.var)) return false;
    int v = canon(x.var);
    I lo = known_lo(v);
    if (L <= lo) {
      if (t.var < 0 && t.k >= kMax) return true;
      if (t.var >= 0 && t.k >= 0 && same(v, t.var, depth)) return true;
    }
    // An iota element or loop counter: [0, e - 1].
    for (const auto &[w, e] : env_->below) {
      if (canon(w) != v) continue;
      Aff hi = e.is_var() ? Aff{e.var, -1} : Aff{-1, I(e.constant.bits.i) - 1};
      if (L <= std::max(I(0), lo) && le(hi, t, depth + 1)) return true;
    }
    // x != L - 1 and L - 1 <= x; x != t + 1 and x <= t + 1 (`if i == 0 || i == n - 1`).
    for (const auto &[u, val] : env_->neq) {
      if (canon(u) != v) continue;
      if (L > kMin && equals(val, Aff{-1, L - 1}, depth + 1) && in_range(x, L - 1, t, depth + 1))
        return true;
      if (!(t.var < 0 && t.k >= kMax) && equals(val, plus(t, 1), depth + 1) &&
          in_range(x, L, plus(t, 1), depth + 1))
        return true;
    }
    const core::Exp *e = def(v);
    if (!e) return false;
    core::SubExp y;
    if (offset_of(*e, y, c)) {
      // y + c does not wrap: for c >= 0, x <= t needs t.k <= 0 (t's variable is at most
      // 2^63 - 1) or a constant t; for c < 0, y >= L - c > INT64_MIN - c.
      if (c > 0 && t.var >= 0 && t.k > 0) return false;
      if (c < 0 && L - c <= kMin) return false;
      Aff tt = plus(t, -c);
      if (tt.var < 0 && tt.k > kMax) tt.k = kMax;
      return in_range(y, L - c, tt, depth + 1);
    }
    if (e->kind == core::ExpKind::BinOp) return binop(*e, L, t, depth);
    if (e->kind == core::ExpKind::PrimFn && e->prim_fn.module == PrimType::I64 &&
        e->args.size() == 2) {
      const core::SubExp &a = e->args[0], &b = e->args[1];
      if (e->prim_fn.fn == PrimFn::Min)
        return (in_range(a, L, t, depth + 1) && in_range(b, L, kInf, depth + 1)) ||
               (in_range(a, L, kInf, depth + 1) && in_range(b, L, t, depth + 1));
      if (e->prim_fn.fn == PrimFn::Max)
        return (in_range(a, L, t, depth + 1) && in_range(b, kMin, t, depth + 1)) ||
               (in_range(a, kMin, t, depth + 1) && in_range(b, L, t, depth + 1));
    }
    return false;
  }

  // x / p, x // p, x % p, x %% p with x >= 0 and p >= 1: in [0, ...].
  bool binop(const core::Exp &e, I L, Aff t, int depth) {
    if (L > 0) return false;
    const core::SubExp &x = e.args[0], &p = e.args[1];
    if (!in_range(p, 1, kInf, depth + 1) || !in_range(x, 0, kInf, depth + 1)) return false;
    switch (e.binop) {
    case BinOp::Mod: case BinOp::Rem: {
      I c;
      if (constant_i64(p, c)) return le(Aff{-1, c - 1}, t, depth + 1);
      return le(Aff{p.var, -1}, t, depth + 1);
    }
    case BinOp::Div: case BinOp::Quot: {
      // x / p <= x.
      if (in_range(x, 0, t, depth + 1)) return true;
      // x <= a * p - 1 (the i64 product, at most the integer one when a, p >= 0):
      // x / p <= a - 1.
      if (!x.is_var() || !p.is_var()) return false;
      int xv = canon(x.var);
      for (const auto &[w, bound] : env_->below) {
        if (canon(w) != xv || !bound.is_var()) continue;
        const core::Exp *m = def(canon(bound.var));
        if (!m || m->kind != core::ExpKind::BinOp || m->binop != BinOp::Mul) continue;
        for (int side = 0; side < 2; side++) {
          const core::SubExp &q = m->args[size_t(side)], &a = m->args[size_t(1 - side)];
          if (q.is_var() && a.is_var() && same(q.var, p.var, depth) &&
              in_range(a, 0, kInf, depth + 1) && le(Aff{a.var, -1}, t, depth + 1))
            return true;
        }
      }
      return false;
    }
    default: return false;
    }
  }

  // Whether the bool c is true: x >= c, c <= x, x > c, c < x (`iota n` with n >= 0).
  bool holds(const core::SubExp &c, int depth) {
    if (!c.is_var() || depth > kMaxDepth) return false;
    const core::Exp *e = def(c.var);
    if (!e || e->kind != core::ExpKind::BinOp) return false;
    const core::SubExp &a = e->args[0], &b = e->args[1];
    I k;
    switch (e->binop) {
    case BinOp::LogAnd: return holds(a, depth + 1) && holds(b, depth + 1);
    case BinOp::Ge: return constant_i64(b, k) && in_range(a, k, kInf, depth + 1);
    case BinOp::Gt: return constant_i64(b, k) && in_range(a, k + 1, kInf, depth + 1);
    case BinOp::Le: return constant_i64(a, k) && in_range(b, k, kInf, depth + 1);
    case BinOp::Lt: return constant_i64(a, k) && in_range(b, k + 1, kInf, depth + 1);
    default: return false;
    }
  }

  // Facts that hold when the bool c is `value`.
  void learn(const core::SubExp &c, bool value, int depth = 0) {
    if (!c.is_var() || depth > kMaxDepth) return;
    const core::Exp *e = def(c.var);
    if (!e) return;
    if (e->kind == core::ExpKind::BinOp) {
      const core::SubExp &a = e->args[0], &b = e->args[1];
      bool ints = p_.type_of(a) == core::CType{PrimType::I64, 0};
      if (e->binop == BinOp::Eq && ints) {
        if (value) {
          if (a.is_var() && b.is_var() && canon(a.var) != canon(b.var))
            env_->alias[canon(b.var)] = canon(a.var);
        } else {
          if (a.is_var()) env_->neq.push_back({a.var, b});
          if (b.is_var()) env_->neq.push_back({b.var, a});
        }
      } else if ((e->binop == BinOp::LogAnd && value) || (e->binop == BinOp::LogOr && !value)) {
        learn(a, value, depth + 1);
        learn(b, value, depth + 1);
      } else if (e->binop == BinOp::LogOr && value) {
        // n == m || k == 0
        const core::Exp *x = a.is_var() ? def(a.var) : nullptr;
        const core::Exp *y = b.is_var() ? def(b.var) : nullptr;
        I zero;
        if (x && y && x->kind == core::ExpKind::BinOp && x->binop == BinOp::Eq &&
            y->kind == core::ExpKind::BinOp && y->binop == BinOp::Eq && x->args[0].is_var() &&
            x->args[1].is_var() && y->args[0].is_var() && constant_i64(y->args[1], zero) &&
            zero == 0)
          env_->cond_eq.push_back({x->args[0].var, x->args[1].var, y->args[0].var});
      }
      return;
    }
    // `a || b` and `a && b` as the lowering writes them.
    if (e->kind == core::ExpKind::If && e->bodies.size() == 2) {
      const core::Body &t = *e->bodies[0], &f = *e->bodies[1];
      if (t.result.size() != 1 || f.result.size() != 1) return;
      auto is_const = [](const core::SubExp &s, bool b) {
        return !s.is_var() && s.constant.type == PrimType::Bool && (s.constant.bits.u != 0) == b;
      };
      if (!value && is_const(t.result[0], true)) { // a || b false
        learn(e->args[0], false, depth + 1);
        learn(f.result[0], false, depth + 1);
      } else if (value && is_const(f.result[0], false)) { // a && b true
        learn(e->args[0], true, depth + 1);
        learn(t.result[0], true, depth + 1);
      }
    }
  }

  void body(core::Body &b, const Env &outer) {
    Env env = outer;
    Env *saved = env_;
    for (core::Stm &s : b.stms) {
      env_ = &env;
      if (s.pat.size() == 1) def_[s.pat[0]] = &s.exp;
      exp(s.exp, env);
      env_ = &env;
      if (s.exp.kind == core::ExpKind::Assert && s.exp.site >= 0) learn(s.exp.args[0], true);
    }
    env_ = saved;
  }

  void decide(const core::Exp &e, bool ok) {
    auto [it, fresh] = proved.emplace(e.site, ok);
    if (!fresh) it->second = it->second && ok;
  }

  bool index_in_range(const core::Exp &e) {
    size_t n = e.kind == core::ExpKind::Update ? e.args.size() - 1 : e.args.size();
    const std::vector<core::SubExp> &shape = p_.var(e.arrays[0]).shape;
    if (n == 0 || n > shape.size()) return false;
    for (size_t d = 0; d < n; d++) {
      const core::SubExp &w = shape[d];
      I c;
      Aff t = w.is_var() ? Aff{w.var, -1} : Aff{-1, 0};
      if (!w.is_var()) {
        if (!constant_i64(w, c)) return false;
        t.k = c - 1;
      }
      steps_ = 0;
      if (!in_range(e.args[d], 0, t, 0)) return false;
    }
    return true;
  }

  void exp(core::Exp &e, Env &env) {
    steps_ = 0;
    if (e.site >= 0 && e.check >= 0) {
      FailureKind kind = p_.candidates[size_t(e.check)].kind;
      if (kind == FailureKind::Bounds &&
          (e.kind == core::ExpKind::Index || e.kind == core::ExpKind::Update))
        decide(e, index_in_range(e));
      else if (kind == FailureKind::Division && e.kind == core::ExpKind::BinOp &&
               e.binop != BinOp::Pow)
        decide(e, in_range(e.args[1], 1, kInf, 0));
      else if (e.kind == core::ExpKind::Assert)
        decide(e, holds(e.args[0], 0));
      else
        decide(e, false);
    }
    switch (e.kind) {
    case core::ExpKind::If:
      if (e.bodies.size() == 2) {
        Env t = env, f = env;
        env_ = &t;
        learn(e.args[0], true);
        env_ = &f;
        learn(e.args[0], false);
        body(*e.bodies[0], t);
        body(*e.bodies[1], f);
      }
      return;
    case core::ExpKind::Loop: {
      Env inner = env;
      if (!e.is_while && e.loop_var >= 0) {
        const core::SubExp &bound = e.args.back();
        inner.below[e.loop_var] = bound;
        if (bound.is_var()) inner.lo[bound.var] = std::max(inner.lo[bound.var], I(1));
      }
      for (auto &nb : e.bodies)
        if (nb) body(*nb, inner);
      return;
    }
    case core::ExpKind::Map: {
      Env inner = env;
      const core::SubExp &width = e.args[0];
      for (size_t k = 0; k < e.arrays.size() && k < e.lambda->params.size(); k++) {
        const core::Exp *a = def(e.arrays[k]);
        if (!a || a->kind != core::ExpKind::Iota || a->to != PrimType::I64) continue;
        const core::SubExp &n = a->args[0];
        bool same_width = n.is_var() ? width.is_var() && canon(n.var) == canon(width.var)
                                     : !width.is_var() && n.constant.bits.i == width.constant.bits.i;
        if (!same_width) continue;
        inner.below[e.lambda->params[k]] = n;
      }
      // The lambda runs only for width >= 1.
      if (width.is_var()) {
        inner.lo[width.var] = std::max(inner.lo[width.var], I(1));
        // width = a * b with a, b >= 0: a, b >= 1.
        env_ = &env;
        steps_ = 0;
        const core::Exp *m = def(canon(width.var));
        if (m && m->kind == core::ExpKind::BinOp && m->binop == BinOp::Mul &&
            in_range(m->args[0], 0, kInf, 0) && in_range(m->args[1], 0, kInf, 0))
          for (const core::SubExp &f : m->args)
            if (f.is_var()) inner.lo[f.var] = std::max(inner.lo[f.var], I(1));
      }
      body(e.lambda->body, inner);
      return;
    }
    default:
      for (auto &nb : e.bodies)
        if (nb) body(*nb, env);
      if (e.lambda) body(e.lambda->body, env);
      return;
    }
  }

  core::Program &p_;
  std::unordered_map<int, const core::Exp *> def_;
  Env *env_ = nullptr;
  long steps_ = 0;
};

} // namespace

void remove_proved_checks(core::Program &p, const CheckOptions &) {
  std::map<int, bool> proved;
  for (core::Function &f : p.functions) {
    Prover prover(p);
    prover.function(f);
    for (const auto &[site, ok] : prover.proved) {
      auto [it, fresh] = proved.emplace(site, ok);
      if (!fresh) it->second = it->second && ok;
    }
  }
  std::vector<bool> removed(p.failures.records.size(), false);
  for (const auto &[site, ok] : proved)
    if (ok) removed[size_t(site)] = true;
  remove_sites(p, removed, [&](const core::CheckCandidate &c) {
    switch (c.kind) {
    case FailureKind::Bounds: return "proved in range";
    case FailureKind::Division: return "divisor proved positive";
    default: return "condition proved true";
    }
  });
}

} // namespace kerb
