// Scalar semantics of the language: every binary and unary operator, every
// numeric-module function (PrimFn) and every conversion between primitive types, as
// Futhark defines them (see docs/futhark-reference-notes.md). The interpreter uses these
// directly; the code generators should produce the same results.
//
// All functions are total and free of C++ undefined behaviour: integer arithmetic wraps,
// shifts by any amount are defined, INT_MIN / -1 wraps, float -> int conversion of NaN,
// infinities and out-of-range values is defined (see convert_prim). The one dynamic check
// that belongs to an operator, integer division by zero, is left to the caller: ask
// is_checked_division first and report the failure before calling eval_binop.
#pragma once

#include "compiler/ast.h"
#include "compiler/builtins.h"
#include "runtime/value.h"

#include <cstddef>
#include <string>

namespace kerb {

// True when `op` on operands of type `t` must fail if the right operand is zero
// (integer / % // %%).
bool is_checked_division(BinOp op, PrimType t);
// True when `b` is zero (any type; used with is_checked_division).
bool prim_is_zero(const PrimValue &b);

// The opt-in nan check (--checks=...,nan; LANGUAGE.md): a float operation that gives NaN
// from operands that are not NaN fails with "NaN produced by OP". These say which
// operations are checked (those that can: + - * / % // %% ** and sqrt, log, log2,
// log10, sin, cos, tan, asin, acos, pow) and the OP of the message ("/", "f32.sqrt").
// The interpreter and the lowering both use them, so that they agree on every site.
bool can_produce_nan(BinOp op, PrimType t);
bool can_produce_nan(const PrimBuiltin &fn);
std::string nan_op_name(BinOp op);
std::string nan_op_name(const PrimBuiltin &fn);
// Whether r is NaN and none of the operands is.
bool produced_nan(const PrimValue &r, const PrimValue *args, size_t num_args);

// a op b for operands of the same type (shifts: the amount has the left operand's type
// too; as Futhark's interpreter, an amount >= the width shifts everything out and a
// negative amount shifts the other way). Comparisons and logical operators return bool. Concat is not a scalar operator.
// Precondition: !(is_checked_division(op, a.type) && prim_is_zero(b)).
PrimValue eval_binop(BinOp op, const PrimValue &a, const PrimValue &b);

// -a (wrapping for integers) or !a (logical for bool, bitwise for integers).
PrimValue eval_unop(UnOp op, const PrimValue &a);

// Converts `v` to type `to`, as Futhark's conversion functions (i32.f64, f32.i8,
// bool.i32, ...): integers wrap to the target width; an unsigned target zero-extends the
// source's bits (u64.i32 (-1) == 4294967295), a signed target extends by the source's
// signedness; floats to integers truncate toward zero, and a value outside the
// target's range wraps modulo 2^width (NaN and infinities give 0); integers to floats
// round to nearest; anything to bool is `!= 0`; bool to numbers is 0 or 1.
PrimValue convert_prim(const PrimValue &v, PrimType to);

// Number of scalar arguments of a numeric-module member: 0 for constants (f32.pi,
// i32.highest), 1 or 2 for functions, -1 for the array reductions (i32.sum, ...).
int prim_fn_arity(PrimFn fn);

// A constant member (arity 0) of module `module`: highest, lowest, inf, nan, pi, e,
// num_bits (num_bits is an i32).
PrimValue prim_constant(PrimType module, PrimFn fn);

// Applies a scalar member (arity 1 or 2) to `args` (of the module's type, or of
// `b.from` for ConvertFrom). isnan/isinf return bool; popc/clz/ctz return i32.
PrimValue eval_prim_fn(const PrimBuiltin &b, const PrimValue *args, size_t num_args);

// Integer power x ** y with wrapping (as Futhark: repeated squaring). The operator `**`
// fails for a negative signed exponent (the interpreter checks that before calling);
// i32.pow does not, and here a negative exponent gives 1 / x^-y truncated toward zero
// (x = 0 gives 0) rather than Futhark's C backend's endless loop.
PrimValue int_pow(const PrimValue &x, const PrimValue &y);

} // namespace kerb
