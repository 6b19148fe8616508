// Structural array operations of the reference interpreter (see interp_arrays.h).
// Arrays of primitives are flat row-major buffers; every operation on an array of
// tuples applies the same operation to each component array.
#include "compiler/interp_arrays.h"

#include "compiler/source.h"

#include <utility>

namespace kerb {

namespace {

int64_t product_from(const std::vector<int64_t> &shape, size_t from) {
  int64_t n = 1;
  for (size_t i = from; i < shape.size(); i++) n *= shape[i];
  return n;
}

std::vector<int64_t> concat_shapes(std::vector<int64_t> outer, const std::vector<int64_t> &shape,
                                   size_t from) {
  outer.insert(outer.end(), shape.begin() + std::ptrdiff_t(from), shape.end());
  return outer;
}

bool is_prim_array(const Value &arr) { return arr.array->elem.kind == ValueType::Prim; }

// Visits arr[sels] of a primitive array as contiguous blocks of the flat buffer, in
// the row-major order of the result: f(offset, length).
class OffsetWalker {
public:
  OffsetWalker(const std::vector<int64_t> &shape, const std::vector<DimSel> &sels)
      : sels_(sels), strides_(shape.size()) {
    KERB_ASSERT(sels.size() <= shape.size(), "more indices than array dimensions");
    for (size_t d = shape.size(); d-- > 0;)
      strides_[d] = d + 1 == shape.size() ? 1 : strides_[d + 1] * shape[d + 1];
    block_ = product_from(shape, sels.size());
  }

  template <typename F> void walk(F &&f) const { walk_from(0, 0, f); }

private:
  template <typename F> void walk_from(size_t d, int64_t offset, F &f) const {
    if (d == sels_.size()) {
      f(offset, block_);
      return;
    }
    const DimSel &s = sels_[d];
    if (s.is_index) {
      walk_from(d + 1, offset + s.start * strides_[d], f);
      return;
    }
    for (int64_t c = 0; c < s.count; c++)
      walk_from(d + 1, offset + (s.start + c * s.stride) * strides_[d], f);
  }

