// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// A .npy file is the magic "\x93NUMPY", a version (major, minor byte), the header's
// length (2 bytes little-endian in version 1, 4 bytes in 2 and 3), the header itself (a
// Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n'), then the raw element data. The header is
// parsed with a small Python-literal parser, so key order, spacing, quotes and trailing
// commas do not matter; everything a header claims is checked against the bytes that are
// really there before anything is allocated.
#include "runtime/npy.h"

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace kerb {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr int kMaxLiteralDepth = 32;

[[noreturn]] void npy_fail(const std::string &name, const std::string &message) {
  throw NpyError(name + ": " + message);
}

// A Python literal as it appears in a .npy header.
struct PyLit {
  enum Kind { Str, Int, Bool, None, Tuple, Dict } kind = None;
  std::string str;
  int64_t num = 0;
  bool boolean = false;
  std::vector<PyLit> items;                        // Tuple (and list)
  // Dict: string keys only, keys[k] maps to values[k]. (Two vectors: a std::pair of
  // PyLit inside PyLit would need the type complete; clang rejects it.)
  std::vector<std::string> keys;
  std::vector<PyLit> values;
};

struct PyParser {
  const std::string &text;
  const std::string &name;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string &what) {
    npy_fail(name, fmt::format("malformed header at offset {}: {}", pos, what));
  }

  void skip_space() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
                                 text[pos] == '\r' || text[pos] == '\0'))
      pos++;
  }

  bool eat(char c) {
    skip_space();
    if (pos < text.size() && text[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  PyLit parse(int depth) {
    if (depth > kMaxLiteralDepth) fail("nested too deeply");
    skip_space();
    if (pos >= text.size()) fail("unexpected end of header");
    char c = text[pos];
    if (c == '{') return parse_dict(depth);
    if (c == '(' || c == '[') return parse_sequence(depth, c == '(' ? ')' : ']');
    if (c == '\'' || c == '"') return parse_string();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+') return parse_int();
    size_t start = pos;
    while (pos < text.size() && std::isalpha(uint8_t(text[pos])))
      pos++;
    std::string word = text.substr(start, pos - start);
    PyLit lit;
    if (word == "True" || word == "False") {
      lit.kind = PyLit::Bool;
      lit.boolean = word == "True";
      return lit;
    }
    if (word == "None") return lit;
    pos = start;
    fail(word.empty() ? fmt::format("unexpected character 0x{:02x}", uint8_t(c))
                      : fmt::format("unexpected word '{}'", word));
  }

  PyLit parse_dict(int depth) {
    PyLit lit;
    lit.kind = PyLit::Dict;
    pos++; // '{'
    for (;;) {
      if (eat('}')) return lit;
      PyLit key = parse(depth + 1);
      if (key.kind != PyLit::Str) fail("dictionary keys must be strings");
      if (!eat(':')) fail("expected ':' after a dictionary key");
      lit.keys.push_back(key.str);
      lit.values.push_back(parse(depth + 1));
      if (eat('}')) return lit;
      if (!eat(',')) fail("expected ',' or '}' in the dictionary");
    }
  }

  PyLit parse_sequence(int depth, char close) {
    PyLit lit;
    lit.kind = PyLit::Tuple;
    pos++; // '(' or '['
    for (;;) {
      if (eat(close)) return lit;
      lit.items.push_back(parse(depth + 1));
      if (eat(close)) return lit;
      if (!eat(',')) fail(fmt::format("expected ',' or '{}'", close));
    }
  }

  PyLit parse_string() {
    PyLit lit;
    lit.kind = PyLit::Str;
    char quote = text[pos++];
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\' && pos + 1 < text.size()) pos++;
      lit.str += text[pos++];
    }
    if (pos >= text.size()) fail("unterminated string");
    pos++;
    return lit;
  }

  PyLit parse_int() {
    PyLit lit;
    lit.kind = PyLit::Int;
    bool negative = text[pos] == '-';
    if (text[pos] == '-' || text[pos] == '+') pos++;
    size_t start = pos;
    uint64_t v = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      uint64_t d = uint64_t(text[pos] - '0');
      if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / 10) fail("integer too large");
      v = v * 10 + d;
      pos++;
    }
    if (pos == start) fail("expected digits");
    if (pos < text.size() && (text[pos] == 'L' || text[pos] == 'l')) pos++; // Python 2 longs
    lit.num = negative ? -int64_t(v) : int64_t(v);
    return lit;
  }
};

struct Dtype {
  PrimType prim = PrimType::I32;
  int size = 4;
  bool big_endian = false;
};

