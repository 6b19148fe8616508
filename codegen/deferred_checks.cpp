// Deferred, branch-free checks in kernel threads (see fn_gen.h, "deferred checks", and
// docs/CHECKS.md): a thread's work is generated twice, first with its data-dependent
// checks folded into a flag, then, behind the flag, with every check branching to its
// failure as before.
#include "codegen/fn_gen.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/CodeExtractor.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

// Note [Deferred checks]
// ~~~~~~~~~~~~~~~~~~~~~~
// A check compiled as `if (!ok) fail()` is a branch, and nothing after it may start
// before it is decided: the five gathers of a stencil cell whose neighbours come from
// index arrays issue one after another, and a CSR row's loop compares and branches per
// element (2.5x on the H100 against --unsafe; issue 16). So a kernel thread's work
// (deferred_work) is generated twice:
//
// 1. The fast copy. A bounds check of a load does not branch: its condition is ORed
//    into a flag (an i1 in a register) and the load reads from a clamped address: the
//    element's if the index is in range, else the failure slot, which can always be
//    read (deferred_addr). A checked division divides by 1 instead of 0 (and `**` by
//    0 instead of a negative exponent), so no operation traps; NaN checks only set the
//    flag. Every other check (asserts, sizes, ranges, stores) branches as before, on
//    `ok && !flag`, to a cold block that fails there only if the flag is clear.
//    Before anything that must not run on a value a failed check produced (a loop, whose
//    bound may be that value; an array made or viewed; an unchecked index; a store
//    that others can see: a histogram's atomic, a scatter) the thread tests the flag
//    (flag_barrier), as it does once at the end of the work.
// 2. The slow copy, reached when the flag is set: the same work, generated as before
//    (each check a branch to its failure). It recomputes everything from the start and
//    stops at the first failing check in program order, with that check's values, so
//    the thread reports exactly what the interpreter would for its element.
//
// Why it is right. Up to the first failing check, the fast copy computes the same
// values as the slow one (the clamps change only what a failed check feeds). A set
// flag therefore means that some check fails for this element, and the slow copy finds
// the first. With the flag clear, no check failed and every clamp was the identity, so
// the fast copy's results are the element's. What the fast copy did after a failure
// reads only addresses that are in bounds (clamped loads, loops and arrays behind a
// barrier) and writes only the thread's own outputs, which the slow copy rewrites or
// the host discards with the call's failure (the call fails). Loops: a `for` loop's
// bound is fixed before the loop starts (behind a barrier), so a loop runs at most that
// many iterations; a `while` loop leaves as soon as the flag is set (its condition is
// ANDed with !flag), so it terminates whatever a failed value makes its condition.
//
// The work must compute the same thing when run again: kernels pass the work of one
// element (or of one thread's elements), which reads its inputs and writes its own
// outputs. The cost on the hot path is a compare and a select per deferred check and a
// branch at the end; registers: the flag (a predicate). When nothing is deferred (no
// load check, no division), the flag is constant false, every test of it folds away,
// and the code is what it was.

namespace {

// m as it was (`saved`), keeping the nodes of the keys it had then, to which
// references may be held.
template <typename K, typename V> void restore(std::map<K, V> &m, const std::map<K, V> &saved) {
  for (auto it = m.begin(); it != m.end();) {
    auto s = saved.find(it->first);
    if (s == saved.end()) {
      it = m.erase(it);
      continue;
    }
    it->second = s->second;
    ++it;
  }
  for (const auto &[k, v] : saved) m.emplace(k, v);
}

} // namespace

