// The consumption checker (see check_consumption.h).
//
// Note [Aliases and consumption]
// Every array the program handles comes from an allocation: a parameter, a top-level
// constant, or an expression that makes a new array (a literal, iota, map, copy, an
// update's result, a call whose result is unique, ...). The checker follows, for every
// value, the set of allocations it may share memory with (its aliases), component by
// component for tuples and records: a slice, an index that gives an array, transpose,
// reverse, flatten, a branch of an if, a call's non-unique result alias their arrays;
// scalars alias nothing.
//
// Consuming a value consumes all its allocations. An allocation is consumable when it
// belongs to this function (made in it, or a unique parameter) and, inside an anonymous
// function, a local function or a loop body, when it was made there. Using a value any
// of whose allocations is consumed is an error ("Using ..., but this was consumed").
// The branches of an if or a match start from the same state; what either consumes is
// consumed after it. A local function records the aliases it captures, which count as
// used when it is called.
//
// At the end of a function, a unique (`*`) result may alias only allocations the
// function may consume, no two unique components of a result may alias each other, and
// the result of a function (a definition with parameters) may not alias a top-level
// constant. A call's result aliases the arguments it does not consume, unless the
// callee's result type is unique (or has no arrays).
//
// This follows Futhark's Consumption checker in what it rejects for the common cases;
// where it is less precise (functions passed as arguments, consumption through closures
// in sum types), it accepts.
#include "compiler/types/check_consumption.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace kerb {

namespace {

// The aliases of a value: allocation ids, per component for tuples and records.
struct Als {
  std::set<int> ids;
  std::vector<Als> parts; // tuples and records (records in field-name order)

  std::set<int> all() const {
    std::set<int> out = ids;
    for (const Als &p : parts) {
      std::set<int> s = p.all();
      out.insert(s.begin(), s.end());
    }
    return out;
  }
  bool empty() const { return all().empty(); }
};

Als merge(const Als &a, const Als &b) {
  Als out;
  std::set<int> ia = a.all(), ib = b.all();
  if (a.parts.size() == b.parts.size() && !a.parts.empty()) {
    for (size_t i = 0; i < a.parts.size(); i++) out.parts.push_back(merge(a.parts[i], b.parts[i]));
    return out;
  }
  out.ids = ia;
  out.ids.insert(ib.begin(), ib.end());
  return out;
}

struct Alloc {
  std::string name;     // the variable it was first bound to, for messages
  bool consumable = false;
  bool global = false;  // a top-level constant
  std::optional<Span> consumed_at;
};

// A name in scope: a value with its aliases, or a local function with what it captured.
struct Binding {
  std::string name;
  Als als;
  const FunDef *fun = nullptr;
  std::set<int> captured;
};

bool has_array(const Type &t) {
  if (t.kind == Type::Array) return true;
  if (t.kind == Type::Function) return false;
  for (const Type &e : t.elems)
    if (has_array(e)) return true;
  for (const auto &p : t.payloads)
    for (const Type &e : p)
      if (has_array(e)) return true;
  return false;
}

class Checker {
public:
  explicit Checker(const Program &program) : prog_(program) {}

  void run() {
    for (const auto &d : prog_.defs) {
      if (d->from_prelude) continue;
      check_def(*d);
      if (d->params.empty() && d->size_params.empty() && d->type_params.empty() &&
          has_array(d->ret_type))
        globals_[d->name] = global_alloc(d->name);
    }
  }

private:
  const Program &prog_;
  std::vector<Alloc> allocs_;
  std::vector<Binding> scope_;
  std::map<std::string, int> globals_;
  // Allocations older than this may not be consumed here (inside a lambda, a local
  // function or a loop body).
  int barrier_ = 0;

  int global_alloc(const std::string &name) {
    Alloc a;
    a.name = name;
    a.global = true;
    allocs_.push_back(a);
    return int(allocs_.size()) - 1;
  }

  Als fresh(const std::string &name, bool consumable = true) {
    Alloc a;
    a.name = name;
    a.consumable = consumable;
    allocs_.push_back(a);
    Als out;
    out.ids.insert(int(allocs_.size()) - 1);
    return out;
  }

