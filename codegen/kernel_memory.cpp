// Scratch memory for kernel threads (see Note [Kernel memory]): the arena a thread takes
// arrays from, the plan of how much a kernel's lambdas may take (one walk, used by the
// host to size the arenas and by FnGen to decide where to carry arrays), and the host
// side that allocates the arenas and passes them to a kernel.
//
// Note [Kernel memory]
// An array made inside a kernel (an inner map that is not fused or written in place, a
// copy, an update, a concatenation, a loop's array parameters, ...) needs memory that
// the thread owns. Before the launch the host computes how many bytes one thread may
// take at most (arena_need: the sum over the statements of the lambdas the kernel runs,
// the larger branch of an if, once per lambda applied per element), allocates that for
// every thread, and passes the base and the size (rounded up to kArenaAlign, so that
// every arena and every array in one is aligned); a thread's arena starts at base +
// thread * size (Futhark's memory expansion, without the interleaving). Allocation is a
// bump of the thread's `top`; code that applies a lambda per element (inner maps,
// reductions, scans, histograms, loop iterations) marks `top` before an element and
// releases it after, having copied what must survive (results into their outputs, a
// loop's or a reduction's array values into two buffers that alternate). So the bound
// holds whatever the trip counts. Sizes must be known to the host: variables bound
// outside the kernel, or scalar arithmetic on them inside the lambdas (evaluated on the
// host again). A thread that would go past its arena stops and records an internal
// error (kFailureScratch) instead of writing out of bounds.
#include "codegen/program_gen.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

// ---- the plan

namespace {

class NeedWalker {
public:
  NeedWalker(const core::Program &p, FnGen *host, const std::function<Value *(const core::SubExp &)> &size,
             const std::function<bool(const core::SubExp &)> &known = {})
      : p_(p), host_(host), size_(size), known_(known) {}

  // The bytes of fresh arrays for the variables `vars` (times `copies`), padding
  // included.
  ArenaNeed arrays(const std::vector<int> &vars, int copies = 1) {
    ArenaNeed n = none();
    for (int v : vars) {
      const core::VarInfo &info = p_.var(v);
      if (info.type.rank == 0) continue;
      n.any = true;
      if ((!host_ && !known_) || n.dynamic) continue;
      if (int(info.shape.size()) != info.type.rank) {
        n.dynamic = true;
        continue;
      }
      if (!host_) {
        n.dynamic = !std::all_of(info.shape.begin(), info.shape.end(), known_);
        continue;
      }
      IRBuilder<> &ib = host_->builder();
      uint64_t es = host_->module().getDataLayout().getTypeAllocSize(host_->ops().mem_type(info.type.prim));
      Value *bytes = host_->i64(int64_t(es));
      for (const core::SubExp &d : info.shape) {
        Value *x = size_(d);
        if (!x) {
          n.dynamic = true;
          break;
        }
        bytes = ib.CreateMul(bytes, x);
      }
      if (n.dynamic) continue;
      bytes = ib.CreateAdd(bytes, host_->i64(FnGen::kArenaAlign));
      n.bytes = ib.CreateAdd(n.bytes, ib.CreateMul(bytes, host_->i64(copies)));
    }
    return n;
  }

  ArenaNeed body(const core::Body &b, const std::map<int, size_t> &dests) {
    ArenaNeed n = none();
    for (const core::Stm &s : b.stms) n = add(n, stm(b, s, dests));
    return n;
  }

private:
  ArenaNeed none() {
    ArenaNeed n;
    if (host_) n.bytes = host_->i64(0);
    return n;
  }

  ArenaNeed add(const ArenaNeed &a, const ArenaNeed &b) {
    ArenaNeed n;
    n.any = a.any || b.any;
    n.dynamic = a.dynamic || b.dynamic;
    if (host_ && !n.dynamic) n.bytes = host_->builder().CreateAdd(a.bytes, b.bytes);
    return n;
  }

  ArenaNeed larger(const ArenaNeed &a, const ArenaNeed &b) {
    ArenaNeed n;
    n.any = a.any || b.any;
    n.dynamic = a.dynamic || b.dynamic;
    if (host_ && !n.dynamic) {
      IRBuilder<> &ib = host_->builder();
      n.bytes = ib.CreateSelect(ib.CreateICmpUGT(a.bytes, b.bytes), a.bytes, b.bytes);
    }
    return n;
  }

