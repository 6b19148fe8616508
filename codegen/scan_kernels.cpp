// The single-pass scan (Strategy::SinglePass; see program_gen.h): a scan of scalars in
// one launch that reads its input once and writes its result once, with decoupled
// look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016). The host clears a status word per tile and launches one block per
// tile; each block takes its tile from a ticket counter, scans it in shared memory with
// the tiled block kernels' phases (block_kernels.cpp's tiled_body, Note [Tiled block
// kernels]), and gets the tile's prefix from its predecessors' published statuses
// instead of a second pass over the input. Reduce-then-scan stays as the version below
// the guard (block_kernels.cpp).
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

// Note [Single-pass scan]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Reduce-then-scan reads the input twice (the block totals, then the scan from each
// block's prefix): bench/scan.fut, 2^26 i32, took 0.320 ms on the H100 where
// torch.cumsum (one pass) took 0.260. The single pass reads it once:
//
// Tiles and tickets. The input is cut into tiles of nt * items elements (nt threads,
// 256 on the GPU, kCpuTileThreads emulated on the CPU; items = tile_items, as the
// tiled kernels); the host launches one block per tile. A block does not scan the
// tile of its block index but of a ticket, taken by thread 0 with an atomic add on a
// counter (and shared through a barrier): tickets follow the order in which blocks
// start, so that the predecessors a block waits for have all started (a block index
// gives no such order: a block could wait for one that cannot start until it ends).
//
// Statuses. Tile j's status is X (none yet), A (its aggregate: the operator over its
// elements), P (its inclusive prefix: over every element up to its last) or F (the
// block failed). A block loads its tile and scans it as the tiled kernels do (load,
// the warps' scans, the warps' totals); then its first warp folds the warps' totals
// into the aggregate, thread 0 publishes A (tile 0 publishes P at once), and the warp
// looks back over a window of kLookBackWindow (32) predecessors, one per lane: lane l
// waits while tile e - 31 + l's status is X (e: the window's newest, first tile - 1),
// then two ballots give the lanes with F and with P. Any F: the block fails. Else
// every lane folds the window in order from its newest P (or all of it, if it has
// none) in front of what it has (op(v_j, acc): the order is kept, any associative
// operator), from the lanes' values in shared memory, all lanes alike; with no P the
// window moves 32 tiles back. acc is then the tile's exclusive prefix; thread 0
// publishes P = op(acc, aggregate) and shares acc through shared memory, and the
// block rescans and stores the tile from it. A block waits only for its predecessors'
// aggregates, which come right after their loads, not for their prefixes. (One status
// at a time by thread 0, as first written, moves the nearest P forward about one tile
// per L2 round trip while tiles start every few nanoseconds, so that by our estimate
// (not measured) the look-backs would grow to dozens of round trips; a window of 32
// should take one or two. On the CPU the lanes are emulated one after the other.)
//
// Memory. One 32-bit or narrower scalar (the scan of i32, f32, bool): the flag and
// the value in one 64-bit word (flag << 32 | bits), written with one store and read
// with one load, so no fence is needed between them. Otherwise (i64, f64, tuples) a
// 32-bit flag per tile and, per component, an array of aggregates and one of
// inclusive prefixes (separate, so that a reader that saw A never reads a prefix
// written later in the same place): the writer stores the values, fences (membar.gl
// on the GPU, a seq_cst fence on the CPU), then stores the flag; the reader loads
// the flag, fences, then loads the values. On the GPU the status loads and stores
// are volatile (ld.volatile bypasses the non-coherent L1); on the CPU they are
// atomic. The host clears the counter and the flags before every launch
// (kerb_rt_fill of zeros: X is 0), so every launch, several scans in one program and
// later calls of an entry point all start from ticket 0 with no stale status; the
// values need no clearing.
//
// Failures (docs/CHECKS.md). A check can fail in a fused map (the load phase), in the
// operator (the tile's scan, the aggregate, the look-back's folds, the rescan). A
// block that fails anywhere leaves through the tiled kernels' barriers (Note
// [Barriers and failures]) to `leave`, where thread 0 publishes F unless it had
// already published P (after P its successors have what they need; the host reports
// the failure and discards the results). A block whose look-back meets an F fails
// too, without a failure code (the failed block wrote one to the slot), and so
// publishes F itself: every block waiting behind a failure leaves, none spins
// forever, and every block that took a ticket publishes P or F. Blocks that start
// after a failure may leave early only before their ticket: the prelude (when the
// kernel has one) looks at the failure slot before the ticket is taken, so a block
// that leaves there takes no ticket, nobody waits for it, and the tiles it would have
// scanned are simply not written (the call fails anyway). A block never leaves after
// its ticket without publishing.
//
// The CPU device runs the same kernel: its launch splits the blocks into contiguous
// ranges over a few host threads (runtime/cpu_device.cpp), each running its blocks one
// after the other, one ticket each. A block's predecessors hold earlier tickets, so
// each is done or is being scanned by another host thread, which the OS keeps running:
// the look-back waits at most for that block to publish (on one host thread it never
// waits). The corpus (tests/programs/soacs/scan_single_pass.fut,
// tests/programs/failures/scan_single_pass_fail.fut) runs it there with tiles of 8 x
// items elements, so sizes of thousands of tiles are quick.
//
// The guard (Guard::SinglePassFit): n >= --scan-single-pass-min (default 1: an empty
// scan takes reduce-then-scan, which launches no look-back); `off` keeps
// reduce-then-scan for every scan, to compare.

