// Moves a sequential loop of host code whose body is scalar work that reads arrays into
// a kernel of one thread (see passes.h): the loop becomes the lambda of a map over
// `iota 1`, and the host reads element 0 of each of the map's results.
//
// Note [Sequential loops in one thread]
// Host code runs on the CPU, and every element it reads of an array in device memory is
// a synchronous device-to-host copy (~8 us on the H100). A host loop whose body reads
// arrays (reduce_comm_tuples.fut's reference loop, `for i < n do ... bs[i] ... hs[i]`)
// paid that per element read, per iteration: 33 us an iteration, minutes for a few
// million. Futhark runs such code on the GPU in a single-threaded kernel; so does Kerb:
//
//   let (r0, r1) = loop (a, b) = (x, y) for i < n do body
// becomes
//   let one = iota 1
//   let (v0, v1) = map (\_ -> loop (a, b) = (x, y) for i < n do body) one
//   let r0 = v0[0]
//   let r1 = v1[0]
//
// which the code generator compiles as any map: one kernel, one thread, its checks
// deferred and hoisted as in any thread (docs/CHECKS.md), the host's scalars before the
// loop (its initial values, its bound, what the body reads) its arguments. The results
// go to read-back memory (a width-1 map read only at [0]: codegen/extract_kernels.cpp
// `read_back_once`), so the host waits once for all of them.
//
// Which loops: in host code (the entry's body and the bodies of host loops and ifs,
// outermost first; a loop inside a kernel's lambda is already on the device), for or
// while, with scalar parameters, whose body (and condition) holds only scalar
// statements (SubExp, BinOp, UnOp, Convert, PrimFn, Assert), indexing, and ifs and loops
// of the same kind binding scalars: no SOAC, no array made, so the thread allocates
// nothing. And only when it pays: some statement indexes an array. A loop of scalars
// only stays on the host, where it costs no launch and no read.
//
// The failures are the interpreter's: one thread runs the iterations in order and
// reports the first failing check with its values (the slow copy of deferred checks
// re-runs it with every check branching), as the host did. A host check after the loop
// looks at the failure slot first (runtime/exec_context.cpp `fail`), so the loop's
// failure, earlier in program order, is the one reported.
#include "compiler/passes.h"

#include <memory>
#include <utility>
#include <vector>

namespace kerb {

namespace {

class Offload {
public:
  explicit Offload(core::Program &p) : p_(p) {}

  // Host-level bodies: a qualifying loop is moved whole; other loops and ifs are
  // searched inside. Lambdas are kernels already.
  void body(core::Body &b) {
    std::vector<core::Stm> out;
    out.reserve(b.stms.size());
    for (core::Stm &s : b.stms) {
      if (s.exp.kind == core::ExpKind::Loop && offloadable(s)) {
        offload(std::move(s), out);
        continue;
      }
      if (s.exp.kind == core::ExpKind::Loop || s.exp.kind == core::ExpKind::If)
        for (auto &nb : s.exp.bodies)
          if (nb) body(*nb);
      out.push_back(std::move(s));
    }
    b.stms = std::move(out);
  }

private:
  bool scalar(int v) const { return p_.var(v).type.rank == 0; }
  bool scalars(const std::vector<int> &vs) const {
    for (int v : vs)
      if (!scalar(v)) return false;
    return true;
  }

  bool offloadable(const core::Stm &s) const {
    if (s.pat.empty() || !scalars(s.pat) || !scalars(s.exp.loop_params)) return false;
    bool reads = false;
    for (const auto &nb : s.exp.bodies)
      if (nb && !scalar_work(*nb, reads)) return false;
    return reads;
  }

  // Whether b is scalar work a thread runs without allocating; sets `reads` if it
  // indexes an array.
  bool scalar_work(const core::Body &b, bool &reads) const {
    for (const core::Stm &s : b.stms) {
      const core::Exp &e = s.exp;
      switch (e.kind) {
      case core::ExpKind::Index:
        // A scalar element, or a row that a later Index reads (a view, no copy).
        reads = true;
        continue;
      case core::ExpKind::SubExp: case core::ExpKind::BinOp: case core::ExpKind::UnOp:
      case core::ExpKind::Convert: case core::ExpKind::PrimFn: case core::ExpKind::Assert:
        break;
      case core::ExpKind::If:
      case core::ExpKind::Loop:
        if (!scalars(e.loop_params)) return false;
        for (const auto &nb : e.bodies)
          if (nb && !scalar_work(*nb, reads)) return false;
        break;
      default: return false;
      }
      if (!scalars(s.pat)) return false;
      for (const core::SubExp &a : e.args)
        if (a.is_var() && !scalar(a.var)) return false;
    }
    for (const core::SubExp &r : b.result)
      if (r.is_var() && !scalar(r.var)) return false;
    return true;
  }

  // Appends the iota, the map whose lambda is the loop, and the reads of element 0.
  void offload(core::Stm loop, std::vector<core::Stm> &out) {
    const Span span = loop.exp.span;
    const core::SubExp one = core::SubExp::i64(1);
    core::Stm io;
    io.pat = {p_.new_var("seq_iota", core::CType{PrimType::I64, 1}, {one})};
    io.exp.kind = core::ExpKind::Iota;
    io.exp.args = {one};
    io.exp.to = PrimType::I64;
    io.exp.span = span;

    auto lam = std::make_unique<core::Lambda>();
    lam->params = {p_.new_var("seq_thread", core::CType{PrimType::I64, 0})};
    core::Exp map;
    map.kind = core::ExpKind::Map;
    map.args = {one};
    map.arrays = {io.pat[0]};
    map.span = span;
    std::vector<core::Stm> reads;
    std::vector<int> rows;
    for (int &r : loop.pat) {
      // The loop in the lambda binds fresh variables; the host's reads bind the old.
      core::VarInfo info = p_.var(r);
      int in_thread = p_.new_var(info.name, info.type);
      int row = p_.new_var(info.name, core::CType{info.type.prim, 1}, {one});
      lam->body.result.push_back(core::SubExp::of_var(in_thread));
      rows.push_back(row);
      core::Stm rd;
      rd.pat = {r};
      rd.exp.kind = core::ExpKind::Index;
      rd.exp.arrays = {row};
      rd.exp.args = {core::SubExp::i64(0)};
      rd.exp.span = span;
      reads.push_back(std::move(rd));
      r = in_thread;
    }
    lam->body.stms.push_back(std::move(loop));
    map.lambda = std::move(lam);
    core::Stm m;
    m.pat = rows;
    m.exp = std::move(map);
    out.push_back(std::move(io));
    out.push_back(std::move(m));
    for (core::Stm &rd : reads) out.push_back(std::move(rd));
  }

  core::Program &p_;
};

} // namespace

void offload_sequential_loops(core::Program &p, const CheckOptions &) {
  for (core::Function &f : p.functions) Offload(p).body(f.body);
}

} // namespace kerb
