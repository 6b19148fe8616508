// The program generator's host side (see program_gen.h): the host function of each entry
// point, host statements that are not kernels, device allocations, and the launch of
// each statement's operation as the kernel IR has it (codegen/kernel_ir.h).
#include "codegen/program_gen.h"

#include "codegen/llvm_target.h"

#include <algorithm>

#include <fmt/format.h>
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

GeneratedProgram ProgramGen::run() {
  out_.host_context = std::make_unique<LLVMContext>();
  out_.host = std::make_unique<Module>("kerb_host", *out_.host_context);
  if (target_ == Target::Cuda) {
    out_.kernel_context = std::make_unique<LLVMContext>();
    out_.kernels = std::make_unique<Module>("kerb_kernels", *out_.kernel_context);
    // NVPTX's data layout before any IR is built: loads and stores take their alignment
    // from it, and LLVM's default layout gives i64 and f64 an alignment of 4, which NVPTX
    // splits into two 32-bit accesses (the layout is the same for every sm_*).
    std::unique_ptr<TargetMachine> tm = make_nvptx_target_machine("sm_80");
    out_.kernels->setTargetTriple(tm->getTargetTriple().str());
    out_.kernels->setDataLayout(tm->createDataLayout());
  }
  declare_runtime(*out_.host);
  plan_ = extract_kernels(p_, opts_);
  for (const core::Function &f : p_.functions) host_function(f);
  outline_slow_copies(slow_regions_);
  return std::move(out_);
}

void ProgramGen::declare_runtime(Module &m) {
  LLVMContext &c = m.getContext();
  Type *i64 = Type::getInt64Ty(c), *i32 = Type::getInt32Ty(c);
  Type *ptr = PointerType::get(c, 0);
  auto decl = [&](const char *name, Type *ret, std::vector<Type *> params) {
    Function::Create(FunctionType::get(ret, params, false), GlobalValue::ExternalLinkage, name, m);
  };
  decl("kerb_rt_alloc", i64, {ptr, i64});
  decl("kerb_rt_alloc_readback", i64, {ptr, i64});
  decl("kerb_rt_scope_mark", i64, {ptr});
  decl("kerb_rt_scope_release", Type::getVoidTy(c), {ptr, i64, ptr, i32});
  decl("kerb_rt_failure_slot", i64, {ptr});
  decl("kerb_rt_block_size", i64, {ptr});
  decl("kerb_rt_num_blocks", i64, {ptr, i64});
  decl("kerb_rt_resident_blocks", i64, {ptr, i64, i64});
  decl("kerb_rt_launch", i32, {ptr, i32, i64, ptr, i32, i32});
  decl("kerb_rt_read", i32, {ptr, ptr, i64, i64});
  decl("kerb_rt_write", i32, {ptr, i64, ptr, i64});
  decl("kerb_rt_copy", i32, {ptr, i64, i64, i64});
  decl("kerb_rt_fill", i32, {ptr, i64, i64, i32, i64});
  decl("kerb_rt_fail", i32, {ptr, i32, ptr, i32});
}

