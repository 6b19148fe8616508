// The type checker: resolves names and calls, infers and checks the type of every
// expression and pattern, and fills them into the AST (see ast.h). Monomorphic, with
// Futhark's overloaded numeric literals (an unsuffixed integer literal may have any
// numeric type, a float literal any float type; unconstrained ones default to i32 and
// f64). Sizes in types are not unified: ranks and element types are checked here,
// sizes at run time.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError with the first type error.
void type_check(Program &program);

} // namespace kerb
