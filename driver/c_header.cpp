// The C header of a compiled library (see c_header.h).
#include "driver/c_header.h"

#include "driver/entry_io.h"

#include <fmt/format.h>

#include <set>

namespace kerb::driver {

namespace {

using codegen::CSlot;

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
std::vector<std::string> cpp_names(const std::vector<Slot> &slots, size_t n) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (size_t k = 0; k < n; k++) {
    std::string s = k < slots.size() && !slots[k].name.empty() && slots[k].name != "_"
                        ? codegen::c_identifier(slots[k].name)
                        : "";
    if (s.empty() || s[0] == '_' || cpp_keyword(s) || used.count(s)) s = fmt::format("in{}", k);
    used.insert(s);
    out.push_back(s);
  }
  return out;
}

std::string describe_slots(const std::vector<Slot> &slots, const std::vector<CSlot> &types,
                           const char *prefix) {
  std::string s;
  for (size_t k = 0; k < types.size(); k++) {
    std::string name = k < slots.size() && !slots[k].name.empty() ? slots[k].name + ": " : "";
    s += fmt::format("{}{}{} = {}{}", k ? ", " : "", prefix, k, name, type_text(types[k]));
  }
  return s.empty() ? "none" : s;
}

} // namespace

std::string c_header(const std::string &name, const Program &program, const codegen::Library &lib) {
  std::string tag = codegen::c_identifier(name);
  std::string h = fmt::format(
      "/* {0}.h: the C API of {1}, written by `kerb compile --library`.\n"
      " * Link lib{0}.a and the Kerb runtime:\n"
      " *   cc app.c lib{0}.a $(kerb config --cflags --libs)\n"
      " * The functions are described in <kerb/kerb.h> and in Kerb's docs/C-API.md.\n"
      " * Tuples are flattened: a tuple parameter or result is one parameter or result per\n"
      " * component, an array of tuples one array per component (docs/CONVENTIONS.md). */\n"
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
  std::vector<std::vector<Slot>> ins, outs;
  for (const codegen::LibraryEntry &e : lib.entries) {
    const FunDef *d = program.find(e.name);
    ins.push_back(d ? entry_input_slots(*d) : std::vector<Slot>{});
    outs.push_back(d ? entry_output_slots(*d) : std::vector<Slot>{});
  }
  for (size_t i = 0; i < lib.entries.size(); i++) {
    const codegen::LibraryEntry &e = lib.entries[i];
    h += fmt::format("\n/* entry {}: {}; results {} */\n", e.name, describe_slots(ins[i], e.params, "in"),
                     describe_slots(outs[i], e.results, "out"));
    h += fmt::format("int kerb_entry_{}(struct kerb_context *ctx", e.c_name);
    for (size_t k = 0; k < e.results.size(); k++) {
      const CSlot &t = e.results[k];
      h += t.rank ? fmt::format(", {} **out{}", array_struct(t), k) : fmt::format(", {} *out{}", c_type(t.prim), k);
    }
    for (size_t k = 0; k < e.params.size(); k++) {
      const CSlot &t = e.params[k];
      h += t.rank ? fmt::format(", const {} *in{}", array_struct(t), k) : fmt::format(", {} in{}", c_type(t.prim), k);
    }
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
  h += fmt::format("\n// One function per entry point: its results (a std::tuple if several); throws\n"
                   "// kerb::Error.\nnamespace {} {{\n", tag);
  for (size_t i = 0; i < lib.entries.size(); i++) {
    const codegen::LibraryEntry &e = lib.entries[i];
    std::vector<std::string> names = cpp_names(ins[i], e.params.size());
    std::vector<std::string> rtypes;
    for (const CSlot &t : e.results) rtypes.push_back(t.rank ? cpp_array(t) : c_type(t.prim));
    std::string ret = rtypes.size() == 1 ? rtypes[0] : "std::tuple<" + fmt::format("{}", fmt::join(rtypes, ", ")) + ">";
    std::string fname = cpp_keyword(e.c_name) ? e.c_name + "_" : e.c_name;
    h += fmt::format("inline {} {}(kerb::Context &ctx", ret, fname);
    for (size_t k = 0; k < e.params.size(); k++) {
      const CSlot &t = e.params[k];
      h += t.rank ? fmt::format(", const {} &{}", cpp_array(t), names[k]) : fmt::format(", {} {}", c_type(t.prim), names[k]);
    }
    h += ") {\n";
    for (size_t k = 0; k < e.results.size(); k++) {
      const CSlot &t = e.results[k];
      h += t.rank ? fmt::format("  {} *out{} = nullptr;\n", array_struct(t), k)
                  : fmt::format("  {} out{} = {{}};\n", c_type(t.prim), k);
    }
    h += fmt::format("  detail::check(ctx.get(), kerb_entry_{}(ctx.get()", e.c_name);
    for (size_t k = 0; k < e.results.size(); k++) h += fmt::format(", &out{}", k);
    for (size_t k = 0; k < e.params.size(); k++)
      h += e.params[k].rank ? fmt::format(", {}.get()", names[k]) : fmt::format(", {}", names[k]);
    h += "));\n";
    std::vector<std::string> vals;
    for (size_t k = 0; k < e.results.size(); k++) {
      const CSlot &t = e.results[k];
      vals.push_back(t.rank ? fmt::format("{}::adopt(ctx, out{})", cpp_array(t), k) : fmt::format("out{}", k));
    }
    h += rtypes.size() == 1 ? fmt::format("  return {};\n", vals[0])
                            : fmt::format("  return {}({});\n", ret, fmt::join(vals, ", "));
    h += "}\n";
  }
  h += fmt::format("}} // namespace {}\n}} // namespace kerb\n#endif\n\n#endif\n", tag);
  return h;
}

} // namespace kerb::driver
