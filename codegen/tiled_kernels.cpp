// Block and register tiling (see program_gen.h, ProgramGen::block_tiled_map): the kernel
// of a map's Strategy::BlockTiled version, whose element over n x p is a reduction of a
// map over k that reads arrays at [i, k] and [k, j] (matrix products and their kin:
// extract_kernels.cpp, Note [Matrix products], says which shapes). One thread per
// output reads 2m values from global memory for one output; here a block computes a
// tile of outputs, staging the tile's rows and columns in shared memory one k-tile at a
// time, and each thread keeps a small tile of outputs in registers.
//
// Note [Block and register tiling]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The shape (kernel_ir.h's constants): a block of T x T threads (T = kBlockTileThreads =
// 16 on the GPU, 256 threads) takes a tile of BM x BM outputs, BM = T * R, R =
// kBlockTileReg = 8 (128 x 128), thread (ty, tx) = (t / T, t % T) the R x R outputs at
// rows ty * R + [0, R) and columns tx * R + [0, R) of the tile, in registers. The
// reduction is walked in k-tiles of BK = kBlockTileK = 8. For every read of the map's
// lambda (a TiledRead: an array with its index order) the block's threads load the
// k-tile's BM x BK values striped, so that consecutive threads read consecutive
// addresses (kk fastest for a[i, k], the tile's row or column r fastest for a[k, i]),
// into registers (staged: per_load values a thread a read). The first k-tile is staged
// before the loop; per k-tile,
//   1. a barrier (no thread still reads the previous k-tile);
//   2. each thread stores its staged values into shared memory, transposed, as S[kk][r];
//      the rows of S are BM + kBlockTilePad long, so that the transposed stores of a
//      warp fall in different banks (address kk * 132 + r: bank 4 kk + r);
//   3. a barrier;
//   4. the next k-tile's loads are issued into the staging registers (their latency
//      hidden behind the compute that follows; none past m);
//   5. compute: for each kk, the thread reads its R values of each row-side read and R
//      of each column-side read (vector loads from shared memory: its R are
//      contiguous), then for each of its R x R outputs applies the map's lambda (its
//      Index statements, or in the rows form its parameters, bound to those values, the
//      rest of the lambda generated as it stands, with i, j and k bound; it has no
//      integer division by a variable, which the zeros past the edges could trap on
//      the CPU) and folds the result into the output's
//      accumulator with the reduction's operator: each output in k order, as the
//      sequential loop does.
// Finally each thread stores the outputs of its R x R that are inside the n x p output,
// each after the element's epilogue (TiledDot::epilogue: `a[i, j] - reduce ...`, its
// statements with i, j and the reduction's result bound; no failure path).
// Edges: a value of the tile outside its array (row >= n, column >= p, k >= m: the
// tests are against the array's own dims, so no load leaves the array) is stored in
// shared memory as zero and never reaches an output: in the last, partial k-tile the
// kk loop stops at m - k0 (a loop with that bound; full k-tiles unrolled), and an
// output outside n x p is computed from such values but not stored. m = 0 stores the
// neutral element; n = 0 or p = 0 runs the other version (the guard).
// The lambda and the operator have no kept checks (extract_kernels.cpp); the kernel's
// only failures are the lambdas' asserts of host values (sizes), made first, the same in
// every thread (all leave together, before any barrier). It looks at the failure slot
// first when the kernel IR says so.
// Launch bound: kBlockTileBlocksPerSm = 2 blocks per SM (at most 128 registers a
// thread: 64 accumulators, 16 values, addresses; ptxas sm_90: 127 registers, no spills
// for bench/matmul.fut) for values of at most 4 bytes and at most two reads; otherwise
// one (up to 255 registers: f64's 64 accumulators alone take 128).
// On the CPU device a block is one host thread: the kernel emulates kBlockTileCpuThreads
// x kBlockTileCpuThreads threads phase by phase (each phase a loop over them, the
// accumulators in an array per emulated thread, 4 x 4 of them), with the same R and BK,
// so 32 x 32 outputs a block: the corpus' sizes (33, 40, 130) cross every edge of the
// tiles, and a thread's loads of a[i, k] take the path of constant offsets as on the
// GPU (16 threads, a multiple of BK), those of a[k, i] the general one.
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

