// Binding the size parameters of lets (bind_let_sizes.h).
#include "compiler/elim/bind_let_sizes.h"

#include "compiler/elim/build.h"

#include <functional>
#include <optional>

namespace kerb {

namespace {

ExprPtr apply_builtin(const char *name, ArrayBuiltin b, ExprPtr arg, const Type &type) {
  Span span = arg->span;
  ExprPtr e = make_expr(ExprKind::Apply, span);
  e->name = name;
  e->callee = Callee::ArrayBuiltin;
  e->array_builtin = b;
  e->type = type;
  e->args.push_back(std::move(arg));
  return e;
}

// The length that size `n` names in pattern `p`, matched against `value` (a fresh
// expression each call): nullopt when no array component has it as its first or
// second dimension.
std::optional<ExprPtr> size_of(const Pattern &p, const std::string &n,
                               const std::function<ExprPtr()> &value) {
  const Type &t = p.annotation ? *p.annotation : p.type;
  if (t.kind == Type::Array) {
    for (size_t k = 0; k < 2 && k < t.dims.size(); k++) {
      if (t.dims[k].kind != Dim::Var || t.dims[k].name != n) continue;
      Type i64 = Type::prim_type(PrimType::I64);
      ExprPtr arr = value();
      if (k == 1) {
        Type tt = arr->type;
        if (tt.dims.size() >= 2) std::swap(tt.dims[0], tt.dims[1]);
        arr = apply_builtin("transpose", ArrayBuiltin::Transpose, std::move(arr), tt);
      }
      return apply_builtin("length", ArrayBuiltin::Length, std::move(arr), i64);
    }
    return std::nullopt;
  }
  if (p.kind != Pattern::Tuple && p.kind != Pattern::Record) return std::nullopt;
  for (size_t i = 0; i < p.elems.size(); i++) {
    const Pattern &e = p.elems[i];
    auto part = [&]() -> ExprPtr {
      ExprPtr whole = value();
      if (p.kind == Pattern::Tuple) {
        ExprPtr x = project_expr(std::move(whole), int(i), e.span);
        x->type = e.type;
        return x;
      }
      ExprPtr x = make_expr(ExprKind::Field, e.span);
      x->name = p.fields[i];
      x->type = e.type;
      x->args.push_back(std::move(whole));
      return x;
    };
    if (auto s = size_of(e, n, part)) return s;
  }
  return std::nullopt;
}

void expr(ExprPtr &ep, NameSource &names) {
  Expr &e = *ep;
  for_each_child(e, [&](ExprPtr &x) { expr(x, names); });
  if (e.fundef) expr(e.fundef->body, names);
  if (e.kind != ExprKind::Let || e.size_params.empty()) return;

  // Every size must be found, or the let stays as it is (and is reported later).
  std::string v = names.fresh("sized");
  Type vt = e.args[0]->type;
  Span span = e.span;
  auto value = [&] { return var_expr(v, span, vt); };
  Lets lets;
  for (const std::string &n : e.size_params) {
    std::optional<ExprPtr> s = size_of(e.pattern, n, value);
    if (!s) return;
    lets.push_back({n, std::move(*s)});
  }
  ExprPtr inner = make_expr(ExprKind::Let, span);
  inner->pattern = std::move(e.pattern);
  inner->type = e.type;
  inner->args.push_back(value());
  inner->args.push_back(std::move(e.args[1]));
  ExprPtr sizes = wrap_lets(std::move(lets), std::move(inner));
  ExprPtr outer = make_expr(ExprKind::Let, span);
  outer->pattern = id_pattern(v, span, std::nullopt);
  outer->pattern.type = vt;
  outer->type = e.type;
  outer->args.push_back(std::move(e.args[0]));
  outer->args.push_back(std::move(sizes));
  ep = std::move(outer);
}

} // namespace

void bind_let_sizes(Program &program, NameSource &names) {
  for (auto &d : program.defs) expr(d->body, names);
}

} // namespace kerb
