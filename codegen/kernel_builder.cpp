// What every kernel shares (see program_gen.h): the launch slots of the values a kernel
// reads (fused maps included), the kernel function and how it reads its slots, binding
// the slots to core variables, the launch in host code, and the per-thread loop of
// one-thread-per-element kernels with its prelude.
#include "codegen/program_gen.h"

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

void ProgramGen::add_input(SlotList &sl, int v) {
  if (!sl.added.insert(v).second) return;
  auto lz = host_lazy_.find(v);
  if (lz == host_lazy_.end()) {
    add_var(sl, v);
    return;
  }
  const core::Stm &ms = *lz->second.stm;
  for (size_t j = 0; j < ms.pat.size(); j++) {
    sl.added.insert(ms.pat[j]);
    sl.lazies.push_back({ms.pat[j], FnGen::Lazy{&ms, j}});
  }
  if (ms.exp.args[0].is_var()) add_input(sl, ms.exp.args[0].var);
  if (ms.exp.kind == core::ExpKind::Iota) return; // computed from the index alone
  std::set<int> free = lambda_free_vars(p_, *ms.exp.lambda);
  for (int f : free) add_input(sl, f);
  for (int a : ms.exp.arrays) add_input(sl, a);
}

void ProgramGen::add_var(SlotList &sl, int v) {
  FnGen &g = *host_;
  const core::CType &t = p_.var(v).type;
  const Val &val = g.lookup(v);
  sl.args.push_back(KernelArg{v, sl.host_values.size() + 1, t.rank > 0 && val.contiguous()});
  // (slot 0 is the failure slot)
  if (t.rank == 0) {
    sl.host_values.push_back(g.ops().to_slot(t.prim, val.scalar));
    // A divisor in the kernel: its magic number, m then l (Note [Magic divisors] in
    // scalar_ops.cpp).
    if (plan_.divisors.count(v) && t.prim != PrimType::Bool) {
      auto [m, l] = g.ops().magic_divisor_or_none(g.ops().to_i64(t.prim, val.scalar));
      sl.host_values.push_back(m);
      sl.host_values.push_back(l);
      sl.args.back().magic = true;
    }
    return;
  }
  sl.host_values.push_back(val.addr);
  for (Value *d : val.dims) sl.host_values.push_back(d);
  for (Value *st : g.strides_of(val)) sl.host_values.push_back(st);
}

void ProgramGen::emit_launch(int kernel, Value *total, SlotList &sl) {
  FnGen &g = *host_;
  IRBuilder<> &b = g.builder();
  Value *fs = b.CreateCall(g.rt("kerb_rt_failure_slot"), {g.ctx});
  size_t n = sl.host_values.size() + 1;
  // In the entry block: a launch inside a host loop must not grow the stack each
  // iteration (finpar/InterestCalib died of SIGSEGV after millions of launches).
  AllocaInst *buf = g.entry_alloca(ArrayType::get(b.getInt64Ty(), n));
  b.CreateStore(fs, b.CreateGEP(b.getInt64Ty(), buf, g.i64(0)));
  for (size_t i = 0; i < sl.host_values.size(); i++)
    b.CreateStore(sl.host_values[i], b.CreateGEP(b.getInt64Ty(), buf, g.i64(int64_t(i + 1))));
  g.return_if_error(b.CreateCall(g.rt("kerb_rt_launch"),
                                 {g.ctx, b.getInt32(uint32_t(kernel)), total, buf,
                                  b.getInt32(uint32_t(n)),
                                  b.getInt32(kernel_may_fail(kernel) ? kLaunchMayFail : 0)}));
}

bool ProgramGen::kernel_may_fail(int kernel) {
  // A kernel records a failure only through the compare-and-swap of emit_failure.
  Function *f = kernel_module().getFunction(out_.kernel_names[size_t(kernel)]);
  KERB_ASSERT(f, "kernel function not found");
  for (const BasicBlock &bb : *f)
    for (const Instruction &i : bb)
      if (isa<AtomicCmpXchgInst>(i)) return true;
  return false;
}

Value *ProgramGen::certainly_clear(IRBuilder<> &b, KernelFn &k) {
  return b.CreateICmpNE(b.CreateAnd(k.slot(0), b.getInt64(uint64_t(kSlotCertainlyClear))),
                        b.getInt64(0));
}

