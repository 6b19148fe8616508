// Hand-written CUDA for the group of programs whose checks cannot be proved
// (bench/unproved/): CSR SpMV, the stencil through neighbour index arrays, a PageRank
// step over an edge list, a two-level gather, bucketing with asserts and divisions, and a
// binary search per query. Each comes twice: NAME, unchecked, as a careful CUDA
// programmer would write the same algorithm as the .fut program (one thread per row,
// cell, edge, element or query); and NAME_checked, with every check the .fut program
// makes, written the cheapest way we know by hand, to show the floor of checked code
// (Note [Checks written by hand]).
#include "common.h"

#include <algorithm>
#include <cinttypes>

namespace kcb {
namespace {

// Note [Checks written by hand]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The _checked kernels make the checks of the .fut program (bench/unproved/*.fut) with no
// branch to a failure path in the hot code:
//
// - An index read from data is tested (one unsigned compare covers both ends), then
//   clamped to 0 when it fails, so that the load is always in bounds and issues as early
//   as the unchecked one; "failed" goes into a flag in a register, with the first failed
//   check's code and values (selects).
// - A check whose index is affine in a loop counter with loop-invariant bounds (SpMV's
//   vals[s + j] and cols[s + j]) is made once before the loop on its extreme indices; a
//   row that fails it runs only the iterations before the first failing one, so that an
//   earlier failure in those (x[cols[s + j]]) is still the one reported.
// - A loop whose next index depends on a failed value (bsearch) leaves at the failure.
// - Each thread reports once, at the end of its work: one atomicCAS on the failure slot
//   (a device word, -1 when no check failed) by the threads that failed, then their
//   values. The host reads the slot after every call (Benchmark::after_call, outside the
//   timed region, where `kerb bench` looks at Kerb's) and ends with Futhark's message.
//
// Among several failing threads the first to win the slot is reported (any of them, as
// Kerb's checks may); inside one thread, the first failure in the program's order. The
// unchecked kernels are the same code without the tests, clamps and report.

// The failure slot: the code of the check that failed (-1: none) and its values.
struct Failure {
  int code;
  int pad;
  long long v[2];
};

__device__ __forceinline__ void report(Failure *slot, int code, long long a, long long b) {
  if (atomicCAS(&slot->code, -1, code) == -1) {
    slot->v[0] = a;
    slot->v[1] = b;
  }
}

// True when i is outside [0, n): one unsigned compare.
__device__ __forceinline__ bool outside(int64_t i, int64_t n) { return uint64_t(i) >= uint64_t(n); }

// A benchmark of the group, unchecked or checked; the checked one's kernels report to a
// failure slot, which setup resets and after_call reads after every call, failing with
// the benchmark's message for it.
class GroupBenchmark : public Benchmark {
public:
  explicit GroupBenchmark(bool checked) : checked_(checked) {}
  void after_call() override {
    if (!checked_) return;
    Failure f;
    CUDA_CHECK(cudaMemcpy(&f, slot_.get(), sizeof f, cudaMemcpyDeviceToHost));
    if (f.code < 0) return;
    std::fprintf(stderr, "kerb-cuda-bench: the program failed: %s\n", message(f).c_str());
    std::exit(1);
  }

protected:
  void reset_slot() {
    slot_.resize(1);
    CUDA_CHECK(cudaMemset(slot_.get(), 0xff, sizeof(Failure)));
  }
  Failure *slot() const { return slot_.get(); }
  // Futhark's message for a failure of this benchmark.
  virtual std::string message(const Failure &f) const = 0;

  static std::string index_1d(long long i, int64_t n) {
    return "Index [" + std::to_string(i) + "] out of bounds for array of shape [" + std::to_string(n) + "].";
  }
  static std::string index_2d(long long i, long long j, int64_t n, int64_t m) {
    return "Index [" + std::to_string(i) + ", " + std::to_string(j) + "] out of bounds for array of shape [" +
           std::to_string(n) + "][" + std::to_string(m) + "].";
  }

