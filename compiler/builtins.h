// The built-in functions of the language (LANGUAGE.md): the prelude's array
// functions (map, reduce, ...) and the numeric modules' functions and constants
// (f32.sqrt, i32.max, f64.pi, i32.f32, ...).
//
// Array functions are listed once in KERB_ARRAY_BUILTINS. Numeric-module members are
// a (module type, PrimFn) pair: `f32.sqrt` is {F32, Sqrt}; a conversion such as
// `i32.f64` (f64 -> i32) is {I32, ConvertFrom} with the source type in `from`.
// Type rules live in type_check.cpp, semantics in interpreter.cpp.
#pragma once

#include "runtime/value.h"

#include <optional>
#include <string>

namespace kerb {

// X(enum name, source name)
#define KERB_ARRAY_BUILTINS(X)                                                 \
  X(Map, "map") X(Map1, "map1") X(Map2, "map2") X(Map3, "map3")                \
  X(Map4, "map4") X(Map5, "map5")                                              \
  X(Reduce, "reduce") X(ReduceComm, "reduce_comm") X(Scan, "scan")             \
  X(Filter, "filter") X(Partition, "partition") X(Scatter, "scatter")          \
  X(ReduceByIndex, "reduce_by_index") X(Hist, "hist")                          \
  X(Iota, "iota") X(Replicate, "replicate") X(Tabulate, "tabulate")            \
  X(Zip, "zip") X(Zip2, "zip2") X(Zip3, "zip3") X(Zip4, "zip4") X(Zip5, "zip5") \
  X(Unzip, "unzip") X(Unzip2, "unzip2") X(Unzip3, "unzip3")                    \
  X(Unzip4, "unzip4") X(Unzip5, "unzip5")                                      \
  X(Length, "length") X(Flatten, "flatten") X(Unflatten, "unflatten")          \
  X(Unflatten3d, "unflatten_3d") X(Unflatten4d, "unflatten_4d")                \
  X(Transpose, "transpose") X(Concat, "concat") X(Reverse, "reverse")          \
  X(Rotate, "rotate") X(Take, "take") X(Drop, "drop") X(Split, "split")        \
  X(Head, "head") X(Last, "last") X(Tail, "tail") X(Init, "init")              \
  X(Copy, "copy") X(All, "all") X(Any, "any") X(Sum, "sum")                    \
  X(Product, "product") X(Maximum, "maximum") X(Minimum, "minimum")            \
  X(Foldl, "foldl") X(Foldr, "foldr") X(Opaque, "opaque")

enum class ArrayBuiltin : uint8_t {
#define X(e, s) e,
  KERB_ARRAY_BUILTINS(X)
#undef X
};
const char *array_builtin_name(ArrayBuiltin b);
std::optional<ArrayBuiltin> array_builtin_from_name(const std::string &name);
// Whether argument `pos` of built-in `b` is a function (map's first, tabulate's second).
bool builtin_takes_function(ArrayBuiltin b, size_t pos);

// Members of the numeric modules (i8 .. u64, f16, f32, f64, and `bool`).
// X(enum name, member name)
#define KERB_PRIM_FNS(X)                                                       \
  /* constants */                                                              \
  X(Highest, "highest") X(Lowest, "lowest") X(Inf, "inf") X(Nan, "nan")        \
  X(Pi, "pi") X(E, "e") X(NumBits, "num_bits")                                 \
  /* binary */                                                                 \
  X(Min, "min") X(Max, "max") X(Pow, "pow") X(Atan2, "atan2")                  \
  X(Hypot, "hypot")                                                            \
  /* unary */                                                                  \
  X(Abs, "abs") X(Sgn, "sgn") X(Neg, "neg") X(Sqrt, "sqrt") X(Cbrt, "cbrt")    \
  X(Exp, "exp") X(Log, "log") X(Log2, "log2") X(Log10, "log10")                \
  X(Sin, "sin") X(Cos, "cos") X(Tan, "tan") X(Asin, "asin") X(Acos, "acos")    \
  X(Atan, "atan") X(Sinh, "sinh") X(Cosh, "cosh") X(Tanh, "tanh")              \
  X(Floor, "floor") X(Ceil, "ceil") X(Round, "round") X(Trunc, "trunc")        \
  X(IsNan, "isnan") X(IsInf, "isinf") X(Popc, "popc") X(Clz, "clz")            \
  X(Ctz, "ctz") X(Not, "not")                                                  \
  /* array reductions: i32.sum, f32.maximum, ... */                            \
  X(Sum, "sum") X(Product, "product") X(Maximum, "maximum")                    \
  X(Minimum, "minimum")                                                        \
  /* conversions: i32.f64 x converts x : f64 to i32 */                          \
  X(ConvertFrom, "<convert>")

enum class PrimFn : uint8_t {
#define X(e, s) e,
  KERB_PRIM_FNS(X)
#undef X
};
const char *prim_fn_name(PrimFn f);

// A resolved numeric-module member, e.g. f32.sqrt or i64.i32.
struct PrimBuiltin {
  PrimType module = PrimType::I32; // the module: the `f32` of f32.sqrt
  PrimFn fn = PrimFn::Abs;
  PrimType from = PrimType::I32;   // ConvertFrom: the source type
};

// Resolves "f32.sqrt", "i32.f64", "f32.bool", "bool.i32", ... Returns nullopt when
// the module or member does not exist (or the member does not apply to the module,
// e.g. i32.sqrt).
std::optional<PrimBuiltin> prim_builtin_from_name(const std::string &qualified);

} // namespace kerb
