// The CUDA device as generated code sees it (exec_context.h's Device): memory, copies
// and launches of a program's kernels, all on the device's one stream, through the
// Driver API (runtime/cuda_device.h).
#include "runtime/cuda_exec.h"

#include "runtime/cuda_trace.h"
#include "runtime/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace kerb {

namespace {

constexpr unsigned kThreadsBlock = unsigned(kGpuThreadsBlock); // Threads kernels
constexpr unsigned kBlocksBlock = unsigned(kGpuBlockThreads); // Blocks kernels

class CudaExecDevice : public Device {
public:
  CudaExecDevice(CudaDevice &dev, CudaModule module, std::vector<CUfunction> fns,
                 std::vector<KernelDesc> descs, std::vector<std::string> names)
      : dev_(dev), module_(std::move(module)), fns_(std::move(fns)), descs_(std::move(descs)),
        names_(std::move(names)) {
    // Kernels that run at most so many blocks an SM: their dynamic shared memory.
    shared_.resize(fns_.size());
    for (size_t i = 0; i < fns_.size() && i < descs_.size(); i++)
      if (descs_[i].kind == KernelDesc::Threads && descs_[i].max_blocks_per_sm)
        shared_[i] = dev_.bound_blocks_per_sm(fns_[i], descs_[i].max_blocks_per_sm);
    const char *p = std::getenv("KERB_PROFILE");
    profile_ = p && *p && std::string(p) != "0";
    if (profile_) measure_copy_bandwidth();
    trace_ = CudaTrace::from_env(dev_);
  }

  // KERB_PROFILE=1: every launch is timed with events (synchronously), and a table of
  // kernel times goes to stderr when the device is closed.
  ~CudaExecDevice() override {
    trace_.reset(); // prints its summary
    if (!profile_) return;
    for (const auto &[name, times] : times_) {
      std::vector<float> t = times;
      std::sort(t.begin(), t.end());
      double total = 0;
      for (float x : t) total += x;
      std::fprintf(stderr, "profile: kernel %s launches %zu median_ms %.4f min_ms %.4f total_ms %.4f\n",
                   name.c_str(), t.size(), double(t[t.size() / 2]), double(t[0]), total);
    }
  }

  // The device-to-device copy rate (bytes read + written per second), for comparing
  // kernels with in the same run.
  void measure_copy_bandwidth() {
    CopyRate r = measure_cuda_copy_rate(dev_, int64_t(1) << 28, 2, 10);
    std::fprintf(stderr, "profile: copy %lld bytes median_ms %.4f rate_GBps %.1f (read + write)\n",
                 static_cast<long long>(r.bytes), r.ms.median, r.gb_per_s());
  }

