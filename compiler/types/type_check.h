// Type checking, as the driver runs it after parsing: the source checker (infer.h) on
// the whole language, with Futhark's diagnostics, and its consumption checker
// (check_consumption.h); the elimination passes
// (compiler/elim/eliminate.h), which leave a first-order, monomorphic program; and the
// first-order checker (check_first_order.h), which annotates that program for the
// interpreter and the lowering. DESIGN.md's "The pipeline" has the whole picture.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError with the first type error.
void type_check(Program &program);

} // namespace kerb
