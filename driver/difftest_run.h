// Running one generated program on several executors for `kerb difftest`, and judging
// whether they agree (see cmd_difftest.cpp for the command). The first executor is the
// reference (normally the interpreter); every other one is compared with it on every
// input:
//   - both succeed: the results must be equal, floats within the tolerance when the
//     generator marked the result approximate (see difftest/program_gen.h), else to
//     the bit (NaN equal to NaN, -0.0 to +0.0); an empty array's inner sizes that the
//     interpreter could not find (it gives 0) are not compared;
//   - both fail: with the same kind, message and location, or with another failure that
//     really happens for that input (compiler/interpreter.h, possible_failures);
//   - only the reference fails, at a check that the compiled program reports removed
//     or skipped as dead code (--report-checks; docs/CHECKS.md, Note [Checks in dead
//     code]), and so does every failure that really happens for that input;
//   - anything else is a difference: a check that goes missing anywhere else is one.
// A program can be evaluated in this process or in a child process (fork), so that a
// crash or hang of generated code is reported as a difference instead of ending the
// run.
#pragma once

#include "codegen/gen_llvm.h"
#include "difftest/shrink.h"
#include "driver/cli.h"
#include "runtime/value_compare.h"

#include <string>
#include <vector>

namespace kerb::driver {

enum class Verdict {
  AgreeOk,        // same results
  AgreeFailure,   // the same failure
  AgreeOtherSite, // another failure that really happens for the input
  AgreeDeadCheck, // only the reference fails, in code the compiled program reports dead
  // Differences:
  ResultsDiffer,
  FailuresDiffer,
  OnlyReferenceFails,
  OnlyDeviceFails,
  DeviceError,  // an exception from the device or the code generator
  Crash,        // the process died (a signal) while running the program
  Hang,         // it did not finish in time
};
const char *verdict_name(Verdict v); // "results differ", ...
bool is_difference(Verdict v);

struct DifftestConfig {
  std::vector<Device> devices;   // devices[0] is the reference
  FloatTolerance tolerance;      // for results marked approximate
  double timeout_seconds = 60;   // per program (isolated runs)
  bool isolate = true;           // fork a process per program
  bool unsafe = false;           // compile the devices (not the interpreter) without checks
  codegen::GenOptions gen;       // the strategies' thresholds (--row-block-min, ...)
};

// The verdict on one input for one compared device.
struct PairVerdict {
  int input = 0;
  Device device = Device::Cpu;
  Verdict verdict = Verdict::AgreeOk;
  std::string detail; // what the executors gave, for a difference
};

struct ProgramReport {
  bool invalid = false;      // the front end rejected the generated program (a generator bug)
  bool unsupported = false;  // the code generator does not support it yet
  std::string reason;        // the diagnostic for invalid/unsupported
  std::vector<PairVerdict> pairs;
  double worst_ulps = 0, worst_rel = 0;
};

// Runs `program` on `inputs` on every device of `config` and judges every pair.
ProgramReport evaluate_program(const difftest::GProgram &program,
                               const std::vector<difftest::GenInput> &inputs,
                               const DifftestConfig &config);

// The outcome of one executor on one input, as text (for reproducers and details).
struct RunText {
  bool ok = false;
  std::vector<std::string> results; // ok: one formatted value per (flattened) result
  std::string failure_message, failure_location;
};
// The reference executor's outcome for a case (for writing a reproducer's expected
// output). Throws CompileError/std::runtime_error if it cannot run.
RunText reference_outcome(const difftest::Case &c, Device reference);

} // namespace kerb::driver