  const bool checked_;

private:
  DeviceBuffer<Failure> slot_;
};

// ---- spmv: y[r] = sum over j < e - s of vals[s + j] * x[cols[s + j]] -------------------

__global__ void spmv_kernel(const int64_t *__restrict__ row_ptr, const int64_t *__restrict__ row_end,
                            const int64_t *__restrict__ cols, const float *__restrict__ vals,
                            const float *__restrict__ x, float *__restrict__ y, int64_t n) {
  int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= n) return;
  int64_t s = row_ptr[r], e = row_end[r];
  float acc = 0;
  for (int64_t k = s; k < e; k++) acc += vals[k] * __ldg(&x[cols[k]]);
  y[r] = acc;
}

enum { kSpmvVals = 0, kSpmvX = 1 };

__global__ void spmv_checked_kernel(const int64_t *__restrict__ row_ptr, const int64_t *__restrict__ row_end,
                                    const int64_t *__restrict__ cols, const float *__restrict__ vals,
                                    const float *__restrict__ x, float *__restrict__ y, int64_t n, int64_t nnz,
                                    int64_t m, Failure *slot) {
  int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= n) return;
  int64_t s = row_ptr[r], e = row_end[r];
  int64_t len = e - s;
  // vals[s + j] and cols[s + j], 0 <= j < len: one test of the extremes. On failure,
  // the first failing index is s (s < 0 or s >= nnz) or nnz, and the iterations before
  // it still run.
  bool range_bad = len > 0 && (s < 0 || e > nnz);
  long long range_at = s < 0 ? s : (s > nnz ? s : nnz);
  if (range_bad) len = range_at - s > 0 ? range_at - s : 0;
  bool bad = false;
  long long bad_at = 0;
  float acc = 0;
  for (int64_t k = s; k < s + len; k++) {
    int64_t c = cols[k];
    bool out = outside(c, m);
    bad_at = out && !bad ? c : bad_at;
    bad |= out;
    acc += vals[k] * __ldg(&x[out ? 0 : c]);
  }
  y[r] = acc;
  if (bad) report(slot, kSpmvX, bad_at, 0);
  else if (range_bad) report(slot, kSpmvVals, range_at, 0);
}