namespace {

// The statuses of a tile (Note [Single-pass scan]); the host's clearing gives X.
constexpr uint32_t kStatusNone = 0, kStatusAggregate = 1, kStatusPrefix = 2, kStatusFailed = 3;
// The look-back reads this many predecessors' statuses at a time: one per lane of the
// block's first warp on the GPU (its ballots are 32 bits), emulated on the CPU.
constexpr int64_t kLookBackWindow = 32;

} // namespace

bool ProgramGen::single_pass_packed(const std::vector<PrimType> &types) {
  return types.size() == 1 && prim_bits(types[0]) <= 32;
}

void ProgramGen::single_pass_scan(const SegOp &op) {
  const core::Stm &s = *op.stm;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  LLVMContext &c = hb.getContext();
  KERB_ASSERT(op.versions.size() == 2 && op.versions[0].guard == Guard::SinglePassFit,
              "a single-pass scan without its versions");
  Value *n = h.scalar(s.exp.args[0]);
  std::vector<Value *> outs = alloc_per_result(s, n);
  BasicBlock *one = BasicBlock::Create(c, "scan.single_pass", h.function());
  BasicBlock *two = BasicBlock::Create(c, "scan.reduce_then_scan", h.function());
  BasicBlock *join = BasicBlock::Create(c, "scan.done", h.function());
  hb.CreateCondBr(hb.CreateICmpSGE(n, h.i64(op.single_pass_min)), one, two);

  hb.SetInsertPoint(one);
  std::vector<PrimType> types;
  for (int r : s.pat) types.push_back(p_.var(r).type.prim);
  bool packed = single_pass_packed(types);
  Value *tile = h.i64(tile_threads() * op.elems_per_thread);
  Value *tiles = hb.CreateSDiv(hb.CreateAdd(n, hb.CreateSub(tile, h.i64(1))), tile);
  tiles = hb.CreateSelect(hb.CreateICmpSGT(tiles, h.i64(1)), tiles, h.i64(1));
  // 4-byte words: the counter (8 bytes), then a status word of 8 (packed) or 4 bytes
  // per tile, cleared.
  Value *words = packed ? hb.CreateMul(hb.CreateAdd(tiles, h.i64(1)), h.i64(2)) : hb.CreateAdd(tiles, h.i64(2));
  Value *status = alloc(hb.CreateMul(words, h.i64(4)));
  h.return_if_error(hb.CreateCall(h.rt("kerb_rt_fill"), {h.ctx, status, h.i64(0), hb.getInt32(4), words}));
  std::vector<Value *> extra{status};
  if (!packed)
    for (PrimType t : types) extra.push_back(alloc(byte_size(t, {hb.CreateMul(tiles, h.i64(2))})));
  BlockKernel bk = block_kernel(op, op.versions[0].kernels[0], outs, extra, BlockMode::SinglePass);
  emit_launch(bk.id, tiles, bk.sl);
  hb.CreateBr(join);

  hb.SetInsertPoint(two);
  reduce_then_scan(op, op.versions[1], outs);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
  for (size_t j = 0; j < s.pat.size(); j++) h.bind(s.pat[j], Val{nullptr, outs[j], {n}, {}});
}

