// The program generator (codegen/gen_llvm.h's internals): the host function of every
// entry point, and the kernels of its kernel IR (codegen/kernel_ir.h, made by
// extract_kernels.cpp, which decides which statements become kernels and how they run),
// statement by statement.
//
// program_gen.cpp: host functions and host statements that are not kernels (array
// literals, copies, updates, concatenation, reshapes), device allocations, and the
// launch of each statement's operation. kernel_builder.cpp: the machinery every kernel
// shares (launch slots, kernel functions, argument binding, the per-thread loop, the
// prelude). thread_kernels.cpp: one-thread-per-element kernels (map, iota, replicate,
// copy, scatter, reduce_by_index). block_kernels.cpp: block-level reduce and scan.
// scan_kernels.cpp: the single-pass scan (decoupled look-back).
// row_block_kernels.cpp: one block per element of a map whose lambda reduces, scans and
// maps over its row; row_cache.cpp: its version with the rows in shared memory.
// tiled_kernels.cpp: block and register tiles of matrix products.
//
// Kernels get their arguments as 8-byte slots: on the GPU as kernel parameters, on the
// CPU through a pointer (see runtime/device_abi.h). The first slot of every kernel is
// the failure slot's address.
#pragma once

#include "codegen/fn_gen.h"
#include "codegen/gen_llvm.h"
#include "codegen/kernel_ir.h"

#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Intrinsics.h>

#include <memory>
#include <optional>

namespace kerb::codegen {

namespace Intrinsic = llvm::Intrinsic;

// `.maxntid threads, 1, 1` and `.minnctapersm per_sm` on a GPU kernel of blocks of
// `threads`: ptxas then keeps it to the registers that let per_sm blocks share an SM.
void min_blocks_per_sm(Module &m, Function *f, int per_sm, int threads = int(kGpuBlockThreads));

// Accumulators of a tuple of scalars of these types, in allocas (promoted to
// registers): made, read and written (block_kernels.cpp).
std::vector<llvm::AllocaInst *> new_accs(FnGen &g, const std::vector<PrimType> &types);
std::vector<Val> read_accs(FnGen &g, const std::vector<PrimType> &types, const std::vector<llvm::AllocaInst *> &a);
void write_accs(FnGen &g, const std::vector<llvm::AllocaInst *> &a, const std::vector<Val> &v);

// A warp shuffle (shfl.sync, all 32 lanes) of a scalar of any width: from lane + delta
// (Down), lane - delta (Up; a lane whose source is outside the warp gets its own) or
// lane ^ delta (Xor) (row_block_kernels.cpp).
enum class WarpShuffle { Up, Down, Xor };
llvm::Value *warp_shuffle(llvm::IRBuilder<> &b, llvm::Module &m, llvm::Value *v, llvm::Value *delta,
                          WarpShuffle how);

// The CPU device runs a block on one host thread; the tiled kernels emulate this many
// threads per block there (phase by phase), so that the CPU runs the GPU's algorithm.
constexpr int64_t kCpuTileThreads = 8;

// The program generator: host functions, and kernels extracted from them.

class ProgramGen {
public:
  ProgramGen(const core::Program &p, Target target, GenOptions opts = {})
      : p_(p), target_(target), opts_(opts) {}

  GeneratedProgram run();

private:
  Module &kernel_module() { return target_ == Target::Cuda ? *out_.kernels : *out_.host; }
  bool gpu() const { return target_ == Target::Cuda; }

  void declare_runtime(Module &m);

  // ---- host functions

  void host_function(const core::Function &fn);

  // Host statements that are neither scalar code nor kernels.
  void host_stm(const core::Stm &s);

  // Host code: `v` itself if contiguous, else a contiguous copy.
  Val contiguous(const Val &v, PrimType t) { return v.contiguous() ? v : materialize(v, t); }

  // A contiguous copy of a strided array: a gather kernel over its elements.
  Val materialize(const Val &src, PrimType t);

  // Copies the elements of view `src` into view `dst` (same dims): a kernel.
  void copy_view(const Val &src, const Val &dst, PrimType t);

  Value *byte_size(PrimType t, const std::vector<Value *> &dims);

  // `readback`: memory that one kernel writes and one kerb_rt_read then reads (Note
  // [Read-back memory] in runtime/exec_context.cpp).
  Value *alloc(Value *bytes, bool readback = false);

