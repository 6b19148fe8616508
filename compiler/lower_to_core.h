// Lowering of the type-checked AST to the core IR (core_ir.h): one core function per
// entry point, user functions inlined, tuples flattened, every dynamic check explicit.
// The lowering describes every check the program could make as a candidate (its kind,
// message, arguments, and the #[unsafe] that covers it, if any); it does not decide
// which are kept: the check insertion passes do (compiler/pipeline.cpp).
// Constructs outside the supported slice throw CompileError("the code generator does
// not support <what> yet").
//
// Checks that carry message arguments but have no operation of their own (sizes of
// map/zip arguments, iota/replicate of a negative count, function argument sizes) are
// ExpKind::Assert statements whose args[1..] are the message's i64 arguments.
#pragma once

#include "compiler/ast.h"
#include "compiler/core_ir.h"

#include <vector>

namespace kerb {

core::Program lower_to_core(const Program &program, const std::vector<const FunDef *> &entries);

} // namespace kerb
