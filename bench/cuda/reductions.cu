// Hand-written CUDA for the reduction-shaped benchmarks: the f32 sum (bench/reduce.fut),
// the i32 inclusive scan (bench/scan.fut), the histogram (bench/histogram.fut) and the
// nearest-neighbour argmin (bench/nn.fut). Textbook GPU algorithms: grid-stride loops
// with 16-byte loads and warp-shuffle block reductions, a reduce-then-scan scan, and a
// histogram privatised in shared memory.
#include "common.h"

#include <cmath>

namespace kcb {
namespace {

// ---- reduce: two passes (per-block partial sums, then one block) ----------------

__global__ void sum_partials(const float *__restrict__ xs, int64_t n, float *__restrict__ partial) {
  float acc = 0;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t n4 = n / 4;
  const float4 *x4 = reinterpret_cast<const float4 *>(xs);
  for (int64_t i = first; i < n4; i += stride) {
    float4 v = __ldg(&x4[i]);
    acc += (v.x + v.y) + (v.z + v.w);
  }
  for (int64_t i = 4 * n4 + first; i < n; i += stride) acc += xs[i];
  acc = block_sum(acc);
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

__global__ void sum_final(const float *__restrict__ partial, int count, float *__restrict__ out) {
  float acc = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partial[i];
  acc = block_sum(acc);
  if (threadIdx.x == 0) *out = acc;
}

class Reduce : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}}, "reduce");
    n_ = in[0].count();
    xs_.upload(in[0]);
    blocks_ = multiprocessors() * 8;
    partial_.resize(blocks_);
    out_.resize(1);
  }
  void run(cudaStream_t s) override {
    sum_partials<<<blocks_, kBlock, 0, s>>>(xs_.get(), n_, partial_.get());
    CUDA_CHECK_LAUNCH();
    sum_final<<<1, 1024, 0, s>>>(partial_.get(), blocks_, out_.get());
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("f32", {})}; }

private:
  DeviceBuffer<float> xs_, partial_, out_;
  int64_t n_ = 0;
  int blocks_ = 0;
};

// ---- scan: block totals, a scan of the totals, then each block scans its chunk ----

constexpr int kScanThreads = 256, kScanItems = 16, kScanChunk = kScanThreads * kScanItems;

__global__ void scan_totals(const int *__restrict__ xs, int64_t n, int *__restrict__ totals) {
  int64_t base = int64_t(blockIdx.x) * kScanChunk;
  int acc = 0;
  for (int k = 0; k < kScanItems; k++) {
    int64_t g = base + k * kScanThreads + threadIdx.x;
    if (g < n) acc += xs[g];
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) totals[blockIdx.x] = acc;
}

// One block of 1024 threads: totals[b] becomes the sum of the totals before b.
__global__ void scan_offsets(int *__restrict__ totals, int count) {
  int per = (count + blockDim.x - 1) / blockDim.x;
  int begin = threadIdx.x * per, end = min(count, begin + per);
  int local = 0;
  for (int i = begin; i < end; i++) local += totals[i];
  int prefix = block_exclusive_scan(local);
  for (int i = begin; i < end; i++) {
    int t = totals[i];
    totals[i] = prefix;
    prefix += t;
  }
}

// Each block loads its chunk coalesced into shared memory (padded against bank
// conflicts), scans 16 consecutive items per thread, and writes back coalesced.
__global__ void scan_chunks(const int *__restrict__ xs, int64_t n, const int *__restrict__ offsets,
                            int *__restrict__ out) {
  __shared__ int tile[kScanChunk + kScanChunk / 32];
  int64_t base = int64_t(blockIdx.x) * kScanChunk;
  for (int k = 0; k < kScanItems; k++) {
    int idx = k * kScanThreads + threadIdx.x;
    int64_t g = base + idx;
    tile[idx + idx / 32] = g < n ? xs[g] : 0;
  }
  __syncthreads();
  int v[kScanItems];
  int sum = 0;
  for (int k = 0; k < kScanItems; k++) {
    int idx = threadIdx.x * kScanItems + k;
    sum += tile[idx + idx / 32];
    v[k] = sum;
  }
  int prefix = offsets[blockIdx.x] + block_exclusive_scan(sum);
  for (int k = 0; k < kScanItems; k++) {
    int idx = threadIdx.x * kScanItems + k;
    tile[idx + idx / 32] = v[k] + prefix;
  }
  __syncthreads();
  for (int k = 0; k < kScanItems; k++) {
    int idx = k * kScanThreads + threadIdx.x;
    int64_t g = base + idx;
    if (g < n) out[g] = tile[idx + idx / 32];
  }
}

class Scan : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 1}}, "scan");
    n_ = in[0].count();
    xs_.upload(in[0]);
    out_.resize(n_);
    chunks_ = int((n_ + kScanChunk - 1) / kScanChunk);
    totals_.resize(chunks_);
  }
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    scan_totals<<<chunks_, kScanThreads, 0, s>>>(xs_.get(), n_, totals_.get());
    CUDA_CHECK_LAUNCH();
    scan_offsets<<<1, 1024, 0, s>>>(totals_.get(), chunks_);
    CUDA_CHECK_LAUNCH();
    scan_chunks<<<chunks_, kScanThreads, 0, s>>>(xs_.get(), n_, totals_.get(), out_.get());
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("i32", {n_})}; }

private:
  DeviceBuffer<int> xs_, out_, totals_;
  int64_t n_ = 0;
  int chunks_ = 0;
};

// ---- histogram: counts in shared memory per block, then added to the result ----

