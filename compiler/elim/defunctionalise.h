// Defunctionalisation: removes every function value from a monomorphic program, as
// Futhark's Defunctionalise pass does, so that what follows is first-order. Lambdas,
// operator and field sections, local functions, partial applications and functions
// passed to, returned from or bound in user code become calls of lifted top-level
// functions that take the values their closures captured. Only the function arguments
// of the built-in SOACs (map, reduce, ...) stay functions, in the forms the first-order
// checker and the lowering take. See defunctionalise.cpp.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void defunctionalise(Program &program, NameSource &names);

} // namespace kerb
