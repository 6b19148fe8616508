// The source type checker (see infer.h).
//
// Hindley-Milner inference with the constraints Futhark's type variables carry:
//   - a primitive class (`prim_only` with a mask of bool, integer and float types): the
//     type of an unsuffixed literal, or of an operand of an arithmetic operator;
//   - `fields`: a record (or tuple) with at least these fields, from `r.x` on a value
//     whose type is not known yet;
//   - `constrs`: a sum type with at least these constructors, from `#some x`;
//   - `no_function`: never a function type (the instantiation of a `'t` parameter, an
//     array element);
//   - a level, for generalising local functions (a variable made inside a local
//     function's definition and not escaping into the enclosing scope becomes one of
//     its type parameters).
// Arrays unify rank-polymorphically: [n]a unifies with [n][m]i32 by binding a to [m]i32.
// Sizes are not unified (see infer.h).
//
// Each top-level definition is checked in source order (a definition may only use the
// ones before it). At its end, the unconstrained variables of its type become its type
// parameters (t0, t1, ...), numeric ones are defaulted (integers to i32, or i64 where
// they are sizes; floats to f64), a variable with constructors becomes the sum of them,
// and the whole tree is rewritten with the result ("zonked"). Then the checks that do
// not affect inference run on the finished tree (Futhark's localChecks): no function in
// an if, match, loop or array, irrefutable bindings, exhaustive matches, literals that
// fit their types, entry points first-order and monomorphic.
#include "compiler/types/infer.h"

#include "compiler/prim_ops.h"
#include "compiler/types/builtin_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <tuple>

