// One CUDA device, driven through the CUDA driver API (runtime/cuda_driver.h; no cudart).
// A CudaDevice uses the device's primary context and one stream at a time: its own
// non-blocking stream, or one the user gives (set_stream: a stream of PyTorch's, CuPy's,
// ...); all of its asynchronous work goes to the current one, and a new one first waits
// for the old one (so Kerb's work stays in one order). Every method makes the context current on the
// calling thread first. Failures throw CudaError whose message names the failing call,
// file and line. Destructors release what they hold and never throw. A CudaModule must
// not outlive the CudaDevice that loaded it. Without KERB_HAVE_CUDA_H, open() always
// returns null ("no CUDA support").
#pragma once

#include "runtime/cuda_driver.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kerb {

// Grid or block dimensions, like CUDA's dim3.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// Owns a loaded CUmodule (unloaded on destruction). Move-only.
class CudaModule {
public:
  CudaModule() = default;
  CudaModule(CudaModule &&other) noexcept;
  CudaModule &operator=(CudaModule &&other) noexcept;
  CudaModule(const CudaModule &) = delete;
  CudaModule &operator=(const CudaModule &) = delete;
  ~CudaModule();

  CUmodule get() const { return module_; }
  explicit operator bool() const { return module_ != nullptr; }
  // The JIT compiler's informational log from loading (often empty).
  const std::string &info_log() const { return info_log_; }

private:
  friend class CudaDevice;
  CudaModule(const CudaDriver *driver, CUcontext ctx, CUmodule module, std::string info_log);
  void reset() noexcept;

  const CudaDriver *driver_ = nullptr;
  CUcontext ctx_ = nullptr;
  CUmodule module_ = nullptr;
  std::string info_log_;
};

class CudaDevice {
public:
  // The number of CUDA devices, or 0 with the reason in *why_not (if non-null).
  static int device_count(std::string *why_not);
  // Null with the reason in *why_not (if non-null) if there is no usable driver, no
  // device `ordinal`, or setting it up fails.
  static std::unique_ptr<CudaDevice> open(int ordinal, std::string *why_not);

  CudaDevice(const CudaDevice &) = delete;
  CudaDevice &operator=(const CudaDevice &) = delete;
  ~CudaDevice();

  int ordinal() const { return ordinal_; }
  const std::string &name() const { return name_; }
  int cc_major() const { return cc_major_; }
  int cc_minor() const { return cc_minor_; }
  int multiprocessors() const { return multiprocessors_; }
  // As cuDriverGetVersion reports it: 1000 * major + 10 * minor (e.g. 12040).
  int driver_version() const { return driver_version_; }
  // E.g. "NVIDIA H100 80GB HBM3 (device 0, compute capability 9.0, driver 12.4)".
  std::string describe() const;

  const CudaDriver &driver() const { return *driver_; }
  CUcontext context() const { return ctx_; }
  CUstream stream() const { return stream_; }
  // The stream the device made for itself (its stream until set_stream).
  CUstream own_stream() const { return own_stream_; }
  // Queues later work on `s` (a stream of this device's primary context, NULL for the
  // legacy default stream): `s` first waits for the work queued so far, with an event.
  // The caller keeps `s` alive while it is the device's stream, and the old stream alive
  // until the switch (the event is recorded on it).
  void set_stream(CUstream s);
  // Makes `consumer` wait, without blocking the host, for the work queued so far (an
  // event on the stream); nothing when `consumer` is the stream or nothing was queued
  // since the last wait.
  void order_stream(CUstream consumer);
  // Makes the stream wait for the work queued so far on `producer`.
  void wait_for_stream(CUstream producer);
  // An event recorded on the stream now (from a pool); event_done() says whether the
  // work before it has finished (cuEventQuery); give it back with recycle_event().
  CUevent record_event();
  bool event_done(CUevent e);
  void recycle_event(CUevent e);
  // Makes this device's context current on the calling thread. Inside an entry call
  // (enter_call .. leave_call on this thread) only the first time: until the call
  // returns only Kerb's code runs on the thread, and what it makes current it notes, so
  // an entry call makes one cuCtxSetCurrent, not one per operation.
  void make_current() const;
  void enter_call();
  void leave_call();

  // JIT-compiles PTX (NUL-terminated by std::string). On failure throws CudaError whose
  // message includes the JIT error log.
  CudaModule load_module(const std::string &ptx);
  // Throws CudaError (naming `name`) if the module has no such kernel.
  CUfunction function(const CudaModule &module, const std::string &name);

