// Elimination of the module language, before type checking (elaborate_modules.h).
//
// Futhark eliminates modules at compile time (its "defunctorisation"); so does Kerb,
// but earlier, on the syntax: the pass walks the declarations of the main file in order
// with an environment (Env) of what each name means, and emits every definition and
// type it meets as a top-level one of program.defs and program.types, named by its
// module path (`M.f`, `M.N.t`; see Note [Qualified names]). Every name in a definition's
// body and types is rewritten to the definition it resolves to, so that the type
// checker sees the core language only. In detail:
//
// - `import "path"` reads `path.fut` relative to the importing file (the vendored
//   `lib/github.com/...` layout works as it does in Futhark), parses and elaborates it
//   once, and brings its declarations into scope (re-exporting them, as Futhark does;
//   `local import` does not). A missing file and an import cycle are errors at the
//   `import` with the chain of imports that led there.
// - A structure `{ decls }` is elaborated where it is declared; `open` and `include`
//   bring a module's names into scope (and into the enclosing module's), `local` keeps a
//   declaration out of the enclosing module's names.
// - A parametric module `module F (P: S) = body` is a closure over the environment at its
//   definition; each application `F(A)` elaborates a fresh copy of its body with P bound
//   to A (so a module applied twice gives two sets of definitions, as in Futhark).
// - Ascription `M : S` (and a parameter's signature) checks that M defines every value,
//   type and module S specifies, that its types match their specifications (Note [Type
//   specifications]), and hides the rest. Types are transparent: an opaque type of S is
//   the module's type (see Note [Transparent ascription]).
// - The numeric modules (`f32`, `i64`, ... and `bool`) are modules too: `module real =
//   f32`, `F(f64)`, `R.sqrt`, `R.t`, `f32.(x + sqrt y)`, `(R.+)` resolve to the built-ins
//   the type checker knows (`f32.sqrt`, f32, ...). Futhark's module types of them
//   (`numeric`, `real`, ...) are accepted as signatures without a check.
// - `M.(e)` (a local open) is removed: e's names are resolved with M's in scope first.
//
// Note [Qualified names]
// A definition of the main file keeps its name (entry points must); any other is named
// by its module path, which is what Futhark's messages call it (`M.f`); a name used
// twice (two modules of one name in different files, or two files defining `f`) gets a
// suffix `@2`, `@3`, ... which no program can write. Only the main file's entry points
// stay entry points.
//
// Note [Transparent ascription]
// Kerb does not hide a type behind an opaque signature: `module M : {type t} = {type t =
// i32}` makes M.t the same type as i32 everywhere. A program Futhark accepts means the
// same under this reading; one that relies on t being i32 outside M is accepted where
// Futhark rejects it. The values a signature specifies are checked to exist and, where
// the ascribed module made them, given their specified types (Note [Value
// specifications]); wherever they were made, a function may consume an argument only
// where its `val` does (check_val_uniqueness); the types it specifies are checked as
// Futhark checks them (Note [Type specifications]).
//
// Note [Value specifications]
// Futhark sees an ascribed module's values through the module type: in `module K = F
// f32` with `F (P: real) : {type t  val copy [n] : [n]t -> *[n]t} with t = P.t = { ...
// def copy = copy }`, K.copy is a function of f32 arrays, not the polymorphic `copy`
// (babelstream's `entry f32_copy = K.copy` would otherwise be polymorphic). Each `val`
// specification keeps its type, resolved where the signature is written (`#spec.t` for
// its own types); ascription makes those the module's types and records the result on
// the definition (FunDef::specified), and the type checker unifies the definition's
// type with it (the specification's type parameters fresh variables, its sizes not
// compared: fresh size variables in the parameters and unknown in the result, so that
// the definition keeps the sizes its body gives, as `def vzip = id` keeps `[n]a ->
// [n]a`), with Futhark's "Module type specifies ... but module provides ..." where they
// differ. Only a definition the ascribed module's own elaboration made is given the type
// (a structure literal, a parametric module's body at its application, a module
// argument written in place): one that the module only names (`module N : S = M`, `open
// M` inside it) is shared with other modules and stays as it is, so the specification is
// not checked there.
//
// Note [Type specifications]
// Each `type` specification keeps its parameters, liftedness and definition (resolved
// where the signature is written; a name of the signature's own types is kept as
// `#spec.t` and becomes the module's type when matched). Ascription then checks, as
// Futhark's resolveAbsTypes and matchTypeAbbr do: the module's type takes the same
// parameters; an abstract one is no more lifted than specified, hides no size if
// specified non-lifted, and uses each size parameter as an array size (a value of it
// must carry the size); a specified definition is the module's, with both expanded,
// where a type name left on either side (a parameter's abstract type) matches anything
// and sizes differ only when both are constants. `with` refines only an abstract type,
// with the parameters it is specified with. A parametric module never applied is
// checked only for the names its body declares (check_functor_body).
#include "compiler/modules/elaborate_modules.h"

#include "compiler/builtins.h"
#include "compiler/modules/module_ast.h"
#include "compiler/types/check_consumption.h"
#include "compiler/prelude.h"
#include "compiler/syntax/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace kerb {
namespace {

struct Env;
using EnvPtr = std::shared_ptr<Env>;

// A type a signature specifies: its parameters and liftedness, and its definition if
// it has one (`type t = ...`, or refined by `with`), resolved where the signature is
// written; a name of the signature's own types in it is `#spec.t` (spec_type_name).
struct TypeSpec {
  TypeParam::Kind lifted = TypeParam::Plain;
  std::vector<bool> param_is_size;
  std::vector<std::string> size_params;
  std::vector<TypeParam> type_params;
  std::optional<Type> definition;
};

// What a signature requires, by name (see Note [Transparent ascription]).
struct SigInfo {
  bool builtin = false; // numeric, real, ...: any module matches
  bool functor = false; // (P: S) -> T
  std::vector<std::string> values, types;
  // By name, for `values`: the type as written, and the specification's text.
  std::map<std::string, std::pair<Type, std::string>> value_types;
  std::map<std::string, TypeSpec> type_specs; // by name, for `types`
  // By name, for the `values` whose types resolve (Note [Value specifications]).
  std::map<std::string, FunDef::Specified> val_specs;
  std::vector<std::pair<std::string, std::shared_ptr<SigInfo>>> modules;
};

std::string spec_type_name(const std::string &n) { return "#spec." + n; }

using SigPtr = std::shared_ptr<SigInfo>;

// A module, or the scope of the declarations being elaborated.
struct Env {
  std::map<std::string, std::string> values; // name -> the definition's qualified name
  std::map<std::string, Type> types;         // name -> Named(qualified name) or a primitive
  std::map<std::string, EnvPtr> modules;
  std::map<std::string, SigPtr> sigs;
  std::vector<PrimType> opened;              // numeric modules opened into it
  std::optional<PrimType> prim;              // a numeric module itself
  // A parametric module: its parameters still to be given, result signature, body, and
  // the scope of its definition (with the parameters given so far).
  std::vector<ModParam> params;
  std::shared_ptr<SigExp> result_sig;
  std::shared_ptr<ModExp> body;
  EnvPtr closure;

