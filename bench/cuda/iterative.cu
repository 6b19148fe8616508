// Hand-written CUDA for the iterative benchmarks, the same algorithms as the programs:
// small_kernels (bench/small_kernels.fut: per iteration two one-block reductions whose
// results are read back to the host, then a map), hotspot (bench/hotspot.fut: one
// stencil launch per step, ping-pong buffers) and pathfinder (bench/pathfinder.fut: one
// launch per row).
#include "common.h"

#include <utility>

namespace kcb {
namespace {

// ---- small_kernels --------------------------------------------------------------

// One block: the sum of xs, or with `centre` the sum of (x - mean)^2.
template <bool Centre>
__global__ void one_block_sum(const float *__restrict__ xs, int64_t n, float mean, float *__restrict__ out) {
  float acc = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    float x = xs[i];
    acc += Centre ? (x - mean) * (x - mean) : x;
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) *out = acc;
}

__global__ void diffuse(const float *__restrict__ img, float *__restrict__ out, int64_t n, float step) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float c = img[i];
  float l = img[i > 0 ? i - 1 : 0];
  float r = img[i + 1 < n ? i + 1 : n - 1];
  out[i] = c + step * (l + r - 2.0f * c);
}

class SmallKernels : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"f32", 1}, {"i32", 0}}, "small_kernels");
    n_ = in[0].count();
    iters_ = in[1].scalar<int>();
    img0_.upload(in[0]);
    a_.resize(n_);
    b_.resize(n_);
    scalar_.resize(1);
    CUDA_CHECK(cudaMallocHost(&host_, sizeof(float)));
  }
  ~SmallKernels() override {
    if (host_) cudaFreeHost(host_);
  }
  float read_back(cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(host_, scalar_.get(), sizeof(float), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return *host_;
  }
  void run(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(a_.get(), img0_.get(), size_t(n_) * sizeof(float),
                               cudaMemcpyDeviceToDevice, s));
    float *img = a_.get(), *next = b_.get();
    float fn = float(n_);
    int it = 0;
    for (float q = 1.0f; it < iters_ && q > 0.0f; it++) {
      one_block_sum<false><<<1, 1024, 0, s>>>(img, n_, 0.0f, scalar_.get());
      CUDA_CHECK_LAUNCH();
      float mean = read_back(s) / fn;
      one_block_sum<true><<<1, 1024, 0, s>>>(img, n_, mean, scalar_.get());
      CUDA_CHECK_LAUNCH();
      float var = read_back(s) / fn;
      q = var / (mean * mean);
      float step = 0.1f / (1.0f + q);
      diffuse<<<blocks_for(n_), kBlock, 0, s>>>(img, next, n_, step);
      CUDA_CHECK_LAUNCH();
      std::swap(img, next);
    }
    result_ = img;
    iterations_ = it;
  }
  std::vector<HostArray> results() override {
    HostArray img = HostArray::make("f32", {n_});
    CUDA_CHECK(cudaMemcpy(img.bytes.data(), result_, img.bytes.size(), cudaMemcpyDeviceToHost));
    HostArray it = HostArray::make("i32", {});
    *it.data<int>() = iterations_;
    return {img, it};
  }

private:
  DeviceBuffer<float> img0_, a_, b_, scalar_;
  float *host_ = nullptr;
  float *result_ = nullptr;
  int64_t n_ = 0;
  int iters_ = 0, iterations_ = 0;
};

// ---- hotspot --------------------------------------------------------------------

struct HotspotConstants {
  float step_div_cap, rx, ry, rz, amb;
};

__global__ void hotspot_step(const float *__restrict__ temp, const float *__restrict__ power,
                             float *__restrict__ out, int rows, int cols, HotspotConstants k) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int64_t at = int64_t(r) * cols + c;
  float t = temp[at];
  float n = temp[int64_t(r > 0 ? r - 1 : 0) * cols + c];
  float s = temp[int64_t(r + 1 < rows ? r + 1 : rows - 1) * cols + c];
  float w = temp[int64_t(r) * cols + (c > 0 ? c - 1 : 0)];
  float e = temp[int64_t(r) * cols + (c + 1 < cols ? c + 1 : cols - 1)];
  float delta = k.step_div_cap *
                (power[at] + (s + n - 2.0f * t) / k.ry + (e + w - 2.0f * t) / k.rx + (k.amb - t) / k.rz);
  out[at] = t + delta;
}

