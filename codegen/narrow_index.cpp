// Note [32-bit map kernels]
// Index arithmetic is i64 (Futhark's sizes and indices), and on the GPU a 64-bit add,
// compare or min is two instructions or more, a 64-bit multiply three; the hand-written
// stencils use int. A 2-D tiled map kernel (flat_map_kernel, Note [2-D tiles of map
// kernels]) is therefore emitted twice when its lambda makes no arrays (no scratch
// memory): the usual kernel, and a 32-bit one that the host launches instead when a
// test of the launch's arguments passes (`narrow_test` in thread_kernels.cpp):
//   - every i64 scalar argument (sizes such as rows and cols, any i64 free variable),
//     every dimension and every stride of every array argument lies in
//     [-kNarrowLimit, kNarrowLimit] (2^30), as do the tile's rows and columns;
//   - every array argument's extent, sum over its dims of (dim - 1) * |stride| (the
//     product of the dims for a contiguous one), is below 2^31.
// In the 32-bit kernel two things differ, each exact under the test:
// 1. Offsets (FnGen::offsets32: offset_of, flat_offset): the element offset of an
//    access, sum of index * stride, is computed with wrapping i32 operations on the
//    truncated indices and strides and sign-extended for the address. Wrapping i32
//    arithmetic is arithmetic modulo 2^32, so the result is the true offset modulo 2^32,
//    and it is the true offset when that lies in [-2^31, 2^31). An access only happens
//    with its indices in bounds (a kept bounds check has passed, or the range analysis
//    proved it: Note [Proved in range]; a failing check leaves the thread before the
//    access), and an in-bounds element of a view over an argument array lies within
//    that array's extent from the view's start, which also lies within it; so the true
//    offset's magnitude is below the extent, below 2^31. (Accesses whose check the
//    toggles disabled have no defined result when out of bounds, in either kernel.)
//    Views made inside the kernel (rows, slices, transposes) are views of the
//    arguments, and arrays made inside would need scratch memory, which a 32-bit kernel
//    has not.
// 2. Everything else (the tile's row and column, clamps such as i64.max 0 (r - 1),
//    compares, the bounds checks' compares) goes through narrow_index_arithmetic: an
//    i64 operation is replaced by its i32 version only when interval arithmetic proves
//    that its operands and its result lie in [-2^31, 2^31), from what the host tested
//    (the slots above) and the tile index (below 2^30 + 256: rows, cols <= 2^30 and a
//    tile's overhang is less than 256). On such values an i32 add, subtract or multiply
//    gives the same value (modulo 2^32, in range), and truncation preserves both the
//    signed and the unsigned order (sign extension is monotone for both), so compares,
//    selects and min/max give the same results. An operation that might leave the range
//    (an index read from memory, i * 1000000) keeps its i64 form, so a bounds check
//    compares exactly what the 64-bit kernel compares: an index that does not fit in 32
//    bits cannot pass a check by wrapping.
// The host's test is a few compares per launch. Tests: tests/programs/maps/narrow_*.fut
// (clamped stencils on sizes that are not multiples of the tile, 1 x 1, empty, failing
// indices inside the kernel, a large i64 free variable and a huge stride that select
// the 64-bit kernel), tests/ptx (hotspot's 32-bit kernel).
#include "codegen/narrow_index.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace kerb::codegen {

using namespace llvm;

namespace {

class Narrow {
public:
  Narrow(Function &f, const std::map<Value *, ConstantRange> &seeds,
         const std::function<std::optional<ConstantRange>(Value *)> &slot_range)
      : f_(f), seeds_(seeds), slot_range_(slot_range),
        s32_(APInt(64, uint64_t(-(int64_t(1) << 31)), true), APInt(64, uint64_t(1) << 31)) {}

  int run() {
    for (Argument &a : f_.args()) known(&a);
    std::vector<Instruction *> order;
    ReversePostOrderTraversal<Function *> rpo(&f_);
    for (BasicBlock *bb : rpo)
      for (Instruction &i : *bb) order.push_back(&i);
    int n = 0;
    for (Instruction *i : order) {
      known(i);
      if (narrow(*i)) n++;
    }
    return n;
  }

private:
  ConstantRange range(Value *v) {
    unsigned w = cast<IntegerType>(v->getType())->getBitWidth();
    if (auto *c = dyn_cast<ConstantInt>(v)) return ConstantRange(c->getValue());
    auto it = ranges_.find(v);
    return it != ranges_.end() ? it->second : ConstantRange::getFull(w);
  }