  bool is_functor() const { return !params.empty(); }
};

// The module types of Futhark's prelude for its numeric modules.
bool is_builtin_sig(const std::string &name) {
  static const char *const names[] = {"from_prim", "numeric", "integral", "size", "real", "float"};
  for (const char *n : names)
    if (name == n) return true;
  return false;
}

// Whether numeric module `p` has a value member `name` (a built-in or the prelude's).
bool prim_has_value(PrimType p, const std::string &name) {
  static const std::set<std::string> prelude = [] {
    Program empty;
    add_prelude(empty);
    std::set<std::string> names;
    for (const auto &d : empty.defs) names.insert(d->name);
    return names;
  }();
  // Its operators are the built-in ones (`i32.(a + b)` means them wherever + is redefined).
  if (!name.empty() && std::string_view("+-*/%=!<>&|^").find(name[0]) != std::string_view::npos)
    return true;
  std::string m = prim_name(p);
  return prim_builtin_from_name(m + "." + name) || prelude.count(m + "'" + name);
}

// The built-in binary operator written `text` (`+`, `<=`, ...), if any.
std::optional<BinOp> builtin_binop(const std::string &text) {
  for (int k = 0; k <= int(BinOp::Concat); k++)
    if (text == binop_text(BinOp(k)) && BinOp(k) != BinOp::Concat) return BinOp(k);
  return std::nullopt;
}

std::vector<std::string> split_path(const std::string &qualified) {
  std::vector<std::string> parts;
  size_t at = 0;
  for (;;) {
    size_t dot = qualified.find('.', at);
    parts.push_back(qualified.substr(at, dot - at));
    if (dot == std::string::npos) return parts;
    at = dot + 1;
  }
}

// Adds every name of `m` to `to`.
void add_all(Env &to, const Env &m) {
  for (const auto &[k, v] : m.values) to.values[k] = v;
  for (const auto &[k, v] : m.types) to.types[k] = v;
  for (const auto &[k, v] : m.modules) to.modules[k] = v;
  for (const auto &[k, v] : m.sigs) to.sigs[k] = v;
  for (PrimType p : m.opened) to.opened.push_back(p);
  if (m.prim) to.opened.push_back(*m.prim);
}

// The names bound by a pattern.
void pattern_names(const Pattern &p, std::vector<std::string> &out) {
  if (p.kind == Pattern::Id) out.push_back(p.name);
  for (const Pattern &e : p.elems) pattern_names(e, out);
}

class Elaborator {
public:
  explicit Elaborator(Program &prog) : prog_(prog) {}

  void run() {
    std::shared_ptr<DeclList> top = std::move(prog_.modules);
    // The main file's definitions and types keep their names (Note [Qualified names]).
    for (const auto &d : top->decls) {
      const Decl *x = d.get();
      while (x->kind == Decl::Local) x = x->inner.get();
      if (x->kind == Decl::Def) reserved_.insert(x->def->name);
      if (x->kind == Decl::Type) reserved_.insert(x->tdecl->name);
    }
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(prog_.file->path, ec).string();
    importing_.push_back({key, prog_.file->path, Span{}});
    auto scope = std::make_shared<Env>();
    Env exports;
    main_ = true;
    for (const auto &d : top->decls) elab_decl(*d, *scope, &exports, "");
    rename_sizes();
  }

private:
  struct Importing {
    std::string key, path;
    Span at; // the import that reads it
  };

  Program &prog_;
  std::set<std::string> used_, reserved_;
  std::map<std::string, EnvPtr> files_; // by canonical path
  std::vector<Importing> importing_;
  bool main_ = false; // elaborating the main file's top level
  int anon_ = 0;

  // ---- names

  // Note [Names used as sizes]
  // A size is kept as the text of its expression (`[n]`, `[n * m]`), which the later
  // stages read as identifiers and operators: a definition used in a size, such as a
  // parametric module's `r` in `[r]T.t`, cannot be called `M.r`. Those definitions get a
  // name of identifier characters instead, `M'r`, everywhere they are used.
  std::set<std::string> size_names_;

  void rename_sizes() {
    if (size_names_.empty()) return;
    std::map<std::string, std::string> to;
    for (const std::string &n : size_names_) {
      std::string safe = n;
      for (char &c : safe)
        if (c == '.' || c == '@') c = '\'';
      while (used_.count(safe)) safe += "'";
      used_.insert(safe);
      to[n] = safe;
    }
    auto rename = [&](std::string &n) {
      if (auto it = to.find(n); it != to.end()) n = it->second;
    };
    std::function<void(Type &)> in_type = [&](Type &t) {
      for (Dim &d : t.dims)
        if (d.kind == Dim::Var) rename(d.name);
      for (Type &e : t.elems) in_type(e);
      for (auto &p : t.payloads)
        for (Type &e : p) in_type(e);
    };
    std::function<void(Pattern &)> in_pattern = [&](Pattern &p) {
      if (p.annotation) in_type(*p.annotation);
      for (Pattern &e : p.elems) in_pattern(e);
    };
    std::function<void(FunDef &)> in_fun;
    std::function<void(Expr &)> in_expr = [&](Expr &e) {
      if (e.kind == ExprKind::Var || e.kind == ExprKind::Apply || e.kind == ExprKind::OpSection)
        rename(e.name);
      if (e.annotation) in_type(*e.annotation);
      in_pattern(e.pattern);
      in_pattern(e.pattern2);
      for (Pattern &p : e.params) in_pattern(p);
      if (e.fundef) in_fun(*e.fundef);
      for_each_child(e, [&](ExprPtr &x) { in_expr(*x); });
    };
    in_fun = [&](FunDef &f) {
      rename(f.name);
      for (Pattern &p : f.params) in_pattern(p);
      if (f.ret_annotation) in_type(*f.ret_annotation);
      if (f.body) in_expr(*f.body);
    };
    for (auto &f : prog_.defs) in_fun(*f);
    for (auto &t : prog_.types) in_type(t->definition);
  }

  std::string fresh(const std::string &name, bool keep) {
    if (keep) {
      used_.insert(name);
      return name;
    }
    std::string n = name;
    for (int k = 2; used_.count(n) || reserved_.count(n); k++) n = fmt::format("{}@{}", name, k);
    used_.insert(n);
    return n;
  }

  // ---- declarations

  // Elaborates `d` in `scope`; what it declares goes into `scope` and, unless it is
  // local (`exports` null), into `exports`. `prefix` is the module path ("M.N.").
  void elab_decl(const Decl &d, Env &scope, Env *exports, const std::string &prefix) {
    bool top = main_ && prefix.empty();
    switch (d.kind) {
    case Decl::Def: {
      std::unique_ptr<FunDef> f = clone_fundef(*d.def);
      resolve_fundef(*f, scope);
      std::string name = fresh(prefix + f->name, top);
      if (!top) f->is_entry = false;
      if (exports) exports->values[f->name] = name;
      scope.values[f->name] = name;
      f->name = name;
      prog_.defs.push_back(std::move(f));
      return;
    }
    case Decl::Type: {
      auto t = std::make_unique<TypeDecl>(*d.tdecl);
      Locals l;
      for (const TypeParam &p : t->type_params) l.types.push_back(p.name);
      for (const std::string &s : t->size_params) l.values.push_back(s);
      scope_ = &scope;
      opens_.clear();
      resolve_type(t->definition, l, t->span);
      std::string name = fresh(prefix + t->name, top);
      Type named = Type::named(name);
      if (exports) exports->types[t->name] = named;
      scope.types[t->name] = named;
      t->name = name;
      t->before_def = prog_.defs.size();
      prog_.types.push_back(std::move(t));
      return;
    }
    case Decl::Module: {
      EnvPtr m;
      if (!d.params.empty()) {
        m = std::make_shared<Env>();
        m->params = d.params;
        m->result_sig = d.sig;
        m->body = d.mod;
        m->closure = std::make_shared<Env>(scope);
        if (d.sig) check_functor_body(*d.mod, *d.sig, scope);
      } else {
        bool saved = main_;
        main_ = false;
        size_t made_from = prog_.defs.size();
        m = elab_mod(*d.mod, scope, prefix + d.name + ".");
        main_ = saved;
        if (d.sig) m = ascribe(m, elab_sig(*d.sig, scope), d.mod->span, made_from);
      }
      if (exports) exports->modules[d.name] = m;
      scope.modules[d.name] = m;
      return;
    }
    case Decl::ModType: {
      SigPtr s = elab_sig(*d.sig, scope);
      if (exports) exports->sigs[d.name] = s;
      scope.sigs[d.name] = s;
      return;
    }
    case Decl::Open:
    case Decl::Include: {
      bool saved = main_;
      main_ = false;
      EnvPtr m = elab_mod(*d.mod, scope, prefix);
      main_ = saved;
      if (m->is_functor())
        error_at(d.mod->span, fmt::format("a parametric module cannot be {}",
                                          d.kind == Decl::Open ? "opened" : "included"));
      add_all(scope, *m);
      if (exports) add_all(*exports, *m);
      return;
    }
    case Decl::Import: {
      EnvPtr m = import_file(d.name, d.span);
      add_all(scope, *m);
      if (exports) add_all(*exports, *m);
      return;
    }
    case Decl::Local:
      elab_decl(*d.inner, scope, nullptr, prefix);
      return;
    }
  }

