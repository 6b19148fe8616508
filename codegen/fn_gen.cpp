// FnGen: values, checks, statements and control flow, in host code and kernels alike
// (see fn_gen.h).
#include "codegen/fn_gen.h"

#include "compiler/prim_ops.h"

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

[[noreturn]] void unsupported(const core::Exp &e, const std::string &what) {
  error_at(e.span, fmt::format("the code generator does not support {} yet", what));
}

namespace {

// Free variables of bodies, in a stable order: used inside, bound outside. The sizes
// of the arrays that maps inside make count as used (a kernel allocates them).
class FreeVars {
public:
  FreeVars(const core::Program &p, std::set<int> &out) : p_(p), out_(out) {}

  void body(const core::Body &b, std::set<int> bound) {
    for (const core::Stm &s : b.stms) {
      exp(s.exp, bound);
      for (int v : s.pat) bound.insert(v);
      if (s.exp.kind == core::ExpKind::Map)
        for (int v : s.pat)
          for (const core::SubExp &d : p_.var(v).shape) subexp(d, bound);
    }
    for (const core::SubExp &s : b.result) subexp(s, bound);
  }

private:
  void subexp(const core::SubExp &s, const std::set<int> &bound) {
    if (s.is_var() && !bound.count(s.var)) out_.insert(s.var);
  }

  void exp(const core::Exp &e, const std::set<int> &bound) {
    for (const core::SubExp &s : e.args) subexp(s, bound);
    for (int a : e.arrays)
      if (!bound.count(a)) out_.insert(a);
    std::set<int> inner = bound;
    for (int p : e.loop_params) inner.insert(p);
    if (e.loop_var >= 0) inner.insert(e.loop_var);
    for (const auto &b : e.bodies) body(*b, inner);
    if (e.lambda) {
      std::set<int> scope = bound;
      for (int p : e.lambda->params) scope.insert(p);
      body(e.lambda->body, scope);
    }
  }

  const core::Program &p_;
  std::set<int> &out_;
};

} // namespace

std::set<int> lambda_free_vars(const core::Program &p, const core::Lambda &l) {
  std::set<int> out;
  FreeVars(p, out).body(l.body, std::set<int>(l.params.begin(), l.params.end()));
  return out;
}

Value *FnGen::element_addr(Value *base, Value *flat_index, PrimType t) {
  Type *et = ops_.mem_type(t);
  if (mode_ == Host) {
    uint64_t size = m_.getDataLayout().getTypeAllocSize(et);
    return b_.CreateAdd(base, b_.CreateMul(flat_index, i64(int64_t(size))));
  }
  return b_.CreateGEP(et, base, flat_index);
}

Value *FnGen::flat_offset(const std::vector<Value *> &dims, const std::vector<Value *> &idx) {
  Value *off = i64(0);
  for (size_t d = 0; d < dims.size(); d++) {
    Value *i = d < idx.size() ? idx[d] : i64(0);
    off = b_.CreateAdd(b_.CreateMul(off, dims[d]), i);
  }
  return off;
}

std::vector<Value *> FnGen::strides_of(const Val &v) {
  if (!v.contiguous()) return v.strides;
  std::vector<Value *> st(v.dims.size());
  Value *acc = i64(1);
  for (size_t d = v.dims.size(); d-- > 0;) {
    st[d] = acc;
    acc = b_.CreateMul(acc, v.dims[d]);
  }
  return st;
}

Value *FnGen::offset_of(const Val &arr, const std::vector<Value *> &idx) {
  if (offsets32) {
    // Note [32-bit map kernels]: every product and partial sum is the true one, below
    // 2^31 in magnitude (nsw), for an in-bounds access.
    Type *i32 = b_.getInt32Ty();
    auto low = [&](Value *v) { return b_.CreateTrunc(v, i32); };
    Value *off = b_.getInt32(0);
    for (size_t d = 0; d < (arr.contiguous() ? arr.dims.size() : idx.size()); d++) {
      Value *i = d < idx.size() ? low(idx[d]) : b_.getInt32(0);
      off = arr.contiguous() ? b_.CreateNSWAdd(b_.CreateNSWMul(off, low(arr.dims[d])), i)
                             : b_.CreateNSWAdd(off, b_.CreateNSWMul(i, low(arr.strides[d])));
    }
    return b_.CreateSExt(off, b_.getInt64Ty());
  }
  if (arr.contiguous()) return flat_offset(arr.dims, idx);
  Value *off = i64(0);
  for (size_t d = 0; d < idx.size(); d++) off = b_.CreateAdd(off, b_.CreateMul(idx[d], arr.strides[d]));
  return off;
}

