// Hand-written CUDA for matrix multiplication (bench/matmul.fut): `matmul`, one thread
// per output with a sequential loop over k that indexes both matrices (Kerb's code
// before block tiling, and its fallback); `matmul_tiled`, the classic 32x32
// shared-memory tiling; and `matmul_reg`, the algorithm of Kerb's Strategy::BlockTiled
// kernel written by hand (codegen/tiled_kernels.cpp, Note [Block and register tiling]:
// 128x128 outputs a block of 256 threads, 8x8 a thread in registers, k-tiles of 8, A's
// tile stored transposed, rows padded by 4, the next k-tile's loads staged in registers
// during the compute), with the same constants, so that the GPU run shows Kerb's
// emission against the same algorithm by hand.
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

// The constants of kernel_ir.h's kBlockTile*: threads a side, outputs a thread a side,
// the k-tile, the padding of shared rows.
constexpr int kRegThreads = 16, kReg = 8, kRegK = 8, kRegPad = 4;
constexpr int kRegTile = kRegThreads * kReg, kRegLd = kRegTile + kRegPad;

__global__ void __launch_bounds__(kRegThreads * kRegThreads, 2)
    matmul_regs(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int n, int m,
               int p) {
  __shared__ __align__(16) float as[kRegK * kRegLd];
  __shared__ __align__(16) float bs[kRegK * kRegLd];
  const int t = threadIdx.x, ty = t / kRegThreads, tx = t % kRegThreads;
  const int i0 = blockIdx.y * kRegTile, j0 = blockIdx.x * kRegTile;
  constexpr int kNt = kRegThreads * kRegThreads, kLoads = kRegTile * kRegK / kNt;
  float acc[kReg][kReg];
#pragma unroll
  for (int r = 0; r < kReg; r++)
#pragma unroll
    for (int q = 0; q < kReg; q++) acc[r][q] = 0.0f;
  // Thread t's elements of a k-tile (e = t + q * 256): A's with k fastest (a[i, k] is
  // contiguous in k), stored transposed as as[kk][r]; B's with the column fastest. Staged
  // in registers: the next k-tile's loads are in flight while this one is computed.
  // (Element q: A's row ra + q * 32 at k ka, B's k kb + q * 2 at column cb.)
  const int ka = t % kRegK, ra = t / kRegK, cb = t % kRegTile, kb = t / kRegTile;
  constexpr int kRowsA = kNt / kRegK, kRowsB = kNt / kRegTile;
  float sa[kLoads], sb[kLoads];
  auto fetch = [&](int k0) {
#pragma unroll
    for (int q = 0; q < kLoads; q++) {
      int i = i0 + ra + q * kRowsA, k = k0 + ka;
      sa[q] = i < n && k < m ? a[int64_t(i) * m + k] : 0.0f;
      int k2 = k0 + kb + q * kRowsB, j = j0 + cb;
      sb[q] = k2 < m && j < p ? b[int64_t(k2) * p + j] : 0.0f;
    }
  };
  fetch(0);
  for (int k0 = 0; k0 < m; k0 += kRegK) {
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kLoads; q++) {
      as[ka * kRegLd + ra + q * kRowsA] = sa[q];
      bs[(kb + q * kRowsB) * kRegLd + cb] = sb[q];
    }
    __syncthreads();
    fetch(k0 + kRegK);
    int kc = min(kRegK, m - k0);
    if (kc == kRegK) {
#pragma unroll
      for (int kk = 0; kk < kRegK; kk++) {
        float4 a0 = *reinterpret_cast<const float4 *>(&as[kk * kRegLd + ty * kReg]);
        float4 a1 = *reinterpret_cast<const float4 *>(&as[kk * kRegLd + ty * kReg + 4]);
        float4 b0 = *reinterpret_cast<const float4 *>(&bs[kk * kRegLd + tx * kReg]);
        float4 b1 = *reinterpret_cast<const float4 *>(&bs[kk * kRegLd + tx * kReg + 4]);
        float av[kReg] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
        float bv[kReg] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
        for (int r = 0; r < kReg; r++)
#pragma unroll
          for (int q = 0; q < kReg; q++) acc[r][q] += av[r] * bv[q];
      }
    } else {
      for (int kk = 0; kk < kc; kk++)
#pragma unroll
        for (int r = 0; r < kReg; r++)
#pragma unroll
          for (int q = 0; q < kReg; q++)
            acc[r][q] += as[kk * kRegLd + ty * kReg + r] * bs[kk * kRegLd + tx * kReg + q];
    }
  }
#pragma unroll
  for (int r = 0; r < kReg; r++)
#pragma unroll
    for (int q = 0; q < kReg; q++) {
      int i = i0 + ty * kReg + r, j = j0 + tx * kReg + q;
      if (i < n && j < p) c[int64_t(i) * p + j] = acc[r][q];
    }
}

enum class MatmulKind { Naive, Tiled, Reg };

class Matmul : public Benchmark {
public:
  explicit Matmul(MatmulKind kind) : kind_(kind) {}
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
    if (kind_ == MatmulKind::Reg) {
      dim3 block(kRegThreads * kRegThreads), grid(blocks_for(p_, kRegTile), blocks_for(n_, kRegTile));
      matmul_regs<<<grid, block, 0, s>>>(a_.get(), b_.get(), c_.get(), n_, m_, p_);
    } else if (kind_ == MatmulKind::Tiled) {
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
  MatmulKind kind_;
  DeviceBuffer<float> a_, b_, c_;
  int n_ = 0, m_ = 0, p_ = 0;
};

Register matmul_reg({"matmul", "bench/matmul.fut", "nested flat",
                     "one thread per output, a sequential loop over k (2-D grid of 32x8 blocks)",
                     [] { return std::make_unique<Matmul>(MatmulKind::Naive); }});
Register matmul_tiled_reg({"matmul_tiled", "bench/matmul.fut", "nested flat",
                           "32x32 tiles in shared memory (a better algorithm, for scale)",
                           [] { return std::make_unique<Matmul>(MatmulKind::Tiled); }});
Register matmul_reg_reg({"matmul_reg", "bench/matmul.fut", "nested flat",
                         "128x128 tiles a block, 8x8 outputs a thread in registers, k-tiles of 8 "
                         "(Kerb's block and register tiling, by hand)",
                         [] { return std::make_unique<Matmul>(MatmulKind::Reg); }});

} // namespace
} // namespace kcb
