// FnGen's kernel-only parts (see fn_gen.h): fusion (maps and iotas computed where they
// are read), destination passing (a map's array results written straight into the rows
// of its output), the element loop of a map, and reductions run sequentially inside a
// thread.
#include "codegen/fn_gen.h"

#include "compiler/fusion.h"

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

// Where maps are computed is a property of the core IR that the check report describes
// too (compiler/fusion.h); these follow it.
bool FnGen::consumed_whole(const core::Program &p, const core::Body &body, const core::Stm &s) {
  return core::computed_where_read(p, body, s);
}

bool FnGen::mentions(const core::Exp &e, const std::set<int> &vars) { return core::mentions(e, vars); }

std::vector<Val> FnGen::rows_at(const std::vector<int> &arrays, Value *i) {
  std::map<const core::Stm *, std::vector<Val>> applied;
  return rows_at(arrays, i, applied);
}

std::vector<Val> FnGen::rows_at(const std::vector<int> &arrays, Value *i,
                                std::map<const core::Stm *, std::vector<Val>> &applied) {
  std::vector<Val> out;
  for (int a : arrays) {
    auto lz = lazy_.find(a);
    if (lz != lazy_.end()) {
      const core::Stm &ls = *lz->second.stm;
      if (ls.exp.kind == core::ExpKind::Iota) {
        out.push_back(Val{ops_.convert(PrimType::I64, ls.exp.to, i), nullptr, {}, {}});
        continue;
      }
      // A fused map's lambda runs once per element, however many of its results (or
      // of the fused maps reading it) are read: the scratch memory plan counts it once
      // (Note [Kernel memory]). Found by kerb difftest (seed 5027).
      auto done = applied.find(&ls);
      if (done == applied.end())
        done = applied.emplace(&ls, apply(*ls.exp.lambda, rows_at(ls.exp.arrays, i, applied))).first;
      out.push_back(done->second[lz->second.result]);
      continue;
    }
    if (lane >= 0) {
      auto lv = lane_values.find(a);
      if (lv != lane_values.end()) {
        out.push_back(Val{lv->second[size_t(lane)], nullptr, {}, {}});
        continue;
      }
    }
    const Val &arr = lookup(a);
    PrimType t = p_.var(a).type.prim;
    Value *addr = element_addr(arr.addr, offset_of(arr, {i}), t);
    if (arr.dims.size() == 1)
      out.push_back(Val{load_elem(t, addr), nullptr, {}, {}});
    else
      out.push_back(subarray(arr, addr, 1));
  }
  return out;
}

const core::Stm *FnGen::binding_of(const core::Body &body, int v) {
  for (const core::Stm &s : body.stms)
    for (int p : s.pat)
      if (p == v) return &s;
  return nullptr;
}

bool FnGen::writes_to_destination(const core::Stm &s) {
  return s.exp.kind == core::ExpKind::Map || s.exp.kind == core::ExpKind::Iota ||
         s.exp.kind == core::ExpKind::Replicate;
}

std::map<int, size_t> FnGen::in_place_results(const core::Program &p, const core::Lambda &l) {
  std::map<int, size_t> out;
  auto is_result = [&](int v) {
    for (const core::SubExp &r : l.body.result)
      if (r.is_var() && r.var == v) return true;
    return false;
  };
  for (size_t j = 0; j < l.body.result.size(); j++) {
    const core::SubExp &r = l.body.result[j];
    if (!r.is_var() || p.var(r.var).type.rank == 0 || out.count(r.var)) continue;
    const core::Stm *def = binding_of(l.body, r.var);
    if (!def || !writes_to_destination(*def)) continue;
    bool all = true;
    for (int v : def->pat) all = all && is_result(v);
    if (all) out[r.var] = j;
  }
  return out;
}

