// Hand-written CUDA for the elementwise benchmarks: gather (bench/gather.fut), the 2-D
// 5-point stencil (bench/stencil.fut) and integer division (bench/intdiv.fut). One
// thread per output element, no checks: the speed a careful CUDA programmer gets with
// the straightforward kernel.
#include "common.h"

namespace kcb {
namespace {

__global__ void gather_kernel(const float *__restrict__ a, const int64_t *__restrict__ idx,
                              float *__restrict__ out, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ldg(&a[idx[i]]);
}

class Gather : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"i64", 1}}, "gather");
    a_.upload(in[0]);
    idx_.upload(in[1]);
    n_ = in[1].count();
    out_.resize(n_);
  }
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    gather_kernel<<<blocks_for(n_), kBlock, 0, s>>>(a_.get(), idx_.get(), out_.get(), n_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("f32", {n_})}; }

private:
  DeviceBuffer<float> a_, out_;
  DeviceBuffer<int64_t> idx_;
  int64_t n_ = 0;
};

// out[i,j] = g[i,j] on the border, else 0.2 * (g[i,j] + north + south + west + east),
// summed in the order the .fut program sums.
__global__ void stencil_kernel(const float *__restrict__ g, float *__restrict__ out, int64_t n,
                               int64_t m) {
  int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  int64_t k = i * m + j;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    out[k] = g[k];
    return;
  }
  out[k] = 0.2f * (__ldg(&g[k]) + __ldg(&g[k - m]) + __ldg(&g[k + m]) + __ldg(&g[k - 1]) +
                   __ldg(&g[k + 1]));
}

class Stencil : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 2}}, "stencil");
    n_ = in[0].shape[0];
    m_ = in[0].shape[1];
    g_.upload(in[0]);
    out_.resize(n_ * m_);
  }
  void run(cudaStream_t s) override {
    if (n_ == 0 || m_ == 0) return;
    dim3 block(32, 8), grid(blocks_for(m_, 32), blocks_for(n_, 8));
    stencil_kernel<<<grid, block, 0, s>>>(g_.get(), out_.get(), n_, m_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("f32", {n_, m_})}; }

private:
  DeviceBuffer<float> g_, out_;
  int64_t n_ = 0, m_ = 0;
};

// Futhark's `/` on integers: rounds towards negative infinity.
__global__ void intdiv_kernel(const int *__restrict__ a, const int *__restrict__ b,
                              int *__restrict__ out, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  int q = x / y;
  if (x % y != 0 && ((x < 0) != (y < 0))) q -= 1;
  out[i] = q;
}

class IntDiv : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 1}, {"i32", 1}}, "intdiv");
    if (in[0].count() != in[1].count()) fail("intdiv: the two arrays differ in length");
    n_ = in[0].count();
    for (int64_t i = 0; i < n_; i++)
      if (in[1].data<int>()[i] == 0) fail("intdiv: the divisors must not be zero");
    a_.upload(in[0]);
    b_.upload(in[1]);
    out_.resize(n_);
  }
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    intdiv_kernel<<<blocks_for(n_), kBlock, 0, s>>>(a_.get(), b_.get(), out_.get(), n_);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {out_.download("i32", {n_})}; }

private:
  DeviceBuffer<int> a_, b_, out_;
  int64_t n_ = 0;
};

Register gather_reg({"gather", "bench/gather.fut", "main", "one thread per element, out[i] = a[idx[i]]",
                     [] { return std::make_unique<Gather>(); }});
Register stencil_reg({"stencil", "bench/stencil.fut", "nested flat",
                      "2-D grid of 32x8 blocks, one thread per cell",
                      [] { return std::make_unique<Stencil>(); }});
Register intdiv_reg({"intdiv", "bench/intdiv.fut", "main", "one thread per element, floor division",
                     [] { return std::make_unique<IntDiv>(); }});

} // namespace
} // namespace kcb
