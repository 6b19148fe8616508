// The prelude written in the language itself: the functions of Futhark's prelude that
// are not built in (id, flip, curry, >->, tabulate_2d, scatter_2d, partition2, ...),
// as Kerb's own source text. add_prelude puts its definitions before the program's;
// a program may define functions of the same names, which then hide the prelude's.
// Prelude functions the program does not use are removed after elimination.
#pragma once

#include "compiler/ast.h"

namespace kerb {

void add_prelude(Program &program);

// Removes the prelude's definitions that no other definition uses.
void remove_unused_prelude(Program &program);

} // namespace kerb
