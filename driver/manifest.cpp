// The manifest of a compiled library (see manifest.h).
#include "driver/manifest.h"

#include "driver/build_info.h"
#include "driver/json_writer.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kerb::driver {

namespace {

// One flattened slot of a parameter or result, with the sizes its type names.
struct Slot {
  PrimType prim = PrimType::I32;
  std::vector<Dim> dims;
};

// The slots of a value of type `t`, as the lowering flattens it (docs/CONVENTIONS.md):
// tuples into components, arrays of tuples into component arrays sharing the outer
// dims, () into one bool.
void flatten(const Type &t, const std::vector<Dim> &outer, std::vector<Slot> &out) {
  if (t.kind == Type::Prim) {
    out.push_back(Slot{t.prim, outer});
    return;
  }
  if (t.kind == Type::Array) {
    std::vector<Dim> dims = outer;
    dims.insert(dims.end(), t.dims.begin(), t.dims.end());
    flatten(t.element(), dims, out);
    return;
  }
  if (t.elems.empty()) {
    out.push_back(Slot{PrimType::Bool, outer});
    return;
  }
  for (const Type &e : t.elems) flatten(e, outer, out);
}

void write_slots(JsonWriter &j, const std::vector<Slot> &slots) {
  j.key("slots").begin_array();
  for (const Slot &s : slots) {
    j.begin_object().field("prim", prim_name(s.prim)).field("rank", int(s.dims.size()));
    j.key("dims").begin_array();
    for (const Dim &d : s.dims) {
      if (d.kind == Dim::Const)
        j.value(static_cast<long long>(d.value));
      else if (d.kind == Dim::Var)
        j.value(d.name);
      else
        j.null();
    }
    j.end_array().end_object();
  }
  j.end_array();
}

} // namespace

std::string library_manifest(const std::string &name, const Program &program, const codegen::Library &lib,
                             const std::string &compile_flags) {
  JsonWriter j;
  j.begin_object();
  j.field("manifest_version", 1).field("name", name).field("source", program.file->path);
  j.field("kerb_version", fmt::format("{} ({})", kVersion, build_commit())).field("compile_flags", compile_flags);
  j.key("entries").begin_array();
  for (const codegen::LibraryEntry &e : lib.entries) {
    const FunDef *d = program.find(e.name);
    if (!d) continue;
    j.begin_object().field("name", e.name).field("cfun", "kerb_entry_" + e.c_name);
    j.key("params").begin_array();
    size_t k = 0;
    for (const Pattern &p : d->params) {
      std::string pname = p.kind == Pattern::Id ? p.name : fmt::format("arg{}", k);
      std::vector<Slot> slots;
      flatten(p.type, {}, slots);
      j.begin_object().field("name", pname).field("type", p.type.str()).field("tuple", p.type.is_tuple() ||
                                                                                       slots.size() > 1);
      write_slots(j, slots);
      j.end_object();
      k++;
    }
    j.end_array();
    std::vector<Slot> results;
    flatten(d->ret_type, {}, results);
    size_t nslots = 0;
    for (const Pattern &p : d->params) {
      std::vector<Slot> slots;
      flatten(p.type, {}, slots);
      nslots += slots.size();
    }
    if (nslots != e.params.size() || results.size() != e.results.size())
      throw std::logic_error(fmt::format("internal error: the manifest of entry {} does not match its C "
                                         "signature",
                                         e.name));
    j.key("result").begin_object().field("type", d->ret_type.str());
    j.field("tuple", d->ret_type.is_tuple() || results.size() > 1);
    write_slots(j, results);
    j.end_object();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str();
}

} // namespace kerb::driver
