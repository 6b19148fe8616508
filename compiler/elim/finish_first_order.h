// The last elimination step: gives the first-order checker what it asks of source
// programs and inference made optional: an annotation on every parameter of a
// top-level function (its inferred type, sizes unknown), the inferred type of every
// unsuffixed literal as its suffix, empty array literals as `replicate 0 x` (which
// the first-order checker can type), and `unflatten_3d xs`, `unflatten_4d xs` as nested
// `unflatten`s, as Futhark's prelude defines them.
#pragma once

#include "compiler/ast.h"

namespace kerb {

void finish_first_order(Program &program);

} // namespace kerb