class Hotspot : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 0}, {"f32", 2}, {"f32", 2}}, "hotspot");
    iters_ = in[0].scalar<int>();
    rows_ = int(in[1].shape[0]);
    cols_ = int(in[1].shape[1]);
    if (in[2].shape != in[1].shape) fail("hotspot: temp and power differ in shape");
    temp0_.upload(in[1]);
    power_.upload(in[2]);
    a_.resize(int64_t(rows_) * cols_);
    b_.resize(int64_t(rows_) * cols_);
    // Rodinia's constants, computed in f32 in the program's order.
    float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
    float grid_height = chip_height / float(rows_), grid_width = chip_width / float(cols_);
    float cap = 0.5f * 1.75e6f * t_chip * grid_width * grid_height;
    k_.rx = grid_width / (2.0f * 100.0f * t_chip * grid_height);
    k_.ry = grid_height / (2.0f * 100.0f * t_chip * grid_width);
    k_.rz = t_chip / (100.0f * grid_height * grid_width);
    float max_slope = 3.0e6f / (0.5f * t_chip * 1.75e6f);
    float step = 0.001f / max_slope;
    k_.step_div_cap = step / cap;
    k_.amb = 80.0f;
  }
  void run(cudaStream_t s) override {
    size_t bytes = size_t(rows_) * size_t(cols_) * sizeof(float);
    CUDA_CHECK(cudaMemcpyAsync(a_.get(), temp0_.get(), bytes, cudaMemcpyDeviceToDevice, s));
    float *cur = a_.get(), *next = b_.get();
    dim3 block(32, 8), grid(blocks_for(cols_, 32), blocks_for(rows_, 8));
    for (int i = 0; i < iters_ && rows_ > 0 && cols_ > 0; i++) {
      hotspot_step<<<grid, block, 0, s>>>(cur, power_.get(), next, rows_, cols_, k_);
      CUDA_CHECK_LAUNCH();
      std::swap(cur, next);
    }
    result_ = cur;
  }
  std::vector<HostArray> results() override {
    HostArray t = HostArray::make("f32", {rows_, cols_});
    CUDA_CHECK(cudaMemcpy(t.bytes.data(), result_, t.bytes.size(), cudaMemcpyDeviceToHost));
    return {t};
  }

private:
  DeviceBuffer<float> temp0_, power_, a_, b_;
  float *result_ = nullptr;
  HotspotConstants k_{};
  int iters_ = 0, rows_ = 0, cols_ = 0;
};

// ---- pathfinder -----------------------------------------------------------------

__global__ void pathfinder_row(const int *__restrict__ prev, const int *__restrict__ wall_row,
                               int *__restrict__ out, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  int l = prev[j > 0 ? j - 1 : 0], c = prev[j], r = prev[j + 1 < cols ? j + 1 : cols - 1];
  out[j] = wall_row[j] + min(c, min(l, r));
}

class Pathfinder : public Benchmark {
public:
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 2}}, "pathfinder");
    rows_ = int(in[0].shape[0]);
    cols_ = int(in[0].shape[1]);
    if (rows_ < 1) fail("pathfinder: the grid needs at least one row");
    wall_.upload(in[0]);
    a_.resize(cols_);
    b_.resize(cols_);
  }
  void run(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(a_.get(), wall_.get(), size_t(cols_) * sizeof(int), cudaMemcpyDeviceToDevice, s));
    int *prev = a_.get(), *next = b_.get();
    for (int r = 1; r < rows_ && cols_ > 0; r++) {
      pathfinder_row<<<blocks_for(cols_), kBlock, 0, s>>>(prev, wall_.get() + int64_t(r) * cols_, next, cols_);
      CUDA_CHECK_LAUNCH();
      std::swap(prev, next);
    }
    result_ = prev;
  }
  std::vector<HostArray> results() override {
    HostArray out = HostArray::make("i32", {cols_});
    CUDA_CHECK(cudaMemcpy(out.bytes.data(), result_, out.bytes.size(), cudaMemcpyDeviceToHost));
    return {out};
  }

private:
  DeviceBuffer<int> wall_, a_, b_;
  int *result_ = nullptr;
  int rows_ = 0, cols_ = 0;
};

Register small_kernels_reg({"small_kernels", "bench/small_kernels.fut", "main",
                            "per iteration: two one-block sums read back to the host, then a map",
                            [] { return std::make_unique<SmallKernels>(); }});
Register hotspot_reg({"hotspot", "bench/hotspot.fut", "main",
                      "one launch per step, one thread per cell (2-D grid of 32x8 blocks)",
                      [] { return std::make_unique<Hotspot>(); }});
Register pathfinder_reg({"pathfinder", "bench/pathfinder.fut", "main",
                         "one launch per row, one thread per column",
                         [] { return std::make_unique<Pathfinder>(); }});

} // namespace
} // namespace kcb
