// The manifest of a compiled library: a JSON description of its entry points (names,
// parameters with their source names and types, the flattened slots of each, results),
// which `kerb compile --library --shared` builds into libNAME.so for bindings (the
// Python package, python/kerb/) to read back with kerb_program_manifest(). Its format is
// described in docs/PYTHON.md ("The manifest").
#pragma once

#include "codegen/library.h"
#include "compiler/ast.h"

#include <string>

namespace kerb::driver {

// `name` is the library's NAME; `compile_flags` the check flags it was compiled with.
std::string library_manifest(const std::string &name, const Program &program, const codegen::Library &lib,
                             const std::string &compile_flags);

} // namespace kerb::driver
