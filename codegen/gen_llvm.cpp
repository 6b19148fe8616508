// LLVM code generation for core programs (see gen_llvm.h).
//
// Values: a scalar is an LLVM register of its primitive type; an array is its address
// (an i64 device address in host code, a pointer in kernels) and one i64 per
// dimension, row-major and packed (bool as one byte). Core variables that change in
// loops and branches live in allocas; LLVM's mem2reg turns them into registers.
//
// Kernels get their arguments as 8-byte slots: on the GPU as kernel parameters, on the
// CPU through a pointer (see runtime/device_abi.h). The first slot of every kernel is
// the failure slot's address.
#include "codegen/gen_llvm.h"

#include "codegen/scalar_ops.h"
#include "compiler/prim_ops.h"
#include "compiler/source.h"

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <set>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

GeneratedProgram::GeneratedProgram() = default;
GeneratedProgram::~GeneratedProgram() {
  // Modules before their contexts.
  host.reset();
  kernels.reset();
}
GeneratedProgram::GeneratedProgram(GeneratedProgram &&) noexcept = default;
GeneratedProgram &GeneratedProgram::operator=(GeneratedProgram &&) noexcept = default;

std::string entry_symbol(const std::string &entry) { return "kerb_entry_" + entry; }

namespace {

constexpr int64_t kThreadsBlock = 256; // block size of Threads kernels on the GPU

[[noreturn]] void unsupported(const core::Exp &e, const std::string &what) {
  error_at(e.span, fmt::format("the code generator does not support {} yet", what));
}

// A value during code generation.
struct Val {
  Value *scalar = nullptr;   // scalars
  Value *addr = nullptr;     // arrays: i64 (host) or pointer (kernel)
  std::vector<Value *> dims; // arrays: i64 each
  // Arrays: the distance in elements between neighbours in each dim; empty for a
  // contiguous row-major array. Slices and rearrangements are views with strides.
  std::vector<Value *> strides;
  bool contiguous() const { return strides.empty(); }
};

// Free variables of a lambda (used inside, bound outside), in a stable order.
void free_vars_body(const core::Body &b, std::set<int> &bound, std::set<int> &out);

void free_vars_subexp(const core::SubExp &s, const std::set<int> &bound, std::set<int> &out) {
  if (s.is_var() && !bound.count(s.var)) out.insert(s.var);
}

void free_vars_exp(const core::Exp &e, std::set<int> &bound, std::set<int> &out) {
  for (const core::SubExp &s : e.args) free_vars_subexp(s, bound, out);
  for (int a : e.arrays)
    if (!bound.count(a)) out.insert(a);
  std::set<int> inner = bound;
  for (int p : e.loop_params) inner.insert(p);
  if (e.loop_var >= 0) inner.insert(e.loop_var);
  for (const auto &b : e.bodies) {
    std::set<int> scope = inner;
    free_vars_body(*b, scope, out);
  }
  if (e.lambda) {
    std::set<int> scope = bound;
    for (int p : e.lambda->params) scope.insert(p);
    free_vars_body(e.lambda->body, scope, out);
  }
}

void free_vars_body(const core::Body &b, std::set<int> &bound, std::set<int> &out) {
  for (const core::Stm &s : b.stms) {
    free_vars_exp(s.exp, bound, out);
    for (int v : s.pat) bound.insert(v);
  }
  for (const core::SubExp &s : b.result) free_vars_subexp(s, bound, out);
}

// Code generation of one function body (host code or a kernel), with its builder.
class FnGen {
public:
  enum Mode { Host, Kernel };

  FnGen(const core::Program &p, Module &m, Function *f, Mode mode, bool gpu, MathLib lib)
      : p_(p), m_(m), c_(m.getContext()), f_(f), b_(c_), ops_(b_, m, lib), mode_(mode),
        gpu_(gpu) {}

  IRBuilder<> &builder() { return b_; }
  ScalarOps &ops() { return ops_; }
  Function *function() { return f_; }

  // Where control goes after a check fails: host code returns the status; a kernel
  // thread stops (or, in a block kernel, records that it failed and goes on to the
  // next barrier).
  std::function<void(Value *status)> on_fail;
  Value *ctx = nullptr;          // host: the context pointer
  Value *failure_slot = nullptr; // kernel: pointer to the FailureSlot
  // Host: called for statements that become kernels.
  std::function<bool(const core::Stm &)> launch_hook;

  void bind(int var, Val v) { env_[var] = std::move(v); }
  const Val &lookup(int var) const {
    auto it = env_.find(var);
    KERB_ASSERT(it != env_.end(), "core variable v" + std::to_string(var) + " has no value");
    return it->second;
  }

  Value *scalar(const core::SubExp &s) {
    if (!s.is_var()) return ops_.constant(s.constant);
    const Val &v = lookup(s.var);
    KERB_ASSERT(v.scalar, "scalar expected");
    return v.scalar;
  }
  PrimType prim_of(const core::SubExp &s) const {
    return s.is_var() ? p_.var(s.var).type.prim : s.constant.type;
  }
  int rank_of(const core::SubExp &s) const { return s.is_var() ? p_.var(s.var).type.rank : 0; }
  Val val(const core::SubExp &s) {
    if (!s.is_var()) return Val{ops_.constant(s.constant), nullptr, {}, {}};
    return lookup(s.var);
  }

  Value *i64(int64_t v) { return b_.getInt64(uint64_t(v)); }

  // An element address: base + index * element size.
  Value *element_addr(Value *base, Value *flat_index, PrimType t) {
    Type *et = ops_.mem_type(t);
    if (mode_ == Host) {
      uint64_t size = m_.getDataLayout().getTypeAllocSize(et);
      return b_.CreateAdd(base, b_.CreateMul(flat_index, i64(int64_t(size))));
    }
    return b_.CreateGEP(et, base, flat_index);
  }

  // Row-major flat index of `idx` (leading dims) times the size of the rest.
  Value *flat_offset(const std::vector<Value *> &dims, const std::vector<Value *> &idx) {
    Value *off = i64(0);
    for (size_t d = 0; d < dims.size(); d++) {
      Value *i = d < idx.size() ? idx[d] : i64(0);
      off = b_.CreateAdd(b_.CreateMul(off, dims[d]), i);
    }
    return off;
  }

  // The strides of an array value, explicit (row-major ones for a contiguous array).
  std::vector<Value *> strides_of(const Val &v) {
    if (!v.contiguous()) return v.strides;
    std::vector<Value *> st(v.dims.size());
    Value *acc = i64(1);
    for (size_t d = v.dims.size(); d-- > 0;) {
      st[d] = acc;
      acc = b_.CreateMul(acc, v.dims[d]);
    }
    return st;
  }

  // The offset in elements of the element or row at `idx` (leading dims).
  Value *offset_of(const Val &arr, const std::vector<Value *> &idx) {
    if (arr.contiguous()) return flat_offset(arr.dims, idx);
    Value *off = i64(0);
    for (size_t d = 0; d < idx.size(); d++) off = b_.CreateAdd(off, b_.CreateMul(idx[d], arr.strides[d]));
    return off;
  }

  // The view of the sub-array at `idx` (fewer leading dims).
  Val subarray(const Val &arr, Value *addr, size_t k) {
    Val v;
    v.addr = addr;
    v.dims.assign(arr.dims.begin() + long(k), arr.dims.end());
    if (!arr.contiguous()) v.strides.assign(arr.strides.begin() + long(k), arr.strides.end());
    return v;
  }

  Value *product(const std::vector<Value *> &dims, size_t from = 0) {
    Value *n = i64(1);
    for (size_t d = from; d < dims.size(); d++) n = b_.CreateMul(n, dims[d]);
    return n;
  }

  // Kernel: load / store an element.
  // Kernels that never write memory they read (every kernel but hist's and scan's
  // prefix pass: outputs are fresh arrays) mark their loads invariant, which lets the
  // GPU use its read-only data path.
  bool invariant_loads = false;

  Value *load_elem(PrimType t, Value *addr) {
    LoadInst *l = b_.CreateLoad(ops_.mem_type(t), addr);
    if (invariant_loads && mode_ == Kernel)
      l->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(c_, {}));
    return ops_.from_mem(t, l);
  }
  void store_elem(PrimType t, Value *v, Value *addr) { b_.CreateStore(ops_.to_mem(t, v), addr); }

  // ---- checks

  // Emits `if (!ok) fail(site, args)`; continues on the ok path.
  void check(Value *ok, int site, const std::vector<Value *> &args) {
    BasicBlock *bad = BasicBlock::Create(c_, "check.fail", f_);
    BasicBlock *good = BasicBlock::Create(c_, "check.ok", f_);
    b_.CreateCondBr(ok, good, bad, MDBuilder(c_).createBranchWeights(1 << 20, 1));
    b_.SetInsertPoint(bad);
    emit_failure(site, args);
    b_.SetInsertPoint(good);
  }

