// Run-time values: primitive scalars with their wrapping and rounding rules, value
// types, and the builders and accessors for regular arrays (arrays of primitives as one
// flat buffer, arrays of tuples as a tuple of component arrays). See value.h.
#include "runtime/value.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kerb {

// ---------------------------------------------------------------------------------
// Primitive types

static const char *const kPrimNames[] = {"bool", "i8",  "i16", "i32", "i64", "u8",
                                         "u16",  "u32", "u64", "f16", "f32", "f64"};

const char *prim_name(PrimType t) {
  return kPrimNames[int(t)];
}

bool prim_from_name(const std::string &name, PrimType &out) {
  for (int i = 0; i < int(std::size(kPrimNames)); i++) {
    if (name == kPrimNames[i]) {
      out = PrimType(i);
      return true;
    }
  }
  return false;
}

bool is_signed_int(PrimType t) {
  return t == PrimType::I8 || t == PrimType::I16 || t == PrimType::I32 || t == PrimType::I64;
}

bool is_unsigned_int(PrimType t) {
  return t == PrimType::U8 || t == PrimType::U16 || t == PrimType::U32 || t == PrimType::U64;
}

int prim_bits(PrimType t) {
  switch (t) {
  case PrimType::Bool:
    return 1;
  case PrimType::I8:
  case PrimType::U8:
    return 8;
  case PrimType::I16:
  case PrimType::U16:
  case PrimType::F16:
    return 16;
  case PrimType::I32:
  case PrimType::U32:
  case PrimType::F32:
    return 32;
  case PrimType::I64:
  case PrimType::U64:
  case PrimType::F64:
    return 64;
  }
  return 64;
}

// ---------------------------------------------------------------------------------
// Half precision

uint16_t f16_bits_from_double(double v) {
  uint64_t bits = std::bit_cast<uint64_t>(v);
  uint16_t sign = uint16_t((bits >> 63) << 15);
  int exp_field = int((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  if (exp_field == 0x7ff) {
    if (mant == 0) return sign | 0x7c00; // infinity
    // NaN: keep the top payload bits, and make sure it stays a (quiet) NaN.
    return uint16_t(sign | 0x7e00 | uint16_t(mant >> 42));
  }
  if (exp_field == 0) return sign; // zero or a double subnormal: far below f16's range
  int e = exp_field - 1023;
  if (e > 15) return sign | 0x7c00; // overflows to infinity
  uint64_t sig = mant | (uint64_t(1) << 52);
  // Units of the result's last place: 2^(max(e, -14) - 10). Shift sig (whose last
  // place is 2^(e - 52)) right so that it counts those units, rounding to nearest even.
  int shift = 42 + (e < -14 ? -14 - e : 0);
  if (shift >= 54) return sign; // below half of the smallest subnormal
  uint64_t q = sig >> shift;
  uint64_t rem = sig & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  uint32_t result;
  if (e >= -14) {
    // q includes the implicit bit (1 << 10), so a carry out of the mantissa moves
    // into the exponent by itself.
    result = (uint32_t(e + 14) << 10) + uint32_t(q);
    if (result >= 0x7c00) return sign | 0x7c00;
  } else {
    result = uint32_t(q); // a subnormal (or the smallest normal after rounding up)
  }
  return uint16_t(sign | result);
}

float f16_bits_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31;
  uint32_t exp_field = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp_field == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp_field == 0) {
    float magnitude = std::ldexp(float(mant), -24); // exact
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exp_field - 15 + 127) << 23) | (mant << 13));
}

float round_to_f16(double v) {
  return f16_bits_to_float(f16_bits_from_double(v));
}

// ---------------------------------------------------------------------------------
// Primitive values

PrimValue PrimValue::boolean(bool b) {
  PrimValue p;
  p.type = PrimType::Bool;
  p.bits.u = b ? 1 : 0;
  return p;
}

PrimValue PrimValue::signed_int(PrimType t, int64_t v) {
  return from_int(t, v);
}

PrimValue PrimValue::unsigned_int(PrimType t, uint64_t v) {
  if (t == PrimType::Bool) return boolean(v != 0);
  if (is_float(t)) return floating(t, double(v));
  PrimValue p;
  p.type = t;
  int w = prim_bits(t);
  if (w < 64) v &= (uint64_t(1) << w) - 1;
  p.bits.u = v;
  if (is_signed_int(t) && w < 64) {
    // Sign-extend the low w bits.
    p.bits.i = int64_t(v << (64 - w)) >> (64 - w);
  }
  return p;
}

