// Type abbreviations and written types (see check_type_declarations.h).
//
// Liftedness is Futhark's: a type is lifted when it may hold a function (a function
// type, a `'^a` parameter, a `type^` abbreviation), size-lifted when it may hide a size
// (`'~a`, `type~`), non-lifted otherwise; a type built of others (a tuple, a record, a
// sum, an abbreviation applied to arguments) is as lifted as the most lifted of them.
// It is computed on the types as written, before the source type checker expands the
// abbreviations (after that, `[3]t` with `type~ t = []i32` is only `[3][]i32`).
//
// The parser keeps `[]` and an existential `?[n].[n]` alike, as an unknown size, so the
// anonymous-size rules are applied only where the two are both errors: in a function
// parameter inside an abbreviation (Futhark: "not used constructively"), and anywhere
// in a non-lifted abbreviation (neither may hide a size).
#include "compiler/types/check_type_declarations.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace kerb {

namespace {

void used_size_names(const Type &t, std::set<std::string> &out) {
  for (const Dim &d : t.dims)
    if (d.kind == Dim::Var)
      for (std::string &n : size_expression_names(d.name)) out.insert(std::move(n));
  for (const Type &e : t.elems) used_size_names(e, out);
  for (const auto &p : t.payloads)
    for (const Type &e : p) used_size_names(e, out);
}

// Whether an unknown size occurs in the parameter of a function type inside `t`.
bool unknown_dim_in_parameter(const Type &t) {
  if (t.kind == Type::Function && has_unknown_dim(t.elems[0])) return true;
  for (const Type &e : t.elems)
    if (unknown_dim_in_parameter(e)) return true;
  for (const auto &p : t.payloads)
    for (const Type &e : p)
      if (unknown_dim_in_parameter(e)) return true;
  return false;
}

class DeclChecker {
public:
  void run(const Program &prog) {
    for (const auto &d : prog.types) {
      check_decl(*d);
      types_[d->name] = d.get();
    }
    for (const auto &f : prog.defs) check_fundef(*f);
  }

private:
  std::map<std::string, const TypeDecl *> types_;
  std::vector<TypeParam> tparams_; // in scope, innermost last

  void check_decl(const TypeDecl &d) {
    std::set<std::string> seen_sizes, seen_types;
    for (const std::string &n : d.size_params)
      if (!seen_sizes.insert(n).second)
        error_at(d.name_span, fmt::format("Type parameter \"{}\" previously defined in the "
                                          "parameters of type '{}'.",
                                          n, d.name));
    for (const TypeParam &p : d.type_params)
      if (!seen_types.insert(p.name).second)
        error_at(p.span, fmt::format("Type parameter \"{}\" previously defined in the "
                                     "parameters of type '{}'.",
                                     p.name, d.name));
    tparams_ = d.type_params;
    int l = lifted(d.definition, d.span);
    tparams_.clear();
    if (unknown_dim_in_parameter(d.definition))
      error_at(d.span, "Type abbreviation contains an anonymous size not used constructively "
                       "as an array size.");
    std::set<std::string> used;
    used_size_names(d.definition, used);
    for (const std::string &n : d.size_params)
      if (!used.count(n)) error_at(d.span, fmt::format("Size parameter \"[{}]\" unused.", n));
    if (l == 2 && d.lifted != TypeParam::Lifted)
      error_at(d.span, "Non-lifted type abbreviations may not contain functions.\n"
                       "Hint: consider using 'type^'.");
    if (l == 1 && d.lifted == TypeParam::Plain)
      error_at(d.span, "Non-size-lifted type abbreviations may not contain size-lifted types.\n"
                       "Hint: consider using 'type~'.");
    if (d.lifted == TypeParam::Plain && has_unknown_dim(d.definition))
      error_at(d.span, fmt::format("Non-lifted type abbreviations may not use existential "
                                   "sizes in their definition.\nHint: use 'type~' or add "
                                   "size parameters to \"{}\".",
                                   d.name));
  }

  // The liftedness of `t` (see lift_rank); reports arrays of lifted elements and sums of
  // too many constructors.
  int lifted(const Type &t, const Span &span) {
    switch (t.kind) {
    case Type::Prim: case Type::SizeArg: case Type::TypeVar:
      return 0;
    case Type::Tuple: case Type::Record: {
      int l = 0;
      for (const Type &e : t.elems) l = std::max(l, lifted(e, span));
      return l;
    }
    case Type::Sum: {
      if (t.names.size() >= 256)
        error_at(span, "Sum types must have less than 256 constructors.");
      int l = 0;
      for (const auto &p : t.payloads)
        for (const Type &e : p) l = std::max(l, lifted(e, span));
      return l;
    }
    case Type::Function:
      lifted(t.elems[0], span);
      lifted(t.elems[1], span);
      return 2;
    case Type::Array: {
      int l = lifted(t.elems[0], span);
      if (l == 1)
        error_at(span, fmt::format("Cannot create array with elements of size-lifted type "
                                   "\"{}\" (might cause irregular array).",
                                   t.elems[0].str()));
      if (l == 2)
        error_at(span, fmt::format("Cannot create array with elements of lifted type \"{}\" "
                                   "(might contain function).",
                                   t.elems[0].str()));
      return 0;
    }
    case Type::Named: {
      int l = 0;
      for (const Type &a : t.elems) l = std::max(l, lifted(a, span));
      for (size_t i = tparams_.size(); i-- > 0;)
        if (tparams_[i].name == t.name) return std::max(l, lift_rank(tparams_[i].kind));
      auto it = types_.find(t.name);
      if (it != types_.end()) l = std::max(l, lift_rank(it->second->lifted));
      return l;
    }
    }
    return 0;
  }

  void check_type(const std::optional<Type> &t, const Span &span) {
    if (t) lifted(*t, span);
  }

  void check_pattern(const Pattern &p) {
    check_type(p.annotation, p.span);
    for (const Pattern &e : p.elems) check_pattern(e);
  }

  void check_fundef(const FunDef &f) {
    size_t saved = tparams_.size();
    for (const TypeParam &p : f.type_params) tparams_.push_back(p);
    for (const Pattern &p : f.params) check_pattern(p);
    check_type(f.ret_annotation, f.name_span);
    if (f.body) check_expr(*f.body);
    tparams_.resize(saved);
  }

  void check_expr(Expr &e) {
    check_type(e.annotation, e.span);
    check_pattern(e.pattern);
    check_pattern(e.pattern2);
    for (const Pattern &p : e.params) check_pattern(p);
    if (e.fundef) check_fundef(*e.fundef);
    for_each_child(e, [&](ExprPtr &c) { check_expr(*c); });
  }
};

} // namespace

void check_type_declarations(const Program &program) { DeclChecker().run(program); }

} // namespace kerb
