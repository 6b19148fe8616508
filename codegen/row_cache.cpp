// Rows in shared memory (Strategy::RowCached): the version of a one-block-per-row map
// (row_block_kernels.cpp) that reads each row its inner operations read more than once
// from global memory once, into shared memory, and runs every inner operation over
// that copy. Kernel extraction (extract_kernels.cpp, row_cache_version) picks the rows
// and the bound; row_block_map guards the version; this file makes the copies.
//
// Note [Rows in shared memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// One block per row (Note [One block per row] in row_block_kernels.cpp) reads its row
// from global memory once per inner operation: softmax reads it for its maximum, again
// for the sum of exponentials (a map fused into the reduction) and again for the
// division (the same map fused into the last one), three reads and a write of every
// element where a copy does a read and a write (on the H100, 65536 rows of 1024 f32:
// 0.339 ms against PyTorch's 0.187). Here the block first copies such a row into shared
// memory, thread t elements t, t + nt, ... (coalesced, kRowBlockUnroll loads in
// flight), then a block barrier, and binds the lambda's parameter to the copy: every
// later read of the row, by any inner operation or scalar statement at any index (a
// gather too), reads shared memory. The copy has the row's length as its shape, so
// every bounds check tests what it tested before and fails alike; the copy itself
// reads only indices below the row's length and cannot fail.
// Which rows: the lambda's parameters that are rows of scalars (rank 1) and that two or
// more of its block-level operations read, directly or through the maps fused into
// them (softmax, layer normalisation: three; a prefix sum, read once, gets no version:
// the copy would only add a pass through shared memory and a barrier). Not the rows
// of a map fused into the outer map's arrays (the host knows no length of them), and
// not where a branch or loop of the lambda yields arrays (their slots hold global
// addresses).
// The bound: the copies are static shared arrays (a launch gives no dynamic shared
// memory), of row_cache_max elements each: GenOptions::row_cache_max
// (`--row-cache-max=N`, default kRowCacheMaxWidth = 4096) or fewer, so that all of a
// kernel's copies together take at most kRowCacheBytes = 32 KB (4096 f32 take 16 KB: a
// block of 256 threads stays at 8 blocks an SM, as many as its threads allow). The
// version's guard (Guard::RowCacheFit) tests every cached row's length on the host;
// longer rows take the plain one-block-per-row version, which follows it.
// The intermediate arrays of the row stay computed where read (softmax's `es` is
// computed in both its readers), now from the copy: an exponential more per element,
// no memory traffic. The copies are written in the kernel, so loads after them are no
// longer marked invariant (LLVM may move an invariant load above the stores, or take
// it for the undefined contents of a fresh stack array on the CPU); the rows still in
// global memory are then read with plain loads.
// Registers instead of shared memory (thread t keeping its ceil(w / nt) elements)
// would save the barrier and the shared loads, but only where every read is at the
// operation's own index; a gather at any index of the row (an index computed in the
// lambda, as in the corpus's tests) needs the whole row where every thread can read
// it.
// On the CPU device (one thread a block) the copy is an array on the thread's stack, so
// that CI runs the same statements over the copy.
#include "codegen/program_gen.h"

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace kerb::codegen {

using namespace llvm;
using llvm::Type;
using llvm::Value;

std::vector<Val> ProgramGen::cache_rows(KernelFn &k, const SegOp &op, const std::vector<Val> &rows, Value *tid,
                                        Value *ntid, int64_t bound, int64_t copies, Value *slot, int64_t unroll) {
  const core::Lambda &l = *op.stm->exp.lambda;
  FnGen &g = *k.g;
  std::vector<Val> views;
  for (size_t j : op.cached_rows) {
    int x = l.params[j];
    PrimType t = p_.var(x).type.prim;
    auto *arr = ArrayType::get(g.ops().mem_type(t), uint64_t(bound * copies));
    Value *copy = shared_array(g, arr, fmt::format("{}_row_copy_{}", k.f->getName().str(), j), Align(16));
    if (slot) copy = g.element_addr(copy, g.builder().CreateMul(slot, g.i64(bound)), t);
    Value *w = rows[j].dims[0];
    g.strided_range(tid, w, ntid, unroll, nullptr,
                    [&](Value *i) {
                      std::vector<Val> v = g.rows_at({x}, i);
                      v.push_back(Val{i, nullptr, {}, {}});
                      return v;
                    },
                    [&](const std::vector<Val> &v) {
                      g.store_elem(t, v[0].scalar, g.element_addr(copy, v[1].scalar, t));
                    });
    views.push_back(Val{nullptr, copy, {w}, {}});
  }
  return views;
}

} // namespace kerb::codegen
