// The kernel IR's printer, `kerb check --emit=kernels` (see kernel_ir.h): per entry
// point, the host code's operations in order, each with its level, space, strategy,
// fused maps, versions and kernels, and the operations inside its elements; branches
// and loops of host code that hold operations, and the host's array statements.
// Scalar host code is left out. Example (a map fused into a reduction):
//
//   entry main
//     r_7 = segred(grid) [n_1] comm: block tree, 4 lanes   (3:9-45)
//       fused: map [n_1] (2:11-30)
//       kernel reduce: num_blocks(n_1) blocks of 256 threads, checks deferred
//       kernel reduce_partials: 1 block of 256 threads, 8 blocks/SM
#include "codegen/kernel_ir.h"

#include <fmt/format.h>

namespace kerb::codegen {

const char *strategy_name(Strategy s) {
  switch (s) {
  case Strategy::Fused: return "fused";
  case Strategy::HostLoop: return "host loop";
  case Strategy::Memset: return "memset";
  case Strategy::Sequential: return "sequential";
  case Strategy::InPlace: return "in place";
  case Strategy::Threads: return "one thread per element";
  case Strategy::Lanes: return "lanes";
  case Strategy::Tiles: return "2-D tiles";
  case Strategy::SplitTiles: return "split 2-D tiles";
  case Strategy::Atomic: return "atomic updates";
  case Strategy::OneThread: return "one thread";
  case Strategy::SegRed: return "segmented reduction";
  case Strategy::SegRedRows: return "segmented reduction across rows";
  case Strategy::BlockTree: return "block tree";
  case Strategy::WarpRuns: return "warp-contiguous runs";
  case Strategy::ReduceThenScan: return "reduce-then-scan";
  case Strategy::SinglePass: return "single pass (decoupled look-back)";
  case Strategy::SharedHist: return "shared-memory histogram";
  case Strategy::RowBlock: return "one block per element";
  case Strategy::RowCached: return "one block per element, rows in shared memory";
  case Strategy::RowWarp: return "one warp per element";
  case Strategy::BlockTiled: return "block and register tiles";
  case Strategy::Staged: return "one block per outer element, its arrays in shared memory";
  case Strategy::Chunked: return "chunks";
  case Strategy::Striped: return "striped";
  }
  return "?";
}

namespace {

const char *level_name(Level l) {
  switch (l) {
  case Level::Grid: return "grid";
  case Level::Block: return "block";
  case Level::Warp: return "warp";
  case Level::Thread: return "thread";
  }
  return "?";
}

const char *update_name(HistUpdate u) {
  switch (u) {
  case HistUpdate::None: return "";
  case HistUpdate::Add: case HistUpdate::FAdd: return "atomic add";
  case HistUpdate::And: return "atomic and";
  case HistUpdate::Or: return "atomic or";
  case HistUpdate::Xor: return "atomic xor";
  case HistUpdate::Min: case HistUpdate::UMin: return "atomic min";
  case HistUpdate::Max: case HistUpdate::UMax: return "atomic max";
  case HistUpdate::Cas: return "compare-and-swap loop";
  }
  return "";
}

class Printer {
public:
  Printer(const core::Program &p, const KernelProgram &k) : p_(p), k_(k) {}

  std::string run() {
    for (const KernelProgram::Entry &e : k_.entries) {
      line(0, "entry " + e.fn->name);
      block(e.body, 1);
    }
    return out_;
  }

private:
  void line(int depth, const std::string &text) { out_ += std::string(size_t(depth) * 2, ' ') + text + "\n"; }

  std::string sub(const core::SubExp &s) const {
    if (s.is_var()) return p_.var(s.var).name;
    return std::to_string(s.constant.as_i64());
  }

  std::string vars(const std::vector<int> &vs) const {
    std::string out;
    for (size_t i = 0; i < vs.size(); i++) out += (i ? ", " : "") + p_.var(vs[i]).name;
    return out;
  }

  // RowCached: the map's arrays whose rows are copied into shared memory.
  std::string cached_arrays(const SegOp &op) const {
    std::vector<int> as;
    for (size_t j : op.cached_rows) as.push_back(op.stm->exp.arrays[j]);
    return vars(as);
  }

