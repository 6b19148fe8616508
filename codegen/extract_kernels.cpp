// Kernel extraction: builds the kernel IR (codegen/kernel_ir.h) of a core program.
// Walks each entry point's body as the host code generator will, and decides for every
// statement whether it is host code, a map computed where it is read (fused), a host
// loop, or a kernel, and for a kernel how it runs (its strategy and parameters, its
// versions) and what its kernels are. The LLVM emitters read these decisions.
//
// Note [Kernel extraction]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Every choice here follows the core IR and what the host knows when it generates the
// statement (which variables it has bound; which maps of the body are computed where
// they are read). What only the run knows (sizes, the number of blocks the runtime
// gives, alignment) is left to guards: the operation has versions and the host tests
// their guards in order (Guard). In order of the checks:
//   map: a host loop if its lambda makes an array whose size only the element knows or
//     scans arrays of arrays (Note [Maps whose arrays are sized inside]); fused if its
//     readers read it whole (compiler/fusion.h); 2-D tiles for perfectly nested maps
//     (nested_inner_map; three deep, nested_map3: Note [Three nested maps] in
//     thread_kernels.cpp), four rows a thread (three deep: of one outer element) when
//     the inner element is straight-line code, with a 32-bit version when that code
//     and every fused map is straight-line and makes no arrays; a segmented reduction
//     when the lambda reduces (segmented_reduce), across rows when it reads an array
//     with the segment as its last index and the operator commutes, falling back to
//     the plain versions; one block per row (row_block_version) when the element is a
//     row (or every element reads the same arrays of the host whole: Note [Arrays
//     every element reads]) and the lambda is reductions, scans and maps over it and
//     scalar code, guarded by the row's length (GenOptions::row_block_min), after the
//     segmented reduction's versions; plain: 2-D tiles of ceil(n / p) x p for a map
//     over iota that splits its index (flat_split), else kMapLanes elements a thread
//     for straight-line scalar code that makes no arrays (lanes), else one thread per
//     element.
//   reduce and scan: block kernels for scalar operands whose operator and fused maps
//     make no arrays, else the chunked kernels; a commutative operator reduces in a
//     halving tree (in lanes when the fused maps are straight-line code), any other
//     in warp-contiguous runs; eight blocks per multiprocessor for 4- or 8-byte
//     results with nothing fused (the tiled kernels choose theirs when made, from
//     whether they have a failure path); a scan of scalars in one pass (decoupled
//     look-back, one tile per block) from GenOptions::scan_single_pass_min elements,
//     else reduce-then-scan.
//   reduce_by_index: an atomic update when the operator is one the code generator knows
//     as commutative on 32- or 64-bit scalars (an atomicrmw, or a compare-and-swap
//     loop), in shared memory when it is an atomicrmw and no fused map makes arrays
//     (wide updates: a gather, a loop, a division in the fused maps), paired with the
//     next reduce_by_index of its body when nothing between reads it (Note [Histograms
//     in one kernel]); otherwise one thread.
//   replicate of a scalar whose bytes a memset can set: a memset.
//   inside a kernel's thread (in_thread, for every lambda): a map or iota that its body
//     reads only whole is fused; a map's lambda writes the array results that a map,
//     iota or replicate of its body makes straight into the element's row.
// Kernel arguments follow (ProgramGen::add_input): the maps a kernel computes are those
// fused ones it reads, transitively; a kernel looks at the failure slot first when its
// code or a fused map's loops or indexes unchecked (needs_prelude).
#include "codegen/kernel_ir.h"

#include "codegen/fn_gen.h"
#include "codegen/scalar_ops.h"
#include "compiler/fusion.h"
#include "compiler/prim_ops.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <set>

namespace kerb::codegen {

namespace {

// Whether a body is straight-line scalar code (branches allowed): no loops, no SOACs,
// no arrays made.
bool elementwise(const core::Body &body);

bool elementwise_stm(const core::Stm &st) {
  switch (st.exp.kind) {
  case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
  case core::ExpKind::Convert: case core::ExpKind::PrimFn: case core::ExpKind::Index:
  case core::ExpKind::Assert: case core::ExpKind::Slice: case core::ExpKind::Rearrange:
    return true;
  case core::ExpKind::If:
    for (const auto &b : st.exp.bodies)
      if (b && !elementwise(*b)) return false;
    return true;
  default: return false;
  }
}

bool elementwise(const core::Body &body) {
  return std::all_of(body.stms.begin(), body.stms.end(), elementwise_stm);
}

// Note [Loops over rows, fewer threads]
// A map whose thread runs a for-loop reading arrays at `s + j` (j the counter, s any
// variable: a CSR row, `vals[s + j]` and `cols[s + j]`) streams rows of its own through
// the L1 cache, a 128-byte line of each row at a time. At full occupancy (eight blocks
// of 256 an SM, 2048 threads) spmv's lines need 2048 * 2 * 128 = 512 KB, more than the
// L1 holds, and a line is evicted before its thread comes back for the next element.
// Such a kernel runs at most kLoopL1Bytes / (256 * 128 * rows) blocks an SM (rows:
// the arrays the loop reads so; spmv's two give 3), so that every thread's lines fit
// (Kernel::max_blocks_per_sm; --loop-blocks-per-sm=N fixes N, off leaves every block
// that fits). Where one of the rows' arrays (Kernel::rows_array) has at least
// kLoopMinRowElems elements a thread (rows of 8 or more on average; tested at each
// launch, KernelDesc::rows_slot), the runtime launches it with dynamic shared memory
// that leaves room for no more, out of 32 KB of shared memory an SM, the rest of the
// H100's 256 KB (224, kLoopL1Bytes) left to the L1 (CudaDevice::bound_blocks_per_sm).
// Measured on the H100 (bench/results/2026-11-27-spmv-occupancy-h100): spmv (bench/unproved/spmv.fut, 2^21 rows of 0-31)
// 0.430 ms checked and 0.427 unchecked at three blocks against 0.558 and 0.533
// unbounded (call G; four blocks 0.446 / 0.461); rows of 0-23: 0.311 / 0.310 against
// 0.385 / 0.369; rows of 0-127: 0.480 / 0.495 against 0.678 / 0.636. Rows of 0-7
// nonzeros (a row of cols is one line: nothing to keep) were 8% slower bounded, the
// fewer threads hiding less latency (call V3): hence the test at launch; rows of 0-15
// were the same either way. Giving shared memory more of the SM (a smaller L1) was
// slower at every bound: 0.472 / 0.476 at four with 98 KB shared, 0.79 ms with all 228
// KB (calls Z, X). Other kernels keep every block that fits: gathers without rows of
// their own (bsearch, gather3) need the threads to hide their latency.
constexpr int64_t kLoopL1Bytes = 224 * 1024;

// The arrays that a for-loop in `body` reads at `s + j`, most of any one loop; *array
// one of them.
size_t rows_read_in_loops(const core::Body &body, int *array) {
  size_t most = 0;
  for (const core::Stm &st : body.stms) {
    const core::Exp &e = st.exp;
    for (const auto &b : e.bodies)
      if (b) most = std::max(most, rows_read_in_loops(*b, array));
    if (e.kind != core::ExpKind::Loop || e.is_while || e.loop_var < 0 || e.bodies.empty() || !e.bodies[0])
      continue;
    std::set<int> offsets; // s + j
    std::set<int> rows;    // arrays read at one
    for (const core::Stm &in : e.bodies[0]->stms) {
      const core::Exp &x = in.exp;
      if (x.kind == core::ExpKind::BinOp && x.binop == BinOp::Add && in.pat.size() == 1 && x.args[0].is_var() &&
          x.args[1].is_var() && (x.args[0].var == e.loop_var) != (x.args[1].var == e.loop_var))
        offsets.insert(in.pat[0]);
      if (x.kind == core::ExpKind::Index && !x.args.empty() && x.args.back().is_var() &&
          offsets.count(x.args.back().var))
        rows.insert(x.arrays[0]);
    }
    if (rows.size() > most) *array = *rows.begin();
    most = std::max(most, rows.size());
  }
  return most;
}

// Whether a reduction operator is commutative: a lambda whose body is one commutative
// operator (+ * & | ^ && || == != min max) on its two parameters.
bool commutative_operator(const core::Lambda &l) {
  if (l.params.size() != 2 || l.body.stms.size() != 1 || l.body.result.size() != 1) return false;
  const core::Stm &st = l.body.stms[0];
  const core::Exp &x = st.exp;
  if (!l.body.result[0].is_var() || st.pat.size() != 1 || l.body.result[0].var != st.pat[0])
    return false;
  bool op_ok = false;
  if (x.kind == core::ExpKind::BinOp) {
    switch (x.binop) {
    case BinOp::Add: case BinOp::Mul: case BinOp::BitAnd: case BinOp::BitOr:
    case BinOp::BitXor: case BinOp::LogAnd: case BinOp::LogOr: case BinOp::Eq:
    case BinOp::Neq:
      op_ok = true;
      break;
    default: break;
    }
  } else if (x.kind == core::ExpKind::PrimFn) {
    op_ok = x.prim_fn.fn == PrimFn::Min || x.prim_fn.fn == PrimFn::Max;
  }
  if (!op_ok || x.args.size() != 2 || !x.args[0].is_var() || !x.args[1].is_var()) return false;
  std::set<int> args{x.args[0].var, x.args[1].var}, params{l.params[0], l.params[1]};
  return args == params;
}

// Whether a Reduce (or Hist) may combine its elements in any order: reduce_comm (the
// program's word, any operator; core::Exp::comm) or a commutative_operator.
bool commutative(const core::Exp &e) { return e.comm || commutative_operator(*e.lambda); }

// Whether the body (nested bodies and lambdas included) scans arrays of arrays, which a
// kernel thread does not (FnGen::kernel_array_stm).
bool scans_rows(const core::Program &p, const core::Body &b) {
  for (const core::Stm &s : b.stms) {
    if (s.exp.kind == core::ExpKind::Scan)
      for (int v : s.pat)
        if (p.var(v).type.rank > 1) return true;
    for (const auto &nb : s.exp.bodies)
      if (nb && scans_rows(p, *nb)) return true;
    if (s.exp.lambda && scans_rows(p, s.exp.lambda->body)) return true;
  }
  return false;
}

// Bytes of a scalar in memory (bool as one byte).
int64_t prim_bytes(PrimType t) { return std::max(1, prim_bits(t) / 8); }

bool is_var(const core::SubExp &a, int v) { return a.is_var() && a.var == v; }

bool same_subexp(const core::SubExp &a, const core::SubExp &b) {
  return a.is_var() ? a.var == b.var : !b.is_var() && a.constant == b.constant;
}

// The operation a SOAC (or iota, replicate) is, if it is one.
std::optional<OpKind> op_kind(core::ExpKind k) {
  switch (k) {
  case core::ExpKind::Map: return OpKind::Map;
  case core::ExpKind::Iota: return OpKind::Iota;
  case core::ExpKind::Replicate: return OpKind::Replicate;
  case core::ExpKind::Reduce: return OpKind::Reduce;
  case core::ExpKind::Scan: return OpKind::Scan;
  case core::ExpKind::Scatter: return OpKind::Scatter;
  case core::ExpKind::Hist: return OpKind::Hist;
  default: return std::nullopt;
  }
}

// The operation of statement s (a SOAC, iota or replicate) at `level`, over its width
// (a scatter's or reduce_by_index's: the number of indices); `comm` for the operator of
// a grid-level one (a thread combines in order).
std::unique_ptr<SegOp> new_op(const core::Program &p, const core::Stm &s, Level level = Level::Grid) {
  const core::Exp &e = s.exp;
  auto op = std::make_unique<SegOp>();
  op->stm = &s;
  op->kind = *op_kind(e.kind);
  op->level = level;
  if (e.kind == core::ExpKind::Scatter || e.kind == core::ExpKind::Hist) {
    const core::VarInfo &is = p.var(e.arrays[e.kind == core::ExpKind::Scatter ? 1 : s.pat.size()]);
    op->space = {is.shape.empty() ? core::SubExp::i64(-1) : is.shape[0]};
  } else {
    op->space = {e.args[0]};
  }
  op->comm = level == Level::Grid &&
             (e.kind == core::ExpKind::Reduce || e.kind == core::ExpKind::Scan || e.kind == core::ExpKind::Hist) &&
             commutative(e);
  return op;
}

// The inputs of a kernel (ProgramGen::SlotList): the fused maps among them and among
// their own inputs, transitively, and whether any of those needs the prelude.
struct Inputs {
  std::set<int> added;
  std::vector<const core::Stm *> fused;
  std::vector<int> vars; // the values it gets (not fused), in order
  bool prelude = false;
};

class Extractor {
public:
  Extractor(const core::Program &p, GenOptions opts, KernelProgram &out)
      : p_(p), out_(out), row_block_min_(opts.row_block_min),
        scan_single_pass_min_(opts.scan_single_pass_min),
        scan_single_pass_wide_min_(opts.scan_single_pass_wide_min), row_cache_max_(opts.row_cache_max),
        stage_max_(opts.stage_max), stage_min_outputs_(opts.stage_min_outputs),
        row_warp_max_(opts.row_warp_max), row_warp_rows_(opts.row_warp_rows), block_tile_min_(opts.block_tile_min),
        loop_blocks_per_sm_(opts.loop_blocks_per_sm) {
    out_.may_fail = !p.failures.records.empty();
    out_.defer_checks = out_.may_fail && opts.deferred_checks;
  }