class Spmv : public GroupBenchmark {
public:
  explicit Spmv(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i64", 1}, {"i64", 1}, {"i64", 1}, {"f32", 1}, {"f32", 1}}, "spmv");
    n_ = in[0].count();
    nnz_ = in[2].count();
    m_ = in[4].count();
    if (in[1].count() != n_ || in[3].count() != nnz_) fail("spmv: the arrays' lengths differ");
    row_ptr_.upload(in[0]);
    row_end_.upload(in[1]);
    cols_.upload(in[2]);
    vals_.upload(in[3]);
    x_.upload(in[4]);
    y_.resize(n_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    if (checked_)
      spmv_checked_kernel<<<blocks_for(n_), kBlock, 0, s>>>(row_ptr_.get(), row_end_.get(), cols_.get(),
                                                            vals_.get(), x_.get(), y_.get(), n_, nnz_, m_,
                                                            slot());
    else
      spmv_kernel<<<blocks_for(n_), kBlock, 0, s>>>(row_ptr_.get(), row_end_.get(), cols_.get(), vals_.get(),
                                                    x_.get(), y_.get(), n_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {y_.download("f32", {n_})}; }

protected:
  std::string message(const Failure &f) const override {
    return f.code == kSpmvVals ? index_1d(f.v[0], nnz_) : index_1d(f.v[0], m_);
  }

private:
  DeviceBuffer<int64_t> row_ptr_, row_end_, cols_;
  DeviceBuffer<float> vals_, x_, y_;
  int64_t n_ = 0, nnz_ = 0, m_ = 0;
};

// ---- nbr_stencil: 0.2 * (c + north + south + west + east), neighbours from arrays ----

__global__ void nbr_kernel(const float *__restrict__ img, const int64_t *__restrict__ iN,
                           const int64_t *__restrict__ iS, const int64_t *__restrict__ jW,
                           const int64_t *__restrict__ jE, float *__restrict__ out, int64_t rows, int64_t cols) {
  int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  int64_t n = __ldg(&iN[i]), s = __ldg(&iS[i]), w = __ldg(&jW[j]), e = __ldg(&jE[j]);
  int64_t row = i * cols;
  out[row + j] = 0.2f * (__ldg(&img[row + j]) + __ldg(&img[n * cols + j]) + __ldg(&img[s * cols + j]) +
                         __ldg(&img[row + w]) + __ldg(&img[row + e]));
}

enum { kNbrN = 0, kNbrS = 1, kNbrW = 2, kNbrE = 3 };

__global__ void nbr_checked_kernel(const float *__restrict__ img, const int64_t *__restrict__ iN,
                                   const int64_t *__restrict__ iS, const int64_t *__restrict__ jW,
                                   const int64_t *__restrict__ jE, float *__restrict__ out, int64_t rows,
                                   int64_t cols, Failure *slot) {
  int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  int64_t n = __ldg(&iN[i]), s = __ldg(&iS[i]), w = __ldg(&jW[j]), e = __ldg(&jE[j]);
  bool bn = outside(n, rows), bs = outside(s, rows), bw = outside(w, cols), be = outside(e, cols);
  int64_t row = i * cols;
  out[row + j] = 0.2f * (__ldg(&img[row + j]) + __ldg(&img[(bn ? 0 : n) * cols + j]) +
                         __ldg(&img[(bs ? 0 : s) * cols + j]) + __ldg(&img[row + (bw ? 0 : w)]) +
                         __ldg(&img[row + (be ? 0 : e)]));
  if (bn | bs | bw | be) {
    // The first failing gather in the program's order.
    if (bn) report(slot, kNbrN, n, j);
    else if (bs) report(slot, kNbrS, s, j);
    else if (bw) report(slot, kNbrW, i, w);
    else report(slot, kNbrE, i, e);
  }
}

class NbrStencil : public GroupBenchmark {
public:
  explicit NbrStencil(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 2}, {"i64", 1}, {"i64", 1}, {"i64", 1}, {"i64", 1}}, "nbr_stencil");
    rows_ = in[0].shape[0];
    cols_ = in[0].shape[1];
    if (in[1].count() != rows_ || in[2].count() != rows_ || in[3].count() != cols_ || in[4].count() != cols_)
      fail("nbr_stencil: the index arrays do not fit the image");
    img_.upload(in[0]);
    iN_.upload(in[1]);
    iS_.upload(in[2]);
    jW_.upload(in[3]);
    jE_.upload(in[4]);
    out_.resize(rows_ * cols_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (rows_ == 0 || cols_ == 0) return;
    dim3 block(32, 8), grid(blocks_for(cols_, 32), blocks_for(rows_, 8));
    if (checked_)
      nbr_checked_kernel<<<grid, block, 0, s>>>(img_.get(), iN_.get(), iS_.get(), jW_.get(), jE_.get(),
                                                out_.get(), rows_, cols_, slot());
    else
      nbr_kernel<<<grid, block, 0, s>>>(img_.get(), iN_.get(), iS_.get(), jW_.get(), jE_.get(), out_.get(),
                                        rows_, cols_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("f32", {rows_, cols_})}; }

protected:
  std::string message(const Failure &f) const override { return index_2d(f.v[0], f.v[1], rows_, cols_); }

private:
  DeviceBuffer<float> img_, out_;
  DeviceBuffer<int64_t> iN_, iS_, jW_, jE_;
  int64_t rows_ = 0, cols_ = 0;
};

// ---- graph_step: contributions scattered with atomics, then the damping map ------------

__global__ void graph_edges_kernel(const float *__restrict__ rank, const int *__restrict__ outdeg,
                                   const int64_t *__restrict__ src, const int64_t *__restrict__ dst,
                                   float *__restrict__ sums, int64_t nv, int64_t ne) {
  int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= ne) return;
  int64_t s = src[k], d = dst[k];
  float c = __ldg(&rank[s]) / float(__ldg(&outdeg[s]));
  if (!outside(d, nv)) atomicAdd(&sums[d], c);
}

__global__ void graph_edges_checked_kernel(const float *__restrict__ rank, const int *__restrict__ outdeg,
                                           const int64_t *__restrict__ src, const int64_t *__restrict__ dst,
                                           float *__restrict__ sums, int64_t nv, int64_t ne, Failure *slot) {
  int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= ne) return;
  int64_t s = src[k], d = dst[k];
  bool bad = outside(s, nv);
  int64_t sc = bad ? 0 : s;
  float c = __ldg(&rank[sc]) / float(__ldg(&outdeg[sc]));
  if (!bad && !outside(d, nv)) atomicAdd(&sums[d], c);
  if (bad) report(slot, 0, s, 0);
}

