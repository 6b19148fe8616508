// Variants of a generated program and its input for shrinking (see shrink.h).
#include "difftest/shrink.h"

#include <fmt/format.h>

#include <functional>

namespace kerb::difftest {

namespace {

// Every node of the program, as a way to reach it from a fresh copy.
struct Site {
  enum Where { Stmt, Result, Fun } where;
  size_t index;
  std::vector<size_t> path; // child indices from the root node
};

GNode *root_of(GProgram &p, const Site &s) {
  switch (s.where) {
  case Site::Stmt: return &p.stmts[s.index].value;
  case Site::Result: return &p.results[s.index];
  case Site::Fun: return &p.funs[s.index].body;
  }
  return nullptr;
}

GNode *at(GProgram &p, const Site &s) {
  GNode *n = root_of(p, s);
  for (size_t k : s.path) n = &n->kids[k];
  return n;
}

// After a node was replaced by its child: the child may be approximate where the node
// was not (a let's bound value), so its ancestors become approximate too.
void mark_approx_path(GProgram &p, const Site &s) {
  if (!at(p, s)->approx) return;
  GNode *n = root_of(p, s);
  for (size_t k : s.path) {
    n->approx = true;
    n = &n->kids[k];
  }
}

const GNode &at(const GProgram &p, const Site &s) {
  const GNode *n = s.where == Site::Stmt     ? &p.stmts[s.index].value
                   : s.where == Site::Result ? &p.results[s.index]
                                             : &p.funs[s.index].body;
  for (size_t k : s.path) n = &n->kids[k];
  return *n;
}

void collect(const GNode &n, Site site, std::vector<Site> &out) {
  out.push_back(site);
  for (size_t k = 0; k < n.kids.size(); k++) {
    Site child = site;
    child.path.push_back(k);
    collect(n.kids[k], child, out);
  }
}

std::vector<Site> all_sites(const GProgram &p) {
  std::vector<Site> out;
  for (size_t i = 0; i < p.stmts.size(); i++) collect(p.stmts[i].value, Site{Site::Stmt, i, {}}, out);
  for (size_t i = 0; i < p.funs.size(); i++) collect(p.funs[i].body, Site{Site::Fun, i, {}}, out);
  return out;
}

size_t node_count(const GNode &n) {
  size_t c = 1;
  for (const GNode &k : n.kids) c += node_count(k);
  return c;
}

std::string zero_literal(PrimType p) {
  if (p == PrimType::Bool) return "false";
  if (is_float(p)) return fmt::format("0.0{}", prim_name(p));
  return fmt::format("0{}", prim_name(p));
}

std::string one_literal(PrimType p) {
  if (p == PrimType::Bool) return "true";
  if (is_float(p)) return fmt::format("1.0{}", prim_name(p));
  return fmt::format("1{}", prim_name(p));
}

GNode literal(std::string text, PrimType p) {
  GNode n;
  n.tmpl = std::move(text);
  n.type = GType::of(p);
  n.literal = true;
  return n;
}

// The prefix of `v` of `len` rows along dimension `dim`.
Value truncate(const Value &v, size_t dim, int64_t len) {
  const ArrayData &a = *v.array;
  std::vector<int64_t> shape = a.shape;
  if (dim >= shape.size() || shape[dim] <= len) return v;
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); d++) inner *= shape[d];
  int64_t outer = 1;
  for (size_t d = 0; d < dim; d++) outer *= shape[d];
  std::vector<Bits> data;
  for (int64_t o = 0; o < outer; o++) {
    size_t base = size_t(o * shape[dim] * inner);
    data.insert(data.end(), a.data.begin() + std::ptrdiff_t(base),
                a.data.begin() + std::ptrdiff_t(base + size_t(len * inner)));
  }
  shape[dim] = len;
  return make_prim_array(a.elem.prim, shape, std::move(data));
}

// `c` with size `size` (kSizeN or kSizeM) made `len`.
Case with_size(const Case &c, int size, int64_t len) {
  Case out = c;
  (size == kSizeN ? out.input.n : out.input.m) = len;
  for (size_t i = 0; i < c.program.params.size(); i++) {
    const GType &t = c.program.params[i].type;
    for (size_t d = 0; d < t.dims.size(); d++)
      if (t.dims[d] == size) out.input.args[i] = truncate(out.input.args[i], d, len);
  }
  return out;
}

} // namespace

