// FnGen's kernel-only parts (see fn_gen.h): fusion (maps and iotas computed where they
// are read), destination passing (a map's array results written straight into the rows
// of its output), the element loop of a map, and reductions run sequentially inside a
// thread.
#include "codegen/fn_gen.h"

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

bool FnGen::consumed_whole(const core::Stm &s) {
  if (!cur_body_) return false;
  if (s.exp.kind == core::ExpKind::Map)
    for (int v : s.pat)
      if (p_.var(v).type.rank != 1) return false;
  std::set<int> vars(s.pat.begin(), s.pat.end());
  bool after = false;
  for (const core::Stm &t : cur_body_->stms) {
    if (&t == &s) {
      after = true;
      continue;
    }
    if (after && !uses_only_whole(t.exp, vars)) return false;
  }
  for (const core::SubExp &r : cur_body_->result)
    if (r.is_var() && vars.count(r.var)) return false;
  return true;
}

bool FnGen::uses_only_whole(const core::Exp &e, const std::set<int> &vars) {
  for (const core::SubExp &a : e.args)
    if (a.is_var() && vars.count(a.var)) return false;
  bool whole = e.kind == core::ExpKind::Map || e.kind == core::ExpKind::Reduce;
  for (int a : e.arrays)
    if (vars.count(a) && !whole) return false;
  auto body_ok = [&](const core::Body &b) {
    for (const core::Stm &t : b.stms)
      if (!uses_only_whole(t.exp, vars)) return false;
    for (const core::SubExp &r : b.result)
      if (r.is_var() && vars.count(r.var)) return false;
    return true;
  };
  for (const auto &b : e.bodies)
    if (b && !body_ok(*b)) return false;
  if (e.lambda && !body_ok(e.lambda->body)) return false;
  return true;
}

std::vector<Val> FnGen::rows_at(const std::vector<int> &arrays, Value *i) {
  std::vector<Val> out;
  for (int a : arrays) {
    auto lz = lazy_.find(a);
    if (lz != lazy_.end()) {
      const core::Stm &ls = *lz->second.stm;
      if (ls.exp.kind == core::ExpKind::Iota) {
        out.push_back(Val{ops_.convert(PrimType::I64, ls.exp.to, i), nullptr, {}, {}});
        continue;
      }
      std::vector<Val> r = apply(*ls.exp.lambda, rows_at(ls.exp.arrays, i));
      out.push_back(r[lz->second.result]);
      continue;
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

void FnGen::map_element(const core::Lambda &l, const std::vector<int> &arrays, Value *i,
                        const std::vector<Val> &dests) {
  std::vector<Val> rows = rows_at(arrays, i);
  std::vector<bool> in_place(l.body.result.size(), false);
  for (size_t j = 0; j < l.body.result.size(); j++) {
    const core::SubExp &r = l.body.result[j];
    if (!r.is_var() || p_.var(r.var).type.rank == 0) continue;
    const core::Stm *def = binding_of(l.body, r.var);
    if (!def || !writes_to_destination(*def) || def->pat.size() != 1) continue;
    PrimType t = p_.var(r.var).type.prim;
    dest_[r.var] = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
    in_place[j] = true;
  }
  std::vector<Val> res = apply(l, rows);
  for (size_t j = 0; j < res.size(); j++) {
    const core::SubExp &r = l.body.result[j];
    PrimType t = prim_of(r);
    if (rank_of(r) == 0) {
      store_elem(t, res[j].scalar, element_addr(dests[j].addr, offset_of(dests[j], {i}), t));
      continue;
    }
    if (in_place[j]) continue;
    Val dst = subarray(dests[j], element_addr(dests[j].addr, offset_of(dests[j], {i}), t), 1);
    copy_elements(t, res[j], dst);
  }
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
  Val dst = dest_[s.pat[0]];
  dest_.erase(s.pat[0]);
  PrimType t = p_.var(s.pat[0]).type.prim;
  switch (e.kind) {
  case core::ExpKind::Map:
    counted_loop(scalar(e.args[0]), [&](Value *i) { map_element(*e.lambda, e.arrays, i, {dst}); });
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
  bind(s.pat[0], dst);
  return true;
}

void FnGen::sequential_reduce(const core::Stm &s) {
  const core::Exp &e = s.exp;
  size_t k = e.args.size() - 1;
  for (int r : s.pat)
    if (p_.var(r).type.rank != 0) unsupported(e, "reductions with array operands");
  Slots acc = make_slots(s.pat);
  std::vector<Val> ne;
  for (size_t j = 0; j < k; j++) ne.push_back(val(e.args[j + 1]));
  store_slots(acc, ne, s.pat);
  Value *n = scalar(e.args[0]);
  AllocaInst *counter = entry_alloca(b_.getInt64Ty());
  b_.CreateStore(i64(0), counter);
  BasicBlock *head = BasicBlock::Create(c_, "red.head", f_);
  BasicBlock *body_bb = BasicBlock::Create(c_, "red.body", f_);
  BasicBlock *exit = BasicBlock::Create(c_, "red.end", f_);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  Value *i = b_.CreateLoad(b_.getInt64Ty(), counter);
  b_.CreateCondBr(b_.CreateICmpSLT(i, n), body_bb, exit);
  b_.SetInsertPoint(body_bb);
  std::vector<Val> args = load_slots(acc, s.pat);
  std::vector<Val> rows = rows_at(e.arrays, i);
  args.insert(args.end(), rows.begin(), rows.end());
  store_slots(acc, apply(*e.lambda, args), s.pat);
  b_.CreateStore(b_.CreateAdd(i, i64(1)), counter);
  b_.CreateBr(head);
  b_.SetInsertPoint(exit);
  std::vector<Val> out = load_slots(acc, s.pat);
  for (size_t j = 0; j < s.pat.size(); j++) bind(s.pat[j], out[j]);
}

} // namespace kerb::codegen