  void entry(const core::Function &fn) {
    fused_.clear();
    bound_.clear();
    defs_.clear();
    collect_defs(fn.body, defs_);
    for (size_t k = 0; k < fn.params.size(); k++) {
      bound_.insert(fn.params[k]);
      if (k < fn.param_shape_vars.size())
        for (int v : fn.param_shape_vars[k]) bound_.insert(v);
    }
    find_divisors(fn.body, false);
    out_.entries.push_back(KernelProgram::Entry{&fn, {}});
    block(fn.body, out_.entries.back().body);
  }

private:
  // ---- the host walk (as FnGen::body generates host code)

  void block(const core::Body &b, HostBlock &out) {
    for (const core::Stm &s : b.stms) host_stm(b, s, out);
  }

  void bind_pat(const core::Stm &s) { bound_.insert(s.pat.begin(), s.pat.end()); }

  void add_op(HostBlock &out, const core::Stm &s, std::unique_ptr<SegOp> op) {
    out_.ops_[&s] = op.get();
    HostItem it;
    it.kind = HostItem::Kind::Op;
    it.stm = &s;
    it.op = std::move(op);
    out.items.push_back(std::move(it));
  }

  void host_stm(const core::Body &b, const core::Stm &s, HostBlock &out) {
    const core::Exp &e = s.exp;
    switch (e.kind) {
    case core::ExpKind::Map:
    case core::ExpKind::Iota:
      if (e.kind == core::ExpKind::Map && host_loop(b, s)) {
        add_op(out, s, host_loop_op(b, s));
        break;
      }
      if (FnGen::consumed_whole(p_, b, s)) {
        std::unique_ptr<SegOp> op = new_op(p_, s);
        op->strategy = Strategy::Fused;
        for (int v : s.pat) fused_[v] = &s;
        add_op(out, s, std::move(op));
        break;
      }
      add_op(out, s, e.kind == core::ExpKind::Iota ? iota_op(s) : map_op(b, s));
      break;
    case core::ExpKind::Replicate: add_op(out, s, replicate_op(s)); break;
    case core::ExpKind::Reduce: add_op(out, s, reduce_op(s)); break;
    case core::ExpKind::Scan: add_op(out, s, scan_op(s)); break;
    case core::ExpKind::Scatter: add_op(out, s, scatter_op(b, s)); break;
    case core::ExpKind::Hist: {
      std::unique_ptr<SegOp> op = hist_op(b, s);
      // The first of a pair binds its result where its partner stands.
      bool waits = op->waits;
      add_op(out, s, std::move(op));
      if (waits) return;
      break;
    }
    case core::ExpKind::If: {
      HostItem it;
      it.kind = HostItem::Kind::If;
      it.stm = &s;
      it.blocks.resize(2);
      block(*e.bodies[0], it.blocks[0]);
      block(*e.bodies[1], it.blocks[1]);
      out.items.push_back(std::move(it));
      break;
    }
    case core::ExpKind::Loop: {
      HostItem it;
      it.kind = HostItem::Kind::Loop;
      it.stm = &s;
      bound_.insert(e.loop_params.begin(), e.loop_params.end());
      if (e.loop_var >= 0) bound_.insert(e.loop_var);
      if (e.is_while) {
        it.blocks.emplace_back();
        block(*e.bodies[1], it.blocks.back());
      }
      it.blocks.emplace_back();
      block(*e.bodies[0], it.blocks.back());
      out.items.push_back(std::move(it));
      break;
    }
    case core::ExpKind::ArrayLit: case core::ExpKind::Copy: case core::ExpKind::Update:
    case core::ExpKind::UpdateSlice: case core::ExpKind::Reshape: case core::ExpKind::Concat: {
      HostItem it;
      it.kind = HostItem::Kind::Array;
      it.stm = &s;
      out.items.push_back(std::move(it));
      break;
    }
    default: break;
    }
    bind_pat(s);
  }

  // ---- what the host knows

  // A size or scalar the host has: a constant or a scalar bound in host code.
  bool on_host(const core::SubExp &w) const { return !w.is_var() || bound_.count(w.var); }

  // Whether the host can compute a size before a kernel that needs it: bound on the
  // host, or scalar arithmetic on such values in the lambdas (ProgramGen::host_size).
  bool size_known(const core::SubExp &s) const {
    return host_size_known(s, defs_, [&](int v) -> std::optional<bool> {
      if (!bound_.count(v)) return std::nullopt;
      return p_.var(v).type.rank == 0;
    });
  }

  // Integer variables that some lambda divides by (/ % // %%).
  void find_divisors(const core::Body &b, bool in_lambda) {
    for (const core::Stm &s : b.stms) {
      const core::Exp &e = s.exp;
      if (in_lambda && e.kind == core::ExpKind::BinOp && e.args[1].is_var() &&
          magic_division(e.binop, p_.var(e.args[1].var).type.prim))
        out_.divisors.insert(e.args[1].var);
      for (const auto &nb : e.bodies)
        if (nb) find_divisors(*nb, in_lambda);
      if (e.lambda) find_divisors(e.lambda->body, true);
    }
  }

  // ---- kernel inputs

  void add_input(Inputs &in, int v) const {
    if (!in.added.insert(v).second) return;
    auto lz = fused_.find(v);
    if (lz == fused_.end()) {
      in.vars.push_back(v);
      return;
    }
    const core::Stm &ms = *lz->second;
    in.added.insert(ms.pat.begin(), ms.pat.end());
    in.fused.push_back(&ms);
    if (ms.exp.args[0].is_var()) add_input(in, ms.exp.args[0].var);
    if (ms.exp.kind == core::ExpKind::Iota) return; // computed from the index alone
    in.prelude = in.prelude || needs_prelude(ms.exp.lambda->body);
    for (int f : lambda_free_vars(p_, *ms.exp.lambda)) add_input(in, f);
    for (int a : ms.exp.arrays) add_input(in, a);
  }

  Inputs inputs(const core::Lambda *free_of, const std::vector<int> &arrays) const {
    Inputs in;
    if (free_of)
      for (int v : lambda_free_vars(p_, *free_of)) add_input(in, v);
    for (int a : arrays) add_input(in, a);
    return in;
  }

  // Whether a fused map among `in` makes arrays (scratch memory in the kernel).
  bool fused_allocate(const Inputs &in) const {
    for (const core::Stm *f : in.fused)
      if (f->exp.kind == core::ExpKind::Map && body_allocates(p_, f->exp.lambda->body)) return true;
    return false;
  }

  // Whether the fused maps among `in` are all straight-line code.
  static bool fused_elementwise(const Inputs &in) {
    for (const core::Stm *f : in.fused)
      if (f->exp.kind == core::ExpKind::Map && !elementwise(f->exp.lambda->body)) return false;
    return true;
  }

  // The operation's kernels read `in`: its fused maps and the values they get.
  static void add_inputs(SegOp &op, const Inputs &in) {
    for (const core::Stm *f : in.fused)
      if (std::find(op.fused.begin(), op.fused.end(), f) == op.fused.end()) op.fused.push_back(f);
    for (int v : in.vars)
      if (std::find(op.inputs.begin(), op.inputs.end(), v) == op.inputs.end()) op.inputs.push_back(v);
  }

  // Whether the maps fused into these arrays (recursively) are straight-line code, cheap
  // to recompute in every thread that reads an element.
  bool cheap_inputs(const std::vector<int> &arrays) const {
    return std::all_of(arrays.begin(), arrays.end(), [&](int a) {
      auto lz = fused_.find(a);
      if (lz == fused_.end() || lz->second->exp.kind != core::ExpKind::Map) return true;
      const core::Exp &m = lz->second->exp;
      return elementwise(m.lambda->body) && cheap_inputs(m.arrays);
    });
  }

  // Whether code run on garbage (after an earlier kernel failed) could loop for long or
  // touch memory out of bounds: loops (their bounds may come from data), and indexing
  // or updates without a check (#[unsafe], --unsafe; not those proved in range, which
  // are in bounds whatever the data).
  bool needs_prelude(const core::Body &b) const {
    for (const core::Stm &st : b.stms) {
      const core::Exp &x = st.exp;
      if (x.kind == core::ExpKind::Loop) return true;
      // An index whose check was proved not to fail is in bounds whatever the data
      // (docs/CHECKS.md, Note [Proved in range]).
      if ((x.kind == core::ExpKind::Index || x.kind == core::ExpKind::Update) && x.site < 0 &&
          !x.args.empty() && !(x.check >= 0 && p_.candidates[size_t(x.check)].eliminated()))
        return true;
      for (const auto &nb : x.bodies)
        if (nb && needs_prelude(*nb)) return true;
      if (x.lambda && needs_prelude(x.lambda->body)) return true;
    }
    return false;
  }

  // Whether `b` (its nested bodies and lambdas included) holds a kept check.
  static bool has_checks(const core::Body &b) {
    bool any = false;
    core::for_each_exp(b, [&](const core::Exp &x) { any = any || x.site >= 0; });
    return any;
  }

  // The prelude of a kernel: a program none of whose checks can fail has none.
  bool prelude(bool wanted) const { return wanted && out_.may_fail; }

  Kernel kernel(const char *name, bool blocks, std::string launch, bool prelude_wanted, bool rerun) const {
    Kernel k;
    k.name = name;
    k.blocks = blocks;
    k.launch = std::move(launch);
    k.prelude = prelude(prelude_wanted);
    k.rerun = rerun;
    return k;
  }

  std::string sub(const core::SubExp &s) const {
    if (s.is_var()) return p_.var(s.var).name;
    return std::to_string(s.constant.as_i64());
  }

  // ---- maps

  // Note [Maps whose arrays are sized inside] in program_gen.cpp: the lambda makes an
  // array whose size the host cannot know before a launch, or scans arrays of arrays.
  bool host_loop(const core::Body &b, const core::Stm &s) const {
    const core::Exp &e = s.exp;
    // In a kernel the lambda's results are written in place, except when the map is
    // fused into its readers (then they are arrays of the element).
    std::map<int, size_t> dests;
    if (!FnGen::consumed_whole(p_, b, s)) dests = FnGen::in_place_results(p_, *e.lambda);
    auto known = [&](const core::SubExp &d) { return size_known(d); };
    return arena_dynamic(p_, e.lambda->body, dests, known) || scans_rows(p_, e.lambda->body);
  }