PrimValue PrimValue::floating(PrimType t, double v) {
  if (t == PrimType::Bool) return boolean(v != 0);
  if (is_int(t)) {
    // Truncate toward zero; NaN and out-of-range values have no defined result, so
    // pick 0 / the wrapped saturation instead of invoking undefined behaviour.
    if (std::isnan(v)) return from_int(t, 0);
    if (v >= 9223372036854775808.0) {
      if (is_unsigned_int(t) && v < 18446744073709551616.0) return unsigned_int(t, uint64_t(v));
      return from_int(t, std::numeric_limits<int64_t>::max());
    }
    if (v < -9223372036854775808.0) return from_int(t, std::numeric_limits<int64_t>::min());
    return from_int(t, int64_t(v));
  }
  PrimValue p;
  p.type = t;
  p.bits.u = 0;
  if (t == PrimType::F64) {
    p.bits.f64 = v;
  } else if (t == PrimType::F32) {
    p.bits.f32 = float(v);
  } else {
    p.bits.f32 = round_to_f16(v);
  }
  return p;
}

PrimValue PrimValue::from_int(PrimType t, int64_t v) {
  if (t == PrimType::Bool) return boolean(v != 0);
  if (t == PrimType::F32) {
    PrimValue p;
    p.type = t;
    p.bits.u = 0;
    p.bits.f32 = float(v); // one rounding, straight from the integer
    return p;
  }
  if (is_float(t)) return floating(t, double(v));
  return unsigned_int(t, uint64_t(v));
}

