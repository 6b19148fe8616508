// The code generator of one function body (codegen/gen_llvm.h's internals): FnGen turns
// core statements into LLVM IR with one IRBuilder, either as host code (x86-64; arrays
// are i64 device addresses, memory is reached through the runtime's C functions) or as
// the body of a kernel (arrays are pointers; memory is read and written directly).
//
// Values: a scalar is an LLVM register of its primitive type; an array is its address
// and one i64 per dimension, row-major and packed (bool as one byte), optionally with
// strides (a view). Core variables that change in loops and branches live in allocas;
// LLVM's mem2reg turns them into registers.
//
// fn_gen.cpp holds what both modes share (values, checks, statements, control flow);
// fn_gen_kernel.cpp what only kernels do (fusion, destination passing, sequential
// reductions). The program generator (program_gen.h) drives FnGen and supplies the host
// statements that become kernels.
#pragma once

#include "codegen/kernel_ir.h"
#include "codegen/scalar_ops.h"
#include "compiler/core_ir.h"
#include "compiler/source.h"
#include "runtime/device_abi.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kerb::codegen {

// LLVM's, not the interpreter's kerb::Value / kerb::Type.
using llvm::AllocaInst;
using llvm::BasicBlock;
using llvm::Function;
using llvm::IRBuilder;
using llvm::LLVMContext;
using llvm::Module;
using llvm::Type;
using llvm::Value;

[[noreturn]] void unsupported(const core::Exp &e, const std::string &what);

// A value during code generation.
struct Val {
  Value *scalar = nullptr;   // scalars
  Value *addr = nullptr;     // arrays: i64 (host) or pointer (kernel)
  std::vector<Value *> dims; // arrays: i64 each
  // Arrays: the distance in elements between neighbours in each dim; empty for a
  // contiguous row-major array. Slices and rearrangements are views with strides.
  std::vector<Value *> strides;
  bool contiguous() const { return strides.empty(); }
};

// The free variables of a lambda (used inside, bound outside), in a stable order.
std::set<int> lambda_free_vars(const core::Program &p, const core::Lambda &l);

class FnGen;

// How much scratch memory running a body in a kernel may take (kernel_memory.cpp, Note
// [Kernel memory]); FnGen's kernel statements allocate exactly where this walk counts.
struct ArenaNeed {
  bool any = false;       // something in the body makes an array
  bool dynamic = false;   // a size is not known where the bound is computed
  Value *bytes = nullptr; // with a host generator: the bound in bytes, as host code
};

// The slow copies of deferred work (FnGen::deferred_work) to outline: per kernel
// function, in the order the kernels were made, the blocks of each copy.
using SlowRegions = std::vector<std::pair<Function *, std::vector<std::vector<BasicBlock *>>>>;

// Moves each slow copy of deferred work (FnGen::slow_regions) into a noinline, cold
// function of its own (Note [The slow copy outlined] in deferred_checks.cpp), kernel by
// kernel in the order they were made (the outlined functions follow the kernels in the
// module in that order, whatever the functions' addresses); the kernels must be
// complete.
void outline_slow_copies(const SlowRegions &regions);

// `dests`: the body's variables written in place (FnGen::in_place_results). With
// `host` null only `any` is computed; otherwise `size` gives a size's i64 value in host
// code (null: not known there).
ArenaNeed arena_need(const core::Program &p, const core::Body &body,
                     const std::map<int, size_t> &dests, FnGen *host,
                     const std::function<Value *(const core::SubExp &)> &size);
// The bytes of `copies` fresh arrays of each variable's shape.
ArenaNeed arena_need_arrays(const core::Program &p, const std::vector<int> &vars, int copies,
                            FnGen *host, const std::function<Value *(const core::SubExp &)> &size);
