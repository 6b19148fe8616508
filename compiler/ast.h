// The abstract syntax tree, produced by the parser and annotated in place by the type
// checkers (the `type` of every expression and pattern, and the resolution of names and
// calls).
//
// The parser produces the whole language (LANGUAGE.md): polymorphic and higher-order
// functions, local functions, records, sum types and `match`, type abbreviations. The
// source type checker (compiler/types/infer.cpp) checks it; the elimination passes
// (compiler/elim/) rewrite it into the first-order, monomorphic subset, which the
// first-order checker (compiler/types/type_check.cpp) annotates for the interpreter and
// the lowering. The kinds marked [full] below never reach those.
//
// Expressions are one struct with a kind tag and generic child slots (chibicc style):
// the comment on each kind says which fields it uses. Children are owned.
// Syntactic sugar is removed by the parser where that loses nothing a diagnostic or a
// failure message needs:
//   x |> f a      ==> f a x        f a <| x ==> f a x
//   let a[i] = v in e  ==> let a = a with [i] = v in e
//   a.0 where a is a tuple ==> Project
//   x `f` y, x +^ y (a user-defined operator) ==> f x y, (+^) x y
// Everything else (ranges, sections, lambdas, #[unsafe]) is kept as written; other
// attributes are dropped.
#pragma once

#include "compiler/builtins.h"
#include "compiler/entry_types.h"
#include "compiler/source.h"
#include "compiler/types/types.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kerb {

struct Expr;
struct FunDef;
using ExprPtr = std::unique_ptr<Expr>;

enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, Mod, Quot /* // */, Rem /* %% */, Pow,
  Eq, Neq, Lt, Le, Gt, Ge,
  LogAnd, LogOr,
  BitAnd, BitOr, BitXor, Shl, Shr /* >> arithmetic */, UShr /* >>> logical */,
  Concat /* ++ */,
};
const char *binop_text(BinOp op); // "+", "//", ">>>", ...

enum class UnOp : uint8_t { Neg /* -x */, Not /* !x: logical for bool, bitwise for ints */ };

// A pattern: `x`, `_`, `(a, b)`, `(x: i32)`, `((a, b): (i32, i32))`, and [full] a
// record `{x, y = (a, b)}`, a constructor `#some x` or a literal `1`, `-2.0`, `true`
// (the last two only in `match` cases).
struct Pattern {
  enum Kind : uint8_t { Id, Wildcard, Tuple, Record, Constr, Literal } kind = Id;
  Span span;
  std::string name;                // Id; Constr: the constructor
  std::vector<Pattern> elems;      // Tuple; Record: aligned with fields; Constr: payload
  std::vector<std::string> fields; // Record
  std::shared_ptr<Expr> literal;   // Literal: an IntLit, FloatLit or BoolLit, or a
                                   // Unary Neg of a number
  std::optional<Type> annotation;  // as written, if any
  Type type;                       // filled by the type checker
};

// One component of an index expression `a[i, j:k, :]`.
struct IndexPart {
  bool is_slice = false;
  ExprPtr index;                  // !is_slice
  ExprPtr start, end, stride;     // is_slice: each may be null (`:`, `i:`, `:j`, `::s`)
  Span span;
};

enum class RangeKind : uint8_t { UpTo /* a..b */, UpToExcl /* a..<b */, DownToExcl /* a..>b */ };

enum class LoopForm : uint8_t { For /* for i < n */, ForIn /* for x in xs */, While };