  std::unique_ptr<SegOp> host_loop_op(const core::Body &b, const core::Stm &s) {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    op->strategy = Strategy::HostLoop;
    // Its arrays are read row by row on the host: those computed where read (fused maps
    // and iotas) are computed first, by kernels of their own.
    for (int a : e.arrays) {
      auto lz = fused_.find(a);
      if (lz == fused_.end()) continue;
      const core::Stm &ls = *lz->second;
      for (int v : ls.pat) fused_.erase(v);
      // (Generated while the host loop's body is the one being generated.)
      op->materialized.push_back(ls.exp.kind == core::ExpKind::Iota ? iota_op(ls) : map_op(b, ls));
    }
    // The lambda as host code; its variables are not the host's after the loop.
    std::set<int> before = bound_;
    bound_.insert(e.lambda->params.begin(), e.lambda->params.end());
    op->host_body = std::make_unique<HostBlock>();
    block(e.lambda->body, *op->host_body);
    bound_ = std::move(before);
    return op;
  }

  std::unique_ptr<SegOp> iota_op(const core::Stm &s) const {
    std::unique_ptr<SegOp> op = new_op(p_, s);
    op->strategy = Strategy::Threads;
    op->versions.push_back(Version{Guard::Always, Strategy::Threads,
                                   {kernel("iota", false, sub(s.exp.args[0]), false, false)}});
    return op;
  }

  // Perfectly nested maps, `map (\x -> ... map g ys) xs` whose outer lambda is scalar
  // code (and iotas) followed by one inner map of scalars whose results are the
  // lambda's, whose width is known on the host, whose element makes no arrays, and
  // whose outer arrays are cheap to recompute: the inner map.
  const core::Stm *nested_inner_map(const core::Stm &s) const {
    const core::Body &body = s.exp.lambda->body;
    const core::Stm *in = last_map(body, 1);
    if (!in || !nest_statements(body, false)) return nullptr;
    // Maps fused into the outer arrays are recomputed by every thread of a row.
    if (!cheap_inputs(s.exp.arrays)) return nullptr;
    // The inner element's work may loop or reduce, but not make arrays (there would be
    // scratch memory for every inner element).
    if (body_allocates(p_, in->exp.lambda->body)) return nullptr;
    return in;
  }

  // Three perfectly nested maps (Note [Three nested maps]), `map (\x -> ... map (\y ->
  // ... map g zs) ys) xs`: as nested_inner_map, with the middle map's element a row
  // (the middle map's results the outer lambda's, of rank 2), the statements before
  // either map also views (`transpose b`), and the middle width known on the host. The
  // inner map, and the middle one in `middle`.
  const core::Stm *nested_map3(const core::Stm &s, const core::Stm *&middle) const {
    const core::Body &body = s.exp.lambda->body;
    const core::Stm *mid = last_map(body, 2);
    if (!mid || !nest_statements(body, true)) return nullptr;
    const core::Body &mbody = mid->exp.lambda->body;
    const core::Stm *in = last_map(mbody, 1);
    if (!in || !nest_statements(mbody, true)) return nullptr;
    if (!cheap_inputs(s.exp.arrays) || body_allocates(p_, in->exp.lambda->body)) return nullptr;
    middle = mid;
    return in;
  }

  // The inner element of three nested maps whose rows a thread can run in one loop
  // (Note [Three nested maps] in thread_kernels.cpp), `reduce op ne (map f xs)`: scalar
  // results; before the one reduction, maps and iotas that it reads whole (fused) whose
  // lambdas are straight-line code, and straight-line statements; the reduction of
  // scalars over rank-1 arrays, its width known on the host (the same for every row)
  // and its operator straight-line code; straight-line statements after it. The
  // reduction.
  const core::Stm *row_loop_reduce(const core::Lambda &l) const {
    const core::Body &body = l.body;
    for (const core::SubExp &r : body.result)
      if (p_.type_of(r).rank != 0) return nullptr;
    const core::Stm *red = nullptr;
    for (const core::Stm &st : body.stms) {
      if (st.exp.kind == core::ExpKind::Reduce && !red) {
        red = &st;
        continue;
      }
      if (!red && (st.exp.kind == core::ExpKind::Iota || st.exp.kind == core::ExpKind::Map)) {
        if (!FnGen::consumed_whole(p_, body, st)) return nullptr;
        if (st.exp.lambda && !elementwise(st.exp.lambda->body)) return nullptr;
        continue;
      }
      if (!elementwise_stm(st)) return nullptr;
    }
    if (!red) return nullptr;
    for (int v : red->pat)
      if (p_.var(v).type.rank != 0) return nullptr;
    for (int a : red->exp.arrays)
      if (p_.var(a).type.rank != 1) return nullptr;
    if (!elementwise(red->exp.lambda->body) || !on_host(red->exp.args[0])) return nullptr;
    return red;
  }

  // The last statement of a nest's lambda body if it is a map whose results are the
  // body's, each of rank `rank`, and whose width is known on the host (a constant or a
  // size bound outside).
  const core::Stm *last_map(const core::Body &body, int rank) const {
    if (body.stms.empty()) return nullptr;
    const core::Stm &in = body.stms.back();
    if (in.exp.kind != core::ExpKind::Map || in.pat.size() != body.result.size()) return nullptr;
    for (size_t j = 0; j < in.pat.size(); j++) {
      const core::SubExp &r = body.result[j];
      if (!r.is_var() || r.var != in.pat[j] || p_.var(in.pat[j]).type.rank != rank) return nullptr;
    }
    if (!on_host(in.exp.args[0])) return nullptr;
    return &in;
  }

  // Whether the statements of a nest's lambda body before its last (the map nested in
  // it) are what every thread of the nest may run again: scalar code, iotas that the
  // map reads whole, and (where `views`) views.
  bool nest_statements(const core::Body &body, bool views) const {
    for (size_t k = 0; k + 1 < body.stms.size(); k++) {
      const core::Stm &st = body.stms[k];
      if (st.exp.kind == core::ExpKind::Iota) {
        if (!FnGen::consumed_whole(p_, body, st)) return false;
        continue;
      }
      if (st.exp.bodies.empty() && !st.exp.lambda) {
        switch (st.exp.kind) {
        case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
        case core::ExpKind::Convert: case core::ExpKind::PrimFn: case core::ExpKind::Index:
        case core::ExpKind::Assert: break;
        case core::ExpKind::Rearrange: case core::ExpKind::Slice:
          if (!views) return false;
          break;
        default: return false;
        }
        continue;
      }
      if (st.exp.kind != core::ExpKind::If) return false;
      for (const auto &b : st.exp.bodies)
        if (b && !elementwise(*b)) return false;
    }
    return true;
  }

  // A map over few elements (segments) whose lambda is cheap statements, one reduction
  // over scalars of a long array (typically a map fused into it), and straight-line
  // scalar statements after it: the reduction.
  const core::Stm *segmented_reduce(const core::Stm &s) const {
    const core::Body &body = s.exp.lambda->body;
    for (int v : s.pat)
      if (p_.var(v).type.rank != 1) return nullptr;
    size_t r = 0;
    while (r < body.stms.size() && body.stms[r].exp.kind != core::ExpKind::Reduce) r++;
    if (r == body.stms.size()) return nullptr;
    const core::Stm &red = body.stms[r];
    const core::Exp &re = red.exp;
    // Scalar operands, as the block kernels take them (block_operands).
    for (int v : red.pat)
      if (p_.var(v).type.rank != 0) return nullptr;
    for (int a : re.arrays)
      if (p_.var(a).type.rank != 1) return nullptr;
    if (body_allocates(p_, re.lambda->body)) return nullptr;
    // The width is known on the host (the blocks per segment), and so are the
    // operator's free variables (the kernels' trees combine outside the segment's
    // statements).
    if (!on_host(re.args[0])) return nullptr;
    for (int v : lambda_free_vars(p_, *re.lambda))
      if (!bound_.count(v)) return nullptr;
    // Before the reduction: scalar code, views, and maps and iotas that it reads whole
    // (fused into it), which make no arrays; after it: scalar code.
    for (size_t k = 0; k < body.stms.size(); k++) {
      const core::Stm &st = body.stms[k];
      if (k == r) continue;
      if (k < r && (st.exp.kind == core::ExpKind::Iota || st.exp.kind == core::ExpKind::Map)) {
        if (!FnGen::consumed_whole(p_, body, st)) return nullptr;
        if (st.exp.lambda && body_allocates(p_, st.exp.lambda->body)) return nullptr;
        continue;
      }
      if (!elementwise_stm(st)) return nullptr;
    }
    if (!cheap_inputs(s.exp.arrays)) return nullptr;
    return &red;
  }

  // Whether few segments of this segmented reduction are better reduced across rows:
  // a commutative operator, and the lambda reads some array with the segment as its
  // last index (w[i, j]: consecutive segments read neighbouring elements).
  bool segred_across_rows(const core::Stm &s, const core::Stm &red) const {
    if (!commutative(red.exp)) return false;
    const core::Lambda &l = *s.exp.lambda;
    std::set<int> seg(l.params.begin(), l.params.end());
    std::function<bool(const core::Body &)> minor = [&](const core::Body &body) {
      for (const core::Stm &st : body.stms) {
        const core::Exp &x = st.exp;
        if (x.kind == core::ExpKind::Index && x.args.size() >= 2 &&
            int(x.args.size()) == p_.var(x.arrays[0]).type.rank && x.args.back().is_var() &&
            seg.count(x.args.back().var))
          return true;
        if (x.lambda && minor(x.lambda->body)) return true;
        for (const std::unique_ptr<core::Body> &bb : x.bodies)
          if (minor(*bb)) return true;
      }
      return false;
    };
    return minor(l.body);
  }

  // A map over iota n whose lambda is not straight-line code (that runs in lanes) and
  // splits its index t into t / p and t % p at its top level (Div or Quot, Mod or Rem;
  // the same p, an i64 known on the host): p and those statements' results.
  bool flat_split(const core::Stm &s, SegOp &op) const {
    const core::Exp &e = s.exp;
    if (e.arrays.size() != 1 || elementwise(e.lambda->body)) return false;
    auto lz = fused_.find(e.arrays[0]);
    if (lz == fused_.end() || lz->second->exp.kind != core::ExpKind::Iota || lz->second->exp.to != PrimType::I64)
      return false;
    int t = e.lambda->params[0];
    bool have_p = false;
    std::vector<int> quot, rem;
    core::SubExp p;
    for (const core::Stm &st : e.lambda->body.stms) {
      const core::Exp &x = st.exp;
      if (x.kind != core::ExpKind::BinOp || !is_var(x.args[0], t)) continue;
      bool q = x.binop == BinOp::Div || x.binop == BinOp::Quot;
      bool r = x.binop == BinOp::Mod || x.binop == BinOp::Rem;
      if (!q && !r) continue;
      const core::SubExp &d = x.args[1];
      if (!on_host(d)) continue;
      if (have_p && !same_subexp(d, p)) continue;
      if (!have_p && p_.type_of(d).prim != PrimType::I64) continue;
      p = d;
      have_p = true;
      (q ? quot : rem).push_back(st.pat[0]);
    }
    if (quot.empty() || rem.empty()) return false;
    op.split_p = p;
    op.split_quot = quot;
    op.split_rem = rem;
    return true;
  }

  // Whether s is a map of one element (width the constant 1) each of whose results the
  // host reads once, at [0], and nothing else reads (Note [Sequential loops in one
  // thread] in compiler/offload_sequential_loops.cpp): its results go to read-back
  // memory.
  bool read_back_once(const core::Body &body, const core::Stm &s) const {
    const core::Exp &e = s.exp;
    if (e.args[0].is_var() || e.args[0].constant.as_i64() != 1) return false;
    for (int v : s.pat) {
      if (p_.var(v).type.rank != 1) return false;
      for (const core::SubExp &r : body.result)
        if (is_var(r, v)) return false;
      // One reader: an Index of [0] in the same body (not in a branch, loop or lambda).
      int readers = 0;
      for (const core::Stm &st : body.stms) {
        if (&st == &s || !core::mentions(st.exp, {v})) continue;
        const core::Exp &x = st.exp;
        bool at_0 = x.kind == core::ExpKind::Index && x.arrays[0] == v && x.args.size() == 1 &&
                    !x.args[0].is_var() && x.args[0].constant.as_i64() == 0;
        if (!at_0 || ++readers > 1) return false;
      }
      if (readers != 1) return false;
    }
    return true;
  }

