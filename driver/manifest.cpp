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

// The C values (codegen::CValue) of a parameter or result: each its name, Futhark's type
// text and the opaque type it is (or null).
void write_values(JsonWriter &j, const codegen::Library &lib, const std::vector<codegen::CValue> &values) {
  j.key("values").begin_array();
  for (const codegen::CValue &v : values) {
    std::string type;
    for (int d = 0; d < v.slot.rank; d++) type += "[]";
    j.begin_object().field("name", v.name);
    j.field("type", v.opaque >= 0 ? lib.opaques[size_t(v.opaque)].name : type + prim_name(v.slot.prim));
    j.key("opaque");
    if (v.opaque >= 0)
      j.value(static_cast<long long>(v.opaque));
    else
      j.null();
    j.end_object();
  }
  j.end_array();
}

// The values of `all` that make up the next `slots` slots, from `at` on.
std::vector<codegen::CValue> take_values(const codegen::Library &lib, const std::vector<codegen::CValue> &all,
                                         size_t &at, size_t slots) {
  std::vector<codegen::CValue> out;
  size_t covered = 0;
  while (covered < slots && at < all.size()) {
    const codegen::CValue &v = all[at++];
    covered += v.opaque >= 0 ? lib.opaques[size_t(v.opaque)].slots.size() : 1;
    out.push_back(v);
  }
  if (covered != slots)
    throw std::logic_error("internal error: the manifest's values do not cover a parameter's slots");
  return out;
}

const char *kind_name(const codegen::LibraryOpaque &o) {
  return o.kind == OpaqueType::Record ? "record" : o.kind == OpaqueType::Sum ? "sum" : "abstract";
}

} // namespace

std::string library_manifest(const std::string &name, const Program &program, const codegen::Library &lib,
                             const std::string &compile_flags) {
  JsonWriter j;
  j.begin_object();
  j.field("manifest_version", 1).field("name", name).field("source", program.file->path);
  j.field("kerb_version", fmt::format("{} ({})", kVersion, build_commit())).field("compile_flags", compile_flags);
  // The opaque types (docs/C-API.md): a record's fields are values as above.
  j.key("opaque_types").begin_array();
  for (const codegen::LibraryOpaque &o : lib.opaques) {
    j.begin_object().field("name", o.name).field("ctype", "kerb_opaque_" + o.c_name).field("kind", kind_name(o));
    j.field("rank", o.rank).field("slots", static_cast<long long>(o.slots.size()));
    j.key("fields").begin_array();
    for (const codegen::LibraryOpaque::Field &f : o.fields) {
      j.begin_object().field("name", f.name);
      write_values(j, lib, f.values);
      j.end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();
  j.key("entries").begin_array();
  for (const codegen::LibraryEntry &e : lib.entries) {
    const FunDef *d = program.find(e.name);
    if (!d) continue;
    j.begin_object().field("name", e.name).field("cfun", "kerb_entry_" + e.c_name);
    j.key("params").begin_array();
    size_t k = 0, at = 0;
    for (const Pattern &p : d->params) {
      std::string pname = p.kind == Pattern::Id ? p.name : fmt::format("arg{}", k);
      std::vector<Slot> slots;
      flatten(p.type, {}, slots);
      std::vector<codegen::CValue> values = take_values(lib, e.ins, at, slots.size());
      // A record's type as written (point), not the tuple it became.
      std::string type = values.size() == 1 && values[0].opaque >= 0 ? lib.opaques[size_t(values[0].opaque)].name
                                                                     : p.type.str();
      j.begin_object().field("name", pname).field("type", type).field("tuple", p.type.is_tuple() || slots.size() > 1);
      write_slots(j, slots);
      write_values(j, lib, values);
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
    j.key("result").begin_object();
    j.field("type", e.outs.size() == 1 && e.outs[0].opaque >= 0 ? lib.opaques[size_t(e.outs[0].opaque)].name
                                                                  : d->ret_type.str());
    j.field("tuple", d->ret_type.is_tuple() || results.size() > 1);
    write_slots(j, results);
    write_values(j, lib, e.outs);
    j.end_object();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str();
}

} // namespace kerb::driver
