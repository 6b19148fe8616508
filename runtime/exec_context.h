// Running compiled code: the devices generated host code launches kernels on, and the
// per-context state behind the C functions of runtime/device_abi.h (device memory, the
// failure slot and its mapped mirror, the lazy failure check, the last error).
//
// The failure protocol's host side (DESIGN.md): the failure slot is looked at only at
// sync points (a read of device memory into the host, an explicit sync), and only if a
// kernel that may fail (has a check) ran since the last look. The look costs nothing extra: failing threads mirror
// the payload into host memory (FailureSlot::mirror), so after the wait that a sync
// point makes anyway the host reads host memory, not the device. A failure found there
// is formatted from the failure table, the slot is reset, and the call fails with the
// message; the context stays usable. poll() reads the mirror without waiting.
//
// Memory: every allocation of an entry call goes on the call's list; a host loop frees
// what an iteration made and no longer carries (scope_release), and end_call() frees
// what is left once the results have been taken out (take()). Freed blocks go to the
// context's own cache (Note [The context's memory cache] in exec_context.cpp), from
// which later allocations of the same size take them without asking the device; below
// it, the CUDA device's allocator is stream-ordered and cached too (cuMemAllocAsync).
#pragma once

#include "failure_table/failure_table.h"
#include "runtime/device_abi.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerb {

class DeviceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Device memory could not be allocated.
class OutOfMemoryError : public DeviceError {
public:
  using DeviceError::DeviceError;
};

// Device memory is addressed by 64-bit integers (device pointers on the GPU, host
// pointers on the CPU device). Errors throw DeviceError (or CudaError).
class Device {
public:
  virtual ~Device() = default;
  virtual std::string describe() const = 0;
  // Memory for the device's work; free() may be deferred until earlier work is done
  // (stream-ordered), so a buffer may be freed while kernels that use it are queued.
  virtual int64_t alloc(int64_t bytes) = 0;
  virtual void free(int64_t addr) = 0;
  virtual void write(int64_t dst, const void *src, int64_t bytes) = 0;
  virtual void read(void *dst, int64_t src, int64_t bytes) = 0; // waits for the device
  virtual void copy(int64_t dst, int64_t src, int64_t bytes) = 0;
  // Sets `count` elements of `elem_bytes` (1, 2, 4, or 8 when both halves of the value
  // are equal) at `dst` to the low bytes of `bits`: a memset, in order with launches.
  virtual void fill(int64_t dst, uint64_t bits, int elem_bytes, int64_t count) = 0;
  virtual void launch(int kernel, int64_t total, const int64_t *slots, int num_slots) = 0;
  virtual int64_t block_size() const = 0;
  virtual int64_t num_blocks(int64_t n) const = 0;
  // num_blocks(n), at most per_sm blocks per multiprocessor (kerb_rt_resident_blocks).
  virtual int64_t resident_blocks(int64_t n, int64_t per_sm) const {
    (void)per_sm;
    return num_blocks(n);
  }
  // Waits until all work queued so far has finished.
  virtual void synchronize() = 0;
  // Host memory that kernels can write (pinned and mapped on the GPU): the host pointer,
  // with the address kernels use in *device_addr; null if the device cannot map memory.
  virtual void *alloc_mapped(int64_t bytes, int64_t *device_addr) = 0;
  virtual void free_mapped(void *host) = 0;
  // Returns cached memory that nothing uses to the system (waits for the device).
  virtual void trim() {}
  // Bytes the device's allocator holds (in use or cached), or -1 if it cannot tell.
  virtual int64_t reserved_bytes() const { return -1; }
  // An entry call starts and finishes (ExecContext::begin_call, finish_call): for
  // KERB_TRACE on the CUDA device.
  virtual void call_started() {}
  virtual void call_finished() {}
  // Runs `work` (which queues work on the device) and returns how long the device took,
  // in milliseconds: CUDA events around it, or a steady clock where launches are
  // synchronous (the CPU device). Waits for the work.
  virtual double time_ms(const std::function<void()> &work);
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
  // "<message>\nat <location>" (only the message when there is no location).
  std::string text() const;
};

// One block of device memory.
struct Allocation {
  int64_t addr = 0, bytes = 0;
  // Whether `a` lies in it (its end included: an empty slice may point there).
  bool holds(int64_t a) const { return a >= addr && a <= addr + bytes; }
};

class ExecContext {
public:
  // Allocates the failure slot and its mirror; throws DeviceError.
  ExecContext(Device &device, const FailureTable &table);
  ~ExecContext();
  ExecContext(const ExecContext &) = delete;
  ExecContext &operator=(const ExecContext &) = delete;

  Device &device() { return device_; }
  const FailureTable &table() const { return table_; }

  // The outcome of the last failing operation: a check failure (failure), or a device
  // error (error, with out_of_memory when that is what it was).
  std::optional<Failure> failure;
  std::string error;
  bool out_of_memory = false;
  void clear_error();

