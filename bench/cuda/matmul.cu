// Hand-written CUDA for matrix multiplication (bench/matmul.fut): `matmul`, the same
// algorithm as the program (one thread per output, a sequential loop over k that
// indexes both matrices), and `matmul_tiled`, the classic 32x32 shared-memory tiling,
// to show how far the straightforward algorithm is from a better one (cuBLAS would be
// further still).
#include "common.h"

namespace kcb {
namespace {

__global__ void matmul_naive(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, int n, int m, int p) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= p) return;
  float acc = 0;
  for (int k = 0; k < m; k++) acc += a[int64_t(i) * m + k] * b[int64_t(k) * p + j];
  c[int64_t(i) * p + j] = acc;
}

constexpr int kTile = 32;

__global__ void matmul_tiled(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, int n, int m, int p) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  float acc = 0;
  for (int k0 = 0; k0 < m; k0 += kTile) {
    as[ty][tx] = i < n && k0 + tx < m ? a[int64_t(i) * m + k0 + tx] : 0.0f;
    bs[ty][tx] = k0 + ty < m && j < p ? b[int64_t(k0 + ty) * p + j] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; k++) acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (i < n && j < p) c[int64_t(i) * p + j] = acc;
}

class Matmul : public Benchmark {
public:
  explicit Matmul(bool tiled) : tiled_(tiled) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 2}, {"f32", 2}}, "matmul");
    n_ = int(in[0].shape[0]);
    m_ = int(in[0].shape[1]);
    p_ = int(in[1].shape[1]);
    if (in[1].shape[0] != m_) fail("matmul: the inner sizes differ");
    a_.upload(in[0]);
    b_.upload(in[1]);
    c_.resize(int64_t(n_) * p_);
  }
  void run(cudaStream_t s) override {
    if (n_ == 0 || p_ == 0) return;
    if (tiled_) {
      dim3 block(kTile, kTile), grid(blocks_for(p_, kTile), blocks_for(n_, kTile));
      matmul_tiled<<<grid, block, 0, s>>>(a_.get(), b_.get(), c_.get(), n_, m_, p_);
    } else {
      dim3 block(32, 8), grid(blocks_for(p_, 32), blocks_for(n_, 8));
      matmul_naive<<<grid, block, 0, s>>>(a_.get(), b_.get(), c_.get(), n_, m_, p_);
    }
    CUDA_CHECK_LAUNCH();
  }
  std::vector<HostArray> results() override { return {c_.download("f32", {n_, p_})}; }

private:
  bool tiled_;
  DeviceBuffer<float> a_, b_, c_;
  int n_ = 0, m_ = 0, p_ = 0;
};

Register matmul_reg({"matmul", "bench/matmul.fut", "nested flat",
                     "one thread per output, a sequential loop over k (2-D grid of 32x8 blocks)",
                     [] { return std::make_unique<Matmul>(false); }});
Register matmul_tiled_reg({"matmul_tiled", "bench/matmul.fut", "nested flat",
                           "32x32 tiles in shared memory (a better algorithm, for scale)",
                           [] { return std::make_unique<Matmul>(true); }});

} // namespace
} // namespace kcb
