// The parser: a recursive-descent parser from tokens to the AST (ast.h), one function
// per grammar rule, with the rule in a comment above it (chibicc style).
//
// Operator precedence and associativity are Futhark's (its Parser.y precedence
// declarations), loosest first:
//
//   right   :  :>                    (type ascription and size coercion)
//   right   ..  ..<  ..>  ...        (ranges)
//   left    with                     (in-place update)
//   left    |>
//   right   <|
//   left    ||
//   left    &&
//   left    ==  !=  <  <=  >  >=
//   left    &  ^  |
//   left    <<  >>  >>>
//   left    +  -  ++
//   left    *  /  %  //  %%
//   left    **
//           unary - and !  (bind tighter than every binary operator: -x**2 is (-x)**2,
//                           but looser than application: -f x is -(f x))
//           juxtaposition (application)
//           indexing a[i], projection t.0
//
// `if`, `let`, `loop`, lambdas and `#[unsafe]` extend as far to the right as possible.
//
// Sugar removed here (see ast.h): pipes become applications (a pipe into a one-parameter
// lambda becomes a let, into a one-sided operator section a binary operation), `let a[i] = v` becomes an
// update, `t.0` becomes Project. Everything LANGUAGE.md leaves out is recognised and
// rejected with "... is not supported" at its location.
#include "compiler/parser.h"

#include "compiler/lexer.h"

#include <fmt/format.h>

namespace kerb {
namespace {

struct BinOpInfo {
  const char *text;
  int prec;
  bool right_assoc;
  bool is_pipe; // |> or <| (not a BinOp)
  BinOp op;
};

constexpr int kPipeRight = 1;
constexpr int kPipeLeft = 2;

const BinOpInfo kBinOps[] = {
    {"|>", kPipeRight, false, true, BinOp::Add},
    {"<|", kPipeLeft, true, true, BinOp::Add},
    {"||", 3, false, false, BinOp::LogOr},
    {"&&", 4, false, false, BinOp::LogAnd},
    {"==", 5, false, false, BinOp::Eq},
    {"!=", 5, false, false, BinOp::Neq},
    {"<", 5, false, false, BinOp::Lt},
    {"<=", 5, false, false, BinOp::Le},
    {">", 5, false, false, BinOp::Gt},
    {">=", 5, false, false, BinOp::Ge},
    {"&", 6, false, false, BinOp::BitAnd},
    {"^", 6, false, false, BinOp::BitXor},
    {"|", 6, false, false, BinOp::BitOr},
    {"<<", 7, false, false, BinOp::Shl},
    {">>", 7, false, false, BinOp::Shr},
    {">>>", 7, false, false, BinOp::UShr},
    {"+", 8, false, false, BinOp::Add},
    {"-", 8, false, false, BinOp::Sub},
    {"++", 8, false, false, BinOp::Concat},
    {"*", 9, false, false, BinOp::Mul},
    {"/", 9, false, false, BinOp::Div},
    {"%", 9, false, false, BinOp::Mod},
    {"//", 9, false, false, BinOp::Quot},
    {"%%", 9, false, false, BinOp::Rem},
    {"**", 10, false, false, BinOp::Pow},
};

const BinOpInfo *binop_info(const Token &t) {
  if (t.kind != TokenKind::Symbol)
    return nullptr;
  for (const BinOpInfo &info : kBinOps)
    if (t.text == info.text)
      return &info;
  return nullptr;
}

std::string describe(const Token &t) {
  if (t.kind == TokenKind::Eof)
    return "end of file";
  return fmt::format("'{}'", t.text);
}

class Parser {
public:
  explicit Parser(std::shared_ptr<const SourceFile> file)
      : file_(std::move(file)), toks_(lex(*file_)) {}

  Program run() {
    Program prog;
    prog.file = file_;
    while (peek().kind != TokenKind::Eof)
      prog.defs.push_back(parse_decl());
    return prog;
  }

private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  uint32_t prev_end_ = 0;

  // ---- Token helpers ----

  const Token &peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  bool is_sym(const char *s, size_t ahead = 0) const {
    const Token &t = peek(ahead);
    return t.kind == TokenKind::Symbol && t.text == s;
  }
  bool is_kw(const char *s, size_t ahead = 0) const {
    const Token &t = peek(ahead);
    return t.kind == TokenKind::Keyword && t.text == s;
  }
  const Token &advance() {
    const Token &t = toks_[pos_];
    prev_end_ = t.span.end;
    if (pos_ + 1 < toks_.size())
      pos_++;
    return t;
  }
  bool accept_sym(const char *s) {
    if (!is_sym(s))
      return false;
    advance();
    return true;
  }
  bool accept_kw(const char *s) {
    if (!is_kw(s))
      return false;
    advance();
    return true;
  }
  const Token &expect_sym(const char *s, const char *context) {
    if (!is_sym(s))
      error_at(peek().span, fmt::format("expected '{}' {}, found {}", s, context, describe(peek())));
    return advance();
  }
  const Token &expect_kw(const char *s, const char *context) {
    if (!is_kw(s))
      error_at(peek().span, fmt::format("expected '{}' {}, found {}", s, context, describe(peek())));
    return advance();
  }
  // The span from `begin` to the end of the last consumed token.
  Span span_from(uint32_t begin) const { return Span{file_.get(), begin, prev_end_}; }
  Span span_from(const Span &s) const { return span_from(s.begin); }

