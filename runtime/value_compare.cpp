// Tolerant comparison of values (see value_compare.h).
#include "runtime/value_compare.h"

#include "runtime/value_text.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>

namespace kerb {

namespace {

// Maps a float's bits to an integer that orders like the float, with -0 and +0 both 0:
// then the ULP distance is the difference.
int64_t ordered(const PrimValue &v) {
  int64_t bits;
  int64_t sign_bit;
  switch (v.type) {
  case PrimType::F64:
    bits = int64_t(std::bit_cast<uint64_t>(v.bits.f64) & ~(uint64_t(1) << 63));
    sign_bit = std::signbit(v.bits.f64);
    break;
  case PrimType::F16:
    bits = f16_bits_from_double(double(v.bits.f32)) & 0x7fff;
    sign_bit = std::signbit(v.bits.f32);
    break;
  default:
    bits = std::bit_cast<uint32_t>(v.bits.f32) & 0x7fffffffu;
    sign_bit = std::signbit(v.bits.f32);
    break;
  }
  return sign_bit ? -bits : bits;
}

std::string index_text(const std::vector<int64_t> &shape, size_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] == 0 ? 0 : int64_t(flat % size_t(shape[d]));
    flat = shape[d] == 0 ? 0 : flat / size_t(shape[d]);
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); d++) s += fmt::format("{}{}", d ? ", " : "", idx[d]);
  return s + "]";
}

std::string shape_text(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape) s += fmt::format("[{}]", d);
  return s;
}

// Where an element is: the path of tuple components down to it and, in an array, its
// index. Built into text only when a message needs it.
struct Place {
  const std::string &path;               // "component 1" or "" (no trailing separator)
  const std::vector<int64_t> *shape;     // null for a scalar
  size_t flat = 0;

  std::string text() const {
    if (!shape) return path;
    return fmt::format("{}{}at {}", path, path.empty() ? "" : ", ", index_text(*shape, flat));
  }
  std::string prefix() const {
    std::string t = text();
    return t.empty() ? t : t + ": ";
  }
};

class Comparer {
public:
  Comparer(const FloatTolerance &tol, Comparison &out) : tol_(tol), out_(out) {}

  void values(const Value &e, const Value &a, const std::string &path) {
    ValueType et = e.type(), at = a.type();
    Place here{path, nullptr};
    if (et != at)
      return differ(fmt::format("{}a value of type {}, expected {}", here.prefix(), at.str(), et.str()));
    switch (e.kind) {
    case Value::Prim: return prims(e.prim, a.prim, here);
    case Value::Tuple:
      for (size_t i = 0; i < e.elems.size(); i++) values(e.elems[i], a.elems[i], component(path, i));
      return;
    case Value::Array: break;
    }
    const ArrayData &x = *e.array, &y = *a.array;
    if (x.shape != y.shape)
      return differ(fmt::format("{}shape {}, expected {}", here.prefix(), shape_text(y.shape), shape_text(x.shape)));
    if (x.elem.kind == ValueType::Tuple) {
      for (size_t i = 0; i < x.components.size(); i++)
        values(x.components[i], y.components[i], component(path, i));
      return;
    }
    for (size_t k = 0; k < x.data.size(); k++)
      prims(PrimValue{x.elem.prim, x.data[k]}, PrimValue{y.elem.prim, y.data[k]}, Place{path, &x.shape, k});
  }

private:
  static std::string component(const std::string &path, size_t i) {
    return fmt::format("{}{}component {}", path, path.empty() ? "" : ", ", i);
  }

  void differ(std::string why) {
    out_.differences++;
    if (!out_.equal) return;
    out_.equal = false;
    out_.why = std::move(why);
  }

  void prims(const PrimValue &e, const PrimValue &a, const Place &where) {
    if (!is_float(e.type)) {
      if (e == a) return;
      return differ(fmt::format("{}{}, expected {}", where.prefix(), format_value(Value(a)), format_value(Value(e))));
    }
    double x = e.as_f64(), y = a.as_f64();
    if (std::isnan(x) && std::isnan(y)) return;
    double ulps = ulp_distance(e, a);
    double rel = 0;
    if (x != y) {
      double scale = std::max(std::fabs(x), std::fabs(y));
      rel = std::isfinite(scale) ? std::fabs(x - y) / scale : std::numeric_limits<double>::infinity();
    }
    if (std::isfinite(ulps) && ulps > out_.worst_ulps) {
      out_.worst_ulps = ulps;
      out_.worst_where = where.text();
      out_.worst_values = fmt::format("{}, expected {}", format_value(Value(a)), format_value(Value(e)));
    }
    if (std::isfinite(rel)) out_.worst_rel = std::max(out_.worst_rel, rel);
    if (ulps <= tol_.ulps || rel <= tol_.rtol) return;
    differ(fmt::format("{}{}, expected {} ({} ulps, relative difference {:.3g})", where.prefix(),
                       format_value(Value(a)), format_value(Value(e)), ulps, rel));
  }

  const FloatTolerance &tol_;
  Comparison &out_;
};

} // namespace

double ulp_distance(const PrimValue &a, const PrimValue &b) {
  bool na = std::isnan(a.as_f64()), nb = std::isnan(b.as_f64());
  if (na || nb) return na && nb ? 0 : std::numeric_limits<double>::infinity();
  // In integers: an f64's ordered bits need 63 bits, more than a double holds exactly
  // (as doubles, 9.0 and the next f64 were 0 ULPs apart). The true difference is below
  // 2^64, so unsigned arithmetic, which wraps, gets it exactly.
  int64_t x = ordered(a), y = ordered(b);
  uint64_t d = x >= y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
  return double(d);
}

Comparison compare_values(const Value &expected, const Value &actual, const FloatTolerance &tol) {
  Comparison c;
  Comparer(tol, c).values(expected, actual, "");
  return c;
}

} // namespace kerb
