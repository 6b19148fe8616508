// Futhark's textual value syntax, in and out.
//
//   1i32  -3  0xffu8  2.5f32  1e-3  f32.nan  -f64.inf  true  [1, 2]  [[1,2],[3,4]]
//   empty([0]i32)  empty([2][0]f32)  (1, [2, 3])  (tuples are an extension: Futhark's
//   value files have none, but Kerb accepts and prints them only where asked)
//
// Like Futhark's reader it also accepts `+3`, `_` in numbers, a trailing comma in an
// array, strings ("ab" is the []u8 of its UTF-8 bytes) and values in Futhark's binary
// format ('b', version 2, ...) mixed with text; hexadecimal floats (0x1.8p3) are an
// extension. Unlike Futhark, an integer that does not fit its type is an error (hex and
// binary literals may spell any bit pattern: 0xffi8 is -1), not wrapped.
//
// Reading is guided by an expected type when one is known (an entry point's parameter
// or result): an unsuffixed integer is read as that type (and may be read as a float
// type), an unsuffixed float as that float type. Without one, unsuffixed integers are
// i32 and floats f64, except that the elements of one array agree: a suffix anywhere
// gives the type ([1, 2i64] is []i64), else a float makes them f64 ([1, 2.5]). A suffix
// that disagrees with the expected type, a value that does not fit, an irregular array
// or a rank mismatch is an error with its location.
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
// `empty([0]i32)`. Floats print the shortest digits that read back to the same value,
// always with a '.' or an exponent (1.0f64, 1e+20f32). All on one line (Futhark puts a
// newline between the rows of arrays of rank >= 2). Tuples print as `(1i32, true)` and
// arrays of tuples as `[(1i32, true), ...]`, which Futhark has no syntax for: the
// driver unzips them first (CONVENTIONS.md).
std::string format_value(const Value &v);

// Tolerant comparison for tests: integers and bools exact; floats equal when both are
// NaN, or equal, or |a-b| <= abs_tol + rel_tol * |expected|. Shapes must match. On a
// mismatch returns false and describes the first difference in *why (with its index).
struct Tolerance {
  double rel = 1e-5;
  double abs = 1e-6;
  // Futhark's own rule (`futhark test`, futhark-data's Compare.hs), used when > 0: floats
  // also match when |a-b| <= max(scaled, scaled * m), where m is the largest finite
  // element of the expected array (or the expected scalar). Futhark uses 0.002.
  double scaled = 0;

  static Tolerance futhark() { return Tolerance{0, 0, 0.002}; }
};
bool values_match(const Value &expected, const Value &actual, const Tolerance &tol,
                  std::string *why);

} // namespace kerb
