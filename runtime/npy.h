// NumPy .npy files (format versions 1.0-3.0), in and out. Supported dtypes: b1, i1..i8,
// u1..u8, f2, f4, f8, little- or big-endian, C or Fortran order (Fortran-order data is
// reordered to row-major on reading; writing is always C order, little-endian, version
// 1.0, or 2.0 when the header needs it). A 0-d .npy is a scalar.
#pragma once

#include "runtime/value.h"

#include <stdexcept>
#include <string>

namespace kerb {

class NpyError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// `name` is used in error messages. Throws NpyError on malformed or unsupported input.
Value read_npy(const std::string &bytes, const std::string &name);
Value read_npy_file(const std::string &path);
// Arrays of primitives and scalars only (NpyError otherwise).
std::string write_npy(const Value &v);
void write_npy_file(const Value &v, const std::string &path);

} // namespace kerb
