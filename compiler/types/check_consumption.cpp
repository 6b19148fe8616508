// The consumption checker (see check_consumption.h).
//
// Note [Aliases and consumption]
// This is Futhark's consumption checker (Language.Futhark.TypeChecker.Consumption),
// rewritten for Kerb's syntax tree; it rejects and accepts what Futhark does, with its
// messages.
//
// Every binding of the function being checked (a parameter, a let, a loop parameter, a
// local function) is a variable with an id of its own; so is each call's result and each
// loop's result (named for messages "result of applying "f" (at 4:3-9)"), and each
// top-level constant. A value's aliases are the variables whose memory it may share,
// one set per array, type parameter and function in its type (Als, shaped like the
// type: tuples and records part by part, sum types payload by payload). A variable
// aliases itself: `let ys = xs[1:]` gives ys the aliases {xs, ys}. A function value's
// set is what its closure captures.
//
// Consuming a value (an in-place update `xs with [i] = v`, an argument for a unique
// parameter `*[]t`) consumes every variable it aliases; using a value that aliases a
// consumed variable is an error, named for that variable. Only variables in scope whose
// binding is consumable may be consumed: a let, a unique parameter, a loop parameter; not
// a non-unique parameter, a top-level constant, nor, inside an anonymous function, a
// local function or a loop body, anything bound outside it. Variables out of scope (a
// call's result, a let inside a branch) are still followed: using them after their
// consumption is an error too.
//
// Functions. A function's type carries which parameters consume (`*`) and whether its
// result is unique; a function without a return type gets a unique result where the
// result aliases only consuming parameters and no two of its parts alias one another
// (Futhark's inferReturnUniqueness). A call's non-unique result aliases the call's own
// result variable, the function's closure and every argument whose parameter does not
// consume. A partial application that consumes (`let f = update xs`), or an argument of
// function type whose evaluation consumes (`map (update xs) is`), is an error: the
// consumption would happen again at each call. A function passed where a parameter of
// function type is expected may consume only where that type says so, and must give a
// unique result where that type does.
//
// Loops. A loop parameter consumes where the body consumes it (or returns, for a
// consumed parameter, another parameter); the initial value is then consumed, and the
// body may not use what that consumes. The value returned for a consumed parameter may
// not alias anything from outside the loop or another parameter's value.
//
// Results. A unique result may not alias a non-unique parameter, and no two unique
// parts of a result may alias each other; the result of a function (with parameters)
// may not alias a top-level constant.
//
// Kerb's built-ins follow Futhark's prelude: scatter and reduce_by_index consume their
// destination; map, scan, filter, iota, replicate, copy, concat, ... give unique results;
// transpose, flatten, zip, take, reverse, reduce, ... results alias their arguments.
//
// Where Kerb's tree differs from Futhark's: `xs with [i].f = v` arrives as `xs with [i] =
// (xs[i] with f = v)` and is checked as the one update it is (path_value); an entry
// point whose value is a function arrives with parameters (infer.cpp's eta_expand) and
// is checked against its written type; a constant of a size-polymorphic type aliases
// nothing, as Futhark's instantiations do not; nor does a constant whose type Futhark
// sees as a module type's abstract type (Note [Constants of abstract types]).
#include "compiler/types/check_consumption.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace kerb {

