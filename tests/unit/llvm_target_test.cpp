// Unit tests for codegen/llvm_target: PTX emission for a small hand-built kernel (and,
// where the CUDA toolkit's ptxas is present, that ptxas accepts it), the host JIT on a
// hand-built loop, and that invalid modules and unknown symbols are reported as errors.
#include "codegen/llvm_target.h"
#include "ptxas_check.h"

#include <catch2/catch.hpp>

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

using namespace kerb::codegen;

namespace {

// add_one(float addrspace(1)* xs, i64 n): i = ctaid.x * ntid.x + tid.x;
// if (i < n) xs[i] = xs[i] + 1.
std::unique_ptr<llvm::Module> build_add_one(llvm::LLVMContext &ctx) {
  auto m = std::make_unique<llvm::Module>("add_one_test", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type *i64 = b.getInt64Ty(), *f32 = b.getFloatTy();
  llvm::PointerType *gptr = llvm::PointerType::get(ctx, 1);
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), {gptr, i64}, false);
  auto *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "add_one", *m);
  f->setCallingConv(llvm::CallingConv::PTX_Kernel);
  llvm::Argument *xs = f->getArg(0), *n = f->getArg(1);
  xs->setName("xs");
  n->setName("n");

  auto *entry = llvm::BasicBlock::Create(ctx, "entry", f);
  auto *body = llvm::BasicBlock::Create(ctx, "body", f);
  auto *done = llvm::BasicBlock::Create(ctx, "done", f);
  b.SetInsertPoint(entry);
  auto sreg = [&](llvm::Intrinsic::ID id) {
    llvm::Value *v = b.CreateCall(llvm::Intrinsic::getDeclaration(m.get(), id));
    return b.CreateZExt(v, i64);
  };
  llvm::Value *ctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
  llvm::Value *ntid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  llvm::Value *tid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  llvm::Value *i = b.CreateAdd(b.CreateMul(ctaid, ntid), tid, "i");
  b.CreateCondBr(b.CreateICmpSLT(i, n), body, done);

  b.SetInsertPoint(body);
  llvm::Value *p = b.CreateGEP(f32, xs, i);
  llvm::Value *x = b.CreateLoad(f32, p);
  b.CreateStore(b.CreateFAdd(x, llvm::ConstantFP::get(f32, 1.0)), p);
  b.CreateBr(done);

  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return m;
}

// i64 sum_to(i64 n): s = 0; for (i = 1; i <= n; ++i) s += i; return s.
std::unique_ptr<llvm::Module> build_sum_to(llvm::LLVMContext &ctx) {
  auto m = std::make_unique<llvm::Module>("sum_to_test", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type *i64 = b.getInt64Ty();
  auto *fty = llvm::FunctionType::get(i64, {i64}, false);
  auto *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "sum_to", *m);
  llvm::Argument *n = f->getArg(0);

  auto *entry = llvm::BasicBlock::Create(ctx, "entry", f);
  auto *loop = llvm::BasicBlock::Create(ctx, "loop", f);
  auto *exit = llvm::BasicBlock::Create(ctx, "exit", f);
  b.SetInsertPoint(entry);
  b.CreateCondBr(b.CreateICmpSGE(n, b.getInt64(1)), loop, exit);

  b.SetInsertPoint(loop);
  llvm::PHINode *i = b.CreatePHI(i64, 2, "i");
  llvm::PHINode *s = b.CreatePHI(i64, 2, "s");
  llvm::Value *s2 = b.CreateAdd(s, i, "s2");
  llvm::Value *i2 = b.CreateAdd(i, b.getInt64(1), "i2");
  i->addIncoming(b.getInt64(1), entry);
  i->addIncoming(i2, loop);
  s->addIncoming(b.getInt64(0), entry);
  s->addIncoming(s2, loop);
  b.CreateCondBr(b.CreateICmpSLE(i2, n), loop, exit);

  b.SetInsertPoint(exit);
  llvm::PHINode *r = b.CreatePHI(i64, 2, "r");
  r->addIncoming(b.getInt64(0), entry);
  r->addIncoming(s2, loop);
  b.CreateRet(r);
  return m;
}

