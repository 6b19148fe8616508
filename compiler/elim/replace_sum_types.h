// Sum types become tuples and `match` becomes `if` (as Futhark's internaliser does): a
// value of a sum type is a tag (the constructor's index in name order) followed by a
// slot for every component of every constructor's payload; a constructor fills its
// own slots and zeros the others. See replace_sum_types.cpp.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void replace_sum_types(Program &program, NameSource &names);

// A sum type as a tuple (also inside other types), records already tuples.
Type sum_as_tuple(const Type &t);

} // namespace kerb
