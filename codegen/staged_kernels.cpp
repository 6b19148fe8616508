// Small elements staged in shared memory (see program_gen.h, ProgramGen::staged_map): the
// kernel of Strategy::Staged, the version of three nested maps whose inner element
// reduces (batched small matrix products) that runs one block per outer element and
// copies the element's arrays into shared memory before its threads compute the
// element's outputs from the copies. Kernel extraction (extract_kernels.cpp,
// staged_version) picks the arrays and the bound; this file makes the kernel and its
// guard.
//
// Note [Small elements staged in shared memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A batch of small products, `map2 (\a b -> map (\r -> map (\c -> reduce (+) 0 (map2
// (*) r c)) (transpose b)) a) as bs` over 2^16 pairs of 16 x 16 f32, moves 192 MB and
// computes little: it should run at the copy rate. The 2-D tiles of Note [Three nested
// maps] (thread_kernels.cpp) give each thread four outputs of a column and read a and
// b from global memory at every step of the reductions: each element of a is loaded by
// 16 threads and each of b by 4, through L1, at 0.49x of JAX on the H100. Here block
// B takes E consecutive outer elements, first = B * E, ..., first + count - 1 (count =
// E but in the last block), E as many as every copy holds (stage_max / the element's
// size of each staged array, at most kStagedMaxPerBlock = 8; 16 x 16 f32: 4), chosen
// on the host:
//   1. the staged arrays (SegOp::staged: the outer lambda's parameters that are arrays
//      it reads, not rows of a map fused into the outer one) are copied into shared
//      memory: element first + x of array j at x * total_j of its copy (total_j: an
//      element's size), row-major. The E elements of a contiguous array are one
//      contiguous run, so thread t copies elements t, t + nt, ... of the run
//      (coalesced), every staged array's element loaded before any is stored and
//      kStageUnroll indices at a time, so that a thread's loads are in flight together
//      (16 x 16 f32: four of each array a thread, 8 KB a block); a view whose elements
//      are not contiguous is read through its strides. A copy reads only indices below
//      its array's size and cannot fail.
//   2. a block barrier; loads after it are not marked invariant (the kernel wrote the
//      copies).
//   3. the block's outputs, count * mw * max(w, 1) of them (mw middle elements, w inner
//      ones), are striped over the threads: thread t takes outputs t, t + nt, ...,
//      output q being output r = q % outputs of element x = q / outputs, middle element
//      r / max(w, 1) and inner element r % max(w, 1) (by magic numbers, in 32 bits). It
//      binds the element's parameters (the staged ones to their copies, shapes
//      unchanged: every bounds check tests what it tested before and fails alike), runs
//      the outer lambda's statements (views such as `transpose b`, of the copy), binds
//      the middle element's rows, runs the middle lambda's statements and, when the
//      inner element is in range, computes it (its reduction sequential in the thread)
//      and stores it. Consecutive threads store consecutive outputs and read the copies
//      at neighbouring addresses (b's column: b[k, j] for consecutive j) or at one
//      address (a's row: a broadcast).
// Failures: a thread that fails a check (step 3) records it and leaves; no barrier
// follows step 2, so the others run on. The block prelude (uniform over the block)
// comes before the copies. When several elements fail, the failure reported is that of
// some failing element, as with the tiles (docs/CHECKS.md).
// The guard (Guard::StagedFit, tested on the host): each staged array's element has
// at most SegOp::stage_max elements (GenOptions::stage_max, `--stage-max=N`, default
// 1024, fewer where kStageBytes = 16 KB would not hold every copy at that size: the
// copies are static shared arrays, since a launch gives no dynamic shared memory), and
// an outer element has GenOptions::stage_min_outputs (`--stage-min-outputs=N`, default
// 64) to kStagedMaxOutputs (2^24) outputs: with fewer most of a block's 256 threads
// would idle or its copies hold few elements (the tiles spread such elements over the
// whole grid; 64 is a guess, measured only at 256), and the output index is 32-bit
// arithmetic. Otherwise the tiles run.
// On the CPU device a block is one thread: the copies live on its stack and it computes
// every output of its elements in turn, so that CI runs the same statements and checks.
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

