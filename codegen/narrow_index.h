// 32-bit index arithmetic in kernels whose sizes the host has tested to be small (Note
// [32-bit map kernels] in narrow_index.cpp).
#pragma once

#include <llvm/IR/ConstantRange.h>

#include <functional>
#include <map>
#include <optional>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace kerb::codegen {

// The bound the host tests every size against for a 32-bit kernel: dims, strides and
// scalar i64 arguments in [-kNarrowLimit, kNarrowLimit], extents below 2^31.
inline constexpr int64_t kNarrowLimit = int64_t(1) << 30;

// Replaces the i64 additions, subtractions, multiplications, selects, min/max
// (select of a compare) and compares of `f` whose operands and result provably lie in
// [-2^31, 2^31) by their i32 versions (sign-extended where an i64 is still used). The
// proof is interval arithmetic (llvm::ConstantRange, wrapping as the IR does) from
// constants, extensions of narrower values, `seeds` (values the caller knows the range
// of, true wherever they are defined) and `slot_range` (the range of a kernel argument
// slot, by index: the host has tested it before launching this kernel). Returns the
// number of instructions narrowed.
int narrow_index_arithmetic(
    llvm::Function &f, const std::map<llvm::Value *, llvm::ConstantRange> &seeds,
    const std::function<std::optional<llvm::ConstantRange>(llvm::Value *)> &slot_range);

} // namespace kerb::codegen
