// The C header of a compiled library (see c_header.h).
#include "driver/c_header.h"

#include <fmt/format.h>

#include <set>

namespace kerb::driver {

namespace {

using codegen::CSlot;
using codegen::CValue;

const char *c_type(PrimType t) {
  switch (t) {
  case PrimType::Bool: return "bool";
  case PrimType::I8: return "int8_t";
  case PrimType::I16: return "int16_t";
  case PrimType::I32: return "int32_t";
  case PrimType::I64: return "int64_t";
  case PrimType::U8: return "uint8_t";
  case PrimType::U16: return "uint16_t";
  case PrimType::U32: return "uint32_t";
  case PrimType::U64: return "uint64_t";
  case PrimType::F16: return "uint16_t";
  case PrimType::F32: return "float";
  case PrimType::F64: return "double";
  }
  return "?";
}

// The element type of kerb::Array (f16 has a type of its own there).
std::string cpp_elem(PrimType t) { return t == PrimType::F16 ? "kerb::f16" : c_type(t); }

std::string suffix(const CSlot &t) { return fmt::format("{}_{}d", prim_name(t.prim), t.rank); }
std::string array_struct(const CSlot &t) { return "struct kerb_" + suffix(t); }
std::string type_text(const CSlot &t) {
  std::string s;
  for (int i = 0; i < t.rank; i++) s += "[]";
  return s + prim_name(t.prim);
}
std::string cpp_array(const CSlot &t) { return fmt::format("kerb::Array<{}, {}>", cpp_elem(t.prim), t.rank); }

bool cpp_keyword(const std::string &s) {
  static const std::set<std::string> words = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
      "class", "const", "continue", "default", "delete", "do", "double", "else", "enum",
      "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "namespace", "new", "not", "operator", "or", "private", "protected",
      "public", "register", "return", "short", "signed", "sizeof", "static", "struct",
      "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while", "xor", "ctx", "kerb"};
  return words.count(s) > 0;
}

// Parameter names for the C++ functions: the source names where they make
// identifiers, else in0, in1, ...
std::vector<std::string> cpp_names(const std::vector<std::string> &slots, size_t n) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (size_t k = 0; k < n; k++) {
    std::string s = k < slots.size() && !slots[k].empty() && slots[k].find(' ') == std::string::npos
                        ? codegen::c_identifier(slots[k])
                        : "";
    if (s.empty() || s[0] == '_' || cpp_keyword(s) || used.count(s)) s = fmt::format("in{}", k);
    used.insert(s);
    out.push_back(s);
  }
  return out;
}

// The C and C++ spellings of a value of an entry's signature or a record's fields.
class Values {
public:
  explicit Values(const codegen::Library &lib) : lib_(lib) {}

