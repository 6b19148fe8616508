// One-thread-per-element kernels (see program_gen.h): map (its lambda runs sequentially
// in the thread, array results written in place; four elements per thread with vector
// loads and stores for straight-line maps of scalars; one thread per inner element for
// perfectly nested maps), iota, replicate, the gather that makes a strided view
// contiguous, scatter, and reduce_by_index (atomics where the operator allows).
#include "codegen/program_gen.h"

#include "codegen/narrow_index.h"
#include "compiler/prim_ops.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
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

Val ProgramGen::materialize(const Val &src, PrimType t) {
  Val out;
  out.dims = src.dims;
  out.addr = alloc(byte_size(t, src.dims));
  copy_view(src, out, t);
  return out;
}

void ProgramGen::copy_view(const Val &src, const Val &dst, PrimType t) {
  FnGen &h = *host_;
  size_t rank = src.dims.size();
  Value *total = h.product(src.dims);
  SlotList sl;
  size_t total_slot = add_raw(sl, total);
  size_t src_slot = add_raw(sl, src.addr);
  size_t dims_slot = sl.host_values.size() + 1;
  for (Value *d : src.dims) add_raw(sl, d);
  for (Value *st : h.strides_of(src)) add_raw(sl, st);
  size_t dst_slot = add_raw(sl, dst.addr);
  size_t dst_strides_slot = sl.host_values.size() + 1;
  if (!dst.contiguous())
    for (Value *st : dst.strides) add_raw(sl, st);
  KernelFn k = new_kernel("copy", sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
  FnGen &g = *k.g;
  g.invariant_loads = true;
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  threads_kernel(k, k.slot(total_slot), [&](Value *gid) {
    // The element's index in each dim, from the last.
    Value *rem = gid, *off = b.getInt64(0), *doff = dst.contiguous() ? gid : b.getInt64(0);
    for (size_t d = rank; d-- > 0;) {
      Value *n = k.slot(dims_slot + d), *st = k.slot(dims_slot + rank + d);
      Value *i = b.CreateURem(rem, n);
      off = b.CreateAdd(off, b.CreateMul(i, st));
      if (!dst.contiguous()) doff = b.CreateAdd(doff, b.CreateMul(i, k.slot(dst_strides_slot + d)));
      rem = b.CreateUDiv(rem, n);
    }
    Value *from = b.CreateIntToPtr(k.slot(src_slot), gptr);
    Value *to = b.CreateIntToPtr(k.slot(dst_slot), gptr);
    g.store_elem(t, g.load_elem(t, g.element_addr(from, off, t)), g.element_addr(to, doff, t));
  });
  emit_launch(int(out_.kernel_descs.size()) - 1, total, sl);
}

void ProgramGen::alloc_outputs(const SegOp &op, Value *n, SlotList &sl) {
  const core::Stm &s = *op.stm;
  FnGen &g = *host_;
  bool readback = op.read_back;
  for (int v : s.pat) {
    const core::CType &t = p_.var(v).type;
    // Allocated already when the map chooses its kernels at run time (map_kernel).
    if (g.has(v)) {
      add_var(sl, v);
      continue;
    }
    // [n] and the function's result shape (its sizes are bound outside the map).
    std::vector<Value *> dims{n};
    const std::vector<core::SubExp> &shape = p_.var(v).shape;
    if (int(shape.size()) != t.rank) unsupported(s.exp, "maps whose results' sizes are not known");
    for (size_t d = 1; d < shape.size(); d++)
      dims.push_back(g.ops().to_i64(g.prim_of(shape[d]), g.scalar(shape[d])));
    Value *addr = alloc(byte_size(t.prim, dims), readback);
    g.bind(v, Val{nullptr, addr, dims, {}});
    add_var(sl, v);
  }
}

void ProgramGen::map_kernel(const SegOp &op) {
  if (op.strategy == Strategy::BlockTiled) return block_tiled_map(op, 0);
  if (op.strategy == Strategy::Staged) return staged_map(op, 0);
  if (op.strategy == Strategy::Tiles) {
    flat_map_kernel(op);
    return;
  }
  if (!op.red) return thread_map_kernel(op, 0);
  const core::Stm &s = *op.stm, *red = op.red;
  // Chosen at run time: a segmented reduction for few segments that the runtime
  // would give more than one block each, else the map's other versions. All write
  // the outputs allocated here.
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  Value *n = h.ops().to_i64(h.prim_of(s.exp.args[0]), h.scalar(s.exp.args[0]));
  Value *m = h.ops().to_i64(h.prim_of(red->exp.args[0]), h.scalar(red->exp.args[0]));
  Value *bps = hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, m});
  SlotList outs;
  alloc_outputs(op, h.scalar(s.exp.args[0]), outs);
  LLVMContext &c = hb.getContext();
  BasicBlock *seg = BasicBlock::Create(c, "segred", h.function());
  BasicBlock *thr = BasicBlock::Create(c, "segred.threads", h.function());
  BasicBlock *join = BasicBlock::Create(c, "segred.done", h.function());
  size_t v = 0;
  if (op.versions[v].guard == Guard::SegRedRowsFit) {
    // 1 to kSegRedRowsMaxSegments segments (and long): across rows, on blocks for the
    // m * n elements.
    BasicBlock *across = BasicBlock::Create(c, "segred.rows", h.function());
    BasicBlock *other = BasicBlock::Create(c, "segred.other", h.function());
    Value *few = hb.CreateAnd(hb.CreateICmpSGE(n, h.i64(1)), hb.CreateICmpSLE(n, h.i64(kSegRedRowsMaxSegments)));
    hb.CreateCondBr(hb.CreateAnd(hb.CreateICmpSGT(bps, h.i64(1)), few), across, other);
    hb.SetInsertPoint(across);
    segred_kernels(op, op.versions[v++], n,
                   hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, hb.CreateMul(m, n)}));
    hb.CreateBr(join);
    hb.SetInsertPoint(other);
  }
  KERB_ASSERT(op.versions[v].guard == Guard::SegRedFit, "a segmented reduction without its version");
  hb.CreateCondBr(hb.CreateAnd(hb.CreateICmpSGT(bps, h.i64(1)),
                               hb.CreateICmpSLE(n, h.i64(kSegRedMaxSegments))),
                  seg, thr);
  hb.SetInsertPoint(seg);
  segred_kernels(op, op.versions[v++], n, bps);
  hb.CreateBr(join);
  hb.SetInsertPoint(thr);
  thread_map_kernel(op, v);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

ProgramGen::MapSlots ProgramGen::add_map_slots(const SegOp &op, Value *n, Value *threads,
                                               SlotList &sl) {
  const core::Exp &e = op.stm->exp;
  for (int v : lambda_free_vars(p_, *e.lambda)) add_input(sl, v);
  for (int a : e.arrays) add_input(sl, a);
  MapSlots r;
  r.first_out = sl.args.size();
  alloc_outputs(op, n, sl);
  r.arena = add_arena(sl, threads, {{e.lambda.get(), true}}, e);
  return r;
}

size_t ProgramGen::add_block_map_slots(const SegOp &op, SlotList &sl) {
  const core::Exp &e = op.stm->exp;
  for (int v : lambda_free_vars(p_, *e.lambda)) add_input(sl, v);
  for (int a : e.arrays) add_input(sl, a);
  size_t first_out = sl.args.size();
  alloc_outputs(op, host_->scalar(e.args[0]), sl);
  return first_out;
}

void ProgramGen::thread_map_kernel(const SegOp &op, size_t v) {
  const Version &ver = op.versions[v];
  if (ver.strategy == Strategy::SplitTiles) return split_map_kernel(op, v);
  if (ver.strategy == Strategy::RowBlock || ver.strategy == Strategy::RowCached || ver.strategy == Strategy::RowWarp)
    return row_block_map(op, v);
  if (ver.strategy == Strategy::BlockTiled) return block_tiled_map(op, v);
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  const Kernel &kr = ver.kernels[0];
  FnGen &h = *host_;
  Value *n = h.scalar(e.args[0]);
  SlotList sl;
  size_t n_slot = add_raw(sl, n);
  MapSlots ms = add_map_slots(op, n, h.ops().to_i64(h.prim_of(e.args[0]), n), sl);
  size_t first_out = ms.first_out;
  ArenaSlots arena = ms.arena;

  bool lanes = ver.strategy == Strategy::Lanes;
  KERB_ASSERT(!lanes || !arena.used, "a map in lanes with scratch memory");
  KernelDesc desc{KernelDesc::Threads, 0};
  desc.max_blocks_per_sm = uint32_t(kr.max_blocks_per_sm);
  // The rows' length: the row array's first dimension, after its address.
  for (const KernelArg &a : sl.args)
    if (kr.rows_array >= 0 && a.var == kr.rows_array) desc.rows_slot = uint32_t(a.first + 1);
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, desc);
  bind_kernel_args(k, sl);
  FnGen &g = *k.g;
  g.invariant_loads = true;
  Value *kn = k.slot(n_slot);
  bool prelude = kr.prelude;
  auto dests = [&] {
    std::vector<Val> d;
    for (size_t j = 0; j < s.pat.size(); j++) d.push_back(g.lookup(sl.args[first_out + j].var));
    return d;
  };
  if (lanes) {
    // ceil(n / kMapLanes) threads (n >= 0).
    auto threads = [](IRBuilder<> &b, Value *count) {
      return b.CreateUDiv(b.CreateAdd(count, b.getInt64(uint64_t(kMapLanes - 1))),
                          b.getInt64(uint64_t(kMapLanes)));
    };
    threads_kernel(k, threads(g.builder(), kn),
                   [&](Value *gid) { lanes_thread(k, s, dests(), kn, gid); }, prelude, kr.rerun);
    emit_launch(int(out_.kernel_descs.size()) - 1, threads(h.builder(), n), sl);
    return;
  }
  threads_kernel(k, kn, [&](Value *gid) {
    bind_arena(k, arena, gid);
    g.map_element(*e.lambda, e.arrays, gid, dests());
  }, prelude, kr.rerun);
  emit_launch(int(out_.kernel_descs.size()) - 1, n, sl);
}

