// Timing helpers for benchmarks (`kerb bench`, KERB_PROFILE=1): the summary of repeated
// timed runs, and the copy-rate probes that bandwidth-bound kernels are compared with
// (METHOD.md: a large device-to-device copy, counting bytes read plus bytes written).
#pragma once

#include <cstdint>
#include <vector>

namespace kerb {

class CudaDevice;

// Median (the mean of the two middle values for an even count), min, max and mean of a
// set of times; all 0 for an empty set.
struct TimingStats {
  double median = 0, min = 0, max = 0, mean = 0;
};
TimingStats timing_stats(std::vector<double> times);

struct CopyRate {
  int64_t bytes = 0;           // copied per run
  int warmup = 0;              // untimed runs first
  std::vector<double> runs_ms; // the timed runs
  TimingStats ms;
  // Bytes read plus bytes written per second of the median run, in GB/s (10^9 bytes).
  double gb_per_s() const;
};

// cuMemcpyDtoDAsync of `bytes` on the device's stream, timed with CUDA events. Throws
// CudaError.
CopyRate measure_cuda_copy_rate(CudaDevice &device, int64_t bytes, int warmup, int runs);
// memcpy of `bytes` in host memory, split across `threads` host threads (the CPU
// device's workers), timed with a steady clock.
CopyRate measure_host_copy_rate(int64_t bytes, int threads, int warmup, int runs);

} // namespace kerb
