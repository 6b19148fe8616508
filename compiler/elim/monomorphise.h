// Monomorphisation: every polymorphic function (top-level, or local with type
// parameters) is replaced by one copy per list of types it is used at, with the types
// substituted and a fresh name; the uses call the copies. Polymorphic definitions that
// are never used disappear. See monomorphise.cpp.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void monomorphise(Program &program, NameSource &names);

} // namespace kerb
