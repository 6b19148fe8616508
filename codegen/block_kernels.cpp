// Block-level kernels (see program_gen.h): reduce as two launches of a block reduction
// (per-block partial results, then one block over them), and scan as reduce-then-scan
// (block totals, then a last pass that scans each block's part from its prefix).
#include "codegen/program_gen.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
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

void min_blocks_per_sm(Module &m, Function *f, int per_sm, int threads) {
  LLVMContext &c = m.getContext();
  NamedMDNode *ann = m.getOrInsertNamedMetadata("nvvm.annotations");
  for (auto [key, v] : {std::pair<const char *, int>{"maxntidx", threads}, {"minctasm", per_sm}})
    ann->addOperand(MDNode::get(c, {ValueAsMetadata::get(f), MDString::get(c, key),
                                    ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(c), uint64_t(v)))}));
}

std::vector<AllocaInst *> new_accs(FnGen &g, const std::vector<PrimType> &types) {
  std::vector<AllocaInst *> a;
  for (PrimType t : types) a.push_back(g.entry_alloca(g.ops().reg_type(t)));
  return a;
}

std::vector<Val> read_accs(FnGen &g, const std::vector<PrimType> &types, const std::vector<AllocaInst *> &a) {
  std::vector<Val> v;
  for (size_t j = 0; j < a.size(); j++)
    v.push_back(Val{g.builder().CreateLoad(g.ops().reg_type(types[j]), a[j]), nullptr, {}, {}});
  return v;
}

void write_accs(FnGen &g, const std::vector<AllocaInst *> &a, const std::vector<Val> &v) {
  for (size_t j = 0; j < a.size(); j++) g.builder().CreateStore(v[j].scalar, a[j]);
}

ProgramGen::BlockKernel ProgramGen::block_kernel(const SegOp &op, const Kernel &kr,
                                                 const std::vector<Value *> &outs,
                                                 const std::vector<Value *> &extra, BlockMode mode,
                                                 const std::vector<Value *> &partials,
                                                 Value *n_override) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  BlockKernel bk;
  bk.comm = op.comm;
  // (Vector loads in the first pass only: the second reads the partial results.)
  bk.lanes = op.strategy == Strategy::BlockTree && partials.empty() ? op.elems_per_thread : 1;
  bk.items = mode == BlockMode::SinglePass ? op.single_pass_items : op.elems_per_thread;
  bk.blocks_per_sm = kr.blocks_per_sm;
  SlotList &sl = bk.sl;
  bk.n_slot = add_raw(sl, n_override ? n_override : h.scalar(e.args[0]));
  std::set<int> free = lambda_free_vars(p_, *e.lambda);
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
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1,
                          KernelDesc{KernelDesc::Blocks, shared, uint32_t(kr.block_threads)});
  bk.id = int(out_.kernel_descs.size()) - 1;
  bk.threads = kr.block_threads ? kr.block_threads : kGpuBlockThreads;
  bind_kernel_args(k, sl);
  if (!partials.empty()) {
    // The partial results stand in for the statement's input arrays, one per operand:
    // not bound to the arrays' variables, which may repeat (`zip xs xs`; found by kerb
    // difftest, seed 6838: both operands read the last partial).
    Type *gptr = PointerType::get(k.g->builder().getContext(), gpu() ? 1 : 0);
    for (size_t j = 0; j < e.arrays.size(); j++)
      bk.partial_inputs.push_back(Val{nullptr, k.g->builder().CreateIntToPtr(k.slot(bk.in_slots[j]), gptr),
                                      {k.slot(bk.n_slot)}, {}});
  }
  block_body(k, s, k.slot(bk.n_slot), bk, mode, kr.prelude);
  return bk;
}

void ProgramGen::chunked_kernels(const SegOp &op, bool scan) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  const std::vector<Kernel> &ks = op.kernels();
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  Chunked c;
  c.s = &s;
  size_t k = s.pat.size();
  c.acc_vars.assign(e.lambda->params.begin(), e.lambda->params.begin() + long(k));
  c.n = h.ops().to_i64(h.prim_of(e.args[0]), h.scalar(e.args[0]));
  c.threads = hb.CreateMul(hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, c.n}),
                           hb.CreateCall(h.rt("kerb_rt_block_size"), {h.ctx}));
  c.chunk = hb.CreateSDiv(hb.CreateAdd(c.n, hb.CreateSub(c.threads, h.i64(1))), c.threads);
  // Per thread a partial result (reduce) or a prefix (scan: one more, the first the
  // neutral element), shaped as the neutral element.
  auto rows_like = [&](PrimType t, const Val &x, Value *count) {
    std::vector<Value *> dims{count};
    dims.insert(dims.end(), x.dims.begin(), x.dims.end());
    return Val{nullptr, alloc(byte_size(t, dims)), dims, {}};
  };
  for (size_t j = 0; j < k; j++) {
    PrimType t = p_.var(c.acc_vars[j]).type.prim;
    Val x = h.val(e.args[j + 1]);
    if (!x.scalar) x = contiguous(x, t);
    c.ne.push_back(x);
    c.parts.push_back(rows_like(t, x, hb.CreateAdd(c.threads, h.i64(1))));
    // The results: the scan's rows, or the reduction's value (one row; a scalar in
    // read-back memory, read below: Note [Read-back memory]).
    if (!scan && x.scalar)
      c.outs.push_back(Val{nullptr, alloc(byte_size(t, {h.i64(1)}), true), {h.i64(1)}, {}});
    else
      c.outs.push_back(rows_like(t, x, scan ? c.n : h.i64(1)));
  }
  if (!scan) {
    chunked_phase(c, ks[0], c.threads, ChunkPhase::Partials);
    chunked_phase(c, ks[1], h.i64(1), ChunkPhase::Combine);
    for (size_t j = 0; j < k; j++) {
      PrimType t = p_.var(s.pat[j]).type.prim;
      if (c.ne[j].scalar) {
        Type *et = h.ops().mem_type(t);
        AllocaInst *buf = h.entry_alloca(et);
        h.return_if_error(hb.CreateCall(h.rt("kerb_rt_read"),
                                        {h.ctx, buf, c.outs[j].addr,
                                         h.i64(int64_t(out_.host->getDataLayout().getTypeAllocSize(et)))}));
        h.bind(s.pat[j], Val{h.ops().from_mem(t, hb.CreateLoad(et, buf)), nullptr, {}, {}});
        continue;
      }
      Val r = c.outs[j];
      r.dims.erase(r.dims.begin());
      h.bind(s.pat[j], r);
    }
    return;
  }
  chunked_phase(c, ks[0], c.threads, ChunkPhase::Partials);
  chunked_phase(c, ks[1], h.i64(1), ChunkPhase::Prefixes);
  chunked_phase(c, ks[2], c.threads, ChunkPhase::Scan);
  for (size_t j = 0; j < k; j++) h.bind(s.pat[j], c.outs[j]);
}

void ProgramGen::chunked_phase(const Chunked &c, const Kernel &kr, Value *nthreads, ChunkPhase phase) {
  const core::Stm &s = *c.s;
  const core::Exp &e = s.exp;
  const core::Lambda &op = *e.lambda;
  FnGen &h = *host_;
  size_t k = c.acc_vars.size();
  SlotList sl;
  size_t count_slot = add_raw(sl, nthreads);
  size_t n_slot = add_raw(sl, c.n), chunk_slot = add_raw(sl, c.chunk);
  size_t threads_slot = add_raw(sl, c.threads);
  for (int v : lambda_free_vars(p_, op)) add_input(sl, v);
  if (phase != ChunkPhase::Prefixes && phase != ChunkPhase::Combine)
    for (int a : e.arrays) add_input(sl, a);
  // Values the host made (not core variables): address or scalar, then dims.
  auto add_val = [&](const Val &v, PrimType t) {
    size_t first = add_raw(sl, v.scalar ? h.ops().to_slot(t, v.scalar) : v.addr);
    for (Value *d : v.dims) add_raw(sl, d);
    return first;
  };
  std::vector<size_t> ne_slots, part_slots, out_slots;
  for (size_t j = 0; j < k; j++) {
    PrimType t = p_.var(c.acc_vars[j]).type.prim;
    ne_slots.push_back(add_val(c.ne[j], t));
    part_slots.push_back(add_val(c.parts[j], t));
    out_slots.push_back(add_val(c.outs[j], t));
  }
  ArenaSlots arena = add_arena(sl, nthreads, {{&op, false}}, e, c.acc_vars);
  KernelFn kf = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Threads, 0});
  bind_kernel_args(kf, sl);
  FnGen &g = *kf.g;
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  auto get_val = [&](size_t slot, const Val &like, PrimType t) {
    if (like.scalar) return Val{g.ops().from_slot(t, kf.slot(slot)), nullptr, {}, {}};
    Val v{nullptr, b.CreateIntToPtr(kf.slot(slot), gptr), {}, {}};
    for (size_t d = 0; d < like.dims.size(); d++) v.dims.push_back(kf.slot(slot + 1 + d));
    return v;
  };
  threads_kernel(kf, kf.slot(count_slot), [&](Value *gid) {
    bind_arena(kf, arena, gid);
    std::vector<Val> ne, parts, outs;
    std::vector<PrimType> types;
    for (size_t j = 0; j < k; j++) {
      types.push_back(p_.var(c.acc_vars[j]).type.prim);
      ne.push_back(get_val(ne_slots[j], c.ne[j], types[j]));
      parts.push_back(get_val(part_slots[j], c.parts[j], types[j]));
      outs.push_back(get_val(out_slots[j], c.outs[j], types[j]));
    }
    auto rows_of = [&](const std::vector<Val> &arrs, Value *i) {
      std::vector<Val> r;
      for (size_t j = 0; j < k; j++) r.push_back(g.row_of(types[j], arrs[j], i));
      return r;
    };
    auto store_rows = [&](const std::vector<Val> &arrs, Value *i, const std::vector<Val> &vals) {
      for (size_t j = 0; j < k; j++) g.store_row(types[j], vals[j], arrs[j], i);
    };
    // This thread's chunk of the input.
    Value *kn = kf.slot(n_slot), *chunk = kf.slot(chunk_slot);
    Value *lo = b.CreateMul(gid, chunk);
    Value *hi = b.CreateAdd(lo, chunk);
    hi = b.CreateSelect(b.CreateICmpSLT(hi, kn), hi, kn);
    lo = b.CreateSelect(b.CreateICmpSLT(lo, hi), lo, hi);
    auto input = [&](Value *i) { return g.rows_at(e.arrays, i); };
    // Thread t's partial result is row t + 1 of `parts`; the prefixes phase turns the
    // rows into exclusive prefixes in place (row 0: the neutral element).
    Value *threads = kf.slot(threads_slot);
    Value *one = g.i64(1);
    switch (phase) {
    case ChunkPhase::Partials:
      store_rows(parts, b.CreateAdd(gid, one), g.fold_range(op, ne, lo, hi, input));
      break;
    case ChunkPhase::Combine:
      store_rows(outs, g.i64(0),
                 g.fold_range(op, ne, one, b.CreateAdd(threads, one), [&](Value *i) { return rows_of(parts, i); }));
      break;
    case ChunkPhase::Prefixes:
      store_rows(parts, g.i64(0), ne);
      g.fold_range(op, ne, one, b.CreateAdd(threads, one), [&](Value *i) { return rows_of(parts, i); },
                   [&](Value *i, const std::vector<Val> &acc) { store_rows(parts, i, acc); });
      break;
    case ChunkPhase::Scan:
      g.fold_range(op, rows_of(parts, gid), lo, hi, input,
                   [&](Value *i, const std::vector<Val> &acc) { store_rows(outs, i, acc); });
      break;
    }
  }, kr.prelude, kr.rerun); // (prefixes: in place, not run again)
  emit_launch(int(out_.kernel_descs.size()) - 1, nthreads, sl);
}

