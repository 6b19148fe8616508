// The kernel IR: what each entry point of a core program becomes on the device, between
// the core IR and LLVM. Host code (its blocks, branches and loops, as in the core IR)
// holds segmented operations (maps, reductions, scans, histograms, scatters; iota and
// replicate), each with where it runs (its level), the space of its iterations, the
// maps computed inside it (fusion), the strategy chosen for it with its parameters, and
// the kernels it launches, in versions that the host chooses among at run time.
//
// codegen/extract_kernels.cpp builds it from the core IR (every choice of which
// statements become kernels and how they run is made there: Note [Kernel extraction]);
// the LLVM emitters (program_gen.cpp, thread_kernels.cpp, block_kernels.cpp,
// row_block_kernels.cpp, tiled_kernels.cpp) read it
// and decide nothing of that kind; `kerb check --emit=kernels` prints it
// (print_kernels, kernel_ir.cpp). docs/CODEGEN.md describes the pipeline.
//
// Levels: every operation the host launches is a grid-level one (the whole grid works
// on it). The operations inside an element's body (a reduction in a map's lambda) run
// at the thread level, sequentially in the element's thread (SegOp::body), or, in a
// map's one-block-per-row version (Strategy::RowBlock), at the block level: the
// block's threads cooperate on each (SegOp::block_body). Warp-level ones are not made
// yet.
#pragma once

#include "codegen/gen_llvm.h"
#include "compiler/core_ir.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kerb::codegen {

// ---- parameters of the strategies (Note [Kernel extraction] in extract_kernels.cpp)

