// Scalar operations in LLVM IR (see scalar_ops.h). Each case follows the matching
// case of compiler/prim_ops.cpp.
#include "codegen/scalar_ops.h"

#include "compiler/prim_ops.h"
#include "compiler/source.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

Type *ScalarOps::reg_type(PrimType t) const {
  LLVMContext &c = m_.getContext();
  switch (t) {
  case PrimType::Bool: return Type::getInt1Ty(c);
  case PrimType::I8: case PrimType::U8: return Type::getInt8Ty(c);
  case PrimType::I16: case PrimType::U16: return Type::getInt16Ty(c);
  case PrimType::I32: case PrimType::U32: return Type::getInt32Ty(c);
  case PrimType::I64: case PrimType::U64: return Type::getInt64Ty(c);
  case PrimType::F16: return Type::getHalfTy(c);
  case PrimType::F32: return Type::getFloatTy(c);
  case PrimType::F64: return Type::getDoubleTy(c);
  }
  return nullptr;
}

Type *ScalarOps::mem_type(PrimType t) const {
  if (t == PrimType::Bool) return Type::getInt8Ty(m_.getContext());
  return reg_type(t);
}

Value *ScalarOps::to_mem(PrimType t, Value *v) {
  if (t == PrimType::Bool) return b_.CreateZExt(v, b_.getInt8Ty());
  return v;
}

Value *ScalarOps::from_mem(PrimType t, Value *v) {
  if (t == PrimType::Bool) return b_.CreateICmpNE(v, b_.getInt8(0));
  return v;
}

Value *ScalarOps::constant(const PrimValue &v) {
  Type *ty = reg_type(v.type);
  switch (v.type) {
  case PrimType::Bool: return b_.getInt1(v.bits.u != 0);
  case PrimType::F16: return ConstantFP::get(ty, double(round_to_f16(v.as_f64())));
  case PrimType::F32: return ConstantFP::get(ty, double(v.bits.f32));
  case PrimType::F64: return ConstantFP::get(ty, v.bits.f64);
  default: return ConstantInt::get(ty, v.bits.u);
  }
}

Value *ScalarOps::intrinsic(Intrinsic::ID id, Type *t, std::vector<Value *> args) {
  Function *f = Intrinsic::getDeclaration(&m_, id, {t});
  return b_.CreateCall(f, args);
}

Value *ScalarOps::math_call(const char *name, PrimType t, std::vector<Value *> args) {
  if (t == PrimType::F16) {
    // As the interpreter (prim_ops.cpp): computed in single precision, then rounded.
    for (Value *&a : args) a = b_.CreateFPExt(a, b_.getFloatTy());
    return b_.CreateFPTrunc(math_call(name, PrimType::F32, std::move(args)), reg_type(t));
  }
  KERB_ASSERT(is_float(t), "math function on a non-float type");
  std::string fn = name;
  bool single = t == PrimType::F32;
  if (lib_ == MathLib::Libdevice) fn = "__nv_" + fn + (single ? "f" : "");
  else if (single) fn += "f";
  Type *ty = reg_type(t);
  std::vector<Type *> params(args.size(), ty);
  FunctionCallee callee = m_.getOrInsertFunction(fn, FunctionType::get(ty, params, false));
  return b_.CreateCall(callee, args);
}

Value *ScalarOps::to_i64(PrimType t, Value *v) {
  if (is_float(t)) return b_.CreateFPToSI(v, b_.getInt64Ty());
  if (is_signed_int(t)) return b_.CreateSExtOrTrunc(v, b_.getInt64Ty());
  return b_.CreateZExtOrTrunc(v, b_.getInt64Ty());
}

Value *ScalarOps::to_slot(PrimType t, Value *v) {
  Type *i64 = b_.getInt64Ty();
  switch (t) {
  case PrimType::F16: return b_.CreateZExt(b_.CreateBitCast(v, b_.getInt16Ty()), i64);
  case PrimType::F32: return b_.CreateZExt(b_.CreateBitCast(v, b_.getInt32Ty()), i64);
  case PrimType::F64: return b_.CreateBitCast(v, i64);
  default: return b_.CreateZExtOrTrunc(v, i64);
  }
}