std::vector<Value *> ProgramGen::alloc_per_result(const core::Stm &s, Value *n, bool readback) {
  std::vector<Value *> out;
  for (int r : s.pat) out.push_back(alloc(byte_size(p_.var(r).type.prim, {n}), readback));
  return out;
}

void ProgramGen::reduce_kernels(const SegOp &op) {
  const core::Stm &s = *op.stm;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  if (op.strategy == Strategy::Chunked) return chunked_kernels(op, false);
  BlockMode mode = op.strategy == Strategy::BlockTree ? BlockMode::Interleaved : BlockMode::TiledReduce;
  const std::vector<Kernel> &ks = op.kernels();
  Value *n = h.scalar(s.exp.args[0]);
  Value *nblocks = hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, n});
  std::vector<Value *> partials = alloc_per_result(s, nblocks);
  BlockKernel bk = block_kernel(op, ks[0], partials, {}, mode);
  // First launch over the input; second over the partials with one block.
  emit_launch(bk.id, nblocks, bk.sl);
  // The results, 8 bytes apart in one allocation of read-back memory (the last
  // kernel's one thread writes them; Note [Read-back memory]), read with one
  // kerb_rt_read: a tuple's components (nn's distance and index) are not a read each.
  size_t kr = s.pat.size();
  Value *finals_at = alloc(h.i64(int64_t(8 * kr)), true);
  std::vector<Value *> finals;
  for (size_t j = 0; j < kr; j++) finals.push_back(j ? hb.CreateAdd(finals_at, h.i64(int64_t(8 * j))) : finals_at);
  BlockKernel last = block_kernel(op, ks[1], finals, {}, mode, partials, nblocks);
  emit_launch(last.id, h.i64(1), last.sl);
  AllocaInst *buf = h.entry_alloca(ArrayType::get(hb.getInt64Ty(), kr));
  h.return_if_error(hb.CreateCall(h.rt("kerb_rt_read"), {h.ctx, buf, finals_at, h.i64(int64_t(8 * kr))}));
  for (size_t j = 0; j < kr; j++) {
    PrimType t = p_.var(s.pat[j]).type.prim;
    Value *at = hb.CreateConstGEP1_64(hb.getInt64Ty(), buf, j);
    h.bind(s.pat[j], Val{h.ops().from_mem(t, hb.CreateLoad(h.ops().mem_type(t), at)), nullptr, {}, {}});
  }
}

void ProgramGen::scan_kernels(const SegOp &op) {
  const core::Stm &s = *op.stm;
  FnGen &h = *host_;
  if (op.strategy == Strategy::Chunked) return chunked_kernels(op, true);
  if (op.strategy == Strategy::SinglePass) return single_pass_scan(op);
  Value *n = h.scalar(s.exp.args[0]);
  std::vector<Value *> outs = alloc_per_result(s, n);
  reduce_then_scan(op, op.versions.front(), outs);
  for (size_t j = 0; j < s.pat.size(); j++) h.bind(s.pat[j], Val{nullptr, outs[j], {n}, {}});
}

void ProgramGen::reduce_then_scan(const SegOp &op, const Version &v, const std::vector<Value *> &outs) {
  const core::Stm &s = *op.stm;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  Value *n = h.scalar(s.exp.args[0]);
  Value *nblocks = hb.CreateCall(h.rt("kerb_rt_num_blocks"), {h.ctx, n});
  std::vector<Value *> totals = alloc_per_result(s, nblocks);
  BlockKernel first = block_kernel(op, v.kernels[0], totals, {}, BlockMode::TiledReduce);
  emit_launch(first.id, nblocks, first.sl);
  BlockKernel last = block_kernel(op, v.kernels[1], outs, totals, BlockMode::TiledScan);
  emit_launch(last.id, nblocks, last.sl);
}

void ProgramGen::segred_kernels(const SegOp &op, const Version &ver, Value *segments,
                                Value *blocks_per_segment) {
  const core::Stm &s = *op.stm, &red = *op.red;
  bool across = ver.strategy == Strategy::SegRedRows;
  const Kernel &k1 = ver.kernels[0], &k2 = ver.kernels[1];
  const core::Exp &e = s.exp;
  const core::Lambda &l = *e.lambda;
  const core::Exp &re = red.exp;
  FnGen &h = *host_;
  IRBuilder<> &hb = h.builder();
  size_t r = size_t(&red - l.body.stms.data()), kr = red.pat.size();
  Value *parts = hb.CreateMul(segments, blocks_per_segment);
  std::vector<Value *> partials = alloc_per_result(red, parts);
  uint32_t shared = 0;
  for (int v : red.pat)
    shared += uint32_t(out_.host->getDataLayout().getTypeAllocSize(h.ops().mem_type(p_.var(v).type.prim)));
  // The slots of both kernels: the length reduced, the segments and blocks per segment,
  // the lambda's free variables, the map's arrays.
  auto slots = [&](BlockKernel &bk, Value *n) {
    bk.n_slot = add_raw(bk.sl, n);
    bk.extra_slots = {add_raw(bk.sl, segments), add_raw(bk.sl, blocks_per_segment)};
    for (int v : lambda_free_vars(p_, l)) add_input(bk.sl, v);
    for (int a : e.arrays) add_input(bk.sl, a);
  };
  // Segment `seg`'s element up to the reduction: the lambda's parameters and the
  // statements before it (fused maps are registered, not run).
  auto setup = [&](FnGen &g, Value *seg) {
    std::vector<Val> rows = g.rows_at(e.arrays, seg);
    for (size_t p = 0; p < rows.size(); p++) g.bind(l.params[p], rows[p]);
    g.cur_body_ = &l.body;
    for (size_t st = 0; st < r; st++) g.stm(l.body.stms[st]);
  };
  // The neutral elements, after the setup (they may be computed by its statements).
  auto ne = [&](FnGen &g) {
    std::vector<Value *> v;
    for (size_t j = 0; j < kr; j++) v.push_back(g.scalar(re.args[j + 1]));
    return v;
  };

  // Kernel 1: segments x blocks_per_segment blocks, each reducing its part of its
  // segment into partials[segment * blocks_per_segment + block]; across rows,
  // blocks_per_segment blocks, each reducing its rows of every segment (the same
  // layout).
  {
    BlockKernel bk;
    slots(bk, h.ops().to_i64(h.prim_of(re.args[0]), h.scalar(re.args[0])));
    for (Value *pa : partials) bk.out_slots.push_back(add_raw(bk.sl, pa));
    bk.comm = op.comm;
    KernelFn k = new_kernel(k1.name, bk.sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, shared});
    bk.id = int(out_.kernel_descs.size()) - 1;
    bind_kernel_args(k, bk.sl);
    FnGen &g = *k.g;
    g.invariant_loads = true;
    BlockSegments segs{k.slot(bk.extra_slots[0]), k.slot(bk.extra_slots[1]),
                       [&](Value *seg) { setup(g, seg); }, [&] { return ne(g); }, {}};
    bool prelude = k1.prelude;
    if (across)
      segred_rows_body(k, red, bk, segs, prelude, op.unroll);
    else
      block_body(k, red, k.slot(bk.n_slot), bk, BlockMode::Interleaved, prelude, &segs);
    emit_launch(bk.id, across ? blocks_per_segment : parts, bk.sl);
  }

  // Kernel 2: one block per segment reduces its partial results, then thread 0 runs
  // the rest of the segment's element and writes its results. (Its prelude skips it
  // after a failure of the first kernel, whose partial results may be missing.)
  BlockKernel bk;
  slots(bk, blocks_per_segment);
  for (Value *pa : partials) bk.in_slots.push_back(add_raw(bk.sl, pa));
  size_t first_out = bk.sl.args.size();
  alloc_outputs(op, h.scalar(e.args[0]), bk.sl);
  bk.comm = op.comm;
  KernelFn k = new_kernel(k2.name, bk.sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, shared});
  bk.id = int(out_.kernel_descs.size()) - 1;
  bind_kernel_args(k, bk.sl);
  FnGen &g = *k.g;
  g.invariant_loads = true;
  IRBuilder<> &b = g.builder();
  Type *gptr = PointerType::get(b.getContext(), gpu() ? 1 : 0);
  for (size_t j = 0; j < kr; j++)
    bk.partial_inputs.push_back(Val{nullptr, b.CreateIntToPtr(k.slot(bk.in_slots[j]), gptr),
                                    {b.CreateMul(k.slot(bk.extra_slots[0]), k.slot(bk.extra_slots[1]))}, {}});
  // Every thread runs the setup for the neutral elements; thread 0 again at the end
  // (the values of the first run do not reach there: a failure edge skips them).
  BlockSegments segs{k.slot(bk.extra_slots[0]), nullptr, [&](Value *seg) { setup(g, seg); },
                     [&] { return ne(g); },
                     [&](Value *seg, const std::vector<Val> &res) {
                       setup(g, seg);
                       for (size_t j = 0; j < kr; j++) g.bind(red.pat[j], res[j]);
                       for (size_t st = r + 1; st < l.body.stms.size(); st++) g.stm(l.body.stms[st]);
                       std::vector<Val> out = g.results(l.body);
                       for (size_t j = 0; j < s.pat.size(); j++) {
                         const Val &d = g.lookup(bk.sl.args[first_out + j].var);
                         PrimType t = p_.var(s.pat[j]).type.prim;
                         g.store_elem(t, out[j].scalar, g.element_addr(d.addr, seg, t));
                       }
                     }};
  block_body(k, red, k.slot(bk.n_slot), bk, BlockMode::Interleaved, k2.prelude, &segs);
  emit_launch(bk.id, segments, bk.sl);
}