// In place: sums[v] becomes (1 - 0.85) / nv + 0.85 * sums[v].
__global__ void graph_damp_kernel(float *__restrict__ sums, float base, int64_t nv) {
  int64_t v = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v < nv) sums[v] = base + 0.85f * sums[v];
}

class GraphStep : public GroupBenchmark {
public:
  explicit GraphStep(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"i32", 1}, {"i64", 1}, {"i64", 1}}, "graph_step");
    nv_ = in[0].count();
    ne_ = in[2].count();
    if (in[1].count() != nv_ || in[3].count() != ne_) fail("graph_step: the arrays' lengths differ");
    rank_.upload(in[0]);
    outdeg_.upload(in[1]);
    src_.upload(in[2]);
    dst_.upload(in[3]);
    sums_.resize(nv_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (nv_ == 0) return;
    CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, size_t(nv_) * sizeof(float), s));
    if (ne_ > 0) {
      if (checked_)
        graph_edges_checked_kernel<<<blocks_for(ne_), kBlock, 0, s>>>(rank_.get(), outdeg_.get(), src_.get(),
                                                                      dst_.get(), sums_.get(), nv_, ne_, slot());
      else
        graph_edges_kernel<<<blocks_for(ne_), kBlock, 0, s>>>(rank_.get(), outdeg_.get(), src_.get(),
                                                              dst_.get(), sums_.get(), nv_, ne_);
      CUDA_CHECK_LAUNCH();
    }
    float base = (1.0f - 0.85f) / float(nv_);
    graph_damp_kernel<<<blocks_for(nv_), kBlock, 0, s>>>(sums_.get(), base, nv_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {sums_.download("f32", {nv_})}; }

protected:
  std::string message(const Failure &f) const override { return index_1d(f.v[0], nv_); }

private:
  DeviceBuffer<float> rank_, sums_;
  DeviceBuffer<int> outdeg_;
  DeviceBuffer<int64_t> src_, dst_;
  int64_t nv_ = 0, ne_ = 0;
};

// ---- gather3: out[i] = a[b[c[i]]] ---------------------------------------------------

__global__ void gather3_kernel(const float *__restrict__ a, const int64_t *__restrict__ b,
                               const int64_t *__restrict__ c, float *__restrict__ out, int64_t k) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < k) out[i] = __ldg(&a[__ldg(&b[c[i]])]);
}

enum { kGatherB = 0, kGatherA = 1 };

__global__ void gather3_checked_kernel(const float *__restrict__ a, const int64_t *__restrict__ b,
                                       const int64_t *__restrict__ c, float *__restrict__ out, int64_t n,
                                       int64_t m, int64_t k, Failure *slot) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= k) return;
  int64_t ci = c[i];
  bool bad_b = outside(ci, m);
  int64_t bi = __ldg(&b[bad_b ? 0 : ci]);
  bool bad_a = outside(bi, n);
  out[i] = __ldg(&a[bad_a ? 0 : bi]);
  if (bad_b | bad_a) report(slot, bad_b ? kGatherB : kGatherA, bad_b ? ci : bi, 0);
}

class Gather3 : public GroupBenchmark {
public:
  explicit Gather3(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"i64", 1}, {"i64", 1}}, "gather3");
    n_ = in[0].count();
    m_ = in[1].count();
    k_ = in[2].count();
    a_.upload(in[0]);
    b_.upload(in[1]);
    c_.upload(in[2]);
    out_.resize(k_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (k_ == 0) return;
    if (checked_)
      gather3_checked_kernel<<<blocks_for(k_), kBlock, 0, s>>>(a_.get(), b_.get(), c_.get(), out_.get(), n_, m_,
                                                               k_, slot());
    else
      gather3_kernel<<<blocks_for(k_), kBlock, 0, s>>>(a_.get(), b_.get(), c_.get(), out_.get(), k_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("f32", {k_})}; }

protected:
  std::string message(const Failure &f) const override {
    return f.code == kGatherB ? index_1d(f.v[0], m_) : index_1d(f.v[0], n_);
  }

private:
  DeviceBuffer<float> a_, out_;
  DeviceBuffer<int64_t> b_, c_;
  int64_t n_ = 0, m_ = 0, k_ = 0;
};