ProgramGen::KernelFn ProgramGen::new_kernel(const std::string &name, size_t num_slots,
                                            KernelDesc desc) {
  Module &km = kernel_module();
  LLVMContext &c = km.getContext();
  Type *i64 = Type::getInt64Ty(c);
  KernelFn k;
  int id = int(out_.kernel_descs.size());
  std::string fname = fmt::format("kerb_kernel_{}_{}", id, name);
  out_.kernel_descs.push_back(desc);
  out_.kernel_names.push_back(fname);
  if (gpu()) {
    std::vector<Type *> params(num_slots, i64);
    k.f = Function::Create(FunctionType::get(Type::getVoidTy(c), params, false),
                           GlobalValue::ExternalLinkage, fname, km);
    k.f->setCallingConv(CallingConv::PTX_Kernel);
  } else {
    k.f = Function::Create(
        FunctionType::get(Type::getVoidTy(c), {i64, i64, PointerType::get(c, 0)}, false),
        GlobalValue::ExternalLinkage, fname, km);
  }
  BasicBlock::Create(c, "entry", k.f);
  k.exit = BasicBlock::Create(c, "exit", k.f);
  IRBuilder<>(k.exit).CreateRetVoid();
  k.g = std::make_unique<FnGen>(p_, km, k.f, FnGen::Kernel, gpu(),
                                gpu() ? MathLib::Libdevice : MathLib::Libm);
  IRBuilder<> &b = k.g->builder();
  b.SetInsertPoint(&k.f->getEntryBlock());
  if (gpu()) {
    Function *f = k.f;
    k.slot = [f](size_t i) -> Value * { return f->getArg(unsigned(i)); };
  } else {
    Value *slots = k.f->getArg(2);
    k.begin = k.f->getArg(0);
    k.end = k.f->getArg(1);
    FnGen *g = k.g.get();
    // Slots are read at the point of use (the entry block dominates everything).
    k.slot = [g, slots, f = k.f](size_t i) -> Value * {
      IRBuilder<> eb(&f->getEntryBlock(), f->getEntryBlock().begin());
      return eb.CreateLoad(eb.getInt64Ty(), eb.CreateGEP(eb.getInt64Ty(), slots, eb.getInt64(i)));
    };
  }
  k.g->failure_word = k.slot(0);
  k.g->plan = &plan_;
  // Thread kernels outline the slow copies of their deferred work; block kernels keep
  // them inline (Note [The slow copy outlined] in deferred_checks.cpp).
  if (desc.kind == KernelDesc::Threads) k.g->slow_regions = &slow_regions_;
  k.g->defer_checks = may_fail() && opts_.deferred_checks;
  k.g->deferred_loads = opts_.deferred_loads;
  return k;
}

void ProgramGen::bind_kernel_args(KernelFn &k, const SlotList &sl) {
  FnGen &g = *k.g;
  for (const auto &[v, lazy] : sl.lazies) {
    g.lazy_[v] = lazy;
    Val dims_only;
    dims_only.dims = {nullptr};
    g.bind(v, dims_only);
  }
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  for (const KernelArg &a : sl.args) {
    const core::CType &t = p_.var(a.var).type;
    if (t.rank == 0) {
      g.bind(a.var, Val{g.ops().from_slot(t.prim, k.slot(a.first)), nullptr, {}, {}});
      if (a.magic) g.divisors[a.var] = {k.slot(a.first + 1), k.slot(a.first + 2)};
      continue;
    }
    Val v;
    v.addr = b.CreateIntToPtr(k.slot(a.first), gptr);
    for (int d = 0; d < t.rank; d++) v.dims.push_back(k.slot(a.first + 1 + size_t(d)));
    // A contiguous array's strides follow from its dims (cheaper indexing).
    if (!a.contiguous)
      for (int d = 0; d < t.rank; d++)
        v.strides.push_back(k.slot(a.first + 1 + size_t(t.rank + d)));
    g.bind(a.var, v);
  }
  // Fused maps' lengths, now that their widths are bound.
  for (const auto &[v, lazy] : sl.lazies) {
    const core::SubExp &w = lazy.stm->exp.args[0];
    Val dims_only;
    dims_only.dims = {g.ops().to_i64(g.prim_of(w), g.scalar(w))};
    g.bind(v, dims_only);
  }
}