// Note [Segmented reductions across rows]
// backprop's hidden layer, `map (\j -> f (reduce (+) 0 (map (\i -> w[i, j] * x[i])
// (iota m)))) (iota n)` with few segments n, reads w by columns when each segment has
// blocks of its own (segred): a warp's 32 loads fall in 32 rows of w, 4 useful bytes of
// each 32-byte sector. When the operator is commutative and the lambda reads an array
// with the segment as its last index (extract_kernels.cpp's segred_across_rows), the
// first kernel instead gives each thread one segment and a row walk: a block of nt
// threads holds R = nt / S rows of S segments, thread t = r * S + j reducing segment j
// over rows b * R + r, b * R + r + B * R, ... (B blocks; the setup of segment j runs
// once per thread). A warp then reads 32 consecutive (row, segment) elements, w's rows
// whole. The walk loads kRowsUnroll rows (SegOp::unroll) before combining them (loads
// in flight). Then each block reduces its R rows per segment (a halving tree over rows
// in shared memory; S threads write the block's partial results at [j * B + b]), and
// the second kernel of segred reduces each segment's B partial results (unchanged). The
// CPU device (one thread per block) walks the segments one after the other, R = 1. The
// order of the combinations differs from the sequential one, hence the commutative
// operator. Segments beyond the block (S > nt) would have no thread: the host takes
// this path for S <= kSegRedRowsMaxSegments only. A failing thread finishes its phases
// like block_body's.
void ProgramGen::segred_rows_body(KernelFn &k, const core::Stm &red, const BlockKernel &bk,
                                  const BlockSegments &segs, bool prelude, int64_t unroll) {
  const core::Exp &e = red.exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
  size_t kr = red.pat.size();
  std::vector<PrimType> types;
  for (int v : red.pat) types.push_back(p_.var(v).type.prim);
  BlockIds ids = begin_blocks(k);
  block_prelude(k, ids.tid, prelude);
  Value *nseg = segs.segments, *nblocks = segs.blocks_per_segment, *m = k.slot(bk.n_slot);
  AllocaInst *failed = g.entry_alloca(b.getInt1Ty());
  b.CreateStore(b.getFalse(), failed);
  std::vector<AllocaInst *> acc;
  for (size_t x = 0; x < kr; x++) {
    acc.push_back(g.entry_alloca(g.ops().reg_type(types[x])));
    b.CreateStore(Constant::getNullValue(g.ops().reg_type(types[x])), acc.back());
  }
  auto combine_into_acc = [&](const std::vector<Val> &rhs) {
    std::vector<Val> args;
    for (size_t x = 0; x < kr; x++)
      args.push_back(Val{b.CreateLoad(g.ops().reg_type(types[x]), acc[x]), nullptr, {}, {}});
    args.insert(args.end(), rhs.begin(), rhs.end());
    std::vector<Val> res = g.apply(*e.lambda, args);
    for (size_t x = 0; x < kr; x++) b.CreateStore(res[x].scalar, acc[x]);
  };
  Value *rows_per_block = gpu() ? b.CreateUDiv(ids.ntid, nseg) : b.getInt64(1);
  Value *stride = b.CreateMul(nblocks, rows_per_block);
  // Segment j over rows block * R + r, + stride, ... below m; continues at `done`.
  auto walk = [&](Value *r, Value *j, BasicBlock *done) {
    g.on_fail = [&b, failed, done](Value *) {
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(done);
    };
    // Its checks deferred (it writes only registers; Note [Deferred checks]).
    deferred(g, [&](bool) {
      segs.setup(j);
      std::vector<Value *> ne = segs.ne();
      for (size_t x = 0; x < kr; x++) b.CreateStore(ne[x], acc[x]);
      Value *first = b.CreateAdd(b.CreateMul(ids.block, rows_per_block), r);
      g.strided_range(first, m, stride, unroll, nullptr,
                      [&](Value *i) { return g.rows_at(e.arrays, i); }, combine_into_acc);
    });
    b.CreateBr(done);
    b.SetInsertPoint(done);
  };
  auto partial_at = [&](size_t x, Value *j) {
    return g.element_addr(b.CreateIntToPtr(k.slot(bk.out_slots[x]), gptr),
                          b.CreateAdd(b.CreateMul(j, nblocks), ids.block), types[x]);
  };

  if (!gpu()) {
    g.counted_range(b.getInt64(0), nseg, nullptr, [&](Value *j) {
      BasicBlock *done = BasicBlock::Create(c, "rows.done", f);
      BasicBlock *write = BasicBlock::Create(c, "rows.write", f);
      walk(b.getInt64(0), j, done);
      b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), failed), ids.after, write);
      b.SetInsertPoint(write);
      for (size_t x = 0; x < kr; x++)
        b.CreateStore(g.ops().to_mem(types[x], b.CreateLoad(g.ops().reg_type(types[x]), acc[x])),
                      partial_at(x, j));
    });
    b.CreateBr(ids.after);
    end_blocks(k, ids);
    return;
  }

  Value *tid = ids.tid;
  Value *active = b.CreateICmpULT(tid, b.CreateMul(rows_per_block, nseg));
  Value *r = b.CreateUDiv(tid, nseg);
  Value *j = b.CreateSub(tid, b.CreateMul(r, nseg));
  BasicBlock *work = BasicBlock::Create(c, "rows.walk", f);
  BasicBlock *done = BasicBlock::Create(c, "rows.done", f);
  b.CreateCondBr(active, work, done);
  b.SetInsertPoint(work);
  walk(r, j, done);
  // Shared memory: one element per thread per result component.
  std::vector<Value *> shared;
  std::vector<ArrayType *> shared_t;
  for (size_t x = 0; x < kr; x++) {
    shared_t.push_back(ArrayType::get(g.ops().mem_type(types[x]), uint64_t(kGpuBlockThreads)));
    shared.push_back(shared_array(g, shared_t[x], fmt::format("{}_shared{}", f->getName().str(), x), Align(8)));
  }
  auto shared_at = [&](size_t x, Value *i) {
    return b.CreateGEP(shared_t[x], shared[x], {b.getInt64(0), i});
  };
  auto load_shared = [&](size_t x, Value *i) {
    return Val{g.ops().from_mem(types[x], b.CreateLoad(g.ops().mem_type(types[x]), shared_at(x, i))),
               nullptr, {}, {}};
  };
  auto barrier = [&]() { b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0)); };
  for (size_t x = 0; x < kr; x++)
    b.CreateStore(g.ops().to_mem(types[x], b.CreateLoad(g.ops().reg_type(types[x]), acc[x])), shared_at(x, tid));
  barrier();
  // The tree over the block's rows: while h > 1 rows hold values, row r < h - ceil(h / 2)
  // takes in row r + ceil(h / 2).
  AllocaInst *height = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(rows_per_block, height);
  BasicBlock *head = BasicBlock::Create(c, "rows.tree", f);
  BasicBlock *step = BasicBlock::Create(c, "rows.step", f);
  BasicBlock *combine = BasicBlock::Create(c, "rows.combine", f);
  BasicBlock *sync = BasicBlock::Create(c, "rows.sync", f);
  BasicBlock *tdone = BasicBlock::Create(c, "rows.tree_done", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  Value *hv = b.CreateLoad(b.getInt64Ty(), height);
  b.CreateCondBr(b.CreateICmpUGT(hv, b.getInt64(1)), step, tdone);
  b.SetInsertPoint(step);
  Value *half = b.CreateLShr(b.CreateAdd(hv, b.getInt64(1)), 1);
  Value *ok = b.CreateAnd(active, b.CreateICmpULT(b.CreateAdd(r, half), hv));
  ok = b.CreateAnd(ok, b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
  b.CreateCondBr(ok, combine, sync);
  b.SetInsertPoint(combine);
  g.on_fail = [&b, failed, sync](Value *) {
    b.CreateStore(b.getTrue(), failed);
    b.CreateBr(sync);
  };
  std::vector<Val> xs;
  Value *partner = b.CreateAdd(tid, b.CreateMul(half, nseg));
  for (size_t x = 0; x < kr; x++) xs.push_back(load_shared(x, tid));
  for (size_t x = 0; x < kr; x++) xs.push_back(load_shared(x, partner));
  std::vector<Val> rr = g.apply(*e.lambda, xs);
  for (size_t x = 0; x < kr; x++) b.CreateStore(g.ops().to_mem(types[x], rr[x].scalar), shared_at(x, tid));
  b.CreateBr(sync);
  b.SetInsertPoint(sync);
  barrier();
  b.CreateStore(half, height);
  b.CreateBr(head);
  b.SetInsertPoint(tdone);
  // Row 0 (threads 0 .. S - 1) writes the block's partial results.
  BasicBlock *write = BasicBlock::Create(c, "rows.write", f);
  Value *should = b.CreateAnd(b.CreateICmpULT(tid, nseg), b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
  b.CreateCondBr(should, write, ids.after);
  b.SetInsertPoint(write);
  for (size_t x = 0; x < kr; x++)
    b.CreateStore(b.CreateLoad(g.ops().mem_type(types[x]), shared_at(x, tid)), partial_at(x, j));
  b.CreateBr(ids.after);
  end_blocks(k, ids);
}

void ProgramGen::block_body(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                            BlockMode mode, bool prelude, const BlockSegments *segs) {
  const core::Exp &e = s.exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
  size_t kr = s.pat.size();
  std::vector<PrimType> types;
  for (int r : s.pat) types.push_back(p_.var(r).type.prim);

  BlockIds ids = begin_blocks(k);
  Value *block = ids.block, *tid = ids.tid, *ntid = ids.ntid, *nblocks = ids.nblocks;
  BasicBlock *cpu_next = ids.after;
  // Segmented reductions (segred_kernels): which segment this block works on, and its
  // index and count among the blocks of that segment; `out_at`: where it writes.
  Value *bidx = block, *bcount = nblocks, *out_at = block, *segment = nullptr, *in_off = nullptr;
  if (segs && segs->blocks_per_segment) {
    // Segment-minor order: the blocks running together read the same part of every
    // segment (neighbouring elements of a matrix's rows share cache lines).
    segment = b.CreateURem(block, segs->segments);
    bidx = b.CreateUDiv(block, segs->segments);
    bcount = segs->blocks_per_segment;
    out_at = b.CreateAdd(b.CreateMul(segment, bcount), bidx);
  } else if (segs) {
    segment = block;
    in_off = b.CreateMul(block, n);
    bidx = b.getInt64(0);
    bcount = b.getInt64(1);
  }
  block_prelude(k, tid, prelude);
  AllocaInst *failed = g.entry_alloca(b.getInt1Ty());
  b.CreateStore(b.getFalse(), failed);
  if (mode == BlockMode::SinglePass) {
    SinglePassBlock sp = single_pass_begin(k, bk, types, tid, nblocks);
    if (single_pass_in_registers(types))
      single_pass_tile(k, s, n, bk, tid, failed, sp);
    else
      tiled_body(k, s, n, bk, mode, sp.tile, tid, nblocks, failed, sp.leave, &sp);
    single_pass_end(k, sp, tid, ids.after);
    end_blocks(k, ids);
    return;
  }
  if (mode != BlockMode::Interleaved) {
    KERB_ASSERT(!segs, "segmented reductions use the interleaved block body");
    tiled_body(k, s, n, bk, mode, block, tid, nblocks, failed, ids.after);
    end_blocks(k, ids);
    return;
  }
  auto on_fail_to = [&](BasicBlock *&target) {
    g.on_fail = [&b, failed, &target](Value *) {
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(target);
    };
  };

  // A reduction (not segmented) of arrays of 4- or 8-byte scalars (no map fused into
  // it): eight blocks per SM (32 registers), so that the 1024 blocks of a large
  // reduction run in one wave (bench/reduce.fut's 34 registers gave six per SM: 1.3
  // waves, the last at a fifth of the SMs' blocks). ptxas then spills a value or two
  // around the loop (4-8 bytes, not in it). With a fused map it spilled more
  // (tests/programs/soacs/tiled_sizes.fut: up to 156 bytes), and for 1- and 2-byte
  // elements inside the loop (module_reductions.fut).
  // (extract_kernels.cpp decides: Kernel::blocks_per_sm.)
  if (gpu() && bk.blocks_per_sm) min_blocks_per_sm(kernel_module(), f, int(bk.blocks_per_sm));
  // Shared memory: one element per thread per result component (a block has
  // kGpuBlockThreads threads: runtime/cuda_exec.cpp's kBlocksBlock).
  std::vector<Value *> shared;
  for (size_t j = 0; j < kr; j++) {
    Type *et = g.ops().mem_type(types[j]);
    if (gpu())
      shared.push_back(shared_array(g, ArrayType::get(et, uint64_t(kGpuBlockThreads)),
                                    fmt::format("{}_shared{}", f->getName().str(), j), Align(8)));
    else
      shared.push_back(g.entry_alloca(et)); // (a block of one thread: one element)
  }
  auto shared_at = [&](size_t j, Value *i) -> Value * {
    if (gpu())
      return b.CreateGEP(ArrayType::get(g.ops().mem_type(types[j]), uint64_t(kGpuBlockThreads)), shared[j],
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
  // (Segmented: the neutral elements are the segment's, known after its setup.)
  auto set_acc_ne = [&]() {
    for (size_t j = 0; j < kr; j++)
      b.CreateStore(segs ? Constant::getNullValue(g.ops().reg_type(types[j]))
                         : g.ops().from_slot(types[j], k.slot(bk.ne_slots[j])),
                    acc[j]);
  };
  auto load_acc = [&]() {
    std::vector<Val> v;
    for (size_t j = 0; j < kr; j++)
      v.push_back(Val{b.CreateLoad(g.ops().reg_type(types[j]), acc[j]), nullptr, {}, {}});
    return v;
  };
  auto input_at = [&](Value *i) {
    if (bk.partial_inputs.empty()) return g.rows_at(e.arrays, i);
    std::vector<Val> rows;
    for (size_t j = 0; j < bk.partial_inputs.size(); j++)
      rows.push_back(g.row_of(p_.var(e.arrays[j]).type.prim, bk.partial_inputs[j],
                              in_off ? b.CreateAdd(in_off, i) : i));
    return rows;
  };
  auto combine_into_acc = [&](std::vector<Val> rhs) {
    std::vector<Val> args = load_acc();
    args.insert(args.end(), rhs.begin(), rhs.end());
    std::vector<Val> r = g.apply(*e.lambda, args);
    for (size_t j = 0; j < kr; j++) b.CreateStore(r[j].scalar, acc[j]);
  };

  // Note [Commutative reductions in lanes]
  // A commutative reduction (a known operator, or any operator of a reduce_comm) of
  // the statement's arrays, not segmented, whose fused maps are straight-line code
  // (SegOp::elems_per_thread, extract_kernels.cpp) reads kMapLanes (4) consecutive
  // elements at a time: per group,
  // one vector load of each array read element by element (lane_leaves: the arrays
  // read whole, and the free arrays that a fused map over `iota n` indexes by its
  // element, nn's `lat[i]`), then the fused maps and the operator run for each lane in
  // order (FnGen::lane, lane_index: rows_at and index_stm take the lane's element).
  // nn's argmin thus issues two 16-byte loads per thread and step where one element at a
  // time issued two 4-byte loads (29 registers, eight blocks per SM: the launch's 1024
  // blocks in one wave), bench/reduce.fut one (26 registers). The test for it is
  // uniform over the launch (lanes_fit): every such array aligned to its group (16
  // bytes at most: allocations are 256-byte aligned, a row of a matrix may not be),
  // and every indexed array at least n long, so that the group's load is in bounds and
  // the index's bounds check, which cannot fail there, is left out. A block's part
  // then starts at a group (chunk rounded up to a multiple of 4); thread t takes
  // groups t, t + ntid, ... of it (coalesced: a warp reads 512 consecutive bytes of
  // each array), then the part's last elements one at a time; when the test fails the
  // whole part goes one element at a time (the loops are not unrolled: ptxas kept the
  // unrolled ones in 48 registers). Checks in the fused maps stay (a failing lane stops
  // the thread as before). The loads are marked invariant (ld.global.nc): a reduction
  // writes only its partial results. The CPU device runs the same code (plain vector
  // loads), so CI's corpus exercises it (tests/programs/soacs/reduce_comm_tuples.fut,
  // reduce_comm_fail.fut).
  bool comm = bk.comm;
  std::optional<LaneLeaves> lanes;
  if (comm && !segs && bk.lanes > 1) {
    LaneLeaves l = lane_leaves(g, e.arrays, true);
    if (!l.empty()) lanes = l;
  }

  // This thread's chunk (with lanes a whole number of groups).
  Value *threads = b.CreateMul(bcount, ntid);
  Value *chunk = b.CreateSDiv(b.CreateAdd(n, b.CreateSub(threads, b.getInt64(1))), threads);
  if (lanes)
    chunk = b.CreateAnd(b.CreateAdd(chunk, b.getInt64(kMapLanes - 1)), b.getInt64(-kMapLanes));
  Value *gtid = b.CreateAdd(b.CreateMul(bidx, ntid), tid);
  Value *lo = b.CreateMul(gtid, chunk);
  Value *hi = b.CreateAdd(lo, chunk);
  hi = b.CreateSelect(b.CreateICmpSLT(hi, n), hi, n);
  lo = b.CreateSelect(b.CreateICmpSLT(lo, hi), lo, hi);

  // Pass 1: the chunk's total. A commutative operator lets the block's threads read
  // its part interleaved (coalesced: thread t takes t, t + ntid, ...); otherwise each
  // thread takes a contiguous chunk, which keeps the order.
  // Its checks deferred: the pass reads its input and writes only registers (Note
  // [Deferred checks] in deferred_checks.cpp); a failure ends at `after_chunk`.
  BasicBlock *after_chunk = BasicBlock::Create(c, "chunk.done", f);
  on_fail_to(after_chunk);
  deferred(g, [&](bool) {
  set_acc_ne();
  BasicBlock *walked = BasicBlock::Create(c, "chunk.walked", f);
  // The segment's statements before its reduction (their failures as the chunk's).
  if (segs) {
    segs->setup(segment);
    std::vector<Value *> ne = segs->ne();
    for (size_t j = 0; j < kr; j++) b.CreateStore(ne[j], acc[j]);
  }
  if (comm) {
    Value *seg_lo = b.CreateMul(b.CreateMul(bidx, ntid), chunk);
    Value *seg_hi = b.CreateAdd(seg_lo, b.CreateMul(ntid, chunk));
    seg_hi = b.CreateSelect(b.CreateICmpSLT(seg_hi, n), seg_hi, n);
    if (lanes) {
      // Groups of kMapLanes elements of the block's part (it starts at a group: chunk
      // is a multiple of kMapLanes), thread t taking groups t, t + ntid, ..., when the
      // arrays are aligned (and long enough); then the rest of the part (its last
      // elements, or all of it) one at a time, interleaved.
      g.invariant_loads = true; // a reduction writes only its partial results
      Value *lanes_v = b.getInt64(kMapLanes);
      Value *fit = lanes_fit(g, *lanes, n);
      Value *len = b.CreateSub(seg_hi, seg_lo);
      len = b.CreateSelect(b.CreateICmpSGT(len, b.getInt64(0)), len, b.getInt64(0));
      Value *g_lo = b.CreateUDiv(seg_lo, lanes_v), *groups = b.CreateUDiv(len, lanes_v);
      Value *from = b.CreateSelect(fit, b.CreateAdd(seg_lo, b.CreateMul(groups, lanes_v)), seg_lo);
      BasicBlock *vec = BasicBlock::Create(c, "lanes.vector", f);
      BasicBlock *each = BasicBlock::Create(c, "lanes.each", f);
      b.CreateCondBr(fit, vec, each);
      b.SetInsertPoint(vec);
      g.stepped_range(b.CreateAdd(g_lo, tid), b.CreateAdd(g_lo, groups), ntid, each, [&](Value *q) {
        Value *at = b.CreateMul(q, lanes_v);
        load_lane_leaves(g, *lanes, at);
        for (int64_t j = 0; j < kMapLanes; j++) {
          Value *i = b.CreateAdd(at, b.getInt64(j));
          g.lane = int(j);
          g.lane_index = i;
          std::vector<Val> x = input_at(i);
          g.lane = -1;
          g.lane_index = nullptr;
          combine_into_acc(x);
        }
        g.lane_values.clear();
        g.lane_indexed.clear();
      }, false);
      g.stepped_range(b.CreateAdd(from, tid), seg_hi, ntid, walked,
                      [&](Value *i) { combine_into_acc(input_at(i)); }, false);
    } else {
      Value *first = b.CreateAdd(seg_lo, tid);
      // Elements first, first + ntid, ... below seg_hi: ceil((seg_hi - first) / ntid).
      Value *left = b.CreateSub(seg_hi, first);
      Value *count = b.CreateSDiv(b.CreateAdd(left, b.CreateSub(ntid, b.getInt64(1))), ntid);
      count = b.CreateSelect(b.CreateICmpSGT(count, b.getInt64(0)), count, b.getInt64(0));
      g.counted_range(b.getInt64(0), count, walked, [&](Value *k) {
        combine_into_acc(input_at(b.CreateAdd(first, b.CreateMul(k, ntid))));
      });
    }
  } else {
    g.counted_range(lo, hi, walked, [&](Value *i) { combine_into_acc(input_at(i)); });
  }
  });
  b.CreateBr(after_chunk);
  b.SetInsertPoint(after_chunk);
  for (size_t j = 0; j < kr; j++) store_shared(j, tid, b.CreateLoad(g.ops().reg_type(types[j]), acc[j]));
  barrier();

  {
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
    BasicBlock *after = cpu_next;
    Value *should = b.CreateAnd(b.CreateICmpEQ(tid, b.getInt64(0)),
                                b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed)));
    b.CreateCondBr(should, write, after);
    b.SetInsertPoint(write);
    if (segs && segs->finish) {
      // The segment's result: the rest of its element (a failure stops the thread).
      std::vector<Val> r;
      for (size_t j = 0; j < kr; j++) r.push_back(load_shared(j, tid));
      g.on_fail = [&b, after](Value *) { b.CreateBr(after); };
      segs->finish(segment, r);
      b.CreateBr(after);
    } else {
      for (size_t j = 0; j < kr; j++) {
        Value *dst = b.CreateIntToPtr(k.slot(bk.out_slots[j]), gptr);
        Value *v = b.CreateLoad(g.ops().mem_type(types[j]), shared_at(j, tid));
        b.CreateStore(v, g.element_addr(dst, out_at, types[j]));
      }
      b.CreateBr(after);
    }
  }
  end_blocks(k, ids);
}

void ProgramGen::block_prelude(KernelFn &k, Value *tid, bool prelude) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  // Prelude (see threads_kernel), uniform over the block so that no thread is left
  // waiting at a barrier: thread 0 reads the failure slot for the block.
  // Skipped when the host passes the slot as certainly clear: the same for every block,
  // so the barrier inside is reached by all threads or by none.
  BasicBlock *go = BasicBlock::Create(c, "prelude.run", f);
  if (prelude && may_fail()) {
    BasicBlock *look = BasicBlock::Create(c, "prelude.look", f);
    b.CreateCondBr(certainly_clear(b, k), go, look);
    b.SetInsertPoint(look);
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
      b.CreateStore(b.CreateLoad(b.getInt32Ty(), g.failure_slot(), true), flag);
      b.CreateBr(sync);
      b.SetInsertPoint(sync);
      b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
      code = b.CreateLoad(b.getInt32Ty(), flag, true);
    } else {
      code = b.CreateLoad(b.getInt32Ty(), g.failure_slot(), true);
    }
    b.CreateCondBr(b.CreateICmpEQ(code, b.getInt32(uint32_t(-1))), go, k.exit);
  } else {
    b.CreateBr(go);
  }
  b.SetInsertPoint(go);
}

