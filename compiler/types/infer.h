// The source type checker: type inference for the whole language (LANGUAGE.md), as
// Futhark does it, with Futhark's diagnostics. It checks the program the parser gives
// and annotates it for the elimination passes (compiler/elim/):
// - every expression's and pattern's `type`, with type variables resolved: a
//   polymorphic function's type parameters appear as Named types, everything else is
//   concrete (unconstrained literals defaulted to i32 and f64, sizes to i64);
// - annotations (`p.annotation`, `e.annotation`, `ret_annotation`) with type
//   abbreviations expanded;
// - names resolved: a Var or Apply's callee (a local, a top-level or local function with
//   `fun` set, a built-in) and, for a polymorphic function, the types it is
//   instantiated with (`type_args`, aligned with fun->type_params);
// - each function's type parameters, also those inference finds for unannotated
//   parameters (`def id x = x` becomes `def id 't0 (x: t0) : t0`), and `ret_type`;
// - a use of an operator the program redefines (`def (+) ...`) becomes an Apply.
// Sizes are carried as written but not unified: the first-order checker
// (type_check.cpp) and the run-time checks deal with them, as before.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError with the first type error.
void infer_types(Program &program);

} // namespace kerb