  // Errors for constructs LANGUAGE.md leaves out, raised where they are recognised.
  [[noreturn]] void unsupported_keyword(const Token &t) {
    const std::string &k = t.text;
    if (k == "module" || k == "open" || k == "import" || k == "include" || k == "local")
      error_at(t.span, fmt::format("modules are not supported ('{}')", k));
    if (k == "val")
      error_at(t.span, "module signatures are not supported ('val')");
    if (k == "type")
      error_at(t.span, "type declarations are not supported");
    if (k == "match" || k == "case")
      error_at(t.span, "match expressions are not supported");
    error_at(t.span, fmt::format("unexpected keyword '{}'", k));
  }

  static bool is_unsupported_symbol(const Token &t) {
    if (t.kind != TokenKind::Symbol)
      return false;
    return t.text == "'" || t.text == "`" || t.text == "{" || t.text == "}" || t.text == "?" ||
           t.text.starts_with("\"");
  }

  [[noreturn]] void unsupported_symbol(const Token &t) {
    if (t.text == "'")
      error_at(t.span, "type parameters are not supported");
    if (t.text == "`")
      error_at(t.span, "backtick operators are not supported");
    if (t.text == "{" || t.text == "}")
      error_at(t.span, "records are not supported");
    if (t.text == "?")
      error_at(t.span, "existential sizes are not supported");
    if (t.text.starts_with("\""))
      error_at(t.span, "string literals are not supported");
    error_at(t.span, fmt::format("unexpected {}", describe(t)));
  }

  // ---- Declarations ----

  // attribute = "#[" name "]"      (only #[unsafe] is supported)
  // Returns after consuming the attribute; rejects anything but `unsafe`.
  void parse_unsafe_attribute() {
    const Token &open = expect_sym("#[", "to start an attribute");
    const Token &name = peek();
    if (name.kind != TokenKind::Ident || name.text != "unsafe")
      error_at(name.kind == TokenKind::Eof ? open.span : name.span,
               fmt::format("attribute {} is not supported (only #[unsafe] is)", describe(name)));
    advance();
    expect_sym("]", "to close the attribute");
  }

  // decl = ("#[unsafe]")? ("def" | "let" | "entry") name size_param* param* (":" type)?
  //        "=" exp
  std::unique_ptr<FunDef> parse_decl() {
    auto def = std::make_unique<FunDef>();
    uint32_t begin = peek().span.begin;
    if (is_sym("#[")) {
      parse_unsafe_attribute();
      def->is_unsafe = true;
    }
    const Token &kw = peek();
    if (kw.kind == TokenKind::Keyword && (kw.text == "def" || kw.text == "let" || kw.text == "entry")) {
      advance();
    } else if (kw.kind == TokenKind::Keyword) {
      unsupported_keyword(kw);
    } else {
      error_at(kw.span, fmt::format("expected a declaration ('def', 'entry' or 'let'), found {}",
                                    describe(kw)));
    }
    def->is_entry = kw.text == "entry";

    const Token &name = peek();
    if (name.kind == TokenKind::Symbol && name.text == "(" && binop_info(peek(1)))
      error_at(name.span.to(peek(2).span), "user-defined operators are not supported");
    if (name.kind == TokenKind::Symbol && name.text == "(")
      error_at(name.span, "user-defined operators are not supported");
    if (name.kind != TokenKind::Ident || name.text == "_")
      error_at(name.span, fmt::format("expected a function name after '{}', found {}", kw.text,
                                      describe(name)));
    advance();
    def->name = name.text;
    def->name_span = name.span;

    // size_param = "[" name "]"
    while (is_sym("[")) {
      const Token &open = advance();
      const Token &size = peek();
      if (size.kind != TokenKind::Ident)
        error_at(size.span.valid() ? size.span : open.span,
                 fmt::format("expected a size parameter name, found {}", describe(size)));
      advance();
      def->size_params.push_back(size.text);
      expect_sym("]", "after the size parameter");
    }
    if (is_sym("'"))
      error_at(peek().span.to(peek(1).span), "type parameters are not supported");

    while (is_sym("(") || (peek().kind == TokenKind::Ident)) {
      in_param_type_ = true;
      def->params.push_back(parse_param());
      in_param_type_ = false;
    }
    if (is_sym("'"))
      error_at(peek().span.to(peek(1).span), "type parameters are not supported");

    if (accept_sym(":")) {
      def->ret_annotation = parse_type();
      if (is_sym("->"))
        error_at(peek().span, "function types are not supported");
    }
    if (!is_sym("="))
      error_at(peek().span, fmt::format("expected '=' before the body of '{}', found {}", def->name,
                                        describe(peek())));
    advance();
    def->body = parse_exp();
    def->span = span_from(begin);
    if (is_unsupported_symbol(peek()))
      unsupported_symbol(peek());
    if (peek().kind != TokenKind::Eof && !is_decl_start())
      error_at(peek().span, fmt::format("unexpected {} after the body of '{}'", describe(peek()),
                                        def->name));
    return def;
  }