  // ---- kernels

  // One launch argument: a slot value in host code, and how the kernel reads it back.
  struct KernelArg {
    int var;                  // the core variable (its type says how to unpack)
    size_t first;             // its first slot
    bool contiguous = false;  // arrays: known contiguous when the kernel is generated
    bool magic = false;       // scalars: a divisor, its magic number in the next two slots
  };

  // Collects the slots for values the kernel uses: scalars (1 slot) and arrays
  // (address + dims).
  struct SlotList {
    std::vector<Value *> host_values; // in host code
    std::vector<KernelArg> args;
    std::vector<std::pair<int, FnGen::Lazy>> lazies; // fused maps computed in the kernel
    std::set<int> added;
  };

  // Maps whose results are read only whole by later maps and reductions are not run on
  // their own: the kernels that read them compute their elements (fusion).
  std::map<int, FnGen::Lazy> host_lazy_;

  // The kernel IR of the program: every statement's operation, and the integer
  // variables that some lambda divides by (a kernel that reads one as a scalar slot
  // also gets its magic number: Note [Magic divisors] in scalar_ops.cpp).
  KernelProgram plan_;

  // Adds a variable a kernel reads: a value, or a fused map (its own inputs, free
  // variables and width, recursively).
  void add_input(SlotList &sl, int v);

  void add_var(SlotList &sl, int v);

  // Adds a raw i64 slot; returns its slot index.
  size_t add_raw(SlotList &sl, Value *v) {
    sl.host_values.push_back(v);
    return sl.host_values.size(); // +1 for the failure slot, -1 for the index
  }

  // Emits the launch in host code.
  void emit_launch(int kernel, Value *total, SlotList &sl);

  // A kernel function being generated: its FnGen and how to read slot i.
  struct KernelFn {
    Function *f = nullptr;
    std::unique_ptr<FnGen> g;
    std::function<Value *(size_t)> slot;
    Value *begin = nullptr, *end = nullptr; // CPU: the range of threads or blocks
    BasicBlock *exit = nullptr;
  };

  KernelFn new_kernel(const std::string &name, size_t num_slots, KernelDesc desc);

  // Binds the kernel's copies of the slot arguments (and registers fused maps).
  void bind_kernel_args(KernelFn &k, const SlotList &sl);

  // Scratch memory of a kernel's threads (kernel_memory.cpp): when the lambdas a kernel
  // runs make arrays, the host computes how much one thread may take, allocates that
  // for each of `threads` and passes the base and the size.
  struct ArenaLambda {
    const core::Lambda *lambda;
    bool in_place; // a map's lambda: its results written in place (map_element)
  };
  struct ArenaSlots {
    bool used = false;
    size_t base_slot = 0, size_slot = 0;
  };
  // Also counts the lambdas of the fused maps in `sl`; `where` is for diagnostics.
  // `carried`: variables whose arrays the kernel carries in two buffers (fold_range).
  ArenaSlots add_arena(SlotList &sl, Value *threads, const std::vector<ArenaLambda> &lambdas,
                       const core::Exp &where, const std::vector<int> &carried = {});
  // Gives the kernel's FnGen the arena of thread `thread` (kernel code).
  void bind_arena(KernelFn &k, const ArenaSlots &a, Value *thread);
  // A size's i64 value in host code: bound on the host, or scalar arithmetic on such
  // values in the kernel's lambdas (`defs`); null when neither.
  Value *host_size(const core::SubExp &s, const std::map<int, const core::Stm *> &defs);
  Value *host_scalar(int var, const std::map<int, const core::Stm *> &defs);
  // Every statement of the entry being generated, by the variables it binds: sizes
  // that host_size may evaluate again.
  std::map<int, const core::Stm *> fn_defs_;

  // GPU: the global thread index and the thread/block ids.
  Value *sreg(IRBuilder<> &b, Intrinsic::ID id);

  // An array of type `t` that a block's threads share: on the GPU a static shared-memory
  // array named `name` (address space 3), on the CPU (a block is one thread) a stack
  // array in the kernel's entry block; aligned to `align` either way.
  Value *shared_array(FnGen &g, llvm::ArrayType *t, const std::string &name, llvm::Align align);

