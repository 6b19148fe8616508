// Prints the AST as indented S-expressions (ast_printer.h), for `kerb check --emit=ast`
// and for the parser's tests. A node is `(head child child ...)`: a node with children
// puts each child on its own line, indented two more spaces. With types, every
// expression's head ends with `: type` and patterns show their checked types.
#include "compiler/syntax/ast_printer.h"

#include <fmt/format.h>

namespace kerb {
namespace {

std::string pattern_text(const Pattern &p, bool with_types) {
  std::string out;
  switch (p.kind) {
  case Pattern::Id: out = p.name; break;
  case Pattern::Wildcard: out = "_"; break;
  case Pattern::Tuple: {
    out = "(";
    for (size_t i = 0; i < p.elems.size(); i++) {
      if (i > 0)
        out += ", ";
      out += pattern_text(p.elems[i], with_types);
    }
    out += ")";
    break;
  }
  case Pattern::Record: {
    out = "{";
    for (size_t i = 0; i < p.elems.size(); i++) {
      if (i > 0)
        out += ", ";
      out += p.fields[i] + " = " + pattern_text(p.elems[i], with_types);
    }
    out += "}";
    break;
  }
  case Pattern::Constr:
    out = "#" + p.name;
    for (const Pattern &e : p.elems)
      out += " " + pattern_text(e, with_types);
    if (!p.elems.empty())
      out = "(" + out + ")";
    break;
  case Pattern::Literal: out = std::string(p.literal->span.text()); break;
  }
  if (with_types && p.kind != Pattern::Tuple && p.kind != Pattern::Record)
    return out + ": " + p.type.str();
  if (p.annotation)
    return "(" + out + ": " + p.annotation->str() + ")";
  return out;
}

const char *range_text(RangeKind k) {
  switch (k) {
  case RangeKind::UpTo: return "..";
  case RangeKind::UpToExcl: return "..<";
  case RangeKind::DownToExcl: return "..>";
  }
  return "?";
}

std::string join(const std::vector<std::string> &xs, const char *sep) {
  std::string out;
  for (size_t i = 0; i < xs.size(); i++)
    out += (i > 0 ? sep : "") + xs[i];
  return out;
}

std::string literal_suffix(const Expr &e) { return e.suffix ? prim_name(*e.suffix) : ""; }

class Printer {
public:
  explicit Printer(bool with_types) : with_types_(with_types) {}

  void expr(const Expr &e, int indent) {
    std::string head = head_of(e);
    if (with_types_)
      head += " : " + e.type.str();
    out += std::string(indent, ' ') + "(" + head;
    if (e.fundef) {
      out += '\n';
      def_text(*e.fundef, indent + 2);
    }
    for (const ExprPtr &child : e.args) {
      out += '\n';
      if (child)
        expr(*child, indent + 2);
      else
        out += std::string(indent + 2, ' ') + "_";
    }
    if (!e.indices.empty()) {
      out += '\n';
      indices(e.indices, indent + 2);
    }
    out += ")";
  }

  void indices(const std::vector<IndexPart> &parts, int indent) {
    out += std::string(indent, ' ') + "(indices";
    for (const IndexPart &p : parts) {
      out += '\n';
      if (!p.is_slice) {
        expr(*p.index, indent + 2);
        continue;
      }
      out += std::string(indent + 2, ' ') + "(slice";
      for (const ExprPtr *part : {&p.start, &p.end, &p.stride}) {
        out += '\n';
        if (*part)
          expr(**part, indent + 4);
        else
          out += std::string(indent + 4, ' ') + "_";
      }
      out += ")";
    }
    out += ")";
  }

  void def(const FunDef &d) {
    def_text(d, 0);
    out += "\n";
  }

  void type_decl(const TypeDecl &d) {
    out += "(type " + d.name;
    size_t si = 0, ti = 0;
    for (bool is_size : d.param_is_size)
      out += is_size ? " [" + d.size_params[si++] + "]" : " '" + d.type_params[ti++].name;
    out += " = " + d.definition.str() + ")\n";
  }