  bool is_decl_start() const {
    const Token &t = peek();
    if (t.kind == TokenKind::Symbol)
      return t.text == "#[";
    return t.kind == TokenKind::Keyword &&
           (t.text == "def" || t.text == "let" || t.text == "entry" || t.text == "type" ||
            t.text == "module" || t.text == "open" || t.text == "import" || t.text == "include" ||
            t.text == "local" || t.text == "val");
  }

  // param = pattern_atom       every parameter's type must be given: `(x: t)`,
  //                            `(a: t, b: u)` (one tuple parameter), `()`
  Pattern parse_param() {
    if (peek().kind == TokenKind::Ident) {
      const Token &t = peek();
      error_at(t.span, fmt::format("parameter '{}' needs a type annotation: write '({}: t)'", t.text,
                                   t.text));
    }
    if (is_sym("{", 1))
      error_at(peek(1).span, "records are not supported");
    Pattern p = parse_pattern_atom();
    if (p.kind == Pattern::Tuple && p.elems.empty())
      p.annotation = Type::unit();
    if (is_sym("->"))
      error_at(peek().span, "function types are not supported");
    if (!complete_annotation(p))
      error_at(p.span, fmt::format("parameter '{}' needs a type annotation: write '({}: t)'",
                                   std::string(p.span.text()), std::string(p.span.text())));
    return p;
  }

  // Gives a tuple pattern whose components are all annotated the tuple of their types;
  // returns false when some part of `p` has no type.
  static bool complete_annotation(Pattern &p) {
    if (p.annotation)
      return true;
    if (p.kind != Pattern::Tuple)
      return false;
    std::vector<Type> elems;
    for (Pattern &e : p.elems) {
      if (!complete_annotation(e))
        return false;
      elems.push_back(*e.annotation);
    }
    p.annotation = Type::tuple(std::move(elems));
    return true;
  }

  // ---- Types ----

  // type = "*"? ( prim | dim type | "(" ")" | "(" type ("," type)+ ")" | "(" type ")" )
  // dim  = "[" (name | int)? "]"
  Type parse_type() {
    uint32_t begin = peek().span.begin;
    bool unique = accept_sym("*");
    Type t = parse_type_nonunique(begin);
    t.unique = unique;
    return t;
  }

  Type parse_type_nonunique(uint32_t begin) {
    const Token &t = peek();
    if (is_sym("[")) {
      std::vector<Dim> dims;
      while (is_sym("[")) {
        advance();
        dims.push_back(parse_dim());
      }
      Type elem = parse_type_nonunique(begin);
      if (elem.unique)
        error_at(span_from(begin), "a uniqueness mark '*' must come before the array type");
      return Type::array(std::move(elem), std::move(dims));
    }
    if (is_sym("(")) {
      advance();
      std::vector<Type> elems;
      if (!is_sym(")")) {
        elems.push_back(parse_type());
        while (accept_sym(","))
          elems.push_back(parse_type());
      }
      expect_sym(")", "to close the tuple type");
      if (elems.size() == 1)
        return elems[0];
      return Type::tuple(std::move(elems));
    }
    if (t.kind == TokenKind::Ident) {
      PrimType p;
      if (prim_from_name(t.text, p)) {
        advance();
        return Type::prim_type(p);
      }
      error_at(t.span, fmt::format("unknown type '{}' (type abbreviations and polymorphism are not "
                                   "supported)", t.text));
    }
    if (t.kind == TokenKind::QualIdent)
      error_at(t.span, fmt::format("unknown type '{}' (modules are not supported)", t.text));
    if (is_unsupported_symbol(t))
      unsupported_symbol(t);
    error_at(t.span, fmt::format("expected a type, found {}", describe(t)));
  }

  bool in_param_type_ = false; // size expressions are allowed everywhere else

  Dim parse_dim() {
    Dim d;
    if (accept_sym("]"))
      return d;
    const Token &t = peek();
    if (t.kind == TokenKind::Ident && is_sym("]", 1)) {
      advance();
      advance();
      return Dim::var(t.text);
    }
    if (t.kind == TokenKind::IntLit && is_sym("]", 1)) {
      if (t.int_value > uint64_t(INT64_MAX))
        error_at(t.span, "array size is too large");
      advance();
      advance();
      return Dim::constant(int64_t(t.int_value));
    }
    // Anything else inside the brackets is a size expression, e.g. [n+1].
    uint32_t begin = t.span.begin;
    int depth = 0;
    while (peek().kind != TokenKind::Eof && !(depth == 0 && is_sym("]"))) {
      if (is_sym("[") || is_sym("("))
        depth++;
      if (is_sym(")") || is_sym("]"))
        depth--;
      advance();
    }
    if (peek().kind == TokenKind::Eof)
      error_at(t.span, "unterminated array dimension: expected ']'");
    // A size expression such as [n * m] or [k + (n - k)] is kept as its source text:
    // the interpreter evaluates it where it needs the size.
    Span s = span_from(begin);
    if (in_param_type_)
      error_at(s, "size expressions are not supported in parameter types (only a name or a "
                  "constant)");
    advance(); // ']'
    return Dim::var(std::string(s.text()));
  }

