// Futhark's textual value syntax, in and out.
//
//   1i32  -3  0xffu8  2.5f32  1e-3  f32.nan  -f64.inf  true  [1, 2]  [[1,2],[3,4]]
//   empty([0]i32)  empty([2][0]f32)  (1, [2, 3])  (tuples are an extension: Futhark's
//   value files have none, but Kerb accepts and prints them only where asked)
//
// Reading is guided by an expected type when one is known (an entry point's parameter
// or result): an unsuffixed integer is read as that type (and may be read as a float
// type), an unsuffixed float as that float type. Without one, unsuffixed integers are
// i32 and floats f64. A suffix that disagrees with the expected type, a value that does
// not fit, an irregular array or a rank mismatch is an error with its location.
#pragma once

#include "runtime/value.h"

#include <stdexcept>
#include <string>

namespace kerb {

// A malformed value; what() is "NAME:LINE:COL: message" (NAME is the file or "stdin").
class ValueError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class ValueReader {
public:
  ValueReader(std::string text, std::string source_name);
  // Skips whitespace and `--` comments; true when nothing but those is left.
  bool at_end();
  // Reads the next value. `expected` may be null.
  Value read(const ValueType *expected);

private:
  std::string text_, name_;
  size_t pos_ = 0;
  // helpers in value_text.cpp
  friend struct ValueParser;
};

// Formats a value the way `futhark run` prints it: suffixed scalars (1i32, 2.5f32,
// true), `f32.nan`, `f32.inf`, `-f32.inf`, arrays `[1i32, 2i32]`, empty arrays
// `empty([0]i32)`. Floats print with enough digits to round-trip.
std::string format_value(const Value &v);

// Tolerant comparison for tests: integers and bools exact; floats equal when both are
// NaN, or equal, or |a-b| <= abs_tol + rel_tol * |expected|. Shapes must match. On a
// mismatch returns false and describes the first difference in *why (with its index).
struct Tolerance {
  double rel = 1e-5;
  double abs = 1e-6;
};
bool values_match(const Value &expected, const Value &actual, const Tolerance &tol,
                  std::string *why);

} // namespace kerb
