// Out-of-line helpers of the AST (ast.h): node construction, operator spelling, and
// looking up a top-level definition by name.
#include "compiler/ast.h"

namespace kerb {

ExprPtr make_expr(ExprKind k, Span s) { return std::make_unique<Expr>(k, s); }

namespace {
// Moves e's children into `out`, leaving e without any.
void take_children(Expr &e, std::vector<ExprPtr> &out) {
  for (ExprPtr &a : e.args)
    if (a) out.push_back(std::move(a));
  for (IndexPart &p : e.indices)
    for (ExprPtr *q : {&p.index, &p.start, &p.end, &p.stride})
      if (*q) out.push_back(std::move(*q));
}
} // namespace

Expr::~Expr() {
  std::vector<ExprPtr> pending;
  take_children(*this, pending);
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    take_children(*e, pending);
  } // e is destroyed here, childless
}

const char *binop_text(BinOp op) {
  switch (op) {
  case BinOp::Add: return "+";
  case BinOp::Sub: return "-";
  case BinOp::Mul: return "*";
  case BinOp::Div: return "/";
  case BinOp::Mod: return "%";
  case BinOp::Quot: return "//";
  case BinOp::Rem: return "%%";
  case BinOp::Pow: return "**";
  case BinOp::Eq: return "==";
  case BinOp::Neq: return "!=";
  case BinOp::Lt: return "<";
  case BinOp::Le: return "<=";
  case BinOp::Gt: return ">";
  case BinOp::Ge: return ">=";
  case BinOp::LogAnd: return "&&";
  case BinOp::LogOr: return "||";
  case BinOp::BitAnd: return "&";
  case BinOp::BitOr: return "|";
  case BinOp::BitXor: return "^";
  case BinOp::Shl: return "<<";
  case BinOp::Shr: return ">>";
  case BinOp::UShr: return ">>>";
  case BinOp::Concat: return "++";
  }
  KERB_ASSERT(false, "unknown binary operator");
  return "?";
}

FunDef *Program::find(const std::string &name) const {
  for (const auto &def : defs)
    if (def->name == name)
      return def.get();
  return nullptr;
}

} // namespace kerb
