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
//     its type parameters);
//   - `equality`: compared with == or !=. A local function does not generalise such a
//     variable (Futhark closes over unconstrained variables only): in
//     `let f x = x != x in map f xs` the use decides x's type.
// Arrays unify rank-polymorphically: [n]a unifies with [n][m]i32 by binding a to [m]i32.
// Sizes unify as Futhark's do (Note [Size unification] and the Notes after it).
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
#include "compiler/types/size_terms.h"

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
  bool equality = false;         // compared with == or != (see the top of the file)
  bool absorbs = false;          // may be solved with a type with existential sizes
  std::map<std::string, Type> fields;
  std::map<std::string, std::vector<Type>> constrs;
  int level = 0;
  int depth = 0;                 // the binding depth it was made at (see Note [Size scopes])
  Span origin;
};

// A name in the local scope: a variable (with its type) or a local function, or one of
// the checker's own unknown sizes (!N, see size_terms.h).
struct Binding {
  std::string name;
  Type type;
  FunDef *fun = nullptr;
  int depth = 0; // the binding depth of its scope (see Note [Size scopes])
};

// A size variable (?N): a size not decided yet, such as a size parameter of a function
// at a call, solved by unification.
struct SizeVar {
  std::optional<Dim> bound;
  int depth = 0;     // it may only be solved with names bound at this depth or outside
  std::string name;  // for messages: the size parameter it stands for, or ""
  Span origin;
  bool loop = false; // the size of a loop parameter while the loop body is checked
};

// A function's type as its uses instantiate it: the size parameters (the written ones,
// and those inference found, as for [] in its parameters' types) and the
// function type with the parameters' names (`(n: i64) -> [n]i32`). A !N name of the
// type that is not a size parameter is an existential size of the result.
struct Scheme {
  std::vector<std::string> sizes;
  std::vector<std::string> existentials;
  // The written size parameters no parameter has as a whole size: passed explicitly
  // (see Note [Sizes given by the context]).
  std::vector<std::string> explicit_sizes;
  Type type;
};

// What check_function learned that the function's scheme needs.
struct FunInfo {
  int depth = 0; // the depth the function is defined at
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
  std::vector<int> tparam_depths_;  // ... the depths they are bound at (Note [Size scopes])
  int level_ = 0;
  int next_param_name_ = 0;
  // Why the last failed unification failed, in Futhark's words (the innermost reason),
  // for the messages: see why().
  std::string mismatch_;
  int unify_depth_ = 0;
  bool any_entry_ = false;

  // Sizes (see Note [Size unification]).
  std::vector<SizeVar> svars_;                     // ?N is svars_[N]
  std::map<std::string, std::string> rigid_notes_; // !N: what it is, for the messages
  std::map<std::string, const Expr *> producer_of_; // !N: what computes it (causality)
  int next_rigid_ = 0;
  int next_param_ = 0;                             // #N
  int depth_ = 0;                                  // see Note [Size scopes]
  std::map<const FunDef *, Scheme> schemes_;
  // The names function types give their parameters (#N) while unification is inside
  // the result of such a type: a size variable may not be solved with them.
  std::vector<std::string> bound_names_;
  std::map<std::string, std::string> param_names_; // #N: the parameter's name as written
  // The size variables of the sizes a `let [n]` binds, while its pattern is checked.
  std::map<std::string, Dim> *let_sizes_ = nullptr;
  std::vector<std::string> let_sizes_in_value_; // the sizes of lets whose value is checked
  // Set while the branches of an if or match are unified: sizes that differ are not an
  // error (the result has a size of its own there); see unify_branches.
  bool branch_mode_ = false;
  // Uses of functions whose size parameters are passed explicitly (see Note [Sizes
  // given by the context]), and unflatten/split calls whose sizes the context gives:
  // made explicit when the definition is finished.
  struct PendingSizes {
    Expr *use;                         // the Var or Apply
    std::vector<Dim> sizes;            // what the sizes are (size variables)
    std::vector<Binding> scope;        // the locals at the use
    std::string fun;                   // for messages: the function
    std::vector<std::string> names;    // and its size parameters ("" for a built-in's)
  };
  std::vector<PendingSizes> pending_sizes_;
  std::vector<FunDef *> explicit_defs_; // local functions with explicit size parameters

  // ---------------------------------------------------------------------------
  // Type variables and unification