  void emit_failure(int site, const std::vector<Value *> &args) {
    if (mode_ == Host) {
      Value *buf = b_.CreateAlloca(b_.getInt64Ty(), i64(int64_t(std::max<size_t>(args.size(), 1))));
      for (size_t i = 0; i < args.size(); i++)
        b_.CreateStore(args[i], b_.CreateGEP(b_.getInt64Ty(), buf, i64(int64_t(i))));
      Value *status = b_.CreateCall(rt("kerb_rt_fail"),
                                    {ctx, b_.getInt32(uint32_t(site)), buf,
                                     b_.getInt32(uint32_t(args.size()))});
      on_fail(status);
      return;
    }
    // Kernel: the first failing thread claims the slot and writes the arguments.
    Value *code_ptr = failure_slot;
    Value *old = b_.CreateAtomicCmpXchg(code_ptr, b_.getInt32(uint32_t(-1)),
                                        b_.getInt32(uint32_t(site)), MaybeAlign(4),
                                        AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
    Value *won = b_.CreateExtractValue(old, 1);
    BasicBlock *write = BasicBlock::Create(c_, "fail.write", f_);
    BasicBlock *after = BasicBlock::Create(c_, "fail.done", f_);
    b_.CreateCondBr(won, write, after);
    b_.SetInsertPoint(write);
    for (size_t i = 0; i < args.size() && i < size_t(kFailureMaxArgs); i++) {
      Value *slot = b_.CreateGEP(b_.getInt8Ty(), failure_slot, i64(int64_t(8 + 8 * i)));
      b_.CreateStore(args[i], slot);
    }
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
    on_fail(nullptr);
  }

  // Index arguments of a bounds failure: the indices, then every dim.
  std::vector<Value *> index_failure_args(const std::vector<Value *> &idx,
                                          const std::vector<Value *> &dims) {
    std::vector<Value *> args = idx;
    args.insert(args.end(), dims.begin(), dims.end());
    return args;
  }

  Function *rt(const std::string &name) {
    Function *f = m_.getFunction(name);
    KERB_ASSERT(f, "runtime function " + name + " is not declared");
    return f;
  }

  // ---- statements

  void body(const core::Body &b) {
    const core::Body *saved = cur_body_;
    cur_body_ = &b;
    for (const core::Stm &s : b.stms) stm(s);
    cur_body_ = saved;
  }

  // Kernels: a Map or Iota whose results are only ever read whole, element by element,
  // by later maps and reductions of the same body is not stored: its elements are
  // computed where they are read (fusion; no memory needed in the thread).
  struct Lazy {
    const core::Stm *stm;
    size_t result;
  };
  std::map<int, Lazy> lazy_;
  const core::Body *cur_body_ = nullptr;

  bool consumed_whole(const core::Stm &s) {
    if (!cur_body_) return false;
    if (s.exp.kind == core::ExpKind::Map)
      for (int v : s.pat)
        if (p_.var(v).type.rank != 1) return false;
    std::set<int> vars(s.pat.begin(), s.pat.end());
    bool after = false;
    for (const core::Stm &t : cur_body_->stms) {
      if (&t == &s) {
        after = true;
        continue;
      }
      if (after && !uses_only_whole(t.exp, vars)) return false;
    }
    for (const core::SubExp &r : cur_body_->result)
      if (r.is_var() && vars.count(r.var)) return false;
    return true;
  }

  static bool uses_only_whole(const core::Exp &e, const std::set<int> &vars) {
    for (const core::SubExp &a : e.args)
      if (a.is_var() && vars.count(a.var)) return false;
    bool whole = e.kind == core::ExpKind::Map || e.kind == core::ExpKind::Reduce;
    for (int a : e.arrays)
      if (vars.count(a) && !whole) return false;
    auto body_ok = [&](const core::Body &b) {
      for (const core::Stm &t : b.stms)
        if (!uses_only_whole(t.exp, vars)) return false;
      for (const core::SubExp &r : b.result)
        if (r.is_var() && vars.count(r.var)) return false;
      return true;
    };
    for (const auto &b : e.bodies)
      if (b && !body_ok(*b)) return false;
    if (e.lambda && !body_ok(e.lambda->body)) return false;
    return true;
  }

  std::vector<Val> results(const core::Body &b) {
    std::vector<Val> out;
    for (const core::SubExp &s : b.result) out.push_back(val(s));
    return out;
  }

  void stm(const core::Stm &s) {
    if (mode_ == Host && launch_hook && launch_hook(s)) return;
    if (destination_stm(s)) return;
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
      if (e.site >= 0 && is_checked_division(e.binop, t))
        check(b_.CreateICmpNE(b, ConstantInt::get(b->getType(), 0)), e.site, {});
      if (e.site >= 0 && e.binop == BinOp::Pow && is_signed_int(t))
        check(b_.CreateICmpSGE(b, ConstantInt::get(b->getType(), 0)), e.site, {});
      bind1(Val{ops_.binop(e.binop, t, a, b), nullptr, {}, {}});
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
      bind1(Val{ops_.prim_fn(e.prim_fn, x, y), nullptr, {}, {}});
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
    case core::ExpKind::Slice: {
      // A view: the start's offset, and strides scaled by the steps.
      const Val &src = lookup(e.arrays[0]);
      std::vector<Value *> st = strides_of(src);
      Val v;
      Value *off = i64(0);
      v.dims = src.dims;
      v.strides = st;
      for (size_t d = 0; d * 3 + 2 < e.args.size(); d++) {
        Value *start = scalar(e.args[3 * d]), *count = scalar(e.args[3 * d + 1]);
        Value *step = scalar(e.args[3 * d + 2]);
        off = b_.CreateAdd(off, b_.CreateMul(start, st[d]));
        v.dims[d] = count;
        v.strides[d] = b_.CreateMul(st[d], step);
      }
      v.addr = element_addr(src.addr, off, p_.var(e.arrays[0]).type.prim);
      bind(s.pat[0], v);
      return;
    }
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
      if (mode_ == Kernel && consumed_whole(s)) {
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
    if (mode_ == Kernel) unsupported(e, "this operation inside a kernel (it needs memory)");
    host_stm(s);
  }

  // Host statements that are not kernels: overridden by the host generator.
  std::function<void(const core::Stm &)> host_stm;

  // Variables of a statement's pattern live in allocas across control flow.
  struct Slots {
    std::vector<AllocaInst *> scalar, addr;
    std::vector<std::vector<AllocaInst *>> dims;
    std::vector<std::vector<AllocaInst *>> strides; // kernels only (host: contiguous)
  };

  // Host code: makes an array contiguous (a copy), for the generator to provide.
  std::function<Val(const Val &, PrimType)> materialize;

  AllocaInst *entry_alloca(Type *t) {
    IRBuilder<> eb(&f_->getEntryBlock(), f_->getEntryBlock().begin());
    return eb.CreateAlloca(t);
  }

  Type *addr_type() {
    if (mode_ == Host) return b_.getInt64Ty();
    return PointerType::get(c_, gpu_ ? 1 : 0);
  }

  Slots make_slots(const std::vector<int> &vars) {
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

  void store_slots(const Slots &s, const std::vector<Val> &vals0,
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

  std::vector<Val> load_slots(const Slots &s, const std::vector<int> &vars) {
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

  void if_stm(const core::Stm &s) {
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

  void loop_stm(const core::Stm &s) {
    const core::Exp &e = s.exp;
    const std::vector<int> &params = e.loop_params;
    Slots state = make_slots(params);
    std::vector<Val> init;
    for (size_t i = 0; i < params.size(); i++) init.push_back(val(e.args[i]));
    store_slots(state, init, params);
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
    } else {
      Value *i = b_.CreateLoad(ops_.reg_type(ct), counter);
      bind(e.loop_var, Val{i, nullptr, {}, {}});
      go = is_signed_int(ct) ? b_.CreateICmpSLT(i, bound) : b_.CreateICmpULT(i, bound);
    }
    b_.CreateCondBr(go, body_bb, exit);
    b_.SetInsertPoint(body_bb);
    body(*e.bodies[0]);
    store_slots(state, results(*e.bodies[0]), params);
    if (!e.is_while) {
      Value *i = b_.CreateLoad(ops_.reg_type(ct), counter);
      b_.CreateStore(b_.CreateAdd(i, ConstantInt::get(i->getType(), 1)), counter);
    }
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    std::vector<Val> out = load_slots(state, params);
    for (size_t i = 0; i < s.pat.size(); i++) bind(s.pat[i], out[i]);
  }

  // xs[i, j, ...]: a scalar load, or a sub-array view.
  void index_stm(const core::Stm &s) {
    const core::Exp &e = s.exp;
    const Val &arr = lookup(e.arrays[0]);
    PrimType t = p_.var(e.arrays[0]).type.prim;
    std::vector<Value *> idx;
    Value *ok = b_.getTrue();
    for (size_t k = 0; k < e.args.size(); k++) {
      Value *i = ops_.to_i64(prim_of(e.args[k]), scalar(e.args[k]));
      idx.push_back(i);
      ok = b_.CreateAnd(ok, b_.CreateICmpULT(i, arr.dims[k]));
    }
    if (e.site >= 0) check(ok, e.site, index_failure_args(idx, arr.dims));
    Value *addr = element_addr(arr.addr, offset_of(arr, idx), t);
    if (idx.size() < arr.dims.size()) {
      bind(s.pat[0], subarray(arr, addr, idx.size()));
      return;
    }
    if (mode_ == Kernel) {
      bind(s.pat[0], Val{load_elem(t, addr), nullptr, {}, {}});
      return;
    }
    AllocaInst *buf = entry_alloca(ops_.mem_type(t));
    Value *st = b_.CreateCall(rt("kerb_rt_read"),
                              {ctx, buf, addr, i64(int64_t(m_.getDataLayout().getTypeAllocSize(ops_.mem_type(t))))});
    return_if_error(st);
    bind(s.pat[0], Val{ops_.from_mem(t, b_.CreateLoad(ops_.mem_type(t), buf)), nullptr, {}, {}});
  }

  // Host: if `status` is non-zero, return it.
  void return_if_error(Value *status) {
    BasicBlock *bad = BasicBlock::Create(c_, "rt.fail", f_);
    BasicBlock *good = BasicBlock::Create(c_, "rt.ok", f_);
    b_.CreateCondBr(b_.CreateICmpEQ(status, b_.getInt32(0)), good, bad,
                    MDBuilder(c_).createBranchWeights(1 << 20, 1));
    b_.SetInsertPoint(bad);
    b_.CreateRet(status);
    b_.SetInsertPoint(good);
  }

  // for (i = lo; i < hi; i++) body(i), continuing at `exit` (a new block if null),
  // which it returns; the builder is left there.
  BasicBlock *counted_range(Value *lo, Value *hi, BasicBlock *exit,
                            const std::function<void(Value *)> &body) {
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
    b_.CreateStore(b_.CreateAdd(i, i64(1)), ctr);
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    return exit;
  }

  void counted_loop(Value *n, const std::function<void(Value *)> &body) {
    counted_range(i64(0), n, nullptr, body);
  }

  // Applies a lambda to argument values; returns its results.
  std::vector<Val> apply(const core::Lambda &l, const std::vector<Val> &args) {
    KERB_ASSERT(l.params.size() == args.size(), "lambda applied to the wrong number of values");
    for (size_t i = 0; i < args.size(); i++) bind(l.params[i], args[i]);
    body(l.body);
    return results(l.body);
  }

  // Row i of each array: a scalar element or a sub-array view (kernel code).
  std::vector<Val> rows_at(const std::vector<int> &arrays, Value *i) {
    std::vector<Val> out;
    for (int a : arrays) {
      auto lz = lazy_.find(a);
      if (lz != lazy_.end()) {
        const core::Stm &ls = *lz->second.stm;
        if (ls.exp.kind == core::ExpKind::Iota) {
          out.push_back(Val{ops_.convert(PrimType::I64, ls.exp.to, i), nullptr, {}, {}});
          continue;
        }
        std::vector<Val> r = apply(*ls.exp.lambda, rows_at(ls.exp.arrays, i));
        out.push_back(r[lz->second.result]);
        continue;
      }
      const Val &arr = lookup(a);
      PrimType t = p_.var(a).type.prim;
      Value *addr = element_addr(arr.addr, offset_of(arr, {i}), t);
      if (arr.dims.size() == 1)
        out.push_back(Val{load_elem(t, addr), nullptr, {}, {}});
      else
        out.push_back(subarray(arr, addr, 1));
    }
    return out;
  }

  // Kernels: arrays that statements write straight into their final place (the rows
  // of a map's result), by variable.
  std::map<int, Val> dest_;

  // The statement of `body` that binds v, if any.
  static const core::Stm *binding_of(const core::Body &body, int v) {
    for (const core::Stm &s : body.stms)
      for (int p : s.pat)
        if (p == v) return &s;
    return nullptr;
  }

  static bool writes_to_destination(const core::Stm &s) {
    return s.exp.kind == core::ExpKind::Map || s.exp.kind == core::ExpKind::Iota ||
           s.exp.kind == core::ExpKind::Replicate;
  }

  // Element i of a map: applies the lambda to row i of `arrays` and stores each result
  // at index i of its destination array (`dests`, one per result). Array results are
  // computed in place where their statement allows it, and copied otherwise.
  void map_element(const core::Lambda &l, const std::vector<int> &arrays, Value *i,
                   const std::vector<Val> &dests) {
    std::vector<Val> rows = rows_at(arrays, i);
    std::vector<bool> in_place(l.body.result.size(), false);
    for (size_t j = 0; j < l.body.result.size(); j++) {
      const core::SubExp &r = l.body.result[j];
      if (!r.is_var() || p_.var(r.var).type.rank == 0) continue;
      const core::Stm *def = binding_of(l.body, r.var);
      if (!def || !writes_to_destination(*def) || def->pat.size() != 1) continue;
      PrimType t = p_.var(r.var).type.prim;
      dest_[r.var] = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
      in_place[j] = true;
    }
    std::vector<Val> res = apply(l, rows);
    for (size_t j = 0; j < res.size(); j++) {
      const core::SubExp &r = l.body.result[j];
      PrimType t = prim_of(r);
      if (rank_of(r) == 0) {
        store_elem(t, res[j].scalar, element_addr(dests[j].addr, offset_of(dests[j], {i}), t));
        continue;
      }
      if (in_place[j]) continue;
      Val dst = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
      copy_elements(t, res[j], dst);
    }
  }

  // Copies every element of array view `src` to view `dst` (same shape).
  void copy_elements(PrimType t, const Val &src, const Val &dst) {
    std::function<void(size_t, Value *, Value *)> go = [&](size_t d, Value *so, Value *doff) {
      if (d == src.dims.size()) {
        store_elem(t, load_elem(t, element_addr(src.addr, so, t)), element_addr(dst.addr, doff, t));
        return;
      }
      std::vector<Value *> ss = strides_of(src), ds = strides_of(dst);
      counted_loop(src.dims[d], [&](Value *k) {
        go(d + 1, b_.CreateAdd(so, b_.CreateMul(k, ss[d])), b_.CreateAdd(doff, b_.CreateMul(k, ds[d])));
      });
    };
    go(0, i64(0), i64(0));
  }

  // Map/Iota/Replicate inside a kernel, writing into their destination.
  bool destination_stm(const core::Stm &s) {
    if (mode_ != Kernel || s.pat.empty() || !dest_.count(s.pat[0])) return false;
    const core::Exp &e = s.exp;
    Val dst = dest_[s.pat[0]];
    dest_.erase(s.pat[0]);
    PrimType t = p_.var(s.pat[0]).type.prim;
    switch (e.kind) {
    case core::ExpKind::Map:
      counted_loop(scalar(e.args[0]), [&](Value *i) { map_element(*e.lambda, e.arrays, i, {dst}); });
      break;
    case core::ExpKind::Iota:
      counted_loop(dst.dims[0], [&](Value *i) {
        store_elem(t, ops_.convert(PrimType::I64, t, i), element_addr(dst.addr, offset_of(dst, {i}), t));
      });
      break;
    case core::ExpKind::Replicate: {
      Val x = val(e.args[1]);
      counted_loop(dst.dims[0], [&](Value *i) {
        Val row = subarray(dst, element_addr(dst.addr, offset_of(dst, {i}), t), 1);
        if (rank_of(e.args[1]) == 0) store_elem(t, x.scalar, row.addr);
        else copy_elements(t, x, row);
      });
      break;
    }
    default: return false;
    }
    bind(s.pat[0], dst);
    return true;
  }

  // A Reduce inside a kernel: a sequential loop.
  void sequential_reduce(const core::Stm &s) {
    const core::Exp &e = s.exp;
    size_t k = e.args.size() - 1;
    for (int r : s.pat)
      if (p_.var(r).type.rank != 0) unsupported(e, "reductions with array operands");
    Slots acc = make_slots(s.pat);
    std::vector<Val> ne;
    for (size_t j = 0; j < k; j++) ne.push_back(val(e.args[j + 1]));
    store_slots(acc, ne, s.pat);
    Value *n = scalar(e.args[0]);
    AllocaInst *counter = entry_alloca(b_.getInt64Ty());
    b_.CreateStore(i64(0), counter);
    BasicBlock *head = BasicBlock::Create(c_, "red.head", f_);
    BasicBlock *body_bb = BasicBlock::Create(c_, "red.body", f_);
    BasicBlock *exit = BasicBlock::Create(c_, "red.end", f_);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    Value *i = b_.CreateLoad(b_.getInt64Ty(), counter);
    b_.CreateCondBr(b_.CreateICmpSLT(i, n), body_bb, exit);
    b_.SetInsertPoint(body_bb);
    std::vector<Val> args = load_slots(acc, s.pat);
    std::vector<Val> rows = rows_at(e.arrays, i);
    args.insert(args.end(), rows.begin(), rows.end());
    store_slots(acc, apply(*e.lambda, args), s.pat);
    b_.CreateStore(b_.CreateAdd(i, i64(1)), counter);
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    std::vector<Val> out = load_slots(acc, s.pat);
    for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], out[j]);
  }

  const core::Program &p_;
  Module &m_;
  LLVMContext &c_;
  Function *f_;
  IRBuilder<> b_;
  ScalarOps ops_;
  Mode mode_;
  bool gpu_;
  std::map<int, Val> env_;
};

// ---------------------------------------------------------------------------------
// The program generator: host functions, and kernels extracted from them.

class ProgramGen {
public:
  ProgramGen(const core::Program &p, Target target) : p_(p), target_(target) {}

  GeneratedProgram run() {
    out_.host_context = std::make_unique<LLVMContext>();
    out_.host = std::make_unique<Module>("kerb_host", *out_.host_context);
    if (target_ == Target::Cuda) {
      out_.kernel_context = std::make_unique<LLVMContext>();
      out_.kernels = std::make_unique<Module>("kerb_kernels", *out_.kernel_context);
    }
    declare_runtime(*out_.host);
    for (const core::Function &f : p_.functions) host_function(f);
    return std::move(out_);
  }

private:
  Module &kernel_module() { return target_ == Target::Cuda ? *out_.kernels : *out_.host; }
  bool gpu() const { return target_ == Target::Cuda; }

  void declare_runtime(Module &m) {
    LLVMContext &c = m.getContext();
    Type *i64 = Type::getInt64Ty(c), *i32 = Type::getInt32Ty(c);
    Type *ptr = PointerType::get(c, 0);
    auto decl = [&](const char *name, Type *ret, std::vector<Type *> params) {
      Function::Create(FunctionType::get(ret, params, false), GlobalValue::ExternalLinkage, name, m);
    };
    decl("kerb_rt_alloc", i64, {ptr, i64});
    decl("kerb_rt_failure_slot", i64, {ptr});
    decl("kerb_rt_block_size", i64, {ptr});
    decl("kerb_rt_num_blocks", i64, {ptr, i64});
    decl("kerb_rt_launch", i32, {ptr, i32, i64, ptr, i32});
    decl("kerb_rt_read", i32, {ptr, ptr, i64, i64});
    decl("kerb_rt_write", i32, {ptr, i64, ptr, i64});
    decl("kerb_rt_copy", i32, {ptr, i64, i64, i64});
    decl("kerb_rt_fail", i32, {ptr, i32, ptr, i32});
  }

  // ---- host functions

  void host_function(const core::Function &fn) {
    Module &m = *out_.host;
    LLVMContext &c = m.getContext();
    Type *ptr = PointerType::get(c, 0);
    Function *f = Function::Create(FunctionType::get(Type::getInt32Ty(c), {ptr, ptr, ptr}, false),
                                   GlobalValue::ExternalLinkage, entry_symbol(fn.name), m);
    BasicBlock::Create(c, "entry", f);
    FnGen g(p_, m, f, FnGen::Host, false, MathLib::Libm);
    IRBuilder<> &b = g.builder();
    b.SetInsertPoint(&f->getEntryBlock());
    g.ctx = f->getArg(0);
    Value *in = f->getArg(1), *out = f->getArg(2);
    g.on_fail = [&g](Value *status) { g.builder().CreateRet(status); };
    host_ = &g;
    g.launch_hook = [this](const core::Stm &s) { return launch(s); };
    g.host_stm = [this](const core::Stm &s) { host_stm(s); };
    g.materialize = [this](const Val &v, PrimType t) { return materialize(v, t); };

    // Parameters from the input slots.
    int slot = 0;
    auto in_slot = [&](int i) {
      return b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), in, g.i64(i)));
    };
    for (size_t k = 0; k < fn.params.size(); k++) {
      int v = fn.params[k];
      const core::CType &t = p_.var(v).type;
      if (t.rank == 0) {
        g.bind(v, Val{g.ops().from_slot(t.prim, in_slot(slot++)), nullptr, {}, {}});
        continue;
      }
      Val a;
      a.addr = in_slot(slot++);
      for (int d = 0; d < t.rank; d++) a.dims.push_back(in_slot(slot++));
      g.bind(v, a);
      if (k < fn.param_shape_vars.size())
        for (size_t d = 0; d < fn.param_shape_vars[k].size(); d++)
          g.bind(fn.param_shape_vars[k][d], Val{a.dims[d], nullptr, {}, {}});
    }
    g.body(fn.body);
    // Results to the output slots.
    std::vector<Val> res = g.results(fn.body);
    slot = 0;
    auto out_slot = [&](Value *v) {
      b.CreateStore(v, b.CreateGEP(b.getInt64Ty(), out, g.i64(slot++)));
    };
    for (size_t k = 0; k < res.size(); k++) {
      PrimType t = g.prim_of(fn.body.result[k]);
      if (g.rank_of(fn.body.result[k]) == 0) {
        out_slot(g.ops().to_slot(t, res[k].scalar));
        continue;
      }
      Val r = res[k].contiguous() ? res[k] : materialize(res[k], t);
      out_slot(r.addr);
      for (Value *d : r.dims) out_slot(d);
    }
    b.CreateRet(b.getInt32(0));
    host_ = nullptr;
  }