Value *ScalarOps::from_slot(PrimType t, Value *slot) {
  switch (t) {
  case PrimType::Bool: return b_.CreateICmpNE(slot, b_.getInt64(0));
  case PrimType::F16: return b_.CreateBitCast(b_.CreateTrunc(slot, b_.getInt16Ty()), reg_type(t));
  case PrimType::F32: return b_.CreateBitCast(b_.CreateTrunc(slot, b_.getInt32Ty()), reg_type(t));
  case PrimType::F64: return b_.CreateBitCast(slot, reg_type(t));
  default: return b_.CreateTrunc(slot, reg_type(t));
  }
}

// Integer x ** y by repeated squaring, wrapping; a negative signed exponent gives
// int_pow's result (1 or -1 for |x| = 1, else 0). Emitted as a small function per type.
Value *ScalarOps::int_pow(PrimType t, Value *x, Value *y) {
  std::string name = std::string("kerb_ipow_") + prim_name(t);
  Function *f = m_.getFunction(name);
  if (!f) {
    Type *ty = reg_type(t);
    f = Function::Create(FunctionType::get(ty, {ty, ty}, false), GlobalValue::InternalLinkage,
                         name, m_);
    f->addFnAttr(Attribute::AlwaysInline);
    LLVMContext &c = m_.getContext();
    IRBuilder<> ib(BasicBlock::Create(c, "entry", f));
    Value *base = f->getArg(0), *exp = f->getArg(1);
    BasicBlock *loop = BasicBlock::Create(c, "loop", f);
    BasicBlock *done = BasicBlock::Create(c, "done", f);
    BasicBlock *neg = BasicBlock::Create(c, "negative", f);
    BasicBlock *entry = ib.GetInsertBlock();
    Value *zero = ConstantInt::get(ty, 0), *one = ConstantInt::get(ty, 1);
    if (is_signed_int(t)) ib.CreateCondBr(ib.CreateICmpSLT(exp, zero), neg, loop);
    else ib.CreateBr(loop);
    // Negative exponent: 1 for x = 1, (-1)^y for x = -1, else 0.
    {
      IRBuilder<> nb(neg);
      Value *is_one = nb.CreateICmpEQ(base, one);
      Value *is_minus_one = nb.CreateICmpEQ(base, ConstantInt::get(ty, -1, true));
      Value *odd = nb.CreateICmpNE(nb.CreateAnd(exp, one), zero);
      Value *r = nb.CreateSelect(is_one, one,
                                 nb.CreateSelect(is_minus_one,
                                                 nb.CreateSelect(odd, ConstantInt::get(ty, -1, true), one),
                                                 zero));
      nb.CreateRet(r);
    }
    IRBuilder<> lb(loop);
    PHINode *acc = lb.CreatePHI(ty, 2), *bb = lb.CreatePHI(ty, 2), *rem = lb.CreatePHI(ty, 2);
    acc->addIncoming(one, entry);
    bb->addIncoming(base, entry);
    rem->addIncoming(exp, entry);
    BasicBlock *body = BasicBlock::Create(c, "body", f, done);
    lb.CreateCondBr(lb.CreateICmpEQ(rem, zero), done, body);
    IRBuilder<> bbld(body);
    Value *bit = bbld.CreateICmpNE(bbld.CreateAnd(rem, one), zero);
    Value *acc2 = bbld.CreateSelect(bit, bbld.CreateMul(acc, bb), acc);
    Value *bb2 = bbld.CreateMul(bb, bb);
    Value *rem2 = bbld.CreateLShr(rem, one);
    bbld.CreateBr(loop);
    acc->addIncoming(acc2, body);
    bb->addIncoming(bb2, body);
    rem->addIncoming(rem2, body);
    IRBuilder<> db(done);
    db.CreateRet(acc);
  }
  return b_.CreateCall(f, {x, y});
}