void FnGen::map_element(const core::Lambda &l, const std::vector<int> &arrays, Value *i,
                        const std::vector<Val> &dests) {
  std::vector<Val> rows = rows_at(arrays, i);
  const std::map<int, size_t> &in_place = plan->in_place(l);
  for (const auto &[v, j] : in_place) {
    PrimType t = p_.var(v).type.prim;
    dest_[v] = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
  }
  std::vector<Val> res = apply(l, rows);
  for (size_t j = 0; j < res.size(); j++) {
    const core::SubExp &r = l.body.result[j];
    PrimType t = prim_of(r);
    if (rank_of(r) == 0) {
      store_elem(t, res[j].scalar, element_addr(dests[j].addr, offset_of(dests[j], {i}), t));
      continue;
    }
    auto ip = in_place.find(r.var);
    if (ip != in_place.end() && ip->second == j) continue;
    Val dst = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
    copy_elements(t, res[j], dst);
  }
}

std::vector<Value *> FnGen::map_scalars(const core::Lambda &l, const std::vector<int> &arrays,
                                        Value *i) {
  std::vector<Val> res = apply(l, rows_at(arrays, i));
  std::vector<Value *> out;
  for (const Val &r : res) {
    KERB_ASSERT(r.scalar, "map_scalars on a lambda with array results");
    out.push_back(r.scalar);
  }
  return out;
}

Val FnGen::row_of(PrimType t, const Val &arr, Value *i) {
  Value *addr = element_addr(arr.addr, offset_of(arr, {i}), t);
  if (arr.dims.size() == 1) return Val{load_elem(t, addr), nullptr, {}, {}};
  return subarray(arr, addr, 1);
}

void FnGen::store_row(PrimType t, const Val &v, const Val &arr, Value *i) {
  Value *addr = element_addr(arr.addr, offset_of(arr, {i}), t);
  if (arr.dims.size() == 1) store_elem(t, v.scalar, addr);
  else copy_elements(t, v, subarray(arr, addr, 1));
}

void FnGen::copy_elements(PrimType t, const Val &src, const Val &dst) {
  std::function<void(size_t, Value *, Value *)> go = [&](size_t d, Value *so, Value *doff) {
    if (d == src.dims.size()) {
      store_elem(t, load_elem(t, element_addr(src.addr, so, t)), element_addr(dst.addr, doff, t));
      return;
    }
    std::vector<Value *> ss = strides_of(src), ds = strides_of(dst);
    counted_loop(src.dims[d], [&](Value *k) {
      go(d + 1, b_.CreateAdd(so, b_.CreateMul(k, ss[d])), b_.CreateAdd(doff, b_.CreateMul(k, ds[d])));
    });
  };
  go(0, i64(0), i64(0));
}

bool FnGen::destination_stm(const core::Stm &s) {
  if (mode_ != Kernel || s.pat.empty() || !dest_.count(s.pat[0])) return false;
  const core::Exp &e = s.exp;
  std::vector<Val> dsts;
  for (int v : s.pat) {
    KERB_ASSERT(dest_.count(v), "a map written in place without a destination for each result");
    dsts.push_back(dest_[v]);
    dest_.erase(v);
  }
  const Val &dst = dsts[0];
  PrimType t = p_.var(s.pat[0]).type.prim;
  switch (e.kind) {
  case core::ExpKind::Map:
    counted_loop(scalar(e.args[0]), [&](Value *i) {
      Value *mark = arena_mark();
      map_element(*e.lambda, e.arrays, i, dsts);
      arena_release(mark);
    });
    break;
  case core::ExpKind::Iota:
    counted_loop(dst.dims[0], [&](Value *i) {
      store_elem(t, ops_.convert(PrimType::I64, t, i), element_addr(dst.addr, offset_of(dst, {i}), t));
    });
    break;
  case core::ExpKind::Replicate: {
    Val x = val(e.args[1]);
    counted_loop(dst.dims[0], [&](Value *i) {
      Val row = subarray(dst, element_addr(dst.addr, offset_of(dst, {i}), t), 1);
      if (rank_of(e.args[1]) == 0) store_elem(t, x.scalar, row.addr);
      else copy_elements(t, x, row);
    });
    break;
  }
  default: return false;
  }
  for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], dsts[j]);
  return true;
}

