// Hand-written CUDA for the ported Rodinia-style programs, the same algorithms as the
// programs: k-means (bench/kmeans.fut: per round, nearest centres with the centres in
// shared memory, per-block sums and counts in shared memory added with atomics, then
// the new centres) and a backprop-like layer (bench/backprop.fut: the hidden units'
// weighted sums reduced across the whole grid, then the weight update).
#include "common.h"

#include <cmath>
#include <utility>

namespace kcb {
namespace {

// ---- k-means ----------------------------------------------------------------------

__global__ void kmeans_assign(const float *__restrict__ points, const float *__restrict__ centres,
                              int64_t n, int d, int k, int *__restrict__ membership) {
  extern __shared__ float cs[]; // k * d
  for (int t = threadIdx.x; t < k * d; t += blockDim.x) cs[t] = centres[t];
  __syncthreads();
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *p = points + i * d;
  int best = 0;
  float best_dist = INFINITY;
  for (int c = 0; c < k; c++) {
    float dist = 0;
    for (int f = 0; f < d; f++) {
      float x = p[f] - cs[c * d + f];
      dist += x * x;
    }
    if (dist < best_dist) {
      best = c;
      best_dist = dist;
    }
  }
  membership[i] = best;
}

__global__ void kmeans_accumulate(const float *__restrict__ points, const int *__restrict__ membership,
                                  int64_t n, int d, int k, float *__restrict__ sums,
                                  int *__restrict__ counts) {
  extern __shared__ float local[]; // k * d sums, then k counts (as ints)
  int *local_counts = reinterpret_cast<int *>(local + k * d);
  for (int t = threadIdx.x; t < k * d; t += blockDim.x) local[t] = 0;
  for (int t = threadIdx.x; t < k; t += blockDim.x) local_counts[t] = 0;
  __syncthreads();
  // Thread t of the grid handles elements (point, feature) t, t + stride, ... of the
  // flattened points: coalesced reads.
  int64_t total = n * d, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += stride) {
    int64_t i = e / d;
    int f = int(e - i * d);
    int c = membership[i];
    atomicAdd(&local[c * d + f], points[e]);
    if (f == 0) atomicAdd(&local_counts[c], 1);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < k * d; t += blockDim.x) atomicAdd(&sums[t], local[t]);
  for (int t = threadIdx.x; t < k; t += blockDim.x) atomicAdd(&counts[t], local_counts[t]);
}

__global__ void kmeans_update(float *__restrict__ centres, const float *__restrict__ sums,
                              const int *__restrict__ counts, int d, int k) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= k * d) return;
  int c = t / d;
  if (counts[c] != 0) centres[t] = sums[t] / float(counts[c]);
}

class KMeans : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i64", 0}, {"i32", 0}, {"f32", 2}}, "kmeans");
    k_ = int(in[0].scalar<int64_t>());
    iters_ = in[1].scalar<int>();
    n_ = in[2].shape[0];
    d_ = int(in[2].shape[1]);
    if (k_ < 1 || k_ > n_) fail("kmeans: k must be between 1 and the number of points");
    if (size_t(k_) * size_t(d_ + 1) * 4 > 48 * 1024) fail("kmeans: k * d is too large for shared memory");
    points_.upload(in[2]);
    centres_.resize(int64_t(k_) * d_);
    sums_.resize(int64_t(k_) * d_);
    counts_.resize(k_);
    membership_.resize(n_);
  }
  void run(cudaStream_t s) override {
    size_t kd = size_t(k_) * size_t(d_);
    CUDA_CHECK(cudaMemcpyAsync(centres_.get(), points_.get(), kd * sizeof(float), cudaMemcpyDeviceToDevice, s));
    for (int it = 0; it < iters_; it++) {
      kmeans_assign<<<blocks_for(n_), kBlock, kd * sizeof(float), s>>>(points_.get(), centres_.get(), n_, d_, k_,
                                                                       membership_.get());
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, kd * sizeof(float), s));
      CUDA_CHECK(cudaMemsetAsync(counts_.get(), 0, size_t(k_) * sizeof(int), s));
      kmeans_accumulate<<<multiprocessors() * 4, kBlock, (kd + size_t(k_)) * 4, s>>>(
          points_.get(), membership_.get(), n_, d_, k_, sums_.get(), counts_.get());
      CUDA_CHECK_LAUNCH();
      kmeans_update<<<blocks_for(int64_t(kd)), kBlock, 0, s>>>(centres_.get(), sums_.get(), counts_.get(), d_, k_);
      CUDA_CHECK_LAUNCH();
    }
  }
  std::vector<HostArray> results() override { return {centres_.download("f32", {k_, d_})}; }