bool body_allocates(const core::Program &p, const core::Body &body);
// Scalar arithmetic that cannot fail, as the lowering hoists it: what the host may
// evaluate again for a size (ProgramGen::host_scalar).
bool host_evaluable(const core::Exp &e);
// Adds the statements of b (nested bodies and lambdas included) to `defs`, by the
// variables they bind.
void collect_defs(const core::Body &b, std::map<int, const core::Stm *> &defs);
// Whether the host has a size, or can compute it again from scalar arithmetic on what
// it has (`defs`: the entry's statements; host_value(v): whether the host has bound v
// as a scalar, nullopt where it has not bound v).
bool host_size_known(const core::SubExp &s, const std::map<int, const core::Stm *> &defs,
                     const std::function<std::optional<bool>(int)> &host_value);
// Whether running the body in a kernel makes an array with a size that `known` says
// the host cannot compute before the launch (arena_need's `dynamic`, without host code).
bool arena_dynamic(const core::Program &p, const core::Body &body, const std::map<int, size_t> &dests,
                   const std::function<bool(const core::SubExp &)> &known);

// Code generation of one function body (host code or a kernel), with its builder.
class FnGen {
public:
  enum Mode { Host, Kernel };

  FnGen(const core::Program &p, Module &m, Function *f, Mode mode, bool gpu, MathLib lib)
      : p_(p), m_(m), c_(m.getContext()), f_(f), b_(c_), ops_(b_, m, lib), mode_(mode),
        gpu_(gpu) {}

  IRBuilder<> &builder() { return b_; }
  ScalarOps &ops() { return ops_; }
  Function *function() { return f_; }
  Module &module() { return m_; }

  // Where control goes after a check fails: host code returns the status; a kernel
  // thread stops (or, in a block kernel, records that it failed and goes on to the
  // next barrier).
  std::function<void(Value *status)> on_fail;
  Value *ctx = nullptr;          // host: the context pointer
  // Kernel: the failure slot's word as passed (slot 0: the FailureSlot's address, bit 0
  // set when the host knows it is clear; runtime/device_abi.h).
  Value *failure_word = nullptr;
  // The FailureSlot's address, computed here from failure_word: at each use, so that
  // only the kernel parameter (which the GPU reloads for free) stays live, not a
  // masked 64-bit address that would hold two registers across the whole kernel.
  Value *failure_slot();
  // Host: called for statements that become kernels.
  std::function<bool(const core::Stm &)> launch_hook;
  // Kernel: statements whose one scalar result the kernel already has; they are not
  // generated (the row and column of a map over iota (n * p) that runs in 2-D tiles:
  // t / p and t % p, ProgramGen::split_map_kernel).
  std::map<int, Value *> given;
  // Kernel: integer scalars with a magic number (multiplier and shift slots) for
  // dividing by them (Note [Magic divisors] in scalar_ops.cpp).
  std::map<int, std::pair<Value *, Value *>> divisors;

  void bind(int var, Val v) { env_[var] = std::move(v); }
  // Forgets every variable bound since `before` (bound()'s earlier answer): those of a
  // body generated inside a host loop, whose values do not reach past it.
  std::set<int> bound() const {
    std::set<int> out;
    for (const auto &[v, val] : env_) out.insert(v);
    return out;
  }
  void unbind(int var) { env_.erase(var); }
  void unbind_since(const std::set<int> &before) {
    for (auto it = env_.begin(); it != env_.end();) it = before.count(it->first) ? std::next(it) : env_.erase(it);
  }
  bool has(int var) const { return env_.count(var) != 0; }
  const Val &lookup(int var) const {
    auto it = env_.find(var);
    KERB_ASSERT(it != env_.end(), "core variable v" + std::to_string(var) + " has no value");
    return it->second;
  }

  Value *scalar(const core::SubExp &s) {
    if (!s.is_var()) return ops_.constant(s.constant);
    const Val &v = lookup(s.var);
    KERB_ASSERT(v.scalar, "scalar expected");
    return v.scalar;
  }
  PrimType prim_of(const core::SubExp &s) const {
    return s.is_var() ? p_.var(s.var).type.prim : s.constant.type;
  }
  int rank_of(const core::SubExp &s) const { return s.is_var() ? p_.var(s.var).type.rank : 0; }
  Val val(const core::SubExp &s) {
    if (!s.is_var()) return Val{ops_.constant(s.constant), nullptr, {}, {}};
    return lookup(s.var);
  }