void FnGen::sequential_reduce(const core::Stm &s) {
  const core::Exp &e = s.exp;
  std::vector<Val> ne;
  for (size_t j = 1; j < e.args.size(); j++) ne.push_back(val(e.args[j]));
  std::vector<Val> out = fold_range(*e.lambda, ne, i64(0), ops_.to_i64(prim_of(e.args[0]), scalar(e.args[0])),
                                    [&](Value *i) { return rows_at(e.arrays, i); });
  for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], out[j]);
}

std::vector<Val> FnGen::fold_range(const core::Lambda &op, const std::vector<Val> &init, Value *lo,
                                   Value *hi, const std::function<std::vector<Val>(Value *)> &rows,
                                   const std::function<void(Value *, const std::vector<Val> &)> &each) {
  std::vector<int> acc_vars(op.params.begin(), op.params.begin() + long(init.size()));
  // Array accumulators are carried in buffers (Note [Kernel memory]).
  bool arrays = false;
  for (int v : acc_vars) arrays = arrays || p_.var(v).type.rank != 0;
  Carry carry;
  if (arrays) carry = carry_begin(acc_vars, init);
  Slots slots = make_slots(acc_vars);
  store_slots(slots, init, acc_vars);
  counted_range(lo, hi, nullptr, [&](Value *i) {
    Value *mark = arrays ? nullptr : arena_mark();
    std::vector<Val> args = load_slots(slots, acc_vars);
    std::vector<Val> xs = rows(i);
    args.insert(args.end(), xs.begin(), xs.end());
    std::vector<Val> r = apply(op, args);
    if (arrays) r = carry_next(carry, r);
    if (each) each(i, r);
    store_slots(slots, r, acc_vars);
    arena_release(mark);
  });
  return load_slots(slots, acc_vars);
}

void FnGen::hist_sequential(const core::Stm &s, const std::vector<Val> &dsts) {
  const core::Exp &e = s.exp;
  size_t k = s.pat.size();
  int is = e.arrays[k];
  std::vector<int> vs(e.arrays.begin() + long(k) + 1, e.arrays.end());
  counted_loop(lookup(is).dims[0], [&](Value *i) {
    // The values first: every value is computed (and checked), as in the interpreter,
    // also where its index is out of range.
    Value *mark = arena_mark();
    std::vector<int> read = vs;
    read.push_back(is);
    std::vector<Val> rows = rows_at(read, i);
    Value *idx = rows.back().scalar;
    rows.pop_back();
    BasicBlock *upd = BasicBlock::Create(c_, "hist.update", f_);
    BasicBlock *skip = BasicBlock::Create(c_, "hist.skip", f_);
    BasicBlock *next = BasicBlock::Create(c_, "hist.next", f_);
    b_.CreateCondBr(b_.CreateICmpULT(idx, dsts[0].dims[0]), upd, skip);
    b_.SetInsertPoint(upd);
    std::vector<Val> args;
    std::vector<Value *> at;
    for (size_t j = 0; j < k; j++) {
      PrimType tj = p_.var(s.pat[j]).type.prim;
      at.push_back(element_addr(dsts[j].addr, offset_of(dsts[j], {idx}), tj));
      args.push_back(dsts[j].dims.size() == 1 ? Val{load_elem(tj, at[j]), nullptr, {}, {}}
                                               : subarray(dsts[j], at[j], 1));
    }
    args.insert(args.end(), rows.begin(), rows.end());
    std::vector<Val> r = apply(*e.lambda, args);
    for (size_t j = 0; j < k; j++) {
      PrimType tj = p_.var(s.pat[j]).type.prim;
      if (dsts[j].dims.size() == 1) store_elem(tj, r[j].scalar, at[j]);
      else copy_elements(tj, r[j], subarray(dsts[j], at[j], 1));
    }
    b_.CreateBr(next);
    b_.SetInsertPoint(skip);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
    arena_release(mark);
  });
}