ProgramGen::BlockIds ProgramGen::begin_blocks(KernelFn &k) {
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  BlockIds ids;
  if (gpu()) {
    ids.block = sreg(b, Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    ids.tid = sreg(b, Intrinsic::nvvm_read_ptx_sreg_tid_x);
    ids.ntid = sreg(b, Intrinsic::nvvm_read_ptx_sreg_ntid_x);
    ids.nblocks = sreg(b, Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    ids.after = k.exit;
    return ids;
  }
  // The launch's total number of blocks is in slots[-1] (see cpu_device.cpp).
  Value *slots = k.f->getArg(2);
  ids.nblocks = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), slots, b.getInt64(uint64_t(-1))));
  ids.ctr = g.entry_alloca(b.getInt64Ty());
  b.CreateStore(k.begin, ids.ctr);
  ids.head = BasicBlock::Create(c, "block.head", k.f);
  BasicBlock *work = BasicBlock::Create(c, "block.work", k.f);
  ids.after = BasicBlock::Create(c, "block.next", k.f);
  b.CreateBr(ids.head);
  b.SetInsertPoint(ids.head);
  ids.block = b.CreateLoad(b.getInt64Ty(), ids.ctr);
  b.CreateCondBr(b.CreateICmpSLT(ids.block, k.end), work, k.exit);
  b.SetInsertPoint(work);
  ids.tid = b.getInt64(0);
  ids.ntid = b.getInt64(1);
  return ids;
}