  Value *i64(int64_t v) { return b_.getInt64(uint64_t(v)); }

  // An element address: base + index * element size.
  Value *element_addr(Value *base, Value *flat_index, PrimType t);

  // Row-major flat index of `idx` (leading dims) times the size of the rest.
  Value *flat_offset(const std::vector<Value *> &dims, const std::vector<Value *> &idx);

  // The strides of an array value, explicit (row-major ones for a contiguous array).
  std::vector<Value *> strides_of(const Val &v);

  // The offset in elements of the element or row at `idx` (leading dims).
  Value *offset_of(const Val &arr, const std::vector<Value *> &idx);

  // The view of the sub-array at `idx` (fewer leading dims).
  Val subarray(const Val &arr, Value *addr, size_t k);

  Value *product(const std::vector<Value *> &dims, size_t from = 0);

  // The view of `src` selected by a Slice's or UpdateSlice's args (start, count, stride
  // for each leading dim), without the dims listed in `drop`.
  Val select_view(const Val &src, PrimType t, const core::Exp &e, const std::vector<int> &drop = {});

  // Kernel: row i of array `arr` (a scalar, or a view), and storing `v` there.
  Val row_of(PrimType t, const Val &arr, Value *i);
  void store_row(PrimType t, const Val &v, const Val &arr, Value *i);

  // Kernel: load / store an element.
  // Kernels that never write memory they read (every kernel but hist's and scan's
  // prefix pass: outputs are fresh arrays) mark their loads invariant, which lets the
  // GPU use its read-only data path.
  bool invariant_loads = false;
  // A 32-bit map kernel (Note [32-bit map kernels] in narrow_index.cpp): element
  // offsets computed in wrapping i32 arithmetic (exact for in-bounds accesses under
  // the host's test of the arguments).
  bool offsets32 = false;

  Value *load_elem(PrimType t, Value *addr);
  void store_elem(PrimType t, Value *v, Value *addr) { b_.CreateStore(ops_.to_mem(t, v), addr); }

  // ---- checks

  // Emits `if (!ok) fail(site, args)`; continues on the ok path.
  void check(Value *ok, int site, const std::vector<Value *> &args);
  // The opt-in nan check of a float operation's result r: fails when r is NaN and no
  // float operand (null ones are skipped) was.
  void check_nan(Value *r, const std::vector<Value *> &operands, int site);

  void emit_failure(int site, const std::vector<Value *> &args);

  // ---- deferred checks (codegen/deferred_checks.cpp, Note [Deferred checks])