// Elements a thread takes in a map of straight-line scalar code (lanes), and the group
// a commutative reduction reads with one vector load.
constexpr int64_t kMapLanes = 4;
// Rows a thread of a 2-D tile takes when the inner element is straight-line code and
// there are at least kTileRowsMin rows (Note [Rows per thread] in thread_kernels.cpp).
constexpr int64_t kTileRows = 4;
constexpr int64_t kTileRowsMin = 64;
// Blocks an SM asked of ptxas for the 32-bit kernel of several rows a thread: 8 x 256
// threads, at most 32 registers (Note [Rows per thread], the last paragraph).
constexpr int64_t kTileRowsBlocksPerSm = 8;
// A map whose lambda reduces runs as a segmented reduction for at most this many
// segments (and across rows for at most kSegRedRowsMaxSegments), when the runtime
// gives the reduction more than one block.
constexpr int64_t kSegRedMaxSegments = 16384;
constexpr int64_t kSegRedRowsMaxSegments = 64;
// Histograms in shared memory (Note [Histograms in shared memory] in
// thread_kernels.cpp): blocks per multiprocessor and updates a thread reads before it
// applies them, for cheap updates and for wide ones (a gather, a loop, a division).
constexpr int64_t kSharedHistBlocksPerSm = 2;
constexpr int64_t kSharedHistUnroll = 8;
constexpr int64_t kSharedHistWideBlocksPerSm = 4;
constexpr int64_t kSharedHistWideUnroll = 1;
// The tiled block kernels (Note [Tiled block kernels] in block_kernels.cpp): a tile
// takes at most this many bytes of shared memory per block on the GPU; a thread takes
// an odd number of elements of it (tile_items), at most kTileItemsMax.
constexpr int64_t kTileBytes = 16384;
constexpr int64_t kTileItemsMax = 15;
int64_t tile_items(int64_t element_bytes);
// The single-pass scan of one scalar of at most 32 bits keeps a thread's elements in
// registers (Note [Single-pass tiles in registers] in scan_kernels.cpp): this many a
// thread per tile (any number: the warps' slices of shared memory are padded), in
// blocks of kSinglePassThreads (a multiple of 32) on the GPU.
constexpr int64_t kSinglePassItems = 24, kSinglePassThreads = 128;
// Whether a single-pass scan with these element types keeps its tile in registers (one
// scalar of at most 32 bits), for the extraction (tiles, block size, the default
// threshold) and the code generator alike.
bool single_pass_in_registers(const std::vector<PrimType> &types);
// Rows a thread of segred_rows loads before it combines them (Note [Segmented
// reductions across rows] in block_kernels.cpp).
constexpr int64_t kRowsUnroll = 4;
// Block kernels of 4- or 8-byte scalars with no map fused into them run eight blocks
// per multiprocessor (Note [Kernel extraction]).
constexpr int64_t kReduceBlocksPerSm = 8;
// A map whose lambda reduces, scans and maps over its rows runs one block per element
// (Strategy::RowBlock, Note [One block per row] in row_block_kernels.cpp) when the
// row is at least this long (GenOptions::row_block_min, `--row-block-min=N`).
constexpr int64_t kRowBlockMinWidth = GenOptions{}.row_block_min;
// Inside a RowBlock element, a thread reads this many elements of a striped map or
// reduction before it uses them (loads in flight).
constexpr int64_t kRowBlockUnroll = 4;
// A scan of scalars runs in one pass with decoupled look-back (Strategy::SinglePass,
// Note [Single-pass scan] in scan_kernels.cpp) when it has at least this many elements
// (GenOptions::scan_single_pass_min, `--scan-single-pass-min=N|off`, for one scalar of
// at most 32 bits; scan_single_pass_wide_min for others), else reduce-then-scan.
constexpr int64_t kScanSinglePassMin = GenOptions{}.scan_single_pass_min;
// A RowBlock map whose rows its inner operations read more than once also gets a
// version that reads them from global memory once, into shared memory (Strategy::
// RowCached, Note [Rows in shared memory] in row_cache.cpp), for rows of at most
// kRowCacheMaxWidth elements (GenOptions::row_cache_max, `--row-cache-max=N`) and at
// most kRowCacheBytes of shared memory a block for all its cached rows together.
constexpr int64_t kRowCacheMaxWidth = GenOptions{}.row_cache_max;
constexpr int64_t kRowCacheBytes = 32768;
// A RowBlock map also gets a version that runs a warp per row, kRowWarpRows rows a block
// (Strategy::RowWarp, Note [A warp per row] in row_block_kernels.cpp), for rows of at
// most kRowWarpMaxWidth elements (GenOptions::row_warp_max, `--row-warp-max=N`); with
// its rows copied (as RowCached, a copy per warp), at most kRowCacheBytes of copies a
// block, and for at least kRowWarpMinRows rows (fewer leave most of the GPU's warps
// idle, where a block per row gives each row eight times the threads). Its copy reads
// kRowWarpCopyUnroll elements a thread before it stores them.
constexpr int64_t kRowWarpMaxWidth = GenOptions{}.row_warp_max;
constexpr int64_t kRowWarpMinRows = 2048;
constexpr int64_t kRowWarpRows = kGpuBlockThreads / 32;
constexpr int64_t kRowWarpCopyUnroll = 8;
// Three nested maps whose inner element reduces (batched small matrix products) also get
// a version of one block per outer element, the element's arrays copied into shared
// memory first (Strategy::Staged, Note [Small elements staged in shared memory] in
// staged_kernels.cpp): for arrays of at most GenOptions::stage_max elements each
// (`--stage-max=N`), at most kStageBytes of copies a block, and at least
// kStagedMinOutputs outputs an outer element (fewer leave most of the block's threads
// idle), at most kStagedMaxOutputs (its index arithmetic is 32-bit).
constexpr int64_t kStageBytes = 16384;
constexpr int64_t kStagedMinOutputs = GenOptions{}.stage_min_outputs;
constexpr int64_t kStagedMaxOutputs = int64_t(1) << 24;
// A block takes as many consecutive outer elements as its copies hold, at most this many.
constexpr int64_t kStagedMaxPerBlock = 8;
// Block and register tiling of map-map-reduce (Strategy::BlockTiled, Note [Block and
// register tiling] in tiled_kernels.cpp): on the GPU a block of kBlockTileThreads x
// kBlockTileThreads threads (256) computes a tile of (kBlockTileThreads * kBlockTileReg)^2
// outputs (128 x 128), each thread kBlockTileReg x kBlockTileReg of them in registers,
// walking the reduction in k-tiles of kBlockTileK staged in shared memory, whose rows are
// kBlockTilePad elements longer than the tile (banks). The CPU device emulates
// kBlockTileCpuThreads x kBlockTileCpuThreads threads (32 x 32 outputs a block). The
// version runs when the output has at least GenOptions::block_tile_min rows and columns
// (`--block-tile-min=N`); the map's lambda reads at most kBlockTileMaxReads arrays.
constexpr int64_t kBlockTileThreads = 16;
constexpr int64_t kBlockTileCpuThreads = 4;
constexpr int64_t kBlockTileReg = 8;
constexpr int64_t kBlockTileK = 8;
constexpr int64_t kBlockTilePad = 4;
constexpr int64_t kBlockTileMaxReads = 4;
constexpr int64_t kBlockTileBlocksPerSm = 2; // launch bound for 4-byte values, <= 2 reads
constexpr int64_t kBlockTileMin = GenOptions{}.block_tile_min;