void FnGen::deferred_work(const std::function<void(bool)> &work) {
  Deferral d;
  d.flag = entry_alloca(b_.getInt1Ty());
  b_.CreateStore(b_.getFalse(), d.flag);
  d.slow = BasicBlock::Create(c_, "deferred.slow", f_);
  BasicBlock *done = BasicBlock::Create(c_, "deferred.done", f_);
  // The slow copy starts from the same bindings.
  std::map<int, Val> env = env_;
  std::map<int, Lazy> lazy = lazy_;
  std::map<int, Val> dest = dest_;
  std::map<int, Value *> given0 = given;
  for (const auto &[v, val] : env_) d.clean.insert(v);
  for (const auto &[v, l] : lazy_) d.clean.insert(v);
  deferral_ = &d;
  work(false);
  deferral_ = nullptr;
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), d.flag), d.slow, done,
                  MDBuilder(c_).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(d.slow);
  if (d.deferred > 0) {
    // (In place: callers hold references to bindings made before the work.)
    restore(env_, env);
    restore(lazy_, lazy);
    restore(dest_, dest);
    restore(given, given0);
    BasicBlock *mark = &f_->back();
    work(true);
    // The slow copy's blocks, to be outlined (Note [The slow copy outlined]).
    if (slow_regions) {
      std::vector<BasicBlock *> region{d.slow};
      for (auto it = std::next(mark->getIterator()); it != f_->end(); ++it) region.push_back(&*it);
      auto at = std::find_if(slow_regions->begin(), slow_regions->end(),
                             [this](const auto &fr) { return fr.first == f_; });
      if (at == slow_regions->end()) at = slow_regions->insert(at, {f_, {}});
      at->second.push_back(std::move(region));
    }
  }
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

// Note [The slow copy outlined]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The slow copy of deferred work (Note [Deferred checks]) runs only after a failure,
// but compiled in the same function it costs registers on the hot path: it is reached
// from the end of the fast copy, which dominates it, so LLVM and ptxas reuse the fast
// copy's values there (its loads, its indices, its parameters already in registers)
// instead of recomputing them, and those values stay live across the whole fast copy
// (bench/unproved/bsearch.fut: 16 registers under --unsafe, 18 for the fast copy
// alone, 28 with the slow copy inline). So once the kernels are complete,
// outline_slow_copies moves each slow copy into a function of its own (LLVM's
// CodeExtractor, after promoting the kernel's allocas to registers so that only values
// cross), marked noinline and cold: a call on the cold path, whose arguments are what
// the copy starts from (the thread's index, parameters, bindings). Nothing of the fast
// copy can be reused in it.
//
// Only in thread kernels: in block kernels the call costs more than it saves. Their
// deferred parts (a chunk pass, a phase's loads) end where the block goes on to its
// shared-memory tree, whose values (thread and block indices, the running value) then
// live across the call; outlined, the corpus' checked reductions grew by up to 30
// registers over --unsafe (tests/programs/segred/fail_rows.fut's segred_rows 40 -> 70,
// soacs/reduce_comm_fail.fut's reduce 32 -> 55), inline by 16 and -1.

namespace {

// Whether v can be recomputed anywhere from the kernel's parameters (arguments and
// constants through casts, arithmetic and address computations), up to `depth` steps.
bool rematerializable(Value *v, int depth) {
  if (isa<Argument>(v) || isa<Constant>(v)) return true;
  auto *i = dyn_cast<Instruction>(v);
  if (!i || depth == 0) return false;
  if (!isa<CastInst>(i) && !isa<BinaryOperator>(i) && !isa<GetElementPtrInst>(i) && !isa<ICmpInst>(i) &&
      !isa<SelectInst>(i))
    return false;
  if (i->mayHaveSideEffects() || i->mayReadFromMemory()) return false;
  for (Value *op : i->operands())
    if (!rematerializable(op, depth - 1)) return false;
  return true;
}

// The values that region r uses from outside it and that rematerializable() can compute
// from the parameters are computed again at its entry: the outlined function then
// receives the parameters themselves (which ptxas reads from their constant bank where
// the call is made), not values computed from them that the kernel would have to keep
// in registers until the call.
void rematerialize_inputs(const std::vector<BasicBlock *> &r) {
  std::set<BasicBlock *> in(r.begin(), r.end());
  // Copies go before the entry's first instruction, in the order they are made
  // (operands first), so that each follows what it uses.
  Instruction *anchor = &*r.front()->getFirstInsertionPt();
  std::map<Value *, Value *> copies;
  std::function<Value *(Value *)> copy = [&](Value *v) -> Value * {
    auto *i = dyn_cast<Instruction>(v);
    if (!i) return v;
    auto it = copies.find(v);
    if (it != copies.end()) return it->second;
    Instruction *c = i->clone();
    for (unsigned k = 0; k < c->getNumOperands(); k++) c->setOperand(k, copy(c->getOperand(k)));
    c->insertBefore(anchor);
    copies[v] = c;
    return c;
  };
  for (BasicBlock *bb : r)
    for (Instruction &i : *bb)
      for (Use &u : i.operands()) {
        auto *d = dyn_cast<Instruction>(u.get());
        if (!d || in.count(d->getParent()) || !rematerializable(d, 4)) continue;
        u.set(copy(d));
      }
}

} // namespace