  ArenaNeed stm(const core::Body &b, const core::Stm &s, const std::map<int, size_t> &dests) {
    const core::Exp &e = s.exp;
    bool dest = !s.pat.empty() && dests.count(s.pat[0]);
    switch (e.kind) {
    case core::ExpKind::Map: {
      if (FnGen::consumed_whole(p_, b, s)) return body(e.lambda->body, {});
      ArenaNeed inner = body(e.lambda->body, FnGen::in_place_results(p_, *e.lambda));
      return dest ? inner : add(arrays(s.pat), inner);
    }
    case core::ExpKind::Iota:
      if (dest || FnGen::consumed_whole(p_, b, s)) return none();
      return arrays(s.pat);
    case core::ExpKind::Replicate: return dest ? none() : arrays(s.pat);
    case core::ExpKind::Copy: case core::ExpKind::Update: case core::ExpKind::UpdateSlice:
    case core::ExpKind::Concat: case core::ExpKind::ArrayLit: case core::ExpKind::Scatter:
    case core::ExpKind::Reshape:
      return arrays(s.pat);
    case core::ExpKind::Scan: case core::ExpKind::Hist:
      return add(arrays(s.pat), body(e.lambda->body, {}));
    case core::ExpKind::Reduce:
      return add(arrays(s.pat, 2), body(e.lambda->body, {}));
    case core::ExpKind::Loop: {
      ArenaNeed inner = body(*e.bodies[0], {});
      if (e.is_while) inner = add(inner, body(*e.bodies[1], {}));
      if (!inner.any) return none();
      return add(arrays(e.loop_params, 2), inner);
    }
    case core::ExpKind::If: return larger(body(*e.bodies[0], {}), body(*e.bodies[1], {}));
    default: return none();
    }
  }

  const core::Program &p_;
  FnGen *host_;
  const std::function<Value *(const core::SubExp &)> &size_;
  // Without a host generator: whether a size is known on the host (`dynamic` only).
  const std::function<bool(const core::SubExp &)> &known_;
};

} // namespace

ArenaNeed arena_need(const core::Program &p, const core::Body &body, const std::map<int, size_t> &dests,
                     FnGen *host, const std::function<Value *(const core::SubExp &)> &size) {
  return NeedWalker(p, host, size).body(body, dests);
}

ArenaNeed arena_need_arrays(const core::Program &p, const std::vector<int> &vars, int copies,
                            FnGen *host, const std::function<Value *(const core::SubExp &)> &size) {
  return NeedWalker(p, host, size).arrays(vars, copies);
}

bool body_allocates(const core::Program &p, const core::Body &body) {
  return arena_need(p, body, {}, nullptr, {}).any;
}

bool arena_dynamic(const core::Program &p, const core::Body &body, const std::map<int, size_t> &dests,
                   const std::function<bool(const core::SubExp &)> &known) {
  std::function<Value *(const core::SubExp &)> no_size;
  return NeedWalker(p, nullptr, no_size, known).body(body, dests).dynamic;
}

// ---- a thread's arena (kernel code)

Val FnGen::kernel_alloc(PrimType t, const std::vector<Value *> &dims) {
  KERB_ASSERT(arena_base, "an array made in a kernel that has no scratch memory");
  uint64_t es = m_.getDataLayout().getTypeAllocSize(ops_.mem_type(t));
  Value *bytes = b_.CreateMul(product(dims), i64(int64_t(es)));
  bytes = b_.CreateAnd(b_.CreateAdd(bytes, i64(kArenaAlign - 1)), i64(-kArenaAlign));
  Value *top = b_.CreateLoad(b_.getInt64Ty(), arena_top);
  Value *end = b_.CreateAdd(top, bytes);
  BasicBlock *bad = BasicBlock::Create(c_, "arena.full", f_);
  BasicBlock *good = BasicBlock::Create(c_, "arena.ok", f_);
  b_.CreateCondBr(b_.CreateICmpULE(end, arena_size), good, bad,
                  MDBuilder(c_).createBranchWeights(1 << 20, 1));
  b_.SetInsertPoint(bad);
  emit_failure(kFailureScratch, {end, arena_size});
  b_.SetInsertPoint(good);
  b_.CreateStore(end, arena_top);
  // Arena memory is written and read by the thread: its loads are not invariant.
  invariant_loads = false;
  return Val{nullptr, b_.CreateGEP(b_.getInt8Ty(), arena_base, top), dims, {}};
}