  std::string opaque_struct(int k) const { return "struct kerb_opaque_" + lib_.opaques[size_t(k)].c_name; }
  std::string opaque_handle(int k) const { return "kerb_opaque_" + lib_.opaques[size_t(k)].c_name; }
  // As a parameter: a scalar by value, a handle otherwise.
  std::string in(const CValue &v) const {
    if (v.opaque >= 0) return "const " + opaque_struct(v.opaque) + " *";
    return v.slot.rank ? "const " + array_struct(v.slot) + " *" : std::string(c_type(v.slot.prim)) + " ";
  }
  // Where a result goes.
  std::string out(const CValue &v) const {
    if (v.opaque >= 0) return opaque_struct(v.opaque) + " **";
    return v.slot.rank ? array_struct(v.slot) + " **" : std::string(c_type(v.slot.prim)) + " *";
  }
  std::string text(const CValue &v) const {
    return v.opaque >= 0 ? lib_.opaques[size_t(v.opaque)].name : type_text(v.slot);
  }
  bool scalar(const CValue &v) const { return v.opaque < 0 && v.slot.rank == 0; }
  std::string cpp(const CValue &v) const {
    if (v.opaque >= 0) return fmt::format("kerb::Opaque<{}>", opaque_handle(v.opaque));
    return v.slot.rank ? cpp_array(v.slot) : c_type(v.slot.prim);
  }
  std::string cpp_in(const CValue &v) const { return scalar(v) ? cpp(v) + " " : "const " + cpp(v) + " &"; }
  // The C storage of result `k` in a C++ wrapper, and the value it becomes.
  std::string cpp_out_decl(const CValue &v, size_t k) const {
    if (scalar(v)) return fmt::format("  {} out{} = {{}};\n", c_type(v.slot.prim), k);
    std::string t = v.opaque >= 0 ? opaque_struct(v.opaque) : array_struct(v.slot);
    return fmt::format("  {} *out{} = nullptr;\n", t, k);
  }
  std::string cpp_adopt(const CValue &v, size_t k) const {
    return scalar(v) ? fmt::format("out{}", k) : fmt::format("{}::adopt(ctx, out{})", cpp(v), k);
  }
  // One C++ result, or a std::tuple of several.
  std::string cpp_result(const std::vector<CValue> &values) const {
    std::vector<std::string> types;
    for (const CValue &v : values) types.push_back(cpp(v));
    return types.size() == 1 ? types[0] : fmt::format("std::tuple<{}>", fmt::join(types, ", "));
  }
  std::string cpp_return(const std::vector<CValue> &values) const {
    std::vector<std::string> vals;
    for (size_t k = 0; k < values.size(); k++) vals.push_back(cpp_adopt(values[k], k));
    return values.size() == 1 ? fmt::format("  return {};\n", vals[0])
                              : fmt::format("  return {}({});\n", cpp_result(values), fmt::join(vals, ", "));
  }
  // "in0 = p: point, in1 = k: i32"
  std::string describe(const std::vector<CValue> &values, const char *prefix) const {
    std::string s;
    for (size_t k = 0; k < values.size(); k++) {
      std::string name = values[k].name.empty() ? "" : values[k].name + ": ";
      s += fmt::format("{}{}{} = {}{}", k ? ", " : "", prefix, k, name, text(values[k]));
    }
    return s.empty() ? "none" : s;
  }

private:
  const codegen::Library &lib_;
};

// "x: f32, tag.0: i32" (a record's fields as kerb_new_opaque_T takes them).
std::string field_list(const Values &values, const std::vector<CValue> &fields) {
  std::string s;
  for (size_t k = 0; k < fields.size(); k++) s += fmt::format("{}{}: {}", k ? ", " : "", fields[k].name, values.text(fields[k]));
  return s;
}

std::vector<std::string> value_names(const std::vector<CValue> &values) {
  std::vector<std::string> out;
  for (const CValue &v : values) out.push_back(v.name);
  return out;
}

std::vector<CValue> all_fields(const codegen::LibraryOpaque &o) {
  std::vector<CValue> all;
  for (const codegen::LibraryOpaque::Field &f : o.fields) all.insert(all.end(), f.values.begin(), f.values.end());
  return all;
}

const char *kind_text(const codegen::LibraryOpaque &o) {
  if (o.kind == OpaqueType::Record) return o.rank ? "an array of records" : "a record";
  if (o.kind == OpaqueType::Sum) return o.rank ? "an array of a sum type" : "a sum type";
  return o.rank ? "an array of an abstract type" : "an abstract type";
}

} // namespace