// Indices of the copy a thread loads before it stores them.
constexpr int64_t kStageUnroll = 4;

} // namespace

void ProgramGen::staged_map(const SegOp &op, size_t v) {
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
  Value *mw = h.ops().to_i64(h.prim_of(op.middle->exp.args[0]), h.scalar(op.middle->exp.args[0]));
  Value *w = h.ops().to_i64(h.prim_of(op.inner->exp.args[0]), h.scalar(op.inner->exp.args[0]));
  Value *w1 = hb.CreateSelect(hb.CreateICmpSGT(w, h.i64(0)), w, h.i64(1));
  // (Each factor bounded first, so that the product is exact.)
  Value *lim = h.i64(kStagedMaxOutputs);
  Value *outputs = hb.CreateMul(mw, w1);
  Value *fits = hb.CreateAnd(hb.CreateICmpSLE(mw, lim), hb.CreateICmpSLE(w1, lim));
  fits = hb.CreateAnd(fits, hb.CreateAnd(hb.CreateICmpSGE(outputs, h.i64(op.stage_min_outputs)),
                                         hb.CreateICmpSLE(outputs, lim)));
  // The elements a block: as many as every copy holds, at most kStagedMaxPerBlock.
  Value *per = h.i64(kStagedMaxPerBlock);
  for (size_t j : op.staged) {
    const Val &a = h.lookup(e.arrays[j]);
    // The element's elements, each dim bounded first.
    Value *elems = h.i64(1);
    for (size_t d = 1; d < a.dims.size(); d++) {
      fits = hb.CreateAnd(fits, hb.CreateICmpSLE(a.dims[d], h.i64(op.stage_max)));
      elems = hb.CreateMul(elems, a.dims[d]);
    }
    fits = hb.CreateAnd(fits, hb.CreateICmpSLE(elems, h.i64(op.stage_max)));
    Value *holds = hb.CreateUDiv(h.i64(op.stage_max), hb.CreateSelect(hb.CreateICmpSGT(elems, h.i64(0)), elems,
                                                                     h.i64(1)));
    per = hb.CreateSelect(hb.CreateICmpULT(holds, per), holds, per);
  }
  per = hb.CreateSelect(hb.CreateICmpSGT(per, h.i64(0)), per, h.i64(1));
  BasicBlock *staged = BasicBlock::Create(c, "staged", h.function());
  BasicBlock *other = BasicBlock::Create(c, "staged.other", h.function());
  BasicBlock *join = BasicBlock::Create(c, "staged.done", h.function());
  hb.CreateCondBr(fits, staged, other);
  hb.SetInsertPoint(staged);
  SlotList sl;
  size_t first_out = add_block_map_slots(op, sl);
  // An element's items: groups of kTileRows middle elements (the last may be short) at
  // each column, ceil(max(mw, 1) / kTileRows) * max(w, 1) of them.
  Value *mw1 = hb.CreateSelect(hb.CreateICmpSGT(mw, h.i64(0)), mw, h.i64(1));
  Value *items = hb.CreateMul(hb.CreateUDiv(hb.CreateAdd(mw1, h.i64(kTileRows - 1)), h.i64(kTileRows)), w1);
  StagedSlots z;
  z.per = add_raw(sl, per);
  z.outputs = add_raw(sl, items);
  auto [om, ol] = h.ops().magic_divisor(items);
  add_raw(sl, om);
  add_raw(sl, ol);
  z.width = add_raw(sl, w1);
  auto [wm, wl] = h.ops().magic_divisor(w1);
  add_raw(sl, wm);
  add_raw(sl, wl);
  KernelFn k = new_kernel(kr.name, sl.host_values.size() + 1, KernelDesc{KernelDesc::Blocks, 0});
  int id = int(out_.kernel_descs.size()) - 1;
  bind_kernel_args(k, sl);
  std::vector<Val> outs;
  for (size_t j = 0; j < s.pat.size(); j++) outs.push_back(k.g->lookup(sl.args[first_out + j].var));
  staged_body(k, op, outs, z, kr.prelude);
  emit_launch(id, hb.CreateUDiv(hb.CreateAdd(n, hb.CreateSub(per, h.i64(1))), per), sl);
  hb.CreateBr(join);
  hb.SetInsertPoint(other);
  flat_map_kernel(op);
  hb.CreateBr(join);
  hb.SetInsertPoint(join);
}

