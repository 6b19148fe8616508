// The consumption checker: Futhark's rules for in-place updates and unique types, on the
// source checker's annotated program (infer.h). An in-place update (`a with [i] = v`,
// `let a[i] = v`) or a call of a function whose parameter is unique (`*[]i32`; also
// scatter and reduce_by_index) consumes the array, and every array it aliases; after
// that, none of them may be used. Only what the program made itself, or received as a
// unique parameter, may be consumed; not a non-unique parameter, nor, inside an
// anonymous function or a loop body, a value from outside it. A unique result may not
// alias what the caller still owns. See check_consumption.cpp.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError at the first violation, with Futhark's wording.
void check_consumption(const Program &program);

// Whether a parameter of type `t` (as written, with its `*` marks) consumes its argument;
// for a result type, whether it is unique.
bool type_consumes(const Type &t);

} // namespace kerb