  // A kernel thread's work generated twice: first with its checks deferred (bounds
  // checks of loads and division checks fold "failed" into a flag, their index or
  // divisor clamped; no branch), then, reached only when the flag is set at the end, the
  // same work with every check branching to its failure, which finds and reports the
  // first failure exactly. `work` must compute the same thing when run again (it
  // reads no memory it writes, and its writes outside the thread are preceded by
  // flag_barrier()). With nothing deferred the second copy is not made.
  // `work(slow)`: slow is false for the first copy and true for the second, which may
  // recompute what it starts from (a thread's index from the special registers) rather
  // than receive it as an argument of its outlined function.
  void deferred_work(const std::function<void(bool slow)> &work);
  // Whether this kernel defers its checks (the program's checks can fail, and
  // --deferred-checks is on); ProgramGen sets it.
  bool defer_checks = false;
  GenOptions::Loads deferred_loads = GenOptions::Loads::Predicated; // ProgramGen sets it
  int for_loop_depth = 0; // for-loops whose bodies are being generated
  // The scalars `compute` gives, computed as deferred work when defer_checks (through
  // allocas, so that both copies give them); otherwise compute().
  std::vector<Val> deferred_values(const std::function<std::vector<Val>()> &compute);
  // Where deferred_work records the blocks of each slow copy, by function, for
  // outline_slow_copies (null: not recorded, the copies stay inline).
  SlowRegions *slow_regions = nullptr;
  // Whether checks are being deferred (the first copy of deferred_work is made).
  bool deferring() const { return deferral_ != nullptr; }
  // Deferring: if a deferred check has failed, go to the second copy (before anything
  // that must not run on a failed value: loops, arrays, unchecked indexing, stores that
  // others see). Otherwise nothing.
  void flag_barrier();
  // Deferring, after a flag_barrier (the flag is clear): `f`'s checks branch where they
  // stand, as outside deferred_work (an update of memory the work reads, whose second
  // copy would see it).
  void undeferred(const std::function<void()> &f) {
    Deferral *d = deferral_;
    deferral_ = nullptr;
    f();
    deferral_ = d;
  }
  // Deferring: ORs !ok into the flag (the check that gave `ok` is deferred).
  void defer(Value *ok);
  // A load's address when its bounds check `ok` is deferred: addr if ok, else an
  // address that can always be read (the failure slot).
  Value *deferred_addr(Value *ok, Value *addr);
  // The element of type t at addr if ok, else any value: a load whose bounds check `ok`
  // is deferred. On the GPU a predicated load (no address select), on the CPU a load
  // from deferred_addr.
  Value *deferred_load(PrimType t, Value *ok, Value *addr);
  // Deferring: whether statement `e` must wait for the flag (flag_barrier) first.
  bool needs_flag_barrier(const core::Exp &e) const;
  // Deferring, before a `for` loop whose counter and bound are i64 (`bound` its value):
  // the bounds checks of the loads in its body whose indices are affine in the counter
  // (invariant base, constant step) and whose arrays are invariant are made once here,
  // for the first and the last iteration (Note [Hoisted checks]); their loads in the
  // body are then unchecked. Returns the hoisted statements, for `hoisted_`.
  std::set<const core::Exp *> hoist_loop_checks(const core::Exp &loop, Value *bound);
  // Index statements whose check hoist_loop_checks made before their loop.
  std::set<const core::Exp *> hoisted_;
  // Deferring: the unroll count of a small `for` loop whose body deferred checks, and
  // what is small (Note [Deferred loops unrolled]).
  static constexpr int kDeferredLoopUnroll = 4;
  static bool small_loop_body(const core::Body &body);
  llvm::MDNode *unroll_count_md(int count);

  // Index arguments of a bounds failure: the indices, then every dim.
  std::vector<Value *> index_failure_args(const std::vector<Value *> &idx,
                                          const std::vector<Value *> &dims);

  Function *rt(const std::string &name);
  // Host: the element of type t at device address addr (a read of device memory), and
  // writing one there.
  Value *host_read(PrimType t, Value *addr);
  void host_write(PrimType t, Value *v, Value *addr);

  // ---- statements

  void body(const core::Body &b);

  // Kernels: a Map or Iota whose results are only ever read whole, element by element,
  // by later maps and reductions of the same body is not stored: its elements are
  // computed where they are read (fusion; no memory needed in the thread).
  struct Lazy {
    const core::Stm *stm;
    size_t result;
  };
  std::map<int, Lazy> lazy_;
  const core::Body *cur_body_ = nullptr;

  static bool consumed_whole(const core::Program &p, const core::Body &body, const core::Stm &s);
  // Kernels: the kernel IR, which says how the statements of lambdas run in a thread
  // (KernelProgram::in_thread, in_place: fusion and destination passing).
  const KernelProgram *plan = nullptr;

  // Whether `e` mentions any of `vars`.
  static bool mentions(const core::Exp &e, const std::set<int> &vars);

  std::vector<Val> results(const core::Body &b);

  void stm(const core::Stm &s);

  // Host statements that are not kernels: overridden by the host generator.
  std::function<void(const core::Stm &)> host_stm;

  // Variables of a statement's pattern live in allocas across control flow.
  struct Slots {
    std::vector<AllocaInst *> scalar, addr;
    std::vector<std::vector<AllocaInst *>> dims;
    std::vector<std::vector<AllocaInst *>> strides; // kernels only (host: contiguous)
  };

  // Host code: makes an array contiguous (a copy), for the generator to provide.
  std::function<Val(const Val &, PrimType)> materialize;

  AllocaInst *entry_alloca(Type *t);

