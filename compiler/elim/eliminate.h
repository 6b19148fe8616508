// The elimination passes: what the source language has beyond the first-order,
// monomorphic core disappears here, one pass a file, in the order of Futhark's
// internaliser (DESIGN.md "The pipeline", STYLE.md "Futhark's middle"). The input is
// the source checker's annotated program (compiler/types/infer.h); the output takes
// the first-order checker (check_first_order.h) and has no type parameters, function
// values, local functions, records, sum types or `match`.
#pragma once

#include "compiler/ast.h"

namespace kerb {

void eliminate(Program &program);

} // namespace kerb
