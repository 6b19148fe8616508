// Random arguments for an entry point from its parameter types (see random_inputs.h).
#include "driver/random_inputs.h"

#include "compiler/size_expr.h"
#include "driver/cli.h"
#include "driver/entry_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <random>
#include <set>

namespace kerb::driver {

namespace {

// Note [Random entry inputs]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// The values aim at runs that exercise the program rather than fail at once, without
// knowing what a parameter means:
// - a size that names a top-level constant of the program has the constant's value
//   (a field's number of limbs, a permutation's width: entry points of libraries with
//   modules take arrays of such sizes);
// - every other size variable is opts.size long (or its --size-of value), so that two
//   parameters of one size agree, and so do arrays whose sizes a program equates by a
//   coercion (`xs :> [n]t`) without saying so in its types;
// - integer array elements are uniform in [0, size), clipped to the type's largest
//   value: integers in arrays are often indices into arrays of such a length;
// - integer scalars are uniform in [1, size] (clipped the same way): they are often
//   counts (iterations, a depth, a width), which should be neither zero nor huge; an
//   integer parameter that a type names as a size is that size;
// - floats are uniform in [0, 1), so that square roots and logarithms of them are
//   defined; bools are fair coin flips.
// A program may still fail a check on such values (an index computed from two of
// them, a contract number out of its range): that is its outcome on random data, to
// be recorded, not an error of the generator. The parameters are generated in order
// from one generator seeded by opts.seed.

class Generator {
public:
  explicit Generator(const RandomInputOptions &opts) : opts_(opts), rng_(opts.seed) {
    sizes_ = opts.sizes;
  }

  // The length of dimension `d`: a size variable not seen before (and not given by
  // --size-of) has length opts.size.
  int64_t length(const Dim &d) {
    std::optional<int64_t> n = opts_.size;
    if (d.kind == Dim::Const) n = d.value;
    if (d.kind == Dim::Var)
      n = eval_size_expr(d.name, [this](std::string_view name) -> std::optional<int64_t> {
        auto it = sizes_.find(std::string(name));
        if (it != sizes_.end()) return it->second;
        std::optional<int64_t> c = opts_.constant ? opts_.constant(std::string(name)) : std::nullopt;
        return sizes_[std::string(name)] = c ? *c : opts_.size;
      });
    if (!n) throw InputError(fmt::format("cannot choose a value for the size '{}'", d.name));
    if (*n < 0) throw InputError(fmt::format("the size '{}' would be {}", d.str(), *n));
    return *n;
  }

  // A value of type `t` (a parameter's type, sizes included). `size_name`: the
  // parameter is an integer that names a size.
  Value value(const Type &t, const std::string &size_name = "") {
    switch (t.kind) {
    case Type::Prim:
      if (!size_name.empty())
        return Value(PrimValue::from_int(t.prim, length(Dim::var(size_name))));
      return Value(scalar(t.prim));
    case Type::Tuple: {
      std::vector<Value> elems;
      for (const Type &e : t.elems)
        elems.push_back(value(e));
      return Value::tuple(std::move(elems));
    }
    case Type::Array: {
      std::vector<int64_t> shape;
      for (const Dim &d : t.dims)
        shape.push_back(length(d));
      return array(t.element(), shape);
    }
    default:
      throw InputError(fmt::format("cannot make a value of type {}", t.str()));
    }
  }

  // The names that the parameters' sizes use.
  static void size_names(const Type &t, std::set<std::string> &out) {
    if (t.kind == Type::Array)
      for (const Dim &d : t.dims)
        if (d.kind == Dim::Var) {
          std::string name;
          for (char c : d.name + " ") {
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'') {
              name += c;
            } else {
              if (!name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])))
                out.insert(name);
              name.clear();
            }
          }
        }
    for (const Type &e : t.elems)
      size_names(e, out);
  }

private:
  // The largest value of an integer type, as a size bound.
  static int64_t int_max(PrimType p) {
    switch (p) {
    case PrimType::I8:
      return 127;
    case PrimType::U8:
      return 255;
    case PrimType::I16:
      return 32767;
    case PrimType::U16:
      return 65535;
    case PrimType::I32:
      return 2147483647;
    case PrimType::U32:
      return 4294967295;
    default:
      return std::numeric_limits<int64_t>::max();
    }
  }

  int64_t uniform(int64_t lo, int64_t hi) { // inclusive; lo <= hi
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

  PrimValue scalar(PrimType p) {
    if (p == PrimType::Bool) return PrimValue::boolean(rng_() & 1);
    if (is_signed_int(p) || is_unsigned_int(p))
      return PrimValue::from_int(
          p, uniform(1, std::max<int64_t>(1, std::min(opts_.size, int_max(p)))));
    return PrimValue::floating(p, std::uniform_real_distribution<double>(0, 1)(rng_));
  }

  PrimValue element(PrimType p) {
    if (is_signed_int(p) || is_unsigned_int(p))
      return PrimValue::from_int(
          p, uniform(0, std::max<int64_t>(0, std::min(opts_.size, int_max(p)) - 1)));
    return scalar(p);
  }

  Value array(const Type &elem, const std::vector<int64_t> &shape) {
    if (elem.kind == Type::Tuple) {
      std::vector<Value> components;
      for (const Type &c : elem.elems) {
        std::vector<int64_t> cshape = shape;
        Type ct = c;
        if (c.kind == Type::Array) {
          for (const Dim &d : c.dims)
            cshape.push_back(length(d));
          ct = c.element();
        }
        components.push_back(array(ct, cshape));
      }
      return make_tuple_array(shape, std::move(components));
    }
    if (elem.kind != Type::Prim)
      throw InputError(fmt::format("cannot make an array of {}", elem.str()));
    int64_t count = 1;
    for (int64_t d : shape) {
      if (d != 0 && count > (int64_t(1) << 27) / d) {
        std::string dims;
        for (int64_t e : shape)
          dims += fmt::format("[{}]", e);
        throw InputError(fmt::format("a random {}{} would be too large (more than 2^27 elements)",
                                     dims, prim_name(elem.prim)));
      }
      count *= d;
    }
    if (count == 0) return make_empty_array(ValueType::of_prim(elem.prim), shape);
    std::vector<Bits> data(size_t(count), Bits{0});
    for (Bits &b : data)
      b = element(elem.prim).bits;
    return make_prim_array(elem.prim, shape, std::move(data));
  }

  const RandomInputOptions &opts_;
  std::mt19937_64 rng_;
  std::map<std::string, int64_t> sizes_;
};

} // namespace

std::vector<Value> random_entry_inputs(const FunDef &entry, const RandomInputOptions &opts) {
  std::set<std::string> used;
  for (const Pattern &p : entry.params)
    Generator::size_names(p.type, used);
  for (const std::string &s : entry.size_params)
    used.insert(s);
  for (const auto &[name, n] : opts.sizes)
    if (!used.count(name))
      throw InputError(fmt::format("entry '{}' has no size '{}'", entry.name, name));
  Generator gen(opts);
  std::vector<Value> values;
  for (const Pattern &p : entry.params) {
    bool names_size = p.kind == Pattern::Id && p.type.kind == Type::Prim && used.count(p.name) &&
                      p.type.prim != PrimType::Bool &&
                      (is_signed_int(p.type.prim) || is_unsigned_int(p.type.prim));
    values.push_back(gen.value(p.type, names_size ? p.name : ""));
  }
  return flatten_values(values);
}

} // namespace kerb::driver