  // Aliases shaped like type `t`: one fresh allocation per array component.
  Als fresh_like(const Type &t, const std::string &name, bool consumable) {
    if (!has_array(t)) return {};
    if (t.kind == Type::Tuple || t.kind == Type::Record) {
      Als out;
      for (const Type &e : t.elems) out.parts.push_back(fresh_like(e, name, consumable));
      return out;
    }
    return fresh(name, consumable);
  }

  // The same, with consumability from a parameter's uniqueness marks.
  Als param_aliases(const Type &t, const std::optional<Type> &ann, const std::string &name) {
    if (!has_array(t)) return {};
    bool unique = ann && ann->unique;
    if ((t.kind == Type::Tuple || t.kind == Type::Record) && ann && ann->kind == t.kind &&
        ann->elems.size() == t.elems.size()) {
      Als out;
      for (size_t i = 0; i < t.elems.size(); i++)
        out.parts.push_back(param_aliases(t.elems[i], std::optional<Type>(ann->elems[i]), name));
      return out;
    }
    return fresh_like(t, name, unique);
  }

  const Binding *find(const std::string &name) const {
    for (size_t i = scope_.size(); i-- > 0;)
      if (scope_[i].name == name) return &scope_[i];
    return nullptr;
  }

  // ---- checks

  void use(const Als &als, const std::string &what, const Span &span) {
    for (int id : als.all()) {
      const Alloc &a = allocs_[size_t(id)];
      if (a.consumed_at)
        error_at(span, fmt::format("Using {}, but this was consumed at {}. (Possibly through "
                                   "aliases.)",
                                   what, a.consumed_at->location()));
    }
  }

  void consume(const Als &als, const std::string &what, const Span &span) {
    for (int id : als.all()) {
      Alloc &a = allocs_[size_t(id)];
      if (a.consumed_at)
        error_at(span, fmt::format("Using {}, but this was consumed at {}. (Possibly through "
                                   "aliases.)",
                                   what, a.consumed_at->location()));
      if (!a.consumable || id < barrier_)
        error_at(span, fmt::format("Consuming {}, which is not consumable (it is {}).", what,
                                   a.global ? "a top-level constant"
                                   : id < barrier_ && a.consumable
                                       ? "made outside this anonymous function, local function "
                                         "or loop body"
                                       : "a non-unique parameter or aliases one"));
    }
    for (int id : als.all()) allocs_[size_t(id)].consumed_at = span;
  }

  static std::string describe(const Expr &e) {
    if (e.kind == ExprKind::Var) return fmt::format("variable \"{}\"", e.name);
    return fmt::format("\"{}\"", std::string(e.span.text()).substr(0, 40));
  }

  // ---- definitions

  void check_def(const FunDef &f) {
    scope_.clear();
    barrier_ = 0;
    for (const Pattern &p : f.params) bind_param(p);
    Als result = expr(*f.body);
    check_result(f, result);
  }

  void bind_param(const Pattern &p) {
    std::optional<Type> ann = p.annotation;
    bind(p, param_aliases(p.type, ann, p.kind == Pattern::Id ? p.name : "parameter"));
  }

  void check_result(const FunDef &f, const Als &result) {
    const Type &rt = f.ret_annotation ? *f.ret_annotation : f.ret_type;
    // A constant may alias other constants; a function's result may not.
    for (int id : result.all())
      if (!f.params.empty() && allocs_[size_t(id)].global)
        error_at(f.body->span, fmt::format("Function result aliases the free variable \"{}\". Use "
                                           "\"copy\" to break the aliasing.",
                                           allocs_[size_t(id)].name));
    check_unique_result(rt, result, f.body->span);
    if ((rt.kind == Type::Tuple || rt.kind == Type::Record) && result.parts.size() == rt.elems.size()) {
      // Unique components may not alias one another.
      for (size_t i = 0; i < rt.elems.size(); i++) {
        if (!rt.elems[i].unique) continue;
        std::set<int> mine = result.parts[i].all();
        for (size_t j = 0; j < rt.elems.size(); j++) {
          if (j == i) continue;
          for (int id : result.parts[j].all())
            if (mine.count(id))
              error_at(f.body->span, "A unique-typed component of the return value is aliased to "
                                     "some other component.");
        }
      }
    }
  }

