// Where `kerb run` and `kerb test` run a program: the reference interpreter, or code
// compiled for the CPU device or the CUDA device (codegen/compiled_program.h). An
// Executor is made once per program and runs any number of entry calls.
#pragma once

#include "codegen/compiled_program.h"
#include "compiler/interpreter.h"
#include "driver/cli.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb::driver {

struct ExecOptions {
  // The checks (the interpreter follows them for assert and nan; docs/CHECKS.md),
  // --sync-checks and --dump-after.
  codegen::CompileOptions compile;
};

class Executor {
public:
  virtual ~Executor() = default;
  // Throws std::runtime_error for device errors, CompileError for constructs the
  // interpreter rejects.
  virtual RunResult run(const FunDef &entry, const std::vector<Value> &args) = 0;
};

// Compiles `program` for `device`. Throws CompileError when the code generator does not
// support the program yet, and InputError when the device is not available (no GPU).
std::unique_ptr<Executor> make_executor(Device device, const Program &program,
                                        const ExecOptions &opts);

// True for the "does not support ... yet" errors of the code generator.
bool is_unsupported_error(const std::string &message);

} // namespace kerb::driver