  // ---- Patterns ----

  // pattern      = pattern_atom (":" type)?
  // pattern_atom = name | "_" | "(" ")" | "(" pattern ")" | "(" pattern ("," pattern)+ ")"
  Pattern parse_pattern() {
    Pattern p = parse_pattern_atom();
    if (accept_sym(":")) {
      p.annotation = parse_type();
      if (is_sym("->"))
        error_at(peek().span, "function types are not supported");
      p.span = span_from(p.span);
    }
    return p;
  }

  Pattern parse_pattern_atom() {
    const Token &t = peek();
    Pattern p;
    if (t.kind == TokenKind::Ident) {
      advance();
      p.span = t.span;
      if (t.text == "_") {
        p.kind = Pattern::Wildcard;
      } else {
        p.kind = Pattern::Id;
        p.name = t.text;
      }
      return p;
    }
    if (is_sym("(")) {
      advance();
      if (accept_sym(")")) {
        p.kind = Pattern::Tuple;
        p.span = span_from(t.span);
        return p;
      }
      Pattern first = parse_pattern();
      if (accept_sym(")"))
        return first;
      p.kind = Pattern::Tuple;
      p.elems.push_back(std::move(first));
      while (accept_sym(","))
        p.elems.push_back(parse_pattern());
      expect_sym(")", "to close the tuple pattern");
      p.span = span_from(t.span);
      return p;
    }
    if (t.kind == TokenKind::Symbol && t.text == "{")
      error_at(t.span, "record patterns are not supported");
    if (t.kind == TokenKind::Keyword)
      if (t.text == "match" || t.text == "type" || t.text == "module")
        unsupported_keyword(t);
    if (t.kind == TokenKind::IntLit || t.kind == TokenKind::FloatLit ||
        (t.kind == TokenKind::Keyword && (t.text == "true" || t.text == "false")))
      error_at(t.span, "literal patterns are not supported");
    error_at(t.span, fmt::format("expected a pattern (a name, '_' or a tuple), found {}", describe(t)));
  }

  // ---- Expressions ----

  // exp = range_exp ((":" | ":>") type)*
  ExprPtr parse_exp() {
    ExprPtr e = parse_range();
    while (is_sym(":") || is_sym(":>")) {
      bool coerce = advance().text == ":>";
      Type t = parse_type();
      Span s = span_from(e->span);
      ExprPtr a = make_expr(coerce ? ExprKind::Coerce : ExprKind::Ascribe, s);
      a->annotation = std::move(t);
      a->args.push_back(std::move(e));
      e = std::move(a);
    }
    return e;
  }

  // range_exp = with_exp (("..." | ".." | "..<" | "..>") with_exp
  //                       | ".." with_exp ("..." | "..<" | "..>") with_exp)?
  ExprPtr parse_range() {
    ExprPtr start = parse_with();
    if (!(is_sym("..") || is_sym("...") || is_sym("..<") || is_sym("..>")))
      return start;
    std::string op1 = advance().text;
    ExprPtr second = parse_with();
    ExprPtr r = make_expr(ExprKind::Range, start->span);
    if (op1 == ".." && (is_sym("...") || is_sym("..<") || is_sym("..>"))) {
      std::string op2 = advance().text;
      ExprPtr end = parse_with();
      r->range_kind = op2 == "..." ? RangeKind::UpTo : op2 == "..<" ? RangeKind::UpToExcl : RangeKind::DownToExcl;
      r->args.push_back(std::move(start));
      r->args.push_back(std::move(second));
      r->args.push_back(std::move(end));
    } else {
      r->range_kind = op1 == "..<" ? RangeKind::UpToExcl : op1 == "..>" ? RangeKind::DownToExcl : RangeKind::UpTo;
      r->args.push_back(std::move(start));
      r->args.push_back(nullptr);
      r->args.push_back(std::move(second));
    }
    r->span = span_from(r->span);
    if (is_sym("..") || is_sym("...") || is_sym("..<") || is_sym("..>"))
      error_at(peek().span, "a range has at most three parts ('a..b...c')");
    return r;
  }

