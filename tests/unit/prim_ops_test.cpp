// Unit tests for compiler/prim_ops: Futhark's scalar semantics. Division and modulo
// rounding for negative operands (/ % toward negative infinity, // %% toward zero),
// wrapping arithmetic, INT_MIN / -1, shifts by any amount, integer powers, conversions
// between primitive types (float -> int of NaN, infinities and out-of-range values),
// min/max with NaN, f16/f32 rounding, and the numeric-module constants.
#include "compiler/prim_ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace kerb;

namespace {

PrimValue i32(int64_t v) { return PrimValue::signed_int(PrimType::I32, v); }
PrimValue i8(int64_t v) { return PrimValue::signed_int(PrimType::I8, v); }
PrimValue i64(int64_t v) { return PrimValue::signed_int(PrimType::I64, v); }
PrimValue u8(uint64_t v) { return PrimValue::unsigned_int(PrimType::U8, v); }
PrimValue u32(uint64_t v) { return PrimValue::unsigned_int(PrimType::U32, v); }
PrimValue f32(double v) { return PrimValue::floating(PrimType::F32, v); }
PrimValue f64(double v) { return PrimValue::floating(PrimType::F64, v); }

int64_t bin(BinOp op, PrimValue a, PrimValue b) { return eval_binop(op, a, b).as_i64(); }

PrimValue fn(PrimType module, PrimFn f, PrimValue a) {
  PrimBuiltin b{module, f, module};
  return eval_prim_fn(b, &a, 1);
}

PrimValue fn2(PrimType module, PrimFn f, PrimValue a, PrimValue c) {
  PrimBuiltin b{module, f, module};
  PrimValue args[2] = {a, c};
  return eval_prim_fn(b, args, 2);
}

} // namespace

TEST_CASE("signed / and % round toward negative infinity", "[prim_ops]") {
  CHECK(bin(BinOp::Div, i32(7), i32(2)) == 3);
  CHECK(bin(BinOp::Div, i32(-7), i32(2)) == -4);
  CHECK(bin(BinOp::Div, i32(7), i32(-2)) == -4);
  CHECK(bin(BinOp::Div, i32(-7), i32(-2)) == 3);
  CHECK(bin(BinOp::Mod, i32(-7), i32(2)) == 1);
  CHECK(bin(BinOp::Mod, i32(7), i32(-2)) == -1);
  CHECK(bin(BinOp::Mod, i32(-7), i32(-2)) == -1);
  CHECK(bin(BinOp::Mod, i32(-6), i32(3)) == 0);
}

TEST_CASE("// and %% round toward zero", "[prim_ops]") {
  CHECK(bin(BinOp::Quot, i32(-7), i32(2)) == -3);
  CHECK(bin(BinOp::Quot, i32(7), i32(-2)) == -3);
  CHECK(bin(BinOp::Rem, i32(-7), i32(2)) == -1);
  CHECK(bin(BinOp::Rem, i32(7), i32(-2)) == 1);
}

TEST_CASE("division of the lowest value by -1 wraps instead of trapping", "[prim_ops]") {
  int64_t min32 = std::numeric_limits<int32_t>::min();
  CHECK(bin(BinOp::Div, i32(min32), i32(-1)) == min32);
  CHECK(bin(BinOp::Quot, i32(min32), i32(-1)) == min32);
  CHECK(bin(BinOp::Mod, i32(min32), i32(-1)) == 0);
  CHECK(bin(BinOp::Rem, i32(min32), i32(-1)) == 0);
  int64_t min64 = std::numeric_limits<int64_t>::min();
  CHECK(bin(BinOp::Div, i64(min64), i64(-1)) == min64);
  CHECK(bin(BinOp::Mod, i64(min64), i64(-1)) == 0);
  CHECK(bin(BinOp::Div, i8(-128), i8(-1)) == -128);
}