  // Emits the per-thread loop (CPU) or the guarded thread (GPU) of a Threads kernel
  // over [0, n); `per_thread(gid)` emits one thread's work. A thread that fails a check
  // stops; a kernel launched after a failure does nothing. `rerun`: per_thread's work
  // computes the same when run again (it writes no memory it reads, and its writes
  // that other threads see come after a flag_barrier), so its checks may be deferred
  // (deferred).
  void threads_kernel(KernelFn &k, Value *n, const std::function<void(Value *)> &per_thread,
                      bool prelude = false, bool rerun = false);
  // `work` (which computes the same when run again) with its checks deferred
  // (FnGen::deferred_work) when the program's checks can fail: a thread's work in
  // threads_kernel, and in block kernels the parts of a phase that read their input.
  void deferred(FnGen &g, const std::function<void(bool slow)> &work);

  // The operation of a statement of host code (its item in plan_), launched; false for
  // host code.
  bool launch(const core::Stm &s);
  // Strategy::HostLoop: a host loop over the map's elements (Note [Maps whose arrays are
  // sized inside] in program_gen.cpp).
  void sequential_map(const SegOp &op);

  // Outputs of a map-like kernel: allocated in host code, [n] ++ row dims; in read-back
  // memory when op.read_back.
  void alloc_outputs(const SegOp &op, Value *n, SlotList &sl);
  // A map kernel's operands in `sl`: its lambda's free variables, then its arrays, then
  // its outputs (n elements each) and the arena of `threads` threads.
  struct MapSlots {
    size_t first_out = 0; // the first output's place in sl.args
    ArenaSlots arena;
  };
  MapSlots add_map_slots(const SegOp &op, Value *n, Value *threads, SlotList &sl);
  // The same for a map's block kernels (no arena): its lambda's free variables, its
  // arrays, its outputs; returns the first output's place in sl.args.
  size_t add_block_map_slots(const SegOp &op, SlotList &sl);

