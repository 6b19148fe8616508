// A program compiled for a device and ready to run: lowering to the core IR, LLVM code
// generation, the JIT for the host code (and the CPU device's kernels), PTX for the
// CUDA device, and the conversion of argument and result values to and from device
// memory. This is what `kerb run` and `kerb test` use for --device cpu|cuda.
#pragma once

#include "compiler/ast.h"
#include "compiler/interpreter.h"
#include "compiler/pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb {
class CudaDevice;
}

namespace kerb::codegen {

struct CompileOptions {
  PipelineOptions pipeline;  // which checks (--unsafe, --checks), --dump-after
  bool sync_checks = false;  // --sync-checks: the host reads the failure slot after
                             // every launch of a checked kernel
  std::string sm = "sm_80";  // the PTX target
};

class CompiledProgram {
public:
  virtual ~CompiledProgram() = default;
  // Runs an entry point. Throws std::runtime_error for device errors.
  virtual RunResult run(const std::string &entry, const std::vector<Value> &args) = 0;
  virtual std::string device_description() const = 0;
};

// Throws CompileError when the code generator does not support the program yet.
std::unique_ptr<CompiledProgram> compile_for_cpu(const Program &program,
                                                 const CompileOptions &opts);
// `device` must outlive the result.
std::unique_ptr<CompiledProgram> compile_for_cuda(const Program &program,
                                                  const CompileOptions &opts,
                                                  CudaDevice &device);

// The --report-checks listing for the program's entry points under these options.
std::string check_report(const Program &program, const CompileOptions &opts);

// The text of a stage for --emit: "ir" (core IR), "llvm" (host and kernel modules for
// `target`), "ptx" (the CUDA kernels).
std::string emit_stage(const Program &program, const std::string &stage,
                       const CompileOptions &opts);

} // namespace kerb::codegen