void ProgramGen::host_function(const core::Function &fn) {
  Module &m = *out_.host;
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::get(c, 0);
  Function *f = Function::Create(FunctionType::get(Type::getInt32Ty(c), {ptr, ptr, ptr}, false),
                                 GlobalValue::ExternalLinkage, entry_symbol(fn.name), m);
  BasicBlock::Create(c, "entry", f);
  FnGen g(p_, m, f, FnGen::Host, false, MathLib::Libm);
  IRBuilder<> &b = g.builder();
  b.SetInsertPoint(&f->getEntryBlock());
  g.ctx = f->getArg(0);
  Value *in = f->getArg(1), *out = f->getArg(2);
  g.on_fail = [&g](Value *status) { g.builder().CreateRet(status); };
  host_ = &g;
  fn_defs_.clear();
  collect_defs(fn.body, fn_defs_);
  g.launch_hook = [this](const core::Stm &s) { return launch(s); };
  g.host_stm = [this](const core::Stm &s) { host_stm(s); };
  g.materialize = [this](const Val &v, PrimType t) { return materialize(v, t); };

  // Parameters from the input slots.
  int slot = 0;
  auto in_slot = [&](int i) {
    return b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), in, g.i64(i)));
  };
  for (size_t k = 0; k < fn.params.size(); k++) {
    int v = fn.params[k];
    const core::CType &t = p_.var(v).type;
    if (t.rank == 0) {
      g.bind(v, Val{g.ops().from_slot(t.prim, in_slot(slot++)), nullptr, {}, {}});
      continue;
    }
    Val a;
    a.addr = in_slot(slot++);
    for (int d = 0; d < t.rank; d++) a.dims.push_back(in_slot(slot++));
    g.bind(v, a);
    if (k < fn.param_shape_vars.size())
      for (size_t d = 0; d < fn.param_shape_vars[k].size(); d++)
        g.bind(fn.param_shape_vars[k][d], Val{a.dims[d], nullptr, {}, {}});
  }
  g.body(fn.body);
  // Results to the output slots.
  std::vector<Val> res = g.results(fn.body);
  slot = 0;
  auto out_slot = [&](Value *v) {
    b.CreateStore(v, b.CreateGEP(b.getInt64Ty(), out, g.i64(slot++)));
  };
  for (size_t k = 0; k < res.size(); k++) {
    PrimType t = g.prim_of(fn.body.result[k]);
    if (g.rank_of(fn.body.result[k]) == 0) {
      out_slot(g.ops().to_slot(t, res[k].scalar));
      continue;
    }
    Val r = res[k].contiguous() ? res[k] : materialize(res[k], t);
    out_slot(r.addr);
    for (Value *d : r.dims) out_slot(d);
  }
  b.CreateRet(b.getInt32(0));
  host_ = nullptr;
}

