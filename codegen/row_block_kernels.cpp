// One block per row (see program_gen.h, ProgramGen::row_block_map): the kernel of a
// map's Strategy::RowBlock version, whose lambda reduces, scans and maps over its row
// (softmax, layer normalisation, per-row prefix sums, per-row argmax), and its version
// of a warp per row (Note [A warp per row]). Each block takes one element of the map;
// its threads share the lambda's inner operations (the kernel IR's
// SegOp::block_body, at the block level): reductions through warp shuffles and
// shared memory, maps and scans striped over the threads, so that a warp's loads and
// stores are coalesced.
//
// Note [One block per row]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// One thread per row walks its row once per inner operation, alone: softmax over 65536
// rows of 1024 f32 took 2.23 ms on the H100 (issue 17), no load coalesced. Here block b
// takes row b and runs the lambda's statements in order, every thread alike, except
// the block-level operations (extract_kernels.cpp's row_block_version decides which):
//   - a map or iota computed where read (fused) is registered, as in a thread;
//   - scalar statements run in every thread (the same values everywhere; a failing
//     one fails in every thread alike);
//   - a reduction: thread t folds elements t, t + nt, ... of the row (nt threads) when
//     its operator commutes (striped: a warp reads 32 consecutive elements; four read
//     before they are combined, kRowBlockUnroll, so that their loads are in flight
//     together), else its contiguous chunk [t * c, (t + 1) * c), c = ceil(w / nt),
//     which keeps the order; then each warp combines its threads' values with shuffles
//     at strides 1, 2, 4, 8, 16 (lane l taking lane l + s's when l % 2s == 0:
//     neighbouring runs in order, and only those, so the operator sees no value
//     twice), lane 0 writes the warp's value to shared memory, a block barrier, and
//     every thread folds the warps' values in order (the result broadcast without a
//     second barrier: each reduction has shared memory of its own);
//   - a map whose results are the lambda's (in place): thread t computes elements t,
//     t + nt, ... (four read at a time) and stores them into the element's row of the
//     map's output;
//   - a scan whose results are the lambda's: tiles of nt elements, four tiles' elements
//     read before the first is scanned (on the GPU), thread t taking element t of a
//     tile; per tile an inclusive scan of the warp's values with shuffles up (lane l
//     takes lane l - s's, s = 1, ..., 16), the warps' totals through shared memory (two
//     buffers, by the tile's parity: the next tile writes the other while slow threads
//     still read these), each thread's prefix from the running value and the totals of
//     the warps before its own, the running value carried in every thread alike.
// Failures (docs/CHECKS.md): a thread that fails a check records it (the failure slot's
// compare-and-swap) and skips to the end of its part of the operation; every block
// barrier is an OR over the threads' `failed` flags (bar.red.or), and a block in which
// a thread failed leaves there, all its threads together, so that no thread waits at a
// barrier the others left and none combines a value a failed thread did not compute.
// A block-level operation whose own part cannot fail skips the barrier before its
// shuffles. A failure in the shuffles' operator (a legitimate combination of two runs)
// goes on to the barrier that follows. After the last block-level operation a failing
// thread just stops (no barrier follows). The statements of an operation are thus run
// in the interpreter's order per row: a failure in the first reduction is reported
// before anything of the second is run.
// On the CPU device a block has one thread (ntid = 1): the same kernel, without
// shuffles and shared memory (a reduction's result is its one thread's fold; a scan
// takes one element a tile), so that CI runs the statements' order and checks.
//
// Note [A warp per row]
// ~~~~~~~~~~~~~~~~~~~~~
// A block per row keeps few rows in flight: softmax's kernel holds 40-48 registers, so
// an SM runs five or six blocks, six rows of 4 KB whose loads are all issued at the
// start of each row and none while its reductions run (on the H100 softmax's 512 MB of
// rows read once and written took 0.339 ms: 1.5 TB/s of 3.35). The version before it
// for rows of at most kRowWarpMaxWidth elements (1024; GenOptions::row_warp_max,
// `--row-warp-max=N`; Guard::RowWarpFit, Strategy::RowWarp), when there are at least
// kRowWarpMinRows (2048) rows (with fewer, most of the GPU's warps would idle, where a
// block per row gives each row eight times the threads; a guess to measure), and for
// rows of any length when there are at least GenOptions::row_warp_rows (16384,
// `--row-warp-rows=N`; N-body's 2^15 rows of 2^15 elements on the H100: 2.16 ms a warp
// per row, 3.01 ms a block per row), runs a
// warp per row, kRowWarpRows = 8 rows a block: warp w of block b takes row b * 8 + w
// and its lanes are the threads of a block of 32 for everything above (ntid = 32: one
// warp, so a reduction's warp values are one; a scan's tiles are 32 elements). Its
// barriers are the warp's: bar.warp.sync (which orders the lanes' shared-memory
// accesses), then vote.sync.any over the `failed` flags, where the block had
// bar.red.or; a warp whose row failed leaves alone, as the block did, since no barrier
// of the whole block follows the prelude (a warp past the last row leaves there too).
// Each warp has its own slots of the shared arrays (a reduction's one, a scan's two, at
// its index in the block) and, when rows are copied (Note [Rows in shared memory] in
// row_cache.cpp), its own copy: 8 copies a block, so a copy has at most kRowCacheBytes
// / 8 bytes (1024 f32), read kRowWarpCopyUnroll (8) loads at a time. Longer rows and
// fewer rows take the block versions. On the CPU device (one thread a block, one row a
// block) the kernel is the block's.
#include "codegen/program_gen.h"

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace kerb::codegen {

using namespace llvm;
// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::Type;
using llvm::Value;

namespace {

constexpr int64_t kWarp = 32;

} // namespace

// (program_gen.h)
Value *warp_shuffle(IRBuilder<> &b, Module &m, Value *v, Value *delta, WarpShuffle how) {
  Type *t = v->getType();
  const DataLayout &dl = m.getDataLayout();
  unsigned bits = unsigned(dl.getTypeSizeInBits(t));
  Type *it = IntegerType::get(b.getContext(), bits);
  Value *x = t->isIntegerTy() ? v : b.CreateBitCast(v, it);
  Intrinsic::ID id = how == WarpShuffle::Up     ? Intrinsic::nvvm_shfl_sync_up_i32
                     : how == WarpShuffle::Down ? Intrinsic::nvvm_shfl_sync_down_i32
                                                : Intrinsic::nvvm_shfl_sync_bfly_i32;
  Function *f = Intrinsic::getDeclaration(&m, id);
  Value *mask = b.getInt32(0xffffffffu), *clamp = b.getInt32(how == WarpShuffle::Up ? 0 : 0x1f);
  Value *d = b.CreateTrunc(delta, b.getInt32Ty());
  Value *r;
  if (bits <= 32) {
    r = b.CreateCall(f, {mask, b.CreateZExt(x, b.getInt32Ty()), d, clamp});
    r = b.CreateTrunc(r, it);
  } else {
    Value *lo = b.CreateTrunc(x, b.getInt32Ty()), *hi = b.CreateTrunc(b.CreateLShr(x, 32), b.getInt32Ty());
    lo = b.CreateCall(f, {mask, lo, d, clamp});
    hi = b.CreateCall(f, {mask, hi, d, clamp});
    r = b.CreateOr(b.CreateZExt(lo, it), b.CreateShl(b.CreateZExt(hi, it), 32));
  }
  return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
}

void ProgramGen::row_block_map(const SegOp &op, size_t v) {
  const Version &ver = op.versions[v];
  const Kernel &kr = ver.kernels[0];
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  LLVMContext &c = hb.getContext();
  // The outputs first: both versions write them.
  {
    SlotList outs;
    alloc_outputs(op, h.scalar(e.args[0]), outs);
  }
  Value *n = h.ops().to_i64(h.prim_of(e.args[0]), h.scalar(e.args[0]));
  Value *m = h.ops().to_i64(h.prim_of(op.space[1]), h.scalar(op.space[1]));
  BasicBlock *blocks = BasicBlock::Create(c, "row_block", h.function());
  BasicBlock *other = BasicBlock::Create(c, "row_block.other", h.function());
  BasicBlock *join = BasicBlock::Create(c, "row_block.done", h.function());
  // (A grid has at most 2^31 - 1 blocks.)
  Value *fits = hb.CreateAnd(hb.CreateICmpSGE(m, h.i64(op.row_block_min)), hb.CreateICmpSLT(n, h.i64(INT32_MAX)));
  // RowWarp: the row fits a warp (Note [A warp per row]); RowCached and RowWarp with
  // copies: every cached row fits its copy (Note [Rows in shared memory]).
  bool warps = ver.strategy == Strategy::RowWarp;
  bool cached = ver.strategy == Strategy::RowCached || (warps && op.warp_copies);
  int64_t bound = warps ? op.row_warp_max : op.row_cache_max;
  if (warps) {
    Value *short_rows = hb.CreateICmpSLE(m, h.i64(bound));
    if (op.row_warp_rows >= 0)
      short_rows = hb.CreateOr(short_rows, hb.CreateICmpSGE(n, h.i64(op.row_warp_rows)));
    fits = hb.CreateAnd(fits, hb.CreateAnd(short_rows, hb.CreateICmpSGE(n, h.i64(kRowWarpMinRows))));
  }
  if (cached)
    for (size_t j : op.cached_rows)
      fits = hb.CreateAnd(fits, hb.CreateICmpSLE(h.lookup(e.arrays[j]).dims[1], h.i64(bound)));
  hb.CreateCondBr(fits, blocks, other);
  hb.SetInsertPoint(blocks);
  SlotList sl;
  size_t first_out = add_block_map_slots(op, sl);
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, 0});
  int id = int(out_.kernel_descs.size()) - 1;
  bind_kernel_args(k, sl);
  std::vector<Val> outs;
  for (size_t j = 0; j < s.pat.size(); j++) outs.push_back(k.g->lookup(sl.args[first_out + j].var));
  row_block_body(k, op, outs, kr.prelude, cached, warps);
  // (RowWarp: kRowWarpRows rows a block on the GPU.)
  int64_t per_block = warps && gpu() ? kRowWarpRows : 1;
  emit_launch(id, hb.CreateUDiv(hb.CreateAdd(n, h.i64(per_block - 1)), h.i64(per_block)), sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(other);
  thread_map_kernel(op, v + 1);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

void ProgramGen::row_block_body(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, bool prelude,
                                bool cached, bool warps) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  const core::Lambda &l = *e.lambda;
  const core::Body &body = l.body;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Module &km = kernel_module();
  Type *i64 = b.getInt64Ty();

  BlockIds ids = begin_blocks(k);
  Value *row = ids.block, *tid = ids.tid, *ntid = ids.ntid;
  block_prelude(k, tid, prelude);
  // RowWarp on the GPU (Note [A warp per row]): warp w of block b takes row b *
  // kRowWarpRows + w, its lanes as the threads of a block of 32; `wslot` is its index
  // in the block, which picks its slots of the shared arrays.
  bool warp_rows = warps && gpu();
  Value *wslot = nullptr;
  if (warp_rows) {
    wslot = b.CreateLShr(tid, 5);
    row = b.CreateAdd(b.CreateMul(row, b.getInt64(kRowWarpRows)), wslot);
    tid = b.CreateAnd(tid, b.getInt64(kWarp - 1));
    ntid = b.getInt64(kWarp);
    // (A warp past the last row leaves: no barrier of the whole block follows.)
    BasicBlock *work = BasicBlock::Create(c, "row.warp.work", f);
    b.CreateCondBr(b.CreateICmpSLT(row, outs[0].dims[0]), work, ids.after);
    b.SetInsertPoint(work);
  }
  // The slot of a reduction's shared array for warp `w` of the row (RowWarp: the warp's
  // own, at its index in the block).
  auto slot_of = [&](Value *w) { return warp_rows ? b.CreateAdd(wslot, w) : w; };
  AllocaInst *failed = g.entry_alloca(b.getInt1Ty());
  b.CreateStore(b.getFalse(), failed);
  Value *lane = gpu() ? b.CreateAnd(tid, b.getInt64(kWarp - 1)) : nullptr;
  Value *warp = gpu() ? b.CreateLShr(tid, 5) : nullptr;
  Value *nwarps = gpu() ? b.CreateLShr(b.CreateAdd(ntid, b.getInt64(kWarp - 1)), 5) : nullptr;

  // The rows the block-level maps and scans write (the lambda's results): loads are
  // invariant unless a later statement reads them back.
  std::set<int> written;
  bool reads_back = false;
  for (const core::Stm &st : body.stms) {
    if (!written.empty() && FnGen::mentions(st.exp, written)) reads_back = true;
    const SegOp *bo = op.block_op(st);
    if (bo && bo->strategy != Strategy::Fused && st.exp.kind != core::ExpKind::Reduce)
      written.insert(st.pat.begin(), st.pat.end());
  }
  g.invariant_loads = !reads_back;

  // ---- failures: segments of per-thread work, each ending at a sync point
  BasicBlock *seg_end = nullptr;
  bool seg_can_fail = false;
  auto fail_to = [&](BasicBlock *target) {
    g.on_fail = [&b, failed, target, &seg_can_fail](Value *) {
      seg_can_fail = true;
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(target);
    };
  };
  // The variables bound before the segment (those bound in it are carried past its
  // end through allocas: a failure edge skips their definitions).
  std::set<int> seg_vars;
  // (Only the lambda's own: those of inner lambdas do not outlive their loops.)
  std::set<int> outer_vars(l.params.begin(), l.params.end());
  for (const core::Stm &st : body.stms) outer_vars.insert(st.pat.begin(), st.pat.end());
  auto begin_segment = [&]() {
    seg_end = BasicBlock::Create(c, "row.segment.end", f);
    seg_can_fail = false;
    seg_vars = g.bound();
    fail_to(seg_end);
  };

  // Result variable -> its row of the output (the first result it is).
  std::map<int, Val> dest_rows;
  for (size_t j = 0; j < body.result.size(); j++) {
    const core::SubExp &r = body.result[j];
    if (!r.is_var() || p_.var(r.var).type.rank == 0 || dest_rows.count(r.var)) continue;
    PrimType t = p_.var(r.var).type.prim;
    dest_rows[r.var] = g.subarray(outs[j], g.element_addr(outs[j].addr, g.offset_of(outs[j], {row}), t), 1);
  }
  begin_segment();
  // The element: the lambda's parameters are row `row` of the map's arrays.
  std::vector<Val> rows = g.rows_at(e.arrays, row);
  for (size_t p = 0; p < rows.size(); p++) g.bind(l.params[p], rows[p]);
  g.cur_body_ = &body;

  // A block barrier that tells whether a thread failed (the CPU: this one); a block in
  // which one did leaves.
  auto sync_or_leave = [&](bool barrier) {
    Value *any = b.CreateLoad(b.getInt1Ty(), failed);
    if (gpu() && barrier && warp_rows) {
      // (The warp's barrier orders its lanes' memory accesses, then the vote.)
      b.CreateCall(Intrinsic::getDeclaration(&km, Intrinsic::nvvm_bar_warp_sync), {b.getInt32(0xffffffffu)});
      any = b.CreateCall(Intrinsic::getDeclaration(&km, Intrinsic::nvvm_vote_any_sync), {b.getInt32(0xffffffffu), any});
    } else if (gpu() && barrier) {
      Function *bar_or = Intrinsic::getDeclaration(&km, Intrinsic::nvvm_barrier0_or);
      any = b.CreateICmpNE(b.CreateCall(bar_or, {b.CreateZExt(any, b.getInt32Ty())}), b.getInt32(0));
    }
    BasicBlock *next = BasicBlock::Create(c, "row.sync.next", f);
    b.CreateCondBr(any, ids.after, next);
    b.SetInsertPoint(next);
  };
  // Ends the segment (every thread reaches it): with a barrier when `barrier` (other
  // threads' values are read next) or when a thread may have failed in it; a block in
  // which one did leaves.
  auto end_segment = [&](bool barrier) {
    // The values of the variables the segment bound, through allocas when a failure
    // edge reaches its end (the block leaves there, but the edge skips them).
    std::vector<std::pair<Value **, AllocaInst *>> carried;
    std::vector<std::pair<int, Val>> vals;
    if (seg_can_fail) {
      for (int v : g.bound())
        if (!seg_vars.count(v) && outer_vars.count(v)) vals.push_back({v, g.lookup(v)});
      for (auto &[v, x] : vals) {
        std::vector<Value **> parts{&x.scalar, &x.addr};
        for (Value *&d : x.dims) parts.push_back(&d);
        for (Value *&st : x.strides) parts.push_back(&st);
        for (Value **pv : parts) {
          if (!*pv || !isa<Instruction>(*pv)) continue;
          AllocaInst *a = g.entry_alloca((*pv)->getType());
          b.CreateStore(*pv, a);
          carried.push_back({pv, a});
        }
      }
    }
    b.CreateBr(seg_end);
    b.SetInsertPoint(seg_end);
    if (barrier || seg_can_fail) sync_or_leave(true);
    for (auto &[pv, a] : carried) *pv = b.CreateLoad(a->getAllocatedType(), a);
    for (auto &[v, x] : vals) g.bind(v, x);
    begin_segment();
  };
  // RowCached: the rows read more than once copied first, then read from the copies
  // only (Note [Rows in shared memory] in row_cache.cpp).
  if (cached) {
    std::vector<Val> copies = cache_rows(k, op, rows, tid, ntid, warps ? op.row_warp_max : op.row_cache_max,
                                         warp_rows ? kRowWarpRows : 1, wslot,
                                         warp_rows ? kRowWarpCopyUnroll : kRowBlockUnroll);
    // (Bound before the segment ends, so that the copies' addresses are carried past its
    // end as the segment's other values are: a failure edge from before them, in a map
    // fused into the lambda's arrays, skips their definitions. Found by kerb difftest:
    // an invalid module, seed 600521.) Every thread reads the copies: a barrier.
    for (size_t j = 0; j < copies.size(); j++) g.bind(l.params[op.cached_rows[j]], copies[j]);
    end_segment(true);
    g.invariant_loads = false;
  }
  // `work` in a thread whose failure goes on to `cont` (the shuffles' operator).
  auto go_on_failing = [&](const std::function<void()> &work) {
    BasicBlock *cont = BasicBlock::Create(c, "row.op.done", f);
    BasicBlock *saved = seg_end;
    bool saved_fail = seg_can_fail;
    fail_to(cont);
    work();
    b.CreateBr(cont);
    b.SetInsertPoint(cont);
    bool failed_here = seg_can_fail;
    seg_end = saved;
    seg_can_fail = saved_fail || failed_here;
    fail_to(seg_end);
    return failed_here;
  };
  // Whether a block-level operation comes after statement index `i`.
  auto block_op_after = [&](size_t i) {
    for (size_t j = i + 1; j < body.stms.size(); j++) {
      const SegOp *bo = op.block_op(body.stms[j]);
      if (bo && bo->strategy != Strategy::Fused) return true;
    }
    return false;
  };

  // Accumulators of an operator's results (registers through allocas).
  auto types_of = [&](const std::vector<int> &vars) {
    std::vector<PrimType> ts;
    for (int x : vars) ts.push_back(p_.var(x).type.prim);
    return ts;
  };
  auto allocas = [&](const std::vector<PrimType> &ts) {
    std::vector<AllocaInst *> a;
    for (PrimType t : ts) a.push_back(g.entry_alloca(g.ops().reg_type(t)));
    return a;
  };
  auto load_all = [&](const std::vector<AllocaInst *> &a, const std::vector<PrimType> &ts) {
    std::vector<Val> v;
    for (size_t j = 0; j < a.size(); j++) v.push_back(Val{b.CreateLoad(g.ops().reg_type(ts[j]), a[j]), nullptr, {}, {}});
    return v;
  };
  auto store_all = [&](const std::vector<AllocaInst *> &a, const std::vector<Val> &v) {
    for (size_t j = 0; j < a.size(); j++) b.CreateStore(v[j].scalar, a[j]);
  };
  auto apply = [&](const core::Lambda &opl, std::vector<Val> x, const std::vector<Val> &y) {
    x.insert(x.end(), y.begin(), y.end());
    return g.apply(opl, x);
  };
  // Shared memory: `count` slots of 8 bytes per component (values as slots).
  auto slots_array = [&](size_t components, int64_t count) -> Value * {
    return shared_array(g, ArrayType::get(i64, uint64_t(count) * components),
                        fmt::format("{}_row_shared", f->getName().str()), Align(8));
  };
  auto shared_at = [&](Value *arr, size_t components, Value *slot, size_t j) {
    Value *at = b.CreateAdd(b.CreateMul(slot, b.getInt64(components)), b.getInt64(j));
    return b.CreateGEP(i64, arr, {at});
  };
  auto shuffle_all = [&](const std::vector<Val> &v, Value *delta, bool up) {
    std::vector<Val> r;
    for (const Val &x : v)
      r.push_back(
          Val{warp_shuffle(b, km, x.scalar, delta, up ? WarpShuffle::Up : WarpShuffle::Down),
              nullptr,
              {},
              {}});
    return r;
  };

  // Block reduction of statement st (Note [One block per row]).
  auto block_reduce = [&](const core::Stm &st, const SegOp &bo) {
    const core::Exp &re = st.exp;
    const core::Lambda &opl = *re.lambda;
    std::vector<PrimType> ts = types_of(st.pat);
    size_t kc = ts.size();
    std::vector<AllocaInst *> acc = allocas(ts);
    std::vector<Val> ne;
    for (size_t j = 0; j < kc; j++) ne.push_back(g.val(re.args[j + 1]));
    store_all(acc, ne);
    Value *w = g.ops().to_i64(g.prim_of(re.args[0]), g.scalar(re.args[0]));
    auto fold = [&](Value *i) { store_all(acc, apply(opl, load_all(acc, ts), g.rows_at(re.arrays, i))); };
    if (bo.strategy == Strategy::Striped) {
      // kRowBlockUnroll elements read before they are combined (loads in flight).
      g.strided_range(tid, w, ntid, kRowBlockUnroll, nullptr, [&](Value *i) { return g.rows_at(re.arrays, i); },
                      [&](const std::vector<Val> &x) { store_all(acc, apply(opl, load_all(acc, ts), x)); });
    } else {
      Value *chunk = b.CreateUDiv(b.CreateAdd(w, b.CreateSub(ntid, b.getInt64(1))), ntid);
      Value *lo = b.CreateMul(tid, chunk);
      lo = b.CreateSelect(b.CreateICmpSLT(lo, w), lo, w);
      Value *hi = b.CreateAdd(lo, chunk);
      hi = b.CreateSelect(b.CreateICmpSLT(hi, w), hi, w);
      g.counted_range(lo, hi, nullptr, fold);
    }
    if (!gpu()) {
      // One thread: its fold is the result.
      end_segment(false);
      std::vector<Val> r = load_all(acc, ts);
      for (size_t j = 0; j < kc; j++) g.bind(st.pat[j], r[j]);
      return;
    }
    // Before the shuffles: no thread combines a failed thread's value.
    end_segment(false);
    for (int64_t sft = 1; sft < kWarp; sft *= 2) {
      std::vector<Val> other = shuffle_all(load_all(acc, ts), b.getInt64(sft), false);
      g.when(b.CreateICmpEQ(b.CreateAnd(lane, b.getInt64(2 * sft - 1)), b.getInt64(0)), [&] {
        go_on_failing([&] { store_all(acc, apply(opl, load_all(acc, ts), other)); });
      });
    }
    Value *shared = slots_array(kc, kGpuBlockThreads / kWarp);
    g.when(b.CreateICmpEQ(lane, b.getInt64(0)), [&] {
      std::vector<Val> r = load_all(acc, ts);
      for (size_t j = 0; j < kc; j++)
        b.CreateStore(g.ops().to_slot(ts[j], r[j].scalar), shared_at(shared, kc, slot_of(warp), j));
    });
    end_segment(true);
    // Every thread folds the warps' values in order (the same result everywhere).
    auto warp_value = [&](Value *wi) {
      std::vector<Val> x;
      for (size_t j = 0; j < kc; j++)
        x.push_back(Val{g.ops().from_slot(ts[j], b.CreateLoad(i64, shared_at(shared, kc, slot_of(wi), j))), nullptr, {}, {}});
      return x;
    };
    store_all(acc, warp_value(b.getInt64(0)));
    g.counted_range(b.getInt64(1), nwarps, nullptr,
                    [&](Value *wi) { store_all(acc, apply(opl, load_all(acc, ts), warp_value(wi))); }, false);
    std::vector<Val> r = load_all(acc, ts);
    for (size_t j = 0; j < kc; j++) g.bind(st.pat[j], r[j]);
  };

  // Block map of statement st, in place into its rows.
  auto block_map = [&](const core::Stm &st) {
    const core::Exp &me = st.exp;
    std::vector<Val> dests;
    for (int x : st.pat) dests.push_back(dest_rows.at(x));
    Value *w = g.ops().to_i64(g.prim_of(me.args[0]), g.scalar(me.args[0]));
    // kRowBlockUnroll elements read (with their index, last) before they are computed
    // and stored.
    g.strided_range(tid, w, ntid, kRowBlockUnroll, nullptr,
                    [&](Value *i) {
                      std::vector<Val> x = g.rows_at(me.arrays, i);
                      x.push_back(Val{i, nullptr, {}, {}});
                      return x;
                    },
                    [&](const std::vector<Val> &x) {
                      Value *i = x.back().scalar;
                      std::vector<Val> r = g.apply(*me.lambda, std::vector<Val>(x.begin(), x.end() - 1));
                      for (size_t j = 0; j < r.size(); j++) {
                        PrimType t = p_.var(st.pat[j]).type.prim;
                        g.store_elem(t, r[j].scalar, g.element_addr(dests[j].addr, i, t));
                      }
                    });
    for (size_t j = 0; j < st.pat.size(); j++) g.bind(st.pat[j], dests[j]);
  };

  // Block scan of statement st into its rows, in tiles of ntid elements.
  auto block_scan = [&](const core::Stm &st) {
    const core::Exp &se = st.exp;
    const core::Lambda &opl = *se.lambda;
    std::vector<PrimType> ts = types_of(st.pat);
    size_t kc = ts.size();
    std::vector<Val> dests;
    for (int x : st.pat) dests.push_back(dest_rows.at(x));
    // (The tile loop is uniform: every thread runs each tile, with its barriers.)
    end_segment(false);
    std::vector<AllocaInst *> running = allocas(ts), x = allocas(ts);
    std::vector<Val> ne;
    for (size_t j = 0; j < kc; j++) ne.push_back(g.val(se.args[j + 1]));
    store_all(running, ne);
    Value *w = g.ops().to_i64(g.prim_of(se.args[0]), g.scalar(se.args[0]));
    Value *tiles = b.CreateUDiv(b.CreateAdd(w, b.CreateSub(ntid, b.getInt64(1))), ntid);
    Value *shared = gpu() ? slots_array(kc, 2 * (kGpuBlockThreads / kWarp)) : nullptr;
    // Tiles of ntid elements, kRowBlockUnroll of them at a time on the GPU (their loads
    // in flight together), one on the CPU.
    int64_t unroll = gpu() ? kRowBlockUnroll : 1;
    Value *groups = b.CreateUDiv(b.CreateAdd(tiles, b.getInt64(unroll - 1)), b.getInt64(unroll));
    std::vector<std::vector<AllocaInst *>> xs;
    for (int64_t u = 0; u < unroll; u++) xs.push_back(allocas(ts));
    AllocaInst *tp = g.entry_alloca(i64);
    b.CreateStore(b.getInt64(0), tp);
    BasicBlock *head = BasicBlock::Create(c, "row.scan.head", f), *group = BasicBlock::Create(c, "row.scan.group", f);
    BasicBlock *done = BasicBlock::Create(c, "row.scan.done", f);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    Value *q = b.CreateLoad(i64, tp);
    b.CreateCondBr(b.CreateICmpULT(q, groups), group, done);
    b.SetInsertPoint(group);
    // (The indices first: a failing load's edge to the segment's end must not skip
    // them.)
    std::vector<Value *> is, ins;
    for (int64_t u = 0; u < unroll; u++) {
      Value *t = b.CreateAdd(b.CreateMul(q, b.getInt64(unroll)), b.getInt64(u));
      is.push_back(b.CreateAdd(b.CreateMul(t, ntid), tid));
      ins.push_back(b.CreateICmpULT(is.back(), w));
      store_all(xs[size_t(u)], ne);
    }
    for (size_t u = 0; u < size_t(unroll); u++)
      g.when(ins[u], [&] { store_all(xs[u], g.rows_at(se.arrays, is[u])); });
    auto store_at = [&](Value *i, const std::vector<Val> &r) {
      for (size_t j = 0; j < kc; j++) g.store_elem(ts[j], r[j].scalar, g.element_addr(dests[j].addr, i, ts[j]));
    };
    if (!gpu()) {
      std::vector<AllocaInst *> &x = xs[0];
      store_all(running, apply(opl, load_all(running, ts), load_all(x, ts)));
      std::vector<Val> r = load_all(running, ts);
      g.when(ins[0], [&] { store_at(is[0], r); });
      end_segment(false);
    } else {
      end_segment(false);
      for (int64_t u = 0; u < unroll; u++) {
        std::vector<AllocaInst *> &x = xs[size_t(u)];
        // Inclusive scan of the warp's values.
        for (int64_t sft = 1; sft < kWarp; sft *= 2) {
          std::vector<Val> prev = shuffle_all(load_all(x, ts), b.getInt64(sft), true);
          g.when(b.CreateICmpUGE(lane, b.getInt64(sft)), [&] {
            go_on_failing([&] { store_all(x, apply(opl, prev, load_all(x, ts))); });
          });
        }
        // (Tiles alternate between the two halves of `shared`.)
        Value *slot0 = b.CreateMul(b.getInt64(u & 1), nwarps);
        // (RowWarp: two slots a warp.)
        if (warp_rows) slot0 = b.CreateAdd(b.CreateMul(wslot, b.getInt64(2)), slot0);
        g.when(b.CreateICmpEQ(lane, b.getInt64(kWarp - 1)), [&] {
          std::vector<Val> r = load_all(x, ts);
          for (size_t j = 0; j < kc; j++)
            b.CreateStore(g.ops().to_slot(ts[j], r[j].scalar), shared_at(shared, kc, b.CreateAdd(slot0, warp), j));
        });
        end_segment(true);
        auto total = [&](Value *wi) {
          std::vector<Val> v;
          for (size_t j = 0; j < kc; j++)
            v.push_back(Val{g.ops().from_slot(ts[j], b.CreateLoad(i64, shared_at(shared, kc, b.CreateAdd(slot0, wi), j))),
                            nullptr, {}, {}});
          return v;
        };
        // This thread's prefix: the running value, the totals of the warps before.
        std::vector<AllocaInst *> pre = allocas(ts);
        store_all(pre, load_all(running, ts));
        g.counted_range(b.getInt64(0), warp, nullptr,
                        [&](Value *wi) { store_all(pre, apply(opl, load_all(pre, ts), total(wi))); }, false);
        g.when(ins[size_t(u)], [&] { store_at(is[size_t(u)], apply(opl, load_all(pre, ts), load_all(x, ts))); });
        g.counted_range(b.getInt64(0), nwarps, nullptr,
                        [&](Value *wi) { store_all(running, apply(opl, load_all(running, ts), total(wi))); }, false);
        // (A failure of the operator here: the block leaves at the next barrier.)
        end_segment(false);
      }
    }
    b.CreateStore(b.CreateAdd(q, b.getInt64(1)), tp);
    b.CreateBr(head);
    b.SetInsertPoint(done);
    for (size_t j = 0; j < kc; j++) g.bind(st.pat[j], dests[j]);
  };

  for (size_t si = 0; si < body.stms.size(); si++) {
    const core::Stm &st = body.stms[si];
    const SegOp *bo = op.block_op(st);
    if (bo && bo->strategy == Strategy::Fused && plan_.in_thread(st) != Strategy::Fused) {
      // A map fused into a scan in this version only (extract_kernels.cpp).
      for (size_t j = 0; j < st.pat.size(); j++) {
        g.lazy_[st.pat[j]] = FnGen::Lazy{&st, j};
        Val dims_only;
        dims_only.dims = {g.ops().to_i64(g.prim_of(st.exp.args[0]), g.scalar(st.exp.args[0]))};
        g.bind(st.pat[j], dims_only);
      }
      continue;
    }
    if (!bo || bo->strategy == Strategy::Fused) {
      g.stm(st);
      continue;
    }
    switch (st.exp.kind) {
    case core::ExpKind::Reduce: block_reduce(st, *bo); break;
    case core::ExpKind::Scan: block_scan(st); break;
    default: block_map(st); break;
    }
    // Maps and scans: their rows are read by other threads (a barrier), or a failure
    // must be seen before the next block-level operation.
    if (st.exp.kind != core::ExpKind::Reduce && (reads_back || block_op_after(si))) end_segment(reads_back);
    else if (block_op_after(si)) end_segment(false);
  }
  // The scalar results, from thread 0.
  std::vector<Val> res = g.results(body);
  bool scalars = false;
  for (size_t j = 0; j < res.size(); j++) scalars = scalars || g.rank_of(body.result[j]) == 0;
  if (scalars) {
    Value *zero = b.CreateICmpEQ(tid, b.getInt64(0));
    BasicBlock *write = BasicBlock::Create(c, "row.results", f), *after = BasicBlock::Create(c, "row.results.done", f);
    b.CreateCondBr(zero, write, after);
    b.SetInsertPoint(write);
    for (size_t j = 0; j < res.size(); j++) {
      if (g.rank_of(body.result[j]) != 0) continue;
      PrimType t = g.prim_of(body.result[j]);
      g.store_elem(t, res[j].scalar, g.element_addr(outs[j].addr, g.offset_of(outs[j], {row}), t));
    }
    b.CreateBr(after);
    b.SetInsertPoint(after);
  }
  b.CreateBr(seg_end);
  b.SetInsertPoint(seg_end);
  b.CreateBr(ids.after);
  end_blocks(k, ids);
  g.on_fail = nullptr;
}

} // namespace kerb::codegen