int64_t PrimValue::as_i64() const {
  if (type == PrimType::Bool) return bits.u != 0 ? 1 : 0;
  if (is_signed_int(type)) return bits.i;
  if (is_unsigned_int(type)) return int64_t(bits.u);
  double d = as_f64();
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (d < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return int64_t(d);
}

double PrimValue::as_f64() const {
  if (type == PrimType::Bool) return bits.u != 0 ? 1.0 : 0.0;
  if (is_signed_int(type)) return double(bits.i);
  if (is_unsigned_int(type)) return double(bits.u);
  if (type == PrimType::F64) return bits.f64;
  return double(bits.f32);
}

// The bits that identify a primitive of type t (ignores unused bytes of the slot).
static uint64_t canonical_bits(PrimType t, Bits b) {
  if (t == PrimType::Bool) return b.u != 0 ? 1 : 0;
  if (t == PrimType::F16 || t == PrimType::F32) return std::bit_cast<uint32_t>(b.f32);
  return b.u;
}

bool operator==(const PrimValue &a, const PrimValue &b) {
  return a.type == b.type && canonical_bits(a.type, a.bits) == canonical_bits(b.type, b.bits);
}

// ---------------------------------------------------------------------------------
// Value types

ValueType ValueType::of_prim(PrimType p, int rank) {
  ValueType t;
  t.kind = Prim;
  t.prim = p;
  t.rank = rank;
  return t;
}

ValueType ValueType::tuple(std::vector<ValueType> elems, int rank) {
  ValueType t;
  t.kind = Tuple;
  t.elems = std::move(elems);
  t.rank = rank;
  return t;
}

ValueType ValueType::element() const {
  ValueType t = *this;
  t.rank = 0;
  return t;
}

ValueType ValueType::row() const {
  if (rank <= 0) throw std::logic_error("ValueType::row: " + str() + " is not an array type");
  ValueType t = *this;
  t.rank--;
  return t;
}

std::string ValueType::str() const {
  std::string s;
  for (int i = 0; i < rank; i++)
    s += "[]";
  if (kind == Prim) return s + prim_name(prim);
  s += '(';
  for (size_t i = 0; i < elems.size(); i++) {
    if (i > 0) s += ", ";
    s += elems[i].str();
  }
  return s + ')';
}

bool operator==(const ValueType &a, const ValueType &b) {
  if (a.kind != b.kind || a.rank != b.rank) return false;
  if (a.kind == ValueType::Prim) return a.prim == b.prim;
  return a.elems == b.elems;
}

// ---------------------------------------------------------------------------------
// Values

Value Value::tuple(std::vector<Value> elems) {
  Value v;
  v.kind = Tuple;
  v.elems = std::move(elems);
  return v;
}

Value Value::make_array(std::shared_ptr<const ArrayData> data) {
  if (!data) throw std::invalid_argument("Value::make_array: null array data");
  Value v;
  v.kind = Array;
  v.array = std::move(data);
  return v;
}

ValueType Value::type() const {
  switch (kind) {
  case Prim:
    return ValueType::of_prim(prim.type);
  case Tuple: {
    std::vector<ValueType> ts;
    ts.reserve(elems.size());
    for (const Value &e : elems)
      ts.push_back(e.type());
    return ValueType::tuple(std::move(ts));
  }
  case Array: {
    ValueType t = array->elem;
    t.rank = int(array->shape.size());
    return t;
  }
  }
  return ValueType();
}

static void require_array(const Value &v, const char *what) {
  if (v.kind != Value::Array || !v.array)
    throw std::logic_error(std::string(what) + ": the value is not an array");
}

const std::vector<int64_t> &Value::shape() const {
  require_array(*this, "Value::shape");
  return array->shape;
}

int64_t Value::length() const {
  require_array(*this, "Value::length");
  return array->shape.empty() ? 0 : array->shape[0];
}

int Value::rank() const {
  if (kind != Array) return 0;
  return int(array->shape.size());
}

// Product of dims; throws std::invalid_argument on negative dims or overflow.
static int64_t checked_product(const std::vector<int64_t> &dims, size_t from = 0) {
  int64_t n = 1;
  for (size_t i = from; i < dims.size(); i++) {
    int64_t d = dims[i];
    if (d < 0) throw std::invalid_argument("negative array dimension " + std::to_string(d));
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw std::invalid_argument("array shape is too large");
    n *= d;
  }
  // A zero dimension makes the whole product zero even if the others overflowed.
  for (size_t i = from; i < dims.size(); i++)
    if (dims[i] == 0) return 0;
  return n;
}

int64_t ArrayData::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Value make_prim_array(PrimType t, std::vector<int64_t> shape, std::vector<Bits> data) {
  if (shape.empty()) throw std::invalid_argument("make_prim_array: an array needs rank >= 1");
  int64_t n = checked_product(shape);
  if (uint64_t(n) != data.size())
    throw std::invalid_argument("make_prim_array: " + std::to_string(data.size()) +
                                " elements for a shape of " + std::to_string(n));
  auto a = std::make_shared<ArrayData>();
  a->shape = std::move(shape);
  a->elem = ValueType::of_prim(t);
  a->data = std::move(data);
  return Value::make_array(std::move(a));
}

Value make_tuple_array(std::vector<int64_t> shape, std::vector<Value> components) {
  if (shape.empty()) throw std::invalid_argument("make_tuple_array: an array needs rank >= 1");
  checked_product(shape);
  std::vector<ValueType> elem_types;
  for (const Value &c : components) {
    if (c.kind != Value::Array)
      throw std::invalid_argument("make_tuple_array: a component is not an array");
    const std::vector<int64_t> &cs = c.shape();
    if (cs.size() < shape.size() || !std::equal(shape.begin(), shape.end(), cs.begin()))
      throw std::invalid_argument("make_tuple_array: a component's shape does not start "
                                  "with the array's shape");
    ValueType ct = c.type();
    ct.rank -= int(shape.size());
    elem_types.push_back(std::move(ct));
  }
  auto a = std::make_shared<ArrayData>();
  a->shape = std::move(shape);
  a->elem = ValueType::tuple(std::move(elem_types));
  a->components = std::move(components);
  return Value::make_array(std::move(a));
}

Value make_empty_array(const ValueType &elem, std::vector<int64_t> shape) {
  // Array dims of `elem` itself have no size given: they are 0.
  for (int i = 0; i < elem.rank; i++)
    shape.push_back(0);
  if (shape.empty()) throw std::invalid_argument("make_empty_array: an array needs rank >= 1");
  int64_t n = checked_product(shape);
  if (elem.kind == ValueType::Prim) {
    Bits zero;
    zero.u = 0;
    return make_prim_array(elem.prim, std::move(shape), std::vector<Bits>(size_t(n), zero));
  }
  std::vector<Value> comps;
  for (const ValueType &c : elem.elems)
    comps.push_back(make_empty_array(c, shape));
  return make_tuple_array(std::move(shape), std::move(comps));
}

// True when a and b have the same structure and the same array shapes throughout.
static bool same_shape(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Value::Prim) return true;
  if (a.kind == Value::Tuple) {
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); i++)
      if (!same_shape(a.elems[i], b.elems[i])) return false;
    return true;
  }
  if (a.array->shape != b.array->shape) return false;
  if (a.array->components.size() != b.array->components.size()) return false;
  for (size_t i = 0; i < a.array->components.size(); i++)
    if (!same_shape(a.array->components[i], b.array->components[i])) return false;
  return true;
}

