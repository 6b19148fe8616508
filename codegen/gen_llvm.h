// LLVM code generation for a core program (compiler/core_ir.h): the host code of every
// entry point (x86-64, run through the JIT) and the kernels (NVPTX for the CUDA device,
// x86-64 for the CPU device).
//
// Kernel extraction happens here, statement by statement: a top-level Map becomes a
// one-thread-per-element kernel whose lambda runs sequentially in the thread; a Reduce
// becomes a block-level kernel run twice (per-block partial results over contiguous
// chunks, then one block over the partials); Iota and Replicate become small map
// kernels. Everything else at the top level (scalars, control flow, array literals,
// single-element reads and writes) is host code.
//
// The host code talks to the device through the C functions of runtime/device_abi.h;
// kernels and host code exchange arguments as 8-byte slots (see that header). Failures
// follow DESIGN.md's protocol: a failing thread claims the failure slot with a
// compare-and-swap and writes its arguments; the host looks at the slot at sync points.
#pragma once

#include "compiler/core_ir.h"
#include "runtime/device_abi.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kerb::codegen {

enum class Target : uint8_t { Cpu, Cuda };

// How checks compile (the command line's --deferred-checks).
struct GenOptions {
  // Kernel threads defer their load and division checks (Note [Deferred checks] in
  // deferred_checks.cpp); false: every check branches to its failure where it stands.
  bool deferred_checks = true;
  // How a deferred bounds check guards its load on the GPU (Note [Deferred loads] in
  // deferred_checks.cpp): a predicated load, the address selected to a fallback, or the
  // select in the bodies of for-loops only.
  enum class Loads : uint8_t { Predicated, Select, ForLoops };
  Loads deferred_loads = Loads::Predicated;
  // A map whose lambda reduces, scans and maps over rows runs one block per row when
  // the row has at least this many elements (Strategy::RowBlock; the command line's
  // --row-block-min=N; a negative value: never).
  int64_t row_block_min = 64;
  // A scan of one scalar of at most 32 bits runs in one pass (Strategy::SinglePass, its
  // tile in registers) when it has at least this many elements (--scan-single-pass-min=N;
  // a negative value: never, reduce-then-scan). On the H100 (bench/results/
  // 2026-11-26-scan-vectors-h100) scan.fut's 2^26 i32 took 0.2321 ms in one pass against
  // 0.3157 ms reduce-then-scan (torch.cumsum 0.2607).
  int64_t scan_single_pass_min = 1;
  // ... and a scan of wider scalars or of tuples (its tile in shared memory) when it has
  // at least this many (--scan-single-pass-wide-min=N): off by default, not measured
  // faster (the shared-memory tile took 0.331 ms on the same i32 scan in an earlier run).
  int64_t scan_single_pass_wide_min = -1;
  // The one pass in registers reads and writes whole tiles 16 bytes at a time where the
  // arrays are aligned (Note [Single-pass tiles in registers]; --scan-vectors=off: one
  // element at a time, for measuring).
  bool scan_vectors = true;
  // ... and reads each row from global memory once, into shared memory, when its rows
  // have at most this many elements (a version of its own, Strategy::RowCached; the
  // command line's --row-cache-max=N; at most what kRowCacheBytes holds; a negative
  // value: never).
  int64_t row_cache_max = 4096;
  // Three nested maps whose inner element reduces run one block per outer element with
  // the element's arrays in shared memory when each has at most this many elements (a
  // version of its own, Strategy::Staged; the command line's --stage-max=N; at most what
  // kStageBytes holds; a negative value: never).
  int64_t stage_max = 1024;
  // ... when an outer element has at least this many outputs (--stage-min-outputs=N;
  // fewer leave most of a block's threads idle, or its copies hold few elements).
  int64_t stage_min_outputs = 64;
  // A map whose lambda reduces, scans and maps over rows also runs a warp per row (eight rows a block) when its rows have at most this many
  // elements (Strategy::RowWarp; --row-warp-max=N; a negative value: never).
  int64_t row_warp_max = 1024;
  // ... and also for longer rows (of any length, copies aside) when there are at least
  // this many rows (--row-warp-rows=N; a negative value: never): then the warps fill
  // the GPU and a warp per row beats a block per row (N-body's 2^15 rows of 2^15 on the
  // H100: 2.16 ms against 3.01, bench/results/2026-11-26-nested-h100).
  int64_t row_warp_rows = 16384;
  // A map over n x p whose element reduces a map over k reading arrays at [i, k] and
  // [k, j] runs in block and register tiles when n and p are at least this (Strategy::
  // BlockTiled; the command line's --block-tile-min=N; a negative value: never).
  int64_t block_tile_min = 32;
  // A map whose threads each run a loop over consecutive elements of arrays from a
  // per-thread start (CSR rows: `vals[s + j]`) runs at most this many blocks an SM on
  // the GPU (Kernel::max_blocks_per_sm, Note [Loops over rows, fewer threads] in
  // extract_kernels.cpp; --loop-blocks-per-sm=N; 0: as many as keep a line of each row
  // in the L1, `auto`; a negative value: no bound).
  int64_t loop_blocks_per_sm = 0;
};

struct GeneratedProgram {
  // The host module: one `i32 kerb_entry_NAME(ptr ctx, ptr in, ptr out)` per entry
  // point; on the CPU target it also holds the kernels.
  std::unique_ptr<llvm::LLVMContext> host_context;
  std::unique_ptr<llvm::Module> host;
  // The CUDA target's kernels (NVPTX), in their own context.
  std::unique_ptr<llvm::LLVMContext> kernel_context;
  std::unique_ptr<llvm::Module> kernels;
  std::vector<KernelDesc> kernel_descs; // indexed by kernel id
  std::vector<std::string> kernel_names;

  GeneratedProgram();
  ~GeneratedProgram();
  GeneratedProgram(GeneratedProgram &&) noexcept;
  GeneratedProgram &operator=(GeneratedProgram &&) noexcept;
};

// Throws CompileError for a construct the code generator does not handle yet.
GeneratedProgram generate_llvm(const core::Program &program, Target target, GenOptions opts = {});

// The symbol of an entry point's host function.
std::string entry_symbol(const std::string &entry);

} // namespace kerb::codegen
