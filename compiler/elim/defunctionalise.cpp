// Defunctionalisation (defunctionalise.h).
//
// Note [Static values]
// Every expression is rewritten together with its static value (SV), what is known at
// compile time about the value it denotes:
//   - Dynamic: a first-order value, known only at run time;
//   - Closure: a function, known exactly: its code (a lambda, a top-level or local
//     function, a built-in, an operator or field section), the static values of the
//     variables its code captured (`env`), and the arguments it was given so far
//     (`applied`, for a partial application);
//   - Tuple or Record: of static values, when some component is a function.
// Futhark's type rules guarantee that this is always known: an if, a match or a loop
// never gives a function, arrays never hold them, entry points take and return none.
// At run time a closure is represented by the values it needs: the tuple of its
// captured values and applied arguments (a single value stands alone; none is `()`).
//
// Applying a closure to enough arguments calls its code:
//   - a lambda or a local function becomes a lifted top-level function whose first
//     parameters are the captured variables (by their own names, so that the body reads
//     them unchanged) and the rest the code's parameters, annotated with the types of
//     the arguments' representations; one lifted function per combination of the
//     static values of captured variables and arguments;
//   - a top-level function that takes or returns functions is specialised the same way
//     (its function parameters become the representations of the closures given);
//     first-order functions are called as they are;
//   - a built-in is called, a section becomes its operator, a field section a field
//     access.
// The lifted function's body is rewritten with the parameters bound to the static
// values given, so that the closures it receives or makes are known there too; its
// result's static value is the call's.
//
// The built-in SOACs keep functional arguments. A lambda, an operator section, a
// first-order function or a partial application written in place stays as it is (its
// body rewritten); any other function (a variable bound to a closure, a field section,
// a local function, ...) is passed as a lambda that applies the closure, whose
// representation is bound just before the call: `let c = <closure> in map (\x -> L c x) xs`.
//
// Definitions are visited in source order; lifted and specialised functions are placed
// before the definition that needs them. Higher-order top-level functions themselves
// disappear (only their specialisations remain).
#include "compiler/elim/defunctionalise.h"

#include "compiler/elim/build.h"
#include "compiler/prim_ops.h"
#include "compiler/types/builtin_types.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

namespace kerb {

namespace {

struct SV;
using SVPtr = std::shared_ptr<const SV>;

struct SV {
  enum Kind : uint8_t { Dynamic, Closure, Tuple, Record } kind = Dynamic;
  Type type; // Dynamic: the value's type; Closure: the type of the function when made
  enum Code : uint8_t { Lambda, Fun, Builtin, Prim, Section, Proj } code = Lambda;
  const Expr *expr = nullptr;  // Lambda, Section, Proj: the expression
  const FunDef *fun = nullptr; // Fun: a top-level or local function
  ArrayBuiltin builtin = ArrayBuiltin::Map;
  PrimBuiltin prim;
  size_t arity = 0;            // how many arguments the code takes
  std::vector<std::pair<std::string, SVPtr>> env; // captured variables, or a section's operand
  std::vector<SVPtr> applied;  // arguments given so far
  std::vector<SVPtr> elems;    // Tuple, Record
  std::vector<std::string> names; // Record

  bool dynamic() const { return kind == Dynamic; }
};

SVPtr dynamic_sv(const Type &t) {
  auto sv = std::make_shared<SV>();
  sv->type = t;
  return sv;
}

size_t arrows(const Type &t) {
  size_t n = 0;
  for (const Type *x = &t; x->kind == Type::Function; x = &x->elems[1]) n++;
  return n;
}

Type tuple_or_single(std::vector<Type> ts) {
  if (ts.size() == 1) return ts[0];
  return Type::tuple(std::move(ts));
}

// The type of a value's run-time representation.
Type rep_type(const SV &sv) {
  switch (sv.kind) {
  case SV::Dynamic: return erase_dims(sv.type);
  case SV::Closure: {
    std::vector<Type> ts;
    for (const auto &[n, e] : sv.env) ts.push_back(rep_type(*e));
    for (const SVPtr &a : sv.applied) ts.push_back(rep_type(*a));
    return tuple_or_single(std::move(ts));
  }
  case SV::Tuple: {
    std::vector<Type> ts;
    for (const SVPtr &e : sv.elems) ts.push_back(rep_type(*e));
    return Type::tuple(std::move(ts));
  }
  case SV::Record: {
    std::vector<std::pair<std::string, Type>> fs;
    for (size_t i = 0; i < sv.elems.size(); i++) fs.push_back({sv.names[i], rep_type(*sv.elems[i])});
    return Type::record(std::move(fs));
  }
  }
  return {};
}

// A text that is equal for static values that lifted code may share.
std::string key_of(const SV &sv) {
  switch (sv.kind) {
  case SV::Dynamic: return "D" + erase_dims(sv.type).str();
  case SV::Closure: {
    std::string k = fmt::format("C{}:{}:{}:{}:{}:{}", int(sv.code), static_cast<const void *>(sv.expr),
                                static_cast<const void *>(sv.fun), int(sv.builtin),
                                int(sv.prim.module) * 1000 + int(sv.prim.fn) * 10 + int(sv.prim.from),
                                sv.arity);
    k += "(";
    for (const auto &[n, e] : sv.env) k += n + "=" + key_of(*e) + ",";
    k += ")[";
    for (const SVPtr &a : sv.applied) k += key_of(*a) + ",";
    return k + "]";
  }
  case SV::Tuple: case SV::Record: {
    std::string k = sv.kind == SV::Tuple ? "T(" : "R(";
    for (size_t i = 0; i < sv.elems.size(); i++)
      k += (sv.kind == SV::Record ? sv.names[i] + "=" : "") + key_of(*sv.elems[i]) + ",";
    return k + ")";
  }
  }
  return "";
}

bool first_order(const FunDef &f) {
  for (const Pattern &p : f.params)
    if (contains_function(p.type)) return false;
  return !contains_function(f.ret_type);
}

// What a rewritten expression is: the new expression and its static value.
struct Result {
  ExprPtr expr;
  SVPtr sv;
};

// A function made by this pass: its name and what its calls return.
struct Lifted {
  std::string name;
  SVPtr result;
};

class Defunctionaliser {
public:
  Defunctionaliser(Program &program, NameSource &names) : prog_(program), names_(names) {}