  std::string staged_arrays(const SegOp &op) const {
    std::vector<int> as;
    for (size_t j : op.staged) as.push_back(op.stm->exp.arrays[j]);
    return vars(as);
  }

  static std::string where(const core::Stm &s) {
    return s.exp.span.valid() ? " (" + s.exp.span.place() + ")" : "";
  }

  std::string space(const SegOp &op) const {
    std::string out;
    for (const core::SubExp &d : op.space) out += "[" + (d.is_var() || d.constant.as_i64() >= 0 ? sub(d) : "") + "]";
    return out;
  }

  static const char *op_name(const SegOp &op) {
    switch (op.kind) {
    case OpKind::Map:
      return op.strategy == Strategy::SegRed || op.strategy == Strategy::SegRedRows ? "segmap/segred" : "segmap";
    case OpKind::Reduce: return "segred";
    case OpKind::Scan: return "segscan";
    case OpKind::Hist: return "seghist";
    case OpKind::Scatter: return "scatter";
    case OpKind::Iota: return "iota";
    case OpKind::Replicate: return "replicate";
    }
    return "?";
  }

  std::string guard(const SegOp &op, Guard g) const {
    std::string n = op.space.empty() ? "" : sub(op.space[0]);
    std::string m = op.space.size() > 1 ? sub(op.space[1]) : "";
    switch (g) {
    case Guard::Always: return "otherwise";
    case Guard::SegRedRowsFit:
      return fmt::format("if 1 <= {} <= {} and num_blocks({}) > 1", n, kSegRedRowsMaxSegments, m);
    case Guard::SegRedFit: return fmt::format("if {} <= {} and num_blocks({}) > 1", n, kSegRedMaxSegments, m);
    case Guard::SplitPositive: return "if " + sub(op.split_p) + " > 0";
    case Guard::Narrow: return "if the sizes fit 32 bits";
    case Guard::RowBlockFit: return fmt::format("if {} >= {}", m, op.row_block_min);
    case Guard::SinglePassFit: return fmt::format("if {} >= {}", n, op.single_pass_min);
    case Guard::RowWarpFit:
      return (op.row_warp_rows >= 0
                  ? fmt::format("if {} <= {} and ({} <= {} or {} >= {}) and {} >= {}", op.row_block_min, m, m,
                                op.row_warp_max, n, op.row_warp_rows, n, kRowWarpMinRows)
                  : fmt::format("if {} <= {} <= {} and {} >= {}", op.row_block_min, m, op.row_warp_max, n,
                                kRowWarpMinRows)) +
             (op.warp_copies ? fmt::format(" and the rows of {} have <= {} elements", cached_arrays(op), op.row_warp_max)
                             : "");
    case Guard::RowCacheFit:
      return fmt::format("if {} >= {} and the rows of {} have <= {} elements", m, op.row_block_min,
                         cached_arrays(op), op.row_cache_max);
    case Guard::StagedFit:
      return fmt::format("if each element of {} has <= {} elements and {} <= {} * max({}, 1) <= {}", staged_arrays(op),
                         op.stage_max, op.stage_min_outputs, m, sub(op.space[2]), kStagedMaxOutputs);
    case Guard::BlockTileFit: {
      // (A map over iota (n * p) split by p: ceil(n / p) rows.)
      std::string p = op.tiled->flat >= 0 ? sub(op.split_p) : m;
      if (op.tiled->flat >= 0) n = "ceil(" + n + " / " + p + ")";
      return fmt::format("if {} >= {} and {} >= {}", n, op.tiled->min, p, op.tiled->min);
    }
    }
    return "?";
  }