  // A map's versions (kernel_ir.h): one thread per element, or kMapLanes consecutive
  // elements per thread (Strategy::Lanes): then a thread whose elements are all in
  // range, with every contiguous array it reads or writes aligned for it, loads each
  // such array's elements with one vector load, applies the lambda to each element,
  // and stores each result array's elements with one vector store; other threads (the
  // tail, unaligned views) run their elements one by one.
  void map_kernel(const SegOp &op);
  // Perfectly nested maps (Strategy::Tiles, op.inner): one thread per inner element
  // (n * max(m, 1) threads; thread (i, j) runs the outer lambda's statements before
  // the inner map for row i, then inner element j if j < m), not one thread per row;
  // three deep (op.middle), rows of the middle map's elements (Note [Three nested maps]).
  void flat_map_kernel(const SegOp &op);
  // A Threads kernel over a rows x cols space in 2-D tiles of kTileThreads threads
  // (Note [2-D tiles of map kernels]): its launch slots and thread count (host code).
  struct Tiles {
    size_t rows_slot = 0, cols_slot = 0, tw_slot = 0, th_slot = 0, tiles_x_slot = 0;
    size_t tw_div_slot = 0, tiles_x_div_slot = 0; // magic numbers: multiplier, shift
    size_t rpt_slot = 0; // rows per thread (1 or kTileRows; 0: always 1)
    Value *threads = nullptr;
  };
  static constexpr int64_t kTileThreads = kGpuThreadsBlock;
  // `several_rows`: a thread takes kTileRows rows from kTileRowsMin rows (Note [Rows per
  // thread]).
  Tiles add_tiles(SlotList &sl, Value *rows, Value *cols, bool several_rows = false);
  // Kernel code: the element (i, j) of thread gid, and whether it has one.
  struct TileIndex {
    Value *i = nullptr, *j = nullptr, *valid = nullptr;
  };
  // narrow: a 32-bit kernel (Note [32-bit map kernels]): i and j computed in i32 and
  // recorded in `seeds` with their ranges.
  TileIndex tile_index(KernelFn &k, const Tiles &t, Value *gid,
                       std::map<Value *, llvm::ConstantRange> *seeds = nullptr);
  // Host code: whether the launch's arguments allow the 32-bit kernel (Note [32-bit map
  // kernels]); `ranges` gets the range of each tested slot.
  Value *narrow_test(const SlotList &sl, const Tiles &t, std::map<size_t, llvm::ConstantRange> &ranges);
  // Runs narrow_index_arithmetic over a 32-bit kernel.
  void narrow_kernel(KernelFn &k, const std::map<Value *, llvm::ConstantRange> &seeds,
                     const std::map<size_t, llvm::ConstantRange> &ranges);
  // Kernel code of three nested maps (Note [Three nested maps]): thread (at.i, at.j)
  // takes outer element at.i / groups and its middle elements (at.i % groups) * rpt +
  // u, u < rpt, that are below mw (the slots groups_slot: groups, its magic multiplier
  // and shift; rpt_slot: rpt, 0: rpt = 1), each at column at.j if at.j < w. seeds: the
  // 32-bit kernel's (Note [32-bit map kernels]).
  void nested3_rows(KernelFn &k, const SegOp &op, const SlotList &sl, size_t first_out, const TileIndex &at,
                    Value *w, Value *mw, size_t groups_slot, size_t rpt_slot,
                    std::map<Value *, llvm::ConstantRange> *seeds);
  // Its work for outer element ou (`outs` the map's outputs in the kernel): bind_outer()
  // binds the outer lambda's parameters, then the outer statements run once; then
  // middle elements mu0 + u, u < rpt (rpt nullptr: mu0 alone), those below mw, each at
  // column j if j < w (with op.rows_loop, four full rows' reductions in one loop).
  void nested3_group(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, Value *ou, Value *mu0, Value *j,
                     Value *w, Value *mw, Value *rpt, const std::function<void()> &bind_outer);
  // The arrays a thread running kMapLanes consecutive elements of `arrays` reads with
  // one vector load each (kernel code, g's bindings): `rows`, the one-dimensional
  // contiguous arrays read element by element (those of `arrays` and of the maps fused
  // into them); with `indexed`, also `indexed`: the one-dimensional contiguous free
  // arrays that a fused map over `iota n` (i64) indexes by its element (`xs[i]`).
  struct LaneLeaves {
    std::vector<int> rows, indexed;
    bool empty() const { return rows.empty() && indexed.empty(); }
  };
  LaneLeaves lane_leaves(FnGen &g, const std::vector<int> &arrays, bool indexed);
  // The alignment of a group of kMapLanes elements of type t: its size, at most 16
  // (wider groups are read 16 bytes at a time).
  uint64_t lane_align(FnGen &g, PrimType t);
  // fit && addr is aligned for a group of elements of type t.
  Value *lane_aligned(FnGen &g, Value *fit, Value *addr, PrimType t);
  // Whether every leaf's address is aligned for vector loads, and (indexed) it has at
  // least n elements; the same for every thread of a launch.
  Value *lanes_fit(FnGen &g, const LaneLeaves &l, Value *n);
  // The vector loads at element `first` into g.lane_values / g.lane_indexed.
  void load_lane_leaves(FnGen &g, const LaneLeaves &l, Value *first);
  // kMapLanes elements of type t at addr (aligned to `align` bytes), read-only, as one
  // vector (on the GPU through ld.global.nc).
  Value *load_lanes(FnGen &g, Value *addr, PrimType t, uint64_t align);
  // One thread of a lanes map: elements [gid * kMapLanes, +kMapLanes) of [0, n).
  void lanes_thread(KernelFn &k, const core::Stm &s, const std::vector<Val> &dests, Value *n,
                    Value *gid);

  void iota_kernel(const SegOp &op);

  // A kernel, or a memset (Strategy::Memset: Note [Replicate as a memset]).
  void replicate_kernel(const SegOp &op);

  // reduce op ne xs: two launches of one block kernel (per-block partial results, then
  // one block over them). A commutative operator (SegOp::comm: reduce_comm, or a
  // known one) reads coalesced, interleaved (with vector loads where it can: Note
  // [Commutative reductions in lanes]), and combines in a halving tree
  // (BlockMode::Interleaved); any other
  // takes its block's contiguous part in one contiguous run per warp (BlockMode::
  // TiledReduce, see tiled_body), which keeps the order.
  // A block kernel over the arrays of a Reduce or Scan: its launch slots (n, the
  // lambda's free variables, the neutral values, the inputs, the outputs) and id.
  struct BlockKernel {
    int id = -1;
    SlotList sl;
    size_t n_slot = 0;
    std::vector<size_t> ne_slots, in_slots, out_slots, extra_slots;
    // The reduction over partial results: its inputs, one per operand.
    std::vector<Val> partial_inputs;
    // From the kernel IR: the operator commutes; groups of `lanes` elements read with
    // vector loads where the arrays allow (1: none); the elements a thread takes per
    // tile (the tiled modes); the launch bound on the GPU.
    bool comm = false;
    int64_t lanes = 1, items = 1;
    int64_t blocks_per_sm = 0;
    int64_t threads = kGpuBlockThreads; // a block's on the GPU (Kernel::block_threads)
  };