TEST_CASE("unsigned division and the division check", "[prim_ops]") {
  CHECK(eval_binop(BinOp::Div, u8(250), u8(7)).bits.u == 35);
  CHECK(eval_binop(BinOp::Mod, u8(250), u8(7)).bits.u == 5);
  CHECK(is_checked_division(BinOp::Div, PrimType::U8));
  CHECK(is_checked_division(BinOp::Rem, PrimType::I64));
  CHECK_FALSE(is_checked_division(BinOp::Div, PrimType::F32));
  CHECK_FALSE(is_checked_division(BinOp::Add, PrimType::I32));
  CHECK(prim_is_zero(i32(0)));
  CHECK_FALSE(prim_is_zero(i32(-1)));
  CHECK(std::isinf(eval_binop(BinOp::Div, f64(1), f64(0)).bits.f64));
}

TEST_CASE("integer arithmetic wraps", "[prim_ops]") {
  CHECK(bin(BinOp::Add, i32(2147483647), i32(1)) == -2147483648LL);
  CHECK(bin(BinOp::Mul, i32(65536), i32(65536)) == 0);
  CHECK(bin(BinOp::Add, i8(127), i8(1)) == -128);
  CHECK(eval_binop(BinOp::Sub, u8(0), u8(1)).bits.u == 255);
  CHECK(bin(BinOp::Mul, i64(std::numeric_limits<int64_t>::max()), i64(2)) == -2);
  CHECK(eval_unop(UnOp::Neg, i32(std::numeric_limits<int32_t>::min())).as_i64() ==
        std::numeric_limits<int32_t>::min());
  CHECK(eval_unop(UnOp::Not, i32(0)).as_i64() == -1);
  CHECK(eval_unop(UnOp::Not, u8(0)).bits.u == 255);
  CHECK(eval_unop(UnOp::Not, PrimValue::boolean(true)).as_bool() == false);
}

TEST_CASE("shifts by any amount are defined", "[prim_ops]") {
  CHECK(bin(BinOp::Shl, i32(1), i32(31)) == std::numeric_limits<int32_t>::min());
  CHECK(bin(BinOp::Shl, i32(1), i32(32)) == 0);
  CHECK(bin(BinOp::Shl, i32(1), i32(100)) == 0);
  CHECK(bin(BinOp::Shr, i32(-8), i32(1)) == -4);
  CHECK(bin(BinOp::Shr, i32(-8), i32(40)) == -1);
  CHECK(bin(BinOp::Shr, i32(8), i32(40)) == 0);
  CHECK(bin(BinOp::UShr, i32(-1), i32(28)) == 15);
  CHECK(bin(BinOp::UShr, i32(-1), i32(32)) == 0);
  CHECK(bin(BinOp::Shl, i8(1), i8(7)) == -128);
  CHECK(eval_binop(BinOp::Shr, u8(128), u8(7)).bits.u == 1);
  CHECK(eval_binop(BinOp::Shl, u32(1), u32(31)).bits.u == 2147483648u);
  CHECK(bin(BinOp::Shl, i64(1), i64(63)) == std::numeric_limits<int64_t>::min());
  // A negative amount shifts the other way (Futhark's interpreter).
  CHECK(bin(BinOp::Shl, i32(8), i32(-1)) == 4);
  CHECK(bin(BinOp::Shr, i32(8), i32(-2)) == 32);
  CHECK(bin(BinOp::UShr, i32(1), i32(-3)) == 8);
}

TEST_CASE("integer powers wrap; negative exponents are defined", "[prim_ops]") {
  CHECK(bin(BinOp::Pow, i32(2), i32(10)) == 1024);
  CHECK(bin(BinOp::Pow, i32(3), i32(0)) == 1);
  CHECK(bin(BinOp::Pow, i32(2), i32(31)) == std::numeric_limits<int32_t>::min());
  CHECK(bin(BinOp::Pow, i32(2), i32(32)) == 0);
  CHECK(bin(BinOp::Pow, i32(-3), i32(3)) == -27);
  CHECK(bin(BinOp::Pow, i32(2), i32(-1)) == 0);
  CHECK(bin(BinOp::Pow, i32(-1), i32(-3)) == -1);
  CHECK(eval_binop(BinOp::Pow, u8(3), u8(5)).bits.u == 243);
  CHECK(eval_binop(BinOp::Pow, f64(2), f64(0.5)).bits.f64 == Approx(std::sqrt(2.0)));
}