  // ---- imports

  // Reads, parses and elaborates the file `path` names (relative to the importing file,
  // `.fut` implied) once; later imports of it get the same module.
  EnvPtr import_file(const std::string &path, const Span &at) {
    namespace fs = std::filesystem;
    fs::path base = fs::path(at.file->path).parent_path();
    std::string shown = (base / (path + ".fut")).lexically_normal().string();
    std::error_code ec;
    std::string key = fs::weakly_canonical(shown, ec).string();
    if (ec) key = shown;
    for (size_t i = 0; i < importing_.size(); i++)
      if (importing_[i].key == key) {
        std::string chain;
        for (size_t j = i; j < importing_.size(); j++)
          chain += fmt::format("'{}' imports ", importing_[j].path);
        error_at(at, fmt::format("import cycle: {}'{}'", chain, shown));
      }
    if (auto it = files_.find(key); it != files_.end()) return it->second;
    std::shared_ptr<const SourceFile> file;
    if (!fs::is_regular_file(shown, ec))
      error_at(at, fmt::format("cannot import \"{}\": there is no file '{}'{}", path, shown,
                               import_chain()));
    try {
      file = load_source_file(shown);
    } catch (const CompileError &e) {
      error_at(at, fmt::format("cannot import \"{}\": {}{}", path, e.what(), import_chain()));
    }
    prog_.imports.push_back(file);
    Program parsed = parse_program(file);
    auto list = parsed.modules;
    if (!list) { // a file of plain declarations
      list = std::make_shared<DeclList>();
      size_t next_type = 0;
      for (size_t i = 0; i <= parsed.defs.size(); i++) {
        for (; next_type < parsed.types.size() && parsed.types[next_type]->before_def <= i; next_type++) {
          auto d = std::make_shared<Decl>();
          d->kind = Decl::Type;
          d->tdecl = std::make_shared<TypeDecl>(*parsed.types[next_type]);
          list->decls.push_back(d);
        }
        if (i == parsed.defs.size()) break;
        auto d = std::make_shared<Decl>();
        d->kind = Decl::Def;
        d->def = std::move(parsed.defs[i]);
        list->decls.push_back(d);
      }
    }
    importing_.push_back({key, shown, at});
    bool saved = main_;
    main_ = false;
    auto scope = std::make_shared<Env>();
    auto exports = std::make_shared<Env>();
    for (const auto &d : list->decls) elab_decl(*d, *scope, exports.get(), "");
    main_ = saved;
    importing_.pop_back();
    files_[key] = exports;
    return exports;
  }

  // " (imported from 'b.fut', imported from 'main.fut')" for the files being imported.
  std::string import_chain() const {
    std::string out;
    for (size_t i = importing_.size(); i-- > 0;)
      out += fmt::format("{}imported from '{}'", out.empty() ? " (" : ", ", importing_[i].path);
    return out.empty() ? out : out + ")";
  }

  // ---- module expressions

  // `with_opens`: look in the local opens around the expression first.
  EnvPtr find_module(const std::string &qualified, const Env &scope, const Span &span,
                     bool with_opens = false) {
    std::vector<std::string> parts = split_path(qualified);
    EnvPtr m;
    if (with_opens)
      for (size_t i = opens_.size(); i-- > 0 && !m;)
        if (auto it = opens_[i].first->modules.find(parts[0]); it != opens_[i].first->modules.end())
          m = it->second;
    if (!m)
      if (auto it = scope.modules.find(parts[0]); it != scope.modules.end()) m = it->second;
    if (!m) {
      PrimType p;
      if (!prim_from_name(parts[0], p)) error_at(span, fmt::format("Unknown module '{}'", parts[0]));
      m = std::make_shared<Env>();
      m->prim = p;
    }
    for (size_t i = 1; i < parts.size(); i++) {
      auto it = m->modules.find(parts[i]);
      if (it == m->modules.end())
        error_at(span, fmt::format("Unknown module '{}'", qualified));
      m = it->second;
    }
    return m;
  }

  EnvPtr elab_mod(const ModExp &e, Env &scope, const std::string &prefix) {
    switch (e.kind) {
    case ModExp::Name: return find_module(e.name, scope, e.span);
    case ModExp::Struct: {
      auto inner = std::make_shared<Env>(scope);
      auto out = std::make_shared<Env>();
      for (const auto &d : e.body) elab_decl(*d, *inner, out.get(), prefix);
      return out;
    }
    case ModExp::Import: return import_file(e.name, e.span);
    case ModExp::Ascribe: {
      size_t made_from = prog_.defs.size();
      EnvPtr m = elab_mod(*e.fun, scope, prefix);
      return ascribe(m, elab_sig(*e.sig, scope), e.span, made_from);
    }
    case ModExp::Lambda: {
      auto m = std::make_shared<Env>();
      m->params = e.params;
      m->result_sig = e.sig;
      m->body = e.fun;
      m->closure = std::make_shared<Env>(scope);
      return m;
    }
    case ModExp::Apply: {
      EnvPtr f = elab_mod(*e.fun, scope, prefix);
      if (!f->is_functor())
        error_at(e.fun->span, "this module is not parametric and cannot be applied");
      size_t arg_from = prog_.defs.size();
      EnvPtr arg = elab_mod(*e.arg, scope, fmt::format("{}arg{}.", prefix, ++anon_));
      const ModParam &p = f->params[0];
      arg = ascribe(arg, elab_sig(*p.sig, *f->closure), e.arg->span, arg_from);
      auto closure = std::make_shared<Env>(*f->closure);
      closure->modules[p.name] = arg;
      if (f->params.size() > 1) {
        auto g = std::make_shared<Env>(*f);
        g->params.erase(g->params.begin());
        g->closure = closure;
        return g;
      }
      size_t body_from = prog_.defs.size();
      EnvPtr body = elab_mod(*f->body, *closure, prefix);
      if (f->result_sig)
        body = ascribe(body, elab_sig(*f->result_sig, *closure), e.span, body_from);
      return body;
    }
    }
    return nullptr;
  }

  // ---- signatures