  Type *addr_type();

  Slots make_slots(const std::vector<int> &vars);

  void store_slots(const Slots &s, const std::vector<Val> &vals0,
                   const std::vector<int> &vars);

  std::vector<Val> load_slots(const Slots &s, const std::vector<int> &vars);

  void if_stm(const core::Stm &s);

  void loop_stm(const core::Stm &s);

  // xs[i, j, ...]: a scalar load, or a sub-array view.
  void index_stm(const core::Stm &s);

  // Host: if `status` is non-zero, return it.
  void return_if_error(Value *status);

  // for (i = lo; i < hi; i++) body(i), continuing at `exit` (a new block if null),
  // which it returns; the builder is left there. `unroll` false: LLVM may not unroll
  // the loop (a short loop outside the hot path, whose unrolled copies would only hold
  // registers).
  BasicBlock *counted_range(Value *lo, Value *hi, BasicBlock *exit,
                            const std::function<void(Value *)> &body, bool unroll = true);
  // for (i = lo; i < hi; i += step) body(i) (step > 0), as counted_range.
  BasicBlock *stepped_range(Value *lo, Value *hi, Value *step, BasicBlock *exit,
                            const std::function<void(Value *)> &body, bool unroll = true);

  void counted_loop(Value *n, const std::function<void(Value *)> &body);

  // if (cond) body(); the builder is left after it.
  void when(Value *cond, const std::function<void()> &body);

  // Over first, first + stride, ... below end (none when first >= end; stride > 0):
  // `unroll` elements read (read(i)) before any is used (use(values)), so that their
  // loads are in flight together, then the rest one by one; continues at `exit` (as
  // counted_range).
  // `defer`: each group's reads (scalars) are one deferred work (deferred_values), so
  // that their checks do not branch; the uses come after the flag's test.
  BasicBlock *strided_range(Value *first, Value *end, Value *stride, int64_t unroll, BasicBlock *exit,
                            const std::function<std::vector<Val>(Value *)> &read,
                            const std::function<void(const std::vector<Val> &)> &use,
                            bool defer = false);

  // Applies a lambda to argument values; returns its results.
  std::vector<Val> apply(const core::Lambda &l, const std::vector<Val> &args);

  // Row i of each array: a scalar element or a sub-array view (kernel code).
  // A fused map whose results are read several times is applied once: `applied` holds
  // its results for this element.
  std::vector<Val> rows_at(const std::vector<int> &arrays, Value *i);
  std::vector<Val> rows_at(const std::vector<int> &arrays, Value *i,
                           std::map<const core::Stm *, std::vector<Val>> &applied);

  // Kernels: arrays that statements write straight into their final place (the rows
  // of a map's result), by variable.
  std::map<int, Val> dest_;

  // The statement of `body` that binds v, if any.
  static const core::Stm *binding_of(const core::Body &body, int v);

  static bool writes_to_destination(const core::Stm &s);

  // Element i of a map: applies the lambda to row i of `arrays` and stores each result
  // at index i of its destination array (`dests`, one per result). Array results are
  // computed in place where their statement allows it, and copied otherwise.
  void map_element(const core::Lambda &l, const std::vector<int> &arrays, Value *i,
                   const std::vector<Val> &dests);

  // Element i of a map whose results are all scalars: the lambda applied to row i;
  // returns the results (nothing stored).
  std::vector<Value *> map_scalars(const core::Lambda &l, const std::vector<int> &arrays, Value *i);

  // Several elements per thread (see ProgramGen::map_kernel): while `lane` >= 0, rows_at
  // takes the element of each array in `lane_values` from there (lane `lane` of a
  // vector load made beforehand) instead of loading it.
  int lane = -1;
  std::map<int, std::vector<Value *>> lane_values;
  // And `arr[i]` of a one-dimensional array in `lane_indexed` whose index is the
  // element's own (`lane_index`, the same LLVM value: a map over iota, nn's
  // `map (\i -> lat[i] ...) (iota n)`) takes lane `lane` of arr's vector load; the
  // caller made sure that arr has at least as many elements as the reduction (the
  // bounds check, if any, cannot fail there).
  std::map<int, std::vector<Value *>> lane_indexed;
  Value *lane_index = nullptr;