TEST_CASE("comparisons respect signedness and NaN", "[prim_ops]") {
  CHECK(eval_binop(BinOp::Lt, i32(-1), i32(0)).as_bool());
  CHECK_FALSE(eval_binop(BinOp::Lt, u32(0xffffffff), u32(0)).as_bool());
  double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(eval_binop(BinOp::Eq, f32(nan), f32(nan)).as_bool());
  CHECK(eval_binop(BinOp::Neq, f32(nan), f32(nan)).as_bool());
  CHECK_FALSE(eval_binop(BinOp::Lt, f64(nan), f64(1)).as_bool());
  CHECK_FALSE(eval_binop(BinOp::Ge, f64(nan), f64(1)).as_bool());
}

TEST_CASE("f32 and f16 arithmetic round to their precision", "[prim_ops]") {
  PrimValue s = eval_binop(BinOp::Add, f32(0.1), f32(0.2));
  CHECK(s.type == PrimType::F32);
  CHECK(s.bits.f32 == 0.1f + 0.2f);
  PrimValue big = eval_binop(BinOp::Add, f32(16777216.0), f32(1.0));
  CHECK(big.bits.f32 == 16777216.0f);
  PrimValue h = PrimValue::floating(PrimType::F16, 2048);
  PrimValue h1 = eval_binop(BinOp::Add, h, PrimValue::floating(PrimType::F16, 1));
  CHECK(h1.as_f64() == 2048.0); // 2049 is not representable in f16
  CHECK(eval_binop(BinOp::Mod, f64(-7), f64(2)).bits.f64 == -1.0);
}

TEST_CASE("conversions between integer types wrap or extend", "[prim_ops]") {
  CHECK(convert_prim(i32(300), PrimType::U8).bits.u == 44);
  CHECK(convert_prim(i32(-1), PrimType::U8).bits.u == 255);
  // An unsigned target zero-extends the source's bits (Futhark's math.fut).
  CHECK(convert_prim(i32(-1), PrimType::U64).bits.u == 4294967295u);
  CHECK(convert_prim(i8(-1), PrimType::U16).bits.u == 255);
  CHECK(convert_prim(i8(-1), PrimType::I64).as_i64() == -1);
  CHECK(convert_prim(u8(255), PrimType::I32).as_i64() == 255);
  CHECK(convert_prim(u8(255), PrimType::I8).as_i64() == -1);
  CHECK(convert_prim(i64(4294967296LL + 5), PrimType::I32).as_i64() == 5);
  CHECK(convert_prim(i32(5), PrimType::Bool).as_bool());
  CHECK_FALSE(convert_prim(i32(0), PrimType::Bool).as_bool());
  CHECK(convert_prim(PrimValue::boolean(true), PrimType::I16).as_i64() == 1);
  CHECK(convert_prim(PrimValue::boolean(true), PrimType::F32).bits.f32 == 1.0f);
}

TEST_CASE("float to int truncates; NaN, inf and out-of-range values are defined", "[prim_ops]") {
  CHECK(convert_prim(f64(-3.7), PrimType::I32).as_i64() == -3);
  CHECK(convert_prim(f64(3.7), PrimType::U8).bits.u == 3);
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  CHECK(convert_prim(f64(nan), PrimType::I32).as_i64() == 0);
  CHECK(convert_prim(f64(inf), PrimType::I64).as_i64() == 0);
  CHECK(convert_prim(f64(-inf), PrimType::U32).bits.u == 0);
  // Out of range: wraps modulo 2^width.
  CHECK(convert_prim(f64(4294967296.0 + 7), PrimType::I32).as_i64() == 7);
  CHECK(convert_prim(f64(-1.0), PrimType::U8).bits.u == 255);
  CHECK(convert_prim(f64(1e30), PrimType::I64).type == PrimType::I64);
  CHECK(convert_prim(f32(nan), PrimType::Bool).as_bool()); // NaN != 0
  CHECK_FALSE(convert_prim(f32(0.0), PrimType::Bool).as_bool());
}

