// Scalar semantics of operators, numeric-module functions and conversions (see
// prim_ops.h). Integers are computed on uint64_t and re-normalised to their width with
// PrimValue::unsigned_int, so overflow wraps without undefined behaviour. f32 arithmetic
// is done in float (IEEE single precision); f16 arithmetic in double, then rounded to
// half precision.
#include "compiler/prim_ops.h"

#include "compiler/source.h"

#include <bit>
#include <cmath>
#include <limits>

namespace kerb {

namespace {

PrimValue make_int(PrimType t, uint64_t v) { return PrimValue::unsigned_int(t, v); }

PrimValue make_bool(bool b) { return PrimValue::boolean(b); }

PrimValue make_float(PrimType t, double v) {
  if (t == PrimType::F32) {
    PrimValue p;
    p.type = t;
    p.bits.u = 0;
    p.bits.f32 = float(v);
    return p;
  }
  return PrimValue::floating(t, v);
}

PrimValue make_f32(float v) {
  PrimValue p;
  p.type = PrimType::F32;
  p.bits.u = 0;
  p.bits.f32 = v;
  return p;
}

// Unsigned value of an integer operand restricted to its width.
uint64_t width_mask(PrimType t) {
  int w = prim_bits(t);
  return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
}

// A negative shift amount (signed types only) shifts the other way, as Futhark's
// interpreter does; amounts >= the width shift everything out.
bool negative_amount(const PrimValue &b) { return is_signed_int(b.type) && b.bits.i < 0; }

uint64_t shift_amount(const PrimValue &b) {
  if (negative_amount(b)) return uint64_t(0) - b.bits.u;
  return b.bits.u & width_mask(b.type);
}

PrimValue shift_left(const PrimValue &a, uint64_t n) {
  if (n >= uint64_t(prim_bits(a.type))) return make_int(a.type, 0);
  return make_int(a.type, a.bits.u << n);
}

PrimValue shift_right_arith(const PrimValue &a, uint64_t n) {
  int w = prim_bits(a.type);
  if (!is_signed_int(a.type)) { // >> on unsigned types is logical
    if (n >= uint64_t(w)) return make_int(a.type, 0);
    return make_int(a.type, (a.bits.u & width_mask(a.type)) >> n);
  }
  if (n >= uint64_t(w)) return make_int(a.type, a.bits.i < 0 ? ~uint64_t(0) : 0);
  // a.bits.i is sign-extended, so an arithmetic shift of the 64-bit value is right.
  // (Right shift of a negative int64_t is arithmetic in C++20.)
  return make_int(a.type, uint64_t(a.bits.i >> n));
}

PrimValue shift_right_logical(const PrimValue &a, uint64_t n) {
  if (n >= uint64_t(prim_bits(a.type))) return make_int(a.type, 0);
  return make_int(a.type, (a.bits.u & width_mask(a.type)) >> n);
}

PrimValue int_binop(BinOp op, const PrimValue &a, const PrimValue &b) {
  PrimType t = a.type;
  bool sgn = is_signed_int(t);
  uint64_t x = a.bits.u, y = b.bits.u;
  int64_t sx = a.bits.i, sy = b.bits.i;
  switch (op) {
  case BinOp::Add: return make_int(t, x + y);
  case BinOp::Sub: return make_int(t, x - y);
  case BinOp::Mul: return make_int(t, x * y);
  case BinOp::Pow: return int_pow(a, b);
  case BinOp::Div:
    if (!sgn) return make_int(t, x / y);
    if (sy == -1) return make_int(t, uint64_t(0) - x);
    {
      int64_t q = sx / sy, r = sx % sy;
      if (r != 0 && ((r < 0) != (sy < 0))) q -= 1;
      return make_int(t, uint64_t(q));
    }
  case BinOp::Mod:
    if (!sgn) return make_int(t, x % y);
    if (sy == -1) return make_int(t, 0);
    {
      int64_t r = sx % sy;
      if (r != 0 && ((r < 0) != (sy < 0))) r += sy;
      return make_int(t, uint64_t(r));
    }
  case BinOp::Quot:
    if (!sgn) return make_int(t, x / y);
    if (sy == -1) return make_int(t, uint64_t(0) - x);
    return make_int(t, uint64_t(sx / sy));
  case BinOp::Rem:
    if (!sgn) return make_int(t, x % y);
    if (sy == -1) return make_int(t, 0);
    return make_int(t, uint64_t(sx % sy));
  case BinOp::Eq: return make_bool(x == y);
  case BinOp::Neq: return make_bool(x != y);
  case BinOp::Lt: return make_bool(sgn ? sx < sy : x < y);
  case BinOp::Le: return make_bool(sgn ? sx <= sy : x <= y);
  case BinOp::Gt: return make_bool(sgn ? sx > sy : x > y);
  case BinOp::Ge: return make_bool(sgn ? sx >= sy : x >= y);
  case BinOp::BitAnd: return make_int(t, x & y);
  case BinOp::BitOr: return make_int(t, x | y);
  case BinOp::BitXor: return make_int(t, x ^ y);
  case BinOp::Shl:
    if (negative_amount(b)) return shift_right_arith(a, shift_amount(b));
    return shift_left(a, shift_amount(b));
  case BinOp::Shr:
    if (negative_amount(b)) return shift_left(a, shift_amount(b));
    return shift_right_arith(a, shift_amount(b));
  case BinOp::UShr:
    if (negative_amount(b)) return shift_left(a, shift_amount(b));
    return shift_right_logical(a, shift_amount(b));
  case BinOp::LogAnd: return make_int(t, (x != 0 && y != 0) ? 1 : 0);
  case BinOp::LogOr: return make_int(t, (x != 0 || y != 0) ? 1 : 0);
  case BinOp::Concat: break;
  }
  KERB_ASSERT(false, std::string("integer operator ") + binop_text(op) + " has no scalar meaning");
  return a;
}

// Floating-point operators on values widened to double (exact for f16 and f32), with
// the result rounded to the operands' type. f32 uses float arithmetic so that results
// match single-precision hardware exactly.
PrimValue float_binop(BinOp op, const PrimValue &a, const PrimValue &b) {
  PrimType t = a.type;
  double x = a.as_f64(), y = b.as_f64();
  switch (op) {
  case BinOp::Eq: return make_bool(x == y);
  case BinOp::Neq: return make_bool(!(x == y));
  case BinOp::Lt: return make_bool(x < y);
  case BinOp::Le: return make_bool(x <= y);
  case BinOp::Gt: return make_bool(x > y);
  case BinOp::Ge: return make_bool(x >= y);
  default: break;
  }
  if (t == PrimType::F32) {
    float fx = a.bits.f32, fy = b.bits.f32;
    switch (op) {
    case BinOp::Add: return make_f32(fx + fy);
    case BinOp::Sub: return make_f32(fx - fy);
    case BinOp::Mul: return make_f32(fx * fy);
    case BinOp::Div: return make_f32(fx / fy);
    case BinOp::Mod: return make_f32(std::fmod(fx, fy));
    case BinOp::Quot: return make_f32(std::trunc(fx / fy));
    case BinOp::Rem: return make_f32(std::fmod(fx, fy));
    case BinOp::Pow: return make_f32(std::pow(fx, fy));
    default: break;
    }
  } else {
    switch (op) {
    case BinOp::Add: return make_float(t, x + y);
    case BinOp::Sub: return make_float(t, x - y);
    case BinOp::Mul: return make_float(t, x * y);
    case BinOp::Div: return make_float(t, x / y);
    case BinOp::Mod: return make_float(t, std::fmod(x, y));
    case BinOp::Quot: return make_float(t, std::trunc(x / y));
    case BinOp::Rem: return make_float(t, std::fmod(x, y));
    case BinOp::Pow: return make_float(t, std::pow(x, y));
    default: break;
    }
  }
  KERB_ASSERT(false, std::string("float operator ") + binop_text(op) + " has no scalar meaning");
  return a;
}

PrimValue bool_binop(BinOp op, const PrimValue &a, const PrimValue &b) {
  bool x = a.bits.u != 0, y = b.bits.u != 0;
  switch (op) {
  case BinOp::Eq: return make_bool(x == y);
  case BinOp::Neq: return make_bool(x != y);
  case BinOp::Lt: return make_bool(!x && y);
  case BinOp::Le: return make_bool(!x || y);
  case BinOp::Gt: return make_bool(x && !y);
  case BinOp::Ge: return make_bool(x || !y);
  case BinOp::LogAnd:
  case BinOp::BitAnd: return make_bool(x && y);
  case BinOp::LogOr:
  case BinOp::BitOr: return make_bool(x || y);
  case BinOp::BitXor: return make_bool(x != y);
  default: break;
  }
  KERB_ASSERT(false, std::string("bool operator ") + binop_text(op) + " has no scalar meaning");
  return a;
}

// Float -> integer: truncate, then wrap modulo 2^64 (and then to the target width).
// Non-finite values give 0.
PrimValue float_to_int(double v, PrimType to) {
  if (!std::isfinite(v)) return make_int(to, 0);
  double t = std::trunc(v);
  double m = std::fmod(t, 18446744073709551616.0); // exact; |m| < 2^64
  uint64_t u = m < 0 ? uint64_t(0) - uint64_t(-m) : uint64_t(m);
  return make_int(to, u);
}

double float_arg(const PrimValue &v) { return v.as_f64(); }

// Applies a unary real function in the precision of type t.
template <typename F32Fn, typename F64Fn>
PrimValue float_unary(PrimType t, double x, F32Fn f32fn, F64Fn f64fn) {
  if (t == PrimType::F64) return make_float(t, f64fn(x));
  if (t == PrimType::F32) return make_f32(f32fn(float(x)));
  return make_float(t, double(f32fn(float(x))));
}

int count_leading_zeros(const PrimValue &v) {
  int w = prim_bits(v.type);
  uint64_t u = v.bits.u & width_mask(v.type);
  return std::countl_zero(u) - (64 - w);
}

int count_trailing_zeros(const PrimValue &v) {
  int w = prim_bits(v.type);
  uint64_t u = v.bits.u & width_mask(v.type);
  if (u == 0) return w;
  return std::countr_zero(u);
}

PrimValue min_max(bool is_max, const PrimValue &a, const PrimValue &b) {
  PrimType t = a.type;
  if (is_float(t)) {
    double x = a.as_f64(), y = b.as_f64();
    double r = is_max ? std::fmax(x, y) : std::fmin(x, y);
    return make_float(t, r);
  }
  if (t == PrimType::Bool) {
    bool x = a.as_bool(), y = b.as_bool();
    return make_bool(is_max ? (x || y) : (x && y));
  }
  bool a_less = is_signed_int(t) ? a.bits.i < b.bits.i : a.bits.u < b.bits.u;
  if (is_max) return a_less ? b : a;
  return a_less ? a : b;
}

} // namespace

bool is_checked_division(BinOp op, PrimType t) {
  if (!is_int(t)) return false;
  return op == BinOp::Div || op == BinOp::Mod || op == BinOp::Quot || op == BinOp::Rem;
}

bool can_produce_nan(BinOp op, PrimType t) {
  if (!is_float(t)) return false;
  switch (op) {
  case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::Mod:
  case BinOp::Quot: case BinOp::Rem: case BinOp::Pow:
    return true;
  default: return false;
  }
}

bool can_produce_nan(const PrimBuiltin &fn) {
  if (!is_float(fn.module)) return false;
  switch (fn.fn) {
  case PrimFn::Sqrt: case PrimFn::Log: case PrimFn::Log2: case PrimFn::Log10:
  case PrimFn::Sin: case PrimFn::Cos: case PrimFn::Tan: case PrimFn::Asin: case PrimFn::Acos:
  case PrimFn::Pow:
    return true;
  default: return false;
  }
}

std::string nan_op_name(BinOp op) { return binop_text(op); }

std::string nan_op_name(const PrimBuiltin &fn) {
  return std::string(prim_name(fn.module)) + "." + prim_fn_name(fn.fn);
}

bool produced_nan(const PrimValue &r, const PrimValue *args, size_t num_args) {
  if (!is_float(r.type) || !std::isnan(r.as_f64())) return false;
  for (size_t i = 0; i < num_args; i++)
    if (is_float(args[i].type) && std::isnan(args[i].as_f64())) return false;
  return true;
}

bool prim_is_zero(const PrimValue &b) {
  if (is_float(b.type)) return b.as_f64() == 0.0;
  return (b.bits.u & width_mask(b.type)) == 0 || (b.type == PrimType::Bool && b.bits.u == 0);
}

PrimValue int_pow(const PrimValue &x, const PrimValue &y) {
  PrimType t = x.type;
  if (is_signed_int(t) && y.bits.i < 0) {
    // x ** -k: only |x| = 1 gives a non-zero integer result.
    if (x.bits.i == 1) return make_int(t, 1);
    if (x.bits.i == -1) return make_int(t, (y.bits.u & 1) ? ~uint64_t(0) : 1);
    return make_int(t, 0);
  }
  uint64_t base = x.bits.u, result = 1, rem = y.bits.u & width_mask(t);
  while (rem != 0) {
    if (rem & 1) result *= base;
    rem >>= 1;
    base *= base;
  }
  return make_int(t, result);
}

PrimValue eval_binop(BinOp op, const PrimValue &a, const PrimValue &b) {
  if (a.type == PrimType::Bool) return bool_binop(op, a, b);
  if (is_float(a.type)) return float_binop(op, a, b);
  return int_binop(op, a, b);
}

PrimValue eval_unop(UnOp op, const PrimValue &a) {
  PrimType t = a.type;
  if (op == UnOp::Not) {
    if (t == PrimType::Bool) return make_bool(a.bits.u == 0);
    KERB_ASSERT(is_int(t), "bitwise ! on a float");
    return make_int(t, ~a.bits.u);
  }
  if (t == PrimType::F32) return make_f32(-a.bits.f32);
  if (is_float(t)) return make_float(t, -a.as_f64());
  if (t == PrimType::Bool) return a;
  return make_int(t, uint64_t(0) - a.bits.u);
}

PrimValue convert_prim(const PrimValue &v, PrimType to) {
  PrimType from = v.type;
  if (to == PrimType::Bool) {
    if (is_float(from)) return make_bool(v.as_f64() != 0.0);
    return make_bool((v.bits.u & width_mask(from)) != 0);
  }
  if (from == PrimType::Bool) return is_float(to) ? make_float(to, v.bits.u ? 1.0 : 0.0)
                                                  : make_int(to, v.bits.u ? 1 : 0);
  if (is_float(from)) {
    if (is_int(to)) return float_to_int(v.as_f64(), to);
    if (to == PrimType::F32 && from == PrimType::F64) return make_f32(float(v.bits.f64));
    return make_float(to, v.as_f64());
  }
  // From an integer: an unsigned target zero-extends the source's bits, a signed
  // target extends by the source's signedness (Futhark's math.fut: u64.i32 (-1) is
  // 4294967295, i64.i8 (-1) is -1, i32.u8 255 is 255).
  if (is_unsigned_int(to)) return make_int(to, v.bits.u & width_mask(from));
  if (is_int(to)) return make_int(to, v.bits.u);
  if (is_signed_int(from)) {
    if (to == PrimType::F32) return make_f32(float(v.bits.i));
    if (to == PrimType::F64) return make_float(to, double(v.bits.i));
    return make_float(to, double(v.bits.i));
  }
  if (to == PrimType::F32) return make_f32(float(v.bits.u));
  return make_float(to, double(v.bits.u));
}

int prim_fn_arity(PrimFn fn) {
  switch (fn) {
  case PrimFn::Highest: case PrimFn::Lowest: case PrimFn::Inf: case PrimFn::Nan:
  case PrimFn::Pi: case PrimFn::E: case PrimFn::NumBits:
    return 0;
  case PrimFn::Min: case PrimFn::Max: case PrimFn::Pow: case PrimFn::Atan2:
  case PrimFn::Hypot:
    return 2;
  case PrimFn::Sum: case PrimFn::Product: case PrimFn::Maximum: case PrimFn::Minimum:
    return -1;
  default:
    return 1;
  }
}

PrimValue prim_constant(PrimType t, PrimFn fn) {
  double inf = std::numeric_limits<double>::infinity();
  switch (fn) {
  case PrimFn::NumBits: return make_int(PrimType::I32, uint64_t(prim_bits(t)));
  case PrimFn::Inf: return make_float(t, inf);
  case PrimFn::Nan: return make_float(t, std::numeric_limits<double>::quiet_NaN());
  case PrimFn::Pi: return make_float(t, 3.14159265358979323846);
  case PrimFn::E: return make_float(t, 2.71828182845904523536);
  case PrimFn::Highest:
  case PrimFn::Lowest: {
    bool high = fn == PrimFn::Highest;
    if (t == PrimType::Bool) return make_bool(high);
    if (is_float(t)) return make_float(t, high ? inf : -inf);
    int w = prim_bits(t);
    if (is_unsigned_int(t)) return make_int(t, high ? width_mask(t) : 0);
    uint64_t max = (uint64_t(1) << (w - 1)) - 1;
    return make_int(t, high ? max : ~max);
  }
  default: break;
  }
  KERB_ASSERT(false, std::string("prim_constant: ") + prim_fn_name(fn) + " is not a constant");
  return {};
}

PrimValue eval_prim_fn(const PrimBuiltin &b, const PrimValue *args, size_t num_args) {
  PrimType t = b.module;
  KERB_ASSERT(num_args >= 1, "a numeric-module function needs an argument");
  const PrimValue &x = args[0];
  if (prim_fn_arity(b.fn) == 2) {
    KERB_ASSERT(num_args == 2, "a binary numeric-module function needs two arguments");
    const PrimValue &y = args[1];
    switch (b.fn) {
    case PrimFn::Min: return min_max(false, x, y);
    case PrimFn::Max: return min_max(true, x, y);
    case PrimFn::Pow:
      if (is_int(t)) return int_pow(x, y);
      return eval_binop(BinOp::Pow, x, y);
    case PrimFn::Atan2:
      if (t == PrimType::F32) return make_f32(std::atan2(x.bits.f32, y.bits.f32));
      return make_float(t, std::atan2(x.as_f64(), y.as_f64()));
    case PrimFn::Hypot:
      if (t == PrimType::F32) return make_f32(std::hypot(x.bits.f32, y.bits.f32));
      return make_float(t, std::hypot(x.as_f64(), y.as_f64()));
    default: break;
    }
  }
  double d = float_arg(x);
  switch (b.fn) {
  case PrimFn::ConvertFrom: return convert_prim(x, t);
  case PrimFn::Neg: return eval_unop(UnOp::Neg, x);
  case PrimFn::Not: return eval_unop(UnOp::Not, x);
  case PrimFn::Abs:
    if (is_float(t)) return t == PrimType::F32 ? make_f32(std::fabs(x.bits.f32))
                                               : make_float(t, std::fabs(d));
    if (is_signed_int(t) && x.bits.i < 0) return eval_unop(UnOp::Neg, x);
    return x;
  case PrimFn::Sgn:
    if (is_float(t)) return make_float(t, d > 0 ? 1.0 : d < 0 ? -1.0 : d);
    if (t == PrimType::Bool) return x;
    if (is_signed_int(t)) return make_int(t, x.bits.i > 0 ? 1 : x.bits.i < 0 ? ~uint64_t(0) : 0);
    return make_int(t, x.bits.u != 0 ? 1 : 0);
  case PrimFn::IsNan: return make_bool(std::isnan(d));
  case PrimFn::IsInf: return make_bool(std::isinf(d));
  case PrimFn::Popc:
    return make_int(PrimType::I32, uint64_t(std::popcount(x.bits.u & width_mask(t))));
  case PrimFn::Clz: return make_int(PrimType::I32, uint64_t(count_leading_zeros(x)));
  case PrimFn::Ctz: return make_int(PrimType::I32, uint64_t(count_trailing_zeros(x)));
  default: break;
  }
  KERB_ASSERT(is_float(t), std::string("numeric function ") + prim_fn_name(b.fn) +
                               " applied in a non-float module");
  switch (b.fn) {
#define KERB_FLOAT_FN(E, F)                                                      \
  case PrimFn::E:                                                                \
    return float_unary(t, d, [](float v) { return std::F(v); },                   \
                       [](double v) { return std::F(v); });
    KERB_FLOAT_FN(Sqrt, sqrt)
    KERB_FLOAT_FN(Cbrt, cbrt)
    KERB_FLOAT_FN(Exp, exp)
    KERB_FLOAT_FN(Log, log)
    KERB_FLOAT_FN(Log2, log2)
    KERB_FLOAT_FN(Log10, log10)
    KERB_FLOAT_FN(Sin, sin)
    KERB_FLOAT_FN(Cos, cos)
    KERB_FLOAT_FN(Tan, tan)
    KERB_FLOAT_FN(Asin, asin)
    KERB_FLOAT_FN(Acos, acos)
    KERB_FLOAT_FN(Atan, atan)
    KERB_FLOAT_FN(Sinh, sinh)
    KERB_FLOAT_FN(Cosh, cosh)
    KERB_FLOAT_FN(Tanh, tanh)
    KERB_FLOAT_FN(Floor, floor)
    KERB_FLOAT_FN(Ceil, ceil)
    KERB_FLOAT_FN(Round, nearbyint)
    KERB_FLOAT_FN(Trunc, trunc)
#undef KERB_FLOAT_FN
  default: break;
  }
  KERB_ASSERT(false, std::string("eval_prim_fn: unhandled member ") + prim_fn_name(b.fn));
  return x;
}

} // namespace kerb