static_assert(kBlockTileThreads * kBlockTileThreads == kGpuBlockThreads, "a tiled block is one GPU block");

void ProgramGen::block_tiled_map(const SegOp &op, size_t v) {
  const Version &ver = op.versions[v];
  const Kernel &kr = ver.kernels[0];
  const TiledDot &d = *op.tiled;
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  LLVMContext &hc = hb.getContext();
  // The outputs first: both versions write them.
  {
    SlotList outs;
    alloc_outputs(op, h.scalar(e.args[0]), outs);
  }
  const int64_t tile = (gpu() ? kBlockTileThreads : kBlockTileCpuThreads) * kBlockTileReg;
  Value *n = h.ops().to_i64(h.prim_of(e.args[0]), h.scalar(e.args[0]));
  Value *p, *rows;
  if (d.flat >= 0) {
    // ceil(n / p) rows of p (none when p <= 0: the guard fails).
    p = h.ops().to_i64(h.prim_of(op.split_p), h.scalar(op.split_p));
    Value *p1 = hb.CreateSelect(hb.CreateICmpSGT(p, h.i64(0)), p, h.i64(1));
    rows = hb.CreateAdd(hb.CreateUDiv(n, p1), hb.CreateZExt(hb.CreateICmpNE(hb.CreateURem(n, p1), h.i64(0)),
                                                            hb.getInt64Ty()));
  } else {
    // (Nested maps and the rows form: the inner map's width.)
    p = h.ops().to_i64(h.prim_of(op.space[1]), h.scalar(op.space[1]));
    rows = n;
  }
  Value *m = h.ops().to_i64(h.prim_of(d.red->exp.args[0]), h.scalar(d.red->exp.args[0]));
  auto ceil_div = [&](Value *x) { return hb.CreateUDiv(hb.CreateAdd(x, h.i64(tile - 1)), h.i64(tile)); };
  Value *least = h.i64(std::max<int64_t>(d.min, 1));
  Value *fit = hb.CreateAnd(hb.CreateICmpSGE(rows, least), hb.CreateICmpSGE(p, least));
  // (Under 2^31 blocks: the sizes are tested before they are divided.)
  Value *small = hb.CreateAnd(hb.CreateICmpSLT(rows, h.i64(int64_t(1) << 40)),
                              hb.CreateICmpSLT(p, h.i64(int64_t(1) << 40)));
  BasicBlock *tiled = BasicBlock::Create(hc, "block_tiled", h.function());
  BasicBlock *other = BasicBlock::Create(hc, "block_tiled.other", h.function());
  BasicBlock *join = BasicBlock::Create(hc, "block_tiled.done", h.function());
  hb.CreateCondBr(hb.CreateAnd(fit, small), tiled, other);
  hb.SetInsertPoint(tiled);
  Value *nbx = ceil_div(p), *nby = ceil_div(rows);
  Value *blocks = hb.CreateMul(nbx, nby);
  BasicBlock *launch = BasicBlock::Create(hc, "block_tiled.launch", h.function());
  hb.CreateCondBr(hb.CreateICmpSLT(blocks, h.i64(INT32_MAX)), launch, other);
  hb.SetInsertPoint(launch);
  SlotList sl;
  // (The rows form reads the map's array; over iota, the iota, not read.)
  size_t first_out = add_block_map_slots(op, sl);
  size_t rows_slot = add_raw(sl, rows), p_slot = add_raw(sl, p), m_slot = add_raw(sl, m), n_slot = add_raw(sl, n);
  size_t nbx_slot = add_raw(sl, nbx);
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, 0});
  int id = int(out_.kernel_descs.size()) - 1;
  bind_kernel_args(k, sl);
  Val out = k.g->lookup(sl.args[first_out].var);
  block_tiled_body(k, op, out, {k.slot(rows_slot), k.slot(p_slot), k.slot(m_slot), k.slot(n_slot), k.slot(nbx_slot)},
                   kr.prelude);
  emit_launch(id, blocks, sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(other);
  if (op.inner) flat_map_kernel(op);
  else thread_map_kernel(op, v + 1);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

void ProgramGen::block_tiled_body(KernelFn &k, const SegOp &op, const Val &out, const TiledSizes &z,
                                  bool prelude) {
  const TiledDot &d = *op.tiled;
  const core::Lambda &f = *d.map->exp.lambda, &opl = *d.red->exp.lambda;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Module &km = kernel_module();
  Type *i64 = b.getInt64Ty();
  g.invariant_loads = true;
  const int64_t T = gpu() ? kBlockTileThreads : kBlockTileCpuThreads, nt = T * T;
  const int64_t R = kBlockTileReg, BM = T * R, BK = kBlockTileK, LD = BM + kBlockTilePad;
  // Per thread: R values of each read a tile row or column, loaded from shared memory.
  const int64_t per_load = BM * BK / nt;
  static_assert(kBlockTileReg * kBlockTileK % kBlockTileThreads == 0, "whole loads a thread");

  BlockIds ids = begin_blocks(k);
  block_prelude(k, ids.tid, prelude);
  // The lambdas' asserts of host values: every thread of every block fails alike, before
  // any barrier, and leaves.
  g.on_fail = [&b, &ids](Value *) { b.CreateBr(ids.after); };
  for (const core::Stm *st : d.asserts) g.stm(*st);
  g.on_fail = nullptr;
  Value *bx = b.CreateURem(ids.block, z.nbx), *by = b.CreateUDiv(ids.block, z.nbx);
  Value *i0 = b.CreateMul(by, b.getInt64(BM)), *j0 = b.CreateMul(bx, b.getInt64(BM));

  // Shared memory: one BK x LD array per read (the CPU: the block's thread's stack).
  PrimType rt = p_.var(d.red->pat[0]).type.prim;
  Type *acc_t = g.ops().reg_type(rt);
  std::vector<PrimType> read_t;
  std::vector<std::pair<Value *, ArrayType *>> shared;
  for (size_t r = 0; r < d.reads.size(); r++) {
    read_t.push_back(p_.var(d.reads[r].array).type.prim);
    auto *at = ArrayType::get(g.ops().mem_type(read_t[r]), uint64_t(BK * LD));
    shared.push_back({shared_array(g, at, fmt::format("{}_tile{}", k.f->getName().str(), r), Align(16)), at});
  }
  // Two blocks per SM (at most 128 registers) for 4-byte values and at most two reads;
  // otherwise one (the accumulators alone of f64 take 128 registers).
  if (gpu()) {
    bool narrow = d.reads.size() <= 2 && km.getDataLayout().getTypeAllocSize(acc_t) <= 4;
    for (PrimType t : read_t) narrow = narrow && km.getDataLayout().getTypeAllocSize(g.ops().mem_type(t)) <= 4;
    min_blocks_per_sm(km, k.f, narrow ? kBlockTileBlocksPerSm : 1);
  }
  auto shared_at = [&](size_t r, Value *at) {
    return b.CreateGEP(shared[r].second, shared[r].first, {b.getInt64(0), at});
  };
  // Accumulators: R x R registers (the GPU), or an array per emulated thread (the CPU).
  std::vector<AllocaInst *> accs;
  AllocaInst *acc_arr = nullptr;
  ArrayType *acc_arr_t = ArrayType::get(acc_t, uint64_t(nt * R * R));
  if (gpu())
    for (int64_t x = 0; x < R * R; x++) accs.push_back(g.entry_alloca(acc_t));
  else
    acc_arr = g.entry_alloca(acc_arr_t);
  auto acc_at = [&](Value *t, int64_t x) -> Value * {
    if (gpu()) return accs[size_t(x)];
    return b.CreateGEP(acc_arr_t, acc_arr, {b.getInt64(0), b.CreateAdd(b.CreateMul(t, b.getInt64(R * R)),
                                                                       b.getInt64(x))});
  };
  // A phase: every thread runs body(t); on the GPU, `barrier` first.
  auto each_thread = [&](const std::function<void(Value *)> &body) {
    if (gpu()) body(ids.tid);
    else g.counted_range(b.getInt64(0), b.getInt64(nt), nullptr, body, false);
  };
  auto barrier = [&] {
    if (gpu()) b.CreateCall(Intrinsic::getDeclaration(&km, Intrinsic::nvvm_barrier0));
  };

  Value *ne = g.val(d.red->exp.args[1]).scalar;
  each_thread([&](Value *t) {
    for (int64_t x = 0; x < R * R; x++) b.CreateStore(ne, acc_at(t, x));
  });

  // Thread t's element q of read r's tile (e = t + q * nt): its place kk, rr (kk fastest
  // when k is the array's last index, else the tile's row; `fast` the extent of the
  // faster one. When nt is a multiple of it, element q's place is thread t's plus
  // q * nt / fast in the slower one: a constant offset.)
  auto place = [&](const TiledRead &rd, Value *t, int64_t q) {
    const int64_t fast = rd.k_first ? BM : BK;
    Value *lo, *hi;
    if (nt % fast == 0) {
      lo = b.CreateURem(t, b.getInt64(fast));
      hi = b.CreateAdd(b.CreateUDiv(t, b.getInt64(fast)), b.getInt64(q * nt / fast));
    } else {
      Value *el = b.CreateAdd(t, b.getInt64(q * nt));
      lo = b.CreateURem(el, b.getInt64(fast));
      hi = b.CreateUDiv(el, b.getInt64(fast));
    }
    return rd.k_first ? std::pair<Value *, Value *>{hi, lo} : std::pair<Value *, Value *>{lo, hi};
  };
  // The staged values: thread t's elements of the next k-tile, loaded while this one is
  // computed (registers on the GPU; an array per read over the emulated threads on the
  // CPU).
  std::vector<std::vector<AllocaInst *>> stage(d.reads.size());
  std::vector<std::pair<AllocaInst *, ArrayType *>> stage_arr;
  for (size_t r = 0; r < d.reads.size(); r++) {
    Type *mt = g.ops().mem_type(read_t[r]);
    if (gpu()) {
      for (int64_t q = 0; q < per_load; q++) stage[r].push_back(g.entry_alloca(mt));
    } else {
      auto *at = ArrayType::get(mt, uint64_t(nt * per_load));
      stage_arr.push_back({g.entry_alloca(at), at});
    }
  }
  auto stage_at = [&](size_t r, Value *t, int64_t q) -> Value * {
    if (gpu()) return stage[r][size_t(q)];
    return b.CreateGEP(stage_arr[r].second, stage_arr[r].first,
                       {b.getInt64(0), b.CreateAdd(b.CreateMul(t, b.getInt64(per_load)), b.getInt64(q))});
  };
  // Load, striped: thread t's elements of the k-tile from k = kbase, zero outside the
  // arrays (coalesced: consecutive threads, consecutive addresses).
  auto fetch = [&](Value *t, Value *kbase) {
    for (size_t r = 0; r < d.reads.size(); r++) {
      const TiledRead &rd = d.reads[r];
      const Val &arr = g.lookup(rd.array);
      Type *mt = g.ops().mem_type(read_t[r]);
      for (int64_t q = 0; q < per_load; q++) {
        auto [kk, rr] = place(rd, t, q);
        Value *x = b.CreateAdd(rd.col ? j0 : i0, rr), *kg = b.CreateAdd(kbase, kk);
        std::vector<Value *> idx = rd.k_first ? std::vector<Value *>{kg, x} : std::vector<Value *>{x, kg};
        Value *in = b.CreateAnd(b.CreateICmpULT(idx[0], arr.dims[0]), b.CreateICmpULT(idx[1], arr.dims[1]));
        Value *at = stage_at(r, t, q);
        b.CreateStore(Constant::getNullValue(mt), at);
        g.when(in, [&] {
          Value *v = g.load_elem(read_t[r], g.element_addr(arr.addr, g.offset_of(arr, idx), read_t[r]));
          b.CreateStore(g.ops().to_mem(read_t[r], v), at);
        });
      }
    }
  };
  // Store, transposed: thread t's staged elements into the shared tiles.
  auto put = [&](Value *t) {
    for (size_t r = 0; r < d.reads.size(); r++) {
      Type *mt = g.ops().mem_type(read_t[r]);
      for (int64_t q = 0; q < per_load; q++) {
        auto [kk, rr] = place(d.reads[r], t, q);
        b.CreateStore(b.CreateLoad(mt, stage_at(r, t, q)), shared_at(r, b.CreateAdd(b.CreateMul(kk, b.getInt64(LD)), rr)));
      }
    }
  };

  // The k-tiles: the first staged before the loop.
  each_thread([&](Value *t) { fetch(t, b.getInt64(0)); });
  AllocaInst *k0p = g.entry_alloca(i64);
  b.CreateStore(b.getInt64(0), k0p);
  BasicBlock *head = BasicBlock::Create(c, "ktile.head", k.f), *body = BasicBlock::Create(c, "ktile", k.f);
  BasicBlock *done = BasicBlock::Create(c, "ktile.done", k.f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  Value *k0 = b.CreateLoad(i64, k0p);
  b.CreateCondBr(b.CreateICmpSLT(k0, z.m), body, done);
  b.SetInsertPoint(body);
  barrier();
  each_thread(put);
  barrier();
  // The next k-tile's loads in flight during this one's compute (none past m).
  each_thread([&](Value *t) { fetch(t, b.CreateAdd(k0, b.getInt64(BK))); });
  // 5. Compute: kk in [0, count) of this k-tile.
  Value *left = b.CreateSub(z.m, k0);
  auto compute = [&](Value *t, Value *kk) {
    Value *ty = b.CreateUDiv(t, b.getInt64(T)), *tx = b.CreateURem(t, b.getInt64(T));
    Value *r0 = b.CreateMul(ty, b.getInt64(R)), *c0 = b.CreateMul(tx, b.getInt64(R));
    // The thread's R values of each read: one vector load (R contiguous elements, their
    // offset a multiple of R).
    std::vector<std::vector<Value *>> vals(d.reads.size());
    for (size_t r = 0; r < d.reads.size(); r++) {
      Type *mt = g.ops().mem_type(read_t[r]);
      int64_t bytes = int64_t(km.getDataLayout().getTypeAllocSize(mt));
      int64_t align = std::min<int64_t>(16, R * bytes);
      while ((LD * bytes) % align) align /= 2;
      auto *vt = FixedVectorType::get(mt, unsigned(R));
      Value *at = shared_at(r, b.CreateAdd(b.CreateMul(kk, b.getInt64(LD)), d.reads[r].col ? c0 : r0));
      Value *vec = b.CreateAlignedLoad(vt, at, Align(uint64_t(align)));
      for (int64_t x = 0; x < R; x++)
        vals[r].push_back(g.ops().from_mem(read_t[r], b.CreateExtractElement(vec, uint64_t(x))));
    }
    Value *kv = b.CreateAdd(k0, kk);
    for (int64_t ri = 0; ri < R; ri++)
      for (int64_t ci = 0; ci < R; ci++) {
        Value *i = b.CreateAdd(i0, b.CreateAdd(r0, b.getInt64(ri)));
        Value *j = b.CreateAdd(j0, b.CreateAdd(c0, b.getInt64(ci)));
        for (int x : d.rows) g.bind(x, Val{i, nullptr, {}, {}});
        for (int x : d.cols) g.bind(x, Val{j, nullptr, {}, {}});
        if (d.flat >= 0) g.bind(d.flat, Val{b.CreateAdd(b.CreateMul(i, z.p), j), nullptr, {}, {}});
        if (d.param_reads.empty()) {
          g.bind(f.params[0], Val{kv, nullptr, {}, {}});
        } else {
          // The rows form: the parameters are the rows' elements k.
          for (size_t q = 0; q < f.params.size(); q++) {
            size_t r = d.param_reads[q];
            g.bind(f.params[q], Val{vals[r][size_t(d.reads[r].col ? ci : ri)], nullptr, {}, {}});
          }
        }
        for (const core::Stm &st : f.body.stms) {
          auto rd = d.read_of.find(&st);
          if (rd == d.read_of.end()) {
            g.stm(st);
            continue;
          }
          g.bind(st.pat[0], Val{vals[rd->second][size_t(d.reads[rd->second].col ? ci : ri)], nullptr, {}, {}});
        }
        Val x = g.val(f.body.result[0]);
        Value *a = acc_at(t, ri * R + ci);
        Val acc{b.CreateLoad(acc_t, a), nullptr, {}, {}};
        b.CreateStore(g.apply(opl, {acc, x})[0].scalar, a);
      }
  };
  BasicBlock *full = BasicBlock::Create(c, "ktile.full", k.f), *part = BasicBlock::Create(c, "ktile.part", k.f);
  BasicBlock *next = BasicBlock::Create(c, "ktile.next", k.f);
  b.CreateCondBr(b.CreateICmpSGE(left, b.getInt64(BK)), full, part);
  b.SetInsertPoint(full);
  // A whole k-tile: unrolled.
  each_thread([&](Value *t) {
    for (int64_t kk = 0; kk < BK; kk++) compute(t, b.getInt64(kk));
  });
  b.CreateBr(next);
  b.SetInsertPoint(part);
  // The last k-tile, partial: kk < m - k0 (the values past m are never used).
  each_thread([&](Value *t) { g.counted_range(b.getInt64(0), left, nullptr, [&](Value *kk) { compute(t, kk); }, false); });
  b.CreateBr(next);
  b.SetInsertPoint(next);
  b.CreateStore(b.CreateAdd(k0, b.getInt64(BK)), k0p);
  b.CreateBr(head);
  b.SetInsertPoint(done);

  // The outputs inside n x p (a map over iota (n * p): also t < n).
  PrimType ot = p_.var(op.stm->pat[0]).type.prim;
  each_thread([&](Value *t) {
    Value *ty = b.CreateUDiv(t, b.getInt64(T)), *tx = b.CreateURem(t, b.getInt64(T));
    Value *r0 = b.CreateMul(ty, b.getInt64(R)), *c0 = b.CreateMul(tx, b.getInt64(R));
    for (int64_t ri = 0; ri < R; ri++)
      for (int64_t ci = 0; ci < R; ci++) {
        Value *i = b.CreateAdd(i0, b.CreateAdd(r0, b.getInt64(ri)));
        Value *j = b.CreateAdd(j0, b.CreateAdd(c0, b.getInt64(ci)));
        Value *ok = b.CreateAnd(b.CreateICmpULT(i, z.rows), b.CreateICmpULT(j, z.p));
        Value *at;
        if (d.flat >= 0) {
          at = b.CreateAdd(b.CreateMul(i, z.p), j);
          ok = b.CreateAnd(ok, b.CreateICmpULT(at, z.n));
        } else {
          at = g.offset_of(out, {i, j});
        }
        g.when(ok, [&] {
          // The epilogue (Note [Matrix products]) with the output's indices and the
          // reduction's result bound.
          for (int x : d.rows) g.bind(x, Val{i, nullptr, {}, {}});
          for (int x : d.cols) g.bind(x, Val{j, nullptr, {}, {}});
          if (d.flat >= 0) g.bind(d.flat, Val{at, nullptr, {}, {}});
          g.bind(d.red->pat[0], Val{b.CreateLoad(acc_t, acc_at(t, ri * R + ci)), nullptr, {}, {}});
          for (const core::Stm *st : d.epilogue) g.stm(*st);
          g.store_elem(ot, g.val(d.result).scalar, g.element_addr(out.addr, at, ot));
        });
      }
  });
  b.CreateBr(ids.after);
  end_blocks(k, ids);
}

} // namespace kerb::codegen