  SigPtr elab_sig(const SigExp &s, const Env &scope) {
    switch (s.kind) {
    case SigExp::Name: {
      std::vector<std::string> parts = split_path(s.name);
      if (parts.size() == 1) {
        if (auto it = scope.sigs.find(s.name); it != scope.sigs.end()) return it->second;
        if (is_builtin_sig(s.name)) {
          auto b = std::make_shared<SigInfo>();
          b->builtin = true;
          return b;
        }
        error_at(s.span, fmt::format("Unknown module type '{}'", s.name));
      }
      std::string last = parts.back();
      parts.pop_back();
      std::string path;
      for (const std::string &p : parts) path += (path.empty() ? "" : ".") + p;
      EnvPtr m = find_module(path, scope, s.span);
      auto it = m->sigs.find(last);
      if (it == m->sigs.end()) error_at(s.span, fmt::format("Unknown module type '{}'", s.name));
      return it->second;
    }
    case SigExp::Specs: {
      auto out = std::make_shared<SigInfo>();
      // The signature's own types, as they are named in the definitions of later ones.
      auto own = std::make_shared<Env>(scope);
      for (const Spec &sp : s.specs) {
        switch (sp.kind) {
        case Spec::Val:
          check_val_spec(sp);
          out->values.push_back(sp.name);
          out->value_types[sp.name] = {sp.type, std::string(sp.span.text())};
          if (std::optional<FunDef::Specified> v = val_spec(sp, *own)) out->val_specs[sp.name] = *v;
          break;
        case Spec::Type:
          out->types.push_back(sp.name);
          out->type_specs[sp.name] = type_spec(*sp.tdecl, sp.abstract, *own);
          own->types[sp.name] = Type::named(spec_type_name(sp.name));
          break;
        case Spec::Module: out->modules.push_back({sp.name, elab_sig(*sp.sig, *own)}); break;
        case Spec::Include: {
          SigPtr inc = elab_sig(*sp.sig, *own);
          out->values.insert(out->values.end(), inc->values.begin(), inc->values.end());
          out->value_types.insert(inc->value_types.begin(), inc->value_types.end());
          for (const auto &[n, v] : inc->val_specs) out->val_specs[n] = v;
          out->types.insert(out->types.end(), inc->types.begin(), inc->types.end());
          for (const auto &[n, ts] : inc->type_specs) {
            out->type_specs[n] = ts;
            own->types[n] = Type::named(spec_type_name(n));
          }
          out->modules.insert(out->modules.end(), inc->modules.begin(), inc->modules.end());
          out->builtin = out->builtin || inc->builtin;
          break;
        }
        }
      }
      return out;
    }
    case SigExp::With: {
      SigPtr base = elab_sig(*s.base, scope);
      auto out = std::make_shared<SigInfo>(*base);
      std::vector<std::string> parts = split_path(s.with_type);
      if (!base->builtin && parts.size() == 1 &&
          std::find(base->types.begin(), base->types.end(), s.with_type) == base->types.end())
        error_at(s.span, fmt::format("the module type has no type '{}' to refine", s.with_type));
      refine(*out, parts, 0, s, scope);
      return out;
    }
    case SigExp::Functor: {
      auto out = std::make_shared<SigInfo>();
      out->functor = true;
      return out;
    }
    }
    return nullptr;
  }

  // `m` restricted to what `s` specifies; an error at `span` if m lacks any of it.
  // `path` names the module inside the ascribed one, for the messages ("bar."). The
  // definitions from `prog_.defs[made_from]` on were made by m's elaboration: they take
  // the types `s` specifies for them (Note [Value specifications]).
  EnvPtr ascribe(const EnvPtr &m, const SigPtr &s, const Span &span, size_t made_from,
                 const std::string &path = "") {
    if (s->builtin) return m;
    if (s->functor) {
      if (!m->is_functor())
        error_at(span, "the module type is that of a parametric module, but this module is not "
                       "parametric");
      return m;
    }
    if (m->is_functor())
      error_at(span, "a parametric module cannot have a module type of a structure");
    auto out = std::make_shared<Env>();
    out->prim = m->prim;
    for (const std::string &v : s->values) {
      if (auto it = m->values.find(v); it != m->values.end()) {
        out->values[v] = it->second;
        if (auto t = s->value_types.find(v); t != s->value_types.end())
          check_val_uniqueness(t->second.second, t->second.first, it->second, span);
        continue;
      }
      std::optional<PrimType> p = m->prim;
      for (PrimType o : m->opened)
        if (!p && prim_has_value(o, v)) p = o;
      if (p && prim_has_value(*p, v)) {
        out->values[v] = fmt::format("{}.{}", prim_name(*p), v);
        continue;
      }
      error_at(span, fmt::format("Module does not define a value named '{}' (its module type "
                                 "requires it)",
                                 v));
    }
    for (const std::string &t : s->types) {
      if (auto it = m->types.find(t); it != m->types.end()) {
        out->types[t] = it->second;
        continue;
      }
      if (m->prim && t == "t") {
        out->types[t] = Type::prim_type(*m->prim);
        continue;
      }
      error_at(span, fmt::format("Module does not define a type named '{}' (its module type "
                                 "requires it)",
                                 t));
    }
    for (const auto &[t, spec] : s->type_specs)
      if (auto it = out->types.find(t); it != out->types.end())
        match_type_spec(path + t, spec, it->second, *out, span);
    for (const auto &[name, sub] : s->modules) {
      auto it = m->modules.find(name);
      if (it == m->modules.end())
        error_at(span, fmt::format("Module does not define a module named '{}' (its module type "
                                   "requires it)",
                                   name));
      out->modules[name] = ascribe(it->second, sub, span, made_from, path + name + ".");
    }
    // The values whose result the signature gives as one of its abstract types, as
    // written (check_consumption.cpp, Note [Constants of abstract types]).
    for (const auto &[v, written] : s->value_types) {
      auto it = out->values.find(v);
      if (it == out->values.end()) continue;
      const Type *result = &written.first;
      while (result->kind == Type::Function) result = &result->elems[1];
      auto ts = result->kind == Type::Named ? s->type_specs.find(result->name) : s->type_specs.end();
      if (ts == s->type_specs.end() || ts->second.definition) continue;
      for (size_t i = made_from; i < prog_.defs.size(); i++)
        if (prog_.defs[i]->name == it->second) prog_.defs[i]->abstract_result = true;
    }
    for (const auto &[v, spec] : s->val_specs) {
      auto it = out->values.find(v);
      if (it == out->values.end()) continue;
      FunDef::Specified x = spec;
      x.type = own_types(spec.type, *out);
      if (names_spec_type(x.type)) continue;
      // The module's types by their definitions: a type the module declares after the
      // definition (a second `open` of a parametric module's application) is not known
      // where the definition is checked.
      x.type = expand(x.type);
      x.name = path + v;
      x.span = span;
      for (size_t i = made_from; i < prog_.defs.size(); i++)
        if (prog_.defs[i]->name == it->second) prog_.defs[i]->specified.push_back(x);
    }
    return out;
  }

  // A `val` specification with its type resolved where the signature is written
  // (`scope`), or nullopt where it cannot be.
  std::optional<FunDef::Specified> val_spec(const Spec &sp, const Env &scope) {
    TypeDecl d;
    d.type_params = sp.type_params;
    d.size_params = sp.size_params;
    d.definition = sp.type;
    d.span = sp.span;
    std::optional<Type> t = resolved_type(d, scope);
    if (!t) return std::nullopt;
    FunDef::Specified out;
    // The type parameters get names no type abbreviation has (expand leaves them).
    std::map<std::string, Type> params;
    out.type_params = sp.type_params;
    for (TypeParam &p : out.type_params) {
      p.name = "#param." + p.name;
      params[p.name.substr(7)] = Type::named(p.name);
    }
    out.type = substitute_named(*t, params);
    out.name = sp.name;
    out.text = fmt::format("{} : {}", params_suffix(sp.size_params, sp.type_params), sp.type.str());
    out.span = sp.span;
    return out;
  }

  // Whether `t` still names a signature's own type (one the module does not define).
  static bool names_spec_type(const Type &t) {
    return any_in_type(t, [](const Type &x) {
      return x.kind == Type::Named && x.name.starts_with("#spec.");
    });
  }