namespace kerb {

namespace {

enum PrimMask : uint8_t { kBool = 1, kInt = 2, kFloat = 4, kNum = kInt | kFloat, kAnyPrim = 7 };

uint8_t mask_of(PrimType p) {
  if (p == PrimType::Bool) return kBool;
  return is_int(p) ? kInt : kFloat;
}

struct VarInfo {
  int link = -1;                 // merged into another variable
  std::optional<Type> bound;     // solved
  bool prim_only = false;        // a primitive type allowed by `mask`
  uint8_t mask = kAnyPrim;
  bool prefer_i64 = false;       // a size: an integer here defaults to i64
  bool no_function = false;
  std::map<std::string, Type> fields;
  std::map<std::string, std::vector<Type>> constrs;
  int level = 0;
  Span origin;
};

// A name in the local scope: a variable (with its type) or a local function.
struct Binding {
  std::string name;
  Type type;
  FunDef *fun = nullptr;
};

const char *ordinal(size_t i) {
  static const char *names[] = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh"};
  return i < 7 ? names[i] : "next";
}

bool is_numeric_name(const std::string &s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Applies `f` to every type directly inside `t` (elements, fields, payloads).
void for_each_child(Type &t, const std::function<void(Type &)> &f) {
  for (Type &e : t.elems) f(e);
  for (auto &p : t.payloads)
    for (Type &e : p) f(e);
}

// The function type of a definition: its parameters' types curried onto its result.
Type function_type(const FunDef &f) {
  Type t = f.ret_type;
  for (size_t i = f.params.size(); i-- > 0;) t = Type::function(f.params[i].type, t);
  return t;
}

class Inferrer {
public:
  explicit Inferrer(Program &program) : prog_(program) {}

  void run() {
    for (const auto &d : prog_.defs) any_entry_ = any_entry_ || d->is_entry;
    size_t next_type = 0;
    std::map<std::string, const FunDef *> seen;
    for (size_t i = 0; i <= prog_.defs.size(); i++) {
      for (; next_type < prog_.types.size() && prog_.types[next_type]->before_def <= i; next_type++)
        declare_type(*prog_.types[next_type]);
      if (i == prog_.defs.size()) break;
      FunDef &def = *prog_.defs[i];
      auto it = seen.find(def.name);
      if (it != seen.end() && !it->second->from_prelude)
        error_at(def.name_span,
                 fmt::format("'{}' is already defined (line {})", def.name,
                             def.name_span.file->line_of(it->second->name_span.begin)));
      check_top_def(def);
      seen[def.name] = &def;
      top_[def.name] = &def;
    }
  }

private:
  Program &prog_;
  std::map<std::string, FunDef *> top_;          // the definitions checked so far
  std::map<std::string, const TypeDecl *> types_; // type abbreviations declared so far
  std::vector<VarInfo> vars_;
  std::vector<Binding> locals_;
  std::vector<TypeParam> tparams_;  // the type parameters in scope
  int level_ = 0;
  int next_param_name_ = 0;
  // Why the last failed unification failed, in Futhark's words (the innermost reason),
  // for the messages: see why().
  std::string mismatch_;
  int unify_depth_ = 0;
  bool any_entry_ = false;

  // ---------------------------------------------------------------------------
  // Type variables and unification

  Type fresh(const Span &origin) {
    VarInfo v;
    v.level = level_;
    v.origin = origin;
    vars_.push_back(std::move(v));
    return Type::type_var(int(vars_.size()) - 1);
  }

  Type fresh_prim(const Span &origin, uint8_t mask, bool prefer_i64 = false) {
    Type t = fresh(origin);
    VarInfo &v = vars_[size_t(t.var)];
    v.prim_only = true;
    v.mask = mask;
    v.prefer_i64 = prefer_i64;
    return t;
  }

  int root(int v) {
    while (vars_[size_t(v)].link >= 0) v = vars_[size_t(v)].link;
    return v;
  }

  // `t` with its head resolved: a variable to its solution, an array of an array merged.
  Type norm(const Type &t) {
    if (t.kind == Type::TypeVar) {
      int r = root(t.var);
      if (vars_[size_t(r)].bound) {
        Type b = norm(*vars_[size_t(r)].bound);
        b.unique = b.unique || t.unique;
        return b;
      }
      Type v = Type::type_var(r);
      v.unique = t.unique;
      return v;
    }
    if (t.kind == Type::Array) {
      Type e = norm(t.elems[0]);
      if (e.kind == Type::Array) {
        Type merged = Type::array(e, t.dims);
        merged.unique = t.unique;
        return merged;
      }
      Type out = t;
      out.elems[0] = e;
      return out;
    }
    return t;
  }

  // `t` with every solved variable replaced, everywhere.
  Type deep(const Type &t) {
    Type n = norm(t);
    for_each_child(n, [&](Type &c) { c = deep(c); });
    if (n.kind == Type::Array && n.elems[0].kind == Type::Array) n = Type::array(n.elems[0], n.dims);
    return n;
  }

  bool occurs(int v, const Type &t) {
    Type n = norm(t);
    if (n.kind == Type::TypeVar) return root(n.var) == v;
    bool found = false;
    for_each_child(n, [&](Type &c) { found = found || occurs(v, c); });
    return found;
  }

  // Lowers the level of every variable in `t` to at most `level`, and marks them
  // function-free when `no_function`.
  void propagate(const Type &t, int level, bool no_function) {
    Type n = norm(t);
    if (n.kind == Type::TypeVar) {
      VarInfo &v = vars_[size_t(root(n.var))];
      v.level = std::min(v.level, level);
      v.no_function = v.no_function || no_function;
      return;
    }
    for_each_child(n, [&](Type &c) { propagate(c, level, no_function); });
  }

  bool contains_function_now(const Type &t) {
    Type n = norm(t);
    if (n.kind == Type::Function) return true;
    bool found = false;
    for_each_child(n, [&](Type &c) { found = found || contains_function_now(c); });
    return found;
  }

  bool fail(std::string why) {
    if (mismatch_.empty()) mismatch_ = std::move(why);
    return false;
  }

  // " (why)" after a message, when a unification said why it failed.
  std::string why() const { return mismatch_.empty() ? "" : " (" + mismatch_ + ")"; }

  static std::string field_list(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  // Solves variable `v` (a root, unsolved) with the non-variable type `t` (normalised).
  bool bind_var(int v, const Type &t) {
    if (occurs(v, t))
      return fail(fmt::format("Occurs check: cannot instantiate {} with {}", show(Type::type_var(v)),
                              show(t)));
    VarInfo info = vars_[size_t(v)]; // a copy: unification below may grow vars_
    if (info.prim_only) {
      if (t.kind != Type::Prim || !(mask_of(t.prim) & info.mask)) return false;
    }
    if (info.no_function && contains_function_now(t)) return false;
    if (!info.fields.empty()) {
      if (t.kind == Type::Record) {
        for (auto &[name, ft] : info.fields) {
          int i = t.field_index(name);
          if (i < 0 || !unify(ft, t.elems[size_t(i)])) return false;
        }
      } else if (t.kind == Type::Tuple) {
        for (auto &[name, ft] : info.fields) {
          if (!is_numeric_name(name) || name.size() > 6) return false;
          size_t i = size_t(std::stoi(name));
          if (i >= t.elems.size() || !unify(ft, t.elems[i])) return false;
        }
      } else {
        std::vector<std::string> fs;
        for (auto &[n, ft] : info.fields) fs.push_back(n);
        return fail(fmt::format("Cannot unify record type with fields {{{}}} with type {}",
                                field_list(fs), show(t)));
      }
    }
    if (!info.constrs.empty()) {
      if (t.kind != Type::Sum) {
        std::vector<std::string> cs;
        for (auto &[n, p] : info.constrs) cs.push_back("#" + n);
        return fail(fmt::format("Cannot unify type with constructors {} with type {}",
                                field_list(cs), show(t)));
      }
      for (auto &[name, payload] : info.constrs) {
        int i = t.field_index(name);
        if (i < 0)
          return fail(fmt::format("Unshared constructors: #{}.", name));
        if (t.payloads[size_t(i)].size() != payload.size())
          return fail(fmt::format("Cannot unify type with constructor #{} with type of "
                                  "constructor #{} because they differ in arity",
                                  name, name));
        for (size_t k = 0; k < payload.size(); k++)
          if (!unify(payload[k], t.payloads[size_t(i)][k])) return false;
      }
    }
    propagate(t, info.level, info.no_function);
    Type b = t;
    b.unique = false;
    vars_[size_t(v)].bound = b;
    return true;
  }

  // Merges two unsolved root variables.
  bool merge_vars(int a, int b) {
    VarInfo va = vars_[size_t(a)], vb = vars_[size_t(b)];
    VarInfo m = va;
    m.prim_only = va.prim_only || vb.prim_only;
    m.mask = uint8_t(va.mask & vb.mask);
    if (m.prim_only && m.mask == 0) return false;
    if (m.prim_only && (!va.fields.empty() || !vb.fields.empty()))
      return fail("Cannot unify a primitive type with type that must be a record");
    if (m.prim_only && (!va.constrs.empty() || !vb.constrs.empty()))
      return fail("Cannot unify a primitive type with a sum type");
    if ((!va.fields.empty() || !vb.fields.empty()) && (!va.constrs.empty() || !vb.constrs.empty()))
      return false;
    m.prefer_i64 = va.prefer_i64 || vb.prefer_i64;
    m.no_function = va.no_function || vb.no_function;
    m.level = std::min(va.level, vb.level);
    vars_[size_t(b)].link = a;
    vars_[size_t(a)].prim_only = m.prim_only;
    vars_[size_t(a)].mask = m.mask;
    vars_[size_t(a)].prefer_i64 = m.prefer_i64;
    vars_[size_t(a)].no_function = m.no_function;
    vars_[size_t(a)].level = m.level;
    for (auto &[name, ft] : vb.fields) {
      auto it = va.fields.find(name);
      if (it != va.fields.end()) {
        if (!unify(it->second, ft)) return false;
      } else {
        vars_[size_t(root(a))].fields[name] = ft;
      }
    }
    for (auto &[name, payload] : vb.constrs) {
      auto it = va.constrs.find(name);
      if (it != va.constrs.end()) {
        if (it->second.size() != payload.size())
          return fail(fmt::format("constructors #{} differ in arity", name));
        for (size_t k = 0; k < payload.size(); k++)
          if (!unify(it->second[k], payload[k])) return false;
      } else {
        vars_[size_t(root(a))].constrs[name] = payload;
      }
    }
    if (m.no_function) {
      for (auto &[n, ft] : vars_[size_t(root(a))].fields) propagate(ft, m.level, true);
      for (auto &[n, p] : vars_[size_t(root(a))].constrs)
        for (Type &x : p) propagate(x, m.level, true);
    }
    return true;
  }

  // Makes `a` and `b` the same type, ignoring sizes; false when they cannot be (and
  // then why() may say why).
  bool unify(const Type &a0, const Type &b0) {
    if (unify_depth_ == 0) mismatch_.clear();
    unify_depth_++;
    bool ok = unify_rec(a0, b0);
    unify_depth_--;
    return ok;
  }

  bool unify_rec(const Type &a0, const Type &b0) {
    Type a = norm(a0), b = norm(b0);
    if (a.kind == Type::TypeVar && b.kind == Type::TypeVar) {
      int ra = root(a.var), rb = root(b.var);
      if (ra == rb) return true;
      return merge_vars(ra, rb);
    }
    if (a.kind == Type::TypeVar) return bind_var(root(a.var), b);
    if (b.kind == Type::TypeVar) return bind_var(root(b.var), a);
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case Type::Prim: return a.prim == b.prim;
    case Type::Named:
      if (a.name != b.name || a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); i++)
        if (!unify(a.elems[i], b.elems[i])) return false;
      return true;
    case Type::SizeArg: return true;
    case Type::Tuple: case Type::Record: case Type::Function:
      if (a.kind == Type::Tuple && a.elems.size() != b.elems.size())
        return fail(fmt::format("Tuples have {} and {} elements respectively", a.elems.size(),
                                b.elems.size()));
      if (a.kind == Type::Record && a.names != b.names) {
        std::vector<std::string> unshared;
        for (const std::string &n : a.names)
          if (b.field_index(n) < 0) unshared.push_back(n);
        for (const std::string &n : b.names)
          if (a.field_index(n) < 0) unshared.push_back(n);
        std::sort(unshared.begin(), unshared.end());
        return fail(fmt::format("Cannot unify record types with unshared fields: {}.",
                                field_list(unshared)));
      }
      for (size_t i = 0; i < a.elems.size(); i++)
        if (!unify(a.elems[i], b.elems[i])) return false;
      return true;
    case Type::Sum:
      if (a.names != b.names) {
        std::vector<std::string> unshared;
        for (const std::string &n : a.names)
          if (b.field_index(n) < 0) unshared.push_back("#" + n);
        for (const std::string &n : b.names)
          if (a.field_index(n) < 0) unshared.push_back("#" + n);
        std::sort(unshared.begin(), unshared.end());
        return fail(fmt::format("Unshared constructors: {}.", field_list(unshared)));
      }
      for (size_t i = 0; i < a.payloads.size(); i++) {
        if (a.payloads[i].size() != b.payloads[i].size())
          return fail(fmt::format("constructors #{} differ in arity", a.names[i]));
        for (size_t k = 0; k < a.payloads[i].size(); k++)
          if (!unify(a.payloads[i][k], b.payloads[i][k])) return false;
      }
      return true;
    case Type::Array: {
      size_t ra = a.dims.size(), rb = b.dims.size();
      if (ra == rb) return unify(a.elems[0], b.elems[0]);
      // Rank-polymorphic: the shorter one's element is an array of the rest.
      const Type &shorter = ra < rb ? a : b;
      const Type &longer = ra < rb ? b : a;
      size_t r = std::min(ra, rb);
      std::vector<Dim> rest(longer.dims.begin() + long(r), longer.dims.end());
      return unify(shorter.elems[0], Type::array(longer.elems[0], rest));
    }
    case Type::TypeVar: break;
    }
    return false;
  }

  // Constrains `t` to a primitive type in `mask`; false if it cannot be one.
  bool require_prim(const Type &t0, uint8_t mask, bool prefer_i64 = false) {
    Type t = norm(t0);
    if (t.kind == Type::TypeVar) {
      VarInfo &v = vars_[size_t(root(t.var))];
      if (!v.fields.empty() || !v.constrs.empty()) return false;
      uint8_t m = v.prim_only ? uint8_t(v.mask & mask) : mask;
      if (m == 0) return false;
      v.prim_only = true;
      v.mask = m;
      v.prefer_i64 = v.prefer_i64 || prefer_i64;
      return true;
    }
    return t.kind == Type::Prim && (mask_of(t.prim) & mask);
  }

  // ---------------------------------------------------------------------------
  // Showing types in messages

  // The default a primitive-class variable would get.
  static PrimType default_of(const VarInfo &v) {
    if (v.mask & kInt) return v.prefer_i64 ? PrimType::I64 : PrimType::I32;
    if (v.mask & kFloat) return PrimType::F64;
    return PrimType::Bool;
  }

  std::string show(const Type &t) {
    std::function<Type(const Type &)> go = [&](const Type &x) -> Type {
      Type n = norm(x);
      if (n.kind == Type::TypeVar) {
        const VarInfo &v = vars_[size_t(root(n.var))];
        if (v.prim_only) return Type::prim_type(default_of(v));
        if (!v.constrs.empty()) {
          std::vector<std::pair<std::string, std::vector<Type>>> cs;
          for (auto &[name, p] : v.constrs) {
            std::vector<Type> ps;
            for (const Type &e : p) ps.push_back(go(e));
            cs.push_back({name, ps});
          }
          return Type::sum(cs);
        }
        return Type::named("t" + std::to_string(root(n.var)));
      }
      for_each_child(n, [&](Type &c) { c = go(c); });
      return n;
    };
    return go(t).str();
  }

  // ---------------------------------------------------------------------------
  // Type expressions: abbreviations, parameters

  void declare_type(TypeDecl &d) {
    if (types_.count(d.name))
      error_at(d.name_span, fmt::format("Duplicate definition of type '{}' (line {})", d.name,
                                        d.name_span.file->line_of(types_[d.name]->name_span.begin)));
    std::vector<TypeParam> saved = tparams_;
    for (const TypeParam &p : d.type_params) tparams_.push_back(p);
    d.definition = resolve_type(d.definition, d.span);
    tparams_ = saved;
    types_[d.name] = &d;
  }

  // An annotation as written -> a type: abbreviations expanded, type parameters Named.
  Type resolve_type(const Type &t, const Span &span) {
    switch (t.kind) {
    case Type::Named: {
      for (size_t i = tparams_.size(); i-- > 0;)
        if (tparams_[i].name == t.name) {
          if (!t.elems.empty())
            error_at(span, fmt::format("type parameter '{}' takes no arguments", t.name));
          Type out = Type::named(t.name);
          out.unique = t.unique;
          return out;
        }
      auto it = types_.find(t.name);
      if (it == types_.end()) {
        if (t.name.find('.') != std::string::npos)
          error_at(span, fmt::format("Unknown type '{}' (modules are not supported)", t.name));
        error_at(span, fmt::format("Unknown type '{}'", t.name));
      }
      const TypeDecl &d = *it->second;
      if (t.elems.size() != d.param_is_size.size())
        error_at(span, fmt::format("type '{}' takes {} argument(s), but is given {}", t.name,
                                   d.param_is_size.size(), t.elems.size()));
      std::map<std::string, Type> subst;
      std::map<std::string, Dim> sizes;
      size_t si = 0, ti = 0;
      for (size_t i = 0; i < t.elems.size(); i++) {
        const Type &arg = t.elems[i];
        if (d.param_is_size[i]) {
          if (arg.kind != Type::SizeArg)
            error_at(span, fmt::format("the {} argument of type '{}' must be a size, such as [n]",
                                       ordinal(i), t.name));
          sizes[d.size_params[si++]] = arg.dims[0];
        } else {
          if (arg.kind == Type::SizeArg)
            error_at(span, fmt::format("the {} argument of type '{}' must be a type, not a size",
                                       ordinal(i), t.name));
          subst[d.type_params[ti++].name] = resolve_type(arg, span);
        }
      }
      Type out = substitute_named(d.definition, subst);
      substitute_dims(out, sizes);
      out.unique = out.unique || t.unique;
      return out;
    }
    case Type::SizeArg:
      error_at(span, "a size argument such as [n] can only follow a type name");
    default: {
      Type out = t;
      for_each_child(out, [&](Type &c) { c = resolve_type(c, span); });
      if (out.kind == Type::Array && out.elems[0].kind == Type::Array)
        out = Type::array(out.elems[0], out.dims);
      return out;
    }
    }
  }

  static void substitute_dims(Type &t, const std::map<std::string, Dim> &sizes) {
    if (sizes.empty()) return;
    for (Dim &d : t.dims)
      if (d.kind == Dim::Var) {
        auto it = sizes.find(d.name);
        if (it != sizes.end()) d = it->second;
      }
    for_each_child(t, [&](Type &c) { substitute_dims(c, sizes); });
  }

  // ---------------------------------------------------------------------------
  // Scopes and names

  size_t scope_mark() const { return locals_.size(); }
  void pop_scope(size_t mark) { locals_.resize(mark); }

  const Binding *find_local(const std::string &name) const {
    for (size_t i = locals_.size(); i-- > 0;)
      if (locals_[i].name == name) return &locals_[i];
    return nullptr;
  }

  FunDef *find_top(const std::string &name) {
    auto it = top_.find(name);
    return it == top_.end() ? nullptr : it->second;
  }

  // Whether the program gives `op` (an operator's text) a meaning of its own here.
  bool redefined(const std::string &op) { return find_local(op) || find_top(op); }

  [[noreturn]] void unknown_name(const Span &span, const std::string &name, const char *what) {
    if (prog_.find(name))
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

  // The type of a use of function `f` with fresh type variables for its type
  // parameters, recorded in `use.type_args`.
  Type instantiate(const FunDef &f, Expr &use) {
    std::map<std::string, Type> subst;
    use.type_args.clear();
    for (const TypeParam &p : f.type_params) {
      Type v = fresh(use.span);
      if (p.kind == TypeParam::Plain) vars_[size_t(v.var)].no_function = true;
      subst[p.name] = v;
      use.type_args.push_back(v);
    }
    return substitute_named(function_type(f), subst);
  }

  // A built-in's signature with fresh variables for its named types.
  Type instantiate_builtin(const Type &sig, const Span &span) {
    std::map<std::string, Type> subst;
    std::function<void(const Type &)> collect = [&](const Type &t) {
      if (t.kind == Type::Named && !subst.count(t.name)) {
        if (t.name == "int") subst[t.name] = fresh_prim(span, kInt, true);
        else if (t.name == "num") subst[t.name] = fresh_prim(span, kNum);
        else {
          Type v = fresh(span);
          vars_[size_t(v.var)].no_function = true;
          subst[t.name] = v;
        }
      }
      for (const Type &e : t.elems) collect(e);
    };
    collect(sig);
    return substitute_named(sig, subst);
  }

  static size_t arity(const Type &t) {
    size_t n = 0;
    for (const Type *x = &t; x->kind == Type::Function; x = &x->elems[1]) n++;
    return n;
  }

  // Resolves the name of a Var or an Apply (with `nargs` arguments) and gives the type
  // of the named thing.
  Type infer_name(Expr &e, size_t nargs) {
    if (const Binding *b = find_local(e.name)) {
      if (e.name.size() > 1 && e.name[0] == '_' && !b->fun)
        error_at(e.span, fmt::format("Using '{}': a variable whose name starts with an "
                                     "underscore may be bound, but not used",
                                     e.name));
      if (b->fun) {
        e.callee = Callee::Function;
        e.fun = b->fun;
        return instantiate(*b->fun, e);
      }
      e.callee = Callee::Local;
      return b->type;
    }
    if (FunDef *f = find_top(e.name)) {
      e.callee = Callee::Function;
      e.fun = f;
      return instantiate(*f, e);
    }
    if (std::optional<ArrayBuiltin> b = array_builtin_from_name(e.name)) {
      e.callee = Callee::ArrayBuiltin;
      e.array_builtin = *b;
      const std::vector<Type> &forms = array_builtin_signatures(*b);
      const Type *pick = &forms[0];
      for (const Type &f : forms)
        if (arity(f) == nargs) pick = &f;
      return instantiate_builtin(*pick, e.span);
    }
    if (std::optional<PrimBuiltin> b = prim_builtin_from_name(e.name)) {
      e.callee = Callee::PrimBuiltin;
      e.prim_builtin = *b;
      return prim_builtin_type(*b);
    }
    // A numeric-module member written in the prelude: `f32.acosh` is `f32'acosh`.
    if (size_t dot = e.name.find('.'); dot != std::string::npos) {
      std::string alias = e.name.substr(0, dot) + "'" + e.name.substr(dot + 1);
      if (FunDef *f = find_top(alias); f && f->from_prelude) {
        e.name = alias;
        e.callee = Callee::Function;
        e.fun = f;
        return instantiate(*f, e);
      }
    }
    unknown_name(e.span, e.name, nargs > 0 ? "function" : "variable");
  }

  // ---------------------------------------------------------------------------
  // Definitions

  void check_top_def(FunDef &f) {
    vars_.clear();
    locals_.clear();
    tparams_.clear();
    level_ = 1;
    check_function(f);
    // A definition with type parameters of its own is polymorphic as written: Futhark
    // instantiates it to match the specification, which the module's use then sees;
    // Kerb keeps it (and checks its uses) as it is.
    if (f.type_params.empty())
      for (const FunDef::Specified &spec : f.specified) check_specified(f, spec);
    // Unconstrained variables of the signature become type parameters.
    generalise(f, 0);
    finish(f);
    // The entry point: an `entry`, or `def main` when there is none (as the driver finds it).
    if (f.is_entry || (!any_entry_ && f.name == "main" && !f.from_prelude)) {
      if (f.ret_type.kind == Type::Function) eta_expand(f);
      check_entry(f);
    }
  }

  // A module type's `val` specification of `f`, where the module that made f is
  // ascribed it (Note [Value specifications] in compiler/modules/elaborate_modules.cpp):
  // f's type is the specified one, with the specification's type parameters fresh
  // variables and its sizes not compared (sizes are checked at run time).
  void check_specified(FunDef &f, const FunDef::Specified &spec) {
    std::vector<TypeParam> saved = tparams_;
    for (const TypeParam &p : spec.type_params) tparams_.push_back(p);
    Type t = resolve_type(spec.type, spec.span);
    tparams_ = saved;
    std::map<std::string, Type> subst;
    for (const TypeParam &p : spec.type_params) {
      Type v = fresh(spec.span);
      if (p.kind == TypeParam::Plain) vars_[size_t(v.var)].no_function = true;
      subst[p.name] = v;
    }
    Type want = erase_dims(substitute_named(t, subst));
    Type have = function_type(f);
    if (!unify(want, have))
      error_at(spec.span, fmt::format("Module type specifies val {}{} but module provides val {} : "
                                      "{}{}",
                                      spec.name, spec.text, spec.name, show(have), why()));
  }

  // `def main = map2 (+)`: an entry point whose value is a function takes that
  // function's parameters, as in Futhark: `def main x0 x1 = (map2 (+)) x0 x1`.
  void eta_expand(FunDef &f) {
    std::set<std::string> used;
    std::function<void(const Expr &)> names = [&](const Expr &e) {
      used.insert(e.name);
      for (const ExprPtr &a : e.args)
        if (a) names(*a);
    };
    names(*f.body);
    for (const Pattern &p : f.params) used.insert(p.name);
    ExprPtr app = make_expr(ExprKind::ApplyExpr, f.body->span);
    app->args.push_back(std::move(f.body));
    Type t = f.ret_type;
    int k = 0;
    while (t.kind == Type::Function) {
      std::string n;
      do n = "x" + std::to_string(k++);
      while (used.count(n) || top_.count(n));
      Type pt = erase_dims(t.elems[0]);
      Pattern p;
      p.kind = Pattern::Id;
      p.name = n;
      p.span = f.name_span;
      p.type = pt;
      p.annotation = pt;
      f.params.push_back(p);
      ExprPtr v = make_expr(ExprKind::Var, f.name_span);
      v->name = n;
      v->callee = Callee::Local;
      v->type = pt;
      app->args.push_back(std::move(v));
      t = Type(t.elems[1]);
    }
    app->type = t;
    f.body = std::move(app);
    f.ret_type = t;
    if (f.ret_annotation) f.ret_annotation = t;
  }

  // Checks a function's parameters and body (top-level or local); leaves ret_type and
  // the parameters' types with the variables they were solved with.
  void check_function(FunDef &f) {
    if (f.name == "&&" || f.name == "||")
      error_at(f.name_span, fmt::format("'{}' may not be redefined: it is built in, and "
                                        "evaluates its right operand only when needed",
                                        f.name));
    size_t mark = scope_mark();
    size_t tmark = tparams_.size();
    std::set<std::string> seen_params;
    for (const TypeParam &p : f.type_params) {
      if (!seen_params.insert(p.name).second)
        error_at(p.span, fmt::format("Type parameter '{}' also bound in another parameter of '{}' "
                                     "(duplicate type parameter)",
                                     p.name, f.name));
      tparams_.push_back(p);
    }
    for (const std::string &n : f.size_params) {
      if (!seen_params.insert(n).second)
        error_at(f.name_span, fmt::format("Size parameter [{}] also bound in another parameter of "
                                          "'{}' (duplicate size parameter)",
                                          n, f.name));
      locals_.push_back(Binding{n, Type::prim_type(PrimType::I64)});
    }
    std::set<std::string> names(f.size_params.begin(), f.size_params.end());
    for (Pattern &p : f.params) {
      check_duplicate_names(p, names, f.name);
      Type t = fresh(p.span);
      bind_pattern(p, t);
    }
    Type body = infer(*f.body);
    if (f.ret_annotation) {
      *f.ret_annotation = resolve_type(*f.ret_annotation, f.name_span);
      size_names_are_i64(*f.ret_annotation, f.name_span);
      if (!unify(*f.ret_annotation, body))
        error_at(f.body->span, fmt::format("Function body does not have expected type: the body "
                                           "of '{}' has type {}, but its declared return type is "
                                           "{}{}",
                                           f.name, show(body), show(*f.ret_annotation), why()));
      f.ret_type = *f.ret_annotation;
    } else {
      f.ret_type = body;
    }
    pop_scope(mark);
    tparams_.resize(tmark);
  }

  void check_duplicate_names(const Pattern &p, std::set<std::string> &names,
                             const std::string &fun) {
    if (p.kind == Pattern::Id && !names.insert(p.name).second)
      error_at(p.span, fmt::format("Name '{}' also bound in another parameter of '{}' "
                                   "(duplicate name)",
                                   p.name, fun));
    for (const Pattern &e : p.elems) check_duplicate_names(e, names, fun);
  }

  // The unconstrained variables of `f`'s type, made at a level above `outer`, become
  // its type parameters.
  void generalise(FunDef &f, int outer) {
    std::set<std::string> taken;
    for (const TypeParam &p : tparams_) taken.insert(p.name);
    for (const TypeParam &p : f.type_params) taken.insert(p.name);
    // A variable constrained to have fields or constructors stays one (its use decides
    // it), and so do the variables of those fields' types: in `let f v = v.a`, the
    // result is v.a's type, not a type parameter of its own.
    std::set<int> kept;
    std::function<void(const Type &)> keep = [&](const Type &t) {
      Type n = norm(t);
      if (n.kind == Type::TypeVar) {
        int r = root(n.var);
        if (!kept.insert(r).second) return;
        for (auto &[name, ft] : vars_[size_t(r)].fields) keep(ft);
        for (auto &[name, ts] : vars_[size_t(r)].constrs)
          for (const Type &ct : ts) keep(ct);
        return;
      }
      for_each_child(n, [&](Type &c) { keep(c); });
    };
    std::function<void(const Type &)> find_kept = [&](const Type &t) {
      Type n = norm(t);
      if (n.kind == Type::TypeVar) {
        const VarInfo &v = vars_[size_t(root(n.var))];
        if (!v.fields.empty() || !v.constrs.empty()) keep(n);
        return;
      }
      for_each_child(n, [&](Type &c) { find_kept(c); });
    };
    for (Pattern &p : f.params) find_kept(p.type);
    find_kept(f.ret_type);
    std::function<void(const Type &)> go = [&](const Type &t) {
      Type n = norm(t);
      if (n.kind == Type::TypeVar) {
        int r = root(n.var);
        VarInfo &v = vars_[size_t(r)];
        if (v.level <= outer || v.prim_only || !v.fields.empty() || !v.constrs.empty() ||
            kept.count(r))
          return;
        std::string name;
        do name = "t" + std::to_string(next_param_name_++);
        while (taken.count(name));
        taken.insert(name);
        TypeParam tp;
        tp.kind = v.no_function ? TypeParam::Plain : TypeParam::Lifted;
        tp.inferred = true;
        tp.name = name;
        tp.span = v.origin;
        f.type_params.push_back(tp);
        v.bound = Type::named(name);
        return;
      }
      for_each_child(n, [&](Type &c) { go(c); });
    };
    for (Pattern &p : f.params) go(p.type);
    go(f.ret_type);
    for (Pattern &p : f.params) p.type = deep(p.type);
    f.ret_type = deep(f.ret_type);
  }

  // ---------------------------------------------------------------------------
  // Patterns

  // The variables a type's sizes name are sizes: i64 (`(n: i64) (xs: [n * 2]i32)`, or
  // `def g n (xs: [n]i32)`, `def f n = ... :> [n]i32`, `def f n : [n]i32` where this is
  // what gives n its type).
  void size_names_are_i64(const Type &t, const Span &span) {
    for (const Dim &d : t.dims) {
      if (d.kind != Dim::Var) continue;
      const std::string &s = d.name;
      for (size_t i = 0; i < s.size();) {
        if (!std::isalpha(static_cast<unsigned char>(s[i])) && s[i] != '_') {
          i++;
          continue;
        }
        size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '\''))
          j++;
        std::string n = s.substr(i, j - i);
        i = j;
        const Binding *b = find_local(n);
        if (!b || b->fun) continue;
        Type bt = b->type;
        if (!unify(bt, Type::prim_type(PrimType::I64)))
          error_at(span, fmt::format("the size '{}' must have type i64, but has type {}", n, show(bt)));
      }
    }
    for (const Type &e : t.elems) size_names_are_i64(e, span);
  }