Value *FnGen::arena_mark() {
  if (!arena_base) return nullptr;
  return b_.CreateLoad(b_.getInt64Ty(), arena_top);
}

void FnGen::arena_release(Value *mark) {
  if (mark) b_.CreateStore(mark, arena_top);
}

FnGen::Carry FnGen::carry_begin(const std::vector<int> &vars, const std::vector<Val> &init) {
  Carry c;
  c.vars = vars;
  for (size_t i = 0; i < vars.size(); i++) {
    if (p_.var(vars[i]).type.rank == 0) {
      c.next.push_back(nullptr);
      c.other.push_back(nullptr);
      continue;
    }
    PrimType t = p_.var(vars[i]).type.prim;
    AllocaInst *next = entry_alloca(addr_type()), *other = entry_alloca(addr_type());
    b_.CreateStore(kernel_alloc(t, init[i].dims).addr, next);
    b_.CreateStore(kernel_alloc(t, init[i].dims).addr, other);
    c.next.push_back(next);
    c.other.push_back(other);
  }
  c.mark = arena_mark();
  return c;
}

std::vector<Val> FnGen::carry_next(Carry &c, const std::vector<Val> &vals) {
  std::vector<Val> out;
  for (size_t i = 0; i < vals.size(); i++) {
    if (!c.next[i]) {
      out.push_back(vals[i]);
      continue;
    }
    PrimType t = p_.var(c.vars[i]).type.prim;
    Value *next = b_.CreateLoad(addr_type(), c.next[i]);
    Value *other = b_.CreateLoad(addr_type(), c.other[i]);
    Val dst{nullptr, next, vals[i].dims, {}};
    copy_elements(t, vals[i], dst);
    b_.CreateStore(other, c.next[i]);
    b_.CreateStore(next, c.other[i]);
    out.push_back(dst);
  }
  arena_release(c.mark);
  return out;
}

// ---- the host side

Value *ProgramGen::host_size(const core::SubExp &s, const std::map<int, const core::Stm *> &defs) {
  FnGen &h = *host_;
  if (!s.is_var()) return h.ops().to_i64(s.constant.type, h.ops().constant(s.constant));
  Value *v = host_scalar(s.var, defs);
  return v ? h.ops().to_i64(p_.var(s.var).type.prim, v) : nullptr;
}

bool host_evaluable(const core::Exp &e) {
  if (e.site >= 0) return false;
  switch (e.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::UnOp: case core::ExpKind::Convert: return true;
  case core::ExpKind::BinOp:
    return e.binop != BinOp::Div && e.binop != BinOp::Mod && e.binop != BinOp::Quot &&
           e.binop != BinOp::Rem && e.binop != BinOp::Pow;
  case core::ExpKind::PrimFn:
    return e.prim_fn.fn == PrimFn::Min || e.prim_fn.fn == PrimFn::Max ||
           e.prim_fn.fn == PrimFn::Abs || e.prim_fn.fn == PrimFn::Sgn;
  default: return false;
  }
}

bool host_size_known(const core::SubExp &s, const std::map<int, const core::Stm *> &defs,
                     const std::function<std::optional<bool>(int)> &host_value) {
  if (!s.is_var()) return true;
  if (std::optional<bool> scalar = host_value(s.var)) return *scalar;
  auto it = defs.find(s.var);
  if (it == defs.end() || it->second->pat.size() != 1 || !host_evaluable(it->second->exp)) return false;
  for (const core::SubExp &a : it->second->exp.args)
    if (!host_size_known(a, defs, host_value)) return false;
  return true;
}