  // with_exp = binary_exp ("with" "[" index_parts "]" "=" binary_exp)*
  ExprPtr parse_with() {
    ExprPtr e = parse_binary(0);
    while (is_kw("with")) {
      advance();
      if (!is_sym("["))
        error_at(peek().span, fmt::format("expected '[' after 'with', found {}{}", describe(peek()),
                                          peek().kind == TokenKind::Symbol && peek().text == "{"
                                              ? " (record updates are not supported)"
                                              : ""));
      advance();
      std::vector<IndexPart> parts = parse_index_parts();
      expect_sym("=", "after the indices of 'with'");
      ExprPtr value = parse_binary(0);
      ExprPtr u = make_expr(ExprKind::Update, span_from(e->span));
      u->args.push_back(std::move(e));
      u->args.push_back(std::move(value));
      u->indices = std::move(parts);
      e = std::move(u);
    }
    return e;
  }

  // binary_exp = prefix_exp (binop prefix_exp)*     by precedence climbing; see the table
  ExprPtr parse_binary(int min_prec) {
    ExprPtr lhs = parse_prefix();
    for (;;) {
      if (is_sym("`"))
        unsupported_symbol(peek());
      const BinOpInfo *info = binop_info(peek());
      if (!info || info->prec < min_prec)
        return lhs;
      // `(x +)`: a left operator section; the caller (parse_paren) handles it.
      if (is_sym(")", 1))
        return lhs;
      const Token &op = advance();
      ExprPtr rhs = parse_binary(info->right_assoc ? info->prec : info->prec + 1);
      if (info->is_pipe) {
        lhs = info->prec == kPipeRight ? pipe_into(std::move(rhs), std::move(lhs), op)
                                       : pipe_into(std::move(lhs), std::move(rhs), op);
        continue;
      }
      Span s = lhs->span.to(rhs->span);
      ExprPtr b = make_expr(ExprKind::Binary, s);
      b->binop = info->op;
      b->args.push_back(std::move(lhs));
      b->args.push_back(std::move(rhs));
      lhs = std::move(b);
    }
  }

  // `x |> f a` and `f a <| x` become `f a x`.
  ExprPtr pipe_into(ExprPtr fun, ExprPtr arg, const Token &op) {
    Span s = fun->span.to(arg->span);
    if (fun->kind == ExprKind::Apply) {
      fun->args.push_back(std::move(arg));
      fun->span = s;
      return fun;
    }
    if (fun->kind == ExprKind::Var) {
      ExprPtr app = make_expr(ExprKind::Apply, s);
      app->name = fun->name;
      app->args.push_back(std::move(arg));
      return app;
    }
    // `x |> \p -> e` is `let p = x in e`; `x |> (+1)` is `x + 1`.
    if (fun->kind == ExprKind::Lambda && fun->params.size() == 1) {
      ExprPtr body = std::move(fun->args[0]);
      if (fun->annotation) {
        ExprPtr a = make_expr(ExprKind::Ascribe, body->span);
        a->annotation = std::move(fun->annotation);
        a->args.push_back(std::move(body));
        body = std::move(a);
      }
      ExprPtr let = make_expr(ExprKind::Let, s);
      let->pattern = std::move(fun->params[0]);
      let->args.push_back(std::move(arg));
      let->args.push_back(std::move(body));
      return let;
    }
    if (fun->kind == ExprKind::OpSection && fun->args.size() == 1) {
      ExprPtr b = make_expr(ExprKind::Binary, s);
      b->binop = fun->binop;
      ExprPtr given = std::move(fun->args[0]);
      b->args.push_back(fun->section_left ? std::move(given) : std::move(arg));
      b->args.push_back(fun->section_left ? std::move(arg) : std::move(given));
      return b;
    }
    error_at(fun->span, fmt::format("the function side of '{}' must be a function name or an "
                                    "application such as 'map f', not an arbitrary expression",
                                    op.text));
  }

  // prefix_exp = "-" prefix_exp | "!" prefix_exp
  //            | "if" exp "then" exp "else" exp
  //            | "let" ... | "loop" ... | "\" ... | "#[unsafe]" exp
  //            | apply_exp
  ExprPtr parse_prefix() {
    const Token &t = peek();
    if (is_sym("-") || is_sym("!")) {
      advance();
      ExprPtr operand = parse_prefix_operand();
      ExprPtr u = make_expr(ExprKind::Unary, span_from(t.span));
      u->unop = t.text == "-" ? UnOp::Neg : UnOp::Not;
      u->args.push_back(std::move(operand));
      return u;
    }
    if (is_kw("if"))
      return parse_if();
    if (is_kw("let"))
      return parse_let();
    if (is_kw("loop"))
      return parse_loop();
    if (is_sym("\\"))
      return parse_lambda();
    if (is_sym("#[")) {
      uint32_t begin = t.span.begin;
      parse_unsafe_attribute();
      ExprPtr body = parse_exp();
      ExprPtr u = make_expr(ExprKind::Unsafe, span_from(begin));
      u->args.push_back(std::move(body));
      return u;
    }
    return parse_apply();
  }

  // The operand of unary `-`/`!`: an application (`-f x` is `-(f x)`), or another
  // prefix form.
  ExprPtr parse_prefix_operand() {
    if (is_sym("-") || is_sym("!") || is_kw("if") || is_kw("let") || is_kw("loop") ||
        is_sym("\\") || is_sym("#["))
      return parse_prefix();
    return parse_apply();
  }