// ---- assert_div: b * 4 + x % w + x % v with b = x / w --------------------------------

// Futhark's % on integers: the result has the divisor's sign (rounding towards negative
// infinity). x / w and x % w need no such care: the program asserts x >= 0 and w > 0.
__device__ __forceinline__ int floor_mod(int x, int y) {
  int r = x % y;
  return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
}

__global__ void assert_div_kernel(const int *__restrict__ xs, const int *__restrict__ ws,
                                  const int *__restrict__ vs, int *__restrict__ out, int nbuckets, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = xs[i], w = ws[i], v = vs[i];
  int b = x / w, r = x % w, s = floor_mod(x, v);
  out[i] = b * 4 + r + s;
}

enum { kAssertX = 0, kAssertW = 1, kDivV = 2, kAssertB = 3 };

__global__ void assert_div_checked_kernel(const int *__restrict__ xs, const int *__restrict__ ws,
                                          const int *__restrict__ vs, int *__restrict__ out, int nbuckets,
                                          int64_t n, Failure *slot) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = xs[i], w = ws[i], v = vs[i];
  bool bx = x < 0, bw = w <= 0, bv = v == 0;
  w = bw ? 1 : w;
  v = bv ? 1 : v;
  int b = x / w, r = x % w, s = floor_mod(x, v);
  bool bb = !(b < nbuckets);
  out[i] = b * 4 + r + s;
  if (bx | bw | bv | bb) report(slot, bx ? kAssertX : bw ? kAssertW : bv ? kDivV : kAssertB, 0, 0);
}

class AssertDiv : public GroupBenchmark {
public:
  explicit AssertDiv(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 1}, {"i32", 1}, {"i32", 1}, {"i32", 0}}, "assert_div");
    n_ = in[0].count();
    if (in[1].count() != n_ || in[2].count() != n_) fail("assert_div: the arrays' lengths differ");
    nbuckets_ = in[3].scalar<int>();
    xs_.upload(in[0]);
    ws_.upload(in[1]);
    vs_.upload(in[2]);
    if (!checked_) {
      // The unchecked kernel divides by w and v and trusts the asserts.
      for (int64_t i = 0; i < n_; i++)
        if (in[1].data<int>()[i] <= 0 || in[2].data<int>()[i] == 0 || in[0].data<int>()[i] < 0)
          fail("assert_div: the unchecked version needs x >= 0, w > 0 and v != 0");
    }
    out_.resize(n_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    if (checked_)
      assert_div_checked_kernel<<<blocks_for(n_), kBlock, 0, s>>>(xs_.get(), ws_.get(), vs_.get(), out_.get(),
                                                                  nbuckets_, n_, slot());
    else
      assert_div_kernel<<<blocks_for(n_), kBlock, 0, s>>>(xs_.get(), ws_.get(), vs_.get(), out_.get(), nbuckets_,
                                                          n_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("i32", {n_})}; }

protected:
  std::string message(const Failure &f) const override {
    switch (f.code) {
    case kAssertX: return "Assertion is false: x >= 0";
    case kAssertW: return "Assertion is false: w > 0";
    case kDivV: return "division by zero";
    default: return "Assertion is false: b < nbuckets";
    }
  }

private:
  DeviceBuffer<int> xs_, ws_, vs_, out_;
  int nbuckets_ = 0;
  int64_t n_ = 0;
};

// ---- bsearch: the first of the first m keys that is not below the query ---------------

__global__ void bsearch_kernel(const int *__restrict__ keys, const int *__restrict__ queries,
                               int64_t *__restrict__ out, int64_t m, int64_t q) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= q) return;
  int x = queries[i];
  int64_t lo = 0, hi = m;
  while (lo < hi) {
    int64_t mid = (lo + hi) >> 1; // lo + hi >= 0 here: Futhark's / is this shift
    if (__ldg(&keys[mid]) < x) lo = mid + 1;
    else hi = mid;
  }
  out[i] = lo;
}