__global__ void histogram_kernel(const int64_t *__restrict__ is, int64_t n, int bins,
                                 int *__restrict__ hist) {
  extern __shared__ int local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t x = __ldg(&is[i]);
    if (x >= 0 && x < bins) atomicAdd(&local[x], 1); // out of range: ignored
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

class Histogram : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i64", 0}, {"i64", 1}}, "histogram");
    int64_t bins = in[0].scalar<int64_t>();
    if (bins < 0 || bins > 12 * 1024) fail("histogram: this version keeps at most 12288 bins in shared memory");
    bins_ = int(bins);
    n_ = in[1].count();
    is_.upload(in[1]);
    hist_.resize(bins_);
  }
  void run(cudaStream_t s) override {
    CUDA_CHECK(cudaMemsetAsync(hist_.get(), 0, size_t(bins_) * sizeof(int), s));
    if (n_ == 0 || bins_ == 0) return;
    histogram_kernel<<<multiprocessors() * 2, 1024, size_t(bins_) * sizeof(int), s>>>(is_.get(), n_, bins_,
                                                                                       hist_.get());
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {hist_.download("i32", {bins_})}; }

private:
  DeviceBuffer<int64_t> is_;
  DeviceBuffer<int> hist_;
  int64_t n_ = 0;
  int bins_ = 0;
};

// ---- nearest neighbour: distances and an argmin (ties to the lower index) ----

struct Best {
  float d;
  int64_t i;
};

__device__ inline Best better(Best a, Best b) {
  return (a.d < b.d || (a.d == b.d && a.i < b.i)) ? a : b;
}

__device__ Best block_best(Best v) {
  __shared__ float ds[32];
  __shared__ int64_t is[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (int o = 16; o > 0; o >>= 1) {
    Best w{__shfl_xor_sync(0xffffffffu, v.d, o), __shfl_xor_sync(0xffffffffu, v.i, o)};
    v = better(v, w);
  }
  if (lane == 0) {
    ds[warp] = v.d;
    is[warp] = v.i;
  }
  __syncthreads();
  v = lane < warps ? Best{ds[lane], is[lane]} : Best{INFINITY, -1};
  for (int o = 16; o > 0; o >>= 1) {
    Best w{__shfl_xor_sync(0xffffffffu, v.d, o), __shfl_xor_sync(0xffffffffu, v.i, o)};
    v = better(v, w);
  }
  return v;
}

__global__ void nn_partials(const float *__restrict__ lat, const float *__restrict__ lng, int64_t n,
                            float tlat, float tlng, float *__restrict__ pd, int64_t *__restrict__ pi) {
  Best best{INFINITY, -1};
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    float a = __ldg(&lat[i]) - tlat, b = __ldg(&lng[i]) - tlng;
    best = better(best, Best{sqrtf(a * a + b * b), i});
  }
  best = block_best(best);
  if (threadIdx.x == 0) {
    pd[blockIdx.x] = best.d;
    pi[blockIdx.x] = best.i;
  }
}

__global__ void nn_final(const float *__restrict__ pd, const int64_t *__restrict__ pi, int count,
                         float *__restrict__ out_d, int64_t *__restrict__ out_i) {
  Best best{INFINITY, -1};
  for (int k = threadIdx.x; k < count; k += blockDim.x) best = better(best, Best{pd[k], pi[k]});
  best = block_best(best);
  if (threadIdx.x == 0) {
    *out_d = best.d;
    *out_i = best.i;
  }
}

class NearestNeighbour : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"f32", 1}, {"f32", 0}, {"f32", 0}}, "nn");
    if (in[0].count() != in[1].count()) fail("nn: lat and lng differ in length");
    n_ = in[0].count();
    lat_.upload(in[0]);
    lng_.upload(in[1]);
    tlat_ = in[2].scalar<float>();
    tlng_ = in[3].scalar<float>();
    blocks_ = multiprocessors() * 8;
    pd_.resize(blocks_);
    pi_.resize(blocks_);
    d_.resize(1);
    i_.resize(1);
  }
  void run(cudaStream_t s) override {
    nn_partials<<<blocks_, kBlock, 0, s>>>(lat_.get(), lng_.get(), n_, tlat_, tlng_, pd_.get(), pi_.get());
    CUDA_CHECK_LAUNCH();
    nn_final<<<1, 1024, 0, s>>>(pd_.get(), pi_.get(), blocks_, d_.get(), i_.get());
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override {
    return {d_.download("f32", {}), i_.download("i64", {})};
  }

private:
  DeviceBuffer<float> lat_, lng_, pd_, d_;
  DeviceBuffer<int64_t> pi_, i_;
  float tlat_ = 0, tlng_ = 0;
  int64_t n_ = 0;
  int blocks_ = 0;
};

Register reduce_reg({"reduce", "bench/reduce.fut", "main",
                     "grid-stride float4 loads, warp-shuffle block sums, a second one-block pass",
                     [] { return std::make_unique<Reduce>(); }});
Register scan_reg({"scan", "bench/scan.fut", "main",
                   "reduce-then-scan: chunk totals, one-block scan of them, chunk scans in shared memory",
                   [] { return std::make_unique<Scan>(); }});
Register histogram_reg({"histogram", "bench/histogram.fut", "main",
                        "per-block counts in shared memory (atomics), added to the result with atomics",
                        [] { return std::make_unique<Histogram>(); }});
Register nn_reg({"nn", "bench/nn.fut", "main",
                 "grid-stride distances with a running argmin, block argmin, a second one-block pass",
                 [] { return std::make_unique<NearestNeighbour>(); }});

} // namespace
} // namespace kcb