  void run() {
    std::vector<std::unique_ptr<FunDef>> defs = std::move(prog_.defs);
    for (std::unique_ptr<FunDef> &d : defs) {
      originals_.push_back(std::move(d));
      FunDef &f = *originals_.back();
      if (!first_order(f) || (f.params.empty() && contains_function(f.ret_type))) continue;
      out_.push_back(rewrite_first_order(f));
    }
    prog_.defs = std::move(out_);
  }

private:
  Program &prog_;
  NameSource &names_;
  std::vector<std::unique_ptr<FunDef>> originals_; // the input, kept: SVs point into it
  std::vector<std::unique_ptr<FunDef>> out_;
  std::map<std::string, Lifted> lifted_;
  std::vector<std::pair<std::string, SVPtr>> env_; // the local scope

  // ---- scopes

  const SV *lookup(const std::string &name) const {
    for (size_t i = env_.size(); i-- > 0;)
      if (env_[i].first == name) return env_[i].second.get();
    return nullptr;
  }
  SVPtr lookup_ptr(const std::string &name) const {
    for (size_t i = env_.size(); i-- > 0;)
      if (env_[i].first == name) return env_[i].second;
    return nullptr;
  }

  [[noreturn]] static void unsupported(const Span &span, const std::string &what) {
    error_at(span, what + " is not supported yet");
  }

  // ---- definitions

  std::unique_ptr<FunDef> rewrite_first_order(const FunDef &f) {
    std::unique_ptr<FunDef> out = clone_fundef(f);
    out->body.reset();
    std::vector<std::pair<std::string, SVPtr>> saved = std::move(env_);
    env_.clear();
    for (const std::string &n : f.size_params) env_.push_back({n, dynamic_sv(Type::prim_type(PrimType::I64))});
    for (size_t i = 0; i < f.params.size(); i++) out->params[i] = bind(f.params[i], dynamic_sv(f.params[i].type));
    out->body = rewrite(*f.body).expr;
    env_ = std::move(saved);
    return out;
  }

  // ---- patterns

  // Binds the names of `p` to the parts of `sv`; returns the pattern for the
  // representation (annotated with its type where functions were).
  Pattern bind(const Pattern &p, const SVPtr &sv) {
    Pattern out = p;
    bool parts = p.kind == Pattern::Tuple || p.kind == Pattern::Record;
    if (!sv->dynamic() || (p.annotation && contains_function(*p.annotation)))
      out.annotation = parts ? std::nullopt : std::optional<Type>(erase_dims(rep_type(*sv)));
    switch (p.kind) {
    case Pattern::Id: env_.push_back({p.name, sv}); break;
    case Pattern::Wildcard: break;
    case Pattern::Tuple:
    case Pattern::Record:
      for (size_t i = 0; i < p.elems.size(); i++) {
        SVPtr part;
        if (sv->kind == SV::Tuple) {
          part = sv->elems[i];
        } else if (sv->kind == SV::Record) {
          for (size_t k = 0; k < sv->names.size(); k++)
            if (sv->names[k] == p.fields[i]) part = sv->elems[k];
        }
        if (!part) part = dynamic_sv(p.elems[i].type);
        out.elems[i] = bind(p.elems[i], part);
      }
      break;
    case Pattern::Constr:
      for (size_t i = 0; i < p.elems.size(); i++) out.elems[i] = bind(p.elems[i], dynamic_sv(p.elems[i].type));
      break;
    case Pattern::Literal: break;
    }
    return out;
  }

  // ---- expressions

  Result dyn(ExprPtr e) {
    SVPtr sv = dynamic_sv(e->type);
    return Result{std::move(e), sv};
  }

  // A copy of `e` whose children (of first-order type) are rewritten.
  Result rebuild(const Expr &e) {
    ExprPtr out = shallow_copy(e);
    for (const ExprPtr &a : e.args) out->args.push_back(a ? rewrite(*a).expr : nullptr);
    for (const IndexPart &p : e.indices) {
      IndexPart q;
      q.is_slice = p.is_slice;
      q.span = p.span;
      if (p.index) q.index = rewrite(*p.index).expr;
      if (p.start) q.start = rewrite(*p.start).expr;
      if (p.end) q.end = rewrite(*p.end).expr;
      if (p.stride) q.stride = rewrite(*p.stride).expr;
      out->indices.push_back(std::move(q));
    }
    return dyn(std::move(out));
  }

  static ExprPtr shallow_copy(const Expr &e) {
    ExprPtr c = make_expr(e.kind, e.span);
    c->type = e.type;
    c->int_value = e.int_value;
    c->float_value = e.float_value;
    c->bool_value = e.bool_value;
    c->suffix = e.suffix;
    c->name = e.name;
    c->binop = e.binop;
    c->unop = e.unop;
    c->section_left = e.section_left;
    c->loop_form = e.loop_form;
    c->range_kind = e.range_kind;
    c->field = e.field;
    c->annotation = e.annotation;
    c->fields = e.fields;
    c->size_params = e.size_params;
    c->callee = e.callee;
    c->fun = e.fun;
    c->array_builtin = e.array_builtin;
    c->prim_builtin = e.prim_builtin;
    return c;
  }

