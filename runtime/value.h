// Run-time values shared by every executor (interpreter, CPU device, GPU device) and
// by the value readers and writers (Futhark's textual syntax, .npy).
//
// A Value is a primitive scalar, a tuple of values, or a regular array. Arrays are
// stored struct-of-arrays, as Futhark does: an array of primitives is one flat
// row-major buffer of 8-byte slots; an array of tuples is a tuple of arrays that share
// the array's outer shape (each component is itself an Array value whose shape starts
// with the outer shape). Array data is shared and never mutated once built (values are
// immutable; "in-place" updates copy unless the caller owns the only reference).
//
// This header depends on nothing in compiler/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kerb {

enum class PrimType : uint8_t { Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64 };

const char *prim_name(PrimType t); // "i32", "bool", ...
bool prim_from_name(const std::string &name, PrimType &out);
bool is_signed_int(PrimType t);
bool is_unsigned_int(PrimType t);
inline bool is_int(PrimType t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_float(PrimType t) {
  return t == PrimType::F16 || t == PrimType::F32 || t == PrimType::F64;
}
int prim_bits(PrimType t); // 1 for bool, 8..64 otherwise

// IEEE 754 half precision (f16), round to nearest even. f16 values are carried in a
// float; round_to_f16 gives the float nearest to v's half-precision rounding.
uint16_t f16_bits_from_double(double v);
float f16_bits_to_float(uint16_t bits);
float round_to_f16(double v);

// The payload of one scalar. Integers are kept normalised: a signed value is stored
// sign-extended in `i`, an unsigned one zero-extended in `u` (so both fields read the
// same bits for in-range values). f16 and f32 are kept in `f32` (f16 values are rounded
// to half precision by the operations that produce them); f64 in `f64`; bool in `u`
// (0 or 1).
union Bits {
  int64_t i;
  uint64_t u;
  float f32;
  double f64;
};

struct PrimValue {
  PrimType type = PrimType::I32;
  Bits bits{0};

  static PrimValue boolean(bool b);
  static PrimValue signed_int(PrimType t, int64_t v);  // wraps to t's width
  static PrimValue unsigned_int(PrimType t, uint64_t v); // wraps to t's width
  static PrimValue floating(PrimType t, double v);     // rounds to t's precision
  // Any integer type from a mathematical value (wrapping), any float type by rounding.
  static PrimValue from_int(PrimType t, int64_t v);

  bool as_bool() const { return bits.u != 0; }
  int64_t as_i64() const; // integers (sign/zero per type), bool 0/1, floats truncated
  double as_f64() const;  // numeric value as a double
};

bool operator==(const PrimValue &a, const PrimValue &b); // bitwise, same type

struct ArrayData;

// The type of a value without sizes: used to describe array elements and to check
// inputs. A `rank` > 0 wraps the element (prim or tuple) in that many array dims.
struct ValueType {
  enum Kind : uint8_t { Prim, Tuple } kind = Prim;
  PrimType prim = PrimType::I32;
  std::vector<ValueType> elems; // Tuple components
  int rank = 0;                 // array dimensions around it

  static ValueType of_prim(PrimType p, int rank = 0);
  static ValueType tuple(std::vector<ValueType> elems, int rank = 0);
  ValueType element() const; // same with rank 0
  ValueType row() const;     // rank - 1
  std::string str() const;   // "[][]i32", "(i32, f32)", "[](i32, bool)"
};
bool operator==(const ValueType &a, const ValueType &b);
inline bool operator!=(const ValueType &a, const ValueType &b) { return !(a == b); }

struct Value {
  enum Kind : uint8_t { Prim, Tuple, Array } kind = Prim;
  PrimValue prim;                    // Prim
  std::vector<Value> elems;          // Tuple
  std::shared_ptr<const ArrayData> array; // Array

  Value() = default;
  Value(PrimValue p) : kind(Prim), prim(p) {}
  static Value tuple(std::vector<Value> elems);
  static Value make_array(std::shared_ptr<const ArrayData> data);

  ValueType type() const;
  // Array helpers (kind == Array).
  const std::vector<int64_t> &shape() const;
  int64_t length() const; // outer size
  int rank() const;
};

// A regular array. `shape` is the full shape (rank >= 1). For an array of primitives
// (elem.kind == Prim), `data` holds product(shape) slots, row-major. For an array of
// tuples, `components[k]` is an Array value of the k-th tuple component, whose shape is
// `shape` followed by that component's own array dims (if any); `data` is empty.
struct ArrayData {
  std::vector<int64_t> shape;
  ValueType elem; // rank 0: the element type below all of `shape`
  std::vector<Bits> data;
  std::vector<Value> components;

  int64_t num_elements() const; // product of shape
};

// Builders. make_prim_array takes ownership of `data` (size must be product(shape)).
Value make_prim_array(PrimType t, std::vector<int64_t> shape, std::vector<Bits> data);
// An array of tuples from component arrays (all with the same outer `shape` prefix).
Value make_tuple_array(std::vector<int64_t> shape, std::vector<Value> components);
// An empty array of any element type, e.g. empty([0][3]i32). Array dims of `elem`
// itself (elem.rank > 0) are appended as 0; with no zero dim the array is zero-filled.
Value make_empty_array(const ValueType &elem, std::vector<int64_t> shape);
// Stacks equally-shaped values (all of type `row`) into an array of length rows.size().
// `row` is needed when rows is empty. Throws std::invalid_argument on irregular rows.
Value stack_rows(const ValueType &row, const std::vector<Value> &rows);

// Element access (no bounds checks: callers check and report failures).
Value array_index(const Value &arr, int64_t i); // row i (a scalar, tuple or array)
PrimValue prim_at(const Value &arr, int64_t flat); // arrays of primitives only

// Value equality: same type, same shape, bitwise-equal primitives.
bool values_equal(const Value &a, const Value &b);

} // namespace kerb
