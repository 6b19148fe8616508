// The CPU device (see exec_context.h): device memory is host memory, and a launch runs
// the kernel's compiled function over its range of threads or blocks, split across a
// few host threads. Blocks have one thread, so barriers are trivial.
#include "runtime/exec_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace kerb {

int cpu_device_threads() {
  return int(std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
}

namespace {

class CpuDevice : public Device {
public:
  CpuDevice(std::vector<CpuKernelFn> kernels, std::vector<KernelDesc> descs)
      : kernels_(std::move(kernels)), descs_(std::move(descs)) {
    workers_ = unsigned(cpu_device_threads());
  }

  std::string describe() const override {
    return fmt::format("cpu ({} host threads)", workers_);
  }

  int64_t alloc(int64_t bytes) override {
    void *p = std::malloc(size_t(std::max<int64_t>(bytes, 1)));
    if (!p) throw OutOfMemoryError(fmt::format("out of memory allocating {} bytes", bytes));
    return int64_t(reinterpret_cast<uintptr_t>(p));
  }
  void free(int64_t addr) override { std::free(reinterpret_cast<void *>(uintptr_t(addr))); }
  void write(int64_t dst, const void *src, int64_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, size_t(bytes));
  }
  void read(void *dst, int64_t src, int64_t bytes) override {
    std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), size_t(bytes));
  }
  void copy(int64_t dst, int64_t src, int64_t bytes) override {
    std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
                 reinterpret_cast<const void *>(uintptr_t(src)), size_t(bytes));
  }

  void fill(int64_t dst, uint64_t bits, int elem_bytes, int64_t count) override {
    auto *p = reinterpret_cast<unsigned char *>(uintptr_t(dst));
    unsigned char bytes[8];
    std::memcpy(bytes, &bits, 8); // little-endian: the low bytes first
    if (std::all_of(bytes + 1, bytes + elem_bytes, [&](unsigned char b) { return b == bytes[0]; })) {
      std::memset(p, bytes[0], size_t(count) * size_t(elem_bytes));
      return;
    }
    for (int64_t i = 0; i < count; i++) std::memcpy(p + i * elem_bytes, bytes, size_t(elem_bytes));
  }

  void launch(int kernel, int64_t total, const int64_t *slots, int num_slots) override {
    if (kernel < 0 || size_t(kernel) >= kernels_.size())
      throw DeviceError(fmt::format("no kernel number {}", kernel));
    // slots[-1] holds the launch's total (block kernels chunk their input by it).
    std::vector<int64_t> args(size_t(num_slots) + 1);
    args[0] = total;
    std::copy(slots, slots + num_slots, args.begin() + 1);
    const int64_t *s = args.data() + 1;
    CpuKernelFn fn = kernels_[size_t(kernel)];
    // Small launches run on the calling thread.
    int64_t per = descs_[size_t(kernel)].kind == KernelDesc::Threads ? 16384 : 1;
    int64_t parts = std::min<int64_t>(workers_, (total + per - 1) / per);
    if (parts <= 1) {
      fn(0, total, s);
      return;
    }
    std::vector<std::thread> threads;
    int64_t chunk = (total + parts - 1) / parts;
    for (int64_t p = 0; p < parts; p++) {
      int64_t b = p * chunk, e = std::min(total, b + chunk);
      if (b >= e) break;
      threads.emplace_back([=] { fn(b, e, s); });
    }
    for (std::thread &t : threads) t.join();
  }

  // Launches run to completion before they return.
  void synchronize() override {}
  // Kernels run in this process: mapped memory is plain host memory.
  void *alloc_mapped(int64_t bytes, int64_t *device_addr) override {
    void *p = std::calloc(1, size_t(std::max<int64_t>(bytes, 1)));
    if (!p) throw OutOfMemoryError(fmt::format("out of memory allocating {} bytes", bytes));
    *device_addr = int64_t(reinterpret_cast<uintptr_t>(p));
    return p;
  }
  void free_mapped(void *host) override { std::free(host); }

  int64_t block_size() const override { return 1; }
  int64_t num_blocks(int64_t n) const override {
    return std::max<int64_t>(1, std::min<int64_t>(n, int64_t(workers_) * 4));
  }

private:
  std::vector<CpuKernelFn> kernels_;
  std::vector<KernelDesc> descs_;
  unsigned workers_ = 1;
};

} // namespace

std::unique_ptr<Device> make_cpu_device(std::vector<CpuKernelFn> kernels,
                                        std::vector<KernelDesc> descs) {
  return std::make_unique<CpuDevice>(std::move(kernels), std::move(descs));
}

} // namespace kerb