  // Records v's range where something is known.
  void known(Value *v) {
    auto *ty = dyn_cast<IntegerType>(v->getType());
    if (!ty) return;
    unsigned w = ty->getBitWidth();
    if (auto s = seeds_.find(v); s != seeds_.end()) {
      ranges_.insert_or_assign(v, s->second);
      return;
    }
    if (std::optional<ConstantRange> r = slot_range_(v)) {
      ranges_.insert_or_assign(v, *r);
      return;
    }
    auto *i = dyn_cast<Instruction>(v);
    if (!i) return;
    switch (i->getOpcode()) {
    case Instruction::ZExt: ranges_.insert_or_assign(v, range(i->getOperand(0)).zeroExtend(w)); break;
    case Instruction::SExt: ranges_.insert_or_assign(v, range(i->getOperand(0)).signExtend(w)); break;
    case Instruction::Trunc: ranges_.insert_or_assign(v, range(i->getOperand(0)).truncate(w)); break;
    case Instruction::Select:
      ranges_.insert_or_assign(v, range(i->getOperand(1)).unionWith(range(i->getOperand(2))));
      break;
    default:
      if (auto *bo = dyn_cast<BinaryOperator>(i))
        ranges_.insert_or_assign(
            v, range(bo->getOperand(0)).binaryOp(bo->getOpcode(), range(bo->getOperand(1))));
      break;
    }
  }

  bool fits(Value *v) { return v->getType()->isIntegerTy(64) && s32_.contains(range(v)); }

  // v's i32 equivalent (v fits).
  Value *low(Value *v, IRBuilder<> &b) {
    if (auto it = low_.find(v); it != low_.end()) return it->second;
    if (auto *c = dyn_cast<ConstantInt>(v)) return b.getInt32(uint32_t(c->getZExtValue()));
    if (auto *e = dyn_cast<CastInst>(v))
      if ((e->getOpcode() == Instruction::SExt || e->getOpcode() == Instruction::ZExt) &&
          e->getOperand(0)->getType()->isIntegerTy(32))
        return e->getOperand(0); // in [-2^31, 2^31): the same 32 bits either way
    return b.CreateTrunc(v, b.getInt32Ty());
  }

  bool narrow(Instruction &i) {
    IRBuilder<> b(&i);
    Value *n = nullptr;
    if (auto *c = dyn_cast<ICmpInst>(&i)) {
      if (!fits(c->getOperand(0)) || !fits(c->getOperand(1))) return false;
      n = b.CreateICmp(c->getPredicate(), low(c->getOperand(0), b), low(c->getOperand(1), b));
      i.replaceAllUsesWith(n);
      return true;
    }
    if (!i.getType()->isIntegerTy(64) || !fits(&i)) return false;
    switch (i.getOpcode()) {
    case Instruction::Add: case Instruction::Sub: case Instruction::Mul:
      if (!fits(i.getOperand(0)) || !fits(i.getOperand(1))) return false;
      n = b.CreateBinOp(Instruction::BinaryOps(i.getOpcode()), low(i.getOperand(0), b),
                        low(i.getOperand(1), b));
      break;
    case Instruction::Select:
      if (!fits(i.getOperand(1)) || !fits(i.getOperand(2))) return false;
      n = b.CreateSelect(i.getOperand(0), low(i.getOperand(1), b), low(i.getOperand(2), b));
      break;
    default: return false;
    }
    Value *wide = b.CreateSExt(n, b.getInt64Ty());
    ranges_.insert_or_assign(wide, range(&i));
    low_[wide] = n;
    i.replaceAllUsesWith(wide);
    return true;
  }

  Function &f_;
  const std::map<Value *, ConstantRange> &seeds_;
  const std::function<std::optional<ConstantRange>(Value *)> &slot_range_;
  ConstantRange s32_;
  std::map<Value *, ConstantRange> ranges_;
  std::map<Value *, Value *> low_;
};

} // namespace

int narrow_index_arithmetic(
    Function &f, const std::map<Value *, ConstantRange> &seeds,
    const std::function<std::optional<ConstantRange>(Value *)> &slot_range) {
  return Narrow(f, seeds, slot_range).run();
}

} // namespace kerb::codegen