  // A map's kernels read its lambda's free variables, then its arrays.
  Inputs map_inputs(const core::Stm &s) const { return inputs(s.exp.lambda.get(), s.exp.arrays); }

  // Whether a map kernel's threads need scratch memory: its lambda (results in place)
  // or a map fused into it makes arrays.
  bool map_arena(const core::Stm &s, const Inputs &in) const {
    return arena_need(p_, s.exp.lambda->body, FnGen::in_place_results(p_, *s.exp.lambda), nullptr, {}).any ||
           fused_allocate(in);
  }

  // The versions of a map that is not nested or a segmented reduction (the last ones
  // of a segmented reduction's).
  void plain_map_versions(const core::Stm &s, SegOp &op) const {
    const core::Exp &e = s.exp;
    Inputs in = map_inputs(s);
    add_inputs(op, in);
    bool pre = in.prelude || needs_prelude(e.lambda->body);
    std::string n = sub(e.args[0]);
    if (flat_split(s, op)) {
      op.versions.push_back(Version{Guard::SplitPositive, Strategy::SplitTiles,
                                    {kernel("map", false, "tiles of ceil(" + n + " / " + sub(op.split_p) + ") x " +
                                                              sub(op.split_p),
                                            pre, true)}});
      op.versions.push_back(Version{Guard::Always, Strategy::Threads, {kernel("map", false, n, pre, true)}});
      return;
    }
    bool lanes = !map_arena(s, in) && elementwise(e.lambda->body) && fused_elementwise(in);
    for (int v : s.pat)
      if (p_.var(v).type.rank != 1) lanes = false;
    if (lanes) {
      op.elems_per_thread = kMapLanes;
      op.versions.push_back(Version{Guard::Always, Strategy::Lanes,
                                    {kernel("map", false, "ceil(" + n + " / " + std::to_string(kMapLanes) + ")",
                                            pre, true)}});
      return;
    }
    Kernel k = kernel("map", false, n, pre, true);
    int array = -1;
    if (size_t rows = loop_blocks_per_sm_ >= 0 ? rows_read_in_loops(e.lambda->body, &array) : 0) {
      int64_t fit = kLoopL1Bytes / (kGpuThreadsBlock * 128 * int64_t(rows));
      int64_t most = loop_blocks_per_sm_ > 0 ? loop_blocks_per_sm_ : std::max<int64_t>(fit, 1);
      if (most < kGpuMaxThreadsSm / kGpuThreadsBlock) {
        k.max_blocks_per_sm = most;
        // (A row array of rank 1 bound on the host: its length is a kernel argument.)
        if (p_.var(array).type.rank == 1) k.rows_array = array;
      }
    }
    op.versions.push_back(Version{Guard::Always, Strategy::Threads, {k}});
  }

  // The 2-D tiles' versions of a nest of two or three maps (op's rows_per_thread and
  // rows_loop set): the 32-bit kernel first where the elements are straight-line code
  // (in a loop, i32 offsets, sign-extended per access, keep LLVM from stepping the
  // addresses: matmul's k loop became slower), then the 64-bit one. Several rows a
  // thread take launch bounds (Note [Rows per thread], the last paragraph): always in
  // the 32-bit kernel, in the 64-bit one where it has checks and runs its rows one after
  // another (not rows_loop's one loop).
  void tile_versions(SegOp &op, const core::Stm &s, const Inputs &in, bool pre, bool straight_inner,
                     const std::string &tiles) const {
    bool checked = out_.may_fail && has_checks(s.exp.lambda->body);
    for (const core::Stm *f : in.fused) checked = checked || (f->exp.lambda && has_checks(f->exp.lambda->body));
    if (!map_arena(s, in) && straight_inner && fused_elementwise(in)) {
      Kernel k = kernel("map", false, tiles, pre, true);
      if (op.rows_per_thread > 1) k.blocks_per_sm = kTileRowsBlocksPerSm;
      op.versions.push_back(Version{Guard::Narrow, Strategy::Tiles, {k}});
    }
    Kernel k = kernel("map", false, tiles, pre, true);
    if (op.rows_per_thread > 1 && checked && !op.rows_loop) k.blocks_per_sm = kTileRowsBlocksPerSm;
    op.versions.push_back(Version{Guard::Always, Strategy::Tiles, {k}});
  }

  // `body`: the body being generated (read_back_once looks for the readers there).
  std::unique_ptr<SegOp> map_op(const core::Body &body, const core::Stm &s) const {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    op->read_back = read_back_once(body, s);
    std::string n = sub(e.args[0]);
    const core::Stm *middle = nullptr, *inner = nested_inner_map(s);
    if (!inner) inner = nested_map3(s, middle);
    if (middle) {
      // Three nested maps: the rows n * max(mw, 1) middle elements (Note [Three nested
      // maps]), in groups of four consecutive ones of an outer element a thread and with
      // a 32-bit version, launch bounds included, as two nested maps below; four rows
      // a thread also when the inner element is a reduction (rows_loop).
      op->inner = inner;
      op->middle = middle;
      op->space.push_back(middle->exp.args[0]);
      op->space.push_back(inner->exp.args[0]);
      Inputs in = map_inputs(s);
      add_inputs(*op, in);
      bool pre = in.prelude || needs_prelude(e.lambda->body);
      bool straight_inner = elementwise(inner->exp.lambda->body);
      op->rows_per_thread = straight_inner ? kTileRows : 1;
      // A reduction (a product's dot): four rows a thread too, their reductions in one
      // loop, 64-bit only (as a loop's offsets are for two maps).
      if (!straight_inner && row_loop_reduce(*inner->exp.lambda) && !map_arena(s, in)) {
        op->rows_per_thread = kTileRows;
        op->rows_loop = true;
        staged_version(s, *op, in, pre);
      }
      tile_versions(*op, s, in, pre, straight_inner,
                    "tiles of " + n + " * max(" + sub(middle->exp.args[0]) + ", 1) x max(" +
                        sub(inner->exp.args[0]) + ", 1)");
    } else if (inner) {
      op->inner = inner;
      op->space.push_back(inner->exp.args[0]);
      Inputs in = map_inputs(s);
      add_inputs(*op, in);
      bool pre = in.prelude || needs_prelude(e.lambda->body);
      block_tiled_version(s, *op);
      bool straight_inner = elementwise(inner->exp.lambda->body);
      op->rows_per_thread = straight_inner ? kTileRows : 1;
      tile_versions(*op, s, in, pre, straight_inner, "tiles of " + n + " x max(" + sub(inner->exp.args[0]) + ", 1)");
    } else if (const core::Stm *red = segmented_reduce(s)) {
      op->red = red;
      op->space.push_back(red->exp.args[0]);
      op->comm = commutative(red->exp);
      Inputs in = map_inputs(s);
      add_inputs(*op, in);
      bool pre = in.prelude || needs_prelude(e.lambda->body);
      std::string m = sub(red->exp.args[0]);
      if (segred_across_rows(s, *red)) {
        op->unroll = kRowsUnroll;
        op->versions.push_back(Version{Guard::SegRedRowsFit, Strategy::SegRedRows,
                                       {kernel("segred_rows", true, "num_blocks(" + m + " * " + n + ")", pre, true),
                                        kernel("segred_segments", true, n, true, true)}});
      }
      op->versions.push_back(Version{Guard::SegRedFit, Strategy::SegRed,
                                     {kernel("segred", true, n + " * num_blocks(" + m + ")", pre, true),
                                      kernel("segred_segments", true, n, true, true)}});
      // (Not where the segment is the last index of an array the lambda reads: one
      // thread per segment reads neighbouring elements, a block per segment would not.)
      if (!segred_across_rows(s, *red)) row_block_version(s, *op);
      block_tiled_version(s, *op);
      plain_map_versions(s, *op);
    } else {
      block_tiled_version(s, *op);
      row_block_version(s, *op);
      plain_map_versions(s, *op);
    }
    op->strategy = op->versions.front().strategy;
    thread_body(*op);
    return op;
  }

  // ---- one block per row (Note [One block per row] in row_block_kernels.cpp)