  // ---- type specifications (Note [Type specifications])

  // A `type` specification as the signature states it.
  TypeSpec type_spec(const TypeDecl &d, bool abstract, const Env &scope) {
    std::set<std::string> seen;
    for (const std::string &n : d.size_params)
      if (!seen.insert(n).second)
        error_at(d.name_span, fmt::format("Type parameter \"{}\" previously defined in the "
                                          "parameters of type '{}'.",
                                          n, d.name));
    seen.clear();
    for (const TypeParam &p : d.type_params)
      if (!seen.insert(p.name).second)
        error_at(p.span, fmt::format("Type parameter \"{}\" previously defined in the "
                                     "parameters of type '{}'.",
                                     p.name, d.name));
    TypeSpec ts;
    ts.lifted = d.lifted;
    ts.param_is_size = d.param_is_size;
    ts.size_params = d.size_params;
    ts.type_params = d.type_params;
    if (!abstract) ts.definition = resolved_type(d, scope);
    return ts;
  }

  // The definition of `d` with its names resolved in `scope`; nullopt where they cannot
  // be (the match is then not checked).
  std::optional<Type> resolved_type(const TypeDecl &d, const Env &scope) {
    const Env *saved_scope = scope_;
    auto saved_opens = opens_;
    scope_ = &scope;
    opens_.clear();
    Locals l;
    for (const TypeParam &p : d.type_params) l.types.push_back(p.name);
    for (const std::string &s : d.size_params) l.values.push_back(s);
    std::optional<Type> out;
    try {
      Type t = d.definition;
      resolve_type(t, l, d.span);
      out = std::move(t);
    } catch (const CompileError &) {
    }
    scope_ = saved_scope;
    opens_ = std::move(saved_opens);
    return out;
  }

  // A function the module provides for `val name : spec` may consume an argument only
  // where the specification does, and must return a unique result where it does; also
  // for a definition the module only names, whose type is not compared (Note [Value
  // specifications]).
  void check_val_uniqueness(const std::string &spec_text, const Type &spec, const std::string &def,
                            const Span &span) {
    const FunDef *f = nullptr;
    for (const auto &d : prog_.defs)
      if (d->name == def) f = d.get();
    if (!f) return;
    std::string head = fmt::format("Module type specifies {}, but module provides a different "
                                   "one: ",
                                   spec_text);
    const Type *t = &spec;
    for (const Pattern &p : f->params) {
      if (t->kind != Type::Function) return;
      if (p.annotation && type_consumes(*p.annotation) && !type_consumes(t->elems[0]))
        error_at(span, fmt::format("{}parameters {} and {} are incompatible regarding consuming "
                                   "their arguments.",
                                   head, p.annotation->str(), t->elems[0].str()));
      t = &t->elems[1];
    }
    // (A result without a written type may be unique: the consumption checker infers it.)
    if (t->kind != Type::Function && type_consumes(*t) && f->ret_annotation &&
        !type_consumes(*f->ret_annotation))
      error_at(span, fmt::format("{}return types {} and {} have incompatible uniqueness.", head,
                                 f->ret_annotation->str(), t->str()));
  }

  // Futhark's checks of a `val` specification's type that need no inference.
  static void check_val_spec(const Spec &sp) {
    std::set<std::string> named;
    for (const Type *t = &sp.type; t->kind == Type::Function; t = &t->elems[1]) {
      if (!t->name.empty() && !named.insert(t->name).second)
        error_at(sp.span, fmt::format("The parameter name \"{}\" is bound twice in the type of "
                                      "'{}'.",
                                      t->name, sp.name));
      if (has_unknown_dim(t->elems[0]))
        error_at(sp.span, fmt::format("All function parameters must have non-anonymous sizes.\n"
                                      "Hint: add size parameters to \"{}\".",
                                      sp.name));
    }
  }

  // `with parts = definition` on `sig` (parts[i] onwards; a qualified type is in a
  // sub-signature, copied so that the base signature keeps its own).
  void refine(SigInfo &sig, const std::vector<std::string> &parts, size_t i, const SigExp &s,
              const Env &scope) {
    if (i + 1 < parts.size()) {
      for (auto &[n, sub] : sig.modules)
        if (n == parts[i]) {
          sub = std::make_shared<SigInfo>(*sub);
          refine(*sub, parts, i + 1, s, scope);
        }
      return;
    }
    auto it = sig.type_specs.find(parts[i]);
    if (it == sig.type_specs.end()) return;
    TypeSpec &ts = it->second;
    const TypeDecl &w = *s.with_def;
    // A type defined as another abstract type of the signature (`type real` and an
    // included `type real = real`) is abstract too: both are refined.
    std::string alias;
    if (ts.definition && ts.definition->kind == Type::Named && ts.definition->elems.empty() &&
        ts.definition->name.starts_with("#spec."))
      alias = ts.definition->name.substr(6);
    if (ts.definition && alias.empty())
      error_at(s.span, fmt::format("\"{}\" is not an abstract type in the module type.",
                                   s.with_type));
    bool match = ts.param_is_size == w.param_is_size;
    for (size_t k = 0; match && k < ts.type_params.size(); k++)
      match = lift_rank(ts.type_params[k].kind) <= lift_rank(w.type_params[k].kind);
    if (!match)
      error_at(s.span, fmt::format("Cannot refine a type having {} with a type having {}.",
                                   params_text(w.size_params, w.type_params),
                                   params_text(ts.size_params, ts.type_params)));
    ts.size_params = w.size_params;
    ts.type_params = w.type_params;
    ts.definition = resolved_type(w, scope);
    if (auto a = sig.type_specs.find(alias); !alias.empty() && a != sig.type_specs.end() &&
                                             alias != parts[i] && !a->second.definition)
      a->second = ts;
  }

  // " [n] 'a" for the parameters.
  static std::string params_suffix(const std::vector<std::string> &sizes,
                                   const std::vector<TypeParam> &types) {
    std::string out;
    for (const std::string &n : sizes) out += " [" + n + "]";
    for (const TypeParam &p : types)
      out += std::string(" '") +
             (p.kind == TypeParam::Lifted ? "^" : p.kind == TypeParam::SizeLifted ? "~" : "") +
             p.name;
    return out;
  }

  static std::string params_text(const std::vector<std::string> &sizes,
                                 const std::vector<TypeParam> &types) {
    if (sizes.empty() && types.empty()) return "no type parameters";
    return "type parameters" + params_suffix(sizes, types);
  }

  const TypeDecl *find_type_decl(const std::string &name) const {
    for (size_t i = prog_.types.size(); i-- > 0;)
      if (prog_.types[i]->name == name) return prog_.types[i].get();
    return nullptr;
  }

  // `t` with the abbreviations in it replaced by their definitions.
  Type expand(const Type &t, int depth = 0) const {
    if (depth > 50) return t;
    if (t.kind == Type::Named)
      if (const TypeDecl *d = find_type_decl(t.name);
          d && d->param_is_size.size() == t.elems.size()) {
        std::map<std::string, Type> args;
        for (size_t i = 0, ti = 0; i < t.elems.size(); i++)
          if (!d->param_is_size[i]) args[d->type_params[ti++].name] = t.elems[i];
        return expand(substitute_named(d->definition, args), depth + 1);
      }
    Type out = t;
    for (Type &e : out.elems) e = expand(e, depth + 1);
    for (auto &p : out.payloads)
      for (Type &e : p) e = expand(e, depth + 1);
    if (out.kind == Type::Array) out = Type::array(out.elems[0], out.dims);
    return out;
  }