  // Host statements that are neither scalar code nor kernels.
  void host_stm(const core::Stm &s) {
    FnGen &g = *host_;
    IRBuilder<> &b = g.builder();
    const core::Exp &e = s.exp;
    switch (e.kind) {
    case core::ExpKind::ArrayLit: {
      int v = s.pat[0];
      const core::CType &t = p_.var(v).type;
      size_t n = e.args.size();
      if (t.rank == 1) {
        Type *et = g.ops().mem_type(t.prim);
        uint64_t es = out_.host->getDataLayout().getTypeAllocSize(et);
        AllocaInst *buf = b.CreateAlloca(et, g.i64(int64_t(n)));
        for (size_t i = 0; i < n; i++)
          b.CreateStore(g.ops().to_mem(t.prim, g.scalar(e.args[i])),
                        b.CreateGEP(et, buf, g.i64(int64_t(i))));
        Value *bytes = g.i64(int64_t(n * es));
        Value *addr = alloc(bytes);
        g.return_if_error(b.CreateCall(g.rt("kerb_rt_write"), {g.ctx, addr, buf, bytes}));
        g.bind(v, Val{nullptr, addr, {g.i64(int64_t(n))}, {}});
        return;
      }
      // Rows that are arrays: copy each into place.
      Val first = g.val(e.args[0]);
      Value *row_elems = g.product(first.dims);
      uint64_t es = out_.host->getDataLayout().getTypeAllocSize(g.ops().mem_type(t.prim));
      Value *row_bytes = b.CreateMul(row_elems, g.i64(int64_t(es)));
      Value *addr = alloc(b.CreateMul(row_bytes, g.i64(int64_t(n))));
      for (size_t i = 0; i < n; i++) {
        Val row = contiguous(g.val(e.args[i]), t.prim);
        Value *dst = b.CreateAdd(addr, b.CreateMul(row_bytes, g.i64(int64_t(i))));
        g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, dst, row.addr, row_bytes}));
      }
      Val out{nullptr, addr, {g.i64(int64_t(n))}, {}};
      out.dims.insert(out.dims.end(), first.dims.begin(), first.dims.end());
      g.bind(v, out);
      return;
    }
    case core::ExpKind::Copy: {
      const core::CType &t = p_.var(e.arrays[0]).type;
      const Val &src0 = g.lookup(e.arrays[0]);
      if (!src0.contiguous()) {
        g.bind(s.pat[0], materialize(src0, t.prim));
        return;
      }
      const Val &src = src0;
      Value *bytes = byte_size(t.prim, src.dims);
      Value *addr = alloc(bytes);
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, addr, src.addr, bytes}));
      g.bind(s.pat[0], Val{nullptr, addr, src.dims, {}});
      return;
    }
    case core::ExpKind::Update: {
      // A copy of the array with one element or row replaced.
      const core::CType &t = p_.var(e.arrays[0]).type;
      Val src = contiguous(g.lookup(e.arrays[0]), t.prim);
      size_t k = e.args.size() - 1;
      std::vector<Value *> idx;
      Value *ok = b.getTrue();
      for (size_t j = 0; j < k; j++) {
        Value *i = g.ops().to_i64(g.prim_of(e.args[j]), g.scalar(e.args[j]));
        idx.push_back(i);
        ok = b.CreateAnd(ok, b.CreateICmpULT(i, src.dims[j]));
      }
      if (e.site >= 0) g.check(ok, e.site, g.index_failure_args(idx, src.dims));
      Value *bytes = byte_size(t.prim, src.dims);
      Value *addr = alloc(bytes);
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, addr, src.addr, bytes}));
      Value *dst = g.element_addr(addr, g.flat_offset(src.dims, idx), t.prim);
      const core::SubExp &v = e.args.back();
      if (g.rank_of(v) == 0) {
        Type *et = g.ops().mem_type(t.prim);
        AllocaInst *buf = g.entry_alloca(et);
        b.CreateStore(g.ops().to_mem(t.prim, g.scalar(v)), buf);
        Value *es = g.i64(int64_t(out_.host->getDataLayout().getTypeAllocSize(et)));
        g.return_if_error(b.CreateCall(g.rt("kerb_rt_write"), {g.ctx, dst, buf, es}));
      } else {
        Val row = contiguous(g.val(v), t.prim);
        g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"),
                                       {g.ctx, dst, row.addr, byte_size(t.prim, row.dims)}));
      }
      g.bind(s.pat[0], Val{nullptr, addr, src.dims, {}});
      return;
    }
    case core::ExpKind::Reshape: {
      PrimType t = p_.var(e.arrays[0]).type.prim;
      Val v = contiguous(g.lookup(e.arrays[0]), t);
      v.dims.clear();
      for (const core::SubExp &d : e.args) v.dims.push_back(g.scalar(d));
      g.bind(s.pat[0], v);
      return;
    }
    case core::ExpKind::Concat: {
      PrimType t = p_.var(s.pat[0]).type.prim;
      std::vector<Val> parts;
      Value *rows = g.i64(0);
      for (int a : e.arrays) {
        parts.push_back(contiguous(g.lookup(a), t));
        rows = b.CreateAdd(rows, parts.back().dims[0]);
      }
      Val out;
      out.dims = parts[0].dims;
      out.dims[0] = rows;
      out.addr = alloc(byte_size(t, out.dims));
      Value *at = out.addr;
      for (const Val &part : parts) {
        Value *bytes = byte_size(t, part.dims);
        g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, at, part.addr, bytes}));
        at = b.CreateAdd(at, bytes);
      }
      g.bind(s.pat[0], out);
      return;
    }
    default: break;
    }
    unsupported(e, "this operation in host code");
  }

  // Host code: `v` itself if contiguous, else a contiguous copy.
  Val contiguous(const Val &v, PrimType t) { return v.contiguous() ? v : materialize(v, t); }

  // A contiguous copy of a strided array: a gather kernel over its elements.
  Val materialize(const Val &src, PrimType t) {
    FnGen &h = *host_;
    IRBuilder<> &hb = h.builder();
    size_t rank = src.dims.size();
    Value *total = h.product(src.dims);
    Val out;
    out.dims = src.dims;
    out.addr = alloc(byte_size(t, src.dims));
    SlotList sl;
    size_t total_slot = add_raw(sl, total);
    size_t src_slot = add_raw(sl, src.addr);
    size_t dims_slot = sl.host_values.size() + 1;
    for (Value *d : src.dims) add_raw(sl, d);
    for (Value *st : h.strides_of(src)) add_raw(sl, st);
    size_t dst_slot = add_raw(sl, out.addr);
    KernelFn k = new_kernel("copy", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    FnGen &g = *k.g;
    g.invariant_loads = true;
    IRBuilder<> &b = g.builder();
    Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
    threads_kernel(k, k.slot(total_slot), [&](Value *gid) {
      Value *rem = gid, *off = b.getInt64(0);
      for (size_t d = rank; d-- > 0;) {
        Value *n = k.slot(dims_slot + d), *st = k.slot(dims_slot + rank + d);
        off = b.CreateAdd(off, b.CreateMul(b.CreateURem(rem, n), st));
        rem = b.CreateUDiv(rem, n);
      }
      Value *from = b.CreateIntToPtr(k.slot(src_slot), gptr);
      Value *to = b.CreateIntToPtr(k.slot(dst_slot), gptr);
      g.store_elem(t, g.load_elem(t, g.element_addr(from, off, t)), g.element_addr(to, gid, t));
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, total, sl);
    (void)hb;
    return out;
  }

  Value *byte_size(PrimType t, const std::vector<Value *> &dims) {
    FnGen &g = *host_;
    uint64_t es = out_.host->getDataLayout().getTypeAllocSize(g.ops().mem_type(t));
    return g.builder().CreateMul(g.product(dims), g.i64(int64_t(es)));
  }

  Value *alloc(Value *bytes) {
    FnGen &g = *host_;
    IRBuilder<> &b = g.builder();
    Value *addr = b.CreateCall(g.rt("kerb_rt_alloc"), {g.ctx, bytes});
    // An allocation failure has already been recorded in the context.
    g.return_if_error(b.CreateZExt(b.CreateICmpEQ(addr, g.i64(0)), b.getInt32Ty()));
    return addr;
  }

  // ---- kernels

  // One launch argument: a slot value in host code, and how the kernel reads it back.
  struct KernelArg {
    int var;                  // the core variable (its type says how to unpack)
    size_t first;             // its first slot
    bool contiguous = false;  // arrays: known contiguous when the kernel is generated
  };

  // Collects the slots for values the kernel uses: scalars (1 slot) and arrays
  // (address + dims).
  struct SlotList {
    std::vector<Value *> host_values; // in host code
    std::vector<KernelArg> args;
    std::vector<std::pair<int, FnGen::Lazy>> lazies; // fused maps computed in the kernel
    std::set<int> added;
    bool prelude = false; // a fused map needs the kernel prelude
  };

  // Maps whose results are read only whole by later maps and reductions are not run on
  // their own: the kernels that read them compute their elements (fusion).
  std::map<int, FnGen::Lazy> host_lazy_;

  // Adds a variable a kernel reads: a value, or a fused map (its own inputs, free
  // variables and width, recursively).
  void add_input(SlotList &sl, int v) {
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
    sl.prelude = sl.prelude || needs_prelude(ms.exp.lambda->body);
    if (ms.exp.args[0].is_var()) add_input(sl, ms.exp.args[0].var);
    std::set<int> bound, free;
    for (int p : ms.exp.lambda->params) bound.insert(p);
    free_vars_body(ms.exp.lambda->body, bound, free);
    for (int f : free) add_input(sl, f);
    for (int a : ms.exp.arrays) add_input(sl, a);
  }

  void add_var(SlotList &sl, int v) {
    FnGen &g = *host_;
    const core::CType &t = p_.var(v).type;
    const Val &val = g.lookup(v);
    sl.args.push_back(KernelArg{v, sl.host_values.size() + 1, t.rank > 0 && val.contiguous()});
    // (slot 0 is the failure slot)
    if (t.rank == 0) {
      sl.host_values.push_back(g.ops().to_slot(t.prim, val.scalar));
      return;
    }
    sl.host_values.push_back(val.addr);
    for (Value *d : val.dims) sl.host_values.push_back(d);
    for (Value *st : g.strides_of(val)) sl.host_values.push_back(st);
  }

  // Adds a raw i64 slot; returns its slot index.
  size_t add_raw(SlotList &sl, Value *v) {
    sl.host_values.push_back(v);
    return sl.host_values.size(); // +1 for the failure slot, -1 for the index
  }

  // Emits the launch in host code.
  void emit_launch(int kernel, Value *total, SlotList &sl) {
    FnGen &g = *host_;
    IRBuilder<> &b = g.builder();
    Value *fs = b.CreateCall(g.rt("kerb_rt_failure_slot"), {g.ctx});
    size_t n = sl.host_values.size() + 1;
    AllocaInst *buf = b.CreateAlloca(b.getInt64Ty(), g.i64(int64_t(n)));
    b.CreateStore(fs, b.CreateGEP(b.getInt64Ty(), buf, g.i64(0)));
    for (size_t i = 0; i < sl.host_values.size(); i++)
      b.CreateStore(sl.host_values[i], b.CreateGEP(b.getInt64Ty(), buf, g.i64(int64_t(i + 1))));
    g.return_if_error(b.CreateCall(g.rt("kerb_rt_launch"),
                                   {g.ctx, b.getInt32(uint32_t(kernel)), total, buf,
                                    b.getInt32(uint32_t(n))}));
  }

  // A kernel function being generated: its FnGen and how to read slot i.
  struct KernelFn {
    Function *f = nullptr;
    std::unique_ptr<FnGen> g;
    std::function<Value *(size_t)> slot;
    Value *begin = nullptr, *end = nullptr; // CPU: the range of threads or blocks
    BasicBlock *exit = nullptr;
  };

  KernelFn new_kernel(const std::string &name, size_t num_slots, KernelDesc desc) {
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
        (void)g;
      };
    }
    Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
    k.g->failure_slot = b.CreateIntToPtr(k.slot(0), gptr);
    return k;
  }

  // Binds the kernel's copies of the slot arguments (and registers fused maps).
  void bind_kernel_args(KernelFn &k, const SlotList &sl) {
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

  // GPU: the global thread index and the thread/block ids.
  Value *sreg(IRBuilder<> &b, Intrinsic::ID id) {
    Function *f = Intrinsic::getDeclaration(&kernel_module(), id);
    return b.CreateZExt(b.CreateCall(f), b.getInt64Ty());
  }

  // Emits the per-thread loop (CPU) or the guarded thread (GPU) of a Threads kernel
  // over [0, n); `per_thread(gid)` emits one thread's work. A thread that fails a check
  // stops; a kernel launched after a failure does nothing.
  void threads_kernel(KernelFn &k, Value *n, const std::function<void(Value *)> &per_thread,
                      bool prelude = false) {
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    LLVMContext &c = b.getContext();
    Function *f = k.f;
    // Prelude: nothing to do after a failure. Only kernels that could misbehave on the
    // garbage a failed kernel may have left (loops, unchecked indexing) have one: the
    // others only compute values that the host discards when it sees the failure, and
    // their every memory access is in bounds whatever the data (see needs_prelude).
    if (prelude) {
      Value *code = b.CreateLoad(b.getInt32Ty(), g.failure_slot);
      BasicBlock *run = BasicBlock::Create(c, "run", f);
      b.CreateCondBr(b.CreateICmpEQ(code, b.getInt32(uint32_t(-1))), run, k.exit);
      b.SetInsertPoint(run);
    }
    if (gpu()) {
      Value *gid = b.CreateAdd(b.CreateMul(sreg(b, Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                                           sreg(b, Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
                               sreg(b, Intrinsic::nvvm_read_ptx_sreg_tid_x));
      BasicBlock *work = BasicBlock::Create(c, "work", f);
      b.CreateCondBr(b.CreateICmpSLT(gid, n), work, k.exit);
      b.SetInsertPoint(work);
      g.on_fail = [&g, exit = k.exit](Value *) { g.builder().CreateBr(exit); };
      per_thread(gid);
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
    per_thread(gid);
    b.CreateBr(next);
    b.SetInsertPoint(next);
    b.CreateStore(b.CreateAdd(gid, b.getInt64(1)), ctr);
    b.CreateBr(head);
  }

  bool launch(const core::Stm &s) {
    switch (s.exp.kind) {
    case core::ExpKind::Map:
      if (host_->consumed_whole(s)) {
        FnGen &h = *host_;
        for (size_t j = 0; j < s.pat.size(); j++) {
          host_lazy_[s.pat[j]] = FnGen::Lazy{&s, j};
          Val dims_only;
          dims_only.dims = {h.ops().to_i64(h.prim_of(s.exp.args[0]), h.scalar(s.exp.args[0]))};
          h.bind(s.pat[j], dims_only);
        }
        return true;
      }
      map_kernel(s);
      return true;
    case core::ExpKind::Iota: iota_kernel(s); return true;
    case core::ExpKind::Replicate: replicate_kernel(s); return true;
    case core::ExpKind::Reduce: reduce_kernels(s); return true;
    case core::ExpKind::Scan: scan_kernels(s); return true;
    case core::ExpKind::Scatter: scatter_kernel(s); return true;
    case core::ExpKind::Hist: hist_kernel(s); return true;
    default: return false;
    }
  }

  // Outputs of a map-like kernel: allocated in host code, [n] ++ row dims.
  void alloc_outputs(const core::Stm &s, Value *n, SlotList &sl) {
    FnGen &g = *host_;
    for (int v : s.pat) {
      const core::CType &t = p_.var(v).type;
      // [n] and the function's result shape (its sizes are bound outside the map).
      std::vector<Value *> dims{n};
      const std::vector<core::SubExp> &shape = p_.var(v).shape;
      if (int(shape.size()) != t.rank) unsupported(s.exp, "maps whose results' sizes are not known");
      for (size_t d = 1; d < shape.size(); d++)
        dims.push_back(g.ops().to_i64(g.prim_of(shape[d]), g.scalar(shape[d])));
      Value *addr = alloc(byte_size(t.prim, dims));
      g.bind(v, Val{nullptr, addr, dims, {}});
      add_var(sl, v);
    }
  }

  void map_kernel(const core::Stm &s) {
    const core::Exp &e = s.exp;
    FnGen &h = *host_;
    Value *n = h.scalar(e.args[0]);
    SlotList sl;
    size_t n_slot = add_raw(sl, n);
    std::set<int> bound, free;
    for (int p : e.lambda->params) bound.insert(p);
    free_vars_body(e.lambda->body, bound, free);
    for (int v : free) add_input(sl, v);
    for (int a : e.arrays) add_input(sl, a);
    size_t first_out = sl.args.size();
    alloc_outputs(s, n, sl);

    KernelFn k = new_kernel("map", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    bind_kernel_args(k, sl);
    FnGen &g = *k.g;
    g.invariant_loads = true;
    Value *kn = k.slot(n_slot);
    threads_kernel(k, kn, [&](Value *gid) {
      std::vector<Val> dests;
      for (size_t j = 0; j < s.pat.size(); j++) dests.push_back(g.lookup(sl.args[first_out + j].var));
      g.map_element(*e.lambda, e.arrays, gid, dests);
    }, sl.prelude || needs_prelude(e.lambda->body));
    emit_launch(int(out_.kernel_descs.size()) - 1, n, sl);
  }

  void iota_kernel(const core::Stm &s) {
    FnGen &h = *host_;
    Value *n = h.ops().to_i64(h.prim_of(s.exp.args[0]), h.scalar(s.exp.args[0]));
    SlotList sl;
    size_t n_slot = add_raw(sl, n);
    alloc_outputs(s, n, sl);
    KernelFn k = new_kernel("iota", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    bind_kernel_args(k, sl);
    FnGen &g = *k.g;
    int out = s.pat[0];
    PrimType t = p_.var(out).type.prim;
    threads_kernel(k, k.slot(n_slot), [&](Value *gid) {
      Value *v = g.ops().convert(PrimType::I64, t, gid);
      g.store_elem(t, v, g.element_addr(g.lookup(out).addr, gid, t));
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, n, sl);
  }

  void replicate_kernel(const core::Stm &s) {
    FnGen &h = *host_;
    const core::Exp &e = s.exp;
    Value *n = h.ops().to_i64(h.prim_of(e.args[0]), h.scalar(e.args[0]));
    int out = s.pat[0];
    const core::CType &t = p_.var(out).type;
    SlotList sl;
    // Element count: n times the size of the value.
    Val x = h.rank_of(e.args[1]) == 0 ? h.val(e.args[1]) : contiguous(h.val(e.args[1]), t.prim);
    Value *row = h.product(x.dims);
    Value *total = h.builder().CreateMul(n, row);
    size_t total_slot = add_raw(sl, total);
    size_t row_slot = add_raw(sl, row);
    size_t x_slot = 0;
    if (h.rank_of(e.args[1]) == 0) {
      x_slot = add_raw(sl, h.ops().to_slot(t.prim, x.scalar));
    } else {
      x_slot = add_raw(sl, x.addr);
    }
    Value *addr = alloc(byte_size(t.prim, {total}));
    size_t out_slot = add_raw(sl, addr);
    Val ov{nullptr, addr, {n}, {}};
    ov.dims.insert(ov.dims.end(), x.dims.begin(), x.dims.end());
    h.bind(out, ov);
    KernelFn k = new_kernel("replicate", sl.host_values.size() + 1,
                            KernelDesc{KernelDesc::Threads, 0});
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
    bool scalar_value = h.rank_of(e.args[1]) == 0;
    threads_kernel(k, k.slot(total_slot), [&](Value *gid) {
      Value *v;
      if (scalar_value) {
        v = g.ops().from_slot(t.prim, k.slot(x_slot));
      } else {
        Value *src = b.CreateIntToPtr(k.slot(x_slot), gptr);
        Value *i = b.CreateURem(gid, k.slot(row_slot));
        v = g.load_elem(t.prim, g.element_addr(src, i, t.prim));
      }
      Value *dst = b.CreateIntToPtr(k.slot(out_slot), gptr);
      g.store_elem(t.prim, v, g.element_addr(dst, gid, t.prim));
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, total, sl);
  }

  // reduce op ne xs: two launches of one block kernel. Each block reduces a contiguous
  // part of the input: each thread a contiguous chunk, sequentially, then the block's
  // threads combine neighbours in a tree (order-preserving: the operator need only be
  // associative) and thread 0 writes the block's partial result. The second launch
  // reduces the partial results with one block.
  // A block kernel over the arrays of a Reduce or Scan: its launch slots (n, the
  // lambda's free variables, the neutral values, the inputs, the outputs) and id.
  struct BlockKernel {
    int id = -1;
    SlotList sl;
    size_t n_slot = 0;
    std::vector<size_t> ne_slots, in_slots, out_slots, extra_slots;
  };

  // `scan_phase`: false for the block reduction (reduce, and scan's first pass), true
  // for scan's last pass (extra slots: the block prefixes).
  // `partials`: the inputs are these one-dimensional arrays of `n` elements instead of
  // the statement's (the second pass of a reduction).
  BlockKernel block_kernel(const core::Stm &s, const char *name, const std::vector<Value *> &outs,
                           const std::vector<Value *> &extra, bool scan_phase,
                           const std::vector<Value *> &partials = {}, Value *n_override = nullptr) {
    const core::Exp &e = s.exp;
    FnGen &h = *host_;
    BlockKernel bk;
    SlotList &sl = bk.sl;
    bk.n_slot = add_raw(sl, n_override ? n_override : h.scalar(e.args[0]));
    std::set<int> bound, free;
    for (int p : e.lambda->params) bound.insert(p);
    free_vars_body(e.lambda->body, bound, free);
    for (int v : free) add_input(sl, v);
    for (size_t j = 0; j < s.pat.size(); j++)
      bk.ne_slots.push_back(add_raw(sl, h.ops().to_slot(p_.var(s.pat[j]).type.prim, h.scalar(e.args[j + 1]))));
    if (partials.empty()) {
      for (int a : e.arrays) add_input(sl, a);
    } else {
      for (Value *pa : partials) bk.in_slots.push_back(add_raw(sl, pa));
    }
    for (Value *o : outs) bk.out_slots.push_back(add_raw(sl, o));
    for (Value *x : extra) bk.extra_slots.push_back(add_raw(sl, x));
    uint32_t shared = 0;
    for (int r : s.pat)
      shared += uint32_t(out_.host->getDataLayout().getTypeAllocSize(h.ops().mem_type(p_.var(r).type.prim)));
    KernelFn k = new_kernel(name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, shared});
    bk.id = int(out_.kernel_descs.size()) - 1;
    bind_kernel_args(k, sl);
    if (!partials.empty()) {
      // The partial results stand in for the statement's input arrays.
      Type *gptr = PointerType::get(k.g->builder().getContext(), gpu() ? 1 : 0);
      for (size_t j = 0; j < e.arrays.size(); j++) {
        k.g->lazy_.erase(e.arrays[j]);
        k.g->bind(e.arrays[j], Val{nullptr, k.g->builder().CreateIntToPtr(k.slot(bk.in_slots[j]), gptr),
                                   {k.slot(bk.n_slot)}, {}});
      }
    }
    block_body(k, s, k.slot(bk.n_slot), bk, scan_phase,
               sl.prelude || needs_prelude(e.lambda->body));
    return bk;
  }

  void check_block_operands(const core::Stm &s, bool scan) {
    for (int r : s.pat)
      if (p_.var(r).type.rank != (scan ? 1 : 0)) unsupported(s.exp, "reductions with array operands");
    for (int a : s.exp.arrays)
      if (p_.var(a).type.rank != 1) unsupported(s.exp, "reductions over arrays of arrays");
  }

  std::vector<Value *> alloc_per_result(const core::Stm &s, Value *n) {
    std::vector<Value *> out;
    for (int r : s.pat) out.push_back(alloc(byte_size(p_.var(r).type.prim, {n})));
    return out;
  }

  void reduce_kernels(const core::Stm &s) {
    FnGen &h = *host_;
    IRBuilder<> &hb = h.builder();
    check_block_operands(s, false);
    Value *n = h.scalar(s.exp.args[0]);
    Value *nblocks = hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, n});
    std::vector<Value *> partials = alloc_per_result(s, nblocks);
    BlockKernel bk = block_kernel(s, "reduce", partials, {}, false);
    // First launch over the input; second over the partials with one block.
    emit_launch(bk.id, nblocks, bk.sl);
    std::vector<Value *> finals = alloc_per_result(s, h.i64(1));
    BlockKernel last = block_kernel(s, "reduce_partials", finals, {}, false, partials, nblocks);
    emit_launch(last.id, h.i64(1), last.sl);
    // Read the results back (a sync point).
    for (size_t j = 0; j < s.pat.size(); j++) {
      PrimType t = p_.var(s.pat[j]).type.prim;
      Type *et = h.ops().mem_type(t);
      AllocaInst *buf = h.entry_alloca(et);
      h.return_if_error(hb.CreateCall(h.rt("kerb_rt_read"),
                                      {h.ctx, buf, finals[j],
                                       h.i64(int64_t(out_.host->getDataLayout().getTypeAllocSize(et)))}));
      h.bind(s.pat[j], Val{h.ops().from_mem(t, hb.CreateLoad(et, buf)), nullptr, {}, {}});
    }
  }

  // scan op ne xs: the block reduction gives each block's total; one thread turns the
  // totals into exclusive block prefixes; a last pass scans each block's part, each
  // thread its chunk from its prefix within the block.
  void scan_kernels(const core::Stm &s) {
    FnGen &h = *host_;
    IRBuilder<> &hb = h.builder();
    check_block_operands(s, true);
    Value *n = h.scalar(s.exp.args[0]);
    Value *nblocks = hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, n});
    std::vector<Value *> partials = alloc_per_result(s, nblocks);
    BlockKernel totals = block_kernel(s, "scan_totals", partials, {}, false);
    emit_launch(totals.id, nblocks, totals.sl);
    prefix_kernel(s, partials, nblocks);
    std::vector<Value *> outs = alloc_per_result(s, n);
    BlockKernel last = block_kernel(s, "scan", outs, partials, true);
    emit_launch(last.id, nblocks, last.sl);
    for (size_t j = 0; j < s.pat.size(); j++) h.bind(s.pat[j], Val{nullptr, outs[j], {n}, {}});
  }

  // A fresh contiguous copy of an array (the destination of scatter and hist).
  Val fresh_copy(const Val &v, PrimType t) {
    if (!v.contiguous()) return materialize(v, t);
    FnGen &h = *host_;
    Value *bytes = byte_size(t, v.dims);
    Value *addr = alloc(bytes);
    h.return_if_error(h.builder().CreateCall(h.rt("kerb_rt_copy"), {h.ctx, addr, v.addr, bytes}));
    return Val{nullptr, addr, v.dims, {}};
  }

  // The common part of scatter and reduce_by_index: a fresh copy of the destination
  // (the statement's result) and the slots of the count, the destination's length and
  // the three arrays.
  struct IndexedWrite {
    PrimType t, it; // element and index types
    Val dest, is, vs;
    SlotList sl;
    size_t n_slot, len_slot, dest_slot, is_slot, vs_slot;
  };

  IndexedWrite indexed_write(const core::Stm &s, const char *what) {
    const core::Exp &e = s.exp;
    FnGen &h = *host_;
    IndexedWrite w;
    int dest_var = e.arrays[0];
    w.t = p_.var(dest_var).type.prim;
    w.it = p_.var(e.arrays[1]).type.prim;
    if (p_.var(dest_var).type.rank != 1) unsupported(e, std::string(what) + " into arrays of arrays");
    w.dest = fresh_copy(h.lookup(dest_var), w.t);
    h.bind(s.pat[0], w.dest);
    w.is = contiguous(h.lookup(e.arrays[1]), w.it);
    w.vs = contiguous(h.lookup(e.arrays[2]), w.t);
    w.n_slot = add_raw(w.sl, w.is.dims[0]);
    w.len_slot = add_raw(w.sl, w.dest.dims[0]);
    w.dest_slot = add_raw(w.sl, w.dest.addr);
    w.is_slot = add_raw(w.sl, w.is.addr);
    w.vs_slot = add_raw(w.sl, w.vs.addr);
    return w;
  }

  // scatter dest is vs: a copy of dest, then one thread per index writes its value
  // where the index is in range (others are ignored, as in Futhark).
  void scatter_kernel(const core::Stm &s) {
    IndexedWrite w = indexed_write(s, "scatter");
    SlotList &sl = w.sl;
    PrimType t = w.t, it = w.it;
    size_t n_slot = w.n_slot, len_slot = w.len_slot, dest_slot = w.dest_slot;
    size_t is_slot = w.is_slot, vs_slot = w.vs_slot;
    KernelFn k = new_kernel("scatter", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
    threads_kernel(k, k.slot(n_slot), [&](Value *gid) {
      Value *ip = b.CreateIntToPtr(k.slot(is_slot), gptr);
      Value *idx = g.ops().to_i64(it, g.load_elem(it, g.element_addr(ip, gid, it)));
      BasicBlock *write = BasicBlock::Create(b.getContext(), "scatter.write", k.f);
      BasicBlock *skip = BasicBlock::Create(b.getContext(), "scatter.skip", k.f);
      b.CreateCondBr(b.CreateICmpULT(idx, k.slot(len_slot)), write, skip);
      b.SetInsertPoint(write);
      Value *vp = b.CreateIntToPtr(k.slot(vs_slot), gptr);
      Value *dp = b.CreateIntToPtr(k.slot(dest_slot), gptr);
      g.store_elem(t, g.load_elem(t, g.element_addr(vp, gid, t)), g.element_addr(dp, idx, t));
      b.CreateBr(skip);
      b.SetInsertPoint(skip);
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, w.is.dims[0], sl);
  }

  // reduce_by_index dest op ne is vs: a copy of dest updated by one thread in index
  // order (correct for any operator; a parallel version is future work).
  void hist_kernel(const core::Stm &s) {
    const core::Exp &e = s.exp;
    FnGen &h = *host_;
    IndexedWrite w = indexed_write(s, "reduce_by_index");
    SlotList &sl = w.sl;
    PrimType t = w.t;
    size_t one_slot = add_raw(sl, h.i64(1));
    size_t n_slot = w.n_slot, len_slot = w.len_slot, dest_slot = w.dest_slot;
    size_t is_slot = w.is_slot, vs_slot = w.vs_slot;
    std::set<int> bound, free;
    for (int p : e.lambda->params) bound.insert(p);
    free_vars_body(e.lambda->body, bound, free);
    for (int v : free) add_var(sl, v);
    PrimType it = w.it;
    KernelFn k = new_kernel("hist", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    bind_kernel_args(k, sl);
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
    threads_kernel(k, k.slot(one_slot), [&](Value *) {
      g.counted_loop(k.slot(n_slot), [&](Value *i) {
        Value *ip = b.CreateIntToPtr(k.slot(is_slot), gptr);
        Value *idx = g.ops().to_i64(it, g.load_elem(it, g.element_addr(ip, i, it)));
        BasicBlock *upd = BasicBlock::Create(b.getContext(), "hist.update", k.f);
        BasicBlock *skip = BasicBlock::Create(b.getContext(), "hist.skip", k.f);
        b.CreateCondBr(b.CreateICmpULT(idx, k.slot(len_slot)), upd, skip);
        b.SetInsertPoint(upd);
        Value *vp = b.CreateIntToPtr(k.slot(vs_slot), gptr);
        Value *dp = g.element_addr(b.CreateIntToPtr(k.slot(dest_slot), gptr), idx, t);
        std::vector<Val> args{Val{g.load_elem(t, dp), nullptr, {}, {}},
                              Val{g.load_elem(t, g.element_addr(vp, i, t)), nullptr, {}, {}}};
        std::vector<Val> r = g.apply(*e.lambda, args);
        g.store_elem(t, r[0].scalar, dp);
        b.CreateBr(skip);
        b.SetInsertPoint(skip);
      });
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, h.i64(1), sl);
  }

  // Whether code run on garbage (after an earlier kernel failed) could loop for long or
  // touch memory out of bounds: loops (their bounds may come from data), and indexing
  // or updates without a check (#[unsafe], --unsafe).
  static bool needs_prelude(const core::Body &b) {
    for (const core::Stm &st : b.stms) {
      const core::Exp &x = st.exp;
      if (x.kind == core::ExpKind::Loop) return true;
      if ((x.kind == core::ExpKind::Index || x.kind == core::ExpKind::Update) && x.site < 0 &&
          !x.args.empty())
        return true;
      for (const auto &nb : x.bodies)
        if (nb && needs_prelude(*nb)) return true;
      if (x.lambda && needs_prelude(x.lambda->body)) return true;
    }
    return false;
  }

  // Whether a reduction operator is commutative: a lambda whose body is one
  // commutative operator (+ * & | ^ && || == != min max) on its two parameters.
  bool commutative(const core::Lambda &l) {
    if (l.params.size() != 2 || l.body.stms.size() != 1 || l.body.result.size() != 1) return false;
    const core::Stm &st = l.body.stms[0];
    const core::Exp &x = st.exp;
    if (!l.body.result[0].is_var() || st.pat.size() != 1 || l.body.result[0].var != st.pat[0])
      return false;
    bool op_ok = false;
    if (x.kind == core::ExpKind::BinOp) {
      switch (x.binop) {
      case BinOp::Add: case BinOp::Mul: case BinOp::BitAnd: case BinOp::BitOr:
      case BinOp::BitXor: case BinOp::LogAnd: case BinOp::LogOr: case BinOp::Eq:
      case BinOp::Neq:
        op_ok = true;
        break;
      default: break;
      }
    } else if (x.kind == core::ExpKind::PrimFn) {
      op_ok = x.prim_fn.fn == PrimFn::Min || x.prim_fn.fn == PrimFn::Max;
    }
    if (!op_ok || x.args.size() != 2 || !x.args[0].is_var() || !x.args[1].is_var()) return false;
    std::set<int> args{x.args[0].var, x.args[1].var}, params{l.params[0], l.params[1]};
    return args == params;
  }

  // One thread: partials[b] := ne op partials[0] op ... op partials[b-1].
  void prefix_kernel(const core::Stm &s, const std::vector<Value *> &partials, Value *nblocks) {
    const core::Exp &e = s.exp;
    FnGen &h = *host_;
    SlotList sl;
    size_t one_slot = add_raw(sl, h.i64(1));
    size_t nb_slot = add_raw(sl, nblocks);
    std::set<int> bound, free;
    for (int p : e.lambda->params) bound.insert(p);
    free_vars_body(e.lambda->body, bound, free);
    for (int v : free) add_var(sl, v);
    std::vector<size_t> ne_slots, part_slots;
    for (size_t j = 0; j < s.pat.size(); j++) {
      ne_slots.push_back(add_raw(sl, h.ops().to_slot(p_.var(s.pat[j]).type.prim, h.scalar(e.args[j + 1]))));
      part_slots.push_back(add_raw(sl, partials[j]));
    }
    KernelFn k = new_kernel("scan_prefix", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    bind_kernel_args(k, sl);
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
    threads_kernel(k, k.slot(one_slot), [&](Value *) {
      size_t kr = s.pat.size();
      std::vector<PrimType> types;
      for (int r : s.pat) types.push_back(p_.var(r).type.prim);
      std::vector<AllocaInst *> acc;
      for (size_t j = 0; j < kr; j++) {
        acc.push_back(g.entry_alloca(g.ops().reg_type(types[j])));
        b.CreateStore(g.ops().from_slot(types[j], k.slot(ne_slots[j])), acc[j]);
      }
      g.counted_loop(k.slot(nb_slot), [&](Value *i) {
        std::vector<Val> args;
        std::vector<Value *> at;
        for (size_t j = 0; j < kr; j++)
          args.push_back(Val{b.CreateLoad(g.ops().reg_type(types[j]), acc[j]), nullptr, {}, {}});
        for (size_t j = 0; j < kr; j++) {
          at.push_back(g.element_addr(b.CreateIntToPtr(k.slot(part_slots[j]), gptr), i, types[j]));
          args.push_back(Val{g.load_elem(types[j], at[j]), nullptr, {}, {}});
        }
        for (size_t j = 0; j < kr; j++) g.store_elem(types[j], args[j].scalar, at[j]);
        std::vector<Val> r = g.apply(*e.lambda, args);
        for (size_t j = 0; j < kr; j++) b.CreateStore(r[j].scalar, acc[j]);
      });
    });
    emit_launch(int(out_.kernel_descs.size()) - 1, h.i64(1), sl);
  }

  // The body of the block kernels (see reduce_kernels and scan_kernels). The input
  // arrays are one-dimensional and contiguous; slot n holds their length. Each block
  // takes a contiguous part of the input and each of its threads a contiguous chunk of
  // that, so combining neighbours keeps the order: the operator need only be
  // associative. A thread that fails a check remembers it, skips the rest of its work
  // and still reaches every barrier.
  void block_body(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                  bool scan_phase, bool prelude) {
    const core::Exp &e = s.exp;
    FnGen &g = *k.g;
    IRBuilder<> &b = g.builder();
    LLVMContext &c = b.getContext();
    Function *f = k.f;
    Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
    size_t kr = s.pat.size();
    std::vector<PrimType> types;
    for (int r : s.pat) types.push_back(p_.var(r).type.prim);

    // Block and thread ids. The CPU runs a range of blocks of one thread each.
    Value *block, *tid, *ntid, *nblocks;
    AllocaInst *block_ctr = nullptr;
    BasicBlock *cpu_head = nullptr, *cpu_next = nullptr;
    if (gpu()) {
      block = sreg(b, Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
      tid = sreg(b, Intrinsic::nvvm_read_ptx_sreg_tid_x);
      ntid = sreg(b, Intrinsic::nvvm_read_ptx_sreg_ntid_x);
      nblocks = sreg(b, Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    } else {
      // The launch's total number of blocks is in slots[-1] (see cpu_device.cpp).
      Value *slots = k.f->getArg(2);
      nblocks = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), slots, b.getInt64(uint64_t(-1))));
      block_ctr = g.entry_alloca(b.getInt64Ty());
      b.CreateStore(k.begin, block_ctr);
      cpu_head = BasicBlock::Create(c, "block.head", f);
      BasicBlock *work = BasicBlock::Create(c, "block.work", f);
      cpu_next = BasicBlock::Create(c, "block.next", f);
      b.CreateBr(cpu_head);
      b.SetInsertPoint(cpu_head);
      block = b.CreateLoad(b.getInt64Ty(), block_ctr);
      b.CreateCondBr(b.CreateICmpSLT(block, k.end), work, k.exit);
      b.SetInsertPoint(work);
      tid = b.getInt64(0);
      ntid = b.getInt64(1);
    }
    // Prelude (see threads_kernel), uniform over the block so that no thread is left
    // waiting at a barrier: thread 0 reads the failure slot for the block.
    if (prelude) {
      Value *code;
      if (gpu()) {
        auto *flag = new GlobalVariable(kernel_module(), b.getInt32Ty(), false,
                                        GlobalValue::InternalLinkage, UndefValue::get(b.getInt32Ty()),
                                        f->getName().str() + "_prelude", nullptr,
                                        GlobalValue::NotThreadLocal, 3);
        BasicBlock *t0 = BasicBlock::Create(c, "prelude.thread0", f);
        BasicBlock *sync = BasicBlock::Create(c, "prelude.sync", f);
        b.CreateCondBr(b.CreateICmpEQ(tid, b.getInt64(0)), t0, sync);
        b.SetInsertPoint(t0);
        b.CreateStore(b.CreateLoad(b.getInt32Ty(), g.failure_slot, true), flag);
        b.CreateBr(sync);
        b.SetInsertPoint(sync);
        b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
        code = b.CreateLoad(b.getInt32Ty(), flag, true);
      } else {
        code = b.CreateLoad(b.getInt32Ty(), g.failure_slot, true);
      }
      BasicBlock *go = BasicBlock::Create(c, "prelude.run", f);
      b.CreateCondBr(b.CreateICmpEQ(code, b.getInt32(uint32_t(-1))), go, k.exit);
      b.SetInsertPoint(go);
    }
    AllocaInst *failed = g.entry_alloca(b.getInt1Ty());
    b.CreateStore(b.getFalse(), failed);
    auto on_fail_to = [&](BasicBlock *&target) {
      g.on_fail = [&b, failed, &target](Value *) {
        b.CreateStore(b.getTrue(), failed);
        b.CreateBr(target);
      };
    };

    // Shared memory: one element per thread per result component.
    std::vector<Value *> shared;
    for (size_t j = 0; j < kr; j++) {
      Type *et = g.ops().mem_type(types[j]);
      if (gpu()) {
        auto *arr = ArrayType::get(et, 1024);
        auto *gv = new GlobalVariable(kernel_module(), arr, false, GlobalValue::InternalLinkage,
                                      UndefValue::get(arr),
                                      fmt::format("{}_shared{}", f->getName().str(), j), nullptr,
                                      GlobalValue::NotThreadLocal, 3);
        gv->setAlignment(Align(8));
        shared.push_back(gv);
      } else {
        shared.push_back(g.entry_alloca(et));
      }
    }
    auto shared_at = [&](size_t j, Value *i) -> Value * {
      if (gpu())
        return b.CreateGEP(ArrayType::get(g.ops().mem_type(types[j]), 1024), shared[j],
                           {b.getInt64(0), i});
      return shared[j];
    };
    auto load_shared = [&](size_t j, Value *i) {
      return Val{g.ops().from_mem(types[j], b.CreateLoad(g.ops().mem_type(types[j]), shared_at(j, i))),
                 nullptr, {}, {}};
    };
    auto store_shared = [&](size_t j, Value *i, Value *v) {
      b.CreateStore(g.ops().to_mem(types[j], v), shared_at(j, i));
    };
    auto barrier = [&]() {
      if (gpu()) b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
    };
    std::vector<AllocaInst *> acc;
    for (size_t j = 0; j < kr; j++) acc.push_back(g.entry_alloca(g.ops().reg_type(types[j])));
    auto set_acc_ne = [&]() {
      for (size_t j = 0; j < kr; j++)
        b.CreateStore(g.ops().from_slot(types[j], k.slot(bk.ne_slots[j])), acc[j]);
    };
    auto load_acc = [&]() {
      std::vector<Val> v;
      for (size_t j = 0; j < kr; j++)
        v.push_back(Val{b.CreateLoad(g.ops().reg_type(types[j]), acc[j]), nullptr, {}, {}});
      return v;
    };
    auto input_at = [&](Value *i) { return g.rows_at(e.arrays, i); };
    auto combine_into_acc = [&](std::vector<Val> rhs) {
      std::vector<Val> args = load_acc();
      args.insert(args.end(), rhs.begin(), rhs.end());
      std::vector<Val> r = g.apply(*e.lambda, args);
      for (size_t j = 0; j < kr; j++) b.CreateStore(r[j].scalar, acc[j]);
    };

    // This thread's chunk.
    Value *threads = b.CreateMul(nblocks, ntid);
    Value *chunk = b.CreateSDiv(b.CreateAdd(n, b.CreateSub(threads, b.getInt64(1))), threads);
    Value *gtid = b.CreateAdd(b.CreateMul(block, ntid), tid);
    Value *lo = b.CreateMul(gtid, chunk);
    Value *hi = b.CreateAdd(lo, chunk);
    hi = b.CreateSelect(b.CreateICmpSLT(hi, n), hi, n);
    lo = b.CreateSelect(b.CreateICmpSLT(lo, hi), lo, hi);

    // Pass 1: the chunk's total. A commutative operator lets the block's threads read
    // its part interleaved (coalesced: thread t takes t, t + ntid, ...); otherwise each
    // thread takes a contiguous chunk, which keeps the order.
    bool comm = !scan_phase && commutative(*e.lambda);
    set_acc_ne();
    BasicBlock *after_chunk = BasicBlock::Create(c, "chunk.done", f);
    on_fail_to(after_chunk);
    if (comm) {
      Value *seg_lo = b.CreateMul(b.CreateMul(block, ntid), chunk);
      Value *seg_hi = b.CreateAdd(seg_lo, b.CreateMul(ntid, chunk));
      seg_hi = b.CreateSelect(b.CreateICmpSLT(seg_hi, n), seg_hi, n);
      Value *first = b.CreateAdd(seg_lo, tid);
      // Elements first, first + ntid, ... below seg_hi: ceil((seg_hi - first) / ntid).
      Value *left = b.CreateSub(seg_hi, first);
      Value *count = b.CreateSDiv(b.CreateAdd(left, b.CreateSub(ntid, b.getInt64(1))), ntid);
      count = b.CreateSelect(b.CreateICmpSGT(count, b.getInt64(0)), count, b.getInt64(0));
      g.counted_range(b.getInt64(0), count, after_chunk, [&](Value *k) {
        combine_into_acc(input_at(b.CreateAdd(first, b.CreateMul(k, ntid))));
      });
    } else {
      g.counted_range(lo, hi, after_chunk, [&](Value *i) { combine_into_acc(input_at(i)); });
    }
    for (size_t j = 0; j < kr; j++) store_shared(j, tid, b.CreateLoad(g.ops().reg_type(types[j]), acc[j]));
    barrier();

    if (!scan_phase) {
      // Tree over the block's threads: stride 1, 2, 4, ...; thread t (t % 2s == 0)
      // combines its value with t + s's. (On the CPU a block has one thread.)
      if (gpu()) {
        AllocaInst *stride = g.entry_alloca(b.getInt64Ty());
        b.CreateStore(comm ? b.CreateLShr(ntid, 1) : b.getInt64(1), stride);
        BasicBlock *thead = BasicBlock::Create(c, "tree.head", f);
        BasicBlock *tstep = BasicBlock::Create(c, "tree.step", f);
        BasicBlock *tcombine = BasicBlock::Create(c, "tree.combine", f);
        BasicBlock *tsync = BasicBlock::Create(c, "tree.sync", f);
        BasicBlock *tdone = BasicBlock::Create(c, "tree.done", f);
        b.CreateBr(thead);
        b.SetInsertPoint(thead);
        Value *st = b.CreateLoad(b.getInt64Ty(), stride);
        b.CreateCondBr(comm ? b.CreateICmpSGT(st, b.getInt64(0)) : b.CreateICmpSLT(st, ntid), tstep,
                       tdone);
        b.SetInsertPoint(tstep);
        // Commutative: halving strides over the first threads (fewer idle warps);
        // otherwise neighbours, so that the order is kept.
        Value *is_left = comm ? b.CreateICmpULT(tid, st)
                              : b.CreateICmpEQ(b.CreateURem(tid, b.CreateShl(st, 1)), b.getInt64(0));
        Value *partner = b.CreateAdd(tid, st);
        Value *ok = b.CreateAnd(is_left, b.CreateICmpSLT(partner, ntid));
        ok = b.CreateAnd(ok, b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
        b.CreateCondBr(ok, tcombine, tsync);
        b.SetInsertPoint(tcombine);
        on_fail_to(tsync);
        std::vector<Val> xs;
        for (size_t j = 0; j < kr; j++) xs.push_back(load_shared(j, tid));
        for (size_t j = 0; j < kr; j++) xs.push_back(load_shared(j, partner));
        std::vector<Val> rr = g.apply(*e.lambda, xs);
        for (size_t j = 0; j < kr; j++) store_shared(j, tid, rr[j].scalar);
        b.CreateBr(tsync);
        b.SetInsertPoint(tsync);
        barrier();
        b.CreateStore(comm ? b.CreateLShr(st, 1) : b.CreateShl(st, 1), stride);
        b.CreateBr(thead);
        b.SetInsertPoint(tdone);
      }
      // Thread 0 writes the block's result (unless this thread failed).
      BasicBlock *write = BasicBlock::Create(c, "write", f);
      BasicBlock *after = gpu() ? k.exit : cpu_next;
      Value *should = b.CreateAnd(b.CreateICmpEQ(tid, b.getInt64(0)),
                                  b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
      b.CreateCondBr(should, write, after);
      b.SetInsertPoint(write);
      for (size_t j = 0; j < kr; j++) {
        Value *dst = b.CreateIntToPtr(k.slot(bk.out_slots[j]), gptr);
        Value *v = b.CreateLoad(g.ops().mem_type(types[j]), shared_at(j, tid));
        b.CreateStore(v, g.element_addr(dst, block, types[j]));
      }
      b.CreateBr(after);
    } else {
      // Thread 0 turns the chunk totals into exclusive prefixes, starting from the
      // block's prefix (extra slots).
      BasicBlock *first = BasicBlock::Create(c, "prefix.thread0", f);
      BasicBlock *joined = BasicBlock::Create(c, "prefix.done", f);
      Value *t0 = b.CreateAnd(b.CreateICmpEQ(tid, b.getInt64(0)),
                              b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
      b.CreateCondBr(t0, first, joined);
      b.SetInsertPoint(first);
      for (size_t j = 0; j < kr; j++) {
        Value *pre = b.CreateIntToPtr(k.slot(bk.extra_slots[j]), gptr);
        b.CreateStore(g.load_elem(types[j], g.element_addr(pre, block, types[j])), acc[j]);
      }
      on_fail_to(joined);
      g.counted_range(b.getInt64(0), ntid, nullptr, [&](Value *t) {
        std::vector<Val> mine;
        for (size_t j = 0; j < kr; j++) mine.push_back(load_shared(j, t));
        for (size_t j = 0; j < kr; j++)
          store_shared(j, t, b.CreateLoad(g.ops().reg_type(types[j]), acc[j]));
        combine_into_acc(mine);
      });
      b.CreateBr(joined);
      b.SetInsertPoint(joined);
      barrier();
      // Pass 2: scan the chunk from this thread's prefix, writing every element.
      for (size_t j = 0; j < kr; j++) b.CreateStore(load_shared(j, tid).scalar, acc[j]);
      BasicBlock *done2 = BasicBlock::Create(c, "scan.done", f);
      BasicBlock *after = gpu() ? k.exit : cpu_next;
      BasicBlock *pass2 = BasicBlock::Create(c, "scan.pass2", f);
      b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), failed), after, pass2);
      b.SetInsertPoint(pass2);
      on_fail_to(done2);
      g.counted_range(lo, hi, done2, [&](Value *i) {
        combine_into_acc(input_at(i));
        for (size_t j = 0; j < kr; j++) {
          Value *dst = b.CreateIntToPtr(k.slot(bk.out_slots[j]), gptr);
          g.store_elem(types[j], b.CreateLoad(g.ops().reg_type(types[j]), acc[j]),
                       g.element_addr(dst, i, types[j]));
        }
      });
      b.CreateBr(after);
    }
    if (!gpu()) {
      b.SetInsertPoint(cpu_next);
      b.CreateStore(b.CreateAdd(block, b.getInt64(1)), block_ctr);
      b.CreateBr(cpu_head);
    }
  }

  const core::Program &p_;
  Target target_;
  GeneratedProgram out_;
  FnGen *host_ = nullptr;
};

} // namespace

GeneratedProgram generate_llvm(const core::Program &program, Target target) {
  return ProgramGen(program, target).run();
}

} // namespace kerb::codegen