  void def_text(const FunDef &d, int indent) {
    out += std::string(indent, ' ') + "(";
    if (d.is_unsafe)
      out += "#[unsafe] ";
    out += d.is_entry ? "entry " : "def ";
    out += d.name;
    for (const TypeParam &t : d.type_params)
      out += std::string(" '") + (t.kind == TypeParam::Lifted ? "^" : t.kind == TypeParam::SizeLifted ? "~" : "") + t.name;
    for (const std::string &s : d.size_params)
      out += " [" + s + "]";
    for (const Pattern &p : d.params) {
      std::string text = pattern_text(p, with_types_);
      out += " " + (text.starts_with("(") ? text : "(" + text + ")");
    }
    if (with_types_)
      out += " : " + d.ret_type.str();
    else if (d.ret_annotation)
      out += " : " + d.ret_annotation->str();
    out += '\n';
    expr(*d.body, indent + 2);
    out += ")";
  }

  std::string out;

private:
  bool with_types_;

  std::string head_of(const Expr &e) const {
    switch (e.kind) {
    case ExprKind::IntLit: return fmt::format("int {}{}", e.int_value, literal_suffix(e));
    case ExprKind::FloatLit: return fmt::format("float {}{}", e.float_value, literal_suffix(e));
    case ExprKind::BoolLit: return e.bool_value ? "bool true" : "bool false";
    case ExprKind::Var: return "var " + e.name;
    case ExprKind::Tuple: return "tuple";
    case ExprKind::ArrayLit: return "array";
    case ExprKind::Unary: return e.unop == UnOp::Neg ? "neg" : "not";
    case ExprKind::Binary: return fmt::format("binop {}", binop_text(e.binop));
    case ExprKind::If: return "if";
    case ExprKind::Let: return "let " + pattern_text(e.pattern, with_types_);
    case ExprKind::Loop: {
      std::string h = "loop " + pattern_text(e.pattern, with_types_);
      switch (e.loop_form) {
      case LoopForm::For: return h + " for " + e.name + " <";
      case LoopForm::ForIn: return h + " for " + pattern_text(e.pattern2, with_types_) + " in";
      case LoopForm::While: return h + " while";
      }
      return h;
    }
    case ExprKind::Index: return "index";
    case ExprKind::Update: return "update";
    case ExprKind::Project: return fmt::format("project {}", e.field);
    case ExprKind::Apply: return "apply " + e.name;
    case ExprKind::Lambda: {
      std::string h = "lambda";
      for (const Pattern &p : e.params)
        h += " " + pattern_text(p, with_types_);
      if (e.annotation)
        h += " -> " + e.annotation->str();
      return h;
    }
    case ExprKind::OpSection: {
      std::string op = e.name.empty() ? binop_text(e.binop) : e.name;
      if (e.args.empty())
        return fmt::format("section ({})", op);
      return fmt::format("section {} {}", e.section_left ? "left" : "right", op);
    }
    case ExprKind::Ascribe: return "ascribe " + e.annotation->str();
    case ExprKind::Coerce: return "coerce " + e.annotation->str();
    case ExprKind::Assert: return "assert";
    case ExprKind::Range: return fmt::format("range {}", range_text(e.range_kind));
    case ExprKind::Unsafe: return "unsafe";
    case ExprKind::ApplyExpr: return "apply";
    case ExprKind::Constr: return "constr #" + e.name;
    case ExprKind::Match: {
      std::string h = "match";
      for (const Pattern &p : e.params)
        h += " | " + pattern_text(p, with_types_);
      return h;
    }
    case ExprKind::Record: {
      std::string h = "record";
      for (const std::string &f : e.fields)
        h += " " + f;
      return h;
    }
    case ExprKind::Field: return "field " + e.name;
    case ExprKind::RecordUpdate: return "update field " + join(e.fields, ".");
    case ExprKind::LetFun: return "letfun " + e.fundef->name;
    case ExprKind::ProjSection: return "section ." + join(e.fields, ".");
    case ExprKind::Hole: return "hole";
    case ExprKind::OpenIn: return "open " + e.name;
    }
    return "?";
  }
};

} // namespace

std::string print_ast(const Program &program, bool with_types) {
  Printer p(with_types);
  size_t t = 0;
  for (size_t i = 0; i <= program.defs.size(); i++) {
    for (; t < program.types.size() && program.types[t]->before_def <= i; t++)
      p.type_decl(*program.types[t]);
    if (i < program.defs.size())
      p.def(*program.defs[i]);
  }
  return p.out;
}

std::string print_expr(const Expr &e, bool with_types) {
  Printer p(with_types);
  p.expr(e, 0);
  return p.out;
}

} // namespace kerb
