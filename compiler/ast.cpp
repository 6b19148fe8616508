// Out-of-line helpers of the AST (ast.h): node construction and copying, operator
// spelling, and looking up a top-level definition by name.
#include "compiler/ast.h"

#include <map>

namespace kerb {

ExprPtr make_expr(ExprKind k, Span s) { return std::make_unique<Expr>(k, s); }

ExprPtr binary_expr(BinOp op, ExprPtr a, ExprPtr b, Type type, const Span &span) {
  ExprPtr e = make_expr(ExprKind::Binary, span);
  e->binop = op;
  e->type = std::move(type);
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr bool_binary(BinOp op, ExprPtr a, ExprPtr b, const Span &span) {
  return binary_expr(op, std::move(a), std::move(b), Type::prim_type(PrimType::Bool), span);
}

namespace {

// A copy of `f`, whose body's references to local functions copied on the way point to
// the copies (`copies`: original -> copy).
std::unique_ptr<FunDef> clone_fundef_in(const FunDef &f, std::map<const FunDef *, FunDef *> &copies);

ExprPtr clone_in(const Expr &e, std::map<const FunDef *, FunDef *> &copies) {
  ExprPtr c = make_expr(e.kind, e.span);
  c->type = e.type;
  // The local function first: the rest of the LetFun refers to it.
  if (e.fundef) {
    c->fundef = clone_fundef_in(*e.fundef, copies);
    copies[e.fundef.get()] = c->fundef.get();
  }
  for (const ExprPtr &a : e.args) c->args.push_back(a ? clone_in(*a, copies) : nullptr);
  c->int_value = e.int_value;
  c->float_value = e.float_value;
  c->bool_value = e.bool_value;
  c->suffix = e.suffix;
  c->name = e.name;
  c->binop = e.binop;
  c->unop = e.unop;
  c->section_left = e.section_left;
  c->pipe_left = e.pipe_left;
  c->pattern = e.pattern;
  c->pattern2 = e.pattern2;
  c->params = e.params;
  c->size_params = e.size_params;
  c->fields = e.fields;
  c->loop_form = e.loop_form;
  c->range_kind = e.range_kind;
  for (const IndexPart &p : e.indices) {
    IndexPart q;
    q.is_slice = p.is_slice;
    q.span = p.span;
    if (p.index) q.index = clone_in(*p.index, copies);
    if (p.start) q.start = clone_in(*p.start, copies);
    if (p.end) q.end = clone_in(*p.end, copies);
    if (p.stride) q.stride = clone_in(*p.stride, copies);
    c->indices.push_back(std::move(q));
  }
  c->field = e.field;
  c->annotation = e.annotation;
  c->callee = e.callee;
  auto it = copies.find(e.fun);
  c->fun = it != copies.end() ? it->second : e.fun;
  c->type_args = e.type_args;
  c->array_builtin = e.array_builtin;
  c->prim_builtin = e.prim_builtin;
  return c;
}

std::unique_ptr<FunDef> clone_fundef_in(const FunDef &f, std::map<const FunDef *, FunDef *> &copies) {
  auto c = std::make_unique<FunDef>();
  c->is_entry = f.is_entry;
  c->is_unsafe = f.is_unsafe;
  c->is_local = f.is_local;
  c->from_prelude = f.from_prelude;
  c->name = f.name;
  c->span = f.span;
  c->name_span = f.name_span;
  c->size_params = f.size_params;
  c->type_params = f.type_params;
  c->params = f.params;
  c->ret_annotation = f.ret_annotation;
  if (f.body) c->body = clone_in(*f.body, copies);
  c->ret_type = f.ret_type;
  c->specified = f.specified;
  c->abstract_result = f.abstract_result;
  return c;
}

} // namespace

ExprPtr clone_expr(const Expr &e) {
  std::map<const FunDef *, FunDef *> copies;
  return clone_in(e, copies);
}

std::unique_ptr<FunDef> clone_fundef(const FunDef &f) {
  std::map<const FunDef *, FunDef *> copies;
  return clone_fundef_in(f, copies);
}

namespace {
// Moves e's children into `out`, leaving e without any.
void take_children(Expr &e, std::vector<ExprPtr> &out) {
  for (ExprPtr &a : e.args)
    if (a) out.push_back(std::move(a));
  for (IndexPart &p : e.indices)
    for (ExprPtr *q : {&p.index, &p.start, &p.end, &p.stride})
      if (*q) out.push_back(std::move(*q));
  if (e.fundef && e.fundef->body) out.push_back(std::move(e.fundef->body));
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
  // The last definition of the name: a program's own definition of a prelude function's
  // name (the only redefinition the type checker allows) shadows the prelude's.
  for (auto it = defs.rbegin(); it != defs.rend(); ++it)
    if ((*it)->name == name)
      return it->get();
  return nullptr;
}

} // namespace kerb
