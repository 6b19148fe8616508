// Lowering of the type-checked AST to the core IR (see lower_to_core.h and the spec in
// core_ir.h). One pass, the Lowerer below: expressions are lowered in evaluation order
// into the current Body; a source value becomes a Val, one SubExp per primitive
// component (tuples and arrays of tuples flattened). User functions are inlined at
// each call; functional arguments of built-ins become core Lambdas by applying them to
// fresh parameters. The semantics (and every failure message and location) follow the
// reference interpreter (interpreter.cpp).
#include "compiler/lower_to_core.h"

#include "compiler/prim_ops.h"
#include "compiler/size_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

namespace kerb {

namespace {

using core::Body;
using core::CType;
using core::ExpKind;
using core::SubExp;
using Val = std::vector<SubExp>;

[[noreturn]] void unsupported(const Span &span, const std::string &what) {
  throw CompileError(span, "the code generator does not support " + what + " yet");
}

// The primitive components of a type, with their ranks.
void flatten_type(const Type &t, int outer, std::vector<CType> &out) {
  switch (t.kind) {
  case Type::Prim: out.push_back(CType{t.prim, outer}); return;
  case Type::Tuple:
    // `()` is one bool component (false), so that an array of () keeps its length.
    if (t.elems.empty()) out.push_back(CType{PrimType::Bool, outer});
    for (const Type &e : t.elems) flatten_type(e, outer, out);
    return;
  case Type::Array: flatten_type(t.element(), outer + t.rank(), out); return;
  case Type::TypeVar: KERB_ELIMINATED_TYPE_KINDS: break;
  }
  KERB_ASSERT(false, "type variable or eliminated type after type checking");
}

std::vector<CType> components(const Type &t) {
  std::vector<CType> out;
  flatten_type(t, 0, out);
  return out;
}

bool is_identifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'')) return false;
  return true;
}

// A functional argument, with its captured values lowered outside the lambda.
struct Fn {
  const Expr *expr = nullptr; // Lambda, OpSection, Var or Apply
  bool unsafe = false;     // #[unsafe] (\x -> ...): its checks are covered
  std::string unsafe_at;  // where that attribute is
  std::vector<Val> bound; // a section's operand, a partial application's arguments
  // A partial application of a built-in: its arguments that are functions (null for
  // the others), aligned with `bound`.
  std::vector<std::shared_ptr<Fn>> bound_fns;
};

// The arguments of a built-in's application: the expressions of a call, or a
// functional argument's bound values followed by the values a built-in gives it.
struct BuiltinArgs {
  size_t size = 0;
  std::function<Val(size_t)> value;          // argument i, lowered
  std::function<Fn(size_t)> fn;              // argument i, a function
  std::function<const Type *(size_t)> type;  // argument i's type, null if not known
};

class Lowerer {
public:
  explicit Lowerer(const Program &src) : src_(src) {}

  core::Program run(const std::vector<const FunDef *> &entries) {
    for (const FunDef *f : entries) entry(*f);
    return std::move(p_);
  }

private:
  // ---- emission helpers

  Val emit(core::Exp e, const std::vector<CType> &types, const std::vector<Val> &shapes,
           const std::string &name) {
    core::Stm s;
    for (size_t i = 0; i < types.size(); i++)
      s.pat.push_back(new_var(name, types[i], i < shapes.size() ? shapes[i] : Val{}));
    Val out;
    for (int v : s.pat) out.push_back(SubExp::of_var(v));
    s.exp = std::move(e);
    cur_->stms.push_back(std::move(s));
    return out;
  }

  // Every variable of the program is made here: the variables that are some array's
  // size are remembered (known_sizes_, for count).
  int new_var(std::string name, CType t, Val shape = {}) {
    for (const SubExp &d : shape)
      if (d.is_var()) known_sizes_.insert(d.var);
    return p_.new_var(std::move(name), t, std::move(shape));
  }

  // The number of elements from i to j, j - i, at least 0 (a slice's size): max(j - i, 0)
  // unless i is 0 and j is some array's size (or a constant >= 0). A size is never
  // negative where it is used (the checks that made it passed: with them off, such a
  // program's behaviour is undefined anyway), and `take n xs` is then [n], not a new
  // size: `if c then take n xs else ys` with ys of [n] is of [n], as in Futhark.
  SubExp count(SubExp i, SubExp j, SubExp j_minus_i) {
    bool zero = !i.is_var() && i.constant.as_i64() == 0;
    bool known = j.is_var() ? known_sizes_.count(j.var) > 0 : j.constant.as_i64() >= 0;
    if (zero && known) return j;
    return prim_fn(PrimFn::Max, j_minus_i, i64c(0));
  }

  SubExp emit1(core::Exp e, CType t, Val shape = {}, const std::string &name = "t") {
    return emit(std::move(e), {t}, {std::move(shape)}, name)[0];
  }

  static core::Exp exp(ExpKind k, Val args = {}, Span span = {}) {
    core::Exp e;
    e.kind = k;
    e.args = std::move(args);
    e.span = span;
    return e;
  }

  CType type_of(const SubExp &s) const { return p_.type_of(s); }

  Val shape_of(const SubExp &s) const {
    if (!s.is_var()) return {};
    Val out;
    for (const SubExp &d : p_.var(s.var).shape) out.push_back(canon(d));
    return out;
  }

  SubExp canon(SubExp s) const {
    while (s.is_var()) {
      auto it = alias_.find(s.var);
      if (it == alias_.end()) break;
      s = it->second;
    }
    return s;
  }

  bool same(const SubExp &a, const SubExp &b) const {
    SubExp x = canon(a), y = canon(b);
    if (x.is_var() || y.is_var()) return x.var == y.var;
    return x.constant == y.constant;
  }