  void check_unique_result(const Type &t, const Als &als, const Span &span) {
    if ((t.kind == Type::Tuple || t.kind == Type::Record) && als.parts.size() == t.elems.size()) {
      for (size_t i = 0; i < t.elems.size(); i++) check_unique_result(t.elems[i], als.parts[i], span);
      return;
    }
    if (!t.unique) return;
    for (int id : als.all()) {
      const Alloc &a = allocs_[size_t(id)];
      if (!a.consumable || id < barrier_)
        error_at(span, fmt::format("Unique-typed return value is aliased to \"{}\", which is not "
                                   "consumable.",
                                   a.name));
    }
  }

  // ---- patterns

  void bind(const Pattern &p, const Als &als) {
    switch (p.kind) {
    case Pattern::Id: scope_.push_back(Binding{p.name, als, nullptr, {}}); return;
    case Pattern::Tuple:
    case Pattern::Record:
    case Pattern::Constr:
      for (size_t i = 0; i < p.elems.size(); i++) {
        size_t part = i;
        if (p.kind == Pattern::Record && p.type.kind == Type::Record) {
          int k = p.type.field_index(p.fields[i]);
          part = k < 0 ? i : size_t(k);
        }
        bind(p.elems[i], p.kind != Pattern::Constr && part < als.parts.size() ? als.parts[part]
                                                                            : flat(als));
      }
      return;
    default: return;
    }
  }

  static Als flat(const Als &a) {
    Als out;
    out.ids = a.all();
    return out;
  }

  // ---- expressions

