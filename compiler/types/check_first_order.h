// The first-order checker: the type checker of the first-order, monomorphic program the
// elimination passes (compiler/elim/) make. It resolves names and calls, infers and
// checks the type of every expression and pattern, and fills them into the AST (see
// ast.h) the way the interpreter and the lowering read them, with the sizes they need:
// known sizes are carried in types (as written, or as the text of a size expression) so
// that the interpreter can check them at run time and find the sizes split and
// unflatten need. Monomorphic, with Futhark's overloaded numeric literals. Sizes are not
// unified: ranks and element types are checked here, sizes at run time. The source
// checker (infer.h) has checked the program before, so an error here is either a
// limit of the first-order subset (a size the lowering must know) or a bug.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError with the first type error.
void check_first_order(Program &program);

} // namespace kerb