  bool same_shape(const Val &a, const Val &b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++)
      if (!same(a[i], b[i])) return false;
    return true;
  }

  // Describes a check the program could make (a candidate); the check insertion passes
  // decide whether it becomes a site. Records the innermost #[unsafe] that covers it.
  int add_candidate(FailureKind kind, const Span &span, std::string tmpl, size_t nargs) {
    core::CheckCandidate c;
    c.kind = kind;
    c.span = span;
    c.message_template = std::move(tmpl);
    c.num_args = nargs;
    if (!unsafe_at_.empty()) c.unsafe_at = unsafe_at_.back();
    p_.candidates.push_back(std::move(c));
    return int(p_.candidates.size()) - 1;
  }

  // An Assert statement: fails with `tmpl` (arguments `args`) unless `cond`.
  void emit_check(FailureKind kind, const Span &span, const std::string &tmpl, SubExp cond,
                  const Val &args = {}) {
    core::Exp e = exp(ExpKind::Assert, {cond}, span);
    for (const SubExp &a : args) e.args.push_back(a);
    e.check = add_candidate(kind, span, tmpl, args.size());
    emit1(std::move(e), CType{PrimType::Bool, 0}, {}, "check");
  }

  // #[unsafe] on an expression or a function: the checks lowered inside are marked as
  // covered by it (also those of functions called there: the attribute holds for the
  // whole evaluation of the expression, as in Futhark).
  void enter_unsafe(const std::string &where) { unsafe_at_.push_back(where); }
  void leave_unsafe() { unsafe_at_.pop_back(); }
  static std::string unsafe_fn_location(const FunDef &f) {
    return "function '" + f.name + "' (" + f.name_span.location() + ")";
  }

  // Note [Constant operands]
  // An integer or boolean operation whose operands are constants is computed here, as
  // the interpreter computes it (eval_binop, eval_unop), and an `if` whose condition is
  // a constant is its branch: the other one is not lowered. Inlining makes these common
  // where a library computes with sizes and positions known at compile time: a vector
  // of limbs made of pairs of smaller vectors (`get i (xs, ys) = if i < X.length then
  // X.get i xs else Y.get (i - X.length) ys`) indexed by constants is one component,
  // not a tree of branches over every component, at each of many inlined uses. Only
  // what cannot fail is computed: no division by zero or by -1 (the signed overflow),
  // no `**`, no floats (whose operations the devices round and contract their own
  // way). Such an operation has no check to lose: a division by a non-zero constant is
  // one the check passes remove anyway.
  std::optional<SubExp> fold_binop(BinOp op, const SubExp &a, const SubExp &b) const {
    if (a.is_var() || b.is_var()) return std::nullopt;
    PrimType t = a.constant.type;
    if (b.constant.type != t || !(is_int(t) || t == PrimType::Bool)) return std::nullopt;
    if (op == BinOp::Pow || op == BinOp::Concat) return std::nullopt;
    if (is_checked_division(op, t) &&
        (prim_is_zero(b.constant) || (is_signed_int(t) && b.constant.as_i64() == -1)))
      return std::nullopt;
    return SubExp::of_const(eval_binop(op, a.constant, b.constant));
  }

  std::optional<SubExp> fold_unop(UnOp op, const SubExp &a) const {
    if (a.is_var() || !(is_int(a.constant.type) || a.constant.type == PrimType::Bool)) return std::nullopt;
    return SubExp::of_const(eval_unop(op, a.constant));
  }

  SubExp binop(BinOp op, SubExp a, SubExp b, PrimType result) {
    if (std::optional<SubExp> c = fold_binop(op, a, b)) return *c;
    core::Exp e = exp(ExpKind::BinOp, {a, b});
    e.binop = op;
    return emit1(std::move(e), CType{result, 0});
  }

  SubExp to_i64(SubExp s) {
    if (type_of(s).prim == PrimType::I64) return s;
    if (!s.is_var()) return SubExp::of_const(convert_prim(s.constant, PrimType::I64));
    core::Exp e = exp(ExpKind::Convert, {s});
    e.to = PrimType::I64;
    return emit1(std::move(e), CType{PrimType::I64, 0});
  }

  SubExp eq_i64(SubExp a, SubExp b) { return binop(BinOp::Eq, a, b, PrimType::Bool); }


  // ---- small scalar helpers (i64 unless said otherwise)

  SubExp i64c(int64_t v) { return SubExp::i64(v); }
  SubExp add(SubExp a, SubExp b) { return binop(BinOp::Add, a, b, PrimType::I64); }
  SubExp sub(SubExp a, SubExp b) { return binop(BinOp::Sub, a, b, PrimType::I64); }
  SubExp mul(SubExp a, SubExp b) { return binop(BinOp::Mul, a, b, PrimType::I64); }
  SubExp lt(SubExp a, SubExp b) { return binop(BinOp::Lt, a, b, PrimType::Bool); }
  SubExp le(SubExp a, SubExp b) { return binop(BinOp::Le, a, b, PrimType::Bool); }
  SubExp eq(SubExp a, SubExp b) { return binop(BinOp::Eq, a, b, PrimType::Bool); }
  SubExp land(SubExp a, SubExp b) { return binop(BinOp::LogAnd, a, b, PrimType::Bool); }
  SubExp lor(SubExp a, SubExp b) { return binop(BinOp::LogOr, a, b, PrimType::Bool); }
  SubExp lnot(SubExp a) {
    if (std::optional<SubExp> c = fold_unop(UnOp::Not, a)) return *c;
    core::Exp x = exp(ExpKind::UnOp, {a});
    x.unop = UnOp::Not;
    return emit1(std::move(x), CType{PrimType::Bool, 0});
  }
  SubExp convert(SubExp a, PrimType to) {
    if (type_of(a).prim == to) return a;
    if (!a.is_var()) return SubExp::of_const(convert_prim(a.constant, to));
    core::Exp x = exp(ExpKind::Convert, {a});
    x.to = to;
    return emit1(std::move(x), CType{to, 0});
  }
  SubExp prim_fn(PrimFn fn, SubExp a, std::optional<SubExp> b = std::nullopt) {
    core::Exp x = exp(ExpKind::PrimFn, {a});
    if (b) x.args.push_back(*b);
    x.prim_fn.module = PrimType::I64;
    x.prim_fn.fn = fn;
    return emit1(std::move(x), CType{PrimType::I64, 0});
  }
  // c ? a : b for i64 scalars, by arithmetic (no branch).
  SubExp select(SubExp c, SubExp a, SubExp b) {
    SubExp ci = convert(c, PrimType::I64);
    return add(b, mul(ci, sub(a, b)));
  }

  // map over iota n: `f` builds the lambda body from the index; results are arrays of
  // the body's (scalar) results.
  Val map_iota(SubExp n, const std::function<Val(SubExp)> &f, const Span &span, const char *name) {
    core::Exp io = exp(ExpKind::Iota, {n}, span);
    io.to = PrimType::I64;
    SubExp is = emit1(std::move(io), CType{PrimType::I64, 1}, {n}, "iota");
    core::Exp x = exp(ExpKind::Map, {n}, span);
    x.arrays = {is.var};
    x.lambda = std::make_unique<core::Lambda>();
    int i = new_var("i", CType{PrimType::I64, 0});
    x.lambda->params = {i};
    auto body = lower_body([&] { return f(SubExp::of_var(i)); });
    std::vector<CType> types;
    std::vector<Val> shapes;
    map_result_types(*x.lambda, *body, n, [&] { return f(i64c(0)); }, types, shapes, span);
    x.lambda->body = std::move(*body);
    return emit(std::move(x), types, shapes, name);
  }

  // The types and shapes of a map's results: [w] and the lambda's result shape, which
  // must be the same for every element (its sizes bound outside the lambda; a value the
  // lambda coerces, `... :> [n][m]t`, has the coerced sizes: lower_coerce). Sizes that
  // depend on the element are computed before the map from its first element (`first`
  // lowers the function on it, in the current body) and checked in every element: Note
  // [Map rows whose sizes depend on the element].
  void map_result_types(const core::Lambda &lam, Body &body, SubExp w, const std::function<Val()> &first,
                        std::vector<CType> &types, std::vector<Val> &shapes, const Span &span) {
    auto per_element = [&](const SubExp &d) {
      bool param = d.is_var() && std::find(lam.params.begin(), lam.params.end(), d.var) != lam.params.end();
      return d.is_var() && (param || (defined_in_deep(body, d.var) && !hoist(body, lam, d.var)));
    };
    // The sizes that depend on the element, each by the first (result, dim) that has it.
    std::vector<std::pair<size_t, size_t>> where;
    std::map<int, size_t> which;
    for (size_t k = 0; k < body.result.size(); k++) {
      Val rs = shape_of(body.result[k]);
      for (size_t d = 0; d < rs.size(); d++)
        if (rs[d].is_var() && !which.count(rs[d].var) && per_element(rs[d])) {
          which[rs[d].var] = where.size();
          where.push_back({k, d});
        }
    }
    if (!where.empty()) fix_row_sizes(body, w, first, where, which, span);
    for (SubExp &r : body.result) {
      CType t = type_of(r);
      Val sh{w};
      Val rs = shape_of(r);
      sh.insert(sh.end(), rs.begin(), rs.end());
      types.push_back(CType{t.prim, t.rank + 1});
      shapes.push_back(sh);
    }
  }

  // Note [Map rows whose sizes depend on the element]
  // A map's function may give arrays whose sizes it computes from the element: an `if`
  // whose branches are a grid's column and an array literal (sizes n and 20, equal only
  // at run time), a filter, `iota` of a branch. All rows of the result must have one
  // shape. As Futhark did (its internaliser's shape function, evaluated on the first
  // element), the sizes are computed before the map: the function is lowered a second
  // time, on the first element's rows (in an `if` on w > 0; over no elements the sizes
  // are 0, as in Futhark's), and only what the sizes need of it is kept
  // (prune_to_sizes: not a loop or reduction whose value no size reads). Each
  // element then checks its sizes against them, with Futhark's message "not all
  // iterations produce same shape" at the map; the interpreter makes the same check on
  // the rows it collects (the first element's shape against every other's). The rows
  // are bound again with those sizes, so that the map's shape is known outside it.
  // Over no elements the interpreter finds the rows' sizes by a trial call on rows of
  // zeros (interpreter.cpp, Note [Inner sizes of empty arrays]), which compiled code
  // cannot make (that call may fail): such an empty result's inner sizes may differ.
  void fix_row_sizes(Body &body, SubExp w, const std::function<Val()> &first,
                     const std::vector<std::pair<size_t, size_t>> &where,
                     const std::map<int, size_t> &which, const Span &span) {
    const Val zeros(where.size(), i64c(0));
    Val sizes = zeros;
    SubExp nonempty = lt(i64c(0), w);
    if (nonempty.is_var() || nonempty.constant.as_bool()) {
      auto probe = lower_body([&] {
        Val r = first();
        Val out;
        for (auto [k, d] : where) out.push_back(shape_of(r[k])[d]);
        return out;
      });
      prune_to_sizes(*probe);
      auto splice = [&] {
        for (core::Stm &st : probe->stms) cur_->stms.push_back(std::move(st));
        return probe->result;
      };
      sizes = nonempty.is_var() ? lower_if(nonempty, splice, [&] { return zeros; }, span) : splice();
    }
    Body *saved = cur_;
    cur_ = &body;
    SubExp ok = SubExp::of_const(PrimValue::boolean(true));
    for (size_t j = 0; j < where.size(); j++)
      ok = land(ok, eq(shape_of(body.result[where[j].first])[where[j].second], sizes[j]));
    emit_check(FailureKind::Size, span, escape_template_text("not all iterations produce same shape"), ok);
    for (SubExp &r : body.result) {
      Val rs = shape_of(r);
      bool changed = false;
      for (SubExp &d : rs) {
        auto it = d.is_var() ? which.find(d.var) : which.end();
        if (it == which.end()) continue;
        d = sizes[it->second];
        changed = true;
      }
      if (changed) r = emit1(exp(ExpKind::SubExp, {r}, span), type_of(r), rs, "row");
    }
    cur_ = saved;
  }

  // Keeps of a map's function lowered on its first element (fix_row_sizes) only what its
  // result, the rows' sizes, needs: the statements the sizes use, and the checks that
  // guard them (an assert whose condition needs no other statement than scalar ones, so
  // that an index the sizes read is still checked before it is read). What goes is work
  // the map's first element does anyway, failures included; its checks' candidates say so.
  void prune_to_sizes(Body &b) {
    std::set<int> need;
    std::function<void(int)> use = [&](int v) {
      if (v < 0 || !need.insert(v).second) return;
      for (const SubExp &d : p_.var(v).shape)
        if (d.is_var()) use(d.var);
    };
    std::function<void(const core::Exp &)> uses = [&](const core::Exp &e) {
      for (const SubExp &a : e.args)
        if (a.is_var()) use(a.var);
      for (int a : e.arrays) use(a);
      for (const auto &nb : e.bodies)
        if (nb) {
          for (const core::Stm &t : nb->stms) uses(t.exp);
          for (const SubExp &r : nb->result)
            if (r.is_var()) use(r.var);
        }
      if (e.lambda) {
        for (const core::Stm &t : e.lambda->body.stms) uses(t.exp);
        for (const SubExp &r : e.lambda->body.result)
          if (r.is_var()) use(r.var);
      }
    };
    for (const SubExp &r : b.result)
      if (r.is_var()) use(r.var);
    std::vector<bool> keep(b.stms.size(), false);
    auto needed = [&](const core::Stm &st) {
      return std::any_of(st.pat.begin(), st.pat.end(), [&](int v) { return need.count(v) > 0; });
    };
    for (size_t i = b.stms.size(); i-- > 0;)
      if (needed(b.stms[i])) keep[i] = true, uses(b.stms[i].exp);
    auto scalar = [](const core::Exp &e) {
      return e.kind == ExpKind::SubExp || e.kind == ExpKind::BinOp || e.kind == ExpKind::UnOp ||
             e.kind == ExpKind::Convert || e.kind == ExpKind::PrimFn;
    };
    std::map<int, size_t> def;
    for (size_t i = 0; i < b.stms.size(); i++)
      for (int v : b.stms[i].pat) def[v] = i;
    for (size_t i = 0; i < b.stms.size(); i++) {
      if (keep[i] || b.stms[i].exp.kind != ExpKind::Assert) continue;
      // The statements its condition needs, if all of them are kept or scalar.
      std::set<size_t> more;
      std::vector<int> todo;
      for (const SubExp &a : b.stms[i].exp.args)
        if (a.is_var()) todo.push_back(a.var);
      bool cheap = true;
      while (cheap && !todo.empty()) {
        auto it = def.find(todo.back());
        todo.pop_back();
        if (it == def.end() || keep[it->second] || !more.insert(it->second).second) continue;
        const core::Exp &e = b.stms[it->second].exp;
        cheap = scalar(e);
        for (const SubExp &a : e.args)
          if (a.is_var()) todo.push_back(a.var);
      }
      if (!cheap) continue;
      keep[i] = true;
      for (size_t k : more) keep[k] = true;
    }
    std::vector<core::Stm> kept;
    for (size_t i = 0; i < b.stms.size(); i++) {
      if (keep[i]) {
        kept.push_back(std::move(b.stms[i]));
        continue;
      }
      for_each_check(b.stms[i].exp, [&](int c) {
        p_.candidates[size_t(c)].disabled =
            "not needed for the sizes of a map's rows computed from its first element "
            "(the map makes it there)";
      });
    }
    b.stms = std::move(kept);
  }

  // Calls f on the check candidate of e and of every expression inside it.
  static void for_each_check(const core::Exp &e, const std::function<void(int)> &f) {
    if (e.check >= 0) f(e.check);
    for (const auto &nb : e.bodies)
      if (nb)
        for (const core::Stm &t : nb->stms) for_each_check(t.exp, f);
    if (e.lambda)
      for (const core::Stm &t : e.lambda->body.stms) for_each_check(t.exp, f);
  }

  // Moves the statement of `body` (a lambda's) that binds v out of the lambda, before it,
  // with the statements it needs, when v does not depend on the element: scalar
  // arithmetic that cannot fail on values bound outside (the sizes of a function's
  // results are often such, e.g. n + m for `x ++ y`). Returns whether it did.
  bool hoist(Body &body, const core::Lambda &lam, int v) {
    auto it = std::find_if(body.stms.begin(), body.stms.end(), [&](const core::Stm &st) {
      return std::find(st.pat.begin(), st.pat.end(), v) != st.pat.end();
    });
    if (it == body.stms.end() || it->pat.size() != 1 || !hoistable(it->exp)) return false;
    for (const SubExp &a : it->exp.args) {
      if (!a.is_var()) continue;
      if (std::find(lam.params.begin(), lam.params.end(), a.var) != lam.params.end()) return false;
      if (defined_in_deep(body, a.var) && !hoist(body, lam, a.var)) return false;
    }
    // (Hoisting an argument may have moved statements: find v's again.)
    it = std::find_if(body.stms.begin(), body.stms.end(), [&](const core::Stm &st) {
      return std::find(st.pat.begin(), st.pat.end(), v) != st.pat.end();
    });
    cur_->stms.push_back(std::move(*it));
    body.stms.erase(it);
    return true;
  }

  static bool hoistable(const core::Exp &e) {
    if (e.site >= 0) return false;
    switch (e.kind) {
    case ExpKind::SubExp: case ExpKind::UnOp: case ExpKind::Convert: return true;
    case ExpKind::BinOp:
      return e.binop != BinOp::Div && e.binop != BinOp::Mod && e.binop != BinOp::Quot &&
             e.binop != BinOp::Rem && e.binop != BinOp::Pow;
    case ExpKind::PrimFn:
      return e.prim_fn.fn == PrimFn::Min || e.prim_fn.fn == PrimFn::Max ||
             e.prim_fn.fn == PrimFn::Abs || e.prim_fn.fn == PrimFn::Sgn;
    default: return false;
    }
  }

  // Whether v is bound anywhere inside b (nested bodies and lambdas too).
  static bool defined_in_deep(const Body &b, int v) {
    for (const core::Stm &s : b.stms) {
      for (int p : s.pat)
        if (p == v) return true;
      for (const auto &nb : s.exp.bodies)
        if (nb && defined_in_deep(*nb, v)) return true;
      if (s.exp.lambda) {
        for (int p : s.exp.lambda->params)
          if (p == v) return true;
        if (defined_in_deep(s.exp.lambda->body, v)) return true;
      }
      for (int p : s.exp.loop_params)
        if (p == v) return true;
    }
    return false;
  }

  // ---- ranges: a..<b, a..>b, a...b, a..b...c (with the interpreter's rules)

  Val lower_range(const Expr &e) {
    PrimType t = e.type.element().prim;
    SubExp a0 = lower(*e.args[0])[0];
    std::optional<SubExp> s0;
    if (e.args[1]) s0 = lower(*e.args[1])[0];
    SubExp b0 = lower(*e.args[2])[0];
    SubExp a = to_i64(a0), b = to_i64(b0);
    SubExp step = s0 ? sub(to_i64(*s0), a) : i64c(e.range_kind == RangeKind::DownToExcl ? -1 : 1);
    SubExp zero = eq(step, i64c(0));
    SubExp invalid, distance;
    switch (e.range_kind) {
    case RangeKind::UpToExcl:
      invalid = lor(zero, lor(lt(step, i64c(0)), lt(b, a)));
      distance = sub(b, a);
      break;
    case RangeKind::DownToExcl:
      invalid = lor(zero, lor(lt(i64c(0), step), lt(a, b)));
      distance = sub(a, b);
      break;
    case RangeKind::UpTo: {
      SubExp neg = lt(step, i64c(0));
      invalid = lor(zero, select_bool(neg, lt(a, b), lt(b, a)));
      distance = add(select(neg, sub(a, b), sub(b, a)), i64c(1));
      break;
    }
    }
    {
      std::string tmpl = "Range {}";
      Val args{a};
      if (s0) {
        tmpl += "..{}";
        args.push_back(to_i64(*s0));
      }
      tmpl += e.range_kind == RangeKind::UpToExcl     ? "..<{}"
              : e.range_kind == RangeKind::DownToExcl ? "..>{}"
                                                      : "...{}";
      args.push_back(b);
      tmpl += " is invalid.";
      emit_check(FailureKind::Range, e.span, tmpl, lnot(invalid), args);
    }
    SubExp abs_step = prim_fn(PrimFn::Abs, step);
    SubExp safe = add(abs_step, convert(zero, PrimType::I64));
    SubExp count = binop(BinOp::Quot, sub(add(distance, safe), i64c(1)), safe, PrimType::I64);
    count = prim_fn(PrimFn::Max, count, i64c(0));
    return map_iota(count, [&](SubExp i) { return Val{convert(add(a, mul(i, step)), t)}; },
                    e.span, "range");
  }

  // c ? x : y for bools.
  SubExp select_bool(SubExp c, SubExp x, SubExp y) { return lor(land(c, x), land(lnot(c), y)); }

  // ---- slices: views with the interpreter's bounds rules and messages

  struct SliceDim {
    bool is_index = false;
    SubExp start, count, stride; // index: start = the index
  };

  // The parts of an index expression, lowered (in source order) but not yet checked.
  struct RawPart {
    bool is_slice = false;
    SubExp index;                                  // !is_slice
    std::optional<SubExp> start, end, stride;      // is_slice
  };

  std::vector<RawPart> lower_parts(const std::vector<IndexPart> &parts) {
    std::vector<RawPart> out;
    for (const IndexPart &p : parts) {
      RawPart r;
      r.is_slice = p.is_slice;
      if (!p.is_slice) {
        r.index = to_i64(lower(*p.index)[0]);
      } else {
        if (p.start) r.start = to_i64(lower(*p.start)[0]);
        if (p.end) r.end = to_i64(lower(*p.end)[0]);
        if (p.stride) r.stride = to_i64(lower(*p.stride)[0]);
      }
      out.push_back(r);
    }
    return out;
  }

  // Resolves the parts of an index expression against `shape`, emitting one check with
  // the interpreter's message. Returns the selection of each indexed dim.
  std::vector<SliceDim> resolve_parts(const std::vector<IndexPart> &parts, const Val &shape,
                                      const Span &span) {
    return resolve_parts(lower_parts(parts), shape, span);
  }

  std::vector<SliceDim> resolve_parts(const std::vector<RawPart> &parts, const Val &shape,
                                      const Span &span) {
    std::vector<SliceDim> dims;
    SubExp ok = SubExp::of_const(PrimValue::boolean(true));
    std::string tmpl = "Index [";
    Val args;
    for (size_t d = 0; d < parts.size(); d++) {
      const RawPart &p = parts[d];
      SubExp w = shape[d];
      if (d > 0) tmpl += ", ";
      if (!p.is_slice) {
        SubExp i = p.index;
        ok = land(ok, land(le(i64c(0), i), lt(i, w)));
        dims.push_back(SliceDim{true, i, i64c(1), i64c(1)});
        tmpl += "{}";
        args.push_back(i);
        continue;
      }
      SubExp st = p.stride ? *p.stride : i64c(1);
      SubExp bw = lt(st, i64c(0));
      SubExp bwi = convert(bw, PrimType::I64);
      SubExp i = p.start ? *p.start : mul(bwi, sub(w, i64c(1)));
      SubExp j = p.end ? *p.end : sub(w, mul(bwi, add(w, i64c(1))));
      SubExp sgn = prim_fn(PrimFn::Sgn, st);
      SubExp safe = add(st, convert(eq(st, i64c(0)), PrimType::I64));
      // Without a stride (1), the count is j - i: no division, so that the size can be
      // hoisted out of a map's function (map_result_types) when i and j can.
      SubExp n = p.stride ? binop(BinOp::Quot, add(sub(j, i), sub(st, sgn)), safe, PrimType::I64) : sub(j, i);
      SubExp last = add(i, mul(sub(n, i64c(1)), st));
      SubExp in_range = land(le(i64c(0), last), lt(last, w));
      SubExp npos = lt(i64c(0), n);
      SubExp fw = land(land(le(i64c(0), i), le(i, j)), land(in_range, npos));
      SubExp back = land(land(le(i64c(-1), j), le(j, i)), land(in_range, npos));
      SubExp valid = land(lnot(eq(st, i64c(0))), lor(eq(n, i64c(0)), select_bool(bw, back, fw)));
      ok = land(ok, valid);
      dims.push_back(SliceDim{false, i, p.stride ? prim_fn(PrimFn::Max, n, i64c(0)) : count(i, j, n), st});
      if (p.stride) {
        if (p.start) tmpl += "{}", args.push_back(i);
        tmpl += ":";
        if (p.end) tmpl += "{}", args.push_back(j);
        tmpl += ":{}";
        args.push_back(st);
      } else if (p.end) {
        if (p.start) tmpl += "{}", args.push_back(i);
        tmpl += ":{}";
        args.push_back(j);
      } else {
        tmpl += "{}:";
        args.push_back(i);
      }
    }
    tmpl += "] out of bounds for array of shape ";
    for (size_t d = 0; d < parts.size(); d++) {
      tmpl += "[{}]";
      args.push_back(shape[d]);
    }
    tmpl += ".";
    emit_check(FailureKind::Bounds, span, tmpl, ok, args);
    return dims;
  }

  // The view of array component `c` selected by `dims`.
  SubExp slice_view(SubExp c, const std::vector<SliceDim> &dims, const Span &span) {
    CType t = type_of(c);
    Val sh = shape_of(c);
    core::Exp x = exp(ExpKind::Slice, {}, span);
    x.arrays = {c.var};
    Val out_shape = sh;
    for (size_t d = 0; d < dims.size(); d++) {
      x.args.push_back(dims[d].start);
      x.args.push_back(dims[d].count);
      x.args.push_back(dims[d].stride);
      out_shape[d] = dims[d].count;
    }
    SubExp v = emit1(std::move(x), t, out_shape, "slice");
    // Index dims: move them to the front, then index them at 0.
    std::vector<int> perm, rest;
    for (size_t d = 0; d < size_t(t.rank); d++) {
      if (d < dims.size() && dims[d].is_index) perm.push_back(int(d));
      else rest.push_back(int(d));
    }
    if (perm.empty()) return v;
    size_t k = perm.size();
    perm.insert(perm.end(), rest.begin(), rest.end());
    Val psh;
    for (int d : perm) psh.push_back(out_shape[size_t(d)]);
    if (perm != rest) {
      bool identity = true;
      for (size_t d = 0; d < perm.size(); d++) identity = identity && perm[d] == int(d);
      if (!identity) {
        core::Exp r = exp(ExpKind::Rearrange, {}, span);
        r.arrays = {v.var};
        r.perm = perm;
        v = emit1(std::move(r), t, psh, "rearranged");
      }
    }
    Val zeros(k, i64c(0));
    core::Exp ix = exp(ExpKind::Index, zeros, span);
    ix.arrays = {v.var};
    return emit1(std::move(ix), CType{t.prim, t.rank - int(k)}, Val(psh.begin() + long(k), psh.end()),
                 "view");
  }

  Val lower_slice_index(const Expr &e, const Val &arr) {
    std::vector<SliceDim> dims = resolve_parts(e.indices, shape_of(arr[0]), e.span);
    Val out;
    for (const SubExp &c : arr) out.push_back(slice_view(c, dims, e.span));
    return out;
  }

  // A slice of the outer dim, [start, start + count), checked as xs[start:start+count]
  // (take, drop, tail, init, split).
  Val outer_slice(const Val &arr, SubExp start, SubExp end, bool show_start, bool show_end,
                  const Span &span) {
    SubExp w = shape_of(arr[0])[0];
    SubExp n = sub(end, start);
    SubExp ok = land(land(le(i64c(0), start), le(start, end)), le(end, w));
    std::string tmpl = "Index [";
    Val args;
    if (show_start) tmpl += "{}", args.push_back(start);
    tmpl += ":";
    if (show_end) tmpl += "{}", args.push_back(end);
    tmpl += "] out of bounds for array of shape [{}].";
    args.push_back(w);
    emit_check(FailureKind::Bounds, span, tmpl, ok, args);
    std::vector<SliceDim> dims{SliceDim{false, start, count(start, end, n), i64c(1)}};
    Val out;
    for (const SubExp &c : arr) out.push_back(slice_view(c, dims, span));
    return out;
  }

  // ---- scopes

  void bind_name(const std::string &name, Val v) { env_.push_back({name, std::move(v)}); }

  const Val *lookup(const std::string &name) const {
    for (size_t i = env_.size(); i-- > frame_;)
      if (env_[i].first == name) return &env_[i].second;
    return nullptr;
  }

  static size_t count(const Type &t) { return components(t).size(); }

  void bind(const Pattern &p, const Val &v, size_t &off) {
    switch (p.kind) {
    case Pattern::Id: {
      size_t n = count(p.type);
      bind_name(p.name, Val(v.begin() + long(off), v.begin() + long(off + n)));
      off += n;
      return;
    }
    case Pattern::Wildcard: off += count(p.type); return;
    case Pattern::Tuple:
      // `()` binds nothing, but the unit value has one component (see flatten_type).
      if (p.elems.empty()) off += count(p.type);
      for (const Pattern &e : p.elems) bind(e, v, off);
      return;
    KERB_ELIMINATED_PATTERN_KINDS: break;
    }
    KERB_ASSERT(false, "a pattern the front end eliminates reached the lowering");
  }

  void bind(const Pattern &p, const Val &v) {
    size_t off = 0;
    bind(p, v, off);
    KERB_ASSERT(off == v.size(), "pattern bound to a value of another shape");
  }

  Val value_of_pattern(const Pattern &p) {
    if (p.kind == Pattern::Id) {
      const Val *v = lookup(p.name);
      KERB_ASSERT(v, "unbound loop variable");
      return *v;
    }
    if (p.kind == Pattern::Wildcard) unsupported(p.span, "a loop parameter `_` without initial value");
    Val out;
    for (const Pattern &e : p.elems) {
      Val c = value_of_pattern(e);
      out.insert(out.end(), c.begin(), c.end());
    }
    return out;
  }

  // Lowers e into a fresh body and returns it.
  std::unique_ptr<Body> lower_body(const std::function<Val()> &f) {
    auto body = std::make_unique<Body>();
    Body *saved = cur_;
    auto saved_alias = alias_; // checks inside the body do not hold after it
    size_t saved_constants = constant_log_.size(); // nor its constants' values
    cur_ = body.get();
    body->result = f();
    cur_ = saved;
    alias_ = std::move(saved_alias);
    forget_constants(saved_constants);
    return body;
  }

  // ---- entry points and inlining

  void entry(const FunDef &f) {
    core::Function fn;
    fn.name = f.name;
    cur_ = &fn.body;
    env_.clear();
    frame_ = 0;
    unsafe_at_.clear();
    forget_constants(0);
    if (f.is_unsafe) enter_unsafe(unsafe_fn_location(f));
    std::vector<Val> args;
    for (const Pattern &p : f.params) {
      fn.param_types.push_back(p.type.value_type());
      std::string base = p.kind == Pattern::Id ? p.name : "p";
      std::vector<CType> cts = components(p.type);
      // Components of an array of tuples share the outer dims.
      Val outer;
      int outer_rank = p.type.is_array() ? p.type.rank() : 0;
      for (int d = 0; d < outer_rank; d++)
        outer.push_back(SubExp::of_var(new_var(base + "_n" + std::to_string(d), CType{PrimType::I64, 0})));
      Val v;
      for (const CType &ct : cts) {
        Val shape = ct.rank >= outer_rank ? outer : Val{};
        std::vector<int> svars;
        for (const SubExp &s : shape) svars.push_back(s.var);
        for (int d = int(shape.size()); d < ct.rank; d++) {
          int sv = new_var(base + "_n" + std::to_string(d), CType{PrimType::I64, 0});
          shape.push_back(SubExp::of_var(sv));
          svars.push_back(sv);
        }
        int var = new_var(base, ct, shape);
        fn.params.push_back(var);
        fn.param_shape_vars.push_back(svars);
        v.push_back(SubExp::of_var(var));
      }
      args.push_back(std::move(v));
    }
    fn.result_types.push_back(f.ret_type.value_type());
    if (f.ret_type.is_tuple()) {
      fn.result_types.clear();
      for (const Type &t : f.ret_type.elems) fn.result_types.push_back(t.value_type());
    }
    Val result = inline_call(f, args, f.name_span.valid() ? f.name_span : f.span, true);
    fn.body.result = result;
    // The results as variables.
    for (const SubExp &r : result) {
      if (r.is_var()) {
        fn.results.push_back(r.var);
        continue;
      }
      fn.results.push_back(emit1(exp(ExpKind::SubExp, {r}), type_of(r), {}, "res").var);
    }
    fn.body.result.clear();
    for (int v : fn.results) fn.body.result.push_back(SubExp::of_var(v));
    p_.functions.push_back(std::move(fn));
  }

  // The value of dim `d` in the current function's scope, if known.
  std::optional<SubExp> resolve_dim(const Dim &d, const Span &span) {
    if (d.kind == Dim::Const) return SubExp::i64(d.value);
    if (d.kind == Dim::Unknown) return std::nullopt;
    if (!is_identifier(d.name)) return size_expression(d.name, span);
    if (const Val *v = lookup(d.name)) {
      if (v->size() != 1 || type_of((*v)[0]).rank != 0 || !is_int(type_of((*v)[0]).prim))
        return std::nullopt;
      return to_i64((*v)[0]);
    }
    // A top-level constant (`def n: i64 = 3`): its value, computed here as at a use.
    if (const FunDef *f = src_.find(d.name); f && f->params.empty()) {
      Val v = inline_call(*f, {}, span, false);
      if (v.size() != 1 || type_of(v[0]).rank != 0 || !is_int(type_of(v[0]).prim)) return std::nullopt;
      return to_i64(v[0]);
    }
    return std::nullopt;
  }

  // A size expression such as "k + (n - k)", "n * m" or "n / 8 * 8": + - * on names and
  // integers, and / by a positive integer constant (the sizes are not negative, so
  // rounding down and towards zero agree; a divisor that may be zero is not taken).
  std::optional<SubExp> size_expression(const std::string &text, const Span &span) {
    size_t pos = 0;
    bool ok = true;
    std::function<std::optional<SubExp>()> sum, product, atom;
    auto skip = [&] {
      while (pos < text.size() && text[pos] == ' ') pos++;
    };
    atom = [&]() -> std::optional<SubExp> {
      skip();
      if (pos >= text.size()) return ok = false, std::nullopt;
      char c = text[pos];
      if (c == '(') {
        pos++;
        std::optional<SubExp> v = sum();
        skip();
        if (pos >= text.size() || text[pos] != ')') return ok = false, std::nullopt;
        pos++;
        return v;
      }
      size_t start = pos;
      while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) ||
                                   text[pos] == '_' || text[pos] == '\''))
        pos++;
      std::string word = text.substr(start, pos - start);
      if (word.empty()) return ok = false, std::nullopt;
      if (std::isdigit(static_cast<unsigned char>(word[0]))) {
        char *end = nullptr;
        long long v = std::strtoll(word.c_str(), &end, 10);
        if (*end) return ok = false, std::nullopt;
        return i64c(v);
      }
      return resolve_dim(Dim::var(word), span);
    };
    product = [&]() -> std::optional<SubExp> {
      std::optional<SubExp> v = atom();
      for (;;) {
        skip();
        if (!v || pos >= text.size() || (text[pos] != '*' && text[pos] != '/')) return v;
        char op = text[pos++];
        std::optional<SubExp> r = atom();
        if (!r) return std::nullopt;
        if (op == '*') {
          v = mul(*v, *r);
          continue;
        }
        if (r->is_var() || r->constant.as_i64() <= 0) return ok = false, std::nullopt;
        v = binop(BinOp::Div, *v, *r, PrimType::I64);
      }
    };
    sum = [&]() -> std::optional<SubExp> {
      std::optional<SubExp> v = product();
      for (;;) {
        skip();
        if (!v || pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return v;
        char op = text[pos++];
        std::optional<SubExp> r = product();
        if (!r) return std::nullopt;
        v = op == '+' ? add(*v, *r) : sub(*v, *r);
      }
    };
    std::optional<SubExp> v = sum();
    skip();
    if (!ok || pos != text.size()) unsupported(span, "the size expression [" + text + "]");
    return v;
  }

  // Binds the size parameters of f named in t from v's shapes, or checks known sizes
  // (the interpreter's bind_sizes / check_result_shape). `f` null: check only.
  // `bind_only`: only bind the size parameters that are whole dims, check nothing (the
  // first pass over a call's parameters: a size expression in an earlier parameter's
  // type, [n * m], may use sizes that only a later parameter binds).
  void sizes(const FunDef *f, const Type &t, const Val &v, size_t off, const Span &span,
             const std::string &msg, bool bind_only = false) {
    if (t.is_tuple()) {
      for (const Type &e : t.elems) {
        sizes(f, e, v, off, span, msg, bind_only);
        off += count(e);
      }
      return;
    }
    if (!t.is_array() || off >= v.size()) return;
    Val shape = shape_of(v[off]);
    for (size_t d = 0; d < t.dims.size() && d < shape.size(); d++) {
      const Dim &dim = t.dims[d];
      if (dim.kind == Dim::Unknown) continue;
      if (bind_only) {
        if (f && dim.kind == Dim::Var && is_identifier(dim.name) && !lookup(dim.name) &&
            std::find(f->size_params.begin(), f->size_params.end(), dim.name) != f->size_params.end())
          bind_name(dim.name, {shape[d]});
        continue;
      }
      std::optional<SubExp> known = resolve_dim(dim, span);
      if (!known) {
        if (f && dim.kind == Dim::Var &&
            std::find(f->size_params.begin(), f->size_params.end(), dim.name) != f->size_params.end())
          bind_name(dim.name, {shape[d]});
        continue;
      }
      if (same(*known, shape[d])) continue;
      SubExp ok = eq_i64(shape[d], *known);
      if (d > 0) ok = binop(BinOp::LogOr, ok, eq_i64(shape[d - 1], SubExp::i64(0)), PrimType::Bool);
      emit_check(FailureKind::Size, span, escape_template_text(msg), ok);
      // Known equal from here on: checked, or assumed where the check is turned off.
      if (d == 0 && shape[d].is_var()) alias_[canon(shape[d]).var] = canon(*known);
    }
    const Type &elem = t.element();
    if (elem.is_tuple()) {
      size_t o = off;
      for (const Type &c : elem.elems) {
        sizes(f, Type::array(c, t.dims), v, o, span, msg, bind_only);
        o += count(c);
      }
    }
  }

  void param_sizes(const FunDef &f, const Pattern &p, const Val &v, size_t off, const Span &span,
                   const std::string &msg, bool bind_only = false) {
    sizes(&f, p.annotation ? *p.annotation : p.type, v, off, span, msg, bind_only);
    if (p.kind != Pattern::Tuple) return;
    for (const Pattern &e : p.elems) {
      param_sizes(f, e, v, off, span, msg, bind_only);
      off += count(e.type);
    }
  }

  // Note [Top-level constants]
  // A top-level definition without parameters (`def n = 3`, or a table computed by a
  // loop) is a call like any other: its body is inlined where the constant is used. But
  // the language is pure, so a constant has one value, and the interpreter computes it
  // once, at its first use. The lowering computes it once per body: at its first use in
  // a body, whose later statements and nested bodies (lambdas, branches, loops lowered
  // after it) use the same variables; when the body ends, the constants computed in it
  // are forgotten (they are not in scope after it). Where it is first used is where it
  // was inlined before, so a constant's checks fail where they did; its uses after that
  // one in the body computed the same value without failing, and now read it.
  // Inlining at every use instead grows with the depth of the definitions: a library's
  // field element modulus parsed from a string by a loop, used by every multiplication
  // (and by other constants), was computed again at each use, and a program of a few
  // hundred lines lowered to millions of statements. The value is shared only between
  // uses under the same #[unsafe] (or none): the checks of a constant computed inside
  // #[unsafe] are covered, and do not stand for a use outside it. A loop lowered again
  // (lower_loop) forgets the constants of its discarded attempt with its statements.
  Val inline_call(const FunDef &f, const std::vector<Val> &args, const Span &span, bool is_entry) {
    if (args.size() != f.params.size()) unsupported(span, "partial application of '" + f.name + "'");
    // A top-level constant already computed here (Note [Top-level constants]).
    std::optional<ConstantKey> key;
    if (f.params.empty() && !is_entry) {
      key = ConstantKey{&f, unsafe_at_.empty() ? std::string() : unsafe_at_.back()};
      if (auto it = constants_.find(*key); it != constants_.end()) return it->second;
    }
    size_t saved_env = env_.size();
    size_t saved_frame = frame_;
    frame_ = env_.size();
    if (f.is_unsafe) enter_unsafe(unsafe_fn_location(f));
    std::string msg = is_entry ? "entry point arguments have invalid sizes." : "function arguments of wrong shape";
    for (size_t i = 0; i < args.size(); i++)
      param_sizes(f, f.params[i], args[i], 0, span, msg, /*bind_only=*/true);
    for (size_t i = 0; i < args.size(); i++) {
      param_sizes(f, f.params[i], args[i], 0, span, msg);
      bind(f.params[i], args[i]);
    }
    Val r = lower(*f.body);
    const Type &ret = f.ret_annotation ? *f.ret_annotation : f.ret_type;
    sizes(nullptr, ret, r, 0, span, "Function return value does not match shape of declared return type.");
    if (f.is_unsafe) leave_unsafe();
    env_.resize(saved_env);
    frame_ = saved_frame;
    if (key && constants_.emplace(*key, r).second) constant_log_.push_back(std::move(*key));
    return r;
  }

  // Forgets the constants computed since the log had `size` entries (those of a body
  // whose lowering ends).
  void forget_constants(size_t size) {
    while (constant_log_.size() > size) {
      constants_.erase(constant_log_.back());
      constant_log_.pop_back();
    }
  }

  // ---- expressions

  Val lower(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit:
      return {SubExp::of_const(convert_prim(PrimValue::unsigned_int(PrimType::U64, e.int_value), e.type.prim))};
    case ExprKind::FloatLit: return {SubExp::of_const(PrimValue::floating(e.type.prim, e.float_value))};
    case ExprKind::BoolLit: return {SubExp::of_const(PrimValue::boolean(e.bool_value))};
    case ExprKind::Var: return lower_var(e);
    case ExprKind::Tuple: {
      if (e.args.empty()) return {SubExp::of_const(PrimValue::boolean(false))};
      Val out;
      for (const ExprPtr &a : e.args) {
        Val c = lower(*a);
        out.insert(out.end(), c.begin(), c.end());
      }
      return out;
    }
    case ExprKind::Project: {
      Val t = lower(*e.args[0]);
      const Type &tt = e.args[0]->type;
      size_t off = 0;
      for (int i = 0; i < e.field; i++) off += count(tt.elems[size_t(i)]);
      size_t n = count(tt.elems[size_t(e.field)]);
      return Val(t.begin() + long(off), t.begin() + long(off + n));
    }
    case ExprKind::Unary: {
      if (!e.type.is_prim()) unsupported(e.span, "this operator on non-scalars");
      SubExp a = lower(*e.args[0])[0];
      if (std::optional<SubExp> c = fold_unop(e.unop, a)) return {*c};
      core::Exp x = exp(ExpKind::UnOp, {a}, e.span);
      x.unop = e.unop;
      return {emit1(std::move(x), CType{e.type.prim, 0})};
    }
    case ExprKind::Binary:
      if (e.binop == BinOp::Concat) return concat(lower(*e.args[0]), lower(*e.args[1]), e.span);
      return {lower_binary(e)};
    case ExprKind::If: {
      SubExp c = lower(*e.args[0])[0];
      return lower_if(c, [&] { return lower(*e.args[1]); }, [&] { return lower(*e.args[2]); }, e.span);
    }
    case ExprKind::Let: {
      Val v = lower(*e.args[0]);
      size_t base = env_.size();
      bind(e.pattern, v);
      Val r = lower(*e.args[1]);
      env_.resize(base);
      return r;
    }
    case ExprKind::Loop: return lower_loop(e);
    case ExprKind::Index: return lower_index(e);
    case ExprKind::Update: return lower_update(e);
    case ExprKind::Apply: return lower_apply(e);
    case ExprKind::Ascribe: return lower(*e.args[0]);
    case ExprKind::Unsafe: {
      enter_unsafe(e.span.location());
      Val r = lower(*e.args[0]);
      leave_unsafe();
      return r;
    }
    case ExprKind::Assert: {
      SubExp c = lower(*e.args[0])[0];
      core::Exp x = exp(ExpKind::Assert, {c}, e.span);
      x.check = add_candidate(FailureKind::Assert, e.span,
                              escape_template_text("Assertion is false: " +
                                                   std::string(e.args[0]->span.text())),
                              0);
      emit1(std::move(x), CType{PrimType::Bool, 0}, {}, "assert");
      return lower(*e.args[1]);
    }
    case ExprKind::ArrayLit: return lower_array_lit(e);
    case ExprKind::Coerce: return lower_coerce(e);
    case ExprKind::Range: return lower_range(e);
    case ExprKind::Lambda:
    case ExprKind::OpSection: unsupported(e.span, "function values here");
    KERB_ELIMINATED_EXPR_KINDS: break;
    }
    unsupported(e.span, "this expression");
  }

  Val lower_var(const Expr &e) {
    switch (e.callee) {
    case Callee::Local: {
      const Val *v = lookup(e.name);
      if (!v) unsupported(e.span, "the size '" + e.name + "' here");
      Val out;
      for (const SubExp &s : *v) out.push_back(s);
      return out;
    }
    case Callee::Function: return inline_call(*e.fun, {}, e.span, false);
    case Callee::PrimBuiltin:
      if (prim_fn_arity(e.prim_builtin.fn) == 0)
        return {SubExp::of_const(prim_constant(e.prim_builtin.module, e.prim_builtin.fn))};
      break;
    default: break;
    }
    unsupported(e.span, "'" + e.name + "' as a value");
  }

  // if c then a else b. A size of an array result that the branches may give differently
  // (or compute inside) becomes an extra i64 result of the If (an existential size).
  Val lower_if(SubExp c, const std::function<Val()> &then_f, const std::function<Val()> &else_f,
               const Span &span) {
    if (!c.is_var()) return c.constant.as_bool() ? then_f() : else_f(); // Note [Constant operands]
    core::Exp x = exp(ExpKind::If, {c}, span);
    x.bodies.push_back(lower_body(then_f));
    x.bodies.push_back(lower_body(else_f));
    size_t n = x.bodies[0]->result.size();
    core::Stm st;
    std::vector<Val> shapes;
    for (size_t i = 0; i < n; i++) {
      Val sa = shape_of(x.bodies[0]->result[i]), sb = shape_of(x.bodies[1]->result[i]);
      for (size_t d = 0; d < sa.size(); d++) {
        bool inside = (sa[d].is_var() && defined_in(*x.bodies[0], sa[d].var)) ||
                      (sb[d].is_var() && defined_in(*x.bodies[1], sb[d].var));
        if (same(sa[d], sb[d]) && !inside) continue;
        int size = new_var("size", CType{PrimType::I64, 0});
        x.bodies[0]->result.push_back(sa[d]);
        x.bodies[1]->result.push_back(sb[d]);
        st.pat.push_back(size);
        sa[d] = SubExp::of_var(size);
      }
      shapes.push_back(sa);
    }
    std::vector<int> sizes = std::move(st.pat);
    st.pat.clear();
    Val out;
    for (size_t i = 0; i < n; i++) {
      st.pat.push_back(new_var("if", type_of(x.bodies[0]->result[i]), shapes[i]));
      out.push_back(SubExp::of_var(st.pat.back()));
    }
    st.pat.insert(st.pat.end(), sizes.begin(), sizes.end());
    st.exp = std::move(x);
    cur_->stms.push_back(std::move(st));
    return out;
  }

  static bool defined_in(const Body &b, int v) {
    for (const core::Stm &s : b.stms)
      for (int p : s.pat)
        if (p == v) return true;
    return false;
  }

  SubExp lower_binary(const Expr &e) {
    if (e.binop == BinOp::LogAnd || e.binop == BinOp::LogOr) {
      SubExp a = lower(*e.args[0])[0];
      bool is_and = e.binop == BinOp::LogAnd;
      auto rhs = [&] { return lower(*e.args[1]); };
      auto konst = [&] { return Val{SubExp::of_const(PrimValue::boolean(!is_and))}; };
      return is_and ? lower_if(a, rhs, konst, e.span)[0] : lower_if(a, konst, rhs, e.span)[0];
    }
    if (e.binop == BinOp::Concat) unsupported(e.span, "`++`");
    if (!e.args[0]->type.is_prim()) unsupported(e.span, "this operator on non-scalars");
    SubExp a = lower(*e.args[0])[0];
    SubExp b = lower(*e.args[1])[0];
    return apply_binop(e.binop, a, b, e.span);
  }

  SubExp apply_binop(BinOp op, SubExp a, SubExp b, const Span &span) {
    if (type_of(a).rank != 0 || type_of(b).rank != 0) unsupported(span, "this operator on arrays");
    if (std::optional<SubExp> c = fold_binop(op, a, b)) return *c; // Note [Constant operands]
    PrimType t = type_of(a).prim;
    core::Exp x = exp(ExpKind::BinOp, {a, b}, span);
    x.binop = op;
    // An operation has at most one check: integers divide by zero or raise to a
    // negative power; floats may produce NaN.
    if (is_checked_division(op, t))
      x.check = add_candidate(FailureKind::Division, span, "division by zero", 0);
    if (op == BinOp::Pow && is_signed_int(t))
      x.check = add_candidate(FailureKind::Division, span, "negative exponent", 0);
    if (can_produce_nan(op, t))
      x.check = add_candidate(FailureKind::NaN, span,
                              escape_template_text("NaN produced by " + nan_op_name(op)), 0);
    bool cmp = op == BinOp::Eq || op == BinOp::Neq || op == BinOp::Lt || op == BinOp::Le ||
               op == BinOp::Gt || op == BinOp::Ge || op == BinOp::LogAnd || op == BinOp::LogOr;
    return emit1(std::move(x), CType{cmp ? PrimType::Bool : t, 0});
  }

  // Note [Loops whose arrays change size]
  // A loop parameter's array may have another size in each iteration (`loop xs for i <
  // n do xs ++ xs`, a while loop that filters). Core IR arrays have their sizes as
  // variables, so such a dimension gets one: an i64 loop parameter of its own (after the
  // program's parameters), starting at the initial value's size, whose next value is
  // the size of the body's result, as Futhark's existential loop sizes. Which dimensions
  // vary is found by lowering the body: first with every parameter of its initial
  // value's sizes; if the body's result has another size in some dimension, the
  // attempt is dropped (its variables and check candidates too) and the loop lowered
  // again with that dimension a parameter, until the body keeps every other one. The
  // loop's results have the size parameters' final values as their sizes. A loop whose
  // arrays keep their sizes is lowered as before, in one attempt.
  Val lower_loop(const Expr &e) {
    Val init = e.args[0] ? lower(*e.args[0]) : value_of_pattern(e.pattern);
    Val bound;
    Val xs;
    if (e.loop_form == LoopForm::For) bound = lower(*e.args[1]);
    if (e.loop_form == LoopForm::ForIn) {
      xs = lower(*e.args[1]);
      bound = {shape_of(xs[0])[0]};
    }
    std::vector<std::vector<bool>> varying;
    for (const SubExp &i : init) varying.emplace_back(shape_of(i).size(), false);
    for (;;) {
      size_t vars = p_.vars.size(), candidates = p_.candidates.size(), stms = cur_->stms.size();
      size_t constants = constant_log_.size();
      auto alias = alias_;
      if (std::optional<Val> out = lower_loop_with(e, init, bound, xs, varying)) return *out;
      p_.vars.resize(vars);
      p_.candidates.resize(candidates);
      cur_->stms.resize(stms);
      alias_ = std::move(alias);
      forget_constants(constants);
    }
  }

  // One attempt of lower_loop: `varying` says which dimensions of each parameter are
  // size parameters. Nothing (and more dimensions marked) when the body changes the
  // size of another one.
  std::optional<Val> lower_loop_with(const Expr &e, const Val &init, const Val &bound, const Val &xs,
                                     std::vector<std::vector<bool>> &varying) {
    core::Exp x = exp(ExpKind::Loop, init, e.span);
    std::vector<CType> types;
    std::vector<Val> shapes;
    Val params = new_loop_params(x, init, types, shapes, "p");
    // The size parameters, and the initial values of each.
    std::vector<int> size_params;
    for (size_t i = 0; i < init.size(); i++)
      for (size_t d = 0; d < varying[i].size(); d++) {
        if (!varying[i][d]) continue;
        int n = new_var("n", CType{PrimType::I64, 0});
        size_params.push_back(n);
        x.loop_params.push_back(n);
        x.args.push_back(shapes[i][d]);
        shapes[i][d] = SubExp::of_var(n);
      }
    for (size_t i = 0; i < init.size(); i++) p_.vars[size_t(params[i].var)].shape = shapes[i];
    x.is_while = e.loop_form == LoopForm::While;
    size_t base = env_.size();
    if (!x.is_while) {
      PrimType ct = type_of(bound[0]).prim;
      x.loop_var = new_var(e.loop_form == LoopForm::For ? e.name : "i", CType{ct, 0});
      x.args.push_back(bound[0]);
    }
    bind(e.pattern, params);
    if (x.is_while) {
      auto cond = lower_body([&] { return lower(*e.args[1]); });
      x.bodies.push_back(nullptr);
      x.bodies.push_back(std::move(cond));
    }
    auto body = lower_body([&] {
      if (e.loop_form == LoopForm::For) bind_name(e.name, {SubExp::of_var(x.loop_var)});
      if (e.loop_form == LoopForm::ForIn) {
        Val row;
        for (const SubExp &c : xs) {
          core::Exp ix = exp(ExpKind::Index, {SubExp::of_var(x.loop_var)}, e.span);
          ix.arrays = {c.var};
          Val sh = shape_of(c);
          row.push_back(emit1(std::move(ix), CType{type_of(c).prim, type_of(c).rank - 1},
                              Val(sh.begin() + 1, sh.end()), "x"));
        }
        bind(e.pattern2, row);
      }
      return lower(*e.args[2]);
    });
    env_.resize(base);
    bool again = false;
    for (size_t i = 0; i < init.size(); i++) {
      Val got = shape_of(body->result[i]);
      for (size_t d = 0; d < varying[i].size(); d++)
        if (!varying[i][d] && !same(got[d], shapes[i][d])) varying[i][d] = again = true;
    }
    if (again) return std::nullopt;
    // The sizes of the next iteration's arrays.
    for (size_t i = 0; i < init.size(); i++) {
      Val got = shape_of(body->result[i]);
      for (size_t d = 0; d < varying[i].size(); d++)
        if (varying[i][d]) body->result.push_back(got[d]);
    }
    if (x.is_while) x.bodies[0] = std::move(body);
    else x.bodies.push_back(std::move(body));
    if (size_params.empty()) return emit(std::move(x), types, shapes, "loop");
    // The results: the arrays, of the final sizes, then those sizes.
    std::vector<SubExp> sizes;
    for (size_t k = 0; k < size_params.size(); k++) sizes.push_back(SubExp::of_var(new_var("n", CType{PrimType::I64, 0})));
    size_t k = 0;
    for (size_t i = 0; i < init.size(); i++)
      for (size_t d = 0; d < varying[i].size(); d++)
        if (varying[i][d]) shapes[i][d] = sizes[k++];
    Val out = emit(std::move(x), types, shapes, "loop");
    for (const SubExp &n : sizes) cur_->stms.back().pat.push_back(n.var);
    return out;
  }

  Val indices(const std::vector<IndexPart> &parts) {
    Val out;
    for (const IndexPart &p : parts) {
      if (p.is_slice) unsupported(p.span, "slices");
      out.push_back(to_i64(lower(*p.index)[0]));
    }
    return out;
  }

  int index_check(const Span &span, const Val &idx) {
    return add_candidate(FailureKind::Bounds, span, index_template(int(idx.size())), 2 * idx.size());
  }

  Val lower_index(const Expr &e) {
    Val arr = lower(*e.args[0]);
    for (const IndexPart &p : e.indices)
      if (p.is_slice) return lower_slice_index(e, arr);
    Val idx = indices(e.indices);
    int check = index_check(e.span, idx);
    Val out;
    for (const SubExp &c : arr) {
      core::Exp x = exp(ExpKind::Index, idx, e.span);
      x.arrays = {c.var};
      x.check = check;
      check = -1; // the first component's check covers the others
      Val sh = shape_of(c);
      out.push_back(emit1(std::move(x), CType{type_of(c).prim, type_of(c).rank - int(idx.size())},
                          Val(sh.begin() + long(idx.size()), sh.end()), "elem"));
    }
    return out;
  }

  Val lower_update(const Expr &e) {
    Val arr = lower(*e.args[0]);
    for (const IndexPart &p : e.indices)
      if (p.is_slice) return lower_slice_update(e, arr);
    Val idx = indices(e.indices);
    Val v = lower(*e.args[1]);
    int check = index_check(e.span, idx);
    if (int(idx.size()) != e.args[0]->type.rank()) {
      // A whole row (or sub-array): its shape must be the rest of the array's.
      for (size_t k = 0; k < arr.size(); k++) {
        Val vs = shape_of(v[k]);
        Val full = shape_of(arr[k]);
        Val want(full.begin() + long(idx.size()), full.end());
        if (same_shape(vs, want)) continue;
        SubExp ok = SubExp::of_const(PrimValue::boolean(vs.size() == want.size()));
        for (size_t d = 0; d < vs.size() && d < want.size(); d++) ok = land(ok, eq(vs[d], want[d]));
        emit_check(FailureKind::Size, e.span, "Shape of slice does not match shape of value.", ok);
      }
    }
    Val out;
    for (size_t k = 0; k < arr.size(); k++) {
      Val args = idx;
      args.push_back(v[k]);
      core::Exp x = exp(ExpKind::Update, args, e.span);
      x.arrays = {arr[k].var};
      x.check = check;
      check = -1;
      out.push_back(emit1(std::move(x), type_of(arr[k]), shape_of(arr[k]), "upd"));
    }
    return out;
  }

  // a with [i:j, k, ...] = v: the parts, the value, then the bounds check and the
  // shape check (the interpreter's order and messages).
  Val lower_slice_update(const Expr &e, const Val &arr) {
    std::vector<RawPart> parts = lower_parts(e.indices);
    Val v = lower(*e.args[1]);
    std::vector<SliceDim> dims = resolve_parts(parts, shape_of(arr[0]), e.span);
    Val out;
    for (size_t k = 0; k < arr.size(); k++) {
      Val full = shape_of(arr[k]);
      Val want;
      for (size_t d = 0; d < full.size(); d++) {
        if (d >= dims.size()) want.push_back(full[d]);
        else if (!dims[d].is_index) want.push_back(dims[d].count);
      }
      Val vs = shape_of(v[k]);
      if (!same_shape(vs, want)) {
        SubExp ok = SubExp::of_const(PrimValue::boolean(vs.size() == want.size()));
        for (size_t d = 0; d < vs.size() && d < want.size(); d++) ok = land(ok, eq(vs[d], want[d]));
        emit_check(FailureKind::Size, e.span, "Shape of slice does not match shape of value.", ok);
      }
      core::Exp x = exp(ExpKind::UpdateSlice, {}, e.span);
      x.arrays = {arr[k].var, v[k].var};
      for (size_t d = 0; d < dims.size(); d++) {
        x.args.push_back(dims[d].start);
        x.args.push_back(dims[d].count);
        x.args.push_back(dims[d].stride);
        if (dims[d].is_index) x.index_dims.push_back(int(d));
      }
      out.push_back(emit1(std::move(x), type_of(arr[k]), shape_of(arr[k]), "upd"));
    }
    return out;
  }

  Val lower_array_lit(const Expr &e) {
    std::vector<Val> elems;
    for (const ExprPtr &a : e.args) elems.push_back(lower(*a));
    size_t k = elems[0].size();
    for (size_t c = 0; c < k; c++) {
      SubExp ok = SubExp::of_const(PrimValue::boolean(true));
      bool need = false;
      for (size_t i = 1; i < elems.size(); i++) {
        Val a = shape_of(elems[0][c]), b = shape_of(elems[i][c]);
        for (size_t d = 0; d < a.size(); d++) {
          if (same(a[d], b[d])) continue;
          ok = need ? binop(BinOp::LogAnd, ok, eq_i64(a[d], b[d]), PrimType::Bool) : eq_i64(a[d], b[d]);
          need = true;
        }
      }
      if (need)
        emit_check(FailureKind::Size, e.span,
                   escape_template_text("shape of element differs from shape of first element"), ok);
    }
    Val out;
    for (size_t c = 0; c < k; c++) {
      core::Exp x = exp(ExpKind::ArrayLit, {}, e.span);
      for (const Val &el : elems) x.args.push_back(el[c]);
      Val sh{SubExp::i64(int64_t(elems.size()))};
      Val inner = shape_of(elems[0][c]);
      sh.insert(sh.end(), inner.begin(), inner.end());
      CType t = type_of(elems[0][c]);
      t.rank++;
      out.push_back(emit1(std::move(x), t, sh, "arr"));
    }
    return out;
  }

  // ---- applications

  Val lower_apply(const Expr &e) {
    switch (e.callee) {
    case Callee::Function: {
      std::vector<Val> args;
      for (const ExprPtr &a : e.args) args.push_back(lower(*a));
      return inline_call(*e.fun, args, e.span, false);
    }
    case Callee::PrimBuiltin: {
      std::vector<Val> args;
      for (const ExprPtr &a : e.args) args.push_back(lower(*a));
      return {apply_prim(e.prim_builtin, args, e.span)};
    }
    case Callee::ArrayBuiltin: return lower_builtin(e);
    default: break;
    }
    unsupported(e.span, "this call");
  }

  SubExp apply_prim(const PrimBuiltin &b, const std::vector<Val> &args, const Span &span) {
    int arity = prim_fn_arity(b.fn);
    if (arity < 0) return reduce_prims(b.fn, b.module, args.at(0), span);
    if (arity == 0) return SubExp::of_const(prim_constant(b.module, b.fn));
    if (int(args.size()) != arity) unsupported(span, "partial application of a numeric function");
    if (b.fn == PrimFn::ConvertFrom) {
      core::Exp x = exp(ExpKind::Convert, {args[0][0]}, span);
      x.to = b.module;
      return emit1(std::move(x), CType{b.module, 0});
    }
    core::Exp x = exp(ExpKind::PrimFn, {}, span);
    for (const Val &a : args) x.args.push_back(a[0]);
    x.prim_fn = b;
    if (can_produce_nan(b))
      x.check = add_candidate(FailureKind::NaN, span,
                              escape_template_text("NaN produced by " + nan_op_name(b)), 0);
    PrimType rt = b.module;
    if (b.fn == PrimFn::IsNan || b.fn == PrimFn::IsInf) rt = PrimType::Bool;
    if (b.fn == PrimFn::Popc || b.fn == PrimFn::Clz || b.fn == PrimFn::Ctz) rt = PrimType::I32;
    return emit1(std::move(x), CType{rt, 0});
  }

  SubExp reduce_prims(PrimFn fn, PrimType t, const Val &xs, const Span &span) {
    if (xs.size() != 1 || type_of(xs[0]).rank != 1) unsupported(span, "reductions of non-scalar rows");
    PrimValue ne;
    switch (fn) {
    case PrimFn::Sum: ne = convert_prim(PrimValue::signed_int(PrimType::I64, 0), t); break;
    case PrimFn::Product: ne = convert_prim(PrimValue::signed_int(PrimType::I64, 1), t); break;
    case PrimFn::Maximum: ne = prim_constant(t, PrimFn::Lowest); break;
    case PrimFn::Minimum: ne = prim_constant(t, PrimFn::Highest); break;
    default: unsupported(span, "this reduction");
    }
    core::Exp x = exp(ExpKind::Reduce, {shape_of(xs[0])[0], SubExp::of_const(ne)}, span);
    x.arrays = {xs[0].var};
    x.lambda = std::make_unique<core::Lambda>();
    int a = new_var("a", CType{t, 0}), b = new_var("b", CType{t, 0});
    x.lambda->params = {a, b};
    {
      auto body = lower_body([&]() -> Val {
        SubExp sa = SubExp::of_var(a), sb = SubExp::of_var(b);
        if (fn == PrimFn::Sum) return {apply_binop(BinOp::Add, sa, sb, span)};
        if (fn == PrimFn::Product) return {apply_binop(BinOp::Mul, sa, sb, span)};
        core::Exp m = exp(ExpKind::PrimFn, {sa, sb}, span);
        m.prim_fn = PrimBuiltin{t, fn == PrimFn::Maximum ? PrimFn::Max : PrimFn::Min, t};
        return {emit1(std::move(m), CType{t, 0})};
      });
      x.lambda->body = std::move(*body);
    }
    return emit1(std::move(x), CType{t, 0}, {}, "red");
  }

  // Prepares a functional argument: lowers the values it captures.
  Fn prepare_fn(const Expr &e) {
    Fn f;
    const Expr *x = &e;
    while (x->kind == ExprKind::Unsafe) {
      if (!f.unsafe) f.unsafe_at = x->span.location();
      f.unsafe = true;
      x = x->args[0].get();
    }
    f.expr = x;
    switch (x->kind) {
    case ExprKind::Lambda: return f;
    case ExprKind::OpSection:
      if (x->binop == BinOp::Concat || x->binop == BinOp::LogAnd || x->binop == BinOp::LogOr)
        unsupported(x->span, "this operator section");
      for (const ExprPtr &a : x->args) f.bound.push_back(lower(*a));
      return f;
    case ExprKind::Var:
    case ExprKind::Apply:
      if (x->callee == Callee::ArrayBuiltin) {
        // The interpreter's order: the arguments given now, functions prepared.
        for (size_t i = 0; x->kind == ExprKind::Apply && i < x->args.size(); i++) {
          if (builtin_takes_function(x->array_builtin, i)) {
            f.bound_fns.push_back(std::make_shared<Fn>(prepare_fn(*x->args[i])));
            f.bound.push_back({});
          } else {
            f.bound_fns.push_back(nullptr);
            f.bound.push_back(lower(*x->args[i]));
          }
        }
        return f;
      }
      if (x->callee == Callee::Function ||
          (x->callee == Callee::PrimBuiltin && prim_fn_arity(x->prim_builtin.fn) > 0)) {
        if (x->kind == ExprKind::Apply)
          for (const ExprPtr &a : x->args) f.bound.push_back(lower(*a));
        return f;
      }
      break;
    default: break;
    }
    unsupported(x->span, "this functional argument");
  }

  // Applies a prepared functional argument to `args` in the current body; `span` is
  // the built-in's application (where the interpreter reports a called function's
  // size failures).
  Val apply_fn(const Fn &f, const std::vector<Val> &args, const Span &span) {
    if (f.unsafe) enter_unsafe(f.unsafe_at);
    Val r;
    const Expr &x = *f.expr;
    if (x.kind == ExprKind::Lambda) {
      size_t base = env_.size();
      for (size_t i = 0; i < args.size(); i++) bind(x.params[i], args[i]);
      r = lower(*x.args[0]);
      env_.resize(base);
    } else if (x.kind == ExprKind::OpSection) {
      SubExp a = args[0][0], b = args.size() > 1 ? args[1][0] : SubExp{};
      if (!f.bound.empty()) {
        if (x.section_left) b = a, a = f.bound[0][0];
        else b = f.bound[0][0];
      }
      r = {apply_binop(x.binop, a, b, x.span)};
    } else if (x.callee == Callee::ArrayBuiltin) {
      size_t nb = f.bound.size();
      BuiltinArgs a;
      a.size = nb + args.size();
      a.value = [&](size_t i) { return i < nb ? f.bound[i] : args[i - nb]; };
      a.fn = [&](size_t i) {
        KERB_ASSERT(i < nb && f.bound_fns[i], "a built-in's functional argument is missing");
        return *f.bound_fns[i];
      };
      a.type = [&](size_t i) -> const Type * { return i < nb ? &x.args[i]->type : nullptr; };
      r = apply_builtin(x.array_builtin, a, x.type, x.span);
    } else {
      std::vector<Val> all = f.bound;
      all.insert(all.end(), args.begin(), args.end());
      if (x.callee == Callee::Function) r = inline_call(*x.fun, all, span, false);
      else r = {apply_prim(x.prim_builtin, all, x.span)};
    }
    if (f.unsafe) leave_unsafe();
    return r;
  }

  static Val row_shape(const Val &sh) { return Val(sh.begin() + 1, sh.end()); }

  // The rows of arrays `xs` as fresh lambda parameters.
  Val row_params(const Val &xs, std::vector<int> &params) {
    Val out;
    for (const SubExp &c : xs) {
      CType t = type_of(c);
      t.rank--;
      int v = new_var("x", t, row_shape(shape_of(c)));
      params.push_back(v);
      out.push_back(SubExp::of_var(v));
    }
    return out;
  }

  // Checks that the arrays have the same outer size (Futhark's size mismatch).
  SubExp same_widths(const std::vector<Val> &arrays, const char *name, const Span &span) {
    SubExp w = shape_of(arrays[0][0])[0];
    bool all_same = true;
    for (const Val &a : arrays)
      for (const SubExp &c : a) all_same = all_same && same(shape_of(c)[0], w);
    if (all_same) return w;
    SubExp ok = SubExp::of_const(PrimValue::boolean(true));
    Val widths;
    std::string tmpl = std::string("Sizes of the arguments of ") + name + " do not match: ";
    for (size_t i = 0; i < arrays.size(); i++) {
      SubExp wi = shape_of(arrays[i][0])[0];
      widths.push_back(wi);
      tmpl += (i ? " and [{}]" : "[{}]");
      if (i > 0) ok = binop(BinOp::LogAnd, ok, eq_i64(w, wi), PrimType::Bool);
    }
    tmpl += ".";
    emit_check(FailureKind::Size, span, tmpl, ok, widths);
    for (const SubExp &wi : widths)
        if (wi.is_var() && !same(wi, w)) alias_[canon(wi).var] = canon(w);
    return w;
  }

  Val lower_builtin(const Expr &e) {
    BuiltinArgs a;
    a.size = e.args.size();
    a.value = [&](size_t i) { return lower(*e.args[i]); };
    a.fn = [&](size_t i) { return prepare_fn(*e.args[i]); };
    a.type = [&](size_t i) -> const Type * { return &e.args[i]->type; };
    return apply_builtin(e.array_builtin, a, e.type, e.span);
  }

  // The application of built-in `b` (of result type `type`) to `args`.
  Val apply_builtin(ArrayBuiltin b, const BuiltinArgs &args, const Type &type, const Span &span) {
    const char *name = array_builtin_name(b);
    auto vals_from = [&](size_t first) {
      std::vector<Val> out;
      for (size_t i = first; i < args.size; i++) out.push_back(args.value(i));
      return out;
    };
    switch (b) {
    case ArrayBuiltin::Map: case ArrayBuiltin::Map1: case ArrayBuiltin::Map2:
    case ArrayBuiltin::Map3: case ArrayBuiltin::Map4: case ArrayBuiltin::Map5: {
      Fn f = args.fn(0);
      std::vector<Val> xs = vals_from(1);
      SubExp w = same_widths(xs, name, span);
      core::Exp x = exp(ExpKind::Map, {w}, span);
      x.lambda = std::make_unique<core::Lambda>();
      std::vector<Val> rows;
      for (const Val &a : xs) {
        rows.push_back(row_params(a, x.lambda->params));
        for (const SubExp &c : a) x.arrays.push_back(c.var);
      }
      auto body = lower_body([&] { return apply_fn(f, rows, span); });
      auto first = [&] {
        std::vector<Val> rows0;
        for (const Val &a : xs) rows0.push_back(row_at(a, i64c(0), span));
        return apply_fn(f, rows0, span);
      };
      std::vector<CType> types;
      std::vector<Val> shapes;
      map_result_types(*x.lambda, *body, w, first, types, shapes, span);
      x.lambda->body = std::move(*body);
      return emit(std::move(x), types, shapes, "map");
    }
    case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm: case ArrayBuiltin::Scan: {
      Fn f = args.fn(0);
      Val ne = args.value(1);
      Val xs = args.value(2);
      SubExp w = same_widths({xs}, name, span);
      core::Exp x = exp(b == ArrayBuiltin::Scan ? ExpKind::Scan : ExpKind::Reduce, {w}, span);
      x.comm = b == ArrayBuiltin::ReduceComm;
      x.args.insert(x.args.end(), ne.begin(), ne.end());
      for (const SubExp &c : xs) x.arrays.push_back(c.var);
      x.lambda = std::make_unique<core::Lambda>();
      Val acc, el;
      for (const SubExp &n : ne) {
        int v = new_var("acc", type_of(n), shape_of(n));
        x.lambda->params.push_back(v);
        acc.push_back(SubExp::of_var(v));
      }
      el = row_params(xs, x.lambda->params);
      auto body = lower_body([&] { return operator_result(apply_fn(f, {acc, el}, span), ne, span); });
      x.lambda->body = std::move(*body);
      std::vector<CType> types;
      std::vector<Val> shapes;
      for (const SubExp &n : ne) {
        CType t = type_of(n);
        Val sh = shape_of(n);
        if (b == ArrayBuiltin::Scan) {
          t.rank++;
          sh.insert(sh.begin(), w);
        }
        types.push_back(t);
        shapes.push_back(sh);
      }
      return emit(std::move(x), types, shapes, name);
    }
    case ArrayBuiltin::Iota: {
      SubExp n = args.value(0)[0];
      SubExp n64 = to_i64(n);
      count_check(n64, span);
      core::Exp x = exp(ExpKind::Iota, {n}, span);
      x.to = type_of(n).prim;
      return {emit1(std::move(x), CType{type_of(n).prim, 1}, {n64}, "iota")};
    }
    case ArrayBuiltin::Replicate: {
      SubExp n = to_i64(args.value(0)[0]);
      Val v = args.value(1);
      count_check(n, span);
      Val out;
      for (const SubExp &c : v) {
        Val sh{n};
        Val inner = shape_of(c);
        sh.insert(sh.end(), inner.begin(), inner.end());
        CType t = type_of(c);
        t.rank++;
        out.push_back(emit1(exp(ExpKind::Replicate, {n, c}, span), t, sh, "rep"));
      }
      return out;
    }
    case ArrayBuiltin::Length: {
      Val xs = args.value(0);
      return {shape_of(xs[0])[0]};
    }
    case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2: case ArrayBuiltin::Zip3:
    case ArrayBuiltin::Zip4: case ArrayBuiltin::Zip5: {
      std::vector<Val> xs = vals_from(0);
      same_widths(xs, name, span);
      Val out;
      for (const Val &a : xs) out.insert(out.end(), a.begin(), a.end());
      return out;
    }
    case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: case ArrayBuiltin::Unzip3:
    case ArrayBuiltin::Unzip4: case ArrayBuiltin::Unzip5: case ArrayBuiltin::Opaque:
      return args.value(0);
    case ArrayBuiltin::Copy: {
      Val v = args.value(0);
      Val out;
      for (const SubExp &c : v) {
        if (type_of(c).rank == 0) {
          out.push_back(c);
          continue;
        }
        core::Exp x = exp(ExpKind::Copy, {}, span);
        x.arrays = {c.var};
        out.push_back(emit1(std::move(x), type_of(c), shape_of(c), "copy"));
      }
      return out;
    }
    case ArrayBuiltin::Sum: case ArrayBuiltin::Product: case ArrayBuiltin::Maximum:
    case ArrayBuiltin::Minimum: {
      Val xs = args.value(0);
      PrimFn fn = b == ArrayBuiltin::Sum       ? PrimFn::Sum
                  : b == ArrayBuiltin::Product ? PrimFn::Product
                  : b == ArrayBuiltin::Maximum ? PrimFn::Maximum
                                               : PrimFn::Minimum;
      return {reduce_prims(fn, type_of(xs.at(0)).prim, xs, span)};
    }
    case ArrayBuiltin::Tabulate: {
      SubExp n = to_i64(args.value(0)[0]);
      count_check(n, span);
      Fn f = args.fn(1);
      return map_iota(n, [&](SubExp i) { return apply_fn(f, {{i}}, span); }, span, "tabulate");
    }
    case ArrayBuiltin::Foldl: case ArrayBuiltin::Foldr: {
      Fn f = args.fn(0);
      Val acc = args.value(1);
      Val xs = args.value(2);
      SubExp n = shape_of(xs[0])[0];
      bool left = b == ArrayBuiltin::Foldl;
      return for_loop(acc, n, [&](const Val &a, SubExp i) {
        SubExp at = left ? i : sub(sub(n, i64c(1)), i);
        Val row = row_at(xs, at, span);
        return left ? apply_fn(f, {a, row}, span) : apply_fn(f, {row, a}, span);
      }, span);
    }
    case ArrayBuiltin::Head: case ArrayBuiltin::Last: {
      Val xs = args.value(0);
      SubExp w = shape_of(xs[0])[0];
      SubExp i = b == ArrayBuiltin::Head ? i64c(0) : sub(w, i64c(1));
      emit_check(FailureKind::Bounds, span, index_template(1),
                 land(le(i64c(0), i), lt(i, w)), {i, w});
      return row_at(xs, i, span);
    }
    case ArrayBuiltin::Tail: case ArrayBuiltin::Init: case ArrayBuiltin::Take:
    case ArrayBuiltin::Drop: {
      bool sized = b == ArrayBuiltin::Take || b == ArrayBuiltin::Drop;
      SubExp k = sized ? to_i64(args.value(0)[0]) : i64c(0);
      Val xs = args.value(sized ? 1 : 0);
      SubExp w = shape_of(xs[0])[0];
      switch (b) {
      case ArrayBuiltin::Tail: return outer_slice(xs, i64c(1), w, true, false, span);
      case ArrayBuiltin::Init: return outer_slice(xs, i64c(0), sub(w, i64c(1)), true, true, span);
      case ArrayBuiltin::Take: return outer_slice(xs, i64c(0), k, true, true, span);
      default: return outer_slice(xs, k, w, true, false, span);
      }
    }
    case ArrayBuiltin::Split: {
      std::optional<SubExp> kk;
      if (args.size == 2) {
        kk = to_i64(args.value(0)[0]);
      } else {
        // The sizes [n + m] of the argument's type, or the result type's [n].
        const Type *at = args.type(0);
        if (at && at->is_array() && at->dims[0].kind == Dim::Var) {
          size_t plus = at->dims[0].name.rfind('+');
          if (plus != std::string::npos)
            kk = size_expression(at->dims[0].name.substr(0, plus), span);
        }
        if (!kk && type.is_tuple() && type.elems[0].is_array())
          kk = resolve_dim(type.elems[0].dims[0], span);
        if (!kk) unsupported(span, "split whose sizes are not known here");
      }
      SubExp k = *kk;
      Val xs = args.value(args.size - 1);
      SubExp w = shape_of(xs[0])[0];
      Val a = outer_slice(xs, i64c(0), k, true, true, span);
      Val c = outer_slice(xs, k, w, true, false, span);
      a.insert(a.end(), c.begin(), c.end());
      return a;
    }
    case ArrayBuiltin::Reverse: {
      Val xs = args.value(0);
      SubExp w = shape_of(xs[0])[0];
      std::vector<SliceDim> dims{SliceDim{false, sub(w, i64c(1)), w, i64c(-1)}};
      Val out;
      for (const SubExp &c : xs) out.push_back(slice_view(c, dims, span));
      return out;
    }
    case ArrayBuiltin::Transpose: {
      Val xs = args.value(0);
      Val out;
      for (const SubExp &c : xs) {
        CType t = type_of(c);
        Val sh = shape_of(c);
        core::Exp r = exp(ExpKind::Rearrange, {}, span);
        r.arrays = {c.var};
        for (int d = 0; d < t.rank; d++) r.perm.push_back(d == 0 ? 1 : d == 1 ? 0 : d);
        std::swap(sh[0], sh[1]);
        out.push_back(emit1(std::move(r), t, sh, "transposed"));
      }
      return out;
    }
    case ArrayBuiltin::Concat: return concat(args.value(0), args.value(1), span);
    case ArrayBuiltin::Rotate: {
      SubExp r = to_i64(args.value(0)[0]);
      Val xs = args.value(1);
      SubExp w = shape_of(xs[0])[0];
      SubExp safe = prim_fn(PrimFn::Max, w, i64c(1));
      SubExp k = binop(BinOp::Mod, r, safe, PrimType::I64);
      std::vector<SliceDim> back{SliceDim{false, k, sub(w, k), i64c(1)}};
      std::vector<SliceDim> front{SliceDim{false, i64c(0), k, i64c(1)}};
      Val a, c;
      for (const SubExp &x : xs) {
        a.push_back(slice_view(x, back, span));
        c.push_back(slice_view(x, front, span));
      }
      Val out;
      for (size_t i = 0; i < xs.size(); i++) out.push_back(concat1(a[i], c[i], w, span));
      return out;
    }
    case ArrayBuiltin::Flatten: {
      Val xs = args.value(0);
      Val out;
      for (const SubExp &c : xs) {
        Val sh = shape_of(c);
        Val nsh{mul(sh[0], sh[1])};
        nsh.insert(nsh.end(), sh.begin() + 2, sh.end());
        out.push_back(reshape(c, nsh, span));
      }
      return out;
    }
    case ArrayBuiltin::Unflatten: {
      Val xs = args.value(args.size - 1);
      std::optional<SubExp> n, m;
      if (args.size == 3) {
        n = to_i64(args.value(0)[0]);
        m = to_i64(args.value(1)[0]);
      } else if (type.is_array() && type.dims.size() >= 2) {
        n = resolve_dim(type.dims[0], span);
        m = resolve_dim(type.dims[1], span);
        const Type *at = args.type(0);
        if ((!n || !m) && at && at->is_array() && at->dims[0].kind == Dim::Var) {
          if (auto parts = split_size_text(at->dims[0].name, '*')) {
            n = size_expression(parts->first, span);
            m = size_expression(parts->second, span);
          }
        }
      }
      if (!n || !m) unsupported(span, "unflatten whose sizes are not known here");
      SubExp w = shape_of(xs[0])[0];
      SubExp ok = land(land(le(i64c(0), *n), le(i64c(0), *m)), eq(mul(*n, *m), w));
      emit_check(FailureKind::Size, span, "Cannot unflatten array of shape [{}] to array of shape [{}][{}]",
                 ok, {w, *n, *m});
      Val out;
      for (const SubExp &c : xs) {
        Val sh = shape_of(c);
        Val nsh{*n, *m};
        nsh.insert(nsh.end(), sh.begin() + 1, sh.end());
        out.push_back(reshape(c, nsh, span));
      }
      return out;
    }
    case ArrayBuiltin::All: case ArrayBuiltin::Any: {
      Fn f = args.fn(0);
      Val xs = args.value(1);
      SubExp w = shape_of(xs[0])[0];
      Val flags = map_rows(xs, w, [&](const Val &row) { return apply_fn(f, {row}, span); }, span);
      bool all = b == ArrayBuiltin::All;
      return {reduce_bool(flags[0], w, all ? BinOp::LogAnd : BinOp::LogOr, all, span)};
    }
    case ArrayBuiltin::Scatter: {
      Val dest = args.value(0);
      Val is = args.value(1);
      Val vs = args.value(2);
      same_widths({is, vs}, name, span);
      Val out;
      SubExp is64 = to_i64_array(is[0], span);
      for (size_t k = 0; k < dest.size(); k++) {
        // Rows: each value's shape must be the destination's row shape (as for `a with
        // [i] = row`).
        Val ds = shape_of(dest[k]), vsh = shape_of(vs[k]);
        Val drow(ds.begin() + 1, ds.end()), vrow(vsh.begin() + 1, vsh.end());
        if (!same_shape(drow, vrow)) {
          SubExp ok = SubExp::of_const(PrimValue::boolean(true));
          for (size_t d = 0; d < drow.size(); d++) ok = land(ok, eq(drow[d], vrow[d]));
          emit_check(FailureKind::Size, span, "Shape of slice does not match shape of value.", ok);
        }
        core::Exp x = exp(ExpKind::Scatter, {}, span);
        x.arrays = {dest[k].var, is64.var, vs[k].var};
        out.push_back(emit1(std::move(x), type_of(dest[k]), shape_of(dest[k]), "scatter"));
      }
      return out;
    }
    case ArrayBuiltin::ReduceByIndex: case ArrayBuiltin::Hist: {
      bool rbi = b == ArrayBuiltin::ReduceByIndex;
      Val dest;
      Fn f = args.fn(rbi ? 1 : 0);
      Val ne = args.value(rbi ? 2 : 1);
      if (rbi) {
        dest = args.value(0);
      } else {
        SubExp k = to_i64(args.value(2)[0]);
        count_check(k, span);
        for (const SubExp &c : ne) {
          Val sh = shape_of(c);
          sh.insert(sh.begin(), k);
          dest.push_back(emit1(exp(ExpKind::Replicate, {k, c}, span),
                               CType{type_of(c).prim, type_of(c).rank + 1}, sh, "rep"));
        }
      }
      Val is = args.value(3);
      Val vs = args.value(4);
      same_widths({is, vs}, name, span);
      core::Exp x = exp(ExpKind::Hist, ne, span);
      for (const SubExp &c : dest) x.arrays.push_back(c.var);
      x.arrays.push_back(to_i64_array(is[0], span).var);
      for (const SubExp &c : vs) x.arrays.push_back(c.var);
      x.lambda = std::make_unique<core::Lambda>();
      Val acc = row_params(dest, x.lambda->params);
      Val el = row_params(vs, x.lambda->params);
      auto body = lower_body([&] { return operator_result(apply_fn(f, {acc, el}, span), acc, span); });
      x.lambda->body = std::move(*body);
      std::vector<CType> types;
      std::vector<Val> shapes;
      for (const SubExp &c : dest) {
        types.push_back(type_of(c));
        shapes.push_back(shape_of(c));
      }
      return emit(std::move(x), types, shapes, "hist");
    }
    case ArrayBuiltin::Filter: case ArrayBuiltin::Partition:
      return filter(args, b == ArrayBuiltin::Partition, span);
    default: break;
    }
    unsupported(span, std::string("'") + name + "'");
  }

  // The result of an operator (of reduce, scan, reduce_by_index): its arrays must have
  // the shapes of `like` (the neutral element's), which the compiled code relies on.
  Val operator_result(const Val &r, const Val &like, const Span &span) {
    for (size_t k = 0; k < r.size() && k < like.size(); k++) {
      Val a = shape_of(r[k]), b = shape_of(like[k]);
      if (a.empty() || same_shape(a, b)) continue;
      SubExp ok = SubExp::of_const(PrimValue::boolean(a.size() == b.size()));
      for (size_t d = 0; d < a.size() && d < b.size(); d++) ok = land(ok, eq(a[d], b[d]));
      emit_check(FailureKind::Size, span,
                 escape_template_text("shape of element differs from shape of first element"), ok);
    }
    return r;
  }

  // e :> t: each size of t that is known here must equal the value's (the
  // interpreter's check_coercion and message).
  Val lower_coerce(const Expr &e) {
    Val v = lower(*e.args[0]);
    coerce_check(*e.annotation, *e.annotation, v, 0, e.span);
    // From here on the value has the sizes it was checked to have (`xs[i:i+3] :> [3]i32`
    // in a map's function: the rows no longer depend on the element).
    for (SubExp &c : v) {
      auto to = c.is_var() ? coerced_.find(c.var) : coerced_.end();
      if (to == coerced_.end() || same_shape(to->second, shape_of(c))) continue;
      c = emit1(exp(ExpKind::SubExp, {c}, e.span), type_of(c), to->second, "coerced");
    }
    return v;
  }

  void coerce_check(const Type &t, const Type &whole, const Val &v, size_t off, const Span &span) {
    if (t.is_tuple()) {
      for (const Type &el : t.elems) {
        coerce_check(el, el, v, off, span);
        off += count(el);
      }
      return;
    }
    if (!t.is_array() || count(t) == 0 || off >= v.size()) return;
    Val shape = shape_of(v[off]);
    SubExp ok = SubExp::of_const(PrimValue::boolean(true));
    bool any = false;
    // "Value of (desugared) shape [a][b] cannot match shape of type \"[n][m]i32\"."
    std::string type_tmpl;
    Val type_args;
    std::vector<std::optional<SubExp>> wants;
    for (size_t d = 0; d < t.dims.size() && d < shape.size(); d++) {
      std::optional<SubExp> want = resolve_dim(t.dims[d], span);
      wants.push_back(want);
      if (!want) {
        type_tmpl += "[" + escape_template_text(t.dims[d].str()) + "]";
        continue;
      }
      type_tmpl += "[{}]";
      type_args.push_back(*want);
      SubExp same_d = eq(*want, shape[d]);
      // Inner sizes of an empty array are not checked (the interpreter's Note).
      if (d > 0) same_d = lor(same_d, eq(shape[d - 1], i64c(0)));
      ok = land(ok, same_d);
      any = true;
    }
    if (!any) return;
    Type elem = t.element();
    std::string tmpl = "Value of (desugared) shape ";
    for (size_t d = 0; d < shape.size(); d++) tmpl += "[{}]";
    tmpl += " cannot match shape of type \"" + type_tmpl + escape_template_text(elem.str()) + "\".";
    Val args = shape;
    args.insert(args.end(), type_args.begin(), type_args.end());
    emit_check(FailureKind::Size, span, tmpl, ok, args);
    (void)whole;
    // The sizes the value has from here on (lower_coerce).
    for (size_t k = off; k < off + count(t) && k < v.size(); k++) {
      if (!v[k].is_var()) continue;
      Val to = shape_of(v[k]);
      for (size_t d = 0; d < wants.size() && d < to.size(); d++)
        if (wants[d]) to[d] = *wants[d];
      coerced_[v[k].var] = to;
    }
  }

  // The row of each component at i (no check: callers check).
  Val row_at(const Val &xs, SubExp i, const Span &span) {
    Val row;
    for (const SubExp &c : xs) {
      core::Exp ix = exp(ExpKind::Index, {i}, span);
      ix.arrays = {c.var};
      Val sh = shape_of(c);
      row.push_back(emit1(std::move(ix), CType{type_of(c).prim, type_of(c).rank - 1},
                          Val(sh.begin() + 1, sh.end()), "row"));
    }
    return row;
  }

  // Fresh loop parameters for `x`, one per initial value (types and shapes of the
  // loop's results alongside).
  Val new_loop_params(core::Exp &x, const Val &init, std::vector<CType> &types,
                      std::vector<Val> &shapes, const char *name) {
    Val params;
    for (const SubExp &i : init) {
      types.push_back(type_of(i));
      shapes.push_back(shape_of(i));
      int v = new_var(name, type_of(i), shape_of(i));
      x.loop_params.push_back(v);
      params.push_back(SubExp::of_var(v));
    }
    return params;
  }

  // loop acc = init for i < n do body(acc, i)
  Val for_loop(const Val &init, SubExp n, const std::function<Val(const Val &, SubExp)> &body_f,
               const Span &span) {
    core::Exp x = exp(ExpKind::Loop, init, span);
    std::vector<CType> types;
    std::vector<Val> shapes;
    Val params = new_loop_params(x, init, types, shapes, "acc");
    x.loop_var = new_var("i", CType{PrimType::I64, 0});
    x.args.push_back(n);
    auto body = lower_body([&] { return body_f(params, SubExp::of_var(x.loop_var)); });
    for (size_t i = 0; i < init.size(); i++)
      if (!same_shape(shape_of(body->result[i]), shapes[i]))
        unsupported(span, "folds whose arrays may change size");
    x.bodies.push_back(std::move(body));
    return emit(std::move(x), types, shapes, "fold");
  }

  // map over the rows of xs (all components), width w.
  Val map_rows(const Val &xs, SubExp w, const std::function<Val(const Val &)> &f, const Span &span) {
    core::Exp x = exp(ExpKind::Map, {w}, span);
    x.lambda = std::make_unique<core::Lambda>();
    Val row = row_params(xs, x.lambda->params);
    for (const SubExp &c : xs) x.arrays.push_back(c.var);
    auto body = lower_body([&] { return f(row); });
    std::vector<CType> types;
    std::vector<Val> shapes;
    map_result_types(*x.lambda, *body, w, [&] { return f(row_at(xs, i64c(0), span)); }, types, shapes,
                     span);
    x.lambda->body = std::move(*body);
    return emit(std::move(x), types, shapes, "map");
  }

  // reduce (&&) true / (||) false over a bool array.
  SubExp reduce_bool(SubExp flags, SubExp w, BinOp op, bool ne, const Span &span) {
    core::Exp x = exp(ExpKind::Reduce, {w, SubExp::of_const(PrimValue::boolean(ne))}, span);
    x.arrays = {flags.var};
    x.lambda = std::make_unique<core::Lambda>();
    int a = new_var("a", CType{PrimType::Bool, 0}), c = new_var("b", CType{PrimType::Bool, 0});
    x.lambda->params = {a, c};
    auto body = lower_body([&] { return Val{binop(op, SubExp::of_var(a), SubExp::of_var(c), PrimType::Bool)}; });
    x.lambda->body = std::move(*body);
    return emit1(std::move(x), CType{PrimType::Bool, 0}, {}, "all");
  }

  // An index array as i64 (scatter and hist take i64 indices).
  SubExp to_i64_array(SubExp is, const Span &span) {
    if (type_of(is).prim == PrimType::I64) return is;
    SubExp w = shape_of(is)[0];
    return map_rows({is}, w, [&](const Val &r) { return Val{to_i64(r[0])}; }, span)[0];
  }

  SubExp reshape(SubExp c, const Val &shape, const Span &span) {
    core::Exp x = exp(ExpKind::Reshape, shape, span);
    x.arrays = {c.var};
    return emit1(std::move(x), CType{type_of(c).prim, int(shape.size())}, shape, "reshaped");
  }

  // a ++ b (checked: inner sizes must agree).
  Val concat(const Val &a, const Val &b, const Span &span) {
    Val sa = shape_of(a[0]), sb = shape_of(b[0]);
    SubExp rows = add(sa[0], sb[0]);
    if (!same_shape(Val(sa.begin() + 1, sa.end()), Val(sb.begin() + 1, sb.end()))) {
      SubExp ok = SubExp::of_const(PrimValue::boolean(sa.size() == sb.size()));
      for (size_t d = 1; d < sa.size() && d < sb.size(); d++) ok = land(ok, eq(sa[d], sb[d]));
      std::string tmpl = "Sizes of the arguments of concat do not match: ";
      Val args;
      for (const Val *sh : {&sa, &sb}) {
        for (size_t d = 0; d < sh->size(); d++) tmpl += "[{}]";
        args.insert(args.end(), sh->begin(), sh->end());
        if (sh == &sa) tmpl += " and ";
      }
      emit_check(FailureKind::Size, span, tmpl + ".", ok, args);
    }
    Val out;
    for (size_t k = 0; k < a.size(); k++) out.push_back(concat1(a[k], b[k], rows, span));
    return out;
  }

  SubExp concat1(SubExp a, SubExp b, SubExp rows, const Span &span) {
    core::Exp x = exp(ExpKind::Concat, {}, span);
    x.arrays = {a.var, b.var};
    Val sh = shape_of(a);
    sh[0] = rows;
    return emit1(std::move(x), type_of(a), sh, "concat");
  }

  // filter p xs / partition p xs: flags, an inclusive scan of them for positions, and
  // scatters into arrays of the counted sizes (the count is read on the host); rows of
  // arrays of arrays are scattered whole.
  Val filter(const BuiltinArgs &args, bool partition, const Span &span) {
    Fn f = args.fn(0);
    Val xs = args.value(1);
    SubExp w = shape_of(xs[0])[0];
    SubExp flags = map_rows(xs, w, [&](const Val &row) {
      return Val{convert(apply_fn(f, {row}, span)[0], PrimType::I64)};
    }, span)[0];
    core::Exp sc = exp(ExpKind::Scan, {w, i64c(0)}, span);
    sc.arrays = {flags.var};
    sc.lambda = std::make_unique<core::Lambda>();
    int a = new_var("a", CType{PrimType::I64, 0}), c = new_var("b", CType{PrimType::I64, 0});
    sc.lambda->params = {a, c};
    auto body = lower_body([&] { return Val{add(SubExp::of_var(a), SubExp::of_var(c))}; });
    sc.lambda->body = std::move(*body);
    SubExp pos = emit1(std::move(sc), CType{PrimType::I64, 1}, {w}, "offsets");
    // The number kept: the last offset (0 for an empty array).
    SubExp last = sub(w, i64c(1));
    SubExp nonempty = lt(i64c(0), w);
    Val kept = lower_if(nonempty, [&] { return row_at({pos}, last, span); },
                        [&] { return Val{i64c(0)}; }, span);
    SubExp count = kept[0];
    Val out;
    auto scatter_to = [&](SubExp size, const std::function<Val(const Val &)> &idx) {
      SubExp is = map_iota(w, [&](SubExp i) {
        Val fl = row_at({flags, pos}, i, span);
        return idx(Val{fl[0], fl[1], i});
      }, span, "where")[0];
      for (const SubExp &x : xs) {
        // Arrays of arrays: whole rows are scattered into a blank [size][rows' shape].
        Val sh = shape_of(x);
        sh[0] = size;
        SubExp dest = SubExp::of_const(convert_prim(PrimValue::signed_int(PrimType::I64, 0), type_of(x).prim));
        for (size_t d = sh.size(); d-- > 0;)
          dest = emit1(exp(ExpKind::Replicate, {sh[d], dest}, span),
                       CType{type_of(x).prim, int(sh.size() - d)}, Val(sh.begin() + d, sh.end()),
                       "dest");
        core::Exp s = exp(ExpKind::Scatter, {}, span);
        s.arrays = {dest.var, is.var, x.var};
        out.push_back(emit1(std::move(s), type_of(x), sh, partition ? "part" : "filtered"));
      }
    };
    // kept: pos - 1 where flag, else -1
    scatter_to(count, [&](const Val &r) {
      return Val{select(eq(r[0], i64c(1)), sub(r[1], i64c(1)), i64c(-1))};
    });
    if (partition) {
      SubExp rest = sub(w, count);
      // rejected element i goes to i - pos[i] (the number of rejected before it).
      scatter_to(rest, [&](const Val &r) {
        return Val{select(eq(r[0], i64c(0)), sub(r[2], r[1]), i64c(-1))};
      });
    }
    return out;
  }

  // iota and replicate of a negative count fail as Futhark's prelude does.
  void count_check(SubExp n, const Span &span) {
    if (!n.is_var() && n.constant.bits.i >= 0) return;
    SubExp ok = binop(BinOp::Ge, n, SubExp::i64(0), PrimType::Bool);
    emit_check(FailureKind::Range, span, "Range {}..{}..<{} is invalid.", ok,
               {SubExp::i64(0), SubExp::i64(1), n});
  }

  const Program &src_;
  core::Program p_;
  Body *cur_ = nullptr;
  std::vector<std::pair<std::string, Val>> env_;
  size_t frame_ = 0;
  std::vector<std::string> unsafe_at_; // the #[unsafe] attributes around (innermost last)
  std::map<int, SubExp> alias_; // size variables known (checked) equal to another
  std::unordered_set<int> known_sizes_; // variables that are some array's size (new_var)
  // Top-level constants computed in the bodies being lowered, by the #[unsafe] that
  // covers them ("" for none), and the order they were computed in (Note [Top-level
  // constants]).
  using ConstantKey = std::pair<const FunDef *, std::string>;
  std::map<ConstantKey, Val> constants_;
  std::vector<ConstantKey> constant_log_;
  // Arrays coerced (`:>`) to other sizes: the sizes they have after the check (lower_coerce
  // binds them again with these).
  std::map<int, Val> coerced_;
};

} // namespace

core::Program lower_to_core(const Program &program, const std::vector<const FunDef *> &entries) {
  return Lowerer(program).run(entries);
}

} // namespace kerb