void ProgramGen::end_blocks(KernelFn &k, const BlockIds &ids) {
  if (gpu()) return;
  IRBuilder<> &b = k.g->builder();
  b.SetInsertPoint(ids.after);
  b.CreateStore(b.CreateAdd(ids.block, b.getInt64(1)), ids.ctr);
  b.CreateBr(ids.head);
}

// Note [Tiled block kernels]
// Scans (and, as Note [Warp-contiguous reductions] describes, reductions with an
// operator that is not known to be commutative) must combine the elements in order,
// yet a warp's loads must be coalesced. Each block takes a contiguous part of the
// input ([lo, hi), the same split in every launch of the statement) and walks it in
// tiles of nt * items elements (nt threads; items odd, so that thread t's run of
// `items` elements in shared memory starts in a different bank from its
// neighbours'). Per tile, in four phases that end with block barriers:
//   1. load, striped: thread t computes elements t, t + nt, ... (the fused maps and
//      their checks) and stores them in the tile in shared memory: coalesced;
//   2. per warp, with warp barriers only (the warp steps of Note [Warp-contiguous
//      reductions]): thread t folds its run t * items, ... (in order) into parts[t],
//      an inclusive Hillis-Steele scan of the warp's parts (two buffers), and the
//      warp's last thread writes the warp's total;
//   3. thread t rescans its run in the tile from running op the totals of the warps
//      before its own op the warp's scanned part of thread t - 1 (none for its first
//      thread); then running := running op the warps' totals (every thread alike);
//   4. the tile is stored, striped.
// (The scan of all nt parts in shared memory took 8 block barriers per tile.)
// A full tile loads and stores without bounds tests (unrolled, so that the loads are
// in flight together); the last, partial tile tests each element.
// Failures: every block barrier is an OR over the threads' `failed` flags
// (bar.red.or), and a block in which any thread failed leaves at once, all threads
// together; so no thread uses a value a failed thread did not write, and none waits at
// a barrier the others left (a warp step that can fail ends with a vote over its
// threads, and a warp in which one failed goes to the block barrier together). The
// running value is computed by every thread alike (uniform).
// Launches: reduce: the block's value goes to partial[block] (TiledReduce, then once
// more over the partials with one block). scan: TiledReduce gives the block totals;
// the last pass (TiledScan) first reduces the totals of the blocks before its own (a
// warp-contiguous reduction over at most 1024 values) and then scans its part from
// there.
//
// Note [Warp-contiguous reductions]
// A block-wide tile costs its reduction 2 + log2(nt) block barriers per tile (12 for
// 256 threads), at which the whole block waits for its slowest warp; nn's argmin ran at
// half the copy rate with barrier stalls. The reductions (TiledReduce, and the prefix
// of the scan's last pass) instead split the block's part [lo, hi) into nw contiguous
// runs, one per warp (w threads; 32 x 8 on the GPU, 4 x 2 emulated on the CPU). A warp
// walks its run alone in warp tiles of w * items elements, in its own slices of the
// shared arrays: load striped (coalesced), fold each thread's run of `items` in order,
// an order-preserving tree over the warp's parts (step st: thread l, l % 2st == 0,
// combines its part with l + st's), then every thread of the warp folds the tile's
// value into the warp's running value. Between the steps only warp barriers
// (bar.warp.sync); a step that can fail ends with a vote (vote.any.sync) over the
// threads' failed flags, and a warp in which one failed leaves its run, all threads
// together. At the end one block barrier (bar.red.or over the failed flags: a failed
// warp makes the whole block leave), after which every thread folds the warps' values
// in order into the running value (uniform). The same algorithm on the CPU runs the
// emulated warps one after the other.
// The CPU device runs the same phases over kCpuTileThreads emulated threads, one after
// the other, so the CPU corpus tests the tiling, the trees and the failure exits.
std::vector<Val> ProgramGen::block_input(FnGen &g, const core::Exp &e, const BlockKernel &bk, Value *i) {
  if (bk.partial_inputs.empty()) return g.rows_at(e.arrays, i);
  std::vector<Val> rows;
  for (size_t j = 0; j < bk.partial_inputs.size(); j++)
    rows.push_back(g.row_of(p_.var(e.arrays[j]).type.prim, bk.partial_inputs[j], i));
  return rows;
}