// Note [2-D tiles of map kernels]
// A map over a rows x cols space (perfectly nested maps, flat_map_kernel) runs as a
// Threads kernel whose blocks of kTileThreads threads (the runtime's block size on the
// GPU, kGpuThreadsBlock) each cover a tile of th rows x tw columns, tw * th <=
// kTileThreads, the column fastest: thread t of block b takes element
//   (by * th + t / tw, bx * tw + t % tw),  (by, bx) = (b / tiles_x, b % tiles_x),
// tiles_x = ceil(cols / tw), and has no element when t / tw >= th or the element is out
// of range. The host picks the tile (add_tiles): 32 columns x 8 rows (a warp reads and
// writes 32 consecutive elements of a row, and a block's rows share what they read of
// other arrays' columns, as the hand-written 32 x 8 blocks do), or whole rows (tw =
// cols, th = kTileThreads / cols rows) when cols < 256 and that leaves fewer threads
// idle (always for cols <= 32; cols = 1 gives 256 rows a block). The kernel divides by
// tw and tiles_x without a division: the host passes a magic multiplier and shift
// (x / d = (x * m) >> s for 0 <= x < 2^31, magic_divisor), computed once per launch.
// On the GPU the block and thread index are the special registers (b < 2^31 is the
// grid's limit); on the CPU, which runs the same kernel over a range of global thread
// indices, b = gid / kTileThreads and t = gid % kTileThreads, and b / tiles_x is a
// plain division (b is not bounded there), so the CPU device runs the same tiles.
// Note [Rows per thread]
// ~~~~~~~~~~~~~~~~~~~~~~
// A tile of one element per thread leaves each thread one chain of loads: a gather
// map's index, then the element it selects (bench/unproved/nbr_stencil.fut: img[iN[i],
// j], img[i, jW[j]]), and little else to issue while they come. On the H100 that kernel
// moved 1.35 TB/s, 40% of DRAM's (ncu: most cycles waiting on L1TEX), where XLA's
// fusion of the same stencil, four elements a thread, moved 2.2 TB/s. So when the inner
// map's element is straight-line code (extract_kernels.cpp's elementwise:
// SegOp::rows_per_thread) and there are rows enough, a thread takes kTileRows
// consecutive rows of its column, i .. i + 3 (each row's access still coalesced across
// the warp; the tile is th * kTileRows rows high). When all four rows and the column
// are in range (every thread but the last tile row's) they are generated as
// straight-line code, so their loads issue together, and what the four share is loaded
// and checked once (LLVM merges the invariant loads): a column's own values (jW[j],
// jE[j] and their bounds checks), a stencil's rows shared by neighbouring rows (img[i +
// 1, j] is row i's south and row i + 1's centre). Otherwise each row is taken if it is
// in range. Four columns a thread instead shared only what a row has (iN[i]) and loaded
// each column index twice as wide with its check (the 64-bit index against the
// unchecked kernel's low half): the checked stencil ran 1.22x its unchecked one. Fewer
// than kTileRowsMin rows keep one row a thread (the host passes rpt = 1).
//
// Four rows' deferred checks hold more values at once: nbr_stencil's checked 32-bit
// kernel took 40 registers where the unchecked one takes 32 (the eight row indices are
// compared whole, as i64, where the unchecked kernel keeps their low halves), six
// blocks of 256 an SM instead of eight, and ran 1.07x its unchecked time on the H100
// (0.0694 against 0.0647 ms, bench/results/2026-11-26-unproved-h100). Asking ptxas for
// eight blocks an SM (.minnctapersm, kTileRowsBlocksPerSm) makes it fit 32 registers
// without spills (its outlined slow copy, the cold path, spills 8 bytes): 0.0649
// against 0.0628 ms, 1.03x, in the same run. No other map kernel of the corpus or the
// bench spills under the bound (ptxas -v, sm_90). The 64-bit kernel (offsets past 2^31)
// held 56 registers checked against 32 unchecked: under the same bound it spills 8 bytes
// and ran 7.745 ms against 8.591 unbounded (7.242 unchecked) on a 32768 x 65540 image on
// the H100, 1.07x instead of 1.19x (tests/gpu/results/2026-11-26-jax-profile/). It gets
// the bound where its element has checks (extract_kernels.cpp): unchecked, the bound
// only made kernels spill (stencil.fut's and hotspot.fut's, 48-88 bytes), and two
// checked corpus kernels spill 36-56 bytes under it (map_narrow.fut, map_nested_flat.fut;
// not measured).
// Note [Three nested maps]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A batch of small products, `map2 (\a b -> map (\r -> map (\c -> dot r c) (transpose
// b)) a) as bs` (bench/batched_matmul.fut), is three perfectly nested maps: as two
// (one thread per row, the inner map sequential in it) it ran one thread per product,
// 2^16 threads each computing 256 outputs, 7.7 ms on the H100 where the same products
// written as one map over every output took 0.41 ms. So three nested maps whose middle
// element is a row (extract_kernels.cpp's nested_map3: the outer and middle lambdas
// scalar code, iotas the next map reads whole and views such as `transpose b` before
// their last statement, the next map) run as the 2-D tiles of two, over n * max(mw, 1)
// rows of max(m, 1) columns: row r is middle element r % max(mw, 1) of outer element r
// / max(mw, 1). Each thread binds its outer element's rows (a = as[b], bs[b]) and runs
// the outer statements, then, when the middle element is in range (mw > 0), binds the
// middle element's rows (r = a[i], and the inner map's arrays) and runs the middle
// statements, then computes element j, all views: no copy, and every statement before
// the inner map runs (and checks) as in one thread per element.
// Three nested maps have the two-map versions too (nested3_rows), under the same
// conditions (extract_kernels.cpp), and several rows a thread with a reduction in the
// inner element:
// - Several rows a thread, when the inner element is straight-line code: a thread takes
//   kTileRows consecutive middle elements of one outer element, so that what the rows
//   read of the outer element's arrays (b[k, j], b[1, j] of `map2 (\a b -> map (\r ->
//   map (\j -> r[j] * b[0, j] + b[1, j]) (iota m)) a) as bs`) is loaded once, as a
//   column's values are for two maps (Note [Rows per thread]), and the outer element's
//   statements run once. The tile's rows are then groups: ceil(max(mw, 1) / rpt) groups
//   an outer element, n of them (rpt = kTileRows from kTileRowsMin middle rows n *
//   max(mw, 1), else 1); group g is outer element g / groups, middle elements (g %
//   groups) * rpt + u, u < rpt, those below mw (an outer element's last group may be
//   short: its rows past mw are skipped, and with mw = 0 its one group runs the outer
//   statements only, as before). Rows of different outer elements never share a thread
//   (their b differ: nothing to share, and a row past the edge of one would need the
//   next one's statements). The four rows are straight-line code when they are all
//   below mw and the column below w, else each row is tested. g / groups is by
//   groups' magic number (Note [Magic divisors]; before, i / max(mw, 1) was a division
//   per row, div.u32 behind LLVM's test of both operands, else div.u64), in the 64-bit
//   kernel behind the test for g < 2^31.
// - A 32-bit version (Note [32-bit map kernels]), when the inner element and every
//   fused map are straight-line code and make no arrays. Besides narrow_test (the tile's
//   rows n * groups, every argument's sizes and extents, every i64 scalar), the host
//   tests n, max(mw, 1), the middle rows n * max(mw, 1) and groups against
//   kNarrowLimit; the kernel computes g / groups and g % groups in i32 (g below
//   kNarrowLimit + 256) and records ou < n and mu0 < max(mw, 1) for the narrowing; the
//   offsets into the outer element's arrays (as[ou], bs[ou], the views of them) and the
//   output's [ou, mu, j] lie within their arrays' extents, below 2^31.
// - Several rows a thread also when the inner element is a reduction, `reduce op ne
//   (map f xs)` (extract_kernels.cpp's row_loop_reduce: the batched products' dot, the
//   rows of a and the columns of b; SegOp::rows_loop): four rows each running its own
//   loop would share no load (LLVM does not fuse the loops), so where all four rows are
//   in range their reductions run in one loop (rows_in_one_loop): each row's middle
//   statements, inner parameters and statements before the reduction in turn, each
//   row's bindings kept (FnGen::env_), then one loop over the reduction's width (the
//   same for every row: known on the host) whose step is each row's step in turn, with
//   that row's bindings, then each row's statements after it and its results. b[k, j]
//   is the same address in the four steps, loaded once: a step loads a[i + u, k] for
//   four rows and b[k, j] once, 5 loads for 4 multiply-adds where one row a thread
//   loads 8 (the PTX of batched_matmul.fut's `rows`, its loop unrolled twice: 10
//   loads and 8 fma.rn.f32 in 29 instructions a trip, against 8 loads and 4 fma in 21
//   one row a thread). The rows are elements of different threads of the one-row
//   kernel, whose failures race; in one thread their steps interleave, each row's
//   checks still in its own order, so the failure reported is the first of some
//   failing element (docs/CHECKS.md, "Which failure is reported"). The short groups
//   run row by row as above. 64-bit only (in a loop, the 32-bit offsets keep LLVM from
//   stepping the addresses: two maps' rule), and without the launch bound: ptxas
//   (sm_90) gives `rows`' kernel 64 registers (4 blocks of 256 an SM; 40, 6 blocks, one
//   row a thread) and `indexed`'s 56, no spills. On the H100 (bench/results/
//   2026-11-26-final-h100-286b638) `rows` took 0.2119 ms and `indexed` 0.2554 against
//   0.3264 and 0.3196 one row a thread in the same call (JAX 0.1046).
// Such nests whose inner element reduces also get a version before the tiles: one block
// per few outer elements, their arrays copied into shared memory, whose threads do the
// work above (nested3_group) over the copies (Note [Small elements staged in shared
// memory] in staged_kernels.cpp; `rows` 0.1098 ms, 0.98x of JAX).
ProgramGen::Tiles ProgramGen::add_tiles(SlotList &sl, Value *rows, Value *cols, bool several_rows) {
  FnGen &h = *host_;
  IRBuilder<> &b = h.builder();
  Tiles t;
  // cols >= 1. Whole rows when cols < 256 and they leave no more threads idle than
  // tiles 32 wide: (256 % cols) / 256 <= (c32 - cols) / c32, c32 = cols rounded up to 32.
  Value *tt = h.i64(kTileThreads);
  Value *c32 = b.CreateAnd(b.CreateAdd(cols, h.i64(31)), h.i64(-32));
  Value *idle_rows = b.CreateMul(b.CreateURem(tt, cols), c32);
  Value *idle_32 = b.CreateMul(b.CreateSub(c32, cols), tt);
  Value *whole = b.CreateAnd(b.CreateICmpULT(cols, tt), b.CreateICmpULE(idle_rows, idle_32));
  Value *tw = b.CreateSelect(whole, cols, h.i64(32));
  Value *th = b.CreateUDiv(tt, tw);
  Value *tiles_x = b.CreateUDiv(b.CreateAdd(cols, b.CreateSub(tw, h.i64(1))), tw);
  // Rows per thread (Note [Rows per thread]): a tile spans th * rpt rows.
  Value *rpt = several_rows ? b.CreateSelect(b.CreateICmpUGE(rows, h.i64(kTileRowsMin)), h.i64(kTileRows), h.i64(1))
                            : h.i64(1);
  Value *span = b.CreateMul(th, rpt);
  Value *tiles_y = b.CreateUDiv(b.CreateAdd(rows, b.CreateSub(span, h.i64(1))), span);
  t.threads = b.CreateMul(b.CreateMul(tiles_x, tiles_y), tt);
  t.rows_slot = add_raw(sl, rows);
  t.cols_slot = add_raw(sl, cols);
  t.tw_slot = add_raw(sl, tw);
  t.th_slot = add_raw(sl, th);
  t.tiles_x_slot = add_raw(sl, tiles_x);
  if (several_rows) t.rpt_slot = add_raw(sl, rpt);
  auto [tw_m, tw_s] = h.ops().magic_divisor(tw);
  t.tw_div_slot = add_raw(sl, tw_m);
  add_raw(sl, tw_s);
  auto [tx_m, tx_s] = h.ops().magic_divisor(tiles_x);
  t.tiles_x_div_slot = add_raw(sl, tx_m);
  add_raw(sl, tx_s);
  return t;
}