  Als expr(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit: case ExprKind::Hole:
    case ExprKind::OpenIn: // removed by compiler/modules
      return {};
    case ExprKind::Var: return var(e);
    case ExprKind::Tuple: case ExprKind::Record: {
      std::vector<Als> parts;
      for (const ExprPtr &a : e.args) parts.push_back(expr(*a));
      Als out;
      if (e.kind == ExprKind::Record && e.type.kind == Type::Record) {
        out.parts.resize(e.type.elems.size());
        for (size_t i = 0; i < e.fields.size(); i++) {
          int k = e.type.field_index(e.fields[i]);
          if (k >= 0) out.parts[size_t(k)] = parts[i];
        }
        return out;
      }
      out.parts = std::move(parts);
      return out;
    }
    case ExprKind::ArrayLit: case ExprKind::Range:
      for (const ExprPtr &a : e.args)
        if (a) expr(*a);
      return fresh_like(e.type, "array", true);
    case ExprKind::Unary: case ExprKind::Assert: {
      Als last;
      for (const ExprPtr &a : e.args) last = expr(*a);
      return e.kind == ExprKind::Assert ? last : Als{};
    }
    case ExprKind::Binary:
      expr(*e.args[0]);
      expr(*e.args[1]);
      return fresh_like(e.type, "array", true);
    case ExprKind::If: {
      expr(*e.args[0]);
      return branches({e.args[1].get(), e.args[2].get()}, {nullptr, nullptr});
    }
    case ExprKind::Match: {
      Als s = expr(*e.args[0]);
      std::vector<const Expr *> bodies;
      std::vector<const Pattern *> pats;
      for (size_t i = 0; i < e.params.size(); i++) {
        bodies.push_back(e.args[i + 1].get());
        pats.push_back(&e.params[i]);
      }
      return branches(bodies, pats, s);
    }
    case ExprKind::Let: {
      Als v = expr(*e.args[0]);
      size_t mark = scope_.size();
      bind(e.pattern, v);
      Als body = expr(*e.args[1]);
      scope_.resize(mark);
      return body;
    }
    case ExprKind::LetFun: {
      std::set<int> captured = local_function(*e.fundef);
      size_t mark = scope_.size();
      scope_.push_back(Binding{e.fundef->name, {}, e.fundef.get(), captured});
      Als body = expr(*e.args[0]);
      scope_.resize(mark);
      return body;
    }
    case ExprKind::Loop: return loop(e);
    case ExprKind::Index: {
      Als arr = expr(*e.args[0]);
      for (const IndexPart &p : e.indices)
        for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
          if (*x) expr(**x);
      return has_array(e.type) ? flat(arr) : Als{};
    }
    case ExprKind::Update: {
      for (const IndexPart &p : e.indices)
        for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
          if (*x) expr(**x);
      // An update along a path (`xs with [i].c[j] = v`) updates the part of xs it reads
      // in place: what the value consumes of xs's own allocations is the same update.
      Als base = expr(*e.args[0]);
      std::set<int> own = base.all();
      std::map<int, std::optional<Span>> before;
      for (int id : own) before[id] = allocs_[size_t(id)].consumed_at;
      Als v = expr(*e.args[1]);
      for (auto &[id, at] : before) allocs_[size_t(id)].consumed_at = at;
      Als arr = expr(*e.args[0]);
      std::set<int> vs = v.all();
      for (int id : arr.all())
        if (vs.count(id) && !path_update(*e.args[0], *e.args[1]))
          error_at(e.args[1]->span, fmt::format("Source array for in-place update {} might alias "
                                                "update value. Hint: use \"copy\" to remove "
                                                "aliases from the value.",
                                                describe(*e.args[0])));
      consume(arr, describe(*e.args[0]), e.span);
      return fresh_like(e.type, updated_name(*e.args[0]), true);
    }
    case ExprKind::RecordUpdate: {
      Als r = expr(*e.args[0]);
      Als v = expr(*e.args[1]);
      return replace_field(r, e.args[0]->type, e.fields, 0, v);
    }
    case ExprKind::Project: case ExprKind::Field: {
      Als t = expr(*e.args[0]);
      const Type &tt = e.args[0]->type;
      size_t k = e.kind == ExprKind::Project ? size_t(e.field)
                                              : size_t(std::max(0, tt.field_index(e.name)));
      if (k < t.parts.size()) return t.parts[k];
      return has_array(e.type) ? flat(t) : Als{};
    }
    case ExprKind::Apply: case ExprKind::ApplyExpr: return apply(e);
    case ExprKind::Lambda: return lambda(e);
    case ExprKind::OpSection:
      for (const ExprPtr &a : e.args) expr(*a);
      return {};
    case ExprKind::ProjSection: return {};
    case ExprKind::Ascribe: case ExprKind::Coerce: case ExprKind::Unsafe:
      return expr(*e.args[0]);
    case ExprKind::Constr: {
      Als out;
      for (const ExprPtr &a : e.args) out = merge(flat(out), flat(expr(*a)));
      return out;
    }
    }
    return {};
  }

  // Whether `value` updates a part read from `arr` (`xs with [i] = (xs[i] with f = v)`,
  // what the parser makes of `xs with [i].f = v`): the same in-place update.
  static bool path_update(const Expr &arr, const Expr &value) {
    if (arr.kind != ExprKind::Var) return false;
    if (value.kind != ExprKind::Update && value.kind != ExprKind::RecordUpdate) return false;
    const Expr *x = value.args[0].get();
    while (x->kind == ExprKind::Index || x->kind == ExprKind::Field || x->kind == ExprKind::Project)
      x = x->args[0].get();
    return x->kind == ExprKind::Var && x->name == arr.name;
  }

  static std::string updated_name(const Expr &e) { return e.kind == ExprKind::Var ? e.name : "array"; }

  Als var(const Expr &e) {
    if (const Binding *b = find(e.name)) {
      if (b->fun) {
        use(Als{b->captured, {}}, fmt::format("variable \"{}\"", e.name), e.span);
        return {};
      }
      if (has_array(e.type)) use(b->als, fmt::format("variable \"{}\"", e.name), e.span);
      return b->als;
    }
    auto g = globals_.find(e.name);
    if (g != globals_.end() && e.callee == Callee::Function) {
      Als out;
      out.ids.insert(g->second);
      return out;
    }
    return {};
  }

