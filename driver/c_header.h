// The C header of a compiled library (`kerb compile --library`): the array types and
// entry points of one program, on top of <kerb/kerb.h>, and under __cplusplus the
// kerb::Array traits and one C++ function per entry (<kerb/kerb.hpp>).
#pragma once

#include "codegen/library.h"
#include "compiler/ast.h"

#include <string>

namespace kerb::driver {

// `name` is the library's NAME (NAME.h, libNAME.a).
std::string c_header(const std::string &name, const Program &program, const codegen::Library &lib);

} // namespace kerb::driver