  void bind_pattern(Pattern &p, const Type &t0, bool refutable = false) {
    Type t = t0;
    if (p.annotation) {
      *p.annotation = resolve_type(*p.annotation, p.span);
      size_names_are_i64(*p.annotation, p.span);
      if (!unify(*p.annotation, t))
        error_at(p.span, fmt::format("this pattern has type {}, but the value has type {}{}",
                                     show(*p.annotation), show(t), why()));
      t = *p.annotation;
    }
    p.type = t;
    switch (p.kind) {
    case Pattern::Id: locals_.push_back(Binding{p.name, t}); return;
    case Pattern::Wildcard: return;
    case Pattern::Tuple: {
      Type n = norm(t);
      if (n.kind == Type::TypeVar) {
        std::vector<Type> elems;
        for (const Pattern &e : p.elems) elems.push_back(fresh(e.span));
        Type tuple = elems.size() == 1 ? elems[0] : Type::tuple(elems);
        if (!unify(n, tuple)) tuple_mismatch(p, t);
        n = norm(t);
      }
      if (n.kind != Type::Tuple || n.elems.size() != p.elems.size()) tuple_mismatch(p, t);
      for (size_t i = 0; i < p.elems.size(); i++) bind_pattern(p.elems[i], n.elems[i], refutable);
      return;
    }
    case Pattern::Record: {
      std::vector<std::pair<std::string, Type>> fields;
      for (size_t i = 0; i < p.elems.size(); i++) fields.push_back({p.fields[i], fresh(p.elems[i].span)});
      Type r = Type::record(fields);
      if (!unify(t, r))
        error_at(p.span, fmt::format("Pattern {} cannot match value of type {}{}",
                                     std::string(p.span.text()), show(t), why()));
      Type n = norm(t);
      for (size_t i = 0; i < p.elems.size(); i++)
        bind_pattern(p.elems[i], n.elems[size_t(n.field_index(p.fields[i]))], refutable);
      return;
    }
    case Pattern::Constr: {
      std::vector<Type> payload;
      for (const Pattern &e : p.elems) payload.push_back(fresh(e.span));
      Type v = fresh(p.span);
      vars_[size_t(v.var)].constrs[p.name] = payload;
      if (!unify(t, v))
        error_at(p.span, fmt::format("Pattern {} cannot match value of type {}{}",
                                     std::string(p.span.text()), show(t), why()));
      for (size_t i = 0; i < p.elems.size(); i++) bind_pattern(p.elems[i], payload[i], refutable);
      return;
    }
    case Pattern::Literal: {
      Type lt = infer(*p.literal);
      if (!unify(t, lt))
        error_at(p.span, fmt::format("Pattern {} cannot match value of type {}{}",
                                     std::string(p.span.text()), show(t), why()));
      return;
    }
    }
  }

