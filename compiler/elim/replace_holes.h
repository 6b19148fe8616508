// Typed holes (`???`) become failures: a hole of a first-order type is an assertion that
// fails ("Assertion is false: hole", at the hole) guarding a value of that type; a hole
// of function type is a function that does so when applied. Runs after
// monomorphisation (types are known) and before defunctionalisation (which then
// handles the functions).
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void replace_holes(Program &program, NameSource &names);

} // namespace kerb