Value *ScalarOps::shift(BinOp op, PrimType t, Value *a, Value *amount) {
  Type *ty = reg_type(t);
  unsigned w = unsigned(prim_bits(t));
  Value *zero = ConstantInt::get(ty, 0);
  bool sgn = is_signed_int(t);
  Value *negative = sgn ? b_.CreateICmpSLT(amount, zero) : b_.getFalse();
  Value *mag = sgn ? b_.CreateSelect(negative, b_.CreateNeg(amount), amount) : amount;
  Value *big = b_.CreateICmpUGE(mag, ConstantInt::get(ty, w));
  Value *safe = b_.CreateSelect(big, zero, mag);
  Value *left = b_.CreateSelect(big, zero, b_.CreateShl(a, safe));
  Value *logical = b_.CreateSelect(big, zero, b_.CreateLShr(a, safe));
  Value *arith = logical;
  if (sgn) {
    Value *fill = b_.CreateSelect(b_.CreateICmpSLT(a, zero), ConstantInt::get(ty, -1, true), zero);
    arith = b_.CreateSelect(big, fill, b_.CreateAShr(a, safe));
  }
  switch (op) {
  case BinOp::Shl: return b_.CreateSelect(negative, arith, left);
  case BinOp::Shr: return b_.CreateSelect(negative, left, arith);
  default: return b_.CreateSelect(negative, left, logical); // UShr
  }
}

Value *ScalarOps::binop(BinOp op, PrimType t, Value *a, Value *b) {
  if (t == PrimType::Bool) {
    switch (op) {
    case BinOp::Eq: return b_.CreateICmpEQ(a, b);
    case BinOp::Neq: return b_.CreateICmpNE(a, b);
    case BinOp::Lt: return b_.CreateICmpULT(a, b);
    case BinOp::Le: return b_.CreateICmpULE(a, b);
    case BinOp::Gt: return b_.CreateICmpUGT(a, b);
    case BinOp::Ge: return b_.CreateICmpUGE(a, b);
    case BinOp::LogAnd: case BinOp::BitAnd: return b_.CreateAnd(a, b);
    case BinOp::LogOr: case BinOp::BitOr: return b_.CreateOr(a, b);
    case BinOp::BitXor: return b_.CreateXor(a, b);
    default: break;
    }
    KERB_ASSERT(false, std::string("bool operator ") + binop_text(op));
  }
  if (is_float(t)) {
    switch (op) {
    case BinOp::Eq: return b_.CreateFCmpOEQ(a, b);
    case BinOp::Neq: return b_.CreateFCmpUNE(a, b);
    case BinOp::Lt: return b_.CreateFCmpOLT(a, b);
    case BinOp::Le: return b_.CreateFCmpOLE(a, b);
    case BinOp::Gt: return b_.CreateFCmpOGT(a, b);
    case BinOp::Ge: return b_.CreateFCmpOGE(a, b);
    case BinOp::Add: return b_.CreateFAdd(a, b);
    case BinOp::Sub: return b_.CreateFSub(a, b);
    case BinOp::Mul: return b_.CreateFMul(a, b);
    case BinOp::Div: return b_.CreateFDiv(a, b);
    case BinOp::Mod: case BinOp::Rem: return math_call("fmod", t, {a, b});
    case BinOp::Quot: return intrinsic(Intrinsic::trunc, a->getType(), {b_.CreateFDiv(a, b)});
    case BinOp::Pow: return math_call("pow", t, {a, b});
    default: break;
    }
    KERB_ASSERT(false, std::string("float operator ") + binop_text(op));
  }
  Type *ty = reg_type(t);
  bool sgn = is_signed_int(t);
  Value *zero = ConstantInt::get(ty, 0);
  switch (op) {
  case BinOp::Add: return b_.CreateAdd(a, b);
  case BinOp::Sub: return b_.CreateSub(a, b);
  case BinOp::Mul: return b_.CreateMul(a, b);
  case BinOp::Pow: return int_pow(t, a, b);
  case BinOp::Eq: return b_.CreateICmpEQ(a, b);
  case BinOp::Neq: return b_.CreateICmpNE(a, b);
  case BinOp::Lt: return sgn ? b_.CreateICmpSLT(a, b) : b_.CreateICmpULT(a, b);
  case BinOp::Le: return sgn ? b_.CreateICmpSLE(a, b) : b_.CreateICmpULE(a, b);
  case BinOp::Gt: return sgn ? b_.CreateICmpSGT(a, b) : b_.CreateICmpUGT(a, b);
  case BinOp::Ge: return sgn ? b_.CreateICmpSGE(a, b) : b_.CreateICmpUGE(a, b);
  case BinOp::BitAnd: case BinOp::LogAnd: return b_.CreateAnd(a, b);
  case BinOp::BitOr: case BinOp::LogOr: return b_.CreateOr(a, b);
  case BinOp::BitXor: return b_.CreateXor(a, b);
  case BinOp::Shl: case BinOp::Shr: case BinOp::UShr: return shift(op, t, a, b);
  case BinOp::Div: case BinOp::Mod: case BinOp::Quot: case BinOp::Rem: {
    Value *one = ConstantInt::get(ty, 1);
    Value *b_zero = b_.CreateICmpEQ(b, zero);
    if (!sgn) {
      Value *safe = b_.CreateSelect(b_zero, one, b);
      bool quotient = op == BinOp::Div || op == BinOp::Quot;
      return quotient ? b_.CreateUDiv(a, safe) : b_.CreateURem(a, safe);
    }
    // x / -1 and x % -1 never trap: -x (wrapping) and 0, as prim_ops.
    Value *minus_one = b_.CreateICmpEQ(b, ConstantInt::get(ty, -1, true));
    Value *safe = b_.CreateSelect(b_.CreateOr(b_zero, minus_one), one, b);
    Value *q = b_.CreateSDiv(a, safe), *r = b_.CreateSRem(a, safe);
    // Floor division and modulo adjust when the remainder's sign differs from b's.
    Value *adjust = b_.CreateAnd(b_.CreateICmpNE(r, zero),
                                 b_.CreateICmpNE(b_.CreateICmpSLT(r, zero), b_.CreateICmpSLT(b, zero)));
    Value *result;
    switch (op) {
    case BinOp::Div: result = b_.CreateSelect(adjust, b_.CreateSub(q, one), q); break;
    case BinOp::Mod: result = b_.CreateSelect(adjust, b_.CreateAdd(r, b), r); break;
    case BinOp::Quot: result = q; break;
    default: result = r; break;
    }
    bool quotient = op == BinOp::Div || op == BinOp::Quot;
    return b_.CreateSelect(minus_one, quotient ? b_.CreateNeg(a) : zero, result);
  }
  default: break;
  }
  KERB_ASSERT(false, std::string("integer operator ") + binop_text(op));
  return nullptr;
}