  [[noreturn]] void tuple_mismatch(const Pattern &p, const Type &t) {
    error_at(p.span, fmt::format("a tuple pattern of {} components cannot match a value of "
                                 "type {}",
                                 p.elems.size(), show(t)));
  }

  // `loop (x, y) for ...` without an initial value: the variables' current values.
  Type pattern_value_type(const Pattern &p) {
    switch (p.kind) {
    case Pattern::Id: {
      const Binding *b = find_local(p.name);
      if (!b || b->fun)
        error_at(p.span, fmt::format("'{}' has no value to start the loop with (write "
                                     "'loop {} = ...')",
                                     p.name, p.name));
      return b->type;
    }
    case Pattern::Tuple: {
      std::vector<Type> elems;
      for (const Pattern &e : p.elems) elems.push_back(pattern_value_type(e));
      return Type::tuple(std::move(elems));
    }
    default: error_at(p.span, "this pattern has no value to start the loop with");
    }
  }

  // ---------------------------------------------------------------------------
  // Expressions

  Type infer(Expr &e) {
    Type t = infer_kind(e);
    e.type = t;
    return t;
  }

  void expect(Expr &e, const Type &want, const char *what) {
    Type t = infer(e);
    if (!unify(t, want))
      error_at(e.span, fmt::format("{} must be a {}, but has type {}", what, show(want), show(t)));
  }

  // An index or a slice bound: an integer of any type. As in Futhark, an index that
  // nothing else fixes defaults to i32 (`def get xs i = xs[i]`), a slice bound to i64
  // (`def f xs a b = xs[a:b]`).
  void expect_index(Expr &e, const char *what, bool prefer_i64 = false) {
    Type t = infer(e);
    if (!require_prim(t, kInt, prefer_i64))
      error_at(e.span, fmt::format("{} must be an integer, but has type {}", what, show(t)));
  }

