// LLVM targets, the optimisation pipeline, PTX emission and the host JIT (see
// llvm_target.h).
#include "codegen/llvm_target.h"

#include "codegen/ptx_parts.h"

#include <fmt/format.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>

extern "C" {
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace kerb::codegen {

namespace {

[[noreturn]] void llvm_fail(const char *call, const char *file, int line, const std::string &msg) {
  throw std::runtime_error(fmt::format("llvm error in {} at {}:{}: {}", call, file, line, msg));
}

std::string error_text(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

template <typename T>
T check_expected(llvm::Expected<T> v, const char *call, const char *file, int line) {
  if (!v) llvm_fail(call, file, line, error_text(v.takeError()));
  return std::move(*v);
}

void check_error(llvm::Error e, const char *call, const char *file, int line) {
  if (e) llvm_fail(call, file, line, error_text(std::move(e)));
}

#define KERB_LLVM_EXPECTED(expr) check_expected((expr), #expr, __FILE__, __LINE__)
#define KERB_LLVM_CHECK(expr) check_error((expr), #expr, __FILE__, __LINE__)

// Every block, instruction and operand of `m` in m's own context. verifyModule does not
// look: on the CUDA target the host and the kernels have contexts of their own, and a
// block or constant made in the host's context inside a kernel passes the verifier and
// the NVPTX back end, then reads freed memory when the kernel module is destroyed after
// the host's context (seen on the H100 as a segfault at the end of compile_for_cuda).
// The CPU target shares one context and never shows it, so the check is here, where CI
// runs every corpus program's kernels through it.
void verify_contexts(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  auto wrong = [&](const llvm::Function &f, const std::string &what) {
    llvm_fail("verify_contexts", __FILE__, __LINE__,
              "the generated module is invalid: " + what + " in function " + f.getName().str() +
                  " belongs to another LLVM context");
  };
  for (llvm::Function &f : m) {
    for (llvm::BasicBlock &bb : f) {
      if (&bb.getContext() != &ctx) wrong(f, "block " + bb.getName().str());
      for (llvm::Instruction &i : bb) {
        if (&i.getContext() != &ctx) wrong(f, "an instruction");
        for (const llvm::Use &op : i.operands())
          if (op.get() && &op.get()->getContext() != &ctx) wrong(f, "an operand");
      }
    }
  }
}

void verify(llvm::Module &m) {
  verify_contexts(m);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (llvm::verifyModule(m, &os))
    llvm_fail("verifyModule", __FILE__, __LINE__, "the generated module is invalid:\n" + errors);
}

void run_pipeline(llvm::Module &m, llvm::TargetMachine *tm, llvm::OptimizationLevel level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
  mpm.run(m, mam);
}

// Links the libdevice functions `m` calls (__nv_*, and what they call) into `m`. They
// keep their external linkage, so each is also compiled to a .visible .func that nothing
// calls once it is inlined; making them internal drops those, but changes the order of
// the instructions (not the instructions) of kernels that call pow (tried on
// tests/programs/lang/prelude.fut), so it waits for a GPU measurement.
void link_libdevice(llvm::Module &m) {
  bool uses = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) uses = true;
  if (!uses) return;
  std::string path = find_libdevice();
  if (path.empty())
    throw std::runtime_error("this program uses math functions on the GPU, which need the CUDA "
                             "toolkit's libdevice.10.bc; set KERB_LIBDEVICE to its path");
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) llvm_fail("MemoryBuffer::getFile", __FILE__, __LINE__, path + ": " + buf.getError().message());
  std::unique_ptr<llvm::Module> lib =
      KERB_LLVM_EXPECTED(llvm::parseBitcodeFile((*buf)->getMemBufferRef(), m.getContext()));
  lib->setTargetTriple(m.getTargetTriple());
  lib->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded))
    llvm_fail("Linker::linkModules", __FILE__, __LINE__, "cannot link libdevice from " + path);
}