Value stack_rows(const ValueType &row, const std::vector<Value> &rows) {
  if (rows.empty()) return make_empty_array(row, {0});
  for (const Value &r : rows) {
    if (r.type() != row)
      throw std::invalid_argument("stack_rows: a row of type " + r.type().str() + " where " +
                                  row.str() + " was expected");
    if (!same_shape(r, rows[0]))
      throw std::invalid_argument("stack_rows: irregular array (rows of different shapes)");
  }
  int64_t n = int64_t(rows.size());
  if (row.rank == 0 && row.kind == ValueType::Prim) {
    std::vector<Bits> data;
    data.reserve(rows.size());
    for (const Value &r : rows)
      data.push_back(r.prim.bits);
    return make_prim_array(row.prim, {n}, std::move(data));
  }
  if (row.rank == 0) { // tuples: stack each component
    std::vector<Value> comps;
    for (size_t k = 0; k < row.elems.size(); k++) {
      std::vector<Value> parts;
      parts.reserve(rows.size());
      for (const Value &r : rows)
        parts.push_back(r.elems[k]);
      comps.push_back(stack_rows(row.elems[k], parts));
    }
    return make_tuple_array({n}, std::move(comps));
  }
  std::vector<int64_t> shape{n};
  const std::vector<int64_t> &row_shape = rows[0].shape();
  shape.insert(shape.end(), row_shape.begin(), row_shape.end());
  if (row.kind == ValueType::Prim) {
    int64_t row_size = checked_product(row_shape);
    checked_product(shape);
    std::vector<Bits> data;
    data.reserve(size_t(row_size) * rows.size());
    for (const Value &r : rows)
      data.insert(data.end(), r.array->data.begin(), r.array->data.end());
    return make_prim_array(row.prim, std::move(shape), std::move(data));
  }
  // Arrays of tuples: stack each component array.
  std::vector<Value> comps;
  for (size_t k = 0; k < row.elems.size(); k++) {
    std::vector<Value> parts;
    parts.reserve(rows.size());
    for (const Value &r : rows)
      parts.push_back(r.array->components[k]);
    ValueType comp_row = row.elems[k];
    comp_row.rank += row.rank;
    comps.push_back(stack_rows(comp_row, parts));
  }
  return make_tuple_array(std::move(shape), std::move(comps));
}

Value array_index(const Value &arr, int64_t i) {
  const ArrayData &a = *arr.array;
  if (a.elem.kind == ValueType::Prim) {
    if (a.shape.size() == 1) return Value(PrimValue{a.elem.prim, a.data[size_t(i)]});
    std::vector<int64_t> row_shape(a.shape.begin() + 1, a.shape.end());
    int64_t row_size = 1;
    for (int64_t d : row_shape)
      row_size *= d;
    auto begin = a.data.begin() + i * row_size;
    return make_prim_array(a.elem.prim, std::move(row_shape),
                           std::vector<Bits>(begin, begin + row_size));
  }
  std::vector<Value> parts;
  parts.reserve(a.components.size());
  for (const Value &c : a.components)
    parts.push_back(array_index(c, i));
  if (a.shape.size() == 1) return Value::tuple(std::move(parts));
  return make_tuple_array(std::vector<int64_t>(a.shape.begin() + 1, a.shape.end()),
                          std::move(parts));
}

PrimValue prim_at(const Value &arr, int64_t flat) {
  return PrimValue{arr.array->elem.prim, arr.array->data[size_t(flat)]};
}

bool values_equal(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Value::Prim:
    return a.prim == b.prim;
  case Value::Tuple:
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); i++)
      if (!values_equal(a.elems[i], b.elems[i])) return false;
    return true;
  case Value::Array:
    break;
  }
  const ArrayData &x = *a.array, &y = *b.array;
  if (x.shape != y.shape || x.elem != y.elem) return false;
  if (x.elem.kind == ValueType::Prim) {
    if (x.data.size() != y.data.size()) return false;
    for (size_t k = 0; k < x.data.size(); k++)
      if (canonical_bits(x.elem.prim, x.data[k]) != canonical_bits(y.elem.prim, y.data[k]))
        return false;
    return true;
  }
  if (x.components.size() != y.components.size()) return false;
  for (size_t k = 0; k < x.components.size(); k++)
    if (!values_equal(x.components[k], y.components[k])) return false;
  return true;
}

} // namespace kerb