void outline_slow_copies(const SlowRegions &regions) {
  for (const auto &[f, rs] : regions) {
    {
      DominatorTree dt(*f);
      std::vector<AllocaInst *> allocas;
      for (Instruction &i : f->getEntryBlock())
        if (auto *a = dyn_cast<AllocaInst>(&i))
          if (isAllocaPromotable(a)) allocas.push_back(a);
      if (!allocas.empty()) PromoteMemToReg(allocas, dt);
    }
    for (const std::vector<BasicBlock *> &r : rs) {
      rematerialize_inputs(r);
      DominatorTree dt(*f);
      CodeExtractorAnalysisCache cache(*f);
      CodeExtractor ce(r, &dt, /*AggregateArgs=*/false, nullptr, nullptr, nullptr,
                       /*AllowVarArgs=*/false, /*AllowAlloca=*/false, nullptr, "deferred_slow");
      KERB_ASSERT(ce.isEligible(), "the slow copy of deferred work cannot be outlined");
      Function *slow = ce.extractCodeRegion(cache);
      KERB_ASSERT(slow, "outlining the slow copy of deferred work failed");
      slow->addFnAttr(Attribute::NoInline);
      slow->addFnAttr(Attribute::Cold);
      slow->setLinkage(GlobalValue::InternalLinkage);
    }
  }
}

std::vector<Val> FnGen::deferred_values(const std::function<std::vector<Val>()> &compute) {
  if (!defer_checks) return compute();
  std::vector<AllocaInst *> slots;
  deferred_work([&](bool) {
    std::vector<Val> r = compute();
    for (size_t i = slots.size(); i < r.size(); i++) {
      KERB_ASSERT(r[i].scalar, "deferred_values of an array");
      slots.push_back(entry_alloca(r[i].scalar->getType()));
    }
    for (size_t i = 0; i < r.size(); i++) b_.CreateStore(r[i].scalar, slots[i]);
  });
  std::vector<Val> out;
  for (AllocaInst *a : slots) out.push_back(Val{b_.CreateLoad(a->getAllocatedType(), a), nullptr, {}, {}});
  return out;
}

void FnGen::flag_barrier() {
  if (!deferral_) return;
  BasicBlock *go = BasicBlock::Create(c_, "deferred.clear", f_);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), deferral_->flag), deferral_->slow, go,
                  MDBuilder(c_).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(go);
}

void FnGen::defer(Value *ok) {
  KERB_ASSERT(deferral_, "a check deferred outside deferred_work");
  Value *flag = b_.CreateLoad(b_.getInt1Ty(), deferral_->flag);
  b_.CreateStore(b_.CreateOr(flag, b_.CreateNot(ok)), deferral_->flag);
  deferral_->deferred++;
}

Value *FnGen::deferred_addr(Value *ok, Value *addr) {
  // A global of the module, 16 bytes (any element a load reads), whose address the GPU
  // takes from a constant bank: no register holds it (the failure slot's address,
  // computed from a parameter, took two for the whole kernel).
  const char *name = "kerb_deferred_fallback";
  llvm::GlobalVariable *gv = m_.getGlobalVariable(name, true);
  if (!gv) {
    auto *t = llvm::ArrayType::get(b_.getInt64Ty(), 2);
    gv = new llvm::GlobalVariable(m_, t, false, llvm::GlobalValue::InternalLinkage,
                                  llvm::Constant::getNullValue(t), name, nullptr,
                                  llvm::GlobalValue::NotThreadLocal, gpu_ ? 1 : 0);
    gv->setAlignment(llvm::Align(16));
  }
  return b_.CreateSelect(ok, addr, gv);
}