ProgramGen::TileIndex ProgramGen::tile_index(KernelFn &k, const Tiles &t, Value *gid,
                                             std::map<Value *, ConstantRange> *seeds) {
  IRBuilder<> &b = k.g->builder();
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  auto wide = [&](Value *v) { return b.CreateZExt(v, i64); };
  // The block's tile (by, bx) and the thread's place in it (ty, tx), i32 where they
  // fit: by, bx on the GPU (the block index is below 2^31), ty, tx always (t < 256).
  Value *by, *bx, *tid;
  if (gpu()) {
    Value *blk = b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_read_ptx_sreg_ctaid_x));
    tid = b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_read_ptx_sreg_tid_x));
    Value *q = k.g->ops().magic_div(blk, k.slot(t.tiles_x_div_slot), k.slot(t.tiles_x_div_slot + 1));
    bx = wide(b.CreateSub(blk, b.CreateMul(q, b.CreateTrunc(k.slot(t.tiles_x_slot), i32))));
    by = wide(q);
  } else {
    Value *blk = b.CreateUDiv(gid, b.getInt64(kTileThreads));
    tid = b.CreateTrunc(b.CreateURem(gid, b.getInt64(kTileThreads)), i32);
    by = b.CreateUDiv(blk, k.slot(t.tiles_x_slot));
    bx = b.CreateSub(blk, b.CreateMul(by, k.slot(t.tiles_x_slot)));
  }
  Value *ty = k.g->ops().magic_div(tid, k.slot(t.tw_div_slot), k.slot(t.tw_div_slot + 1));
  Value *tx = b.CreateSub(tid, b.CreateMul(ty, b.CreateTrunc(k.slot(t.tw_slot), i32)));
  TileIndex r;
  if (seeds) {
    // i < tiles_y * th < rows + th and j < tiles_x * tw < cols + tw, with rows, cols <=
    // kNarrowLimit (the host's test) and th, tw <= kTileThreads: i32 is exact.
    auto low = [&](Value *v) { return b.CreateTrunc(v, i32); };
    Value *span = low(k.slot(t.th_slot)), *ry = ty;
    if (t.rpt_slot) {
      span = b.CreateMul(span, low(k.slot(t.rpt_slot)));
      ry = b.CreateMul(ty, low(k.slot(t.rpt_slot)));
    }
    r.i = wide(b.CreateAdd(b.CreateMul(low(by), span), ry));
    r.j = wide(b.CreateAdd(b.CreateMul(low(bx), low(k.slot(t.tw_slot))), tx));
    // (A thread's further rows, i + u < rows + th * kTileRows, too.)
    ConstantRange idx(APInt(64, 0), APInt(64, uint64_t(kNarrowLimit + kTileThreads * kTileRows)));
    seeds->insert_or_assign(r.i, idx);
    seeds->insert_or_assign(r.j, idx);
  } else {
    Value *span = k.slot(t.th_slot), *ry = wide(ty);
    if (t.rpt_slot) {
      span = b.CreateMul(span, k.slot(t.rpt_slot));
      ry = b.CreateMul(ry, k.slot(t.rpt_slot));
    }
    r.i = b.CreateAdd(b.CreateMul(by, span), ry);
    r.j = b.CreateAdd(b.CreateMul(bx, k.slot(t.tw_slot)), wide(tx));
  }
  r.valid = b.CreateAnd(b.CreateICmpULT(ty, b.CreateTrunc(k.slot(t.th_slot), i32)),
                        b.CreateAnd(b.CreateICmpULT(r.i, k.slot(t.rows_slot)),
                                    b.CreateICmpULT(r.j, k.slot(t.cols_slot))));
  return r;
}

Value *ProgramGen::narrow_test(const SlotList &sl, const Tiles &t,
                               std::map<size_t, ConstantRange> &ranges) {
  FnGen &h = *host_;
  IRBuilder<> &b = h.builder();
  const int64_t lim = kNarrowLimit, ext_lim = int64_t(1) << 31;
  const ConstantRange size(APInt(64, 0), APInt(64, uint64_t(lim + 1)));
  const ConstantRange any(APInt(64, uint64_t(-lim), true), APInt(64, uint64_t(lim + 1)));
  Value *ok = b.getTrue();
  // A slot in [0, lim] (sized) or [-lim, lim].
  auto test = [&](size_t slot, bool sized) {
    Value *v = sl.host_values[slot - 1];
    ok = b.CreateAnd(ok, sized ? b.CreateICmpULE(v, h.i64(lim))
                               : b.CreateICmpULE(b.CreateAdd(v, h.i64(lim)), h.i64(2 * lim)));
    ranges.insert_or_assign(slot, sized ? size : any);
    return v;
  };
  test(t.rows_slot, true);
  test(t.cols_slot, true);
  // tw, th <= kTileThreads, tiles_x <= cols.
  ranges.insert_or_assign(t.tw_slot, ConstantRange(APInt(64, 1), APInt(64, uint64_t(kTileThreads + 1))));
  ranges.insert_or_assign(t.th_slot, ConstantRange(APInt(64, 1), APInt(64, uint64_t(kTileThreads + 1))));
  ranges.insert_or_assign(t.tiles_x_slot, size);
  if (t.rpt_slot) ranges.insert_or_assign(t.rpt_slot, ConstantRange(APInt(64, 1), APInt(64, uint64_t(kTileRows + 1))));
  for (const KernelArg &a : sl.args) {
    const core::CType &ty = p_.var(a.var).type;
    if (ty.rank == 0) {
      if (ty.prim == PrimType::I64 || ty.prim == PrimType::U64) test(a.first, false);
      continue;
    }
    // The extent: the product of the dims (contiguous) or the sum of (dim - 1) *
    // |stride|, saturated at 2^31 on the way (each factor and term is below 2^61 once
    // the dims and strides pass).
    Value *ext = h.i64(a.contiguous ? 1 : 0);
    Value *sat = h.i64(ext_lim);
    auto umin = [&](Value *x) { return b.CreateSelect(b.CreateICmpULT(x, sat), x, sat); };
    for (int d = 0; d < ty.rank; d++) {
      Value *dim = test(a.first + 1 + size_t(d), true);
      if (a.contiguous) {
        ext = b.CreateMul(umin(ext), dim);
        continue;
      }
      Value *st = test(a.first + 1 + size_t(ty.rank + d), false);
      Value *abs_st = b.CreateSelect(b.CreateICmpSLT(st, h.i64(0)), b.CreateNeg(st), st);
      Value *last = b.CreateSelect(b.CreateICmpSGT(dim, h.i64(0)), b.CreateSub(dim, h.i64(1)), h.i64(0));
      ext = b.CreateAdd(umin(ext), b.CreateMul(last, abs_st));
    }
    ok = b.CreateAnd(ok, b.CreateICmpULT(ext, sat));
  }
  return ok;
}

void ProgramGen::narrow_kernel(KernelFn &k, const std::map<Value *, ConstantRange> &seeds,
                               const std::map<size_t, ConstantRange> &ranges) {
  Function *f = k.f;
  bool on_gpu = gpu();
  // A kernel's slot: an argument on the GPU, a load of slots[i] on the CPU (new_kernel).
  auto slot_range = [&](Value *v) -> std::optional<ConstantRange> {
    std::optional<size_t> i;
    if (auto *a = dyn_cast<Argument>(v)) {
      if (on_gpu) i = a->getArgNo();
    } else if (auto *l = dyn_cast<LoadInst>(v); l && !on_gpu) {
      auto *gep = dyn_cast<GetElementPtrInst>(l->getPointerOperand());
      if (gep && gep->getPointerOperand() == f->getArg(2) && gep->getNumIndices() == 1)
        if (auto *c = dyn_cast<ConstantInt>(gep->getOperand(1))) i = size_t(c->getZExtValue());
    }
    if (!i) return std::nullopt;
    auto r = ranges.find(*i);
    if (r == ranges.end()) return std::nullopt;
    return r->second;
  };
  narrow_index_arithmetic(*f, seeds, slot_range);
}