void ProgramGen::staged_body(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, const StagedSlots &z,
                             bool prelude) {
  const core::Stm &s = *op.stm, &mid = *op.middle, &in = *op.inner;
  const core::Exp &e = s.exp;
  const core::Lambda &l = *e.lambda;
  FnGen &g = *k.g;
  IRBuilder<> &b = g.builder();
  LLVMContext &c = b.getContext();
  Function *f = k.f;
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  g.invariant_loads = true;

  BlockIds ids = begin_blocks(k);
  // (On the GPU the block's threads are kGpuBlockThreads, a constant for LLVM.)
  Value *tid = ids.tid, *ntid = gpu() ? b.getInt64(kGpuBlockThreads) : ids.ntid;
  block_prelude(k, tid, prelude);
  // A failing thread leaves (no barrier follows the copies).
  g.on_fail = [&b, &ids](Value *) { b.CreateBr(ids.after); };
  // The block's elements: first, first + 1, ..., first + count - 1.
  Value *per = k.slot(z.per);
  Value *first = b.CreateMul(ids.block, per);
  Value *n = outs[0].dims[0];
  Value *left = b.CreateSub(n, first);
  Value *count = b.CreateSelect(b.CreateICmpULT(left, per), left, per);

  // 1. The copies of the staged arrays' elements first, ..., first + count - 1: element
  // first + x of array j at x * total_j of its copy.
  std::vector<Val> rows = g.rows_at(e.arrays, first);
  struct Copy {
    PrimType t;
    Val src;              // the first element's view
    int array;            // the map's array
    Value *base, *total;  // the copy; one element's elements
    Value *all;           // the block's elements' elements: total * count
  };
  std::vector<Copy> copies;
  Value *longest = b.getInt64(0);
  for (size_t j : op.staged) {
    PrimType t = p_.var(l.params[j]).type.prim;
    auto *arr = ArrayType::get(g.ops().mem_type(t), uint64_t(op.stage_max));
    Value *base = shared_array(g, arr, fmt::format("{}_stage_{}", f->getName().str(), j), Align(16));
    Value *total = g.product(rows[j].dims);
    Value *all = b.CreateMul(total, count);
    copies.push_back(Copy{t, rows[j], e.arrays[j], base, total, all});
    longest = b.CreateSelect(b.CreateICmpUGT(all, longest), all, longest);
  }
  // Element i of a copy's source: contiguous elements of a contiguous array follow
  // one another; otherwise element i / total's view at i % total, row-major.
  auto source_addr = [&](const Copy &cp, Value *i) {
    if (cp.src.contiguous() && g.lookup(cp.array).contiguous()) return g.element_addr(cp.src.addr, i, cp.t);
    Value *x = b.CreateUDiv(i, cp.total);
    Val src = g.rows_at({cp.array}, b.CreateAdd(first, x))[0];
    std::vector<Value *> idx(src.dims.size());
    Value *rem = b.CreateURem(i, cp.total);
    for (size_t d = src.dims.size(); d-- > 0;) {
      idx[d] = d ? b.CreateURem(rem, src.dims[d]) : rem;
      if (d) rem = b.CreateUDiv(rem, src.dims[d]);
    }
    return g.element_addr(src.addr, g.offset_of(src, idx), cp.t);
  };
  g.strided_range(
      tid, longest, ntid, kStageUnroll, nullptr,
      [&](Value *i) {
        // Every copy's element i (where it has one), then the uses store them.
        std::vector<Val> v{Val{i, nullptr, {}, {}}};
        for (const Copy &cp : copies) {
          BasicBlock *from = b.GetInsertBlock();
          BasicBlock *load = BasicBlock::Create(c, "stage.load", f), *next = BasicBlock::Create(c, "stage.next", f);
          b.CreateCondBr(b.CreateICmpULT(i, cp.all), load, next);
          b.SetInsertPoint(load);
          Value *x = g.load_elem(cp.t, source_addr(cp, i));
          BasicBlock *loaded = b.GetInsertBlock();
          b.CreateBr(next);
          b.SetInsertPoint(next);
          PHINode *phi = b.CreatePHI(x->getType(), 2);
          phi->addIncoming(x, loaded);
          phi->addIncoming(Constant::getNullValue(x->getType()), from);
          v.push_back(Val{phi, nullptr, {}, {}});
        }
        return v;
      },
      [&](const std::vector<Val> &v) {
        Value *i = v[0].scalar;
        for (size_t q = 0; q < copies.size(); q++) {
          const Copy &cp = copies[q];
          g.when(b.CreateICmpULT(i, cp.all),
                 [&] { g.store_elem(cp.t, v[q + 1].scalar, g.element_addr(cp.base, i, cp.t)); });
        }
      });
  // 2. The barrier; from here loads are not invariant (the kernel wrote the copies).
  if (gpu()) b.CreateCall(Intrinsic::getDeclaration(&kernel_module(), Intrinsic::nvvm_barrier0));
  g.invariant_loads = false;

  // 3. The block's items, striped: item q of the block is item r = q % items of its
  // element x = q / items, middle elements (r / max(w, 1)) * kTileRows + u, u <
  // kTileRows, at column r % max(w, 1) (in i32: q < kStagedMaxPerBlock * 2^24, the
  // guard's), as one thread of the tiles computes them (nested3_group).
  Value *w = g.ops().to_i64(g.prim_of(in.exp.args[0]), g.scalar(in.exp.args[0]));
  Value *mw = g.ops().to_i64(g.prim_of(mid.exp.args[0]), g.scalar(mid.exp.args[0]));
  Value *items = k.slot(z.outputs), *om = k.slot(z.outputs + 1), *ol = k.slot(z.outputs + 2);
  Value *w1 = k.slot(z.width), *wm = k.slot(z.width + 1), *wl = k.slot(z.width + 2);
  const core::Body *saved = g.cur_body_;
  g.cur_body_ = &l.body;
  g.strided_range(
      tid, b.CreateMul(items, count), ntid, 1, nullptr,
      [&](Value *q) { return std::vector<Val>{Val{q, nullptr, {}, {}}}; },
      [&](const std::vector<Val> &v) {
        Value *q = b.CreateTrunc(v[0].scalar, i32);
        Value *x32 = g.ops().magic_div(q, om, ol);
        Value *r = b.CreateSub(q, b.CreateMul(x32, b.CreateTrunc(items, i32)));
        Value *gi = g.ops().magic_div(r, wm, wl);
        Value *x = b.CreateZExt(x32, i64);
        Value *mu0 = b.CreateZExt(b.CreateMul(gi, b.getInt32(kTileRows)), i64);
        Value *j = b.CreateZExt(b.CreateSub(r, b.CreateMul(gi, b.CreateTrunc(w1, i32))), i64);
        Value *ou = b.CreateAdd(first, x);
        // The element's parameters: the staged ones its copies.
        nested3_group(k, op, outs, ou, mu0, j, w, mw, b.getInt64(kTileRows), [&] {
          std::vector<Val> xs = g.rows_at(e.arrays, ou);
          for (size_t p = 0; p < xs.size(); p++) g.bind(l.params[p], xs[p]);
          for (size_t c2 = 0; c2 < copies.size(); c2++) {
            const Copy &cp = copies[c2];
            g.bind(l.params[op.staged[c2]],
                   Val{nullptr, g.element_addr(cp.base, b.CreateMul(x, cp.total), cp.t), cp.src.dims, {}});
          }
        });
      });
  g.cur_body_ = saved;
  b.CreateBr(ids.after);
  end_blocks(k, ids);
  g.on_fail = nullptr;
}

} // namespace kerb::codegen
