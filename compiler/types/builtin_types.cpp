// The built-ins' types (builtin_types.h), written in Futhark's syntax and parsed once.
#include "compiler/types/builtin_types.h"

#include "compiler/prim_ops.h"
#include "compiler/syntax/parser.h"

#include <map>

namespace kerb {

namespace {

// Futhark's sizes: a size named in a parameter is a size parameter of the built-in,
// `[]` in the result an existential (see infer.cpp).
std::vector<const char *> signature_texts(ArrayBuiltin b) {
  switch (b) {
  case ArrayBuiltin::Map: case ArrayBuiltin::Map1: return {"(a -> b) -> [n]a -> [n]b"};
  case ArrayBuiltin::Map2: return {"(a -> b -> c) -> [n]a -> [n]b -> [n]c"};
  case ArrayBuiltin::Map3: return {"(a -> b -> c -> d) -> [n]a -> [n]b -> [n]c -> [n]d"};
  case ArrayBuiltin::Map4:
    return {"(a -> b -> c -> d -> e) -> [n]a -> [n]b -> [n]c -> [n]d -> [n]e"};
  case ArrayBuiltin::Map5:
    return {"(a -> b -> c -> d -> e -> f) -> [n]a -> [n]b -> [n]c -> [n]d -> [n]e -> [n]f"};
  case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm:
    return {"(a -> a -> a) -> a -> [n]a -> a"};
  case ArrayBuiltin::Scan: return {"(a -> a -> a) -> a -> [n]a -> [n]a"};
  case ArrayBuiltin::Filter: return {"(a -> bool) -> [n]a -> []a"};
  case ArrayBuiltin::Partition: return {"(a -> bool) -> [n]a -> ([]a, []a)"};
  case ArrayBuiltin::Scatter: return {"[k]a -> [n]int -> [n]a -> [k]a"};
  case ArrayBuiltin::ReduceByIndex:
    return {"[k]a -> (a -> a -> a) -> a -> [n]int -> [n]a -> [k]a"};
  case ArrayBuiltin::Hist: return {"(a -> a -> a) -> a -> (k: int) -> [n]int -> [n]a -> [k]a"};
  case ArrayBuiltin::Iota: return {"(n: int) -> [n]int"};
  case ArrayBuiltin::Replicate: return {"(n: int) -> a -> [n]a"};
  case ArrayBuiltin::Tabulate: return {"(n: int) -> (i64 -> a) -> [n]a"};
  case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2: return {"[n]a -> [n]b -> [n](a, b)"};
  case ArrayBuiltin::Zip3: return {"[n]a -> [n]b -> [n]c -> [n](a, b, c)"};
  case ArrayBuiltin::Zip4: return {"[n]a -> [n]b -> [n]c -> [n]d -> [n](a, b, c, d)"};
  case ArrayBuiltin::Zip5:
    return {"[n]a -> [n]b -> [n]c -> [n]d -> [n]e -> [n](a, b, c, d, e)"};
  case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: return {"[n](a, b) -> ([n]a, [n]b)"};
  case ArrayBuiltin::Unzip3: return {"[n](a, b, c) -> ([n]a, [n]b, [n]c)"};
  case ArrayBuiltin::Unzip4: return {"[n](a, b, c, d) -> ([n]a, [n]b, [n]c, [n]d)"};
  case ArrayBuiltin::Unzip5:
    return {"[n](a, b, c, d, e) -> ([n]a, [n]b, [n]c, [n]d, [n]e)"};
  case ArrayBuiltin::Length: return {"[n]a -> i64"};
  case ArrayBuiltin::Flatten: return {"[n][m]a -> [n * m]a"};
  case ArrayBuiltin::Unflatten:
    return {"[n * m]a -> [n][m]a", "(n: int) -> (m: int) -> [k]a -> [n][m]a"};
  case ArrayBuiltin::Unflatten3d: return {"[n * m * l]a -> [n][m][l]a"};
  case ArrayBuiltin::Unflatten4d: return {"[n * m * l * k]a -> [n][m][l][k]a"};
  case ArrayBuiltin::Transpose: return {"[n][m]a -> [m][n]a"};
  case ArrayBuiltin::Concat: return {"[n]a -> [m]a -> [n + m]a"};
  case ArrayBuiltin::Reverse: return {"[n]a -> [n]a"};
  case ArrayBuiltin::Rotate: return {"int -> [n]a -> [n]a"};
  case ArrayBuiltin::Take: return {"(i: int) -> [n]a -> [i]a"};
  case ArrayBuiltin::Drop: return {"(i: int) -> [n]a -> [n - i]a"};
  case ArrayBuiltin::Split:
    return {"[n + m]a -> ([n]a, [m]a)", "(i: int) -> [n]a -> ([i]a, [n - i]a)"};
  case ArrayBuiltin::Head: case ArrayBuiltin::Last: return {"[n]a -> a"};
  case ArrayBuiltin::Tail: case ArrayBuiltin::Init: return {"[n]a -> [n - 1]a"};
  case ArrayBuiltin::Copy: case ArrayBuiltin::Opaque: return {"a -> a"};
  case ArrayBuiltin::All: case ArrayBuiltin::Any: return {"(a -> bool) -> [n]a -> bool"};
  case ArrayBuiltin::Sum: case ArrayBuiltin::Product: case ArrayBuiltin::Maximum:
  case ArrayBuiltin::Minimum:
    return {"[n]num -> num"};
  case ArrayBuiltin::Foldl: return {"(a -> b -> a) -> a -> [n]b -> a"};
  case ArrayBuiltin::Foldr: return {"(b -> a -> a) -> a -> [n]b -> a"};
  }
  return {};
}

} // namespace

const std::vector<Type> &array_builtin_signatures(ArrayBuiltin b) {
  // Parsed once, on first use (a function-local static is initialised thread-safely).
  static const std::map<ArrayBuiltin, std::vector<Type>> table = [] {
    std::map<ArrayBuiltin, std::vector<Type>> t;
#define X(e, s)                                                                \
  for (const char *text : signature_texts(ArrayBuiltin::e))                   \
    t[ArrayBuiltin::e].push_back(parse_type_text(text));
    KERB_ARRAY_BUILTINS(X)
#undef X
    return t;
  }();
  return table.at(b);
}

Type prim_builtin_type(const PrimBuiltin &b) {
  Type module = Type::prim_type(b.module);
  if (b.fn == PrimFn::ConvertFrom) return Type::function(Type::prim_type(b.from), module);
  int arity = prim_fn_arity(b.fn);
  if (arity == 0)
    return b.fn == PrimFn::NumBits ? Type::prim_type(PrimType::I32) : module;
  Type result = module;
  if (b.fn == PrimFn::IsNan || b.fn == PrimFn::IsInf) result = Type::prim_type(PrimType::Bool);
  if (b.fn == PrimFn::Popc || b.fn == PrimFn::Clz || b.fn == PrimFn::Ctz)
    result = Type::prim_type(PrimType::I32);
  if (arity < 0) return Type::function(Type::array(module, {Dim::unknown()}), result);
  Type t = result;
  for (int i = 0; i < arity; i++) t = Type::function(module, t);
  return t;
}

} // namespace kerb