namespace {

using Aliases = std::set<int>;

std::string link(const char *name) {
  return fmt::format(" For more information, see "
                     "https://futhark.readthedocs.io/en/latest/error-index.html#{}",
                     name);
}

// ---- types with uniqueness

bool is_leaf(const Type &t) {
  return t.kind == Type::Array || t.kind == Type::Named || t.kind == Type::TypeVar;
}
bool is_record(const Type &t) { return t.kind == Type::Tuple || t.kind == Type::Record; }

// A `*` on a tuple or record applies to its components.
Type push_unique(Type t) {
  if (is_record(t)) {
    for (Type &e : t.elems) {
      e.unique = e.unique || t.unique;
      e = push_unique(std::move(e));
    }
    t.unique = false;
  } else if (t.kind == Type::Function) {
    for (Type &e : t.elems) e = push_unique(std::move(e));
  } else if (t.kind == Type::Sum) {
    for (auto &p : t.payloads)
      for (Type &e : p) {
        e.unique = e.unique || t.unique;
        e = push_unique(std::move(e));
      }
    t.unique = false;
  }
  return t;
}

// Whether a parameter of this type consumes (Futhark's diet: any unique part).
bool consumes(const Type &t) {
  if (is_leaf(t)) return t.unique;
  if (is_record(t)) {
    if (t.unique) return true;
    for (const Type &e : t.elems)
      if (consumes(e)) return true;
  }
  if (t.kind == Type::Sum)
    for (const auto &p : t.payloads)
      for (const Type &e : p)
        if (consumes(e)) return true;
  return false;
}

// Whether a result of this type is unique.
bool unique(const Type &t) {
  if (is_leaf(t)) return t.unique;
  if (is_record(t) || t.kind == Type::Sum) return consumes(t);
  return false;
}

// `t` with every array and type parameter unique (or not), functions aside.
Type set_unique(Type t, bool u) {
  if (is_leaf(t)) t.unique = u;
  if (is_record(t)) {
    t.unique = false;
    for (Type &e : t.elems) e = set_unique(std::move(e), u);
  }
  if (t.kind == Type::Sum)
    for (auto &p : t.payloads)
      for (Type &e : p) e = set_unique(std::move(e), u);
  return t;
}

// `t` without any uniqueness mark, also inside function types.
Type strip_marks(Type t) {
  t.unique = false;
  if (t.kind != Type::Array)
    for (Type &e : t.elems) e = strip_marks(std::move(e));
  for (auto &p : t.payloads)
    for (Type &e : p) e = strip_marks(std::move(e));
  return t;
}

// Whether a parameter of this type may be returned as a unique result.
bool consumable_param_type(const Type &t) {
  if (is_leaf(t)) return t.unique;
  if (is_record(t)) {
    for (const Type &e : t.elems)
      if (!consumable_param_type(e)) return false;
    return true;
  }
  if (t.kind == Type::Sum) {
    for (const auto &p : t.payloads)
      for (const Type &e : p)
        if (!consumable_param_type(e)) return false;
    return true;
  }
  return t.kind != Type::Function;
}

// ---- aliases shaped like a type

struct Als {
  enum Kind : uint8_t { None, Leaf, Fun, Rec, Sum } kind = None;
  bool abstract = false;             // Leaf: a type parameter's value
  Aliases ids;                       // Leaf, Fun
  std::vector<Als> parts;            // Rec: tuple components, record fields (type order)
  std::vector<std::vector<Als>> cons; // Sum: each constructor's payload
  Type fn;                           // Fun: its type, with uniqueness marks
};

void collect(const Als &a, bool with_functions, Aliases &out) {
  if (a.kind == Als::Leaf || (a.kind == Als::Fun && with_functions))
    out.insert(a.ids.begin(), a.ids.end());
  for (const Als &p : a.parts) collect(p, with_functions, out);
  for (const auto &c : a.cons)
    for (const Als &p : c) collect(p, with_functions, out);
}

Aliases aliases(const Als &a) {
  Aliases out;
  collect(a, true, out);
  return out;
}

// Futhark's arrayAliases: the aliases of the arrays, not of the functions.
Aliases array_aliases(const Als &a) {
  Aliases out;
  collect(a, false, out);
  return out;
}

// Aliases `ids` in every array, type parameter and function of type `t`.
Als shaped(const Type &t, const Aliases &ids) {
  Als out;
  switch (t.kind) {
  case Type::Array: case Type::Named: case Type::TypeVar:
    out.kind = Als::Leaf;
    out.abstract = t.kind != Type::Array;
    out.ids = ids;
    return out;
  case Type::Function:
    out.kind = Als::Fun;
    out.ids = ids;
    out.fn = t;
    return out;
  case Type::Tuple: case Type::Record:
    out.kind = Als::Rec;
    for (const Type &e : t.elems) out.parts.push_back(shaped(e, ids));
    return out;
  case Type::Sum:
    out.kind = Als::Sum;
    for (const auto &p : t.payloads) {
      out.cons.emplace_back();
      for (const Type &e : p) out.cons.back().push_back(shaped(e, ids));
    }
    return out;
  default: return out;
  }
}

// `a` made to fit type `t`: where its structure differs (a type parameter's value at an
// instance that is a tuple), each part of `t` gets all of its aliases.
Als reshape(const Als &a, const Type &t) {
  switch (t.kind) {
  case Type::Function:
    if (a.kind == Als::Fun) return a;
    return shaped(t, aliases(a));
  case Type::Tuple: case Type::Record:
    if (a.kind == Als::Rec && a.parts.size() == t.elems.size()) {
      Als out = a;
      for (size_t i = 0; i < t.elems.size(); i++) out.parts[i] = reshape(a.parts[i], t.elems[i]);
      return out;
    }
    return shaped(t, aliases(a));
  case Type::Sum:
    if (a.kind == Als::Sum && a.cons.size() == t.payloads.size()) {
      Als out = a;
      for (size_t i = 0; i < t.payloads.size(); i++) {
        if (out.cons[i].size() != t.payloads[i].size()) return shaped(t, aliases(a));
        for (size_t j = 0; j < t.payloads[i].size(); j++)
          out.cons[i][j] = reshape(a.cons[i][j], t.payloads[i][j]);
      }
      return out;
    }
    return shaped(t, aliases(a));
  default: return shaped(t, aliases(a));
  }
}

// `a` with `ids` added to every set.
Als add_aliases(Als a, const Aliases &ids) {
  if (a.kind == Als::Leaf || a.kind == Als::Fun) a.ids.insert(ids.begin(), ids.end());
  for (Als &p : a.parts) p = add_aliases(std::move(p), ids);
  for (auto &c : a.cons)
    for (Als &p : c) p = add_aliases(std::move(p), ids);
  return a;
}

// `a` without the variables in `gone`.
Als remove_aliases(Als a, const Aliases &gone) {
  for (int v : gone) a.ids.erase(v);
  for (Als &p : a.parts) p = remove_aliases(std::move(p), gone);
  for (auto &c : a.cons)
    for (Als &p : c) p = remove_aliases(std::move(p), gone);
  return a;
}

// Futhark's combineAliases: the structure of `a`, the aliases of both.
Als combine(const Als &a, const Als &b) {
  if (a.kind == Als::Rec && b.kind == Als::Rec && a.parts.size() == b.parts.size()) {
    Als out = a;
    for (size_t i = 0; i < a.parts.size(); i++) out.parts[i] = combine(a.parts[i], b.parts[i]);
    return out;
  }
  if (a.kind == Als::Sum && b.kind == Als::Sum && a.cons.size() == b.cons.size()) {
    Als out = a;
    for (size_t i = 0; i < a.cons.size(); i++)
      for (size_t j = 0; j < a.cons[i].size() && j < b.cons[i].size(); j++)
        out.cons[i][j] = combine(a.cons[i][j], b.cons[i][j]);
    return out;
  }
  if (a.kind == Als::None) return a;
  return add_aliases(a, aliases(b));
}

// The alias sets of a value's parts, records flattened (Futhark's aliasParts).
void alias_parts(const Als &a, std::vector<Aliases> &out) {
  if (a.kind == Als::Rec) {
    for (const Als &p : a.parts) alias_parts(p, out);
    return;
  }
  out.push_back(aliases(a));
}

// The variables that two parts of a value alias (a type parameter's value counts
// twice: it may hold several arrays).
std::set<int> aliases_multiple_times(const Als &a) {
  std::map<int, int> count;
  std::function<void(const Als &)> delve = [&](const Als &x) {
    if (x.kind == Als::Rec) {
      for (const Als &p : x.parts) delve(p);
      return;
    }
    int n = x.kind == Als::Leaf && x.abstract ? 2 : 1;
    for (int v : aliases(x)) count[v] += n;
  };
  delve(a);
  std::set<int> out;
  for (auto [v, n] : count)
    if (n > 1) out.insert(v);
  return out;
}

// The result of applying a function whose result type is `ret` (the parameter consumes
// or not) to an argument with aliases `arg`; `appres`: the call's own aliases.
Als return_type(const Aliases &appres, const Type &ret, bool consume, const Als &arg) {
  Aliases with_arg = appres;
  if (!consume) {
    Aliases a = aliases(arg);
    with_arg.insert(a.begin(), a.end());
  }
  switch (ret.kind) {
  case Type::Array: case Type::Named: case Type::TypeVar: {
    Als out = shaped(ret, ret.unique ? Aliases{} : with_arg);
    return out;
  }
  case Type::Function: return shaped(ret, with_arg);
  case Type::Tuple: case Type::Record: {
    Als out;
    out.kind = Als::Rec;
    for (const Type &e : ret.elems) out.parts.push_back(return_type(appres, e, consume, arg));
    return out;
  }
  case Type::Sum: {
    Als out;
    out.kind = Als::Sum;
    for (const auto &p : ret.payloads) {
      out.cons.emplace_back();
      for (const Type &e : p) out.cons.back().push_back(return_type(appres, e, consume, arg));
    }
    return out;
  }
  default: return {};
  }
}

// What Futhark's prelude says of a built-in: the parameter that it consumes, and
// whether its result is unique.
std::optional<size_t> builtin_consumes(ArrayBuiltin b) {
  if (b == ArrayBuiltin::Scatter || b == ArrayBuiltin::ReduceByIndex) return 0;
  return std::nullopt;
}

bool builtin_unique_result(ArrayBuiltin b) {
  switch (b) {
  case ArrayBuiltin::Transpose: case ArrayBuiltin::Reverse: case ArrayBuiltin::Flatten:
  case ArrayBuiltin::Unflatten: case ArrayBuiltin::Unflatten3d:
  case ArrayBuiltin::Unflatten4d: case ArrayBuiltin::Take: case ArrayBuiltin::Drop:
  case ArrayBuiltin::Split: case ArrayBuiltin::Tail: case ArrayBuiltin::Init:
  case ArrayBuiltin::Rotate: case ArrayBuiltin::Opaque: case ArrayBuiltin::Head:
  case ArrayBuiltin::Last: case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2:
  case ArrayBuiltin::Zip3: case ArrayBuiltin::Zip4: case ArrayBuiltin::Zip5:
  case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: case ArrayBuiltin::Unzip3:
  case ArrayBuiltin::Unzip4: case ArrayBuiltin::Unzip5: case ArrayBuiltin::Reduce:
  case ArrayBuiltin::ReduceComm: case ArrayBuiltin::Partition: case ArrayBuiltin::Foldl:
  case ArrayBuiltin::Foldr:
    return false;
  default: return true;
  }
}

// The function type `params -> result` (curried).
Type chain(const std::vector<Type> &params, Type result) {
  for (size_t i = params.size(); i-- > 0;) result = Type::function(params[i], std::move(result));
  return result;
}

// The type of a function after `n` arguments.
Type after(const Type &fn, size_t n) {
  const Type *t = &fn;
  for (size_t i = 0; i < n && t->kind == Type::Function; i++) t = &t->elems[1];
  return *t;
}

// A function type's final result with its uniqueness set.
Type with_final_uniqueness(Type fn, bool u) {
  if (fn.kind == Type::Function) {
    fn.elems[1] = with_final_uniqueness(std::move(fn.elems[1]), u);
    return fn;
  }
  return set_unique(std::move(fn), u);
}

// A parameter pattern's type with the uniqueness marks written in it.
Type with_marks(const Pattern &p) {
  if (p.annotation) return push_unique(*p.annotation);
  Type t = strip_marks(p.type); // inference does not make a parameter consuming
  if (p.kind == Pattern::Tuple && t.kind == Type::Tuple && t.elems.size() == p.elems.size())
    for (size_t i = 0; i < p.elems.size(); i++) t.elems[i] = with_marks(p.elems[i]);
  if (p.kind == Pattern::Record && t.kind == Type::Record)
    for (size_t i = 0; i < p.elems.size(); i++)
      if (int k = t.field_index(p.fields[i]); k >= 0) t.elems[size_t(k)] = with_marks(p.elems[i]);
  return push_unique(t);
}

// The names a pattern binds.
void pattern_names(const Pattern &p, std::vector<std::string> &out) {
  if (p.kind == Pattern::Id) out.push_back(p.name);
  for (const Pattern &e : p.elems) pattern_names(e, out);
}

std::string short_text(const Span &s) {
  std::string text(s.text());
  if (size_t nl = text.find('\n'); nl != std::string::npos) text = text.substr(0, nl) + " ...";
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// A location relative to another, as Futhark writes it: without the file when the same.
std::string rel(const Span &from, const Span &to) {
  return from.file == to.file ? to.place() : to.location();
}

// Whether a name refers to a local binding (not a top-level function or a built-in).
bool local_reference(const Expr &e) {
  return e.callee == Callee::Local || e.callee == Callee::Unresolved ||
         (e.callee == Callee::Function && e.fun && e.fun->is_local);
}

// The local names an expression refers to without binding them.
void free_names(const Expr &e, std::vector<std::string> &bound, std::set<std::string> &out);

void free_in_children(const Expr &e, std::vector<std::string> &bound, std::set<std::string> &out) {
  for (const ExprPtr &a : e.args)
    if (a) free_names(*a, bound, out);
  for (const IndexPart &p : e.indices)
    for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
      if (*x) free_names(**x, bound, out);
}

void free_names(const Expr &e, std::vector<std::string> &bound, std::set<std::string> &out) {
  auto mention = [&](const std::string &n) {
    if (std::find(bound.begin(), bound.end(), n) == bound.end()) out.insert(n);
  };
  size_t mark = bound.size();
  switch (e.kind) {
  case ExprKind::Var:
    if (local_reference(e)) mention(e.name);
    return;
  case ExprKind::Apply: case ExprKind::OpSection:
    if (!e.name.empty() && local_reference(e)) mention(e.name);
    free_in_children(e, bound, out);
    return;
  case ExprKind::Let:
    free_names(*e.args[0], bound, out);
    pattern_names(e.pattern, bound);
    free_names(*e.args[1], bound, out);
    break;
  case ExprKind::LetFun:
    for (const Pattern &p : e.fundef->params) pattern_names(p, bound);
    free_names(*e.fundef->body, bound, out);
    bound.resize(mark);
    bound.push_back(e.fundef->name);
    free_names(*e.args[0], bound, out);
    break;
  case ExprKind::Lambda:
    for (const Pattern &p : e.params) pattern_names(p, bound);
    free_names(*e.args[0], bound, out);
    break;
  case ExprKind::Match:
    free_names(*e.args[0], bound, out);
    for (size_t i = 0; i < e.params.size(); i++) {
      pattern_names(e.params[i], bound);
      free_names(*e.args[i + 1], bound, out);
      bound.resize(mark);
    }
    break;
  case ExprKind::Loop: {
    if (e.args[0]) free_names(*e.args[0], bound, out);
    else {
      std::vector<std::string> implicit;
      pattern_names(e.pattern, implicit);
      for (const std::string &n : implicit) mention(n);
    }
    if (e.loop_form != LoopForm::While) free_names(*e.args[1], bound, out);
    pattern_names(e.pattern, bound);
    if (e.loop_form == LoopForm::For) bound.push_back(e.name);
    if (e.loop_form == LoopForm::ForIn) pattern_names(e.pattern2, bound);
    if (e.loop_form == LoopForm::While) free_names(*e.args[1], bound, out);
    free_names(*e.args[2], bound, out);
    break;
  }
  default: free_in_children(e, bound, out); return;
  }
  bound.resize(mark);
}

// ---- the checker

struct Entry {
  Als als;
  bool consumable = false;
  const char *why = ""; // why it is not consumable, for messages
};

// A parameter's variable, with its type (uniqueness marks included).
struct ParamVar {
  int var;
  Type type;
  const Pattern *pattern;
};

class Checker {
public:
  explicit Checker(const Program &program) : prog_(program) {}

  void run() {
    // A constant of a size-polymorphic type (`def iiota [n] : [n]i64`) is made anew
    // at each use, as Futhark's instantiations are.
    for (const auto &d : prog_.defs)
      if (d->params.empty() && d->size_params.empty()) {
        // Messages name a module's constant without its module (`empty`, not `M.empty`).
        int v = new_var(d->name.substr(d->name.rfind('.') + 1));
        globals_[d.get()] = v;
        global_ids_.insert(v);
      }
    for (const auto &d : prog_.defs)
      if (!d->from_prelude) check_def(*d);
  }

private:
  const Program &prog_;
  std::vector<std::string> names_; // variable id -> its name as written ("" if made up)
  std::vector<std::string> descs_; // variable id -> how messages name it
  std::map<const FunDef *, int> globals_;
  std::set<int> global_ids_;
  std::map<const FunDef *, Type> rets_; // inferred result uniqueness
  std::map<int, Entry> vtable_;
  std::vector<std::pair<std::string, int>> scope_;
  std::map<int, Span> consumed_;
  int barrier_ = 0; // variables older than this are not consumable here
  Span def_span_;

  int new_var(const std::string &name, std::string desc = "") {
    names_.push_back(name);
    descs_.push_back(desc.empty() ? fmt::format("variable \"{}\"", name) : std::move(desc));
    return int(names_.size()) - 1;
  }
  int next_var() const { return int(names_.size()); }

  // Bound: in scope, or a top-level constant (Futhark's AliasBound).
  bool bound(int v) const { return vtable_.count(v) || global_ids_.count(v); }
  Aliases bound_only(const Aliases &a) const {
    Aliases out;
    for (int v : a)
      if (bound(v)) out.insert(v);
    return out;
  }

  struct Mark {
    size_t scope;
    int var;
  };
  Mark mark() const { return {scope_.size(), next_var()}; }
  void pop(const Mark &m) {
    scope_.resize(m.scope);
    vtable_.erase(vtable_.lower_bound(m.var), vtable_.end());
  }

  int bind_var(const std::string &name, Als als, bool consumable, const char *why = "") {
    int v = new_var(name);
    vtable_[v] = Entry{std::move(als), consumable, why};
    scope_.emplace_back(name, v);
    return v;
  }

  std::optional<int> lookup(const std::string &name) const {
    for (size_t i = scope_.size(); i-- > 0;)
      if (scope_[i].first == name) return scope_[i].second;
    return std::nullopt;
  }

  // Runs f, then forgets what it consumed; returns that too (Futhark's contain).
  template <typename F> std::pair<Als, std::map<int, Span>> contain(F &&f) {
    std::map<int, Span> prev = consumed_;
    Als r = f();
    std::map<int, Span> fresh;
    for (const auto &[v, s] : consumed_)
      if (!prev.count(v)) fresh.emplace(v, s);
    consumed_ = std::move(prev);
    return {std::move(r), std::move(fresh)};
  }
  void consumed(const std::map<int, Span> &vs) {
    for (const auto &[v, s] : vs) consumed_.emplace(v, s);
  }

  // ---- the errors

  void check_if_consumed(const Span &at, const Aliases &als) {
    for (int v : als)
      if (auto c = consumed_.find(v); c != consumed_.end())
        error_at(at, fmt::format("Using {}, but this was consumed at {}. (Possibly through "
                                 "aliases.){}",
                                 descs_[size_t(v)], rel(at, c->second), link("use-after-consume")));
  }

  void consume_aliases(const Span &at, const Aliases &als) {
    for (int v : als) {
      if (!bound(v)) continue;
      auto e = vtable_.find(v);
      if (e == vtable_.end() || !e->second.consumable || v < barrier_) {
        std::string why = e == vtable_.end() ? "a top-level constant"
                          : e->second.consumable
                              ? "made outside this anonymous function, local function or loop body"
                              : e->second.why;
        error_at(at, fmt::format("Consuming {}, which is not consumable{}.{}", descs_[size_t(v)],
                                 why.empty() ? "" : " (it is " + why + ")", link("not-consumable")));
      }
    }
    check_if_consumed(at, als);
    for (int v : als) consumed_.emplace(v, at);
  }

  // ---- definitions

  void check_def(const FunDef &f) {
    scope_.clear();
    vtable_.clear();
    consumed_.clear();
    barrier_ = next_var();
    def_span_ = f.span;
    if (eta_expanded(f)) {
      // `entry g : []f32 -> f32 = f`: the function must have the type written.
      auto [fn, cons] = contain([&] { return expr(*f.body->args[0]); });
      Type want = f.ret_annotation ? push_unique(*f.ret_annotation) : strip_marks(f.ret_type);
      for (size_t i = f.params.size(); i-- > 0;) want = Type::function(with_marks(f.params[i]), want);
      if (fn.kind == Als::Fun)
        check_function_type(want, fn.fn, f.body->span, "Function body does not have expected type: ");
    }
    std::vector<ParamVar> params = bind_params(f.params);
    Als body = expr(*f.body);
    Type ret = f.ret_annotation ? push_unique(*f.ret_annotation) : strip_marks(f.ret_type);
    check_result(f.body->span, params, !f.params.empty(), ret, body);
    if (f.ret_annotation) {
      if (f.params.empty() && unique(ret))
        error_at(f.span, "A top-level constant cannot have a unique type.");
      // A function value ascribed a function type (`def g : []f32 -> f32 = f`).
      if (body.kind == Als::Fun)
        check_function_type(ret, body.fn, f.body->span, "Function body does not have expected type: ");
    } else {
      rets_[&f] = infer_return_uniqueness(params, !f.params.empty(), ret, body);
    }
  }

  // An entry point whose value is a function, given parameters by the type checker
  // (infer.cpp, eta_expand): `entry g : []f32 -> f32 = f` is `entry g x0 = f x0`.
  static bool eta_expanded(const FunDef &f) {
    if (f.params.empty() || f.body->kind != ExprKind::ApplyExpr) return false;
    for (const Pattern &p : f.params)
      if (p.kind != Pattern::Id || p.span.begin != f.name_span.begin) return false;
    return f.body->args.size() == f.params.size() + 1;
  }

  // The checks on a function's (or lambda's) result, its parameters still in scope.
  void check_result(const Span &at, const std::vector<ParamVar> &params, bool has_params,
                    const Type &ret, const Als &body) {
    check_return_alias(at, params, ret, body);
    if (has_params)
      for (int v : bound_only(array_aliases(body)))
        if (global_ids_.count(v))
          error_at(at, fmt::format("Function result aliases the free variable \"{}\". Use "
                                   "\"copy\" to break the aliasing.{}",
                                   names_[size_t(v)], link("alias-free-variable")));
  }

  void return_aliases(const Type &expected, const Als &got,
                      std::vector<std::pair<bool, Aliases>> &out) {
    if (is_record(expected) && got.kind == Als::Rec && got.parts.size() == expected.elems.size()) {
      for (size_t i = 0; i < expected.elems.size(); i++)
        return_aliases(expected.elems[i], got.parts[i], out);
      return;
    }
    out.emplace_back(unique(expected), aliases(got));
  }

  void check_return_alias(const Span &at, const std::vector<ParamVar> &params, const Type &ret,
                          const Als &body) {
    std::vector<std::pair<bool, Aliases>> parts;
    return_aliases(ret, reshape(body, ret), parts);
    std::set<std::pair<bool, int>> seen;
    auto aliased = [&] {
      error_at(at, "A unique-typed component of the return value is aliased to some other "
                   "component." + link("unique-return-aliased"));
    };
    for (const auto &[u, names] : parts) {
      for (int v : names)
        if (seen.count({true, v}) || (u && seen.count({false, v}))) aliased();
      if (u)
        for (const ParamVar &p : params)
          if (!consumable_param_type(p.type) && names.count(p.var))
            error_at(at, fmt::format("Unique-typed return value is aliased to \"{}\", which is "
                                     "not consumable.{}",
                                     names_[size_t(p.var)], link("return-aliased")));
      for (int v : names) seen.insert({u, v});
    }
  }

  Type infer_return_uniqueness(const std::vector<ParamVar> &params, bool has_params,
                               const Type &ret, const Als &body) {
    if (!has_params) return set_unique(ret, false);
    std::set<int> consuming;
    for (const ParamVar &p : params)
      if (consumes(p.type)) consuming.insert(p.var);
    std::set<int> forbidden = aliases_multiple_times(body);
    std::function<Type(const Type &, const Als &)> delve = [&](const Type &t, const Als &a) {
      if (is_record(t) && a.kind == Als::Rec && a.parts.size() == t.elems.size()) {
        Type out = t;
        for (size_t i = 0; i < t.elems.size(); i++) out.elems[i] = delve(t.elems[i], a.parts[i]);
        return out;
      }
      if (t.kind == Type::Sum && a.kind == Als::Sum && a.cons.size() == t.payloads.size()) {
        Type out = t;
        for (size_t i = 0; i < t.payloads.size(); i++)
          for (size_t j = 0; j < t.payloads[i].size() && j < a.cons[i].size(); j++)
            out.payloads[i][j] = delve(t.payloads[i][j], a.cons[i][j]);
        return out;
      }
      bool u = true;
      for (int v : bound_only(array_aliases(a)))
        if (!consuming.count(v)) u = false;
      for (int v : aliases(a))
        if (forbidden.count(v)) u = false;
      return set_unique(t, u);
    };
    return delve(ret, reshape(body, ret));
  }

  // The type of a function as its callers see it.
  Type fun_type(const FunDef &f) {
    Type r;
    if (auto it = rets_.find(&f); it != rets_.end()) r = it->second;
    else if (f.ret_annotation) r = push_unique(*f.ret_annotation);
    else r = strip_marks(f.ret_type);
    for (size_t i = f.params.size(); i-- > 0;) r = Type::function(with_marks(f.params[i]), r);
    return r;
  }

  // A function value whose type is `actual` where type `expected` is wanted: it may
  // consume only where `expected` does, and must give a unique result where it does.
  void check_function_type(const Type &expected, const Type &actual, const Span &at,
                           const std::string &head) {
    const Type *x = &expected, *y = &actual;
    while (x->kind == Type::Function && y->kind == Type::Function) {
      if (consumes(y->elems[0]) && !consumes(x->elems[0]))
        error_at(at, fmt::format("{}parameters {} and {} are incompatible regarding consuming "
                                 "their arguments.",
                                 head, y->elems[0].str(), x->elems[0].str()));
      x = &x->elems[1];
      y = &y->elems[1];
    }
    if (x->kind != Type::Function && y->kind != Type::Function && unique(*x) && !unique(*y))
      error_at(at, fmt::format("{}return types {} and {} have incompatible uniqueness.", head,
                               y->str(), x->str()));
  }

  // ---- patterns

  // Binds a parameter pattern: each variable aliases itself only and is consumable when
  // its type is unique.
  void bind_param(const Pattern &p, const Type &t, std::vector<ParamVar> &out,
                  const char *why = "a non-unique parameter") {
    switch (p.kind) {
    case Pattern::Id: {
      int v = next_var();
      bind_var(p.name, shaped(t, {v}), consumes(t), why);
      out.push_back({v, t, &p});
      return;
    }
    case Pattern::Tuple:
      for (size_t i = 0; i < p.elems.size(); i++)
        bind_param(p.elems[i], is_record(t) && i < t.elems.size() ? t.elems[i] : p.elems[i].type, out,
                   why);
      return;
    case Pattern::Record:
      for (size_t i = 0; i < p.elems.size(); i++) {
        int k = t.kind == Type::Record ? t.field_index(p.fields[i]) : -1;
        bind_param(p.elems[i], k >= 0 ? t.elems[size_t(k)] : p.elems[i].type, out, why);
      }
      return;
    default: return;
    }
  }

  std::vector<ParamVar> bind_params(const std::vector<Pattern> &params) {
    std::vector<ParamVar> out;
    for (const Pattern &p : params) bind_param(p, with_marks(p), out);
    return out;
  }

  // Binds a let or case pattern to a value: each variable aliases its part of the value
  // and itself, and is consumable.
  void bind_pattern(const Pattern &p, const Als &value) {
    Als a = reshape(value, p.type);
    switch (p.kind) {
    case Pattern::Id: {
      int v = next_var();
      bind_var(p.name, add_aliases(a, {v}), true);
      return;
    }
    case Pattern::Tuple:
      for (size_t i = 0; i < p.elems.size() && i < a.parts.size(); i++) bind_pattern(p.elems[i], a.parts[i]);
      return;
    case Pattern::Record:
      for (size_t i = 0; i < p.elems.size(); i++) {
        int k = p.type.field_index(p.fields[i]);
        if (k >= 0 && size_t(k) < a.parts.size()) bind_pattern(p.elems[i], a.parts[size_t(k)]);
      }
      return;
    case Pattern::Constr: {
      int k = p.type.field_index(p.name);
      if (k < 0 || size_t(k) >= a.cons.size()) return;
      for (size_t i = 0; i < p.elems.size() && i < a.cons[size_t(k)].size(); i++)
        bind_pattern(p.elems[i], a.cons[size_t(k)][i]);
      return;
    }
    default: return;
    }
  }

  // ---- expressions

  Als expr(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit: case ExprKind::Hole:
    case ExprKind::OpenIn: case ExprKind::ProjSection:
      return shaped(e.type, {});
    case ExprKind::Var: return var(e);
    case ExprKind::Tuple: {
      Als out;
      out.kind = Als::Rec;
      for (const ExprPtr &a : e.args) out.parts.push_back(expr(*a));
      return reshape(out, e.type);
    }
    case ExprKind::Record: {
      Als out = shaped(e.type, {});
      for (size_t i = 0; i < e.args.size(); i++) {
        Als a = expr(*e.args[i]);
        int k = e.type.field_index(e.fields[i]);
        if (k >= 0 && size_t(k) < out.parts.size()) out.parts[size_t(k)] = a;
      }
      return reshape(out, e.type);
    }
    case ExprKind::ArrayLit: case ExprKind::Range: case ExprKind::Unary:
      for (const ExprPtr &a : e.args)
        if (a) expr(*a);
      return shaped(e.type, {});
    case ExprKind::Binary:
      // An operator: its operands are observed, its result is new.
      expr(*e.args[0]);
      expr(*e.args[1]);
      return shaped(e.type, {});
    case ExprKind::Assert:
      expr(*e.args[0]);
      return expr(*e.args[1]);
    case ExprKind::If:
      expr(*e.args[0]);
      return branches(e, {e.args[1].get(), e.args[2].get()}, {nullptr, nullptr}, {});
    case ExprKind::Match: {
      Als s = expr(*e.args[0]);
      std::vector<const Expr *> bodies;
      std::vector<const Pattern *> pats;
      for (size_t i = 0; i < e.params.size(); i++) {
        bodies.push_back(e.args[i + 1].get());
        pats.push_back(&e.params[i]);
      }
      return branches(e, bodies, pats, s);
    }
    case ExprKind::Let: {
      auto [v, cons] = contain([&] { return expr(*e.args[0]); });
      consumed(cons);
      if (!cons.empty() && contains_function(e.args[0]->type))
        error_at(e.args[0]->span, fmt::format("Let-bound expression of higher-order type {} "
                                              "contains consumption, which is not allowed.{}",
                                              e.args[0]->type.str(), link("contains-consumption")));
      Mark m = mark();
      bind_pattern(e.pattern, v);
      Als body = expr(*e.args[1]);
      pop(m);
      return body;
    }
    case ExprKind::LetFun: return let_fun(e);
    case ExprKind::Loop: return loop(e);
    case ExprKind::Index: {
      Als arr = expr(*e.args[0]);
      for (const IndexPart &p : e.indices)
        for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
          if (*x) expr(**x);
      return shaped(e.type, aliases(arr));
    }
    case ExprKind::Update: return update(e);
    case ExprKind::RecordUpdate: return update(e);
    case ExprKind::Project: case ExprKind::Field: {
      const Type &tt = e.args[0]->type;
      Als t = reshape(expr(*e.args[0]), tt);
      int k = e.kind == ExprKind::Project ? e.field : tt.field_index(e.name);
      if (k >= 0 && size_t(k) < t.parts.size()) return reshape(t.parts[size_t(k)], e.type);
      return shaped(e.type, aliases(t));
    }
    case ExprKind::Apply: case ExprKind::ApplyExpr: return apply(e);
    case ExprKind::Lambda: return lambda(e);
    case ExprKind::OpSection: return section(e);
    case ExprKind::Ascribe: case ExprKind::Coerce: case ExprKind::Unsafe:
      return reshape(expr(*e.args[0]), e.type);
    case ExprKind::Constr: {
      Als out = shaped(e.type, {});
      int k = e.type.field_index(e.name);
      std::vector<Als> payload;
      for (const ExprPtr &a : e.args) payload.push_back(expr(*a));
      if (k >= 0 && size_t(k) < out.cons.size() && out.cons[size_t(k)].size() == payload.size())
        out.cons[size_t(k)] = payload;
      return reshape(out, e.type);
    }
    }
    return {};
  }

  Als var(const Expr &e) {
    if (local_reference(e))
      if (auto v = lookup(e.name)) {
        const Als &als = vtable_.at(*v).als;
        check_if_consumed(e.span, aliases(als));
        return reshape(als, e.type);
      }
    return global_value(e);
  }

  // Note [Constants of abstract types]
  // Futhark's consumption checker gives a top-level constant no aliases where its type
  // is a type variable (Consumption.hs, observeVar: "#1675 FIXME"), and outside a
  // module ascribed a module type, the module type's abstract types are type variables:
  // `def s = H.init cs` with `module H : {type state  val init : ... -> state ...}` is
  // such a constant, and a function may return what aliases it (futhark-benchmarks'
  // poseidon-bench: `entry arity8 input = (mbatch_hash8 s input).0`, where the result
  // has a part that aliases s). Kerb's ascription is transparent (Note [Transparent
  // ascription] in elaborate_modules.cpp), so the constant's type is the module's, not
  // a name; what Futhark sees is recovered from the constant's definition: a full
  // application of a function that the module type specifies to give an abstract type
  // (FunDef::abstract_result), made outside that module, or another such
  // constant. Other constants alias themselves: a constant of a type the program can see
  // into, such as the same state made by a module without a module type, is rejected
  // as by Futhark.
  bool of_abstract_type(const FunDef &d, int depth = 0) const {
    if (!d.params.empty() || !d.body || depth > 64) return false;
    const Expr *e = d.body.get();
    while (e->kind == ExprKind::Ascribe) e = e->args[0].get();
    if (e->callee != Callee::Function || !e->fun) return false;
    if (e->kind == ExprKind::Var) return of_abstract_type(*e->fun, depth + 1);
    if (e->kind != ExprKind::Apply || e->args.size() != e->fun->params.size()) return false;
    // Inside the function's module (a name under its path, `H.s` for `H.init`), the
    // type is the module's own.
    const std::string &f = e->fun->name;
    size_t dot = f.rfind('.');
    if (dot == std::string::npos || d.name.starts_with(f.substr(0, dot + 1))) return false;
    return e->fun->abstract_result;
  }

  // A name that is not local: a top-level constant aliases itself (Note [Constants of
  // abstract types]: unless Futhark sees its type as abstract); a function or a
  // built-in has its type and no aliases.
  Als global_value(const Expr &e) { return global_value(e, e.type); }
  Als global_value(const Expr &e, const Type &type) {
    if (e.callee == Callee::Function && e.fun) {
      if (auto g = globals_.find(e.fun); g != globals_.end()) {
        if (of_abstract_type(*e.fun)) return shaped(type, {});
        // Only arrays alias the constant (Futhark: not values of a type parameter).
        std::function<Als(const Type &)> self = [&](const Type &t) {
          Als a = shaped(t, {});
          if (t.kind == Type::Array) a.ids.insert(g->second);
          if (is_record(t))
            for (size_t i = 0; i < t.elems.size(); i++) a.parts[i] = self(t.elems[i]);
          if (t.kind == Type::Sum) a = shaped(t, {g->second});
          return a;
        };
        return self(type);
      }
      if (!e.fun->params.empty()) return shaped(fun_type(*e.fun), {});
      return shaped(type, {});
    }
    if (e.callee == Callee::ArrayBuiltin && type.kind == Type::Function)
      return shaped(builtin_type(e.array_builtin, {}, type), {});
    return shaped(type, {});
  }

  // A built-in's type at this use: `args` the argument types, `rest` the type of the
  // application.
  static Type builtin_type(ArrayBuiltin b, std::vector<Type> args, const Type &rest) {
    for (Type &a : args) a = strip_marks(std::move(a));
    Type t = chain(args, strip_marks(rest));
    if (auto c = builtin_consumes(b)) {
      Type *x = &t;
      for (size_t i = 0; i < *c && x->kind == Type::Function; i++) x = &x->elems[1];
      if (x->kind == Type::Function) x->elems[0] = set_unique(x->elems[0], true);
    }
    return with_final_uniqueness(std::move(t), builtin_unique_result(b));
  }

  // Branches start from the same state; afterwards, what any of them consumed is
  // consumed, and no longer aliased by the result.
  Als branches(const Expr &e, const std::vector<const Expr *> &bodies,
               const std::vector<const Pattern *> &pats, const Als &scrutinee) {
    std::map<int, Span> all;
    std::optional<Als> result;
    for (size_t i = 0; i < bodies.size(); i++) {
      auto [r, cons] = contain([&] {
        Mark m = mark();
        if (pats[i]) bind_pattern(*pats[i], scrutinee);
        Als body = reshape(expr(*bodies[i]), e.type);
        pop(m);
        return body;
      });
      for (const auto &[v, s] : cons) all.emplace(v, s);
      result = result ? combine(*result, r) : r;
    }
    Aliases gone;
    for (const auto &[v, s] : all) gone.insert(v);
    consumed(all);
    return result ? remove_aliases(*result, gone) : shaped(e.type, {});
  }

  Als replace_field(const Als &r, const Type &t, const std::vector<std::string> &path, size_t k,
                    const Als &v) {
    if (k == path.size()) return v;
    int i = t.kind == Type::Record ? t.field_index(path[k]) : -1;
    if (t.kind == Type::Tuple && !path[k].empty() && std::all_of(path[k].begin(), path[k].end(), ::isdigit))
      i = std::stoi(path[k]);
    if (i < 0 || r.kind != Als::Rec || size_t(i) >= r.parts.size()) return r;
    Als out = r;
    out.parts[size_t(i)] = replace_field(r.parts[size_t(i)], t.elems[size_t(i)], path, k + 1, v);
    return out;
  }

  // The variable at the root of a path `xs[i].f.0` (empty if there is none).
  static std::string path_root(const Expr &x) {
    const Expr *r = &x;
    while (r->kind == ExprKind::Index || r->kind == ExprKind::Field || r->kind == ExprKind::Project)
      r = r->args[0].get();
    return r->kind == ExprKind::Var ? r->name : "";
  }

  // Whether `value` updates a part read from `src` (`xs with [i] = (xs[i] with f = v)`,
  // what the parser makes of `xs with [i].f = v`): one update of xs along a path.
  static bool path_update(const Expr &src, const Expr &value) {
    if (value.kind != ExprKind::Update && value.kind != ExprKind::RecordUpdate) return false;
    std::string root = path_root(src);
    return !root.empty() && src.kind == ExprKind::Var && path_root(*value.args[0]) == root;
  }

  // The new value at the end of an update path, whose steps re-read the updated
  // variable (they are the same update); `indexed`: whether a step indexes an array.
  Als path_value(const Expr &value, const std::string &root, bool &indexed) {
    if ((value.kind == ExprKind::Update || value.kind == ExprKind::RecordUpdate) &&
        path_root(*value.args[0]) == root) {
      for (const IndexPart &p : value.indices)
        for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
          if (*x) expr(**x);
      if (value.kind == ExprKind::Update) indexed = true;
      return path_value(*value.args[1], root, indexed);
    }
    return expr(value);
  }

  // Futhark's overlap check: the new value may not alias the updated array.
  void check_overlap(const Expr &src, const Als &src_als, const Expr &value, const Als &v) {
    Aliases s = aliases(src_als);
    for (int id : aliases(v))
      if (s.count(id))
        error_at(value.span, fmt::format("Source array for in-place update \"{}\" might alias "
                                         "update value \"{}\". Hint: use \"copy\" to remove "
                                         "aliases from the value.",
                                         short_text(src.span), short_text(value.span)));
  }

  // `src with [i] = value` (also along a path), `src with f = value`.
  Als update(const Expr &e) {
    const Expr &src = *e.args[0], &value = *e.args[1];
    bool indexed = e.kind == ExprKind::Update;
    for (const IndexPart &p : e.indices)
      for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
        if (*x) expr(**x);
    Als v = path_update(src, value) ? path_value(value, src.name, indexed) : expr(value);
    Als src_als = reshape(expr(src), src.type);
    if (!indexed) return reshape(replace_field(src_als, src.type, e.fields, 0, v), e.type);
    check_overlap(src, src_als, value, v);
    consume_aliases(e.span, aliases(src_als));
    return shaped(e.type, {});
  }

  // ---- functions

  // The closure of a function: the aliases of the local variables its body refers to.
  Aliases closure(const std::set<std::string> &names) {
    Aliases out;
    for (const std::string &n : names)
      if (auto v = lookup(n)) {
        Aliases a = aliases(vtable_.at(*v).als);
        out.insert(a.begin(), a.end());
      }
    return out;
  }

  Als lambda(const Expr &e) {
    Mark m = mark();
    int saved = barrier_;
    barrier_ = next_var();
    std::vector<ParamVar> params = bind_params(e.params);
    auto [body, cons] = contain([&] { return expr(*e.args[0]); });
    (void)cons; // only the parameters can have been consumed
    Type ret = e.annotation ? push_unique(*e.annotation) : strip_marks(after(e.type, e.params.size()));
    check_result(e.args[0]->span, params, !e.params.empty(), ret, body);
    if (!e.annotation) ret = infer_return_uniqueness(params, !e.params.empty(), ret, body);
    pop(m);
    barrier_ = saved;
    std::vector<std::string> bound;
    std::set<std::string> free;
    free_names(e, bound, free);
    Type fn = ret;
    for (size_t i = e.params.size(); i-- > 0;) fn = Type::function(with_marks(e.params[i]), fn);
    return shaped(fn, closure(free));
  }

  Als let_fun(const Expr &e) {
    const FunDef &f = *e.fundef;
    Mark m = mark();
    int saved = barrier_;
    barrier_ = next_var();
    std::vector<ParamVar> params = bind_params(f.params);
    auto [body, cons] = contain([&] { return expr(*f.body); });
    (void)cons;
    Type ret = f.ret_annotation ? push_unique(*f.ret_annotation) : strip_marks(f.ret_type);
    check_result(f.body->span, params, !f.params.empty(), ret, body);
    if (!f.ret_annotation) rets_[&f] = infer_return_uniqueness(params, !f.params.empty(), ret, body);
    pop(m);
    barrier_ = saved;
    std::vector<std::string> bound;
    for (const Pattern &p : f.params) pattern_names(p, bound);
    std::set<std::string> free;
    free_names(*f.body, bound, free);
    Mark m2 = mark();
    bind_var(f.name, shaped(fun_type(f), closure(free)), false, "a local function");
    Als r = expr(*e.args[0]);
    pop(m2);
    return r;
  }

  // The function an Apply or an operator section names, as a value.
  Als named_function(const Expr &e, const std::vector<Type> &arg_types) {
    if (local_reference(e))
      if (auto v = lookup(e.name)) {
        const Als &als = vtable_.at(*v).als;
        check_if_consumed(e.span, aliases(als));
        return als;
      }
    if (e.callee == Callee::Function && e.fun && !e.fun->params.empty())
      return shaped(fun_type(*e.fun), {});
    if (e.callee == Callee::ArrayBuiltin)
      return shaped(builtin_type(e.array_builtin, arg_types, e.type), {});
    // A constant whose value is a function (`def f = map g`).
    if (e.callee == Callee::Function && e.fun) return global_value(e, e.fun->ret_type);
    std::vector<Type> stripped;
    for (const Type &t : arg_types) stripped.push_back(strip_marks(t));
    return shaped(chain(stripped, strip_marks(e.type)), {});
  }

  static std::string head_name(const Expr &f) {
    if (f.kind == ExprKind::Var) return f.name;
    if (f.kind == ExprKind::Apply) return f.name;
    if (f.kind == ExprKind::ApplyExpr) return head_name(*f.args[0]);
    return "";
  }

  Als apply(const Expr &e) {
    size_t first = e.kind == ExprKind::ApplyExpr ? 1 : 0;
    size_t n = e.args.size() - first;
    std::vector<Type> arg_types;
    for (size_t i = 0; i < n; i++) arg_types.push_back(e.args[first + i]->type);
    Als f;
    std::string fname;
    if (first) {
      f = expr(*e.args[0]);
      fname = head_name(*e.args[0]);
    } else {
      f = named_function(e, arg_types);
      fname = e.name;
    }
    if (f.kind != Als::Fun) {
      std::vector<Type> stripped;
      for (const Type &t : arg_types) stripped.push_back(strip_marks(t));
      f = shaped(chain(stripped, strip_marks(e.type)), aliases(f));
    }
    // The parameters' types; for a built-in's function argument, one that neither
    // consumes nor promises a unique result.
    std::vector<Type> params;
    const Type *t = &f.fn;
    for (size_t i = 0; i < n; i++) {
      if (t->kind == Type::Function) {
        params.push_back(t->elems[0]);
        t = &t->elems[1];
      } else {
        params.push_back(strip_marks(arg_types[i]));
      }
    }
    std::string head = fname.empty() ? "Cannot apply function to \"{}\" (invalid type): "
                                     : fmt::format("Cannot apply \"{}\" to \"{{}}\" (invalid type): ", fname);
    // The arguments, last first (as Futhark evaluates them).
    std::vector<Als> args(n);
    for (size_t k = n; k-- > 0;) {
      const Expr &a = *e.args[first + k];
      std::vector<std::pair<const Expr *, const Als *>> prev;
      for (size_t j = k + 1; j < n; j++) prev.emplace_back(e.args[first + j].get(), &args[j]);
      args[k] = check_arg(prev, params[k], a, fmt::format(fmt::runtime(head), short_text(a.span)));
    }
    int appres = new_var("", fname.empty()
                                 ? fmt::format("result of application at {}", rel(def_span_, e.span))
                                 : fmt::format("result of applying \"{}\" (at {})", fname,
                                               rel(def_span_, e.span)));
    Als r = add_aliases(f, {appres});
    for (size_t k = 0; k < n; k++) r = apply_arg(r, args[k]);
    return reshape(r, e.type);
  }

  static Als apply_arg(const Als &f, const Als &arg) {
    if (f.kind != Als::Fun || f.fn.kind != Type::Function) return arg;
    return return_type(f.ids, f.fn.elems[1], consumes(f.fn.elems[0]), arg);
  }

  // An argument for a parameter of type `param`; `prev`: the arguments after it.
  Als check_arg(const std::vector<std::pair<const Expr *, const Als *>> &prev, const Type &param,
                const Expr &a, const std::string &head) {
    auto [als, cons] = contain([&] { return expr(a); });
    consumed(cons);
    if (!cons.empty() && contains_function(a.type))
      error_at(a.span, fmt::format("Argument of functional type {} contains consumption, which "
                                   "is not allowed.{}",
                                   a.type.str(), link("consuming-argument")));
    if (param.kind == Type::Function && als.kind == Als::Fun)
      check_function_type(param, als.fn, a.span, head);
    if (consumes(param)) consume_argument(param, als, a.span, prev);
    return als;
  }

  void consume_argument(const Type &param, const Als &als, const Span &at,
                        const std::vector<std::pair<const Expr *, const Als *>> &prev) {
    std::vector<Aliases> parts;
    alias_parts(als, parts);
    Aliases seen;
    for (const Aliases &p : parts) {
      for (int v : p)
        if (seen.count(v))
          error_at(at, "Argument passed for consuming parameter is self-aliased." +
                           link("self-aliasing-arg"));
      seen.insert(p.begin(), p.end());
    }
    Aliases eaten;
    std::function<void(const Type &, const Als &)> consumed_part = [&](const Type &t, const Als &x) {
      if (is_record(t) && x.kind == Als::Rec && x.parts.size() == t.elems.size()) {
        for (size_t i = 0; i < t.elems.size(); i++) consumed_part(t.elems[i], x.parts[i]);
        return;
      }
      if (consumes(t)) {
        Aliases s = aliases(x);
        eaten.insert(s.begin(), s.end());
      }
    };
    consumed_part(param, reshape(als, param));
    consume_aliases(at, eaten);
    for (int v : bound_only(aliases(als)))
      for (const auto &[pe, pa] : prev)
        if (aliases(*pa).count(v))
          error_at(at, fmt::format("Argument is consumed, but aliases \"{}\" which is also "
                                   "aliased by other argument \"{}\" at {}.",
                                   names_[size_t(v)], short_text(pe->span), rel(at, pe->span)));
  }

  Als section(const Expr &e) {
    Als given = e.args.empty() ? Als{} : expr(*e.args[0]);
    if (e.name.empty()) {
      // A built-in operator: its result is new.
      return shaped(with_final_uniqueness(strip_marks(e.type), true), aliases(given));
    }
    Als op = named_function(e, {});
    if (op.kind != Als::Fun) return reshape(op, e.type); // a variable named `(++)`
    Type fn = op.fn;
    if (!e.args.empty() && fn.kind == Type::Function) {
      if (e.section_left) fn = fn.elems[1];
      else if (fn.elems[1].kind == Type::Function)
        fn = Type::function(fn.elems[0], fn.elems[1].elems[1]);
    }
    Aliases ids = op.ids;
    Aliases g = aliases(given);
    ids.insert(g.begin(), g.end());
    Als out = shaped(fn, ids);
    return reshape(out, e.type);
  }

  // ---- loops

  // A loop parameter's type: unique where `consumed` says so, except under a type
  // annotation, which keeps the uniqueness it writes.
  Type loop_param_type(const Pattern &p, const std::set<const Pattern *> &consumed_ids) {
    if (p.annotation) return push_unique(*p.annotation);
    Type t = strip_marks(p.type);
    switch (p.kind) {
    case Pattern::Id: return set_unique(t, consumed_ids.count(&p) > 0);
    case Pattern::Tuple:
      if (t.kind == Type::Tuple && t.elems.size() == p.elems.size())
        for (size_t i = 0; i < p.elems.size(); i++) t.elems[i] = loop_param_type(p.elems[i], consumed_ids);
      return t;
    case Pattern::Record:
      if (t.kind == Type::Record)
        for (size_t i = 0; i < p.elems.size(); i++)
          if (int k = t.field_index(p.fields[i]); k >= 0)
            t.elems[size_t(k)] = loop_param_type(p.elems[i], consumed_ids);
      return t;
    default: return set_unique(t, false);
    }
  }

  // The initial value of `loop (x, y) for ...`: the variables of those names.
  Als implicit_init(const Pattern &p, const Span &at) {
    switch (p.kind) {
    case Pattern::Id:
      if (auto v = lookup(p.name)) {
        const Als &als = vtable_.at(*v).als;
        check_if_consumed(at, aliases(als));
        return reshape(als, p.type);
      }
      return shaped(p.type, {});
    case Pattern::Tuple: {
      Als out;
      out.kind = Als::Rec;
      for (const Pattern &e : p.elems) out.parts.push_back(implicit_init(e, at));
      return reshape(out, p.type);
    }
    case Pattern::Record: {
      Als out = shaped(p.type, {});
      for (size_t i = 0; i < p.elems.size(); i++)
        if (int k = p.type.field_index(p.fields[i]); k >= 0 && size_t(k) < out.parts.size())
          out.parts[size_t(k)] = implicit_init(p.elems[i], at);
      return out;
    }
    default: return shaped(p.type, {});
    }
  }

  struct MergeState {
    Aliases cons, obs;
  };

  // Futhark's checkMergeReturn: what the body returns for each loop parameter.
  void check_merge_return(const Pattern &p, const Type &t, const Als &body, MergeState &st,
                          const Span &at) {
    Als b = reshape(body, p.type);
    switch (p.kind) {
    case Pattern::Id: {
      bool c = consumes(t);
      Aliases als = aliases(b);
      if (c)
        for (int v : bound_only(als))
          error_at(at, fmt::format("Return value for consuming loop parameter \"{}\" aliases "
                                   "\"{}\".{}",
                                   p.name, names_[size_t(v)], link("consuming-loop-param-aliases")));
      for (int v : als)
        if (st.cons.count(v))
          error_at(at, fmt::format("Return value for loop parameter \"{}\" aliases other consumed "
                                   "loop parameter.{}",
                                   p.name, link("loop-parameter-aliases-other")));
      if (c)
        for (int v : als)
          if (st.cons.count(v) || st.obs.count(v))
            error_at(at, fmt::format("Return value for consuming loop parameter \"{}\" aliases "
                                     "previously returned value.{}",
                                     p.name, link("aliases-previously-returned")));
      (c ? st.cons : st.obs).insert(als.begin(), als.end());
      return;
    }
    case Pattern::Tuple:
      for (size_t i = 0; i < p.elems.size() && i < b.parts.size(); i++)
        check_merge_return(p.elems[i], is_record(t) && i < t.elems.size() ? t.elems[i] : p.elems[i].type,
                           b.parts[i], st, at);
      return;
    case Pattern::Record:
      for (size_t i = 0; i < p.elems.size(); i++)
        if (int k = p.type.field_index(p.fields[i]); k >= 0 && size_t(k) < b.parts.size()) {
          int kt = t.kind == Type::Record ? t.field_index(p.fields[i]) : -1;
          check_merge_return(p.elems[i], kt >= 0 ? t.elems[size_t(kt)] : p.elems[i].type,
                             b.parts[size_t(k)], st, at);
        }
      return;
    default: return;
    }
  }

  // The loop's value: per parameter, a consumed one gives a new value, another aliases
  // the initial value; both alias what the body returns.
  static Als apply_loop_arg(const Aliases &appres, const Type &param, const Als &init) {
    if (is_record(param)) {
      Als a = reshape(init, param);
      Als out;
      out.kind = Als::Rec;
      for (size_t i = 0; i < param.elems.size(); i++)
        out.parts.push_back(apply_loop_arg(appres, param.elems[i], a.parts[i]));
      return out;
    }
    return return_type(appres, param, consumes(param), init);
  }

  void check_free(const char *what, const Expr &e, const std::vector<std::string> &loop_names,
                  const std::map<int, Span> &arg_cons) {
    std::vector<std::string> bound = loop_names;
    std::set<std::string> free;
    free_names(e, bound, free);
    std::map<int, std::string> vars;
    for (const std::string &n : free)
      if (auto v = lookup(n)) vars[*v] = n;
    for (const auto &[v, n] : vars)
      for (int a : bound_only(aliases(vtable_.at(v).als)))
        if (arg_cons.count(a))
          error_at(e.span, fmt::format("{} uses {} (or an alias), but this is consumed by the "
                                       "initial loop argument.",
                                       what, descs_[size_t(v)]));
  }

  Als loop(const Expr &e) {
    const Pattern &pat = e.pattern;
    if (e.loop_form != LoopForm::While) expr(*e.args[1]);
    std::vector<std::string> loop_names;
    pattern_names(pat, loop_names);
    if (e.loop_form == LoopForm::For) loop_names.push_back(e.name);
    if (e.loop_form == LoopForm::ForIn) pattern_names(e.pattern2, loop_names);

    // The body, every parameter consumable (but those whose annotation says otherwise).
    std::set<const Pattern *> all;
    std::function<void(const Pattern &)> ids = [&](const Pattern &p) {
      if (p.kind == Pattern::Id) all.insert(&p);
      for (const Pattern &q : p.elems) ids(q);
    };
    ids(pat);
    Mark m = mark();
    int saved = barrier_;
    barrier_ = next_var();
    std::vector<ParamVar> params;
    bind_param(pat, loop_param_type(pat, all), params, "a loop parameter whose type is not unique");
    if (e.loop_form == LoopForm::For) bind_var(e.name, {}, false);
    if (e.loop_form == LoopForm::ForIn) {
      std::vector<ParamVar> elems;
      bind_param(e.pattern2, set_unique(e.pattern2.type, false), elems,
                 "an element of the array the loop walks");
    }
    if (e.loop_form == LoopForm::While) expr(*e.args[1]);
    auto [body, body_cons] = contain([&] { return expr(*e.args[2]); });
    pop(m);
    barrier_ = saved;

    // Which parameters the body consumes, to a fixed point (a consumed parameter's new
    // value may be another parameter, which is then consumed too).
    std::set<const Pattern *> cons;
    std::map<int, const Pattern *> by_var;
    for (const ParamVar &p : params) by_var[p.var] = p.pattern;
    for (const auto &[v, s] : body_cons)
      if (auto it = by_var.find(v); it != by_var.end()) cons.insert(it->second);
    Type param_t;
    for (;;) {
      param_t = loop_param_type(pat, cons);
      MergeState st;
      check_merge_return(pat, param_t, body, st, e.span);
      std::set<const Pattern *> more = cons;
      for (int v : st.cons)
        if (auto it = by_var.find(v); it != by_var.end()) more.insert(it->second);
      if (more == cons) break;
      cons = std::move(more);
    }

    // The initial value, consumed where the parameters are.
    std::string head = "Initial loop values do not have expected type: ";
    auto [init, arg_cons] = contain([&] {
      if (e.args[0]) return check_arg({}, param_t, *e.args[0], head);
      Als a = implicit_init(pat, e.span);
      if (consumes(param_t)) consume_argument(param_t, a, e.span, {});
      return a;
    });
    consumed(arg_cons);
    check_free("Loop body", *e.args[2], loop_names, arg_cons);
    if (e.loop_form == LoopForm::While) check_free("Loop condition", *e.args[1], loop_names, arg_cons);

    int res = new_var("", fmt::format("result of loop at {}", rel(def_span_, e.span)));
    Als out = apply_loop_arg({res}, param_t, init);
    return reshape(combine(reshape(out, e.type), reshape(body, e.type)), e.type);
  }
};

} // namespace

void check_consumption(const Program &program) { Checker(program).run(); }

bool type_consumes(const Type &t) { return consumes(push_unique(t)); }

} // namespace kerb