  // Branches that start from the same state; afterwards, what any of them consumed is
  // consumed. `scrutinee`: a match's value, bound by the cases' patterns.
  Als branches(const std::vector<const Expr *> &bodies, const std::vector<const Pattern *> &pats,
               const Als &scrutinee = {}) {
    std::vector<std::optional<Span>> before;
    for (const Alloc &a : allocs_) before.push_back(a.consumed_at);
    std::vector<std::optional<Span>> after = before;
    Als result;
    bool first = true;
    for (size_t i = 0; i < bodies.size(); i++) {
      for (size_t k = 0; k < before.size(); k++) allocs_[k].consumed_at = before[k];
      size_t mark = scope_.size();
      if (pats[i]) bind(*pats[i], scrutinee);
      Als r = expr(*bodies[i]);
      scope_.resize(mark);
      result = first ? r : merge(result, r);
      first = false;
      for (size_t k = 0; k < before.size(); k++)
        if (!after[k] && allocs_[k].consumed_at) after[k] = allocs_[k].consumed_at;
    }
    for (size_t k = 0; k < before.size(); k++) allocs_[k].consumed_at = after[k];
    // What a branch consumed is no longer reachable through the others' results: the
    // value (`if c then xs else f xs`, f consuming) owns it now.
    std::set<int> consumed;
    for (size_t k = 0; k < before.size(); k++)
      if (!before[k] && after[k]) consumed.insert(int(k));
    return without(result, consumed);
  }

  // `als` less the allocations in `gone`; a part left with none is a fresh allocation.
  Als without(const Als &als, const std::set<int> &gone) {
    if (gone.empty()) return als;
    Als out;
    for (const Als &p : als.parts) out.parts.push_back(without(p, gone));
    for (int id : als.ids)
      if (!gone.count(id)) out.ids.insert(id);
    if (!als.ids.empty() && out.ids.empty()) return fresh("value");
    return out;
  }

  Als replace_field(const Als &r, const Type &t, const std::vector<std::string> &path, size_t k,
                    const Als &v) {
    if (k == path.size()) return v;
    int i = t.kind == Type::Record ? t.field_index(path[k])
            : t.kind == Type::Tuple ? std::stoi(path[k])
                                    : -1;
    if (i < 0 || size_t(i) >= r.parts.size()) return merge(flat(r), flat(v));
    Als out = r;
    out.parts[size_t(i)] = replace_field(r.parts[size_t(i)], t.elems[size_t(i)], path, k + 1, v);
    return out;
  }

  // A body where nothing from outside may be consumed: a lambda, a local function.
  template <typename F> Als inside(F f) {
    int saved = barrier_;
    barrier_ = int(allocs_.size());
    Als r = f();
    barrier_ = saved;
    return r;
  }

  Als lambda(const Expr &e) {
    size_t mark = scope_.size();
    Als body = inside([&] {
      for (const Pattern &p : e.params) bind_param(p);
      return expr(*e.args[0]);
    });
    scope_.resize(mark);
    (void)body;
    return Als{};
  }

  // Checks a local function's body; returns the allocations it captures.
  std::set<int> local_function(const FunDef &f) {
    size_t mark = scope_.size();
    int first_new = int(allocs_.size());
    std::set<int> captured;
    inside([&] {
      for (const Pattern &p : f.params) bind_param(p);
      Als r = expr(*f.body);
      check_unique_result(f.ret_annotation ? *f.ret_annotation : f.ret_type, r, f.body->span);
      return r;
    });
    scope_.resize(mark);
    // The outer allocations the body refers to: approximated by those its free
    // variables alias.
    std::set<std::string> names;
    free_names(*f.body, names);
    for (const std::string &n : names)
      if (const Binding *b = find(n); b && !b->fun)
        for (int id : b->als.all())
          if (id < first_new) captured.insert(id);
    return captured;
  }

  static void free_names(const Expr &e, std::set<std::string> &out) {
    if (e.kind == ExprKind::Var && e.callee == Callee::Local) out.insert(e.name);
    for (const ExprPtr &a : e.args)
      if (a) free_names(*a, out);
    for (const IndexPart &p : e.indices)
      for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
        if (*x) free_names(**x, out);
    if (e.fundef) free_names(*e.fundef->body, out);
  }