  // Copies every element of array view `src` to view `dst` (same shape).
  void copy_elements(PrimType t, const Val &src, const Val &dst);

  // The results of `l` that map_element computes in place, in the rows of the map's
  // outputs: variable -> result index. Their statements are maps, iotas and replicates
  // whose every result is a result of `l`.
  static std::map<int, size_t> in_place_results(const core::Program &p, const core::Lambda &l);

  // Map/Iota/Replicate inside a kernel, writing into their destination.
  bool destination_stm(const core::Stm &s);

  // A Reduce inside a kernel: a sequential loop.
  void sequential_reduce(const core::Stm &s);

  // Folds `op` over rows(i) for i in [lo, hi) from `init` (one value per accumulator
  // parameter of `op`), giving back each element's memory; arrays in the accumulator
  // are carried in buffers. `each(i, acc)` sees the accumulator after element i.
  std::vector<Val> fold_range(const core::Lambda &op, const std::vector<Val> &init, Value *lo,
                              Value *hi, const std::function<std::vector<Val>(Value *)> &rows,
                              const std::function<void(Value *, const std::vector<Val> &)> &each = {});

  // ---- kernel memory (kernel_memory.cpp)

  // A kernel thread's scratch memory (its arena): arrays made inside a kernel take
  // memory from it; code that applies a lambda per element gives back what the element
  // took (a mark before, a release after). Null base: the kernel has none.
  static constexpr int64_t kArenaAlign = 16; // every allocation is rounded up to this
  Value *arena_base = nullptr;     // this thread's arena (a pointer)
  Value *arena_size = nullptr;     // its size in bytes (i64)
  AllocaInst *arena_top = nullptr; // bytes taken (i64)

  // A fresh contiguous array of `dims` from the arena.
  Val kernel_alloc(PrimType t, const std::vector<Value *> &dims);
  Value *arena_mark();                // null without an arena
  void arena_release(Value *mark);

  // Array statements inside a kernel that need memory (fn_gen_kernel.cpp).
  void kernel_array_stm(const core::Stm &s);

  // reduce_by_index in one thread, in index order: dsts[is[i]] op= vs[i] for the
  // indices in range. `dsts`: the destinations (the statement's arrays[0..k-1], copied).
  void hist_sequential(const core::Stm &s, const std::vector<Val> &dsts);

  // Kernel loops whose iterations make arrays: the array parameters live in two
  // buffers each, taken before the loop; each iteration's results are copied into the
  // buffer not holding the current values, and what the iteration took is released.
  struct Carry {
    std::vector<int> vars;              // the carried variables
    std::vector<AllocaInst *> next, other; // per array variable: its two buffers
    Value *mark = nullptr;
  };
  Carry carry_begin(const std::vector<int> &vars, const std::vector<Val> &init);
  // Copies the array values among `vals` into their next buffers; returns the values
  // to carry (scalars as they are).
  std::vector<Val> carry_next(Carry &c, const std::vector<Val> &vals);

  struct Deferral {
    AllocaInst *flag = nullptr; // i1: a deferred check failed
    BasicBlock *slow = nullptr; // the second copy of the work
    int deferred = 0;           // checks deferred so far
    // Variables no failed check can have given a value (Note [Clean values]): those
    // bound before the work, and those the work computes from them without a check.
    std::set<int> clean;
  };
  // Deferring: whether `e` reads only clean variables (Note [Clean values]).
  bool reads_clean(const core::Exp &e) const;
  // Deferring: the flag test before statement `s` if it needs one, and whether its
  // results are clean (Note [Clean values]).
  void deferred_stm(const core::Stm &s);
  Deferral *deferral_ = nullptr;

  const core::Program &p_;
  Module &m_;
  LLVMContext &c_;
  Function *f_;
  IRBuilder<> b_;
  ScalarOps ops_;
  Mode mode_;
  bool gpu_;
  std::map<int, Val> env_;
};

} // namespace kerb::codegen
