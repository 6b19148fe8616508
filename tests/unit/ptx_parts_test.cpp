// Unit tests for codegen/ptx_parts and emit_ptx's parts (Note [PTX per kernel]): which
// kernels share a part, identical kernels giving identical parts, the names put back into
// the PTX, the joined module (each kernel and helper once, the same text on any number of
// threads, accepted by ptxas where the CUDA toolkit has it), and the errors.
#include "codegen/llvm_target.h"
#include "codegen/ptx_parts.h"
#include "ptxas_check.h"

#include <catch2/catch.hpp>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

using namespace kerb::codegen;

namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) n++;
  return n;
}

// Kernels k_a and k_b (the same body: xs[i] = xs[i] * 2 + 1), and k_c and k_d, which call
// one internal noinline function, `helper.slow` (a name PTX cannot spell).
std::unique_ptr<llvm::Module> build_kernels(llvm::LLVMContext &ctx) {
  auto m = std::make_unique<llvm::Module>("parts_test", ctx);
  m->setTargetTriple("nvptx64-nvidia-cuda");
  m->setDataLayout("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");
  llvm::IRBuilder<> b(ctx);
  llvm::Type *f32 = b.getFloatTy();
  llvm::PointerType *gptr = llvm::PointerType::get(ctx, 1);

  auto *helper = llvm::Function::Create(llvm::FunctionType::get(f32, {f32}, false),
                                        llvm::Function::InternalLinkage, "helper.slow", *m);
  helper->addFnAttr(llvm::Attribute::NoInline);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", helper));
  b.CreateRet(b.CreateFAdd(b.CreateFMul(helper->getArg(0), llvm::ConstantFP::get(f32, 2.0)),
                           llvm::ConstantFP::get(f32, 1.0)));

  for (const char *name : {"k_a", "k_b", "k_c", "k_d"}) {
    bool calls = name[2] == 'c' || name[2] == 'd';
    auto *f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {gptr}, false),
                                     llvm::Function::ExternalLinkage, name, *m);
    f->setCallingConv(llvm::CallingConv::PTX_Kernel);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
    llvm::Value *tid = b.CreateZExt(
        b.CreateCall(llvm::Intrinsic::getDeclaration(m.get(), llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x)),
        b.getInt64Ty());
    llvm::Value *p = b.CreateGEP(f32, f->getArg(0), tid);
    llvm::Value *x = b.CreateLoad(f32, p);
    llvm::Value *y = calls ? static_cast<llvm::Value *>(b.CreateCall(helper, {x}))
                           : b.CreateFAdd(b.CreateFMul(x, llvm::ConstantFP::get(f32, 2.0)),
                                          llvm::ConstantFP::get(f32, 1.0));
    b.CreateStore(y, p);
    b.CreateRetVoid();
  }
  return m;
}

} // namespace

TEST_CASE("ptx parts: kernels sharing a helper are one part, and identical kernels identical parts",
          "[llvm][ptx_parts]") {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = build_kernels(ctx);
  std::vector<PtxPart> parts = split_kernel_module(*m);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].names == std::vector<std::string>{"k_a"});
  CHECK(parts[1].names == std::vector<std::string>{"k_b"});
  CHECK(parts[2].names == std::vector<std::string>{"helper_$_slow", "k_c", "k_d"});
  CHECK(parts[0].bitcode == parts[1].bitcode);
  CHECK(parts[0].bitcode != parts[2].bitcode);
}

TEST_CASE("ptx parts: emit_ptx defines every kernel and helper once, the same on 1 or 3 threads",
          "[llvm][ptx_parts]") {
  llvm::LLVMContext ctx1, ctx3;
  std::unique_ptr<llvm::Module> m1 = build_kernels(ctx1), m3 = build_kernels(ctx3);
  std::string ptx = emit_ptx(*m1, "sm_80", true, 1);
  CHECK(emit_ptx(*m3, "sm_80", true, 3) == ptx);
  for (const char *k : {"k_a", "k_b", "k_c", "k_d"}) CHECK(count(ptx, std::string(".entry ") + k + "(") == 1);
  CHECK(count(ptx, ".func  (.param .b32 func_retval0) helper_$_slow(") == 1);
  CHECK(count(ptx, ".version ") == 1);
  CHECK(ptx.find("__kerb_sym") == std::string::npos);
  CHECK(ptx.find("[k_b_param_0]") != std::string::npos);

  check_ptxas_accepts(ptx, "kerb_ptx_parts");
}

TEST_CASE("ptx parts: restore_names puts names back and rejects what it cannot place", "[ptx_parts]") {
  CHECK(restore_names("ld.param.u64 %rd1, [__kerb_sym1__param_0];\n// $__kerb_sym0_\n", {"g", "k"}) ==
        "ld.param.u64 %rd1, [k_param_0];\n// $g\n");
  CHECK_THROWS_AS(restore_names("__kerb_sym2_", {"a", "b"}), std::logic_error);
  CHECK_THROWS_AS(restore_names("x__kerb_sym0_", {"a"}), std::logic_error);
}

TEST_CASE("ptx parts: join_ptx keeps one header and refuses different ones", "[ptx_parts]") {
  std::string h80 = "//\n\n.version 7.5\n.target sm_80\n.address_size 64\n";
  std::string h90 = "//\n\n.version 7.8\n.target sm_90\n.address_size 64\n";
  CHECK(join_ptx({h80 + "\nA\n", h80 + "\nB\n"}) == h80 + "\nA\n\nB\n");
  CHECK_THROWS_AS(join_ptx({h80 + "\nA\n", h90 + "\nB\n"}), std::logic_error);
}

TEST_CASE("ptx parts: KERB_PTX_THREADS must be a number of threads", "[llvm][ptx_parts]") {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = build_kernels(ctx);
  ::setenv("KERB_PTX_THREADS", "two", 1);
  CHECK_THROWS_AS(emit_ptx(*m, "sm_80"), std::invalid_argument);
  ::unsetenv("KERB_PTX_THREADS");
}

TEST_CASE("ptx parts: join_ptx numbers call sites in order, afresh for each part", "[ptx_parts]") {
  std::string h = ".version 7.5\n.target sm_80\n.address_size 64\n";
  std::string part = h + "{ // callseq 7, 0\ncall (retval0), %rd1, (param0), prototype_7;\n} // callseq 7\n";
  CHECK(join_ptx({part, part}) == h + "{ // callseq 0, 0\ncall (retval0), %rd1, (param0), prototype_0;\n} // callseq 0\n" +
                                      "{ // callseq 1, 0\ncall (retval0), %rd1, (param0), prototype_1;\n} // callseq 1\n");
}
