// The consumption checker: Futhark's rules for in-place updates and unique types, on the
// source checker's annotated program (infer.h), as Futhark's Consumption module checks
// them. An in-place update (`a with [i] = v`, `let a[i] = v`) or a call of a function
// whose parameter is unique (`*[]i32`; also scatter's and reduce_by_index's destination)
// consumes the array and every variable it aliases; after that, none of them may be
// used. Only a let-bound variable, a unique parameter or a loop parameter may be
// consumed; not a non-unique parameter or a top-level constant, nor, inside an anonymous
// function, a local function or a loop body, a variable bound outside it. Function
// values, loops and results follow Futhark's rules too. See check_consumption.cpp.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError at the first violation, with Futhark's wording.
void check_consumption(const Program &program);

// Whether a parameter of type `t` (as written, with its `*` marks) consumes its argument;
// for a result type, whether it is unique.
bool type_consumes(const Type &t);

} // namespace kerb