enum class ExprKind : uint8_t {
  IntLit,    // int_value (the literal's magnitude; a minus sign is a Neg), suffix
  FloatLit,  // float_value, suffix
  BoolLit,   // bool_value
  Var,       // name (may be qualified: "f32.pi", "i32.highest"); resolved below
  Tuple,     // args: the components (2 or more; `()` is the empty tuple)
  ArrayLit,  // args: the elements (>= 1)
  Unary,     // unop, args[0]
  Binary,    // binop, args[0], args[1]
  If,        // args[0] cond, args[1] then, args[2] else
  Let,       // pattern, args[0] bound value, args[1] body
  Loop,      // pattern (loop params), args[0] initial value (null: initialised from the
             // variables of the same names, `loop (x, y) for ...`), loop_form,
             // For: name = the counter, args[1] = bound; ForIn: pattern2 = the element
             // pattern, args[1] = the array; While: args[1] = condition;
             // args[2] = body
  Index,     // args[0] the array, indices
  Update,    // `args[0] with [indices] = args[1]`
  Project,   // args[0] a tuple, field
  Apply,     // name (the callee, possibly qualified), args (one per juxtaposed argument)
  Lambda,    // params, args[0] body, annotation (optional return type)
  OpSection, // binop; args: none for `(+)`, args[0] for `(x+)` (left given) or `(+x)`
             // (right given) as told by section_left. [full] With a name, the operator
             // is that function: `(+^)`, `(i32.+)`, (`f`)
  Ascribe,   // `args[0] : annotation`  (checked statically, sizes at run time)
  Coerce,    // `args[0] :> annotation` (sizes checked at run time)
  Assert,    // `assert args[0] args[1]`
  Range,     // args[0] start, args[1] second element or null (`a..b...c` has b), args[2]
             // end; range_kind
  Unsafe,    // `#[unsafe] args[0]`
  // [full] Eliminated before the first-order checker:
  ApplyExpr,   // args[0] the function (any expression), args[1..] the arguments
  Constr,      // `#name args...`: a sum type's constructor applied to its payload
  Match,       // `match args[0] case params[i] -> args[i + 1] ...`
  Record,      // `{fields[i] = args[i], ...}`
  Field,       // `args[0].name` on a record
  RecordUpdate,// `args[0] with fields[0].fields[1]... = args[1]`
  LetFun,      // `let fundef->name ... = fundef->body in args[0]`: a local function
  ProjSection, // `(.fields[0].fields[1]...)`: a field (or tuple component) section
  Hole,        // `???`: a value of any type that fails when it is evaluated
  // [modules] Eliminated before the type checker (compiler/modules/):
  OpenIn,      // `M.(args[0])`: name = the module's (qualified) name
};

// Case labels for the kinds the elimination passes remove, for the switches of the
// stages after them (which never see these).
#define KERB_ELIMINATED_EXPR_KINDS                                             \
  case ExprKind::ApplyExpr: case ExprKind::Constr: case ExprKind::Match:       \
  case ExprKind::Record: case ExprKind::Field: case ExprKind::RecordUpdate:    \
  case ExprKind::LetFun: case ExprKind::ProjSection: case ExprKind::Hole:      \
  case ExprKind::OpenIn
#define KERB_ELIMINATED_PATTERN_KINDS                                          \
  case Pattern::Record: case Pattern::Constr: case Pattern::Literal

// What a Var or an Apply refers to, filled by the type checker.
enum class Callee : uint8_t {
  Unresolved,
  Local,        // Var: a local variable (let, parameter, loop, size parameter)
  Function,     // a user function (fun); a Var naming a 0-parameter def is a call
  ArrayBuiltin, // array_builtin
  PrimBuiltin,  // prim_builtin (a Var for constants like f32.pi; functions otherwise)
};

struct Expr {
  ExprKind kind;
  Span span;
  Type type; // filled by the type checker

  std::vector<ExprPtr> args;

  // Literals.
  uint64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::optional<PrimType> suffix; // 1i64, 2.5f32

  // Names (Var, Apply, Loop counter). On a Binary, a numeric module's operator used
  // infix (`n i64.== m`): the built-in even where a local definition redefines `==`.
  std::string name;
  // Operators.
  BinOp binop = BinOp::Add;
  UnOp unop = UnOp::Neg;
  bool section_left = false; // OpSection: true when args[0] is the left operand
  bool pipe_left = false;    // Apply, ApplyExpr from `f <| x`: f is evaluated before x
  // Patterns and bindings.
  Pattern pattern;             // Let, Loop
  Pattern pattern2;            // Loop ForIn element pattern
  std::vector<Pattern> params; // Lambda; Match: the cases' patterns
  std::vector<std::string> size_params; // Let: `let [n] (xs: [n]i32) = ...`
  std::vector<std::string> fields;      // Record, RecordUpdate, ProjSection
  std::unique_ptr<FunDef> fundef;       // LetFun
  LoopForm loop_form = LoopForm::For;
  RangeKind range_kind = RangeKind::UpTo;
  std::vector<IndexPart> indices; // Index, Update
  int field = 0;                  // Project
  std::optional<Type> annotation; // Ascribe, Coerce, Lambda return type

  // Resolution (type checker).
  Callee callee = Callee::Unresolved;
  FunDef *fun = nullptr; // Function: the definition, top-level or (LetFun) local
  // [full] Var or Apply of a polymorphic function: the types its type parameters are
  // instantiated with, aligned with fun->type_params.
  std::vector<Type> type_args;
  ArrayBuiltin array_builtin = ArrayBuiltin::Map;
  PrimBuiltin prim_builtin;

  Expr(ExprKind k, Span s) : kind(k), span(s) {}
  // Destroys the children iteratively: a long operator chain is a deep tree, and a
  // recursive destructor would overflow the stack on it.
  ~Expr();
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;
};

