// The first-order checker (see check_first_order.h).
//
// One pass over each top-level definition, in source order (a function may only call
// functions defined before it, which also rules out recursion):
//   1. names are resolved (locals, size parameters, user functions, built-ins);
//   2. types are inferred bottom-up. An unsuffixed literal gets a numeric type variable,
//      constrained to "any number" (integer literals), "any integer" (after a bitwise
//      operator) or "any float" (float literals); unification binds variables to
//      primitive types or merges their constraints;
//   3. at the end of the definition every remaining variable is defaulted (integers to
//      i32, floats to f64, as Futhark does) and every type in the tree is replaced by
//      its resolved form ("zonked"); integer literals are checked against their type.
//
// Functional arguments of the built-in higher-order functions (a lambda, an operator
// section, a function name or a partial application) are checked against the parameter
// types the built-in gives them (check_function).
//
// Sizes: ranks and element types are checked here; sizes are carried along in types
// (as written, or as the text of a size expression) where they are known, so that the
// interpreter can check them at run time and find the sizes split and unflatten need.
// A size that names a variable going out of scope is forgotten (becomes unknown).
#include "compiler/types/check_first_order.h"

#include "compiler/prim_ops.h"
#include "compiler/size_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace kerb {

namespace {

enum class NumClass : uint8_t { Num, Int, Float };

struct TypeVarInfo {
  NumClass cls = NumClass::Num;
  std::optional<PrimType> bound;
  int link = -1; // merged into another variable
};

struct Local {
  std::string name;
  Type type;
};


bool is_simple_name(const std::string &text) {
  std::vector<std::string> names = size_expression_names(text);
  return names.size() == 1 && names[0] == text;
}

// Applies `f` to every Dim in `t`.
void for_each_dim(Type &t, const std::function<void(Dim &)> &f) {
  for (Dim &d : t.dims) f(d);
  for (Type &e : t.elems) for_each_dim(e, f);
}

// Dims that mention one of `names` become unknown.
Type forget_names(Type t, const std::set<std::string> &names) {
  if (names.empty()) return t;
  for_each_dim(t, [&](Dim &d) {
    if (d.kind != Dim::Var) return;
    for (const std::string &n : size_expression_names(d.name))
      if (names.count(n)) {
        d = Dim::unknown();
        return;
      }
  });
  return t;
}

Type forget_all_dims(Type t) {
  for_each_dim(t, [](Dim &d) { d = Dim::unknown(); });
  return t;
}

bool same_dim(const Dim &a, const Dim &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Dim::Const) return a.value == b.value;
  if (a.kind == Dim::Var) return a.name == b.name;
  return true;
}

// The dims two types (of the same shape class) agree on; the others become unknown.
Type common_dims(Type a, const Type &b) {
  if (a.kind != b.kind) return a;
  if (a.kind == Type::Array && a.dims.size() == b.dims.size())
    for (size_t i = 0; i < a.dims.size(); i++)
      if (!same_dim(a.dims[i], b.dims[i])) a.dims[i] = Dim::unknown();
  if (a.elems.size() == b.elems.size())
    for (size_t i = 0; i < a.elems.size(); i++) a.elems[i] = common_dims(a.elems[i], b.elems[i]);
  return a;
}

const char *ordinal(size_t i) {
  static const char *names[] = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh"};
  return i < 7 ? names[i] : "next";
}

// One argument of a call as the checker sees it: an expression still to be checked, or
// (for the parameters a built-in gives a functional argument) a known type.
struct Arg {
  Expr *expr = nullptr;   // still to be checked
  Type type;              // once checked
  Span span;
  Expr *source = nullptr; // the argument as written (null for a given type)
};

class TypeChecker {
public:
  explicit TypeChecker(Program &program) : program_(program) {}

  void run() {
    std::map<std::string, const FunDef *> seen;
    for (auto &def : program_.defs) {
      auto it = seen.find(def->name);
      if (it != seen.end() && !it->second->from_prelude) // a program may redefine the prelude's
        error_at(def->name_span,
                 fmt::format("'{}' is already defined (line {})", def->name,
                             def->name_span.file->line_of(it->second->name_span.begin)));
      check_def(*def);
      seen[def->name] = def.get();
      defined_.insert(def->name);
    }
  }

private:
  // ---- type variables

  Type fresh(NumClass cls) {
    vars_.push_back(TypeVarInfo{cls, std::nullopt, -1});
    return Type::type_var(int(vars_.size()) - 1);
  }

  int root(int v) {
    while (vars_[size_t(v)].link >= 0) v = vars_[size_t(v)].link;
    return v;
  }

  // `t` with its outermost type variable resolved where it is bound.
  Type resolve(const Type &t) {
    if (t.kind != Type::TypeVar) return t;
    int r = root(t.var);
    if (vars_[size_t(r)].bound) {
      Type p = Type::prim_type(*vars_[size_t(r)].bound);
      p.unique = t.unique;
      return p;
    }
    return Type::type_var(r);
  }

  static bool fits(NumClass c, PrimType p) {
    switch (c) {
    case NumClass::Num: return is_int(p) || is_float(p);
    case NumClass::Int: return is_int(p);
    case NumClass::Float: return is_float(p);
    }
    return false;
  }

  // Narrows the constraint of variable `v` to `c`; false when they conflict.
  bool narrow(int v, NumClass c) {
    TypeVarInfo &info = vars_[size_t(root(v))];
    if (info.bound) return fits(c, *info.bound);
    if (c == NumClass::Num || info.cls == c) return true;
    if (info.cls == NumClass::Num) {
      info.cls = c;
      return true;
    }
    return false;
  }