  const std::vector<DimSel> &sels_;
  std::vector<int64_t> strides_;
  int64_t block_ = 1;
};

Value gather_prim(const Value &arr, const std::vector<DimSel> &sels) {
  const ArrayData &a = *arr.array;
  PrimType t = a.elem.prim;
  // The common case: one index into a vector.
  if (a.shape.size() == 1 && sels.size() == 1 && sels[0].is_index)
    return Value(PrimValue{t, a.data[size_t(sels[0].start)]});
  std::vector<int64_t> shape = selection_outer_shape(a.shape, sels);
  std::vector<Bits> data;
  data.reserve(size_t(product_from(shape, 0)));
  OffsetWalker(a.shape, sels).walk([&](int64_t offset, int64_t length) {
    auto begin = a.data.begin() + std::ptrdiff_t(offset);
    data.insert(data.end(), begin, begin + std::ptrdiff_t(length));
  });
  if (shape.empty()) return Value(PrimValue{t, data.at(0)});
  return make_prim_array(t, std::move(shape), std::move(data));
}

} // namespace

std::vector<int64_t> selection_outer_shape(const std::vector<int64_t> &outer,
                                           const std::vector<DimSel> &sels) {
  std::vector<int64_t> shape;
  for (const DimSel &s : sels)
    if (!s.is_index) shape.push_back(s.count);
  shape.insert(shape.end(), outer.begin() + std::ptrdiff_t(sels.size()), outer.end());
  return shape;
}

Value gather(const Value &arr, const std::vector<DimSel> &sels) {
  if (is_prim_array(arr)) return gather_prim(arr, sels);
  const ArrayData &a = *arr.array;
  std::vector<Value> comps;
  comps.reserve(a.components.size());
  for (const Value &c : a.components) comps.push_back(gather(c, sels));
  std::vector<int64_t> outer = selection_outer_shape(a.shape, sels);
  if (outer.empty()) return Value::tuple(std::move(comps));
  return make_tuple_array(std::move(outer), std::move(comps));
}

ArrayData &make_unique_array(Value &arr) {
  KERB_ASSERT(arr.kind == Value::Array && arr.array, "make_unique_array of a non-array");
  if (arr.array.use_count() != 1) arr.array = std::make_shared<ArrayData>(*arr.array);
  // The data was created non-const (make_shared<ArrayData>) and we hold the only
  // reference, so writing through it is safe.
  return const_cast<ArrayData &>(*arr.array);
}

void write_selection(Value &arr, const std::vector<DimSel> &sels, const Value &v) {
  ArrayData &a = make_unique_array(arr);
  if (a.elem.kind == ValueType::Prim) {
    OffsetWalker walker(a.shape, sels);
    if (v.kind == Value::Prim) {
      walker.walk([&](int64_t offset, int64_t length) {
        KERB_ASSERT(length == 1, "a scalar written into a selection of several elements");
        a.data[size_t(offset)] = v.prim.bits;
      });
      return;
    }
    KERB_ASSERT(v.kind == Value::Array, "writing a tuple into an array of primitives");
    const std::vector<Bits> &src = v.array->data;
    size_t pos = 0;
    walker.walk([&](int64_t offset, int64_t length) {
      KERB_ASSERT(pos + size_t(length) <= src.size(), "written value smaller than selection");
      std::copy(src.begin() + std::ptrdiff_t(pos), src.begin() + std::ptrdiff_t(pos + length),
                a.data.begin() + std::ptrdiff_t(offset));
      pos += size_t(length);
    });
    return;
  }
  for (size_t k = 0; k < a.components.size(); k++) {
    const Value &part = v.kind == Value::Tuple ? v.elems[k] : v.array->components[k];
    write_selection(a.components[k], sels, part);
  }
}

Value take_rows(const Value &arr, const std::vector<int64_t> &rows) {
  const ArrayData &a = *arr.array;
  int64_t m = int64_t(rows.size());
  if (a.elem.kind == ValueType::Prim) {
    int64_t row_size = product_from(a.shape, 1);
    std::vector<Bits> data;
    data.reserve(size_t(m * row_size));
    for (int64_t r : rows) {
      auto begin = a.data.begin() + std::ptrdiff_t(r * row_size);
      data.insert(data.end(), begin, begin + std::ptrdiff_t(row_size));
    }
    return make_prim_array(a.elem.prim, concat_shapes({m}, a.shape, 1), std::move(data));
  }
  std::vector<Value> comps;
  for (const Value &c : a.components) comps.push_back(take_rows(c, rows));
  return make_tuple_array(concat_shapes({m}, a.shape, 1), std::move(comps));
}

Value concat_arrays(const Value &x, const Value &y) {
  const ArrayData &a = *x.array, &b = *y.array;
  std::vector<int64_t> shape = a.shape;
  shape[0] += b.shape[0];
  if (a.elem.kind == ValueType::Prim) {
    std::vector<Bits> data;
    data.reserve(a.data.size() + b.data.size());
    data.insert(data.end(), a.data.begin(), a.data.end());
    data.insert(data.end(), b.data.begin(), b.data.end());
    return make_prim_array(a.elem.prim, std::move(shape), std::move(data));
  }
  std::vector<Value> comps;
  for (size_t k = 0; k < a.components.size(); k++)
    comps.push_back(concat_arrays(a.components[k], b.components[k]));
  return make_tuple_array(std::move(shape), std::move(comps));
}

Value reshape_outer(const Value &arr, int outer_rank, std::vector<int64_t> new_outer) {
  const ArrayData &a = *arr.array;
  std::vector<int64_t> shape = concat_shapes(new_outer, a.shape, size_t(outer_rank));
  if (a.elem.kind == ValueType::Prim) return make_prim_array(a.elem.prim, std::move(shape), a.data);
  std::vector<Value> comps;
  for (const Value &c : a.components) comps.push_back(reshape_outer(c, outer_rank, new_outer));
  return make_tuple_array(std::move(shape), std::move(comps));
}

Value transpose_outer(const Value &arr) {
  const ArrayData &a = *arr.array;
  KERB_ASSERT(a.shape.size() >= 2, "transpose of an array of rank < 2");
  std::vector<int64_t> shape = a.shape;
  std::swap(shape[0], shape[1]);
  if (a.elem.kind != ValueType::Prim) {
    std::vector<Value> comps;
    for (const Value &c : a.components) comps.push_back(transpose_outer(c));
    return make_tuple_array(std::move(shape), std::move(comps));
  }
  int64_t n = a.shape[0], m = a.shape[1], inner = product_from(a.shape, 2);
  std::vector<Bits> data(a.data.size());
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++)
      for (int64_t k = 0; k < inner; k++)
        data[size_t((j * n + i) * inner + k)] = a.data[size_t((i * m + j) * inner + k)];
  return make_prim_array(a.elem.prim, std::move(shape), std::move(data));
}

Value replicate_value(int64_t n, const Value &x) {
  switch (x.kind) {
  case Value::Prim:
    return make_prim_array(x.prim.type, {n}, std::vector<Bits>(size_t(n), x.prim.bits));
  case Value::Tuple: {
    std::vector<Value> comps;
    for (const Value &e : x.elems) comps.push_back(replicate_value(n, e));
    return make_tuple_array({n}, std::move(comps));
  }
  case Value::Array: break;
  }
  const ArrayData &a = *x.array;
  std::vector<int64_t> shape = concat_shapes({n}, a.shape, 0);
  if (a.elem.kind == ValueType::Prim) {
    std::vector<Bits> data;
    data.reserve(size_t(n) * a.data.size());
    for (int64_t i = 0; i < n; i++) data.insert(data.end(), a.data.begin(), a.data.end());
    return make_prim_array(a.elem.prim, std::move(shape), std::move(data));
  }
  std::vector<Value> comps;
  for (const Value &c : a.components) comps.push_back(replicate_value(n, c));
  return make_tuple_array(std::move(shape), std::move(comps));
}

const std::vector<int64_t> &outer_shape(const Value &arr) { return arr.array->shape; }

bool same_shapes(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Value::Prim) return a.prim.type == b.prim.type;
  if (a.kind == Value::Tuple) {
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); i++)
      if (!same_shapes(a.elems[i], b.elems[i])) return false;
    return true;
  }
  if (a.array->shape != b.array->shape) return false;
  if (a.array->components.size() != b.array->components.size()) return false;
  for (size_t i = 0; i < a.array->components.size(); i++)
    if (!same_shapes(a.array->components[i], b.array->components[i])) return false;
  return true;
}

} // namespace kerb