  std::string describe() const override { return dev_.describe(); }
  int64_t alloc(int64_t bytes) override {
    if (trace_) trace_->begin(CudaTrace::Kind::Host, fmt::format("alloc {} bytes", bytes));
    CUdeviceptr p = dev_.alloc_async(size_t(std::max<int64_t>(bytes, 1)));
    if (trace_) trace_->end();
    if (!p)
      throw OutOfMemoryError(fmt::format("out of device memory allocating {} bytes on {}", bytes,
                                         dev_.describe()));
    return int64_t(p);
  }
  void free(int64_t addr) override { dev_.free_async(CUdeviceptr(addr)); }
  void synchronize() override {
    if (!trace_) return dev_.synchronize();
    trace_->begin(CudaTrace::Kind::Wait, "wait");
    dev_.synchronize();
    trace_->end();
  }
  void *alloc_mapped(int64_t bytes, int64_t *device_addr) override {
    CUdeviceptr d = 0;
    void *host = dev_.alloc_mapped_host(size_t(bytes), &d);
    *device_addr = int64_t(d);
    return host;
  }
  void free_mapped(void *host) override { dev_.free_host(host); }
  void trim() override { dev_.trim_pool(); }
  double time_ms(const std::function<void()> &work) override {
    if (!trace_) return double(dev_.time_ms(work));
    trace_->timed_begin();
    double ms = double(dev_.time_ms([&] {
      work();
      trace_->timed_end();
    }));
    trace_->timed_done();
    return ms;
  }
  int64_t reserved_bytes() const override { return dev_.pool_reserved(); }
  void call_started() override {
    dev_.enter_call();
    if (trace_) trace_->begin_call();
  }
  void call_finished() override {
    if (trace_) trace_->end_call();
    dev_.leave_call();
  }
  void write(int64_t dst, const void *src, int64_t bytes) override {
    if (!trace_) return dev_.copy_to_device(CUdeviceptr(dst), src, size_t(bytes));
    trace_->begin(CudaTrace::Kind::Copy, fmt::format("write {} bytes", bytes));
    dev_.copy_to_device(CUdeviceptr(dst), src, size_t(bytes));
    trace_->queued();
    trace_->end();
  }
  void read(void *dst, int64_t src, int64_t bytes) override {
    if (!trace_) return dev_.copy_to_host(dst, CUdeviceptr(src), size_t(bytes));
    trace_->begin(CudaTrace::Kind::Read, fmt::format("read {} bytes", bytes));
    dev_.copy_to_host(dst, CUdeviceptr(src), size_t(bytes), [&] { trace_->queued(); });
    trace_->end();
  }
  void copy(int64_t dst, int64_t src, int64_t bytes) override {
    if (!trace_) return dev_.copy_on_device(CUdeviceptr(dst), CUdeviceptr(src), size_t(bytes));
    trace_->begin(CudaTrace::Kind::Copy, fmt::format("copy {} bytes", bytes));
    dev_.copy_on_device(CUdeviceptr(dst), CUdeviceptr(src), size_t(bytes));
    trace_->queued();
    trace_->end();
  }
  void fill(int64_t dst, uint64_t bits, int elem_bytes, int64_t count) override {
    if (!trace_) return fill_now(dst, bits, elem_bytes, count);
    trace_->begin(CudaTrace::Kind::Copy, fmt::format("fill {} x {} bytes", count, elem_bytes));
    fill_now(dst, bits, elem_bytes, count);
    trace_->queued();
    trace_->end();
  }
  void fill_now(int64_t dst, uint64_t bits, int elem_bytes, int64_t count) {
    if (elem_bytes == 8) {
      // Only 8-byte values of two equal halves come here (kerb_rt_fill's contract).
      if (uint32_t(bits) != uint32_t(bits >> 32))
        throw DeviceError("fill: an 8-byte value whose halves differ");
      dev_.fill(CUdeviceptr(dst), uint32_t(bits), 4, size_t(count) * 2);
      return;
    }
    dev_.fill(CUdeviceptr(dst), uint32_t(bits), elem_bytes, size_t(count));
  }
  void launch(int kernel, int64_t total, const int64_t *slots, int num_slots) override {
    if (kernel < 0 || size_t(kernel) >= fns_.size())
      throw DeviceError(fmt::format("no kernel number {}", kernel));
    // cuLaunchKernel reads the arguments through these pointers before it returns.
    void *local[64];
    std::vector<void *> heap;
    void **args = local;
    if (num_slots > 64) {
      heap.resize(size_t(num_slots));
      args = heap.data();
    }
    for (int i = 0; i < num_slots; i++) args[i] = const_cast<int64_t *>(&slots[i]);
    Dim3 grid, block;
    if (descs_[size_t(kernel)].kind == KernelDesc::Threads) {
      int64_t blocks = (total + kThreadsBlock - 1) / kThreadsBlock;
      if (blocks > 0x7fffffff) throw DeviceError("launch too large for one grid");
      grid.x = unsigned(blocks);
      block.x = kThreadsBlock;
    } else {
      grid.x = unsigned(total);
      unsigned threads = descs_[size_t(kernel)].block_threads;
      block.x = threads ? threads : kBlocksBlock;
    }
    // Bounded in blocks an SM where its rows are long enough (KernelDesc::rows_slot).
    const KernelDesc &d = descs_[size_t(kernel)];
    unsigned shared = shared_[size_t(kernel)];
    if (shared && d.rows_slot > 0 && (int(d.rows_slot) >= num_slots || slots[d.rows_slot] < kLoopMinRowElems * total))
      shared = 0;
    if (!profile_ && !trace_) {
      dev_.launch(fns_[size_t(kernel)], grid, block, shared, args);
      return;
    }
    if (trace_) {
      trace_->begin(CudaTrace::Kind::Launch,
                    fmt::format("launch {}[grid={}{}]", names_[size_t(kernel)], grid.x,
                                shared ? fmt::format(", {} B shared", shared) : ""));
      dev_.launch(fns_[size_t(kernel)], grid, block, shared, args);
      trace_->queued();
      trace_->end();
      return;
    }
    float ms = dev_.time_ms([&] { dev_.launch(fns_[size_t(kernel)], grid, block, shared, args); });
    times_[fmt::format("{}[grid={}]", names_[size_t(kernel)], grid.x)].push_back(ms);
  }
  int64_t block_size() const override { return kBlocksBlock; }
  int64_t num_blocks(int64_t n) const override {
    int64_t want = (n + kBlocksBlock * 8 - 1) / (kBlocksBlock * 8);
    return std::max<int64_t>(1, std::min<int64_t>(want, 1024));
  }
  int64_t resident_blocks(int64_t n, int64_t per_sm) const override {
    return std::max<int64_t>(1, std::min<int64_t>(num_blocks(n), per_sm * dev_.multiprocessors()));
  }

private:
  CudaDevice &dev_;
  CudaModule module_;
  std::vector<CUfunction> fns_;
  std::vector<KernelDesc> descs_;
  std::vector<unsigned> shared_; // each kernel's dynamic shared memory (bound_blocks_per_sm)
  std::vector<std::string> names_;
  bool profile_ = false;
  std::unique_ptr<CudaTrace> trace_; // KERB_TRACE
  std::map<std::string, std::vector<float>> times_;
};

} // namespace

std::unique_ptr<Device> make_cuda_exec_device(CudaDevice &dev, const std::string &ptx,
                                              const std::vector<std::string> &names,
                                              std::vector<KernelDesc> descs) {
  if (names.empty())
    return std::make_unique<CudaExecDevice>(dev, CudaModule(), std::vector<CUfunction>{},
                                            std::move(descs), names);
  CudaModule module = dev.load_module(ptx);
  std::vector<CUfunction> fns;
  for (const std::string &n : names) fns.push_back(dev.function(module, n));
  return std::make_unique<CudaExecDevice>(dev, std::move(module), std::move(fns), std::move(descs),
                                          names);
}

} // namespace kerb