ProgramGen::SinglePassBlock ProgramGen::single_pass_begin(KernelFn &k, const BlockKernel &bk,
                                                          const std::vector<PrimType> &types, Value *tid,
                                                          Value *tiles) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
  SinglePassBlock sp;
  sp.packed = single_pass_packed(types);
  sp.status = b.CreateIntToPtr(k.slot(bk.extra_slots[0]), gptr);
  if (!sp.packed)
    for (size_t j = 0; j < types.size(); j++) sp.values.push_back(b.CreateIntToPtr(k.slot(bk.extra_slots[1 + j]), gptr));
  sp.tiles = tiles;
  sp.published = g.entry_alloca(b.getInt1Ty());
  b.CreateStore(b.getFalse(), sp.published);
  sp.leave = BasicBlock::Create(c, "single_pass.leave", k.f);
  auto take = [&]() {
    return b.CreateAtomicRMW(AtomicRMWInst::Add, sp.status, b.getInt64(1), MaybeAlign(8), AtomicOrdering::Monotonic);
  };
  if (!gpu()) {
    sp.tile = take();
    return sp;
  }
  auto *ticket = new GlobalVariable(kernel_module(), b.getInt64Ty(), false, GlobalValue::InternalLinkage,
                                    UndefValue::get(b.getInt64Ty()), k.f->getName().str() + "_ticket", nullptr,
                                    GlobalValue::NotThreadLocal, 3);
  g.when(b.CreateICmpEQ(tid, b.getInt64(0)), [&] { b.CreateStore(take(), ticket); });
  b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
  sp.tile = b.CreateLoad(b.getInt64Ty(), ticket);
  return sp;
}

namespace {

// The status memory of a single-pass kernel, as the kernel reads and writes it.
struct Statuses {
  FnGen &g;
  IRBuilder<> &b;
  Module &m;
  bool gpu;
  // ProgramGen::SinglePassBlock's packed, status, values and tiles.
  bool packed;
  Value *status;
  const std::vector<Value *> &values;
  Value *tiles;
  const std::vector<PrimType> &types;

