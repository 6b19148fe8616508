// Parameter annotations, literal types, empty arrays and unflatten_3d/4d for the
// first-order checker (finish_first_order.h).
#include "compiler/elim/finish_first_order.h"

#include "compiler/elim/build.h"

namespace kerb {

namespace {

// unflatten_3d xs = unflatten (unflatten xs), unflatten_4d xs = unflatten (unflatten
// (unflatten xs)): the first-order checker gives each unflatten of an [a * b]t the sizes
// [a][b]t, so those of [n * m * l]t come out as [n][m][l]t (check_first_order.cpp).
void expand_unflatten(ExprPtr &ep) {
  Expr &e = *ep;
  if (e.kind != ExprKind::Apply || e.callee != Callee::ArrayBuiltin || e.args.size() != 1) return;
  int inner = e.array_builtin == ArrayBuiltin::Unflatten3d   ? 1
              : e.array_builtin == ArrayBuiltin::Unflatten4d ? 2
                                                             : -1;
  if (inner < 0) return;
  ExprPtr xs = std::move(e.args[0]);
  for (int k = 0; k <= inner; k++) {
    ExprPtr u = make_expr(ExprKind::Apply, e.span);
    u->name = "unflatten";
    u->callee = Callee::ArrayBuiltin;
    u->array_builtin = ArrayBuiltin::Unflatten;
    if (xs->type.is_array()) {
      std::vector<Dim> dims{Dim::unknown(), Dim::unknown()};
      dims.insert(dims.end(), xs->type.dims.begin() + 1, xs->type.dims.end());
      u->type = Type::array(xs->type.element(), dims);
    }
    u->args.push_back(std::move(xs));
    xs = std::move(u);
  }
  xs->type = e.type;
  ep = std::move(xs);
}

void expr(ExprPtr &ep) {
  Expr &e = *ep;
  for_each_child(e, [&](ExprPtr &x) { expr(x); });
  expand_unflatten(ep);
  if (ep.get() != &e) return;
  // A literal keeps the type inference gave it (`for i < 10 do xs with [i] = i`: 10 is
  // an i32 there, which the first-order checker's own defaulting would not find).
  if (!e.suffix && e.type.kind == Type::Prim &&
      ((e.kind == ExprKind::IntLit && is_int(e.type.prim)) ||
       (e.kind == ExprKind::FloatLit && is_float(e.type.prim))))
    e.suffix = e.type.prim;
  if (e.kind == ExprKind::ArrayLit && e.args.empty()) {
    ExprPtr z = zero_value(e.type, e.span);
    ep = std::move(z);
  }
}

} // namespace

void finish_first_order(Program &program) {
  for (auto &d : program.defs) {
    for (Pattern &p : d->params)
      if (!p.annotation) p.annotation = erase_dims(p.type);
    expr(d->body);
  }
}

} // namespace kerb
