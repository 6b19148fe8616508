// From the type-checked AST to the core IR that the code generator takes: the lowering,
// then the passes of compiler/passes.h. pipeline.cpp lists them, one line each.
#pragma once

#include "compiler/ast.h"
#include "compiler/check_options.h"
#include "compiler/core_ir.h"

#include <functional>
#include <string>
#include <vector>

namespace kerb {

struct PipelineOptions {
  CheckOptions checks;
  // --dump-after=PASS: called with the pass's name and the program after it, for the
  // passes named in dump_after ("all": every pass).
  std::vector<std::string> dump_after;
  std::function<void(const std::string &pass, const core::Program &)> dump;
};

// Lowers the entry points and runs every pass. Throws CompileError for constructs the
// code generator does not support yet.
core::Program lower_and_check(const Program &program, const std::vector<const FunDef *> &entries,
                              const PipelineOptions &opts);

// The names --dump-after accepts, in pipeline order: "lower_to_core", then each pass.
std::vector<std::string> core_pass_names();

} // namespace kerb
