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
// - a use of an operator the program redefines (`def (+) ...`) becomes an Apply;
// - sizes checked as Futhark's size types (docs/LANGUAGE.md, "Sizes"); the types keep
//   the sizes that are names, constants and arithmetic on them (the others, and the
//   checker's own unknown sizes, become `[]`), and the sizes a use's context gives
//   (size parameters no parameter has, unflatten's and split's) become explicit
//   arguments (Note [Sizes given by the context]).
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError with the first type error.
void infer_types(Program &program);

} // namespace kerb
