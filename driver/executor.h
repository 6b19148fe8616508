// Where `kerb run` and `kerb test` run a program: the reference interpreter, or code
// compiled for the CPU device or the CUDA device (codegen/compiled_program.h). An
// Executor is made once per program and runs any number of entry calls.
#pragma once

#include "codegen/compiled_program.h"
#include "compiler/interpreter.h"
#include "driver/cli.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kerb {
class CudaDevice;
}

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

// Compiles `program` for the cpu or cuda device (not the interpreter), for callers that
// need more than an Executor (`kerb bench` times prepared calls). Throws as make_executor.
std::unique_ptr<codegen::CompiledProgram> compile_program(Device device, const Program &program,
                                                          const ExecOptions &opts);

// What a benchmark report says about the device it ran on. Throws InputError when the
// device is not available.
struct DeviceInfo {
  std::string kind;        // interp, cpu, cuda
  std::string name;        // "NVIDIA H100 80GB HBM3", or the host's CPU model
  std::string description; // one line, e.g. CudaDevice::describe()
  std::string compute_capability; // cuda: "9.0"
  std::string driver;      // cuda: the kernel driver's version ("580.159.04"), if readable
  std::string cuda_driver_api; // cuda: the driver API version (cuDriverGetVersion), "13.0"
  int host_threads = 0;    // cpu: the CPU device's worker threads
};
DeviceInfo device_info(Device device);

// The process's CUDA device, opened on first use. Throws InputError when there is none.
CudaDevice &cuda_device();

// The checks that code compiled with `opts` removes or skips as dead code, by kind and
// location (a failure's location is its check's; docs/CHECKS.md, Note [Checks in dead
// code]): possible_failures() (compiler/interpreter.h) fills the maps whose every
// element fails with those.
using DeadChecks = std::set<std::pair<FailureKind, std::string>>;
DeadChecks dead_checks(const Program &program, const ExecOptions &opts);
bool in_dead_code(const DeadChecks &dead, const RunFailure &f);

// True for the "does not support ... yet" errors of the code generator.
bool is_unsupported_error(const std::string &message);

} // namespace kerb::driver