Value *ProgramGen::host_scalar(int var, const std::map<int, const core::Stm *> &defs) {
  FnGen &h = *host_;
  if (h.has(var)) return h.lookup(var).scalar;
  auto it = defs.find(var);
  if (it == defs.end() || it->second->pat.size() != 1) return nullptr;
  const core::Exp &e = it->second->exp;
  if (!host_evaluable(e)) return nullptr;
  std::vector<Value *> args;
  for (const core::SubExp &a : e.args) {
    Value *x = a.is_var() ? host_scalar(a.var, defs) : h.ops().constant(a.constant);
    if (!x) return nullptr;
    args.push_back(x);
  }
  PrimType t = h.prim_of(e.args[0]);
  switch (e.kind) {
  case core::ExpKind::SubExp: return args[0];
  case core::ExpKind::UnOp: return h.ops().unop(e.unop, t, args[0]);
  case core::ExpKind::Convert: return h.ops().convert(t, e.to, args[0]);
  case core::ExpKind::BinOp: return h.ops().binop(e.binop, t, args[0], args[1]);
  default: return h.ops().prim_fn(e.prim_fn, args[0], args.size() > 1 ? args[1] : nullptr);
  }
}

void collect_defs(const core::Body &b, std::map<int, const core::Stm *> &defs) {
  for (const core::Stm &s : b.stms) {
    for (int v : s.pat) defs[v] = &s;
    for (const auto &nb : s.exp.bodies)
      if (nb) collect_defs(*nb, defs);
    if (s.exp.lambda) collect_defs(s.exp.lambda->body, defs);
  }
}

ProgramGen::ArenaSlots ProgramGen::add_arena(SlotList &sl, Value *threads,
                                             const std::vector<ArenaLambda> &lambdas,
                                             const core::Exp &where, const std::vector<int> &carried) {
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  std::function<Value *(const core::SubExp &)> size = [&](const core::SubExp &d) {
    return host_size(d, fn_defs_);
  };
  ArenaNeed total;
  total.bytes = h.i64(0);
  auto add = [&](const ArenaNeed &n) {
    total.any = total.any || n.any;
    total.dynamic = total.dynamic || n.dynamic;
    if (!total.dynamic) total.bytes = hb.CreateAdd(total.bytes, n.bytes);
  };
  add(arena_need_arrays(p_, carried, 2, &h, size));
  for (const ArenaLambda &l : lambdas)
    add(arena_need(p_, l.lambda->body, l.in_place ? FnGen::in_place_results(p_, *l.lambda)
                                                   : std::map<int, size_t>{},
                   &h, size));
  // Fused maps run their lambdas inside this kernel too (once per element).
  std::set<const core::Stm *> fused;
  for (const auto &[v, lazy] : sl.lazies)
    if (lazy.stm->exp.kind == core::ExpKind::Map && fused.insert(lazy.stm).second)
      add(arena_need(p_, lazy.stm->exp.lambda->body, {}, &h, size));
  ArenaSlots a;
  if (!total.any) return a;
  if (total.dynamic)
    unsupported(where, "arrays made inside a kernel whose sizes are only known inside it");
  a.used = true;
  // Thread t's arena starts at base + t * bytes: a multiple of kArenaAlign keeps every
  // thread's arena, and so each array in it, aligned (a misaligned i64 or vector access
  // faults on the GPU; x86 does not care).
  Value *bytes = hb.CreateAnd(hb.CreateAdd(total.bytes, h.i64(FnGen::kArenaAlign - 1)),
                              h.i64(-FnGen::kArenaAlign));
  a.base_slot = add_raw(sl, alloc(hb.CreateMul(bytes, threads)));
  a.size_slot = add_raw(sl, bytes);
  return a;
}

void ProgramGen::bind_arena(KernelFn &k, const ArenaSlots &a, Value *thread) {
  if (!a.used) return;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  Value *size = k.slot(a.size_slot);
  g.arena_size = size;
  g.arena_base = b.CreateGEP(b.getInt8Ty(), b.CreateIntToPtr(k.slot(a.base_slot), gptr),
                             b.CreateMul(thread, size));
  if (!g.arena_top) g.arena_top = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(b.getInt64(0), g.arena_top);
}

} // namespace kerb::codegen