Val FnGen::subarray(const Val &arr, Value *addr, size_t k) {
  Val v;
  v.addr = addr;
  v.dims.assign(arr.dims.begin() + long(k), arr.dims.end());
  if (!arr.contiguous()) v.strides.assign(arr.strides.begin() + long(k), arr.strides.end());
  return v;
}

Val FnGen::select_view(const Val &src, PrimType t, const core::Exp &e, const std::vector<int> &drop) {
  // The start's offset, and strides scaled by the steps.
  std::vector<Value *> st = strides_of(src);
  Val v;
  Value *off = i64(0);
  for (size_t d = 0; d < src.dims.size(); d++) {
    bool selected = d * 3 + 2 < e.args.size();
    if (selected) off = b_.CreateAdd(off, b_.CreateMul(scalar(e.args[3 * d]), st[d]));
    if (std::find(drop.begin(), drop.end(), int(d)) != drop.end()) continue;
    v.dims.push_back(selected ? scalar(e.args[3 * d + 1]) : src.dims[d]);
    v.strides.push_back(selected ? b_.CreateMul(st[d], scalar(e.args[3 * d + 2])) : st[d]);
  }
  v.addr = element_addr(src.addr, off, t);
  return v;
}

Value *FnGen::product(const std::vector<Value *> &dims, size_t from) {
  Value *n = i64(1);
  for (size_t d = from; d < dims.size(); d++) n = b_.CreateMul(n, dims[d]);
  return n;
}

Value *FnGen::load_elem(PrimType t, Value *addr) {
  LoadInst *l = b_.CreateLoad(ops_.mem_type(t), addr);
  if (invariant_loads && mode_ == Kernel)
    l->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(c_, {}));
  return ops_.from_mem(t, l);
}

void FnGen::check(Value *ok, int site, const std::vector<Value *> &args) {
  BasicBlock *bad = BasicBlock::Create(c_, "check.fail", f_);
  BasicBlock *good = BasicBlock::Create(c_, "check.ok", f_);
  if (deferral_) {
    // A check that is not deferred fails here only if no deferred check failed before
    // it (Note [Deferred checks] in deferred_checks.cpp): one branch on the hot path.
    Value *flag = b_.CreateLoad(b_.getInt1Ty(), deferral_->flag);
    BasicBlock *cold = BasicBlock::Create(c_, "check.cold", f_);
    b_.CreateCondBr(b_.CreateAnd(ok, b_.CreateNot(flag)), good, cold,
                    MDBuilder(c_).createBranchWeights(1 << 20, 1));
    b_.SetInsertPoint(cold);
    b_.CreateCondBr(flag, deferral_->slow, bad);
  } else {
    b_.CreateCondBr(ok, good, bad, MDBuilder(c_).createBranchWeights(1 << 20, 1));
  }
  b_.SetInsertPoint(bad);
  emit_failure(site, args);
  b_.SetInsertPoint(good);
}

Value *FnGen::failure_slot() {
  Value *addr = b_.CreateAnd(failure_word, i64(~kSlotCertainlyClear));
  return b_.CreateIntToPtr(addr, PointerType::get(c_, gpu_ ? 1 : 0));
}

