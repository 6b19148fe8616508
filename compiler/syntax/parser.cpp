// The parser: a recursive-descent parser from tokens to the AST (ast.h), one function
// per grammar rule, with the rule in a comment above it (chibicc style).
//
// Operator precedence and associativity are Futhark's (its Parser.y precedence
// declarations), loosest first. An operator's class is that of its first characters, so
// a user-defined operator such as `+^` binds like `+`, and `>->` like `>`:
//
//   right   :  :>                    (type ascription and size coercion)
//   right   ..  ..<  ..>  ...        (ranges)
//   left    `f`                      (a function used as an operator)
//   left    with                     (in-place update)
//   left    |>...
//   right   <|...
//   left    ||...
//   left    &&...
//   left    ==  !=  <  <=  >  >=  !...  =...
//   left    &  ^  |
//   left    <<  >>  >>>
//   left    +  -  ++
//   left    *  /  %  //  %%
//   left    **
//           unary - and !  (bind tighter than every binary operator: -x**2 is (-x)**2,
//                           but looser than application: -f x is -(f x))
//           juxtaposition (application)
//           indexing a[i], projection t.0, field access r.x
//
// `if`, `let`, `loop`, `match`, lambdas and attributes extend as far to the right as
// possible.
//
// Sugar removed here (see ast.h): pipes become applications (a pipe into a
// one-parameter lambda becomes a let, into a one-sided operator section a binary
// operation), `let a[i] = v` becomes an update, `t.0` becomes Project, `x `f` y` and
// `x +^ y` become applications, attributes other than #[unsafe] are dropped. The module
// language (`module`, `import`, `open`, ...) is parsed into compiler/modules/module_ast.h,
// see "Modules" below.
//
// Nesting is bounded (see Note [Nesting limits]) so that no input can overflow the
// stack of the parser or of the recursive passes after it.
#include "compiler/syntax/parser.h"

#include "compiler/modules/module_ast.h"
#include "compiler/syntax/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

namespace kerb {
namespace {

struct BinOpInfo {
  int prec;
  bool right_assoc;
  bool is_pipe;   // |> or <| (not a BinOp)
  bool is_named;  // a user-defined operator (or a built-in one redefined): `op` is unused
  BinOp op;
};

constexpr int kBacktick = 1;
constexpr int kPipeRight = 2;
constexpr int kPipeLeft = 3;

// The built-in operators, as Futhark's prelude defines them for every numeric type.
struct BuiltinOp {
  const char *text;
  BinOp op;
};
const BuiltinOp kBuiltinOps[] = {
    {"||", BinOp::LogOr}, {"&&", BinOp::LogAnd}, {"==", BinOp::Eq},     {"!=", BinOp::Neq},
    {"<", BinOp::Lt},     {"<=", BinOp::Le},     {">", BinOp::Gt},      {">=", BinOp::Ge},
    {"&", BinOp::BitAnd}, {"^", BinOp::BitXor},  {"|", BinOp::BitOr},   {"<<", BinOp::Shl},
    {">>", BinOp::Shr},   {">>>", BinOp::UShr},  {"+", BinOp::Add},     {"-", BinOp::Sub},
    {"++", BinOp::Concat}, {"*", BinOp::Mul},    {"/", BinOp::Div},     {"%", BinOp::Mod},
    {"//", BinOp::Quot},  {"%%", BinOp::Rem},    {"**", BinOp::Pow},
};

std::optional<BinOp> builtin_binop(const std::string &text) {
  for (const BuiltinOp &b : kBuiltinOps)
    if (text == b.text)
      return b.op;
  return std::nullopt;
}

bool is_operator_text(const std::string &t) {
  if (t.empty())
    return false;
  for (char c : t)
    if (std::string_view("+-*/%=!<>&|^").find(c) == std::string_view::npos)
      return false;
  return t != "=" && t != "->" && t != "!";
}

// The precedence class of an operator by its leading characters (Futhark's lexer
// classes '+...', '<=...', ...), or nullopt for a symbol that is no binary operator.
std::optional<BinOpInfo> binop_class(const std::string &t) {
  if (!is_operator_text(t))
    return std::nullopt;
  BinOpInfo info{0, false, false, false, BinOp::Add};
  auto starts = [&](const char *p) { return t.starts_with(p); };
  if (starts("|>")) info.prec = kPipeRight, info.is_pipe = t == "|>";
  else if (starts("<|")) info.prec = kPipeLeft, info.right_assoc = true, info.is_pipe = t == "<|";
  else if (starts("||")) info.prec = 4;
  else if (starts("&&")) info.prec = 5;
  else if (starts("<<") || starts(">>")) info.prec = 8;
  else if (starts("**")) info.prec = 11;
  else if (starts("<=") || starts(">=") || starts("==") || starts("!=") || starts("<") ||
           starts(">") || starts("!") || starts("="))
    info.prec = 6;
  else if (starts("&") || starts("^") || starts("|")) info.prec = 7;
  else if (starts("+") || starts("-")) info.prec = 9;
  else info.prec = 10; // * / % // %%
  if (info.is_pipe)
    return info;
  if (std::optional<BinOp> op = builtin_binop(t))
    info.op = *op;
  else
    info.is_named = true;
  return info;
}

std::optional<BinOpInfo> binop_info(const Token &t) {
  if (t.kind != TokenKind::Symbol)
    return std::nullopt;
  return binop_class(t.text);
}

std::string describe(const Token &t) {
  if (t.kind == TokenKind::Eof)
    return "end of file";
  if (t.kind == TokenKind::Constructor)
    return fmt::format("'#{}'", t.text);
  if (t.kind == TokenKind::StringLit)
    return "a string literal";
  if (t.kind == TokenKind::CharLit)
    return fmt::format("the character literal {}", t.span.text());
  return fmt::format("'{}'", t.text);
}

// Note [Nesting limits]
// The parser and every pass after it (type checker, printers, interpreter, lowering)
// recurse over the tree, so a deeply nested input would overflow the stack. Two limits
// keep every tree shallow enough: the parser's own recursion (parenthesised
// expressions, let and if chains, unary operators, types and patterns) may nest
// kMaxNesting levels, and a definition's expression tree, which loops such as a long
// `a + b + c ...` chain build without recursion, may be kMaxHeight nodes high. Both are
// far beyond what programs written by hand or generated by tools contain; both give a
// diagnostic at the place where the limit is crossed.
constexpr int kMaxNesting = 1000;
constexpr int kMaxHeight = 2000;

// The height of an expression tree (a leaf is 1), computed without recursion.
int tree_height(const Expr &root) {
  std::vector<std::pair<const Expr *, int>> stack{{&root, 1}};
  int height = 0;
  while (!stack.empty()) {
    auto [e, h] = stack.back();
    stack.pop_back();
    height = std::max(height, h);
    for (const ExprPtr &a : e->args)
      if (a) stack.push_back({a.get(), h + 1});
    for (const IndexPart &p : e->indices)
      for (const ExprPtr *q : {&p.index, &p.start, &p.end, &p.stride})
        if (*q) stack.push_back({q->get(), h + 1});
    if (e->fundef && e->fundef->body) stack.push_back({e->fundef->body.get(), h + 1});
  }
  return height;
}

class Parser {
public:
  explicit Parser(std::shared_ptr<const SourceFile> file)
      : file_(std::move(file)), toks_(lex(*file_)) {}

  Type type_only() {
    Type t = parse_type();
    if (peek().kind != TokenKind::Eof)
      error_at(peek().span, fmt::format("unexpected {} after the type", describe(peek())));
    return t;
  }

  // A file without module declarations goes straight to defs and types; one with them
  // to prog.modules (see module_ast.h).
  Program run() {
    Program prog;
    prog.file = file_;
    std::vector<std::shared_ptr<Decl>> decls;
    while (peek().kind != TokenKind::Eof)
      decls.push_back(parse_decl());
    bool plain = std::all_of(decls.begin(), decls.end(), [](const std::shared_ptr<Decl> &d) {
      return d->kind == Decl::Def || d->kind == Decl::Type;
    });
    if (!plain) {
      prog.modules = std::make_shared<DeclList>();
      prog.modules->decls = std::move(decls);
      return prog;
    }
    for (std::shared_ptr<Decl> &d : decls) {
      if (d->kind == Decl::Def) {
        prog.defs.push_back(std::move(d->def));
      } else {
        prog.types.push_back(std::make_unique<TypeDecl>(*d->tdecl));
        prog.types.back()->before_def = prog.defs.size();
      }
    }
    return prog;
  }

private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  uint32_t prev_end_ = 0;
  int nesting_ = 0; // see Note [Nesting limits]
  int struct_depth_ = 0; // inside `{ ... }` of a module or signature

  // One level of the parser's recursion; fails past kMaxNesting levels.
  struct Nest {
    Parser &p;
    explicit Nest(Parser &parser) : p(parser) {
      if (++p.nesting_ > kMaxNesting)
        error_at(p.peek().span, fmt::format("this is nested too deeply (more than {} levels)",
                                            kMaxNesting));
    }
    ~Nest() { --p.nesting_; }
    Nest(const Nest &) = delete;
    Nest &operator=(const Nest &) = delete;
  };

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

