// Running compiled code: the devices generated host code launches kernels on, and the
// per-program context behind the C functions of runtime/device_abi.h (memory of the
// current call, the failure slot, the lazy failure check, the last error).
//
// The failure protocol's host side (DESIGN.md): the failure slot is read only at sync
// points (a read of device memory into the host), and only if a kernel ran since the
// last look; a failure found there is formatted from the failure table, the slot is
// reset, and the call fails with the message; the context stays usable.
#pragma once

#include "failure_table/failure_table.h"
#include "runtime/device_abi.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerb {

class DeviceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Device memory is addressed by 64-bit integers (device pointers on the GPU, host
// pointers on the CPU device). Errors throw DeviceError (or CudaError).
class Device {
public:
  virtual ~Device() = default;
  virtual std::string describe() const = 0;
  virtual int64_t alloc(int64_t bytes) = 0;
  virtual void free(int64_t addr) = 0;
  virtual void write(int64_t dst, const void *src, int64_t bytes) = 0;
  virtual void read(void *dst, int64_t src, int64_t bytes) = 0; // waits for the device
  virtual void copy(int64_t dst, int64_t src, int64_t bytes) = 0;
  virtual void launch(int kernel, int64_t total, const int64_t *slots, int num_slots) = 0;
  virtual int64_t block_size() const = 0;
  virtual int64_t num_blocks(int64_t n) const = 0;
};

// The CPU device: kernels compiled for the host, run over an emulated grid (block size
// 1) on a few host threads.
std::unique_ptr<Device> make_cpu_device(std::vector<CpuKernelFn> kernels,
                                        std::vector<KernelDesc> descs);
// The number of host threads the CPU device runs kernels on.
int cpu_device_threads();

struct Failure {
  FailureKind kind = FailureKind::Assert;
  std::string message, location;
};

class ExecContext {
public:
  ExecContext(Device &device, const FailureTable &table);
  ~ExecContext();

  Device &device() { return device_; }
  // Frees the memory of the current call (results must have been read back).
  void end_call();
  // The error of the last failed call: a check failure, or a device error.
  std::optional<Failure> failure;
  std::string error; // set for device errors (failure is empty then)

  // Implementations of the C functions (they catch every exception).
  int64_t alloc(int64_t bytes);
  int64_t failure_slot() const { return slot_; }
  int32_t launch(int kernel, int64_t total, const int64_t *slots, int num_slots);
  int32_t read(void *dst, int64_t src, int64_t bytes);
  int32_t write(int64_t dst, const void *src, int64_t bytes);
  int32_t copy(int64_t dst, int64_t src, int64_t bytes);
  int32_t fail(int32_t code, const int64_t *args, int32_t num_args);
  // A sync point: looks at the failure slot if a kernel ran since the last look.
  // Returns non-zero (with `failure` set) if a failure was recorded.
  int32_t sync_check();
  // Reads device memory for the caller (results), then checks for failures.
  void read_result(void *dst, int64_t src, int64_t bytes);

private:
  int32_t device_error(const std::exception &e);
  void record(int32_t code, const int64_t *args, int num_args);

  Device &device_;
  const FailureTable &table_;
  int64_t slot_ = 0;
  bool kernel_ran_ = false;
  std::vector<int64_t> call_memory_;
};

} // namespace kerb
