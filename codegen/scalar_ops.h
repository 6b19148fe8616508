// Scalar operations in LLVM IR with the language's exact semantics (the same as
// compiler/prim_ops.cpp, which the interpreter uses): wrapping integer arithmetic,
// Futhark's floor division and modulo, shifts by any amount, float -> int conversion
// without undefined behaviour, min/max ignoring NaN, and the numeric-module functions.
// Used for host code and kernels alike, so that every executor computes the same bits.
#pragma once

#include "compiler/ast.h"
#include "compiler/builtins.h"
#include "runtime/value.h"

#include <llvm/IR/IRBuilder.h>

namespace kerb::codegen {

// How math functions are called: the C library (CPU) or libdevice (__nv_*, CUDA).
enum class MathLib : uint8_t { Libm, Libdevice };

// Whether `a op d` of type t can divide by d's magic number (ScalarOps::divide_by_magic):
// / % // %% of 32- or 64-bit integers.
bool magic_division(BinOp op, PrimType t);

class ScalarOps {
public:
  ScalarOps(llvm::IRBuilder<> &b, llvm::Module &m, MathLib lib) : b_(b), m_(m), lib_(lib) {}

  // The register type of a primitive (bool is i1).
  llvm::Type *reg_type(PrimType t) const;
  // The memory type of an array element (bool is i8).
  llvm::Type *mem_type(PrimType t) const;
  llvm::Value *to_mem(PrimType t, llvm::Value *v);   // i1 -> i8 for bool
  llvm::Value *from_mem(PrimType t, llvm::Value *v); // i8 -> i1 for bool

  llvm::Value *constant(const PrimValue &v);
  // a op b for operands of type t (division by zero must be checked by the caller;
  // here a zero divisor gives an unspecified value, never undefined behaviour).
  llvm::Value *binop(BinOp op, PrimType t, llvm::Value *a, llvm::Value *b);
  llvm::Value *unop(UnOp op, PrimType t, llvm::Value *a);
  llvm::Value *convert(PrimType from, PrimType to, llvm::Value *v);
  // A numeric-module function of arity 1 or 2 (not ConvertFrom).
  llvm::Value *prim_fn(const PrimBuiltin &f, llvm::Value *x, llvm::Value *y);

  // The i64 value of an integer (sign- or zero-extended by its type); bool as 0/1.
  llvm::Value *to_i64(PrimType t, llvm::Value *v);
  // The 64-bit slot holding v's bits (zero-extended), and back.
  llvm::Value *to_slot(PrimType t, llvm::Value *v);
  llvm::Value *from_slot(PrimType t, llvm::Value *slot);

  // Division by an invariant divisor without a division (Note [Magic divisors] in
  // scalar_ops.cpp). Host code: the multiplier m and shift l (i64) of an i64 divisor
  // 1 <= d <= 2^31.
  std::pair<llvm::Value *, llvm::Value *> magic_divisor(llvm::Value *d);
  // The same for any i64 d: m = 0 (no magic number) when d is not in [1, 2^31].
  std::pair<llvm::Value *, llvm::Value *> magic_divisor_or_none(llvm::Value *d);
  // Kernel code: x / d for an i32 0 <= x < 2^31 by d's m and l (i64 values): on the GPU
  // mul.hi.u32 and a shift. `in_range` false: x may be outside (the result is then
  // discarded), so the IR claims nothing about it (no nuw).
  llvm::Value *magic_div(llvm::Value *x, llvm::Value *m, llvm::Value *l, bool in_range = true);
  // Kernel code: a op d (op one of / % // %%, t an integer type of 32 or 64 bits) where
  // d's m and l came from magic_divisor_or_none: by the magic number when m != 0 and
  // 0 <= a < 2^31 (a branch), else by binop.
  llvm::Value *divide_by_magic(BinOp op, PrimType t, llvm::Value *a, llvm::Value *d, llvm::Value *m,
                               llvm::Value *l);

private:
  llvm::Value *int_pow(PrimType t, llvm::Value *x, llvm::Value *y);
  llvm::Value *shift(BinOp op, PrimType t, llvm::Value *a, llvm::Value *b);
  llvm::Value *float_to_int(PrimType from, PrimType to, llvm::Value *v);
  llvm::Value *math_call(const char *name, PrimType t, std::vector<llvm::Value *> args);
  llvm::Value *intrinsic(llvm::Intrinsic::ID id, llvm::Type *t, std::vector<llvm::Value *> args);

  llvm::IRBuilder<> &b_;
  llvm::Module &m_;
  MathLib lib_;
};

} // namespace kerb::codegen
