// The harness shared by the hand-written CUDA versions of the benchmark suite
// (bench/cuda/*.cu, one binary: kerb-cuda-bench): error checks on every CUDA call,
// inputs in Futhark's binary value format (the same files `kerb bench` reads), results
// as .npy, and the timing that `kerb bench` does, so that the two compare: warm-up
// runs, then timed runs of one "call" between two CUDA events on one stream, median,
// min and max, printed as JSON in the kerb-bench/1 schema.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

// Checks a CUDA runtime call: on failure prints the error, the call, file and line on
// stderr and exits with status 3.
#define CUDA_CHECK(call) ::kcb::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: the launch's own error (a bad configuration).
#define CUDA_CHECK_LAUNCH() ::kcb::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

namespace kcb {

void cuda_check(cudaError_t e, const char *call, const char *file, int line);

// Prints "kerb-cuda-bench: error: MESSAGE" and exits with status 2.
[[noreturn]] void fail(const std::string &message);

// A value read from a data file: its element type ("f32", "i64", ...), shape (empty for
// a scalar) and little-endian bytes.
struct HostArray {
  std::string type;
  std::vector<int64_t> shape;
  std::vector<char> bytes;

  int64_t count() const;
  int elem_size() const;
  template <typename T> const T *data() const { return reinterpret_cast<const T *>(bytes.data()); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> T scalar() const { return *data<T>(); }

  static HostArray make(const std::string &type, std::vector<int64_t> shape);
};

// Every value of a file in Futhark's binary format. Exits with a message on a malformed
// file.
std::vector<HostArray> read_values(const std::string &path);
// Checks that `inputs` are values of these types and ranks ("f32", 2), in order.
void expect_inputs(const std::vector<HostArray> &inputs,
                   const std::vector<std::pair<std::string, int>> &types, const std::string &who);
// Writes one value as a .npy file.
void write_npy(const HostArray &value, const std::string &path);

// A device buffer freed on destruction.
template <typename T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(int64_t count) { resize(count); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  void resize(int64_t count) {
    if (ptr_) CUDA_CHECK(cudaFree(ptr_));
    ptr_ = nullptr;
    count_ = count;
    CUDA_CHECK(cudaMalloc(&ptr_, size_t(count > 0 ? count : 1) * sizeof(T)));
  }
  void upload(const HostArray &a) {
    resize(a.count());
    CUDA_CHECK(cudaMemcpy(ptr_, a.bytes.data(), a.bytes.size(), cudaMemcpyHostToDevice));
  }
  HostArray download(const std::string &type, std::vector<int64_t> shape) const {
    HostArray a = HostArray::make(type, std::move(shape));
    if (size_t(a.count()) * sizeof(T) != a.bytes.size() || a.count() > count_)
      fail("download: the shape does not fit the buffer");
    CUDA_CHECK(cudaMemcpy(a.bytes.data(), ptr_, a.bytes.size(), cudaMemcpyDeviceToHost));
    return a;
  }
  T *get() const { return ptr_; }
  int64_t count() const { return count_; }

private:
  T *ptr_ = nullptr;
  int64_t count_ = 0;
};

// One benchmark: what `run` enqueues on the stream is one call, the counterpart of one
// entry call of the .fut program (scalars read back where the program's host code
// needs them, as it does).
class Benchmark {
public:
  virtual ~Benchmark() = default;
  // Uploads the inputs and allocates every buffer the runs need (not timed).
  virtual void setup(const std::vector<HostArray> &inputs) = 0;
  // One call on `stream`.
  virtual void run(cudaStream_t stream) = 0;
  // The results of the last run, in the order of the entry's results.
  virtual std::vector<HostArray> results() = 0;
  // After each call has finished, outside the timed region: what the program's host
  // code does at the end of a call (the versions with checks read their failure slot
  // here and exit with the program's message, bench/cuda/unproved.cu).
  virtual void after_call() {}
};

struct BenchmarkInfo {
  const char *name;     // the command-line name: "gather", "matmul_tiled"
  const char *program;  // the .fut it mirrors: "bench/gather.fut"
  const char *entry;    // its entry point
  const char *about;    // one line: the algorithm
  std::function<std::unique_ptr<Benchmark>()> make;
};

// Registers a benchmark (at static initialisation, one per .cu file or more).
struct Register {
  explicit Register(BenchmarkInfo info);
};
const std::vector<BenchmarkInfo> &benchmarks();

// Threads per block of the simple kernels, and blocks for n elements.
constexpr int kBlock = 256;
inline unsigned blocks_for(int64_t n, int per_block = kBlock) {
  return unsigned((n + per_block - 1) / per_block);
}

// Block-level helpers for kernels launched with a multiple of 32 threads (at most 1024).
// Every thread of the block must call them; the result is valid in every thread.
__device__ inline float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ inline int warp_sum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
template <typename T> __device__ T block_sum(T v) {
  __shared__ T part[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  v = warp_sum(v);
  __syncthreads(); // `part` may still be read by an earlier call
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = lane < warps ? part[lane] : T(0);
  return warp_sum(v);
}
// The sum of `v` over the threads before this one in the block (exclusive scan).
__device__ inline int block_exclusive_scan(int v) {
  __shared__ int part[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  int x = v;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  __syncthreads();
  if (lane == 31) part[warp] = x;
  __syncthreads();
  if (warp == 0) {
    int t = lane < warps ? part[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o) t += y;
    }
    part[lane] = t; // inclusive over warps
  }
  __syncthreads();
  return (warp > 0 ? part[warp - 1] : 0) + x - v;
}

// The number of multiprocessors of the current device (for grid-stride kernels).
int multiprocessors();

} // namespace kcb