  // Whether map s runs one block per element in a version of its own (Strategy::
  // RowBlock), and if so that version (added to op) and its block-level body. The
  // lambda's statements must each be
  //   - scalar code (straight-line, branches allowed, views): every thread runs it;
  //   - a map or iota computed where read (fused; making no arrays);
  //   - a reduction of scalars over one-dimensional arrays (its operator makes no
  //     arrays): a block reduction, striped over the threads when the operator
  //     commutes, else a contiguous chunk a thread;
  //   - a map of scalars whose results are all results of the lambda (in place into
  //     the element's row), or a scan of scalars whose results are: striped;
  // with at least one reduction or scan, the lambda's results those rows or scalars, the
  // map reading an array of arrays (its element a row), the first block-level
  // operation's width known on the host (the guard's), and no map fused into the map's
  // arrays making arrays (the kernel has no scratch memory).
  bool row_block_version(const core::Stm &s, SegOp &op) const {
    if (row_block_min_ < 0) return false;
    // The element is a row: the map reads an array of arrays (not a gather over iota,
    // as matmul's flat dot products, whose threads share columns in 2-D tiles). Or
    // every element reads the same arrays of the host whole (Note [Arrays every
    // element reads]).
    bool row =
        std::any_of(s.exp.arrays.begin(), s.exp.arrays.end(), [&](int a) { return p_.var(a).type.rank >= 2; });
    const core::Lambda &l = *s.exp.lambda;
    const core::Body &body = l.body;
    std::map<int, size_t> in_place = FnGen::in_place_results(p_, l);
    std::set<int> results;
    for (const core::SubExp &r : body.result)
      if (r.is_var()) results.insert(r.var);
    auto all_results = [&](const core::Stm &st) {
      for (int v : st.pat)
        if (!results.count(v) || p_.var(v).type.rank != 1) return false;
      return true;
    };
    auto scalar_operands = [&](const core::Stm &st) {
      for (int a : st.exp.arrays)
        if (p_.var(a).type.rank != 1) return false;
      return !body_allocates(p_, st.exp.lambda->body);
    };
    std::vector<std::unique_ptr<SegOp>> ops;
    std::set<int> rows; // the lambda's array results that block-level operations write
    bool reduces = false;
    // A map that only scans (and maps and reductions) of the body read, whole: in a
    // block each element of the scan is read once, so it is computed there too
    // (fusion's rule, compiler/fusion.h, leaves scans out: other scans read twice).
    auto read_whole_by_scans = [&](const core::Stm &st) {
      if (st.exp.kind != core::ExpKind::Map) return false;
      std::set<int> vars(st.pat.begin(), st.pat.end());
      for (int v : st.pat)
        if (p_.var(v).type.rank != 1 || results.count(v)) return false;
      bool after = false;
      for (const core::Stm &t : body.stms) {
        after = after || &t == &st;
        if (!after || &t == &st || !core::mentions(t.exp, vars)) continue;
        const core::Exp &x = t.exp;
        if (x.kind != core::ExpKind::Map && x.kind != core::ExpKind::Reduce && x.kind != core::ExpKind::Scan)
          return false;
        for (const core::SubExp &a : x.args)
          if (a.is_var() && vars.count(a.var)) return false;
        if (x.lambda) {
          for (const core::Stm &u : x.lambda->body.stms)
            if (core::mentions(u.exp, vars)) return false;
          for (const core::SubExp &r : x.lambda->body.result)
            if (r.is_var() && vars.count(r.var)) return false;
        }
      }
      return true;
    };
    for (const core::Stm &st : body.stms) {
      const core::Exp &e = st.exp;
      if ((e.kind == core::ExpKind::Map || e.kind == core::ExpKind::Iota) &&
          (out_.in_thread(st) == Strategy::Fused || read_whole_by_scans(st))) {
        if (e.lambda && body_allocates(p_, e.lambda->body)) return false;
        std::unique_ptr<SegOp> b = new_op(p_, st, Level::Block);
        b->strategy = Strategy::Fused;
        ops.push_back(std::move(b));
        continue;
      }
      if (e.kind == core::ExpKind::Reduce) {
        for (int v : st.pat)
          if (p_.var(v).type.rank != 0) return false;
        if (!scalar_operands(st)) return false;
        std::unique_ptr<SegOp> b = new_op(p_, st, Level::Block);
        b->comm = commutative(e);
        b->strategy = b->comm ? Strategy::Striped : Strategy::Chunked;
        ops.push_back(std::move(b));
        reduces = true;
        continue;
      }
      if ((e.kind == core::ExpKind::Scan || (e.kind == core::ExpKind::Map && in_place.count(st.pat[0]))) &&
          all_results(st)) {
        if (!scalar_operands(st)) return false;
        std::unique_ptr<SegOp> b = new_op(p_, st, Level::Block);
        b->strategy = Strategy::Striped;
        ops.push_back(std::move(b));
        rows.insert(st.pat.begin(), st.pat.end());
        reduces = reduces || e.kind == core::ExpKind::Scan;
        continue;
      }
      if (!elementwise_stm(st)) return false;
    }
    if (!reduces || (!row && !reads_host_arrays_whole(ops))) return false;
    for (const core::SubExp &r : body.result)
      if (r.is_var() && p_.var(r.var).type.rank != 0 && !rows.count(r.var)) return false;
    // (Each result row written once.)
    for (size_t j = 0; j < body.result.size(); j++)
      for (size_t k = 0; k < j; k++)
        if (body.result[j].is_var() && is_var(body.result[k], body.result[j].var) &&
            p_.var(body.result[j].var).type.rank != 0)
          return false;
    const SegOp *first = nullptr;
    for (const auto &b : ops)
      if (b->strategy != Strategy::Fused) {
        first = b.get();
        break;
      }
    if (!on_host(first->space[0])) return false;
    Inputs in = map_inputs(s);
    if (op.space.size() == 1) op.space.push_back(first->space[0]);
    if (fused_allocate(in)) return false;
    add_inputs(op, in);
    op.block_body = std::move(ops);
    op.row_block_min = row_block_min_;
    bool pre = in.prelude || needs_prelude(s.exp.lambda->body);
    bool cached = row_cache_version(s, op);
    if (row_warp_max_ > 0) {
      // (Note [A warp per row] in row_block_kernels.cpp.)
      int64_t bytes = 0;
      for (size_t j : op.cached_rows) bytes += prim_bytes(p_.var(s.exp.lambda->params[j]).type.prim);
      op.warp_copies = cached;
      op.row_warp_max = cached ? std::min(row_warp_max_, kRowCacheBytes / (kRowWarpRows * bytes)) : row_warp_max_;
      op.row_warp_rows = row_warp_rows_;
      if (op.row_warp_max >= std::max<int64_t>(row_block_min_, 1))
        op.versions.push_back(Version{
            Guard::RowWarpFit, Strategy::RowWarp,
            {kernel("row_warp", true, fmt::format("ceil({} / {})", sub(s.exp.args[0]), kRowWarpRows), pre, false)}});
    }
    if (cached)
      op.versions.push_back(
          Version{Guard::RowCacheFit, Strategy::RowCached, {kernel("row_cache", true, sub(s.exp.args[0]), pre, false)}});
    op.versions.push_back(
        Version{Guard::RowBlockFit, Strategy::RowBlock, {kernel("row_block", true, sub(s.exp.args[0]), pre, false)}});
    return true;
  }

  // Whether the three nested maps s whose inner element reduces (op.rows_loop) also get
  // a version of one block per outer element with its arrays in shared memory (Note
  // [Small elements staged in shared memory] in staged_kernels.cpp), and if so that
  // version (added to op, before the tiles'): the outer lambda's parameters that are
  // arrays, read by its body and not rows of a map fused into the outer one (the host
  // knows no size of those), staged; as many elements each as kStageBytes holds for all
  // of them, at most GenOptions::stage_max.
  void staged_version(const core::Stm &s, SegOp &op, const Inputs &in, bool pre) const {
    if (stage_max_ <= 0) return;
    const core::Lambda &l = *s.exp.lambda;
    if (yields_arrays(l)) return;
    int64_t bytes = 0;
    for (size_t j = 0; j < l.params.size(); j++) {
      int x = l.params[j];
      bool read = false;
      for (const core::Stm &st : l.body.stms) read = read || core::mentions(st.exp, {x});
      if (p_.var(x).type.rank == 0 || !read || fused_array(in.fused, s.exp.arrays[j])) continue;
      op.staged.push_back(j);
      bytes += prim_bytes(p_.var(x).type.prim);
    }
    if (bytes == 0) return;
    op.stage_max = std::min(stage_max_, kStageBytes / bytes);
    op.stage_min_outputs = std::max<int64_t>(stage_min_outputs_, 1);
    op.versions.push_back(Version{Guard::StagedFit, Strategy::Staged,
                                  {kernel("staged", true, "ceil(" + sub(s.exp.args[0]) + " / its elements a block)", pre, false)}});
  }

  // Whether a branch or loop of l yields arrays: their slots hold global addresses, so
  // no copy in shared memory may reach them.
  bool yields_arrays(const core::Lambda &l) const {
    bool yields = false;
    core::for_each_exp(l.body, [&](const core::Exp &x) {
      if (x.kind != core::ExpKind::If && x.kind != core::ExpKind::Loop) return;
      for (const auto &b : x.bodies)
        if (b)
          for (const core::SubExp &r : b->result)
            yields = yields || (r.is_var() && p_.var(r.var).type.rank > 0);
    });
    return yields;
  }

  // Whether array a is the result of one of the maps `fused` into a kernel.
  static bool fused_array(const std::vector<const core::Stm *> &fused, int a) {
    for (const core::Stm *f : fused)
      if (std::find(f->pat.begin(), f->pat.end(), a) != f->pat.end()) return true;
    return false;
  }

  // Note [Arrays every element reads]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // A map over scalars whose lambda reduces over arrays of the host, the same arrays for
  // every element (N-body, kernel density: `map (\x -> reduce op ne (map (\y -> f x y)
  // ys)) xs`), ran one thread per element: a long sequential loop a thread, and with
  // 2^15 elements an eighth of the H100's threads. Its RowBlock version spreads each
  // element's reduction over a block (or a warp), whose threads read consecutive
  // elements of the arrays (coalesced; every element's block reads the same arrays, so
  // the blocks an SM runs together share their lines in L1 and L2). Only where every
  // array the block-level operations read, and the maps fused into them, is an array
  // of the host read whole or such a fused map's result, and no fused map indexes an
  // array: an element that gathers (matmul's flat dot products over iota, `a[i, k] *
  // b[k, j]`) keeps the 2-D tiles, in which a warp's threads share what they read.
  bool reads_host_arrays_whole(const std::vector<std::unique_ptr<SegOp>> &ops) const {
    std::set<int> made;
    for (const auto &b : ops) {
      const core::Exp &e = b->stm->exp;
      if (e.kind == core::ExpKind::Iota) return false;
      for (int a : e.arrays)
        if (!made.count(a) && !(bound_.count(a) && !fused_.count(a) && p_.var(a).type.rank == 1)) return false;
      if (b->strategy == Strategy::Fused) {
        bool gathers = false;
        core::for_each_exp(e.lambda->body, [&](const core::Exp &x) {
          gathers = gathers || x.kind == core::ExpKind::Index;
        });
        if (gathers) return false;
        made.insert(b->stm->pat.begin(), b->stm->pat.end());
      }
    }
    return true;
  }

  // Whether the RowBlock map s also gets a version with its rows in shared memory (Note
  // [Rows in shared memory] in row_cache.cpp), and if so its cached rows and bound (set
  // in op): the lambda's parameters that are rows of scalars which two or more of its
  // block-level operations read (through the maps fused into them too), as many as
  // kRowCacheBytes holds at row_cache_max elements each, fewer elements where it does
  // not.
  bool row_cache_version(const core::Stm &s, SegOp &op) const {
    if (row_cache_max_ <= 0) return false;
    const core::Lambda &l = *s.exp.lambda;
    // (A copy lives in shared memory, whose addresses are not global ones.)
    if (yields_arrays(l)) return false;
    // The parameters each fused map reaches; how many operations read each.
    std::map<const core::Stm *, std::set<int>> reach;
    std::map<int, int> readers;
    for (const auto &b : op.block_body) {
      const core::Stm &st = *b->stm;
      std::set<int> r;
      for (int x : l.params)
        if (p_.var(x).type.rank == 1 && core::mentions(st.exp, {x})) r.insert(x);
      for (const auto &[f, fr] : reach)
        if (core::mentions(st.exp, std::set<int>(f->pat.begin(), f->pat.end()))) r.insert(fr.begin(), fr.end());
      if (b->strategy == Strategy::Fused) reach[&st] = r;
      else
        for (int x : r) readers[x]++;
    }
    int64_t bytes = 0;
    // (Not the rows of a map fused into this one: the host knows no row length of it.)
    for (size_t j = 0; j < l.params.size(); j++)
      if (readers[l.params[j]] >= 2 && !fused_array(op.fused, s.exp.arrays[j])) {
        op.cached_rows.push_back(j);
        bytes += prim_bytes(p_.var(l.params[j]).type.prim);
      }
    if (bytes == 0) return false;
    op.row_cache_max = std::min(row_cache_max_, kRowCacheBytes / bytes);
    if (op.row_cache_max >= std::max<int64_t>(row_block_min_, 1)) return true;
    op.cached_rows.clear();
    return false;
  }

  // ---- block and register tiling (Note [Block and register tiling] in tiled_kernels.cpp)