  Als loop(const Expr &e) {
    Als init;
    if (e.args[0]) init = expr(*e.args[0]);
    else init = pattern_aliases(e.pattern);
    Als over;
    if (e.loop_form != LoopForm::While) over = expr(*e.args[1]);
    size_t mark = scope_.size();
    // The loop parameters: fresh allocations, each consumable when its part of the
    // initial value is.
    std::string name = e.pattern.kind == Pattern::Id ? e.pattern.name : "loop";
    int saved = barrier_;
    Als result = inside([&] {
      Als params = loop_aliases(e.pattern.type, init, name, saved, false);
      bind(e.pattern, params);
      if (e.loop_form == LoopForm::ForIn) bind(e.pattern2, flat(over));
      if (e.loop_form == LoopForm::While) expr(*e.args[1]);
      Als body = expr(*e.args[2]);
      // Consuming the loop parameters consumes the initial value.
      for (int id : params.all())
        if (allocs_[size_t(id)].consumed_at) {
          barrier_ = saved;
          consume(init, "the initial value of the loop", e.span);
          break;
        }
      return body;
    });
    barrier_ = saved;
    scope_.resize(mark);
    return loop_aliases(e.type, init, name, barrier_, true);
  }

  bool consumable(const Als &als, int barrier) const {
    for (int id : als.all())
      if (!allocs_[size_t(id)].consumable || id < barrier) return false;
    return true;
  }

  // Aliases of a loop's parameters (or, `result`, of its value), part by part: a fresh,
  // consumable allocation where the initial value is consumable; otherwise not
  // consumable (the parameters) or the initial value itself (the result).
  Als loop_aliases(const Type &t, const Als &init, const std::string &name, int barrier,
                   bool result) {
    if (!has_array(t)) return {};
    if ((t.kind == Type::Tuple || t.kind == Type::Record) && init.parts.size() == t.elems.size()) {
      Als out;
      for (size_t i = 0; i < t.elems.size(); i++)
        out.parts.push_back(loop_aliases(t.elems[i], init.parts[i], name, barrier, result));
      return out;
    }
    if (consumable(init, barrier)) return fresh_like(t, name, true);
    return result ? init : fresh_like(t, name, false);
  }

  Als pattern_aliases(const Pattern &p) {
    if (p.kind == Pattern::Id) {
      const Binding *b = find(p.name);
      return b ? b->als : Als{};
    }
    Als out;
    for (const Pattern &e : p.elems) out.parts.push_back(pattern_aliases(e));
    return out;
  }

  // Which parameters of the callee consume their argument: one mark per argument.
  std::vector<std::optional<Type>> callee_params(const Expr &e, size_t nargs) {
    std::vector<std::optional<Type>> out(nargs);
    const FunDef *f = nullptr;
    if (e.kind == ExprKind::Apply) {
      if (const Binding *b = find(e.name); b && b->fun) f = b->fun;
      else if (!find(e.name) && e.callee == Callee::Function) f = e.fun;
      // scatter and reduce_by_index do not consume their destination in Kerb: the code
      // generator copies it when it is used afterwards (tests/programs/arrays/dest_reuse.fut).
    }
    if (f)
      for (size_t i = 0; i < nargs && i < f->params.size(); i++) out[i] = f->params[i].annotation;
    return out;
  }

