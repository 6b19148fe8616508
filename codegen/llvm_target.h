// LLVM infrastructure for Kerb's code generators: target initialisation, the NVPTX
// target machine and PTX emission, the optimisation pipeline, and a JIT for host code
// (and the CPU device's kernels) on the machine Kerb runs on.
//
// Every LLVM call that can fail is checked; a failure throws std::runtime_error naming
// the call, the file and the line.
#pragma once

#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class LLJIT;
}
} // namespace llvm

namespace kerb::codegen {

// A setting of the environment that cannot be used (KERB_LLVM_OPTIONS that LLVM's
// option parser rejects): the user's error, not the compiler's.
class EnvironmentError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Initialises the NVPTX and native targets (once; thread-safe). Throws EnvironmentError
// when $KERB_LLVM_OPTIONS cannot be parsed.
void initialize_llvm();

// A target machine for NVPTX at `sm` ("sm_80", "sm_90"). `fp_contract`: a float
// multiply whose result only feeds an add or subtract may be fused with it into one
// fma (LLVM's AllowFPOpFusion = Fast: what nvcc does by default, -fmad=true);
// otherwise every operation is rounded on its own (add.rn / mul.rn, which ptxas does
// not fuse either).
std::unique_ptr<llvm::TargetMachine> make_nvptx_target_machine(const std::string &sm, bool fp_contract = true);

// Verifies, optimises (O3) and compiles a kernel module to PTX text. Math functions of
// libdevice (__nv_*) are linked from the CUDA toolkit's libdevice when the module uses
// them (see find_libdevice). The kernels compile part by part on
// `threads` threads (0: $KERB_PTX_THREADS, else one per hardware thread), identical parts
// once (Note [PTX per kernel] in ptx_parts.cpp); `m` is left linked and renamed, not
// optimised.
std::string emit_ptx(llvm::Module &m, const std::string &sm, bool fp_contract = true, unsigned threads = 0);

// Verifies, optimises (O2, as the JIT does) and compiles a host module to a relocatable,
// position-independent x86-64 ELF object for `cpu` ("x86-64" runs on every x86-64
// machine; "native" is this one's CPU). Returns the object file's bytes.
std::string emit_object(llvm::Module &m, const std::string &cpu);

// The path of libdevice.10.bc: $KERB_LIBDEVICE, else the CUDA toolkit's. Empty if
// none is found.
std::string find_libdevice();

// A JIT for the host: add modules, define symbols, look up functions.
class HostJit {
public:
  static std::unique_ptr<HostJit> create();
  ~HostJit();

  // Absolute symbols (e.g. the runtime's C functions) for code added later.
  void define_symbols(const std::vector<std::pair<std::string, void *>> &symbols);
  // Verifies, optimises (O2) and adds a module; the JIT takes ownership of both.
  void add_module(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx);
  // The address of a function; throws if it is not defined.
  void *lookup(const std::string &name);

private:
  HostJit() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> tm_;
};

} // namespace kerb::codegen
