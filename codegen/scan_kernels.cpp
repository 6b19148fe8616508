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
// Tiles and tickets. The input is cut into tiles of nt * items elements (nt threads:
// on the GPU 256, or kSinglePassThreads for a tile in registers; kCpuTileThreads
// emulated on the CPU; items = tile_items as the tiled kernels, or kSinglePassItems);
// the host launches one block per tile. A block does not scan the
// tile of its block index but of a ticket, taken by thread 0 with an atomic add on a
// counter (and shared through a barrier): tickets follow the order in which blocks
// start, so that the predecessors a block waits for have all started (a block index
// gives no such order: a block could wait for one that cannot start until it ends).
//
// Statuses. Tile j's status is X (none yet), A (its aggregate: the operator over its
// elements), P (its inclusive prefix: over every element up to its last) or F (the
// block failed). A block loads its tile and scans it (one scalar of at most 32 bits in
// registers, Note [Single-pass tiles in registers]; otherwise as the tiled kernels
// do); then its first warp folds the warps' totals into the aggregate, thread 0
// publishes A (tile 0 publishes P at once), and the warp looks back over a window of
// kLookBackWindow (32) predecessors, one per lane: lane l waits while tile e - 31 + l's
// status is X (e: the window's newest, first tile - 1), keeping the flag and value in
// registers; one ballot gives the lanes with F, one those with P. Any F: the block
// fails. Else the lanes below the newest P take the neutral element (all lanes, with no
// P) and a butterfly of shuffles (step o: lanes l and l ^ o both combine the lower's
// value with the higher's, op(x_low, x_high): the order is kept, any associative
// operator) leaves the window's fold in every lane, which goes in front of what the
// warp has (op(window, acc)); with no P the window moves 32 tiles back. acc is then
// the tile's exclusive prefix; thread 0 publishes P = op(acc, aggregate) and shares acc
// through shared memory. A lane whose operator fails in the butterfly goes on (the
// shuffles need every lane) and the warp fails together after it (a vote), before
// anything more is published. A block waits only for its predecessors' aggregates,
// which come right after their loads, not for their prefixes. (One status at a time by
// thread 0, as first written, moves the nearest P forward about one tile per L2 round
// trip while tiles start every few nanoseconds; a window of 32 should take one or two
// round trips. On the CPU the lanes are emulated one after the other, the butterfly
// pair by pair.)
//
// Delays, as CUB's on sm_90 (and the prototype's, bench/cuda/scan_variants.cu: 256 x 16
// tiles took 0.2533 ms without them and 0.2227 with them on the H100): in a grid of at
// least kLookBackNapTiles tiles, the first warp sleeps kLookBackAfterNs after
// publishing A (its predecessors are likely not done), and a lane sleeps
// kLookBackSpinNs between two reads of a status still X (fewer polls competing for L2).
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
// CUB's look-back delays on sm_90 (Note [Single-pass scan]): after publishing A and
// between two reads of a status still X, in grids of at least kLookBackNapTiles tiles.
constexpr int32_t kLookBackAfterNs = 1245, kLookBackSpinNs = 648;
constexpr int64_t kLookBackNapTiles = 500;
// The registers a thread of a tile in registers may take (Note [Single-pass tiles in
// registers]).
constexpr int64_t kSinglePassRegisters = 64;

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
  Value *tile = h.i64((gpu() && op.kernels()[0].block_threads ? op.kernels()[0].block_threads : tile_threads()) *
                       op.single_pass_items);
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
  // the values. `nap` (GPU): nanoseconds to sleep between two reads.
  std::pair<Value *, std::vector<Val>> wait(Function *f, Value *j, Value *nap) {
    LLVMContext &c = b.getContext();
    BasicBlock *spin = BasicBlock::Create(c, "lookback.wait", f);
    BasicBlock *again = BasicBlock::Create(c, "lookback.again", f);
    BasicBlock *got = BasicBlock::Create(c, "lookback.got", f);
    b.CreateBr(spin);
    b.SetInsertPoint(spin);
    Value *w = load_shared_word(packed ? b.getInt64Ty() : b.getInt32Ty(), word_at(j), packed ? 8 : 4);
    Value *flag = packed ? b.CreateTrunc(b.CreateLShr(w, 32), b.getInt32Ty()) : w;
    b.CreateCondBr(b.CreateICmpEQ(flag, b.getInt32(kStatusNone)), again, got);
    b.SetInsertPoint(again);
    if (gpu && nap) b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_nanosleep), {nap});
    b.CreateBr(spin);
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
  // On the GPU this runs in every lane of the block's first warp, each lane's values in
  // registers; on the CPU once, the window's lanes emulated one after the other, their
  // values in arrays of W.
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
  // A value per lane: a register (GPU) or an array of W (CPU), read and written by
  // lane (the GPU's index is its own lane's).
  struct PerLane {
    std::vector<AllocaInst *> a;
    std::vector<Type *> t;
  };
  auto per_lane = [&](const std::vector<Type *> &ts) {
    PerLane p;
    for (Type *t : ts) {
      p.t.push_back(t);
      p.a.push_back(
          g.entry_alloca(gpu() ? t : static_cast<Type *>(ArrayType::get(t, uint64_t(W)))));
    }
    return p;
  };
  auto slot = [&](const PerLane &p, size_t j, Value *l) -> Value * {
    if (gpu()) return p.a[j];
    return b.CreateGEP(ArrayType::get(p.t[j], uint64_t(W)), p.a[j], {b.getInt64(0), l});
  };
  auto lane_get = [&](const PerLane &p, Value *l) {
    std::vector<Val> v;
    for (size_t j = 0; j < p.a.size(); j++)
      v.push_back(Val{b.CreateLoad(p.t[j], slot(p, j, l)), nullptr, {}, {}});
    return v;
  };
  auto lane_set = [&](const PerLane &p, Value *l, const std::vector<Val> &v) {
    for (size_t j = 0; j < p.a.size(); j++)
      b.CreateStore(v[j].scalar, slot(p, j, l));
  };
  // body(l) for each lane: the GPU's own, the CPU's W in turn.
  auto over_lanes = [&](const std::function<void(Value *)> &body) {
    if (gpu())
      body(lane);
    else
      g.counted_range(b.getInt64(0), b.getInt64(W), nullptr, body, false);
  };
  std::vector<Type *> reg_types;
  for (PrimType t : types)
    reg_types.push_back(g.ops().reg_type(t));
  PerLane flags = per_lane({b.getInt32Ty()}), vals = per_lane(reg_types), xs = per_lane(reg_types);
  // A mask of the lanes whose flag is `flag` (bit l: lane l): one ballot on the GPU.
  auto ballot = [&](uint32_t flag) -> Value * {
    if (gpu()) {
      Value *mine = b.CreateICmpEQ(lane_get(flags, lane)[0].scalar, b.getInt32(flag));
      return b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_vote_ballot_sync),
                          {b.getInt32(0xffffffffu), mine});
    }
    AllocaInst *mask = g.entry_alloca(b.getInt32Ty());
    b.CreateStore(b.getInt32(0), mask);
    over_lanes([&](Value *l) {
      Value *mine = b.CreateICmpEQ(lane_get(flags, l)[0].scalar, b.getInt32(flag));
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
  // Delays (Note [Single-pass scan]): none in a grid of fewer than kLookBackNapTiles.
  Value *nap = nullptr, *nap_after = nullptr;
  if (gpu()) {
    Value *napping = b.CreateICmpSGE(sp.tiles, b.getInt64(kLookBackNapTiles));
    nap = b.CreateSelect(napping, b.getInt32(kLookBackSpinNs), b.getInt32(0));
    nap_after = b.CreateSelect(napping, b.getInt32(kLookBackAfterNs), b.getInt32(0));
  }

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
  if (gpu()) b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_nanosleep), {nap_after});
  // The window's newest tile (lane W - 1 reads it, lane l the tile W - 1 - l before).
  AllocaInst *ep = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(b.CreateSub(sp.tile, b.getInt64(1)), ep);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  Value *e = b.CreateLoad(b.getInt64Ty(), ep);
  // Each lane waits for its tile's status (lanes before tile 0: P, never folded, since
  // tile 0's own P is after them).
  over_lanes([&](Value *l) {
    Value *j = b.CreateAdd(b.CreateSub(e, b.getInt64(W - 1)), l);
    BasicBlock *none = BasicBlock::Create(c, "lookback.before0", f);
    BasicBlock *wait = BasicBlock::Create(c, "lookback.lane", f);
    BasicBlock *done = BasicBlock::Create(c, "lookback.lane.done", f);
    b.CreateCondBr(b.CreateICmpSLT(j, b.getInt64(0)), none, wait);
    b.SetInsertPoint(none);
    lane_set(flags, l, {Val{b.getInt32(kStatusPrefix), nullptr, {}, {}}});
    lane_set(vals, l, ne);
    b.CreateBr(done);
    b.SetInsertPoint(wait);
    auto [flag, got] = st.wait(f, j, nap);
    lane_set(flags, l, {Val{flag, nullptr, {}, {}}});
    if (!got.empty()) lane_set(vals, l, got);
    b.CreateBr(done);
    b.SetInsertPoint(done);
  });
  // A failed tile in the window: this block fails too (no code: the slot has one).
  // Every lane alike (the masks are the warp's).
  BasicBlock *failed = BasicBlock::Create(c, "lookback.failed", f);
  BasicBlock *fold = BasicBlock::Create(c, "lookback.fold", f);
  b.CreateCondBr(b.CreateICmpNE(ballot(kStatusFailed), b.getInt32(0)), failed, fold);
  b.SetInsertPoint(failed);
  g.on_fail(nullptr);
  b.SetInsertPoint(fold);
  // The window from its newest P (lane `top`; or all of it) folded in order: lanes below
  // top take the neutral element, then an order-keeping butterfly over the lanes (step
  // o: lanes l and l ^ o both get op(x_low, x_high)) leaves the fold in every lane.
  Value *pmask = ballot(kStatusPrefix);
  Value *has_p = b.CreateICmpNE(pmask, b.getInt32(0));
  Value *top = b.CreateSub(b.getInt32(int32_t(W - 1)),
                           b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::ctlz, {b.getInt32Ty()}),
                                        {pmask, b.getTrue()}));
  Value *from = b.CreateZExt(b.CreateSelect(has_p, top, b.getInt32(0)), b.getInt64Ty());
  over_lanes([&](Value *l) {
    std::vector<Val> v = lane_get(vals, l), x;
    Value *in = b.CreateICmpSGE(l, from);
    for (size_t q = 0; q < kr; q++)
      x.push_back(Val{b.CreateSelect(in, v[q].scalar, ne[q].scalar), nullptr, {}, {}});
    lane_set(xs, l, x);
  });
  if (gpu()) {
    // A lane whose operator fails goes on (the warp's shuffles need every lane); the
    // warp fails together after the butterfly, before anything is published.
    std::function<void(Value *)> outer = g.on_fail;
    AllocaInst *bad = g.entry_alloca(b.getInt1Ty());
    b.CreateStore(b.getFalse(), bad);
    bool can_fail = false;
    for (int64_t o = 1; o < W; o *= 2) {
      std::vector<Val> x = lane_get(xs, lane), y;
      for (size_t q = 0; q < kr; q++)
        y.push_back(
            Val{warp_shuffle(b, m, x[q].scalar, b.getInt64(o), WarpShuffle::Xor), nullptr, {}, {}});
      Value *low = b.CreateICmpEQ(b.CreateAnd(lane, b.getInt64(o)), b.getInt64(0));
      std::vector<Val> lhs, rhs;
      for (size_t q = 0; q < kr; q++) {
        lhs.push_back(Val{b.CreateSelect(low, x[q].scalar, y[q].scalar), nullptr, {}, {}});
        rhs.push_back(Val{b.CreateSelect(low, y[q].scalar, x[q].scalar), nullptr, {}, {}});
      }
      BasicBlock *cont = BasicBlock::Create(c, "lookback.step", f);
      g.on_fail = [&b, bad, cont, &can_fail](Value *) {
        can_fail = true;
        b.CreateStore(b.getTrue(), bad);
        b.CreateBr(cont);
      };
      lane_set(xs, lane, apply(lhs, rhs));
      b.CreateBr(cont);
      b.SetInsertPoint(cont);
    }
    g.on_fail = outer;
    if (can_fail) {
      Value *any = b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_vote_any_sync),
                                {b.getInt32(0xffffffffu), b.CreateLoad(b.getInt1Ty(), bad)});
      BasicBlock *bfail = BasicBlock::Create(c, "lookback.op_failed", f);
      BasicBlock *ok = BasicBlock::Create(c, "lookback.folded", f);
      b.CreateCondBr(any, bfail, ok);
      b.SetInsertPoint(bfail);
      g.on_fail(nullptr);
      b.SetInsertPoint(ok);
    }
  } else {
    for (int64_t o = 1; o < W; o *= 2)
      g.counted_range(
          b.getInt64(0), b.getInt64(W / 2), nullptr,
          [&](Value *i) {
            // The pair's lower lane: i's bit log2(o) made room for.
            Value *l = b.CreateAdd(b.CreateMul(b.CreateUDiv(i, b.getInt64(o)), b.getInt64(2 * o)),
                                   b.CreateURem(i, b.getInt64(o)));
            Value *h = b.CreateAdd(l, b.getInt64(o));
            std::vector<Val> r = apply(lane_get(xs, l), lane_get(xs, h));
            lane_set(xs, l, r);
            lane_set(xs, h, r);
          },
          false);
  }
  write(acc, apply(lane_get(xs, gpu() ? lane : b.getInt64(0)), read(acc)));
  b.CreateStore(b.CreateSub(e, b.getInt64(W)), ep);
  b.CreateCondBr(has_p, found, head);
  b.SetInsertPoint(found);
  write(incl, apply(read(acc), agg));
  b.CreateBr(out);
  b.SetInsertPoint(out);
  first_lane([&] { st.publish(sp.tile, kStatusPrefix, read(incl)); });
  b.CreateStore(b.getTrue(), sp.published);
  return read(acc);
}

