// Size parameters of a let (`let [n] (xs: [n]i32) = filter p ys in ...`): the sizes
// become variables bound to the lengths of the value they name, so that the later
// passes, the interpreter and the lowering see only ordinary lets:
//
//   let [n] (xs: [n]i32) = e in b   ==>   let v = e  let n = length v  let xs = v in b
//
// A size found as the first dimension of a component is its `length`; as the second,
// the `length` of its `transpose` (also right for an empty array, whose rows are not
// there to measure). Runs after monomorphisation, before defunctionalisation.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void bind_let_sizes(Program &program, NameSource &names);

} // namespace kerb