  // `t` with the signature's own types (`#spec.t`, also applied to arguments) made the
  // module's.
  static Type own_types(Type t, const Env &module) {
    if (t.kind == Type::Named && t.name.starts_with("#spec."))
      if (auto it = module.types.find(t.name.substr(6)); it != module.types.end()) {
        if (it->second.kind != Type::Named) return it->second;
        t.name = it->second.name;
      }
    for (Type &e : t.elems) e = own_types(e, module);
    for (auto &p : t.payloads)
      for (Type &e : p) e = own_types(e, module);
    return t;
  }

  // Whether a type the module defines may be the one its signature specifies: false only
  // where they certainly differ (a type name left, such as a parameter's abstract type,
  // matches anything; sizes other than two constants match).
  static bool compatible(const Type &a, const Type &b) {
    if (a.kind == Type::Named && b.kind == Type::Named) return a.name == b.name;
    if (a.kind == Type::Named || b.kind == Type::Named || a.kind == Type::SizeArg) return true;
    if (a.kind != b.kind || a.elems.size() != b.elems.size() || a.names != b.names ||
        a.payloads.size() != b.payloads.size())
      return false;
    if (a.kind == Type::Prim) return a.prim == b.prim;
    if (a.kind == Type::Array) {
      // An element left a name may be an array (a parameter's abstract type).
      if (a.elems[0].kind == Type::Named || b.elems[0].kind == Type::Named) return true;
      if (a.dims.size() != b.dims.size()) return false;
      for (size_t i = 0; i < a.dims.size(); i++)
        if (a.dims[i].kind == Dim::Const && b.dims[i].kind == Dim::Const &&
            a.dims[i].value != b.dims[i].value)
          return false;
    }
    for (size_t i = 0; i < a.elems.size(); i++)
      if (!compatible(a.elems[i], b.elems[i])) return false;
    for (size_t i = 0; i < a.payloads.size(); i++) {
      if (a.payloads[i].size() != b.payloads[i].size()) return false;
      for (size_t k = 0; k < a.payloads[i].size(); k++)
        if (!compatible(a.payloads[i][k], b.payloads[i][k])) return false;
    }
    return true;
  }

  // Whether size `n` is an array size of `t` outside any function type in it.
  static bool witnessed(const Type &t, const std::string &n) {
    if (t.kind == Type::Function) return false;
    for (const Dim &d : t.dims)
      if (d.kind == Dim::Var && d.name == n) return true;
    for (const Type &e : t.elems)
      if (witnessed(e, n)) return true;
    for (const auto &p : t.payloads)
      for (const Type &e : p)
        if (witnessed(e, n)) return true;
    return false;
  }

  // The module's type `mod_type` for the specification `spec` of type `name` (Futhark's
  // resolveAbsTypes and matchTypeAbbr).
  void match_type_spec(const std::string &name, const TypeSpec &spec, const Type &mod_type,
                       const Env &module, const Span &span) {
    const TypeDecl *d = mod_type.kind == Type::Named ? find_type_decl(mod_type.name) : nullptr;
    if (mod_type.kind == Type::Named && !d) return;
    TypeParam::Kind lifted = d ? d->lifted : TypeParam::Plain;
    std::vector<bool> params = d ? d->param_is_size : std::vector<bool>{};
    Type def = d ? d->definition : mod_type;
    std::string defined = fmt::format(
        "type{} {}{} = {}",
        lifted == TypeParam::Lifted ? "^" : lifted == TypeParam::SizeLifted ? "~" : "", name,
        d ? params_suffix(d->size_params, d->type_params) : "", def.str());
    if (params != spec.param_is_size)
      error_at(span, fmt::format("Module defines\n  {}\nbut module type requires type '{}' with "
                                 "{}.",
                                 defined, name, params_text(spec.size_params, spec.type_params)));
    if (!spec.definition) {
      if (lift_rank(lifted) > lift_rank(spec.lifted))
        error_at(span, fmt::format("Module defines\n  {}\nbut module type requires {}.", defined,
                                   spec.lifted == TypeParam::Plain ? "a non-lifted type"
                                                                   : "a size-lifted type"));
      if (spec.lifted == TypeParam::Plain && has_unknown_dim(def))
        error_at(span, fmt::format("Module defines\n  {}\nwhich contains anonymous sizes, but "
                                   "module type requires non-lifted type.",
                                   defined));
      if (d)
        for (const std::string &n : d->size_params)
          if (!witnessed(def, n))
            error_at(span, fmt::format("Type\n  {}\ncannot be made abstract because size "
                                       "parameter\n  {}\nis not used constructively as an array "
                                       "size in the definition.",
                                       defined, n));
      if (d) prog_.abstract_types.insert(d->name); // opaque in the C API (entry_types.h)
      return;
    }
    std::map<std::string, Type> names;
    if (d)
      for (size_t i = 0; i < spec.type_params.size(); i++)
        names[spec.type_params[i].name] = Type::named(d->type_params[i].name);
    Type expected = expand(substitute_named(own_types(*spec.definition, module), names));
    if (!compatible(expected, expand(def)))
      error_at(span, fmt::format("Module defines\n  {}\nbut module type requires\n  type {} = {}",
                                 defined, name, spec.definition->str()));
  }

  // A parametric module is checked against its result signature where it is applied;
  // one never applied only here, for the names its body must declare (those the body
  // declares as written: a body that opens or includes a module is not checked).
  void check_functor_body(const ModExp &body, const SigExp &sig, const Env &scope) {
    if (body.kind != ModExp::Struct) return;
    SigPtr s;
    try {
      s = elab_sig(sig, scope);
    } catch (const CompileError &) {
      return;
    }
    if (s->builtin || s->functor) return;
    std::set<std::string> values, types, modules;
    for (const auto &d : body.body) {
      switch (d->kind) {
      case Decl::Def: values.insert(d->def->name); break;
      case Decl::Type: types.insert(d->tdecl->name); break;
      case Decl::Module: modules.insert(d->name); break;
      case Decl::ModType: case Decl::Local: break;
      case Decl::Open: case Decl::Import: case Decl::Include: return;
      }
    }
    for (const std::string &v : s->values)
      if (!values.count(v))
        error_at(body.span, fmt::format("Module does not define a value named '{}' (its module "
                                        "type requires it)",
                                        v));
    for (const std::string &t : s->types)
      if (!types.count(t))
        error_at(body.span, fmt::format("Module does not define a type named '{}' (its module "
                                        "type requires it)",
                                        t));
    for (const auto &m : s->modules)
      if (!modules.count(m.first))
        error_at(body.span, fmt::format("Module does not define a module named '{}' (its module "
                                        "type requires it)",
                                        m.first));
  }

  // ---- names in definitions

  // The local variables and type parameters in scope, innermost last.
  struct Locals {
    std::vector<std::string> values, types;
    // The position of the innermost binding of `n`, or -1.
    long find(const std::string &n) const {
      for (size_t i = values.size(); i-- > 0;)
        if (values[i] == n) return long(i);
      return -1;
    }
    bool has_type(const std::string &n) const {
      return std::find(types.begin(), types.end(), n) != types.end();
    }
  };

  // The local opens `M.(e)` around the expression being resolved, innermost last, with
  // the number of locals bound outside each: M's names hide those, not the ones e binds.
  std::vector<std::pair<EnvPtr, size_t>> opens_;
  const Env *scope_ = nullptr;

  static std::optional<std::string> value_in(const Env &m, const std::string &n) {
    if (auto it = m.values.find(n); it != m.values.end()) return it->second;
    if (m.prim && prim_has_value(*m.prim, n)) return fmt::format("{}.{}", prim_name(*m.prim), n);
    for (size_t i = m.opened.size(); i-- > 0;)
      if (prim_has_value(m.opened[i], n)) return fmt::format("{}.{}", prim_name(m.opened[i]), n);
    return std::nullopt;
  }

