// Structural array operations of the reference interpreter: selecting (indexing and
// slicing), writing into a selection, taking rows, concatenation, reshaping,
// transposition and replication, on the runtime's Values (runtime/value.h) of any rank
// and element type, tuples included (arrays of tuples are struct-of-arrays: an operation
// on the outer dimensions applies to every component array).
//
// Nothing here checks bounds or sizes: the interpreter checks and reports failures with
// their messages first, and calls these only with valid arguments.
#pragma once

#include "runtime/value.h"

#include <cstdint>
#include <vector>

namespace kerb {

// One dimension of a selection: an index (keeps no dimension) or a strided range of
// `count` positions starting at `start` (keeps a dimension of size `count`).
struct DimSel {
  bool is_index = false;
  int64_t start = 0;
  int64_t count = 1;
  int64_t stride = 1;
};

// The shape of `arr[sels]` over the array's outer (non-component) dimensions.
std::vector<int64_t> selection_outer_shape(const std::vector<int64_t> &outer,
                                           const std::vector<DimSel> &sels);

// arr[sels]: a scalar, a tuple or an array. sels.size() <= rank of arr.
Value gather(const Value &arr, const std::vector<DimSel> &sels);

// Makes arr's array data exclusively owned (copying it when it is shared) and returns
// it for writing. Component arrays of an array of tuples are not copied here.
ArrayData &make_unique_array(Value &arr);

// Writes `v` (shaped like arr[sels]) into arr[sels], copying arr first if it is shared.
void write_selection(Value &arr, const std::vector<DimSel> &sels, const Value &v);

// The rows of arr at `rows`, in that order, as an array of rows.size() rows.
Value take_rows(const Value &arr, const std::vector<int64_t> &rows);

// a ++ b along the outer dimension (rows of equal shape).
Value concat_arrays(const Value &a, const Value &b);

// Replaces the first `outer_rank` dims of arr by `new_outer` (same element count).
Value reshape_outer(const Value &arr, int outer_rank, std::vector<int64_t> new_outer);

// Swaps the two outermost dimensions (rank >= 2).
Value transpose_outer(const Value &arr);

// An array of n copies of x (a scalar, tuple or array): shape [n] ++ shape of x.
Value replicate_value(int64_t n, const Value &x);

// The shape of a value's array dims, for messages: arrays give their shape; an array of
// tuples gives its outer shape.
const std::vector<int64_t> &outer_shape(const Value &arr);

// True when two values have the same structure and the same shapes everywhere.
bool same_shapes(const Value &a, const Value &b);

} // namespace kerb