private:
  DeviceBuffer<float> points_, centres_, sums_;
  DeviceBuffer<int> counts_, membership_;
  int64_t n_ = 0;
  int k_ = 0, d_ = 0, iters_ = 0;
};

// ---- backprop-like layer ------------------------------------------------------------

constexpr int kHidden = 16;

// Each thread sums w[i, j] * input[i] over its rows i for all 16 hidden units (a row is
// 64 contiguous bytes), then the block sums them: partial[block * 16 + j].
__global__ void layer_partials(const float *__restrict__ input, const float *__restrict__ w, int64_t nin,
                               float *__restrict__ partial) {
  float acc[kHidden];
  for (int j = 0; j < kHidden; j++) acc[j] = 0;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const float4 *w4 = reinterpret_cast<const float4 *>(w);
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < nin; i += stride) {
    float x = __ldg(&input[i]);
    for (int q = 0; q < kHidden / 4; q++) {
      float4 v = __ldg(&w4[i * (kHidden / 4) + q]);
      acc[4 * q] += v.x * x;
      acc[4 * q + 1] += v.y * x;
      acc[4 * q + 2] += v.z * x;
      acc[4 * q + 3] += v.w * x;
    }
  }
  for (int j = 0; j < kHidden; j++) {
    float total = block_sum(acc[j]);
    if (threadIdx.x == 0) partial[blockIdx.x * kHidden + j] = total;
  }
}

// One block of 16 warps: warp j sums the partials of hidden unit j, then the sigmoid.
__global__ void layer_final(const float *__restrict__ partial, int blocks, float *__restrict__ hidden) {
  int j = threadIdx.x >> 5, lane = threadIdx.x & 31;
  float s = 0;
  for (int b = lane; b < blocks; b += 32) s += partial[b * kHidden + j];
  s = warp_sum(s);
  if (lane == 0) hidden[j] = 1.0f / (1.0f + expf(-s));
}

__global__ void adjust_weights(const float *__restrict__ w, const float *__restrict__ oldw,
                               const float *__restrict__ input, const float *__restrict__ delta,
                               int64_t total, float *__restrict__ out) {
  int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= total) return;
  int64_t i = t / kHidden;
  int j = int(t - i * kHidden);
  out[t] = w[t] + 0.3f * delta[j] * input[i] + 0.3f * oldw[t];
}

class Backprop : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"f32", 2}, {"f32", 2}, {"f32", 1}}, "backprop");
    nin_ = in[0].count();
    if (in[1].shape != std::vector<int64_t>{nin_, kHidden} || in[2].shape != in[1].shape ||
        in[3].count() != kHidden)
      fail("backprop: this version expects [nin] inputs, [nin][16] weights and 16 deltas");
    input_.upload(in[0]);
    w_.upload(in[1]);
    oldw_.upload(in[2]);
    delta_.upload(in[3]);
    blocks_ = multiprocessors() * 4;
    partial_.resize(int64_t(blocks_) * kHidden);
    hidden_.resize(kHidden);
    out_.resize(nin_ * kHidden);
  }
  void run(cudaStream_t s) override {
    layer_partials<<<blocks_, kBlock, 0, s>>>(input_.get(), w_.get(), nin_, partial_.get());
    CUDA_CHECK_LAUNCH();
    layer_final<<<1, 32 * kHidden, 0, s>>>(partial_.get(), blocks_, hidden_.get());
    CUDA_CHECK_LAUNCH();
    int64_t total = nin_ * kHidden;
    if (total == 0) return;
    adjust_weights<<<blocks_for(total), kBlock, 0, s>>>(w_.get(), oldw_.get(), input_.get(), delta_.get(), total,
                                                        out_.get());
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override {
    return {hidden_.download("f32", {kHidden}), out_.download("f32", {nin_, kHidden})};
  }

private:
  DeviceBuffer<float> input_, w_, oldw_, delta_, partial_, hidden_, out_;
  int64_t nin_ = 0;
  int blocks_ = 0;
};

Register kmeans_reg({"kmeans", "bench/kmeans.fut", "main",
                     "per round: assign (centres in shared memory), shared-memory sums and counts, update",
                     [] { return std::make_unique<KMeans>(); }});
Register backprop_reg({"backprop", "bench/backprop.fut", "main",
                       "weighted sums reduced over the whole grid (16 per thread), then the weight update",
                       [] { return std::make_unique<Backprop>(); }});

} // namespace
} // namespace kcb