  enum class BlockMode {
    Interleaved, // reduce with a commutative operator; segmented reductions
    TiledReduce, // reduce with any operator; scan's block totals
    TiledScan,   // scan's last pass (extra slots: the block totals)
    SinglePass,  // scan in one pass, one tile per block (scan_kernels.cpp; extra slots:
                 // the status words, then, unless packed, each component's values)
  };
  // `partials`: the inputs are these one-dimensional arrays of `n` elements instead of
  // the statement's (the second pass of a reduction).
  // `kr`: the kernel's record in op's version.
  BlockKernel block_kernel(const SegOp &op, const Kernel &kr, const std::vector<Value *> &outs,
                           const std::vector<Value *> &extra, BlockMode mode,
                           const std::vector<Value *> &partials = {}, Value *n_override = nullptr);

  // reduce and scan whose operands include arrays (operators on rows): each of T
  // threads folds a contiguous chunk of the input sequentially (arrays in its scratch
  // memory); one thread combines the T partial results (reduce) or turns them into
  // exclusive prefixes (scan), and for scan each thread folds its chunk again from its
  // prefix, writing every row. The order is kept: the operator need only be
  // associative.
  void chunked_kernels(const SegOp &op, bool scan);
  enum class ChunkPhase { Partials, Combine, Prefixes, Scan };
  struct Chunked {
    const core::Stm *s = nullptr;
    Value *n = nullptr, *threads = nullptr, *chunk = nullptr;
    std::vector<int> acc_vars;           // the operator's accumulator parameters
    std::vector<Val> ne, parts, outs;    // per component
  };
  void chunked_phase(const Chunked &c, const Kernel &kr, Value *nthreads, ChunkPhase phase);

  std::vector<Value *> alloc_per_result(const core::Stm &s, Value *n, bool readback = false);

  void reduce_kernels(const SegOp &op);

  // scan op ne xs: reduce-then-scan in two launches. A tiled block reduction gives each
  // block's total; the last pass reduces the totals of the blocks before its own (its
  // prefix) and then scans its part in tiles from that prefix.
  void scan_kernels(const SegOp &op);
  void reduce_then_scan(const SegOp &op, const Version &v, const std::vector<Value *> &outs);

  // ---- the single-pass scan (scan_kernels.cpp, Note [Single-pass scan])

  // Strategy::SinglePass, version 0 of a scan: when the guard holds (n >=
  // op.single_pass_min), the status words cleared and one launch of a tile per block;
  // otherwise version 1 (reduce-then-scan). The outputs are allocated before.
  void single_pass_scan(const SegOp &op);
  // Threads of a tiled block kernel on the device this code is for (the CPU emulates
  // kCpuTileThreads, Note [Tiled block kernels]).
  int64_t tile_threads() const { return gpu() ? kGpuBlockThreads : kCpuTileThreads; }
  // A single-pass kernel's view of its block: which tile it scans (its ticket), where
  // the statuses are, and where it leaves.
  struct SinglePassBlock {
    bool packed = false;            // one 64-bit word per tile: flag and value
    Value *status = nullptr;        // the ticket counter, then the tiles' status words
    std::vector<Value *> values;    // unpacked: per component, [tiles] aggregates, then
                                    // [tiles] inclusive prefixes
    Value *tile = nullptr, *tiles = nullptr;
    llvm::AllocaInst *published = nullptr; // thread 0: the inclusive prefix is out
    llvm::BasicBlock *leave = nullptr;     // the block is done or has failed
  };
  static bool single_pass_packed(const std::vector<PrimType> &types);
  // The tile of a single-pass scan in registers (Note [Single-pass tiles in registers]
  // in scan_kernels.cpp); `failed` as tiled_body's.
  void single_pass_tile(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                        Value *tid, llvm::AllocaInst *failed, const SinglePassBlock &sp);
  // After the prelude: thread 0 takes the block's ticket (the CPU: the block's one
  // thread), shared with the block through a barrier.
  SinglePassBlock single_pass_begin(KernelFn &k, const BlockKernel &bk, const std::vector<PrimType> &types,
                                    Value *tid, Value *tiles);
  // In thread 0, once the tile's aggregate is known: publishes it, looks back over the
  // predecessors' statuses, publishes the inclusive prefix; gives the exclusive prefix.
  // A predecessor that failed fails this block (g.on_fail).
  std::vector<Val> single_pass_prefix(KernelFn &k, const SinglePassBlock &sp, const std::vector<PrimType> &types,
                                      const core::Lambda &op, const std::vector<Val> &ne,
                                      const std::vector<Val> &agg);
  // `sp.leave`: thread 0 publishes the failed status unless it published its prefix;
  // then on to `after`.
  void single_pass_end(KernelFn &k, const SinglePassBlock &sp, Value *tid, llvm::BasicBlock *after);