  // Note [Matrix products]
  // ~~~~~~~~~~~~~~~~~~~~~~
  // The shape that gets a Strategy::BlockTiled version: a map over n x p outputs (i, j),
  // either perfectly nested maps over `iota n` and `iota p` (the lambdas' parameters are
  // i and j) or a map over `iota (n * p)` that splits its index into t / p and t % p
  // (flat_split: i and j), whose element is
  //     let ks = iota m
  //     let xs = map (\k -> ...) ks
  //     in reduce op ne xs
  // (`reduce op ne (map f (iota m))`; before them the split of t, and in the lambdas
  // asserts of host values, as the checks of iota's sizes: uniform_assert), with scalar
  // statements of the element before the iota and after the reduction (its epilogue:
  // `a[i, j] - reduce ...`, LUD's update), scalar code and reads of arrays of the host at
  // the output's indices and host values, none with a kept check or reading the map,
  // run for each output when it is stored; the element's result a scalar. Where
  //   - m and ne are known on the host and the reduction's one result is a scalar;
  //   - f's statements are scalar (arithmetic, conversions, functions; no branches,
  //     loops or SOACs, no integer division by a variable: f also runs on the zeros
  //     loaded past the edges) and reads `a[u, v]` of two-dimensional arrays bound on
  //     the host, {u, v} = {i, k} or {j, k} in either order; f reads no other variable
  //     of the element than i, j and k (scalars of the host otherwise);
  //   - neither f nor op holds a kept check (one that range analysis could not remove:
  //     the tiled kernel has no failure path), and op is scalar code on scalars;
  //   - at most kBlockTileMaxReads distinct reads (array and index order).
  // Or the rows form, `map (\r -> map (\c -> reduce op ne (map2 f r c)) cs) rs`: rs a
  // two-dimensional array of the host (r its row i), cs another (c its row j: a[j, k])
  // or `transpose b` of one made in the outer lambda (b[k, j]); the element is `reduce op
  // ne (map f r c)`, f's parameters the rows' elements k (f makes no other read).
  // The element's reduction is then folded in k order by one thread, as the sequential
  // loop does (the operator need not commute: the order is the same; with f32 the sums
  // are the same), from values staged in shared memory. Anything else (a kept check, a
  // read by another index, a map fused into the arrays, a branch) keeps the map's
  // other versions only.
  // The rows form (`map (\r -> map (\c -> reduce op ne (map2 f r c)) cs) rs`): the
  // element's rows `row` and `col` (lambda parameters) and what they are.
  struct RowsForm {
    int row = -1, col = -1;
    TiledRead row_read, col_read;
  };
  bool tiled_dot(const core::Body &body, size_t first, const std::set<int> &rows, const std::set<int> &cols,
                 TiledDot &dot, const RowsForm *rf = nullptr) const {
    auto scalar_stm = [&](const core::Stm &st) {
      if (st.exp.site >= 0) return false;
      for (int v : st.pat)
        if (p_.var(v).type.rank != 0) return false;
      // (An integer division by a variable: f also runs on the zeros past the edges,
      // and with --unsafe the x86 CPU device would trap.)
      const core::Exp &x = st.exp;
      if (x.kind == core::ExpKind::BinOp && x.args[1].is_var() && is_int(p_.type_of(x.args[1]).prim) &&
          (x.binop == BinOp::Div || x.binop == BinOp::Quot || x.binop == BinOp::Mod || x.binop == BinOp::Rem))
        return false;
      switch (st.exp.kind) {
      case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
      case core::ExpKind::Convert: case core::ExpKind::PrimFn:
        return true;
      default: return false;
      }
    };
    // Statements of the element around the dot (its epilogue): scalar code, and reads
    // of two-dimensional arrays of the host at indices of the output (rows, cols) and
    // values of the host, without a kept check.
    std::set<int> out_index(rows.begin(), rows.end());
    out_index.insert(cols.begin(), cols.end());
    auto epilogue_stm = [&](const core::Stm &st) {
      if (scalar_stm(st)) return true;
      const core::Exp &x = st.exp;
      if (x.kind != core::ExpKind::Index || x.site >= 0 || x.arrays.size() != 1 || st.pat.size() != 1 ||
          p_.var(st.pat[0]).type.rank != 0)
        return false;
      int a = x.arrays[0];
      if (!bound_.count(a) || fused_.count(a) || p_.var(a).type.rank != int(x.args.size())) return false;
      return std::all_of(x.args.begin(), x.args.end(), [&](const core::SubExp &u) {
        return !u.is_var() || out_index.count(u.var) || (bound_.count(u.var) && p_.var(u.var).type.rank == 0);
      });
    };
    // (The rows form has no iota: its map is over the rows.)
    size_t need = rf ? 2 : 3;
    if (body.result.size() != 1 || body.stms.size() < first + need) return false;
    std::vector<const core::Stm *> epilogue;
    size_t at = first;
    auto starts_dot = [&](const core::Stm &st) {
      return st.exp.kind == (rf ? core::ExpKind::Map : core::ExpKind::Iota);
    };
    while (at < body.stms.size() && !starts_dot(body.stms[at])) {
      if (!epilogue_stm(body.stms[at])) return false;
      epilogue.push_back(&body.stms[at++]);
    }
    if (body.stms.size() < at + need) return false;
    const core::Stm *io = rf ? nullptr : &body.stms[at];
    const core::Stm &ms = body.stms[at + need - 2], &rs = body.stms[at + need - 1];
    if (ms.exp.kind != core::ExpKind::Map || rs.exp.kind != core::ExpKind::Reduce) return false;
    for (size_t q = at + need; q < body.stms.size(); q++) {
      if (!epilogue_stm(body.stms[q])) return false;
      epilogue.push_back(&body.stms[q]);
    }
    // (The result a scalar of the element: the reduction's or an epilogue's.)
    if (!body.result[0].is_var() || p_.var(body.result[0].var).type.rank != 0) return false;
    // (No epilogue statement reads the map's or the iota's array.)
    std::set<int> dot_arrays(ms.pat.begin(), ms.pat.end());
    if (io) dot_arrays.insert(io->pat.begin(), io->pat.end());
    for (const core::Stm *st : epilogue)
      if (core::mentions(st->exp, dot_arrays)) return false;
    if (io && (io->exp.kind != core::ExpKind::Iota || io->exp.to != PrimType::I64 || ms.exp.arrays.size() != 1 ||
               ms.exp.arrays[0] != io->pat[0] || !same_subexp(io->exp.args[0], rs.exp.args[0])))
      return false;
    const core::SubExp &m = rs.exp.args[0];
    if (!on_host(m) || !same_subexp(ms.exp.args[0], m) || ms.pat.size() != 1) return false;
    if (rs.exp.arrays.size() != 1 || rs.exp.arrays[0] != ms.pat[0] || rs.pat.size() != 1 ||
        p_.var(rs.pat[0]).type.rank != 0)
      return false;
    // The operator: scalar code on its two parameters and host values.
    const core::Lambda &opl = *rs.exp.lambda;
    if (opl.params.size() != 2 || opl.body.result.size() != 1 || !on_host(rs.exp.args[1])) return false;
    if (!std::all_of(opl.body.stms.begin(), opl.body.stms.end(), scalar_stm)) return false;
    for (int v : lambda_free_vars(p_, opl))
      if (!bound_.count(v) || p_.var(v).type.rank != 0) return false;
    // f: reads at [i, k] / [k, i] / [j, k] / [k, j], scalar code; in the rows form its
    // parameters are the rows' elements k.
    const core::Lambda &f = *ms.exp.lambda;
    if (f.body.result.size() != 1) return false;
    TiledDot d;
    auto add_read = [&](const TiledRead &rd) {
      size_t r = 0;
      while (r < d.reads.size() && !(d.reads[r].array == rd.array && d.reads[r].col == rd.col &&
                                     d.reads[r].k_first == rd.k_first))
        r++;
      if (r == d.reads.size()) d.reads.push_back(rd);
      return r;
    };
    if (rf) {
      if (f.params.size() != ms.exp.arrays.size()) return false;
      for (int a : ms.exp.arrays) {
        if (a != rf->row && a != rf->col) return false;
        d.param_reads.push_back(add_read(a == rf->row ? rf->row_read : rf->col_read));
      }
    } else if (f.params.size() != 1) {
      return false;
    }
    int k = rf ? -1 : f.params[0];
    for (const core::Stm &st : f.body.stms) {
      const core::Exp &x = st.exp;
      if (rf || x.kind != core::ExpKind::Index) {
        if (!scalar_stm(st)) return false;
        continue;
      }
      if (x.site >= 0 || x.args.size() != 2 || x.arrays.size() != 1 || p_.var(st.pat[0]).type.rank != 0) return false;
      int a = x.arrays[0];
      if (p_.var(a).type.rank != 2 || !bound_.count(a) || fused_.count(a)) return false;
      if (!x.args[0].is_var() || !x.args[1].is_var()) return false;
      bool k_first = x.args[0].var == k;
      int other = k_first ? x.args[1].var : x.args[0].var;
      if ((k_first ? x.args[0].var : x.args[1].var) != k) return false;
      bool col;
      if (rows.count(other)) col = false;
      else if (cols.count(other)) col = true;
      else return false;
      d.read_of[&st] = add_read(TiledRead{a, col, k_first});
    }
    if (d.reads.empty() || int64_t(d.reads.size()) > kBlockTileMaxReads) return false;
    for (int v : lambda_free_vars(p_, f)) {
      if (rows.count(v) || cols.count(v)) continue;
      if (!bound_.count(v) || fused_.count(v)) return false;
      if (p_.var(v).type.rank != 0 &&
          std::none_of(d.reads.begin(), d.reads.end(), [&](const TiledRead &r) { return r.array == v; }))
        return false;
    }
    d.iota = io;
    d.map = &ms;
    d.red = &rs;
    d.rows.assign(rows.begin(), rows.end());
    d.cols.assign(cols.begin(), cols.end());
    d.asserts = std::move(dot.asserts); // (those of the lambdas around, found before)
    d.epilogue = std::move(epilogue);
    d.result = body.result[0];
    dot = std::move(d);
    return true;
  }

  // An assert of values of the host (a size's check inside the lambda): the same in
  // every thread, made once at the start of the tiled kernel.
  bool uniform_assert(const core::Stm &st) const {
    if (st.exp.kind != core::ExpKind::Assert) return false;
    return std::all_of(st.exp.args.begin(), st.exp.args.end(), [&](const core::SubExp &a) {
      return !a.is_var() || (bound_.count(a.var) && p_.var(a.var).type.rank == 0);
    });
  }

  // Whether map s (nested in `op.inner`, or split by flat_split) computes matrix
  // products (Note [Matrix products]); if so its BlockTiled version, added to op.
  bool block_tiled_version(const core::Stm &s, SegOp &op) const {
    if (block_tile_min_ < 0) return false;
    const core::Exp &e = s.exp;
    const core::Lambda &l = *e.lambda;
    if (s.pat.size() != 1 || e.arrays.size() != 1 || l.params.size() != 1) return false;
    auto lz = fused_.find(e.arrays[0]);
    bool over_iota =
        lz != fused_.end() && lz->second->exp.kind == core::ExpKind::Iota && lz->second->exp.to == PrimType::I64;
    auto dot = std::make_unique<TiledDot>();
    std::string n = sub(e.args[0]), p;
    if (!over_iota) {
      // map (\r -> map (\c -> reduce op ne (map2 f r c)) cs) rs: r is row i of rs, c
      // row j of cs (`transpose b`: column j of b).
      int rs = e.arrays[0];
      if (lz != fused_.end() || p_.var(rs).type.rank != 2 || !bound_.count(rs)) return false;
      const core::Body &body = l.body;
      if (body.stms.empty()) return false;
      const core::Stm &in = body.stms.back();
      if (in.exp.kind != core::ExpKind::Map || in.pat.size() != 1 || in.exp.arrays.size() != 1 ||
          !is_var(body.result[0], in.pat[0]) || body.result.size() != 1 || in.exp.lambda->params.size() != 1 ||
          !on_host(in.exp.args[0]))
        return false;
      RowsForm rf;
      rf.row = l.params[0];
      rf.col = in.exp.lambda->params[0];
      rf.row_read = TiledRead{rs, false, false};
      int cs = in.exp.arrays[0];
      // Before the inner map: asserts of host values, and `transpose b` of a host array.
      for (size_t k = 0; k + 1 < body.stms.size(); k++) {
        const core::Stm &st = body.stms[k];
        if (uniform_assert(st)) {
          dot->asserts.push_back(&st);
          continue;
        }
        const core::Exp &x = st.exp;
        if (x.kind == core::ExpKind::Rearrange && st.pat.size() == 1 && st.pat[0] == cs && x.arrays.size() == 1 &&
            p_.var(x.arrays[0]).type.rank == 2 && bound_.count(x.arrays[0]) && !fused_.count(x.arrays[0]) &&
            x.perm == std::vector<int>{1, 0}) {
          rf.col_read = TiledRead{x.arrays[0], true, true};
          continue;
        }
        return false;
      }
      if (rf.col_read.array < 0) {
        if (p_.var(cs).type.rank != 2 || !bound_.count(cs) || fused_.count(cs)) return false;
        rf.col_read = TiledRead{cs, true, false};
      }
      const core::Body &inner = in.exp.lambda->body;
      size_t first = 0;
      while (first < inner.stms.size() && uniform_assert(inner.stms[first]))
        dot->asserts.push_back(&inner.stms[first++]);
      if (!tiled_dot(inner, first, {}, {}, *dot, &rf)) return false;
      p = sub(in.exp.args[0]);
      if (op.space.size() == 1) op.space.push_back(in.exp.args[0]);
    } else if (op.inner) {
      // map (\i -> let js = iota p in map (\j -> dot) js) (iota n)
      const core::Stm &in = *op.inner;
      const core::Body &body = l.body;
      const core::Stm *js = nullptr;
      for (size_t k = 0; k + 1 < body.stms.size(); k++) {
        const core::Stm &st = body.stms[k];
        if (uniform_assert(st)) dot->asserts.push_back(&st);
        else if (!js && st.exp.kind == core::ExpKind::Iota) js = &st;
        else return false;
      }
      if (!js || js->exp.to != PrimType::I64 || in.exp.arrays.size() != 1 || in.exp.arrays[0] != js->pat[0] ||
          !same_subexp(js->exp.args[0], in.exp.args[0]) || in.exp.lambda->params.size() != 1)
        return false;
      const core::Body &inner = in.exp.lambda->body;
      size_t first = 0;
      while (first < inner.stms.size() && uniform_assert(inner.stms[first]))
        dot->asserts.push_back(&inner.stms[first++]);
      if (!tiled_dot(inner, first, {l.params[0]}, {in.exp.lambda->params[0]}, *dot)) return false;
      p = sub(in.exp.args[0]);
    } else {
      // map (\t -> let i = t / p let j = t % p in dot) (iota (n * p))
      if (!flat_split(s, op)) return false;
      std::set<int> split(op.split_quot.begin(), op.split_quot.end());
      split.insert(op.split_rem.begin(), op.split_rem.end());
      size_t first = 0, splits = 0;
      for (; first < l.body.stms.size(); first++) {
        const core::Stm &st = l.body.stms[first];
        if (st.pat.size() == 1 && split.count(st.pat[0])) splits++;
        else if (uniform_assert(st)) dot->asserts.push_back(&st);
        else break;
      }
      if (splits != split.size()) return false;
      std::set<int> rows(op.split_quot.begin(), op.split_quot.end()), cols(op.split_rem.begin(), op.split_rem.end());
      if (!tiled_dot(l.body, first, rows, cols, *dot)) return false;
      dot->flat = l.params[0];
      p = sub(op.split_p);
      n = "ceil(" + n + " / " + p + ")";
    }
    dot->min = block_tile_min_;
    int64_t bm = kBlockTileThreads * kBlockTileReg;
    std::string launch = fmt::format("ceil({} / {}) * ceil({} / {})", n, bm, p, bm);
    Inputs in = map_inputs(s);
    add_inputs(op, in);
    op.tiled = std::move(dot);
    bool pre = in.prelude || needs_prelude(l.body);
    op.versions.push_back(Version{Guard::BlockTileFit, Strategy::BlockTiled, {kernel("tiled", true, launch, pre, false)}});
    return true;
  }