// Note [Single-pass tiles in registers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The scan of one scalar of at most 32 bits (i32, f32, u32, bool, ...: any operator)
// keeps a thread's elements in registers, as the hand-written prototype that reached
// 1.23x torch.cumsum on the H100 (bench/cuda/scan_variants.cu, Note [Scan variants]);
// the shared-memory tile of Note [Tiled block kernels] read each element from shared
// memory twice, with five block barriers and a scan of the parts in shared memory per
// tile. A tile is nt threads x kSinglePassItems (I) elements (kernel_ir.h: 128 x 24 on
// the GPU, the prototype's fastest shape, in blocks of kSinglePassThreads, which the
// runtime launches from the kernel's KernelDesc::block_threads; at most
// kSinglePassRegisters (64) registers a thread, eight blocks an SM: ptxas took 90
// unbounded for i32, and with 64 spills 8 bytes there (on the H100, with the slice
// padded as the prototype's, seven blocks an SM took 0.246 ms, nine 0.239, eight
// 0.236-0.239), operators of many instructions a little more, e.g. affine16 of the
// corpus 184 bytes); warp wi owns the
// contiguous w * I elements from wi * w * I, and moves them through its own slice of
// shared memory in groups of kMapLanes (4) elements, read and written as one vector
// (16 bytes for 4-byte elements). Group q of the slice is kept at (q & ~7) | ((q ^ q >>
// 1) & 7): a shared-memory access of 16 bytes a lane is served a quarter-warp (8
// lanes, 128 bytes) at a time, and with this swizzle the 8 lanes meet in no bank both
// when they take consecutive groups (striped) and groups I / 4 apart (blocked, I = 24),
// with no padding (plain groups meet two by two in the blocked reads; a group of
// padding after every eight, the prototype's layout, leaves some lanes two by two).
// That is the usual model of 16-byte accesses, not a measurement of banks; measured on
// the H100 (bench/results/2026-11-26-scan-vectors-h100), this layout with the 16-byte
// global accesses was the fastest tried: 0.231-0.233 ms against 0.236-0.239 with the
// prototype's padding.
// (With --scan-vectors=off, or an I that is not a multiple of 4, the slice holds
// elements, one of padding after every 32, and every access is one element.)
//   1. load, striped: lane l computes the elements of groups l, l + w, ... of its
//      warp's part (the fused maps, their checks deferred: coalesced) into the slice; a
//      warp barrier; lane l reads back its I consecutive elements (I / 4 groups) into
//      registers. When the part is full and the arrays read element by element
//      (lane_leaves, as Note [Commutative reductions in lanes]) and the result are
//      aligned for groups (lanes_fit: the same for the whole launch), a group is one
//      vector load of each array (a warp's load reads 512 consecutive bytes), the
//      fused maps for each of its elements (FnGen::lane), one vector store to the
//      slice; otherwise (the last part of the input, views not aligned,
//      --scan-vectors=off) it goes element by element (lane l: elements l, l + w, ...);
//   2. each thread scans its I elements in registers, then the warp scans the threads'
//      totals with shuffles (shfl.up: op(lower lanes', own), any associative
//      operator); lane w - 1 writes the warp's total; block barrier 2 (the ticket's is
//      1);
//   3. every thread folds the warps' totals into the tile's aggregate (uniform); the
//      first warp looks back (Note [Single-pass scan]) and thread 0 writes the tile's
//      exclusive prefix to shared memory; block barrier 3;
//   4. thread t's prefix: the tile's op the warps' before its own op its warp's lanes'
//      before its own (a shuffle in step 2); its I registers get it in front; the
//      slice back to global memory as in 1, by vectors where 1 took them (the blocked
//      writes go to the slots the lane read, so that only a warp barrier comes between
//      them and the striped reads).
// Three block barriers per tile (ticket, warp totals, prefix), as the prototype. A warp
// whose part reaches past n tests each element (and each register's step is
// predicated by its index, so that the registers keep constant indices and stay in
// registers).
// Failures: until barrier 2 and after barrier 3 a thread that fails records it and
// goes on (the shuffles and warp barriers need every lane; its values are garbage,
// but its failure took the slot first); barrier 2 is an OR over the threads' failed
// flags, and the block leaves there (publishing F). The look-back's failures (a failed
// predecessor, the operator) are the whole first warp's and end at barrier 3. After
// barrier 3 the tile's P is out: a failure only leaves its code (the host discards the
// results).
// The CPU device emulates the same steps over kCpuTileThreads threads in warps of 4,
// the registers in an array per thread, the shuffle scan as the same Hillis-Steele
// steps (lanes from the last down, each reading its source's old value).
void ProgramGen::single_pass_tile(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                                  Value *tid, AllocaInst *failed, const SinglePassBlock &sp) {
  const core::Exp &e = s.exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Module &m = kernel_module();
  Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
  PrimType type = p_.var(s.pat[0]).type.prim;
  std::vector<PrimType> types{type};
  Type *mem = g.ops().mem_type(type), *reg = g.ops().reg_type(type);
  const int64_t nt = gpu() ? bk.threads : kCpuTileThreads, w = gpu() ? 32 : 4, nw = nt / w, I = bk.items;
  // The slice's layout: groups of kMapLanes elements swizzled within each eight (vec:
  // whole groups of eight), else one element of padding after every 32 (I even).
  const bool vec = opts_.scan_vectors && I % kMapLanes == 0 && (w * I / kMapLanes) % 8 == 0,
             pad = !vec && I % 2 == 0;
  // A slice: the warp's w * I elements, padded.
  const int64_t slice = w * I + (pad ? w * I / 32 : 0);
  auto make_shared = [&](const char *what, int64_t count) -> std::pair<Value *, ArrayType *> {
    auto *t = ArrayType::get(mem, uint64_t(count));
    return {shared_array(g, t, fmt::format("{}_{}", f->getName().str(), what), Align(16)), t};
  };
  auto [slices, slices_t] = make_shared("slices", nw * slice);
  auto [totals, totals_t] = make_shared("warps", nw);
  auto [prefix, prefix_t] = make_shared("prefix", 1);
  auto sget = [&](Value *arr, ArrayType *t, Value *i) {
    return Val{g.ops().from_mem(type, b.CreateLoad(mem, b.CreateGEP(t, arr, {b.getInt64(0), i}))),
               nullptr,
               {},
               {}};
  };
  auto sput = [&](Value *arr, ArrayType *t, Value *i, Value *v) {
    b.CreateStore(g.ops().to_mem(type, v), b.CreateGEP(t, arr, {b.getInt64(0), i}));
  };
  // Element e of warp wi's slice: group q = e / kMapLanes at (q & ~7) | ((q ^ q >> 1)
  // & 7) (vec).
  auto slot = [&](Value *wi, Value *el) {
    // In 32 bits: a slice's indices are small, and in 64 bits the kernel ran about twice
    // the instructions (Nsight Compute on the H100, bench/NOTES.md).
    Type *i32 = b.getInt32Ty();
    auto k = [&](int64_t v) { return b.getInt32(uint32_t(v)); };
    Value *e = b.CreateTrunc(el, i32), *i = e;
    if (vec) {
      Value *q = b.CreateUDiv(e, k(kMapLanes));
      Value *swz = b.CreateAnd(b.CreateXor(q, b.CreateLShr(q, k(1))), k(7));
      q = b.CreateOr(b.CreateAnd(q, k(~int64_t(7))), swz);
      i = b.CreateAdd(b.CreateMul(q, k(kMapLanes)), b.CreateURem(e, k(kMapLanes)));
    } else if (pad) {
      i = b.CreateAdd(e, b.CreateLShr(e, k(5)));
    }
    return b.CreateZExt(b.CreateAdd(b.CreateMul(b.CreateTrunc(wi, i32), k(slice)), i), b.getInt64Ty());
  };
  // The kMapLanes elements of group v of warp wi's slice (vec), as one vector.
  Type *vmem = FixedVectorType::get(mem, unsigned(kMapLanes));
  const Align valign(lane_align(g, type));
  auto group_addr = [&](Value *wi, Value *v) {
    return b.CreateGEP(slices_t, slices, {b.getInt64(0), slot(wi, b.CreateMul(v, b.getInt64(kMapLanes)))});
  };
  auto vload = [&](Value *wi, Value *v) { return b.CreateAlignedLoad(vmem, group_addr(wi, v), valign); };
  auto vstore = [&](Value *wi, Value *v, Value *x) { b.CreateAlignedStore(x, group_addr(wi, v), valign); };
  // Per-thread registers: I elements and a few scalars (the CPU: arrays over nt).
  auto regs = [&](int64_t count) -> AllocaInst * {
    return g.entry_alloca(ArrayType::get(reg, uint64_t(gpu() ? count : count * nt)));
  };
  auto reg_at = [&](AllocaInst *r, int64_t count, Value *t, int64_t q) -> Value * {
    Value *i =
        gpu() ? b.getInt64(q) : b.CreateAdd(b.CreateMul(t, b.getInt64(count)), b.getInt64(q));
    return b.CreateGEP(r->getAllocatedType(), r, {b.getInt64(0), i});
  };
  AllocaInst *v = regs(I), *xr = regs(1), *exr = regs(1);
  auto vget = [&](Value *t, int64_t q) {
    return Val{b.CreateLoad(reg, reg_at(v, I, t, q)), nullptr, {}, {}};
  };
  auto vset = [&](Value *t, int64_t q, Value *x) { b.CreateStore(x, reg_at(v, I, t, q)); };
  auto xget = [&](AllocaInst *r, Value *t) {
    return Val{b.CreateLoad(reg, reg_at(r, 1, t, 0)), nullptr, {}, {}};
  };
  auto xset = [&](AllocaInst *r, Value *t, Value *x) { b.CreateStore(x, reg_at(r, 1, t, 0)); };
  auto op = [&](const Val &x, const Val &y) { return g.apply(*e.lambda, {x, y})[0]; };
  Val ne{g.ops().from_slot(type, k.slot(bk.ne_slots[0])), nullptr, {}, {}};
  auto warp_sync = [&]() {
    if (gpu())
      b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_bar_warp_sync),
                   {b.getInt32(0xffffffffu)});
  };
  // body, whose failures record themselves and go on after it.
  auto going_on = [&](const std::function<void()> &body) {
    BasicBlock *cont = BasicBlock::Create(c, "sp.go_on", f);
    g.on_fail = [&b, failed, cont](Value *) {
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(cont);
    };
    body();
    b.CreateBr(cont);
    b.SetInsertPoint(cont);
    g.on_fail = nullptr;
  };
  // A block barrier that leaves (to sp.leave) when any thread failed.
  auto barrier_or_leave = [&]() {
    Value *any = b.CreateLoad(b.getInt1Ty(), failed);
    if (gpu())
      any = b.CreateICmpNE(b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_barrier0_or),
                                        {b.CreateZExt(any, b.getInt32Ty())}),
                           b.getInt32(0));
    BasicBlock *next = BasicBlock::Create(c, "sp.barrier.next", f);
    b.CreateCondBr(any, sp.leave, next);
    b.SetInsertPoint(next);
  };
  // body(t) for every thread (the GPU: its own), or body(wi) for every warp.
  auto threads = [&](const std::function<void(Value *)> &body) {
    if (gpu())
      body(tid);
    else
      g.counted_range(b.getInt64(0), b.getInt64(nt), nullptr, body);
  };
  auto warps = [&](const std::function<void(Value *)> &body) {
    if (gpu())
      body(b.CreateLShr(tid, b.getInt64(5)));
    else
      g.counted_range(b.getInt64(0), b.getInt64(nw), nullptr, body);
  };
  // body(l) for every lane of a warp (the GPU: its own).
  auto lanes = [&](const std::function<void(Value *)> &body) {
    if (gpu())
      body(b.CreateAnd(tid, b.getInt64(w - 1)));
    else
      g.counted_range(b.getInt64(0), b.getInt64(w), nullptr, body);
  };
  auto input = [&](Value *i) { return block_input(g, e, bk, i); };
  // The tile [lo, hi); warp wi's part [wlo, wlo + w * I) and how much of it is below hi.
  Value *lo = b.CreateMul(sp.tile, b.getInt64(nt * I));
  lo = b.CreateSelect(b.CreateICmpSLT(lo, n), lo, n);
  Value *hi = b.CreateAdd(lo, b.getInt64(nt * I));
  hi = b.CreateSelect(b.CreateICmpSLT(hi, n), hi, n);
  auto part = [&](Value *wi) {
    Value *wlo = b.CreateAdd(lo, b.CreateMul(wi, b.getInt64(w * I)));
    // (At most w * I: the warps before the tile's last would otherwise take the tested
    // path, every element compared.)
    Value *cnt = b.CreateSub(hi, wlo);
    cnt = b.CreateSelect(b.CreateICmpSLT(cnt, b.getInt64(0)), b.getInt64(0), cnt);
    cnt = b.CreateSelect(b.CreateICmpSGT(cnt, b.getInt64(w * I)), b.getInt64(w * I), cnt);
    return std::make_pair(wlo, cnt);
  };
  // Striped over a warp's part: each(e) for lane l's elements e = l + q * w below cnt
  // (unrolled; tested only when the part is not full).
  auto striped = [&](Value *l, Value *cnt, const std::function<void(Value *)> &each) {
    BasicBlock *fast = BasicBlock::Create(c, "sp.striped.full", f),
               *slow = BasicBlock::Create(c, "sp.striped.part", f),
               *join = BasicBlock::Create(c, "sp.striped.done", f);
    b.CreateCondBr(b.CreateICmpEQ(cnt, b.getInt64(w * I)), fast, slow);
    b.SetInsertPoint(fast);
    for (int64_t q = 0; q < I; q++)
      each(b.CreateAdd(l, b.getInt64(q * w)));
    b.CreateBr(join);
    b.SetInsertPoint(slow);
    for (int64_t q = 0; q < I; q++) {
      Value *el = b.CreateAdd(l, b.getInt64(q * w));
      g.when(b.CreateICmpSLT(el, cnt), [&] { each(el); });
    }
    b.CreateBr(join);
    b.SetInsertPoint(join);
  };
  // Thread (wi, l)'s elements in its warp's part: how many are below cnt (0 to I).
  auto mine = [&](Value *l, Value *cnt) {
    Value *r = b.CreateSub(cnt, b.CreateMul(l, b.getInt64(I)));
    r = b.CreateSelect(b.CreateICmpSLT(r, b.getInt64(I)), r, b.getInt64(I));
    return b.CreateSelect(b.CreateICmpSGT(r, b.getInt64(0)), r, b.getInt64(0));
  };
  // each(q) for q below cnt (q a constant: the registers keep constant indices).
  auto predicated = [&](Value *cnt, int64_t from, const std::function<void(int64_t)> &each) {
    BasicBlock *fast = BasicBlock::Create(c, "sp.regs.full", f),
               *slow = BasicBlock::Create(c, "sp.regs.part", f),
               *join = BasicBlock::Create(c, "sp.regs.done", f);
    b.CreateCondBr(b.CreateICmpEQ(cnt, b.getInt64(I)), fast, slow);
    b.SetInsertPoint(fast);
    for (int64_t q = from; q < I; q++)
      each(q);
    b.CreateBr(join);
    b.SetInsertPoint(slow);
    for (int64_t q = from; q < I; q++)
      g.when(b.CreateICmpSLT(b.getInt64(q), cnt), [&] { each(q); });
    b.CreateBr(join);
    b.SetInsertPoint(join);
  };

  // Vectors (Note [Single-pass tiles in registers]): the arrays the scan reads element by
  // element, and whether they and the result allow 16-byte accesses (uniform).
  LaneLeaves leaves;
  if (bk.partial_inputs.empty() && vec) leaves = lane_leaves(g, e.arrays, true);
  Value *dst = b.CreateIntToPtr(k.slot(bk.out_slots[0]), gptr);
  Value *vec_fit = nullptr;
  if (!leaves.empty()) vec_fit = lane_aligned(g, lanes_fit(g, leaves, n), dst, type);
  // Over a full part when the vectors fit: each(el) for lane l's groups of kMapLanes
  // elements el = kMapLanes * (l + q * w) (the group's first), q < I / kMapLanes;
  // otherwise striped(l, cnt, one) element by element.
  auto grouped = [&](Value *l, Value *cnt, const std::function<void(Value *)> &each,
                     const std::function<void(Value *)> &one) {
    if (!vec_fit) return striped(l, cnt, one);
    BasicBlock *vec = BasicBlock::Create(c, "sp.vector", f),
               *elem = BasicBlock::Create(c, "sp.elements", f),
               *join = BasicBlock::Create(c, "sp.vector.done", f);
    b.CreateCondBr(b.CreateAnd(vec_fit, b.CreateICmpEQ(cnt, b.getInt64(w * I))), vec, elem);
    b.SetInsertPoint(vec);
    for (int64_t q = 0; q < I / kMapLanes; q++)
      each(b.CreateMul(b.CreateAdd(l, b.getInt64(q * w)), b.getInt64(kMapLanes)));
    b.CreateBr(join);
    b.SetInsertPoint(elem);
    striped(l, cnt, one);
    b.CreateBr(join);
    b.SetInsertPoint(join);
  };

  // 1. Load, striped into the slice (by vectors where they fit), then blocked into the
  // registers.
  warps([&](Value *wi) {
    auto [wlo, cnt] = part(wi);
    lanes([&](Value *l) {
      going_on([&] {
        deferred(g, [&](bool) {
          grouped(
              l, cnt,
              [&](Value *el) {
                Value *at = b.CreateAdd(wlo, el);
                load_lane_leaves(g, leaves, at);
                Value *x = PoisonValue::get(vmem);
                for (int64_t j = 0; j < kMapLanes; j++) {
                  Value *i = b.CreateAdd(at, b.getInt64(j));
                  g.lane = int(j);
                  g.lane_index = i;
                  x = b.CreateInsertElement(x, g.ops().to_mem(type, input(i)[0].scalar), uint64_t(j));
                  g.lane = -1;
                  g.lane_index = nullptr;
                }
                g.lane_values.clear();
                g.lane_indexed.clear();
                vstore(wi, b.CreateUDiv(el, b.getInt64(kMapLanes)), x);
              },
              [&](Value *el) {
                sput(slices, slices_t, slot(wi, el), input(b.CreateAdd(wlo, el))[0].scalar);
              });
        });
      });
    });
  });
  warp_sync();
  // 2. Each thread's scan in registers; the warp's shuffle scan of their totals.
  threads([&](Value *t) {
    Value *wi = b.CreateUDiv(t, b.getInt64(w)), *l = b.CreateURem(t, b.getInt64(w));
    if (vec) {
      for (int64_t q = 0; q < I; q += kMapLanes) {
        Value *x = vload(wi, b.CreateAdd(b.CreateMul(l, b.getInt64(I / kMapLanes)), b.getInt64(q / kMapLanes)));
        for (int64_t j = 0; j < kMapLanes; j++)
          vset(t, q + j, g.ops().from_mem(type, b.CreateExtractElement(x, uint64_t(j))));
      }
    } else {
      for (int64_t q = 0; q < I; q++)
        vset(t, q,
             sget(slices, slices_t,
                  slot(wi, b.CreateAdd(b.CreateMul(l, b.getInt64(I)), b.getInt64(q))))
                 .scalar);
    }
    Value *cnt = mine(l, part(wi).second);
    // The thread's total: its last element's scan (the neutral element when it has none).
    xset(xr, t, b.CreateSelect(b.CreateICmpSGT(cnt, b.getInt64(0)), vget(t, 0).scalar, ne.scalar));
    going_on([&] {
      predicated(cnt, 1, [&](int64_t q) {
        Value *x = op(vget(t, q - 1), vget(t, q)).scalar;
        vset(t, q, x);
        xset(xr, t, x);
      });
    });
  });
  warps([&](Value *wi) {
    for (int64_t o = 1; o < w; o *= 2) {
      if (gpu()) {
        Value *l = b.CreateAnd(tid, b.getInt64(w - 1));
        Value *y = warp_shuffle(b, m, xget(xr, tid).scalar, b.getInt64(o), WarpShuffle::Up);
        going_on([&] {
          g.when(b.CreateICmpSGE(l, b.getInt64(o)), [&] {
            xset(xr, tid, op(Val{y, nullptr, {}, {}}, xget(xr, tid)).scalar);
          });
        });
      } else {
        // Lanes from the last down: each reads its source's value of the step before.
        g.counted_range(b.getInt64(0), b.getInt64(w - o), nullptr, [&](Value *i) {
          Value *t = b.CreateAdd(b.CreateMul(wi, b.getInt64(w)), b.CreateSub(b.getInt64(w - 1), i));
          going_on([&] {
            xset(xr, t, op(xget(xr, b.CreateSub(t, b.getInt64(o))), xget(xr, t)).scalar);
          });
        });
      }
    }
    // The warp's total; each lane's exclusive value (its lanes' before its own).
    Value *last = b.CreateAdd(b.CreateMul(wi, b.getInt64(w)), b.getInt64(w - 1));
    if (gpu()) {
      Value *l = b.CreateAnd(tid, b.getInt64(w - 1));
      Value *x = xget(xr, tid).scalar;
      g.when(b.CreateICmpEQ(l, b.getInt64(w - 1)), [&] { sput(totals, totals_t, wi, x); });
      Value *y = warp_shuffle(b, m, x, b.getInt64(1), WarpShuffle::Up);
      xset(exr, tid, b.CreateSelect(b.CreateICmpEQ(l, b.getInt64(0)), ne.scalar, y));
    } else {
      sput(totals, totals_t, wi, xget(xr, last).scalar);
      g.counted_range(b.getInt64(0), b.getInt64(w), nullptr, [&](Value *l) {
        Value *t = b.CreateAdd(b.CreateMul(wi, b.getInt64(w)), l);
        Value *before = b.CreateSub(
            t, b.CreateSelect(b.CreateICmpEQ(l, b.getInt64(0)), b.getInt64(0), b.getInt64(1)));
        xset(exr, t,
             b.CreateSelect(b.CreateICmpEQ(l, b.getInt64(0)), ne.scalar, xget(xr, before).scalar));
      });
    }
  });
  barrier_or_leave();

  // 3. The tile's aggregate; the first warp's look-back; thread 0 shares the prefix.
  {
    BasicBlock *end = BasicBlock::Create(c, "sp.lookback.end", f);
    g.on_fail = [&b, failed, end](Value *) {
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(end);
    };
    g.when(gpu() ? b.CreateICmpULT(tid, b.getInt64(32)) : b.getTrue(), [&] {
      AllocaInst *agg = g.entry_alloca(reg);
      b.CreateStore(sget(totals, totals_t, b.getInt64(0)).scalar, agg);
      for (int64_t wi = 1; wi < nw; wi++)
        b.CreateStore(
            op(Val{b.CreateLoad(reg, agg), nullptr, {}, {}}, sget(totals, totals_t, b.getInt64(wi)))
                .scalar,
            agg);
      std::vector<Val> pre = single_pass_prefix(k, sp, types, *e.lambda, {ne},
                                                {Val{b.CreateLoad(reg, agg), nullptr, {}, {}}});
      g.when(b.CreateICmpEQ(tid, b.getInt64(0)),
             [&] { sput(prefix, prefix_t, b.getInt64(0), pre[0].scalar); });
    });
    b.CreateBr(end);
    b.SetInsertPoint(end);
    g.on_fail = nullptr;
  }
  barrier_or_leave();

  // 4. Each thread's prefix in front of its registers; the registers back to global
  // memory through the slice.
  threads([&](Value *t) {
    Value *wi = b.CreateUDiv(t, b.getInt64(w)), *l = b.CreateURem(t, b.getInt64(w));
    going_on([&] {
      Val pre = sget(prefix, prefix_t, b.getInt64(0));
      AllocaInst *a = g.entry_alloca(reg);
      b.CreateStore(pre.scalar, a);
      g.counted_range(
          b.getInt64(0), wi, nullptr,
          [&](Value *ww) {
            b.CreateStore(
                op(Val{b.CreateLoad(reg, a), nullptr, {}, {}}, sget(totals, totals_t, ww)).scalar,
                a);
          },
          false);
      Val p = op(Val{b.CreateLoad(reg, a), nullptr, {}, {}}, xget(exr, t));
      predicated(mine(l, part(wi).second), 0,
                 [&](int64_t q) { vset(t, q, op(p, vget(t, q)).scalar); });
    });
    if (vec) {
      for (int64_t q = 0; q < I; q += kMapLanes) {
        Value *x = PoisonValue::get(vmem);
        for (int64_t j = 0; j < kMapLanes; j++)
          x = b.CreateInsertElement(x, g.ops().to_mem(type, vget(t, q + j).scalar), uint64_t(j));
        vstore(wi, b.CreateAdd(b.CreateMul(l, b.getInt64(I / kMapLanes)), b.getInt64(q / kMapLanes)), x);
      }
    } else {
      for (int64_t q = 0; q < I; q++)
        sput(slices, slices_t, slot(wi, b.CreateAdd(b.CreateMul(l, b.getInt64(I)), b.getInt64(q))),
             vget(t, q).scalar);
    }
  });
  warp_sync();
  warps([&](Value *wi) {
    auto [wlo, cnt] = part(wi);
    lanes([&](Value *l) {
      grouped(
          l, cnt,
          [&](Value *el) {
            b.CreateAlignedStore(vload(wi, b.CreateUDiv(el, b.getInt64(kMapLanes))),
                                 g.element_addr(dst, b.CreateAdd(wlo, el), type), valign);
          },
          [&](Value *el) {
            g.store_elem(type, sget(slices, slices_t, slot(wi, el)).scalar,
                         g.element_addr(dst, b.CreateAdd(wlo, el), type));
          });
    });
  });
  b.CreateBr(sp.leave);
  // At most kSinglePassRegisters registers a thread: ptxas took 90 for 128 x 24 i32
  // unbounded (five blocks an SM); 64 gives eight (1024 threads) and spills 8 bytes.
  if (gpu()) min_blocks_per_sm(m, f, int(65536 / (kSinglePassRegisters * nt)), int(nt));
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
