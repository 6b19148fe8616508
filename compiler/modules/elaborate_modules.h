// Eliminates the module language (compiler/modules/module_ast.h) before type checking:
// reads the imported files, instantiates parametric modules and flattens every module
// into top-level definitions and types with qualified names (`M.f`, `M.N.t`), resolving
// each name to the definition it means. See elaborate_modules.cpp.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Fills program.defs and program.types from program.modules (a no-op when the parser
// found no module declarations). Throws CompileError for a missing file, an import
// cycle, an unknown module or a module that does not match its signature.
void elaborate_modules(Program &program);

} // namespace kerb