  // The strategy and its parameters, in words.
  std::string strategy(const SegOp &op, Strategy s) const {
    std::string out = strategy_name(s);
    switch (s) {
    case Strategy::Lanes: out += fmt::format(", {} elements a thread", op.elems_per_thread); break;
    case Strategy::Tiles:
      if (op.rows_per_thread > 1)
        out += fmt::format(", {} rows a thread from {} rows", op.rows_per_thread, kTileRowsMin);
      if (op.rows_loop) out += ", their reductions in one loop";
      break;
    case Strategy::SplitTiles:
      out += " (" + vars(op.split_quot) + " = t / " + sub(op.split_p) + ", " + vars(op.split_rem) + " = t % " +
             sub(op.split_p) + ")";
      break;
    case Strategy::BlockTree:
      if (op.elems_per_thread > 1) out += fmt::format(", {} lanes where aligned", op.elems_per_thread);
      break;
    case Strategy::SegRedRows: out += fmt::format(", {} rows loaded at a time", op.unroll); break;
    case Strategy::RowCached: out += " (" + cached_arrays(op) + ")"; break;
    case Strategy::Staged:
      out += fmt::format(" ({}), as many elements a block as the copies hold, at most {}", staged_arrays(op),
                         kStagedMaxPerBlock);
      break;
    case Strategy::RowWarp:
      out += fmt::format(", {} a block", kRowWarpRows);
      if (op.warp_copies) out += ", rows in shared memory (" + cached_arrays(op) + ")";
      break;
    case Strategy::BlockTiled: {
      int64_t t = kBlockTileThreads * kBlockTileReg;
      out += fmt::format(" ({} x {} a block, {} x {} a thread, k-tiles of {}; reads", t, t, kBlockTileReg,
                         kBlockTileReg, kBlockTileK);
      const TiledDot &d = *op.tiled;
      for (size_t r = 0; r < d.reads.size(); r++)
        out += fmt::format("{} {}[{}]", r ? "," : "", p_.var(d.reads[r].array).name,
                           d.reads[r].k_first ? (d.reads[r].col ? "k, j" : "k, i") : (d.reads[r].col ? "j, k" : "i, k"));
      if (!d.epilogue.empty())
        out += fmt::format("; {} statement{} of the element per output", d.epilogue.size(),
                           d.epilogue.size() == 1 ? "" : "s");
      out += ")";
      break;
    }
    case Strategy::WarpRuns: case Strategy::ReduceThenScan:
      out += fmt::format(", {} elements a thread per tile", op.elems_per_thread);
      break;
    case Strategy::SinglePass:
      out += fmt::format(", one tile of {} x {} elements per block",
                         op.kernels()[0].block_threads ? op.kernels()[0].block_threads : kGpuBlockThreads,
                         op.single_pass_items);
      break;
    case Strategy::Atomic: case Strategy::SharedHist:
      out += std::string(", ") + update_name(op.update);
      if (s == Strategy::SharedHist) out += fmt::format(", {} update{} in flight", op.unroll, op.unroll > 1 ? "s" : "");
      if (op.wide) out += ", wide updates";
      break;
    default: break;
    }
    return out;
  }

  void kernel(const Kernel &k, int depth) {
    bool one = k.launch == "1";
    std::string text = "kernel " + k.name + ": " + k.launch +
                       (k.blocks ? fmt::format(" block{} of {} threads", one ? "" : "s",
                                               k.block_threads ? k.block_threads : kGpuBlockThreads)
                                 : one ? " thread" : " threads");
    if (k.prelude) text += ", prelude";
    if (k.rerun && k_.defer_checks) text += ", checks deferred";
    if (k.blocks_per_sm) text += fmt::format(", {} blocks/SM", k.blocks_per_sm);
    if (k.max_blocks_per_sm)
      text += fmt::format(", at most {} blocks/SM{}", k.max_blocks_per_sm,
                          k.rows_array >= 0 ? fmt::format(" if {} has >= {} elements a thread",
                                                          p_.var(k.rows_array).name, kLoopMinRowElems)
                                            : "");
    line(depth, text);
  }