Value *ProgramGen::sreg(IRBuilder<> &b, Intrinsic::ID id) {
  Function *f = Intrinsic::getDeclaration(&kernel_module(), id);
  return b.CreateZExt(b.CreateCall(f), b.getInt64Ty());
}

Value *ProgramGen::shared_array(FnGen &g, ArrayType *t, const std::string &name, Align align) {
  if (!gpu()) {
    AllocaInst *a = g.entry_alloca(t);
    a->setAlignment(align);
    return a;
  }
  auto *gv = new GlobalVariable(kernel_module(), t, false, GlobalValue::InternalLinkage, UndefValue::get(t), name,
                                nullptr, GlobalValue::NotThreadLocal, 3);
  gv->setAlignment(align);
  return gv;
}

void ProgramGen::threads_kernel(KernelFn &k, Value *n,
                                const std::function<void(Value *)> &per_thread, bool prelude,
                                bool rerun) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  // Prelude: nothing to do after a failure. Only kernels that could misbehave on the
  // garbage a failed kernel may have left (loops, unchecked indexing) have one: the
  // others only compute values that the host discards when it sees the failure, and
  // their every memory access is in bounds whatever the data (extract_kernels.cpp's
  // needs_prelude decides, Kernel::prelude). A
  // program none of whose checks can fail needs none (may_fail).
  // The look is skipped when the host passes the slot as certainly clear (a uniform
  // branch on a kernel parameter). See docs/CHECKS.md, "The prelude".
  if (prelude && may_fail()) {
    BasicBlock *look = BasicBlock::Create(c, "prelude.look", f);
    BasicBlock *run = BasicBlock::Create(c, "run", f);
    b.CreateCondBr(certainly_clear(b, k), run, look);
    b.SetInsertPoint(look);
    Value *code = b.CreateLoad(b.getInt32Ty(), g.failure_slot());
    b.CreateCondBr(b.CreateICmpEQ(code, b.getInt32(uint32_t(-1))), run, k.exit);
    b.SetInsertPoint(run);
  }
  if (gpu()) {
    auto global_id = [&] {
      return b.CreateAdd(b.CreateMul(sreg(b, Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                                     sreg(b, Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
                         sreg(b, Intrinsic::nvvm_read_ptx_sreg_tid_x));
    };
    Value *gid = global_id();
    BasicBlock *work = BasicBlock::Create(c, "work", f);
    b.CreateCondBr(b.CreateICmpSLT(gid, n), work, k.exit);
    b.SetInsertPoint(work);
    g.on_fail = [&g, exit = k.exit](Value *) { g.builder().CreateBr(exit); };
    // (The slow copy reads its index afresh: one value fewer kept for its call.)
    if (rerun) deferred(g, [&](bool slow) { per_thread(slow ? global_id() : gid); });
    else per_thread(gid);
    b.CreateBr(k.exit);
    return;
  }
  AllocaInst *ctr = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(k.begin, ctr);
  BasicBlock *head = BasicBlock::Create(c, "thread.head", f);
  BasicBlock *work = BasicBlock::Create(c, "thread.work", f);
  BasicBlock *next = BasicBlock::Create(c, "thread.next", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  Value *gid = b.CreateLoad(b.getInt64Ty(), ctr);
  b.CreateCondBr(b.CreateICmpSLT(gid, b.CreateSelect(b.CreateICmpSLT(k.end, n), k.end, n)),
                 work, k.exit);
  b.SetInsertPoint(work);
  // A failing thread stops: on the CPU, the rest of its range is not run either.
  g.on_fail = [&g, exit = k.exit](Value *) { g.builder().CreateBr(exit); };
  if (rerun) deferred(g, [&](bool) { per_thread(gid); });
  else per_thread(gid);
  b.CreateBr(next);
  b.SetInsertPoint(next);
  b.CreateStore(b.CreateAdd(gid, b.getInt64(1)), ctr);
  b.CreateBr(head);
}

void ProgramGen::deferred(FnGen &g, const std::function<void(bool slow)> &work) {
  // Checks deferred (Note [Deferred checks] in deferred_checks.cpp) in programs whose
  // checks can fail, unless --deferred-checks=off.
  if (!g.defer_checks) return work(false);
  g.deferred_work(work);
}

} // namespace kerb::codegen
