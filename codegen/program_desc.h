// What the runtime needs to know of a compiled program (runtime/program_abi.h's
// kerb_program_desc), gathered once from the core program and its generated code:
// the entries with their flattened signatures, the kernels with their launch kinds,
// the PTX and the serialised failure table. `kerb run` points a kerb_program_desc at
// it in memory (JitProgramDesc); `kerb compile --library` writes it into the library
// as constant data (codegen/library.cpp).
#pragma once

#include "codegen/gen_llvm.h"
#include "compiler/core_ir.h"
#include "runtime/program_abi.h"

#include <string>
#include <vector>

namespace kerb::codegen {

struct ProgramInfo {
  std::string name; // the source file
  std::vector<std::string> entry_names, entry_signatures;
  std::vector<std::string> kernel_names;
  // Three words per kernel (runtime/program_abi.h): kind | block threads << 8 | max
  // blocks an SM << 24, shared bytes per thread, rows slot.
  std::vector<uint32_t> kernel_info;
  std::string ptx;
  std::string failure_table;
};

// `gen` is either target's generated program (their kernels are the same list).
ProgramInfo program_info(const std::string &name, const core::Program &core,
                         const GeneratedProgram &gen, std::string ptx);

// An entry's signature in the descriptor's form, e.g. "i32_1d,i64_0d->f32_0d".
std::string entry_signature(const core::Program &core, const core::Function &fn);

// A kerb_program_desc over a ProgramInfo and code addresses in this process (the JIT).
struct JitProgramDesc {
  ProgramInfo info;
  std::vector<const char *> entry_names, entry_signatures, kernel_names;
  std::vector<kerb_host_entry_fn> entries;
  std::vector<kerb_cpu_kernel_fn> kernels;
  kerb_target_code code{};
  kerb_program_desc desc{};

  // `cpu`: the code is the CPU device's (else the CUDA device's).
  JitProgramDesc(ProgramInfo info, std::vector<kerb_host_entry_fn> entries,
                 std::vector<kerb_cpu_kernel_fn> kernels, bool cpu);
  JitProgramDesc(const JitProgramDesc &) = delete;
  JitProgramDesc &operator=(const JitProgramDesc &) = delete;
};

} // namespace kerb::codegen
