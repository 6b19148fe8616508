// Equality of values that are not primitive: `==` and `!=` on tuples and arrays (what
// records and sum types have become) turn into comparisons of primitives, as Futhark
// defines them: tuples component by component, arrays by length and then element by
// element. See expand_equality.cpp.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void expand_equality(Program &program, NameSource &names);

} // namespace kerb