  // ---- block kernels

  // Whether the block kernels take a reduce or scan: scalar operands and results, and
  // neither its operator nor a map fused into its arrays makes arrays (block kernels
  // have no scratch memory: Note [Kernel memory]).
  bool block_operands(const core::Stm &s, bool scan) const {
    for (int r : s.pat)
      if (p_.var(r).type.rank != (scan ? 1 : 0)) return false;
    for (int a : s.exp.arrays)
      if (p_.var(a).type.rank != 1) return false;
    // (Found by kerb difftest: a reduction over a map whose lambda made an inner array
    // stopped the compiler with an internal error.)
    if (body_allocates(p_, s.exp.lambda->body)) return false;
    std::function<bool(int)> fused_allocates = [&](int v) {
      auto lz = fused_.find(v);
      if (lz == fused_.end()) return false;
      const core::Exp &m = lz->second->exp;
      if (!m.lambda) return false; // a fused iota
      if (body_allocates(p_, m.lambda->body)) return true;
      for (int a : m.arrays)
        if (fused_allocates(a)) return true;
      return false;
    };
    for (int a : s.exp.arrays)
      if (fused_allocates(a)) return false;
    return true;
  }

  // Bytes of one element of each result, together.
  int64_t result_bytes(const core::Stm &s) const {
    int64_t bytes = 0;
    for (int r : s.pat) bytes += prim_bytes(p_.var(r).type.prim);
    return bytes;
  }

  std::unique_ptr<SegOp> reduce_op(const core::Stm &s) const {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    std::string n = sub(e.args[0]);
    Inputs in = inputs(e.lambda.get(), e.arrays);
    add_inputs(*op, in);
    if (!block_operands(s, false)) {
      op->versions.push_back(Version{Guard::Always, Strategy::Chunked,
                                     {kernel("reduce_chunks", false, "num_blocks(" + n + ") * block_size", true, true),
                                      kernel("reduce_chunk_results", false, "1", true, true)}});
    } else {
      bool pre = in.prelude || needs_prelude(e.lambda->body);
      Inputs free = inputs(e.lambda.get(), {});
      bool pre2 = free.prelude || needs_prelude(e.lambda->body);
      Kernel first = kernel("reduce", true, "num_blocks(" + n + ")", pre, true);
      Kernel last = kernel("reduce_partials", true, "1", pre2, true);
      Strategy st = op->comm ? Strategy::BlockTree : Strategy::WarpRuns;
      if (st == Strategy::BlockTree) {
        // 4- or 8-byte results: eight blocks per multiprocessor, when nothing is fused
        // into the first pass (see block_body).
        int64_t bytes = result_bytes(s);
        bool plain = std::none_of(e.arrays.begin(), e.arrays.end(), [&](int a) { return fused_.count(a) > 0; });
        if (bytes == 4 || bytes == 8) {
          if (plain) first.blocks_per_sm = kReduceBlocksPerSm;
          last.blocks_per_sm = kReduceBlocksPerSm;
        }
        // Groups of kMapLanes read with one vector load (Note [Commutative reductions
        // in lanes]) when the fused maps are straight-line code.
        if (fused_elementwise(in)) op->elems_per_thread = kMapLanes;
      }
      if (st == Strategy::WarpRuns) op->elems_per_thread = tile_items(result_bytes(s));
      op->versions.push_back(Version{Guard::Always, st, {first, last}});
    }
    op->strategy = op->versions.front().strategy;
    thread_body(*op);
    return op;
  }

  std::unique_ptr<SegOp> scan_op(const core::Stm &s) const {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    std::string n = sub(e.args[0]);
    Inputs in = inputs(e.lambda.get(), e.arrays);
    add_inputs(*op, in);
    if (!block_operands(s, true)) {
      std::string threads = "num_blocks(" + n + ") * block_size";
      op->versions.push_back(Version{Guard::Always, Strategy::Chunked,
                                     {kernel("scan_chunks", false, threads, true, true),
                                      kernel("scan_chunk_prefixes", false, "1", true, false),
                                      kernel("scan_chunks_from_prefixes", false, threads, true, true)}});
    } else {
      bool pre = in.prelude || needs_prelude(e.lambda->body);
      op->elems_per_thread = tile_items(result_bytes(s));
      std::vector<PrimType> types;
      for (int r : s.pat) types.push_back(p_.var(r).type.prim);
      bool regs = single_pass_in_registers(types);
      int64_t single_pass_min = regs ? scan_single_pass_min_ : scan_single_pass_wide_min_;
      if (single_pass_min >= 0) {
        op->single_pass_min = single_pass_min;
        op->single_pass_items = regs ? kSinglePassItems : op->elems_per_thread;
        Kernel k = kernel("scan_single_pass", true, "tiles(" + n + ")", pre, true);
        if (regs) k.block_threads = kSinglePassThreads;
        op->versions.push_back(Version{Guard::SinglePassFit, Strategy::SinglePass, {k}});
      }
      op->versions.push_back(Version{Guard::Always, Strategy::ReduceThenScan,
                                     {kernel("scan_totals", true, "num_blocks(" + n + ")", pre, true),
                                      kernel("scan", true, "num_blocks(" + n + ")", pre, true)}});
    }
    op->strategy = op->versions.front().strategy;
    thread_body(*op);
    return op;
  }

  // ---- replicate, scatter, reduce_by_index

  // Note [Replicate as a memset] in thread_kernels.cpp.
  static bool fills_with_memset(PrimType t, const core::SubExp &v) {
    int64_t es = prim_bytes(t);
    if (es == 1 || es == 2 || es == 4) return true;
    if (es != 8 || v.is_var()) return false;
    uint64_t u = v.constant.bits.u;
    if (t == PrimType::F64) std::memcpy(&u, &v.constant.bits.f64, 8);
    return uint32_t(u) == uint32_t(u >> 32);
  }

  std::unique_ptr<SegOp> replicate_op(const core::Stm &s) const {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    PrimType t = p_.var(s.pat[0]).type.prim;
    bool scalar = !e.args[1].is_var() || p_.var(e.args[1].var).type.rank == 0;
    if (scalar && fills_with_memset(t, e.args[1])) {
      op->strategy = Strategy::Memset;
      return op;
    }
    if (e.args[1].is_var()) op->inputs = {e.args[1].var};
    std::string total = sub(e.args[0]) + (scalar ? "" : " * row");
    op->versions.push_back(Version{Guard::Always, Strategy::Threads, {kernel("replicate", false, total, false, false)}});
    op->strategy = Strategy::Threads;
    return op;
  }

  // Whether statement s (a scatter or reduce_by_index) may update array `var` in place:
  // it is a `replicate` of the same body that nothing else reads (its buffer is the
  // replicate's own and dies here); otherwise s updates a fresh copy.
  bool dest_in_place(const core::Body &body, int var, const core::Stm &s) const {
    bool replicated = false, other_use = false;
    std::set<int> vars{var};
    for (const core::Stm &st : body.stms) {
      if (std::find(st.pat.begin(), st.pat.end(), var) != st.pat.end())
        replicated = st.exp.kind == core::ExpKind::Replicate;
      else if (&st != &s && core::mentions(st.exp, vars))
        other_use = true;
    }
    for (const core::SubExp &r : body.result)
      if (is_var(r, var)) other_use = true;
    // Nor read by s itself other than as this destination (its values, another
    // destination, its operator).
    const core::Exp &e = s.exp;
    other_use = other_use || std::count(e.arrays.begin(), e.arrays.end(), var) != 1 ||
                std::any_of(e.args.begin(), e.args.end(), [var](const core::SubExp &a) { return is_var(a, var); }) ||
                (e.lambda && lambda_free_vars(p_, *e.lambda).count(var));
    return replicated && !other_use;
  }

  std::unique_ptr<SegOp> scatter_op(const core::Body &b, const core::Stm &s) const {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    op->dest_in_place = {dest_in_place(b, e.arrays[0], s)};
    op->inputs = e.arrays;
    bool rows = p_.var(e.arrays[0]).type.rank > 1;
    std::string n = "length(" + p_.var(e.arrays[1]).name + ")";
    op->versions.push_back(Version{Guard::Always, Strategy::Threads,
                                   {kernel("scatter", false, rows ? n + " * row" : n, false, false)}});
    op->strategy = Strategy::Threads;
    return op;
  }

  // How an update of reduce_by_index s combines into its bin: an atomicrmw, or a
  // compare-and-swap loop that applies the operator (Cas); None where the operator is
  // not one the code generator knows as commutative on one array of 32- or 64-bit
  // scalars.
  HistUpdate hist_update(const core::Stm &s) const {
    const core::Exp &e = s.exp;
    if (s.pat.size() != 1 || p_.var(s.pat[0]).type.rank != 1 || !commutative_operator(*e.lambda))
      return HistUpdate::None;
    PrimType t = p_.var(s.pat[0]).type.prim;
    switch (t) {
    case PrimType::I32: case PrimType::I64: case PrimType::U32: case PrimType::U64:
    case PrimType::F32: case PrimType::F64: break;
    default: return HistUpdate::None; // no atomics narrower than 32 bits
    }
    const core::Exp &op = e.lambda->body.stms[0].exp;
    bool fl = is_float(t), sg = is_signed_int(t);
    if (op.kind == core::ExpKind::BinOp) {
      switch (op.binop) {
      case BinOp::Add: return fl ? HistUpdate::FAdd : HistUpdate::Add;
      case BinOp::BitAnd: return HistUpdate::And;
      case BinOp::BitOr: return HistUpdate::Or;
      case BinOp::BitXor: return HistUpdate::Xor;
      default: break;
      }
    } else if (op.kind == core::ExpKind::PrimFn && !fl) {
      // Float min and max go through the operator (its NaN rules) in a CAS loop.
      if (op.prim_fn.fn == PrimFn::Min) return sg ? HistUpdate::Min : HistUpdate::UMin;
      if (op.prim_fn.fn == PrimFn::Max) return sg ? HistUpdate::Max : HistUpdate::UMax;
    }
    return HistUpdate::Cas;
  }