Value *ScalarOps::unop(UnOp op, PrimType t, Value *a) {
  if (op == UnOp::Not) return b_.CreateNot(a);
  if (t == PrimType::Bool) return a;
  if (is_float(t)) return b_.CreateFNeg(a);
  return b_.CreateNeg(a);
}

// Float -> integer: truncate toward zero, wrap modulo 2^64, then to the target width;
// NaN and infinities give 0 (prim_ops' float_to_int).
Value *ScalarOps::float_to_int(PrimType from, PrimType to, Value *v) {
  Type *f64 = b_.getDoubleTy();
  Value *x = from == PrimType::F64 ? v : b_.CreateFPExt(v, f64);
  Value *finite = b_.CreateFCmpOLT(intrinsic(Intrinsic::fabs, f64, {x}),
                                   ConstantFP::getInfinity(f64));
  Value *t = intrinsic(Intrinsic::trunc, f64, {x});
  Value *m = b_.CreateFRem(t, ConstantFP::get(f64, 18446744073709551616.0));
  Value *negative = b_.CreateFCmpOLT(m, ConstantFP::get(f64, 0.0));
  Value *mag = b_.CreateSelect(negative, b_.CreateFNeg(m), m);
  // Infinities and NaN are replaced before the conversion (fptoui of them is poison).
  mag = b_.CreateSelect(finite, mag, ConstantFP::get(f64, 0.0));
  Value *u = b_.CreateFPToUI(mag, b_.getInt64Ty());
  u = b_.CreateSelect(negative, b_.CreateNeg(u), u);
  u = b_.CreateSelect(finite, u, b_.getInt64(0));
  return b_.CreateTrunc(u, reg_type(to));
}