  [[noreturn]] void unsupported_keyword(const Token &t) {
    const std::string &k = t.text;
    if (k == "val")
      error_at(t.span, "'val' can only be used in a module type");
    error_at(t.span, fmt::format("unexpected keyword '{}'", k));
  }

  static bool is_module_keyword(const Token &t) {
    return t.kind == TokenKind::Keyword &&
           (t.text == "module" || t.text == "open" || t.text == "import" || t.text == "include" ||
            t.text == "local" || t.text == "val");
  }


  // ---- Attributes ----

  // attr_info = name | int | name "(" (attr_info ("," attr_info)*)? ")"
  void skip_attr_info() {
    Nest nest(*this);
    const Token &t = peek();
    if (t.kind != TokenKind::Ident && t.kind != TokenKind::IntLit && t.kind != TokenKind::Keyword)
      error_at(t.span, fmt::format("expected an attribute, found {}", describe(t)));
    advance();
    if (!accept_sym("("))
      return;
    if (accept_sym(")"))
      return;
    for (;;) {
      skip_attr_info();
      if (accept_sym(","))
        continue;
      expect_sym(")", "to close the attribute");
      return;
    }
  }

  // attribute = "#[" attr_info "]"
  // Returns whether it was #[unsafe]; every other attribute is accepted and ignored,
  // as Futhark ignores the ones it does not know.
  bool parse_attribute() {
    expect_sym("#[", "to start an attribute");
    bool unsafe = peek().kind == TokenKind::Ident && peek().text == "unsafe" && is_sym("]", 1);
    skip_attr_info();
    expect_sym("]", "to close the attribute");
    return unsafe;
  }

  // ---- Declarations ----

  // decl = attribute* ("def" | "let" | "entry") binding type_params param* (":" type)? "=" exp
  //      | attribute* "def" param binop param (":" type)? "=" exp      (an infix definition)
  //      | "type" ("^" | "~")? name type_params "=" type
  //      | module_decl                                  (see "Modules" below)
  std::shared_ptr<Decl> parse_decl() {
    uint32_t begin = peek().span.begin;
    bool unsafe = false;
    while (is_sym("#["))
      unsafe = parse_attribute() || unsafe;
    const Token &kw = peek();
    auto decl = std::make_shared<Decl>();
    if (kw.kind == TokenKind::Keyword && kw.text == "type") {
      decl->kind = Decl::Type;
      decl->tdecl = parse_type_decl(0);
      decl->span = decl->tdecl->span;
      return decl;
    }
    if (kw.kind == TokenKind::Keyword && (kw.text == "def" || kw.text == "let" || kw.text == "entry")) {
      advance();
    } else if (kw.kind == TokenKind::Keyword && is_module_keyword(kw) && kw.text != "val") {
      return parse_module_decl();
    } else if (kw.kind == TokenKind::Keyword) {
      unsupported_keyword(kw);
    } else {
      error_at(kw.span, fmt::format("expected a declaration ('def', 'entry' or 'let'), found {}",
                                    describe(kw)));
    }
    auto def = std::make_unique<FunDef>();
    def->is_unsafe = unsafe;
    def->is_entry = kw.text == "entry";
    parse_function(*def, kw.text, /*local=*/false);
    def->span = span_from(begin);
    if (tree_height(*def->body) > kMaxHeight)
      error_at(def->name_span,
               fmt::format("the body of '{}' is nested too deeply (an expression tree more than {} "
                           "levels high; bind parts of it with let)",
                           def->name, kMaxHeight));
    if (peek().kind != TokenKind::Eof && !is_decl_start()) {
      error_at(peek().span, fmt::format("unexpected {} after the body of '{}'", describe(peek()),
                                        def->name));
    }
    decl->kind = Decl::Def;
    decl->span = def->span;
    decl->def = std::move(def);
    return decl;
  }

  // The part of a function definition after its keyword, up to and including the
  // body (top-level or local).
  void parse_function(FunDef &def, const std::string &kw, bool local) {
    def.is_local = local;
    // An infix definition: def (x: t) +^ (y: t) = ...
    if (is_sym("(") && !(binop_info(peek(1)) && is_sym(")", 2)) && !local) {
      size_t save = pos_;
      Pattern lhs = parse_param();
      if (binop_info(peek()) || is_sym("-")) {
        const Token &op = advance();
        def.name = op.text;
        def.name_span = op.span;
        def.params.push_back(std::move(lhs));
        def.params.push_back(parse_param());
        parse_function_rest(def);
        return;
      }
      pos_ = save;
    }
    // def x +^ y = ...: an infix definition with unannotated parameters.
    if (!local && peek().kind == TokenKind::Ident && peek(1).kind == TokenKind::Symbol &&
        (binop_info(peek(1)) || is_sym("!", 1))) {
      if (is_sym("!", 1))
        error_at(peek(1).span, "'!' is a prefix operator and cannot be used as infix operator");
      Pattern lhs = parse_param();
      const Token &op = advance();
      def.name = op.text;
      def.name_span = op.span;
      def.params.push_back(std::move(lhs));
      def.params.push_back(parse_param());
      parse_function_rest(def);
      return;
    }
    parse_binding_name(def, kw);
    parse_type_params(def.size_params, def.type_params);
    while (starts_param())
      def.params.push_back(parse_param());
    parse_function_rest(def);
  }

  void parse_function_rest(FunDef &def) {
    if (accept_sym(":"))
      def.ret_annotation = parse_type();
    if (!is_sym("="))
      error_at(peek().span, fmt::format("expected '=' before the body of '{}', found {}", def.name,
                                        describe(peek())));
    advance();
    def.body = parse_exp();
  }

  // binding = name | "(" binop ")"
  void parse_binding_name(FunDef &def, const std::string &kw) {
    const Token &name = peek();
    if (is_sym("(") && binop_info(peek(1)) && is_sym(")", 2)) {
      advance();
      const Token &op = advance();
      advance();
      def.name = op.text;
      def.name_span = op.span;
      return;
    }
    if (name.kind != TokenKind::Ident || name.text == "_")
      error_at(name.span, fmt::format("expected a function name after '{}', found {}", kw,
                                      describe(name)));
    advance();
    def.name = name.text;
    def.name_span = name.span;
  }

  // type_params = ("[" name "]" | "'" name | "'^" name | "'~" name)*
  void parse_type_params(std::vector<std::string> &sizes, std::vector<TypeParam> &types,
                         std::vector<bool> *order = nullptr) {
    for (;;) {
      if (is_sym("[") && peek(1).kind == TokenKind::Ident && is_sym("]", 2)) {
        advance();
        sizes.push_back(advance().text);
        advance();
        if (order) order->push_back(true);
        continue;
      }
      if (is_sym("[")) {
        const Token &open = advance();
        const Token &size = peek();
        error_at(size.span.valid() ? size.span : open.span,
                 fmt::format("expected a size parameter name, found {}", describe(size)));
      }
      if (!is_sym("'"))
        return;
      const Token &q = advance();
      TypeParam tp;
      if (accept_sym("^")) tp.kind = TypeParam::Lifted;
      else if (accept_sym("~")) tp.kind = TypeParam::SizeLifted;
      const Token &n = peek();
      if (n.kind != TokenKind::Ident || n.text == "_")
        error_at(n.span, fmt::format("expected a type parameter name after '{}', found {}",
                                     std::string(span_from(q.span).text()), describe(n)));
      advance();
      tp.name = n.text;
      tp.span = span_from(q.span);
      types.push_back(tp);
      if (order) order->push_back(false);
    }
  }

  // type_decl = "type" ("^" | "~")? name type_params "=" type
  std::unique_ptr<TypeDecl> parse_type_decl(size_t before_def) {
    const Token &kw = advance();
    auto d = std::make_unique<TypeDecl>();
    d->before_def = before_def;
    if (accept_sym("^")) d->lifted = TypeParam::Lifted;
    else if (accept_sym("~")) d->lifted = TypeParam::SizeLifted;
    const Token &name = peek();
    if (name.kind != TokenKind::Ident || name.text == "_")
      error_at(name.span, fmt::format("expected a type name after 'type', found {}", describe(name)));
    advance();
    d->name = name.text;
    d->name_span = name.span;
    parse_type_params(d->size_params, d->type_params, &d->param_is_size);
    expect_sym("=", fmt::format("after the name of type '{}'", d->name).c_str());
    d->definition = parse_type();
    d->span = span_from(kw.span);
    if (peek().kind != TokenKind::Eof && !is_decl_start())
      error_at(peek().span, fmt::format("unexpected {} after the definition of type '{}'",
                                        describe(peek()), d->name));
    return d;
  }

  // ---- Modules (compiler/modules/module_ast.h)

  // A name qualified by modules: `M`, `M.N`, `M.N.x` (a glued chain).
  std::string parse_qualname(const char *what) {
    const Token &t = peek();
    if (t.kind != TokenKind::Ident && t.kind != TokenKind::QualIdent)
      error_at(t.span, fmt::format("expected {}, found {}", what, describe(t)));
    std::string name = advance().text;
    while (is_sym(".") && peek().glued && peek(1).glued &&
           (peek(1).kind == TokenKind::Ident || peek(1).kind == TokenKind::QualIdent)) {
      advance();
      name += "." + advance().text;
    }
    return name;
  }