void ProgramGen::tiled_body(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                            BlockMode mode, Value *block, Value *tid, Value *nblocks,
                            AllocaInst *failed, BasicBlock *after, const SinglePassBlock *sp) {
  const core::Exp &e = s.exp;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Type *gptr = PointerType::get(c, gpu() ? 1 : 0);
  Type *i64 = b.getInt64Ty();
  size_t kr = s.pat.size();
  std::vector<PrimType> types;
  std::vector<Type *> mem;
  int64_t bytes = 0;
  for (int r : s.pat) {
    types.push_back(p_.var(r).type.prim);
    mem.push_back(g.ops().mem_type(types.back()));
    bytes += int64_t(out_.host->getDataLayout().getTypeAllocSize(mem.back()));
  }
  const int64_t nt = gpu() ? kGpuBlockThreads : kCpuTileThreads;
  // Whether the kernel has a failure path (a check in a fused map or the operator).
  bool can_fail = false;
  bool *cf = &can_fail;
  // Called once the kernel is made. Reductions: six blocks per SM (48 of 64 warps):
  // ptxas keeps the kernel to 40 registers (nn's argmin took 41 and fitted five; Note
  // [Warp-contiguous reductions]); eight (32 registers: 1024 blocks in one wave) for
  // elements of at most 4 bytes and no failure path (bench/scan.fut's scan_totals;
  // with checks ptxas spilled 32 bytes). Scans: five (48 registers; the scan of 2^26
  // i32 took 64 without). Not for elements of more than 12 bytes: tiled_sizes.fut's
  // product of 2 x 2 matrices (16 bytes) then spilled.
  auto launch_bounds = [&]() {
    if (!gpu() || bytes > 12) return;
    int per_sm = mode == BlockMode::TiledScan || sp ? 5 : bytes <= 4 && !can_fail ? 8 : 6;
    min_blocks_per_sm(kernel_module(), f, per_sm);
  };
  // Elements a thread takes per tile (SegOp::elems_per_thread: tile_items).
  const int64_t items = bk.items;
  const int64_t tile = nt * items;
  auto block_of = [&](const char *name) { return BasicBlock::Create(c, name, f); };

  // Warps (Note [Warp-contiguous reductions]): w threads each, nw per block.
  const int64_t w = gpu() ? 32 : 4, nw = nt / w;
  // Shared arrays, per result component: the tile, two buffers of per-thread parts and
  // the warps' values.
  struct Arr {
    Value *p;
    ArrayType *t;
  };
  auto make_arr = [&](const char *what, size_t j, int64_t count) {
    auto *t = ArrayType::get(mem[j], uint64_t(count));
    return Arr{shared_array(g, t, fmt::format("{}_{}{}", f->getName().str(), what, j), Align(16)), t};
  };
  std::vector<Arr> tl, pa, pb, wv, pf;
  for (size_t j = 0; j < kr; j++) {
    tl.push_back(make_arr("tile", j, tile));
    pa.push_back(make_arr("parts", j, nt));
    pb.push_back(make_arr("parts_b", j, nt));
    wv.push_back(make_arr("warps", j, nw));
    // SinglePass: the tile's exclusive prefix, from thread 0's look-back.
    if (sp) pf.push_back(make_arr("prefix", j, 1));
  }
  auto get = [&](const std::vector<Arr> &a, Value *i) {
    std::vector<Val> v;
    for (size_t j = 0; j < kr; j++) {
      Value *at = b.CreateGEP(a[j].t, a[j].p, {b.getInt64(0), i});
      v.push_back(Val{g.ops().from_mem(types[j], b.CreateLoad(mem[j], at)), nullptr, {}, {}});
    }
    return v;
  };
  auto put = [&](const std::vector<Arr> &a, Value *i, const std::vector<Val> &v) {
    for (size_t j = 0; j < kr; j++)
      b.CreateStore(g.ops().to_mem(types[j], v[j].scalar), b.CreateGEP(a[j].t, a[j].p, {b.getInt64(0), i}));
  };
  auto op = [&](std::vector<Val> x, const std::vector<Val> &y) {
    x.insert(x.end(), y.begin(), y.end());
    return g.apply(*e.lambda, x);
  };
  // Accumulators live in allocas (promoted to registers).
  auto new_acc = [&]() { return new_accs(g, types); };
  auto read_acc = [&](const std::vector<AllocaInst *> &a) { return read_accs(g, types, a); };
  auto write_acc = [&](const std::vector<AllocaInst *> &a, const std::vector<Val> &v) { write_accs(g, a, v); };
  std::vector<Val> ne;
  for (size_t j = 0; j < kr; j++)
    ne.push_back(Val{g.ops().from_slot(types[j], k.slot(bk.ne_slots[j])), nullptr, {}, {}});

  // A phase: every thread that has not failed runs body(t); then a barrier that tells
  // whether any thread failed, and if one did the whole block leaves.
  // `defer`: body(t) reads the input and writes what no thread reads in the phase; its
  // checks are deferred (Note [Deferred checks] in deferred_checks.cpp).
  auto phase = [&](const std::function<void(Value *)> &body0, bool defer = false) {
    std::function<void(Value *)> body = body0;
    if (defer) body = [&](Value *t) { deferred(g, [&](bool) { body0(t); }); };
    BasicBlock *run = block_of("phase.run"), *end = block_of("phase.end");
    b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), failed), end, run);
    b.SetInsertPoint(run);
    g.on_fail = [&b, failed, end, cf](Value *) {
      *cf = true;
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(end);
    };
    if (gpu()) {
      body(tid);
      b.CreateBr(end);
    } else {
      g.counted_range(b.getInt64(0), b.getInt64(nt), end, body);
    }
    b.SetInsertPoint(end);
    Value *any = b.CreateLoad(b.getInt1Ty(), failed);
    if (gpu()) {
      Function *bar_or = Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0_or);
      any = b.CreateICmpNE(b.CreateCall(bar_or, {b.CreateZExt(any, b.getInt32Ty())}), b.getInt32(0));
    }
    BasicBlock *next = block_of("phase.next");
    b.CreateCondBr(any, after, next);
    b.SetInsertPoint(next);
  };
  // Code every thread runs alike (on the CPU once per block); a failure is noticed at
  // the next phase.
  auto uniform = [&](const std::function<void()> &body) {
    BasicBlock *end = block_of("uniform.end");
    g.on_fail = [&b, failed, end, cf](Value *) {
      *cf = true;
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(end);
    };
    body();
    b.CreateBr(end);
    b.SetInsertPoint(end);
  };
  auto when = [&](Value *cond, const std::function<void()> &body) {
    BasicBlock *yes = block_of("when.yes"), *no = block_of("when.no");
    b.CreateCondBr(cond, yes, no);
    b.SetInsertPoint(yes);
    body();
    b.CreateBr(no);
    b.SetInsertPoint(no);
  };

  // The block's running value (reduce: so far; scan: the prefix before the tile).
  std::vector<AllocaInst *> running = new_acc();
  write_acc(running, ne);
  // On the GPU this thread's lane and warp.
  const int64_t wtile = w * items;
  Value *lane = nullptr, *warp = nullptr;
  if (gpu()) {
    lane = b.CreateAnd(tid, b.getInt64(w - 1));
    warp = b.CreateLShr(tid, b.getInt64(5));
  }
  // A warp step: body(lane) for each thread of the warp (or once, `lanes` false, on
  // the CPU), then a warp barrier; if a thread failed, the warp goes to `wfail`, all
  // its threads together.
  BasicBlock *wfail = nullptr;
  bool step_may_fail = false;
  // `defer` as for phase.
  auto wstep = [&](bool lanes, const std::function<void(Value *)> &body0, bool defer = false) {
    std::function<void(Value *)> body = body0;
    if (defer) body = [&](Value *l) { deferred(g, [&](bool) { body0(l); }); };
    BasicBlock *end = block_of("wstep.end");
    step_may_fail = false;
    bool *mf = &step_may_fail;
    g.on_fail = [&b, failed, end, cf, mf](Value *) {
      *mf = true;
      *cf = true;
      b.CreateStore(b.getTrue(), failed);
      b.CreateBr(end);
    };
    if (gpu()) {
      body(lane);
      b.CreateBr(end);
    } else if (lanes) {
      g.counted_range(b.getInt64(0), b.getInt64(w), end, body);
    } else {
      body(b.getInt64(0));
      b.CreateBr(end);
    }
    b.SetInsertPoint(end);
    g.on_fail = nullptr;
    if (gpu())
      b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_bar_warp_sync),
                   {b.getInt32(0xffffffffu)});
    if (!step_may_fail) return;
    Value *any = b.CreateLoad(b.getInt1Ty(), failed);
    if (gpu())
      any = b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_vote_any_sync),
                         {b.getInt32(0xffffffffu), any});
    BasicBlock *next = block_of("wstep.next");
    b.CreateCondBr(any, wfail, next);
    b.SetInsertPoint(next);
  };

  // GPU: a block barrier that tells whether any thread failed; if one did, the block
  // leaves.
  auto block_barrier_or_leave = [&]() {
    Function *bar_or = Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0_or);
    Value *any = b.CreateICmpNE(
        b.CreateCall(bar_or, {b.CreateZExt(b.CreateLoad(b.getInt1Ty(), failed), b.getInt32Ty())}),
        b.getInt32(0));
    BasicBlock *next = block_of("barrier.next");
    b.CreateCondBr(any, after, next);
    b.SetInsertPoint(next);
  };
  // running := running op the warps' values (wv) in order, every thread alike.
  auto fold_warps = [&]() {
    uniform([&] {
      g.counted_range(b.getInt64(0), b.getInt64(nw), nullptr,
                      [&](Value *wi) { write_acc(running, op(read_acc(running), get(wv, wi))); });
    });
  };
  Value *items_v = b.getInt64(items);
  // Tiles of `size` elements of [lo, hi): body(base, cnt, full) for base = lo, lo + size,
  // ..., with cnt = min(hi - base, size) and full = (cnt == size).
  auto tile_loop = [&](Value *lo, Value *hi, int64_t size, const std::string &name,
                       const std::function<void(Value *, Value *, Value *)> &body) {
    AllocaInst *basep = g.entry_alloca(i64);
    b.CreateStore(lo, basep);
    BasicBlock *head = block_of((name + ".head").c_str()),
               *work = block_of((name + ".body").c_str()),
               *done = block_of((name + ".done").c_str());
    b.CreateBr(head);
    b.SetInsertPoint(head);
    Value *base = b.CreateLoad(i64, basep);
    b.CreateCondBr(b.CreateICmpSLT(base, hi), work, done);
    b.SetInsertPoint(work);
    Value *rest = b.CreateSub(hi, base), *size_v = b.getInt64(size);
    Value *cnt = b.CreateSelect(b.CreateICmpSLT(rest, size_v), rest, size_v);
    body(base, cnt, b.CreateICmpEQ(cnt, size_v));
    b.CreateStore(b.CreateAdd(base, size_v), basep);
    b.CreateBr(head);
    b.SetInsertPoint(done);
  };
  // Striped over `stride` threads: thread t takes the tile's elements t, t + stride, ...
  // (`items` of them; coalesced), each(i) for those below cnt (unrolled when full).
  auto striped_by = [&](int64_t stride, Value *t, Value *cnt, Value *full, const std::string &name,
                        const std::function<void(Value *)> &each) {
    BasicBlock *fast = block_of((name + ".full").c_str()),
               *slow = block_of((name + ".part").c_str()),
               *join = block_of((name + ".done").c_str());
    b.CreateCondBr(full, fast, slow);
    b.SetInsertPoint(fast);
    for (int64_t j = 0; j < items; j++)
      each(b.CreateAdd(t, b.getInt64(j * stride)));
    b.CreateBr(join);
    b.SetInsertPoint(slow);
    g.counted_range(b.getInt64(0), items_v, join, [&](Value *jj) {
      Value *i = b.CreateAdd(t, b.CreateMul(jj, b.getInt64(stride)));
      when(b.CreateICmpSLT(i, cnt), [&] { each(i); });
    });
  };
  // Blocked: thread t's run in a tile of cnt elements, [first, first + m).
  auto run_in = [&](Value *t, Value *cnt) {
    Value *first = b.CreateMul(t, items_v);
    Value *m = b.CreateSub(cnt, first);
    m = b.CreateSelect(b.CreateICmpSLT(m, items_v), m, items_v);
    m = b.CreateSelect(b.CreateICmpSGT(m, b.getInt64(0)), m, b.getInt64(0));
    return std::make_pair(first, m);
  };
  auto scan_tiles = [&](Value *lo, Value *hi,
                        const std::function<std::vector<Val>(Value *)> &input) {
    tile_loop(lo, hi, tile, "tile", [&](Value *base, Value *cnt, Value *full) {
      // Striped: thread t takes tile elements t, t + nt, ... (coalesced).
      auto striped = [&](Value *t, const std::function<void(Value *)> &each) {
        striped_by(nt, t, cnt, full, "striped", each);
      };
      auto run_of = [&](Value *t) { return run_in(t, cnt); };
      phase([&](Value *t) {
        striped(t, [&](Value *i) { put(tl, i, input(b.CreateAdd(base, i))); });
      }, true);
      // Fold and scan per warp, with warp barriers only (Note [Tiled block kernels]).
      const std::vector<Arr> *src = &pa, *dst = &pb;
      BasicBlock *gend = block_of("wscan.end");
      wfail = gpu() ? gend : after;
      auto one_warp = [&](Value *wi) {
        Value *poff = b.CreateMul(wi, b.getInt64(w));
        wstep(true, [&](Value *l) {
          Value *t = b.CreateAdd(poff, l);
          auto [first, m] = run_of(t);
          std::vector<AllocaInst *> a = new_acc();
          write_acc(a, ne);
          g.counted_range(b.getInt64(0), m, nullptr, [&](Value *q) {
            write_acc(a, op(read_acc(a), get(tl, b.CreateAdd(first, q))));
          });
          put(pa, t, read_acc(a));
        });
        // An inclusive Hillis-Steele scan of the warp's parts (two buffers).
        src = &pa;
        dst = &pb;
        for (int64_t st = 1; st < w; st *= 2) {
          wstep(true, [&](Value *l) {
            Value *t = b.CreateAdd(poff, l);
            std::vector<AllocaInst *> a = new_acc();
            write_acc(a, get(*src, t));
            when(b.CreateICmpSGE(l, b.getInt64(st)),
                 [&] { write_acc(a, op(get(*src, b.CreateSub(t, b.getInt64(st))), read_acc(a))); });
            put(*dst, t, read_acc(a));
          });
          std::swap(src, dst);
        }
        // The warp's total, from its last thread.
        Value *last = b.CreateAdd(poff, b.getInt64(w - 1));
        if (gpu())
          when(b.CreateICmpEQ(lane, b.getInt64(w - 1)), [&] { put(wv, wi, get(*src, last)); });
        else
          put(wv, wi, get(*src, last));
      };
      if (gpu()) {
        one_warp(warp);
        b.CreateBr(gend);
        b.SetInsertPoint(gend);
        block_barrier_or_leave();
      } else {
        g.counted_range(b.getInt64(0), b.getInt64(nw), gend, one_warp);
      }
      if (sp) {
        // Single pass (Note [Single-pass scan] in scan_kernels.cpp): the warps' totals
        // folded into the tile's aggregate, which thread 0 publishes; a look-back for
        // the tile's exclusive prefix, which thread 0 shares; the block waits at the
        // phase's barrier (a failure there, or a failed predecessor, makes it leave).
        phase([&](Value *t) {
          // On the GPU the first warp's lanes read the window of statuses (all
          // compute the same aggregate and prefix); on the CPU thread 0.
          when(b.CreateICmpULT(t, b.getInt64(gpu() ? w : 1)), [&] {
            std::vector<AllocaInst *> agg = new_acc();
            write_acc(agg, ne);
            g.counted_range(b.getInt64(0), b.getInt64(nw), nullptr,
                            [&](Value *wi) { write_acc(agg, op(read_acc(agg), get(wv, wi))); });
            std::vector<Val> pre = single_pass_prefix(k, *sp, types, *e.lambda, ne, read_acc(agg));
            when(b.CreateICmpEQ(t, b.getInt64(0)), [&] { put(pf, b.getInt64(0), pre); });
          });
        });
        uniform([&] { write_acc(running, get(pf, b.getInt64(0))); });
      }
      // Thread t rescans its run from running op the totals of the warps before its own
      // op its warp's parts before its own.
      phase([&](Value *t) {
        Value *wi = b.CreateUDiv(t, b.getInt64(w)), *l = b.CreateURem(t, b.getInt64(w));
        std::vector<AllocaInst *> a = new_acc();
        write_acc(a, read_acc(running));
        g.counted_range(b.getInt64(0), wi, nullptr,
                        [&](Value *ww) { write_acc(a, op(read_acc(a), get(wv, ww))); });
        when(b.CreateICmpSGT(l, b.getInt64(0)),
             [&] { write_acc(a, op(read_acc(a), get(*src, b.CreateSub(t, b.getInt64(1))))); });
        auto [first, m] = run_of(t);
        g.counted_range(b.getInt64(0), m, nullptr, [&](Value *q) {
          Value *i = b.CreateAdd(first, q);
          write_acc(a, op(read_acc(a), get(tl, i)));
          put(tl, i, read_acc(a));
        });
      });
      fold_warps();
      phase([&](Value *t) {
        striped(t, [&](Value *i) {
          std::vector<Val> v = get(tl, i);
          Value *at = b.CreateAdd(base, i);
          for (size_t j = 0; j < kr; j++) {
            Value *dst_p = b.CreateIntToPtr(k.slot(bk.out_slots[j]), gptr);
            g.store_elem(types[j], v[j].scalar, g.element_addr(dst_p, at, types[j]));
          }
        });
      });
    });
  };

  // Order-preserving tree over the parts of the warp at pa[poff, poff + w): step st,
  // thread l (l % 2st == 0) combines its part with l + st's; the warp's value ends in
  // pa[poff].
  auto warp_tree = [&](Value *poff) {
    for (int64_t st = 1; st < w; st *= 2)
      wstep(true, [&](Value *l) {
        when(b.CreateICmpEQ(b.CreateAnd(l, b.getInt64(2 * st - 1)), b.getInt64(0)), [&] {
          Value *at = b.CreateAdd(poff, l);
          put(pa, at, op(get(pa, at), get(pa, b.CreateAdd(at, b.getInt64(st)))));
        });
      });
  };
  // one_warp(wi) for every warp (on the GPU each thread its own warp's; on the CPU the
  // warps in turn, leaving at `wexit` on a failure), then wv[wi] := value(wi) (on the GPU
  // from lane 0, then a block barrier that leaves if any thread failed) and running :=
  // running op the warps' values.
  auto over_warps = [&](BasicBlock *wexit, const std::function<void(Value *)> &one_warp,
                        const std::function<std::vector<Val>(Value *)> &value) {
    if (gpu()) {
      one_warp(warp);
      b.CreateBr(wexit);
      b.SetInsertPoint(wexit);
      when(b.CreateICmpEQ(lane, b.getInt64(0)), [&] { put(wv, warp, value(warp)); });
      block_barrier_or_leave();
    } else {
      g.counted_range(b.getInt64(0), b.getInt64(nw), wexit, [&](Value *wi) {
        one_warp(wi);
        put(wv, wi, value(wi));
      });
    }
    fold_warps();
  };

  // Reductions (Note [Warp-contiguous reductions]): the block's part [lo, hi) split into
  // nw contiguous runs, one per warp of w threads, each walked in warp tiles of
  // w * items elements with only warp barriers; then running := running op the warps'
  // values in order (every thread alike).
  auto warp_reduce = [&](Value *lo, Value *hi, const std::function<std::vector<Val>(Value *)> &input) {
    BasicBlock *wexit = block_of("warps.exit");
    // Where a warp goes when one of its threads failed: on the GPU to the block barrier
    // (all warps meet there and leave); on the CPU (one thread) out of the block.
    wfail = gpu() ? wexit : after;
    std::vector<AllocaInst *> wrun = new_acc();
    Value *wlen =
        b.CreateSDiv(b.CreateAdd(b.CreateSub(hi, lo), b.getInt64(nw - 1)), b.getInt64(nw));
    auto one_warp = [&](Value *wi) {
      write_acc(wrun, ne);
      Value *wlo = b.CreateAdd(lo, b.CreateMul(wi, wlen));
      wlo = b.CreateSelect(b.CreateICmpSLT(wlo, hi), wlo, hi);
      Value *whi = b.CreateAdd(wlo, wlen);
      whi = b.CreateSelect(b.CreateICmpSLT(whi, hi), whi, hi);
      Value *toff = b.CreateMul(wi, b.getInt64(wtile)), *poff = b.CreateMul(wi, b.getInt64(w));
      tile_loop(wlo, whi, wtile, "wtile", [&](Value *base, Value *cnt, Value *full) {
        // Load, striped over the warp: thread l takes elements l, l + w, ... (coalesced).
        wstep(true, [&](Value *l) {
          striped_by(w, l, cnt, full, "wload",
                     [&](Value *i) { put(tl, b.CreateAdd(toff, i), input(b.CreateAdd(base, i))); });
        }, true);
        // Fold, blocked: thread l its run of `items` elements, in order.
        wstep(true, [&](Value *l) {
          auto [first, m] = run_in(l, cnt);
          std::vector<AllocaInst *> a = new_acc();
          write_acc(a, ne);
          auto fold = [&](Value *q) {
            write_acc(a, op(read_acc(a), get(tl, b.CreateAdd(toff, b.CreateAdd(first, q)))));
          };
          // A full tile's runs unrolled (the shared loads issued together).
          BasicBlock *fast = block_of("wfold.full"), *slow = block_of("wfold.part"),
                     *join = block_of("wfold.done");
          b.CreateCondBr(full, fast, slow);
          b.SetInsertPoint(fast);
          for (int64_t q = 0; q < items; q++)
            fold(b.getInt64(q));
          b.CreateBr(join);
          b.SetInsertPoint(slow);
          g.counted_range(b.getInt64(0), m, join, fold);
          put(pa, b.CreateAdd(poff, l), read_acc(a));
        });
        warp_tree(poff);
        wstep(false, [&](Value *) { write_acc(wrun, op(read_acc(wrun), get(pa, poff))); });
      });
    };
    over_warps(wexit, one_warp, [&](Value *) { return read_acc(wrun); });
  };

  // A commutative operator (scan's block totals; reductions with one take the
  // Interleaved body): the order within the block's part does not matter, so thread t
  // folds the elements lo + t, lo + t + nt, ... read straight from global memory
  // (coalesced, no tile in shared memory), then the warps combine their threads' values
  // with the same tree and the block the warps' values.
  auto comm_reduce = [&](Value *lo, Value *hi, const std::function<std::vector<Val>(Value *)> &input) {
    BasicBlock *wexit = block_of("warps.exit");
    wfail = gpu() ? wexit : after;
    auto one_warp = [&](Value *wi) {
      Value *poff = b.CreateMul(wi, b.getInt64(w));
      wstep(true, [&](Value *l) {
        Value *t = b.CreateAdd(poff, l);
        Value *first = b.CreateAdd(lo, t);
        // Elements first, first + nt, ... below hi: ceil((hi - first) / nt), at least 0.
        Value *count = b.CreateSDiv(b.CreateAdd(b.CreateSub(hi, first), b.getInt64(nt - 1)), b.getInt64(nt));
        count = b.CreateSelect(b.CreateICmpSGT(count, b.getInt64(0)), count, b.getInt64(0));
        std::vector<AllocaInst *> a = new_acc();
        write_acc(a, ne);
        g.counted_range(b.getInt64(0), count, nullptr, [&](Value *j) {
          write_acc(a, op(read_acc(a), input(b.CreateAdd(first, b.CreateMul(j, b.getInt64(nt))))));
        });
        put(pa, t, read_acc(a));
      }, true);
      warp_tree(poff);
    };
    over_warps(wexit, one_warp, [&](Value *wi) { return get(pa, b.CreateMul(wi, b.getInt64(w))); });
  };

  // This block's part of the input (SinglePass: its tile).
  Value *len = sp ? b.getInt64(tile)
                  : b.CreateSDiv(b.CreateAdd(n, b.CreateSub(nblocks, b.getInt64(1))), nblocks);
  Value *lo = b.CreateMul(block, len);
  lo = b.CreateSelect(b.CreateICmpSLT(lo, n), lo, n);
  Value *hi = b.CreateAdd(lo, len);
  hi = b.CreateSelect(b.CreateICmpSLT(hi, n), hi, n);
  auto input = [&](Value *i) { return block_input(g, e, bk, i); };
  if (sp) {
    scan_tiles(lo, hi, input);
    b.CreateBr(after);
    launch_bounds();
    return;
  }
  if (mode == BlockMode::TiledScan) {
    // The prefix: the totals of the blocks before this one.
    std::vector<Value *> totals;
    for (size_t j = 0; j < kr; j++) totals.push_back(b.CreateIntToPtr(k.slot(bk.extra_slots[j]), gptr));
    warp_reduce(b.getInt64(0), block, [&](Value *i) {
      std::vector<Val> r;
      for (size_t j = 0; j < kr; j++)
        r.push_back(Val{g.load_elem(types[j], g.element_addr(totals[j], i, types[j])), nullptr, {}, {}});
      return r;
    });
    scan_tiles(lo, hi, input);
    b.CreateBr(after);
    launch_bounds();
    return;
  }
  if (bk.comm)
    comm_reduce(lo, hi, input);
  else
    warp_reduce(lo, hi, input);
  // One thread writes the block's value (unless the block failed).
  Value *should = b.CreateNot(b.CreateLoad(b.getInt1Ty(), failed));
  if (gpu()) should = b.CreateAnd(should, b.CreateICmpEQ(tid, b.getInt64(0)));
  when(should, [&] {
    std::vector<Val> v = read_acc(running);
    for (size_t j = 0; j < kr; j++) {
      Value *dst = b.CreateIntToPtr(k.slot(bk.out_slots[j]), gptr);
      g.store_elem(types[j], v[j].scalar, g.element_addr(dst, block, types[j]));
    }
  });
  b.CreateBr(after);
  launch_bounds();
}

} // namespace kerb::codegen