  // A fresh contiguous copy of an array (the destination of scatter and hist).
  Val fresh_copy(const Val &v, PrimType t);
  // The destination j of a scatter or reduce_by_index: the array itself when the
  // kernel IR updates it in place (SegOp::dest_in_place: a `replicate` of the same
  // body that nothing else reads, whose buffer dies here), else a fresh copy.
  Val consumed_dest(const SegOp &op, size_t j, PrimType t);

  // The common part of scatter and reduce_by_index: a fresh copy of the destination
  // (the statement's result) and the slots of the count, the destination's length and
  // the three arrays.
  struct IndexedWrite {
    PrimType t, it; // element and index types
    Val dest, is, vs;
    SlotList sl;
    size_t n_slot, len_slot, dest_slot, is_slot, vs_slot;
  };

  IndexedWrite indexed_write(const SegOp &op);

  // scatter dest is vs: a copy of dest, then one thread per index writes its value
  // where the index is in range (others are ignored, as in Futhark).
  void scatter_kernel(const SegOp &op);
  // The same into an array of arrays: one thread per element of the values' rows.
  void scatter_rows_kernel(IndexedWrite &w, const Kernel &kr);

  // reduce_by_index dest op ne is vs: a copy of dest, then one thread per update
  // (atomic_hist) where the kernel IR gives an atomic update (SegOp::update: an
  // operator the code generator knows as commutative on 32- or 64-bit scalars);
  // otherwise (tuples, rows, small types, other operators) one thread makes every
  // update in index order.
  void hist_kernel(const SegOp &op);
  // The atomicrmw of an update (BAD_BINOP: a compare-and-swap loop).
  static llvm::AtomicRMWInst::BinOp rmw_op(HistUpdate u);
  // One thread per update: the value (fused maps computed here, their checks kept),
  // then, for an index in range, the atomic update of its bin.
  void atomic_hist(const SegOp &op);
  // An update kernel of atomic_hist with `sl` bound (its loads invariant).
  // An atomic `*addr = *addr op v` whose old value is not used: on the GPU a `red`
  // (Note [Reductions into global memory] in thread_kernels.cpp).
  void global_reduce(FnGen &g, llvm::AtomicRMWInst::BinOp op, Value *addr, Value *v, PrimType t);
  KernelFn hist_fn(const Kernel &kr, SlotList &sl);
  // The same as one block kernel with per-block histograms in shared memory (Note
  // [Histograms in shared memory] in thread_kernels.cpp), for one or two histograms
  // (Note [Histograms in one kernel]); `sl` holds atomic_hist's slots (each one's
  // number of updates at its n_slot).
  struct SharedHist {
    const core::Stm *s;
    HistUpdate how;
    size_t n_slot;
  };
  // `op`: the operation whose kernel this is (the second of a pair).
  void shared_hists(const SegOp &op, const std::vector<SharedHist> &parts, SlotList &sl);
  // Note [Histograms in one kernel]: the pair's kernel, where the second stands.
  void hist_pair(const SegOp &first, const SegOp &second);

  // Whether any check of the program can fail. When none can (--unsafe, or every site
  // disabled or eliminated), no kernel has a prelude: nothing ever sets the failure
  // slot, and the PTX does not read it (docs/CODEGEN.md, "Failures").
  bool may_fail() const { return !p_.failures.records.empty(); }
  // Whether kernel `kernel` (generated already) has a check that may record a failure:
  // the launch tells the runtime (kLaunchMayFail), which looks at the slot only after
  // such kernels.
  bool kernel_may_fail(int kernel);
  // In a kernel: whether the host passed the failure slot as certainly clear (bit 0 of
  // slot 0; runtime/device_abi.h).
  llvm::Value *certainly_clear(llvm::IRBuilder<> &b, KernelFn &k);