// Note [Deferred loads]
// ~~~~~~~~~~~~~~~~~~~~~
// A deferred bounds check guards its load so that a failed index is never read: on the
// GPU by default a predicated load (`mov r, 0; @p ld`, below); on the CPU, and on the GPU
// with --deferred-loads=select, by selecting the address to a 16-byte fallback global
// (deferred_addr). On the H100 in 2026-11-25's code the index-array stencil and binary
// search (a while loop) ran faster predicated, SpMV (a for-loop) with the select, so
// --deferred-loads=for-loops takes the select in the bodies of for-loops only
// (FnGen::for_loop_depth). Measured again on 2026-11-26 (bench/results/
// 2026-11-26-deferred-loads-h100): predicated was best or even everywhere, SpMV 1.049x
// of --unsafe against 1.12x with either select, so it stays the default.
Value *FnGen::deferred_load(PrimType t, Value *ok, Value *addr) {
  using Loads = GenOptions::Loads;
  if (!gpu_ || deferred_loads == Loads::Select || (deferred_loads == Loads::ForLoops && for_loop_depth > 0))
    return load_elem(t, deferred_addr(ok, addr));
  // `mov r, 0; @p ld.global[.nc].TYPE r, [addr];`: no select of the address, no
  // fallback. The register must be defined when p is false: left undefined, ptxas may
  // give it any value, also one that makes a later check pass and its load read
  // anywhere (kerb difftest seed 1600860 on the H100: `p0[p0[-1]]`, whose first load
  // ptxas knew was never made, ended in an illegal address). (On the H100 against the
  // select: the index-array stencil 1.080x -> 0.999x of --unsafe, binary search 0.969x
  // -> 0.943x, SpMV 1.134x -> 1.159x, gather3 1.000x -> 1.016x; bench/NOTES.md.)
  Type *mt = ops_.mem_type(t);
  unsigned bits = unsigned(m_.getDataLayout().getTypeSizeInBits(mt));
  const char *ty = nullptr, *cons = nullptr, *zero = nullptr;
  Type *rt = mt;
  if (mt->isFloatTy()) {
    ty = "f32", cons = "=f", zero = "mov.f32 $0, 0f00000000;";
  } else if (mt->isDoubleTy()) {
    ty = "f64", cons = "=d", zero = "mov.f64 $0, 0d0000000000000000;";
  } else if (bits == 64) {
    ty = "b64", cons = "=l", rt = b_.getInt64Ty(), zero = "mov.b64 $0, 0;";
  } else if (bits == 32) {
    ty = "b32", cons = "=r", rt = b_.getInt32Ty(), zero = "mov.b32 $0, 0;";
  } else if (bits == 16) {
    ty = "b16", cons = "=h", rt = b_.getInt16Ty(), zero = "mov.b16 $0, 0;";
  } else {
    KERB_ASSERT(bits == 8, "a deferred load of an unexpected size");
    ty = "u8", cons = "=h", rt = b_.getInt16Ty(), zero = "mov.b16 $0, 0;";
  }
  std::string text = std::string(zero) + "\n\t@$2 ld.global" + (invariant_loads ? ".nc." : ".") + ty + " $0, [$1];";
  auto *fty = llvm::FunctionType::get(rt, {b_.getInt64Ty(), b_.getInt1Ty()}, false);
  Value *r = b_.CreateCall(llvm::InlineAsm::get(fty, text, std::string(cons) + ",l,b", false),
                           {b_.CreatePtrToInt(addr, b_.getInt64Ty()), ok});
  if (rt != mt) r = bits == 8 ? b_.CreateTrunc(r, mt) : b_.CreateBitCast(r, mt);
  return ops_.from_mem(t, r);
}