// O3 and NVPTX code generation of `m` to PTX text.
std::string compile_to_ptx(llvm::Module &m, llvm::TargetMachine &tm) {
  run_pipeline(m, &tm, llvm::OptimizationLevel::O3);
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    llvm_fail("TargetMachine::addPassesToEmitFile", __FILE__, __LINE__, "NVPTX cannot emit PTX");
  pm.run(m);
  return std::string(ptx.str());
}

// The number of threads emit_ptx compiles on: `requested`, else $KERB_PTX_THREADS, else
// one per hardware thread.
unsigned ptx_threads(unsigned requested) {
  if (requested > 0) return requested;
  if (const char *env = std::getenv("KERB_PTX_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || n < 1 || n > 1024)
      throw std::invalid_argument(fmt::format("KERB_PTX_THREADS must be a number of threads "
                                              "from 1 to 1024, not '{}'", env));
    return unsigned(n);
  }
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

} // namespace

void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // $KERB_LLVM_OPTIONS: LLVM's own options, for looking into its work (e.g.
    // "-time-passes" to see where a long compilation goes; docs/CODEGEN.md).
    if (const char *env = std::getenv("KERB_LLVM_OPTIONS")) {
      // (The words outlive the call: options may keep pointers into them.)
      static llvm::BumpPtrAllocator words;
      llvm::StringSaver saver(words);
      llvm::SmallVector<const char *, 8> argv{"kerb"};
      llvm::cl::TokenizeGNUCommandLine(env, saver, argv);
      std::string errors;
      llvm::raw_string_ostream os(errors);
      if (!llvm::cl::ParseCommandLineOptions(int(argv.size()), argv.data(), "", &os))
        throw EnvironmentError("KERB_LLVM_OPTIONS: " + errors);
    }
  });
}

std::string find_libdevice() {
  if (const char *env = std::getenv("KERB_LIBDEVICE")) return env;
  for (const char *p : {"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
                        "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"}) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return p;
  }
  return "";
}

std::unique_ptr<llvm::TargetMachine> make_nvptx_target_machine(const std::string &sm, bool fp_contract) {
  initialize_llvm();
  std::string triple = "nvptx64-nvidia-cuda", error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) llvm_fail("TargetRegistry::lookupTarget", __FILE__, __LINE__, error);
  std::string features = sm >= "sm_90" ? "+ptx78" : "+ptx75";
  llvm::TargetOptions options;
  options.AllowFPOpFusion = fp_contract ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, sm, features, options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) llvm_fail("Target::createTargetMachine", __FILE__, __LINE__, "no NVPTX target machine for " + sm);
  return tm;
}

std::string emit_ptx(llvm::Module &m, const std::string &sm, bool fp_contract, unsigned threads) {
  std::unique_ptr<llvm::TargetMachine> tm = make_nvptx_target_machine(sm, fp_contract);
  m.setTargetTriple(tm->getTargetTriple().str());
  m.setDataLayout(tm->createDataLayout());
  verify(m);
  link_libdevice(m);
  // One compilation per different part, on several threads (Note [PTX per kernel] in
  // ptx_parts.cpp).
  std::vector<PtxPart> parts = split_kernel_module(m);
  if (parts.empty()) return compile_to_ptx(m, *tm);
  std::vector<size_t> compiled_as(parts.size()), firsts;
  std::map<std::string_view, size_t> seen;
  for (size_t i = 0; i < parts.size(); i++) {
    auto [it, fresh] = seen.emplace(parts[i].bitcode, firsts.size());
    if (fresh) firsts.push_back(i);
    compiled_as[i] = it->second;
  }
  std::vector<std::string> ptx(firsts.size());
  std::vector<std::exception_ptr> errors(firsts.size());
  auto compile = [&](size_t u) {
    try {
      llvm::LLVMContext ctx;
      const PtxPart &p = parts[firsts[u]];
      std::unique_ptr<llvm::Module> pm = KERB_LLVM_EXPECTED(
          llvm::parseBitcodeFile(llvm::MemoryBufferRef(p.bitcode, "kerb_part"), ctx));
      ptx[u] = compile_to_ptx(*pm, *make_nvptx_target_machine(sm, fp_contract));
    } catch (...) {
      errors[u] = std::current_exception();
    }
  };
  // The biggest first, so that no thread is left with a big one at the end.
  std::vector<size_t> order(firsts.size());
  for (size_t u = 0; u < order.size(); u++) order[u] = u;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return parts[firsts[a]].instructions > parts[firsts[b]].instructions;
  });
  unsigned n = std::min<size_t>(ptx_threads(threads), order.size());
  if (n <= 1) {
    for (size_t u : order) compile(u);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(n));
    for (size_t u : order) pool.async([&compile, u] { compile(u); });
    pool.wait();
  }
  for (const std::exception_ptr &e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<std::string> texts;
  for (size_t i = 0; i < parts.size(); i++) texts.push_back(restore_names(ptx[compiled_as[i]], parts[i].names));
  return join_ptx(texts);
}