  Type infer_kind(Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit:
      if (e.suffix) return Type::prim_type(*e.suffix);
      return fresh_prim(e.span, kNum);
    case ExprKind::FloatLit:
      if (e.suffix) return Type::prim_type(*e.suffix);
      return fresh_prim(e.span, kFloat);
    case ExprKind::BoolLit: return Type::prim_type(PrimType::Bool);
    case ExprKind::Var: return infer_name(e, 0);
    case ExprKind::Tuple: {
      std::vector<Type> elems;
      for (ExprPtr &a : e.args) elems.push_back(infer(*a));
      return Type::tuple(std::move(elems));
    }
    case ExprKind::ArrayLit: {
      if (e.args.empty()) {
        Type elem = fresh(e.span);
        vars_[size_t(elem.var)].no_function = true;
        return Type::array(elem, {Dim::constant(0)});
      }
      Type first = infer(*e.args[0]);
      for (size_t i = 1; i < e.args.size(); i++) {
        Type t = infer(*e.args[i]);
        if (!unify(first, t))
          error_at(e.args[i]->span, fmt::format("array elements must have the same type: the "
                                                "first has type {}, this one {}{}",
                                                show(first), show(t), why()));
      }
      return Type::array(first, {Dim::constant(int64_t(e.args.size()))});
    }
    case ExprKind::Unary: {
      Type t = infer(*e.args[0]);
      if (e.unop == UnOp::Neg) {
        if (!require_prim(t, kNum))
          error_at(e.span, fmt::format("unary '-' needs a number, found {}", show(t)));
      } else if (!require_prim(t, kBool | kInt)) {
        error_at(e.span, fmt::format("'!' needs a bool or an integer, found {}", show(t)));
      }
      return t;
    }
    case ExprKind::Binary: {
      std::string op = binop_text(e.binop);
      if (e.name.empty() && redefined(op)) { // the program's own operator
        e.kind = ExprKind::Apply;
        e.name = op;
        return infer_apply(e);
      }
      Type a = infer(*e.args[0]);
      Type b = infer(*e.args[1]);
      return binop_type(e.binop, a, b, e.span, e.args[0]->span, e.args[1]->span);
    }
    case ExprKind::If: {
      expect(*e.args[0], Type::prim_type(PrimType::Bool), "the condition of 'if'");
      Type a = infer(*e.args[1]);
      Type b = infer(*e.args[2]);
      if (!unify(a, b))
        error_at(e.span, fmt::format("the branches of 'if' have different types: 'then' has "
                                     "type {}, 'else' has type {}{}",
                                     show(a), show(b), why()));
      return a;
    }
    case ExprKind::Let: {
      Type v = infer(*e.args[0]);
      size_t mark = scope_mark();
      std::set<std::string> names(e.size_params.begin(), e.size_params.end());
      if (names.size() != e.size_params.size())
        error_at(e.span, "a size of 'let' is also bound by another size of the same 'let'");
      check_duplicate_names(e.pattern, names, "let");
      for (const std::string &n : e.size_params)
        locals_.push_back(Binding{n, Type::prim_type(PrimType::I64)});
      bind_pattern(e.pattern, v);
      Type body = infer(*e.args[1]);
      pop_scope(mark);
      return body;
    }
    case ExprKind::LetFun: {
      FunDef &f = *e.fundef;
      level_++;
      check_function(f);
      level_--;
      generalise(f, level_);
      size_t mark = scope_mark();
      locals_.push_back(Binding{f.name, Type(), &f});
      Type body = infer(*e.args[0]);
      pop_scope(mark);
      return body;
    }
    case ExprKind::Loop: return infer_loop(e);
    case ExprKind::Index: {
      Type arr = infer(*e.args[0]);
      return indexed_type(arr, e.indices, e.span, e.args[0]->span);
    }
    case ExprKind::Update: {
      Type arr = infer(*e.args[0]);
      Type target = indexed_type(arr, e.indices, e.span, e.args[0]->span);
      Type v = infer(*e.args[1]);
      if (!unify(target, v))
        error_at(e.args[1]->span, fmt::format("the new value has type {}, but the updated "
                                              "part of the array has type {}",
                                              show(v), show(target)));
      return arr;
    }
    case ExprKind::Project:
      return field_type(infer(*e.args[0]), std::to_string(e.field), e.span);
    case ExprKind::Field: return field_type(infer(*e.args[0]), e.name, e.span);
    case ExprKind::RecordUpdate: {
      Type r = infer(*e.args[0]);
      Type target = r;
      for (const std::string &f : e.fields) target = field_type(target, f, e.span);
      Type v = infer(*e.args[1]);
      if (!unify(target, v))
        error_at(e.args[1]->span, fmt::format("the new value of field '{}' has type {}, but "
                                              "the field has type {}",
                                              e.fields.back(), show(v), show(target)));
      return r;
    }
    case ExprKind::Record: {
      std::vector<std::pair<std::string, Type>> fields;
      for (size_t i = 0; i < e.args.size(); i++) fields.push_back({e.fields[i], infer(*e.args[i])});
      return Type::record(fields);
    }
    case ExprKind::Constr: {
      std::vector<Type> payload;
      for (ExprPtr &a : e.args) payload.push_back(infer(*a));
      Type v = fresh(e.span);
      vars_[size_t(v.var)].constrs[e.name] = payload;
      return v;
    }
    case ExprKind::Match: {
      Type scrutinee = infer(*e.args[0]);
      Type result;
      for (size_t i = 0; i < e.params.size(); i++) {
        size_t mark = scope_mark();
        bind_pattern(e.params[i], scrutinee, /*refutable=*/true);
        Type t = infer(*e.args[i + 1]);
        pop_scope(mark);
        if (i == 0) {
          result = t;
        } else if (!unify(result, t)) {
          error_at(e.args[i + 1]->span,
                   fmt::format("the cases of 'match' have different types: the first has type "
                               "{}, this one {}{}",
                               show(result), show(t), why()));
        }
      }
      return result;
    }
    case ExprKind::Apply:
    case ExprKind::ApplyExpr: return infer_apply(e);
    case ExprKind::Lambda: return infer_lambda(e, std::nullopt);
    case ExprKind::OpSection: return infer_section(e);
    case ExprKind::ProjSection: {
      Type arg = fresh(e.span);
      Type t = arg;
      for (const std::string &f : e.fields) t = field_type(t, f, e.span);
      return Type::function(arg, t);
    }
    case ExprKind::Ascribe:
    case ExprKind::Coerce: {
      Type t = infer(*e.args[0]);
      *e.annotation = resolve_type(*e.annotation, e.span);
      size_names_are_i64(*e.annotation, e.span);
      const Type &ann = *e.annotation;
      if (!unify(ann, t)) {
        if (e.kind == ExprKind::Ascribe)
          error_at(e.span, fmt::format("Expression does not have expected type from type "
                                       "ascription: it is ascribed type {}, but has type {}{}",
                                       show(ann), show(t), why()));
        error_at(e.span, fmt::format("a value of type {} cannot be coerced to type {} (only "
                                     "sizes may differ)",
                                     show(t), show(ann)));
      }
      return ann;
    }
    case ExprKind::Assert:
      expect(*e.args[0], Type::prim_type(PrimType::Bool), "the condition of 'assert'");
      return infer(*e.args[1]);
    case ExprKind::Range: {
      Type t = infer(*e.args[0]);
      for (int i : {1, 2}) {
        if (!e.args[size_t(i)]) continue;
        Type u = infer(*e.args[size_t(i)]);
        if (!unify(t, u))
          error_at(e.span, fmt::format("the bounds of a range must have the same type, but "
                                       "have types {} and {}",
                                       show(t), show(u)));
      }
      if (!require_prim(t, kInt))
        error_at(e.span, fmt::format("a range needs integer bounds, but they have type {}",
                                     show(t)));
      return Type::array(t, {Dim::unknown()});
    }
    case ExprKind::Unsafe: return infer(*e.args[0]);
    case ExprKind::Hole: return fresh(e.span); // any type, also a function
    case ExprKind::OpenIn: break;                // removed by compiler/modules
    }
    error_at(e.span, "unknown kind of expression");
  }

  // The type of field `f` of a value of type `t` (a record, or a tuple for a number).
  Type field_type(const Type &t0, const std::string &f, const Span &span) {
    Type t = norm(t0);
    if (t.kind == Type::Record) {
      int i = t.field_index(f);
      if (i < 0)
        error_at(span, fmt::format("Record type {} has no field '{}'", show(t), f));
      return t.elems[size_t(i)];
    }
    if (t.kind == Type::Tuple && is_numeric_name(f)) {
      size_t i = f.size() > 6 ? t.elems.size() : size_t(std::stoi(f));
      if (i >= t.elems.size())
        error_at(span, fmt::format("a tuple of type {} has no component {}", show(t), f));
      return t.elems[i];
    }
    if (t.kind == Type::TypeVar) {
      VarInfo &v = vars_[size_t(root(t.var))];
      if (!v.prim_only && v.constrs.empty()) {
        auto it = v.fields.find(f);
        if (it != v.fields.end()) return it->second;
        Type ft = fresh(span);
        vars_[size_t(root(t.var))].fields[f] = ft;
        return ft;
      }
    }
    if (is_numeric_name(f))
      error_at(span, fmt::format("'.{}' projects a tuple, but this has type {}", f, show(t)));
    error_at(span, fmt::format("field access '.{}' needs a record, but this has type {}", f,
                               show(t)));
  }

