// Types of the Kerb language as the front end sees them.
//
// A Type is a primitive, a tuple, or an array of a (non-array) element with one Dim per
// array dimension. Dims are symbolic: a size variable (`[n]`), a constant (`[3]`), or
// unknown (`[]`). Sizes are not unified statically; they are checked at run time where
// they matter (see LANGUAGE.md and the interpreter). The type checker compares types
// with `same_shape_class`, which ignores dims but not ranks.
//
// During inference a type may also be a numeric type variable (TypeVar): the type of
// an unsuffixed literal, constrained to "any number" (integer literal) or "any float"
// (float literal). The checker resolves every variable before it finishes (defaulting
// to i32 and f64 as Futhark does), so a checked program holds no TypeVar.
#pragma once

#include "runtime/value.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb {

struct Dim {
  enum Kind : uint8_t { Unknown, Var, Const } kind = Unknown;
  std::string name;   // Var
  int64_t value = 0;  // Const

  static Dim unknown() { return Dim{}; }
  static Dim var(std::string n) { Dim d; d.kind = Var; d.name = std::move(n); return d; }
  static Dim constant(int64_t v) { Dim d; d.kind = Const; d.value = v; return d; }
  std::string str() const; // "", "n", "3"
};

struct Type {
  enum Kind : uint8_t { Prim, Tuple, Array, TypeVar } kind = Prim;
  PrimType prim = PrimType::I32;  // Prim
  std::vector<Type> elems;        // Tuple components; Array: exactly one element type
  std::vector<Dim> dims;          // Array: outermost first (size >= 1)
  int var = -1;                   // TypeVar id (see TypeChecker)
  bool unique = false;            // `*[]i32`; accepted and otherwise ignored

  static Type prim_type(PrimType p);
  static Type tuple(std::vector<Type> elems); // a 1-tuple is never made; 0-tuple is ()
  static Type array(Type elem, std::vector<Dim> dims); // elem may itself be an array:
                                                       // dims are merged
  static Type type_var(int id);
  static Type unit() { return tuple({}); }

  bool is_prim() const { return kind == Prim; }
  bool is_prim(PrimType p) const { return kind == Prim && prim == p; }
  bool is_array() const { return kind == Array; }
  bool is_tuple() const { return kind == Tuple; }
  int rank() const { return kind == Array ? int(dims.size()) : 0; }
  const Type &element() const; // Array: the non-array element type
  Type row() const;            // Array: drop the outermost dim
  Type with_rank_prefix(std::vector<Dim> outer) const; // [outer]this

  std::string str() const; // Futhark syntax: "[n][]i32", "(i32, f32)", "[](i32, bool)"
  ValueType value_type() const; // drops sizes; must not contain TypeVar
};

// Equal up to sizes (ranks, primitives and tuple structure must agree).
bool same_shape_class(const Type &a, const Type &b);

} // namespace kerb