// Note [Clean values]
// ~~~~~~~~~~~~~~~~~~~
// Deferring, a statement that must not see a failed value waits for the flag
// (flag_barrier): a branch, and the loads after it wait for what came before. Where a
// thread takes several elements in straight-line code (Note [Rows per thread]), a
// barrier before each element's array statements (the `iota` of a row's inner map)
// made the rows' loads issue one row after another, as branching checks did. But most
// such statements read no value a failed check can have given: a value is clean if it
// was bound before the work began, or computed from clean values by a statement that
// defers no check (no checked load, no checked division, no body or lambda, whose
// results are taken as unclean). An array made, viewed or indexed without a check from
// clean values only is exactly what the program makes whatever failed, so it needs no
// barrier; anything else that needs one (loops, stores others see, histograms,
// scatters, updates) keeps it. The analysis follows data, not control: a value is
// clean on every path, and one bound in a way it does not know (a lambda's parameter,
// a loop's) is unclean.
bool FnGen::reads_clean(const core::Exp &e) const {
  for (const core::SubExp &a : e.args)
    if (a.is_var() && !deferral_->clean.count(a.var)) return false;
  for (int a : e.arrays)
    if (!deferral_->clean.count(a)) return false;
  return true;
}

void FnGen::deferred_stm(const core::Stm &s) {
  const core::Exp &e = s.exp;
  bool clean = reads_clean(e) && e.bodies.empty() && !e.lambda;
  bool exempt = false; // needs no barrier when it reads only clean values
  switch (e.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
  case core::ExpKind::Convert: case core::ExpKind::PrimFn:
    clean = clean && e.site < 0;
    break;
  case core::ExpKind::Index:
    clean = clean && e.site < 0;
    exempt = true;
    break;
  case core::ExpKind::Iota: case core::ExpKind::Replicate: case core::ExpKind::Slice:
  case core::ExpKind::Rearrange: case core::ExpKind::Reshape: case core::ExpKind::Copy:
  case core::ExpKind::Concat: case core::ExpKind::ArrayLit:
    exempt = true;
    break;
  default:
    clean = false;
  }
  if (needs_flag_barrier(e) && !(exempt && reads_clean(e))) flag_barrier();
  if (clean)
    for (int v : s.pat) deferral_->clean.insert(v);
}

bool FnGen::needs_flag_barrier(const core::Exp &e) const {
  switch (e.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
  case core::ExpKind::Convert: case core::ExpKind::PrimFn: case core::ExpKind::If:
  case core::ExpKind::Assert:
    // (An assert's check waits for the flag itself, in `check`.)
    return false;
  case core::ExpKind::Index:
    // A checked load is deferred; an index proved in range is in bounds whatever the
    // values; an unchecked one (--unsafe, #[unsafe]) must not see a failed value; a
    // sub-array view is not deferred.
    if (int(e.args.size()) < p_.var(e.arrays[0]).type.rank) return true;
    if (e.site >= 0) return false;
    return e.args.empty() ? false : !(e.check >= 0 && p_.candidates[size_t(e.check)].eliminated());
  default:
    return true;
  }
}

// Note [Hoisted checks]
// ~~~~~~~~~~~~~~~~~~~~~
// In a loop `for j < k`, a load `a[s + j]` (a CSR row's `vals[s + j]`) is checked on
// every iteration although one test before the loop decides them all: the index is
// affine in the counter, base + step * j with an invariant base and a constant step,
// and a is not changed by the loop, so the indices lie between the first and the last
// iteration's. In the fast copy of a thread's work (Note [Deferred checks]),
// hoist_loop_checks tests, before the loop, that both extremes are in range, and defers
// that test (ORs its failure into the flag); the loads in the body then go unchecked.
// Only top-level statements of the body qualify (they run in every iteration); their
// index arguments are followed through i64 additions, subtractions, negations and
// multiplications by invariant values (`a[i * m + j]`), computed before the loop.
//
// Why it is right: two's complement addition and multiplication are exact modulo 2^64,
// so the body computes base + step * j modulo 2^64, with base the value the body
// computes for j = 0 and step an exact integer (its computation is tested for
// overflow); if base + step * (k - 1) does not overflow (tested), the indices
// are exactly the integers between base and base + step * (k - 1), all in [0, d) when
// both ends are. When the test fails (an index out of range, or an overflow), the
// flag is set before the loop, the loop does not run (the barrier before it), and the
// slow copy, which checks every iteration, reports the first failing one exactly: the
// site, the message and the index of the interpreter. A test that fails where no
// iteration would (an overflow of the formula alone) costs the slow copy, not a result.