std::string emit_object(llvm::Module &m, const std::string &cpu) {
  initialize_llvm();
  std::string triple = llvm::sys::getDefaultTargetTriple(), error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) llvm_fail("TargetRegistry::lookupTarget", __FILE__, __LINE__, error);
  std::string cpu_name = cpu == "native" ? std::string(llvm::sys::getHostCPUName()) : cpu;
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu_name, "", options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) llvm_fail("Target::createTargetMachine", __FILE__, __LINE__, "no target machine for " + triple);
  if (!tm->getMCSubtargetInfo()->isCPUStringValid(cpu_name))
    throw std::invalid_argument(fmt::format("unknown CPU '{}' for {}", cpu, triple));
  m.setTargetTriple(triple);
  m.setDataLayout(tm->createDataLayout());
  m.setPICLevel(llvm::PICLevel::BigPIC);
  verify(m);
  run_pipeline(m, tm.get(), llvm::OptimizationLevel::O2);
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    llvm_fail("TargetMachine::addPassesToEmitFile", __FILE__, __LINE__, "cannot emit an object file for " + triple);
  pm.run(m);
  return std::string(object.str());
}

std::unique_ptr<HostJit> HostJit::create() {
  initialize_llvm();
  std::unique_ptr<HostJit> j(new HostJit());
  j->jit_ = KERB_LLVM_EXPECTED(llvm::orc::LLJITBuilder().create());
  // The C library's functions (libm's expf, ...) come from the process.
  auto gen = KERB_LLVM_EXPECTED(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      j->jit_->getDataLayout().getGlobalPrefix()));
  j->jit_->getMainJITDylib().addGenerator(std::move(gen));
  auto jtmb = KERB_LLVM_EXPECTED(llvm::orc::JITTargetMachineBuilder::detectHost());
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  j->tm_ = KERB_LLVM_EXPECTED(jtmb.createTargetMachine());
  return j;
}

HostJit::~HostJit() = default;

void HostJit::define_symbols(const std::vector<std::pair<std::string, void *>> &symbols) {
  llvm::orc::SymbolMap map;
  for (const auto &[name, addr] : symbols)
    map[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(addr),
                                        llvm::JITSymbolFlags::Exported |
                                            llvm::JITSymbolFlags::Callable};
  KERB_LLVM_CHECK(jit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(map))));
}

void HostJit::add_module(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx) {
  m->setTargetTriple(tm_->getTargetTriple().str());
  m->setDataLayout(jit_->getDataLayout());
  verify(*m);
  run_pipeline(*m, tm_.get(), llvm::OptimizationLevel::O2);
  KERB_LLVM_CHECK(jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))));
}

void *HostJit::lookup(const std::string &name) {
  llvm::orc::ExecutorAddr addr = KERB_LLVM_EXPECTED(jit_->lookup(name));
  return addr.toPtr<void *>();
}

} // namespace kerb::codegen