// ---- the IR

// Where an operation runs: spread over the whole grid (what the host launches), inside
// one block (its threads cooperating: RowBlock's body) or one warp (not made yet), or
// inside one thread, sequentially.
enum class Level : uint8_t { Grid, Block, Warp, Thread };

enum class OpKind : uint8_t { Map, Reduce, Scan, Hist, Scatter, Iota, Replicate };

// How an operation runs.
enum class Strategy : uint8_t {
  // Not a kernel of its own.
  Fused,       // map, iota: every reader computes the elements it reads
  HostLoop,    // map: a host loop over the elements, the lambda as host code (Note [Maps
               // whose arrays are sized inside] in program_gen.cpp)
  Memset,      // replicate of a scalar: kerb_rt_fill (Note [Replicate as a memset])
  Sequential,  // inside an element: in its thread, one element after the other
  InPlace,     // inside an element: a map, iota or replicate written straight into the
               // element's row of the outer map's result (destination passing)
  // Threads kernels.
  Threads,     // one thread per element (map, iota, replicate, scatter)
  Lanes,       // map: kMapLanes consecutive elements per thread, vector loads and stores
  Tiles,       // map over n x m (perfectly nested maps): one thread per inner element,
               // 2-D tiles (Note [2-D tiles of map kernels])
  SplitTiles,  // map over iota (n * p) whose lambda splits its index into t / p and t % p:
               // 2-D tiles of ceil(n / p) x p
  Atomic,      // reduce_by_index: one thread per update, an atomic into global memory
  OneThread,   // reduce_by_index the atomics cannot do: one thread, in index order
  // Blocks kernels.
  SegRed,      // map whose lambda reduces: blocks per segment, then one block per segment
  SegRedRows,  // the same with the first kernel walking rows (Note [Segmented reductions
               // across rows])
  BlockTree,   // reduce, commutative operator: interleaved chunks, a halving tree
  WarpRuns,    // reduce, any operator: one contiguous run per warp (Note [Warp-contiguous
               // reductions])
  ReduceThenScan, // scan: block totals, then each block scans its part from its prefix
  SinglePass,  // scan: one tile per block, in order of an atomic ticket, each block's
               // prefix from its predecessors' published values (decoupled look-back,
               // Note [Single-pass scan] in scan_kernels.cpp)
  SharedHist,  // reduce_by_index: per-block histograms in shared memory (Note
               // [Histograms in shared memory])
  RowBlock,    // map whose lambda reduces, scans and maps over its row: one block per
               // element, the inner operations at the block level (Note [One block per
               // row] in row_block_kernels.cpp)
  RowCached,   // the same with the rows read more than once copied into shared memory
               // first (Note [Rows in shared memory] in row_cache.cpp)
  RowWarp,     // the same, a warp per element (Note [A warp per row] in
               // row_block_kernels.cpp), with the copies when cached_rows is not empty
  BlockTiled,  // map over n x p whose element reduces a map over k that reads arrays at
               // [i, k] and [k, j] (matrix product): block and register tiles (Note
               // [Block and register tiling] in tiled_kernels.cpp; SegOp::tiled)
  Staged,      // three nested maps whose inner element reduces: one block per outer
               // element, its arrays copied into shared memory, the middle and inner
               // elements striped over the threads (Note [Small elements staged in
               // shared memory] in staged_kernels.cpp; SegOp::staged)
  // Threads kernels again.
  Chunked,     // reduce and scan of rows: each thread folds a contiguous chunk; inside a
               // RowBlock element, a reduction whose operator may not commute
  // Inside a RowBlock element: thread t takes elements t, t + block size, ... (a map,
  // a commutative reduction; a scan in tiles of the block's size).
  Striped,
};

