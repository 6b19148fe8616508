// The entry points' types as the C API shows them (entry_types.h).
#include "compiler/entry_types.h"

#include "compiler/ast.h"
#include "compiler/elim/replace_records.h"
#include "compiler/elim/replace_sum_types.h"

#include <fmt/format.h>


namespace kerb {

size_t value_slots(const EntryTypes &types, const EntryValue &v) {
  return v.opaque < 0 ? 1 : types.opaques[size_t(v.opaque)].slots.size();
}

std::vector<const FunDef *> entry_defs(const Program &program) {
  std::vector<const FunDef *> out;
  for (const auto &d : program.defs)
    if (d->is_entry) out.push_back(d.get());
  if (out.empty())
    if (const FunDef *m = program.find("main")) out.push_back(m);
  return out;
}

WrittenEntryTypes written_entry_types(const Program &program) {
  WrittenEntryTypes w;
  for (const auto &d : program.types)
    if (d->type_params.empty()) w.decls[d->name] = d->definition;
  for (const FunDef *f : entry_defs(program)) {
    WrittenEntryTypes::Entry &e = w.entries[f->name];
    for (const Pattern &p : f->params) e.params.push_back(p.annotation);
    e.result = f->ret_annotation;
  }
  return w;
}

namespace {

// A type the description does not know (the entry keeps its flattened slots).
struct Unsupported {};

// The slots of a value of type `t` (records and sums still there) under `rank` outer
// dims, as the elimination and the lowering flatten it.
void flatten_slots(const Type &t, int rank, std::vector<std::pair<PrimType, int>> &out) {
  switch (t.kind) {
  case Type::Prim: out.emplace_back(t.prim, rank); return;
  case Type::Array: flatten_slots(t.elems[0], rank + t.rank(), out); return;
  case Type::Tuple:
    if (t.elems.empty()) out.emplace_back(PrimType::Bool, rank);
    for (const Type &e : t.elems) flatten_slots(e, rank, out);
    return;
  default: throw Unsupported{};
  }
}

// `t` without sizes and uniqueness: Futhark's text of an entry type.
Type plain(Type t) {
  t = erase_dims(std::move(t));
  t.unique = false;
  for (Type &e : t.elems) e = plain(std::move(e));
  for (auto &p : t.payloads)
    for (Type &e : p) e = plain(std::move(e));
  return t;
}

class Describer {
public:
  Describer(const Program &program, const WrittenEntryTypes &written, EntryTypes &out)
      : program_(program), written_(written), out_(out) {}

  // Appends the values of a parameter or result of type `t` (as inferred), written as
  // `w` (null: unknown), called `name`, with `pattern` naming its components (or null).
  void describe(const Type &t, const Type *w, const std::string &name, const Pattern *pattern,
                std::vector<EntryValue> &values) {
    values_of(t, w, name, pattern, 0, "", values);
  }

private:
  const Program &program_;
  const WrittenEntryTypes &written_;
  EntryTypes &out_;

  // `w` with the names of types expanded, the last name met in *name (kept if none);
  // null where the written type is no help. An abstract name stops the expansion.
  const Type *expand(const Type *w, std::string &type_name, bool &abstract) {
    abstract = false;
    for (int depth = 0; w && w->kind == Type::Named && depth < 100; depth++) {
      for (const Type &a : w->elems)
        if (a.kind != Type::SizeArg) return nullptr; // applied to types: no help
      type_name = w->name;
      if (program_.abstract_types.count(w->name)) {
        abstract = true;
        return nullptr;
      }
      auto it = written_.decls.find(w->name);
      w = it == written_.decls.end() ? nullptr : &it->second;
    }
    return w;
  }

  void values_of(const Type &t, const Type *w, const std::string &name, const Pattern *pattern, int rank,
                 std::string type_name, std::vector<EntryValue> &values) {
    bool abstract = false;
    w = expand(w, type_name, abstract);
    if (abstract) {
      values.push_back(opaque(t, OpaqueType::Abstract, rank, type_name, name, nullptr));
      return;
    }
    if (w && w->kind != t.kind) w = nullptr;
    switch (t.kind) {
    case Type::Prim: values.push_back(EntryValue{t.prim, rank, -1, name}); return;
    case Type::Array: {
      const Type *we = w && w->rank() == t.rank() ? &w->elems[0] : nullptr;
      values_of(t.elems[0], we, name, nullptr, rank + t.rank(), "", values);
      return;
    }
    case Type::Tuple: {
      if (t.elems.empty()) {
        values.push_back(EntryValue{PrimType::Bool, rank, -1, name.empty() ? "" : name + " (the () as a bool)"});
        return;
      }
      bool named = pattern && pattern->kind == Pattern::Tuple && pattern->elems.size() == t.elems.size() &&
                   rank == 0;
      for (size_t k = 0; k < t.elems.size(); k++) {
        const Pattern *sub = named ? &pattern->elems[k] : nullptr;
        std::string sub_name = sub && sub->kind == Pattern::Id ? sub->name
                               : name.empty()                  ? ""
                                                               : fmt::format("{}.{}", name, k);
        const Type *ws = w && w->elems.size() == t.elems.size() ? &w->elems[k] : nullptr;
        if (!ws && sub && sub->annotation) ws = &*sub->annotation;
        values_of(t.elems[k], ws, sub_name, sub, rank, "", values);
      }
      return;
    }
    case Type::Record:
      if (t.elems.empty()) {
        values.push_back(EntryValue{PrimType::Bool, rank, -1, name});
        return;
      }
      values.push_back(opaque(t, OpaqueType::Record, rank, type_name, name, w));
      return;
    case Type::Sum: values.push_back(opaque(t, OpaqueType::Sum, rank, type_name, name, nullptr)); return;
    default: throw Unsupported{};
    }
  }