  // The body of the block kernels (see reduce_kernels and scan_kernels). The input
  // arrays are one-dimensional and contiguous; slot n holds their length. Each block
  // takes a contiguous part of the input. BlockMode::Interleaved: with a commutative
  // operator the block's threads read interleaved; otherwise (segmented reductions
  // only) each of its threads a contiguous chunk, so that combining neighbours keeps the
  // order. A thread that fails a check remembers it, skips the rest of its work and
  // still reaches every barrier.
  // Segmented reductions (segred_kernels) run the block body per segment: with
  // `blocks_per_segment`, block b works on segment b % segments, as block b / segments
  // of blocks_per_segment, and writes its partial result at segment * blocks_per_segment
  // + that; without, block b reduces the partial results [b * n, (b + 1) * n) of
  // segment b. `setup(segment)` runs before the block's chunk (its failures count as
  // the chunk's), then `ne()` gives the neutral elements (no slots for them);
  // `finish(segment, result)`, if set, runs in thread 0 instead of the write.
  struct BlockSegments {
    Value *segments = nullptr, *blocks_per_segment = nullptr;
    std::function<void(Value *)> setup;
    std::function<std::vector<Value *>()> ne;
    std::function<void(Value *, const std::vector<Val> &)> finish;
  };
  void block_body(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                  BlockMode mode, bool prelude, const BlockSegments *segs = nullptr);
  // Block and thread ids of a Blocks kernel. The CPU runs a range of blocks of one
  // thread each: begin_blocks opens the loop over them, end_blocks closes it; a block
  // that is done goes to `after` (the GPU: the kernel's exit).
  struct BlockIds {
    Value *block = nullptr, *tid = nullptr, *ntid = nullptr, *nblocks = nullptr;
    llvm::AllocaInst *ctr = nullptr;
    llvm::BasicBlock *head = nullptr, *after = nullptr;
  };
  BlockIds begin_blocks(KernelFn &k);
  // The prelude of a Blocks kernel (see threads_kernel), uniform over the block: thread
  // 0 reads the failure slot (unless `prelude` is false or nothing may fail); the block
  // goes to the kernel's exit after a failure. Leaves the builder where the work starts.
  void block_prelude(KernelFn &k, Value *tid, bool prelude);
  void end_blocks(KernelFn &k, const BlockIds &ids);
  // The tiled modes (Notes [Tiled block kernels] and [Warp-contiguous reductions] in
  // block_kernels.cpp): `after` is where
  // the block goes when it is done or has failed.
  // SinglePass: `sp` (block is its ticket).
  // Element i of a block kernel's input: the arrays' rows, or the partial results'.
  std::vector<Val> block_input(FnGen &g, const core::Exp &e, const BlockKernel &bk, Value *i);
  void tiled_body(KernelFn &k, const core::Stm &s, Value *n, const BlockKernel &bk,
                  BlockMode mode, Value *block, Value *tid, Value *nblocks,
                  llvm::AllocaInst *failed, llvm::BasicBlock *after,
                  const SinglePassBlock *sp = nullptr);