namespace {

// An i64 variable of the loop body as base + step * counter, both computed before the
// loop: base is the value the body computes at counter 0 (modulo 2^64), step the exact
// coefficient unless `overflow` (an i1: computing it overflowed).
struct Affine {
  Value *base = nullptr;
  Value *step = nullptr;
  Value *overflow = nullptr;
};

} // namespace

// Note [Deferred loops unrolled]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// LLVM unrolls a `for` loop of unknown trip count (runtime unrolling) by as many
// copies as fit a size budget: NVPTX's partial threshold, 75 instructions. A CSR row's
// loop (bench/unproved/spmv.fut, acc + vals[s + j] * x[cols[s + j]]) fits four copies
// unchecked, each issuing its two loads and its gather before the adds that wait for
// them; its deferred check (a compare, the predicated load's zero, the flag's OR) grows
// the body by half, and LLVM unrolls it twice only: half the gathers in flight, and
// the loop 1.09x the unchecked one on the H100. The checks cost no latency the loads
// do not already wait for, so the fast copy of a small loop whose body deferred a check
// is unrolled four times, as the unchecked one is (1.049x; eight times, 1.144x: the
// registers of eight gathers). Small: straight-line scalar work of at most
// kSmallLoopBody statements (no nested loop, branch or array made), where four copies
// stay within what LLVM gives the unchecked body; larger bodies keep LLVM's choice.

namespace {
constexpr size_t kSmallLoopBody = 16;
} // namespace

bool FnGen::small_loop_body(const core::Body &body) {
  if (body.stms.size() > kSmallLoopBody) return false;
  for (const core::Stm &s : body.stms) {
    switch (s.exp.kind) {
    case core::ExpKind::SubExp:
    case core::ExpKind::BinOp:
    case core::ExpKind::UnOp:
    case core::ExpKind::Convert:
    case core::ExpKind::PrimFn:
    case core::ExpKind::Index:
    case core::ExpKind::Assert:
      break;
    default:
      return false;
    }
  }
  return true;
}

MDNode *FnGen::unroll_count_md(int count) {
  Metadata *ops[] = {MDString::get(c_, "llvm.loop.unroll.count"),
                     ConstantAsMetadata::get(b_.getInt32(uint32_t(count)))};
  MDNode *loop = MDNode::getDistinct(c_, {nullptr, MDNode::get(c_, ops)});
  loop->replaceOperandWith(0, loop);
  return loop;
}