  Result rewrite(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit:
      return dyn(shallow_copy(e));
    case ExprKind::Var: return rewrite_name(e);
    case ExprKind::Tuple: case ExprKind::Record: {
      ExprPtr out = shallow_copy(e);
      std::vector<SVPtr> svs;
      bool all_dynamic = true;
      for (const ExprPtr &a : e.args) {
        Result r = rewrite(*a);
        all_dynamic = all_dynamic && r.sv->dynamic();
        svs.push_back(r.sv);
        out->args.push_back(std::move(r.expr));
      }
      if (all_dynamic) return dyn(std::move(out));
      auto sv = std::make_shared<SV>();
      sv->kind = e.kind == ExprKind::Tuple ? SV::Tuple : SV::Record;
      sv->type = e.type;
      sv->elems = std::move(svs);
      sv->names = e.fields;
      if (sv->kind == SV::Record) {
        // Fields in the type's (sorted) order.
        std::vector<std::pair<std::string, SVPtr>> fs;
        for (size_t i = 0; i < sv->names.size(); i++) fs.push_back({sv->names[i], sv->elems[i]});
        std::sort(fs.begin(), fs.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        sv->names.clear();
        sv->elems.clear();
        for (auto &[n, s] : fs) {
          sv->names.push_back(n);
          sv->elems.push_back(s);
        }
      }
      out->type = rep_type(*sv);
      return Result{std::move(out), sv};
    }
    case ExprKind::Project: case ExprKind::Field: {
      Result r = rewrite(*e.args[0]);
      ExprPtr out = shallow_copy(e);
      out->args.push_back(std::move(r.expr));
      if (r.sv->kind == SV::Tuple) {
        SVPtr part = r.sv->elems[size_t(e.field)];
        out->type = rep_type(*part);
        return Result{std::move(out), part};
      }
      if (r.sv->kind == SV::Record) {
        for (size_t i = 0; i < r.sv->names.size(); i++)
          if (r.sv->names[i] == e.name) {
            out->type = rep_type(*r.sv->elems[i]);
            return Result{std::move(out), r.sv->elems[i]};
          }
      }
      return dyn(std::move(out));
    }
    case ExprKind::Let: {
      Result v = rewrite(*e.args[0]);
      size_t mark = env_.size();
      for (const std::string &n : e.size_params) env_.push_back({n, dynamic_sv(Type::prim_type(PrimType::I64))});
      ExprPtr out = shallow_copy(e);
      out->pattern = bind(e.pattern, v.sv);
      Result body = rewrite(*e.args[1]);
      env_.resize(mark);
      out->args.push_back(std::move(v.expr));
      out->type = body.expr->type;
      out->args.push_back(std::move(body.expr));
      return Result{std::move(out), body.sv};
    }
    case ExprKind::LetFun: {
      const FunDef &f = *e.fundef;
      auto sv = std::make_shared<SV>();
      sv->kind = SV::Closure;
      sv->code = SV::Fun;
      sv->fun = &f;
      sv->arity = f.params.size();
      sv->type = function_type_of(f);
      std::vector<ExprPtr> reps;
      capture(free_vars_of_fundef(f), *sv, reps, e.span);
      size_t mark = env_.size();
      env_.push_back({f.name, sv});
      Result rest = rewrite(*e.args[0]);
      env_.resize(mark);
      ExprPtr let = make_expr(ExprKind::Let, e.span);
      let->pattern = id_pattern(f.name, f.name_span, erase_dims(rep_type(*sv)));
      let->args.push_back(tuple_expr(std::move(reps), e.span));
      let->type = rest.expr->type;
      let->args.push_back(std::move(rest.expr));
      return Result{std::move(let), rest.sv};
    }
    case ExprKind::Loop: {
      ExprPtr out = shallow_copy(e);
      out->args.push_back(e.args[0] ? rewrite(*e.args[0]).expr : nullptr);
      if (e.loop_form != LoopForm::While) out->args.push_back(rewrite(*e.args[1]).expr);
      size_t mark = env_.size();
      for (const std::string &n : e.size_params) env_.push_back({n, dynamic_sv(Type::prim_type(PrimType::I64))});
      out->pattern = bind(e.pattern, dynamic_sv(e.pattern.type));
      if (e.loop_form == LoopForm::For) env_.push_back({e.name, dynamic_sv(e.args[1]->type)});
      if (e.loop_form == LoopForm::ForIn) out->pattern2 = bind(e.pattern2, dynamic_sv(e.pattern2.type));
      if (e.loop_form == LoopForm::While) out->args.push_back(rewrite(*e.args[1]).expr);
      out->args.push_back(rewrite(*e.args[2]).expr);
      env_.resize(mark);
      return dyn(std::move(out));
    }
    case ExprKind::Match: {
      ExprPtr out = shallow_copy(e);
      out->args.push_back(rewrite(*e.args[0]).expr);
      for (size_t i = 0; i < e.params.size(); i++) {
        size_t mark = env_.size();
        out->params.push_back(bind(e.params[i], dynamic_sv(e.params[i].type)));
        out->args.push_back(rewrite(*e.args[i + 1]).expr);
        env_.resize(mark);
      }
      return dyn(std::move(out));
    }
    case ExprKind::Lambda: case ExprKind::OpSection: case ExprKind::ProjSection:
      return make_closure(e);
    case ExprKind::Apply: case ExprKind::ApplyExpr: return rewrite_apply(e);
    case ExprKind::Ascribe: case ExprKind::Coerce:
      if (contains_function(e.type)) return rewrite(*e.args[0]);
      return rebuild(e);
    case ExprKind::Unsafe: {
      Result r = rewrite(*e.args[0]);
      ExprPtr out = shallow_copy(e);
      out->type = r.expr->type;
      out->args.push_back(std::move(r.expr));
      return Result{std::move(out), r.sv};
    }
    case ExprKind::Assert: {
      // `assert c f`: the check is made where the function value is.
      ExprPtr out = shallow_copy(e);
      out->args.push_back(rewrite(*e.args[0]).expr);
      Result r = rewrite(*e.args[1]);
      out->type = r.expr->type;
      out->args.push_back(std::move(r.expr));
      return Result{std::move(out), r.sv};
    }
    case ExprKind::RecordUpdate: {
      Result r = rewrite(*e.args[0]);
      if (!r.sv->dynamic()) unsupported(e.span, "updating a record that holds functions");
      ExprPtr out = shallow_copy(e);
      out->args.push_back(std::move(r.expr));
      out->args.push_back(rewrite(*e.args[1]).expr);
      return dyn(std::move(out));
    }
    default: return rebuild(e);
    }
  }

  static Type function_type_of(const FunDef &f) {
    Type t = f.ret_type;
    for (size_t i = f.params.size(); i-- > 0;) t = Type::function(f.params[i].type, t);
    return t;
  }

  // ---- names and closures

