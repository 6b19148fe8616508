// Replacing typed holes (replace_holes.h).
#include "compiler/elim/replace_holes.h"

#include "compiler/elim/build.h"

namespace kerb {

namespace {

// The text the failure message quotes as the assertion's condition.
const SourceFile &hole_text() {
  static const SourceFile file("<hole>", "hole");
  return file;
}

ExprPtr hole_value(const Type &t, const Span &span, NameSource &names) {
  if (t.kind == Type::Function) {
    // \x -> <hole of the result type>
    ExprPtr lam = make_expr(ExprKind::Lambda, span);
    lam->type = t;
    Pattern p = id_pattern(names.fresh("x"), span, t.elems[0]);
    p.type = t.elems[0];
    lam->params.push_back(std::move(p));
    lam->args.push_back(hole_value(t.elems[1], span, names));
    return lam;
  }
  ExprPtr cond = make_expr(ExprKind::BoolLit, Span{&hole_text(), 0, 4});
  cond->bool_value = false;
  cond->type = Type::prim_type(PrimType::Bool);
  ExprPtr a = make_expr(ExprKind::Assert, span);
  a->type = t;
  a->args.push_back(std::move(cond));
  a->args.push_back(zero_value(t, span));
  return a;
}

void expr(ExprPtr &ep, NameSource &names) {
  Expr &e = *ep;
  if (e.kind == ExprKind::Hole) {
    ep = hole_value(e.type, e.span, names);
    return;
  }
  for_each_child(e, [&](ExprPtr &x) { expr(x, names); });
  if (e.fundef) expr(e.fundef->body, names);
}

} // namespace

void replace_holes(Program &program, NameSource &names) {
  for (auto &d : program.defs) expr(d->body, names);
}

} // namespace kerb