  // Futhark's spelling of a type for C (its findPrettyName), with records and sums
  // spelled out where Futhark hashes them.
  std::string pretty(const Type &t, const Type *w) {
    std::string type_name;
    bool abstract = false;
    w = expand(w, type_name, abstract);
    if (!type_name.empty()) return type_name;
    if (w && w->kind != t.kind) w = nullptr;
    switch (t.kind) {
    case Type::Prim: return prim_name(t.prim);
    case Type::Array: {
      const Type *we = w && w->rank() == t.rank() ? &w->elems[0] : nullptr;
      return fmt::format("arr{}d_{}", t.rank(), pretty(t.elems[0], we));
    }
    case Type::Tuple: {
      if (t.elems.empty()) return "unit";
      std::string s = fmt::format("tup{}", t.elems.size());
      for (size_t k = 0; k < t.elems.size(); k++)
        s += "_" + pretty(t.elems[k], w && w->elems.size() == t.elems.size() ? &w->elems[k] : nullptr);
      return s;
    }
    case Type::Record: {
      std::string s = fmt::format("rec{}", t.elems.size());
      for (size_t k = 0; k < t.elems.size(); k++)
        s += "_" + t.names[k] + "_" + pretty(t.elems[k], written_field(w, t.names[k]));
      return s;
    }
    case Type::Sum: {
      std::string s = fmt::format("sum{}", t.names.size());
      for (const std::string &c : t.names) s += "_" + c;
      return s;
    }
    default: return "t";
    }
  }

  static const Type *written_field(const Type *w, const std::string &field) {
    if (!w || w->kind != Type::Record) return nullptr;
    int i = w->field_index(field);
    return i < 0 ? nullptr : &w->elems[size_t(i)];
  }

  // The opaque value of type [rank]t, `t` a record (written `w`), a sum or an abstract
  // type named `type_name`.
  EntryValue opaque(const Type &t, OpaqueType::Kind kind, int rank, const std::string &type_name,
                    const std::string &name, const Type *w) {
    std::string dims;
    for (int d = 0; d < rank; d++) dims += "[]";
    OpaqueType o;
    o.kind = kind;
    o.rank = rank;
    o.name = dims + (type_name.empty() ? plain(t).str() : type_name);
    o.pretty = rank > 0 ? fmt::format("arr{}d_", rank) : "";
    o.pretty += type_name.empty() ? pretty(t, w) : type_name;
    flatten_slots(sum_as_tuple(record_as_tuple(t)), rank, o.slots);
    if (kind == OpaqueType::Record) {
      size_t covered = 0;
      for (size_t k = 0; k < t.elems.size(); k++) {
        OpaqueType::Field f;
        f.name = t.names[k];
        values_of(t.elems[k], written_field(w, f.name), f.name, nullptr, rank, "", f.values);
        for (const EntryValue &v : f.values) covered += value_slots(out_, v);
        o.fields.push_back(std::move(f));
      }
      if (covered != o.slots.size()) throw Unsupported{};
    }
    for (size_t i = 0; i < out_.opaques.size(); i++)
      if (out_.opaques[i].name == o.name) return EntryValue{PrimType::I32, 0, int(i), name};
    out_.opaques.push_back(std::move(o));
    return EntryValue{PrimType::I32, 0, int(out_.opaques.size() - 1), name};
  }
};

} // namespace

void describe_entry_types(Program &program, const WrittenEntryTypes &written) {
  auto types = std::make_shared<EntryTypes>();
  Describer d(program, written, *types);
  for (const FunDef *f : entry_defs(program)) {
    auto w = written.entries.find(f->name);
    EntryInterface e;
    try {
      for (size_t k = 0; k < f->params.size(); k++) {
        const Pattern &p = f->params[k];
        const Type *wt = nullptr;
        if (w != written.entries.end() && k < w->second.params.size() && w->second.params[k])
          wt = &*w->second.params[k];
        d.describe(p.type, wt, p.kind == Pattern::Id ? p.name : "", &p, e.params);
      }
      const Type *wr = w != written.entries.end() && w->second.result ? &*w->second.result : nullptr;
      d.describe(f->ret_type, wr, "", nullptr, e.results);
    } catch (const Unsupported &) {
      continue; // left out: the C API passes its slots one by one
    }
    types->entries[f->name] = std::move(e);
  }
  program.entry_types = std::move(types);
}

} // namespace kerb
