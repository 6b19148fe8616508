// The types of the built-in functions, for the source type checker (infer.cpp): the
// prelude's array functions as Futhark declares them (sizes left out: the source checker
// does not unify sizes), and the numeric modules' members.
//
// A signature is a curried function type whose type variables are named types: `a`..`f`
// stand for any non-function type, `int` for an integer type (an unsuffixed literal
// there defaults to i64, as Futhark's sizes are i64), `num` for a numeric type.
#pragma once

#include "compiler/builtins.h"
#include "compiler/types/types.h"

#include <vector>

namespace kerb {

// The forms of a built-in (two for the older `unflatten n m xs` and `split i xs`), in
// order of preference.
const std::vector<Type> &array_builtin_signatures(ArrayBuiltin b);

// The type of a numeric-module member: `f32.sqrt` is f32 -> f32, `f32.pi` is f32.
Type prim_builtin_type(const PrimBuiltin &b);

} // namespace kerb