  // if = "if" exp "then" exp "else" exp
  ExprPtr parse_if() {
    const Token &kw = advance();
    ExprPtr cond = parse_exp();
    expect_kw("then", "after the condition of 'if'");
    ExprPtr then_e = parse_exp();
    expect_kw("else", "after the 'then' branch (every 'if' needs an 'else')");
    ExprPtr else_e = parse_exp();
    ExprPtr e = make_expr(ExprKind::If, span_from(kw.span));
    e->args.push_back(std::move(cond));
    e->args.push_back(std::move(then_e));
    e->args.push_back(std::move(else_e));
    return e;
  }

  // let      = "let" pattern "=" exp let_body
  //          | "let" name "[" index_parts "]" "=" exp let_body     (glued "[")
  // let_body = "in" exp | let                                    ("in" may be left out
  //                                                               before another let)
  ExprPtr parse_let() {
    const Token &kw = advance();
    const Token &first = peek();
    ExprPtr value;
    Pattern pat;
    if (first.kind == TokenKind::Ident && first.text != "_" && is_sym("[", 1) && peek(1).glued) {
      // let a[i] = v  ==>  let a = a with [i] = v
      advance();
      advance();
      std::vector<IndexPart> parts = parse_index_parts();
      expect_sym("=", "after the indices of 'let'");
      ExprPtr v = parse_exp();
      ExprPtr arr = make_expr(ExprKind::Var, first.span);
      arr->name = first.text;
      ExprPtr u = make_expr(ExprKind::Update, span_from(first.span));
      u->args.push_back(std::move(arr));
      u->args.push_back(std::move(v));
      u->indices = std::move(parts);
      value = std::move(u);
      pat.kind = Pattern::Id;
      pat.name = first.text;
      pat.span = first.span;
    } else {
      if (first.kind == TokenKind::Ident && first.text != "_" && starts_local_function(1))
        error_at(kw.span.to(first.span), "local function definitions are not supported; define '" +
                                             first.text + "' at the top level with 'def'");
      if (first.kind == TokenKind::Symbol && first.text == "(" && binop_info(peek(1)) && is_sym(")", 2))
        error_at(first.span.to(peek(2).span), "user-defined operators are not supported");
      pat = parse_pattern();
      if (!is_sym("="))
        error_at(peek().span, fmt::format("expected '=' after the pattern of 'let', found {}",
                                          describe(peek())));
      advance();
      value = parse_exp();
    }
    ExprPtr body;
    if (accept_kw("in")) {
      body = parse_exp();
    } else if (is_kw("let")) {
      body = parse_let();
    } else {
      error_at(peek().span, fmt::format("expected 'in' after the value of 'let', found {}",
                                        describe(peek())));
    }
    ExprPtr e = make_expr(ExprKind::Let, span_from(kw.span));
    e->pattern = std::move(pat);
    e->args.push_back(std::move(value));
    e->args.push_back(std::move(body));
    return e;
  }

  // After `let f`: does a parameter follow (a local function definition)?
  bool starts_local_function(size_t ahead) const {
    const Token &t = peek(ahead);
    if (t.kind == TokenKind::Ident)
      return true;
    if (t.kind == TokenKind::Symbol && (t.text == "(" || (t.text == "[" && !t.glued) || t.text == "'"))
      return true;
    return false;
  }

  // loop      = "loop" pattern ("=" exp)? loop_form "do" exp
  // loop_form = "for" name "<" exp | "for" pattern "in" exp | "while" exp
  ExprPtr parse_loop() {
    const Token &kw = advance();
    ExprPtr e = make_expr(ExprKind::Loop, kw.span);
    e->pattern = parse_pattern();
    ExprPtr init;
    if (accept_sym("="))
      init = parse_exp();
    e->args.push_back(std::move(init));
    if (accept_kw("for")) {
      if (peek().kind == TokenKind::Ident && is_sym("<", 1)) {
        e->loop_form = LoopForm::For;
        e->name = advance().text;
        advance();
        e->args.push_back(parse_exp());
      } else {
        e->loop_form = LoopForm::ForIn;
        e->pattern2 = parse_pattern();
        expect_kw("in", "after the loop's element pattern ('for x in xs')");
        e->args.push_back(parse_exp());
      }
    } else if (accept_kw("while")) {
      e->loop_form = LoopForm::While;
      e->args.push_back(parse_exp());
    } else {
      error_at(peek().span, fmt::format("expected 'for' or 'while' in the loop, found {}",
                                        describe(peek())));
    }
    expect_kw("do", "before the loop body");
    e->args.push_back(parse_exp());
    e->span = span_from(kw.span);
    return e;
  }