  // A name used as a value: a local, a top-level function, a built-in. `e` may be the
  // Apply that applies it to `nargs` arguments (its type is then the result's).
  Result rewrite_name(const Expr &e, size_t nargs = 0) {
    bool local = e.callee == Callee::Local || (e.callee == Callee::Function && e.fun && e.fun->is_local);
    if (local) {
      SVPtr sv = lookup_ptr(e.name);
      KERB_ASSERT(sv != nullptr, "defunctionalise: unknown local '" + e.name + "'");
      ExprPtr v = var_expr(e.name, e.span, sv->dynamic() ? e.type : rep_type(*sv));
      return Result{std::move(v), sv};
    }
    // The named thing's own type: the result's, with the arguments' types before it.
    Type type = e.type;
    if (e.kind == ExprKind::Apply)
      for (size_t i = e.args.size(); i-- > 0;) type = Type::function(e.args[i]->type, type);
    if (e.callee == Callee::Function) {
      const FunDef &f = *e.fun;
      if (f.params.empty()) {
        if (!contains_function(f.ret_type)) return dyn(shallow_copy(e));
        // A constant whose value is a function: its specialisation computes the closure.
        Lifted l = specialise(f, {});
        ExprPtr v = make_expr(ExprKind::Var, e.span);
        v->name = l.name;
        v->callee = Callee::Function;
        v->type = rep_type(*l.result);
        return Result{std::move(v), l.result};
      }
      auto sv = std::make_shared<SV>();
      sv->kind = SV::Closure;
      sv->code = SV::Fun;
      sv->fun = &f;
      sv->arity = f.params.size();
      sv->type = type;
      return Result{unit(e.span), sv};
    }
    if (e.callee == Callee::ArrayBuiltin) {
      // The form the source checker chose: the one of this arity, or the first.
      const std::vector<Type> &forms = array_builtin_signatures(e.array_builtin);
      size_t arity = arrows(forms[0]);
      for (const Type &f : forms)
        if (arrows(f) == nargs) arity = nargs;
      auto sv = std::make_shared<SV>();
      sv->kind = SV::Closure;
      sv->code = SV::Builtin;
      sv->builtin = e.array_builtin;
      sv->arity = arity;
      sv->type = type;
      return Result{unit(e.span), sv};
    }
    if (e.callee == Callee::PrimBuiltin && prim_builtin_type(e.prim_builtin).kind == Type::Function) {
      auto sv = std::make_shared<SV>();
      sv->kind = SV::Closure;
      sv->code = SV::Prim;
      sv->prim = e.prim_builtin;
      sv->arity = arrows(prim_builtin_type(e.prim_builtin));
      sv->type = prim_builtin_type(e.prim_builtin);
      prim_names_[key_of(*sv)] = e.name;
      return Result{unit(e.span), sv};
    }
    return dyn(shallow_copy(e));
  }

  std::map<std::string, std::string> prim_names_; // a Prim closure's key -> its name

  static ExprPtr unit(const Span &span) {
    ExprPtr t = make_expr(ExprKind::Tuple, span);
    t->type = Type::unit();
    return t;
  }

  // Captures the locals among `names` into closure `sv`: their static values into its
  // env, their representations (variables) into `reps`.
  void capture(const std::set<std::string> &names, SV &sv, std::vector<ExprPtr> &reps, const Span &span) {
    for (const std::string &n : names) {
      SVPtr s = lookup_ptr(n);
      if (!s) continue;
      sv.env.push_back({n, s});
      reps.push_back(var_expr(n, span, rep_type(*s)));
    }
  }

  // A lambda, an operator section or a field section as a value.
  Result make_closure(const Expr &e) {
    auto sv = std::make_shared<SV>();
    sv->kind = SV::Closure;
    sv->type = e.type;
    sv->expr = &e;
    std::vector<ExprPtr> reps;
    if (e.kind == ExprKind::Lambda) {
      sv->code = SV::Lambda;
      sv->arity = e.params.size();
      std::set<std::string> bound, free;
      for (const Pattern &p : e.params) free_in_pattern_types(p, free), pattern_names(p, bound);
      free_vars(*e.args[0], bound, free);
      capture(free, *sv, reps, e.span);
    } else if (e.kind == ExprKind::OpSection) {
      sv->code = SV::Section;
      sv->arity = e.args.empty() ? 2 : 1;
      if (!e.args.empty()) {
        Result operand = rewrite(*e.args[0]);
        sv->env.push_back({"", operand.sv});
        reps.push_back(std::move(operand.expr));
      }
      // An operator that is a local (a parameter `(<=)`, a local function) is captured
      // here, where its name means it: applied in the code of another function (a
      // library's sort passing its `(<=)` on), the name would be looked up there, find
      // the parameter bound to this very section and never end.
      if (!e.name.empty() && (e.callee == Callee::Local || (e.callee == Callee::Function && e.fun && e.fun->is_local))) {
        Expr name_use(ExprKind::Var, e.span);
        name_use.name = e.name;
        name_use.callee = e.callee;
        name_use.fun = e.fun;
        Result op = rewrite_name(name_use);
        sv->env.push_back({"", op.sv});
        reps.push_back(std::move(op.expr));
      }
    } else {
      sv->code = SV::Proj;
      sv->arity = 1;
    }
    ExprPtr rep = tuple_expr(std::move(reps), e.span);
    if (rep->kind == ExprKind::Tuple) rep->type = rep_type(*sv);
    return Result{std::move(rep), sv};
  }

  // ---- free variables

  static void pattern_names(const Pattern &p, std::set<std::string> &out) {
    if (p.kind == Pattern::Id) out.insert(p.name);
    for (const Pattern &e : p.elems) pattern_names(e, out);
  }