std::set<const core::Exp *> FnGen::hoist_loop_checks(const core::Exp &loop, Value *bound) {
  std::set<const core::Exp *> hoisted;
  const core::Body &body = *loop.bodies[0];
  // Variables bound by the loop (changing from one iteration to the next).
  std::set<int> inside(loop.loop_params.begin(), loop.loop_params.end());
  inside.insert(loop.loop_var);
  std::function<void(const core::Body &)> bound_in = [&](const core::Body &b) {
    for (const core::Stm &st : b.stms) {
      inside.insert(st.pat.begin(), st.pat.end());
      for (const auto &nb : st.exp.bodies)
        if (nb) bound_in(*nb);
      if (st.exp.lambda) {
        inside.insert(st.exp.lambda->params.begin(), st.exp.lambda->params.end());
        bound_in(st.exp.lambda->body);
      }
    }
  };
  bound_in(body);
  std::map<int, Affine> aff{{loop.loop_var, Affine{i64(0), i64(1), b_.getFalse()}}};
  // x as an affine form (one bound before the loop has step 0), if it is one.
  auto affine = [&](const core::SubExp &x) -> std::optional<Affine> {
    if (prim_of(x) != PrimType::I64) return std::nullopt;
    if (!x.is_var()) return Affine{scalar(x), i64(0), b_.getFalse()};
    auto it = aff.find(x.var);
    if (it != aff.end()) return it->second;
    if (inside.count(x.var) || !has(x.var) || !lookup(x.var).scalar) return std::nullopt;
    return Affine{scalar(x), i64(0), b_.getFalse()};
  };
  auto step_op = [&](Intrinsic::ID id, Value *a, Value *b, Value *&overflow) {
    Value *r = b_.CreateBinaryIntrinsic(id, a, b);
    overflow = b_.CreateOr(overflow, b_.CreateExtractValue(r, 1));
    return b_.CreateExtractValue(r, 0);
  };
  auto is_invariant = [](const Affine &a) {
    auto *c = llvm::dyn_cast<ConstantInt>(a.step);
    return c && c->isZero();
  };
  // The checks' conditions, and the statements they cover.
  Value *ok = b_.getTrue();
  Value *last_j = b_.CreateSub(bound, i64(1));
  for (const core::Stm &st : body.stms) {
    const core::Exp &x = st.exp;
    if (x.kind == core::ExpKind::BinOp && st.pat.size() == 1 &&
        (x.binop == BinOp::Add || x.binop == BinOp::Sub || x.binop == BinOp::Mul)) {
      std::optional<Affine> l = affine(x.args[0]), r = affine(x.args[1]);
      if (!l || !r) continue;
      Affine out;
      out.overflow = b_.CreateOr(l->overflow, r->overflow);
      if (x.binop == BinOp::Mul) {
        // By an invariant: (b + s j) c = b c + (s c) j.
        if (!is_invariant(*l) && !is_invariant(*r)) continue;
        const Affine &v = is_invariant(*l) ? *r : *l;
        Value *c = is_invariant(*l) ? l->base : r->base;
        out.base = b_.CreateMul(v.base, c);
        out.step = step_op(Intrinsic::smul_with_overflow, v.step, c, out.overflow);
      } else if (x.binop == BinOp::Add) {
        out.base = b_.CreateAdd(l->base, r->base);
        out.step = step_op(Intrinsic::sadd_with_overflow, l->step, r->step, out.overflow);
      } else {
        out.base = b_.CreateSub(l->base, r->base);
        out.step = step_op(Intrinsic::ssub_with_overflow, l->step, r->step, out.overflow);
      }
      aff[st.pat[0]] = out;
      continue;
    }
    if (x.kind == core::ExpKind::UnOp && x.unop == UnOp::Neg && st.pat.size() == 1) {
      if (std::optional<Affine> a = affine(x.args[0])) {
        Affine out{b_.CreateNeg(a->base), nullptr, a->overflow};
        out.step = step_op(Intrinsic::ssub_with_overflow, i64(0), a->step, out.overflow);
        aff[st.pat[0]] = out;
      }
      continue;
    }
    if (x.kind != core::ExpKind::Index || x.site < 0 || x.arrays.empty() || inside.count(x.arrays[0]) ||
        int(x.args.size()) != p_.var(x.arrays[0]).type.rank)
      continue;
    const Val &arr = lookup(x.arrays[0]);
    Value *in = b_.getTrue();
    bool all = true;
    for (size_t d = 0; d < x.args.size() && all; d++) {
      std::optional<Affine> a = affine(x.args[d]);
      if (!a) {
        all = false;
        break;
      }
      // Both ends in [0, dim) (unsigned: a negative end is out of range too), and the
      // last end exact: base + step * (k - 1) without overflow.
      Value *overflow = a->overflow;
      Value *last = step_op(Intrinsic::sadd_with_overflow, a->base,
                     step_op(Intrinsic::smul_with_overflow, a->step, last_j, overflow), overflow);
      in = b_.CreateAnd(in, b_.CreateICmpULT(a->base, arr.dims[d]));
      in = b_.CreateAnd(in, b_.CreateAnd(b_.CreateNot(overflow), b_.CreateICmpULT(last, arr.dims[d])));
    }
    if (!all) continue;
    ok = b_.CreateAnd(ok, in);
    hoisted.insert(&x);
  }
  if (hoisted.empty()) return hoisted;
  // No iteration, no check. A failure keeps the loop from running.
  defer(b_.CreateOr(b_.CreateICmpSLT(bound, i64(1)), ok));
  flag_barrier();
  return hoisted;
}

} // namespace kerb::codegen