  // lambda = "\" pattern_atom+ (":" type)? "->" exp
  ExprPtr parse_lambda() {
    const Token &bs = advance();
    ExprPtr e = make_expr(ExprKind::Lambda, bs.span);
    while (!is_sym("->") && !is_sym(":") && peek().kind != TokenKind::Eof)
      e->params.push_back(parse_pattern_atom());
    if (e->params.empty())
      error_at(peek().span, fmt::format("expected a parameter after '\\', found {}", describe(peek())));
    if (accept_sym(":"))
      e->annotation = parse_type();
    expect_sym("->", "after the parameters of the anonymous function");
    e->args.push_back(parse_exp());
    e->span = span_from(bs.span);
    return e;
  }

  bool starts_atom() const {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Ident:
    case TokenKind::QualIdent:
    case TokenKind::IntLit:
    case TokenKind::FloatLit: return true;
    case TokenKind::Keyword: return t.text == "true" || t.text == "false";
    case TokenKind::Symbol: return t.text == "(" || t.text == "[" || t.text == "{";
    default: return false;
    }
  }

  // Literals can never be functions; a token after one is a missing keyword or operator.
  static bool is_plain_value(const Expr &e) {
    return e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit ||
           e.kind == ExprKind::BoolLit || e.kind == ExprKind::ArrayLit;
  }

  // apply_exp = "assert" postfix_exp postfix_exp
  //           | name postfix_exp*
  //           | postfix_exp
  ExprPtr parse_apply() {
    if (is_kw("assert")) {
      const Token &kw = advance();
      if (!starts_atom())
        error_at(peek().span, fmt::format("expected the condition of 'assert', found {}", describe(peek())));
      ExprPtr cond = parse_postfix();
      if (!starts_atom())
        error_at(peek().span, fmt::format("expected the checked expression after the condition of "
                                          "'assert', found {}",
                                          describe(peek())));
      ExprPtr body = parse_postfix();
      ExprPtr e = make_expr(ExprKind::Assert, span_from(kw.span));
      e->args.push_back(std::move(cond));
      e->args.push_back(std::move(body));
      return e;
    }
    uint32_t begin = peek().span.begin;
    ExprPtr callee = parse_postfix();
    if (!starts_atom())
      return callee;
    if (is_plain_value(*callee))
      return callee; // `0 1`: the caller reports what it expected (e.g. 'then')
    if (callee->kind != ExprKind::Var)
      error_at(span_from(begin), "only named functions can be applied");
    ExprPtr app = make_expr(ExprKind::Apply, callee->span);
    app->name = callee->name;
    while (starts_atom())
      app->args.push_back(parse_postfix());
    app->span = span_from(callee->span);
    return app;
  }

  // postfix_exp = atom ("[" index_parts "]" | "." int)*       ("[" and "." glued)
  ExprPtr parse_postfix() {
    ExprPtr e = parse_atom();
    for (;;) {
      if (is_sym("[") && peek().glued) {
        advance();
        std::vector<IndexPart> parts = parse_index_parts();
        ExprPtr ix = make_expr(ExprKind::Index, span_from(e->span));
        ix->args.push_back(std::move(e));
        ix->indices = std::move(parts);
        e = std::move(ix);
        continue;
      }
      if (is_sym(".") && peek().glued) {
        const Token &dot = advance();
        const Token &field = peek();
        if (field.kind == TokenKind::IntLit && field.glued && !field.suffix) {
          advance();
          if (field.int_value > 1000000)
            error_at(field.span, "tuple field index is too large");
          ExprPtr p = make_expr(ExprKind::Project, span_from(e->span));
          p->field = int(field.int_value);
          p->args.push_back(std::move(e));
          e = std::move(p);
          continue;
        }
        if (field.kind == TokenKind::Ident || field.kind == TokenKind::QualIdent)
          error_at(e->span.to(field.span),
                   fmt::format("field access '.{}' is not supported (records and modules are left out)",
                               field.text));
        error_at(dot.span, fmt::format("expected a tuple field number after '.', found {}", describe(field)));
      }
      return e;
    }
  }

  // index_parts = index_part ("," index_part)* "]"
  // index_part  = exp | exp? ":" exp? (":" exp?)?
  std::vector<IndexPart> parse_index_parts() {
    std::vector<IndexPart> parts;
    if (is_sym("]"))
      error_at(peek().span, "expected an index, found ']'");
    for (;;) {
      parts.push_back(parse_index_part());
      if (accept_sym(","))
        continue;
      expect_sym("]", "to close the index");
      return parts;
    }
  }

  bool at_index_part_end() const { return is_sym(",") || is_sym("]") || is_sym(":"); }

  IndexPart parse_index_part() {
    IndexPart part;
    uint32_t begin = peek().span.begin;
    if (!is_sym(":"))
      part.index = parse_range();
    if (!is_sym(":")) {
      part.span = span_from(begin);
      return part;
    }
    part.is_slice = true;
    part.start = std::move(part.index);
    advance();
    if (!at_index_part_end())
      part.end = parse_range();
    if (accept_sym(":")) {
      if (!is_sym(",") && !is_sym("]"))
        part.stride = parse_range();
    }
    part.span = span_from(begin);
    if (is_sym(":"))
      error_at(peek().span, "a slice has at most three parts ('i:j:s')");
    return part;
  }