// A function whose only block has no terminator: the verifier rejects it.
std::unique_ptr<llvm::Module> build_invalid(llvm::LLVMContext &ctx) {
  auto m = std::make_unique<llvm::Module>("invalid_test", ctx);
  llvm::IRBuilder<> b(ctx);
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), {b.getInt64Ty()}, false);
  auto *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "bad", *m);
  f->setCallingConv(llvm::CallingConv::PTX_Kernel);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", f);
  b.SetInsertPoint(entry);
  b.CreateAdd(f->getArg(0), b.getInt64(1));
  return m;
}

} // namespace

TEST_CASE("llvm: add_one kernel compiles to PTX that ptxas accepts", "[llvm]") {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = build_add_one(ctx);
  std::string ptx = emit_ptx(*m, "sm_80");
  CHECK(ptx.find(".entry add_one") != std::string::npos);
  CHECK(ptx.find(".target sm_80") != std::string::npos);
  CHECK(ptx.find("ld.global") != std::string::npos);
  CHECK(ptx.find("st.global") != std::string::npos);

  check_ptxas_accepts(ptx, "kerb_add_one");
}

TEST_CASE("llvm: sm_90 target machine emits .target sm_90", "[llvm]") {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = build_add_one(ctx);
  std::string ptx = emit_ptx(*m, "sm_90");
  CHECK(ptx.find(".target sm_90") != std::string::npos);
  CHECK(ptx.find(".entry add_one") != std::string::npos);
}

TEST_CASE("llvm: HostJit runs a loop built with IRBuilder", "[llvm]") {
  std::unique_ptr<HostJit> jit = HostJit::create();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> m = build_sum_to(*ctx);
  jit->add_module(std::move(m), std::move(ctx));
  auto sum_to = reinterpret_cast<int64_t (*)(int64_t)>(jit->lookup("sum_to"));
  REQUIRE(sum_to != nullptr);
  CHECK(sum_to(0) == 0);
  CHECK(sum_to(1) == 1);
  CHECK(sum_to(10) == 55);
  CHECK(sum_to(100000) == int64_t(100000) * 100001 / 2);
  CHECK(sum_to(-5) == 0);
}

TEST_CASE("llvm: HostJit lookup of an undefined symbol throws", "[llvm]") {
  std::unique_ptr<HostJit> jit = HostJit::create();
  CHECK_THROWS_AS(jit->lookup("kerb_no_such_function"), std::runtime_error);
}

TEST_CASE("llvm: a module that fails verification makes emit_ptx throw", "[llvm]") {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = build_invalid(ctx);
  try {
    emit_ptx(*m, "sm_80");
    FAIL("emit_ptx accepted an invalid module");
  } catch (const std::runtime_error &e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("verifyModule") != std::string::npos);
    CHECK(msg.find("terminator") != std::string::npos);
  }
}

// A kernel with a block made in another context (the host's, on the CUDA target): the
// verifier and the back end accept it, and destroying the module after that context
// reads freed memory. emit_ptx must refuse it (codegen's split map did this once).
TEST_CASE("llvm: a block from another LLVM context makes emit_ptx throw", "[llvm]") {
  llvm::LLVMContext host, ctx;
  auto m = std::make_unique<llvm::Module>("mixed_test", ctx);
  {
    llvm::IRBuilder<> b(ctx);
    auto *fty = llvm::FunctionType::get(b.getVoidTy(), {}, false);
    auto *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "mixed", *m);
    f->setCallingConv(llvm::CallingConv::PTX_Kernel);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
    llvm::BasicBlock *other = llvm::BasicBlock::Create(host, "other", f);
    b.CreateBr(other);
    b.SetInsertPoint(other);
    b.CreateRetVoid();
    try {
      emit_ptx(*m, "sm_80");
      FAIL("emit_ptx accepted a block from another context");
    } catch (const std::runtime_error &e) {
      std::string msg = e.what();
      INFO(msg);
      CHECK(msg.find("verify_contexts") != std::string::npos);
      CHECK(msg.find("another LLVM context") != std::string::npos);
    }
    // Take the foreign block out before the module goes (it would read freed memory
    // once `host` is gone).
    f->front().getTerminator()->eraseFromParent();
    other->eraseFromParent();
  }
  m.reset();
}

TEST_CASE("llvm: a module that fails verification is not added to the JIT", "[llvm]") {
  std::unique_ptr<HostJit> jit = HostJit::create();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> m = build_invalid(*ctx);
  CHECK_THROWS_AS(jit->add_module(std::move(m), std::move(ctx)), std::runtime_error);
}