  // ---- memory
  // Memory of the current call (on its list); 0 with `error` set on failure.
  int64_t alloc(int64_t bytes);
  // kerb_rt_alloc_readback: memory of the current call that a kernel writes and one
  // read() reads back, which frees it (Note [Read-back memory]); 0 with `error` set on
  // failure.
  int64_t alloc_readback(int64_t bytes);
  // Memory that outlives calls (an array made by the user); throws DeviceError.
  Allocation alloc_owned(int64_t bytes);
  // Frees memory that is on no list (taken out of a call, or alloc_owned).
  void free_owned(const Allocation &a);
  int64_t scope_mark() const { return int64_t(call_memory_.size()); }
  void scope_release(int64_t mark, const int64_t *live, int num_live);
  // Takes the call's allocation that holds `addr` off the call's list, if there is one.
  std::optional<Allocation> take(int64_t addr);
  // Frees every allocation still on the call's list.
  void end_call();
  // Gives the cache's blocks back to the device, then the device's cached memory to the
  // system (waits for the device).
  void trim();
  // Counters for kerb_context_report. bytes_in_use counts allocations not freed yet
  // (not the cache); allocations counts them all, fresh_allocations those the device
  // made (the cache had no block of that size).
  int64_t bytes_in_use() const { return bytes_in_use_; }
  int64_t peak_bytes() const { return peak_bytes_; }
  int64_t allocations() const { return allocations_; }
  int64_t fresh_allocations() const { return fresh_allocations_; }
  int64_t cached_bytes() const;

  // --sync-checks: look for a failure after every launch (for comparison and
  // debugging; by default only at sync points).
  bool sync_checks = false;

  // ---- the device (each returns 0, or 1 with `error` set)
  int64_t failure_slot() const { return slot_; }
  // may_fail: the kernel has a check that may record a failure (kLaunchMayFail); only
  // such kernels make a sync point look at the slot. When none ran since the last
  // clean look, the slot is certainly clear and slots[0] goes with bit 0 set.
  int32_t launch(int kernel, int64_t total, const int64_t *slots, int num_slots,
                 bool may_fail = true);
  // A sync point: reads device memory, then fails if a check failed before.
  int32_t read(void *dst, int64_t src, int64_t bytes);
  int32_t write(int64_t dst, const void *src, int64_t bytes);
  int32_t copy(int64_t dst, int64_t src, int64_t bytes);
  int32_t fill(int64_t dst, uint64_t bits, int elem_bytes, int64_t count);
  // A check that failed in host code (earlier kernels may have failed first).
  int32_t fail(int32_t code, const int64_t *args, int32_t num_args);

  // ---- entry calls and the failure window
  // Calls are numbered from 1. A failure found at a sync point happened in one of the
  // calls since the last look that found none: failure_window() gives them, [first,
  // last], after sync_check() returned a failure (results of those calls are garbage).
  void begin_call();
  void finish_call(); // end_call(), and the call is over
  uint64_t current_call() const { return calls_; }
  std::pair<uint64_t, uint64_t> failure_window() const { return window_; }

  // ---- the failure protocol
  // A sync point: waits for the device (unless `synchronized`: the caller just did) and
  // looks for a failure if a kernel that may fail ran since the last look. Returns 1 with `failure`
  // set if one was recorded (and resets the slot), 1 with `error` on a device error.
  int32_t sync_check(bool synchronized = false);
  // Non-blocking: a failure recorded by a kernel that has not been looked at yet, read
  // from the mirror (never from device memory). Safe to call from any thread.
  std::optional<Failure> poll() const;

private:
  int32_t device_error(const std::exception &e);
  Failure make_failure(int32_t code, const int64_t *args, int num_args) const;
  void reset_slot();
  void release(const Allocation &a);
  // The memory cache: a block of exactly `bytes`, or 0; a new block from the device
  // (giving back cached blocks, this context's first and then other contexts', when
  // the device is out of memory; throws OutOfMemoryError if that does not help).
  int64_t take_cached(int64_t bytes);
  int64_t fresh_block(int64_t bytes);
  void cache_block(const Allocation &a);
  // Frees the cached blocks (all, or the oldest until the cache is within its bounds)
  // on the device; returns the bytes freed.
  int64_t flush_cache(bool all);
  bool cache_over_bounds() const; // cache_mutex_ held
  // flush_cache(true) on every other live context; returns the bytes freed.
  int64_t flush_other_caches();

  Device &device_;
  const FailureTable &table_;
  int64_t slot_ = 0;
  FailureSlot *mirror_ = nullptr; // host view of the mirror; null: none
  int64_t mirror_device_ = 0;
  bool kernel_ran_ = false; // a kernel that may fail ran since the last look
  uint64_t calls_ = 0, clean_through_ = 0;
  bool in_call_ = false;
  std::pair<uint64_t, uint64_t> window_{0, 0};
  void note_clean() { clean_through_ = in_call_ ? calls_ - 1 : calls_; }
  std::vector<Allocation> call_memory_;
  int64_t bytes_in_use_ = 0, peak_bytes_ = 0, allocations_ = 0, fresh_allocations_ = 0;
  // The cache (guarded by cache_mutex_: another context's thread may flush it when its
  // device runs out of memory): blocks by size, each with when it was cached (oldest
  // first).
  struct Cached {
    int64_t addr;
    uint64_t stamp;
  };
  mutable std::mutex cache_mutex_;
  std::unordered_map<int64_t, std::vector<Cached>> cache_;
  size_t cached_blocks_ = 0;
  uint64_t cache_stamp_ = 0;
  int64_t cached_bytes_ = 0;
  bool profile_ = false; // KERB_PROFILE: memory counters to stderr when destroyed
  // Read-back memory: pages of mapped host memory cut into slots (a bit per slot in
  // `used`), kept for the context's life.
  struct ReadbackPage {
    void *host = nullptr;
    int64_t addr = 0; // as kernels see it
    uint64_t used = 0;
  };
  static constexpr int64_t kReadbackSlot = 64, kReadbackSlots = 64;
  std::vector<ReadbackPage> readback_;
  bool readback_unmapped_ = false; // the device maps no memory: alloc() instead
  // The host address of read-back memory [addr, addr + bytes) (freeing its slot), or null.
  const void *take_readback(int64_t addr, int64_t bytes);
};

} // namespace kerb
