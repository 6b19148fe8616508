// A program compiled for a device and ready to run: lowering to the core IR, LLVM code
// generation, the JIT for the host code (and the CPU device's kernels), PTX for the
// CUDA device, and the conversion of argument and result values to and from the C
// API's arrays: a JIT-compiled program runs through the same runtime (contexts,
// arrays, entry calls; runtime/c_api.cpp) as a compiled library. This is what `kerb
// run`, `kerb test` and `kerb bench` use for --device cpu|cuda.
#pragma once

#include "codegen/gen_llvm.h"
#include "compiler/ast.h"
#include "compiler/core_ir.h"
#include "compiler/interpreter.h"
#include "compiler/pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb::codegen {

struct CompileOptions {
  PipelineOptions pipeline;  // which checks (--unsafe, --checks), --dump-after
  bool sync_checks = false;  // --sync-checks: the host reads the failure slot after
                             // every launch of a checked kernel
  std::string sm = "sm_80";  // the PTX target
  bool fp_contract = true;   // --fp-contract: CUDA kernels may fuse a*b+c into an fma
  GenOptions gen;            // --deferred-checks
  std::string only_entry;    // compile only this entry point (`kerb run -e NAME`), else all
};

// An entry call prepared for timing (`kerb bench`): its arguments are uploaded to the
// device once, when it is prepared, and stay there for every run.
class TimedCall {
public:
  virtual ~TimedCall() = default;
  struct Sample {
    double device_ms = 0; // on the device's clock (see run())
    double wall_ms = 0;   // the same region on the host's steady clock
    bool ok = false;
    RunFailure failure; // !ok
  };
  // Calls the entry once and times the call: its host code with every launch, allocation,
  // copy and scalar read it makes, between two CUDA events on the program's stream (CUDA
  // device: the second event is queued when the entry returns, so the time ends with the
  // call's last device work, as the hand-written versions' does) or on a steady clock (CPU
  // device, whose launches are synchronous); then the sync and the look at the failure
  // slot that end the call, which wall_ms includes too. Not timed: uploading the
  // arguments (done once, when prepared; restoring them when the entry may consume them)
  // and reading results back (results()), nor freeing the previous run's memory. Throws
  // std::runtime_error for device errors.
  virtual Sample run() = 0;
  // The results of the last run, read back to the host. Only after a run that succeeded,
  // and once per run (it frees the run's memory).
  virtual RunResult results() = 0;
  // The program's context's memory counters: device allocations made so far (not
  // taken from the context's cache), and the bytes the CUDA device's memory pool holds
  // (-1 on the CPU device).
  struct Memory {
    int64_t fresh_allocations = 0;
    int64_t pool_reserved_bytes = -1;
  };
  virtual Memory memory() const = 0;
};

class CompiledProgram {
public:
  virtual ~CompiledProgram() = default;
  // Runs an entry point. Throws std::runtime_error for device errors.
  virtual RunResult run(const std::string &entry, const std::vector<Value> &args) = 0;
  // Prepares repeated timed calls of an entry point on `args`. With
  // `restore_arguments`, a pristine copy of the arguments is kept on the device and
  // copied back before every run (for entries that may consume their arguments).
  // At most one TimedCall of a program may be alive at a time, and the program must not
  // run() meanwhile.
  virtual std::unique_ptr<TimedCall> prepare_call(const std::string &entry,
                                                  const std::vector<Value> &args,
                                                  bool restore_arguments) = 0;
  virtual std::string device_description() const = 0;
};

// Throws CompileError when the code generator does not support the program yet.
std::unique_ptr<CompiledProgram> compile_for_cpu(const Program &program,
                                                 const CompileOptions &opts);
// Runs on CUDA device 0. Throws std::runtime_error when it cannot be used.
std::unique_ptr<CompiledProgram> compile_for_cuda(const Program &program,
                                                  const CompileOptions &opts);

// Lowers `program`'s entry points to the core IR (with the check passes); throws
// CompileError for what the code generator does not support yet.
core::Program lower_checked(const Program &program, const CompileOptions &opts);

// The --report-checks listing for the program's entry points under these options.
std::string check_report(const Program &program, const CompileOptions &opts);

// The text of a stage for --emit: "ir" (core IR), "kernels" (the kernel IR:
// codegen/kernel_ir.h), "llvm" (host and kernel modules for `target`), "ptx" (the CUDA
// kernels).
std::string emit_stage(const Program &program, const std::string &stage,
                       const CompileOptions &opts);

} // namespace kerb::codegen
