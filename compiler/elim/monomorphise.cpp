// Monomorphisation (monomorphise.h), as Futhark's Monomorphise pass: after it no
// definition has type parameters and no type is a Named type parameter.
//
// The definitions are visited in source order. A monomorphic one is kept, with its body
// walked; a polymorphic one is set aside as a template. Walking a body, a use of a
// polymorphic top-level function with type arguments T (after substituting the
// enclosing copy's own parameters) asks for the copy (f, T): made on the first request
// by copying the template, substituting its type parameters in every type, annotation
// and type argument of the copy, and walking it in turn; then placed before the
// definition that asked for it, so that every function still comes before its uses.
// A polymorphic local function (`let f 'a (x: a) = ...`) is handled in place: the rest
// of its `let` is walked first, collecting the type arguments it is used at, and the
// `let` becomes one local function per list. Sizes in type arguments are dropped (a
// size of the caller means nothing in the callee); the copies keep their own size
// parameters.
#include "compiler/elim/monomorphise.h"

#include <map>

namespace kerb {

namespace {

using Subst = std::map<std::string, Type>;

class Monomorphiser {
public:
  Monomorphiser(Program &program, NameSource &names) : prog_(program), names_(names) {}

  void run() {
    std::vector<std::unique_ptr<FunDef>> defs = std::move(prog_.defs);
    for (std::unique_ptr<FunDef> &d : defs) {
      if (!d->type_params.empty()) {
        templates_.push_back(std::move(d));
        continue;
      }
      walk_fundef(*d, {});
      out_.push_back(std::move(d));
    }
    prog_.defs = std::move(out_);
  }

private:
  Program &prog_;
  NameSource &names_;
  std::vector<std::unique_ptr<FunDef>> out_;
  std::vector<std::unique_ptr<FunDef>> templates_; // kept alive: uses point to them
  std::map<std::string, FunDef *> instances_;      // "template|types" -> copy

  // The requests for copies of a polymorphic local function, by the lists of type
  // arguments (as text): the copy's name and the arguments.
  struct LocalCopy {
    std::string name;
    std::vector<Type> args;
  };
  std::map<const FunDef *, std::map<std::string, LocalCopy>> local_copies_;

  static std::string key_of(const std::vector<Type> &args) {
    std::string k;
    for (const Type &t : args) k += t.str() + ";";
    return k;
  }

  static Subst bind_params(const FunDef &f, const std::vector<Type> &args) {
    Subst s;
    for (size_t i = 0; i < f.type_params.size() && i < args.size(); i++) s[f.type_params[i].name] = args[i];
    return s;
  }

  FunDef *instance(FunDef *tmpl, const std::vector<Type> &args) {
    std::string key = tmpl->name + "|" + std::to_string(reinterpret_cast<uintptr_t>(tmpl)) + "|" + key_of(args);
    auto it = instances_.find(key);
    if (it != instances_.end()) return it->second;
    std::unique_ptr<FunDef> copy = clone_fundef(*tmpl);
    copy->name = names_.fresh(tmpl->name);
    copy->type_params.clear();
    FunDef *ptr = copy.get();
    instances_[key] = ptr;
    walk_fundef(*copy, bind_params(*tmpl, args));
    out_.push_back(std::move(copy));
    return ptr;
  }

  void walk_type(Type &t, const Subst &s) {
    if (!s.empty()) t = substitute_named(t, s);
  }

  void walk_pattern(Pattern &p, const Subst &s) {
    walk_type(p.type, s);
    if (p.annotation) walk_type(*p.annotation, s);
    for (Pattern &e : p.elems) walk_pattern(e, s);
  }

  void walk_fundef(FunDef &f, const Subst &s) {
    for (Pattern &p : f.params) walk_pattern(p, s);
    if (f.ret_annotation) walk_type(*f.ret_annotation, s);
    walk_type(f.ret_type, s);
    walk(f.body, s);
  }

  // A use of a function: to a copy when the function is polymorphic.
  void redirect(Expr &e, const Subst &s) {
    if (e.callee != Callee::Function || !e.fun) return;
    if (e.fun->is_local && e.fun->type_params.empty()) {
      // Local functions are found by name from here on (their templates go away).
      e.callee = Callee::Local;
      e.fun = nullptr;
      return;
    }
    if (e.fun->type_params.empty()) return;
    std::vector<Type> args;
    for (Type t : e.type_args) {
      walk_type(t, s);
      args.push_back(erase_dims(std::move(t)));
    }
    if (e.fun->is_local) {
      auto &copies = local_copies_[e.fun];
      std::string k = key_of(args);
      auto it = copies.find(k);
      if (it == copies.end()) it = copies.emplace(k, LocalCopy{names_.fresh(e.fun->name), args}).first;
      e.name = it->second.name;
      e.callee = Callee::Local;
      e.fun = nullptr;
    } else {
      FunDef *copy = instance(e.fun, args);
      e.name = copy->name;
      e.fun = copy;
    }
    e.type_args.clear();
  }

  void walk(ExprPtr &ep, const Subst &s) {
    Expr &e = *ep;
    walk_type(e.type, s);
    if (e.annotation) walk_type(*e.annotation, s);
    walk_pattern(e.pattern, s);
    walk_pattern(e.pattern2, s);
    for (Pattern &p : e.params) walk_pattern(p, s);
    if (e.kind == ExprKind::Var || e.kind == ExprKind::Apply || e.kind == ExprKind::OpSection)
      redirect(e, s);
    for (IndexPart &p : e.indices)
      for (ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
        if (*x) walk(*x, s);
    if (e.kind == ExprKind::LetFun && !e.fundef->type_params.empty()) {
      walk_local_template(ep, s);
      return;
    }
    if (e.fundef) walk_fundef(*e.fundef, s);
    for (ExprPtr &a : e.args)
      if (a) walk(a, s);
  }

  // `let f 'a ... = ... in rest`: one local function per list of types `rest` uses f at.
  void walk_local_template(ExprPtr &ep, const Subst &s) {
    FunDef *tmpl = ep->fundef.get();
    walk(ep->args[0], s);
    ExprPtr rest = std::move(ep->args[0]);
    auto found = local_copies_.find(tmpl);
    if (found != local_copies_.end()) {
      for (auto &[key, copy] : found->second) {
        std::unique_ptr<FunDef> f = clone_fundef(*tmpl);
        f->name = copy.name;
        f->type_params.clear();
        Subst inner = s;
        for (auto &[n, t] : bind_params(*tmpl, copy.args)) inner[n] = t;
        walk_fundef(*f, inner);
        ExprPtr let = make_expr(ExprKind::LetFun, ep->span);
        let->type = rest->type;
        let->fundef = std::move(f);
        let->args.push_back(std::move(rest));
        rest = std::move(let);
      }
      local_copies_.erase(found);
    }
    // The template itself stays alive for the uses that point to it.
    local_templates_.push_back(std::move(ep));
    ep = std::move(rest);
  }

  std::vector<ExprPtr> local_templates_;
};

} // namespace

void monomorphise(Program &program, NameSource &names) { Monomorphiser(program, names).run(); }

} // namespace kerb