// When the host takes a version (tested in order; the last is Always).
enum class Guard : uint8_t {
  Always,
  SegRedRowsFit, // 1 <= segments <= kSegRedRowsMaxSegments, the reduction > 1 block
  SegRedFit,     // segments <= kSegRedMaxSegments, the reduction > 1 block
  SplitPositive, // p > 0
  Narrow,        // every size, scalar and extent fits 32-bit arithmetic (Note [32-bit
                 // map kernels] in narrow_index.cpp)
  RowBlockFit,   // the row (SegOp::space[1]) has at least row_block_min elements
  SinglePassFit, // the scan (SegOp::space[0]) has at least single_pass_min elements
  RowCacheFit,   // RowBlockFit, and the cached rows have at most row_cache_max elements
  RowWarpFit,    // RowBlockFit, at least kRowWarpMinRows rows, the row has at most
                 // row_warp_max elements or there are at least row_warp_rows rows, and
                 // the cached rows have at most row_warp_max elements
  BlockTileFit,  // the output has at least SegOp::tiled->min rows and columns
  StagedFit,     // every staged array has at most SegOp::stage_max elements, an outer
                 // element kStagedMinOutputs to kStagedMaxOutputs outputs
};

// How an update of a reduce_by_index combines into its bin.
enum class HistUpdate : uint8_t { None, Add, FAdd, And, Or, Xor, Min, UMin, Max, UMax, Cas };

// One kernel function and its launch.
struct Kernel {
  std::string name;      // the function is kerb_kernel_<id>_<name>
  bool blocks = false;   // KernelDesc::Blocks (blocks with barriers), else Threads
  std::string launch;    // how many threads (Threads) or blocks the host launches, in words
  bool prelude = false;  // it looks at the failure slot first (docs/CHECKS.md, Note [The prelude])
  bool rerun = false;    // its work computes the same run again: checks may be deferred
                         // (Note [Deferred checks]); Threads kernels
  int64_t blocks_per_sm = 0; // launch bound on the GPU (.minnctapersm), 0: none
  int64_t block_threads = 0; // Blocks: threads a block on the GPU, 0: kGpuBlockThreads
  // Threads: at most this many blocks an SM on the GPU, 0: no bound (KernelDesc::
  // max_blocks_per_sm; Note [Loops over rows, fewer threads] in extract_kernels.cpp)
  int64_t max_blocks_per_sm = 0;
  // ... where this array (an array of the lambda's, -1: none) has at least
  // kLoopMinRowElems elements a thread
  int rows_array = -1;
};

// A version of an operation: when the host takes it, how it runs, what it launches.
struct Version {
  Guard guard = Guard::Always;
  Strategy strategy = Strategy::Threads;
  std::vector<Kernel> kernels;
};

struct SegOp;
struct HostItem;