  // Whether the unqualified value name `n` is a local variable here.
  bool is_local(const std::string &n, const Locals &l) const {
    long at = l.find(n);
    if (at < 0) return false;
    for (size_t i = opens_.size(); i-- > 0;) {
      if (at >= long(opens_[i].second)) return true;
      if (value_in(*opens_[i].first, n)) return false;
    }
    return true;
  }

  // The qualified name an unqualified value name means where it is not a local, or
  // nullopt for a built-in (or an unknown name, which the type checker reports).
  std::optional<std::string> find_value(const std::string &n) {
    for (size_t i = opens_.size(); i-- > 0;)
      if (std::optional<std::string> q = value_in(*opens_[i].first, n)) return q;
    return value_in(*scope_, n);
  }

  // A member of module `m` (qualified `shown` for the message).
  std::string member_value(const Env &m, const std::string &n, const std::string &shown,
                           const Span &span) {
    if (auto it = m.values.find(n); it != m.values.end()) return it->second;
    if (m.prim) return fmt::format("{}.{}", prim_name(*m.prim), n);
    for (PrimType p : m.opened)
      if (prim_has_value(p, n)) return fmt::format("{}.{}", prim_name(p), n);
    error_at(span, fmt::format("Unknown name '{}'", shown));
  }

  bool is_module_name(const std::string &n, const Locals &l) {
    if (is_local(n, l) || find_value(n)) return false;
    for (const auto &o : opens_)
      if (o.first->modules.count(n)) return true;
    PrimType p;
    return scope_->modules.count(n) || prim_from_name(n, p);
  }

  void resolve_fundef(FunDef &f, const Env &scope) {
    scope_ = &scope;
    opens_.clear();
    Locals l;
    resolve_function(f, l);
  }

  void resolve_function(FunDef &f, Locals &l) {
    Locals inner = l;
    for (const TypeParam &p : f.type_params) inner.types.push_back(p.name);
    for (const std::string &s : f.size_params) inner.values.push_back(s);
    for (Pattern &p : f.params) bind_pattern(p, inner);
    if (f.ret_annotation) resolve_type(*f.ret_annotation, inner, f.span);
    resolve(f.body, inner);
  }

  void bind_pattern(Pattern &p, Locals &l) {
    resolve_pattern_types(p, l);
    std::vector<std::string> names;
    pattern_names(p, names);
    l.values.insert(l.values.end(), names.begin(), names.end());
  }

  void resolve_pattern_types(Pattern &p, const Locals &l) {
    if (p.annotation) resolve_type(*p.annotation, l, p.span);
    for (Pattern &e : p.elems) resolve_pattern_types(e, l);
  }

  // A type as written: module types resolved to their qualified names or primitives.
  void resolve_type(Type &t, const Locals &l, const Span &span) {
    for (Type &e : t.elems) resolve_type(e, l, span);
    for (auto &p : t.payloads)
      for (Type &e : p) resolve_type(e, l, span);
    for (Dim &d : t.dims)
      if (d.kind == Dim::Var && !is_local(d.name, l) &&
          d.name.find_first_of(" +-*/()") == std::string::npos)
        if (std::optional<std::string> q = d.name.find('.') == std::string::npos
                                               ? find_value(d.name)
                                               : qualified_value(d.name, span)) {
          d.name = *q;
          if (q->find_first_of(".@") != std::string::npos) size_names_.insert(*q);
        }
    if (t.kind != Type::Named || l.has_type(t.name)) return;
    std::optional<Type> found = find_type(t.name, span);
    if (!found) return;
    if (found->kind == Type::Prim) {
      if (!t.elems.empty())
        error_at(span, fmt::format("type '{}' takes no arguments", t.name));
      bool unique = t.unique;
      t = *found;
      t.unique = unique;
      return;
    }
    t.name = found->name;
  }

  // `M.N.x` in a size: the definition it names.
  std::optional<std::string> qualified_value(const std::string &name, const Span &span) {
    std::vector<std::string> parts = split_path(name);
    std::string last = parts.back();
    parts.pop_back();
    std::string path;
    for (const std::string &p : parts) path += (path.empty() ? "" : ".") + p;
    EnvPtr m = find_module(path, *scope_, span, true);
    return member_value(*m, last, name, span);
  }

  std::optional<Type> find_type(const std::string &name, const Span &span) {
    std::vector<std::string> parts = split_path(name);
    if (parts.size() == 1) {
      for (size_t i = opens_.size(); i-- > 0;) {
        const Env &m = *opens_[i].first;
        if (auto it = m.types.find(name); it != m.types.end()) return it->second;
        if (m.prim && name == "t") return Type::prim_type(*m.prim);
      }
      if (auto it = scope_->types.find(name); it != scope_->types.end()) return it->second;
      return std::nullopt;
    }
    std::string last = parts.back();
    parts.pop_back();
    std::string path;
    for (const std::string &p : parts) path += (path.empty() ? "" : ".") + p;
    EnvPtr m = find_module(path, *scope_, span, true);
    if (auto it = m->types.find(last); it != m->types.end()) return it->second;
    if (m->prim && last == "t") return Type::prim_type(*m->prim);
    error_at(span, fmt::format("Unknown type '{}'", name));
  }

  static ExprPtr make_var(const std::string &name, const Span &span) {
    ExprPtr v = make_expr(ExprKind::Var, span);
    v->name = name;
    return v;
  }

  // `M.N.x.f` (fields of a variable) where M is a module: x's definition, then the
  // fields of it. Returns null when the root is no module.
  ExprPtr resolve_path(Expr &e, const Locals &l) {
    std::vector<Expr *> chain; // outermost field first
    Expr *x = &e;
    while (x->kind == ExprKind::Field) {
      chain.push_back(x);
      x = x->args[0].get();
    }
    if (x->kind != ExprKind::Var || x->name.find('.') != std::string::npos ||
        !is_module_name(x->name, l))
      return nullptr;
    EnvPtr m = find_module(x->name, *scope_, x->span, true);
    std::string shown = x->name;
    size_t i = chain.size();
    while (i-- > 0) {
      const std::string &f = chain[i]->name;
      shown += "." + f;
      if (auto it = m->modules.find(f); it != m->modules.end()) {
        m = it->second;
        continue;
      }
      if (m->is_functor())
        error_at(chain[i]->span, fmt::format("'{}' is a parametric module", shown));
      ExprPtr out = make_var(member_value(*m, f, shown, chain[i]->span), chain[i]->span);
      while (i-- > 0) {
        ExprPtr field = make_expr(ExprKind::Field, chain[i]->span);
        field->name = chain[i]->name;
        field->args.push_back(std::move(out));
        out = std::move(field);
      }
      return out;
    }
    error_at(e.span, fmt::format("'{}' is a module, not a value", shown));
  }

  // An operator's meaning where it is written: a definition of a module in scope, or
  // nullopt for the built-in.
  std::optional<std::string> user_operator(const std::string &op, const Locals &l) {
    if (is_local(op, l)) return std::nullopt;
    std::optional<std::string> q = find_value(op);
    if (!q || *q == op) return std::nullopt; // built-in, or the type checker's to resolve
    PrimType p;
    size_t dot = q->find('.');
    if (dot != std::string::npos && prim_from_name(q->substr(0, dot), p) &&
        q->substr(dot + 1) == op)
      return std::nullopt; // a numeric module's own operator: the built-in
    return q;
  }