  // A string literal's contents (an import's path).
  std::string parse_path() {
    const Token &t = peek();
    if (t.kind != TokenKind::StringLit)
      error_at(t.span, fmt::format("expected a file name in double quotes, found {}", describe(t)));
    advance();
    return t.text;
  }

  // module_decl = "module" name mparam* (":" sig)? "=" mod | "module" "type" name "=" sig
  //             | "open" mod | "import" path | "local" decl | "include" mod
  std::shared_ptr<Decl> parse_module_decl() {
    Nest nest(*this);
    const Token &kw = advance();
    auto d = std::make_shared<Decl>();
    if (kw.text == "import") {
      d->kind = Decl::Import;
      d->name = parse_path();
    } else if (kw.text == "open" || kw.text == "include") {
      d->kind = kw.text == "open" ? Decl::Open : Decl::Include;
      d->mod = parse_mod_exp();
    } else if (kw.text == "local") {
      d->kind = Decl::Local;
      d->inner = parse_decl();
    } else if (kw.text == "module" && accept_kw("type")) {
      d->kind = Decl::ModType;
      d->name_span = peek().span;
      d->name = parse_binder("module type");
      expect_sym("=", "after the name of the module type");
      d->sig = parse_sig();
    } else {
      d->kind = Decl::Module;
      d->name_span = peek().span;
      d->name = parse_binder("module");
      while (is_sym("("))
        d->params.push_back(parse_mod_param());
      if (accept_sym(":"))
        d->sig = parse_sig();
      expect_sym("=", fmt::format("after the name of module '{}'", d->name).c_str());
      d->mod = parse_mod_exp();
    }
    d->span = span_from(kw.span);
    return d;
  }

  std::string parse_binder(const char *what) {
    const Token &t = peek();
    if (t.kind != TokenKind::Ident || t.text == "_")
      error_at(t.span, fmt::format("expected the name of the {}, found {}", what, describe(t)));
    return advance().text;
  }

  // mparam = "(" name ":" sig ")"
  ModParam parse_mod_param() {
    ModParam p;
    const Token &open = expect_sym("(", "to start a module parameter");
    p.name = parse_binder("module parameter");
    expect_sym(":", "after the name of the module parameter");
    p.sig = parse_sig();
    expect_sym(")", "to close the module parameter");
    p.span = span_from(open.span);
    return p;
  }

  // mod = mod_app (":" sig)*      mod_app = mod_atom mod_atom*
  std::shared_ptr<ModExp> parse_mod_exp() {
    Nest nest(*this);
    uint32_t begin = peek().span.begin;
    if (is_sym("\\")) {
      advance();
      auto m = std::make_shared<ModExp>();
      m->kind = ModExp::Lambda;
      while (is_sym("("))
        m->params.push_back(parse_mod_param());
      if (accept_sym(":"))
        m->sig = parse_sig();
      expect_sym("->", "after the parameters of the module lambda");
      m->fun = parse_mod_exp();
      m->span = span_from(begin);
      return m;
    }
    std::shared_ptr<ModExp> m = parse_mod_atom();
    while (is_sym("(") || is_sym("{") || peek().kind == TokenKind::Ident) {
      auto app = std::make_shared<ModExp>();
      app->kind = ModExp::Apply;
      app->fun = m;
      app->arg = parse_mod_atom();
      app->span = span_from(begin);
      m = app;
    }
    while (accept_sym(":")) {
      auto a = std::make_shared<ModExp>();
      a->kind = ModExp::Ascribe;
      a->fun = m;
      a->sig = parse_sig();
      a->span = span_from(begin);
      m = a;
    }
    return m;
  }

  // mod_atom = "{" decl* "}" | "(" mod ")" | qualname | "import" path
  std::shared_ptr<ModExp> parse_mod_atom() {
    Nest nest(*this);
    const Token &t = peek();
    auto m = std::make_shared<ModExp>();
    if (accept_sym("(")) {
      m = parse_mod_exp();
      expect_sym(")", "to close the module expression");
      return m;
    }
    if (accept_sym("{")) {
      m->kind = ModExp::Struct;
      struct_depth_++;
      while (!is_sym("}")) {
        if (peek().kind == TokenKind::Eof)
          error_at(t.span, "this module has no closing '}'");
        m->body.push_back(parse_decl());
      }
      struct_depth_--;
      advance();
    } else if (accept_kw("import")) {
      m->kind = ModExp::Import;
      m->name = parse_path();
    } else {
      m->kind = ModExp::Name;
      m->name = parse_qualname("a module");
    }
    m->span = span_from(t.span);
    return m;
  }

  // sig = sig_atom ("with" qualname type_params "=" type)*  |  "(" name ":" sig ")" "->" sig
  //     | sig_atom "->" sig
  std::shared_ptr<SigExp> parse_sig() {
    Nest nest(*this);
    uint32_t begin = peek().span.begin;
    std::shared_ptr<SigExp> s;
    if (is_sym("(") && peek(1).kind == TokenKind::Ident && is_sym(":", 2)) {
      advance();
      s = std::make_shared<SigExp>();
      s->kind = SigExp::Functor;
      s->name = advance().text;
      advance();
      s->base = parse_sig();
      expect_sym(")", "to close the module parameter");
      expect_sym("->", "after the parameter of the module type");
      s->result = parse_sig();
      s->span = span_from(begin);
      return s;
    }
    s = parse_sig_atom();
    while (is_kw("with")) {
      const Token &w = advance();
      auto r = std::make_shared<SigExp>();
      r->kind = SigExp::With;
      r->base = s;
      r->with_type = parse_qualname("a type name after 'with'");
      r->with_def = std::make_shared<TypeDecl>();
      r->with_def->name = r->with_type;
      r->with_def->name_span = span_from(w.span);
      parse_type_params(r->with_def->size_params, r->with_def->type_params,
                        &r->with_def->param_is_size);
      expect_sym("=", fmt::format("after 'with {}'", r->with_type).c_str());
      r->with_def->definition = parse_type();
      r->span = r->with_def->span = span_from(begin);
      s = r;
    }
    if (accept_sym("->")) {
      auto f = std::make_shared<SigExp>();
      f->kind = SigExp::Functor;
      f->base = s;
      f->result = parse_sig();
      f->span = span_from(begin);
      return f;
    }
    return s;
  }

  // sig_atom = "{" spec* "}" | qualname | "(" sig ")"
  std::shared_ptr<SigExp> parse_sig_atom() {
    const Token &t = peek();
    if (accept_sym("(")) {
      std::shared_ptr<SigExp> s = parse_sig();
      expect_sym(")", "to close the module type");
      return s;
    }
    auto s = std::make_shared<SigExp>();
    if (accept_sym("{")) {
      s->kind = SigExp::Specs;
      while (!accept_sym("}")) {
        if (peek().kind == TokenKind::Eof)
          error_at(t.span, "this module type has no closing '}'");
        s->specs.push_back(parse_spec());
      }
    } else {
      s->kind = SigExp::Name;
      s->name = parse_qualname("a module type");
    }
    s->span = span_from(t.span);
    return s;
  }

  // spec = "val" (name | "(" binop ")") type_params ":" type
  //      | "type" ("^" | "~")? name type_params ("=" type)?
  //      | "module" name ":" sig | "include" sig
  Spec parse_spec() {
    Spec sp;
    while (is_sym("#["))
      parse_attribute();
    const Token &kw = peek();
    if (accept_kw("val")) {
      sp.kind = Spec::Val;
      if (is_sym("(") && (binop_info(peek(1)) || is_sym("-", 1)) && is_sym(")", 2)) {
        advance();
        sp.name = advance().text;
        advance();
      } else if (binop_info(peek()) || is_sym("-")) {
        sp.name = advance().text; // `val +: t -> t -> t`
      } else {
        sp.name = parse_binder("value");
      }
      parse_type_params(sp.size_params, sp.type_params);
      expect_sym(":", fmt::format("after 'val {}'", sp.name).c_str());
      sp.type = parse_type();
    } else if (accept_kw("type")) {
      sp.kind = Spec::Type;
      auto d = std::make_shared<TypeDecl>();
      if (accept_sym("^")) d->lifted = TypeParam::Lifted;
      else if (accept_sym("~")) d->lifted = TypeParam::SizeLifted;
      d->name_span = peek().span;
      d->name = sp.name = parse_binder("type");
      parse_type_params(d->size_params, d->type_params, &d->param_is_size);
      sp.abstract = !accept_sym("=");
      if (!sp.abstract) d->definition = parse_type();
      d->span = span_from(kw.span);
      sp.tdecl = d;
    } else if (accept_kw("module")) {
      sp.kind = Spec::Module;
      sp.name = parse_binder("module");
      expect_sym(":", "after the name of the module");
      sp.sig = parse_sig();
    } else if (accept_kw("include")) {
      sp.kind = Spec::Include;
      sp.sig = parse_sig();
    } else {
      error_at(kw.span, fmt::format("expected a specification ('val', 'type', 'module' or "
                                    "'include'), found {}",
                                    describe(kw)));
    }
    sp.span = span_from(kw.span);
    return sp;
  }

