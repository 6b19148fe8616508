// The AST constructors of build.h.
#include "compiler/elim/build.h"

namespace kerb {

ExprPtr var_expr(const std::string &name, const Span &span, const Type &type) {
  ExprPtr v = make_expr(ExprKind::Var, span);
  v->name = name;
  v->type = type;
  v->callee = Callee::Local;
  return v;
}

ExprPtr tuple_expr(std::vector<ExprPtr> elems, const Span &span) {
  if (elems.size() == 1) return std::move(elems[0]);
  ExprPtr t = make_expr(ExprKind::Tuple, span);
  std::vector<Type> types;
  for (const ExprPtr &e : elems) types.push_back(e->type);
  t->type = Type::tuple(std::move(types));
  t->args = std::move(elems);
  return t;
}

ExprPtr project_expr(ExprPtr e, int i, const Span &span) {
  ExprPtr p = make_expr(ExprKind::Project, span);
  if (e->type.is_tuple() && size_t(i) < e->type.elems.size()) p->type = e->type.elems[size_t(i)];
  p->field = i;
  p->name = std::to_string(i);
  p->args.push_back(std::move(e));
  return p;
}

ExprPtr prim_literal(PrimType t, int64_t v, const Span &span) {
  ExprPtr e;
  if (t == PrimType::Bool) {
    e = make_expr(ExprKind::BoolLit, span);
    e->bool_value = v != 0;
  } else if (is_float(t)) {
    e = make_expr(ExprKind::FloatLit, span);
    e->float_value = double(v);
    e->suffix = t;
  } else {
    e = make_expr(ExprKind::IntLit, span);
    e->int_value = uint64_t(v);
    e->suffix = t;
  }
  e->type = Type::prim_type(t);
  return e;
}

ExprPtr zero_value(const Type &t, const Span &span) {
  switch (t.kind) {
  case Type::Prim: return prim_literal(t.prim, 0, span);
  case Type::Tuple: {
    std::vector<ExprPtr> elems;
    for (const Type &e : t.elems) elems.push_back(zero_value(e, span));
    ExprPtr r = make_expr(ExprKind::Tuple, span);
    r->args = std::move(elems);
    r->type = t;
    return r;
  }
  case Type::Array: {
    // replicate 0 (replicate 0 ... zero): an empty array of the same rank.
    ExprPtr x = zero_value(t.element(), span);
    for (size_t i = 0; i < t.dims.size(); i++) {
      ExprPtr r = make_expr(ExprKind::Apply, span);
      r->name = "replicate";
      r->callee = Callee::ArrayBuiltin;
      r->array_builtin = ArrayBuiltin::Replicate;
      r->args.push_back(prim_literal(PrimType::I64, 0, span));
      r->args.push_back(std::move(x));
      x = std::move(r);
    }
    x->type = erase_dims(t);
    return x;
  }
  case Type::Record: {
    ExprPtr r = make_expr(ExprKind::Record, span);
    for (size_t i = 0; i < t.elems.size(); i++) {
      r->fields.push_back(t.names[i]);
      r->args.push_back(zero_value(t.elems[i], span));
    }
    r->type = t;
    return r;
  }
  case Type::Sum: {
    // The first constructor, its payload zero.
    ExprPtr c = make_expr(ExprKind::Constr, span);
    c->name = t.names[0];
    for (const Type &p : t.payloads[0]) c->args.push_back(zero_value(p, span));
    c->type = t;
    return c;
  }
  default: break;
  }
  KERB_ASSERT(false, "zero_value of a type the elimination passes remove: " + t.str());
  return nullptr;
}

Pattern id_pattern(const std::string &name, const Span &span, std::optional<Type> annotation) {
  Pattern p;
  p.kind = Pattern::Id;
  p.name = name;
  p.span = span;
  p.annotation = std::move(annotation);
  return p;
}

Pattern wildcard_pattern(const Span &span) {
  Pattern p;
  p.kind = Pattern::Wildcard;
  p.span = span;
  return p;
}

ExprPtr wrap_lets(Lets lets, ExprPtr body) {
  for (size_t i = lets.size(); i-- > 0;) {
    ExprPtr let = make_expr(ExprKind::Let, body->span);
    let->pattern = id_pattern(lets[i].first, lets[i].second->span, std::nullopt);
    let->type = body->type;
    let->args.push_back(std::move(lets[i].second));
    let->args.push_back(std::move(body));
    body = std::move(let);
  }
  return body;
}

} // namespace kerb