  // The numeric module whose operator `op` is where it is written (f32.(a + b)), if any.
  std::optional<PrimType> prim_operator(const std::string &op, const Locals &l) {
    if (op == "&&" || op == "||" || op == "++" || is_local(op, l)) return std::nullopt;
    std::optional<std::string> q = find_value(op);
    PrimType p;
    if (q && q->size() > op.size() && q->ends_with("." + op) &&
        prim_from_name(q->substr(0, q->size() - op.size() - 1), p))
      return p;
    return std::nullopt;
  }

  void resolve(ExprPtr &e, Locals &l) {
    if (!e) return;
    switch (e->kind) {
    case ExprKind::Var: {
      if (is_local(e->name, l)) return;
      if (e->name.find('.') != std::string::npos) {
        // A numeric module's member (`f32.sqrt`) or an operator (`R.+`) from the lexer.
        std::vector<std::string> parts = split_path(e->name);
        if (parts.size() == 2 && is_module_name(parts[0], l)) {
          EnvPtr m = find_module(parts[0], *scope_, e->span, true);
          e->name = member_value(*m, parts[1], e->name, e->span);
        }
        return;
      }
      if (std::optional<std::string> q = find_value(e->name)) e->name = *q;
      return;
    }
    case ExprKind::Field: {
      if (ExprPtr r = resolve_path(*e, l)) {
        e = std::move(r);
        return;
      }
      resolve(e->args[0], l);
      return;
    }
    case ExprKind::Apply: {
      if (!is_local(e->name, l)) {
        if (e->name.find('.') != std::string::npos) {
          std::vector<std::string> parts = split_path(e->name);
          if (parts.size() == 2 && is_module_name(parts[0], l)) {
            EnvPtr m = find_module(parts[0], *scope_, e->span, true);
            e->name = member_value(*m, parts[1], e->name, e->span);
            // x f32.< y: the built-in operator at the module's type.
            size_t dot = e->name.find('.');
            PrimType p;
            std::optional<BinOp> op = builtin_binop(parts[1]);
            if (op && e->args.size() == 2 && dot != std::string::npos &&
                prim_from_name(e->name.substr(0, dot), p) && e->name.substr(dot + 1) == parts[1]) {
              ExprPtr b = make_expr(ExprKind::Binary, e->span);
              b->binop = *op;
              b->name = e->name; // the built-in even where a local redefines the operator
              for (ExprPtr &a : e->args) {
                ExprPtr asc = make_expr(ExprKind::Ascribe, a->span);
                asc->annotation = Type::prim_type(p);
                asc->args.push_back(std::move(a));
                b->args.push_back(std::move(asc));
              }
              e = std::move(b);
              for (ExprPtr &a : e->args) resolve(a, l);
              return;
            }
          }
        } else if (std::optional<std::string> q = find_value(e->name)) {
          e->name = *q;
        }
      }
      for (ExprPtr &a : e->args) resolve(a, l);
      return;
    }
    case ExprKind::ApplyExpr: {
      for (ExprPtr &a : e->args) resolve(a, l);
      // `M.f x` parses as an application of a field: make it a call of M.f.
      if (e->args[0]->kind == ExprKind::Var && !is_local(e->args[0]->name, l)) {
        ExprPtr app = make_expr(ExprKind::Apply, e->span);
        app->name = e->args[0]->name;
        for (size_t i = 1; i < e->args.size(); i++) app->args.push_back(std::move(e->args[i]));
        e = std::move(app);
      }
      return;
    }
    case ExprKind::Binary: {
      for (ExprPtr &a : e->args) resolve(a, l);
      std::string op = binop_text(e->binop);
      if (std::optional<std::string> q = user_operator(op, l)) {
        ExprPtr app = make_expr(ExprKind::Apply, e->span);
        app->name = *q;
        app->args = std::move(e->args);
        e = std::move(app);
      } else if (std::optional<PrimType> p = prim_operator(op, l)) {
        // A numeric module's operator is at its type: in f32.(1 / 3) the operands are f32.
        for (ExprPtr &a : e->args) {
          ExprPtr asc = make_expr(ExprKind::Ascribe, a->span);
          asc->annotation = Type::prim_type(*p);
          asc->args.push_back(std::move(a));
          a = std::move(asc);
        }
      }
      return;
    }
    case ExprKind::OpSection: {
      for (ExprPtr &a : e->args) resolve(a, l);
      if (e->name.empty()) {
        if (std::optional<std::string> q = user_operator(binop_text(e->binop), l)) e->name = *q;
        return;
      }
      if (is_local(e->name, l)) return;
      size_t dot = e->name.find('.');
      if (dot != std::string::npos && dot > 0 && is_module_name(e->name.substr(0, dot), l)) {
        std::string op = e->name.substr(dot + 1);
        EnvPtr m = find_module(e->name.substr(0, dot), *scope_, e->span, true);
        if (auto it = m->values.find(op); it != m->values.end()) {
          e->name = it->second;
        } else {
          std::optional<PrimType> p = m->prim;
          for (PrimType o : m->opened)
            if (!p) p = o;
          if (!p) error_at(e->span, fmt::format("Unknown name '{}'", e->name));
          e->name = fmt::format("{}.{}", prim_name(*p), op);
        }
      } else if (dot == std::string::npos) {
        if (std::optional<std::string> q = find_value(e->name)) e->name = *q;
      }
      return;
    }
    case ExprKind::OpenIn: {
      EnvPtr m = find_module(e->name, *scope_, e->span, true);
      if (m->is_functor()) error_at(e->span, fmt::format("'{}' is a parametric module", e->name));
      opens_.push_back({m, l.values.size()});
      resolve(e->args[0], l);
      opens_.pop_back();
      ExprPtr inner = std::move(e->args[0]);
      e = std::move(inner);
      return;
    }
    case ExprKind::Let: {
      resolve(e->args[0], l);
      Locals inner = l;
      inner.values.insert(inner.values.end(), e->size_params.begin(), e->size_params.end());
      bind_pattern(e->pattern, inner);
      resolve(e->args[1], inner);
      return;
    }
    case ExprKind::LetFun: {
      resolve_function(*e->fundef, l);
      Locals inner = l;
      inner.values.push_back(e->fundef->name);
      resolve(e->args[0], inner);
      return;
    }
    case ExprKind::Loop: {
      resolve(e->args[0], l);
      Locals inner = l;
      bind_pattern(e->pattern, inner);
      if (e->loop_form == LoopForm::While) {
        resolve(e->args[1], inner);
      } else {
        resolve(e->args[1], l);
        if (e->loop_form == LoopForm::For) inner.values.push_back(e->name);
        else bind_pattern(e->pattern2, inner);
      }
      resolve(e->args[2], inner);
      return;
    }
    case ExprKind::Lambda: {
      Locals inner = l;
      for (Pattern &p : e->params) bind_pattern(p, inner);
      if (e->annotation) resolve_type(*e->annotation, inner, e->span);
      resolve(e->args[0], inner);
      return;
    }
    case ExprKind::Match: {
      resolve(e->args[0], l);
      for (size_t i = 0; i < e->params.size(); i++) {
        Locals inner = l;
        bind_pattern(e->params[i], inner);
        resolve(e->args[i + 1], inner);
      }
      return;
    }
    case ExprKind::Ascribe:
    case ExprKind::Coerce:
      if (e->annotation) resolve_type(*e->annotation, l, e->span);
      for (ExprPtr &a : e->args) resolve(a, l);
      return;
    default:
      for (ExprPtr &a : e->args) resolve(a, l);
      for (IndexPart &p : e->indices)
        for (ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride}) resolve(*x, l);
      return;
    }
  }
};

} // namespace

void elaborate_modules(Program &program) {
  if (!program.modules) return;
  Elaborator(program).run();
}

} // namespace kerb