TEST_CASE("int and float to float conversions round once", "[prim_ops]") {
  CHECK(convert_prim(i64(16777217), PrimType::F32).bits.f32 == 16777216.0f);
  CHECK(convert_prim(u32(0xffffffff), PrimType::F64).bits.f64 == 4294967295.0);
  CHECK(convert_prim(f64(0.1), PrimType::F32).bits.f32 == 0.1f);
  CHECK(convert_prim(f32(0.1), PrimType::F64).bits.f64 == double(0.1f));
  CHECK(convert_prim(f64(65520.0), PrimType::F16).as_f64() == std::numeric_limits<double>::infinity());
}

TEST_CASE("min and max ignore NaN like C's fmin/fmax", "[prim_ops]") {
  double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(fn2(PrimType::F32, PrimFn::Min, f32(nan), f32(2)).bits.f32 == 2.0f);
  CHECK(fn2(PrimType::F64, PrimFn::Max, f64(1), f64(nan)).bits.f64 == 1.0);
  CHECK(std::isnan(fn2(PrimType::F64, PrimFn::Max, f64(nan), f64(nan)).bits.f64));
  CHECK(fn2(PrimType::I32, PrimFn::Min, i32(-3), i32(2)).as_i64() == -3);
  CHECK(fn2(PrimType::U8, PrimFn::Max, u8(200), u8(3)).bits.u == 200);
}

TEST_CASE("numeric-module functions", "[prim_ops]") {
  CHECK(fn(PrimType::I32, PrimFn::Abs, i32(-5)).as_i64() == 5);
  CHECK(fn(PrimType::I32, PrimFn::Abs, i32(std::numeric_limits<int32_t>::min())).as_i64() ==
        std::numeric_limits<int32_t>::min());
  CHECK(fn(PrimType::I32, PrimFn::Sgn, i32(-5)).as_i64() == -1);
  CHECK(fn(PrimType::F64, PrimFn::Sqrt, f64(9)).bits.f64 == 3.0);
  CHECK(fn(PrimType::F32, PrimFn::Sqrt, f32(2)).bits.f32 == std::sqrt(2.0f));
  CHECK(fn(PrimType::F64, PrimFn::Round, f64(2.5)).bits.f64 == 2.0);
  CHECK(fn(PrimType::F64, PrimFn::Floor, f64(-2.5)).bits.f64 == -3.0);
  CHECK(fn(PrimType::F32, PrimFn::IsNan, f32(std::nan(""))).as_bool());
  CHECK(fn(PrimType::I32, PrimFn::Popc, i32(-1)).as_i64() == 32);
  CHECK(fn(PrimType::U8, PrimFn::Clz, u8(1)).as_i64() == 7);
  CHECK(fn(PrimType::I16, PrimFn::Ctz, PrimValue::signed_int(PrimType::I16, 0)).as_i64() == 16);
  PrimBuiltin conv{PrimType::I32, PrimFn::ConvertFrom, PrimType::F64};
  PrimValue x = f64(-2.9);
  CHECK(eval_prim_fn(conv, &x, 1).as_i64() == -2);
}

TEST_CASE("numeric-module constants", "[prim_ops]") {
  CHECK(prim_constant(PrimType::I32, PrimFn::Highest).as_i64() == 2147483647);
  CHECK(prim_constant(PrimType::I8, PrimFn::Lowest).as_i64() == -128);
  CHECK(prim_constant(PrimType::U16, PrimFn::Highest).bits.u == 65535);
  CHECK(prim_constant(PrimType::U64, PrimFn::Lowest).bits.u == 0);
  CHECK(std::isinf(prim_constant(PrimType::F32, PrimFn::Highest).bits.f32));
  CHECK(prim_constant(PrimType::F32, PrimFn::Lowest).bits.f32 < 0);
  CHECK(std::isnan(prim_constant(PrimType::F64, PrimFn::Nan).bits.f64));
  CHECK(prim_constant(PrimType::F64, PrimFn::Pi).bits.f64 == Approx(3.14159265358979));
  CHECK(prim_constant(PrimType::I64, PrimFn::NumBits).as_i64() == 64);
  CHECK(prim_fn_arity(PrimFn::Sum) == -1);
  CHECK(prim_fn_arity(PrimFn::Max) == 2);
  CHECK(prim_fn_arity(PrimFn::Pi) == 0);
}