void ProgramGen::host_stm(const core::Stm &s) {
  FnGen &g = *host_;
  IRBuilder<> &b = g.builder();
  const core::Exp &e = s.exp;
  switch (e.kind) {
  case core::ExpKind::ArrayLit: {
    int v = s.pat[0];
    const core::CType &t = p_.var(v).type;
    size_t n = e.args.size();
    if (t.rank == 1) {
      Type *et = g.ops().mem_type(t.prim);
      uint64_t es = out_.host->getDataLayout().getTypeAllocSize(et);
      std::vector<Value *> elems;
      std::vector<Constant *> consts;
      for (size_t i = 0; i < n; i++) {
        elems.push_back(g.ops().to_mem(t.prim, g.scalar(e.args[i])));
        if (auto *c = dyn_cast<Constant>(elems.back())) consts.push_back(c);
      }
      // Elements that are all constants (a string literal's bytes) are copied from a
      // constant global: stores into a stack buffer, one per element, take LLVM time
      // that grows faster than the literal (20,000 took 20 s) and stack space.
      Value *buf;
      if (n > 0 && consts.size() == n) {
        ArrayType *at = ArrayType::get(et, n);
        buf = new GlobalVariable(*out_.host, at, /*isConstant=*/true, GlobalValue::PrivateLinkage,
                                 ConstantArray::get(at, consts), "array_literal");
      } else {
        buf = g.entry_alloca(ArrayType::get(et, std::max<size_t>(n, 1)));
        for (size_t i = 0; i < n; i++)
          b.CreateStore(elems[i], b.CreateGEP(et, buf, g.i64(int64_t(i))));
      }
      Value *bytes = g.i64(int64_t(n * es));
      Value *addr = alloc(bytes);
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_write"), {g.ctx, addr, buf, bytes}));
      g.bind(v, Val{nullptr, addr, {g.i64(int64_t(n))}, {}});
      return;
    }
    // Rows that are arrays: copy each into place.
    Val first = g.val(e.args[0]);
    Value *row_elems = g.product(first.dims);
    uint64_t es = out_.host->getDataLayout().getTypeAllocSize(g.ops().mem_type(t.prim));
    Value *row_bytes = b.CreateMul(row_elems, g.i64(int64_t(es)));
    Value *addr = alloc(b.CreateMul(row_bytes, g.i64(int64_t(n))));
    for (size_t i = 0; i < n; i++) {
      Val row = contiguous(g.val(e.args[i]), t.prim);
      Value *dst = b.CreateAdd(addr, b.CreateMul(row_bytes, g.i64(int64_t(i))));
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, dst, row.addr, row_bytes}));
    }
    Val out{nullptr, addr, {g.i64(int64_t(n))}, {}};
    out.dims.insert(out.dims.end(), first.dims.begin(), first.dims.end());
    g.bind(v, out);
    return;
  }
  case core::ExpKind::Copy: {
    const core::CType &t = p_.var(e.arrays[0]).type;
    const Val &src0 = g.lookup(e.arrays[0]);
    if (!src0.contiguous()) {
      g.bind(s.pat[0], materialize(src0, t.prim));
      return;
    }
    const Val &src = src0;
    Value *bytes = byte_size(t.prim, src.dims);
    Value *addr = alloc(bytes);
    g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, addr, src.addr, bytes}));
    g.bind(s.pat[0], Val{nullptr, addr, src.dims, {}});
    return;
  }
  case core::ExpKind::Update: {
    // A copy of the array with one element or row replaced.
    const core::CType &t = p_.var(e.arrays[0]).type;
    Val src = contiguous(g.lookup(e.arrays[0]), t.prim);
    size_t k = e.args.size() - 1;
    std::vector<Value *> idx;
    Value *ok = b.getTrue();
    for (size_t j = 0; j < k; j++) {
      Value *i = g.ops().to_i64(g.prim_of(e.args[j]), g.scalar(e.args[j]));
      idx.push_back(i);
      ok = b.CreateAnd(ok, b.CreateICmpULT(i, src.dims[j]));
    }
    if (e.site >= 0) g.check(ok, e.site, g.index_failure_args(idx, src.dims));
    Value *bytes = byte_size(t.prim, src.dims);
    Value *addr = alloc(bytes);
    g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, addr, src.addr, bytes}));
    Value *dst = g.element_addr(addr, g.flat_offset(src.dims, idx), t.prim);
    const core::SubExp &v = e.args.back();
    if (g.rank_of(v) == 0) {
      g.host_write(t.prim, g.scalar(v), dst);
    } else {
      Val row = contiguous(g.val(v), t.prim);
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"),
                                     {g.ctx, dst, row.addr, byte_size(t.prim, row.dims)}));
    }
    g.bind(s.pat[0], Val{nullptr, addr, src.dims, {}});
    return;
  }
  case core::ExpKind::UpdateSlice: {
    // A copy of the array with the selected view overwritten by the value.
    PrimType t = p_.var(e.arrays[0]).type.prim;
    Val dest = fresh_copy(g.lookup(e.arrays[0]), t);
    copy_view(g.lookup(e.arrays[1]), g.select_view(dest, t, e, e.index_dims), t);
    g.bind(s.pat[0], dest);
    return;
  }
  case core::ExpKind::Reshape: {
    PrimType t = p_.var(e.arrays[0]).type.prim;
    Val v = contiguous(g.lookup(e.arrays[0]), t);
    v.dims.clear();
    for (const core::SubExp &d : e.args) v.dims.push_back(g.scalar(d));
    g.bind(s.pat[0], v);
    return;
  }
  case core::ExpKind::Concat: {
    PrimType t = p_.var(s.pat[0]).type.prim;
    std::vector<Val> parts;
    Value *rows = g.i64(0);
    for (int a : e.arrays) {
      parts.push_back(contiguous(g.lookup(a), t));
      rows = b.CreateAdd(rows, parts.back().dims[0]);
    }
    Val out;
    out.dims = parts[0].dims;
    out.dims[0] = rows;
    out.addr = alloc(byte_size(t, out.dims));
    Value *at = out.addr;
    for (const Val &part : parts) {
      Value *bytes = byte_size(t, part.dims);
      g.return_if_error(b.CreateCall(g.rt("kerb_rt_copy"), {g.ctx, at, part.addr, bytes}));
      at = b.CreateAdd(at, bytes);
    }
    g.bind(s.pat[0], out);
    return;
  }
  default: break;
  }
  unsupported(e, "this operation in host code");
}

