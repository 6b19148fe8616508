// Types of the Kerb language as the front end sees them.
//
// A Type is a primitive, a tuple, a record, a sum, a function, or an array of a
// (non-array) element with one Dim per array dimension. Dims are symbolic: a size
// variable (`[n]`), a constant (`[3]`), a size expression kept as its text (`[n * m]`),
// or unknown (`[]`).
//
// Two more kinds exist only on the way through the front end:
// - Named: a type as written before the type checker resolves it: a primitive-free name
//   with arguments (`t`, `pair i32`, `vec [n]`; a size argument is a SizeArg), or,
//   after resolution, a type parameter of a polymorphic function (`'a`, no arguments).
//   Monomorphisation (compiler/elim) replaces every type parameter.
// - TypeVar: a unification variable of the type checkers (compiler/types/infer.cpp and
//   type_check.cpp). A checked program holds none.
// Records, sums and functions are eliminated before the first-order checker
// (type_check.cpp), the interpreter and the lowering: those see primitives, tuples and
// arrays only.
#pragma once

#include "runtime/value.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kerb {

struct Dim {
  enum Kind : uint8_t { Unknown, Var, Const } kind = Unknown;
  std::string name;   // Var: a name or the text of a size expression
  int64_t value = 0;  // Const

  static Dim unknown() { return Dim{}; }
  static Dim var(std::string n) { Dim d; d.kind = Var; d.name = std::move(n); return d; }
  static Dim constant(int64_t v) { Dim d; d.kind = Const; d.value = v; return d; }
  std::string str() const; // "", "n", "3"
};

struct Type {
  enum Kind : uint8_t { Prim, Tuple, Array, TypeVar, Record, Sum, Function, Named, SizeArg };
  Kind kind = Prim;
  PrimType prim = PrimType::I32;  // Prim
  // Tuple: the components. Array: exactly one, the element type. Record: the fields'
  // types, aligned with `names`. Function: {parameter, result}. Named: the arguments.
  std::vector<Type> elems;
  std::vector<Dim> dims;          // Array: outermost first (size >= 1); SizeArg: one
  int var = -1;                   // TypeVar id (see the checkers)
  bool unique = false;            // `*[]i32`; accepted and otherwise ignored
  // Record: the field names, sorted. Sum: the constructor names, sorted.
  std::vector<std::string> names;
  std::vector<std::vector<Type>> payloads; // Sum: each constructor's payload types
  // Named: the name. Function: the parameter's name when the result's sizes depend on
  // it (`(n: i64) -> [n]i32`), else empty.
  std::string name;

  static Type prim_type(PrimType p);
  static Type tuple(std::vector<Type> elems); // a 1-tuple is never made; 0-tuple is ()
  static Type array(Type elem, std::vector<Dim> dims); // elem may itself be an array:
                                                       // dims are merged
  static Type type_var(int id);
  static Type unit() { return tuple({}); }
  // Fields are sorted by name; a record with a duplicate field is not made here (the
  // parser reports it).
  // A record whose fields are 0, 1, ..., n-1 (n >= 2) is a tuple, as in Futhark.
  static Type record(std::vector<std::pair<std::string, Type>> fields);
  static Type sum(std::vector<std::pair<std::string, std::vector<Type>>> constructors);
  static Type function(Type param, Type result, std::string param_name = "");
  static Type named(std::string name, std::vector<Type> args = {});
  static Type size_arg(Dim d);

  bool is_prim() const { return kind == Prim; }
  bool is_prim(PrimType p) const { return kind == Prim && prim == p; }
  bool is_array() const { return kind == Array; }
  bool is_tuple() const { return kind == Tuple; }
  bool is_function() const { return kind == Function; }
  int rank() const { return kind == Array ? int(dims.size()) : 0; }
  const Type &element() const; // Array: the non-array element type
  Type row() const;            // Array: drop the outermost dim
  Type with_rank_prefix(std::vector<Dim> outer) const; // [outer]this
  // Record: the index of field `n` in elems, or -1. Sum: of constructor `n`.
  int field_index(const std::string &n) const;

  std::string str() const; // Futhark syntax: "[n][]i32", "(i32, f32)", "{x: i32}"
  ValueType value_type() const; // drops sizes; only primitives, tuples and arrays
};

// Case labels for the kinds of types the elimination passes remove.
#define KERB_ELIMINATED_TYPE_KINDS                                             \
  case Type::Record: case Type::Sum: case Type::Function: case Type::Named:    \
  case Type::SizeArg

// Equal up to sizes (ranks, primitives and tuple structure must agree).
bool same_shape_class(const Type &a, const Type &b);

// Whether a function type occurs in `t` (not looking through type variables).
bool contains_function(const Type &t);

// The identifiers in a size expression's text ("k + (n - k)" -> k, n).
std::vector<std::string> size_expression_names(const std::string &text);

// Whether `pred` holds for `t` or a type inside it (components, elements, payloads).
bool any_in_type(const Type &t, const std::function<bool(const Type &)> &pred);

// Whether an unknown size (`[]`, or an existential `?[n].`) occurs in `t`.
bool has_unknown_dim(const Type &t);

// `t` with the Named types (without arguments) in `names` replaced by their images;
// arrays of arrays are merged ([n]a with a = [m]i32 is [n][m]i32).
Type substitute_named(const Type &t, const std::map<std::string, Type> &names);

// `t` with every size unknown ([n][3]i32 -> [][]i32).
Type erase_dims(Type t);

// Whether record field names are exactly 0, 1, ..., n-1 with n >= 2 (a tuple written
// as a record, `{0 = a, 1 = b}`); `order[i]` is then the position of field i.
bool tuple_field_names(const std::vector<std::string> &names, std::vector<size_t> &order);

} // namespace kerb
