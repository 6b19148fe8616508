// Timing statistics and copy-rate probes (see timing.h).
#include "runtime/timing.h"

#include "runtime/cuda_device.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>

namespace kerb {

TimingStats timing_stats(std::vector<double> times) {
  TimingStats s;
  if (times.empty()) return s;
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  s.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  s.min = times.front();
  s.max = times.back();
  s.mean = std::accumulate(times.begin(), times.end(), 0.0) / double(n);
  return s;
}

double CopyRate::gb_per_s() const {
  return ms.median > 0 ? 2.0 * double(bytes) / (ms.median * 1e6) : 0;
}

CopyRate measure_cuda_copy_rate(CudaDevice &device, int64_t bytes, int warmup, int runs) {
  CopyRate r;
  r.bytes = bytes;
  r.warmup = warmup;
  CUdeviceptr a = device.alloc(size_t(bytes));
  CUdeviceptr b = 0;
  try {
    b = device.alloc(size_t(bytes));
    // Not zeros: the source holds a pattern, as benchmark inputs do.
    device.memset32(a, 0x3f8ccccd, size_t(bytes) / 4);
    for (int i = 0; i < warmup + runs; i++) {
      float ms = device.time_ms([&] { device.copy_on_device(b, a, size_t(bytes)); });
      if (i >= warmup) r.runs_ms.push_back(double(ms));
    }
  } catch (...) {
    device.free(a);
    device.free(b);
    throw;
  }
  device.free(a);
  device.free(b);
  r.ms = timing_stats(r.runs_ms);
  return r;
}

CopyRate measure_host_copy_rate(int64_t bytes, int threads, int warmup, int runs) {
  CopyRate r;
  r.bytes = bytes;
  r.warmup = warmup;
  threads = std::max(1, threads);
  std::vector<unsigned char> a(size_t(bytes), 0x5a);
  std::vector<unsigned char> b(size_t(bytes), 0);
  int64_t chunk = (bytes + threads - 1) / threads;
  for (int i = 0; i < warmup + runs; i++) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) {
      int64_t begin = std::min(bytes, t * chunk), end = std::min(bytes, begin + chunk);
      pool.emplace_back([&, begin, end] {
        std::memcpy(b.data() + begin, a.data() + begin, size_t(end - begin));
      });
    }
    for (std::thread &t : pool) t.join();
    auto t1 = std::chrono::steady_clock::now();
    if (i >= warmup) r.runs_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  r.ms = timing_stats(r.runs_ms);
  return r;
}

} // namespace kerb
