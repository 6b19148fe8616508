// Expanding `==` and `!=` on tuples and arrays (expand_equality.h). Runs after records
// and sum types are tuples.
//
//   a == b  (tuples)  ==>  let x = a let y = b in x.0 == y.0 && x.1 == y.1 ...
//   a == b  (arrays)  ==>  let x = a let y = b in length x == length y
//                                                 && all (\(u, v) -> u == v) (zip x y)
// with the element comparison expanded in turn; `a != b` is `!(a == b)`. `&&` does not
// evaluate its right side when its left is false, so arrays of other lengths are never
// zipped.
#include "compiler/elim/expand_equality.h"

#include "compiler/elim/build.h"

namespace kerb {

namespace {

ExprPtr builtin(const char *name, ArrayBuiltin b, std::vector<ExprPtr> args, const Span &span) {
  ExprPtr e = make_expr(ExprKind::Apply, span);
  e->name = name;
  e->callee = Callee::ArrayBuiltin;
  e->array_builtin = b;
  e->args = std::move(args);
  return e;
}

class Expander {
public:
  explicit Expander(NameSource &names) : names_(names) {}

  void expr(ExprPtr &ep) {
    Expr &e = *ep;
    for_each_child(e, [&](ExprPtr &x) { expr(x); });
    if (e.kind != ExprKind::Binary || (e.binop != BinOp::Eq && e.binop != BinOp::Neq)) return;
    Type t = e.args[0]->type;
    if (t.is_prim()) return;
    ExprPtr eq = equal(std::move(e.args[0]), std::move(e.args[1]), t, e.span);
    if (e.binop == BinOp::Neq) {
      ExprPtr n = make_expr(ExprKind::Unary, e.span);
      n->unop = UnOp::Not;
      n->type = Type::prim_type(PrimType::Bool);
      n->args.push_back(std::move(eq));
      eq = std::move(n);
    }
    ep = std::move(eq);
  }

private:
  NameSource &names_;

  // a == b for values of type t.
  ExprPtr equal(ExprPtr a, ExprPtr b, const Type &t, const Span &span) {
    if (t.is_prim()) return bool_binary(BinOp::Eq, std::move(a), std::move(b), span);
    std::string x = names_.fresh("lhs"), y = names_.fresh("rhs");
    Lets lets;
    lets.push_back({x, std::move(a)});
    lets.push_back({y, std::move(b)});
    ExprPtr body;
    if (t.is_tuple()) {
      if (t.elems.empty()) {
        body = prim_literal(PrimType::Bool, 1, span);
      } else {
        for (size_t i = 0; i < t.elems.size(); i++) {
          ExprPtr c = equal(project_expr(var_expr(x, span, t), int(i), span),
                            project_expr(var_expr(y, span, t), int(i), span), t.elems[i], span);
          body = body ? bool_binary(BinOp::LogAnd, std::move(body), std::move(c), span) : std::move(c);
        }
      }
    } else {
      KERB_ASSERT(t.is_array(), "expand_equality: equality of a type that is no tuple or array");
      std::vector<ExprPtr> la, lb;
      la.push_back(var_expr(x, span, t));
      lb.push_back(var_expr(y, span, t));
      ExprPtr lengths = bool_binary(BinOp::Eq, builtin("length", ArrayBuiltin::Length, std::move(la), span),
                               builtin("length", ArrayBuiltin::Length, std::move(lb), span), span);
      std::string u = names_.fresh("u"), v = names_.fresh("v");
      Type row = t.row();
      ExprPtr lam = make_expr(ExprKind::Lambda, span);
      Pattern pair;
      pair.kind = Pattern::Tuple;
      pair.span = span;
      pair.elems = {id_pattern(u, span, std::nullopt), id_pattern(v, span, std::nullopt)};
      lam->params.push_back(std::move(pair));
      lam->args.push_back(equal(var_expr(u, span, row), var_expr(v, span, row), row, span));
      std::vector<ExprPtr> zargs;
      zargs.push_back(var_expr(x, span, t));
      zargs.push_back(var_expr(y, span, t));
      std::vector<ExprPtr> aargs;
      aargs.push_back(std::move(lam));
      aargs.push_back(builtin("zip", ArrayBuiltin::Zip, std::move(zargs), span));
      body = bool_binary(BinOp::LogAnd, std::move(lengths), builtin("all", ArrayBuiltin::All, std::move(aargs), span),
                    span);
    }
    return wrap_lets(std::move(lets), std::move(body));
  }
};

} // namespace

void expand_equality(Program &program, NameSource &names) {
  Expander x(names);
  for (auto &d : program.defs) x.expr(d->body);
}

} // namespace kerb