std::vector<Case> shrink_program(const Case &c) {
  std::vector<Case> out;
  const GProgram &p = c.program;
  // Whole statements (with their results), results, functions, parameters.
  for (size_t i = p.stmts.size(); i-- > 0;) {
    if (p.stmts.size() == 1) break;
    Case v = c;
    std::string name = p.stmts[i].name;
    v.program.stmts.erase(v.program.stmts.begin() + std::ptrdiff_t(i));
    std::erase_if(v.program.results, [&](const GNode &r) { return r.tmpl == name; });
    if (!v.program.results.empty()) out.push_back(std::move(v));
  }
  for (size_t i = p.results.size(); i-- > 0;) {
    if (p.results.size() == 1) break;
    Case v = c;
    v.program.results.erase(v.program.results.begin() + std::ptrdiff_t(i));
    out.push_back(std::move(v));
  }
  for (size_t i = p.funs.size(); i-- > 0;) {
    Case v = c;
    v.program.funs.erase(v.program.funs.begin() + std::ptrdiff_t(i));
    out.push_back(std::move(v));
  }
  for (size_t i = p.params.size(); i-- > 0;) {
    if (p.params.size() == 1) break;
    Case v = c;
    v.program.params.erase(v.program.params.begin() + std::ptrdiff_t(i));
    v.input.args.erase(v.input.args.begin() + std::ptrdiff_t(i));
    out.push_back(std::move(v));
  }
  // Expressions, biggest first: by a child of the same type, by a literal.
  std::vector<Site> sites = all_sites(p);
  std::stable_sort(sites.begin(), sites.end(), [&](const Site &a, const Site &b) {
    return node_count(at(p, a)) > node_count(at(p, b));
  });
  for (const Site &s : sites) {
    const GNode &n = at(p, s);
    if (n.literal) continue;
    for (size_t k = 0; k < n.kids.size(); k++) {
      if (!same_shape(n.kids[k].type, n.type)) continue;
      Case v = c;
      GNode *m = at(v.program, s);
      GNode kid = m->kids[k];
      *m = std::move(kid);
      mark_approx_path(v.program, s);
      out.push_back(std::move(v));
    }
    if (n.type.is_prim() && !n.kids.empty()) {
      Case v = c;
      *at(v.program, s) = literal(zero_literal(n.type.prim), n.type.prim);
      out.push_back(std::move(v));
    }
  }
  // Literals toward 0 and 1.
  for (const Site &s : sites) {
    const GNode &n = at(p, s);
    if (!n.literal || !n.type.is_prim()) continue;
    for (const std::string &text : {zero_literal(n.type.prim), one_literal(n.type.prim)}) {
      if (n.tmpl == text) break;
      Case v = c;
      *at(v.program, s) = literal(text, n.type.prim);
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::vector<Case> shrink_input(const Case &c) {
  std::vector<Case> out;
  for (int size : {kSizeN, kSizeM}) {
    int64_t len = size == kSizeN ? c.input.n : c.input.m;
    if (!c.program.uses_size(size)) continue;
    for (int64_t shorter : {int64_t(0), int64_t(1), len / 2, len - 1})
      if (shorter >= 0 && shorter < len) out.push_back(with_size(c, size, shorter));
  }
  for (size_t i = 0; i < c.input.args.size(); i++) {
    const Value &a = c.input.args[i];
    if (a.kind == Value::Prim) {
      for (int64_t k : {0, 1}) {
        PrimValue z = PrimValue::from_int(a.prim.type, k);
        if (z == a.prim) break;
        Case v = c;
        v.input.args[i] = Value(z);
        out.push_back(std::move(v));
      }
      continue;
    }
    const ArrayData &d = *a.array;
    for (size_t e = 0; e < d.data.size() && e < 64; e++) {
      for (int64_t k : {0, 1}) {
        PrimValue z = PrimValue::from_int(d.elem.prim, k);
        if (z.bits.u == d.data[e].u) break;
        Case v = c;
        std::vector<Bits> data = d.data;
        data[e] = z.bits;
        v.input.args[i] = make_prim_array(d.elem.prim, d.shape, std::move(data));
        out.push_back(std::move(v));
      }
    }
  }
  return out;
}

size_t case_size(const Case &c) {
  size_t n = c.program.source().size();
  for (const Value &a : c.input.args)
    if (a.kind == Value::Array) n += a.array->data.size();
  return n;
}

} // namespace kerb::difftest