  // A load or store that other blocks' accesses race with: volatile on the GPU (no
  // stale L1 line), atomic (monotonic) on the CPU.
  Value *load_shared_word(Type *t, Value *p, unsigned align) {
    LoadInst *l = b.CreateLoad(t, p, gpu);
    l->setAlignment(Align(align));
    if (!gpu) l->setAtomic(AtomicOrdering::Monotonic);
    return l;
  }
  void store_shared_word(Value *v, Value *p, unsigned align) {
    StoreInst *st = b.CreateStore(v, p, gpu);
    st->setAlignment(Align(align));
    if (!gpu) st->setAtomic(AtomicOrdering::Monotonic);
  }
  void fence(AtomicOrdering o) {
    if (gpu)
      b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_membar_gl));
    else
      b.CreateFence(o);
  }
  // Tile j's status word: after the 8-byte counter, 8 bytes (packed) or 4 per tile.
  Value *word_at(Value *j) {
    Value *off = b.CreateAdd(b.getInt64(8), b.CreateMul(j, b.getInt64(packed ? 8 : 4)));
    return b.CreateGEP(b.getInt8Ty(), status, off);
  }
  // Component c's value of tile j: its aggregate or its inclusive prefix.
  Value *value_at(size_t c, Value *j, Value *prefix) {
    Value *i = b.CreateSelect(prefix, b.CreateAdd(tiles, j), j);
    return g.element_addr(values[c], i, types[c]);
  }
  // The bits of a value of at most 32 bits, as an i64; and back.
  Value *bits(Value *v) {
    Value *m = g.ops().to_mem(types[0], v);
    unsigned w = m->getType()->getPrimitiveSizeInBits();
    if (!m->getType()->isIntegerTy()) m = b.CreateBitCast(m, b.getIntNTy(w));
    return b.CreateZExt(m, b.getInt64Ty());
  }
  Value *unbits(Value *word) {
    Type *mt = g.ops().mem_type(types[0]);
    Value *x = b.CreateTrunc(word, b.getIntNTy(mt->getPrimitiveSizeInBits()));
    if (!mt->isIntegerTy()) x = b.CreateBitCast(x, mt);
    return g.ops().from_mem(types[0], x);
  }

  // Publishes tile j's status `flag` (values: none for F).
  void publish(Value *j, uint32_t flag, const std::vector<Val> &vals) {
    if (packed) {
      Value *w = b.getInt64(uint64_t(flag) << 32);
      if (!vals.empty()) w = b.CreateOr(w, bits(vals[0].scalar));
      store_shared_word(w, word_at(j), 8);
      return;
    }
    for (size_t c = 0; c < vals.size(); c++) {
      Value *p = value_at(c, j, b.getInt1(flag == kStatusPrefix));
      StoreInst *st = b.CreateStore(g.ops().to_mem(types[c], vals[c].scalar), p, gpu);
      (void)st;
    }
    fence(AtomicOrdering::Release);
    store_shared_word(b.getInt32(flag), word_at(j), 4);
  }

  // Waits until tile j's status is not X; gives the flag (i32) and, unless it is F,
  // the values.
  std::pair<Value *, std::vector<Val>> wait(Function *f, Value *j) {
    LLVMContext &c = b.getContext();
    BasicBlock *spin = BasicBlock::Create(c, "lookback.wait", f);
    BasicBlock *got = BasicBlock::Create(c, "lookback.got", f);
    b.CreateBr(spin);
    b.SetInsertPoint(spin);
    Value *w = load_shared_word(packed ? b.getInt64Ty() : b.getInt32Ty(), word_at(j), packed ? 8 : 4);
    Value *flag = packed ? b.CreateTrunc(b.CreateLShr(w, 32), b.getInt32Ty()) : w;
    b.CreateCondBr(b.CreateICmpEQ(flag, b.getInt32(kStatusNone)), spin, got);
    b.SetInsertPoint(got);
    std::vector<Val> vals;
    if (packed) {
      vals.push_back(Val{unbits(w), nullptr, {}, {}});
      return {flag, vals};
    }
    fence(AtomicOrdering::Acquire);
    Value *prefix = b.CreateICmpEQ(flag, b.getInt32(kStatusPrefix));
    for (size_t c = 0; c < types.size(); c++) {
      Type *mt = g.ops().mem_type(types[c]);
      vals.push_back(Val{g.ops().from_mem(types[c], b.CreateLoad(mt, value_at(c, j, prefix), gpu)), nullptr, {}, {}});
    }
    return {flag, vals};
  }
};

} // namespace