  // atom = int | float | "true" | "false" | name | qualname | "(" ... ")" | "[" exp ("," exp)* "]"
  ExprPtr parse_atom() {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::IntLit: {
      advance();
      ExprPtr e = make_expr(ExprKind::IntLit, t.span);
      e->int_value = t.int_value;
      e->suffix = t.suffix;
      return e;
    }
    case TokenKind::FloatLit: {
      advance();
      ExprPtr e = make_expr(ExprKind::FloatLit, t.span);
      e->float_value = t.float_value;
      e->suffix = t.suffix;
      return e;
    }
    case TokenKind::Ident:
    case TokenKind::QualIdent: {
      if (t.text == "_")
        error_at(t.span, "'_' can only be used in a pattern, not as a value");
      advance();
      ExprPtr e = make_expr(ExprKind::Var, t.span);
      e->name = t.text;
      return e;
    }
    case TokenKind::Keyword:
      if (t.text == "true" || t.text == "false") {
        advance();
        ExprPtr e = make_expr(ExprKind::BoolLit, t.span);
        e->bool_value = t.text == "true";
        return e;
      }
      if (t.text == "module" || t.text == "open" || t.text == "import" || t.text == "include" ||
          t.text == "local" || t.text == "val" || t.text == "type" || t.text == "match" ||
          t.text == "case")
        unsupported_keyword(t);
      if (t.text == "def")
        error_at(t.span, "local function definitions are not supported; define functions at the top level");
      error_at(t.span, fmt::format("expected an expression, found {}", describe(t)));
    case TokenKind::Symbol:
      if (t.text == "(")
        return parse_paren();
      if (t.text == "[")
        return parse_array_literal();
      if (is_unsupported_symbol(t))
        unsupported_symbol(t);
      error_at(t.span, fmt::format("expected an expression, found {}", describe(t)));
    case TokenKind::Eof:
      error_at(t.span, "expected an expression, found end of file");
    case TokenKind::Error: break;
    }
    KERB_ASSERT(false, "the lexer produced an Error token");
    return nullptr;
  }

  // array_literal = "[" exp ("," exp)* ","? "]"
  ExprPtr parse_array_literal() {
    const Token &open = advance();
    if (is_sym("]"))
      error_at(open.span.to(peek().span), "empty array literals are not supported; use 'iota 0' or "
                                          "'replicate 0 x' for an empty array");
    ExprPtr e = make_expr(ExprKind::ArrayLit, open.span);
    for (;;) {
      e->args.push_back(parse_exp());
      if (accept_sym(",")) {
        if (is_sym("]"))
          break;
        continue;
      }
      break;
    }
    expect_sym("]", "to close the array literal");
    e->span = span_from(open.span);
    return e;
  }

  // paren = "(" ")"                         unit
  //       | "(" binop ")"                   operator section (+)
  //       | "(" binop exp ")"               right section (*2); but (-x) is negation
  //       | "(" exp binop ")"               left section (2-)
  //       | "(" exp ("," exp)* ")"          parenthesised expression or tuple
  ExprPtr parse_paren() {
    const Token &open = advance();
    if (accept_sym(")"))
      return make_expr(ExprKind::Tuple, span_from(open.span));

    const BinOpInfo *info = binop_info(peek());
    if (info && !(peek().text == "-" && !is_sym(")", 1))) {
      const Token &op = advance();
      if (info->is_pipe)
        error_at(op.span, fmt::format("sections of '{}' are not supported", op.text));
      ExprPtr e = make_expr(ExprKind::OpSection, open.span);
      e->binop = info->op;
      if (!is_sym(")")) {
        e->args.push_back(parse_exp());
        e->section_left = false;
      }
      expect_sym(")", "to close the operator section");
      e->span = span_from(open.span);
      return e;
    }

    ExprPtr first = parse_exp();
    if (const BinOpInfo *left = binop_info(peek()); left && is_sym(")", 1)) {
      const Token &op = advance();
      if (left->is_pipe)
        error_at(op.span, fmt::format("sections of '{}' are not supported", op.text));
      advance();
      ExprPtr e = make_expr(ExprKind::OpSection, span_from(open.span));
      e->binop = left->op;
      e->section_left = true;
      e->args.push_back(std::move(first));
      return e;
    }
    if (accept_sym(")"))
      return first;
    if (!is_sym(","))
      error_at(peek().span, fmt::format("expected ')' or ',' in the parenthesised expression, found {}",
                                        describe(peek())));
    ExprPtr tuple = make_expr(ExprKind::Tuple, open.span);
    tuple->args.push_back(std::move(first));
    while (accept_sym(","))
      tuple->args.push_back(parse_exp());
    expect_sym(")", "to close the tuple");
    tuple->span = span_from(open.span);
    return tuple;
  }
};

} // namespace

Program parse_program(std::shared_ptr<const SourceFile> file) {
  KERB_ASSERT(file != nullptr, "parse_program needs a source file");
  return Parser(std::move(file)).run();
}

} // namespace kerb