ExprPtr make_expr(ExprKind k, Span s);
// `a op b` of type `type`.
ExprPtr binary_expr(BinOp op, ExprPtr a, ExprPtr b, Type type, const Span &span);
// `a op b` of type bool (a comparison, && or ||).
ExprPtr bool_binary(BinOp op, ExprPtr a, ExprPtr b, const Span &span);
// Calls f(ExprPtr &) on each child of e that is set: its arguments, then each index
// part's index, start, end and stride (not a LetFun's function body).
template <typename F> void for_each_child(Expr &e, F &&f) {
  for (ExprPtr &a : e.args)
    if (a) f(a);
  for (IndexPart &p : e.indices)
    for (ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
      if (*x) f(*x);
}
// A deep copy (also of a LetFun's function).
ExprPtr clone_expr(const Expr &e);

// A type parameter: `'t`, `'^t` (may be a function type), `'~t` (may hide sizes).
struct TypeParam {
  enum Kind : uint8_t { Plain, Lifted, SizeLifted } kind = Plain;
  std::string name;
  Span span;
  // Found by inference for an unannotated parameter (infer.cpp), not written: lifted
  // unless constrained, as nothing but the checks after inference constrains it.
  bool inferred = false;
};

// Liftedness as an order: plain 0 < size-lifted ('~) 1 < lifted ('^) 2.
inline int lift_rank(TypeParam::Kind k) {
  return k == TypeParam::Lifted ? 2 : k == TypeParam::SizeLifted ? 1 : 0;
}

// `def`, `let` (top level) or `entry`; [full] or a local function (LetFun).
struct FunDef {
  bool is_entry = false;
  bool is_unsafe = false;          // #[unsafe] def ...
  bool is_local = false;           // a LetFun's function
  bool from_prelude = false;       // defined by compiler/prelude.cpp
  std::string name;
  Span span;                       // the whole definition
  Span name_span;
  std::vector<std::string> size_params; // [n] [m]
  std::vector<TypeParam> type_params;   // [full] 'a '^b, as written or (for
                                        // unannotated parameters) found by inference
  std::vector<Pattern> params;     // each a pattern with a type annotation
  std::optional<Type> ret_annotation;
  ExprPtr body;
  Type ret_type;                   // filled by the type checker
  // [modules] The types that `val` specifications give this definition, where the
  // module made with it is ascribed a module type (Note [Value specifications] in
  // compiler/modules/elaborate_modules.cpp): the type checker unifies its type with each.
  struct Specified {
    Type type;                          // resolved; the specification's type parameters
    std::vector<TypeParam> type_params; // are Named types in it
    std::string name;                   // f, or M.f in a module type's module M
    std::string text;                   // ` 'a : a -> a` (after `val f`), for messages
    Span span;                          // the ascription
  };
  std::vector<Specified> specified;
  // [modules] A module type specifies this definition's result, after its parameters,
  // as one of its abstract types (`val init : constants -> state` with `type state`):
  // outside the module, Futhark sees a full application's result as a value of an
  // abstract type (check_consumption.cpp, Note [Constants of abstract types]).
  bool abstract_result = false;
};

// [full] `type name params = definition` (also `type^`, `type~`).
struct TypeDecl {
  std::string name;
  Span span, name_span;
  std::vector<std::string> size_params; // [n]
  std::vector<TypeParam> type_params;   // 'a
  std::vector<bool> param_is_size;      // the parameters in order: size or type
  TypeParam::Kind lifted = TypeParam::Plain;
  Type definition;
  size_t before_def = 0;                // the number of `defs` that precede it
};

// A deep copy of a definition.
std::unique_ptr<FunDef> clone_fundef(const FunDef &f);

struct DeclList; // compiler/modules/module_ast.h

struct Program {
  std::shared_ptr<const SourceFile> file;
  // [modules] A file that uses modules or imports is parsed into `modules` (defs and
  // types stay empty) until elaborate_modules flattens it; `imports` keeps the imported
  // files alive (spans point into them).
  std::shared_ptr<DeclList> modules;
  std::vector<std::shared_ptr<const SourceFile>> imports;
  std::vector<std::unique_ptr<FunDef>> defs; // in source order
  std::vector<std::unique_ptr<TypeDecl>> types; // in source order
  // [modules] The types a signature made abstract, by qualified name (elaborate_modules;
  // see compiler/entry_types.h).
  std::set<std::string> abstract_types;
  // The entry points' types as the C API shows them, set before the elimination
  // (compiler/entry_types.h); null for a program that did not go through it.
  std::shared_ptr<const EntryTypes> entry_types;

  FunDef *find(const std::string &name) const;
};

} // namespace kerb