std::vector<Val> ProgramGen::single_pass_prefix(KernelFn &k, const SinglePassBlock &sp,
                                                const std::vector<PrimType> &types, const core::Lambda &op,
                                                const std::vector<Val> &ne, const std::vector<Val> &agg) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Module &m = kernel_module();
  size_t kr = types.size();
  Statuses st{g, b, m, gpu(), sp.packed, sp.status, sp.values, sp.tiles, types};
  const int64_t W = kLookBackWindow;
  // On the GPU this runs in every lane of the block's first warp; on the CPU once,
  // the window's lanes emulated one after the other.
  Value *lane = gpu() ? sreg(b, Intrinsic::nvvm_read_ptx_sreg_tid_x) : nullptr;
  auto apply = [&](std::vector<Val> x, const std::vector<Val> &y) {
    x.insert(x.end(), y.begin(), y.end());
    return g.apply(op, x);
  };
  auto new_acc = [&](const std::vector<Val> &init) {
    std::vector<AllocaInst *> a = new_accs(g, types);
    write_accs(g, a, init);
    return a;
  };
  auto read = [&](const std::vector<AllocaInst *> &a) { return read_accs(g, types, a); };
  auto write = [&](const std::vector<AllocaInst *> &a, const std::vector<Val> &v) { write_accs(g, a, v); };
  // The window's flags and values, a slot per lane: shared memory on the GPU.
  auto window = [&](Type *et, const std::string &what) -> std::pair<Value *, ArrayType *> {
    auto *t = ArrayType::get(et, uint64_t(W));
    if (!gpu()) return {g.entry_alloca(t), t};
    auto *gv = new GlobalVariable(m, t, false, GlobalValue::InternalLinkage, UndefValue::get(t),
                                  f->getName().str() + "_lookback_" + what, nullptr, GlobalValue::NotThreadLocal, 3);
    gv->setAlignment(Align(8));
    return {gv, t};
  };
  auto [fl, fl_t] = window(b.getInt32Ty(), "flags");
  std::vector<std::pair<Value *, ArrayType *>> win;
  for (size_t j = 0; j < kr; j++) win.push_back(window(g.ops().mem_type(types[j]), fmt::format("values{}", j)));
  auto at = [&](const std::pair<Value *, ArrayType *> &a, Value *l) {
    return b.CreateGEP(a.second, a.first, {b.getInt64(0), l});
  };
  auto win_get = [&](Value *l) {
    std::vector<Val> v;
    for (size_t j = 0; j < kr; j++)
      v.push_back(Val{g.ops().from_mem(types[j], b.CreateLoad(g.ops().mem_type(types[j]), at(win[j], l))), nullptr, {}, {}});
    return v;
  };
  // A mask of the lanes whose flag is `flag` (bit l: lane l).
  auto ballot = [&](uint32_t flag) -> Value * {
    if (gpu()) {
      Value *mine = b.CreateICmpEQ(b.CreateLoad(b.getInt32Ty(), at({fl, fl_t}, lane)), b.getInt32(flag));
      return b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_vote_ballot_sync),
                          {b.getInt32(0xffffffffu), mine});
    }
    AllocaInst *mask = g.entry_alloca(b.getInt32Ty());
    b.CreateStore(b.getInt32(0), mask);
    g.counted_range(b.getInt64(0), b.getInt64(W), nullptr, [&](Value *l) {
      Value *mine = b.CreateICmpEQ(b.CreateLoad(b.getInt32Ty(), at({fl, fl_t}, l)), b.getInt32(flag));
      Value *bit = b.CreateShl(b.CreateZExt(mine, b.getInt32Ty()), b.CreateTrunc(l, b.getInt32Ty()));
      b.CreateStore(b.CreateOr(b.CreateLoad(b.getInt32Ty(), mask), bit), mask);
    });
    return b.CreateLoad(b.getInt32Ty(), mask);
  };
  auto first_lane = [&](const std::function<void()> &body) {
    if (gpu())
      g.when(b.CreateICmpEQ(lane, b.getInt64(0)), body);
    else
      body();
  };

  // acc: the exclusive prefix so far; incl: the tile's inclusive prefix.
  std::vector<AllocaInst *> acc = new_acc(ne), incl = new_acc(agg);
  BasicBlock *look = BasicBlock::Create(c, "lookback", f);
  BasicBlock *head = BasicBlock::Create(c, "lookback.head", f);
  BasicBlock *found = BasicBlock::Create(c, "lookback.found", f);
  BasicBlock *out = BasicBlock::Create(c, "lookback.publish", f);
  // Tile 0: its prefix is its aggregate.
  b.CreateCondBr(b.CreateICmpEQ(sp.tile, b.getInt64(0)), out, look);
  b.SetInsertPoint(look);
  first_lane([&] { st.publish(sp.tile, kStatusAggregate, agg); });
  // The window's newest tile (lane W - 1 reads it, lane l the tile W - 1 - l before).
  AllocaInst *ep = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(b.CreateSub(sp.tile, b.getInt64(1)), ep);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  Value *e = b.CreateLoad(b.getInt64Ty(), ep);
  // Each lane waits for its tile's status (lanes before tile 0: P, never folded, since
  // tile 0's own P is after them).
  auto read_lane = [&](Value *l) {
    Value *j = b.CreateAdd(b.CreateSub(e, b.getInt64(W - 1)), l);
    BasicBlock *none = BasicBlock::Create(c, "lookback.before0", f);
    BasicBlock *wait = BasicBlock::Create(c, "lookback.lane", f);
    BasicBlock *done = BasicBlock::Create(c, "lookback.lane.done", f);
    b.CreateCondBr(b.CreateICmpSLT(j, b.getInt64(0)), none, wait);
    b.SetInsertPoint(none);
    b.CreateStore(b.getInt32(kStatusPrefix), at({fl, fl_t}, l));
    b.CreateBr(done);
    b.SetInsertPoint(wait);
    auto [flag, vals] = st.wait(f, j);
    b.CreateStore(flag, at({fl, fl_t}, l));
    for (size_t q = 0; q < kr; q++) b.CreateStore(g.ops().to_mem(types[q], vals[q].scalar), at(win[q], l));
    b.CreateBr(done);
    b.SetInsertPoint(done);
  };
  if (gpu()) {
    read_lane(lane);
    b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_bar_warp_sync), {b.getInt32(0xffffffffu)});
  } else {
    g.counted_range(b.getInt64(0), b.getInt64(W), nullptr, read_lane);
  }
  // A failed tile in the window: this block fails too (no code: the slot has one).
  // Every lane alike (the masks are the warp's).
  BasicBlock *failed = BasicBlock::Create(c, "lookback.failed", f);
  BasicBlock *fold = BasicBlock::Create(c, "lookback.fold", f);
  b.CreateCondBr(b.CreateICmpNE(ballot(kStatusFailed), b.getInt32(0)), failed, fold);
  b.SetInsertPoint(failed);
  g.on_fail(nullptr);
  b.SetInsertPoint(fold);
  // Fold the window from its newest P (or all of it) in order, in front of acc: every
  // lane alike, from the shared slots (so that a failing operator fails the whole warp).
  Value *pmask = ballot(kStatusPrefix);
  Value *has_p = b.CreateICmpNE(pmask, b.getInt32(0));
  Value *top = b.CreateSub(b.getInt32(int32_t(W - 1)),
                           b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::ctlz, {b.getInt32Ty()}),
                                        {pmask, b.getTrue()}));
  Value *from = b.CreateZExt(b.CreateSelect(has_p, top, b.getInt32(0)), b.getInt64Ty());
  std::vector<AllocaInst *> part = new_acc(win_get(from));
  g.counted_range(b.CreateAdd(from, b.getInt64(1)), b.getInt64(W), nullptr,
                  [&](Value *l) { write(part, apply(read(part), win_get(l))); }, false);
  write(acc, apply(read(part), read(acc)));
  b.CreateStore(b.CreateSub(e, b.getInt64(W)), ep);
  if (gpu())
    b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_bar_warp_sync), {b.getInt32(0xffffffffu)});
  b.CreateCondBr(has_p, found, head);
  b.SetInsertPoint(found);
  write(incl, apply(read(acc), agg));
  b.CreateBr(out);
  b.SetInsertPoint(out);
  first_lane([&] { st.publish(sp.tile, kStatusPrefix, read(incl)); });
  b.CreateStore(b.getTrue(), sp.published);
  return read(acc);
}

void ProgramGen::single_pass_end(KernelFn &k, const SinglePassBlock &sp, Value *tid, BasicBlock *after) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  b.SetInsertPoint(sp.leave);
  std::vector<PrimType> none;
  Statuses st{g, b, kernel_module(), gpu(), sp.packed, sp.status, sp.values, sp.tiles, none};
  Value *should = b.CreateNot(b.CreateLoad(b.getInt1Ty(), sp.published));
  if (gpu()) should = b.CreateAnd(should, b.CreateICmpEQ(tid, b.getInt64(0)));
  g.when(should, [&] { st.publish(sp.tile, kStatusFailed, {}); });
  b.CreateBr(after);
}

} // namespace kerb::codegen