void ProgramGen::flat_map_kernel(const SegOp &op) {
  const core::Stm &s = *op.stm, &in = *op.inner;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  Value *n = h.scalar(e.args[0]);
  Value *m = h.ops().to_i64(h.prim_of(in.exp.args[0]), h.scalar(in.exp.args[0]));
  // max(m, 1) threads per row: with m = 0 each row still runs its statements (and checks).
  Value *m1 = hb.CreateSelect(hb.CreateICmpSGT(m, h.i64(0)), m, h.i64(1));
  // Three nested maps (Note [Three nested maps]): the tile's rows are groups of rpt
  // consecutive middle elements of one outer element, ceil(max(mw, 1) / rpt) groups
  // an outer element; rpt = kTileRows from kTileRowsMin middle rows n * max(mw, 1)
  // when the inner element is straight-line code, else 1.
  const core::Stm *mid = op.middle;
  Value *rows = n;
  Value *mid_rows = nullptr, *mw1_host = nullptr, *groups = nullptr, *mid_rpt = nullptr;
  SlotList sl;
  if (mid) {
    Value *mw = h.ops().to_i64(h.prim_of(mid->exp.args[0]), h.scalar(mid->exp.args[0]));
    mw1_host = hb.CreateSelect(hb.CreateICmpSGT(mw, h.i64(0)), mw, h.i64(1));
    mid_rows = hb.CreateMul(n, mw1_host);
    mid_rpt = h.i64(1);
    groups = mw1_host;
    if (op.rows_per_thread > 1) {
      mid_rpt = hb.CreateSelect(hb.CreateICmpUGE(mid_rows, h.i64(kTileRowsMin)), h.i64(kTileRows), h.i64(1));
      groups = hb.CreateUDiv(hb.CreateAdd(mw1_host, hb.CreateSub(mid_rpt, h.i64(1))), mid_rpt);
    }
    rows = hb.CreateMul(n, groups);
  }
  // Several rows a thread when the element is straight-line code (Note [Rows per
  // thread]; three nested maps group their rows themselves).
  Tiles tiles = add_tiles(sl, rows, m1, !mid && op.rows_per_thread > 1);
  // Three nested maps: the groups an outer element (and their magic numbers) and the
  // rows a group.
  size_t groups_slot = 0, mid_rpt_slot = 0;
  if (mid) {
    groups_slot = add_raw(sl, groups);
    auto [gm, gl] = h.ops().magic_divisor_or_none(groups);
    add_raw(sl, gm);
    add_raw(sl, gl);
    if (op.rows_per_thread > 1) mid_rpt_slot = add_raw(sl, mid_rpt);
  }
  size_t threads_slot = add_raw(sl, tiles.threads);
  MapSlots ms = add_map_slots(op, n, tiles.threads, sl);
  size_t first_out = ms.first_out;
  ArenaSlots arena = ms.arena;
  // The kernel; narrow: the 32-bit one (Note [32-bit map kernels]), for the slots in
  // `ranges`.
  // The versions: the 32-bit one first, if any (launched when the sizes fit), the
  // 64-bit one last (made first).
  const Version &wide_v = op.versions.back();
  const Version *narrow_v = nullptr;
  for (const Version &ver : op.versions)
    if (ver.guard == Guard::Narrow) narrow_v = &ver;
  auto kernel = [&](const std::map<size_t, ConstantRange> *ranges) {
    const Kernel &kr = (ranges ? *narrow_v : wide_v).kernels[0];
    KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
    bind_kernel_args(k, sl);
    FnGen &g = *k.g;
    g.invariant_loads = true;
    g.offsets32 = ranges != nullptr;
    std::map<Value *, ConstantRange> seeds;
    IRBuilder<> &b = g.builder();
    LLVMContext &c = b.getContext();
    // A launch bound the kernel IR asks for (Note [Rows per thread], the last paragraph).
    if (gpu() && kr.blocks_per_sm) min_blocks_per_sm(kernel_module(), k.f, int(kr.blocks_per_sm));
    threads_kernel(k, k.slot(threads_slot), [&](Value *gid) {
      TileIndex at = tile_index(k, tiles, gid, ranges ? &seeds : nullptr);
      BasicBlock *row = BasicBlock::Create(c, "tile.elem", k.f);
      BasicBlock *skip = BasicBlock::Create(c, "tile.skip", k.f);
      b.CreateCondBr(at.valid, row, skip);
      b.SetInsertPoint(row);
      Value *i = at.i, *j = at.j;
      bind_arena(k, arena, gid);
      const core::Body *saved = g.cur_body_;
      g.cur_body_ = &e.lambda->body;
      // The inner map's width: free in the map (the host computed it), the same for
      // every row.
      Value *w = g.ops().to_i64(g.prim_of(in.exp.args[0]), g.scalar(in.exp.args[0]));
      // The middle map's width (three nested maps), free in the map too.
      Value *mw = mid ? g.ops().to_i64(g.prim_of(mid->exp.args[0]), g.scalar(mid->exp.args[0])) : nullptr;
      if (mid) {
        nested3_rows(k, op, sl, first_out, at, w, mw, groups_slot, mid_rpt_slot, ranges ? &seeds : nullptr);
        b.CreateBr(skip);
        b.SetInsertPoint(skip);
        g.cur_body_ = saved;
        return;
      }
      // Row iu: the row's statements, then its element j if j < w.
      auto one_row = [&](Value *iu, bool straight) {
        std::vector<Val> rows = g.rows_at(e.arrays, iu);
        for (size_t p = 0; p < rows.size(); p++) g.bind(e.lambda->params[p], rows[p]);
        std::vector<Val> dests;
        for (size_t r = 0; r < s.pat.size(); r++) {
          const Val &d = g.lookup(sl.args[first_out + r].var);
          PrimType t = p_.var(s.pat[r]).type.prim;
          dests.push_back(g.subarray(d, g.element_addr(d.addr, g.offset_of(d, {iu}), t), 1));
        }
        for (size_t st = 0; st + 1 < e.lambda->body.stms.size(); st++) g.stm(e.lambda->body.stms[st]);
        if (straight) {
          g.map_element(*in.exp.lambda, in.exp.arrays, j, dests);
          return;
        }
        BasicBlock *elem = BasicBlock::Create(c, "nested.elem", k.f);
        BasicBlock *next = BasicBlock::Create(c, "nested.next", k.f);
        b.CreateCondBr(b.CreateICmpSLT(j, w), elem, next);
        b.SetInsertPoint(elem);
        g.map_element(*in.exp.lambda, in.exp.arrays, j, dests);
        b.CreateBr(next);
        b.SetInsertPoint(next);
      };
      if (!tiles.rpt_slot) {
        one_row(i, false);
        b.CreateBr(skip);
      } else {
        // Rows i .. i + rpt - 1: all kTileRows in straight-line code when they are all
        // in range and the column is, else each that is.
        Value *rpt = k.slot(tiles.rpt_slot), *nrows = k.slot(tiles.rows_slot);
        Value *last = b.CreateAdd(i, b.getInt64(kTileRows - 1));
        Value *full = b.CreateAnd(b.CreateICmpEQ(rpt, b.getInt64(kTileRows)),
                                  b.CreateAnd(b.CreateICmpULT(last, nrows), b.CreateICmpSLT(j, w)));
        BasicBlock *all = BasicBlock::Create(c, "rows.all", k.f);
        BasicBlock *some = BasicBlock::Create(c, "rows.some", k.f);
        b.CreateCondBr(full, all, some);
        b.SetInsertPoint(all);
        for (int64_t u = 0; u < kTileRows; u++) one_row(b.CreateAdd(i, b.getInt64(u)), true);
        b.CreateBr(skip);
        b.SetInsertPoint(some);
        // (Unrolled, so that each row's index is i plus a constant, which the 32-bit
        // kernel narrows, as in the straight-line copy.)
        for (int64_t u = 0; u < kTileRows; u++) {
          Value *iu = b.CreateAdd(i, b.getInt64(u));
          BasicBlock *in_row = BasicBlock::Create(c, "row.in", k.f);
          BasicBlock *next = BasicBlock::Create(c, "row.next", k.f);
          b.CreateCondBr(b.CreateAnd(b.CreateICmpULT(b.getInt64(u), rpt), b.CreateICmpULT(iu, nrows)), in_row, next);
          b.SetInsertPoint(in_row);
          one_row(iu, false);
          b.CreateBr(next);
          b.SetInsertPoint(next);
        }
        b.CreateBr(skip);
      }
      b.SetInsertPoint(skip);
      g.cur_body_ = saved;
    }, kr.prelude, kr.rerun);
    if (ranges) narrow_kernel(k, seeds, *ranges);
    return int(out_.kernel_descs.size()) - 1;
  };
  int wide = kernel(nullptr);
  // (No 32-bit version with scratch memory or a loop in the element: extract_kernels.)
  if (!narrow_v) {
    emit_launch(wide, tiles.threads, sl);
    return;
  }
  std::map<size_t, ConstantRange> ranges;
  Value *small = narrow_test(sl, tiles, ranges);
  if (mid) {
    // Three nested maps: also n, max(mw, 1), the middle rows n * max(mw, 1) and the
    // groups an outer element at most kNarrowLimit (n and mw each first, so that the
    // product is exact), whether or not they are arguments (Note [Three nested maps]).
    Value *lim = h.i64(kNarrowLimit);
    small = hb.CreateAnd(small, hb.CreateAnd(hb.CreateICmpULE(n, lim), hb.CreateICmpULE(mw1_host, lim)));
    small = hb.CreateAnd(small, hb.CreateAnd(hb.CreateICmpULE(mid_rows, lim), hb.CreateICmpULE(groups, lim)));
    ranges.insert_or_assign(groups_slot, ConstantRange(APInt(64, 1), APInt(64, uint64_t(kNarrowLimit + 1))));
    if (mid_rpt_slot)
      ranges.insert_or_assign(mid_rpt_slot, ConstantRange(APInt(64, 1), APInt(64, uint64_t(kTileRows + 1))));
  }
  int narrow = kernel(&ranges);
  LLVMContext &hc = hb.getContext();
  BasicBlock *nb = BasicBlock::Create(hc, "map.i32", h.function());
  BasicBlock *wb = BasicBlock::Create(hc, "map.i64", h.function());
  BasicBlock *join = BasicBlock::Create(hc, "map.launched", h.function());
  hb.CreateCondBr(small, nb, wb);
  hb.SetInsertPoint(nb);
  emit_launch(narrow, tiles.threads, sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(wb);
  emit_launch(wide, tiles.threads, sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

void ProgramGen::nested3_rows(KernelFn &k, const SegOp &op, const SlotList &sl, size_t first_out,
                              const TileIndex &at, Value *w, Value *mw, size_t groups_slot, size_t rpt_slot,
                              std::map<Value *, ConstantRange> *seeds) {
  const core::Exp &e = op.stm->exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  Value *groups = k.slot(groups_slot), *gm = k.slot(groups_slot + 1), *gl = k.slot(groups_slot + 2);
  Value *rpt = rpt_slot ? k.slot(rpt_slot) : b.getInt64(1);
  // The thread's outer element ou = i / groups and first middle element mu0 = (i %
  // groups) * rpt, by groups' magic number (Note [Magic divisors]). In the 32-bit kernel
  // in i32 (i < rows <= kNarrowLimit, groups in [1, kNarrowLimit]: the host's test),
  // with ou < n and mu0 < max(mw, 1) <= kNarrowLimit recorded for the narrowing.
  Value *ou, *mu0;
  if (seeds) {
    Value *i_lo = b.CreateTrunc(at.i, i32);
    Value *q = g.ops().magic_div(i_lo, gm, gl);
    Value *r = b.CreateMul(b.CreateSub(i_lo, b.CreateMul(q, b.CreateTrunc(groups, i32))), b.CreateTrunc(rpt, i32));
    ou = b.CreateZExt(q, i64);
    mu0 = b.CreateZExt(r, i64);
    seeds->insert_or_assign(ou, ConstantRange(APInt(64, 0), APInt(64, uint64_t(kNarrowLimit + 1))));
    seeds->insert_or_assign(mu0, ConstantRange(APInt(64, 0), APInt(64, uint64_t(kNarrowLimit + 1))));
  } else {
    ou = g.ops().divide_by_magic(BinOp::Quot, PrimType::U64, at.i, groups, gm, gl);
    mu0 = b.CreateMul(b.CreateSub(at.i, b.CreateMul(ou, groups)), rpt);
  }
  std::vector<Val> outs;
  for (size_t r = 0; r < op.stm->pat.size(); r++) outs.push_back(g.lookup(sl.args[first_out + r].var));
  nested3_group(k, op, outs, ou, mu0, at.j, w, mw, rpt_slot ? rpt : nullptr, [&] {
    std::vector<Val> rows = g.rows_at(e.arrays, ou);
    for (size_t p = 0; p < rows.size(); p++) g.bind(e.lambda->params[p], rows[p]);
  });
}

void ProgramGen::nested3_group(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, Value *ou, Value *mu0,
                               Value *j, Value *w, Value *mw, Value *rpt, const std::function<void()> &bind_outer) {
  const core::Stm &s = *op.stm, &in = *op.inner, &mid = *op.middle;
  const core::Exp &e = s.exp;
  const core::Lambda &ml = *mid.exp.lambda;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  // The outer element's rows and statements, once for all the thread's rows.
  bind_outer();
  for (size_t st = 0; st + 1 < e.lambda->body.stms.size(); st++) g.stm(e.lambda->body.stms[st]);
  // Middle element mu (< mw): its rows and statements, then element j (if j < w unless
  // `straight`: the caller tested it).
  auto row = [&](Value *mu, bool straight) {
    std::vector<Val> dests;
    for (size_t r = 0; r < s.pat.size(); r++) {
      const Val &d = outs[r];
      PrimType t = p_.var(s.pat[r]).type.prim;
      dests.push_back(g.subarray(d, g.element_addr(d.addr, g.offset_of(d, {ou, mu}), t), 2));
    }
    g.cur_body_ = &ml.body;
    std::vector<Val> mrows = g.rows_at(mid.exp.arrays, mu);
    for (size_t p = 0; p < mrows.size(); p++) g.bind(ml.params[p], mrows[p]);
    for (size_t st = 0; st + 1 < ml.body.stms.size(); st++) g.stm(ml.body.stms[st]);
    if (straight)
      g.map_element(*in.exp.lambda, in.exp.arrays, j, dests);
    else
      g.when(b.CreateICmpSLT(j, w), [&] { g.map_element(*in.exp.lambda, in.exp.arrays, j, dests); });
    g.cur_body_ = &e.lambda->body;
  };
  // The kTileRows rows with their inner elements' reductions in one loop (op.rows_loop:
  // the inner element is `reduce op ne (map f xs)`, extract_kernels.cpp's
  // row_loop_reduce): each row's middle statements, inner parameters and statements
  // before the reduction, in turn, each row's bindings kept; then one loop over the
  // reduction's width (the same for every row: known on the host) whose step is each
  // row's step in turn, with its bindings (what the rows read alike, b[k, j], loaded
  // once: the same address); then each row's statements after it and its results.
  auto rows_in_one_loop = [&] {
    const core::Lambda &il = *in.exp.lambda;
    const core::Body &ib = il.body;
    size_t at_red = 0;
    while (ib.stms[at_red].exp.kind != core::ExpKind::Reduce) at_red++;
    const core::Stm &red = ib.stms[at_red];
    const std::map<int, Val> before = g.env_;
    std::vector<std::map<int, Val>> envs;
    std::vector<std::vector<Val>> dests;
    for (int64_t u = 0; u < kTileRows; u++) {
      Value *mu = b.CreateAdd(mu0, b.getInt64(u));
      g.env_ = before;
      std::vector<Val> d_u;
      for (size_t r = 0; r < s.pat.size(); r++) {
        const Val &d = outs[r];
        PrimType t = p_.var(s.pat[r]).type.prim;
        d_u.push_back(g.subarray(d, g.element_addr(d.addr, g.offset_of(d, {ou, mu}), t), 2));
      }
      dests.push_back(d_u);
      g.cur_body_ = &ml.body;
      std::vector<Val> mrows = g.rows_at(mid.exp.arrays, mu);
      for (size_t p = 0; p < mrows.size(); p++) g.bind(ml.params[p], mrows[p]);
      for (size_t st = 0; st + 1 < ml.body.stms.size(); st++) g.stm(ml.body.stms[st]);
      std::vector<Val> xs = g.rows_at(in.exp.arrays, j);
      for (size_t p = 0; p < xs.size(); p++) g.bind(il.params[p], xs[p]);
      for (size_t st = 0; st < at_red; st++) g.stm(ib.stms[st]);
      envs.push_back(g.env_);
    }
    const core::Lambda &op_l = *red.exp.lambda;
    std::vector<int> acc_vars(op_l.params.begin(), op_l.params.begin() + long(red.exp.args.size() - 1));
    std::vector<FnGen::Slots> acc;
    for (int64_t u = 0; u < kTileRows; u++) {
      g.env_ = envs[size_t(u)];
      std::vector<Val> ne;
      for (size_t a = 1; a < red.exp.args.size(); a++) ne.push_back(g.val(red.exp.args[a]));
      acc.push_back(g.make_slots(acc_vars));
      g.store_slots(acc.back(), ne, acc_vars);
    }
    g.env_ = envs[0];
    Value *width = g.ops().to_i64(g.prim_of(red.exp.args[0]), g.scalar(red.exp.args[0]));
    g.counted_range(b.getInt64(0), width, nullptr, [&](Value *kk) {
      for (int64_t u = 0; u < kTileRows; u++) {
        g.env_ = envs[size_t(u)];
        std::vector<Val> args = g.load_slots(acc[size_t(u)], acc_vars);
        std::vector<Val> xs = g.rows_at(red.exp.arrays, kk);
        args.insert(args.end(), xs.begin(), xs.end());
        g.store_slots(acc[size_t(u)], g.apply(op_l, args), acc_vars);
      }
    });
    for (int64_t u = 0; u < kTileRows; u++) {
      g.env_ = envs[size_t(u)];
      std::vector<Val> out = g.load_slots(acc[size_t(u)], acc_vars);
      for (size_t r = 0; r < red.pat.size(); r++) g.bind(red.pat[r], out[r]);
      for (size_t st = at_red + 1; st < ib.stms.size(); st++) g.stm(ib.stms[st]);
      std::vector<Val> res = g.results(ib);
      for (size_t r = 0; r < res.size(); r++) {
        const Val &d = dests[size_t(u)][r];
        PrimType t = g.prim_of(ib.result[r]);
        g.store_elem(t, res[r].scalar, g.element_addr(d.addr, g.offset_of(d, {j}), t));
      }
    }
    g.env_ = before;
    g.cur_body_ = &e.lambda->body;
  };
  if (!rpt) {
    // (No middle element when mw = 0: the outer element's statements only.)
    g.when(b.CreateICmpSLT(mu0, mw), [&] { row(mu0, false); });
    return;
  }
  // Rows mu0 .. mu0 + rpt - 1: all kTileRows in straight-line code when they are all
  // below mw and the column is below w (their loads of the outer element's arrays, b[k,
  // j], made once), else each that is (unrolled, each row mu0 plus a constant, which
  // the 32-bit kernel narrows).
  Value *last = b.CreateAdd(mu0, b.getInt64(kTileRows - 1));
  Value *full = b.CreateAnd(b.CreateICmpEQ(rpt, b.getInt64(kTileRows)),
                            b.CreateAnd(b.CreateICmpSLT(last, mw), b.CreateICmpSLT(j, w)));
  BasicBlock *all = BasicBlock::Create(c, "rows3.all", k.f);
  BasicBlock *some = BasicBlock::Create(c, "rows3.some", k.f);
  BasicBlock *done = BasicBlock::Create(c, "rows3.done", k.f);
  b.CreateCondBr(full, all, some);
  b.SetInsertPoint(all);
  if (op.rows_loop)
    rows_in_one_loop();
  else
    for (int64_t u = 0; u < kTileRows; u++) row(b.CreateAdd(mu0, b.getInt64(u)), true);
  b.CreateBr(done);
  b.SetInsertPoint(some);
  for (int64_t u = 0; u < kTileRows; u++) {
    Value *mu = b.CreateAdd(mu0, b.getInt64(u));
    g.when(b.CreateAnd(b.CreateICmpULT(b.getInt64(u), rpt), b.CreateICmpSLT(mu, mw)), [&] { row(mu, false); });
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

void ProgramGen::split_map_kernel(const SegOp &op, size_t v) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  const Kernel &kr = op.versions[v].kernels[0];
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  Value *n = h.scalar(e.args[0]);
  Value *p = h.scalar(op.split_p);
  SlotList outs;
  alloc_outputs(op, n, outs);
  LLVMContext &hc = hb.getContext(); // the host's context (the kernel's is its own on the GPU)
  BasicBlock *tiled = BasicBlock::Create(hc, "split.tiles", h.function());
  BasicBlock *plain = BasicBlock::Create(hc, "split.threads", h.function());
  BasicBlock *join = BasicBlock::Create(hc, "split.done", h.function());
  hb.CreateCondBr(hb.CreateICmpSGT(p, h.i64(0)), tiled, plain);
  hb.SetInsertPoint(tiled);
  // ceil(n / p) rows (n >= 0, p > 0).
  Value *rows = hb.CreateAdd(hb.CreateUDiv(n, p), hb.CreateZExt(hb.CreateICmpNE(hb.CreateURem(n, p), h.i64(0)),
                                                                 hb.getInt64Ty()));
  SlotList sl;
  Tiles tiles = add_tiles(sl, rows, p);
  size_t threads_slot = add_raw(sl, tiles.threads);
  size_t n_slot = add_raw(sl, n);
  MapSlots ms = add_map_slots(op, n, tiles.threads, sl);
  size_t first_out = ms.first_out;
  ArenaSlots arena = ms.arena;
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
  bind_kernel_args(k, sl);
  FnGen &g = *k.g;
  g.invariant_loads = true;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  threads_kernel(k, k.slot(threads_slot), [&](Value *gid) {
    TileIndex at = tile_index(k, tiles, gid);
    Value *t = b.CreateAdd(b.CreateMul(at.i, k.slot(tiles.cols_slot)), at.j);
    BasicBlock *elem = BasicBlock::Create(c, "tile.elem", k.f);
    BasicBlock *skip = BasicBlock::Create(c, "tile.skip", k.f);
    b.CreateCondBr(b.CreateAnd(at.valid, b.CreateICmpULT(t, k.slot(n_slot))), elem, skip);
    b.SetInsertPoint(elem);
    bind_arena(k, arena, gid);
    for (int x : op.split_quot) g.given[x] = at.i;
    for (int x : op.split_rem) g.given[x] = at.j;
    std::vector<Val> dests;
    for (size_t r = 0; r < s.pat.size(); r++) dests.push_back(g.lookup(sl.args[first_out + r].var));
    g.map_element(*e.lambda, e.arrays, t, dests);
    g.given.clear();
    b.CreateBr(skip);
    b.SetInsertPoint(skip);
  }, kr.prelude, kr.rerun);
  emit_launch(int(out_.kernel_descs.size()) - 1, tiles.threads, sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(plain);
  thread_map_kernel(op, v + 1);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

ProgramGen::LaneLeaves ProgramGen::lane_leaves(FnGen &g, const std::vector<int> &arrays, bool indexed) {
  LaneLeaves out;
  auto add = [](std::vector<int> &to, int a) {
    if (std::find(to.begin(), to.end(), a) == to.end()) to.push_back(a);
  };
  auto vector_array = [&](int a) { return p_.var(a).type.rank == 1 && g.lookup(a).contiguous(); };
  // `xs[i]` in a fused map's lambda (branches included) where i is the parameter bound
  // to a fused iota of i64 and xs is free in the lambda (bound before the kernel runs it).
  auto indexed_in = [&](const core::Exp &m) {
    std::set<int> idx;
    for (size_t p = 0; p < m.arrays.size() && p < m.lambda->params.size(); p++) {
      auto lz = g.lazy_.find(m.arrays[p]);
      if (lz != g.lazy_.end() && lz->second.stm->exp.kind == core::ExpKind::Iota &&
          lz->second.stm->exp.to == PrimType::I64)
        idx.insert(m.lambda->params[p]);
    }
    if (idx.empty()) return;
    std::set<int> free = lambda_free_vars(p_, *m.lambda);
    std::function<void(const core::Body &)> walk = [&](const core::Body &body) {
      for (const core::Stm &st : body.stms) {
        const core::Exp &x = st.exp;
        if (x.kind == core::ExpKind::Index && x.args.size() == 1 && x.args[0].is_var() &&
            idx.count(x.args[0].var) && free.count(x.arrays[0]) && !g.lazy_.count(x.arrays[0]) &&
            g.has(x.arrays[0]) && vector_array(x.arrays[0]))
          add(out.indexed, x.arrays[0]);
        for (const auto &bb : x.bodies)
          if (bb) walk(*bb);
      }
    };
    walk(m.lambda->body);
  };
  std::function<void(const std::vector<int> &)> collect = [&](const std::vector<int> &arrs) {
    for (int a : arrs) {
      auto lz = g.lazy_.find(a);
      if (lz != g.lazy_.end()) {
        const core::Exp &m = lz->second.stm->exp;
        if (m.kind == core::ExpKind::Map) {
          collect(m.arrays);
          if (indexed) indexed_in(m);
        }
        continue;
      }
      if (vector_array(a)) add(out.rows, a);
    }
  };
  collect(arrays);
  return out;
}

uint64_t ProgramGen::lane_align(FnGen &g, PrimType t) {
  const DataLayout &dl = g.builder().GetInsertBlock()->getModule()->getDataLayout();
  return std::min<uint64_t>(16, uint64_t(kMapLanes) * dl.getTypeAllocSize(g.ops().mem_type(t)));
}

Value *ProgramGen::lane_aligned(FnGen &g, Value *fit, Value *addr, PrimType t) {
  IRBuilder<> &b = g.builder();
  Value *low = b.CreateAnd(b.CreatePtrToInt(addr, b.getInt64Ty()), g.i64(int64_t(lane_align(g, t) - 1)));
  return b.CreateAnd(fit, b.CreateICmpEQ(low, g.i64(0)));
}

Value *ProgramGen::lanes_fit(FnGen &g, const LaneLeaves &l, Value *n) {
  IRBuilder<> &b = g.builder();
  Value *fit = b.getTrue();
  for (int a : l.rows) fit = lane_aligned(g, fit, g.lookup(a).addr, p_.var(a).type.prim);
  for (int a : l.indexed) {
    fit = lane_aligned(g, fit, g.lookup(a).addr, p_.var(a).type.prim);
    fit = b.CreateAnd(fit, b.CreateICmpSGE(g.lookup(a).dims[0], n));
  }
  return fit;
}

void ProgramGen::load_lane_leaves(FnGen &g, const LaneLeaves &l, Value *first) {
  IRBuilder<> &b = g.builder();
  g.lane_values.clear();
  g.lane_indexed.clear();
  auto load = [&](int a, std::vector<Value *> &lv) {
    PrimType t = p_.var(a).type.prim;
    Value *v = load_lanes(g, g.element_addr(g.lookup(a).addr, first, t), t, lane_align(g, t));
    for (int64_t j = 0; j < kMapLanes; j++)
      lv.push_back(g.ops().from_mem(t, b.CreateExtractElement(v, uint64_t(j))));
  };
  for (int a : l.rows) load(a, g.lane_values[a]);
  for (int a : l.indexed) load(a, g.lane_indexed[a]);
}

Value *ProgramGen::load_lanes(FnGen &g, Value *addr, PrimType t, uint64_t align) {
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Type *et = g.ops().mem_type(t);
  Type *vt = FixedVectorType::get(et, unsigned(kMapLanes));
  if (!gpu()) {
    LoadInst *l = b.CreateAlignedLoad(vt, addr, Align(align));
    l->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(c, {}));
    return l;
  }
  // The read-only path through llvm.nvvm.ldg.global.i: an invariant vector load
  // followed by extracts is split into scalar loads by LLVM 19's VectorCombine, which
  // drops the invariant mark; the back end then joins them into a plain ld.global.v4.
  // The intrinsic is left alone. It reads integer words: one i32 or i64 for vectors of
  // 4 or 8 bytes, else 16 bytes at a time (<4 x i32>, or <2 x i64> for 8-byte
  // elements, so that no element is split across words).
  uint64_t size = kernel_module().getDataLayout().getTypeAllocSize(et);
  uint64_t bytes = uint64_t(kMapLanes) * size;
  auto ldg = [&](Type *rt, Value *p) {
    Function *f = Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_ldg_global_i,
                                            {rt, p->getType()});
    return b.CreateCall(f, {p, b.getInt32(uint32_t(align))});
  };
  Value *words;
  if (bytes <= 8) {
    words = ldg(b.getIntNTy(unsigned(bytes * 8)), addr);
  } else {
    Type *wt = size == 8 ? FixedVectorType::get(b.getInt64Ty(), 2) : FixedVectorType::get(b.getInt32Ty(), 4);
    std::vector<Value *> parts;
    for (uint64_t off = 0; off < bytes; off += 16)
      parts.push_back(ldg(wt, b.CreateConstGEP1_64(b.getInt8Ty(), addr, off)));
    KERB_ASSERT(parts.size() <= 2, "vector lanes wider than 32 bytes");
    words = parts[0];
    if (parts.size() == 2) words = b.CreateShuffleVector(parts[0], parts[1], ArrayRef<int>{0, 1, 2, 3});
  }
  return b.CreateBitCast(words, vt);
}

void ProgramGen::lanes_thread(KernelFn &k, const core::Stm &s, const std::vector<Val> &dests,
                              Value *n, Value *gid) {
  const core::Exp &e = s.exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Value *first = b.CreateMul(gid, g.i64(kMapLanes));
  // The arrays read element by element (the map's and those of the maps fused into it)
  // that are one-dimensional and contiguous: these are read with vector loads.
  LaneLeaves leaves = lane_leaves(g, e.arrays, false);
  // Allocations are 256-byte aligned; views (slices) may not be: the test is the same
  // for every thread.
  Value *aligned = lanes_fit(g, leaves, n);
  for (size_t j = 0; j < s.pat.size(); j++)
    aligned = lane_aligned(g, aligned, dests[j].addr, p_.var(s.pat[j]).type.prim);
  Value *full = b.CreateICmpSLE(b.CreateAdd(first, g.i64(kMapLanes)), n);
  BasicBlock *vec = BasicBlock::Create(c, "lanes.vector", k.f);
  BasicBlock *one = BasicBlock::Create(c, "lanes.each", k.f);
  BasicBlock *done = BasicBlock::Create(c, "lanes.done", k.f);
  b.CreateCondBr(b.CreateAnd(full, aligned), vec, one);

  b.SetInsertPoint(vec);
  load_lane_leaves(g, leaves, first);
  std::vector<std::vector<Value *>> res; // [lane][result]
  for (int64_t j = 0; j < kMapLanes; j++) {
    g.lane = int(j);
    res.push_back(g.map_scalars(*e.lambda, e.arrays, b.CreateAdd(first, g.i64(j))));
  }
  g.lane = -1;
  g.lane_values.clear();
  for (size_t r = 0; r < s.pat.size(); r++) {
    PrimType t = p_.var(s.pat[r]).type.prim;
    Value *v = PoisonValue::get(FixedVectorType::get(g.ops().mem_type(t), unsigned(kMapLanes)));
    for (int64_t j = 0; j < kMapLanes; j++)
      v = b.CreateInsertElement(v, g.ops().to_mem(t, res[size_t(j)][r]), uint64_t(j));
    b.CreateAlignedStore(v, g.element_addr(dests[r].addr, first, t), Align(lane_align(g, t)));
  }
  b.CreateBr(done);

  b.SetInsertPoint(one);
  Value *last = b.CreateAdd(first, g.i64(kMapLanes));
  Value *hi = b.CreateSelect(b.CreateICmpSLT(last, n), last, n);
  g.counted_range(first, hi, done, [&](Value *i) { g.map_element(*e.lambda, e.arrays, i, dests); });
}

void ProgramGen::iota_kernel(const SegOp &op) {
  const core::Stm &s = *op.stm;
  FnGen &h = *host_;
  Value *n = h.ops().to_i64(h.prim_of(s.exp.args[0]), h.scalar(s.exp.args[0]));
  SlotList sl;
  size_t n_slot = add_raw(sl, n);
  alloc_outputs(op, n, sl);
  KernelFn k = new_kernel(op.kernels()[0].name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
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

// Note [Replicate as a memset]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `replicate n v` of a scalar v is a memset (kerb_rt_fill: cuMemsetD8/D16/D32Async on
// the CUDA device, memset or a loop on the CPU) instead of a one-thread-per-element
// kernel: no launch of a kernel of ours, and for the small zero-filled arrays that
// reduce_by_index starts from (kmeans' counts and sums, histogram's bins) the driver's
// memset costs less than a launch. Any value of 1, 2 or 4 bytes can be set so; an
// 8-byte value only when its two 32-bit halves are equal (0, -1, ...), known when it is
// a constant; other 8-byte values (1.0f64) keep the kernel. (extract_kernels.cpp
// decides: Strategy::Memset.)

void ProgramGen::replicate_kernel(const SegOp &op) {
  const core::Stm &s = *op.stm;
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
  if (op.strategy == Strategy::Memset) {
    // Note [Replicate as a memset]
    Value *addr = alloc(byte_size(t.prim, {total}));
    IRBuilder<> &hb = h.builder();
    Value *es = hb.getInt32(int32_t(out_.host->getDataLayout().getTypeAllocSize(h.ops().mem_type(t.prim))));
    h.return_if_error(hb.CreateCall(h.rt("kerb_rt_fill"),
                                    {h.ctx, addr, h.ops().to_slot(t.prim, x.scalar), es, total}));
    h.bind(out, Val{nullptr, addr, {n}, {}});
    return;
  }
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
  KernelFn k = new_kernel(op.kernels()[0].name, sl.host_values.size() + 1,
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

ProgramGen::IndexedWrite ProgramGen::indexed_write(const SegOp &op) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  IndexedWrite w;
  int dest_var = e.arrays[0];
  w.t = p_.var(dest_var).type.prim;
  w.it = p_.var(e.arrays[1]).type.prim;
  w.dest = consumed_dest(op, 0, w.t);
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

void ProgramGen::scatter_kernel(const SegOp &op) {
  IndexedWrite w = indexed_write(op);
  const Kernel &kr = op.kernels()[0];
  if (w.dest.dims.size() > 1) return scatter_rows_kernel(w, kr);
  SlotList &sl = w.sl;
  PrimType t = w.t, it = w.it;
  size_t n_slot = w.n_slot, len_slot = w.len_slot, dest_slot = w.dest_slot;
  size_t is_slot = w.is_slot, vs_slot = w.vs_slot;
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
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

void ProgramGen::scatter_rows_kernel(IndexedWrite &w, const Kernel &kr) {
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  SlotList &sl = w.sl;
  PrimType t = w.t, it = w.it;
  // One thread per element of the values: thread q writes element q % r of row q / r.
  Value *r = h.product(w.dest.dims, 1);
  Value *total = hb.CreateMul(w.is.dims[0], r);
  size_t row_slot = add_raw(sl, r), total_slot = add_raw(sl, total);
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  threads_kernel(k, k.slot(total_slot), [&](Value *gid) {
    Value *i = b.CreateUDiv(gid, k.slot(row_slot)), *j = b.CreateURem(gid, k.slot(row_slot));
    Value *ip = b.CreateIntToPtr(k.slot(w.is_slot), gptr);
    Value *idx = g.ops().to_i64(it, g.load_elem(it, g.element_addr(ip, i, it)));
    BasicBlock *write = BasicBlock::Create(b.getContext(), "scatter.write", k.f);
    BasicBlock *skip = BasicBlock::Create(b.getContext(), "scatter.skip", k.f);
    b.CreateCondBr(b.CreateICmpULT(idx, k.slot(w.len_slot)), write, skip);
    b.SetInsertPoint(write);
    Value *vp = b.CreateIntToPtr(k.slot(w.vs_slot), gptr);
    Value *dp = b.CreateIntToPtr(k.slot(w.dest_slot), gptr);
    Value *from = b.CreateAdd(b.CreateMul(i, k.slot(row_slot)), j);
    Value *to = b.CreateAdd(b.CreateMul(idx, k.slot(row_slot)), j);
    g.store_elem(t, g.load_elem(t, g.element_addr(vp, from, t)), g.element_addr(dp, to, t));
    b.CreateBr(skip);
    b.SetInsertPoint(skip);
  });
  emit_launch(int(out_.kernel_descs.size()) - 1, total, sl);
}

AtomicRMWInst::BinOp ProgramGen::rmw_op(HistUpdate u) {
  switch (u) {
  case HistUpdate::Add: return AtomicRMWInst::Add;
  case HistUpdate::FAdd: return AtomicRMWInst::FAdd;
  case HistUpdate::And: return AtomicRMWInst::And;
  case HistUpdate::Or: return AtomicRMWInst::Or;
  case HistUpdate::Xor: return AtomicRMWInst::Xor;
  case HistUpdate::Min: return AtomicRMWInst::Min;
  case HistUpdate::UMin: return AtomicRMWInst::UMin;
  case HistUpdate::Max: return AtomicRMWInst::Max;
  case HistUpdate::UMax: return AtomicRMWInst::UMax;
  case HistUpdate::None: case HistUpdate::Cas: break;
  }
  return AtomicRMWInst::BAD_BINOP;
}

// Note [Reductions into global memory]
// An atomic update of a bin whose old value nobody reads is, on the GPU, a `red`
// (REDG: the thread does not wait for the memory's answer), not an `atom` (ATOMG: a
// round trip). LLVM's NVPTX back end emits `atom` for an atomicrmw whose result is
// unused and leaves the change to ptxas, which makes it only in kernels without a
// failure path: in checked kernels (a compare-and-swap on the failure slot and a
// system fence in the kernel or a function it calls) it kept ATOMG, and a histogram
// over 2^22 bins in global memory took 1.4x the time of the same kernel under
// --unsafe (bench/unproved/graph_step.fut, 0.67 ms against 0.47 ms on the H100). So
// global_reduce writes the `red` itself (inline PTX); on the CPU it is an atomicrmw.
void ProgramGen::global_reduce(FnGen &g, AtomicRMWInst::BinOp op, Value *addr, Value *v, PrimType t) {
  IRBuilder<> &b = g.builder();
  Type *et = g.ops().mem_type(t);
  Align al(kernel_module().getDataLayout().getTypeAllocSize(et));
  const char *name = nullptr;
  switch (op) {
  case AtomicRMWInst::Add: name = "add"; break;
  case AtomicRMWInst::FAdd: name = "add"; break;
  case AtomicRMWInst::And: name = "and"; break;
  case AtomicRMWInst::Or: name = "or"; break;
  case AtomicRMWInst::Xor: name = "xor"; break;
  case AtomicRMWInst::Min: case AtomicRMWInst::UMin: name = "min"; break;
  case AtomicRMWInst::Max: case AtomicRMWInst::UMax: name = "max"; break;
  default: break;
  }
  unsigned bits = unsigned(et->getPrimitiveSizeInBits());
  if (!gpu() || !name || (bits != 32 && bits != 64)) {
    b.CreateAtomicRMW(op, addr, v, MaybeAlign(al), AtomicOrdering::Monotonic);
    return;
  }
  std::string ty;
  bool logic = op == AtomicRMWInst::And || op == AtomicRMWInst::Or || op == AtomicRMWInst::Xor;
  if (et->isFloatingPointTy()) ty = bits == 32 ? "f32" : "f64";
  else if (logic) ty = bits == 32 ? "b32" : "b64";
  else if (op == AtomicRMWInst::Min || op == AtomicRMWInst::Max) ty = bits == 32 ? "s32" : "s64";
  else ty = bits == 32 ? "u32" : "u64";
  const char *vc = et->isFloatTy() ? "f" : et->isDoubleTy() ? "d" : bits == 32 ? "r" : "l";
  std::string text = std::string("red.global.") + name + "." + ty + " [$0], $1;";
  auto *fty = FunctionType::get(b.getVoidTy(), {b.getInt64Ty(), et}, false);
  b.CreateCall(InlineAsm::get(fty, text, std::string("l,") + vc + ",~{memory}", true),
               {b.CreatePtrToInt(addr, b.getInt64Ty()), v});
}

ProgramGen::KernelFn ProgramGen::hist_fn(const Kernel &kr, SlotList &sl) {
  KernelFn kf = new_kernel(kr.name, sl.host_values.size() + 1,
                           KernelDesc{kr.blocks ? KernelDesc::Blocks : KernelDesc::Threads, 0});
  bind_kernel_args(kf, sl);
  kf.g->invariant_loads = true; // the indices and values; the bins are reached by atomics only
  return kf;
}

void ProgramGen::atomic_hist(const SegOp &op) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  int dest = s.pat[0], is = e.arrays[1];
  PrimType t = p_.var(dest).type.prim;
  h.bind(dest, consumed_dest(op, 0, t));
  Value *n = h.lookup(is).dims[0];
  SlotList sl;
  size_t n_slot = add_raw(sl, n);
  add_input(sl, is);
  add_input(sl, e.arrays[2]);
  add_var(sl, dest);
  ArenaSlots arena = add_arena(sl, n, {}, e);
  if (op.strategy == Strategy::SharedHist) {
    KERB_ASSERT(!arena.used, "a histogram in shared memory with scratch memory");
    return shared_hists(op, {SharedHist{&s, op.update, n_slot}}, sl);
  }
  const Kernel &kr = op.kernels()[0];
  AtomicRMWInst::BinOp rmw = rmw_op(op.update);
  KernelFn kf = hist_fn(kr, sl);
  FnGen &g = *kf.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  threads_kernel(kf, kf.slot(n_slot), [&](Value *gid) {
    bind_arena(kf, arena, gid);
    // The value first: every value is computed (and checked), as in the interpreter,
    // also where its index is out of range.
    std::vector<Val> read = g.rows_at({e.arrays[2], is}, gid);
    Value *v = read[0].scalar;
    Value *idx = read[1].scalar;
    const Val &dst = g.lookup(dest);
    BasicBlock *upd = BasicBlock::Create(c, "hist.update", kf.f);
    BasicBlock *skip = BasicBlock::Create(c, "hist.skip", kf.f);
    // The update is seen by other threads: after the flag's test, and its checks (the
    // operator's) branch.
    g.flag_barrier();
    b.CreateCondBr(b.CreateICmpULT(idx, dst.dims[0]), upd, skip);
    b.SetInsertPoint(upd);
    Value *addr = g.element_addr(dst.addr, idx, t);
    Type *et = g.ops().mem_type(t);
    Align al(kernel_module().getDataLayout().getTypeAllocSize(et));
    if (rmw != AtomicRMWInst::BAD_BINOP) {
      global_reduce(g, rmw, addr, v, t);
      b.CreateBr(skip);
      b.SetInsertPoint(skip);
      return;
    }
    // old := bin; until CAS(bin, old, old op v) succeeds: old := what the bin held.
    IntegerType *it = b.getIntNTy(unsigned(al.value() * 8));
    LoadInst *first = b.CreateAlignedLoad(it, addr, al);
    first->setAtomic(AtomicOrdering::Monotonic);
    BasicBlock *pre = b.GetInsertBlock();
    BasicBlock *loop = BasicBlock::Create(c, "hist.cas", kf.f);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    PHINode *old = b.CreatePHI(it, 2);
    old->addIncoming(first, pre);
    Value *cur = b.CreateBitCast(old, et);
    Value *next = nullptr;
    g.undeferred([&] { next = g.apply(*e.lambda, {Val{cur, nullptr, {}, {}}, Val{v, nullptr, {}, {}}})[0].scalar; });
    AtomicCmpXchgInst *x = b.CreateAtomicCmpXchg(addr, old, b.CreateBitCast(next, it), MaybeAlign(al),
                                                 AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
    old->addIncoming(b.CreateExtractValue(x, 0), b.GetInsertBlock());
    b.CreateCondBr(b.CreateExtractValue(x, 1), skip, loop);
    b.SetInsertPoint(skip);
  }, kr.prelude, kr.rerun);
  emit_launch(int(out_.kernel_descs.size()) - 1, n, sl);
}

namespace {
// The bits of the value that an atomic update leaves a bin unchanged with (x op id = x
// for every x): what a block's histogram in shared memory starts from, and what its
// merge skips.
Constant *rmw_identity(AtomicRMWInst::BinOp op, Type *et) {
  unsigned bits = et->getPrimitiveSizeInBits();
  switch (op) {
  case AtomicRMWInst::FAdd: return ConstantFP::getNegativeZero(et); // -0 + x = x, also for +0
  case AtomicRMWInst::And: case AtomicRMWInst::UMin: return ConstantInt::get(et, APInt::getAllOnes(bits));
  case AtomicRMWInst::Min: return ConstantInt::get(et, APInt::getSignedMaxValue(bits));
  case AtomicRMWInst::Max: return ConstantInt::get(et, APInt::getSignedMinValue(bits));
  default: return ConstantInt::get(et, 0); // Add, Or, Xor, UMax
  }
}
// A block's histogram in shared memory takes at most this many bytes.
constexpr int64_t kSharedHistBytes = 16384;
} // namespace

// Note [Histograms in shared memory]
// A histogram whose update is one atomicrmw runs as a Blocks kernel: each block keeps
// its own histogram in shared memory when the bins fit (kSharedHistBytes; the test is
// on the bins' count, uniform), starting from the operator's identity; its threads take
// the updates grid-strided (coalesced) and update the shared bins with atomics there,
// then, after a barrier, add every bin the block changed to the result with one global
// atomic. With more bins the same kernel updates the result directly. The merge costs a
// global atomic per bin and block, so the grid is small: at most kSharedHistBlocksPerSm
// blocks per multiprocessor (kerb_rt_resident_blocks: 264 on an H100, where num_blocks
// gave 1024: 4096 bins x 1024 blocks were 4M atomics), each taking many updates; to
// keep enough loads in flight with few threads, a thread reads kSharedHistUnroll
// updates (indices and values, the fused maps computed) before it applies them. Wide
// updates (SegOp::wide, extract_kernels.cpp: a fused map gathers, loops or divides by a
// variable, as kmeans' sums, `membership[q / d] * d + q % d`) hold too many values for
// that (8 of kmeans' took 124 registers, 2 blocks per SM: 16 warps to hide the gathers'
// and the shared atomics' latency): one update at a time (kSharedHistWideUnroll) on
// kSharedHistWideBlocksPerSm blocks per multiprocessor, which `.minnctapersm` makes
// ptxas fit (kmeans: 40 registers, 32 warps per SM, 528 blocks on an H100, as the
// hand-written kmeans_accumulate). The merge then costs twice the atomics per bin,
// which wide updates (few bins: kmeans' 128) can afford. The fill and merge loops are
// not unrolled (one or a few iterations a thread; LLVM's unrolled copies held 8
// pointers). A thread whose value fails stops updating and still reaches the barrier;
// the block's partial histogram is merged anyway (the call fails, so the result is not
// seen), and the merge has no checks of its own. A kernel that needs the prelude (maps
// fused into it index unchecked: after a failed kernel their indices may be garbage)
// has the Blocks kernels' (block_prelude).
void ProgramGen::shared_hists(const SegOp &op, const std::vector<SharedHist> &parts, SlotList &sl) {
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  const Kernel &kr = op.kernels()[0];
  bool wide = op.wide;
  Value *total = h.i64(0);
  for (const SharedHist &ph : parts) total = hb.CreateAdd(total, h.lookup(ph.s->exp.arrays[1]).dims[0]);
  int64_t per_sm = wide ? kSharedHistWideBlocksPerSm : kSharedHistBlocksPerSm;
  Value *nblocks = hb.CreateCall(h.rt("kerb_rt_resident_blocks"), {h.ctx, total, h.i64(per_sm)});
  KernelFn kf = hist_fn(kr, sl);
  FnGen &g = *kf.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = kf.f;
  // (Wide updates: the grid counts on per_sm blocks fitting. The others stay as they
  // were measured; with the bound ptxas took 46 registers instead of 36.)
  if (gpu() && kr.blocks_per_sm) min_blocks_per_sm(kernel_module(), f, int(kr.blocks_per_sm));
  // Each histogram's bins in shared memory, its destination, and whether they fit.
  struct Part {
    const core::Exp *e;
    HistUpdate how;
    PrimType t;
    Type *et;
    Align al;
    ArrayType *arr_t;
    Value *sh, *nbins, *n, *use;
    const Val *dst;
    Constant *id;
    int64_t unroll;
  };
  std::vector<Part> ps;
  for (size_t k = 0; k < parts.size(); k++) {
    const SharedHist &ph = parts[k];
    Part p{&ph.s->exp, ph.how, p_.var(ph.s->pat[0]).type.prim, nullptr, Align(1), nullptr,
           nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0};
    p.et = g.ops().mem_type(p.t);
    p.al = Align(kernel_module().getDataLayout().getTypeAllocSize(p.et));
    int64_t cap = kSharedHistBytes / int64_t(p.al.value());
    p.arr_t = ArrayType::get(p.et, uint64_t(cap));
    p.sh = shared_array(g, p.arr_t, f->getName().str() + "_bins" + (k ? std::to_string(k) : ""), Align(16));
    p.dst = &g.lookup(ph.s->pat[0]);
    p.nbins = p.dst->dims[0];
    p.n = kf.slot(ph.n_slot);
    p.use = b.CreateICmpSLE(p.nbins, b.getInt64(cap));
    p.id = rmw_identity(rmw_op(p.how), p.et);
    // (One at a time for every histogram of a kernel with wide updates: 4 blocks per SM
    // keep the loads in flight, and 8 of the narrow one's would set the registers.)
    p.unroll = op.unroll;
    ps.push_back(p);
  }
  BlockIds ids = begin_blocks(kf);
  // (Fused maps with unchecked indexing: after a failed kernel, a look at the slot.)
  block_prelude(kf, ids.tid, kr.prelude);
  auto shared_at = [&](const Part &p, Value *i) { return b.CreateGEP(p.arr_t, p.sh, {b.getInt64(0), i}); };
  auto barrier = [&]() {
    if (gpu()) b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
  };
  // for (i = first; i < end; i += step) body(i)
  auto strided = [&](Value *first, Value *end, Value *step, BasicBlock *exit,
                     const std::function<void(Value *)> &body) {
    Value *left = b.CreateSub(end, first);
    Value *count = b.CreateSDiv(b.CreateAdd(left, b.CreateSub(step, b.getInt64(1))), step);
    count = b.CreateSelect(b.CreateICmpSGT(count, b.getInt64(0)), count, b.getInt64(0));
    g.counted_range(
        b.getInt64(0), count, exit, [&](Value *q) { body(b.CreateAdd(first, b.CreateMul(q, step))); },
        /*unroll=*/false);
  };
  for (const Part &p : ps)
    g.when(p.use, [&] {
      strided(ids.tid, p.nbins, ids.ntid, nullptr, [&](Value *i) { b.CreateStore(p.id, shared_at(p, i)); });
    });
  barrier();
  BasicBlock *updated = BasicBlock::Create(c, "hist.updated", f);
  g.on_fail = [&b, updated](Value *) { b.CreateBr(updated); };
  Value *threads = b.CreateMul(ids.nblocks, ids.ntid);
  Value *first = b.CreateAdd(b.CreateMul(ids.block, ids.ntid), ids.tid);
  for (const Part &p : ps) {
    // The value first: every value is computed (and checked), as in the interpreter,
    // also where its index is out of range.
    auto read = [&](Value *i) { return g.rows_at({p.e->arrays[2], p.e->arrays[1]}, i); };
    auto update = [&](const std::vector<Val> &vi) {
      Value *v = vi[0].scalar, *idx = vi[1].scalar;
      g.when(b.CreateICmpULT(idx, p.nbins), [&] {
        BasicBlock *in_shared = BasicBlock::Create(c, "hist.shared", f);
        BasicBlock *in_global = BasicBlock::Create(c, "hist.global", f);
        BasicBlock *done = BasicBlock::Create(c, "hist.done", f);
        b.CreateCondBr(p.use, in_shared, in_global);
        b.SetInsertPoint(in_shared);
        b.CreateAtomicRMW(rmw_op(p.how), shared_at(p, idx), v, MaybeAlign(p.al), AtomicOrdering::Monotonic);
        b.CreateBr(done);
        b.SetInsertPoint(in_global);
        global_reduce(g, rmw_op(p.how), g.element_addr(p.dst->addr, idx, p.t), v, p.t);
        b.CreateBr(done);
        b.SetInsertPoint(done);
      });
    };
    // Updates first, first + threads, ...: p.unroll of them read before they are
    // applied (loads in flight: the update depends on its index), then the rest one by
    // one; then the next histogram's.
    // (The reads' checks deferred: they write nothing; Note [Deferred checks].)
    g.strided_range(first, p.n, threads, p.unroll, nullptr, read, update, true);
  }
  b.CreateBr(updated);
  b.SetInsertPoint(updated);
  barrier();
  for (const Part &p : ps)
    g.when(p.use, [&] {
      strided(ids.tid, p.nbins, ids.ntid, nullptr, [&](Value *i) {
        Value *x = b.CreateLoad(p.et, shared_at(p, i));
        IntegerType *it = b.getIntNTy(unsigned(p.al.value() * 8));
        g.when(b.CreateICmpNE(b.CreateBitCast(x, it), b.CreateBitCast(p.id, it)), [&] {
          global_reduce(g, rmw_op(p.how), g.element_addr(p.dst->addr, i, p.t), x, p.t);
        });
      });
    });
  b.CreateBr(ids.after);
  end_blocks(kf, ids);
  emit_launch(int(out_.kernel_descs.size()) - 1, nblocks, sl);
}

// Note [Histograms in one kernel]
// Two reduce_by_index of one body whose updates are atomics in shared memory run as one
// hist_shared kernel (kmeans' counts over n points and sums over n x d slots: one
// launch a round instead of two, the counts' updates taking ~6% more time in the sums'
// kernel instead of a 4 us kernel of their own on 64 blocks). The first waits
// (extract_kernels.cpp's hist_op) when a later statement of its body is a reduce_by_index and nothing from
// the first to that one reads its result; the pair's kernel is launched where the second
// stands (hist_pair), after the statements in between (kmeans: the sums' memset and
// size checks). Each block fills both histograms' bins in shared memory, takes the
// first's updates grid-strided, then the second's (each with its own number in
// flight), and merges both; the grid is sized for the updates of both (which pairs:
// extract_kernels.cpp, SegOp::partner). Deferring the
// first only moves its kernel later: its failures are those of maps fused into it
// (elements of maps), which may be reported after host code that follows them, as for
// any fused map (docs/CHECKS.md, "Which failure is reported"). When the second cannot
// run in shared memory (an operator without an atomic, scratch memory), the first runs
// alone where the second stands, then the second. Only pairs, and one waiting at a time.
void ProgramGen::hist_pair(const SegOp &first, const SegOp &second) {
  FnGen &h = *host_;
  SlotList sl;
  std::vector<SharedHist> parts;
  for (const SegOp *x : {&first, &second}) {
    const core::Exp &e = x->stm->exp;
    int dest = x->stm->pat[0];
    h.bind(dest, consumed_dest(*x, 0, p_.var(dest).type.prim));
    size_t n_slot = add_raw(sl, h.lookup(e.arrays[1]).dims[0]);
    add_input(sl, e.arrays[1]);
    add_input(sl, e.arrays[2]);
    add_var(sl, dest);
    parts.push_back(SharedHist{x->stm, x->update, n_slot});
  }
  shared_hists(second, parts, sl);
}

void ProgramGen::hist_kernel(const SegOp &op) {
  if (op.update != HistUpdate::None) {
    atomic_hist(op);
    return;
  }
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  const Kernel &kr = op.kernels()[0];
  FnGen &h = *host_;
  size_t k = s.pat.size();
  // The destinations: fresh copies, the statement's results.
  for (size_t j = 0; j < k; j++) h.bind(s.pat[j], consumed_dest(op, j, p_.var(s.pat[j]).type.prim));
  SlotList sl;
  size_t one_slot = add_raw(sl, h.i64(1));
  for (int v : lambda_free_vars(p_, *e.lambda)) add_input(sl, v);
  for (size_t j = k; j < e.arrays.size(); j++) add_input(sl, e.arrays[j]);
  for (size_t j = 0; j < k; j++) add_var(sl, s.pat[j]);
  ArenaSlots arena = add_arena(sl, h.i64(1), {{e.lambda.get(), false}}, e);
  KernelFn kf = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
  bind_kernel_args(kf, sl);
  FnGen &g = *kf.g;
  threads_kernel(kf, kf.slot(one_slot), [&](Value *gid) {
    bind_arena(kf, arena, gid);
    std::vector<Val> dsts;
    for (size_t j = 0; j < k; j++) dsts.push_back(g.lookup(s.pat[j]));
    g.hist_sequential(s, dsts);
  }, kr.prelude, kr.rerun);
  emit_launch(int(out_.kernel_descs.size()) - 1, h.i64(1), sl);
}

} // namespace kerb::codegen