std::string c_header(const std::string &name, const Program &program, const codegen::Library &lib) {
  std::string tag = codegen::c_identifier(name);
  Values values(lib);
  std::string h = fmt::format(
      "/* {0}.h: the C API of {1}, written by `kerb compile --library`.\n"
      " * Link lib{0}.a and the Kerb runtime:\n"
      " *   cc app.c lib{0}.a $(kerb config --cflags --libs)\n"
      " * The functions are described in <kerb/kerb.h> and in Kerb's docs/C-API.md.\n"
      " * Tuples are flattened: a tuple parameter or result is one parameter or result per\n"
      " * component, an array of tuples one array per component (docs/CONVENTIONS.md);\n"
      " * records, arrays of records, abstract and sum types are opaque values. */\n"
      "#ifndef KERB_LIBRARY_{2}_H\n#define KERB_LIBRARY_{2}_H\n\n#include <kerb/kerb.h>\n\n"
      "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n",
      name, program.file->path, tag);
  for (const CSlot &t : lib.array_types) {
    std::string st = array_struct(t), s = suffix(t), ct = c_type(t.prim);
    std::string dims;
    for (int d = 0; d < t.rank; d++) dims += fmt::format(", int64_t dim{}", d);
    h += fmt::format("\n/* Arrays of type {}{}. */\n", type_text(t),
                     t.prim == PrimType::F16 ? " (elements are the IEEE binary16 bits)" : "");
    h += fmt::format("{};\n", st);
    h += fmt::format("{} *kerb_new_{}(struct kerb_context *ctx, const {} *data{});\n", st, s, ct, dims);
    h += fmt::format("int kerb_values_{}(struct kerb_context *ctx, {} *arr, {} *data);\n", s, st, ct);
    h += fmt::format("const int64_t *kerb_shape_{}(struct kerb_context *ctx, {} *arr);\n", s, st);
    h += fmt::format("int kerb_free_{}(struct kerb_context *ctx, {} *arr);\n", s, st);
  }
  if (!lib.opaques.empty()) h += "\n/* Opaque values (docs/C-API.md): made by entries and, for records, from their fields. */\n";
  for (size_t i = 0; i < lib.opaques.size(); i++) h += fmt::format("{};\n", values.opaque_struct(int(i)));
  for (size_t i = 0; i < lib.opaques.size(); i++) {
    const codegen::LibraryOpaque &o = lib.opaques[i];
    std::string st = values.opaque_struct(int(i)), s = "opaque_" + o.c_name;
    h += fmt::format("\n/* {}: {}{}. */\n", o.name, kind_text(o),
                     o.kind == OpaqueType::Record ? fmt::format(" of {}", field_list(values, all_fields(o))) : "");
    h += fmt::format("int kerb_free_{}(struct kerb_context *ctx, {} *obj);\n", s, st);
    h += fmt::format("int kerb_store_{}(struct kerb_context *ctx, const {} *obj, void **p, size_t *n);\n", s, st);
    h += fmt::format("{} *kerb_restore_{}(struct kerb_context *ctx, const void *p);\n", st, s);
    if (o.rank > 0) h += fmt::format("const int64_t *kerb_shape_{}(struct kerb_context *ctx, const {} *obj);\n", s, st);
    if (o.kind != OpaqueType::Record) continue;
    h += fmt::format("int kerb_new_{}(struct kerb_context *ctx, {} **out", s, st);
    std::vector<CValue> all = all_fields(o);
    std::vector<std::string> names = cpp_names(value_names(all), all.size());
    for (size_t k = 0; k < all.size(); k++) h += fmt::format(", {}{}", values.in(all[k]), names[k]);
    h += ");\n";
    for (const codegen::LibraryOpaque::Field &f : o.fields) {
      h += fmt::format("int kerb_project_{}_{}(struct kerb_context *ctx", s, f.c_name);
      for (size_t k = 0; k < f.values.size(); k++) h += fmt::format(", {}out{}", values.out(f.values[k]), k);
      h += fmt::format(", const {} *obj);\n", st);
    }
  }
  for (const codegen::LibraryEntry &e : lib.entries) {
    h += fmt::format("\n/* entry {}: {}; results {} */\n", e.name, values.describe(e.ins, "in"),
                     values.describe(e.outs, "out"));
    h += fmt::format("int kerb_entry_{}(struct kerb_context *ctx", e.c_name);
    for (size_t k = 0; k < e.outs.size(); k++) h += fmt::format(", {}out{}", values.out(e.outs[k]), k);
    for (size_t k = 0; k < e.ins.size(); k++) h += fmt::format(", {}in{}", values.in(e.ins[k]), k);
    h += ");\n";
  }
  h += "\n#ifdef __cplusplus\n}\n\n#include <kerb/kerb.hpp>\n#include <tuple>\n\nnamespace kerb {\n";
  for (const CSlot &t : lib.array_types) {
    std::string s = suffix(t), ct = c_type(t.prim), et = cpp_elem(t.prim);
    std::string cast_in = t.prim == PrimType::F16 ? "reinterpret_cast<const uint16_t *>(data)" : "data";
    std::string cast_out = t.prim == PrimType::F16 ? "reinterpret_cast<uint16_t *>(data)" : "data";
    std::string dims;
    for (int d = 0; d < t.rank; d++) dims += fmt::format(", dims[{}]", d);
    h += fmt::format("#ifndef KERB_ARRAY_TRAITS_{0}\n#define KERB_ARRAY_TRAITS_{0}\n", s);
    h += fmt::format("template <> struct ArrayTraits<{}, {}> {{\n", et, t.rank);
    h += fmt::format("  using handle = kerb_{};\n", s);
    h += fmt::format("  static handle *new_(kerb_context *c, const {} *data, const int64_t *dims) {{ return kerb_new_{}(c, {}{}); }}\n",
                     et, s, cast_in, dims);
    h += fmt::format("  static int values(kerb_context *c, handle *a, {} *data) {{ return kerb_values_{}(c, a, {}); }}\n",
                     et, s, cast_out);
    h += fmt::format("  static const int64_t *shape(kerb_context *c, handle *a) {{ return kerb_shape_{}(c, a); }}\n", s);
    h += fmt::format("  static int free(kerb_context *c, handle *a) {{ return kerb_free_{}(c, a); }}\n", s);
    h += "};\n#endif\n";
  }
  for (size_t i = 0; i < lib.opaques.size(); i++) {
    std::string handle = values.opaque_handle(int(i));
    h += fmt::format("#ifndef KERB_OPAQUE_TRAITS_{1}\n#define KERB_OPAQUE_TRAITS_{1}\n"
                     "template <> struct OpaqueTraits<{0}> {{\n"
                     "  static int free(kerb_context *c, {0} *v) {{ return kerb_free_{1}(c, v); }}\n}};\n#endif\n",
                     handle, handle.substr(5));
  }
  h += fmt::format("\n// One function per entry point: its results (a std::tuple if several); throws\n"
                   "// kerb::Error. For each record type T, new_T(ctx, fields...) and T_FIELD(ctx, obj).\n"
                   "namespace {} {{\n", tag);
  // A C++ function `fname` returning `results` from C function `cfun`, which takes
  // (ctx, results..., ins...), `ins` named `names`.
  auto wrapper = [&](const std::string &fname, const std::string &cfun, const std::vector<CValue> &results,
                     const std::vector<CValue> &ins, const std::vector<std::string> &names) {
    std::string out = fmt::format("inline {} {}(kerb::Context &ctx", values.cpp_result(results), fname);
    for (size_t k = 0; k < ins.size(); k++) out += fmt::format(", {}{}", values.cpp_in(ins[k]), names[k]);
    out += ") {\n";
    for (size_t k = 0; k < results.size(); k++) out += values.cpp_out_decl(results[k], k);
    std::vector<std::string> call{"ctx.get()"};
    for (size_t k = 0; k < results.size(); k++) call.push_back(fmt::format("&out{}", k));
    for (size_t k = 0; k < ins.size(); k++) call.push_back(values.scalar(ins[k]) ? names[k] : names[k] + ".get()");
    out += fmt::format("  detail::check(ctx.get(), {}({}));\n", cfun, fmt::join(call, ", "));
    return out + values.cpp_return(results) + "}\n";
  };
  for (const codegen::LibraryEntry &e : lib.entries) {
    std::string fname = cpp_keyword(e.c_name) ? e.c_name + "_" : e.c_name;
    h += wrapper(fname, "kerb_entry_" + e.c_name, e.outs, e.ins, cpp_names(value_names(e.ins), e.ins.size()));
  }
  for (size_t i = 0; i < lib.opaques.size(); i++) {
    const codegen::LibraryOpaque &o = lib.opaques[i];
    if (o.kind != OpaqueType::Record) continue;
    std::vector<CValue> all = all_fields(o);
    CValue self{CSlot{}, int(i), "obj"};
    h += wrapper("new_" + o.c_name, "kerb_new_opaque_" + o.c_name, {self}, all,
                 cpp_names(value_names(all), all.size()));
    for (const codegen::LibraryOpaque::Field &f : o.fields)
      h += wrapper(o.c_name + "_" + f.c_name, "kerb_project_opaque_" + o.c_name + "_" + f.c_name, f.values, {self},
                   {"obj"});
  }
  h += fmt::format("}} // namespace {}\n}} // namespace kerb\n#endif\n\n#endif\n", tag);
  return h;
}

} // namespace kerb::driver
