// The parser: tokens -> AST (ast.h). Operator precedence and associativity are
// Futhark's. Constructs that LANGUAGE.md leaves out of the subset (modules, type
// declarations, polymorphism, records, sum types, match, local functions, ...) are
// recognised and rejected with a "... is not supported" diagnostic at their location.
#pragma once

#include "compiler/ast.h"

#include <memory>

namespace kerb {

// Throws CompileError on the first syntax error.
Program parse_program(std::shared_ptr<const SourceFile> file);

} // namespace kerb
