// Prints the AST as indented S-expressions (with types once checked), for --emit=ast
// and for tests.
#pragma once

#include "compiler/ast.h"

#include <string>

namespace kerb {

std::string print_ast(const Program &program, bool with_types);
std::string print_expr(const Expr &e, bool with_types);

} // namespace kerb
