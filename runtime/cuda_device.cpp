// CudaDevice and CudaModule (see cuda_device.h), on the driver table of cuda_driver.h.
// Without KERB_HAVE_CUDA_H only stubs are compiled: open() reports "no CUDA support".
#include "runtime/cuda_device.h"

#include <algorithm>
#include <utility>

#if defined(KERB_HAVE_CUDA_H)
#include <fmt/format.h>

#include <cstring>
#endif

namespace kerb {

// ---- CudaModule -------------------------------------------------------------------

CudaModule::CudaModule(const CudaDriver *driver, CUcontext ctx, CUmodule module,
                       std::string info_log)
    : driver_(driver), ctx_(ctx), module_(module), info_log_(std::move(info_log)) {}

CudaModule::CudaModule(CudaModule &&other) noexcept
    : driver_(std::exchange(other.driver_, nullptr)), ctx_(std::exchange(other.ctx_, nullptr)),
      module_(std::exchange(other.module_, nullptr)), info_log_(std::move(other.info_log_)) {}

CudaModule &CudaModule::operator=(CudaModule &&other) noexcept {
  if (this != &other) {
    reset();
    driver_ = std::exchange(other.driver_, nullptr);
    ctx_ = std::exchange(other.ctx_, nullptr);
    module_ = std::exchange(other.module_, nullptr);
    info_log_ = std::move(other.info_log_);
  }
  return *this;
}

CudaModule::~CudaModule() { reset(); }

#if defined(KERB_HAVE_CUDA_H)
namespace {
// The context Kerb made current on this thread inside the entry call running on it
// (null: none known; outside calls, user code may change it at any time).
thread_local bool t_in_call = false;
thread_local CUcontext t_current = nullptr;
// Every cuCtxSetCurrent outside make_current() goes through here.
void set_current(const CudaDriver *d, CUcontext ctx) {
  t_current = nullptr;
  d->cuCtxSetCurrent(ctx);
}
} // namespace
#endif

void CudaModule::reset() noexcept {
#if defined(KERB_HAVE_CUDA_H)
  if (module_ && driver_) {
    // Errors are ignored: destructors never throw.
    set_current(driver_, ctx_);
    driver_->cuModuleUnload(module_);
  }
#endif
  driver_ = nullptr;
  ctx_ = nullptr;
  module_ = nullptr;
}

#if defined(KERB_HAVE_CUDA_H)

// ---- CudaDevice -------------------------------------------------------------------

int CudaDevice::device_count(std::string *why_not) {
  const CudaDriver *d = cuda_driver(why_not);
  if (!d) return 0;
  int n = 0;
  CUresult r = d->cuDeviceGetCount(&n);
  if (r != CUDA_SUCCESS) {
    if (why_not) *why_not = "cuDeviceGetCount failed: " + cuda_error_text(r);
    return 0;
  }
  if (n == 0 && why_not) *why_not = "no CUDA device found";
  return n;
}

std::unique_ptr<CudaDevice> CudaDevice::open(int ordinal, std::string *why_not) {
  std::string reason;
  int n = device_count(&reason);
  if (n == 0) {
    if (why_not) *why_not = reason;
    return nullptr;
  }
  if (ordinal < 0 || ordinal >= n) {
    if (why_not)
      *why_not = fmt::format("there is no CUDA device {} (found {} device{})", ordinal, n,
                             n == 1 ? "" : "s");
    return nullptr;
  }
  std::unique_ptr<CudaDevice> dev(new CudaDevice());
  try {
    const CudaDriver *d = cuda_driver(nullptr);
    dev->driver_ = d;
    dev->ordinal_ = ordinal;
    KERB_CU(d->cuDeviceGet(&dev->device_, ordinal));
    char name[256] = {};
    KERB_CU(d->cuDeviceGetName(name, sizeof name - 1, dev->device_));
    dev->name_ = name;
    KERB_CU(d->cuDeviceGetAttribute(&dev->cc_major_,
                                    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                    dev->device_));
    KERB_CU(d->cuDeviceGetAttribute(&dev->cc_minor_,
                                    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                    dev->device_));
    KERB_CU(d->cuDeviceGetAttribute(&dev->multiprocessors_, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                    dev->device_));
    KERB_CU(d->cuDeviceGetAttribute(&dev->shared_per_sm_,
                                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                                    dev->device_));
    KERB_CU(d->cuDeviceGetAttribute(&dev->shared_reserved_,
                                    CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, dev->device_));
    KERB_CU(d->cuDeviceGetAttribute(&dev->shared_optin_,
                                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev->device_));
    KERB_CU(d->cuDriverGetVersion(&dev->driver_version_));
    KERB_CU(d->cuDevicePrimaryCtxRetain(&dev->ctx_, dev->device_));
    t_current = nullptr;
    KERB_CU(d->cuCtxSetCurrent(dev->ctx_));
    KERB_CU(d->cuStreamCreate(&dev->own_stream_, CU_STREAM_NON_BLOCKING));
    dev->stream_ = dev->own_stream_;
    int pools = 0;
    KERB_CU(d->cuDeviceGetAttribute(&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                                    dev->device_));
    if (pools) {
      KERB_CU(d->cuDeviceGetDefaultMemPool(&dev->pool_, dev->device_));
      // Keep freed memory in the pool: entry calls allocate and free the same sizes
      // again and again.
      cuuint64_t keep = ~cuuint64_t(0);
      KERB_CU(d->cuMemPoolSetAttribute(dev->pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    }
    KERB_CU(d->cuMemHostAlloc(&dev->staging_, kStagingBytes, CU_MEMHOSTALLOC_PORTABLE));
  } catch (const CudaError &e) {
    if (why_not) *why_not = fmt::format("cannot open CUDA device {}: {}", ordinal, e.what());
    return nullptr; // ~CudaDevice releases what was set up
  }
  return dev;
}

CudaDevice::~CudaDevice() {
  // Errors are ignored: destructors never throw.
  if (!driver_ || !ctx_) return;
  const CudaDriver *d = driver_;
  set_current(d, ctx_);
  if (stream_ != own_stream_) d->cuStreamSynchronize(stream_);
  if (own_stream_) d->cuStreamSynchronize(own_stream_);
  for (auto &[start, stop] : events_) {
    d->cuEventDestroy(start);
    d->cuEventDestroy(stop);
  }
  for (CUevent e : spare_events_) d->cuEventDestroy(e);
  if (staging_) d->cuMemFreeHost(staging_);
  if (own_stream_) d->cuStreamDestroy(own_stream_);
  set_current(d, nullptr);
  d->cuDevicePrimaryCtxRelease(device_);
}

std::string CudaDevice::describe() const {
  return fmt::format("{} (device {}, compute capability {}.{}, driver {}.{})", name_,
                     ordinal_, cc_major_, cc_minor_, driver_version_ / 1000,
                     driver_version_ % 1000 / 10);
}

void CudaDevice::make_current() const {
  if (t_in_call && t_current == ctx_) return;
  t_current = nullptr;
  KERB_CU(driver_->cuCtxSetCurrent(ctx_));
  if (t_in_call) t_current = ctx_;
}

void CudaDevice::enter_call() {
  t_in_call = true;
  t_current = nullptr;
}

void CudaDevice::leave_call() {
  t_in_call = false;
  t_current = nullptr;
}

namespace {

// The text the JIT wrote into `buf`, without trailing NULs and white space.
std::string log_text(const std::string &buf) {
  std::string s(buf.data(), strnlen(buf.data(), buf.size()));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
    s.pop_back();
  return s;
}

} // namespace

CudaModule CudaDevice::load_module(const std::string &ptx) {
  make_current();
  constexpr std::size_t log_size = 64 * 1024;
  std::string error_log(log_size, '\0'), info_log(log_size, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {error_log.data(), reinterpret_cast<void *>(std::uintptr_t{log_size - 1}),
                    info_log.data(), reinterpret_cast<void *>(std::uintptr_t{log_size - 1})};
  CUmodule module = nullptr;
  CUresult r = driver_->cuModuleLoadDataEx(&module, ptx.c_str(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    std::string err = log_text(error_log), info = log_text(info_log);
    std::string extra = "JIT error log:\n" + (err.empty() ? std::string("(empty)") : err);
    if (!info.empty()) extra += "\nJIT info log:\n" + info;
    cuda_fail(r, "cuModuleLoadDataEx(&module, ptx, ...)", __FILE__, __LINE__, extra);
  }
  return CudaModule(driver_, ctx_, module, log_text(info_log));
}

CUfunction CudaDevice::function(const CudaModule &module, const std::string &name) {
  make_current();
  CUfunction f = nullptr;
  CUresult r = driver_->cuModuleGetFunction(&f, module.get(), name.c_str());
  if (r != CUDA_SUCCESS) {
    std::string call = fmt::format("cuModuleGetFunction(&f, module, \"{}\")", name);
    cuda_fail(r, call.c_str(), __FILE__, __LINE__);
  }
  return f;
}

namespace {

// cuMemAlloc in the current context. Out of memory gives 0 when `oom_ok`; every other
// failure throws.
CUdeviceptr mem_alloc(const CudaDriver *d, std::size_t bytes, bool oom_ok) {
  CUdeviceptr p = 0;
  CUresult r = d->cuMemAlloc(&p, bytes);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && oom_ok) return 0;
  if (r != CUDA_SUCCESS) {
    std::string call = fmt::format("cuMemAlloc(&p, {} bytes)", bytes);
    cuda_fail(r, call.c_str(), __FILE__, __LINE__);
  }
  return p;
}

} // namespace

CUdeviceptr CudaDevice::alloc(std::size_t bytes) {
  if (bytes == 0) return 0;
  make_current();
  return mem_alloc(driver_, bytes, false);
}

void CudaDevice::free(CUdeviceptr ptr) {
  if (ptr == 0) return;
  make_current();
  KERB_CU(driver_->cuMemFree(ptr));
}

CUdeviceptr CudaDevice::alloc_async(std::size_t bytes) {
  if (bytes == 0) return 0;
  make_current();
  if (!pool_) return mem_alloc(driver_, bytes, true);
  CUdeviceptr p = 0;
  queued();
  CUresult r = driver_->cuMemAllocAsync(&p, bytes, stream_);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    // Memory freed on other streams or cached elsewhere: wait, trim, and try once more.
    KERB_CU(driver_->cuStreamSynchronize(stream_));
    KERB_CU(driver_->cuMemPoolTrimTo(pool_, 0));
    r = driver_->cuMemAllocAsync(&p, bytes, stream_);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) return 0;
  }
  if (r != CUDA_SUCCESS) {
    std::string call = fmt::format("cuMemAllocAsync(&p, {} bytes, stream)", bytes);
    cuda_fail(r, call.c_str(), __FILE__, __LINE__);
  }
  return p;
}

void CudaDevice::free_async(CUdeviceptr ptr) {
  if (ptr == 0) return;
  make_current();
  if (!pool_) {
    KERB_CU(driver_->cuMemFree(ptr));
    return;
  }
  queued();
  KERB_CU(driver_->cuMemFreeAsync(ptr, stream_));
}

void *CudaDevice::alloc_mapped_host(std::size_t bytes, CUdeviceptr *device_ptr) {
  make_current();
  void *host = nullptr;
  KERB_CU(driver_->cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CUresult r = driver_->cuMemHostGetDevicePointer(device_ptr, host, 0);
  if (r != CUDA_SUCCESS) {
    driver_->cuMemFreeHost(host);
    cuda_fail(r, "cuMemHostGetDevicePointer(device_ptr, host, 0)", __FILE__, __LINE__);
  }
  return host;
}

void CudaDevice::free_host(void *host) {
  if (!host) return;
  make_current();
  KERB_CU(driver_->cuMemFreeHost(host));
}

void CudaDevice::trim_pool() {
  make_current();
  wait();
  if (pool_) KERB_CU(driver_->cuMemPoolTrimTo(pool_, 0));
}

std::int64_t CudaDevice::pool_reserved() const {
  if (!pool_) return -1;
  make_current();
  cuuint64_t v = 0;
  KERB_CU(driver_->cuMemPoolGetAttribute(pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
  return std::int64_t(v);
}

void CudaDevice::copy_to_device(CUdeviceptr dst, const void *src, std::size_t bytes) {
  if (bytes == 0) return;
  make_current();
  queued();
  KERB_CU(driver_->cuMemcpyHtoDAsync(dst, src, bytes, stream_));
}

void CudaDevice::copy_on_device(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes) {
  if (bytes == 0) return;
  make_current();
  queued();
  KERB_CU(driver_->cuMemcpyDtoDAsync(dst, src, bytes, stream_));
}

void CudaDevice::copy_to_host(void *dst, CUdeviceptr src, std::size_t bytes,
                              const std::function<void()> &queued) {
  if (bytes == 0) return;
  make_current();
  bool small = bytes <= kStagingBytes && staging_;
  KERB_CU(driver_->cuMemcpyDtoHAsync(small ? staging_ : dst, src, bytes, stream_));
  if (queued) queued();
  wait();
  if (small) std::memcpy(dst, staging_, bytes);
}

void CudaDevice::wait() {
  // The wait covers everything queued before it.
  queued_.store(false, std::memory_order_relaxed);
  CUresult r = driver_->cuStreamSynchronize(stream_);
  if (r != CUDA_SUCCESS) {
    queued();
    cuda_fail(r, "cuStreamSynchronize(stream)", __FILE__, __LINE__);
  }
}

CUevent CudaDevice::spare_event() {
  make_current();
  CUevent e = nullptr;
  if (!spare_events_.empty()) {
    e = spare_events_.back();
    spare_events_.pop_back();
  } else {
    KERB_CU(driver_->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
  }
  return e;
}

CUevent CudaDevice::record_event() {
  CUevent e = spare_event();
  CUresult r = driver_->cuEventRecord(e, stream_);
  if (r != CUDA_SUCCESS) {
    spare_events_.push_back(e);
    cuda_fail(r, "cuEventRecord(event, stream)", __FILE__, __LINE__);
  }
  return e;
}

bool CudaDevice::event_done(CUevent e) {
  make_current();
  CUresult r = driver_->cuEventQuery(e);
  if (r == CUDA_ERROR_NOT_READY) return false;
  KERB_CU(r);
  return true;
}

void CudaDevice::recycle_event(CUevent e) { spare_events_.push_back(e); }

void CudaDevice::order_stream(CUstream consumer) {
  if (consumer == stream_ || !queued_.load(std::memory_order_relaxed)) return;
  CUevent e = record_event();
  CUresult r = driver_->cuStreamWaitEvent(consumer, e, 0);
  recycle_event(e);
  if (r != CUDA_SUCCESS) cuda_fail(r, "cuStreamWaitEvent(consumer, event, 0)", __FILE__, __LINE__);
}

void CudaDevice::wait_for_stream(CUstream producer) {
  if (producer == stream_) return;
  CUevent e = spare_event();
  CUresult r = driver_->cuEventRecord(e, producer);
  if (r == CUDA_SUCCESS) r = driver_->cuStreamWaitEvent(stream_, e, 0);
  recycle_event(e);
  if (r != CUDA_SUCCESS) cuda_fail(r, "cuStreamWaitEvent(stream, producer's event, 0)", __FILE__, __LINE__);
  queued();
}

void CudaDevice::set_stream(CUstream s) {
  if (s == stream_) return;
  order_stream(s);
  stream_ = s;
}

void CudaDevice::memset32(CUdeviceptr dst, std::uint32_t value, std::size_t count) {
  if (count == 0) return;
  make_current();
  queued();
  KERB_CU(driver_->cuMemsetD32Async(dst, value, count, stream_));
}

void CudaDevice::fill(CUdeviceptr dst, std::uint32_t value, int elem_bytes, std::size_t count) {
  if (count == 0) return;
  make_current();
  queued();
  switch (elem_bytes) {
  case 1: KERB_CU(driver_->cuMemsetD8Async(dst, static_cast<unsigned char>(value), count, stream_)); return;
  case 2: KERB_CU(driver_->cuMemsetD16Async(dst, static_cast<unsigned short>(value), count, stream_)); return;
  case 4: KERB_CU(driver_->cuMemsetD32Async(dst, value, count, stream_)); return;
  default: throw CudaError(fmt::format("fill: no {}-byte memset", elem_bytes));
  }
}

void CudaDevice::launch(CUfunction f, Dim3 grid, Dim3 block, unsigned shared_bytes,
                        void **args) {
  make_current();
  queued();
  KERB_CU(driver_->cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                  shared_bytes, stream_, args, nullptr));
}

unsigned CudaDevice::bound_blocks_per_sm(CUfunction f, unsigned blocks) {
  if (blocks == 0) return 0;
  make_current();
  // The SM splits its memory between shared memory and the L1 in steps (on the H100 0,
  // 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB shared of 256), taking the smallest
  // step that holds what the carveout preference asks for. A block takes `unit` bytes
  // of kBoundShared, so that `blocks` fit and one more does not, and the preference asks
  // for just those: the L1 keeps the rest (224 KB on the H100). Note [Loops over rows,
  // fewer threads] in codegen/extract_kernels.cpp has the measurements.
  std::int64_t share = std::min<std::int64_t>(shared_per_sm_, kBoundShared);
  int unit = int(share / blocks / 128 * 128);
  if (std::int64_t(unit) * (blocks + 1) <= share) return 0;
  int fixed = 0;
  KERB_CU(driver_->cuFuncGetAttribute(&fixed, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  int bytes = unit - shared_reserved_ - fixed;
  if (bytes <= 0 || bytes + fixed > shared_optin_) return 0;
  KERB_CU(driver_->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
  // In whole percent of the SM's shared memory, rounded down: the step is the next up.
  int percent = int(std::int64_t(unit) * blocks * 100 / shared_per_sm_);
  KERB_CU(driver_->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent));
  return unsigned(bytes);
}

void CudaDevice::synchronize() {
  // Nothing queued since the last wait: nothing to wait for (an entry call that read a
  // scalar back has waited already).
  if (!queued_.load(std::memory_order_relaxed)) return;
  make_current();
  wait();
}

void CudaDevice::synchronize_all() {
  make_current();
  queued_.store(false, std::memory_order_relaxed); // the stream's work is covered too
  CUresult r = driver_->cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    queued();
    cuda_fail(r, "cuCtxSynchronize()", __FILE__, __LINE__);
  }
}

float CudaDevice::time_ms(const std::function<void()> &work) {
  make_current();
  // A pair of events per level of nesting (a timed entry call whose launches are timed
  // too, with KERB_PROFILE=1), made once.
  if (timing_depth_ == events_.size()) {
    CUevent start = nullptr, stop = nullptr;
    KERB_CU(driver_->cuEventCreate(&start, CU_EVENT_DEFAULT));
    CUresult r = driver_->cuEventCreate(&stop, CU_EVENT_DEFAULT);
    if (r != CUDA_SUCCESS) {
      driver_->cuEventDestroy(start);
      cuda_fail(r, "cuEventCreate(&stop, CU_EVENT_DEFAULT)", __FILE__, __LINE__);
    }
    events_.emplace_back(start, stop);
  }
  auto [start, stop] = events_[timing_depth_];
  struct Level {
    std::size_t &depth;
    ~Level() { depth--; }
  } level{++timing_depth_};
  KERB_CU(driver_->cuEventRecord(start, stream_));
  work();
  KERB_CU(driver_->cuEventRecord(stop, stream_));
  KERB_CU(driver_->cuEventSynchronize(stop));
  // Everything queued before `stop` has finished (work queued after it by another
  // thread sets the flag again).
  queued_.store(false, std::memory_order_relaxed);
  float ms = 0;
  KERB_CU(driver_->cuEventElapsedTime(&ms, start, stop));
  return ms;
}

#else // !KERB_HAVE_CUDA_H: no CudaDevice can exist; every method is unreachable.

namespace {
[[noreturn]] void no_cuda() {
  std::string why;
  cuda_driver(&why);
  throw CudaError(why);
}
} // namespace

int CudaDevice::device_count(std::string *why_not) {
  cuda_driver(why_not);
  return 0;
}

std::unique_ptr<CudaDevice> CudaDevice::open(int, std::string *why_not) {
  cuda_driver(why_not);
  return nullptr;
}

CudaDevice::~CudaDevice() = default;
std::string CudaDevice::describe() const { no_cuda(); }
void CudaDevice::make_current() const { no_cuda(); }
void CudaDevice::enter_call() { no_cuda(); }
void CudaDevice::leave_call() { no_cuda(); }
CudaModule CudaDevice::load_module(const std::string &) { no_cuda(); }
CUfunction CudaDevice::function(const CudaModule &, const std::string &) { no_cuda(); }
CUdeviceptr CudaDevice::alloc(std::size_t) { no_cuda(); }
void CudaDevice::free(CUdeviceptr) { no_cuda(); }
CUdeviceptr CudaDevice::alloc_async(std::size_t) { no_cuda(); }
void CudaDevice::free_async(CUdeviceptr) { no_cuda(); }
void *CudaDevice::alloc_mapped_host(std::size_t, CUdeviceptr *) { no_cuda(); }
void CudaDevice::free_host(void *) { no_cuda(); }
void CudaDevice::trim_pool() { no_cuda(); }
std::int64_t CudaDevice::pool_reserved() const { no_cuda(); }
void CudaDevice::copy_to_device(CUdeviceptr, const void *, std::size_t) { no_cuda(); }
void CudaDevice::copy_to_host(void *, CUdeviceptr, std::size_t, const std::function<void()> &) {
  no_cuda();
}
void CudaDevice::copy_on_device(CUdeviceptr, CUdeviceptr, std::size_t) { no_cuda(); }

void CudaDevice::memset32(CUdeviceptr, std::uint32_t, std::size_t) { no_cuda(); }
void CudaDevice::fill(CUdeviceptr, std::uint32_t, int, std::size_t) { no_cuda(); }
void CudaDevice::launch(CUfunction, Dim3, Dim3, unsigned, void **) { no_cuda(); }
unsigned CudaDevice::bound_blocks_per_sm(CUfunction, unsigned) { no_cuda(); }
void CudaDevice::synchronize() { no_cuda(); }
void CudaDevice::synchronize_all() { no_cuda(); }
void CudaDevice::set_stream(CUstream) { no_cuda(); }
void CudaDevice::order_stream(CUstream) { no_cuda(); }
void CudaDevice::wait_for_stream(CUstream) { no_cuda(); }
CUevent CudaDevice::record_event() { no_cuda(); }
bool CudaDevice::event_done(CUevent) { no_cuda(); }
void CudaDevice::recycle_event(CUevent) { no_cuda(); }
float CudaDevice::time_ms(const std::function<void()> &) { no_cuda(); }

#endif

} // namespace kerb