  bool is_decl_start() const {
    const Token &t = peek();
    if (t.kind == TokenKind::Symbol)
      return t.text == "#[" || (struct_depth_ > 0 && t.text == "}");
    return t.kind == TokenKind::Keyword &&
           (t.text == "def" || t.text == "let" || t.text == "entry" || t.text == "type" ||
            is_module_keyword(t));
  }

  bool starts_param() const {
    const Token &t = peek();
    // A literal is no parameter, but parse_param reports it better than what follows.
    if (t.kind == TokenKind::Ident || t.kind == TokenKind::IntLit || t.kind == TokenKind::FloatLit)
      return true;
    return t.kind == TokenKind::Symbol && (t.text == "(" || t.text == "{" || t.text == "#[");
  }

  // param = attribute* pattern_atom      `x`, `(x: t)`, `(a, b)`, `{x, y}`, `()`, `_`
  Pattern parse_param() {
    while (is_sym("#["))
      parse_attribute();
    Pattern p = parse_pattern_atom(/*allow_literal=*/false);
    if (p.kind == Pattern::Tuple && p.elems.empty() && !p.annotation)
      p.annotation = Type::unit();
    complete_annotation(p);
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

  // type      = "(" name ":" type ")" "->" type | type_term "->" type
  //           | "?" ("[" name "]")+ "." type | type_term
  // type_term = "*" type_term | sum_clause ("|" sum_clause)* | type_apply
  Type parse_type() {
    Nest nest(*this);
    uint32_t begin = peek().span.begin;
    if (is_sym("(") && peek(1).kind == TokenKind::Ident && is_sym(":", 2)) {
      // (n: i64) -> [n]i32: a named parameter; only before an arrow.
      size_t save = pos_;
      advance();
      std::string pname = advance().text;
      advance();
      Type param = parse_type();
      if (accept_sym(")") && accept_sym("->")) {
        Type result = parse_type();
        return Type::function(std::move(param), std::move(result), pname);
      }
      pos_ = save;
    }
    if (is_sym("?")) {
      // ?[n][m].t: sizes the value decides (existential). Kept as unknown sizes.
      advance();
      std::vector<std::string> names;
      while (accept_sym("[")) {
        const Token &n = peek();
        if (n.kind != TokenKind::Ident)
          error_at(n.span, fmt::format("expected a size name, found {}", describe(n)));
        names.push_back(advance().text);
        expect_sym("]", "after the existential size");
      }
      if (names.empty())
        error_at(peek().span, fmt::format("expected '[' after '?', found {}", describe(peek())));
      expect_sym(".", "after the existential sizes");
      Type t = parse_type();
      forget_dims(t, names);
      return t;
    }
    Type t = parse_type_term(begin);
    if (accept_sym("->")) {
      Type result = parse_type();
      return Type::function(std::move(t), std::move(result));
    }
    return t;
  }

  // The sizes of an existential type are unknown until the value gives them.
  static void forget_dims(Type &t, const std::vector<std::string> &names) {
    for (Dim &d : t.dims)
      if (d.kind == Dim::Var && std::find(names.begin(), names.end(), d.name) != names.end())
        d = Dim::unknown();
    for (Type &e : t.elems)
      forget_dims(e, names);
    for (auto &p : t.payloads)
      for (Type &e : p)
        forget_dims(e, names);
  }

  Type parse_type_term(uint32_t begin) {
    Nest nest(*this);
    if (accept_sym("*")) {
      Type t = parse_type_term(begin);
      t.unique = true;
      return t;
    }
    if (peek().kind == TokenKind::Constructor) {
      std::vector<std::pair<std::string, std::vector<Type>>> cs;
      for (;;) {
        const Token &c = peek();
        if (c.kind != TokenKind::Constructor)
          error_at(c.span, fmt::format("expected a constructor such as '#name', found {}", describe(c)));
        advance();
        std::vector<Type> payload;
        while (starts_type_atom())
          payload.push_back(parse_type_atom());
        for (const auto &prev : cs)
          if (prev.first == c.text)
            error_at(c.span, fmt::format("Duplicate constructor '#{}' in sum type", c.text));
        cs.push_back({c.text, std::move(payload)});
        if (!accept_sym("|"))
          break;
      }
      return Type::sum(std::move(cs));
    }
    return parse_type_apply();
  }

  bool starts_type_atom() const {
    const Token &t = peek();
    if (t.kind == TokenKind::Ident || t.kind == TokenKind::QualIdent)
      return true;
    return t.kind == TokenKind::Symbol && (t.text == "(" || t.text == "{" || t.text == "[");
  }

  // type_apply = type_atom type_arg*       type_arg = "[" dim "]" | type_atom
  Type parse_type_apply() {
    const Token &t = peek();
    if (t.kind == TokenKind::Ident || t.kind == TokenKind::QualIdent) {
      PrimType p;
      if (prim_from_name(t.text, p)) {
        advance();
        return Type::prim_type(p);
      }
      // A name qualified by modules (`M.t`, `f32.t`) is resolved by compiler/modules.
      std::string name = parse_qualname("a type");
      std::vector<Type> args;
      for (;;) {
        if (is_sym("[")) {
          // In an application `[n]` is always a size argument (`t [n] i32`).
          advance();
          args.push_back(Type::size_arg(parse_dim()));
          continue;
        }
        if (peek().kind == TokenKind::Ident || peek().kind == TokenKind::QualIdent || is_sym("(") ||
            is_sym("{")) {
          args.push_back(parse_type_atom());
          continue;
        }
        break;
      }
      return Type::named(name, std::move(args));
    }
    return parse_type_atom();
  }

  // type_atom = prim | name | dim+ type_term | "(" ")" | "(" type ")" | "(" type ("," type)+ ")"
  //           | "{" (name ":" type ("," name ":" type)*)? "}"
  Type parse_type_atom() {
    Nest nest(*this);
    const Token &t = peek();
    uint32_t begin = t.span.begin;
    if (is_sym("[")) {
      std::vector<Dim> dims;
      while (is_sym("[")) {
        advance();
        dims.push_back(parse_dim());
      }
      Type elem = parse_type_elem(begin);
      if (elem.unique)
        error_at(span_from(begin), "a uniqueness mark '*' must come before the array type");
      return Type::array(std::move(elem), std::move(dims));
    }
    if (is_sym("(")) {
      advance();
      std::vector<Type> elems;
      if (!is_sym(")")) {
        elems.push_back(parse_type());
        while (accept_sym(",")) {
          if (is_sym(")"))
            break;
          elems.push_back(parse_type());
        }
      }
      expect_sym(")", "to close the tuple type");
      if (elems.size() == 1)
        return elems[0];
      return Type::tuple(std::move(elems));
    }
    if (is_sym("{")) {
      advance();
      std::vector<std::pair<std::string, Type>> fields;
      while (!is_sym("}")) {
        const Token &f = peek();
        if (f.kind != TokenKind::Ident && f.kind != TokenKind::IntLit)
          error_at(f.span, fmt::format("expected a field name, found {}", describe(f)));
        advance();
        for (const auto &prev : fields)
          if (prev.first == f.text)
            error_at(f.span, fmt::format("Duplicate field '{}' in record type", f.text));
        expect_sym(":", "after the field name");
        fields.push_back({f.text, parse_type()});
        if (!accept_sym(","))
          break;
      }
      expect_sym("}", "to close the record type");
      return Type::record(std::move(fields));
    }
    if (t.kind == TokenKind::Ident || t.kind == TokenKind::QualIdent) {
      PrimType p;
      if (prim_from_name(t.text, p)) {
        advance();
        return Type::prim_type(p);
      }
      return Type::named(parse_qualname("a type"));
    }
    error_at(t.span, fmt::format("expected a type, found {}", describe(t)));
  }

  // The element of an array type: `[n]i32`, `[n][m](i32, f32)`, `[n]t 'a`, `[n]#a | #b`.
  Type parse_type_elem(uint32_t begin) {
    if (is_sym("*")) {
      advance();
      Type t = parse_type_elem(begin);
      t.unique = true;
      return t;
    }
    if (peek().kind == TokenKind::Constructor)
      return parse_type_term(begin);
    if (peek().kind == TokenKind::Ident || peek().kind == TokenKind::QualIdent)
      return parse_type_apply();
    return parse_type_atom();
  }

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
    advance(); // ']'
    return Dim::var(std::string(s.text()));
  }

  // ---- Patterns ----

  // pattern      = attribute* pattern_atom (":" type)?
  //              | constructor pattern_atom*
  Pattern parse_pattern(bool allow_literal = false) {
    while (is_sym("#["))
      parse_attribute();
    if (peek().kind == TokenKind::Constructor) {
      const Token &c = advance();
      Pattern p;
      p.kind = Pattern::Constr;
      p.name = c.text;
      while (starts_pattern_atom())
        p.elems.push_back(parse_pattern_atom(allow_literal));
      p.span = span_from(c.span);
      if (accept_sym(":")) {
        p.annotation = parse_type();
        p.span = span_from(c.span);
      }
      return p;
    }
    Pattern p = parse_pattern_atom(allow_literal);
    if (accept_sym(":")) {
      p.annotation = parse_type();
      p.span = span_from(p.span);
    }
    return p;
  }