Value *ScalarOps::convert(PrimType from, PrimType to, Value *v) {
  if (from == to) return v;
  if (to == PrimType::F16 || from == PrimType::F16) {
    if (is_float(from) && is_float(to)) return b_.CreateFPCast(v, reg_type(to));
  }
  if (to == PrimType::Bool) {
    if (is_float(from)) return b_.CreateFCmpUNE(v, ConstantFP::get(v->getType(), 0.0));
    return b_.CreateICmpNE(v, ConstantInt::get(v->getType(), 0));
  }
  if (from == PrimType::Bool)
    return is_float(to) ? b_.CreateUIToFP(v, reg_type(to)) : b_.CreateZExt(v, reg_type(to));
  if (is_float(from)) {
    if (is_int(to)) return float_to_int(from, to, v);
    return b_.CreateFPCast(v, reg_type(to));
  }
  if (is_int(to)) {
    Type *ty = reg_type(to);
    if (is_unsigned_int(to) || !is_signed_int(from)) return b_.CreateZExtOrTrunc(v, ty);
    return b_.CreateSExtOrTrunc(v, ty);
  }
  // Integer -> float.
  if (is_signed_int(from)) return b_.CreateSIToFP(v, reg_type(to));
  return b_.CreateUIToFP(v, reg_type(to));
}

Value *ScalarOps::prim_fn(const PrimBuiltin &f, Value *x, Value *y) {
  PrimType t = f.module;
  Type *ty = reg_type(t);
  bool flt = is_float(t);
  switch (f.fn) {
  case PrimFn::Min:
  case PrimFn::Max: {
    bool mx = f.fn == PrimFn::Max;
    if (flt) return intrinsic(mx ? Intrinsic::maxnum : Intrinsic::minnum, ty, {x, y});
    if (t == PrimType::Bool) return mx ? b_.CreateOr(x, y) : b_.CreateAnd(x, y);
    Value *less = is_signed_int(t) ? b_.CreateICmpSLT(x, y) : b_.CreateICmpULT(x, y);
    return mx ? b_.CreateSelect(less, y, x) : b_.CreateSelect(less, x, y);
  }
  case PrimFn::Pow: return flt ? math_call("pow", t, {x, y}) : int_pow(t, x, y);
  case PrimFn::Atan2: return math_call("atan2", t, {x, y});
  case PrimFn::Hypot: return math_call("hypot", t, {x, y});
  case PrimFn::Neg: return unop(UnOp::Neg, t, x);
  case PrimFn::Not: return unop(UnOp::Not, t, x);
  case PrimFn::Abs:
    if (flt) return intrinsic(Intrinsic::fabs, ty, {x});
    if (is_signed_int(t))
      return b_.CreateSelect(b_.CreateICmpSLT(x, ConstantInt::get(ty, 0)), b_.CreateNeg(x), x);
    return x;
  case PrimFn::Sgn: {
    if (flt) {
      Value *zero = ConstantFP::get(ty, 0.0);
      return b_.CreateSelect(b_.CreateFCmpOGT(x, zero), ConstantFP::get(ty, 1.0),
                             b_.CreateSelect(b_.CreateFCmpOLT(x, zero), ConstantFP::get(ty, -1.0), x));
    }
    if (t == PrimType::Bool) return x;
    Value *zero = ConstantInt::get(ty, 0);
    if (is_signed_int(t))
      return b_.CreateSub(b_.CreateZExt(b_.CreateICmpSGT(x, zero), ty),
                          b_.CreateZExt(b_.CreateICmpSLT(x, zero), ty));
    return b_.CreateZExt(b_.CreateICmpNE(x, zero), ty);
  }
  case PrimFn::IsNan: return b_.CreateFCmpUNO(x, x);
  case PrimFn::IsInf:
    return b_.CreateFCmpOEQ(intrinsic(Intrinsic::fabs, ty, {x}), ConstantFP::getInfinity(ty));
  case PrimFn::Popc:
    return b_.CreateZExtOrTrunc(intrinsic(Intrinsic::ctpop, ty, {x}), b_.getInt32Ty());
  case PrimFn::Clz:
    return b_.CreateZExtOrTrunc(intrinsic(Intrinsic::ctlz, ty, {x, b_.getFalse()}), b_.getInt32Ty());
  case PrimFn::Ctz:
    return b_.CreateZExtOrTrunc(intrinsic(Intrinsic::cttz, ty, {x, b_.getFalse()}), b_.getInt32Ty());
  case PrimFn::Sqrt: return intrinsic(Intrinsic::sqrt, ty, {x});
  case PrimFn::Floor: return intrinsic(Intrinsic::floor, ty, {x});
  case PrimFn::Ceil: return intrinsic(Intrinsic::ceil, ty, {x});
  case PrimFn::Trunc: return intrinsic(Intrinsic::trunc, ty, {x});
  case PrimFn::Round: return intrinsic(Intrinsic::roundeven, ty, {x});
  case PrimFn::Cbrt: return math_call("cbrt", t, {x});
  case PrimFn::Exp: return math_call("exp", t, {x});
  case PrimFn::Log: return math_call("log", t, {x});
  case PrimFn::Log2: return math_call("log2", t, {x});
  case PrimFn::Log10: return math_call("log10", t, {x});
  case PrimFn::Sin: return math_call("sin", t, {x});
  case PrimFn::Cos: return math_call("cos", t, {x});
  case PrimFn::Tan: return math_call("tan", t, {x});
  case PrimFn::Asin: return math_call("asin", t, {x});
  case PrimFn::Acos: return math_call("acos", t, {x});
  case PrimFn::Atan: return math_call("atan", t, {x});
  case PrimFn::Sinh: return math_call("sinh", t, {x});
  case PrimFn::Cosh: return math_call("cosh", t, {x});
  case PrimFn::Tanh: return math_call("tanh", t, {x});
  default: break;
  }
  KERB_ASSERT(false, std::string("prim_fn: unexpected member ") + prim_fn_name(f.fn));
  return nullptr;
}

