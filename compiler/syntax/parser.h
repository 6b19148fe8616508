// The parser: tokens -> AST (ast.h). Operator precedence and associativity are
// Futhark's. Modules, which LANGUAGE.md leaves out, are recognised and rejected with a
// "... is not supported" diagnostic at their location.
#pragma once

#include "compiler/ast.h"

#include <memory>

namespace kerb {

// Throws CompileError on the first syntax error.
Program parse_program(std::shared_ptr<const SourceFile> file);

// A type written in Futhark's syntax, for the compiler's own tables (the built-ins'
// types); the text must be well-formed.
Type parse_type_text(const std::string &text);

} // namespace kerb