void FnGen::emit_failure(int site, const std::vector<Value *> &args) {
  if (mode_ == Host) {
    Value *buf = entry_alloca(ArrayType::get(b_.getInt64Ty(), std::max<size_t>(args.size(), 1)));
    for (size_t i = 0; i < args.size(); i++)
      b_.CreateStore(args[i], b_.CreateGEP(b_.getInt64Ty(), buf, i64(int64_t(i))));
    Value *status = b_.CreateCall(rt("kerb_rt_fail"),
                                  {ctx, b_.getInt32(uint32_t(site)), buf,
                                   b_.getInt32(uint32_t(args.size()))});
    on_fail(status);
    return;
  }
  // Kernel: the first failing thread claims the slot and writes the arguments.
  Value *slot_ptr = failure_slot();
  Value *code_ptr = slot_ptr;
  Value *old = b_.CreateAtomicCmpXchg(code_ptr, b_.getInt32(uint32_t(-1)),
                                      b_.getInt32(uint32_t(site)), MaybeAlign(4),
                                      AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
  Value *won = b_.CreateExtractValue(old, 1);
  BasicBlock *write = BasicBlock::Create(c_, "fail.write", f_);
  BasicBlock *after = BasicBlock::Create(c_, "fail.done", f_);
  b_.CreateCondBr(won, write, after);
  b_.SetInsertPoint(write);
  size_t nargs = std::min(args.size(), size_t(kFailureMaxArgs));
  for (size_t i = 0; i < nargs; i++) {
    Value *slot = b_.CreateGEP(b_.getInt8Ty(), slot_ptr, i64(int64_t(8 + 8 * i)));
    b_.CreateStore(args[i], slot);
  }
  // Mapped mode: the payload again in the slot's mirror in host memory, then a fence
  // for the whole system, then the code, so that the host sees the code only after the
  // payload (runtime/device_abi.h).
  Value *mirror_field = b_.CreateGEP(b_.getInt8Ty(), slot_ptr,
                                     i64(int64_t(offsetof(FailureSlot, mirror))));
  Value *mirror_addr = b_.CreateLoad(b_.getInt64Ty(), mirror_field);
  BasicBlock *mirror_bb = BasicBlock::Create(c_, "fail.mirror", f_);
  b_.CreateCondBr(b_.CreateICmpNE(mirror_addr, i64(0)), mirror_bb, after);
  b_.SetInsertPoint(mirror_bb);
  Value *mirror = b_.CreateIntToPtr(mirror_addr, slot_ptr->getType());
  for (size_t i = 0; i < nargs; i++)
    b_.CreateStore(args[i], b_.CreateGEP(b_.getInt8Ty(), mirror, i64(int64_t(8 + 8 * i))), true);
  StoreInst *code_store;
  if (gpu_) {
    // __threadfence_system(): membar.sys, which is fence.sc.sys on sm_70 and later.
    b_.CreateCall(Intrinsic::getDeclaration(&m_, Intrinsic::nvvm_membar_sys));
    code_store = b_.CreateStore(b_.getInt32(uint32_t(site)), mirror, true);
  } else {
    b_.CreateFence(AtomicOrdering::SequentiallyConsistent);
    code_store = b_.CreateStore(b_.getInt32(uint32_t(site)), mirror, true);
    code_store->setAtomic(AtomicOrdering::Monotonic);
  }
  code_store->setAlignment(Align(4));
  b_.CreateBr(after);
  b_.SetInsertPoint(after);
  on_fail(nullptr);
}

void FnGen::check_nan(Value *r, const std::vector<Value *> &operands, int site) {
  // Only float results carry a NaN check (the other sites of these operations are
  // integer division and power checks, made before the operation).
  if (!r->getType()->isFloatingPointTy()) return;
  // ok: the result is not NaN, or an operand already was (prim_ops' produced_nan).
  Value *ok = b_.CreateFCmpORD(r, r);
  for (Value *x : operands)
    if (x && x->getType()->isFloatingPointTy()) ok = b_.CreateOr(ok, b_.CreateFCmpUNO(x, x));
  if (deferral_) return defer(ok);
  check(ok, site, {});
}

std::vector<Value *> FnGen::index_failure_args(const std::vector<Value *> &idx,
                                               const std::vector<Value *> &dims) {
  std::vector<Value *> args = idx;
  args.insert(args.end(), dims.begin(), dims.end());
  return args;
}

Function *FnGen::rt(const std::string &name) {
  Function *f = m_.getFunction(name);
  KERB_ASSERT(f, "runtime function " + name + " is not declared");
  return f;
}

void FnGen::body(const core::Body &b) {
  const core::Body *saved = cur_body_;
  cur_body_ = &b;
  for (const core::Stm &s : b.stms) stm(s);
  cur_body_ = saved;
}

std::vector<Val> FnGen::results(const core::Body &b) {
  std::vector<Val> out;
  for (const core::SubExp &s : b.result) out.push_back(val(s));
  return out;
}

void FnGen::stm(const core::Stm &s) {
  if (mode_ == Host && launch_hook && launch_hook(s)) return;
  if (deferral_) deferred_stm(s);
  if (destination_stm(s)) return;
  if (!given.empty() && s.pat.size() == 1) {
    auto it = given.find(s.pat[0]);
    if (it != given.end()) {
      bind(s.pat[0], Val{it->second, nullptr, {}, {}});
      return;
    }
  }
  const core::Exp &e = s.exp;
  auto bind1 = [&](Val v) {
    KERB_ASSERT(s.pat.size() == 1, "one result expected");
    bind(s.pat[0], std::move(v));
  };
  switch (e.kind) {
  case core::ExpKind::SubExp: bind1(val(e.args[0])); return;
  case core::ExpKind::BinOp: {
    PrimType t = prim_of(e.args[0]);
    Value *a = scalar(e.args[0]), *b = scalar(e.args[1]);
    auto magic = e.args[1].is_var() ? divisors.find(e.args[1].var) : divisors.end();
    bool by_magic = magic != divisors.end() && magic_division(e.binop, t);
    // Deferred (Note [Deferred checks]): a division by 1 instead of 0, `**` by 0
    // instead of a negative exponent. (A magic divisor is the host's: its check is
    // the same for every thread, and it keeps its branch.)
    auto checked = [&](Value *ok, int64_t instead) {
      if (!deferral_ || by_magic) return check(ok, e.site, {});
      defer(ok);
      b = b_.CreateSelect(ok, b, ConstantInt::get(b->getType(), uint64_t(instead)));
    };
    if (e.site >= 0 && is_checked_division(e.binop, t))
      checked(b_.CreateICmpNE(b, ConstantInt::get(b->getType(), 0)), 1);
    if (e.site >= 0 && e.binop == BinOp::Pow && is_signed_int(t))
      checked(b_.CreateICmpSGE(b, ConstantInt::get(b->getType(), 0)), 0);
    Value *r = nullptr;
    if (by_magic)
      r = ops_.divide_by_magic(e.binop, t, a, b, magic->second.first, magic->second.second);
    else
      r = ops_.binop(e.binop, t, a, b);
    if (e.site >= 0) check_nan(r, {a, b}, e.site);
    bind1(Val{r, nullptr, {}, {}});
    return;
  }
  case core::ExpKind::UnOp:
    bind1(Val{ops_.unop(e.unop, prim_of(e.args[0]), scalar(e.args[0])), nullptr, {}, {}});
    return;
  case core::ExpKind::Convert:
    bind1(Val{ops_.convert(prim_of(e.args[0]), e.to, scalar(e.args[0])), nullptr, {}, {}});
    return;
  case core::ExpKind::PrimFn: {
    if (prim_fn_arity(e.prim_fn.fn) == 0) {
      bind1(Val{ops_.constant(prim_constant(e.prim_fn.module, e.prim_fn.fn)), nullptr, {}, {}});
      return;
    }
    Value *x = scalar(e.args[0]);
    Value *y = e.args.size() > 1 ? scalar(e.args[1]) : nullptr;
    Value *r = ops_.prim_fn(e.prim_fn, x, y);
    if (e.site >= 0) check_nan(r, {x, y}, e.site);
    bind1(Val{r, nullptr, {}, {}});
    return;
  }
  case core::ExpKind::If: return if_stm(s);
  case core::ExpKind::Loop: return loop_stm(s);
  case core::ExpKind::Index: return index_stm(s);
  case core::ExpKind::Assert:
    if (e.site >= 0) {
      // args[1..]: the message's arguments (sizes of a size check, ...).
      std::vector<Value *> margs;
      for (size_t i = 1; i < e.args.size(); i++)
        margs.push_back(ops_.to_i64(prim_of(e.args[i]), scalar(e.args[i])));
      check(scalar(e.args[0]), e.site, margs);
    }
    for (int v : s.pat) bind(v, Val{b_.getInt1(true), nullptr, {}, {}});
    return;
  case core::ExpKind::Reduce:
    if (mode_ == Kernel) return sequential_reduce(s);
    break;
  case core::ExpKind::Slice:
    bind(s.pat[0], select_view(lookup(e.arrays[0]), p_.var(e.arrays[0]).type.prim, e));
    return;
  case core::ExpKind::Rearrange: {
    const Val &src = lookup(e.arrays[0]);
    std::vector<Value *> st = strides_of(src);
    Val v;
    v.addr = src.addr;
    for (int d : e.perm) {
      v.dims.push_back(src.dims[size_t(d)]);
      v.strides.push_back(st[size_t(d)]);
    }
    bind(s.pat[0], v);
    return;
  }
  case core::ExpKind::Map:
  case core::ExpKind::Iota:
    if (mode_ == Kernel && plan->in_thread(s) == Strategy::Fused) {
      for (size_t j = 0; j < s.pat.size(); j++) {
        lazy_[s.pat[j]] = Lazy{&s, j};
        Val v;
        v.dims = {ops_.to_i64(prim_of(e.args[0]), scalar(e.args[0]))};
        bind(s.pat[j], v);
      }
      return;
    }
    break;
  default: break;
  }
  if (mode_ == Kernel) return kernel_array_stm(s);
  host_stm(s);
}

AllocaInst *FnGen::entry_alloca(Type *t) {
  IRBuilder<> eb(&f_->getEntryBlock(), f_->getEntryBlock().begin());
  return eb.CreateAlloca(t);
}

Type *FnGen::addr_type() {
  if (mode_ == Host) return b_.getInt64Ty();
  return PointerType::get(c_, gpu_ ? 1 : 0);
}

FnGen::Slots FnGen::make_slots(const std::vector<int> &vars) {
  Slots s;
  for (int v : vars) {
    const core::CType &t = p_.var(v).type;
    if (t.rank == 0) {
      s.scalar.push_back(entry_alloca(ops_.reg_type(t.prim)));
      s.addr.push_back(nullptr);
      s.dims.push_back({});
      s.strides.push_back({});
    } else {
      s.scalar.push_back(nullptr);
      s.addr.push_back(entry_alloca(addr_type()));
      std::vector<AllocaInst *> d, st;
      for (int k = 0; k < t.rank; k++) d.push_back(entry_alloca(b_.getInt64Ty()));
      if (mode_ == Kernel)
        for (int k = 0; k < t.rank; k++) st.push_back(entry_alloca(b_.getInt64Ty()));
      s.dims.push_back(d);
      s.strides.push_back(st);
    }
  }
  return s;
}

void FnGen::store_slots(const Slots &s, const std::vector<Val> &vals0,
                        const std::vector<int> &vars) {
  for (size_t i = 0; i < vals0.size(); i++) {
    if (s.scalar[i]) {
      b_.CreateStore(vals0[i].scalar, s.scalar[i]);
      continue;
    }
    Val v = vals0[i];
    if (mode_ == Host && !v.contiguous()) v = materialize(v, p_.var(vars[i]).type.prim);
    b_.CreateStore(v.addr, s.addr[i]);
    for (size_t k = 0; k < s.dims[i].size(); k++) b_.CreateStore(v.dims[k], s.dims[i][k]);
    if (mode_ == Kernel) {
      std::vector<Value *> st = strides_of(v);
      for (size_t k = 0; k < st.size(); k++) b_.CreateStore(st[k], s.strides[i][k]);
    }
  }
}

std::vector<Val> FnGen::load_slots(const Slots &s, const std::vector<int> &vars) {
  std::vector<Val> out;
  for (size_t i = 0; i < vars.size(); i++) {
    const core::CType &t = p_.var(vars[i]).type;
    Val v;
    if (s.scalar[i]) {
      v.scalar = b_.CreateLoad(ops_.reg_type(t.prim), s.scalar[i]);
    } else {
      v.addr = b_.CreateLoad(addr_type(), s.addr[i]);
      for (AllocaInst *d : s.dims[i]) v.dims.push_back(b_.CreateLoad(b_.getInt64Ty(), d));
      for (AllocaInst *d : s.strides[i]) v.strides.push_back(b_.CreateLoad(b_.getInt64Ty(), d));
    }
    out.push_back(v);
  }
  return out;
}

void FnGen::if_stm(const core::Stm &s) {
  const core::Exp &e = s.exp;
  Slots slots = make_slots(s.pat);
  BasicBlock *then_bb = BasicBlock::Create(c_, "if.then", f_);
  BasicBlock *else_bb = BasicBlock::Create(c_, "if.else", f_);
  BasicBlock *join = BasicBlock::Create(c_, "if.end", f_);
  b_.CreateCondBr(scalar(e.args[0]), then_bb, else_bb);
  for (int k = 0; k < 2; k++) {
    b_.SetInsertPoint(k == 0 ? then_bb : else_bb);
    body(*e.bodies[size_t(k)]);
    store_slots(slots, results(*e.bodies[size_t(k)]), s.pat);
    b_.CreateBr(join);
  }
  b_.SetInsertPoint(join);
  std::vector<Val> vals = load_slots(slots, s.pat);
  for (size_t i = 0; i < s.pat.size(); i++) bind(s.pat[i], vals[i]);
}

void FnGen::loop_stm(const core::Stm &s) {
  const core::Exp &e = s.exp;
  const std::vector<int> &params = e.loop_params;
  Slots state = make_slots(params);
  std::vector<Val> init;
  for (size_t i = 0; i < params.size(); i++) init.push_back(val(e.args[i]));
  store_slots(state, init, params);
  // A kernel loop whose iterations make arrays gives their memory back after each one,
  // carrying its array parameters in buffers (Note [Kernel memory]).
  bool carried = mode_ == Kernel && (body_allocates(p_, *e.bodies[0]) ||
                                     (e.is_while && body_allocates(p_, *e.bodies[1])));
  Carry carry;
  if (carried) carry = carry_begin(params, init);
  AllocaInst *counter = nullptr;
  Value *bound = nullptr;
  PrimType ct = PrimType::I64;
  if (!e.is_while) {
    const core::SubExp &n = e.args.back();
    ct = prim_of(n);
    bound = scalar(n);
    counter = entry_alloca(ops_.reg_type(ct));
    b_.CreateStore(ConstantInt::get(ops_.reg_type(ct), 0), counter);
  }
  // Deferring: checks of the body's loads at affine indices, made once before the loop
  // (Note [Hoisted checks] in deferred_checks.cpp).
  std::set<const core::Exp *> hoisted_before = hoisted_;
  if (deferral_ && !e.is_while && ct == PrimType::I64)
    for (const core::Exp *h : hoist_loop_checks(e, bound)) hoisted_.insert(h);
  // Host loops free what an iteration allocated and does not carry to the next.
  Value *mark = mode_ == Host ? b_.CreateCall(rt("kerb_rt_scope_mark"), {ctx}) : nullptr;
  BasicBlock *head = BasicBlock::Create(c_, "loop.head", f_);
  BasicBlock *body_bb = BasicBlock::Create(c_, "loop.body", f_);
  BasicBlock *exit = BasicBlock::Create(c_, "loop.end", f_);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  std::vector<Val> cur = load_slots(state, params);
  for (size_t i = 0; i < params.size(); i++) bind(params[i], cur[i]);
  Value *go;
  if (e.is_while) {
    body(*e.bodies[1]);
    go = scalar(e.bodies[1]->result[0]);
    // Deferring: leave as soon as a check failed (Note [Deferred checks]).
    if (deferral_) go = b_.CreateAnd(go, b_.CreateNot(b_.CreateLoad(b_.getInt1Ty(), deferral_->flag)));
  } else {
    Value *i = b_.CreateLoad(ops_.reg_type(ct), counter);
    bind(e.loop_var, Val{i, nullptr, {}, {}});
    go = is_signed_int(ct) ? b_.CreateICmpSLT(i, bound) : b_.CreateICmpULT(i, bound);
  }
  b_.CreateCondBr(go, body_bb, exit);
  b_.SetInsertPoint(body_bb);
  int deferred_before = deferral_ ? deferral_->deferred : 0;
  if (!e.is_while) for_loop_depth++;
  body(*e.bodies[0]);
  if (!e.is_while) for_loop_depth--;
  bool deferred_in_body = deferral_ && deferral_->deferred > deferred_before;
  std::vector<Val> next = results(*e.bodies[0]);
  if (carried) next = carry_next(carry, next);
  // A host loop carries arrays contiguous: a view the body yields (a reversed or
  // strided slice) is copied here, before the scope release below, so that the copy is
  // among the live arrays it keeps (it used to be made in store_slots and freed).
  if (mode_ == Host)
    for (size_t i = 0; i < next.size(); i++)
      if (next[i].addr && !next[i].contiguous()) next[i] = materialize(next[i], p_.var(params[i]).type.prim);
  store_slots(state, next, params);
  if (mark) {
    std::vector<Value *> live;
    for (const Val &v : next)
      if (v.addr) live.push_back(v.addr);
    Value *buf = entry_alloca(ArrayType::get(b_.getInt64Ty(), std::max<size_t>(live.size(), 1)));
    for (size_t i = 0; i < live.size(); i++)
      b_.CreateStore(live[i], b_.CreateGEP(b_.getInt64Ty(), buf, i64(int64_t(i))));
    b_.CreateCall(rt("kerb_rt_scope_release"), {ctx, mark, buf, b_.getInt32(uint32_t(live.size()))});
  }
  if (!e.is_while) {
    Value *i = b_.CreateLoad(ops_.reg_type(ct), counter);
    b_.CreateStore(b_.CreateAdd(i, ConstantInt::get(i->getType(), 1)), counter);
  }
  llvm::BranchInst *latch = b_.CreateBr(head);
  // Deferring: a small loop whose body deferred checks unrolls as the unchecked one
  // would (Note [Deferred loops unrolled] in deferred_checks.cpp).
  if (deferred_in_body && !e.is_while && gpu_ && small_loop_body(*e.bodies[0]))
    latch->setMetadata(llvm::LLVMContext::MD_loop, unroll_count_md(kDeferredLoopUnroll));
  hoisted_ = std::move(hoisted_before);
  b_.SetInsertPoint(exit);
  std::vector<Val> out = load_slots(state, params);
  for (size_t i = 0; i < s.pat.size(); i++) bind(s.pat[i], out[i]);
}

void FnGen::index_stm(const core::Stm &s) {
  const core::Exp &e = s.exp;
  if (lane >= 0 && e.args.size() == 1 && e.args[0].is_var() && scalar(e.args[0]) == lane_index) {
    auto lv = lane_indexed.find(e.arrays[0]);
    if (lv != lane_indexed.end()) {
      bind(s.pat[0], Val{lv->second[size_t(lane)], nullptr, {}, {}});
      return;
    }
  }
  const Val &arr = lookup(e.arrays[0]);
  PrimType t = p_.var(e.arrays[0]).type.prim;
  std::vector<Value *> idx;
  Value *ok = b_.getTrue();
  for (size_t k = 0; k < e.args.size(); k++) {
    Value *i = ops_.to_i64(prim_of(e.args[k]), scalar(e.args[k]));
    idx.push_back(i);
    ok = b_.CreateAnd(ok, b_.CreateICmpULT(i, arr.dims[k]));
  }
  // A load's check is deferred (Note [Deferred checks]): the address is clamped.
  // A load whose check was hoisted before its loop (Note [Hoisted checks]) has none here.
  bool hoisted = e.site >= 0 && deferral_ && hoisted_.count(&e);
  bool deferred = e.site >= 0 && deferral_ && idx.size() == arr.dims.size() && !hoisted;
  if (deferred) defer(ok);
  else if (e.site >= 0 && !hoisted) check(ok, e.site, index_failure_args(idx, arr.dims));
  Value *addr = element_addr(arr.addr, offset_of(arr, idx), t);
  if (deferred && mode_ == Kernel && idx.size() == arr.dims.size()) {
    bind(s.pat[0], Val{deferred_load(t, ok, addr), nullptr, {}, {}});
    return;
  }
  if (idx.size() < arr.dims.size()) {
    bind(s.pat[0], subarray(arr, addr, idx.size()));
    return;
  }
  if (mode_ == Kernel) {
    bind(s.pat[0], Val{load_elem(t, addr), nullptr, {}, {}});
    return;
  }
  bind(s.pat[0], Val{host_read(t, addr), nullptr, {}, {}});
}

Value *FnGen::host_read(PrimType t, Value *addr) {
  AllocaInst *buf = entry_alloca(ops_.mem_type(t));
  Value *st = b_.CreateCall(rt("kerb_rt_read"),
                            {ctx, buf, addr, i64(int64_t(m_.getDataLayout().getTypeAllocSize(ops_.mem_type(t))))});
  return_if_error(st);
  return ops_.from_mem(t, b_.CreateLoad(ops_.mem_type(t), buf));
}

void FnGen::host_write(PrimType t, Value *v, Value *addr) {
  Type *et = ops_.mem_type(t);
  AllocaInst *buf = entry_alloca(et);
  b_.CreateStore(ops_.to_mem(t, v), buf);
  Value *es = i64(int64_t(m_.getDataLayout().getTypeAllocSize(et)));
  return_if_error(b_.CreateCall(rt("kerb_rt_write"), {ctx, addr, buf, es}));
}

void FnGen::return_if_error(Value *status) {
  BasicBlock *bad = BasicBlock::Create(c_, "rt.fail", f_);
  BasicBlock *good = BasicBlock::Create(c_, "rt.ok", f_);
  b_.CreateCondBr(b_.CreateICmpEQ(status, b_.getInt32(0)), good, bad,
                  MDBuilder(c_).createBranchWeights(1 << 20, 1));
  b_.SetInsertPoint(bad);
  b_.CreateRet(status);
  b_.SetInsertPoint(good);
}

BasicBlock *FnGen::counted_range(Value *lo, Value *hi, BasicBlock *exit,
                                 const std::function<void(Value *)> &body, bool unroll) {
  return stepped_range(lo, hi, i64(1), exit, body, unroll);
}

BasicBlock *FnGen::stepped_range(Value *lo, Value *hi, Value *step, BasicBlock *exit,
                                 const std::function<void(Value *)> &body, bool unroll) {
  AllocaInst *ctr = entry_alloca(b_.getInt64Ty());
  b_.CreateStore(lo, ctr);
  BasicBlock *head = BasicBlock::Create(c_, "for.head", f_);
  BasicBlock *work = BasicBlock::Create(c_, "for.body", f_);
  if (!exit) exit = BasicBlock::Create(c_, "for.end", f_);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  Value *i = b_.CreateLoad(b_.getInt64Ty(), ctr);
  b_.CreateCondBr(b_.CreateICmpSLT(i, hi), work, exit);
  b_.SetInsertPoint(work);
  body(i);
  b_.CreateStore(b_.CreateAdd(i, step), ctr);
  llvm::BranchInst *latch = b_.CreateBr(head);
  if (!unroll) {
    llvm::MDNode *off = llvm::MDNode::get(c_, {llvm::MDString::get(c_, "llvm.loop.unroll.disable")});
    llvm::MDNode *loop = llvm::MDNode::getDistinct(c_, {nullptr, off});
    loop->replaceOperandWith(0, loop);
    latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
  }
  b_.SetInsertPoint(exit);
  return exit;
}

BasicBlock *FnGen::strided_range(Value *first, Value *end, Value *stride, int64_t unroll,
                                 BasicBlock *exit,
                                 const std::function<std::vector<Val>(Value *)> &read,
                                 const std::function<void(const std::vector<Val> &)> &use, bool defer) {
  Value *left = b_.CreateSub(end, first);
  Value *count = b_.CreateSDiv(b_.CreateAdd(left, b_.CreateSub(stride, i64(1))), stride);
  count = b_.CreateSelect(b_.CreateICmpSGT(count, i64(0)), count, i64(0));
  Value *groups = b_.CreateUDiv(count, i64(unroll));
  auto at = [&](Value *q) { return b_.CreateAdd(first, b_.CreateMul(q, stride)); };
  counted_range(i64(0), groups, nullptr, [&](Value *q) {
    auto xs = std::vector<std::vector<Val>>(size_t(unroll));
    auto read_all = [&] {
      std::vector<Val> flat;
      for (int64_t u = 0; u < unroll; u++) {
        xs[size_t(u)] = read(at(b_.CreateAdd(b_.CreateMul(q, i64(unroll)), i64(u))));
        flat.insert(flat.end(), xs[size_t(u)].begin(), xs[size_t(u)].end());
      }
      return flat;
    };
    if (defer) {
      std::vector<Val> flat = deferred_values(read_all);
      size_t per = flat.size() / size_t(unroll);
      for (int64_t u = 0; u < unroll; u++)
        xs[size_t(u)].assign(flat.begin() + long(size_t(u) * per), flat.begin() + long(size_t(u + 1) * per));
    } else {
      read_all();
    }
    for (const std::vector<Val> &x : xs) use(x);
  });
  return counted_range(b_.CreateMul(groups, i64(unroll)), count, exit, [&](Value *q) {
    use(defer ? deferred_values([&] { return read(at(q)); }) : read(at(q)));
  });
}

void FnGen::counted_loop(Value *n, const std::function<void(Value *)> &body) {
  counted_range(i64(0), n, nullptr, body);
}

void FnGen::when(Value *cond, const std::function<void()> &body) {
  BasicBlock *yes = BasicBlock::Create(c_, "when.yes", f_), *no = BasicBlock::Create(c_, "when.no", f_);
  b_.CreateCondBr(cond, yes, no);
  b_.SetInsertPoint(yes);
  body();
  b_.CreateBr(no);
  b_.SetInsertPoint(no);
}

std::vector<Val> FnGen::apply(const core::Lambda &l, const std::vector<Val> &args) {
  KERB_ASSERT(l.params.size() == args.size(), "lambda applied to the wrong number of values");
  for (size_t i = 0; i < args.size(); i++) bind(l.params[i], args[i]);
  body(l.body);
  return results(l.body);
}

} // namespace kerb::codegen
