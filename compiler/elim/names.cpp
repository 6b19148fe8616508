// The names a program uses, and fresh ones beside them (names.h).
#include "compiler/elim/names.h"

#include <cctype>

namespace kerb {

namespace {

void collect_type(const Type &t, std::set<std::string> &out) {
  for (const Dim &d : t.dims)
    if (d.kind == Dim::Var) out.insert(d.name);
  for (const Type &e : t.elems) collect_type(e, out);
}

void collect_pattern(const Pattern &p, std::set<std::string> &out) {
  if (!p.name.empty()) out.insert(p.name);
  if (p.annotation) collect_type(*p.annotation, out);
  for (const Pattern &e : p.elems) collect_pattern(e, out);
}

void collect_fundef(const FunDef &f, std::set<std::string> &out);

void collect_expr(const Expr &e, std::set<std::string> &out) {
  if (!e.name.empty()) out.insert(e.name);
  collect_pattern(e.pattern, out);
  collect_pattern(e.pattern2, out);
  for (const Pattern &p : e.params) collect_pattern(p, out);
  for (const std::string &s : e.size_params) out.insert(s);
  if (e.annotation) collect_type(*e.annotation, out);
  if (e.fundef) collect_fundef(*e.fundef, out);
  for (const ExprPtr &a : e.args)
    if (a) collect_expr(*a, out);
  for (const IndexPart &p : e.indices)
    for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
      if (*x) collect_expr(**x, out);
}

void collect_fundef(const FunDef &f, std::set<std::string> &out) {
  out.insert(f.name);
  for (const std::string &s : f.size_params) out.insert(s);
  for (const Pattern &p : f.params) collect_pattern(p, out);
  if (f.ret_annotation) collect_type(*f.ret_annotation, out);
  if (f.body) collect_expr(*f.body, out);
}

} // namespace

NameSource::NameSource(const Program &program) {
  for (const auto &d : program.defs) collect_fundef(*d, used_);
}

std::string NameSource::fresh(const std::string &base0) {
  std::string base;
  for (char c : base0)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') base += c;
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "op" + base;
  for (;;) {
    std::string n = base + "_" + std::to_string(next_++);
    if (used_.insert(n).second) return n;
  }
}

} // namespace kerb