bool magic_division(BinOp op, PrimType t) {
  switch (t) {
  case PrimType::I32: case PrimType::I64: case PrimType::U32: case PrimType::U64: break;
  default: return false;
  }
  return op == BinOp::Div || op == BinOp::Mod || op == BinOp::Quot || op == BinOp::Rem;
}

// Note [Magic divisors]
// ~~~~~~~~~~~~~~~~~~~~~
// A division by a value that does not change during a kernel (a size known on the host:
// kmeans' `q / d` and `q % d` of a flattened map, the 2-D tiles' split of the block and
// thread index) costs a division per use: LLVM's 32-bit fast path (div.u32: a float
// reciprocal and a dozen instructions) behind a test of both operands, else a call to a
// 64-bit division. With a multiplier m and shift l computed once on the host, x / d is
// mulhi(2x, m) >> l, three instructions, for 0 <= x < 2^31:
// For 1 <= d <= 2^31: m and l with x / d = mulhi(2x, m) >> l for every 0 <= x < 2^31,
// mulhi the high 32 bits of a 32 x 32-bit product (Granlund and Montgomery, "Division
// by invariant integers using multiplication", 1994, Thm. 4.2 with N = 31: l = ceil(log2
// d), m = floor(2^(31+l) / d) + 1, so 2^(31+l) < m * d <= 2^(31+l) + d <= 2^(31+l) + 2^l
// and x / d = (x * m) >> (31 + l) = (2x * m) >> (32 + l); m < 2^32 and 2x < 2^32).
// Checked exhaustively for d <= 4096, x < 70000, and on 2M random and edge pairs up to
// d = 2^31, x = 2^31 - 1 (a C program, 2026-11-23).
// For x >= 0 and d >= 1 floor and truncating division agree, and so do % and %%.
// Kernels get m and l as slots next to every scalar integer they divide by
// (ProgramGen::add_var, FnGen::divisors); m = 0 says d has none (d <= 0 or d > 2^31),
// and a dividend outside [0, 2^31) takes the ordinary division (divide_by_magic).
std::pair<Value *, Value *> ScalarOps::magic_divisor(Value *d) {
  Function *ctlz = Intrinsic::getDeclaration(&m_, Intrinsic::ctlz, {b_.getInt64Ty()});
  Value *lz = b_.CreateCall(ctlz, {b_.CreateSub(d, b_.getInt64(1)), b_.getFalse()});
  // (d > 2^31 only where the launch is refused, the grid being too large, or where
  // magic_divisor_or_none says there is none; l is kept below 32 so that the kernel's
  // 32-bit shift stays defined.)
  Value *l = b_.CreateSub(b_.getInt64(64), lz);
  l = b_.CreateSelect(b_.CreateICmpULT(l, b_.getInt64(32)), l, b_.getInt64(31));
  Value *mul = b_.CreateAdd(b_.CreateUDiv(b_.CreateShl(b_.getInt64(1), b_.CreateAdd(l, b_.getInt64(31))), d),
                            b_.getInt64(1));
  return {mul, l};
}