  // Segmented reduction (Strategy::SegRed, SegRedRows): a map over few elements
  // (segments) whose lambda is cheap statements, one reduction over scalars of a long
  // array (op.red, typically a map fused into it), and straight-line scalar statements
  // after it (`map (\j -> f (reduce op ne (map g (iota m)))) (iota n)`, backprop's
  // hidden layer). One thread per segment would leave the GPU idle; when the runtime
  // gives the reduction more than one block and there are at most kSegRedMaxSegments
  // segments, a block kernel over segments x blocks reduces each block's part of its
  // segment (the statements before the reduction run in every thread, for its free
  // variables and checks), and one block per segment reduces its partial results and
  // runs the statements after the reduction, writing the segment's element. Otherwise
  // the map's other versions run.
  // `v`: the version (SegRedRows: the first kernel is segred_rows, Note [Segmented
  // reductions across rows] in block_kernels.cpp, over `blocks` blocks; SegRed:
  // `blocks` is the blocks per segment of the segment-minor kernel).
  void segred_kernels(const SegOp &op, const Version &v, Value *segments, Value *blocks);
  // The first kernel of a segmented reduction across rows: `segs` gives the segment's
  // setup and neutral elements; the partial result of segment j in block b goes to
  // out slot [j * blocks + b].
  void segred_rows_body(KernelFn &k, const core::Stm &red, const BlockKernel &bk,
                        const BlockSegments &segs, bool prelude, int64_t unroll);
  // Strategy::RowBlock or RowCached, version v of a map (row_block_kernels.cpp, Note [One
  // block per row]): when the row (op.space[1]) has at least op.row_block_min elements
  // (RowCached: and the cached rows at most op.row_cache_max), one block
  // per element whose threads share the lambda's block-level operations
  // (op.block_body); otherwise version v + 1. The outputs are allocated before.
  void row_block_map(const SegOp &op, size_t v);
  // The kernel's body: `outs` the map's outputs in the kernel; `cached`: the rows
  // op.cached_rows are copied (RowCached, RowWarp with copies); `warps`: Strategy::RowWarp.
  void row_block_body(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, bool prelude, bool cached,
                      bool warps);
  // Strategy::RowCached (row_cache.cpp, Note [Rows in shared memory]): copies the rows
  // op.cached_rows of `rows` (the lambda's parameters in the kernel) into shared memory
  // (the CPU: the stack), of `bound` elements each, each thread elements tid, tid +
  // ntid, ... (`unroll` read before they are stored); returns views of the copies. With
  // `slot` (RowWarp), each array holds `copies` copies and this one is copy `slot`.
  // The caller's barrier follows before any thread reads them.
  std::vector<Val> cache_rows(KernelFn &k, const SegOp &op, const std::vector<Val> &rows, Value *tid, Value *ntid,
                              int64_t bound, int64_t copies, Value *slot, int64_t unroll);
  // Strategy::Staged, version v of three nested maps (staged_kernels.cpp, Note [Small
  // elements staged in shared memory]): when every staged array has at most
  // op.stage_max elements and an outer element kStagedMinOutputs to kStagedMaxOutputs
  // outputs, one block per outer element, its arrays copied into shared memory first;
  // otherwise the 2-D tiles. The outputs are allocated before.
  void staged_map(const SegOp &op, size_t v);
  // The kernel's body: `outs` the map's outputs in the kernel; the slots of the
  // elements a block, an element's outputs (then its magic multiplier and shift) and
  // the inner width max(w, 1) (the same).
  struct StagedSlots {
    size_t per = 0, outputs = 0, width = 0;
  };
  void staged_body(KernelFn &k, const SegOp &op, const std::vector<Val> &outs, const StagedSlots &z, bool prelude);
  // Strategy::BlockTiled, version v of a map (tiled_kernels.cpp, Note [Block and register
  // tiling]): when the output has at least op.tiled->min rows and columns, blocks of
  // tiles staged in shared memory, a tile of outputs a thread in registers; otherwise
  // the 2-D tiles (nested maps) or version v + 1. The outputs are allocated before.
  void block_tiled_map(const SegOp &op, size_t v);
  // The kernel's body: `out` the map's output in the kernel, and the sizes: the output's
  // rows and columns, the reduction's width, the map's width (rows * p, or n of a map
  // over iota n split by p) and the blocks a row of tiles.
  struct TiledSizes {
    Value *rows, *p, *m, *n, *nbx;
  };
  void block_tiled_body(KernelFn &k, const SegOp &op, const Val &out, const TiledSizes &z, bool prelude);
  // Version v of op and those after it: one thread per element or lanes, or the split
  // tiles (split_map_kernel).
  void thread_map_kernel(const SegOp &op, size_t v);
  // Strategy::SplitTiles, a map over iota n whose lambda splits its index t into t / p
  // and t % p (op.split_p, split_quot, split_rem): when p > 0 (a branch in host code),
  // the tiles of a ceil(n / p) x p space, the thread of (i, j) taking t = i * p + j < n
  // with t / p = i and t % p = j (not computed: they cannot fail); otherwise version
  // v + 1.
  void split_map_kernel(const SegOp &op, size_t v);

  const core::Program &p_;
  Target target_;
  GenOptions opts_;
  // The slow copies of deferred work, outlined when the kernels are complete.
  SlowRegions slow_regions_;
  GeneratedProgram out_;
  FnGen *host_ = nullptr;
};

} // namespace kerb::codegen