// Strategy::BlockTiled: what the element of a map over n x p computes (the element's
// body ends in `iota m`, a map over it, and a reduction of that map, which is the
// element's result; or a map over row i of one array and row j of another and its
// reduction) and what that map's lambda reads (extract_kernels.cpp, Note [Matrix
// products]).
struct TiledRead {
  int array = -1;        // a two-dimensional array bound on the host
  bool col = false;      // indexed by the output's column and k (else its row and k)
  bool k_first = false;  // indexed [k, i] / [k, j] (else [i, k] / [j, k])
};
struct TiledDot {
  const core::Stm *iota = nullptr, *map = nullptr, *red = nullptr;
  // The variables that hold the output's row and column (nested maps: the lambdas'
  // parameters; a map over iota (n * p): t / p and t % p), and, for the latter, t.
  std::vector<int> rows, cols;
  int flat = -1;
  std::vector<TiledRead> reads;
  // The Index statements of the map's lambda: which read each is.
  std::map<const core::Stm *, size_t> read_of;
  // The rows form (`map (\r -> map (\c -> reduce op ne (map2 f r c)) cs) rs`, no iota):
  // which read each parameter of the map's lambda is.
  std::vector<size_t> param_reads;
  // Asserts of host values in the lambdas (the sizes' checks), made first.
  std::vector<const core::Stm *> asserts;
  // The element's scalar statements before the iota (the rows form: before the map)
  // and after the reduction, none reading k (`a[i, j] - reduce ...`, LUD's update), run
  // in order for each output when it is stored, with the reduction's result bound; and
  // the element's result (the reduction's, or one of theirs).
  std::vector<const core::Stm *> epilogue;
  core::SubExp result;
  int64_t min = kBlockTileMin; // the guard's threshold
};

// Host code: the items of a body, in order.
struct HostBlock {
  std::vector<HostItem> items;
};

// A segmented operation.
struct SegOp {
  const core::Stm *stm = nullptr; // its core statement
  OpKind kind = OpKind::Map;
  Level level = Level::Grid;
  // The space of its iterations: [n] (elements, segments), [n, m] (nested maps; a
  // segmented reduction's segments and the length reduced).
  std::vector<core::SubExp> space;
  Strategy strategy = Strategy::Threads; // the chosen one (that of the first version)
  std::vector<Version> versions;         // empty for what is not a kernel
  // Maps and iotas computed inside its kernels (fusion), in the order the kernels
  // read them, and the values (arrays, scalars) the kernels get from the host, fused
  // maps' inputs included. Its outputs are its statement's results (stm->pat).
  std::vector<const core::Stm *> fused;
  std::vector<int> inputs;
  // Reductions, scans, histograms: the operator combines in any order (reduce_comm,
  // or an operator known to commute).
  bool comm = false;

  // Parameters of the strategies.
  int64_t elems_per_thread = 1;  // Lanes; BlockTree: groups read with one vector load
                                 // where the arrays allow (lanes_fit); WarpRuns,
                                 // ReduceThenScan, SinglePass: per tile (tile_items)
  int64_t single_pass_items = 0; // SinglePass: per tile (kSinglePassItems for a scan
                                 // in registers, else elems_per_thread)
  int64_t rows_per_thread = 1;   // Tiles: kTileRows (from kTileRowsMin rows)
  // Tiles over three nested maps whose inner element is a reduction: a thread's rows
  // run their reductions in one loop (Note [Three nested maps] in thread_kernels.cpp).
  bool rows_loop = false;
  const core::Stm *inner = nullptr; // Tiles: the inner map
  // Tiles over three nested maps: the middle one (its elements, n * m of them, are the
  // tiles' rows; Note [Three nested maps] in thread_kernels.cpp).
  const core::Stm *middle = nullptr;
  const core::Stm *red = nullptr;   // SegRed, SegRedRows: the lambda's reduction
  // SplitTiles: the divisor and the statements that give t / p and t % p.
  core::SubExp split_p;
  std::vector<int> split_quot, split_rem;
  bool read_back = false;        // map: results in read-back memory (Note [Read-back memory])
  // Scatter, reduce_by_index: destination j is updated in place (a replicate that
  // nothing else reads: ProgramGen::consumed_dest), else in a fresh copy.
  std::vector<bool> dest_in_place;
  HistUpdate update = HistUpdate::None; // Atomic, SharedHist
  bool wide = false;                    // SharedHist: wide updates
  // SharedHist: updates read before they are applied; SegRedRows: rows loaded before
  // they are combined.
  int64_t unroll = 1;
  // reduce_by_index pairs (Note [Histograms in one kernel]): the first `waits` and is
  // launched where its partner stands; the second has `partner` = the first and is
  // `paired` (one kernel for both) or launches the first's kernels, then its own.
  const SegOp *partner = nullptr;
  bool waits = false, paired = false;