  void op(const SegOp &o, int depth) {
    const core::Stm &s = *o.stm;
    std::string head = vars(s.pat) + " = " + op_name(o) + "(" + level_name(o.level) + ") " + space(o);
    if (o.comm) head += " comm";
    if (o.strategy == Strategy::Fused || o.strategy == Strategy::HostLoop || o.strategy == Strategy::Memset ||
        o.strategy == Strategy::Sequential || o.strategy == Strategy::InPlace || o.level == Level::Block) {
      line(depth, head + ": " + strategy_name(o.strategy) + where(s));
    } else if (o.versions.size() == 1) {
      line(depth, head + ": " + strategy(o, o.strategy) + where(s));
    } else {
      line(depth, head + where(s));
    }
    if (!o.versions.empty()) line(depth + 1, "in: " + (o.inputs.empty() ? "-" : vars(o.inputs)) + "; out: " + vars(s.pat));
    for (const core::Stm *f : o.fused)
      line(depth + 1, std::string("fused: ") + (f->exp.kind == core::ExpKind::Iota ? "iota" : "map") + " " +
                          vars(f->pat) + where(*f));
    if (o.read_back) line(depth + 1, "results in read-back memory");
    for (size_t j = 0; j < o.dest_in_place.size(); j++)
      if (o.dest_in_place[j])
        line(depth + 1, "updates " + p_.var(s.exp.arrays[j]).name + " in place");
    if (o.waits)
      line(depth + 1, (o.partner->paired ? "in one kernel with " : "launched where it stands: ") +
                          vars(o.partner->stm->pat));
    if (o.partner && !o.waits)
      line(depth + 1, o.paired ? "one kernel with " + vars(o.partner->stm->pat)
                               : "launched after " + vars(o.partner->stm->pat) + "'s");
    for (const auto &m : o.materialized) {
      line(depth + 1, "before the loop:");
      op(*m, depth + 2);
    }
    if (o.waits && o.partner->paired) {
      // (Its kernel is the pair's.)
    } else if (o.versions.size() == 1) {
      for (const Kernel &k : o.versions[0].kernels) kernel(k, depth + 1);
    } else {
      for (const Version &v : o.versions) {
        line(depth + 1, guard(o, v.guard) + ": " + strategy(o, v.strategy) +
                            (v.guard == Guard::Narrow ? ", 32-bit indices" : ""));
        for (const Kernel &k : v.kernels) kernel(k, depth + 2);
      }
    }
    if (o.host_body) {
      line(depth + 1, "each element, on the host:");
      block(*o.host_body, depth + 2);
    }
    if (!o.block_body.empty()) {
      line(depth + 1, "each element, in its block (one block or warp per element):");
      for (const auto &b : o.block_body) op(*b, depth + 2);
    }
    if (!o.body.empty()) {
      line(depth + 1, o.level == Level::Grid ? "each element, in its thread:" : "each element:");
      for (const auto &b : o.body) op(*b, depth + 2);
    }
  }

  void block(const HostBlock &b, int depth) {
    for (const HostItem &it : b.items) {
      const core::Stm &s = *it.stm;
      switch (it.kind) {
      case HostItem::Kind::Op: op(*it.op, depth); break;
      case HostItem::Kind::If:
        line(depth, (s.pat.empty() ? "" : vars(s.pat) + " = ") + "if " + sub(s.exp.args[0]) + where(s));
        line(depth, "then");
        block(it.blocks[0], depth + 1);
        line(depth, "else");
        block(it.blocks[1], depth + 1);
        break;
      case HostItem::Kind::Loop: {
        const core::Exp &e = s.exp;
        std::string head = vars(s.pat) + " = loop " +
                           (e.is_while ? std::string("while") : p_.var(e.loop_var).name + " < " + sub(e.args.back()));
        line(depth, head + where(s));
        if (e.is_while) {
          line(depth + 1, "condition:");
          block(it.blocks[0], depth + 2);
        }
        block(it.blocks.back(), depth + 1);
        break;
      }
      case HostItem::Kind::Array: {
        const char *what = "";
        switch (s.exp.kind) {
        case core::ExpKind::ArrayLit: what = "array literal"; break;
        case core::ExpKind::Copy: what = "copy"; break;
        case core::ExpKind::Update: what = "update"; break;
        case core::ExpKind::UpdateSlice: what = "slice update"; break;
        case core::ExpKind::Reshape: what = "reshape"; break;
        case core::ExpKind::Concat: what = "concat"; break;
        default: break;
        }
        line(depth, vars(s.pat) + " = " + what + " (host)" + where(s));
        break;
      }
      }
    }
  }

  const core::Program &p_;
  const KernelProgram &k_;
  std::string out_;
};

} // namespace

std::string print_kernels(const core::Program &p, const KernelProgram &k) { return Printer(p, k).run(); }

} // namespace kerb::codegen
