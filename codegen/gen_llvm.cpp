// LLVM code generation for core programs (see gen_llvm.h).
//
// The work is split by responsibility: fn_gen.h (the generator of one function body),
// program_gen.h (host functions and kernel extraction), thread_kernels.cpp and
// block_kernels.cpp (the kernel families).
#include "codegen/gen_llvm.h"

#include "codegen/program_gen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace kerb::codegen {

GeneratedProgram::GeneratedProgram() = default;
GeneratedProgram::~GeneratedProgram() {
  // Modules before their contexts.
  host.reset();
  kernels.reset();
}
GeneratedProgram::GeneratedProgram(GeneratedProgram &&) noexcept = default;
GeneratedProgram &GeneratedProgram::operator=(GeneratedProgram &&) noexcept = default;

std::string entry_symbol(const std::string &entry) { return "kerb_entry_" + entry; }

GeneratedProgram generate_llvm(const core::Program &program, Target target, GenOptions opts) {
  return ProgramGen(program, target, opts).run();
}

} // namespace kerb::codegen
