// Implementation of the front end's Type and Dim (types.h): construction with dim
// merging, Futhark-syntax printing, row/element access, conversion to the runtime's
// ValueType, and the size-ignoring comparison the type checker uses.
#include "compiler/types/types.h"

#include "compiler/source.h"

namespace kerb {

std::string Dim::str() const {
  switch (kind) {
  case Unknown: return "";
  case Var: return name;
  case Const: return std::to_string(value);
  }
  return "";
}

Type Type::prim_type(PrimType p) {
  Type t;
  t.kind = Prim;
  t.prim = p;
  return t;
}

Type Type::tuple(std::vector<Type> elems) {
  KERB_ASSERT(elems.size() != 1, "a 1-tuple type must not be made");
  Type t;
  t.kind = Tuple;
  t.elems = std::move(elems);
  return t;
}

Type Type::array(Type elem, std::vector<Dim> dims) {
  if (dims.empty()) return elem;
  if (elem.kind == Array) {
    dims.insert(dims.end(), elem.dims.begin(), elem.dims.end());
    Type inner = elem.elems[0];
    elem = std::move(inner);
  }
  Type t;
  t.kind = Array;
  t.elems = {std::move(elem)};
  t.dims = std::move(dims);
  return t;
}

Type Type::type_var(int id) {
  Type t;
  t.kind = TypeVar;
  t.var = id;
  return t;
}

const Type &Type::element() const {
  KERB_ASSERT(kind == Array, "element() of a non-array type");
  return elems[0];
}

Type Type::row() const {
  KERB_ASSERT(kind == Array, "row() of a non-array type");
  if (dims.size() == 1) return elems[0];
  Type t = *this;
  t.dims.erase(t.dims.begin());
  t.unique = false;
  return t;
}

Type Type::with_rank_prefix(std::vector<Dim> outer) const {
  return array(*this, std::move(outer));
}

std::string Type::str() const {
  std::string out = unique ? "*" : "";
  switch (kind) {
  case Prim: return out + prim_name(prim);
  case TypeVar: return out + "t" + std::to_string(var);
  case Tuple: {
    out += "(";
    for (size_t i = 0; i < elems.size(); ++i) {
      if (i > 0) out += ", ";
      out += elems[i].str();
    }
    return out + ")";
  }
  case Array:
    for (const Dim &d : dims) out += "[" + d.str() + "]";
    return out + elems[0].str();
  }
  return out;
}

ValueType Type::value_type() const {
  switch (kind) {
  case Prim: return ValueType::of_prim(prim);
  case Tuple: {
    std::vector<ValueType> components;
    for (const Type &e : elems) components.push_back(e.value_type());
    return ValueType::tuple(std::move(components));
  }
  case Array: {
    ValueType v = elems[0].value_type();
    v.rank = rank();
    return v;
  }
  case TypeVar: break;
  }
  KERB_ASSERT(false, "value_type() of an unresolved type variable");
  return {};
}

bool same_shape_class(const Type &a, const Type &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Type::Prim: return a.prim == b.prim;
  case Type::TypeVar: return a.var == b.var;
  case Type::Array:
    return a.rank() == b.rank() && same_shape_class(a.elems[0], b.elems[0]);
  case Type::Tuple:
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!same_shape_class(a.elems[i], b.elems[i])) return false;
    return true;
  }
  return false;
}

} // namespace kerb