  Type fresh(const Span &origin) {
    VarInfo v;
    v.level = level_;
    v.depth = depth_;
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
  // function-free when `no_function` and compared for equality when `equality`.
  void propagate(const Type &t, int level, bool no_function, bool equality = false) {
    Type n = norm(t);
    if (n.kind == Type::TypeVar) {
      VarInfo &v = vars_[size_t(root(n.var))];
      v.level = std::min(v.level, level);
      v.no_function = v.no_function || no_function;
      v.equality = v.equality || equality;
      return;
    }
    for_each_child(n, [&](Type &c) { propagate(c, level, no_function, equality); });
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
    propagate(t, info.level, info.no_function, info.equality);
    std::optional<Type> fit = scope_fit(t, info.depth, v);
    if (!fit) return false;
    Type b = *fit;
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
    m.equality = va.equality || vb.equality;
    vars_[size_t(a)].absorbs = va.absorbs && vb.absorbs;
    m.level = std::min(va.level, vb.level);
    vars_[size_t(a)].depth = std::min(va.depth, vb.depth);
    vars_[size_t(b)].link = a;
    vars_[size_t(a)].prim_only = m.prim_only;
    vars_[size_t(a)].mask = m.mask;
    vars_[size_t(a)].prefer_i64 = m.prefer_i64;
    vars_[size_t(a)].no_function = m.no_function;
    vars_[size_t(a)].equality = m.equality;
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
    case Type::SizeArg: return unify_dims(a.dims[0], b.dims[0]);
    case Type::Function: return unify_functions(a, b);
    case Type::Tuple: case Type::Record:
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
      size_t r = std::min(ra, rb);
      for (size_t i = 0; i < r; i++)
        if (!unify_dims(a.dims[i], b.dims[i])) return false;
      if (ra == rb) return unify(a.elems[0], b.elems[0]);
      // Rank-polymorphic: the shorter one's element is an array of the rest.
      const Type &shorter = ra < rb ? a : b;
      const Type &longer = ra < rb ? b : a;
      std::vector<Dim> rest(longer.dims.begin() + long(r), longer.dims.end());
      return unify(shorter.elems[0], Type::array(longer.elems[0], rest));
    }
    case Type::TypeVar: break;
    }
    return false;
  }

  // Function types: the parameters, then the results. A function type may name its
  // parameter (`(n: i64) -> [n]i32`): with both named, the second's name becomes the
  // first's; a name is bound in the result, so no variable from outside may be solved
  // with it (`map` cannot take a function whose result's size is its argument).
  bool unify_functions(const Type &a, const Type &b) {
    if (!unify(a.elems[0], b.elems[0])) return false;
    Type rb = b.elems[1];
    if (!a.name.empty() && !b.name.empty() && a.name != b.name)
      rb = replace_size_name(rb, b.name, SizeTerm::name(a.name));
    std::string bound = a.name.empty() ? b.name : a.name;
    if (!bound.empty()) bound_names_.push_back(bound);
    bool ok = unify(a.elems[1], rb);
    if (!bound.empty()) bound_names_.pop_back();
    return ok;
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
  // Sizes
  //
  // Note [Size unification]
  // Sizes unify as in Futhark: two sizes are the same when they are the same expression
  // (`n * m` is not `m * n`), or when one is a size variable (?N), which is then solved.
  // A size variable stands for a size not decided yet: a size parameter of a function
  // at a use (also the implicit one of `[]` in a parameter's type), a `[]` in a type
  // ascription, the size of a loop parameter while its loop is checked. Everything else
  // is rigid: the size parameters and `[]` of the function being checked, the names and
  // expressions in scope, and the checker's own unknown sizes (!N, size_terms.h), made
  // for the result of a function whose result type has `[]` or `?[n].` (an existential:
  // a fresh one at every use), for branches of an if or match whose sizes differ, for a
  // loop parameter whose size the loop changes, for a slice or range whose size is not
  // a simple expression, and for a size that names a variable going out of scope.
  // A size that is not known at all (Dim::Unknown) unifies with anything: Kerb makes it
  // where it does not follow Futhark's rules, so that what Futhark accepts is accepted.

  void bind_local(std::string name, Type t, FunDef *fun = nullptr) {
    locals_.push_back(Binding{std::move(name), std::move(t), fun, depth_});
  }

  static size_t var_index(const std::string &n) { return size_t(std::stoul(n.substr(1))); }
  static bool is_size_var(const SizeTerm &t) { return t.kind == SizeTerm::Name && t.text[0] == '?'; }

  Dim fresh_size(const Span &origin, std::string name = "") {
    SizeVar v;
    v.depth = depth_;
    v.name = std::move(name);
    v.origin = origin;
    svars_.push_back(std::move(v));
    return Dim::var("?" + std::to_string(svars_.size() - 1));
  }

  // A size of its own, equal only to itself, in scope from here; `note` says what it is
  // (Futhark's words: "is unknown size returned by "f" at 3:5.").
  // `producer`: the expression whose evaluation computes the size (the causality check).
  Dim fresh_rigid(std::string note, const Expr *producer = nullptr) {
    std::string n = "!" + std::to_string(next_rigid_++);
    rigid_notes_[n] = std::move(note);
    if (producer) producer_of_[n] = producer;
    bind_local(n, Type::prim_type(PrimType::I64));
    return Dim::var(n);
  }

  std::string here(const Span &s) const {
    if (!s.valid()) return "";
    return " at " + s.place();
  }

  // A term with its solved size variables replaced.
  SizeTerm resolve_term(const SizeTerm &t, bool &unknown) {
    return substitute_size_names(t, [&](const std::string &n) -> std::optional<SizeTerm> {
      if (n[0] != '?') return std::nullopt;
      SizeVar &v = svars_[var_index(n)];
      if (!v.bound) return std::nullopt;
      Dim b = resolve_dim(*v.bound);
      svars_[var_index(n)].bound = b;
      if (b.kind == Dim::Unknown) {
        unknown = true;
        return std::nullopt;
      }
      return term_of_dim(b);
    });
  }

  // `d` with its solved size variables replaced, in canonical form.
  Dim resolve_dim(const Dim &d) {
    if (d.kind != Dim::Var || d.name.find('?') == std::string::npos) return d;
    bool unknown = false;
    SizeTerm r = resolve_term(term_of_dim(d), unknown);
    if (unknown) return Dim::unknown();
    return dim_of_term(r);
  }

  static bool same_dim(const Dim &a, const Dim &b) {
    if (a.kind != b.kind) return false;
    if (a.kind == Dim::Const) return a.value == b.value;
    return a.kind == Dim::Unknown || a.name == b.name;
  }

  // `t` (its variables resolved) with every size mapped by `f`.
  Type map_dims(const Type &t, const std::function<Dim(const Dim &)> &f) {
    Type n = deep(t);
    map_dims_in(n, f);
    return n;
  }

  static void map_dims_in(Type &t, const std::function<Dim(const Dim &)> &f) {
    for (Dim &d : t.dims) d = f(d);
    for_each_child(t, [&](Type &c) { map_dims_in(c, f); });
  }

  static bool term_mentions(const SizeTerm &t, const std::string &name) {
    bool found = false;
    for_each_size_name(t, [&](const std::string &n) { found = found || n == name; });
    return found;
  }

  // `t` with size name `from` replaced by `to` in its sizes.
  Type replace_size_name(const Type &t, const std::string &from, const SizeTerm &to) {
    return map_dims(t, [&](const Dim &d) {
      if (d.kind != Dim::Var || d.name.find(from) == std::string::npos) return d;
      SizeTerm term = term_of_dim(d);
      if (!term_mentions(term, from)) return d;
      return dim_of_term(substitute_size_names(term, [&](const std::string &n) {
        return n == from ? std::optional<SizeTerm>(to) : std::nullopt;
      }));
    });
  }

  // A size for messages: size variables solved (s_N when they are not), the checker's
  // own sizes as d_N, parameter names as written.
  std::string show_dim(const Dim &d0) {
    Dim d = resolve_dim(d0);
    if (d.kind != Dim::Var) return d.str();
    SizeTerm t = substitute_size_names(term_of_dim(d), [&](const std::string &n) -> std::optional<SizeTerm> {
      if (n[0] == '?') return SizeTerm::name("s_" + n.substr(1));
      if (n[0] == '!') return SizeTerm::name("d_" + n.substr(1));
      if (n[0] == '#') {
        auto it = param_names_.find(n);
        return SizeTerm::name(it == param_names_.end() ? "x" : it->second);
      }
      return std::nullopt;
    });
    return print_size_term(t);
  }

  // What the checker's own sizes in `d` are (Futhark's notes on a size mismatch).
  std::string size_notes(const Dim &d0) {
    Dim d = resolve_dim(d0);
    if (d.kind != Dim::Var) return "";
    std::string out;
    for_each_size_name(term_of_dim(d), [&](const std::string &n) {
      auto it = rigid_notes_.find(n);
      if (it != rigid_notes_.end() && !it->second.empty())
        out += fmt::format("; \"d_{}\" {}", n.substr(1), it->second);
    });
    return out;
  }

  std::string size_mismatch(const Dim &a, const Dim &b) {
    return fmt::format("Sizes \"{}\" and \"{}\" do not match{}{}", show_dim(a), show_dim(b),
                       size_notes(a), size_notes(b));
  }

  // The depth of the scope a local name belongs to, or -1 for a name of no local scope
  // (a top-level definition).
  int name_depth(const std::string &n) const {
    for (size_t i = locals_.size(); i-- > 0;)
      if (locals_[i].name == n) return locals_[i].depth;
    return -1;
  }

  // Note [Size scopes]
  // Every binding construct (a function's and a lambda's parameters, one depth each; the
  // pattern of a let, a loop, a case) binds its names one depth deeper than the scope
  // it is in, and the size variables and type variables made there have that depth. A
  // variable may only be solved with sizes whose names are bound at its depth or outside
  // (Futhark's levels): `def f xs n = zip xs (iota n)` would make the size of xs depend
  // on a later parameter (a scope violation). Solving a variable with a type or size
  // lowers the depth of the variables in it to its own.

  // Checks that the names of size `t` are in scope for a variable of depth `depth`, and
  // lowers the depth of the size variables in it; "" or why not.
  std::string scope_check(const SizeTerm &t, int depth) {
    std::string bad;
    for_each_size_name(t, [&](const std::string &n) {
      if (n[0] == '?') {
        SizeVar &v = svars_[var_index(n)];
        v.depth = std::min(v.depth, depth);
        return;
      }
      if (std::find(bound_names_.begin(), bound_names_.end(), n) != bound_names_.end() ||
          name_depth(n) > depth)
        if (bad.empty()) bad = n;
    });
    return bad;
  }

  std::string scope_violation(const std::string &what, const SizeTerm &to, const std::string &bad) {
    return fmt::format("Cannot link size \"{}\" to \"{}\" (scope violation): \"{}\" is not in "
                       "scope when \"{}\" is introduced{}. For more information, see "
                       "https://futhark-lang.org/error-index.html#scope-violation",
                       what, show_dim(dim_of_term(to)), show_dim(Dim::var(bad)), what,
                       size_notes(Dim::var(bad)));
  }

  // Solves size variable `v` (unsolved) with `t`.
  bool bind_size(const std::string &v, const SizeTerm &t) {
    if (term_mentions(t, v))
      return fail(fmt::format("Occurs check: cannot instantiate \"{}\" with \"{}\"",
                              show_dim(Dim::var(v)), show_dim(dim_of_term(t))));
    SizeVar info = svars_[var_index(v)];
    std::string bad = scope_check(t, info.depth);
    if (!bad.empty()) {
      if (info.loop && bad[0] == '!')
        return fail(fmt::format("the size of a loop parameter would be \"{}\", which is an "
                                "unknown size created inside the loop body{}",
                                show_dim(Dim::var(bad)), size_notes(Dim::var(bad))));
      return fail(scope_violation(show_dim(Dim::var(v)), t, bad));
    }
    svars_[var_index(v)].bound = dim_of_term(t);
    return true;
  }

  bool unify_terms(const SizeTerm &a0, const SizeTerm &b0) {
    bool unknown = false;
    SizeTerm a = resolve_term(a0, unknown), b = resolve_term(b0, unknown);
    if (unknown || same_size_term(a, b)) return true;
    if (is_size_var(a)) return bind_size(a.text, b);
    if (is_size_var(b)) return bind_size(b.text, a);
    if (a.kind == b.kind && (a.kind == SizeTerm::Op || a.kind == SizeTerm::Apply) &&
        a.text == b.text && a.args.size() == b.args.size()) {
      for (size_t i = 0; i < a.args.size(); i++)
        if (!unify_terms(a.args[i], b.args[i])) return false;
      return true;
    }
    return false;
  }

  // Makes two sizes the same (see Note [Size unification]).
  bool unify_dims(const Dim &a0, const Dim &b0) {
    Dim a = resolve_dim(a0), b = resolve_dim(b0);
    if (a.kind == Dim::Unknown || b.kind == Dim::Unknown || same_dim(a, b)) return true;
    std::string saved = mismatch_;
    if (unify_terms(term_of_dim(a), term_of_dim(b))) return true;
    if (branch_mode_) {
      mismatch_ = saved;
      return true;
    }
    if (mismatch_ != saved) return false; // an occurs check or a scope violation said why
    return fail(size_mismatch(a, b));
  }

  // The type a type variable of depth `depth` is solved with: its sizes may only name
  // what is in scope for the variable (see Note [Size scopes]); lowers the depths of the
  // variables in it. A name that a function type binds (its parameter's, while
  // unification is inside that function type's result) is an existential size for a
  // variable that may hide sizes (the instantiation of a '~ or '^ type parameter:
  // `apply iota n` with `apply 'a '^b (f: a -> b)`): a size of its own, which must also
  // be the size of a value where it is the size of a function's parameter (Futhark's
  // "existential size would appear in function parameter"). nullopt when the type
  // cannot be the variable's, and why() says why.
  std::optional<Type> scope_fit(const Type &t0, int depth, int var) {
    Type t = deep(t0);
    bool ok = true, absorbs = vars_[size_t(var)].absorbs;
    std::map<std::string, Dim> existential; // a bound name -> its existential size
    std::set<std::string> immediate, in_params;
    std::function<void(Type &, bool)> go = [&](Type &x, bool in_param) {
      if (x.kind == Type::TypeVar) {
        VarInfo &v = vars_[size_t(root(x.var))];
        v.depth = std::min(v.depth, depth);
        return;
      }
      if (x.kind == Type::Named && x.elems.empty() && ok)
        for (size_t i = tparams_.size(); i-- > 0;)
          if (tparams_[i].name == x.name) {
            if (tparam_depths_[i] > depth) {
              ok = false;
              fail(fmt::format("Cannot unify type variable \"{}\" with type parameter \"{}\" "
                               "(scope violation): \"{}\" is not in scope there. For more "
                               "information, see "
                               "https://futhark-lang.org/error-index.html#scope-violation",
                               show(Type::type_var(var)), x.name, x.name));
            }
            break;
          }
      for (Dim &d : x.dims) {
        if (!ok || d.kind != Dim::Var) continue;
        SizeTerm term = term_of_dim(d);
        std::string bad = scope_check(term, depth);
        if (bad.empty()) continue;
        bool bound = std::find(bound_names_.begin(), bound_names_.end(), bad) != bound_names_.end();
        if (bound && absorbs) {
          auto it = existential.find(d.name);
          if (it == existential.end())
            it = existential.emplace(d.name, fresh_rigid("is an existential size of the function's result")).first;
          (in_param ? in_params : immediate).insert(d.name);
          d = it->second;
          continue;
        }
        ok = false;
        if (bound)
          fail(fmt::format("Cannot instantiate type variable \"{}\" with type {}: it would have the "
                           "existential size \"{}\". This is because a type parameter would be "
                           "instantiated with a type containing anonymous sizes (it must be '~ or "
                           "'^ to allow it)",
                           show(Type::type_var(var)), show(x), show_dim(d)));
        else
          fail(fmt::format("Cannot unify type variable \"{}\" with type containing size \"{}\" "
                           "(scope violation): \"{}\" is not in scope there. For more "
                           "information, see "
                           "https://futhark-lang.org/error-index.html#scope-violation",
                           show(Type::type_var(var)), show_dim(d), show_dim(Dim::var(bad))));
      }
      if (x.kind == Type::Function) {
        go(x.elems[0], true);
        go(x.elems[1], in_param);
        return;
      }
      for_each_child(x, [&](Type &e) { go(e, in_param); });
    };
    go(t, false);
    if (!ok) return std::nullopt;
    for (const std::string &n : in_params)
      if (!immediate.count(n)) {
        fail(fmt::format("Existential size would appear in function parameter of return type: {}. "
                         "This is usually because a higher-order function is used with functional "
                         "arguments that return existential sizes or locally named sizes, which are "
                         "then used as parameters of other function arguments",
                         show(t)));
        return std::nullopt;
      }
    return t;
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
      // The checker's own sizes show as `[]` (the "Sizes" sentences name them), a size
      // expression with them by their names.
      for (Dim &d : n.dims) {
        Dim r = resolve_dim(d);
        if (r.kind == Dim::Var && is_internal_size_name(r.name) &&
            term_of_dim(r).kind == SizeTerm::Name)
          d = Dim::unknown();
        else d = r.kind == Dim::Var ? Dim::var(show_dim(r)) : r;
      }
      if (n.kind == Type::Function && !n.name.empty() && n.name[0] == '#') {
        auto it = param_names_.find(n.name);
        n.name = it == param_names_.end() ? "" : it->second;
      }
      if (n.kind == Type::Array && n.elems[0].kind == Type::Array) n = Type::array(n.elems[0], n.dims);
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
    std::vector<int> saved_depths = tparam_depths_;
    for (const TypeParam &p : d.type_params) {
      tparams_.push_back(p);
      tparam_depths_.push_back(depth_);
    }
    d.definition = resolve_type(d.definition, d.span);
    tparams_ = saved;
    tparam_depths_ = saved_depths;
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
          // `square []` is one anonymous size wherever the abbreviation has it (@N, which
          // fill_anonymous makes one size).
          sizes[d.size_params[si++]] = arg.dims[0].kind == Dim::Unknown
                                           ? Dim::var("@" + std::to_string(next_param_++))
                                           : arg.dims[0];
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
      if (out.kind == Type::Function && !out.name.empty() && out.name[0] != '#')
        out = rename_parameter(out);
      return out;
    }
    }
  }

  // A function type's parameter name (`(n: i64) -> [n]i32`) as a name of its own (#N),
  // so that it is never taken for a variable of the same name in scope.
  Type rename_parameter(const Type &f) {
    std::string k = "#" + std::to_string(next_param_++);
    auto it = param_names_.find(f.name);
    param_names_[k] = it == param_names_.end() ? f.name : it->second;
    Type out = f;
    out.elems[1] = replace_size_name(f.elems[1], f.name, SizeTerm::name(k));
    out.name = k;
    return out;
  }

  // `t` with every function type's parameter name made fresh (an instantiation).
  Type fresh_parameter_names(const Type &t) {
    Type out = t;
    for_each_child(out, [&](Type &c) { c = fresh_parameter_names(c); });
    if (out.kind == Type::Function && !out.name.empty()) out = rename_parameter(out);
    return out;
  }

  // `t` as written, with its anonymous sizes (`[]`) size variables: what the value has
  // (an ascription, a let, a lambda's parameter), or in a function's parameter what the
  // function's body makes it (`map2 f xs ys` makes xs and ys of the same size; it is a
  // size parameter of the function when nothing does), or in its declared result what
  // the body has (an existential where that is an unknown size). The result of a
  // function type inside `t` keeps its `[]`: an existential of that function, unknown.
  Type fill_anonymous(const Type &t, const Span &span) {
    std::map<std::string, Dim> shared;
    return fill_anonymous(t, span, shared, false);
  }

  Type fill_anonymous(const Type &t, const Span &span, std::map<std::string, Dim> &shared,
                      bool in_result) {
    Type out = t;
    for (Dim &d : out.dims) {
      if (d.kind == Dim::Var && d.name[0] == '@') { // one size wherever it is
        auto it = shared.find(d.name);
        if (it == shared.end())
          it = shared.emplace(d.name, in_result ? Dim::unknown() : fresh_size(span)).first;
        d = it->second;
      } else if (d.kind == Dim::Unknown && !in_result) {
        d = fresh_size(span);
      }
    }
    if (out.kind == Type::Function) {
      // The parameters of a curried function type are parameters; its final result is
      // the result.
      out.elems[0] = fill_anonymous(out.elems[0], span, shared, in_result);
      out.elems[1] = out.elems[1].kind == Type::Function
                         ? fill_anonymous(out.elems[1], span, shared, in_result)
                         : fill_anonymous(out.elems[1], span, shared, true);
      return out;
    }
    for_each_child(out, [&](Type &c) { c = fill_anonymous(c, span, shared, in_result); });
    return out;
  }

  // `t` with the size names in `sizes` replaced (a type abbreviation's size parameters).
  static void substitute_dims(Type &t, const std::map<std::string, Dim> &sizes) {
    if (sizes.empty()) return;
    for (Dim &d : t.dims) {
      if (d.kind != Dim::Var) continue;
      auto it = sizes.find(d.name);
      if (it != sizes.end()) {
        d = it->second;
        continue;
      }
      bool unknown = false;
      SizeTerm r = substitute_size_names(term_of_dim(d), [&](const std::string &n) -> std::optional<SizeTerm> {
        auto k = sizes.find(n);
        if (k == sizes.end()) return std::nullopt;
        if (k->second.kind == Dim::Unknown) {
          unknown = true;
          return std::nullopt;
        }
        return term_of_dim(k->second);
      });
      d = unknown ? Dim::unknown() : dim_of_term(r);
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
    if (std::find(let_sizes_in_value_.begin(), let_sizes_in_value_.end(), name) !=
        let_sizes_in_value_.end())
      error_at(span, fmt::format("Unknown name \"{}\": the sizes a let binds are not in scope "
                                 "in the value it binds",
                                 name));
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
      else vars_[size_t(v.var)].absorbs = true;
      subst[p.name] = v;
      use.type_args.push_back(v);
    }
    auto it = schemes_.find(&f);
    if (it == schemes_.end()) return substitute_named(function_type(f), subst);
    const Scheme &s = it->second;
    std::map<std::string, SizeTerm> sizes;
    for (const std::string &n : s.sizes)
      sizes[n] = term_of_dim(fresh_size(use.span, n[0] == '!' ? "" : n));
    for (const std::string &n : s.existentials)
      sizes[n] = term_of_dim(fresh_rigid(
          fmt::format("is unknown size returned by \"{}\"{}", f.name, here(use.span)), &use));
    if (!s.explicit_sizes.empty()) {
      PendingSizes p{&use, {}, locals_, f.name, s.explicit_sizes};
      for (const std::string &n : s.explicit_sizes) p.sizes.push_back(dim_of_term(sizes[n]));
      pending_sizes_.push_back(std::move(p));
    }
    Type t = map_dims(s.type, [&](const Dim &d) {
      if (d.kind != Dim::Var) return d;
      return dim_of_term(substitute_size_names(term_of_dim(d), [&](const std::string &n) -> std::optional<SizeTerm> {
        auto k = sizes.find(n);
        if (k == sizes.end()) return std::nullopt;
        return k->second;
      }));
    });
    return substitute_named(fresh_parameter_names(t), subst);
  }

  // A built-in's signature with fresh variables for its named types and sizes: a size
  // named in the signature is a size variable, `[]` in a parameter too, and `[]` in the
  // result an existential.
  Type instantiate_builtin(const Type &sig0, const std::string &name, const Span &span,
                          const Expr *use) {
    Type sig = fresh_parameter_names(sig0);
    std::map<std::string, SizeTerm> sizes;
    auto size_of = [&](const Dim &d, bool result) -> Dim {
      if (d.kind == Dim::Unknown)
        return result ? fresh_rigid(fmt::format("is unknown size returned by \"{}\"{}", name, here(span)), use)
                      : fresh_size(span);
      if (d.kind != Dim::Var) return d;
      return dim_of_term(substitute_size_names(term_of_dim(d), [&](const std::string &n) -> std::optional<SizeTerm> {
        if (n[0] == '#') return std::nullopt;
        auto k = sizes.find(n);
        if (k == sizes.end()) k = sizes.emplace(n, term_of_dim(fresh_size(span, n))).first;
        return k->second;
      }));
    };
    std::function<Type(const Type &)> go = [&](const Type &t) -> Type {
      if (t.kind != Type::Function) {
        Type r = t;
        map_dims_in(r, [&](const Dim &d) { return size_of(d, true); });
        return r;
      }
      Type out = t;
      map_dims_in(out.elems[0], [&](const Dim &d) { return size_of(d, false); });
      out.elems[1] = go(t.elems[1]);
      return out;
    };
    sig = go(sig);
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
      return instantiate_builtin(*pick, e.name, e.span, &e);
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
    tparam_depths_.clear();
    svars_.clear();
    next_rigid_ = 0; // the checker's sizes are numbered per definition (schemes rename theirs)
    producer_of_.clear();
    pending_sizes_.clear();
    explicit_defs_.clear();
    level_ = 1;
    depth_ = 0;
    FunInfo info = check_function(f);
    // A definition with type parameters of its own is polymorphic as written: Futhark
    // instantiates it to match the specification, which the module's use then sees;
    // Kerb keeps it (and checks its uses) as it is.
    if (f.type_params.empty())
      for (const FunDef::Specified &spec : f.specified) check_specified(f, spec);
    // Unconstrained variables of the signature become type parameters.
    generalise(f, 0);
    Scheme &s = schemes_[&f] = make_scheme(f, info, true);
    bool is_entry = f.is_entry || (!any_entry_ && f.name == "main" && !f.from_prelude);
    if (!s.explicit_sizes.empty() && !is_entry) explicit_defs_.push_back(&f);
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
    std::vector<int> saved_depths = tparam_depths_;
    for (const TypeParam &p : spec.type_params) {
      tparams_.push_back(p);
      tparam_depths_.push_back(depth_);
    }
    Type t = resolve_type(spec.type, spec.span);
    tparams_ = saved;
    tparam_depths_ = saved_depths;
    std::map<std::string, Type> subst;
    for (const TypeParam &p : spec.type_params) {
      Type v = fresh(spec.span);
      if (p.kind == TypeParam::Plain) vars_[size_t(v.var)].no_function = true;
      subst[p.name] = v;
    }
    // The parameters' sizes fresh size variables, the result's unknown: f's type must
    // not take an anonymous size from the specification (an existential of its result
    // where f's body gives a known size). The variables are f's own, as its parameters'
    // sizes are (one depth in), so that make_scheme generalises those left unsolved.
    depth_++;
    Type want = fill_anonymous(erase_dims(substitute_named(t, subst)), spec.span);
    depth_--;
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
  FunInfo check_function(FunDef &f) {
    if (f.name == "&&" || f.name == "||")
      error_at(f.name_span, fmt::format("'{}' may not be redefined: it is built in, and "
                                        "evaluates its right operand only when needed",
                                        f.name));
    FunInfo info;
    info.depth = depth_;
    size_t mark = scope_mark();
    size_t tmark = tparams_.size();
    std::set<std::string> seen_params;
    for (const TypeParam &p : f.type_params) {
      if (!seen_params.insert(p.name).second)
        error_at(p.span, fmt::format("Type parameter '{}' also bound in another parameter of '{}' "
                                     "(duplicate type parameter)",
                                     p.name, f.name));
      tparams_.push_back(p);
      tparam_depths_.push_back(depth_ + 1);
    }
    depth_++;
    for (const std::string &n : f.size_params) {
      if (!seen_params.insert(n).second)
        error_at(f.name_span, fmt::format("Size parameter [{}] also bound in another parameter of "
                                          "'{}' (duplicate size parameter)",
                                          n, f.name));
      bind_local(n, Type::prim_type(PrimType::I64));
    }
    std::set<std::string> names(f.size_params.begin(), f.size_params.end());
    // The parameters one depth each (a parameter's sizes may name the ones before it).
    for (Pattern &p : f.params) {
      check_duplicate_names(p, names, f.name);
      depth_++;
      Type t = fresh(p.span);
      bind_pattern(p, t);
    }
    depth_++; // the body: what it binds is not in scope for the parameters' sizes
    Type body = infer(*f.body);
    // The result may name the size parameters and the parameters themselves; other
    // names bound here are unknown sizes of the result (existentials).
    std::set<std::string> keep(f.size_params.begin(), f.size_params.end());
    for (const Pattern &p : f.params)
      if (p.kind == Pattern::Id) keep.insert(p.name);
    std::set<std::string> gone = names_since(mark);
    for (const std::string &n : keep) gone.erase(n);
    body = unscope(body, gone, f.body->span);
    if (f.ret_annotation) {
      *f.ret_annotation = resolve_type(*f.ret_annotation, f.name_span);
      size_names_are_i64(*f.ret_annotation, f.name_span);
      check_hidden_names(f, *f.ret_annotation);
      // `[]` (and `?[n].`) in the declared result: what the body has, as in Futhark;
      // an existential where that is an unknown size (make_scheme).
      Type want = fill_anonymous(*f.ret_annotation, f.name_span);
      if (!unify(want, body))
        error_at(f.body->span, fmt::format("Function body does not have expected type: the body "
                                           "of '{}' has type {}, but its declared return type is "
                                           "{}{}",
                                           f.name, show(body), show(*f.ret_annotation), why()));
      f.ret_type = want;
    } else {
      f.ret_type = body;
    }
    pop_scope(mark);
    depth_ = info.depth;
    tparams_.resize(tmark);
    tparam_depths_.resize(tmark);
    return info;
  }

  // The declared result may not name what a parameter binds inside a tuple or record:
  // a caller does not see it.
  void check_hidden_names(const FunDef &f, const Type &ret) {
    std::set<std::string> hidden;
    std::function<void(const Pattern &, bool)> collect = [&](const Pattern &p, bool inner) {
      if (p.kind == Pattern::Id && inner) hidden.insert(p.name);
      for (const Pattern &e : p.elems) collect(e, true);
    };
    for (const Pattern &p : f.params) collect(p, false);
    if (hidden.empty()) return;
    std::string bad;
    std::function<void(const Type &)> go = [&](const Type &t) {
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var && bad.empty())
          for_each_size_name(term_of_dim(d), [&](const std::string &n) {
            if (bad.empty() && hidden.count(n)) bad = n;
          });
      for (const Type &e : t.elems) go(e);
    };
    go(ret);
    if (!bad.empty())
      error_at(f.name_span, fmt::format("The return type annotation {} refers to the name \"{}\" "
                                        "which is bound to an inner component of a function "
                                        "parameter.",
                                        ret.str(), bad));
  }

  // The names bound since scope mark `mark`.
  std::set<std::string> names_since(size_t mark) const {
    std::set<std::string> out;
    for (size_t i = mark; i < locals_.size(); i++) out.insert(locals_[i].name);
    return out;
  }

  // After a scope is left: the sizes of `t` that name something bound there (`gone`)
  // become unknown sizes of their own in the enclosing scope (one per distinct size), as
  // in Futhark; `known` gives the names that stand for a size expression instead (`let
  // n = length xs in ...`).
  Type unscope(const Type &t, const std::set<std::string> &gone, const Span &span,
               const std::map<std::string, SizeTerm> &known = {}, const Expr *producer = nullptr) {
    if (gone.empty()) return t;
    std::map<std::string, Dim> made;
    return map_dims(t, [&](const Dim &d0) {
      Dim d = resolve_dim(d0);
      if (d.kind != Dim::Var) return d;
      SizeTerm term = term_of_dim(d);
      std::string cause;
      for_each_size_name(term, [&](const std::string &n) {
        if (cause.empty() && gone.count(n) && !known.count(n)) cause = n;
      });
      if (cause.empty()) {
        if (known.empty()) return d;
        return dim_of_term(substitute_size_names(term, [&](const std::string &n) -> std::optional<SizeTerm> {
          auto it = known.find(n);
          if (it == known.end()) return std::nullopt;
          return it->second;
        }));
      }
      auto it = made.find(d.name);
      if (it != made.end()) return it->second;
      std::string note =
          cause[0] == '!' && rigid_notes_.count(cause) && !rigid_notes_[cause].empty()
              ? rigid_notes_[cause]
              : fmt::format("is an unknown size arising from \"{}\" going out of scope{}",
                            show_dim(Dim::var(cause)), here(span));
      Dim r = fresh_rigid(note, producer);
      made[d.name] = r;
      return r;
    });
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
            kept.count(r) || (outer > 0 && v.equality))
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

  // The scheme of a function (see Scheme) once its type parameters are generalised.
  // `top`: a top-level definition, whose variables are all solved now.
  Scheme make_scheme(FunDef &f, const FunInfo &info, bool top) {
    auto final_type = [&](const Type &t) {
      if (!top) return deep(t);
      std::function<void(const Type &)> solve = [&](const Type &x) {
        Type n = norm(x);
        if (n.kind == Type::TypeVar) {
          solve_rest(root(n.var));
          solve(n);
          return;
        }
        for_each_child(n, [&](Type &c) { solve(c); });
      };
      solve(t);
      return deep(t);
    };
    Scheme s;
    s.sizes = f.size_params;
    std::vector<Type> params;
    for (const Pattern &p : f.params) params.push_back(final_type(p.type));
    Type ret = final_type(f.ret_type);
    // Size variables made inside the function and not solved: in a parameter's type a
    // size parameter (as Futhark generalises sizes), in the result an existential,
    // except in the parameters of a function in the result (`def r = {f = reverse}`).
    auto generalise_size = [&](const Dim &d0, std::vector<std::string> &into) {
      Dim d = resolve_dim(d0);
      if (d.kind != Dim::Var) return;
      for_each_size_name(term_of_dim(d), [&](const std::string &n) {
        if (n[0] != '?') return;
        SizeVar &v = svars_[var_index(n)];
        if (v.bound || v.depth <= info.depth) return;
        std::string k = "!" + std::to_string(next_rigid_++);
        rigid_notes_[k] = "";
        svars_[var_index(n)].bound = Dim::var(k);
        into.push_back(k);
      });
    };
    std::function<void(const Type &, bool)> generalise_in = [&](const Type &x, bool in_param) {
      Type n = deep(x);
      for (const Dim &d : n.dims) generalise_size(d, in_param ? s.sizes : s.existentials);
      if (n.kind == Type::Function) {
        generalise_in(n.elems[0], true);
        generalise_in(n.elems[1], in_param);
        return;
      }
      for_each_child(n, [&](Type &c) { generalise_in(c, in_param); });
    };
    for (const Type &p : params) generalise_in(p, true);
    generalise_in(ret, false);
    // The unknown sizes of the result made inside the function are existentials.
    std::set<std::string> sizes(s.sizes.begin(), s.sizes.end());
    map_dims(ret, [&](const Dim &d0) {
      Dim d = resolve_dim(d0);
      if (d.kind == Dim::Var)
        for_each_size_name(term_of_dim(d), [&](const std::string &n) {
          if (n[0] == '!' && !sizes.count(n) && name_depth(n) < 0 &&
              std::find(s.existentials.begin(), s.existentials.end(), n) == s.existentials.end())
            s.existentials.push_back(n);
        });
      return d;
    });
    // The parameters' names where what follows them has them as sizes.
    auto resolved = [&](const Type &x) { return map_dims(x, [&](const Dim &d) { return resolve_dim(d); }); };
    Type t = resolved(ret);
    for (size_t i = f.params.size(); i-- > 0;) {
      bool named = f.params[i].kind == Pattern::Id && type_mentions(t, f.params[i].name);
      t = Type::function(resolved(params[i]), t, named ? f.params[i].name : "");
    }
    s.type = t;
    // An existential that is only the size of a returned function's parameter: no
    // caller could give it (Futhark's "Unknown size ... in parameter").
    std::set<std::string> produced, in_params;
    std::function<void(const Type &, bool)> uses = [&](const Type &x, bool in_param) {
      for (const Dim &d : x.dims)
        if (d.kind == Dim::Var)
          for_each_size_name(term_of_dim(d), [&](const std::string &n) {
            (in_param ? in_params : produced).insert(n);
          });
      if (x.kind == Type::Function) {
        uses(x.elems[0], true);
        uses(x.elems[1], in_param);
        return;
      }
      for (const Type &e : x.elems) uses(e, in_param);
      for (const auto &ps : x.payloads)
        for (const Type &e : ps) uses(e, in_param);
    };
    uses(map_dims(ret, [&](const Dim &d) { return resolve_dim(d); }), false);
    for (const std::string &n : s.existentials)
      if (in_params.count(n) && !produced.count(n))
        error_at(f.name_span, fmt::format("Unknown size \"{}\" in parameter of \"{}\", which is "
                                          "inferred as: {}{}",
                                          show_dim(Dim::var(n)), f.name, show(s.type),
                                          size_notes(Dim::var(n))));
    // A constant's existentials outside function types (those in a function's result are
    // that function's, as Futhark moves them).
    std::set<std::string> immediate;
    std::function<void(const Type &)> outside = [&](const Type &x) {
      if (x.kind == Type::Function) return;
      for (const Dim &d0 : x.dims)
        if (Dim d = resolve_dim(d0); d.kind == Dim::Var)
          for_each_size_name(term_of_dim(d), [&](const std::string &n) { immediate.insert(n); });
      for (const Type &e : x.elems) outside(e);
      for (const auto &ps : x.payloads)
        for (const Type &e : ps) outside(e);
    };
    outside(deep(ret));
    if (f.params.empty() && !s.sizes.empty() &&
        std::any_of(s.existentials.begin(), s.existentials.end(),
                    [&](const std::string &n) { return immediate.count(n) > 0; }))
      error_at(f.name_span, fmt::format("A size-polymorphic value binding may not have a type "
                                        "with an existential size. Type of this binding is: {}",
                                        show(s.type)));
    // The written size parameters that no parameter has as a whole size.
    std::set<std::string> whole;
    std::function<void(const Type &)> collect = [&](const Type &x) {
      if (x.kind == Type::Function) return;
      for (const Dim &d0 : x.dims)
        if (Dim d = resolve_dim(d0); d.kind == Dim::Var) whole.insert(d.name);
      Type c = x;
      for_each_child(c, [&](Type &e) { collect(e); });
    };
    for (const Type &p : params) collect(p);
    for (const std::string &n : f.size_params)
      if (!whole.count(n)) s.explicit_sizes.push_back(n);
    return s;
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
          error_at(span, fmt::format("the size \"{}\" must have type i64, but has type {}", n, show(bt)));
      }
    }
    for (const Type &e : t.elems) size_names_are_i64(e, span);
  }

  // The type an annotation of a pattern gives: `[]` a size variable, the sizes a `let
  // [n]` binds as their size variables.
  Type written_type(const Type &ann, const Span &span) {
    Type t = fill_anonymous(ann, span);
    if (let_sizes_)
      for (const auto &[n, v] : *let_sizes_) t = replace_size_name(t, n, term_of_dim(v));
    return t;
  }

  void bind_pattern(Pattern &p, const Type &t0, bool refutable = false) {
    Type t = t0;
    if (p.annotation) {
      *p.annotation = resolve_type(*p.annotation, p.span);
      size_names_are_i64(*p.annotation, p.span);
      Type ann = written_type(*p.annotation, p.span);
      if (!unify(ann, t))
        error_at(p.span, fmt::format("this pattern has type {}, but the value has type {}{}",
                                     show(ann), show(t), why()));
      t = ann;
    }
    p.type = t;
    switch (p.kind) {
    case Pattern::Id: bind_local(p.name, t); return;
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
      std::optional<Type> t = unify_branches(a, b, e.span, &e);
      if (!t)
        error_at(e.span, fmt::format("the branches of 'if' have different types: 'then' has "
                                     "type {}, 'else' has type {}{}",
                                     show(a), show(b), why()));
      return *t;
    }
    case ExprKind::Let: return infer_let(e);
    case ExprKind::LetFun: {
      FunDef &f = *e.fundef;
      level_++;
      FunInfo info = check_function(f);
      level_--;
      generalise(f, level_);
      schemes_[&f] = make_scheme(f, info, false);
      if (!schemes_[&f].explicit_sizes.empty()) explicit_defs_.push_back(&f);
      size_t mark = scope_mark();
      bind_local(f.name, Type(), &f);
      Type body = infer(*e.args[0]);
      std::set<std::string> gone = names_since(mark);
      pop_scope(mark);
      return unscope(body, gone, e.span, {}, &e);
    }
    case ExprKind::Loop: return infer_loop(e);
    case ExprKind::Index: {
      Type arr = infer(*e.args[0]);
      return indexed_type(arr, e.indices, e.span, e.args[0]->span, false, &e);
    }
    case ExprKind::Update: {
      Type arr = infer(*e.args[0]);
      Type target = indexed_type(arr, e.indices, e.span, e.args[0]->span, true);
      Type v = infer(*e.args[1]);
      if (!unify(target, v))
        error_at(e.args[1]->span, fmt::format("the new value has type {}, but the updated "
                                              "part of the array has type {}{}",
                                              show(v), show(target), why()));
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
      // The field's sizes may change (Futhark's updateFieldPath).
      Type any_size = map_dims(target, [&](const Dim &) { return fresh_size(e.span); });
      if (!unify(any_size, v))
        error_at(e.args[1]->span, fmt::format("the new value of field '{}' has type {}, but "
                                              "the field has type {}{}",
                                              e.fields.back(), show(v), show(target), why()));
      return with_field(r, e.fields, 0, v);
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
        depth_++;
        bind_pattern(e.params[i], scrutinee, /*refutable=*/true);
        Type t = infer(*e.args[i + 1]);
        std::set<std::string> gone = names_since(mark);
        pop_scope(mark);
        depth_--;
        t = unscope(t, gone, e.args[i + 1]->span, {}, &e);
        if (i == 0) {
          result = t;
          continue;
        }
        std::optional<Type> r = unify_branches(result, t, e.span, &e);
        if (!r)
          error_at(e.args[i + 1]->span,
                   fmt::format("the cases of 'match' have different types: the first has type "
                               "{}, this one {}{}",
                               show(result), show(t), why()));
        result = *r;
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
      // `e : t` has t's sizes (`[]` what e has); `e :> t` too, checked at run time:
      // there only t's `[]` are e's sizes (Futhark's checkCoerce), the others may differ.
      Type t = infer(*e.args[0]);
      *e.annotation = resolve_type(*e.annotation, e.span);
      size_names_are_i64(*e.annotation, e.span);
      size_t first_anonymous = svars_.size();
      Type ann = fill_anonymous(*e.annotation, e.span);
      Type want = ann;
      if (e.kind == ExprKind::Coerce)
        want = map_dims(ann, [&](const Dim &d) {
          bool anonymous = d.kind == Dim::Var && d.name[0] == '?' && var_index(d.name) >= first_anonymous;
          return anonymous ? d : fresh_size(e.span);
        });
      bool ok = unify(want, t);
      if (!ok) {
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
      return Type::array(t, {range_size(e, t)});
    }
    case ExprKind::Unsafe: return infer(*e.args[0]);
    case ExprKind::Hole: return fresh(e.span); // any type, also a function
    case ExprKind::OpenIn: break;                // removed by compiler/modules
    }
    error_at(e.span, "unknown kind of expression");
  }

  // Record type `r` with the field at path fields[i..] of type `v`.
  Type with_field(const Type &r0, const std::vector<std::string> &fields, size_t i, const Type &v) {
    if (i == fields.size()) return v;
    Type r = norm(r0);
    int k = r.kind == Type::Record ? r.field_index(fields[i])
            : r.kind == Type::Tuple && is_numeric_name(fields[i]) && fields[i].size() < 7
                ? std::stoi(fields[i])
                : -1;
    if (k < 0 || size_t(k) >= r.elems.size()) return r0; // a field of a variable: as it is
    r.elems[size_t(k)] = with_field(r.elems[size_t(k)], fields, i + 1, v);
    return r;
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
      propagate(a, level_, true, true);
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
      // [n]t ++ [m]t : [n + m]t
      std::vector<Type> elems;
      std::vector<Dim> sizes;
      for (auto [t, s, side] : {std::tuple{a, sa, "left"}, std::tuple{b, sb, "right"}}) {
        Type elem = fresh(span);
        vars_[size_t(elem.var)].no_function = true;
        Dim d = fresh_size(span);
        if (!unify(t, Type::array(elem, {d})))
          error_at(s, fmt::format("'++' concatenates arrays, but its {} operand has type {}", side,
                                  show(t)));
        elems.push_back(elem);
        sizes.push_back(d);
      }
      if (!unify(elems[0], elems[1]))
        error_at(span, fmt::format("the operands of '++' must have the same type, but have "
                                   "types {} and {}{}",
                                   show(a), show(b), why()));
      return Type::array(elems[0], {sum_dim(sizes[0], sizes[1])});
    }
    }
    error_at(span, "unknown operator");
  }

  static Dim sum_dim(const Dim &a, const Dim &b) {
    return dim_of_term(SizeTerm::op("+", term_of_dim(a), term_of_dim(b)));
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
      propagate(t, level_, true, true);
      return Type::function(t, Type::function(t, boolean));
    case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge:
      require_prim(t, kAnyPrim);
      return Type::function(t, Type::function(t, boolean));
    case BinOp::LogAnd: case BinOp::LogOr:
      return Type::function(boolean, Type::function(boolean, boolean));
    case BinOp::Concat: {
      propagate(t, level_, true);
      Dim n = fresh_size(span), m = fresh_size(span);
      return Type::function(Type::array(t, {n}),
                            Type::function(Type::array(t, {m}), Type::array(t, {sum_dim(n, m)})));
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
      if (!pending_sizes_.empty() && pending_sizes_.back().use == &probe)
        error_at(e.span, fmt::format("'{}' has size parameters that only the context gives; it "
                                     "cannot be used as an operator section",
                                     e.name));
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
  // Its type names its parameters (`\n -> iota n` : (n: i64) -> [n]i64); other names
  // bound in it are unknown sizes outside.
  Type infer_lambda(Expr &e, std::optional<Type> expected) {
    size_t mark = scope_mark();
    int depth0 = depth_;
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
      depth_++;
      if (!expected) pt = fresh(p.span);
      bind_pattern(p, pt);
      params.push_back(p.type);
    }
    depth_++;
    Type body = infer(*e.args[0]);
    if (e.annotation) {
      *e.annotation = resolve_type(*e.annotation, e.span);
      size_names_are_i64(*e.annotation, e.span);
      Type want = fill_anonymous(*e.annotation, e.span);
      if (!unify(want, body))
        error_at(e.args[0]->span, fmt::format("the body has type {}, but the declared return "
                                              "type is {}{}",
                                              show(body), show(*e.annotation), why()));
      body = want;
    }
    std::set<std::string> gone = names_since(mark);
    for (const Pattern &p : e.params)
      if (p.kind == Pattern::Id) gone.erase(p.name);
    pop_scope(mark);
    depth_ = depth0;
    body = unscope(body, gone, e.span);
    for (size_t i = params.size(); i-- > 0;) {
      const Pattern &p = e.params[i];
      if (p.kind == Pattern::Id && type_mentions(body, p.name)) {
        Type f = rename_parameter(Type::function(params[i], body, p.name));
        body = f;
      } else {
        body = Type::function(params[i], body);
      }
    }
    return body;
  }

  bool type_mentions(const Type &t, const std::string &name) {
    bool found = false;
    map_dims(t, [&](const Dim &d) {
      if (!found && d.kind == Dim::Var && d.name.find(name) != std::string::npos)
        found = term_mentions(term_of_dim(d), name);
      return d;
    });
    return found;
  }

  // The size an expression denotes when it is used as one (Futhark substitutes an
  // argument for the parameter a result's size names): names, integers, arithmetic and
  // applications of them; nullopt for anything else.
  std::optional<SizeTerm> size_term_of_expr(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit:
      if (e.int_value > uint64_t(INT64_MAX) || (e.suffix && !is_int(*e.suffix))) return std::nullopt;
      return SizeTerm::integer(int64_t(e.int_value));
    case ExprKind::Var:
      if (e.callee == Callee::Local) {
        const Binding *b = find_local(e.name);
        if (b && !b->fun) return SizeTerm::name(e.name);
      }
      if (e.callee == Callee::Function && e.fun && e.fun->params.empty() && !e.fun->from_prelude &&
          e.fun->type_params.empty() && find_top(e.name) == e.fun)
        return SizeTerm::name(e.name);
      return std::nullopt;
    case ExprKind::Binary: {
      const char *op = nullptr;
      switch (e.binop) {
      case BinOp::Add: op = "+"; break;
      case BinOp::Sub: op = "-"; break;
      case BinOp::Mul: op = "*"; break;
      case BinOp::Div: op = "/"; break;
      case BinOp::Mod: op = "%"; break;
      case BinOp::Quot: op = "//"; break;
      case BinOp::Rem: op = "%%"; break;
      case BinOp::Pow: op = "**"; break;
      default: return std::nullopt;
      }
      std::optional<SizeTerm> a = size_term_of_expr(*e.args[0]);
      std::optional<SizeTerm> b = size_term_of_expr(*e.args[1]);
      if (!a || !b) return std::nullopt;
      return SizeTerm::op(op, *a, *b);
    }
    case ExprKind::Apply: {
      if (e.callee != Callee::ArrayBuiltin && e.callee != Callee::PrimBuiltin) return std::nullopt;
      SizeTerm app;
      app.kind = SizeTerm::Apply;
      app.text = e.name;
      for (const ExprPtr &a : e.args) {
        std::optional<SizeTerm> t = size_term_of_expr(*a);
        if (!t) return std::nullopt;
        app.args.push_back(*t);
      }
      return app;
    }
    default: return std::nullopt;
    }
  }

  // The size an argument gives the parameter a result's size names.
  SizeTerm argument_size(const Expr &arg, const std::string &fname, const Expr &apply) {
    if (std::optional<SizeTerm> t = size_term_of_expr(arg)) return *t;
    std::string text(arg.span.text());
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return term_of_dim(fresh_rigid(fmt::format(
        "is value of argument \"{}\" passed to {}{}", text,
        fname.empty() ? "function" : "\"" + fname + "\"", here(arg.span)), &apply));
  }

  // unflatten and split with one argument: their sizes are what unification makes them
  // (`unflatten xs : [n][m]t` with xs : [n * m]t, or the type the context requires);
  // they are passed explicitly when the definition is finished, if they can be.
  void context_sizes(Expr &e, const Type &result) {
    if (e.kind != ExprKind::Apply || e.callee != Callee::ArrayBuiltin || e.args.size() != 1) return;
    Type r = deep(result);
    if (e.array_builtin == ArrayBuiltin::Unflatten && r.is_array() && r.dims.size() >= 2)
      pending_sizes_.push_back({&e, {r.dims[0], r.dims[1]}, locals_, "unflatten", {"", ""}});
    if (e.array_builtin == ArrayBuiltin::Split && r.is_tuple() && r.elems.size() == 2 &&
        r.elems[0].is_array())
      pending_sizes_.push_back({&e, {r.elems[0].dims[0]}, locals_, "split", {""}});
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
    // The parameter types, as far as the function's type tells them, and the names
    // function types give their parameters.
    std::vector<Type> params;
    std::vector<std::string> pnames;
    Type cur = ft;
    for (size_t i = 0; i < nargs; i++) {
      Type n = norm(cur);
      if (n.kind != Type::Function) break;
      params.push_back(n.elems[0]);
      pnames.push_back(n.name);
      cur = n.elems[1];
    }
    // After argument i: a parameter's name in the types after it is the argument, as a
    // size (`iota n : [n]i64`), or an unknown size when the argument is not a size
    // expression.
    auto give_name = [&](size_t i) {
      if (pnames[i].empty()) return;
      bool used = type_mentions(cur, pnames[i]);
      for (size_t j = i + 1; j < params.size(); j++) used = used || type_mentions(params[j], pnames[i]);
      if (!used) return;
      SizeTerm term = argument_size(*e.args[first + i], fname, e);
      for (size_t j = i + 1; j < params.size(); j++) params[j] = replace_size_name(params[j], pnames[i], term);
      cur = replace_size_name(cur, pnames[i], term);
    };
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
        const Type *end = &want;
        while (end->kind == Type::Function) end = &end->elems[1];
        bool may_take_more = end->kind == Type::TypeVar && !vars_[size_t(root(end->var))].no_function;
        if (wn < hn && may_take_more && !reason.empty())
          error_at(a.span, fmt::format("{}the {} argument must be of type {}, but has type {}{}",
                                       head, nth, show(want), show(have), reason));
        if (wn != hn)
          error_at(a.span, fmt::format("{}the {} argument must be a function of {} argument(s), "
                                       "but this one takes {}",
                                       head, nth, wn, hn));
        Type wr = want, hr = have;
        size_t bound = bound_names_.size();
        for (size_t k = 0; k < wn; k++) {
          if (!unify(wr.elems[0], hr.elems[0]))
            error_at(a.span, fmt::format("{}the {} parameter of the function given as the {} "
                                         "argument has type {}, but must have type {}{}",
                                         head, ordinal(k), nth, show(hr.elems[0]),
                                         show(wr.elems[0]), why()));
          // The parameters' names, as unify_functions binds them.
          Type next = Type(hr.elems[1]);
          if (!wr.name.empty() && !hr.name.empty() && wr.name != hr.name)
            next = replace_size_name(next, hr.name, SizeTerm::name(wr.name));
          std::string name = wr.name.empty() ? hr.name : wr.name;
          if (!name.empty()) bound_names_.push_back(name);
          wr = Type(wr.elems[1]);
          hr = next;
        }
        bool results = unify(wr, hr);
        std::string result_reason = why();
        bound_names_.resize(bound);
        if (!results)
          error_at(a.span, fmt::format("{}the result of the function given as the {} argument "
                                       "has type {}, but must have type {}{}",
                                       head, nth, show(hr), show(wr), result_reason));
        error_at(a.span, fmt::format("{}the {} argument must be of type {}, but has type {}{}", head,
                                     nth, show(want), show(have), reason));
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
        give_name(i);
      }
      for (size_t i = 0; i < nargs; i++) {
        Expr &a = *e.args[first + i];
        if (!is_function_literal(a)) continue;
        Type t = a.kind == ExprKind::Lambda ? infer_lambda(a, params[i]) : infer(a);
        a.type = t;
        if (!unify(params[i], t)) arg_error(i, params[i], t);
      }
      context_sizes(e, cur);
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
        if (!n.name.empty() && type_mentions(f, n.name))
          f = replace_size_name(f, n.name, argument_size(*e.args[first + i], fname, e));
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

  // Note [Loop sizes]
  // As in Futhark, the sizes of the loop parameters are size variables while the body
  // is checked (a `for` body may make them what it needs, `map2 (+) acc xs`). Then each
  // size the body leaves alone and returns unchanged (or returns as the size of another
  // parameter that starts out the same and is itself unchanged) is the initial value's;
  // any other is loop-variant: an unknown size of its own inside the loop, and another
  // one outside, as the size of the loop's result. The initial value and the body's
  // result must fit the parameters with their variant sizes anything.
  // One difference: where the initial size is itself not decided yet (a loop inside
  // the body of a loop, whose initial value has the outer parameter's size) and the body
  // returns another size, Futhark calls the size loop-variant, Kerb takes the outer
  // size to be the body's (kerb difftest's nested loops need it; it accepts more).
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
      if (!unify(over, Type::array(elem, {fresh_size(e.args[1]->span)})))
        error_at(e.args[1]->span, fmt::format("'for ... in' needs an array, but this has type {}",
                                              show(over)));
    }
    size_t mark = scope_mark();
    size_t svars_before = svars_.size(), vars_before = vars_.size();
    for (const std::string &n : e.size_params) bind_local(n, Type::prim_type(PrimType::I64));
    std::vector<std::pair<std::string, Dim>> positions; // a parameter size, its initial size
    Type param = map_dims(init, [&](const Dim &d) {
      Dim v = fresh_size(e.pattern.span);
      svars_[var_index(v.name)].loop = true;
      positions.push_back({v.name, resolve_dim(d)});
      return v;
    });
    depth_++;
    bind_pattern(e.pattern, param);
    if (e.loop_form == LoopForm::For) bind_local(e.name, over);
    if (e.loop_form == LoopForm::ForIn) {
      Type n = norm(over);
      bind_pattern(e.pattern2, n.kind == Type::Array ? n.row() : fresh(e.span));
    }
    if (e.loop_form == LoopForm::While)
      expect(*e.args[1], Type::prim_type(PrimType::Bool), "the condition of a 'while' loop");
    Type body = infer(*e.args[2]);
    std::set<std::string> variant = loop_variant_sizes(e, param, body, positions);
    check_loop_variant_escape(e, variant, svars_before, vars_before);
    auto variants_free = [&]() {
      std::map<std::string, Dim> fresh_of;
      return map_dims(e.pattern.type, [&](const Dim &d0) {
        Dim d = resolve_dim(d0);
        if (d.kind != Dim::Var || !variant.count(d.name)) return d;
        auto it = fresh_of.find(d.name);
        if (it == fresh_of.end()) it = fresh_of.emplace(d.name, fresh_size(e.span)).first;
        return it->second;
      });
    };
    Type want_init = variants_free();
    if (!unify(want_init, init))
      error_at(e.args[0] ? e.args[0]->span : e.pattern.span,
               fmt::format("Initial loop values do not have expected type: the loop parameters "
                           "have type {}, but the initial values have type {}{}",
                           show(e.pattern.type), show(init), why()));
    Type want_body = variants_free();
    if (!unify(want_body, body))
      error_at(e.args[2]->span,
               fmt::format("Loop body does not have expected type: the loop parameters have type "
                           "{}, but the body has type {}{}",
                           show(e.pattern.type), show(body), why()));
    Type state = deep(e.pattern.type);
    std::set<std::string> gone = names_since(mark);
    pop_scope(mark);
    depth_--;
    std::map<std::string, Dim> made;
    return map_dims(state, [&](const Dim &d0) {
      Dim d = resolve_dim(d0);
      if (d.kind != Dim::Var) return d;
      bool local = false;
      for_each_size_name(term_of_dim(d), [&](const std::string &n) { local = local || gone.count(n); });
      if (!local) return d;
      auto it = made.find(d.name);
      if (it == made.end())
        it = made.emplace(d.name, fresh_rigid(fmt::format("is unknown size of value returned{}",
                                                          here(e.span)), &e))
                 .first;
      return it->second;
    });
  }

  // A size the loop changes may not be a size of something outside the loop (a size
  // variable or type variable made before it).
  void check_loop_variant_escape(const Expr &e, const std::set<std::string> &variant,
                                 size_t svars_before, size_t vars_before) {
    if (variant.empty()) return;
    auto mentions = [&](const Dim &d0) {
      Dim d = resolve_dim(d0);
      bool found = false;
      if (d.kind == Dim::Var)
        for_each_size_name(term_of_dim(d), [&](const std::string &n) { found = found || variant.count(n); });
      return found;
    };
    bool escaped = false;
    for (size_t i = 0; i < svars_before && !escaped; i++)
      escaped = svars_[i].bound && mentions(Dim::var("?" + std::to_string(i)));
    for (size_t i = 0; i < vars_before && !escaped; i++) {
      if (!vars_[i].bound || vars_[i].link >= 0) continue;
      map_dims(*vars_[i].bound, [&](const Dim &d) {
        escaped = escaped || mentions(d);
        return d;
      });
    }
    if (escaped)
      error_at(e.span, "Loop-variant size has escaped into type that occurs outside of loop. This "
                       "is likely because the loop body uses a variable whose type depends on the "
                       "loop parameter.");
  }

  // Decides which sizes of the loop parameters the loop changes (Note [Loop sizes]) and
  // solves their size variables: the names of the variant sizes.
  std::set<std::string> loop_variant_sizes(const Expr &e, const Type &param, const Type &body,
                                           const std::vector<std::pair<std::string, Dim>> &positions) {
    // The body's size at each parameter size, where the two have the same shape.
    std::map<std::string, Dim> body_size;
    std::function<void(const Type &, const Type &)> walk = [&](const Type &p, const Type &b) {
      if (p.kind != b.kind || p.elems.size() != b.elems.size()) return;
      if (p.kind == Type::Array && p.dims.size() == b.dims.size())
        for (size_t i = 0; i < p.dims.size(); i++)
          if (p.dims[i].kind == Dim::Var) body_size[p.dims[i].name] = resolve_dim(b.dims[i]);
      for (size_t i = 0; i < p.elems.size(); i++) walk(p.elems[i], b.elems[i]);
    };
    walk(param, deep(body));
    std::map<std::string, Dim> init_of;            // a free parameter size: its initial size
    std::map<std::string, bool> fresh;             // ... whether the body makes a new one
    std::map<std::string, std::set<std::string>> copies; // ... the sizes it copies
    for (const auto &[v, init] : positions) {
      Dim r = resolve_dim(Dim::var(v));
      if (r.kind != Dim::Var || r.name[0] != '?' || svars_[var_index(r.name)].bound) continue;
      const std::string &root_name = r.name;
      init_of.emplace(root_name, init);
      fresh.emplace(root_name, false);
      auto it = body_size.find(v);
      if (it == body_size.end() || it->second.kind == Dim::Unknown) continue;
      const Dim &b = it->second;
      if (b.kind == Dim::Var && b.name == root_name) continue;
      if (same_dim(resolve_dim(b), resolve_dim(init))) continue; // the initial size again
      // An initial size not decided yet (the size of an enclosing loop's parameter) is
      // taken to be the body's: more than Futhark accepts, never less.
      if (init.kind == Dim::Var && init.name[0] == '?' && svars_[var_index(init.name)].loop &&
          b.kind != Dim::Unknown && !term_mentions(term_of_dim(b), root_name) &&
          resolve_dim(init).kind == Dim::Var && resolve_dim(init).name == init.name) {
        std::string saved = mismatch_;
        if (bind_size(init.name, term_of_dim(b))) continue;
        mismatch_ = saved;
      }
      if (b.kind == Dim::Var && b.name[0] == '?' && init_of.count(b.name) == 0) {
        // Another parameter's size, decided below.
        copies[root_name].insert(b.name);
        continue;
      }
      if (b.kind == Dim::Var && init_of.count(b.name)) {
        copies[root_name].insert(b.name);
        continue;
      }
      fresh[root_name] = true;
    }
    // A copy of another parameter's size is unchanged only when they start out the same
    // and that one is unchanged.
    std::set<std::string> variant;
    for (const auto &[v, f] : fresh)
      if (f) variant.insert(v);
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto &[v, from] : copies) {
        if (variant.count(v)) continue;
        for (const std::string &u : from) {
          bool same_start = init_of.count(u) && same_dim(init_of[u], init_of[v]);
          if (!same_start || variant.count(u)) {
            variant.insert(v);
            changed = true;
            break;
          }
        }
      }
    }
    for (const auto &[v, init] : init_of) {
      if (svars_[var_index(v)].bound) continue;
      if (variant.count(v)) {
        Dim r = fresh_rigid(fmt::format("is the size of a loop parameter, which the loop{} "
                                        "changes",
                                        here(e.span)));
        svars_[var_index(v)].bound = r;
      } else {
        svars_[var_index(v)].bound = init;
      }
    }
    std::set<std::string> out;
    for (const std::string &v : variant) out.insert(resolve_dim(Dim::var(v)).name);
    return out;
  }

  // The type of `arr[parts]`; checks the parts. A slice's size is Futhark's: `xs[i:j]`
  // has size `j - i` (`j` when i is 0 or left out, the whole size when both are), with
  // stride 1; other slices have an unknown size of their own. In an update
  // (`flexible`) a slice's size is a size variable: the value's size.
  Type indexed_type(const Type &arr0, std::vector<IndexPart> &parts, const Span &span,
                    const Span &arr_span, bool flexible, const Expr *producer = nullptr) {
    Type arr = norm(arr0);
    if (arr.kind != Type::Array && arr.kind != Type::TypeVar)
      error_at(span, fmt::format("only arrays can be indexed, but this has type {}", show(arr)));
    if (arr.kind == Type::Array && int(parts.size()) > arr.rank() &&
        norm(arr.elems[0]).kind != Type::TypeVar)
      error_at(span, fmt::format("{} indices given for an array of rank {} (type {})", parts.size(),
                                 arr.rank(), show(arr)));
    Type elem = fresh(arr_span);
    std::vector<Dim> dims;
    for (size_t i = 0; i < parts.size(); i++) dims.push_back(fresh_size(arr_span));
    if (!unify(arr, Type::array(elem, dims)))
      error_at(span, fmt::format("only arrays can be indexed, but this has type {}", show(arr)));
    std::vector<Dim> out;
    for (size_t i = 0; i < parts.size(); i++) {
      IndexPart &p = parts[i];
      if (!p.is_slice) {
        expect_index(*p.index, "an index");
        continue;
      }
      for (ExprPtr *x : {&p.start, &p.end, &p.stride})
        if (*x) expect_index(**x, "a slice bound", true);
      out.push_back(flexible ? fresh_size(span) : slice_size(resolve_dim(dims[i]), p, span, producer));
    }
    return Type::array(elem, out);
  }

  static bool is_literal(const ExprPtr &e, int64_t v) {
    if (!e) return false;
    if (e->kind == ExprKind::IntLit) return v >= 0 && e->int_value == uint64_t(v);
    if (e->kind == ExprKind::Unary && e->unop == UnOp::Neg && e->args[0]->kind == ExprKind::IntLit)
      return v < 0 && e->args[0]->int_value == uint64_t(-v);
    return false;
  }

  Dim slice_size(const Dim &d, const IndexPart &p, const Span &span, const Expr *producer) {
    auto term = [&](const ExprPtr &x) -> std::optional<SizeTerm> {
      if (!x) {
        if (d.kind == Dim::Unknown) return std::nullopt;
        return term_of_dim(d);
      }
      return size_term_of_expr(*x);
    };
    auto unknown = [&]() {
      return fresh_rigid(fmt::format("is size produced by slice \"{}\"{}", std::string(span.text()),
                                     here(span)), producer);
    };
    bool step1 = !p.stride || is_literal(p.stride, 1);
    std::optional<SizeTerm> t;
    if (step1 && (!p.start || is_literal(p.start, 0))) {
      t = term(p.end);
      if (!t && d.kind == Dim::Unknown && !p.end) return d;
    } else if (step1) {
      std::optional<SizeTerm> j = term(p.end), i = term(p.start);
      if (!j && !p.end) return Dim::unknown(); // the whole size is not known
      if (i && j) t = SizeTerm::op("-", *j, *i);
    } else if (is_literal(p.stride, -1) && !p.start && !p.end) {
      return d;
    } else if (is_literal(p.stride, -1) && p.start && p.end) {
      std::optional<SizeTerm> i = term(p.start), j = term(p.end);
      if (i && j) t = SizeTerm::op("-", *i, *j);
    }
    if (!t) return unknown();
    return dim_of_term(*t);
  }

  // The size of a range, as Futhark gives it when its bounds are i64: `0..<n` has size
  // n, `a..<b` b - a, `a...b` b - a + 1, `1..2...n` n; any other range has an unknown
  // size of its own.
  Dim range_size(const Expr &e, const Type &t0) {
    Type t = norm(t0);
    if (t.kind == Type::TypeVar) return Dim::unknown(); // not known yet: anything
    auto unknown = [&]() {
      return fresh_rigid(fmt::format("is unknown length of range{}", here(e.span)), &e);
    };
    if (!t.is_prim(PrimType::I64)) return unknown();
    const ExprPtr &start = e.args[0], &second = e.args[1], &end = e.args[2];
    std::optional<SizeTerm> a = size_term_of_expr(*start), b = size_term_of_expr(*end);
    if (!b) return unknown();
    bool zero = is_literal(start, 0), one = is_literal(start, 1);
    std::optional<SizeTerm> size;
    if (e.range_kind == RangeKind::UpToExcl) {
      if (zero && (!second || is_literal(second, 1))) size = b;
      else if (!second && a) size = SizeTerm::op("-", *b, *a);
    } else if (e.range_kind == RangeKind::UpTo) {
      if (!second && a) size = SizeTerm::op("+", SizeTerm::op("-", *b, *a), SizeTerm::integer(1));
      else if (one && is_literal(second, 2)) size = b;
    }
    if (!size) return unknown();
    return dim_of_term(*size);
  }

  // The type of an if or a match from the types of its branches: they must be the same
  // up to sizes; where their sizes differ the result has an unknown size of its own
  // (Futhark's unifyMostCommon).
  std::optional<Type> unify_branches(const Type &a, const Type &b, const Span &span,
                                     const Expr *producer) {
    branch_mode_ = true;
    bool ok = unify(a, b);
    branch_mode_ = false;
    if (!ok) return std::nullopt;
    std::map<std::pair<std::string, std::string>, Dim> made;
    std::string ta = show(a), tb = show(b);
    std::function<Type(const Type &, const Type &)> merge = [&](const Type &x, const Type &y) {
      Type out = x;
      if (x.kind != y.kind || x.elems.size() != y.elems.size() || x.dims.size() != y.dims.size())
        return out;
      for (size_t i = 0; i < out.dims.size(); i++) {
        Dim p = resolve_dim(x.dims[i]), q = resolve_dim(y.dims[i]);
        if (p.kind == Dim::Unknown || q.kind == Dim::Unknown) {
          out.dims[i] = Dim::unknown();
        } else if (same_dim(p, q)) {
          out.dims[i] = p;
        } else {
          auto key = std::make_pair(p.str(), q.str());
          auto it = made.find(key);
          if (it == made.end())
            it = made.emplace(key, fresh_rigid(fmt::format(
                                       "is unknown due to conditional expression{}: one branch "
                                       "returns array of type {}, the other an array of type {}",
                                       here(span), ta, tb), producer))
                     .first;
          out.dims[i] = it->second;
        }
      }
      if (x.kind != Type::Function)
        for (size_t i = 0; i < out.elems.size(); i++) out.elems[i] = merge(x.elems[i], y.elems[i]);
      if (x.payloads.size() == y.payloads.size())
        for (size_t i = 0; i < out.payloads.size(); i++)
          if (x.payloads[i].size() == y.payloads[i].size())
            for (size_t k = 0; k < out.payloads[i].size(); k++)
              out.payloads[i][k] = merge(x.payloads[i][k], y.payloads[i][k]);
      return out;
    };
    return merge(deep(a), deep(b));
  }

  // let p = v in body, with Futhark's sizes: `let [n] (xs: [n]t) = v` binds n to a size
  // of v (a size variable while the pattern is checked); a size that names what the
  // let binds is an unknown size outside it, except that `let n = e in ...` with e a
  // size expression leaves e in its place.
  Type infer_let(Expr &e) {
    let_sizes_in_value_.insert(let_sizes_in_value_.end(), e.size_params.begin(), e.size_params.end());
    Type v = infer(*e.args[0]);
    let_sizes_in_value_.resize(let_sizes_in_value_.size() - e.size_params.size());
    size_t mark = scope_mark();
    depth_++;
    std::set<std::string> names(e.size_params.begin(), e.size_params.end());
    if (names.size() != e.size_params.size())
      error_at(e.span, "a size of 'let' is also bound by another size of the same 'let'");
    check_duplicate_names(e.pattern, names, "let");
    std::map<std::string, Dim> sizes;
    for (const std::string &n : e.size_params) {
      check_let_size_used(e, n);
      sizes[n] = fresh_size(e.span, n);
    }
    // The value's size variables: a size bound to one of them is the value's.
    std::vector<std::string> value_vars;
    if (!sizes.empty())
      map_dims(v, [&](const Dim &d0) {
        Dim d = resolve_dim(d0);
        if (d.kind == Dim::Var)
          for_each_size_name(term_of_dim(d), [&](const std::string &n) {
            if (n[0] == '?') value_vars.push_back(n);
          });
        return d;
      });
    std::map<std::string, Dim> *saved = let_sizes_;
    let_sizes_ = sizes.empty() ? nullptr : &sizes;
    bind_pattern(e.pattern, v);
    let_sizes_ = saved;
    for (const std::string &n : e.size_params) {
      // The size must be one of the value's (a size variable of the value linked to it
      // counts).
      Dim d = resolve_dim(sizes[n]);
      bool linked = std::any_of(value_vars.begin(), value_vars.end(), [&](const std::string &x) {
        Dim r = resolve_dim(Dim::var(x));
        return r.kind == Dim::Var && r.name == d.name;
      });
      if (d.kind == Dim::Var && d.name == sizes[n].name && !linked)
        error_at(e.span, fmt::format("Ambiguous size \"{}\".", n));
      // The pattern's variables have size n where the value has that size.
      for (size_t i = mark; i < locals_.size(); i++)
        locals_[i].type = replace_size_name(locals_[i].type, sizes[n].name, SizeTerm::name(n));
      bind_local(n, Type::prim_type(PrimType::I64));
    }
    std::map<std::string, SizeTerm> known;
    if (e.pattern.kind == Pattern::Id && norm(v).is_prim(PrimType::I64))
      if (std::optional<SizeTerm> t = size_term_of_expr(*e.args[0])) known[e.pattern.name] = *t;
    Type body = infer(*e.args[1]);
    std::set<std::string> gone = names_since(mark);
    pop_scope(mark);
    depth_--;
    return unscope(body, gone, e.span, known, &e);
  }

  // A size a let binds must be the size of a value the pattern binds.
  void check_let_size_used(const Expr &e, const std::string &n) {
    bool concrete = false, any = false;
    std::function<void(const Type &, bool)> in_type = [&](const Type &t, bool in_function) {
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var && term_mentions(term_of_dim(d), n)) {
          any = true;
          concrete = concrete || !in_function;
        }
      for (size_t i = 0; i < t.elems.size(); i++)
        in_type(t.elems[i], in_function || t.kind == Type::Function);
    };
    std::function<void(const Pattern &)> in_pattern = [&](const Pattern &p) {
      if (p.annotation) in_type(resolve_type(*p.annotation, p.span), false);
      for (const Pattern &q : p.elems) in_pattern(q);
    };
    in_pattern(e.pattern);
    if (!any) error_at(e.span, fmt::format("Size [{}] unused in pattern.", n));
    if (!concrete)
      error_at(e.span, fmt::format("Cannot bind [{}] as it is never used as the size of a "
                                   "concrete (non-function) value.",
                                   n));
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
    if (n.kind == Type::Function && !n.name.empty() && n.name[0] == '#') {
      // The parameter's name as written again.
      auto it = param_names_.find(n.name);
      std::string written = it == param_names_.end() ? "" : it->second;
      if (!written.empty()) n.elems[1] = replace_size_name(n.elems[1], n.name, SizeTerm::name(written));
      n.name = written;
    }
    for_each_child(n, [&](Type &c) { c = zonk(c); });
    for (Dim &d : n.dims) d = export_dim(d);
    if (n.kind == Type::Array && n.elems[0].kind == Type::Array) n = Type::array(n.elems[0], n.dims);
    return n;
  }

  // A size as the rest of the compiler sees it: names, integers and arithmetic on them,
  // and unknown for the checker's own sizes and for what is not such an expression.
  Dim export_dim(const Dim &d0) {
    Dim d = resolve_dim(d0);
    if (d.kind != Dim::Var) return d;
    SizeTerm t = term_of_dim(d);
    bool simple = true;
    std::function<void(const SizeTerm &)> check = [&](const SizeTerm &x) {
      if (x.kind == SizeTerm::Apply || x.kind == SizeTerm::Opaque ||
          (x.kind == SizeTerm::Name && is_internal_size_name(x.text)))
        simple = false;
      for (const SizeTerm &a : x.args) check(a);
    };
    check(t);
    return simple ? d : Dim::unknown();
  }

  // Note [Causality check]
  // As Futhark checks: a value whose type needs a size when it is made (an empty array,
  // a constructor's sum type, a function value: a lambda's parameters, a section, a
  // variable; a hole) may not need an unknown size that is computed only later in
  // evaluation order (`if b then #none else #some (filter p xs)`: #none's payload size
  // comes from the other branch). The walk follows evaluation order: a let's value
  // before its body, a call's arguments last to first and then the function, an
  // operator's operands left to right; the sizes an expression computes (the unknown
  // sizes made for it, with the expression that makes them in producer_of_) are known
  // after it. Returns the sizes `e` makes known.
  std::set<std::string> causality(const Expr &e, const std::set<std::string> &known) {
    std::set<std::string> fresh;
    auto check = [&](const Type &t, const std::string &what, const std::set<std::string> &k) {
      std::string bad;
      map_dims(t, [&](const Dim &d0) {
        Dim d = resolve_dim(d0);
        if (d.kind == Dim::Var && bad.empty())
          for_each_size_name(term_of_dim(d), [&](const std::string &n) {
            if (bad.empty() && producer_of_.count(n) && !k.count(n)) bad = n;
          });
        return d;
      });
      if (bad.empty()) return;
      const Expr *at = producer_of_.at(bad);
      error_at(e.span, fmt::format("Causality check: size \"{}\" needed for type of {}: {}. But "
                                   "\"{}\" is computed at {}. Hint: Bind the expression producing "
                                   "\"{}\" with 'let' beforehand.",
                                   show_dim(Dim::var(bad)), what, show(t), show_dim(Dim::var(bad)),
                                   at->span.place(), show_dim(Dim::var(bad))));
    };
    auto made_here = [&]() {
      for (const auto &[n, p] : producer_of_)
        if (p == &e) fresh.insert(n);
    };
    // A use's own unknown sizes (a function's existentials instantiated there) are what
    // its value has: known where it is.
    auto own = [&](std::set<std::string> k) {
      for (const auto &[n, p] : producer_of_)
        if (p == &e) k.insert(n);
      return k;
    };
    auto with = [](std::set<std::string> a, const std::set<std::string> &b) {
      a.insert(b.begin(), b.end());
      return a;
    };
    switch (e.kind) {
    case ExprKind::Var: check(e.type, "\"" + e.name + "\"", own(known)); break;
    case ExprKind::OpSection: check(e.type, "operator section", known); break;
    case ExprKind::ProjSection: check(e.type, "projection section", known); break;
    case ExprKind::Hole: check(e.type, "hole", known); break;
    case ExprKind::ArrayLit:
      if (e.args.empty()) check(e.type, "empty array", known);
      break;
    case ExprKind::Lambda:
      for (const Pattern &p : e.params) check(p.type, std::string(p.span.text()), known);
      causality(*e.args[0], known); // what it computes is not known outside it
      return fresh;
    case ExprKind::Let: {
      std::set<std::string> first = causality(*e.args[0], known);
      causality(*e.args[1], with(known, first));
      made_here();
      return with(fresh, first);
    }
    case ExprKind::Match: {
      std::set<std::string> first = causality(*e.args[0], known);
      for (size_t i = 1; i < e.args.size(); i++) causality(*e.args[i], with(known, first));
      made_here();
      return with(fresh, first);
    }
    case ExprKind::Apply: case ExprKind::ApplyExpr: {
      size_t first = e.kind == ExprKind::ApplyExpr ? 1 : 0;
      std::set<std::string> k = known, got;
      // `f <| x`: the function (with its other arguments) first, then x.
      std::vector<size_t> order;
      for (size_t i = e.args.size(); i-- > first;) order.push_back(i);
      if (e.pipe_left && !order.empty()) {
        order.erase(order.begin());
        order.push_back(e.args.size() - 1);
        if (first) {
          std::set<std::string> n = causality(*e.args[0], k);
          k.insert(n.begin(), n.end());
          got.insert(n.begin(), n.end());
          first = 0;
          order.erase(std::remove(order.begin(), order.end(), size_t(0)), order.end());
        }
      }
      for (size_t i : order) {
        std::set<std::string> n = causality(*e.args[i], k);
        k.insert(n.begin(), n.end());
        got.insert(n.begin(), n.end());
      }
      if (first) {
        std::set<std::string> n = causality(*e.args[0], k);
        got.insert(n.begin(), n.end());
      } else if (e.kind == ExprKind::Apply) {
        check(e.type.kind == Type::Function ? e.type : Type(), "\"" + e.name + "\"", own(k));
      }
      made_here();
      return with(fresh, got);
    }
    case ExprKind::Constr: {
      std::set<std::string> k = known, got;
      for (const ExprPtr &a : e.args) {
        std::set<std::string> n = causality(*a, k);
        k.insert(n.begin(), n.end());
        got.insert(n.begin(), n.end());
      }
      check(e.type, "\"#" + e.name + "\"", k);
      return got;
    }
    case ExprKind::Binary: {
      std::set<std::string> a = causality(*e.args[0], known);
      std::set<std::string> b = causality(*e.args[1], with(known, a));
      made_here();
      return with(with(fresh, a), b);
    }
    default: break;
    }
    for (const ExprPtr &a : e.args)
      if (a) {
        std::set<std::string> n = causality(*a, known);
        fresh.insert(n.begin(), n.end());
      }
    for (const IndexPart &part : e.indices)
      for (const ExprPtr *x : {&part.index, &part.start, &part.end, &part.stride})
        if (*x) {
          std::set<std::string> n = causality(**x, known);
          fresh.insert(n.begin(), n.end());
        }
    if (e.fundef) causality(*e.fundef->body, known);
    made_here();
    return fresh;
  }

  // Note [Sizes given by the context]
  // Futhark infers a size parameter that no parameter has as a whole size from the
  // context of a call (`def mat [m][n] (v: t) : [m][n]t` used as `mat 0 : [3][4]i32`,
  // `def f [k] (ps: [2 * k]t)` applied to a [2 * (n / 3)]t), and the sizes of the result
  // of unflatten and split (`unflatten xs` where xs : [n * m]t, or where the context
  // requires [n][m]t). Kerb makes such sizes explicit once the definition's sizes are
  // solved: the function gets i64 parameters in front of its own (make_sizes_explicit)
  // and each use passes the sizes unification found (give_sizes), as expressions in
  // scope at the use; unflatten and split become their forms with explicit sizes
  // (`unflatten n m xs`, `split n xs`). A size that unification did not decide is
  // ambiguous, as in Futhark.

  void give_sizes(PendingSizes &p) {
    std::vector<ExprPtr> args;
    bool builtin = p.names.empty() || p.names[0].empty();
    for (size_t i = 0; i < p.sizes.size(); i++) {
      Dim d = resolve_dim(p.sizes[i]);
      ExprPtr x = d.kind == Dim::Unknown ? nullptr : size_expr(term_of_dim(d), p.scope, p.use->span);
      if (!x) {
        if (builtin) return; // unflatten or split keep their sizes to the first-order checker
        if (d.kind == Dim::Var && d.name[0] == '?')
          error_at(p.use->span, fmt::format("Ambiguous size \"{}\" arising from instantiated size "
                                            "parameter of \"{}\".",
                                            p.names[i], p.fun));
        error_at(p.use->span,
                 fmt::format("the size parameter [{}] of '{}' is given by the context here, but "
                             "its size \"{}\" cannot be computed here (Kerb passes it explicitly); "
                             "bind the size with a let, as in let [{}] (xs: [{}]t) = ...",
                             p.names[i], p.fun, show_dim(d), p.names[i], p.names[i]));
      }
      args.push_back(std::move(x));
    }
    Expr &e = *p.use;
    if (e.kind == ExprKind::Var) {
      e.kind = ExprKind::Apply;
      e.args.clear();
    }
    for (size_t i = args.size(); i-- > 0;) e.args.insert(e.args.begin(), std::move(args[i]));
  }

  // The function's size parameters that its uses pass become parameters in front.
  void make_sizes_explicit(FunDef &f) {
    const Scheme &s = schemes_.at(&f);
    std::vector<Pattern> sizes;
    for (const std::string &n : s.explicit_sizes) {
      Pattern p;
      p.kind = Pattern::Id;
      p.name = n;
      p.span = f.name_span;
      p.type = Type::prim_type(PrimType::I64);
      p.annotation = p.type;
      sizes.push_back(std::move(p));
      f.size_params.erase(std::find(f.size_params.begin(), f.size_params.end(), n));
    }
    f.params.insert(f.params.begin(), sizes.begin(), sizes.end());
  }

  // An expression computing size `t` at a use whose locals are `scope`: an i64, or null
  // when it cannot be computed there.
  ExprPtr size_expr(const SizeTerm &t, const std::vector<Binding> &scope, const Span &span) {
    ExprPtr x = size_operand(t, scope, span);
    if (!x) return nullptr;
    Type xt = zonk(x->type);
    if (xt.is_prim(PrimType::I64)) return x;
    if (!xt.is_prim() || !is_int(xt.prim)) return nullptr;
    std::string conv = std::string("i64.") + prim_name(xt.prim);
    std::optional<PrimBuiltin> b = prim_builtin_from_name(conv);
    if (!b) return nullptr;
    ExprPtr c = make_expr(ExprKind::Apply, span);
    c->name = conv;
    c->callee = Callee::PrimBuiltin;
    c->prim_builtin = *b;
    c->type = Type::prim_type(PrimType::I64);
    c->args.push_back(std::move(x));
    return c;
  }

  ExprPtr size_operand(const SizeTerm &t, const std::vector<Binding> &scope, const Span &span) {
    switch (t.kind) {
    case SizeTerm::Int: {
      if (t.value < 0) return nullptr;
      ExprPtr x = make_expr(ExprKind::IntLit, span);
      x->int_value = uint64_t(t.value);
      x->suffix = PrimType::I64;
      x->type = Type::prim_type(PrimType::I64);
      return x;
    }
    case SizeTerm::Name: {
      if (is_internal_size_name(t.text)) return nullptr;
      ExprPtr x = make_expr(ExprKind::Var, span);
      x->name = t.text;
      for (size_t i = scope.size(); i-- > 0;)
        if (scope[i].name == t.text) {
          if (scope[i].fun) return nullptr;
          x->callee = Callee::Local;
          x->type = zonk(scope[i].type);
          return x;
        }
      FunDef *f = find_top(t.text);
      if (!f || !f->params.empty() || !f->type_params.empty()) return nullptr;
      x->callee = Callee::Function;
      x->fun = f;
      x->type = f->ret_type;
      return x;
    }
    case SizeTerm::Op: {
      static const std::pair<const char *, BinOp> ops[] = {
          {"+", BinOp::Add}, {"-", BinOp::Sub}, {"*", BinOp::Mul}, {"/", BinOp::Div},
          {"%", BinOp::Mod}, {"//", BinOp::Quot}, {"%%", BinOp::Rem}, {"**", BinOp::Pow}};
      for (const auto &[text, op] : ops) {
        if (t.text != text) continue;
        ExprPtr a = size_expr(t.args[0], scope, span), b = size_expr(t.args[1], scope, span);
        if (!a || !b) return nullptr;
        return binary_expr(op, std::move(a), std::move(b), Type::prim_type(PrimType::I64), span);
      }
      return nullptr;
    }
    case SizeTerm::Apply: {
      ExprPtr x = make_expr(ExprKind::Apply, span);
      x->name = t.text;
      for (const SizeTerm &a : t.args) {
        ExprPtr arg = size_operand(a, scope, span);
        if (!arg) return nullptr;
        x->args.push_back(std::move(arg));
      }
      if (std::optional<PrimBuiltin> b = prim_builtin_from_name(t.text)) {
        Type ft = prim_builtin_type(*b);
        if (ft.kind != Type::Function || x->args.size() != 1 ||
            !same_shape_class(ft.elems[0], x->args[0]->type) || ft.elems[1].kind == Type::Function)
          return nullptr;
        x->callee = Callee::PrimBuiltin;
        x->prim_builtin = *b;
        x->type = ft.elems[1];
        return x;
      }
      if (t.text == "length" && x->args.size() == 1 && x->args[0]->type.is_array()) {
        x->callee = Callee::ArrayBuiltin;
        x->array_builtin = ArrayBuiltin::Length;
        x->type = Type::prim_type(PrimType::I64);
        return x;
      }
      return nullptr;
    }
    case SizeTerm::Opaque: return nullptr;
    }
    return nullptr;
  }

  void finish(FunDef &f) {
    causality(*f.body, {});
    for (PendingSizes &p : pending_sizes_) give_sizes(p);
    for (FunDef *d : explicit_defs_) make_sizes_explicit(*d);
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