  bool result_is_fresh(const Expr &e) {
    if (e.kind != ExprKind::Apply) return false;
    if (e.callee == Callee::ArrayBuiltin) {
      switch (e.array_builtin) {
      case ArrayBuiltin::Transpose: case ArrayBuiltin::Reverse: case ArrayBuiltin::Flatten:
      case ArrayBuiltin::Unflatten: case ArrayBuiltin::Unflatten3d:
      case ArrayBuiltin::Unflatten4d: case ArrayBuiltin::Take: case ArrayBuiltin::Drop:
      case ArrayBuiltin::Split: case ArrayBuiltin::Tail: case ArrayBuiltin::Init:
      case ArrayBuiltin::Rotate: case ArrayBuiltin::Opaque: case ArrayBuiltin::Head:
      case ArrayBuiltin::Last: case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2:
      case ArrayBuiltin::Zip3: case ArrayBuiltin::Zip4: case ArrayBuiltin::Zip5:
      case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: case ArrayBuiltin::Unzip3:
      case ArrayBuiltin::Unzip4: case ArrayBuiltin::Unzip5:
        return false;
      default: return true;
      }
    }
    const FunDef *f = nullptr;
    if (const Binding *b = find(e.name); b && b->fun) f = b->fun;
    else if (!find(e.name) && e.callee == Callee::Function) f = e.fun;
    if (!f) return e.callee == Callee::PrimBuiltin;
    // A type parameter's result (`def polyid 't (x: t) = x`) is what the call's type
    // makes it: an array aliases the arguments.
    const Type &rt = f->ret_annotation ? *f->ret_annotation : f->ret_type;
    return rt.unique || !has_array(e.type);
  }

  Als apply(const Expr &e) {
    size_t first = e.kind == ExprKind::ApplyExpr ? 1 : 0;
    if (first) expr(*e.args[0]);
    if (e.kind == ExprKind::Apply)
      if (const Binding *b = find(e.name); b && b->fun)
        use(Als{b->captured, {}}, fmt::format("variable \"{}\"", e.name), e.span);
    size_t nargs = e.args.size() - first;
    std::vector<std::optional<Type>> params = callee_params(e, nargs);
    std::vector<Als> args;
    for (size_t i = 0; i < nargs; i++) args.push_back(expr(*e.args[first + i]));
    // Consuming parameters: the argument's aliases, none shared with other arguments.
    std::set<int> all_consumed;
    for (size_t i = 0; i < nargs; i++) {
      if (!params[i]) continue;
      const Expr &a = *e.args[first + i];
      std::set<int> consumed = consumed_part(*params[i], args[i]);
      if (consumed.empty()) continue;
      all_consumed.insert(consumed.begin(), consumed.end());
      for (size_t j = 0; j < nargs; j++) {
        if (j == i) continue;
        for (int id : args[j].all())
          if (consumed.count(id))
            error_at(a.span, "Argument is consumed, but aliases another argument of the same call.");
      }
      if (has_duplicate_parts(*params[i], args[i]))
        error_at(a.span, "Argument passed for consuming parameter is self-aliased.");
      consume(Als{consumed, {}}, describe(a), a.span);
    }
    if (result_is_fresh(e) || !has_array(e.type)) return fresh_like(e.type, "result", true);
    Als out;
    for (const Als &a : args) out = merge(flat(out), flat(a));
    if (!out.ids.empty()) out = without(out, all_consumed);
    if (out.ids.empty()) return fresh_like(e.type, "result", true);
    // Each component of a tuple or record result may alias any of the arguments.
    if ((e.type.kind == Type::Tuple || e.type.kind == Type::Record) && !e.type.elems.empty()) {
      Als parts;
      for (const Type &t : e.type.elems) parts.parts.push_back(has_array(t) ? out : Als{});
      return parts;
    }
    return out;
  }

  // The allocations of argument `a` that unique parts of parameter type `t` consume.
  std::set<int> consumed_part(const Type &t, const Als &a) {
    if (t.unique) return a.all();
    std::set<int> out;
    if ((t.kind == Type::Tuple || t.kind == Type::Record) && a.parts.size() == t.elems.size())
      for (size_t i = 0; i < t.elems.size(); i++) {
        std::set<int> s = consumed_part(t.elems[i], a.parts[i]);
        out.insert(s.begin(), s.end());
      }
    return out;
  }

  // Whether two unique parts of an argument alias each other.
  bool has_duplicate_parts(const Type &t, const Als &a) {
    if ((t.kind != Type::Tuple && t.kind != Type::Record) || a.parts.size() != t.elems.size())
      return false;
    std::set<int> seen;
    for (size_t i = 0; i < t.elems.size(); i++) {
      if (!t.elems[i].unique) continue;
      for (int id : a.parts[i].all())
        if (!seen.insert(id).second) return true;
    }
    return false;
  }
};

} // namespace

void check_consumption(const Program &program) { Checker(program).run(); }

} // namespace kerb