  // HostLoop: the kernels of fused maps among its arrays, made before the loop (they
  // are read row by row), and the lambda's body as host code.
  std::vector<std::unique_ptr<SegOp>> materialized;
  std::unique_ptr<HostBlock> host_body;
  // The operations inside an element (its lambda's), at the thread level.
  std::vector<std::unique_ptr<SegOp>> body;
  // RowBlock: the operations inside an element in that version, at the block level
  // (Striped, Chunked) or computed where read (Fused), and the guard's threshold.
  std::vector<std::unique_ptr<SegOp>> block_body;
  int64_t row_block_min = kRowBlockMinWidth;
  // SinglePass: the guard's threshold.
  int64_t single_pass_min = kScanSinglePassMin;
  // RowCached: the lambda's parameters (rows) copied into shared memory, and the
  // longest row the version takes.
  std::vector<size_t> cached_rows;
  int64_t row_cache_max = 0;
  // RowWarp: the longest row it takes (unless there are row_warp_rows rows or more;
  // negative: no such rule), and whether it copies cached_rows.
  int64_t row_warp_max = 0;
  int64_t row_warp_rows = -1;
  bool warp_copies = false;
  // Staged: the outer lambda's parameters (arrays) copied into shared memory, and the
  // most elements each may have.
  std::vector<size_t> staged;
  int64_t stage_max = 0;
  int64_t stage_min_outputs = kStagedMinOutputs; // the guard's fewest outputs an element
  // BlockTiled: the element's dot product.
  std::unique_ptr<TiledDot> tiled;
  const SegOp *block_op(const core::Stm &s) const {
    for (const auto &b : block_body)
      if (b->stm == &s) return b.get();
    return nullptr;
  }

  const std::vector<Kernel> &kernels() const { return versions.front().kernels; }
};

// A statement of host code that matters for kernels: an operation, a branch or loop
// holding some (blocks: then and else; a loop's condition, if `while`, then its body),
// or an array statement the host makes (copies, updates, concatenations, literals,
// reshapes).
struct HostItem {
  enum class Kind : uint8_t { Op, If, Loop, Array };
  Kind kind = Kind::Op;
  const core::Stm *stm = nullptr;
  std::unique_ptr<SegOp> op;
  std::vector<HostBlock> blocks;
};

struct KernelProgram {
  struct Entry {
    const core::Function *fn = nullptr;
    HostBlock body;
  };
  std::vector<Entry> entries;
  // Integer variables some lambda divides by: a kernel that gets one also gets its
  // magic number (Note [Magic divisors] in scalar_ops.cpp).
  std::set<int> divisors;
  // Whether a check can fail (else no kernel has a prelude) and kernel threads defer
  // their checks (--deferred-checks).
  bool may_fail = false, defer_checks = false;

  // The operation of a host statement (null: host code).
  const SegOp *op(const core::Stm &s) const {
    auto it = ops_.find(&s);
    return it == ops_.end() ? nullptr : it->second;
  }
  std::map<const core::Stm *, const SegOp *> ops_;

  // Inside a kernel's thread: how a statement of a lambda runs (Fused: a map or iota
  // computed where it is read; InPlace: it writes straight into the row of its map's
  // result when the map's element is stored there, FnGen::map_element; otherwise
  // Sequential), and the results of a map's lambda so written (result variable ->
  // index). FnGen reads them.
  Strategy in_thread(const core::Stm &s) const {
    auto it = in_thread_.find(&s);
    return it == in_thread_.end() ? Strategy::Sequential : it->second;
  }
  const std::map<int, size_t> &in_place(const core::Lambda &l) const {
    static const std::map<int, size_t> none;
    auto it = in_place_.find(&l);
    return it == in_place_.end() ? none : it->second;
  }
  std::map<const core::Stm *, Strategy> in_thread_;
  std::map<const core::Lambda *, std::map<int, size_t>> in_place_;
};

// Kernel extraction (extract_kernels.cpp): the kernel IR of every entry point.
KernelProgram extract_kernels(const core::Program &p, GenOptions opts = {});

// `kerb check --emit=kernels`: a readable listing (kernel_ir.cpp).
std::string print_kernels(const core::Program &p, const KernelProgram &k);

const char *strategy_name(Strategy s);

} // namespace kerb::codegen