Value *ProgramGen::byte_size(PrimType t, const std::vector<Value *> &dims) {
  FnGen &g = *host_;
  uint64_t es = out_.host->getDataLayout().getTypeAllocSize(g.ops().mem_type(t));
  return g.builder().CreateMul(g.product(dims), g.i64(int64_t(es)));
}

Value *ProgramGen::alloc(Value *bytes, bool readback) {
  FnGen &g = *host_;
  IRBuilder<> &b = g.builder();
  Value *addr = b.CreateCall(g.rt(readback ? "kerb_rt_alloc_readback" : "kerb_rt_alloc"), {g.ctx, bytes});
  // An allocation failure has already been recorded in the context.
  g.return_if_error(b.CreateZExt(b.CreateICmpEQ(addr, g.i64(0)), b.getInt32Ty()));
  return addr;
}

bool ProgramGen::launch(const core::Stm &s) {
  const SegOp *op = plan_.op(s);
  if (!op) return false;
  if (op->strategy == Strategy::HostLoop) {
    sequential_map(*op);
    return true;
  }
  if (op->strategy == Strategy::Fused) {
    FnGen &h = *host_;
    for (size_t j = 0; j < s.pat.size(); j++) {
      host_lazy_[s.pat[j]] = FnGen::Lazy{&s, j};
      Val dims_only;
      dims_only.dims = {h.ops().to_i64(h.prim_of(s.exp.args[0]), h.scalar(s.exp.args[0]))};
      h.bind(s.pat[j], dims_only);
    }
    return true;
  }
  switch (op->kind) {
  case OpKind::Iota: iota_kernel(*op); return true;
  case OpKind::Map: map_kernel(*op); return true;
  case OpKind::Replicate: replicate_kernel(*op); return true;
  case OpKind::Reduce: reduce_kernels(*op); return true;
  case OpKind::Scan: scan_kernels(*op); return true;
  case OpKind::Scatter: scatter_kernel(*op); return true;
  case OpKind::Hist:
    // Note [Histograms in one kernel] in thread_kernels.cpp: the first of a pair is
    // launched where the second stands.
    if (op->waits) return true;
    if (op->partner && op->paired) {
      hist_pair(*op->partner, *op);
      return true;
    }
    if (op->partner) hist_kernel(*op->partner);
    hist_kernel(*op);
    return true;
  }
  return false;
}

Val ProgramGen::fresh_copy(const Val &v, PrimType t) {
  if (!v.contiguous()) return materialize(v, t);
  FnGen &h = *host_;
  Value *bytes = byte_size(t, v.dims);
  Value *addr = alloc(bytes);
  h.return_if_error(h.builder().CreateCall(h.rt("kerb_rt_copy"), {h.ctx, addr, v.addr, bytes}));
  return Val{nullptr, addr, v.dims, {}};
}

Val ProgramGen::consumed_dest(const SegOp &op, size_t j, PrimType t) {
  const Val &v = host_->lookup(op.stm->exp.arrays[j]);
  // (A replicate's array is contiguous.)
  if (!op.dest_in_place[j] || !v.contiguous()) return fresh_copy(v, t);
  return v;
}