void FnGen::kernel_array_stm(const core::Stm &s) {
  const core::Exp &e = s.exp;
  PrimType t = p_.var(s.pat[0]).type.prim;
  auto i64_of = [&](const core::SubExp &x) { return ops_.to_i64(prim_of(x), scalar(x)); };
  auto fresh_copy = [&](const Val &src) {
    Val dst = kernel_alloc(t, src.dims);
    copy_elements(t, src, dst);
    return dst;
  };
  auto row = [&](const Val &arr, Value *i) {
    return subarray(arr, element_addr(arr.addr, offset_of(arr, {i}), t), 1);
  };
  switch (e.kind) {
  case core::ExpKind::Map: {
    Value *w = i64_of(e.args[0]);
    std::vector<Val> dests;
    for (int v : s.pat) {
      std::vector<Value *> dims{w};
      const std::vector<core::SubExp> &shape = p_.var(v).shape;
      for (size_t d = 1; d < shape.size(); d++) dims.push_back(i64_of(shape[d]));
      dests.push_back(kernel_alloc(p_.var(v).type.prim, dims));
    }
    counted_loop(w, [&](Value *i) {
      Value *mark = arena_mark();
      map_element(*e.lambda, e.arrays, i, dests);
      arena_release(mark);
    });
    for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], dests[j]);
    return;
  }
  case core::ExpKind::Iota:
  case core::ExpKind::Replicate: {
    std::vector<Value *> dims{i64_of(e.args[0])};
    if (e.kind == core::ExpKind::Replicate) {
      Val x = val(e.args[1]);
      dims.insert(dims.end(), x.dims.begin(), x.dims.end());
    }
    dest_[s.pat[0]] = kernel_alloc(t, dims);
    destination_stm(s);
    return;
  }
  case core::ExpKind::Copy: bind(s.pat[0], fresh_copy(lookup(e.arrays[0]))); return;
  case core::ExpKind::Update: {
    const Val &src = lookup(e.arrays[0]);
    size_t k = e.args.size() - 1;
    std::vector<Value *> idx;
    Value *ok = b_.getTrue();
    for (size_t j = 0; j < k; j++) {
      idx.push_back(i64_of(e.args[j]));
      ok = b_.CreateAnd(ok, b_.CreateICmpULT(idx.back(), src.dims[j]));
    }
    if (e.site >= 0) check(ok, e.site, index_failure_args(idx, src.dims));
    Val dst = fresh_copy(src);
    Value *addr = element_addr(dst.addr, offset_of(dst, idx), t);
    const core::SubExp &v = e.args.back();
    if (rank_of(v) == 0) store_elem(t, scalar(v), addr);
    else copy_elements(t, val(v), subarray(dst, addr, k));
    bind(s.pat[0], dst);
    return;
  }
  case core::ExpKind::UpdateSlice: {
    Val dst = fresh_copy(lookup(e.arrays[0]));
    copy_elements(t, lookup(e.arrays[1]), select_view(dst, t, e, e.index_dims));
    bind(s.pat[0], dst);
    return;
  }
  case core::ExpKind::Concat: {
    std::vector<Val> parts;
    Value *rows = i64(0);
    for (int a : e.arrays) {
      parts.push_back(lookup(a));
      rows = b_.CreateAdd(rows, parts.back().dims[0]);
    }
    std::vector<Value *> dims = parts[0].dims;
    dims[0] = rows;
    Val dst = kernel_alloc(t, dims);
    Value *at = i64(0);
    for (const Val &part : parts) {
      Val view{nullptr, element_addr(dst.addr, b_.CreateMul(at, product(part.dims, 1)), t), part.dims, {}};
      copy_elements(t, part, view);
      at = b_.CreateAdd(at, part.dims[0]);
    }
    bind(s.pat[0], dst);
    return;
  }
  case core::ExpKind::ArrayLit: {
    Val first = val(e.args[0]);
    std::vector<Value *> dims{i64(int64_t(e.args.size()))};
    dims.insert(dims.end(), first.dims.begin(), first.dims.end());
    Val dst = kernel_alloc(t, dims);
    for (size_t i = 0; i < e.args.size(); i++) {
      Val r = row(dst, i64(int64_t(i)));
      if (rank_of(e.args[i]) == 0) store_elem(t, scalar(e.args[i]), r.addr);
      else copy_elements(t, val(e.args[i]), r);
    }
    bind(s.pat[0], dst);
    return;
  }
  case core::ExpKind::Reshape: {
    const Val &src = lookup(e.arrays[0]);
    Val v = src.contiguous() ? src : fresh_copy(src);
    v.dims.clear();
    for (const core::SubExp &d : e.args) v.dims.push_back(i64_of(d));
    bind(s.pat[0], v);
    return;
  }
  case core::ExpKind::Scan: {
    // Sequential: the running value, stored at each index.
    size_t k = s.pat.size();
    Value *n = i64_of(e.args[0]);
    std::vector<Val> outs;
    for (int v : s.pat) {
      if (p_.var(v).type.rank != 1) unsupported(e, "scans of arrays of arrays inside a kernel");
      outs.push_back(kernel_alloc(p_.var(v).type.prim, {n}));
    }
    Slots acc = make_slots(std::vector<int>(e.lambda->params.begin(), e.lambda->params.begin() + long(k)));
    std::vector<Val> ne;
    for (size_t j = 0; j < k; j++) ne.push_back(val(e.args[j + 1]));
    std::vector<int> acc_vars(e.lambda->params.begin(), e.lambda->params.begin() + long(k));
    store_slots(acc, ne, acc_vars);
    counted_loop(n, [&](Value *i) {
      Value *mark = arena_mark();
      std::vector<Val> args = load_slots(acc, acc_vars);
      std::vector<Val> rows = rows_at(e.arrays, i);
      args.insert(args.end(), rows.begin(), rows.end());
      std::vector<Val> r = apply(*e.lambda, args);
      for (size_t j = 0; j < k; j++) {
        PrimType tj = p_.var(s.pat[j]).type.prim;
        store_elem(tj, r[j].scalar, element_addr(outs[j].addr, i, tj));
      }
      store_slots(acc, r, acc_vars);
      arena_release(mark);
    });
    for (size_t j = 0; j < k; j++) bind(s.pat[j], outs[j]);
    return;
  }
  case core::ExpKind::Scatter: {
    Val dst = fresh_copy(lookup(e.arrays[0]));
    const Val &is = lookup(e.arrays[1]);
    const Val &vs = lookup(e.arrays[2]);
    PrimType it = p_.var(e.arrays[1]).type.prim;
    counted_loop(is.dims[0], [&](Value *i) {
      Value *idx = ops_.to_i64(it, load_elem(it, element_addr(is.addr, offset_of(is, {i}), it)));
      BasicBlock *write = BasicBlock::Create(c_, "scatter.write", f_);
      BasicBlock *skip = BasicBlock::Create(c_, "scatter.skip", f_);
      b_.CreateCondBr(b_.CreateICmpULT(idx, dst.dims[0]), write, skip);
      b_.SetInsertPoint(write);
      if (dst.dims.size() > 1)
        store_row(t, row_of(t, vs, i), dst, idx); // rows
      else
        store_elem(t, load_elem(t, element_addr(vs.addr, offset_of(vs, {i}), t)),
                   element_addr(dst.addr, idx, t));
      b_.CreateBr(skip);
      b_.SetInsertPoint(skip);
    });
    bind(s.pat[0], dst);
    return;
  }
  case core::ExpKind::Hist: {
    std::vector<Val> dsts;
    for (size_t j = 0; j < s.pat.size(); j++) {
      PrimType tj = p_.var(s.pat[j]).type.prim;
      Val src = lookup(e.arrays[j]);
      Val dst = kernel_alloc(tj, src.dims);
      copy_elements(tj, src, dst);
      dsts.push_back(dst);
    }
    hist_sequential(s, dsts);
    for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], dsts[j]);
    return;
  }
  default: break;
  }
  unsupported(e, "this operation inside a kernel");
}

} // namespace kerb::codegen
