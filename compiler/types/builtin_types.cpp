// The built-ins' types (builtin_types.h), written in Futhark's syntax and parsed once.
#include "compiler/types/builtin_types.h"

#include "compiler/prim_ops.h"
#include "compiler/syntax/parser.h"

#include <map>

namespace kerb {

namespace {

std::vector<const char *> signature_texts(ArrayBuiltin b) {
  switch (b) {
  case ArrayBuiltin::Map: case ArrayBuiltin::Map1: return {"(a -> b) -> []a -> []b"};
  case ArrayBuiltin::Map2: return {"(a -> b -> c) -> []a -> []b -> []c"};
  case ArrayBuiltin::Map3: return {"(a -> b -> c -> d) -> []a -> []b -> []c -> []d"};
  case ArrayBuiltin::Map4:
    return {"(a -> b -> c -> d -> e) -> []a -> []b -> []c -> []d -> []e"};
  case ArrayBuiltin::Map5:
    return {"(a -> b -> c -> d -> e -> f) -> []a -> []b -> []c -> []d -> []e -> []f"};
  case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm:
    return {"(a -> a -> a) -> a -> []a -> a"};
  case ArrayBuiltin::Scan: return {"(a -> a -> a) -> a -> []a -> []a"};
  case ArrayBuiltin::Filter: return {"(a -> bool) -> []a -> []a"};
  case ArrayBuiltin::Partition: return {"(a -> bool) -> []a -> ([]a, []a)"};
  case ArrayBuiltin::Scatter: return {"[]a -> []int -> []a -> []a"};
  case ArrayBuiltin::ReduceByIndex: return {"[]a -> (a -> a -> a) -> a -> []int -> []a -> []a"};
  case ArrayBuiltin::Hist: return {"(a -> a -> a) -> a -> int -> []int -> []a -> []a"};
  case ArrayBuiltin::Iota: return {"int -> []int"};
  case ArrayBuiltin::Replicate: return {"int -> a -> []a"};
  case ArrayBuiltin::Tabulate: return {"int -> (i64 -> a) -> []a"};
  case ArrayBuiltin::Zip: case ArrayBuiltin::Zip2: return {"[]a -> []b -> [](a, b)"};
  case ArrayBuiltin::Zip3: return {"[]a -> []b -> []c -> [](a, b, c)"};
  case ArrayBuiltin::Zip4: return {"[]a -> []b -> []c -> []d -> [](a, b, c, d)"};
  case ArrayBuiltin::Zip5: return {"[]a -> []b -> []c -> []d -> []e -> [](a, b, c, d, e)"};
  case ArrayBuiltin::Unzip: case ArrayBuiltin::Unzip2: return {"[](a, b) -> ([]a, []b)"};
  case ArrayBuiltin::Unzip3: return {"[](a, b, c) -> ([]a, []b, []c)"};
  case ArrayBuiltin::Unzip4: return {"[](a, b, c, d) -> ([]a, []b, []c, []d)"};
  case ArrayBuiltin::Unzip5: return {"[](a, b, c, d, e) -> ([]a, []b, []c, []d, []e)"};
  case ArrayBuiltin::Length: return {"[]a -> i64"};
  case ArrayBuiltin::Flatten: return {"[][]a -> []a"};
  case ArrayBuiltin::Unflatten: return {"[]a -> [][]a", "int -> int -> []a -> [][]a"};
  case ArrayBuiltin::Unflatten3d: return {"[]a -> [][][]a"};
  case ArrayBuiltin::Unflatten4d: return {"[]a -> [][][][]a"};
  case ArrayBuiltin::Transpose: return {"[][]a -> [][]a"};
  case ArrayBuiltin::Concat: return {"[]a -> []a -> []a"};
  case ArrayBuiltin::Reverse: return {"[]a -> []a"};
  case ArrayBuiltin::Rotate: return {"int -> []a -> []a"};
  case ArrayBuiltin::Take: case ArrayBuiltin::Drop: return {"int -> []a -> []a"};
  case ArrayBuiltin::Split: return {"[]a -> ([]a, []a)", "int -> []a -> ([]a, []a)"};
  case ArrayBuiltin::Head: case ArrayBuiltin::Last: return {"[]a -> a"};
  case ArrayBuiltin::Tail: case ArrayBuiltin::Init: return {"[]a -> []a"};
  case ArrayBuiltin::Copy: case ArrayBuiltin::Opaque: return {"a -> a"};
  case ArrayBuiltin::All: case ArrayBuiltin::Any: return {"(a -> bool) -> []a -> bool"};
  case ArrayBuiltin::Sum: case ArrayBuiltin::Product: case ArrayBuiltin::Maximum:
  case ArrayBuiltin::Minimum:
    return {"[]num -> num"};
  case ArrayBuiltin::Foldl: return {"(a -> b -> a) -> a -> []b -> a"};
  case ArrayBuiltin::Foldr: return {"(b -> a -> a) -> a -> []b -> a"};
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
