// Names of the built-in functions and the resolution of numeric-module members.
#include "compiler/builtins.h"

#include <array>

namespace kerb {

namespace {

constexpr const char *kArrayBuiltinNames[] = {
#define X(e, s) s,
    KERB_ARRAY_BUILTINS(X)
#undef X
};

constexpr const char *kPrimFnNames[] = {
#define X(e, s) s,
    KERB_PRIM_FNS(X)
#undef X
};

// Whether member `fn` exists in the module of type `t`.
bool member_applies(PrimType t, PrimFn fn) {
  bool flt = is_float(t), integer = is_int(t);
  switch (fn) {
  case PrimFn::ConvertFrom: return true;
  case PrimFn::Highest: case PrimFn::Lowest: case PrimFn::NumBits:
  case PrimFn::Min: case PrimFn::Max: case PrimFn::Pow:
  case PrimFn::Abs: case PrimFn::Sgn: case PrimFn::Neg:
  case PrimFn::Sum: case PrimFn::Product: case PrimFn::Maximum: case PrimFn::Minimum:
    return flt || integer;
  case PrimFn::Popc: case PrimFn::Clz: case PrimFn::Ctz: case PrimFn::Not:
    return integer;
  default: // inf, nan, pi, e, atan2, hypot and the transcendental functions
    return flt;
  }
}

} // namespace

const char *array_builtin_name(ArrayBuiltin b) { return kArrayBuiltinNames[size_t(b)]; }

std::optional<ArrayBuiltin> array_builtin_from_name(const std::string &name) {
  for (size_t i = 0; i < std::size(kArrayBuiltinNames); i++)
    if (name == kArrayBuiltinNames[i]) return ArrayBuiltin(i);
  return std::nullopt;
}

bool builtin_takes_function(ArrayBuiltin b, size_t pos) {
  switch (b) {
  case ArrayBuiltin::Map: case ArrayBuiltin::Map1: case ArrayBuiltin::Map2:
  case ArrayBuiltin::Map3: case ArrayBuiltin::Map4: case ArrayBuiltin::Map5:
  case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm: case ArrayBuiltin::Scan:
  case ArrayBuiltin::Filter: case ArrayBuiltin::Partition: case ArrayBuiltin::All:
  case ArrayBuiltin::Any: case ArrayBuiltin::Foldl: case ArrayBuiltin::Foldr:
  case ArrayBuiltin::Hist:
    return pos == 0;
  case ArrayBuiltin::Tabulate: case ArrayBuiltin::ReduceByIndex:
    return pos == 1;
  default:
    return false;
  }
}

const char *prim_fn_name(PrimFn f) { return kPrimFnNames[size_t(f)]; }

std::optional<PrimBuiltin> prim_builtin_from_name(const std::string &qualified) {
  size_t dot = qualified.find('.');
  if (dot == std::string::npos || qualified.find('.', dot + 1) != std::string::npos)
    return std::nullopt;
  PrimType module;
  if (!prim_from_name(qualified.substr(0, dot), module)) return std::nullopt;
  std::string member = qualified.substr(dot + 1);
  PrimBuiltin b;
  b.module = module;
  PrimType from;
  if (prim_from_name(member, from)) {
    b.fn = PrimFn::ConvertFrom;
    b.from = from;
    return b;
  }
  if (module == PrimType::Bool) return std::nullopt; // bool has conversions only
  for (size_t i = 0; i < std::size(kPrimFnNames); i++) {
    if (member != kPrimFnNames[i] || PrimFn(i) == PrimFn::ConvertFrom) continue;
    if (!member_applies(module, PrimFn(i))) return std::nullopt;
    b.fn = PrimFn(i);
    return b;
  }
  return std::nullopt;
}

} // namespace kerb