  Type binop_type(BinOp op, const Type &a, const Type &b, const Span &span, const Span &sa,
                  const Span &sb) {
    const char *name = binop_text(op);
    auto same = [&] {
      if (!unify(a, b))
        error_at(span, fmt::format("the operands of '{}' must have the same type, but have "
                                   "types {} and {}{}",
                                   name, show(a), show(b), why()));
    };
    auto need = [&](uint8_t mask, const char *what) {
      if (!require_prim(a, mask))
        error_at(sa, fmt::format("'{}' needs {}, but its left operand has type {}", name, what,
                                 show(a)));
    };
    switch (op) {
    case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::Mod:
    case BinOp::Pow:
      same();
      need(kNum, "numbers");
      return a;
    case BinOp::Quot: case BinOp::Rem:
    case BinOp::BitAnd: case BinOp::BitOr: case BinOp::BitXor:
    case BinOp::Shl: case BinOp::Shr: case BinOp::UShr:
      same();
      need(kInt, "integers");
      return a;
    case BinOp::Eq: case BinOp::Neq:
      same();
      propagate(a, level_, true);
      if (contains_function_now(a))
        error_at(sa, fmt::format("Comparing equality of values of type {} which does not "
                                 "support equality (it holds functions)",
                                 show(a)));
      return Type::prim_type(PrimType::Bool);
    case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge:
      same();
      if (!require_prim(a, kAnyPrim))
        error_at(sa, fmt::format("'{}' compares primitive values, but its operands have type {}",
                                 name, show(a)));
      return Type::prim_type(PrimType::Bool);
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
      for (auto [t, s, side] : {std::tuple{a, sa, "left"}, std::tuple{b, sb, "right"}}) {
        Type elem = fresh(span);
        vars_[size_t(elem.var)].no_function = true;
        if (!unify(t, Type::array(elem, {Dim::unknown()})))
          error_at(s, fmt::format("'++' concatenates arrays, but its {} operand has type {}", side,
                                  show(t)));
      }
      same();
      return norm(a);
    }
    }
    error_at(span, "unknown operator");
  }

  // The type of a built-in operator as a function: (+) : t -> t -> t, ...
  Type operator_type(BinOp op, const Span &span, std::optional<PrimType> at = std::nullopt) {
    Type t = at ? Type::prim_type(*at) : fresh(span);
    Type boolean = Type::prim_type(PrimType::Bool);
    switch (op) {
    case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::Mod:
    case BinOp::Pow:
      require_prim(t, kNum);
      return Type::function(t, Type::function(t, t));
    case BinOp::Quot: case BinOp::Rem: case BinOp::BitAnd: case BinOp::BitOr:
    case BinOp::BitXor: case BinOp::Shl: case BinOp::Shr: case BinOp::UShr:
      require_prim(t, kInt);
      return Type::function(t, Type::function(t, t));
    case BinOp::Eq: case BinOp::Neq:
      propagate(t, level_, true);
      return Type::function(t, Type::function(t, boolean));
    case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge:
      require_prim(t, kAnyPrim);
      return Type::function(t, Type::function(t, boolean));
    case BinOp::LogAnd: case BinOp::LogOr:
      return Type::function(boolean, Type::function(boolean, boolean));
    case BinOp::Concat: {
      propagate(t, level_, true);
      Type arr = Type::array(t, {Dim::unknown()});
      return Type::function(arr, Type::function(arr, arr));
    }
    }
    return t;
  }

  // `x i64.== y`: a numeric module's operator used infix is the built-in operator at the
  // module's type, even where a local definition redefines it (the module elaborator
  // makes the same Binary where the program uses modules). Rewrites e into it.
  bool qualified_operator(Expr &e) {
    size_t dot = e.name.find('.');
    PrimType p;
    if (e.args.size() != 2 || dot == std::string::npos || find_local(e.name) ||
        find_top(e.name) || !prim_from_name(e.name.substr(0, dot), p))
      return false;
    std::string op = e.name.substr(dot + 1);
    for (int k = 0; k < int(BinOp::Concat); k++)
      if (op == binop_text(BinOp(k))) {
        e.kind = ExprKind::Binary;
        e.binop = BinOp(k);
        for (ExprPtr &a : e.args) {
          ExprPtr asc = make_expr(ExprKind::Ascribe, a->span);
          asc->annotation = Type::prim_type(p);
          asc->args.push_back(std::move(a));
          a = std::move(asc);
        }
        return true;
      }
    return false;
  }

  // (+), (x+), (+x), (`f`), (x `f`), (+^), (i32.+)
  Type infer_section(Expr &e) {
    Type ft;
    std::string name = e.name.empty() ? binop_text(e.binop) : e.name;
    if (e.name.empty() && redefined(name)) e.name = name;
    if (e.name.empty()) {
      ft = operator_type(e.binop, e.span);
    } else if (size_t dot = e.name.find('.');
               dot != std::string::npos && !find_local(e.name) && !find_top(e.name) &&
               !prim_builtin_from_name(e.name)) {
      // (i32.+): the built-in operator at one primitive type.
      PrimType p;
      std::string op = e.name.substr(dot + 1);
      std::optional<BinOp> bop;
      for (int k = 0; k <= int(BinOp::Concat); k++)
        if (op == binop_text(BinOp(k))) bop = BinOp(k);
      if (!prim_from_name(e.name.substr(0, dot), p) || !bop || *bop == BinOp::Concat)
        unknown_name(e.span, e.name, "operator");
      e.binop = *bop;
      e.name.clear();
      ft = operator_type(*bop, e.span, p);
      Type probe = norm(ft);
      if (!require_prim(probe.elems[0], mask_of(p)))
        error_at(e.span, fmt::format("the operator '{}' does not apply to type {}", op, prim_name(p)));
      if ((*bop == BinOp::Quot || *bop == BinOp::Rem || *bop == BinOp::BitAnd ||
           *bop == BinOp::BitOr || *bop == BinOp::BitXor || *bop == BinOp::Shl ||
           *bop == BinOp::Shr || *bop == BinOp::UShr) && !is_int(p))
        error_at(e.span, fmt::format("the operator '{}' does not apply to type {}", op, prim_name(p)));
      if ((*bop == BinOp::LogAnd || *bop == BinOp::LogOr) && p != PrimType::Bool)
        error_at(e.span, fmt::format("the operator '{}' does not apply to type {}", op, prim_name(p)));
    } else {
      // A function used as an operator: look it up like a name.
      Expr probe(ExprKind::Var, e.span);
      probe.name = e.name;
      ft = infer_name(probe, 2);
      e.callee = probe.callee;
      e.fun = probe.fun;
      e.type_args = std::move(probe.type_args);
      e.array_builtin = probe.array_builtin;
      e.prim_builtin = probe.prim_builtin;
    }
    if (e.args.empty()) return ft;
    Type given = infer(*e.args[0]);
    Type fn = norm(ft);
    if (fn.kind != Type::Function || norm(fn.elems[1]).kind != Type::Function) {
      Type a = fresh(e.span), b = fresh(e.span), r = fresh(e.span);
      if (!unify(fn, Type::function(a, Type::function(b, r))))
        error_at(e.span, fmt::format("'{}' is not a binary operator (it has type {})", name, show(ft)));
      fn = norm(ft);
    }
    Type p1 = fn.elems[0];
    Type rest = norm(fn.elems[1]);
    Type p2 = rest.elems[0];
    Type r = rest.elems[1];
    const Type &want = e.section_left ? p1 : p2;
    if (!unify(want, given))
      error_at(e.args[0]->span, fmt::format("the operand of the section of '{}' must be of type "
                                            "{}, but has type {}",
                                            name, show(want), show(given)));
    return Type::function(e.section_left ? p2 : p1, r);
  }

  // \p1 p2 ... -> body, with the parameter types the context expects when it knows them.
  Type infer_lambda(Expr &e, std::optional<Type> expected) {
    size_t mark = scope_mark();
    std::vector<Type> params;
    Type cur = expected ? *expected : Type();
    for (Pattern &p : e.params) {
      Type pt;
      if (expected) {
        Type n = norm(cur);
        if (n.kind == Type::Function) {
          pt = n.elems[0];
          cur = n.elems[1];
        } else {
          expected.reset();
        }
      }
      if (!expected) pt = fresh(p.span);
      bind_pattern(p, pt);
      params.push_back(p.type);
    }
    Type body = infer(*e.args[0]);
    if (e.annotation) {
      *e.annotation = resolve_type(*e.annotation, e.span);
      if (!unify(*e.annotation, body))
        error_at(e.args[0]->span, fmt::format("the body has type {}, but the declared return "
                                              "type is {}",
                                              show(body), show(*e.annotation)));
      body = *e.annotation;
    }
    pop_scope(mark);
    for (size_t i = params.size(); i-- > 0;) body = Type::function(params[i], body);
    return body;
  }

  static bool is_function_literal(const Expr &e) {
    return e.kind == ExprKind::Lambda || e.kind == ExprKind::OpSection ||
           e.kind == ExprKind::ProjSection ||
           (e.kind == ExprKind::Unsafe && is_function_literal(*e.args[0]));
  }

  // f a b ..., for an Apply (a named callee) or an ApplyExpr (args[0] the function).
  Type infer_apply(Expr &e) {
    if (e.kind == ExprKind::Apply && qualified_operator(e)) return infer(e);
    size_t first = e.kind == ExprKind::ApplyExpr ? 1 : 0;
    size_t nargs = e.args.size() - first;
    std::string fname;
    Type ft;
    if (e.kind == ExprKind::Apply) {
      fname = e.name;
      ft = infer_name(e, nargs);
      if (e.callee == Callee::Local && norm(ft).kind != Type::Function &&
          norm(ft).kind != Type::TypeVar)
        error_at(e.span, fmt::format("'{}' is a variable, not a function", e.name));
    } else {
      ft = infer(*e.args[0]);
    }
    // The parameter types, as far as the function's type tells them.
    std::vector<Type> params;
    Type cur = ft;
    for (size_t i = 0; i < nargs; i++) {
      Type n = norm(cur);
      if (n.kind != Type::Function) break;
      params.push_back(n.elems[0]);
      cur = n.elems[1];
    }
    // Too many arguments: the result is known not to be a function (a type, or a
    // variable that may not be one).
    Type end = norm(cur);
    bool more_possible = end.kind == Type::TypeVar && !vars_[size_t(root(end.var))].no_function &&
                         !vars_[size_t(root(end.var))].prim_only;
    if (params.size() < nargs && !more_possible) {
      if (params.empty()) {
        if (e.kind == ExprKind::Apply && e.callee == Callee::Local)
          error_at(e.span, fmt::format("'{}' is a variable, not a function", fname));
        if (e.kind == ExprKind::Apply)
          error_at(e.span, fmt::format("'{}' is a constant, not a function", fname));
        error_at(e.span, fmt::format("Cannot apply expression as function, as it has "
                                     "non-function type {}",
                                     show(ft)));
      }
      std::string n = params.size() == 1 ? "1 argument" : fmt::format("{} arguments", params.size());
      if (!fname.empty())
        error_at(e.span, fmt::format("Cannot apply \"{}\" to {} arguments: the function accepts "
                                     "only {}",
                                     fname, nargs, n));
      error_at(e.span, fmt::format("Cannot apply function to {} arguments: it accepts only {}",
                                   nargs, n));
    }
    auto arg_error = [&](size_t i, const Type &want0, const Type &have0) {
      const Expr &a = *e.args[first + i];
      std::string reason = why();
      Type want = deep(want0), have = deep(have0);
      // Futhark's sentence first, then which argument and what is wrong with it.
      std::string text(a.span.text());
      if (size_t nl = text.find('\n'); nl != std::string::npos) text = text.substr(0, nl) + " ...";
      if (text.size() > 40) text = text.substr(0, 37) + "...";
      std::string head = fname.empty()
                             ? fmt::format("Cannot apply function to \"{}\" (invalid type): ", text)
                             : fmt::format("Cannot apply \"{}\" to \"{}\" (invalid type): ", fname, text);
      std::string nth = ordinal(i);
      if (want.kind == Type::Function && have.kind == Type::Function) {
        size_t wn = arity(want), hn = arity(have);
        if (wn != hn)
          error_at(a.span, fmt::format("{}the {} argument must be a function of {} argument(s), "
                                       "but this one takes {}",
                                       head, nth, wn, hn));
        Type wr = want, hr = have;
        for (size_t k = 0; k < wn; k++) {
          if (!unify(wr.elems[0], hr.elems[0]))
            error_at(a.span, fmt::format("{}the {} parameter of the function given as the {} "
                                         "argument has type {}, but must have type {}{}",
                                         head, ordinal(k), nth, show(hr.elems[0]),
                                         show(wr.elems[0]), why()));
          wr = Type(wr.elems[1]);
          hr = Type(hr.elems[1]);
        }
        if (!unify(wr, hr))
          error_at(a.span, fmt::format("{}the result of the function given as the {} argument "
                                       "has type {}, but must have type {}{}",
                                       head, nth, show(hr), show(wr), why()));
      }
      if (want.kind == Type::TypeVar && vars_[size_t(root(want.var))].no_function &&
          contains_function(have))
        error_at(a.span, fmt::format("{}the {} argument may not be a function (its type is a "
                                     "type parameter written 't, not '^t: functional), but has "
                                     "type {}",
                                     head, nth, show(have)));
      if (want.kind == Type::Function)
        error_at(a.span, fmt::format("{}the {} argument must be a function, but has type {}", head,
                                     nth, show(have)));
      if (want.kind == Type::Array && (have.kind != Type::Array || have.rank() < want.rank()))
        error_at(a.span, fmt::format("{}the {} argument must be an array{}, but has type {}", head,
                                     nth,
                                     want.rank() > 1 ? fmt::format(" of rank {} or more", want.rank()) : "",
                                     show(have)));
      error_at(a.span, fmt::format("{}the {} argument must be of type {}, but has type {}{}", head,
                                   nth, show(want), show(have), reason));
    };
    if (params.size() == nargs) {
      // Arguments that are not anonymous functions first, so that a lambda's parameters
      // get the types its siblings give (map (\r -> r.x) rs).
      for (size_t i = 0; i < nargs; i++) {
        Expr &a = *e.args[first + i];
        if (is_function_literal(a)) continue;
        Type t = infer(a);
        if (!unify(params[i], t)) arg_error(i, params[i], t);
      }
      for (size_t i = 0; i < nargs; i++) {
        Expr &a = *e.args[first + i];
        if (!is_function_literal(a)) continue;
        Type t = a.kind == ExprKind::Lambda ? infer_lambda(a, params[i]) : infer(a);
        a.type = t;
        if (!unify(params[i], t)) arg_error(i, params[i], t);
      }
      return cur;
    }
    // The function's type is not known that far: one argument at a time.
    Type f = ft;
    for (size_t i = 0; i < nargs; i++) {
      Type t = infer(*e.args[first + i]);
      Type n = norm(f);
      if (n.kind == Type::Function) {
        if (!unify(n.elems[0], t)) arg_error(i, n.elems[0], t);
        f = n.elems[1];
        continue;
      }
      Type r = fresh(e.span);
      if (!unify(n, Type::function(t, r)))
        error_at(e.span, fmt::format("Cannot apply {} as function, as it has non-function type {}{}",
                                     fname.empty() ? "expression" : "'" + fname + "'", show(n),
                                     why()));
      f = r;
    }
    return f;
  }

  Type infer_loop(Expr &e) {
    Type init = e.args[0] ? infer(*e.args[0]) : pattern_value_type(e.pattern);
    Type over;
    if (e.loop_form == LoopForm::For) {
      over = infer(*e.args[1]);
      if (!require_prim(over, kInt, true))
        error_at(e.args[1]->span, fmt::format("the bound of a 'for' loop must be an integer, "
                                              "but has type {}",
                                              show(over)));
    } else if (e.loop_form == LoopForm::ForIn) {
      over = infer(*e.args[1]);
      Type elem = fresh(e.args[1]->span);
      if (!unify(over, Type::array(elem, {Dim::unknown()})))
        error_at(e.args[1]->span, fmt::format("'for ... in' needs an array, but this has type {}",
                                              show(over)));
    }
    size_t mark = scope_mark();
    for (const std::string &n : e.size_params)
      locals_.push_back(Binding{n, Type::prim_type(PrimType::I64)});
    bind_pattern(e.pattern, init);
    Type state = e.pattern.type;
    if (e.loop_form == LoopForm::For) locals_.push_back(Binding{e.name, over});
    if (e.loop_form == LoopForm::ForIn) {
      Type n = norm(over);
      bind_pattern(e.pattern2, n.kind == Type::Array ? n.row() : fresh(e.span));
    }
    if (e.loop_form == LoopForm::While)
      expect(*e.args[1], Type::prim_type(PrimType::Bool), "the condition of a 'while' loop");
    Type body = infer(*e.args[2]);
    if (!unify(state, body))
      error_at(e.args[2]->span, fmt::format("the loop body has type {}, but the loop "
                                            "parameters have type {}{}",
                                            show(body), show(state), why()));
    pop_scope(mark);
    return state;
  }

  // The type of `arr[parts]`; checks the parts.
  Type indexed_type(const Type &arr0, std::vector<IndexPart> &parts, const Span &span,
                    const Span &arr_span) {
    Type arr = norm(arr0);
    if (arr.kind != Type::Array && arr.kind != Type::TypeVar)
      error_at(span, fmt::format("only arrays can be indexed, but this has type {}", show(arr)));
    if (arr.kind == Type::Array && int(parts.size()) > arr.rank() &&
        norm(arr.elems[0]).kind != Type::TypeVar)
      error_at(span, fmt::format("{} indices given for an array of rank {} (type {})", parts.size(),
                                 arr.rank(), show(arr)));
    Type elem = fresh(arr_span);
    std::vector<Dim> dims(parts.size(), Dim::unknown());
    if (!unify(arr, Type::array(elem, dims)))
      error_at(span, fmt::format("only arrays can be indexed, but this has type {}", show(arr)));
    Type full = norm(arr);
    std::vector<Dim> out;
    for (size_t i = 0; i < parts.size(); i++) {
      IndexPart &p = parts[i];
      if (!p.is_slice) {
        expect_index(*p.index, "an index");
        continue;
      }
      for (ExprPtr *x : {&p.start, &p.end, &p.stride})
        if (*x) expect_index(**x, "a slice bound", true);
      bool whole = !p.start && !p.end && !p.stride;
      out.push_back(whole && i < full.dims.size() ? full.dims[i] : Dim::unknown());
    }
    return Type::array(elem, out);
  }

  // ---------------------------------------------------------------------------
  // The end of a top-level definition

  // Gives every unsolved variable its final type.
  void solve_rest(int v) {
    VarInfo &info = vars_[size_t(v)];
    if (info.bound) return;
    if (info.prim_only) {
      info.bound = Type::prim_type(default_of(info));
      return;
    }
    if (!info.constrs.empty()) {
      std::vector<std::pair<std::string, std::vector<Type>>> cs(info.constrs.begin(), info.constrs.end());
      info.bound = Type::sum(cs);
      return;
    }
    if (!info.fields.empty()) {
      std::string fields;
      for (auto &[n, t] : info.fields) fields += (fields.empty() ? "" : ", ") + n;
      error_at(info.origin, fmt::format("Type is ambiguous: a record with the fields {{{}}}, "
                                        "whose other fields are not known here (add a type "
                                        "annotation)",
                                        fields));
    }
    info.bound = Type::unit();
  }

  Type zonk(const Type &t) {
    Type n = norm(t);
    if (n.kind == Type::TypeVar) {
      solve_rest(root(n.var));
      return zonk(n);
    }
    for_each_child(n, [&](Type &c) { c = zonk(c); });
    if (n.kind == Type::Array && n.elems[0].kind == Type::Array) n = Type::array(n.elems[0], n.dims);
    return n;
  }

  void finish(FunDef &f) {
    for (Pattern &p : f.params) zonk_pattern(p);
    f.ret_type = zonk(f.ret_type);
    if (f.ret_annotation) *f.ret_annotation = zonk(*f.ret_annotation);
    zonk_expr(*f.body);
    LocalChecks(f).run();
  }

  void zonk_pattern(Pattern &p) {
    p.type = zonk(p.type);
    if (p.annotation) *p.annotation = zonk(*p.annotation);
    if (p.literal) zonk_expr(*p.literal);
    for (Pattern &e : p.elems) zonk_pattern(e);
  }

  void zonk_expr(Expr &e) {
    e.type = zonk(e.type);
    for (Type &t : e.type_args) t = zonk(t);
    zonk_pattern(e.pattern);
    zonk_pattern(e.pattern2);
    for (Pattern &p : e.params) zonk_pattern(p);
    if (e.annotation) *e.annotation = zonk(*e.annotation);
    if (e.fundef) {
      for (Pattern &p : e.fundef->params) zonk_pattern(p);
      e.fundef->ret_type = zonk(e.fundef->ret_type);
      if (e.fundef->ret_annotation) *e.fundef->ret_annotation = zonk(*e.fundef->ret_annotation);
      zonk_expr(*e.fundef->body);
    }
    for (ExprPtr &a : e.args)
      if (a) zonk_expr(*a);
    for (IndexPart &part : e.indices)
      for (ExprPtr *x : {&part.index, &part.start, &part.end, &part.stride})
        if (*x) zonk_expr(**x);
  }

  void check_entry(const FunDef &f) {
    // Every size parameter must be the whole size of some parameter's dimension: the
    // arguments' shapes give it.
    std::set<std::string> constructive;
    std::function<void(const Type &)> dims = [&](const Type &t) {
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var) constructive.insert(d.name);
      for (const Type &e : t.elems) dims(e);
    };
    for (const Pattern &p : f.params)
      if (p.annotation) dims(*p.annotation);
    for (const std::string &n : f.size_params)
      if (!constructive.count(n))
        error_at(f.name_span, fmt::format("Entry point size parameter [{}] only used "
                                          "non-constructively (no parameter has it as a size)",
                                          n));
    if (!f.type_params.empty())
      error_at(f.name_span, fmt::format("Entry point functions may not be polymorphic: '{}' "
                                        "has type parameter '{}'",
                                        f.name, f.type_params[0].name));
    for (const Pattern &p : f.params)
      if (contains_function(p.type))
        error_at(p.span, fmt::format("Entry point functions may not be higher-order: a "
                                     "parameter of '{}' has type {}",
                                     f.name, p.type.str()));
    if (contains_function(f.ret_type))
      error_at(f.name_span, fmt::format("Entry point functions may not be higher-order: '{}' "
                                        "returns type {}",
                                        f.name, f.ret_type.str()));
  }

  // ---------------------------------------------------------------------------
  // Checks on the finished tree (Futhark's localChecks)

  class LocalChecks {
  public:
    explicit LocalChecks(FunDef &f) : f_(f) {}

    void run() {
      for (const TypeParam &p : f_.type_params) type_params_[p.name] = written_kind(p);
      for (const Pattern &p : f_.params) irrefutable(p);
      expr(*f_.body);
    }

  private:
    FunDef &f_;
    // The type parameters of the definition and its local functions, with their kinds.
    std::map<std::string, TypeParam::Kind> type_params_;

    // The type parameter inside `t`, if any (they support no equality).
    const std::string *type_param_in(const Type &t) const {
      if (t.kind == Type::Named && t.elems.empty() && type_params_.count(t.name)) return &t.name;
      if (t.kind == Type::Function) return nullptr;
      for (const Type &e : t.elems)
        if (const std::string *n = type_param_in(e)) return n;
      return nullptr;
    }

    // The liftedness a type parameter is checked with: an inferred one's is Plain (its
    // uses in arrays and branches do not constrain it during inference, as Futhark's do).
    static TypeParam::Kind written_kind(const TypeParam &p) {
      return p.inferred ? TypeParam::Plain : p.kind;
    }

    // A type parameter inside `t` that is lifted ('^a), or also size-lifted ('~a) when
    // `size_lifted` (a non-lifted type may be neither), if any.
    const std::string *lifted_param_in(const Type &t, bool size_lifted) const {
      if (t.kind == Type::Named && t.elems.empty()) {
        auto it = type_params_.find(t.name);
        if (it != type_params_.end() &&
            (it->second == TypeParam::Lifted ||
             (size_lifted && it->second == TypeParam::SizeLifted)))
          return &it->first;
      }
      for (const Type &e : t.elems)
        if (const std::string *n = lifted_param_in(e, size_lifted)) return n;
      for (const auto &p : t.payloads)
        for (const Type &e : p)
          if (const std::string *n = lifted_param_in(e, size_lifted)) return n;
      return nullptr;
    }

    // A function type, or one that may be (a lifted type parameter).
    bool functional(const Type &t) const {
      return contains_function(t) || lifted_param_in(t, false);
    }

    // A polymorphic call's instantiation (Futhark's checkLiftedness): a non-lifted type
    // parameter ('a) may be neither a function type nor hold a lifted or size-lifted type
    // parameter of the caller, a size-lifted one ('~a) no lifted one.
    void instantiation(const Expr &e) const {
      if (!e.fun || e.type_args.size() != e.fun->type_params.size()) return;
      for (size_t i = 0; i < e.type_args.size(); i++) {
        const TypeParam &p = e.fun->type_params[i];
        if (p.kind == TypeParam::Lifted || p.inferred) continue;
        if (const std::string *n = lifted_param_in(e.type_args[i], p.kind == TypeParam::Plain))
          error_at(e.span, fmt::format("Cannot instantiate type parameter \"{}\" of '{}' with "
                                       "type containing lifted type parameter \"{}\".",
                                       p.name, e.fun->name, *n));
      }
    }

    void expr(const Expr &e) {
      switch (e.kind) {
      case ExprKind::Var: case ExprKind::Apply: instantiation(e); break;
      case ExprKind::Binary:
        if (e.binop == BinOp::Eq || e.binop == BinOp::Neq)
          if (const std::string *n = type_param_in(e.args[0]->type))
            error_at(e.span, fmt::format("Type {} does not support equality: '{}' is a type "
                                         "parameter, which may be any type",
                                         e.args[0]->type.str(), *n));
        break;
      case ExprKind::If:
        if (functional(e.type))
          error_at(e.span, fmt::format("If-expression returns type {}, but if-results may not "
                                       "be of function type (functional)",
                                       e.type.str()));
        break;
      case ExprKind::Match:
        if (functional(e.type))
          error_at(e.span, fmt::format("Match-expression returns type {}, but match-results may "
                                       "not be of function type (functional)",
                                       e.type.str()));
        check_match(e);
        break;
      case ExprKind::ArrayLit:
        if (e.type.is_array() && contains_function(e.type.element()))
          error_at(e.span, fmt::format("Type {} found to be functional: the elements of an "
                                       "array may not be functions",
                                       e.type.row().str()));
        if (e.type.is_array())
          if (const std::string *n = lifted_param_in(e.type.element(), true))
            error_at(e.span, fmt::format("An array element may not have type {}: type parameter "
                                         "\"{}\" may be a function or hide a size ('^ or '~), "
                                         "and arrays hold non-lifted types only",
                                         e.type.row().str(), *n));
        break;
      case ExprKind::Loop:
        if (functional(e.pattern.type))
          error_at(e.pattern.span, fmt::format("Loop parameter inferred to have type {}, but a "
                                               "loop parameter may not be of function type "
                                               "(functional)",
                                               e.pattern.type.str()));
        irrefutable(e.pattern);
        if (e.loop_form == LoopForm::ForIn) irrefutable(e.pattern2);
        break;
      case ExprKind::Let: irrefutable(e.pattern); break;
      case ExprKind::Lambda:
        for (const Pattern &p : e.params) irrefutable(p);
        break;
      case ExprKind::LetFun:
        for (const TypeParam &p : e.fundef->type_params) type_params_[p.name] = written_kind(p);
        for (const Pattern &p : e.fundef->params) irrefutable(p);
        expr(*e.fundef->body);
        break;
      case ExprKind::IntLit: case ExprKind::FloatLit: literal_fits(e, false); break;
      case ExprKind::Unary:
        if (e.unop == UnOp::Neg &&
            (e.args[0]->kind == ExprKind::IntLit || e.args[0]->kind == ExprKind::FloatLit)) {
          literal_fits(*e.args[0], true);
          return;
        }
        break;
      default: break;
      }
      for (const ExprPtr &a : e.args)
        if (a) expr(*a);
      for (const IndexPart &part : e.indices)
        for (const ExprPtr *x : {&part.index, &part.start, &part.end, &part.stride})
          if (*x) expr(**x);
    }

    // Only a literal without a suffix, whose type inference chose, must fit it (Futhark's
    // "out of bounds for inferred type"); a suffixed one is read modulo its type's width
    // as in Futhark's lexer (255i8 is -1, 1e40f32 is inf).
    static void literal_fits(const Expr &e, bool negated) {
      if (!e.type.is_prim() || e.suffix) return;
      PrimType t = e.type.prim;
      if (e.kind == ExprKind::FloatLit || (e.kind == ExprKind::IntLit && is_float(t))) {
        // A float literal beyond the type's largest finite value (1e40 as an f32).
        double v = e.kind == ExprKind::FloatLit ? e.float_value : double(e.int_value);
        double max = t == PrimType::F32 ? double(std::numeric_limits<float>::max())
                                        : std::numeric_limits<double>::max();
        if (is_float(t) && !(std::fabs(v) <= max))
          error_at(e.span, fmt::format("Literal {}{} out of bounds for type {}", negated ? "-" : "",
                                       e.span.text(), prim_name(t)));
        return;
      }
      if (!is_int(t)) return;
      int w = prim_bits(t);
      // A decimal literal must fit the type's range; a hexadecimal or binary one may be
      // any bit pattern of its width (0xFF as an i8 is -1, as two's complement). A negated
      // literal may reach a signed type's lowest value, and only 0 of an unsigned one.
      std::string_view text = e.span.text();
      bool bits = text.size() > 1 && text[0] == '0' &&
                  (text[1] == 'x' || text[1] == 'X' || text[1] == 'b' || text[1] == 'B');
      uint64_t max = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
      if (!bits && !is_unsigned_int(t)) max >>= 1;
      if (negated && !is_unsigned_int(t)) max = w == 64 ? (uint64_t(1) << 63) : (uint64_t(1) << (w - 1));
      if (negated && is_unsigned_int(t) && !bits) max = 0;
      if (e.int_value > max)
        error_at(e.span, fmt::format("Literal {}{} out of bounds for type {}",
                                     negated ? "-" : "", e.int_value, prim_name(t)));
    }

    void irrefutable(const Pattern &p) {
      std::vector<std::vector<const Pattern *>> rows{{&p}};
      if (std::optional<std::vector<std::string>> m = unmatched(rows, {p.type}))
        error_at(p.span, fmt::format("Refutable pattern not allowed here. Unmatched cases: {}",
                                     (*m)[0]));
    }

    void check_match(const Expr &e) {
      std::vector<std::vector<const Pattern *>> rows;
      for (const Pattern &p : e.params) rows.push_back({&p});
      if (std::optional<std::vector<std::string>> m = unmatched(rows, {e.args[0]->type}))
        error_at(e.span, fmt::format("Unmatched cases in match expression: {}", (*m)[0]));
    }

    // Note [Unmatched patterns]
    // The pattern matrix algorithm (Maranget, "Warnings for pattern matching"): the
    // rows are the cases, the columns the values still to match, of the given types.
    // Returns one unmatched value per column (as pattern text) when the rows do not
    // cover every value, nullopt when they do. Literals of types with infinitely many
    // values (numbers) never cover the type; bools and sums have finitely many
    // constructors; tuples and records are expanded into their components.
    static std::optional<std::vector<std::string>>
    unmatched(const std::vector<std::vector<const Pattern *>> &rows, const std::vector<Type> &types) {
      if (types.empty()) {
        if (rows.empty()) return std::vector<std::string>{};
        return std::nullopt;
      }
      const Type &t = types[0];
      std::vector<Type> rest(types.begin() + 1, types.end());
      auto strip = [](const Pattern *p) { return p; };
      if (t.kind == Type::Tuple || t.kind == Type::Record) {
        size_t k = t.elems.size();
        std::vector<std::vector<const Pattern *>> next;
        for (const auto &row : rows) {
          const Pattern *p = strip(row[0]);
          std::vector<const Pattern *> r;
          if (p->kind == Pattern::Tuple && p->elems.size() == k) {
            for (const Pattern &e : p->elems) r.push_back(&e);
          } else if (p->kind == Pattern::Record) {
            for (size_t i = 0; i < k; i++) {
              const Pattern *sub = &wildcard();
              for (size_t j = 0; j < p->fields.size(); j++)
                if (p->fields[j] == t.names[i]) sub = &p->elems[j];
              r.push_back(sub);
            }
          } else {
            r.assign(k, &wildcard());
          }
          r.insert(r.end(), row.begin() + 1, row.end());
          next.push_back(std::move(r));
        }
        std::vector<Type> ts = t.elems;
        ts.insert(ts.end(), rest.begin(), rest.end());
        std::optional<std::vector<std::string>> m = unmatched(next, ts);
        if (!m) return std::nullopt;
        std::string s = t.kind == Type::Tuple ? "(" : "{";
        for (size_t i = 0; i < k; i++) {
          if (i > 0) s += ", ";
          if (t.kind == Type::Record) s += t.names[i] + " = ";
          s += (*m)[i];
        }
        s += t.kind == Type::Tuple ? ")" : "}";
        std::vector<std::string> out{s};
        out.insert(out.end(), m->begin() + long(k), m->end());
        return out;
      }
      // The constructors of a finite type, with their payload types.
      std::vector<std::pair<std::string, std::vector<Type>>> constructors;
      bool finite = false;
      if (t.kind == Type::Sum) {
        finite = true;
        for (size_t i = 0; i < t.names.size(); i++) constructors.push_back({t.names[i], t.payloads[i]});
      } else if (t.is_prim(PrimType::Bool)) {
        finite = true;
        constructors = {{"false", {}}, {"true", {}}};
      }
      if (finite) {
        for (const auto &[name, payload] : constructors) {
          std::vector<std::vector<const Pattern *>> next;
          for (const auto &row : rows) {
            const Pattern *p = row[0];
            std::vector<const Pattern *> r;
            if (p->kind == Pattern::Constr) {
              if (p->name != name) continue;
              for (const Pattern &e : p->elems) r.push_back(&e);
            } else if (p->kind == Pattern::Literal) {
              if (!p->literal || p->literal->kind != ExprKind::BoolLit ||
                  (p->literal->bool_value ? "true" : "false") != name)
                continue;
            } else {
              r.assign(payload.size(), &wildcard());
            }
            r.insert(r.end(), row.begin() + 1, row.end());
            next.push_back(std::move(r));
          }
          std::vector<Type> ts = payload;
          ts.insert(ts.end(), rest.begin(), rest.end());
          std::optional<std::vector<std::string>> m = unmatched(next, ts);
          if (!m) continue;
          std::string s = t.kind == Type::Sum ? "#" + name : name;
          for (size_t i = 0; i < payload.size(); i++) s += " " + (*m)[i];
          if (!payload.empty()) s = "(" + s + ")";
          std::vector<std::string> out{s};
          out.insert(out.end(), m->begin() + long(payload.size()), m->end());
          return out;
        }
        return std::nullopt;
      }
      // Infinitely many values: only the rows that match anything here can cover.
      std::vector<std::vector<const Pattern *>> next;
      for (const auto &row : rows) {
        const Pattern *p = row[0];
        if (p->kind != Pattern::Id && p->kind != Pattern::Wildcard) continue;
        next.push_back(std::vector<const Pattern *>(row.begin() + 1, row.end()));
      }
      std::optional<std::vector<std::string>> m = unmatched(next, rest);
      if (!m) return std::nullopt;
      std::vector<std::string> out{"_"};
      out.insert(out.end(), m->begin(), m->end());
      return out;
    }

    static const Pattern &wildcard() {
      static const Pattern w = [] {
        Pattern p;
        p.kind = Pattern::Wildcard;
        return p;
      }();
      return w;
    }
  };
};

} // namespace

void infer_types(Program &program) { Inferrer(program).run(); }

} // namespace kerb