  // Whether computing an update of a histogram reads memory at a computed index,
  // loops or divides: the maps fused into its index and value arrays do (kmeans' sums:
  // membership[q / d] * d + q % d).
  bool wide_body(const core::Body &b) const {
    for (const core::Stm &st : b.stms) {
      const core::Exp &x = st.exp;
      if (x.kind == core::ExpKind::Index || x.kind == core::ExpKind::Loop) return true;
      // (A division by a variable; by a constant LLVM multiplies.)
      if (x.kind == core::ExpKind::BinOp && x.args[1].is_var() &&
          is_checked_division(x.binop, p_.var(x.args[1].var).type.prim))
        return true;
      for (const auto &nb : x.bodies)
        if (nb && wide_body(*nb)) return true;
      if (x.lambda && wide_body(x.lambda->body)) return true;
    }
    return false;
  }

  bool wide_update(const std::vector<int> &arrays) const {
    for (int a : arrays) {
      auto lz = fused_.find(a);
      if (lz == fused_.end() || lz->second->exp.kind != core::ExpKind::Map) continue;
      const core::Exp &m = lz->second->exp;
      if (wide_body(m.lambda->body) || wide_update(m.arrays)) return true;
    }
    return false;
  }

  // The inputs of an atomic update kernel: the indices and the values.
  Inputs hist_inputs(const core::Stm &s) const { return inputs(nullptr, {s.exp.arrays[1], s.exp.arrays[2]}); }

  // Whether a reduce_by_index runs in shared memory: an atomicrmw update, no scratch
  // memory (no map fused into it makes arrays).
  bool shared_hist_ok(const core::Stm &s) const {
    HistUpdate u = hist_update(s);
    return u != HistUpdate::None && u != HistUpdate::Cas && !fused_allocate(hist_inputs(s));
  }

  // A reduce_by_index on its own (not paired).
  void hist_versions(const core::Stm &s, SegOp &op) const {
    const core::Exp &e = s.exp;
    op.update = hist_update(s);
    if (op.update == HistUpdate::None) {
      size_t k = s.pat.size();
      Inputs in = inputs(e.lambda.get(), std::vector<int>(e.arrays.begin() + long(k), e.arrays.end()));
      add_inputs(op, in);
      op.versions.push_back(Version{Guard::Always, Strategy::OneThread,
                                    {kernel("hist", false, "1", in.prelude || needs_prelude(e.lambda->body), false)}});
      return;
    }
    Inputs in = hist_inputs(s);
    add_inputs(op, in);
    std::string n = "length(" + p_.var(e.arrays[1]).name + ")";
    if (op.update != HistUpdate::Cas && !fused_allocate(in)) {
      shared_hist(op, {&s}, in.prelude);
      return;
    }
    op.versions.push_back(Version{Guard::Always, Strategy::Atomic, {kernel("hist", false, n, in.prelude, true)}});
  }

  // One hist_shared kernel for these reduce_by_index (one, or a pair).
  void shared_hist(SegOp &op, const std::vector<const core::Stm *> &parts, bool pre) const {
    bool wide = false;
    std::string total;
    for (const core::Stm *x : parts) {
      wide = wide || wide_update({x->exp.arrays[1], x->exp.arrays[2]});
      total += std::string(total.empty() ? "" : " + ") + "length(" + p_.var(x->exp.arrays[1]).name + ")";
    }
    op.wide = wide;
    op.unroll = wide ? kSharedHistWideUnroll : kSharedHistUnroll;
    int64_t per_sm = wide ? kSharedHistWideBlocksPerSm : kSharedHistBlocksPerSm;
    Kernel k = kernel("hist_shared", true, "resident_blocks(" + total + ", " + std::to_string(per_sm) + ")", pre, true);
    // (Wide updates: the grid counts on per_sm blocks fitting.)
    if (wide) k.blocks_per_sm = per_sm;
    op.versions.push_back(Version{Guard::Always, Strategy::SharedHist, {k}});
  }

  std::unique_ptr<SegOp> hist_op(const core::Body &b, const core::Stm &s) {
    const core::Exp &e = s.exp;
    std::unique_ptr<SegOp> op = new_op(p_, s);
    // (Its destinations are inputs: updated in place or copied.)
    op->inputs.assign(e.arrays.begin(), e.arrays.begin() + long(s.pat.size()));
    for (size_t j = 0; j < s.pat.size(); j++) op->dest_in_place.push_back(dest_in_place(b, e.arrays[j], s));
    // Note [Histograms in one kernel] in thread_kernels.cpp.
    if (pending_partner_ == &s) {
      SegOp *first = pending_hist_;
      pending_hist_ = nullptr;
      pending_partner_ = nullptr;
      op->partner = first;
      first->partner = op.get();
      bind_pat(*first->stm);
      if (shared_hist_ok(s)) {
        op->paired = true;
        op->update = hist_update(s);
        Inputs in;
        for (const core::Stm *x : {first->stm, &s}) {
          add_input(in, x->exp.arrays[1]);
          add_input(in, x->exp.arrays[2]);
        }
        op->inputs.insert(op->inputs.begin(), first->stm->exp.arrays[0]);
        add_inputs(*op, in);
        shared_hist(*op, {first->stm, &s}, in.prelude);
        op->strategy = Strategy::SharedHist;
        return op;
      }
      // Each on its own, the first now (what is fused may have changed since).
      first->versions.clear();
      first->fused.clear();
      first->inputs.resize(first->stm->pat.size());
      hist_versions(*first->stm, *first);
      first->strategy = first->versions.front().strategy;
      hist_versions(s, *op);
      op->strategy = op->versions.front().strategy;
      return op;
    }
    hist_versions(s, *op);
    op->strategy = op->versions.front().strategy;
    // The first of a pair waits for the next reduce_by_index of its body when nothing
    // in between reads its result.
    if (!pending_hist_ && shared_hist_ok(s)) {
      std::set<int> result(s.pat.begin(), s.pat.end());
      bool after = false;
      for (const core::Stm &t : b.stms) {
        if (&t == &s) {
          after = true;
          continue;
        }
        if (!after) continue;
        if (core::mentions(t.exp, result)) break;
        if (t.exp.kind == core::ExpKind::Hist) {
          op->waits = true;
          pending_hist_ = op.get();
          pending_partner_ = &t;
          break;
        }
      }
    }
    return op;
  }

  // ---- inside an element

  // The operations of a kernel's element that run inside its thread (the lambda's
  // SOACs, in nested bodies too): computed where read, written in place into the
  // element's row, or sequential loops.
  void thread_body(SegOp &op) const {
    const core::Exp &e = op.stm->exp;
    const core::Lambda *l = op.inner ? op.inner->exp.lambda.get() : e.lambda.get();
    if (!l) return;
    thread_ops(l->body, op.kind == OpKind::Map, op.body);
  }

  // `rows`: b is the body of a map's lambda whose element is written to its row
  // (FnGen::map_element), where results may be made in place.
  void thread_ops(const core::Body &b, bool rows, std::vector<std::unique_ptr<SegOp>> &out) const {
    for (const core::Stm &s : b.stms) {
      const core::Exp &e = s.exp;
      for (const auto &nb : e.bodies)
        if (nb) thread_ops(*nb, false, out);
      if (!op_kind(e.kind)) continue;
      std::unique_ptr<SegOp> op = new_op(p_, s, Level::Thread);
      op->strategy = out_.in_thread(s);
      if (op->strategy == Strategy::InPlace && !rows) op->strategy = Strategy::Sequential;
      if (e.lambda) thread_ops(e.lambda->body, e.kind == core::ExpKind::Map && op->strategy != Strategy::Fused, op->body);
      out.push_back(std::move(op));
    }
  }

  const core::Program &p_;
  KernelProgram &out_;
  // GenOptions::row_block_min: the RowBlock version's threshold (negative: none).
  int64_t row_block_min_;
  // GenOptions::scan_single_pass_min: the SinglePass version's threshold (negative: none).
  int64_t scan_single_pass_min_;
  int64_t scan_single_pass_wide_min_; // GenOptions::scan_single_pass_wide_min
  // GenOptions::row_cache_max: the RowCached version's longest row (negative: none).
  int64_t row_cache_max_;
  // GenOptions::stage_max: the Staged version's largest array (negative: none).
  int64_t stage_max_;
  int64_t stage_min_outputs_; // GenOptions::stage_min_outputs
  // GenOptions::row_warp_max: the RowWarp version's longest row (negative: none).
  int64_t row_warp_max_;
  // GenOptions::row_warp_rows: the rows from which RowWarp takes rows of any length.
  int64_t row_warp_rows_;
  // GenOptions::block_tile_min: the BlockTiled version's threshold (negative: none).
  int64_t block_tile_min_;
  // GenOptions::loop_blocks_per_sm: Kernel::max_blocks_per_sm of maps whose threads loop
  // over rows (negative: none).
  int64_t loop_blocks_per_sm_;
  // Host maps and iotas computed where read (ProgramGen::host_lazy_): result -> statement.
  std::map<int, const core::Stm *> fused_;
  // Variables the host has bound (FnGen::has in host code), and every statement of the
  // entry by the variables it binds (sizes the host may compute again).
  std::set<int> bound_;
  std::map<int, const core::Stm *> defs_;
  // Note [Histograms in one kernel]: a reduce_by_index waiting for its partner.
  SegOp *pending_hist_ = nullptr;
  const core::Stm *pending_partner_ = nullptr;
};

} // namespace

bool single_pass_in_registers(const std::vector<PrimType> &types) {
  return types.size() == 1 && prim_bits(types[0]) <= 32;
}

int64_t tile_items(int64_t element_bytes) {
  int64_t items = std::clamp<int64_t>(kTileBytes / (kGpuBlockThreads * std::max<int64_t>(element_bytes, 1)), 1,
                                      kTileItemsMax);
  return items % 2 == 0 ? items - 1 : items;
}

// How the statements of every lambda run inside a thread (KernelProgram::in_thread,
// in_place): maps and iotas that their body reads only whole are fused (the rule of
// the host's, compiler/fusion.h), and the results of a map's lambda that a map, iota or
// replicate of its body makes are written in place into the element's row.
void in_thread(const core::Program &p, const core::Body &b, KernelProgram &out) {
  for (const core::Stm &s : b.stms) {
    const core::Exp &e = s.exp;
    if ((e.kind == core::ExpKind::Map || e.kind == core::ExpKind::Iota) && FnGen::consumed_whole(p, b, s))
      out.in_thread_[&s] = Strategy::Fused;
    for (const auto &nb : e.bodies)
      if (nb) in_thread(p, *nb, out);
    if (!e.lambda) continue;
    if (e.kind == core::ExpKind::Map) {
      std::map<int, size_t> in_place = FnGen::in_place_results(p, *e.lambda);
      for (const core::Stm &st : e.lambda->body.stms)
        if (!st.pat.empty() && in_place.count(st.pat[0])) out.in_thread_[&st] = Strategy::InPlace;
      if (!in_place.empty()) out.in_place_[e.lambda.get()] = std::move(in_place);
    }
    in_thread(p, e.lambda->body, out);
  }
}

KernelProgram extract_kernels(const core::Program &p, GenOptions opts) {
  KernelProgram out;
  for (const core::Function &f : p.functions) in_thread(p, f.body, out);
  Extractor x(p, opts, out);
  for (const core::Function &f : p.functions) x.entry(f);
  return out;
}

} // namespace kerb::codegen