Dtype parse_descr(const std::string &descr, const std::string &name) {
  Dtype d;
  std::string s = descr;
  char order = '=';
  if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
    order = s[0];
    s = s.substr(1);
  }
  d.big_endian = order == '>' || (order != '<' && std::endian::native == std::endian::big);
  static const std::map<std::string, std::pair<PrimType, int>> kinds = {
      {"b1", {PrimType::Bool, 1}}, {"?", {PrimType::Bool, 1}}, {"i1", {PrimType::I8, 1}},
      {"i2", {PrimType::I16, 2}},  {"i4", {PrimType::I32, 4}}, {"i8", {PrimType::I64, 8}},
      {"u1", {PrimType::U8, 1}},   {"u2", {PrimType::U16, 2}}, {"u4", {PrimType::U32, 4}},
      {"u8", {PrimType::U64, 8}},  {"f2", {PrimType::F16, 2}}, {"f4", {PrimType::F32, 4}},
      {"f8", {PrimType::F64, 8}},
  };
  auto it = kinds.find(s);
  if (it == kinds.end())
    npy_fail(name,
             fmt::format("unsupported dtype '{}' (supported: bool, i1-i8, u1-u8, f2-f8)", descr));
  d.prim = it->second.first;
  d.size = it->second.second;
  return d;
}

// The element at `p` (size bytes, in the file's byte order) as a value slot.
Bits decode(const unsigned char *p, const Dtype &d) {
  uint64_t raw = 0;
  for (int k = 0; k < d.size; k++) {
    int byte = d.big_endian ? d.size - 1 - k : k;
    raw |= uint64_t(p[byte]) << (8 * k);
  }
  PrimValue v;
  switch (d.prim) {
  case PrimType::Bool:
    v = PrimValue::boolean(raw != 0);
    break;
  case PrimType::F16:
    v = PrimValue::floating(d.prim, f16_bits_to_float(uint16_t(raw)));
    break;
  case PrimType::F32:
    v = PrimValue::floating(d.prim, std::bit_cast<float>(uint32_t(raw)));
    break;
  case PrimType::F64:
    v = PrimValue::floating(d.prim, std::bit_cast<double>(raw));
    break;
  default:
    v = PrimValue::unsigned_int(d.prim, raw);
    break; // sign-extends signed types
  }
  return v.bits;
}

// The little-endian bytes of one slot of type t.
void encode(std::string &out, PrimType t, Bits b) {
  uint64_t raw;
  int size;
  switch (t) {
  case PrimType::Bool:
    raw = b.u != 0 ? 1 : 0, size = 1;
    break;
  case PrimType::F16:
    raw = f16_bits_from_double(b.f32), size = 2;
    break;
  case PrimType::F32:
    raw = std::bit_cast<uint32_t>(b.f32), size = 4;
    break;
  case PrimType::F64:
    raw = std::bit_cast<uint64_t>(b.f64), size = 8;
    break;
  default:
    raw = b.u, size = prim_bits(t) / 8;
    break;
  }
  for (int k = 0; k < size; k++)
    out += char((raw >> (8 * k)) & 0xff);
}

const char *descr_of(PrimType t) {
  switch (t) {
  case PrimType::Bool:
    return "|b1";
  case PrimType::I8:
    return "|i1";
  case PrimType::I16:
    return "<i2";
  case PrimType::I32:
    return "<i4";
  case PrimType::I64:
    return "<i8";
  case PrimType::U8:
    return "|u1";
  case PrimType::U16:
    return "<u2";
  case PrimType::U32:
    return "<u4";
  case PrimType::U64:
    return "<u8";
  case PrimType::F16:
    return "<f2";
  case PrimType::F32:
    return "<f4";
  case PrimType::F64:
    return "<f8";
  }
  return "?";
}

uint64_t read_le(const std::string &bytes, size_t at, int n) {
  uint64_t v = 0;
  for (int k = 0; k < n; k++)
    v |= uint64_t(uint8_t(bytes[at + size_t(k)])) << (8 * k);
  return v;
}

} // namespace