__global__ void bsearch_checked_kernel(const int *__restrict__ keys, const int *__restrict__ queries,
                                       int64_t *__restrict__ out, int64_t n, int64_t m, int64_t q,
                                       Failure *slot) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= q) return;
  int x = queries[i];
  int64_t lo = 0, hi = m, mid = 0;
  bool bad = false;
  // A failing probe ends the loop (hi = lo): the next index would depend on it.
  while (lo < hi) {
    mid = (lo + hi) >> 1;
    bad = outside(mid, n);
    bool below = __ldg(&keys[bad ? 0 : mid]) < x;
    lo = below && !bad ? mid + 1 : lo;
    hi = bad ? lo : below ? hi : mid;
  }
  out[i] = lo;
  if (bad) report(slot, 0, mid, 0);
}

class Bsearch : public GroupBenchmark {
public:
  explicit Bsearch(bool checked) : GroupBenchmark(checked) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 1}, {"i64", 0}, {"i32", 1}}, "bsearch");
    n_ = in[0].count();
    m_ = in[1].scalar<int64_t>();
    q_ = in[2].count();
    if (!checked_ && m_ > n_) fail("bsearch: the unchecked version needs m <= the number of keys");
    keys_.upload(in[0]);
    queries_.upload(in[2]);
    out_.resize(q_);
    reset_slot();
  }
  void run(cudaStream_t s) override {
    if (q_ == 0) return;
    if (checked_)
      bsearch_checked_kernel<<<blocks_for(q_), kBlock, 0, s>>>(keys_.get(), queries_.get(), out_.get(), n_, m_,
                                                               q_, slot());
    else
      bsearch_kernel<<<blocks_for(q_), kBlock, 0, s>>>(keys_.get(), queries_.get(), out_.get(), m_, q_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("i64", {q_})}; }

protected:
  std::string message(const Failure &f) const override { return index_1d(f.v[0], n_); }

private:
  DeviceBuffer<int> keys_, queries_;
  DeviceBuffer<int64_t> out_;
  int64_t n_ = 0, m_ = 0, q_ = 0;
};

template <typename B> std::function<std::unique_ptr<Benchmark>()> make(bool checked) {
  return [checked] { return std::make_unique<B>(checked); };
}

Register spmv_reg({"spmv", "bench/unproved/spmv.fut", "main", "one thread per row, no checks", make<Spmv>(false)});
Register spmv_checked_reg({"spmv_checked", "bench/unproved/spmv.fut", "main",
                           "one thread per row; vals/cols checked once before the loop, x[c] clamped + flag",
                           make<Spmv>(true)});
Register nbr_reg({"nbr_stencil", "bench/unproved/nbr_stencil.fut", "main",
                  "2-D grid of 32x8 blocks, one thread per cell, no checks", make<NbrStencil>(false)});
Register nbr_checked_reg({"nbr_stencil_checked", "bench/unproved/nbr_stencil.fut", "main",
                          "one thread per cell; the four neighbour indices clamped + flag",
                          make<NbrStencil>(true)});
Register graph_reg({"graph_step", "bench/unproved/graph_step.fut", "main",
                    "memset, one thread per edge with atomicAdd, damping map; no checks",
                    make<GraphStep>(false)});
Register graph_checked_reg({"graph_step_checked", "bench/unproved/graph_step.fut", "main",
                            "as graph_step, the source index clamped + flag", make<GraphStep>(true)});
Register gather3_reg({"gather3", "bench/unproved/gather3.fut", "main", "one thread per element, no checks",
                      make<Gather3>(false)});
Register gather3_checked_reg({"gather3_checked", "bench/unproved/gather3.fut", "main",
                              "one thread per element; both indices clamped + flag", make<Gather3>(true)});
Register assert_div_reg({"assert_div", "bench/unproved/assert_div.fut", "main",
                         "one thread per element, no checks", make<AssertDiv>(false)});
Register assert_div_checked_reg({"assert_div_checked", "bench/unproved/assert_div.fut", "main",
                                 "one thread per element; asserts and divisors tested, divisors clamped + flag",
                                 make<AssertDiv>(true)});
Register bsearch_reg({"bsearch", "bench/unproved/bsearch.fut", "main", "one thread per query, no checks",
                      make<Bsearch>(false)});
Register bsearch_checked_reg({"bsearch_checked", "bench/unproved/bsearch.fut", "main",
                              "one thread per query; each probe tested, the loop left at a failure",
                              make<Bsearch>(true)});

} // namespace
} // namespace kcb