// Note [Maps whose arrays are sized inside]
// A kernel's threads take the arrays they make from scratch memory that the host
// allocates before the launch (Note [Kernel memory]), so the host must know every such
// array's size: a size bound outside the map, or scalar arithmetic on such sizes. A map
// whose lambda makes an array of a size known only inside it (`map (\n -> ... iota n
// ...) ns`, a replicate of a row's length, a loop whose arrays are sized by the
// element) cannot be one kernel. It runs as host code instead: a loop over its elements
// that applies the lambda to each row in turn, as host code, and writes the element's
// results into the outputs. The lambda's own SOACs become kernels of their own
// (launched once per element; those whose arrays are again sized inside run the same
// way), its scalar code runs on the host, reading the rows' elements from the device.
// Elements run in order, so the first failing element is the interpreter's. Each
// iteration gives back what it allocated (kerb_rt_scope_mark/release, as host loops).
// Correct and slow: one launch or more per element. Futhark instead expands the
// memory by the largest size over the elements (computed first) or flattens the nest;
// either would be the faster way. The outputs' row shapes are known before the loop
// (the lowering computes sizes that depend on the element from the first one: Note [Map
// rows whose sizes depend on the element] in compiler/lower_to_core.cpp). A map
// whose lambda scans arrays of arrays (which a kernel thread does not) runs the same
// way, its scans on the host's scan kernels.
// A map whose lambda makes no such array is not affected (arena_dynamic, the test of
// extract_kernels.cpp, is exactly add_arena's, which used to reject it).
void ProgramGen::sequential_map(const SegOp &op) {
  const core::Stm &s = *op.stm;
  const core::Exp &e = s.exp;
  FnGen &h = *host_;
  auto known = [&](const core::SubExp &d) {
    return host_size_known(d, fn_defs_, [&](int v) -> std::optional<bool> {
      if (!h.has(v)) return std::nullopt;
      return h.lookup(v).scalar != nullptr;
    });
  };
  IRBuilder<> &b = h.builder();
  // Its arrays are read row by row on the host: those computed where read (fused maps
  // and iotas) are computed now (op.materialized).
  for (const std::unique_ptr<SegOp> &m : op.materialized) {
    for (int v : m->stm->pat) {
      host_lazy_.erase(v);
      h.unbind(v);
    }
    if (m->kind == OpKind::Iota) iota_kernel(*m);
    else map_kernel(*m);
  }
  std::set<int> before = h.bound();
  Value *n = h.ops().to_i64(h.prim_of(e.args[0]), h.scalar(e.args[0]));
  std::vector<Val> outs;
  for (int v : s.pat) {
    const core::CType &t = p_.var(v).type;
    const std::vector<core::SubExp> &shape = p_.var(v).shape;
    if (int(shape.size()) != t.rank || !std::all_of(shape.begin() + 1, shape.end(), known))
      unsupported(e, "maps whose results' sizes are not known");
    std::vector<Value *> dims{n};
    for (size_t d = 1; d < shape.size(); d++) dims.push_back(host_size(shape[d], fn_defs_));
    outs.push_back(Val{nullptr, alloc(byte_size(t.prim, dims)), dims, {}});
  }
  h.counted_loop(n, [&](Value *i) {
    Value *mark = b.CreateCall(h.rt("kerb_rt_scope_mark"), {h.ctx});
    std::vector<Val> rows;
    for (int a : e.arrays) {
      const Val &arr = h.lookup(a);
      PrimType t = p_.var(a).type.prim;
      Value *at = h.element_addr(arr.addr, h.offset_of(arr, {i}), t);
      rows.push_back(arr.dims.size() == 1 ? Val{h.host_read(t, at), nullptr, {}, {}} : h.subarray(arr, at, 1));
    }
    std::vector<Val> res = h.apply(*e.lambda, rows);
    for (size_t j = 0; j < s.pat.size(); j++) {
      PrimType t = p_.var(s.pat[j]).type.prim;
      const Val &out = outs[j];
      Value *at = h.element_addr(out.addr, h.offset_of(out, {i}), t);
      if (out.dims.size() == 1) h.host_write(t, res[j].scalar, at);
      else copy_view(res[j], h.subarray(out, at, 1), t);
    }
    Value *none = h.entry_alloca(ArrayType::get(b.getInt64Ty(), 1));
    b.CreateCall(h.rt("kerb_rt_scope_release"), {h.ctx, mark, none, b.getInt32(0)});
  });
  // The lambda's variables were bound inside the loop: later host code (a size that
  // host_size evaluates again) must not see them.
  h.unbind_since(before);
  for (size_t j = 0; j < s.pat.size(); j++) h.bind(s.pat[j], outs[j]);
}

} // namespace kerb::codegen