  // Makes `a` and `b` the same type, ignoring sizes; false when they cannot be.
  bool unify(const Type &a0, const Type &b0) {
    Type a = resolve(a0), b = resolve(b0);
    if (a.kind == Type::TypeVar && b.kind == Type::TypeVar) {
      int ra = root(a.var), rb = root(b.var);
      if (ra == rb) return true;
      if (!narrow(ra, vars_[size_t(rb)].cls)) return false;
      vars_[size_t(rb)].link = ra;
      return true;
    }
    if (a.kind == Type::TypeVar || b.kind == Type::TypeVar) {
      const Type &var = a.kind == Type::TypeVar ? a : b;
      const Type &other = a.kind == Type::TypeVar ? b : a;
      if (other.kind != Type::Prim) return false;
      TypeVarInfo &info = vars_[size_t(root(var.var))];
      if (!fits(info.cls, other.prim)) return false;
      info.bound = other.prim;
      return true;
    }
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case Type::Prim: return a.prim == b.prim;
    case Type::Array: return a.rank() == b.rank() && unify(a.elems[0], b.elems[0]);
    case Type::Tuple:
      if (a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); i++)
        if (!unify(a.elems[i], b.elems[i])) return false;
      return true;
    case Type::TypeVar: break;
    KERB_ELIMINATED_TYPE_KINDS: return same_shape_class(a, b);
    }
    return false;
  }

  // `t` with every variable replaced by its binding or its default.
  Type zonk(const Type &t) {
    switch (t.kind) {
    case Type::TypeVar: {
      TypeVarInfo &info = vars_[size_t(root(t.var))];
      if (!info.bound) info.bound = info.cls == NumClass::Float ? PrimType::F64 : PrimType::I32;
      Type p = Type::prim_type(*info.bound);
      p.unique = t.unique;
      return p;
    }
    case Type::Prim: KERB_ELIMINATED_TYPE_KINDS: return t;
    case Type::Array:
    case Type::Tuple: {
      Type out = t;
      for (Type &e : out.elems) e = zonk(e);
      return out;
    }
    }
    return t;
  }

  // For messages: the type as it stands, unbound literals shown with their defaults.
  std::string show(const Type &t) {
    Type copy = t;
    std::function<Type(const Type &)> go = [&](const Type &x) -> Type {
      if (x.kind == Type::TypeVar) {
        Type r = resolve(x);
        if (r.kind != Type::TypeVar) return r;
        NumClass c = vars_[size_t(root(r.var))].cls;
        return Type::prim_type(c == NumClass::Float ? PrimType::F64 : PrimType::I32);
      }
      Type out = x;
      for (Type &e : out.elems) e = go(e);
      return out;
    };
    return go(copy).str();
  }

  // ---- scopes

  size_t scope_mark() const { return locals_.size(); }

  // Pops the locals bound since `mark`, and forgets in `t` the sizes that named them.
  Type pop_scope(size_t mark, Type t) {
    std::set<std::string> names;
    for (size_t i = mark; i < locals_.size(); i++) names.insert(locals_[i].name);
    locals_.resize(mark);
    return forget_names(std::move(t), names);
  }

  const Local *find_local(const std::string &name) const {
    for (size_t i = locals_.size(); i-- > 0;)
      if (locals_[i].name == name) return &locals_[i];
    return nullptr;
  }

  FunDef *find_function(const std::string &name) {
    if (!defined_.count(name)) return nullptr;
    return program_.find(name);
  }

  // Names in a size expression must be integer variables in scope (or top-level
  // constants).
  void check_dims(Type &t, const Span &span) {
    for_each_dim(t, [&](Dim &d) {
      if (d.kind != Dim::Var) return;
      for (const std::string &n : size_expression_names(d.name)) {
        if (const Local *l = find_local(n)) {
          Type lt = resolve(l->type);
          if (lt.kind == Type::TypeVar && narrow(lt.var, NumClass::Int)) continue;
          if (lt.kind == Type::Prim && is_int(lt.prim)) continue;
          error_at(span, fmt::format("size '{}' must be an integer, but has type {}", n,
                                     show(l->type)));
        }
        FunDef *f = find_function(n);
        if (f && f->params.empty()) continue;
        error_at(span, fmt::format("unknown size '{}' in type {}", n, t.str()));
      }
    });
  }

  // ---- patterns

  void bind_pattern(Pattern &p, const Type &t0) {
    Type t = t0;
    if (p.annotation) {
      check_dims(*p.annotation, p.span);
      if (!unify(*p.annotation, t))
        error_at(p.span, fmt::format("this pattern has type {}, but the value has type {}",
                                     p.annotation->str(), show(t)));
      t = *p.annotation;
    }
    p.type = t;
    switch (p.kind) {
    case Pattern::Id: locals_.push_back(Local{p.name, t}); return;
    case Pattern::Wildcard: return;
    case Pattern::Tuple: {
      Type r = resolve(t);
      if (r.kind != Type::Tuple || r.elems.size() != p.elems.size())
        error_at(p.span, fmt::format("a tuple pattern of {} components cannot match a value of "
                                     "type {}",
                                     p.elems.size(), show(t)));
      for (size_t i = 0; i < p.elems.size(); i++) bind_pattern(p.elems[i], r.elems[i]);
      return;
    }
    KERB_ELIMINATED_PATTERN_KINDS: break;
    }
    KERB_ASSERT(false, "a pattern the elimination passes remove reached the first-order checker");
  }

  // The type a parameter pattern declares (required for top-level functions).
  Type declared_type(Pattern &p, const std::string &fun) {
    if (p.annotation) {
      check_dims(*p.annotation, p.span);
      return *p.annotation;
    }
    if (p.kind == Pattern::Tuple) {
      std::vector<Type> elems;
      for (Pattern &e : p.elems) elems.push_back(declared_type(e, fun));
      return Type::tuple(std::move(elems));
    }
    error_at(p.span, fmt::format("parameter '{}' of '{}' needs a type, e.g. ({}: i32)",
                                 p.kind == Pattern::Id ? p.name : "_", fun,
                                 p.kind == Pattern::Id ? p.name : "_"));
  }

  // ---- definitions

  void check_def(FunDef &f) {
    locals_.clear();
    for (const std::string &n : f.size_params) locals_.push_back(Local{n, Type::prim_type(PrimType::I64)});
    for (Pattern &p : f.params) {
      Type t = declared_type(p, f.name);
      bind_pattern(p, t);
    }
    check_size_params(f);
    if (f.ret_annotation) check_dims(*f.ret_annotation, f.name_span);
    Type body = infer(*f.body);
    if (f.ret_annotation) {
      if (!unify(*f.ret_annotation, body))
        error_at(f.body->span, fmt::format("the body of '{}' has type {}, but its declared "
                                           "return type is {}",
                                           f.name, show(body), f.ret_annotation->str()));
      f.ret_type = *f.ret_annotation;
      refine_dims(*f.body, f.ret_type);
    } else {
      f.ret_type = body;
    }
    locals_.clear();
    // Sizes may name the parameters of a function, but not its locals.
    if (!f.ret_annotation) {
      std::set<std::string> params(f.size_params.begin(), f.size_params.end());
      std::function<void(const Pattern &)> names = [&](const Pattern &p) {
        if (p.kind == Pattern::Id) params.insert(p.name);
        for (const Pattern &e : p.elems) names(e);
      };
      for (const Pattern &p : f.params) names(p);
      for_each_dim(f.ret_type, [&](Dim &d) {
        if (d.kind != Dim::Var) return;
        for (const std::string &n : size_expression_names(d.name))
          if (!params.count(n)) d = Dim::unknown();
      });
    }
    finish_def(f);
  }

  // Every size parameter must be the size of some parameter's array: Kerb does not
  // infer sizes from the result type expected at a call, as Futhark can.
  void check_size_params(const FunDef &f) {
    std::set<std::string> given;
    std::function<void(const Type &)> from_type = [&](const Type &t) {
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var) given.insert(d.name);
      for (const Type &e : t.elems) from_type(e);
    };
    std::function<void(const Pattern &)> from_pattern = [&](const Pattern &p) {
      if (p.annotation) from_type(*p.annotation);
      for (const Pattern &e : p.elems) from_pattern(e);
    };
    for (const Pattern &p : f.params) from_pattern(p);
    for (const std::string &n : f.size_params)
      if (!given.count(n))
        error_at(f.name_span, fmt::format("size parameter [{}] of '{}' is not the size of any "
                                          "parameter (Kerb does not infer sizes from the "
                                          "result type)",
                                          n, f.name));
  }

  // unflatten and split (their one-argument forms) take the sizes of their results from
  // the type of their argument ([n * m]t, [n + m]t) or from an annotation on the result.
  void check_result_sizes_known(const Expr &e) {
    if (e.kind != ExprKind::Apply || e.callee != Callee::ArrayBuiltin || e.args.size() != 1)
      return;
    bool unflatten = e.array_builtin == ArrayBuiltin::Unflatten;
    if (!unflatten && e.array_builtin != ArrayBuiltin::Split) return;
    const Type &arg = e.args[0]->type;
    if (arg.is_array() && arg.dims[0].kind == Dim::Var &&
        has_top_level(arg.dims[0].name, unflatten ? '*' : '+'))
      return;
    auto known = [](const Dim &d) { return d.kind != Dim::Unknown; };
    if (unflatten && e.type.is_array() && known(e.type.dims[0]) && known(e.type.dims[1])) return;
    if (!unflatten && e.type.is_tuple() && known(e.type.elems[0].dims[0]) &&
        known(e.type.elems[1].dims[0]))
      return;
    error_at(e.span, fmt::format("the sizes of the result of '{}' are not known here: coerce "
                                 "its argument, as in {} (xs :> [{}]t), or give the result a "
                                 "type, as in let ys : {} = ...",
                                 unflatten ? "unflatten" : "split",
                                 unflatten ? "unflatten" : "split", unflatten ? "n * m" : "n + m",
                                 unflatten ? "[n][m]t" : "([n]t, [m]t)"));
  }

  // Whether `op` occurs in `text` outside parentheses.
  static bool has_top_level(const std::string &text, char op) {
    int depth = 0;
    for (char c : text) {
      if (c == '(') depth++;
      else if (c == ')') depth--;
      else if (c == op && depth == 0) return true;
    }
    return false;
  }

  // ---- zonking (the end of a definition)

  void finish_def(FunDef &f) {
    for (Pattern &p : f.params) zonk_pattern(p);
    f.ret_type = zonk(f.ret_type);
    zonk_expr(*f.body);
  }

  void zonk_pattern(Pattern &p) {
    p.type = zonk(p.type);
    if (p.annotation) *p.annotation = zonk(*p.annotation);
    for (Pattern &e : p.elems) zonk_pattern(e);
  }

  void zonk_expr(Expr &e) {
    e.type = zonk(e.type);
    if (e.kind == ExprKind::IntLit) check_literal_range(e);
    check_result_sizes_known(e);
    zonk_pattern(e.pattern);
    zonk_pattern(e.pattern2);
    for (Pattern &p : e.params) zonk_pattern(p);
    if (e.annotation) *e.annotation = zonk(*e.annotation);
    for (ExprPtr &a : e.args)
      if (a) zonk_expr(*a);
    for (IndexPart &part : e.indices) {
      for (ExprPtr *x : {&part.index, &part.start, &part.end, &part.stride})
        if (*x) zonk_expr(**x);
    }
  }

  void check_literal_range(const Expr &e) {
    if (!e.type.is_prim()) return;
    PrimType t = e.type.prim;
    if (!is_int(t)) return;
    int w = prim_bits(t);
    // Any bit pattern of the type's width: 0xFFi8 is -1, as two's complement.
    uint64_t max = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
    if (e.int_value > max)
      error_at(e.span, fmt::format("integer literal {} does not fit in type {}", e.int_value,
                                   prim_name(t)));
  }

  // ---- expressions

  Type infer(Expr &e) {
    Type t = infer_kind(e);
    e.type = t;
    return t;
  }

  Type infer_kind(Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit:
      if (e.suffix) return Type::prim_type(*e.suffix);
      return fresh(NumClass::Num);
    case ExprKind::FloatLit:
      if (e.suffix) return Type::prim_type(*e.suffix);
      return fresh(NumClass::Float);
    case ExprKind::BoolLit: return Type::prim_type(PrimType::Bool);
    case ExprKind::Var: return infer_var(e);
    case ExprKind::Tuple: {
      std::vector<Type> elems;
      for (ExprPtr &a : e.args) elems.push_back(infer(*a));
      return Type::tuple(std::move(elems));
    }
    case ExprKind::ArrayLit: {
      Type first = infer(*e.args[0]);
      Type elem = first;
      for (size_t i = 1; i < e.args.size(); i++) {
        Type t = infer(*e.args[i]);
        if (!unify(first, t))
          error_at(e.args[i]->span, fmt::format("array elements must have the same type: the "
                                                "first has type {}, this one {}",
                                                show(first), show(t)));
        elem = common_dims(elem, t);
      }
      return Type::array(elem, {Dim::constant(int64_t(e.args.size()))});
    }
    case ExprKind::Unary: {
      Type t = infer(*e.args[0]);
      Type r = resolve(t);
      if (e.unop == UnOp::Neg) {
        if (!require(r, NumClass::Num))
          error_at(e.span, fmt::format("unary '-' needs a number, found {}", show(t)));
      } else if (!r.is_prim(PrimType::Bool) && !require(r, NumClass::Int)) {
        error_at(e.span, fmt::format("'!' needs a bool or an integer, found {}", show(t)));
      }
      return t;
    }
    case ExprKind::Binary: {
      Type a = infer(*e.args[0]);
      Type b = infer(*e.args[1]);
      return binop_type(e.binop, a, b, e.span, e.args[0]->span, e.args[1]->span);
    }
    case ExprKind::If: {
      expect_bool(*e.args[0], "the condition of 'if'");
      Type a = infer(*e.args[1]);
      Type b = infer(*e.args[2]);
      if (!unify(a, b))
        error_at(e.span, fmt::format("the branches of 'if' have different types: 'then' has "
                                     "type {}, 'else' has type {}",
                                     show(a), show(b)));
      return common_dims(a, b);
    }
    case ExprKind::Let: {
      Type v = infer(*e.args[0]);
      size_t mark = scope_mark();
      bind_pattern(e.pattern, v);
      if (e.pattern.annotation) refine_dims(*e.args[0], *e.pattern.annotation);
      Type body = infer(*e.args[1]);
      return pop_scope(mark, body);
    }
    case ExprKind::Loop: return infer_loop(e);
    case ExprKind::Index: return infer_index(e);
    case ExprKind::Update: {
      Type arr = infer(*e.args[0]);
      Type r = resolve(arr);
      if (!r.is_array())
        error_at(e.args[0]->span, fmt::format("'with' updates an array, but this has type {}",
                                              show(arr)));
      Type target = indexed_type(r, e.indices, e.span);
      Type v = infer(*e.args[1]);
      if (!unify(target, v))
        error_at(e.args[1]->span, fmt::format("the new value has type {}, but the updated "
                                              "part of the array has type {}",
                                              show(v), show(target)));
      return arr;
    }
    case ExprKind::Project: {
      Type t = resolve(infer(*e.args[0]));
      if (t.kind != Type::Tuple)
        error_at(e.span, fmt::format("'.{}' projects a tuple, but this has type {}", e.field,
                                     show(t)));
      if (e.field < 0 || size_t(e.field) >= t.elems.size())
        error_at(e.span, fmt::format("a tuple of type {} has no component {}", show(t),
                                     e.field));
      return t.elems[size_t(e.field)];
    }
    case ExprKind::Apply: return infer_apply(e);
    case ExprKind::Lambda:
    case ExprKind::OpSection:
      error_at(e.span, "a function value can only be the argument of a built-in function such "
                       "as map, reduce or scan (user-defined higher-order functions are not "
                       "supported)");
    case ExprKind::Ascribe:
    case ExprKind::Coerce: {
      Type t = infer(*e.args[0]);
      Type ann = *e.annotation;
      check_dims(ann, e.span);
      if (!unify(ann, t)) {
        if (e.kind == ExprKind::Ascribe)
          error_at(e.span, fmt::format("the expression has type {}, but is ascribed type {}",
                                       show(t), ann.str()));
        error_at(e.span, fmt::format("a value of type {} cannot be coerced to type {} (only "
                                     "sizes may differ)",
                                     show(t), ann.str()));
      }
      *e.annotation = ann;
      refine_dims(*e.args[0], ann);
      return ann;
    }
    case ExprKind::Assert:
      expect_bool(*e.args[0], "the condition of 'assert'");
      return infer(*e.args[1]);
    case ExprKind::Range: return infer_range(e);
    case ExprKind::Unsafe: return infer(*e.args[0]);
    KERB_ELIMINATED_EXPR_KINDS:
      KERB_ASSERT(false, "an expression the elimination passes remove reached the first-order "
                         "checker");
    }
    error_at(e.span, "unknown kind of expression");
  }

  bool require(const Type &t0, NumClass c) {
    Type t = resolve(t0);
    if (t.kind == Type::TypeVar) return narrow(t.var, c);
    return t.kind == Type::Prim && fits(c, t.prim);
  }

  void expect_bool(Expr &e, const char *what) {
    Type t = infer(e);
    if (!unify(t, Type::prim_type(PrimType::Bool)))
      error_at(e.span, fmt::format("{} must be a bool, but has type {}", what, show(t)));
  }

  // An integer-valued size or index: any integer type, an unconstrained literal is i64.
  void expect_index(Expr &e, const char *what) {
    Type t = infer(e);
    Type r = resolve(t);
    if (r.kind == Type::TypeVar && narrow(r.var, NumClass::Int)) {
      unify(r, Type::prim_type(PrimType::I64));
      return;
    }
    if (!r.is_prim() || !is_int(r.prim))
      error_at(e.span, fmt::format("{} must be an integer, but has type {}", what, show(t)));
  }

  // A size argument that Futhark types as i64 (iota, replicate, ...).
  void expect_i64(Expr &e, const std::string &what) {
    Type t = infer(e);
    if (!unify(t, Type::prim_type(PrimType::I64)))
      error_at(e.span, fmt::format("{} must be of type i64, but has type {}", what, show(t)));
  }

  Type binop_type(BinOp op, const Type &a, const Type &b, const Span &span, const Span &sa,
                  const Span &sb) {
    const char *name = binop_text(op);
    auto same = [&] {
      if (!unify(a, b))
        error_at(span, fmt::format("the operands of '{}' must have the same type, but have "
                                   "types {} and {}",
                                   name, show(a), show(b)));
    };
    auto need = [&](NumClass c, const char *what) {
      if (!require(a, c))
        error_at(sa, fmt::format("'{}' needs {}, but its left operand has type {}", name,
                                 what, show(a)));
    };
    switch (op) {
    case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::Mod:
    case BinOp::Pow:
      same();
      need(NumClass::Num, "numbers");
      return a;
    case BinOp::Quot: case BinOp::Rem:
    case BinOp::BitAnd: case BinOp::BitOr: case BinOp::BitXor:
    case BinOp::Shl: case BinOp::Shr: case BinOp::UShr:
      same();
      need(NumClass::Int, "integers");
      return a;
    case BinOp::Eq: case BinOp::Neq: case BinOp::Lt: case BinOp::Le: case BinOp::Gt:
    case BinOp::Ge: {
      same();
      Type r = resolve(a);
      if (r.kind != Type::Prim && r.kind != Type::TypeVar)
        error_at(sa, fmt::format("'{}' compares primitive values, but its operands have type {}",
                                 name, show(a)));
      return Type::prim_type(PrimType::Bool);
    }
    case BinOp::LogAnd: case BinOp::LogOr: {
      Type t = Type::prim_type(PrimType::Bool);
      if (!unify(a, t))
        error_at(sa, fmt::format("'{}' needs bools, but its left operand has type {}", name,
                                 show(a)));
      if (!unify(b, t))
        error_at(sb, fmt::format("'{}' needs bools, but its right operand has type {}", name,
                                 show(b)));
      return t;
    }
    case BinOp::Concat: {
      Type ra = resolve(a), rb = resolve(b);
      if (!ra.is_array())
        error_at(sa, fmt::format("'++' concatenates arrays, but its left operand has type {}",
                                 show(a)));
      if (!rb.is_array())
        error_at(sb, fmt::format("'++' concatenates arrays, but its right operand has type {}",
                                 show(b)));
      same();
      Type r = common_dims(ra, rb);
      r.dims[0] = Dim::unknown();
      r.unique = false;
      return r;
    }
    }
    error_at(span, "unknown operator");
  }

  Type infer_var(Expr &e) {
    if (const Local *l = find_local(e.name)) {
      e.callee = Callee::Local;
      return l->type;
    }
    if (FunDef *f = find_function(e.name)) {
      if (!f->params.empty())
        error_at(e.span, fmt::format("'{}' is a function of {} parameter(s); apply it to "
                                     "arguments",
                                     e.name, f->params.size()));
      e.callee = Callee::Function;
      e.fun = f;
      return f->ret_type;
    }
    if (std::optional<PrimBuiltin> b = prim_builtin_from_name(e.name)) {
      if (!is_constant(*b))
        error_at(e.span, fmt::format("'{}' is a function; apply it to arguments", e.name));
      e.callee = Callee::PrimBuiltin;
      e.prim_builtin = *b;
      return Type::prim_type(b->fn == PrimFn::NumBits ? PrimType::I32 : b->module);
    }
    if (array_builtin_from_name(e.name))
      error_at(e.span, fmt::format("the built-in function '{}' must be applied to arguments",
                                   e.name));
    unknown_name(e.span, e.name, "variable");
  }

  [[noreturn]] void unknown_name(const Span &span, const std::string &name, const char *what) {
    if (program_.find(name))
      error_at(span, fmt::format("'{}' is used before its definition (definitions must come "
                                 "before their uses; recursion is not supported)",
                                 name));
    if (size_t dot = name.find('.'); dot != std::string::npos) {
      PrimType module;
      if (prim_from_name(name.substr(0, dot), module))
        error_at(span, fmt::format("the numeric module '{}' has no member '{}'",
                                   name.substr(0, dot), name.substr(dot + 1)));
      error_at(span, fmt::format("unknown name '{}' (modules are not supported; only the "
                                 "numeric modules such as f32 and i64 exist)",
                                 name));
    }
    error_at(span, fmt::format("unknown {} '{}'", what, name));
  }

  static bool is_constant(const PrimBuiltin &b) {
    return b.fn != PrimFn::ConvertFrom && prim_fn_arity(b.fn) == 0;
  }

  // ---- loops, indexing, ranges

  Type infer_loop(Expr &e) {
    Type init = e.args[0] ? infer(*e.args[0]) : pattern_value_type(e.pattern);
    // The bound of a 'for' loop and the array of a 'for ... in' loop are evaluated
    // outside the loop, before its parameters are bound.
    Type over;
    if (e.loop_form == LoopForm::For) {
      over = infer(*e.args[1]);
      if (!require(over, NumClass::Int))
        error_at(e.args[1]->span, fmt::format("the bound of a 'for' loop must be an integer, "
                                              "but has type {}",
                                              show(over)));
    } else if (e.loop_form == LoopForm::ForIn) {
      over = resolve(infer(*e.args[1]));
      if (!over.is_array())
        error_at(e.args[1]->span, fmt::format("'for ... in' needs an array, but this has "
                                              "type {}",
                                              show(over)));
    }
    // The loop parameters may change size from one iteration to the next.
    Type state = forget_all_dims(init);
    size_t mark = scope_mark();
    bind_pattern(e.pattern, state);
    if (e.pattern.annotation) state = *e.pattern.annotation;
    if (e.loop_form == LoopForm::For) locals_.push_back(Local{e.name, over});
    if (e.loop_form == LoopForm::ForIn) bind_pattern(e.pattern2, over.row());
    if (e.loop_form == LoopForm::While) expect_bool(*e.args[1], "the condition of a 'while' loop");
    Type body = infer(*e.args[2]);
    if (!unify(state, body))
      error_at(e.args[2]->span, fmt::format("the loop body has type {}, but the loop "
                                            "parameters have type {}",
                                            show(body), show(state)));
    pop_scope(mark, Type());
    return forget_all_dims(state);
  }

  // `loop (x, y) for ...` without an initial value: the variables' current values.
  Type pattern_value_type(const Pattern &p) {
    switch (p.kind) {
    case Pattern::Id: {
      const Local *l = find_local(p.name);
      if (!l)
        error_at(p.span, fmt::format("'{}' has no value to start the loop with (write "
                                     "'loop {} = ...')",
                                     p.name, p.name));
      return l->type;
    }
    case Pattern::Wildcard:
      error_at(p.span, "'_' has no value to start the loop with");
    KERB_ELIMINATED_PATTERN_KINDS: break;
    case Pattern::Tuple: {
      std::vector<Type> elems;
      for (const Pattern &e : p.elems) elems.push_back(pattern_value_type(e));
      return Type::tuple(std::move(elems));
    }
    }
    error_at(p.span, "bad loop pattern");
  }

  // The type of `arr[parts]`; checks the parts.
  Type indexed_type(const Type &arr, std::vector<IndexPart> &parts, const Span &span) {
    if (int(parts.size()) > arr.rank())
      error_at(span, fmt::format("{} indices given for an array of rank {} (type {})",
                                 parts.size(), arr.rank(), show(arr)));
    std::vector<Dim> dims;
    for (size_t i = 0; i < parts.size(); i++) {
      IndexPart &p = parts[i];
      if (!p.is_slice) {
        expect_index(*p.index, "an index");
        continue;
      }
      for (ExprPtr *x : {&p.start, &p.end, &p.stride})
        if (*x) expect_index(**x, "a slice bound");
      bool whole = !p.start && !p.end && !p.stride;
      dims.push_back(whole ? arr.dims[i] : Dim::unknown());
    }
    for (size_t i = parts.size(); i < arr.dims.size(); i++) dims.push_back(arr.dims[i]);
    return Type::array(arr.element(), dims);
  }

  Type infer_index(Expr &e) {
    Type arr = infer(*e.args[0]);
    Type r = resolve(arr);
    if (!r.is_array())
      error_at(e.span, fmt::format("only arrays can be indexed, but this has type {}", show(arr)));
    return indexed_type(r, e.indices, e.span);
  }

  Type infer_range(Expr &e) {
    Type t = infer(*e.args[0]);
    for (int i : {1, 2}) {
      if (!e.args[size_t(i)]) continue;
      Type u = infer(*e.args[size_t(i)]);
      if (!unify(t, u))
        error_at(e.span, fmt::format("the bounds of a range must have the same type, but have "
                                     "types {} and {}",
                                     show(t), show(u)));
    }
    if (!require(t, NumClass::Int))
      error_at(e.span, fmt::format("a range needs integer bounds, but they have type {}", show(t)));
    return Type::array(t, {Dim::unknown()});
  }

  // ---- sizes from expressions

  // The size an integer expression denotes, for the types of iota n, replicate n x, ...
  Dim dim_of(const Expr &e) {
    if (e.kind == ExprKind::IntLit) return Dim::constant(int64_t(e.int_value));
    // `length xs` is the outer size of xs, as in Futhark (`iota (length xs)` has xs's
    // outer size; without it, the rows of a map over no elements whose lambda fails on
    // the interpreter's trial call had size 0: found by kerb difftest, seed 7409).
    if (e.kind == ExprKind::Apply && e.callee == Callee::ArrayBuiltin &&
        e.array_builtin == ArrayBuiltin::Length && e.args.size() == 1) {
      Type xs = resolve(e.args[0]->type);
      if (xs.is_array() && !xs.dims.empty()) return xs.dims[0];
    }
    if (!is_size_expr(e)) return Dim::unknown();
    return Dim::var(size_text(e));
  }

  // The text of a size expression, parenthesised so that it reads the same.
  static std::string size_text(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: return std::to_string(e.int_value);
    case ExprKind::Var: return e.name;
    case ExprKind::Binary: {
      auto operand = [](const Expr &x) {
        return x.kind == ExprKind::Binary ? "(" + size_text(x) + ")" : size_text(x);
      };
      return operand(*e.args[0]) + " " + binop_text(e.binop) + " " + operand(*e.args[1]);
    }
    default: return "";
    }
  }

  bool is_size_expr(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: return true;
    case ExprKind::Var: return e.callee == Callee::Local || e.callee == Callee::Function;
    case ExprKind::Binary:
      return (e.binop == BinOp::Add || e.binop == BinOp::Sub || e.binop == BinOp::Mul) &&
             is_size_expr(*e.args[0]) && is_size_expr(*e.args[1]);
    default: return false;
    }
  }

  static std::string dim_text(const Dim &d) {
    if (d.kind == Dim::Const) return std::to_string(d.value);
    if (is_simple_name(d.name)) return d.name;
    return "(" + d.name + ")";
  }

  // A dimension written as `text`: a constant, or a name or size expression.
  static Dim dim_of_text(const std::string &text) {
    if (!text.empty() && text.size() < 18 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return Dim::constant(std::stoll(text));
    return Dim::var(text);
  }

  static Dim product_dim(const Dim &a, const Dim &b) {
    if (a.kind == Dim::Unknown || b.kind == Dim::Unknown) return Dim::unknown();
    if (a.kind == Dim::Const && b.kind == Dim::Const) return Dim::constant(a.value * b.value);
    return Dim::var(dim_text(a) + " * " + dim_text(b));
  }

  // An expression whose sizes come from its context (unflatten, split) takes them from
  // an annotation it is bound to or coerced to.
  void refine_dims(Expr &e, const Type &want) {
    if (e.kind == ExprKind::Unsafe) return refine_dims(*e.args[0], want);
    if (e.kind != ExprKind::Apply || e.callee != Callee::ArrayBuiltin) return;
    if (e.array_builtin != ArrayBuiltin::Unflatten && e.array_builtin != ArrayBuiltin::Split)
      return;
    Type have = e.type;
    if (have.is_array() && want.is_array() && have.dims.size() == want.dims.size()) {
      for (size_t i = 0; i < have.dims.size(); i++)
        if (have.dims[i].kind == Dim::Unknown) have.dims[i] = want.dims[i];
    } else if (have.is_tuple() && want.is_tuple() && have.elems.size() == want.elems.size()) {
      for (size_t k = 0; k < have.elems.size(); k++)
        if (have.elems[k].is_array() && want.elems[k].is_array() &&
            have.elems[k].dims[0].kind == Dim::Unknown)
          have.elems[k].dims[0] = want.elems[k].dims[0];
    }
    e.type = have;
  }

  // ---- calls

  Type infer_apply(Expr &e) {
    std::vector<Arg> args;
    for (ExprPtr &a : e.args) args.push_back(Arg{a.get(), Type(), a->span, a.get()});
    return apply_callee(e, args);
  }

  // Resolves the callee of `e` (an Apply, or a Var naming a function in a functional
  // argument) and checks the call with `args` (for a functional argument, the
  // parameters the built-in supplies come last, as given types).
  Type apply_callee(Expr &e, std::vector<Arg> &args) {
    if (find_local(e.name))
      error_at(e.span, fmt::format("'{}' is a variable, not a function", e.name));
    if (FunDef *f = find_function(e.name)) {
      e.callee = Callee::Function;
      e.fun = f;
      return call_function(*f, args, e.span);
    }
    if (std::optional<ArrayBuiltin> b = array_builtin_from_name(e.name)) {
      e.callee = Callee::ArrayBuiltin;
      e.array_builtin = *b;
      Type t = call_builtin(*b, args, e);
      return t;
    }
    if (std::optional<PrimBuiltin> b = prim_builtin_from_name(e.name)) {
      e.callee = Callee::PrimBuiltin;
      e.prim_builtin = *b;
      return call_prim(*b, e.name, args, e.span);
    }
    unknown_name(e.span, e.name, "function");
  }

  Type arg_type(Arg &a) {
    if (a.expr) {
      a.type = infer(*a.expr);
      a.expr = nullptr; // checked once
    }
    return a.type;
  }

  Type call_function(FunDef &f, std::vector<Arg> &args, const Span &span) {
    if (args.size() != f.params.size())
      error_at(span, fmt::format("'{}' takes {} argument(s), but is given {}", f.name,
                                 f.params.size(), args.size()));
    // Sizes of the callee's parameters, as the arguments give them.
    std::map<std::string, Dim> sizes;
    for (size_t i = 0; i < args.size(); i++) {
      Expr *expr = args[i].source;
      Type t = arg_type(args[i]);
      const Type &want = f.params[i].type;
      if (!unify(want, t))
        error_at(args[i].span, fmt::format("the {} argument of '{}' must be of type {}, but "
                                           "has type {}",
                                           ordinal(i), f.name, want.str(), show(t)));
      match_sizes(want, resolve(t), sizes);
      if (expr && f.params[i].kind == Pattern::Id) sizes[f.params[i].name] = dim_of(*expr);
    }
    Type ret = f.ret_type;
    for_each_dim(ret, [&](Dim &d) {
      if (d.kind != Dim::Var) return;
      auto it = sizes.find(d.name);
      if (it != sizes.end()) {
        d = it->second;
        return;
      }
      for (const std::string &n : size_expression_names(d.name)) {
        FunDef *c = find_function(n);
        if (!c || !c->params.empty()) {
          d = Dim::unknown();
          return;
        }
      }
    });
    return ret;
  }

  static void match_sizes(const Type &param, const Type &arg, std::map<std::string, Dim> &out) {
    if (param.is_array() && arg.is_array() && param.dims.size() == arg.dims.size())
      for (size_t i = 0; i < param.dims.size(); i++)
        if (param.dims[i].kind == Dim::Var && is_simple_name(param.dims[i].name) &&
            !out.count(param.dims[i].name))
          out[param.dims[i].name] = arg.dims[i];
    if (param.elems.size() == arg.elems.size())
      for (size_t i = 0; i < param.elems.size(); i++) match_sizes(param.elems[i], arg.elems[i], out);
  }

  Type call_prim(const PrimBuiltin &b, const std::string &name, std::vector<Arg> &args,
                 const Span &span) {
    if (is_constant(b))
      error_at(span, fmt::format("'{}' is a constant, not a function", name));
    int arity = b.fn == PrimFn::ConvertFrom ? 1 : prim_fn_arity(b.fn);
    size_t want = arity < 0 ? 1 : size_t(arity);
    if (args.size() != want)
      error_at(span, fmt::format("'{}' takes {} argument(s), but is given {}", name, want,
                                 args.size()));
    Type module = Type::prim_type(b.module);
    for (size_t i = 0; i < args.size(); i++) {
      Type t = arg_type(args[i]);
      Type param = b.fn == PrimFn::ConvertFrom ? Type::prim_type(b.from)
                   : arity < 0                 ? Type::array(module, {Dim::unknown()})
                                               : module;
      if (!unify(param, t))
        error_at(args[i].span, fmt::format("the {} argument of '{}' must be of type {}, but "
                                           "has type {}",
                                           ordinal(i), name, param.str(), show(t)));
    }
    switch (b.fn) {
    case PrimFn::IsNan: case PrimFn::IsInf: return Type::prim_type(PrimType::Bool);
    case PrimFn::Popc: case PrimFn::Clz: case PrimFn::Ctz: return Type::prim_type(PrimType::I32);
    default: return module;
    }
  }

  // Checks a functional argument `f` applied to parameters of types `params`; returns
  // the type of its result.
  Type check_function(Expr &f, const std::vector<Type> &params, const std::string &context) {
    Type result = check_function_kind(f, params, context);
    f.type = result;
    return result;
  }

  Type check_function_kind(Expr &f, const std::vector<Type> &params, const std::string &context) {
    switch (f.kind) {
    case ExprKind::Unsafe: return check_function(*f.args[0], params, context);
    case ExprKind::Lambda: {
      if (f.params.size() != params.size())
        error_at(f.span, fmt::format("the function given to {} must take {} argument(s), but "
                                     "this one takes {}",
                                     context, params.size(), f.params.size()));
      size_t mark = scope_mark();
      for (size_t i = 0; i < params.size(); i++) {
        Pattern &p = f.params[i];
        if (p.annotation) {
          check_dims(*p.annotation, p.span);
          if (!unify(*p.annotation, params[i]))
            error_at(p.span, fmt::format("this parameter has type {}, but {} gives it values "
                                         "of type {}",
                                         p.annotation->str(), context, show(params[i])));
        }
        bind_pattern(p, params[i]);
      }
      Type body = infer(*f.args[0]);
      if (f.annotation) {
        check_dims(*f.annotation, f.span);
        if (!unify(*f.annotation, body))
          error_at(f.args[0]->span, fmt::format("the body has type {}, but the declared "
                                                "return type is {}",
                                                show(body), f.annotation->str()));
        body = *f.annotation;
      }
      return pop_scope(mark, body);
    }
    case ExprKind::OpSection: {
      std::vector<Type> operands;
      if (f.args.empty()) {
        if (params.size() != 2)
          error_at(f.span, fmt::format("the operator ({}) takes 2 arguments, but {} gives its "
                                       "function {}",
                                       binop_text(f.binop), context, params.size()));
        operands = params;
      } else {
        if (params.size() != 1)
          error_at(f.span, fmt::format("an operator section takes 1 argument, but {} gives its "
                                       "function {}",
                                       context, params.size()));
        Type given = infer(*f.args[0]);
        operands = f.section_left ? std::vector<Type>{given, params[0]}
                                  : std::vector<Type>{params[0], given};
      }
      return binop_type(f.binop, operands[0], operands[1], f.span, f.span, f.span);
    }
    case ExprKind::Var:
    case ExprKind::Apply: {
      std::vector<Arg> args;
      for (ExprPtr &a : f.args) args.push_back(Arg{a.get(), Type(), a->span, a.get()});
      for (const Type &p : params) args.push_back(Arg{nullptr, p, f.span});
      if (f.kind == ExprKind::Var && find_local(f.name))
        error_at(f.span, fmt::format("'{}' is a variable, not a function", f.name));
      if (f.kind == ExprKind::Var) {
        if (FunDef *fun = find_function(f.name); fun && fun->params.empty())
          error_at(f.span, fmt::format("'{}' is a constant, not a function", f.name));
        if (std::optional<PrimBuiltin> b = prim_builtin_from_name(f.name); b && is_constant(*b))
          error_at(f.span, fmt::format("'{}' is a constant, not a function", f.name));
      }
      return apply_callee(f, args);
    }
    default:
      error_at(f.span, fmt::format("{} needs a function here: a name, an anonymous function "
                                   "(\\x -> ...) or an operator section such as (+)",
                                   context));
    }
  }

  Type call_builtin(ArrayBuiltin b, std::vector<Arg> &args, Expr &call) {
    const std::string name = array_builtin_name(b);
    const Span &span = call.span;
    auto arity_error = [&](size_t want) {
      error_at(span, fmt::format("'{}' takes {} argument(s), but is given {}", name, want,
                                 args.size()));
    };
    auto need = [&](size_t n) {
      if (args.size() != n) arity_error(n);
    };
    auto val = [&](size_t i) { return arg_type(args[i]); };
    auto array = [&](size_t i, int min_rank = 1) {
      Type t = resolve(val(i));
      if (!t.is_array() || t.rank() < min_rank)
        error_at(args[i].span,
                 fmt::format("the {} argument of '{}' must be an array{}, but has type {}",
                             ordinal(i), name,
                             min_rank > 1 ? fmt::format(" of rank {} or more", min_rank) : "",
                             show(t)));
      return t;
    };
    auto fn = [&](size_t i, const std::vector<Type> &params) {
      if (!args[i].expr)
        error_at(args[i].span, fmt::format("the {} argument of '{}' must be a function",
                                           ordinal(i), name));
      Expr &f = *args[i].expr;
      args[i].expr = nullptr;
      Type r = check_function(f, params, "'" + name + "'");
      args[i].type = r;
      return r;
    };
    auto same = [&](const Type &want, const Type &have, size_t i, const char *what) {
      if (!unify(want, have))
        error_at(args[i].span, fmt::format("{} of '{}' has type {}, but must have type {}",
                                           what, name, show(have), show(want)));
    };
    auto size_arg = [&](size_t i) {
      val(i);
      return args[i].source ? dim_of(*args[i].source) : Dim::unknown();
    };
    auto numeric_elem = [&](const Type &arr, size_t i) {
      Type el = arr.element();
      if (arr.rank() != 1 || !require(el, NumClass::Num))
        error_at(args[i].span, fmt::format("'{}' needs a one-dimensional array of numbers, "
                                           "but its argument has type {}",
                                           name, show(arr)));
      return el;
    };

    switch (b) {
    case ArrayBuiltin::Map: case ArrayBuiltin::Map1: case ArrayBuiltin::Map2:
    case ArrayBuiltin::Map3: case ArrayBuiltin::Map4: case ArrayBuiltin::Map5: {
      size_t n = b == ArrayBuiltin::Map || b == ArrayBuiltin::Map1 ? 1
                 : b == ArrayBuiltin::Map2                         ? 2
                 : b == ArrayBuiltin::Map3                         ? 3
                 : b == ArrayBuiltin::Map4                         ? 4
                                                                   : 5;
      need(n + 1);
      std::vector<Type> rows;
      Dim outer;
      for (size_t i = 1; i <= n; i++) {
        Type a = array(i);
        rows.push_back(a.row());
        if (i == 1) outer = a.dims[0];
      }
      Type r = fn(0, rows);
      return Type::array(r, {outer});
    }
    case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm: case ArrayBuiltin::Scan: {
      need(3);
      Type ne = val(1);
      Type xs = array(2);
      Type t = xs.row();
      same(t, ne, 1, "the neutral element");
      Type r = fn(0, {t, t});
      same(t, r, 0, "the result of the operator");
      return b == ArrayBuiltin::Scan ? xs : t;
    }
    case ArrayBuiltin::Filter: case ArrayBuiltin::Partition:
    case ArrayBuiltin::All: case ArrayBuiltin::Any: {
      need(2);
      Type xs = array(1);
      Type r = fn(0, {xs.row()});
      same(Type::prim_type(PrimType::Bool), r, 0, "the result of the predicate");
      if (b == ArrayBuiltin::All || b == ArrayBuiltin::Any) return Type::prim_type(PrimType::Bool);
      Type out = xs;
      out.dims[0] = Dim::unknown();
      out.unique = false;
      if (b == ArrayBuiltin::Filter) return out;
      return Type::tuple({out, out});
    }
    case ArrayBuiltin::Scatter: {
      need(3);
      Type dest = array(0);
      Type is = array(1);
      Type vs = array(2);
      index_array(is, args[1], 1, name);
      same(dest.row(), vs.row(), 2, "each value");
      return dest;
    }
    case ArrayBuiltin::ReduceByIndex: {
      need(5);
      Type dest = array(0);
      Type t = dest.row();
      same(t, val(2), 2, "the neutral element");
      Type is = array(3);
      index_array(is, args[3], 3, name);
      Type vs = array(4);
      same(t, vs.row(), 4, "each value");
      same(t, fn(1, {t, t}), 1, "the result of the operator");
      return dest;
    }
    case ArrayBuiltin::Hist: {
      need(5);
      Type ne = val(1);
      size_arg_i64(2, args, name);
      Dim k = size_arg(2);
      Type is = array(3);
      index_array(is, args[3], 3, name);
      Type vs = array(4);
      same(ne, vs.row(), 4, "each value");
      same(ne, fn(0, {ne, ne}), 0, "the result of the operator");
      return Type::array(ne, {k});
    }
    case ArrayBuiltin::Iota: {
      need(1);
      Dim d = size_arg(0);
      Type t = val(0);
      Type r = resolve(t);
      if (r.kind == Type::TypeVar) unify(r, Type::prim_type(PrimType::I64));
      else if (!r.is_prim() || !is_int(r.prim))
        error_at(args[0].span, fmt::format("'iota' needs an integer, but its argument has type {}",
                                           show(t)));
      return Type::array(t, {d});
    }
    case ArrayBuiltin::Replicate: {
      need(2);
      size_arg_i64(0, args, name);
      Dim d = size_arg(0);
      Type x = val(1);
      Type out = Type::array(x, {d});
      out.unique = false;
      return out;
    }
    case ArrayBuiltin::Tabulate: {
      need(2);
      size_arg_i64(0, args, name);
      Dim d = size_arg(0);
      Type r = fn(1, {Type::prim_type(PrimType::I64)});
      return Type::array(r, {d});
    }
    case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2: case ArrayBuiltin::Zip3:
    case ArrayBuiltin::Zip4: case ArrayBuiltin::Zip5: {
      size_t n = b == ArrayBuiltin::Zip || b == ArrayBuiltin::Zip2 ? 2
                 : b == ArrayBuiltin::Zip3                         ? 3
                 : b == ArrayBuiltin::Zip4                         ? 4
                                                                   : 5;
      need(n);
      std::vector<Type> rows;
      Dim outer;
      for (size_t i = 0; i < n; i++) {
        Type a = array(i);
        rows.push_back(a.row());
        if (i == 0) outer = a.dims[0];
      }
      return Type::array(Type::tuple(rows), {outer});
    }
    case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: case ArrayBuiltin::Unzip3:
    case ArrayBuiltin::Unzip4: case ArrayBuiltin::Unzip5: {
      size_t n = b == ArrayBuiltin::Unzip || b == ArrayBuiltin::Unzip2 ? 2
                 : b == ArrayBuiltin::Unzip3                           ? 3
                 : b == ArrayBuiltin::Unzip4                           ? 4
                                                                       : 5;
      need(1);
      Type xs = array(0);
      Type row = resolve(xs.row());
      if (!row.is_tuple() || row.elems.size() != n)
        error_at(args[0].span, fmt::format("'{}' needs an array of {}-tuples, but its argument "
                                           "has type {}",
                                           name, n, show(xs)));
      std::vector<Type> out;
      for (const Type &c : row.elems) out.push_back(Type::array(c, {xs.dims[0]}));
      return Type::tuple(out);
    }
    case ArrayBuiltin::Length:
      need(1);
      array(0);
      return Type::prim_type(PrimType::I64);
    case ArrayBuiltin::Flatten: {
      need(1);
      Type xs = array(0, 2);
      std::vector<Dim> dims{product_dim(xs.dims[0], xs.dims[1])};
      dims.insert(dims.end(), xs.dims.begin() + 2, xs.dims.end());
      return Type::array(xs.element(), dims);
    }
    case ArrayBuiltin::Unflatten: {
      if (args.size() == 3) { // the older form: unflatten n m xs
        size_arg_i64(0, args, name);
        size_arg_i64(1, args, name);
        Dim n = size_arg(0), m = size_arg(1);
        Type xs = array(2);
        std::vector<Dim> dims{n, m};
        dims.insert(dims.end(), xs.dims.begin() + 1, xs.dims.end());
        return Type::array(xs.element(), dims);
      }
      need(1);
      Type xs = array(0);
      // [a * b]t gives [a][b]t (so that unflatten (unflatten xs) of [a * b * c]t is
      // [a][b][c]t, as unflatten_3d is); other sizes come from the context (refine_dims).
      std::vector<Dim> dims{Dim::unknown(), Dim::unknown()};
      if (xs.dims[0].kind == Dim::Var)
        if (auto parts = split_size_text(xs.dims[0].name, '*'))
          dims = {dim_of_text(parts->first), dim_of_text(parts->second)};
      dims.insert(dims.end(), xs.dims.begin() + 1, xs.dims.end());
      return Type::array(xs.element(), dims);
    }
    case ArrayBuiltin::Unflatten3d: case ArrayBuiltin::Unflatten4d:
      KERB_ASSERT(false, "unflatten_3d and unflatten_4d are expanded by finish_first_order");
      return Type();
    case ArrayBuiltin::Transpose: {
      need(1);
      Type xs = array(0, 2);
      std::swap(xs.dims[0], xs.dims[1]);
      xs.unique = false;
      return xs;
    }
    case ArrayBuiltin::Concat: {
      need(2);
      Type a = array(0), c = array(1);
      same(a, c, 1, "the second array");
      Type r = common_dims(a, c);
      r.dims[0] = Dim::unknown();
      r.unique = false;
      return r;
    }
    case ArrayBuiltin::Copy: case ArrayBuiltin::Opaque:
      need(1);
      return val(0);
    case ArrayBuiltin::Reverse: {
      need(1);
      Type xs = array(0);
      xs.unique = false;
      return xs;
    }
    case ArrayBuiltin::Rotate: {
      need(2);
      size_arg_i64(0, args, name);
      Type xs = array(1);
      xs.unique = false;
      return xs;
    }
    case ArrayBuiltin::Take: case ArrayBuiltin::Drop: {
      need(2);
      size_arg_i64(0, args, name);
      Dim d = b == ArrayBuiltin::Take ? size_arg(0) : Dim::unknown();
      Type xs = array(1);
      xs.dims[0] = d;
      xs.unique = false;
      return xs;
    }
    case ArrayBuiltin::Split: {
      if (args.size() == 2) { // the older form: split i xs
        size_arg_i64(0, args, name);
        Type xs = array(1);
        xs.dims[0] = Dim::unknown();
        xs.unique = false;
        return Type::tuple({xs, xs});
      }
      need(1);
      Type xs = array(0);
      xs.dims[0] = Dim::unknown();
      xs.unique = false;
      return Type::tuple({xs, xs});
    }
    case ArrayBuiltin::Head: case ArrayBuiltin::Last:
      need(1);
      return array(0).row();
    case ArrayBuiltin::Tail: case ArrayBuiltin::Init: {
      need(1);
      Type xs = array(0);
      xs.dims[0] = Dim::unknown();
      xs.unique = false;
      return xs;
    }
    case ArrayBuiltin::Sum: case ArrayBuiltin::Product:
    case ArrayBuiltin::Maximum: case ArrayBuiltin::Minimum: {
      need(1);
      Type xs = array(0);
      return numeric_elem(xs, 0);
    }
    case ArrayBuiltin::Foldl: case ArrayBuiltin::Foldr: {
      need(3);
      Type acc = val(1);
      Type xs = array(2);
      Type r = b == ArrayBuiltin::Foldl ? fn(0, {acc, xs.row()}) : fn(0, {xs.row(), acc});
      same(acc, r, 0, "the result of the function");
      return acc;
    }
    }
    error_at(span, "unknown built-in function");
  }

  // Argument i is a size (iota n, replicate n x, take n xs, ...): any integer type in the
  // interpreter, i64 in Futhark; an unsuffixed literal becomes i64.
  void size_arg_i64(size_t i, std::vector<Arg> &args, const std::string &name) {
    if (!args[i].expr) {
      if (!require(args[i].type, NumClass::Int))
        error_at(args[i].span, fmt::format("the {} argument of '{}' must be an integer, but has "
                                           "type {}",
                                           ordinal(i), name, show(args[i].type)));
      return;
    }
    expect_index(*args[i].expr, "a size");
    args[i].type = args[i].expr->type;
    args[i].expr = nullptr;
  }

  void index_array(const Type &is, const Arg &arg, size_t i, const std::string &name) {
    if (is.rank() != 1 || !require(is.element(), NumClass::Int))
      error_at(arg.span, fmt::format("the {} argument of '{}' must be an array of indices",
                                   ordinal(i), name));
    Type el = resolve(is.element());
    if (el.kind == Type::TypeVar) unify(el, Type::prim_type(PrimType::I64));
  }

  Program &program_;
  std::set<std::string> defined_;
  std::vector<TypeVarInfo> vars_;
  std::vector<Local> locals_;
};

} // namespace

void check_first_order(Program &program) { TypeChecker(program).run(); }

} // namespace kerb