  CUdeviceptr alloc(std::size_t bytes); // bytes == 0 gives 0 (no allocation)
  void free(CUdeviceptr ptr);           // free(0) does nothing
  // Stream-ordered allocation on the stream from the device's memory pool, which keeps
  // freed memory for reuse (plain cuMemAlloc/cuMemFree where the device has no pools).
  // alloc_async returns 0 when the device is out of memory; free_async(0) does nothing.
  CUdeviceptr alloc_async(std::size_t bytes);
  void free_async(CUdeviceptr ptr);
  // Pinned host memory mapped into the device's address space (kernels write it at
  // *device_ptr); free it with free_host.
  void *alloc_mapped_host(std::size_t bytes, CUdeviceptr *device_ptr);
  void free_host(void *host);
  // Waits for the stream and releases the pool's unused memory.
  void trim_pool();
  // Bytes the pool holds (used or cached), or -1 without a pool.
  std::int64_t pool_reserved() const;
  // Asynchronous on the stream; `src` may be reused as soon as the call returns.
  void copy_to_device(CUdeviceptr dst, const void *src, std::size_t bytes);
  // Waits for the stream, so `dst` holds the data on return. Small copies (a scalar
  // result, a loop condition) go through pinned memory: one asynchronous copy and one
  // wait. `queued`, if given, runs between the copy's driver call and the wait
  // (KERB_TRACE records an event there).
  void copy_to_host(void *dst, CUdeviceptr src, std::size_t bytes,
                    const std::function<void()> &queued = {});
  // Device-to-device copy, asynchronous on the stream.
  void copy_on_device(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes);
  // Sets `count` 32-bit words at `dst` to `value`, asynchronously on the stream.
  void memset32(CUdeviceptr dst, std::uint32_t value, std::size_t count);
  // Sets `count` elements of `elem_bytes` (1, 2 or 4) at `dst` to the low bytes of
  // `value`, asynchronously on the stream.
  void fill(CUdeviceptr dst, std::uint32_t value, int elem_bytes, std::size_t count);

  // Launches on the stream; `args` as for cuLaunchKernel (pointers to each argument).
  void launch(CUfunction f, Dim3 grid, Dim3 block, unsigned shared_bytes, void **args);
  // The dynamic shared memory to launch `f` with so that at most `blocks` of its blocks
  // fit on an SM, out of kBoundShared (its carveout preference set to that much, the
  // rest of the SM's memory left to the L1; KernelDesc::max_blocks_per_sm); 0 where no
  // such amount exists on this device.
  unsigned bound_blocks_per_sm(CUfunction f, unsigned blocks);
  // The shared memory bound_blocks_per_sm shares out among the blocks.
  static constexpr int kBoundShared = 32 * 1024;
  // Waits for all work on the stream (returns at once when nothing was queued on it
  // since the last wait).
  void synchronize();
  // Waits for all work of the device's primary context, on every stream (cuCtxSynchronize):
  // for work on a stream that may no longer exist, which must not be named.
  void synchronize_all();
  // Runs `work` (which should enqueue work on stream()) between two events on the stream
  // and returns the GPU time between them in milliseconds (waits for completion). Each
  // level of nesting has its own events (made once), so calls may nest.
  float time_ms(const std::function<void()> &work);

private:
  CudaDevice() = default;

  const CudaDriver *driver_ = nullptr;
  int ordinal_ = -1;
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr; // retained primary context
  CUstream stream_ = nullptr;
  CUstream own_stream_ = nullptr;
  std::vector<CUevent> spare_events_; // record_event's pool
  CUevent spare_event(); // from the pool, or a new one (timing disabled)
  CUmemoryPool pool_ = nullptr; // the device's default pool; null: no pools
  // Whether work may have been queued on the stream since the last wait (set by every
  // call that queues; atomic: another context may free this one's cached blocks).
  std::atomic<bool> queued_{false};
  void queued() { queued_.store(true, std::memory_order_relaxed); }
  void wait(); // cuStreamSynchronize, clearing queued_
  // Pinned host memory for small copies to the host.
  void *staging_ = nullptr;
  static constexpr std::size_t kStagingBytes = 256;
  // time_ms's events, a pair per level of nesting.
  std::vector<std::pair<CUevent, CUevent>> events_;
  std::size_t timing_depth_ = 0;
  std::string name_;
  int cc_major_ = 0, cc_minor_ = 0, driver_version_ = 0, multiprocessors_ = 1;
  // Shared memory: an SM's, reserved by the system for each block, a block's at most.
  int shared_per_sm_ = 0, shared_reserved_ = 0, shared_optin_ = 0;
};

} // namespace kerb