  bool starts_pattern_atom() const {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Ident:
    case TokenKind::IntLit:
    case TokenKind::CharLit:
    case TokenKind::FloatLit:
    case TokenKind::Constructor: return true;
    case TokenKind::Keyword: return t.text == "true" || t.text == "false";
    case TokenKind::Symbol: return t.text == "(" || t.text == "{";
    default: return false;
    }
  }

  // pattern_atom = name | "_" | "(" binop ")" | "(" ")" | "(" pattern ")"
  //              | "(" pattern ("," pattern)+ ")" | "{" field_pattern ("," field_pattern)* "}"
  //              | literal | "-" number | constructor
  // field_pattern = name ("=" pattern | ":" type)?
  Pattern parse_pattern_atom(bool allow_literal) {
    Nest nest(*this);
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
    if (t.kind == TokenKind::Constructor) {
      advance();
      p.kind = Pattern::Constr;
      p.name = t.text;
      p.span = t.span;
      return p;
    }
    if (is_sym("(")) {
      advance();
      if (accept_sym(")")) {
        p.kind = Pattern::Tuple;
        p.span = span_from(t.span);
        return p;
      }
      if ((binop_info(peek()) || is_sym("-")) && is_sym(")", 1)) {
        const Token &op = advance();
        advance();
        p.kind = Pattern::Id;
        p.name = op.text;
        p.span = span_from(t.span);
        return p;
      }
      Pattern first = parse_pattern(allow_literal);
      if (accept_sym(")"))
        return first;
      p.kind = Pattern::Tuple;
      p.elems.push_back(std::move(first));
      while (accept_sym(",")) {
        if (is_sym(")"))
          break;
        p.elems.push_back(parse_pattern(allow_literal));
      }
      expect_sym(")", "to close the tuple pattern");
      if (p.elems.size() == 1) // (x,) is x, as in tuple expressions and types
        return std::move(p.elems[0]);
      p.span = span_from(t.span);
      return p;
    }
    if (is_sym("{")) {
      advance();
      p.kind = Pattern::Record;
      while (!is_sym("}")) {
        const Token &f = peek();
        if (f.kind != TokenKind::Ident && f.kind != TokenKind::IntLit)
          error_at(f.span, fmt::format("expected a field name, found {}", describe(f)));
        advance();
        for (const std::string &prev : p.fields)
          if (prev == f.text)
            error_at(f.span, fmt::format("Duplicate fields in record pattern: '{}'", f.text));
        p.fields.push_back(f.text);
        if (accept_sym("=")) {
          p.elems.push_back(parse_pattern(allow_literal));
        } else {
          Pattern id;
          id.kind = Pattern::Id;
          id.name = f.text;
          id.span = f.span;
          if (accept_sym(":")) {
            id.annotation = parse_type();
            id.span = span_from(f.span);
          }
          p.elems.push_back(std::move(id));
        }
        if (!accept_sym(","))
          break;
      }
      expect_sym("}", "to close the record pattern");
      p.span = span_from(t.span);
      std::vector<size_t> order;
      if (tuple_field_names(p.fields, order)) { // {0 = a, 1 = b} is the tuple (a, b)
        std::vector<Pattern> elems;
        for (size_t i : order) elems.push_back(std::move(p.elems[i]));
        p.kind = Pattern::Tuple;
        p.elems = std::move(elems);
        p.fields.clear();
      }
      return p;
    }
    bool negative = is_sym("-") && (peek(1).kind == TokenKind::IntLit || peek(1).kind == TokenKind::FloatLit);
    if (t.kind == TokenKind::IntLit || t.kind == TokenKind::CharLit || t.kind == TokenKind::FloatLit ||
        negative ||
        (t.kind == TokenKind::Keyword && (t.text == "true" || t.text == "false"))) {
      if (!allow_literal)
        error_at(t.span, "Refutable pattern not allowed here: a literal pattern can only be a "
                         "case of 'match'");
      if (negative)
        advance();
      ExprPtr lit = parse_atom();
      if (negative) {
        ExprPtr neg = make_expr(ExprKind::Unary, span_from(t.span));
        neg->unop = UnOp::Neg;
        neg->args.push_back(std::move(lit));
        lit = std::move(neg);
      }
      p.kind = Pattern::Literal;
      p.span = lit->span;
      p.literal = std::shared_ptr<Expr>(lit.release());
      return p;
    }
    if (is_module_keyword(t))
      unsupported_keyword(t);
    error_at(t.span, fmt::format("expected a pattern (a name, '_' or a tuple), found {}", describe(t)));
  }

  // ---- Expressions ----