Value read_npy(const std::string &bytes, const std::string &name) {
  if (bytes.size() < kMagicSize + 2 || bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    npy_fail(name, "not a .npy file (missing the \\x93NUMPY magic)");
  int major = uint8_t(bytes[6]), minor = uint8_t(bytes[7]);
  if (major < 1 || major > 3)
    npy_fail(name, fmt::format("unsupported .npy format version {}.{}", major, minor));
  int len_bytes = major == 1 ? 2 : 4;
  size_t header_at = 8 + size_t(len_bytes);
  if (bytes.size() < header_at) npy_fail(name, "truncated header length");
  uint64_t header_len = read_le(bytes, 8, len_bytes);
  if (header_len > bytes.size() - header_at)
    npy_fail(name, fmt::format("truncated header: it claims {} bytes, the file has {} after "
                               "the preamble",
                               header_len, bytes.size() - header_at));
  std::string header = bytes.substr(header_at, size_t(header_len));
  size_t data_at = header_at + size_t(header_len);

  PyParser parser{header, name};
  PyLit dict = parser.parse(0);
  if (dict.kind != PyLit::Dict) npy_fail(name, "the header is not a dictionary");
  parser.skip_space();
  if (parser.pos != header.size()) parser.fail("unexpected text after the dictionary");
  const PyLit *descr = nullptr, *fortran = nullptr, *shape = nullptr;
  for (size_t k = 0; k < dict.keys.size(); k++) {
    const std::string &key = dict.keys[k];
    const PyLit &value = dict.values[k];
    if (key == "descr") descr = &value;
    if (key == "fortran_order") fortran = &value;
    if (key == "shape") shape = &value;
  }
  if (!descr || !fortran || !shape)
    npy_fail(name, fmt::format("the header lacks the key '{}'", !descr     ? "descr"
                                                                : !fortran ? "fortran_order"
                                                                           : "shape"));
  if (descr->kind == PyLit::Tuple)
    npy_fail(name, "structured dtypes (a list of fields in 'descr') are not supported");
  if (descr->kind != PyLit::Str) npy_fail(name, "'descr' is not a string");
  if (fortran->kind != PyLit::Bool) npy_fail(name, "'fortran_order' is not True or False");
  if (shape->kind != PyLit::Tuple) npy_fail(name, "'shape' is not a tuple");
  Dtype dtype = parse_descr(descr->str, name);

  std::vector<int64_t> dims;
  int64_t count = 1;
  bool any_zero = false;
  for (const PyLit &d : shape->items) {
    if (d.kind != PyLit::Int || d.num < 0)
      npy_fail(name, "'shape' must hold non-negative integers");
    dims.push_back(d.num);
    any_zero |= d.num == 0;
  }
  if (!any_zero) {
    for (int64_t d : dims) {
      if (count > std::numeric_limits<int64_t>::max() / d / dtype.size)
        npy_fail(name, fmt::format("shape {} is too large", fmt::join(dims, "x")));
      count *= d;
    }
  } else {
    count = 0;
  }
  uint64_t need = uint64_t(count) * uint64_t(dtype.size);
  uint64_t have = bytes.size() - data_at;
  if (have != need)
    npy_fail(name, fmt::format("the shape ({}) and dtype '{}' need {} bytes of data, the file "
                               "has {}",
                               fmt::join(dims, ", "), descr->str, need, have));

  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data()) + data_at;
  if (dims.empty()) return Value(PrimValue{dtype.prim, decode(data, dtype)});
  std::vector<Bits> slots(static_cast<size_t>(count));
  if (!fortran->boolean || dims.size() == 1) {
    for (int64_t k = 0; k < count; k++)
      slots[size_t(k)] = decode(data + k * dtype.size, dtype);
  } else {
    // Column-major data: walk the row-major order with an odometer and fetch each
    // element from its column-major offset.
    std::vector<int64_t> idx(dims.size(), 0), fstride(dims.size(), 1);
    for (size_t d = 1; d < dims.size(); d++)
      fstride[d] = fstride[d - 1] * dims[d - 1];
    int64_t offset = 0;
    for (int64_t k = 0; k < count; k++) {
      slots[size_t(k)] = decode(data + offset * dtype.size, dtype);
      for (size_t d = dims.size(); d-- > 0;) {
        idx[d]++;
        offset += fstride[d];
        if (idx[d] < dims[d]) break;
        offset -= fstride[d] * idx[d];
        idx[d] = 0;
      }
    }
  }
  return make_prim_array(dtype.prim, std::move(dims), std::move(slots));
}

Value read_npy_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) npy_fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) npy_fail(path, "read error");
  return read_npy(buf.str(), path);
}

std::string write_npy(const Value &v) {
  PrimType t;
  std::vector<int64_t> dims;
  if (v.kind == Value::Prim) {
    t = v.prim.type;
  } else if (v.kind == Value::Array && v.array->elem.kind == ValueType::Prim) {
    t = v.array->elem.prim;
    dims = v.array->shape;
  } else {
    throw NpyError(fmt::format("cannot write a value of type {} as .npy (arrays of primitives "
                               "and scalars only)",
                               v.type().str()));
  }
  std::string shape = "(";
  for (size_t i = 0; i < dims.size(); i++)
    shape += fmt::format("{}, ", dims[i]);
  if (dims.size() > 1)
    shape.resize(shape.size() - 2); // (3,) but (2, 3)
  else if (dims.size() == 1)
    shape.pop_back();
  shape += ")";
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr_of(t), shape);
  // Pad with spaces so that the data starts at a multiple of 64 bytes.
  bool v2 = header.size() + 1 + 10 > 65535;
  size_t preamble = v2 ? 12 : 10;
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(v2 ? 2 : 1);
  out += char(0);
  for (int k = 0; k < (v2 ? 4 : 2); k++)
    out += char((header.size() >> (8 * k)) & 0xff);
  out += header;
  if (v.kind == Value::Prim) {
    encode(out, t, v.prim.bits);
    return out;
  }
  out.reserve(out.size() + v.array->data.size() * size_t(std::max(1, prim_bits(t) / 8)));
  for (Bits b : v.array->data)
    encode(out, t, b);
  return out;
}

void write_npy_file(const Value &v, const std::string &path) {
  std::string bytes = write_npy(v);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) npy_fail(path, fmt::format("cannot open for writing: {}", std::strerror(errno)));
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) npy_fail(path, "write error");
}

} // namespace kerb
