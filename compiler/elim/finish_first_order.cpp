// Parameter annotations, literal types and empty arrays for the first-order checker
// (finish_first_order.h).
#include "compiler/elim/finish_first_order.h"

#include "compiler/elim/build.h"

namespace kerb {

namespace {

void expr(ExprPtr &ep) {
  Expr &e = *ep;
  for_each_child(e, [&](ExprPtr &x) { expr(x); });
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