  // exp = range_exp ((":" | ":>") type)*
  ExprPtr parse_exp() {
    Nest nest(*this);
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
    ExprPtr start = parse_binary(0);
    if (!(is_sym("..") || is_sym("...") || is_sym("..<") || is_sym("..>")))
      return start;
    std::string op1 = advance().text;
    ExprPtr second = parse_binary(0);
    ExprPtr r = make_expr(ExprKind::Range, start->span);
    if (op1 == ".." && (is_sym("...") || is_sym("..<") || is_sym("..>"))) {
      std::string op2 = advance().text;
      ExprPtr end = parse_binary(0);
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

  // One step of an update's path: `[i, j]` or `.a.b`.
  struct UpdateStep {
    bool index = false;
    std::vector<IndexPart> parts;     // index
    std::vector<std::string> fields;  // !index
  };

  // update_path = step+      step = "[" index_parts "]" | "."? field ("." field)*
  // (the first step of a `with` may be a field without a dot; later ones are glued)
  std::vector<UpdateStep> parse_update_path(bool first_may_be_field) {
    std::vector<UpdateStep> steps;
    for (;;) {
      bool first = steps.empty();
      if (is_sym("[") && (first || peek().glued)) {
        advance();
        UpdateStep st;
        st.index = true;
        st.parts = parse_index_parts();
        steps.push_back(std::move(st));
        continue;
      }
      bool field_start = (is_sym(".") && (first || peek().glued)) ||
                         (first && first_may_be_field &&
                          (peek().kind == TokenKind::Ident || peek().kind == TokenKind::IntLit));
      if (!field_start)
        break;
      UpdateStep st;
      st.fields = parse_field_path();
      steps.push_back(std::move(st));
    }
    if (steps.empty())
      error_at(peek().span, fmt::format("expected '[' or a field name, found {}", describe(peek())));
    return steps;
  }

  static std::vector<IndexPart> clone_parts(const std::vector<IndexPart> &parts) {
    std::vector<IndexPart> out;
    for (const IndexPart &p : parts) {
      IndexPart q;
      q.is_slice = p.is_slice;
      q.span = p.span;
      for (auto [from, to] : {std::pair{&p.index, &q.index}, std::pair{&p.start, &q.start},
                              std::pair{&p.end, &q.end}, std::pair{&p.stride, &q.stride}})
        if (*from) *to = clone_expr(**from);
      out.push_back(std::move(q));
    }
    return out;
  }

  // `base with steps = value` as updates and record updates: consecutive index steps
  // are one index (`[i][j]` is `[i, j]`); a field after an index, or an index after a
  // field, updates the inner value: `xs with [i].f = v` is
  // `xs with [i] = (xs[i] with f = v)` (the path's prefixes are read from a copy of
  // `base`).
  ExprPtr make_update(ExprPtr base, std::vector<UpdateStep> &steps, size_t k, ExprPtr value,
                      const Span &span) {
    if (k == steps.size())
      return value;
    UpdateStep &st = steps[k];
    if (st.index) {
      std::vector<IndexPart> parts = std::move(st.parts);
      while (k + 1 < steps.size() && steps[k + 1].index) {
        for (const IndexPart &p : parts)
          if (p.is_slice)
            error_at(p.span, "an update through a slice and then an index is not supported; write "
                             "the indices in one [...]");
        k++;
        for (IndexPart &p : steps[k].parts)
          parts.push_back(std::move(p));
      }
      if (k + 1 < steps.size()) {
        ExprPtr inner = make_expr(ExprKind::Index, span);
        inner->args.push_back(clone_expr(*base));
        inner->indices = clone_parts(parts);
        value = make_update(std::move(inner), steps, k + 1, std::move(value), span);
      }
      ExprPtr u = make_expr(ExprKind::Update, span);
      u->args.push_back(std::move(base));
      u->args.push_back(std::move(value));
      u->indices = std::move(parts);
      return u;
    }
    std::vector<std::string> path = std::move(st.fields);
    while (k + 1 < steps.size() && !steps[k + 1].index) {
      k++;
      for (std::string &f : steps[k].fields)
        path.push_back(std::move(f));
    }
    if (k + 1 < steps.size()) {
      ExprPtr inner = clone_expr(*base);
      for (const std::string &f : path)
        inner = field_access(std::move(inner), f, span);
      value = make_update(std::move(inner), steps, k + 1, std::move(value), span);
    }
    ExprPtr u = make_expr(ExprKind::RecordUpdate, span);
    u->fields = std::move(path);
    u->args.push_back(std::move(base));
    u->args.push_back(std::move(value));
    return u;
  }

  // update = "with" update_path "=" binary_exp
  // `with` binds looser than every operator but backticks (Futhark's table).
  ExprPtr parse_with_tail(ExprPtr e) {
    while (is_kw("with")) {
      advance();
      std::vector<UpdateStep> steps = parse_update_path(/*first_may_be_field=*/true);
      expect_sym("=", "after the indices of 'with'");
      ExprPtr value = parse_binary(kPipeRight);
      Span span = e->span.to(value->span);
      e = make_update(std::move(e), steps, 0, std::move(value), span);
    }
    return e;
  }

  // field_path = field ("." field)*       field = name | int
  std::vector<std::string> parse_field_path() {
    std::vector<std::string> path;
    for (;;) {
      accept_sym(".");
      const Token &f = peek();
      if (f.kind != TokenKind::Ident && f.kind != TokenKind::IntLit)
        error_at(f.span, fmt::format("expected '[' or a field name after 'with', found {}", describe(f)));
      advance();
      // `x.i32` may lex as one qualified name when a field is named like a module.
      for (size_t at = 0;;) {
        size_t dot = f.text.find('.', at);
        path.push_back(f.text.substr(at, dot - at));
        if (dot == std::string::npos)
          break;
        at = dot + 1;
      }
      if (!(is_sym(".") && peek().glued))
        return path;
    }
  }

  // `e.f`: a tuple projection for a number, a field access otherwise.
  ExprPtr field_access(ExprPtr e, const std::string &field, const Span &begin) {
    bool numeric = !field.empty() && std::isdigit(static_cast<unsigned char>(field[0]));
    ExprPtr p = make_expr(numeric ? ExprKind::Project : ExprKind::Field, span_from(begin));
    if (numeric) {
      if (field.size() > 7)
        error_at(p->span, "tuple field index is too large");
      p->field = std::stoi(field);
    }
    p->name = field;
    p->args.push_back(std::move(e));
    return p;
  }

  // binary_exp = prefix_exp (binop prefix_exp)*     by precedence climbing; see the table
  ExprPtr parse_binary(int min_prec) {
    ExprPtr lhs = parse_prefix();
    for (;;) {
      if (is_kw("with")) {
        // Looser than every operator but backticks.
        if (min_prec > kBacktick)
          return lhs;
        lhs = parse_with_tail(std::move(lhs));
        continue;
      }
      if (is_sym("`")) {
        if (min_prec > kBacktick)
          return lhs;
        // x `f` y: a left section `(x `f`)` stops here.
        if (peek(1).kind != TokenKind::Ident && peek(1).kind != TokenKind::QualIdent)
          error_at(peek(1).span, fmt::format("expected a function name after '`', found {}",
                                             describe(peek(1))));
        if (is_sym("`", 2) && is_sym(")", 3))
          return lhs;
        advance();
        const Token &fname = advance();
        expect_sym("`", "to close the backtick operator");
        ExprPtr rhs = parse_binary(kBacktick + 1);
        ExprPtr app = make_expr(ExprKind::Apply, lhs->span.to(rhs->span));
        app->name = fname.text;
        app->args.push_back(std::move(lhs));
        app->args.push_back(std::move(rhs));
        lhs = std::move(app);
        continue;
      }
      if (at_qualified_op()) {
        // x M.+ y: a module's operator, with the precedence of its own.
        std::optional<BinOpInfo> qinfo = binop_info(peek(2));
        if (qinfo->prec < min_prec)
          return lhs;
        std::string name = peek().text + "." + peek(2).text;
        advance();
        advance();
        advance();
        ExprPtr rhs = parse_binary(qinfo->right_assoc ? qinfo->prec : qinfo->prec + 1);
        ExprPtr app = make_expr(ExprKind::Apply, lhs->span.to(rhs->span));
        app->name = name;
        app->args.push_back(std::move(lhs));
        app->args.push_back(std::move(rhs));
        lhs = std::move(app);
        continue;
      }
      std::optional<BinOpInfo> info = binop_info(peek());
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
        if (info->prec != kPipeRight &&
            (lhs->kind == ExprKind::Apply || lhs->kind == ExprKind::ApplyExpr))
          lhs->pipe_left = true;
        continue;
      }
      Span s = lhs->span.to(rhs->span);
      if (info->is_named) {
        ExprPtr app = make_expr(ExprKind::Apply, s);
        app->name = op.text;
        app->args.push_back(std::move(lhs));
        app->args.push_back(std::move(rhs));
        lhs = std::move(app);
        continue;
      }
      ExprPtr b = make_expr(ExprKind::Binary, s);
      b->binop = info->op;
      b->args.push_back(std::move(lhs));
      b->args.push_back(std::move(rhs));
      lhs = std::move(b);
    }
  }

  // `x |> f a` and `f a <| x` become `f a x`.
  ExprPtr pipe_into(ExprPtr fun, ExprPtr arg, const Token &) {
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
    if (fun->kind == ExprKind::OpSection && fun->args.size() == 1 && fun->name.empty()) {
      ExprPtr b = make_expr(ExprKind::Binary, s);
      b->binop = fun->binop;
      ExprPtr given = std::move(fun->args[0]);
      b->args.push_back(fun->section_left ? std::move(given) : std::move(arg));
      b->args.push_back(fun->section_left ? std::move(arg) : std::move(given));
      return b;
    }
    // Any other function: an application of the expression.
    ExprPtr app = make_expr(ExprKind::ApplyExpr, s);
    app->args.push_back(std::move(fun));
    app->args.push_back(std::move(arg));
    return app;
  }

  bool starts_prefix_form() const {
    return is_kw("if") || is_kw("let") || is_kw("loop") || is_kw("match") || is_sym("\\") ||
           is_sym("#[");
  }

  // prefix_exp = "-" prefix_exp | "!" prefix_exp
  //            | "if" exp "then" exp "else" exp
  //            | "let" ... | "loop" ... | "match" ... | "\" ... | attribute exp
  //            | apply_exp
  ExprPtr parse_prefix() {
    const Token &t = peek();
    if (is_sym("-") || is_sym("!")) {
      Nest nest(*this);
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
    if (is_kw("match"))
      return parse_match();
    if (is_sym("\\"))
      return parse_lambda();
    if (is_sym("#[")) {
      uint32_t begin = t.span.begin;
      bool unsafe = parse_attribute();
      ExprPtr body = parse_exp();
      if (!unsafe)
        return body;
      ExprPtr u = make_expr(ExprKind::Unsafe, span_from(begin));
      u->args.push_back(std::move(body));
      return u;
    }
    return parse_apply();
  }

  // The operand of unary `-`/`!`: an application (`-f x` is `-(f x)`), or another
  // prefix form.
  ExprPtr parse_prefix_operand() {
    if (is_sym("-") || is_sym("!") || starts_prefix_form())
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

  // let      = "let" ("[" name "]")* pattern "=" exp let_body
  //          | "let" name "[" index_parts "]" "=" exp let_body     (glued "[")
  //          | "let" binding type_params param+ (":" type)? "=" exp let_body
  // let_body = "in" exp | let                                    ("in" may be left out
  //                                                               before another let)
  ExprPtr parse_let() {
    const Token &kw = advance();
    const Token &first = peek();
    ExprPtr value;
    Pattern pat;
    std::unique_ptr<FunDef> fun;
    std::vector<std::string> sizes;
    if (first.kind == TokenKind::Ident && first.text != "_" && peek(1).glued &&
        (is_sym("[", 1) ||
         (is_sym(".", 1) && (peek(2).kind == TokenKind::Ident || peek(2).kind == TokenKind::IntLit ||
                             peek(2).kind == TokenKind::QualIdent)))) {
      // let a[i] = v  ==>  let a = a with [i] = v;   let r.f[i] = v, let a[i].f = v likewise
      advance();
      std::vector<UpdateStep> steps = parse_update_path(/*first_may_be_field=*/false);
      expect_sym("=", "after the indices of 'let'");
      ExprPtr v = parse_exp();
      ExprPtr arr = make_expr(ExprKind::Var, first.span);
      arr->name = first.text;
      value = make_update(std::move(arr), steps, 0, std::move(v), span_from(first.span));
      pat.kind = Pattern::Id;
      pat.name = first.text;
      pat.span = first.span;
    } else if (starts_local_function()) {
      fun = std::make_unique<FunDef>();
      uint32_t begin = peek().span.begin;
      parse_function(*fun, "let", /*local=*/true);
      fun->span = span_from(begin);
    } else {
      while (is_sym("[") && peek(1).kind == TokenKind::Ident && is_sym("]", 2)) {
        advance();
        sizes.push_back(advance().text);
        advance();
      }
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
    if (fun) {
      ExprPtr e = make_expr(ExprKind::LetFun, span_from(kw.span));
      e->fundef = std::move(fun);
      e->args.push_back(std::move(body));
      return e;
    }
    ExprPtr e = make_expr(ExprKind::Let, span_from(kw.span));
    e->pattern = std::move(pat);
    e->size_params = std::move(sizes);
    e->args.push_back(std::move(value));
    e->args.push_back(std::move(body));
    return e;
  }

  // After `let`: a local function definition (a name or operator with parameters)?
  bool starts_local_function() const {
    size_t ahead = 0;
    if (peek().kind == TokenKind::Ident && peek().text != "_") {
      ahead = 1;
    } else if (is_sym("(") && (binop_info(peek(1)) || is_sym("-", 1)) && is_sym(")", 2)) {
      ahead = 3;
    } else {
      return false;
    }
    const Token &t = peek(ahead);
    if (t.kind == TokenKind::Ident)
      return true;
    return t.kind == TokenKind::Symbol &&
           (t.text == "(" || t.text == "{" || (t.text == "[" && !t.glued) || t.text == "'" ||
            t.text == "#[");
  }

  // loop      = "loop" pattern ("=" exp)? loop_form "do" exp
  // loop_form = "for" name "<" exp | "for" pattern "in" exp | "while" exp
  ExprPtr parse_loop() {
    const Token &kw = advance();
    ExprPtr e = make_expr(ExprKind::Loop, kw.span);
    while (is_sym("[") && peek(1).kind == TokenKind::Ident && is_sym("]", 2)) {
      advance();
      e->size_params.push_back(advance().text);
      advance();
    }
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

  // match = "match" exp ("case" pattern "->" exp)+
  ExprPtr parse_match() {
    const Token &kw = advance();
    ExprPtr e = make_expr(ExprKind::Match, kw.span);
    e->args.push_back(parse_exp());
    if (!is_kw("case"))
      error_at(peek().span, fmt::format("expected 'case' after the value of 'match', found {}",
                                        describe(peek())));
    while (accept_kw("case")) {
      e->params.push_back(parse_pattern(/*allow_literal=*/true));
      expect_sym("->", "after the pattern of the case");
      e->args.push_back(parse_exp());
    }
    e->span = span_from(kw.span);
    return e;
  }

  // lambda = "\" param+ (":" type)? "->" exp
  ExprPtr parse_lambda() {
    const Token &bs = advance();
    ExprPtr e = make_expr(ExprKind::Lambda, bs.span);
    while (!is_sym("->") && !is_sym(":") && peek().kind != TokenKind::Eof)
      e->params.push_back(parse_param());
    if (e->params.empty())
      error_at(peek().span, fmt::format("expected a parameter after '\\', found {}", describe(peek())));
    if (accept_sym(":"))
      e->annotation = parse_type_term(peek().span.begin);
    expect_sym("->", "after the parameters of the anonymous function");
    e->args.push_back(parse_exp());
    e->span = span_from(bs.span);
    return e;
  }

  // `M.+` (glued) followed by an operand: a module's operator used infix.
  // (`(x M.+)`, a left section, is the caller's when `in_section` is false.)
  bool at_qualified_op(bool in_section = false) const {
    std::optional<BinOpInfo> info;
    return peek().kind == TokenKind::Ident && is_sym(".", 1) && peek(1).glued && peek(2).glued &&
           (info = binop_info(peek(2))) && !info->is_pipe && (in_section || !is_sym(")", 3));
  }

  bool starts_atom() const {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Ident: return !at_qualified_op(/*in_section=*/true);
    case TokenKind::QualIdent:
    case TokenKind::IntLit:
    case TokenKind::CharLit:
    case TokenKind::StringLit:
    case TokenKind::FloatLit:
    case TokenKind::Constructor: return true;
    case TokenKind::Keyword: return t.text == "true" || t.text == "false";
    case TokenKind::Symbol:
      return t.text == "(" || t.text == "[" || t.text == "{" ||
             (t.text == "?" && is_sym("?", 1) && is_sym("?", 2));
    default: return false;
    }
  }

  // Literals can never be functions; a token after one is a missing keyword or operator.
  static bool is_plain_value(const Expr &e) {
    return e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit ||
           e.kind == ExprKind::ArrayLit;
  }

  // apply_exp = "assert" postfix_exp postfix_exp
  //           | constructor postfix_exp*
  //           | postfix_exp postfix_exp* lambda?
  ExprPtr parse_apply() {
    if (is_kw("assert")) {
      const Token &kw = advance();
      if (!starts_atom())
        error_at(peek().span, fmt::format("expected the condition of 'assert', found {}", describe(peek())));
      ExprPtr cond = parse_postfix();
      if (!starts_atom() && !starts_prefix_form())
        error_at(peek().span, fmt::format("expected the checked expression after the condition of "
                                          "'assert', found {}",
                                          describe(peek())));
      ExprPtr body = starts_atom() ? parse_postfix() : parse_prefix();
      ExprPtr e = make_expr(ExprKind::Assert, span_from(kw.span));
      e->args.push_back(std::move(cond));
      e->args.push_back(std::move(body));
      return e;
    }
    if (peek().kind == TokenKind::Constructor) {
      const Token &c = advance();
      ExprPtr e = make_expr(ExprKind::Constr, c.span);
      e->name = c.text;
      while (starts_atom())
        e->args.push_back(parse_postfix());
      e->span = span_from(c.span);
      return e;
    }
    uint32_t begin = peek().span.begin;
    ExprPtr callee = parse_postfix();
    if (!starts_atom() && !is_sym("\\"))
      return callee;
    if (is_plain_value(*callee))
      return callee; // `0 1`: the caller reports what it expected (e.g. 'then')
    std::vector<ExprPtr> args;
    while (starts_atom())
      args.push_back(parse_postfix());
    if (is_sym("\\")) // `f x \y -> ...`: a lambda as the last argument
      args.push_back(parse_lambda());
    if (callee->kind == ExprKind::Var) {
      ExprPtr app = make_expr(ExprKind::Apply, callee->span);
      app->name = callee->name;
      app->args = std::move(args);
      app->span = span_from(callee->span);
      return app;
    }
    ExprPtr app = make_expr(ExprKind::ApplyExpr, span_from(begin));
    app->args.push_back(std::move(callee));
    for (ExprPtr &a : args)
      app->args.push_back(std::move(a));
    return app;
  }

  // Whether the field section starting here (at its first '.') indexes somewhere:
  // `(.a[0])`, `(.a.b[1:])`.
  bool section_has_index() const {
    for (size_t k = 0;; k += 2) {
      if (!is_sym(".", k))
        return false;
      if (is_sym("[", k + 2) && peek(k + 2).glued)
        return true;
    }
  }

  // `(.[i].f[j:])`, the opening parenthesis consumed: `\x -> x[i].f[j:]`.
  ExprPtr index_section(const Token &open) {
    static const char *const param = "section%x"; // no source name can be this
    ExprPtr x = make_expr(ExprKind::Var, peek().span);
    x->name = param;
    if (is_sym(".") && is_sym("[", 1)) {
      advance(); // '.'; the postfix loop takes `[...]` glued to it
    }
    ExprPtr body = parse_postfix_ops(std::move(x), /*first_glued=*/true);
    expect_sym(")", "to close the index section");
    ExprPtr e = make_expr(ExprKind::Lambda, span_from(open.span));
    Pattern p;
    p.kind = Pattern::Id;
    p.name = param;
    p.span = open.span;
    e->params.push_back(std::move(p));
    e->args.push_back(std::move(body));
    return e;
  }

  // postfix_exp = atom ("[" index_parts "]" | "." int | "." name)*       ("[" and "." glued)
  ExprPtr parse_postfix() { return parse_postfix_ops(parse_atom(), false); }

  // The postfix operators after `e`; `first_glued`: the first needs no gluing (the
  // beginning of an index section).
  ExprPtr parse_postfix_ops(ExprPtr e, bool first_glued) {
    for (bool first = true;; first = false) {
      bool glued = peek().glued || (first && first_glued);
      if (is_sym("[") && glued) {
        advance();
        std::vector<IndexPart> parts = parse_index_parts();
        ExprPtr ix = make_expr(ExprKind::Index, span_from(e->span));
        ix->args.push_back(std::move(e));
        ix->indices = std::move(parts);
        e = std::move(ix);
        continue;
      }
      if (is_sym(".") && glued && is_sym("(", 1) && peek(1).glued && is_module_path(*e)) {
        // M.(e): e with the names of module M in scope (compiler/modules).
        advance();
        advance();
        ExprPtr open = make_expr(ExprKind::OpenIn, e->span);
        open->name = module_path(*e);
        open->args.push_back(parse_exp());
        expect_sym(")", "to close the local open");
        open->span = span_from(open->span);
        e = std::move(open);
        continue;
      }
      if (is_sym(".") && glued) {
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
        if ((field.kind == TokenKind::Ident || field.kind == TokenKind::QualIdent) && field.glued) {
          advance();
          // `r.a.b` may lex as r . (a.b) when `a` is a module name; split it.
          std::string text = field.text;
          size_t at = 0;
          for (;;) {
            size_t dot_at = text.find('.', at);
            Span span = e->span; // read before e is moved into the argument
            e = field_access(std::move(e), text.substr(at, dot_at - at), span);
            if (dot_at == std::string::npos)
              break;
            at = dot_at + 1;
          }
          continue;
        }
        error_at(dot.span, fmt::format("expected a field name or a tuple field number after '.', "
                                       "found {}",
                                       describe(field)));
      }
      return e;
    }
  }

  // Whether `e` may name a module: `M`, `M.N` (a variable and fields of it).
  static bool is_module_path(const Expr &e) {
    if (e.kind == ExprKind::Var) return true;
    return e.kind == ExprKind::Field && is_module_path(*e.args[0]);
  }
  static std::string module_path(const Expr &e) {
    if (e.kind == ExprKind::Var) return e.name;
    return module_path(*e.args[0]) + "." + e.name;
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

  // atom = int | float | char | string | "true" | "false" | name | qualname | constructor
  //      | "(" ... ")" | "[" (exp ("," exp)*)? "]" | "{" (field ("," field)*)? "}"
  ExprPtr parse_atom() {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::IntLit:
    case TokenKind::CharLit: {
      // A character literal is an unsuffixed integer literal of its code point (Note
      // [String and character literals] in lexer.cpp).
      advance();
      ExprPtr e = make_expr(ExprKind::IntLit, t.span);
      e->int_value = t.int_value;
      e->suffix = t.suffix;
      return e;
    }
    case TokenKind::StringLit:
      advance();
      return string_literal(t);
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
    case TokenKind::Constructor: {
      advance();
      ExprPtr e = make_expr(ExprKind::Constr, t.span);
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
      if (is_module_keyword(t))
        unsupported_keyword(t);
      if (t.text == "def")
        error_at(t.span, "unexpected 'def' in an expression (a local function is defined with "
                         "'let')");
      error_at(t.span, fmt::format("expected an expression, found {}", describe(t)));
    case TokenKind::Symbol:
      if (t.text == "?" && is_sym("?", 1) && is_sym("?", 2)) {
        // ???: a typed hole
        advance();
        advance();
        advance();
        return make_expr(ExprKind::Hole, span_from(t.span));
      }
      if (t.text == "(")
        return parse_paren();
      if (t.text == "[")
        return parse_array_literal();
      if (t.text == "{")
        return parse_record();
      error_at(t.span, fmt::format("expected an expression, found {}", describe(t)));
    case TokenKind::Eof:
      error_at(t.span, "expected an expression, found end of file");
    case TokenKind::Error: break;
    }
    KERB_ASSERT(false, "the lexer produced an Error token");
    return nullptr;
  }

  // A string literal is the array of its UTF-8 bytes, `[104u8, 105u8]`; the empty
  // string is `[] : [0]u8`.
  ExprPtr string_literal(const Token &t) {
    ExprPtr e = make_expr(ExprKind::ArrayLit, t.span);
    for (char c : t.text) {
      ExprPtr b = make_expr(ExprKind::IntLit, t.span);
      b->int_value = (unsigned char)c;
      b->suffix = PrimType::U8;
      e->args.push_back(std::move(b));
    }
    if (!e->args.empty())
      return e;
    ExprPtr a = make_expr(ExprKind::Ascribe, t.span);
    a->annotation = Type::array(Type::prim_type(PrimType::U8), {Dim::constant(0)});
    a->args.push_back(std::move(e));
    return a;
  }

  // array_literal = "[" (exp ("," exp)* ","?)? "]"
  ExprPtr parse_array_literal() {
    const Token &open = advance();
    ExprPtr e = make_expr(ExprKind::ArrayLit, open.span);
    while (!is_sym("]")) {
      e->args.push_back(parse_exp());
      if (!accept_sym(","))
        break;
    }
    expect_sym("]", "to close the array literal");
    e->span = span_from(open.span);
    return e;
  }

  // record = "{" (field ("," field)* ","?)? "}"       field = name "=" exp | name
  ExprPtr parse_record() {
    const Token &open = advance();
    ExprPtr e = make_expr(ExprKind::Record, open.span);
    while (!is_sym("}")) {
      const Token &f = peek();
      if (f.kind != TokenKind::Ident && f.kind != TokenKind::IntLit)
        error_at(f.span, fmt::format("expected a field name, found {}", describe(f)));
      advance();
      for (const std::string &prev : e->fields)
        if (prev == f.text)
          error_at(f.span, fmt::format("Field '{}' previously defined in this record (duplicate "
                                       "field)",
                                       f.text));
      e->fields.push_back(f.text);
      if (accept_sym("=")) {
        e->args.push_back(parse_exp());
      } else {
        if (f.kind != TokenKind::Ident)
          error_at(f.span, fmt::format("expected '=' after the field '{}'", f.text));
        ExprPtr v = make_expr(ExprKind::Var, f.span);
        v->name = f.text;
        e->args.push_back(std::move(v));
      }
      if (!accept_sym(","))
        break;
    }
    expect_sym("}", "to close the record");
    e->span = span_from(open.span);
    std::vector<size_t> order;
    if (tuple_field_names(e->fields, order)) { // {0 = a, 1 = b} is the tuple (a, b)
      std::vector<ExprPtr> elems;
      for (size_t i : order) elems.push_back(std::move(e->args[i]));
      e->kind = ExprKind::Tuple;
      e->args = std::move(elems);
      e->fields.clear();
    }
    return e;
  }

  // An operator in a section: a binary operator, `-`, a backtick name, or a numeric
  // module's operator (`i32.+`). Sets `e`'s binop or name; returns false if there is none.
  bool parse_section_operator(Expr &e) {
    if (is_sym("`") && (peek(1).kind == TokenKind::Ident || peek(1).kind == TokenKind::QualIdent) &&
        is_sym("`", 2)) {
      advance();
      e.name = advance().text;
      advance();
      return true;
    }
    if (peek().kind == TokenKind::Ident && is_sym(".", 1) && binop_info(peek(2))) {
      // (i32.+): the operator at one type; (M.+): a module's operator.
      e.name = fmt::format("{}.{}", peek().text, peek(2).text);
      advance();
      advance();
      advance();
      return true;
    }
    std::optional<BinOpInfo> info = binop_info(peek());
    if (!info && !is_sym("-"))
      return false;
    const Token &op = advance();
    if (info && info->is_pipe)
      error_at(op.span, fmt::format("sections of '{}' are not supported", op.text));
    if (!info || !info->is_named)
      e.binop = info ? info->op : BinOp::Sub;
    else
      e.name = op.text;
    return true;
  }

  // paren = "(" ")"                         unit
  //       | "(" op ")"                      operator section (+), (`f`), (i32.+)
  //       | "(" op exp ")"                  right section (*2); but (-x) is negation
  //       | "(" exp op ")"                  left section (2-)
  //       | "(" "." field ("." field)* ")"  field section (.x), (.0)
  //       | "(" "." ("[" index_parts | field) postfix* ")"
  //                                         index section (.[i]), (.a[1:].b): a lambda
  //       | "(" exp ("," exp)* ","? ")"     parenthesised expression or tuple
  ExprPtr parse_paren() {
    const Token &open = advance();
    if (accept_sym(")"))
      return make_expr(ExprKind::Tuple, span_from(open.span));

    if (is_sym(".") && is_sym("[", 1) && peek(1).glued)
      return index_section(open);
    if (is_sym(".") && (peek(1).kind == TokenKind::Ident || peek(1).kind == TokenKind::IntLit ||
                        peek(1).kind == TokenKind::QualIdent)) {
      if (section_has_index())
        return index_section(open);
      ExprPtr e = make_expr(ExprKind::ProjSection, open.span);
      while (accept_sym(".")) {
        const Token &f = advance();
        std::string text = f.text;
        size_t at = 0;
        for (;;) {
          size_t dot = text.find('.', at);
          e->fields.push_back(text.substr(at, dot - at));
          if (dot == std::string::npos)
            break;
          at = dot + 1;
        }
      }
      expect_sym(")", "to close the field section");
      e->span = span_from(open.span);
      return e;
    }

    bool starts_op = (binop_info(peek()) && !(is_sym("-") && !is_sym(")", 1))) ||
                     (is_sym("`") && is_sym("`", 2)) ||
                     (peek().kind == TokenKind::Ident && is_sym(".", 1) && peek(1).glued &&
                      binop_info(peek(2)) && peek(2).glued);
    if (starts_op) {
      ExprPtr e = make_expr(ExprKind::OpSection, open.span);
      parse_section_operator(*e);
      if (!is_sym(")")) {
        e->args.push_back(parse_binary(0));
        e->section_left = false;
      }
      expect_sym(")", "to close the operator section");
      e->span = span_from(open.span);
      return e;
    }

    ExprPtr first = parse_exp();
    bool left_op = (binop_info(peek()) && is_sym(")", 1)) ||
                   (is_sym("`") && is_sym("`", 2) && is_sym(")", 3)) ||
                   (peek().kind == TokenKind::Ident && is_sym(".", 1) && peek(1).glued &&
                    binop_info(peek(2)) && peek(2).glued && is_sym(")", 3)); // (s M.*)
    if (left_op) {
      ExprPtr e = make_expr(ExprKind::OpSection, open.span);
      parse_section_operator(*e);
      advance();
      e->span = span_from(open.span);
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
    while (accept_sym(",")) {
      if (is_sym(")"))
        break;
      tuple->args.push_back(parse_exp());
    }
    expect_sym(")", "to close the tuple");
    tuple->span = span_from(open.span);
    if (tuple->args.size() == 1)
      return std::move(tuple->args[0]);
    return tuple;
  }
};

} // namespace

Program parse_program(std::shared_ptr<const SourceFile> file) {
  KERB_ASSERT(file != nullptr, "parse_program needs a source file");
  return Parser(std::move(file)).run();
}

Type parse_type_text(const std::string &text) {
  auto file = std::make_shared<SourceFile>("<built-in>", text);
  try {
    return Parser(file).type_only();
  } catch (const CompileError &e) {
    KERB_ASSERT(false, fmt::format("malformed built-in type '{}': {}", text, e.what()));
  }
  return {};
}

} // namespace kerb
