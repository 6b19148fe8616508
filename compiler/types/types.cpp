// Implementation of the front end's Type and Dim (types.h): construction with dim
// merging and sorted record fields, Futhark-syntax printing, row/element access,
// conversion to the runtime's ValueType, and the size-ignoring comparison the
// first-order type checker uses.
#include "compiler/types/types.h"

#include "compiler/source.h"

#include <algorithm>
#include <cctype>

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

bool tuple_field_names(const std::vector<std::string> &names, std::vector<size_t> &order) {
  if (names.size() < 2) return false;
  order.assign(names.size(), names.size());
  for (size_t i = 0; i < names.size(); i++) {
    const std::string &n = names[i];
    if (n.empty() || n.size() > 6 || !std::all_of(n.begin(), n.end(), ::isdigit) ||
        (n.size() > 1 && n[0] == '0'))
      return false;
    size_t k = size_t(std::stoi(n));
    if (k >= names.size() || order[k] != names.size()) return false;
    order[k] = i;
  }
  return true;
}

Type Type::record(std::vector<std::pair<std::string, Type>> fields) {
  std::vector<std::string> names;
  for (const auto &f : fields) names.push_back(f.first);
  std::vector<size_t> order;
  if (tuple_field_names(names, order)) {
    std::vector<Type> elems;
    for (size_t i : order) elems.push_back(fields[i].second);
    return tuple(std::move(elems));
  }
  std::sort(fields.begin(), fields.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  Type t;
  t.kind = Record;
  for (auto &[n, ft] : fields) {
    t.names.push_back(n);
    t.elems.push_back(std::move(ft));
  }
  return t;
}

Type Type::sum(std::vector<std::pair<std::string, std::vector<Type>>> constructors) {
  std::sort(constructors.begin(), constructors.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  Type t;
  t.kind = Sum;
  for (auto &[n, payload] : constructors) {
    t.names.push_back(n);
    t.payloads.push_back(std::move(payload));
  }
  return t;
}

Type Type::function(Type param, Type result, std::string param_name) {
  Type t;
  t.kind = Function;
  t.elems = {std::move(param), std::move(result)};
  t.name = std::move(param_name);
  return t;
}

Type Type::named(std::string name, std::vector<Type> args) {
  Type t;
  t.kind = Named;
  t.name = std::move(name);
  t.elems = std::move(args);
  return t;
}

Type Type::size_arg(Dim d) {
  Type t;
  t.kind = SizeArg;
  t.dims = {std::move(d)};
  return t;
}

int Type::field_index(const std::string &n) const {
  for (size_t i = 0; i < names.size(); i++)
    if (names[i] == n) return int(i);
  return -1;
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
    // A function or sum element needs parentheses: [](i32 -> i32), [](#a | #b).
    if (elems[0].kind == Function || elems[0].kind == Sum) return out + "(" + elems[0].str() + ")";
    return out + elems[0].str();
  case Record: {
    out += "{";
    for (size_t i = 0; i < elems.size(); ++i) {
      if (i > 0) out += ", ";
      out += names[i] + ": " + elems[i].str();
    }
    return out + "}";
  }
  case Sum: {
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out += " | ";
      out += "#" + names[i];
      for (const Type &p : payloads[i]) {
        bool paren = p.kind == Function || p.kind == Sum ||
                     (p.kind == Named && !p.elems.empty());
        out += " " + (paren ? "(" + p.str() + ")" : p.str());
      }
    }
    return out;
  }
  case Function: {
    const Type &param = elems[0];
    std::string p = param.str();
    if (!name.empty()) p = "(" + name + ": " + p + ")";
    else if (param.kind == Function || param.kind == Sum) p = "(" + p + ")";
    return out + p + " -> " + elems[1].str();
  }
  case Named: {
    out += name;
    for (const Type &a : elems) {
      bool paren = a.kind == Function || a.kind == Sum || (a.kind == Named && !a.elems.empty());
      out += " " + (paren ? "(" + a.str() + ")" : a.str());
    }
    return out;
  }
  case SizeArg: return "[" + dims[0].str() + "]";
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
  case TypeVar: case Record: case Sum: case Function: case Named: case SizeArg: break;
  }
  KERB_ASSERT(false, "value_type() of a type that the front end eliminates: " + str());
  return {};
}

bool same_shape_class(const Type &a, const Type &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Type::Prim: return a.prim == b.prim;
  case Type::TypeVar: return a.var == b.var;
  case Type::Named: case Type::SizeArg: return a.str() == b.str();
  case Type::Sum:
    if (a.names != b.names) return false;
    for (size_t i = 0; i < a.payloads.size(); ++i) {
      if (a.payloads[i].size() != b.payloads[i].size()) return false;
      for (size_t j = 0; j < a.payloads[i].size(); ++j)
        if (!same_shape_class(a.payloads[i][j], b.payloads[i][j])) return false;
    }
    return true;
  case Type::Array:
    return a.rank() == b.rank() && same_shape_class(a.elems[0], b.elems[0]);
  case Type::Record: case Type::Function:
    if (a.names != b.names) return false;
    [[fallthrough]];
  case Type::Tuple:
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!same_shape_class(a.elems[i], b.elems[i])) return false;
    return true;
  }
  return false;
}

std::vector<std::string> size_expression_names(const std::string &text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) ||
                                 text[j] == '_' || text[j] == '\''))
        j++;
      out.push_back(text.substr(i, j - i));
      i = j;
    } else if (std::isdigit(c)) {
      while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) i++;
    } else {
      i++;
    }
  }
  return out;
}

bool any_in_type(const Type &t, const std::function<bool(const Type &)> &pred) {
  if (pred(t)) return true;
  for (const Type &e : t.elems)
    if (any_in_type(e, pred)) return true;
  for (const auto &p : t.payloads)
    for (const Type &e : p)
      if (any_in_type(e, pred)) return true;
  return false;
}

bool has_unknown_dim(const Type &t) {
  for (const Dim &d : t.dims)
    if (d.kind == Dim::Unknown) return true;
  for (const Type &e : t.elems)
    if (has_unknown_dim(e)) return true;
  for (const auto &p : t.payloads)
    for (const Type &e : p)
      if (has_unknown_dim(e)) return true;
  return false;
}

bool contains_function(const Type &t) {
  if (t.kind == Type::Function) return true;
  for (const Type &e : t.elems)
    if (contains_function(e)) return true;
  for (const auto &p : t.payloads)
    for (const Type &e : p)
      if (contains_function(e)) return true;
  return false;
}

Type substitute_named(const Type &t, const std::map<std::string, Type> &names) {
  if (t.kind == Type::Named && t.elems.empty()) {
    auto it = names.find(t.name);
    if (it != names.end()) {
      Type r = it->second;
      r.unique = r.unique || t.unique;
      return r;
    }
  }
  Type out = t;
  for (Type &e : out.elems) e = substitute_named(e, names);
  for (auto &p : out.payloads)
    for (Type &e : p) e = substitute_named(e, names);
  if (out.kind == Type::Array && out.elems[0].kind == Type::Array) {
    bool unique = out.unique;
    out = Type::array(out.elems[0], out.dims);
    out.unique = unique;
  }
  return out;
}

Type erase_dims(Type t) {
  for (Dim &d : t.dims) d = Dim::unknown();
  for (Type &e : t.elems) e = erase_dims(std::move(e));
  for (auto &p : t.payloads)
    for (Type &e : p) e = erase_dims(std::move(e));
  return t;
}

} // namespace kerb