std::pair<Value *, Value *> ScalarOps::magic_divisor_or_none(Value *d) {
  // 1 <= d <= 2^31, as d - 1 < 2^31 unsigned.
  Value *ok = b_.CreateICmpULT(b_.CreateSub(d, b_.getInt64(1)), b_.getInt64(int64_t(1) << 31));
  auto [m, l] = magic_divisor(b_.CreateSelect(ok, d, b_.getInt64(1)));
  return {b_.CreateSelect(ok, m, b_.getInt64(0)), l};
}

Value *ScalarOps::magic_div(Value *x, Value *m, Value *l, bool in_range) {
  Type *i32 = b_.getInt32Ty();
  Value *x2 = b_.CreateShl(x, b_.getInt32(1), "", /*HasNUW=*/in_range); // 2x < 2^32
  Value *m32 = b_.CreateTrunc(m, i32);
  Value *hi;
  if (lib_ == MathLib::Libdevice) { // a GPU kernel
    hi = b_.CreateCall(Intrinsic::getDeclaration(&m_, Intrinsic::nvvm_mulhi_ui), {x2, m32});
  } else {
    Type *i64 = b_.getInt64Ty();
    Value *p = b_.CreateMul(b_.CreateZExt(x2, i64), b_.CreateZExt(m32, i64), "", /*HasNUW=*/true);
    hi = b_.CreateTrunc(b_.CreateLShr(p, b_.getInt64(32)), i32);
  }
  return b_.CreateLShr(hi, b_.CreateTrunc(l, i32));
}

Value *ScalarOps::divide_by_magic(BinOp op, PrimType t, Value *a, Value *d, Value *m, Value *l) {
  Type *ty = a->getType(), *i32 = b_.getInt32Ty();
  LLVMContext &c = b_.getContext();
  Function *f = b_.GetInsertBlock()->getParent();
  // The magic quotient is computed whatever the operands (a shift by l < 32 is defined),
  // so that `q / d` and `q % d` share it (LLVM's CSE); only the rare other case
  // branches.
  Value *a32 = b_.CreateTrunc(a, i32);
  Value *q = magic_div(a32, m, l, /*in_range=*/false);
  bool quotient = op == BinOp::Div || op == BinOp::Quot;
  Value *fast_r = b_.CreateZExt(quotient ? q : b_.CreateSub(a32, b_.CreateMul(q, b_.CreateTrunc(d, i32))), ty);
  Value *fast = b_.CreateAnd(b_.CreateICmpNE(m, b_.getInt64(0)),
                             b_.CreateICmpULT(a, ConstantInt::get(ty, uint64_t(1) << 31)));
  BasicBlock *from_magic = b_.GetInsertBlock();
  BasicBlock *plain = BasicBlock::Create(c, "div.plain", f);
  BasicBlock *done = BasicBlock::Create(c, "div.done", f);
  b_.CreateCondBr(fast, done, plain);
  b_.SetInsertPoint(plain);
  Value *slow_r = binop(op, t, a, d);
  BasicBlock *from_plain = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  PHINode *r = b_.CreatePHI(ty, 2);
  r->addIncoming(fast_r, from_magic);
  r->addIncoming(slow_r, from_plain);
  return r;
}

} // namespace kerb::codegen