  static void type_names(const Type &t, std::set<std::string> &out) {
    for (const Dim &d : t.dims)
      if (d.kind == Dim::Var) {
        // The names in a size expression.
        const std::string &s = d.name;
        for (size_t i = 0; i < s.size();) {
          if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '\'')) j++;
            out.insert(s.substr(i, j - i));
            i = j;
          } else {
            i++;
          }
        }
      }
    for (const Type &e : t.elems) type_names(e, out);
  }

  static void free_in_pattern_types(const Pattern &p, std::set<std::string> &out) {
    if (p.annotation) type_names(*p.annotation, out);
    for (const Pattern &e : p.elems) free_in_pattern_types(e, out);
  }

  std::set<std::string> free_vars_of_fundef(const FunDef &f) {
    std::set<std::string> bound(f.size_params.begin(), f.size_params.end()), free;
    for (const Pattern &p : f.params) free_in_pattern_types(p, free), pattern_names(p, bound);
    if (f.ret_annotation) type_names(*f.ret_annotation, free);
    free_vars(*f.body, bound, free);
    for (const std::string &b : bound) free.erase(b);
    return free;
  }

  // Adds to `out` the local names `e` uses that `bound` does not bind.
  void free_vars(const Expr &e, std::set<std::string> bound, std::set<std::string> &out) {
    auto use = [&](const std::string &n) {
      if (!bound.count(n)) out.insert(n);
    };
    bool local = e.callee == Callee::Local || (e.callee == Callee::Function && e.fun && e.fun->is_local);
    if ((e.kind == ExprKind::Var || e.kind == ExprKind::Apply || e.kind == ExprKind::OpSection) &&
        local && !e.name.empty())
      use(e.name);
    if (e.annotation) {
      std::set<std::string> ns;
      type_names(*e.annotation, ns);
      for (const std::string &n : ns) use(n);
    }
    for (const IndexPart &p : e.indices)
      for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
        if (*x) free_vars(**x, bound, out);
    auto pattern_types = [&](const Pattern &p) {
      std::set<std::string> ns;
      free_in_pattern_types(p, ns);
      for (const std::string &n : ns) use(n);
    };
    switch (e.kind) {
    case ExprKind::Let: {
      free_vars(*e.args[0], bound, out);
      pattern_types(e.pattern);
      std::set<std::string> inner = bound;
      inner.insert(e.size_params.begin(), e.size_params.end());
      pattern_names(e.pattern, inner);
      free_vars(*e.args[1], inner, out);
      return;
    }
    case ExprKind::LetFun: {
      for (const std::string &n : free_vars_of_fundef(*e.fundef)) use(n);
      std::set<std::string> inner = bound;
      inner.insert(e.fundef->name);
      free_vars(*e.args[0], inner, out);
      return;
    }
    case ExprKind::Lambda: {
      std::set<std::string> inner = bound;
      for (const Pattern &p : e.params) pattern_types(p), pattern_names(p, inner);
      free_vars(*e.args[0], inner, out);
      return;
    }
    case ExprKind::Loop: {
      if (e.args[0]) free_vars(*e.args[0], bound, out);
      else {
        std::set<std::string> ns;
        pattern_names(e.pattern, ns);
        for (const std::string &n : ns) use(n);
      }
      if (e.loop_form != LoopForm::While) free_vars(*e.args[1], bound, out);
      std::set<std::string> inner = bound;
      inner.insert(e.size_params.begin(), e.size_params.end());
      pattern_types(e.pattern);
      pattern_names(e.pattern, inner);
      if (e.loop_form == LoopForm::For) inner.insert(e.name);
      if (e.loop_form == LoopForm::ForIn) pattern_names(e.pattern2, inner);
      if (e.loop_form == LoopForm::While) free_vars(*e.args[1], inner, out);
      free_vars(*e.args[2], inner, out);
      return;
    }
    case ExprKind::Match: {
      free_vars(*e.args[0], bound, out);
      for (size_t i = 0; i < e.params.size(); i++) {
        std::set<std::string> inner = bound;
        pattern_names(e.params[i], inner);
        free_vars(*e.args[i + 1], inner, out);
      }
      return;
    }
    default:
      for (const ExprPtr &a : e.args)
        if (a) free_vars(*a, bound, out);
    }
  }

  // ---- applications

  struct Arg {
    ExprPtr expr;
    SVPtr sv;
  };

  Result rewrite_apply(const Expr &e) {
    size_t first = e.kind == ExprKind::ApplyExpr ? 1 : 0;
    size_t nargs = e.args.size() - first;
    bool local = e.callee == Callee::Local || (e.callee == Callee::Function && e.fun && e.fun->is_local);
    if (e.kind == ExprKind::Apply && !local) {
      // A built-in or a first-order function applied to all its arguments stays a call.
      if (e.callee == Callee::ArrayBuiltin) {
        for (const Type &form : array_builtin_signatures(e.array_builtin))
          if (arrows(form) == nargs) return call_builtin(e.array_builtin, e.name, e, first);
      }
      if (e.callee == Callee::Function && first_order(*e.fun) && e.fun->params.size() == nargs)
        return call_direct(e, first);
      if (e.callee == Callee::PrimBuiltin && arrows(prim_builtin_type(e.prim_builtin)) == nargs)
        return call_direct(e, first);
    }
    Result callee = e.kind == ExprKind::Apply ? rewrite_name(e, nargs) : rewrite(*e.args[0]);
    std::vector<Arg> args;
    for (size_t i = first; i < e.args.size(); i++) {
      Result r = rewrite(*e.args[i]);
      args.push_back(Arg{std::move(r.expr), r.sv});
    }
    Lets lets;
    Result r = apply(std::move(callee.expr), callee.sv, std::move(args), e.type, e.span, lets);
    r.expr = wrap_lets(std::move(lets), std::move(r.expr));
    return r;
  }

  Result call_direct(const Expr &e, size_t first) {
    ExprPtr out = shallow_copy(e);
    for (size_t i = first; i < e.args.size(); i++) out->args.push_back(rewrite(*e.args[i]).expr);
    return dyn(std::move(out));
  }

  Result call_builtin(ArrayBuiltin b, const std::string &name, const Expr &e, size_t first) {
    ExprPtr out = shallow_copy(e);
    out->kind = ExprKind::Apply;
    out->name = name;
    out->callee = Callee::ArrayBuiltin;
    out->array_builtin = b;
    Lets lets;
    for (size_t i = first; i < e.args.size(); i++) {
      const Expr &a = *e.args[i];
      if (builtin_takes_function(b, i - first) && a.type.kind == Type::Function)
        out->args.push_back(soac_function(a, lets));
      else
        out->args.push_back(rewrite(a).expr);
    }
    return dyn(wrap_lets(std::move(lets), std::move(out)));
  }

  // A functional argument of a built-in: as written where the first-order checker takes
  // it, else a lambda applying the closure (Note [Static values]). A lambda that takes
  // fewer parameters than the built-in gives it (`map2 (\x -> map2 f ys) xs zss`, whose
  // body is a function of the second) is such a closure too.
  ExprPtr soac_function(const Expr &a, Lets &lets) {
    if (a.kind == ExprKind::Unsafe) {
      ExprPtr out = shallow_copy(a);
      out->args.push_back(soac_function(*a.args[0], lets));
      return out;
    }
    if (a.kind == ExprKind::Lambda && a.params.size() == arrows(a.type)) {
      ExprPtr out = shallow_copy(a);
      if (out->annotation && contains_function(*out->annotation)) out->annotation.reset();
      size_t mark = env_.size();
      for (const Pattern &p : a.params) out->params.push_back(bind(p, dynamic_sv(p.type)));
      out->args.push_back(rewrite(*a.args[0]).expr);
      env_.resize(mark);
      return out;
    }
    bool local = a.callee == Callee::Local || (a.callee == Callee::Function && a.fun && a.fun->is_local);
    // The lowering takes sections and numeric-module functions as they are, except the
    // short-circuiting and concatenating operators, equality on values that are not
    // primitive (`map (== (a, b))`: expand_equality expands the lambda's `==`) and the
    // reductions (i32.sum): those become lambdas below.
    bool lambda_only = (a.kind == ExprKind::OpSection &&
                        (a.binop == BinOp::LogAnd || a.binop == BinOp::LogOr ||
                         a.binop == BinOp::Concat ||
                         ((a.binop == BinOp::Eq || a.binop == BinOp::Neq) &&
                          a.type.kind == Type::Function && !a.type.elems[0].is_prim()))) ||
                       (a.callee == Callee::PrimBuiltin && a.prim_builtin.fn != PrimFn::ConvertFrom &&
                        prim_fn_arity(a.prim_builtin.fn) < 0);
    if (a.kind == ExprKind::OpSection && a.name.empty() && !lambda_only) {
      ExprPtr out = shallow_copy(a);
      for (const ExprPtr &x : a.args) out->args.push_back(rewrite(*x).expr);
      return out;
    }
    if (a.kind == ExprKind::Var && !local && !lambda_only &&
        ((a.callee == Callee::Function && first_order(*a.fun) && !a.fun->params.empty()) ||
         a.callee == Callee::PrimBuiltin))
      return shallow_copy(a);
    if (a.kind == ExprKind::Apply && !local && !lambda_only) {
      bool all_dynamic = true;
      std::vector<ExprPtr> args;
      for (const ExprPtr &x : a.args) {
        if (a.callee == Callee::ArrayBuiltin && x->type.kind == Type::Function) {
          args.push_back(soac_function(*x, lets));
          continue;
        }
        Result r = rewrite(*x);
        all_dynamic = all_dynamic && r.sv->dynamic();
        args.push_back(std::move(r.expr));
      }
      bool kept = (a.callee == Callee::Function && first_order(*a.fun) && a.fun->params.size() > a.args.size()) ||
                  a.callee == Callee::ArrayBuiltin || a.callee == Callee::PrimBuiltin;
      if (kept && all_dynamic) {
        ExprPtr out = shallow_copy(a);
        out->args = std::move(args);
        return out;
      }
    }
    // Any other function: bind its representation, pass a lambda that applies it.
    Result f = rewrite(a);
    KERB_ASSERT(f.sv->kind == SV::Closure, "defunctionalise: a functional argument that is no closure");
    std::string c = names_.fresh("closure");
    Type crep = rep_type(*f.sv);
    lets.push_back({c, std::move(f.expr)});
    size_t n = arrows(a.type);
    ExprPtr lam = make_expr(ExprKind::Lambda, a.span);
    lam->type = a.type;
    std::vector<Arg> args;
    Type t = a.type;
    for (size_t i = 0; i < n; i++) {
      std::string p = names_.fresh("x");
      lam->params.push_back(id_pattern(p, a.span, std::nullopt));
      args.push_back(Arg{var_expr(p, a.span, t.elems[0]), dynamic_sv(t.elems[0])});
      t = Type(t.elems[1]);
    }
    Lets inner;
    Result body = apply(var_expr(c, a.span, crep), f.sv, std::move(args), t, a.span, inner);
    lam->args.push_back(wrap_lets(std::move(inner), std::move(body.expr)));
    return lam;
  }

  // The parts of a closure's representation: `n` expressions (binding it first when
  // it is no tuple literal).
  std::vector<ExprPtr> split_rep(ExprPtr rep, size_t n, const Type &type, const Span &span, Lets &lets) {
    std::vector<ExprPtr> out;
    if (n == 0) return out;
    if (n == 1) {
      out.push_back(std::move(rep));
      return out;
    }
    if (rep->kind == ExprKind::Tuple && rep->args.size() == n) return std::move(rep->args);
    std::string v;
    if (rep->kind == ExprKind::Var) {
      v = rep->name;
    } else {
      v = names_.fresh("closure");
      lets.push_back({v, std::move(rep)});
    }
    for (size_t i = 0; i < n; i++) out.push_back(project_expr(var_expr(v, span, type), int(i), span));
    return out;
  }

  // Applies a function value (its representation and static value) to arguments.
  Result apply(ExprPtr rep, const SVPtr &fsv, std::vector<Arg> args, const Type &result_type,
               const Span &span, Lets &lets) {
    if (args.empty()) return Result{std::move(rep), fsv};
    if (fsv->kind != SV::Closure)
      error_at(span, "cannot apply a value that is not a function (defunctionalisation)");
    const SV &f = *fsv;
    size_t have = f.applied.size() + args.size();
    std::vector<ExprPtr> parts = split_rep(std::move(rep), f.env.size() + f.applied.size(), rep_type(f), span, lets);
    if (have < f.arity) {
      // Still partial: a closure with more arguments.
      auto sv = std::make_shared<SV>(f);
      for (Arg &a : args) {
        sv->applied.push_back(a.sv);
        parts.push_back(std::move(a.expr));
      }
      Type t = f.type;
      for (size_t i = 0; i < args.size() && t.kind == Type::Function; i++) t = Type(t.elems[1]);
      sv->type = t;
      ExprPtr r = tuple_expr(std::move(parts), span);
      if (r->kind == ExprKind::Tuple) r->type = rep_type(*sv);
      return Result{std::move(r), sv};
    }
    // Enough arguments: the captured values, the earlier arguments, then the new ones.
    size_t take = f.arity - f.applied.size();
    std::vector<Arg> call;
    std::vector<ExprPtr> env_parts;
    for (size_t i = 0; i < f.env.size(); i++) env_parts.push_back(std::move(parts[i]));
    for (size_t i = 0; i < f.applied.size(); i++)
      call.push_back(Arg{std::move(parts[f.env.size() + i]), f.applied[i]});
    for (size_t i = 0; i < take; i++) call.push_back(std::move(args[i]));
    std::vector<Arg> rest;
    for (size_t i = take; i < args.size(); i++) rest.push_back(std::move(args[i]));
    Type mid = result_type;
    if (!rest.empty()) {
      // The type after `take` arguments: what the rest are applied to.
      mid = Type();
    }
    Result r = call_code(f, std::move(env_parts), std::move(call), rest.empty() ? result_type : mid, span, lets);
    if (rest.empty()) return r;
    return apply(std::move(r.expr), r.sv, std::move(rest), result_type, span, lets);
  }

  // Calls the code of closure `f` with its captured values and all its arguments.
  Result call_code(const SV &f, std::vector<ExprPtr> env_parts, std::vector<Arg> args,
                   const Type &result_type, const Span &span, Lets &lets) {
    switch (f.code) {
    case SV::Lambda: case SV::Fun: {
      bool local = f.code == SV::Lambda || f.fun->is_local;
      // A first-order function is called by its name, unless a local hides the name
      // here (a closure of it applied where a parameter has its name): then a copy.
      if (!local && first_order(*f.fun) && !lookup(f.fun->name)) {
        ExprPtr call = make_expr(ExprKind::Apply, span);
        call->name = f.fun->name;
        call->callee = Callee::Function;
        call->fun = const_cast<FunDef *>(f.fun); // the first-order checker resolves it anew
        call->type = f.fun->ret_type;
        for (Arg &a : args) call->args.push_back(std::move(a.expr));
        return dyn(std::move(call));
      }
      std::vector<SVPtr> arg_svs;
      for (const Arg &a : args) arg_svs.push_back(a.sv);
      Lifted l = local ? lift(f, arg_svs) : specialise(*f.fun, arg_svs);
      ExprPtr call = make_expr(ExprKind::Apply, span);
      call->name = l.name;
      call->callee = Callee::Function;
      call->type = rep_type(*l.result);
      for (ExprPtr &p : env_parts) call->args.push_back(std::move(p));
      for (Arg &a : args) call->args.push_back(std::move(a.expr));
      return Result{std::move(call), l.result};
    }
    case SV::Builtin: {
      ExprPtr call = make_expr(ExprKind::Apply, span);
      call->name = array_builtin_name(f.builtin);
      call->callee = Callee::ArrayBuiltin;
      call->array_builtin = f.builtin;
      call->type = result_type;
      size_t i = 0;
      for (Arg &a : args) {
        if (builtin_takes_function(f.builtin, i) && !a.sv->dynamic()) {
          // A closure given to a built-in: a lambda applying it.
          std::string c = names_.fresh("closure");
          Type crep = rep_type(*a.sv);
          lets.push_back({c, std::move(a.expr)});
          call->args.push_back(closure_lambda(c, crep, a.sv, span));
        } else {
          call->args.push_back(std::move(a.expr));
        }
        i++;
      }
      return dyn(std::move(call));
    }
    case SV::Prim: {
      ExprPtr call = make_expr(ExprKind::Apply, span);
      call->name = prim_names_.at(key_of(f));
      call->callee = Callee::PrimBuiltin;
      call->prim_builtin = f.prim;
      call->type = result_type;
      for (Arg &a : args) call->args.push_back(std::move(a.expr));
      return dyn(std::move(call));
    }
    case SV::Section: {
      const Expr &s = *f.expr;
      // The operands in order: the given one on its side.
      std::vector<Arg> operands;
      bool has_operand = !s.args.empty();
      if (has_operand) {
        Arg given{std::move(env_parts[0]), f.env[0].second};
        if (s.section_left) {
          operands.push_back(std::move(given));
          operands.push_back(std::move(args[0]));
        } else {
          operands.push_back(std::move(args[0]));
          operands.push_back(std::move(given));
        }
      } else {
        operands = std::move(args);
      }
      if (s.name.empty()) {
        ExprPtr b = make_expr(ExprKind::Binary, span);
        b->binop = s.binop;
        b->type = result_type;
        for (Arg &a : operands) b->args.push_back(std::move(a.expr));
        return dyn(std::move(b));
      }
      // A local operator captured with the section (make_closure).
      if (size_t at = has_operand ? 1 : 0; f.env.size() > at)
        return apply(std::move(env_parts[at]), f.env[at].second, std::move(operands), result_type, span, lets);
      Expr name_use(ExprKind::Var, s.span);
      name_use.name = s.name;
      name_use.callee = s.callee;
      name_use.fun = s.fun;
      name_use.array_builtin = s.array_builtin;
      name_use.prim_builtin = s.prim_builtin;
      name_use.type = s.callee == Callee::Function && s.fun ? function_type_of(*s.fun) : Type();
      if (s.callee == Callee::PrimBuiltin) name_use.type = prim_builtin_type(s.prim_builtin);
      Result fn = rewrite_name(name_use);
      return apply(std::move(fn.expr), fn.sv, std::move(operands), result_type, span, lets);
    }
    case SV::Proj: {
      // The field of the value, and of its static value when that holds functions.
      ExprPtr x = std::move(args[0].expr);
      SVPtr part = args[0].sv;
      for (const std::string &field : f.expr->fields) {
        bool numeric = !field.empty() && std::isdigit(static_cast<unsigned char>(field[0]));
        ExprPtr p = make_expr(numeric ? ExprKind::Project : ExprKind::Field, span);
        p->name = field;
        if (numeric) p->field = std::stoi(field);
        // Each step's type (a path `.x.a` is read through x's type by replace_records).
        const Type &xt = x->type;
        int k = xt.kind == Type::Record ? xt.field_index(field)
                : xt.kind == Type::Tuple && numeric ? std::stoi(field)
                                                    : -1;
        if (k >= 0 && size_t(k) < xt.elems.size()) p->type = xt.elems[size_t(k)];
        p->args.push_back(std::move(x));
        x = std::move(p);
        SVPtr next;
        if (part->kind == SV::Tuple && numeric && size_t(std::stoi(field)) < part->elems.size())
          next = part->elems[size_t(std::stoi(field))];
        if (part->kind == SV::Record)
          for (size_t i = 0; i < part->names.size(); i++)
            if (part->names[i] == field) next = part->elems[i];
        part = next ? next : dynamic_sv(result_type);
      }
      x->type = part->dynamic() ? result_type : rep_type(*part);
      return Result{std::move(x), part};
    }
    }
    KERB_ASSERT(false, "defunctionalise: unknown closure code");
    return {};
  }

  // `\x1 .. xn -> <apply closure c to them>`, for a built-in's functional argument.
  ExprPtr closure_lambda(const std::string &c, const Type &crep, const SVPtr &sv, const Span &span) {
    size_t n = sv->arity - sv->applied.size();
    ExprPtr lam = make_expr(ExprKind::Lambda, span);
    lam->type = sv->type;
    std::vector<Arg> args;
    Type t = sv->type;
    for (size_t i = 0; i < n && t.kind == Type::Function; i++) {
      std::string p = names_.fresh("x");
      lam->params.push_back(id_pattern(p, span, std::nullopt));
      args.push_back(Arg{var_expr(p, span, t.elems[0]), dynamic_sv(t.elems[0])});
      t = Type(t.elems[1]);
    }
    Lets inner;
    Result body = apply(var_expr(c, span, crep), sv, std::move(args), t, span, inner);
    lam->args.push_back(wrap_lets(std::move(inner), std::move(body.expr)));
    return lam;
  }

  // ---- lifted and specialised functions

  // The lifted function of a lambda or local function with these captured values and
  // arguments.
  Lifted lift(const SV &f, const std::vector<SVPtr> &args) {
    std::string key = "L" + key_of(f);
    for (const SVPtr &a : args) key += "|" + key_of(*a);
    auto it = lifted_.find(key);
    if (it != lifted_.end()) return it->second;

    const std::vector<Pattern> &params = f.code == SV::Lambda ? f.expr->params : f.fun->params;
    const Expr &body = f.code == SV::Lambda ? *f.expr->args[0] : *f.fun->body;
    std::string base = f.code == SV::Lambda ? "lambda" : f.fun->name;
    auto out = std::make_unique<FunDef>();
    out->name = names_.fresh(base);
    out->span = f.code == SV::Lambda ? f.expr->span : f.fun->span;
    out->name_span = f.code == SV::Lambda ? f.expr->span : f.fun->name_span;
    out->is_unsafe = f.code == SV::Fun && f.fun->is_unsafe;

    std::vector<std::pair<std::string, SVPtr>> saved = std::move(env_);
    env_.clear();
    std::set<std::string> own_sizes;
    if (f.code == SV::Fun) {
      own_sizes.insert(f.fun->size_params.begin(), f.fun->size_params.end());
      out->size_params = f.fun->size_params;
      for (const std::string &n : f.fun->size_params) env_.push_back({n, dynamic_sv(Type::prim_type(PrimType::I64))});
    }
    for (const auto &[n, sv] : f.env) {
      out->params.push_back(id_pattern(n, out->name_span, erase_dims(rep_type(*sv))));
      env_.push_back({n, sv});
    }
    for (size_t i = 0; i < params.size(); i++) {
      Pattern p = bind(params[i], args[i]);
      p.annotation = keep_dims(rep_type(*args[i]), params[i], own_sizes);
      out->params.push_back(std::move(p));
    }
    // Sizes the parameters no longer name are not size parameters any more.
    drop_unused_sizes(*out);
    Result r = rewrite(body);
    env_ = std::move(saved);
    if (f.code == SV::Fun && f.fun->ret_annotation && r.sv->dynamic()) {
      Type ann = *f.fun->ret_annotation;
      if (!contains_function(ann)) out->ret_annotation = keep_dims(ann, Pattern(), own_sizes);
    }
    out->body = std::move(r.expr);
    Lifted l{out->name, r.sv};
    lifted_[key] = l;
    out_.push_back(std::move(out));
    return l;
  }

  // A parameter's annotation for a lifted function: the user's, with sizes kept only
  // where they name the function's own size parameters.
  static Type keep_dims(const Type &rep, const Pattern &original, const std::set<std::string> &own) {
    Type t = original.annotation && !contains_function(*original.annotation) ? *original.annotation : rep;
    std::function<void(Type &)> go = [&](Type &x) {
      for (Dim &d : x.dims)
        if (d.kind == Dim::Var && !own.count(d.name)) d = Dim::unknown();
      for (Type &e : x.elems) go(e);
      for (auto &p : x.payloads)
        for (Type &e : p) go(e);
    };
    go(t);
    return t;
  }

  static void drop_unused_sizes(FunDef &f) {
    std::set<std::string> used;
    std::function<void(const Type &)> go = [&](const Type &t) {
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var) used.insert(d.name);
      for (const Type &e : t.elems) go(e);
    };
    std::function<void(const Pattern &)> pat = [&](const Pattern &p) {
      if (p.annotation) go(*p.annotation);
      for (const Pattern &e : p.elems) pat(e);
    };
    for (const Pattern &p : f.params) pat(p);
    std::vector<std::string> kept;
    for (const std::string &n : f.size_params)
      if (used.count(n)) kept.push_back(n);
    f.size_params = kept;
  }

  // A top-level function that takes or returns functions, for these arguments.
  Lifted specialise(const FunDef &f, const std::vector<SVPtr> &args) {
    std::string key = fmt::format("S{}", static_cast<const void *>(&f));
    for (const SVPtr &a : args) key += "|" + key_of(*a);
    auto it = lifted_.find(key);
    if (it != lifted_.end()) return it->second;
    std::unique_ptr<FunDef> out = clone_fundef(f);
    out->body.reset();
    out->name = names_.fresh(f.name);
    out->is_entry = false;
    std::vector<std::pair<std::string, SVPtr>> saved = std::move(env_);
    env_.clear();
    for (const std::string &n : f.size_params) env_.push_back({n, dynamic_sv(Type::prim_type(PrimType::I64))});
    for (size_t i = 0; i < f.params.size(); i++) {
      out->params[i] = bind(f.params[i], args[i]);
      if (!args[i]->dynamic()) out->params[i].type = Type();
    }
    drop_unused_sizes(*out);
    Result r = rewrite(*f.body);
    env_ = std::move(saved);
    if (out->ret_annotation && contains_function(*out->ret_annotation)) out->ret_annotation.reset();
    out->body = std::move(r.expr);
    Lifted l{out->name, r.sv};
    lifted_[key] = l;
    out_.push_back(std::move(out));
    return l;
  }
};

} // namespace

void defunctionalise(Program &program, NameSource &names) { Defunctionaliser(program, names).run(); }

} // namespace kerb
