// A fake CUDA driver, libcuda.so.1 for tests on machines without a GPU: the entry points
// Kerb's runtime loads (runtime/cuda_driver.h), on host memory. Device pointers are host
// pointers; copies and memsets happen at once; kernels do not run (a launch only checks
// its function); events hold the host clock at their record. So the CUDA device's host
// side (runtime/cuda_device.cpp, cuda_exec.cpp, cuda_trace.cpp and generated host code)
// runs under CTest: what it calls, in which order, and how often (KERB_TRACE's counts).
// Results of programs are garbage, since no kernel runs. Each stream counts the work
// queued on it and the events it waited for, which fake_cuda_stream_ops() and
// fake_cuda_stream_waits() report (for the Python package's test of its streams,
// tests/python/fake_cuda_test.py), the legacy default stream (NULL) included, and
// fake_cuda_ctx_syncs() counts cuCtxSynchronize. A stream
// used after cuStreamDestroy (work, an event recorded or waited for, a synchronisation)
// is an error, as on a real driver where it may crash the process: the call fails with
// CUDA_ERROR_INVALID_HANDLE, says so on stderr, and fake_cuda_dead_stream_uses() counts
// it (destroyed streams' addresses are never reused, so that each stays recognisable).
// Compiled with cuda.h, so that each function gets the versioned name the header gives
// it (cuMemAlloc -> cuMemAlloc_v2).
#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>

namespace {

struct FakeEvent {
  std::chrono::steady_clock::time_point t;
  bool recorded = false;
};

int g_ctx_tag, g_module_tag, g_function_tag, g_pool_tag;

struct StreamCounts {
  long ops = 0, waits = 0;
};
// Never destroyed: a program's own statics (Kerb's CUDA device) call the driver while
// the process exits, after this library's statics would be gone.
std::mutex &g_mutex = *new std::mutex;
std::map<CUstream, StreamCounts> &g_streams = *new std::map<CUstream, StreamCounts>;
std::set<CUstream> &g_destroyed = *new std::set<CUstream>;
long g_dead_uses = 0;
long g_ctx_syncs = 0;

// CUDA_ERROR_INVALID_HANDLE, counted and reported, if `s` was destroyed (under g_mutex).
CUresult alive(CUstream s, const char *fn) {
  if (!g_destroyed.count(s)) return CUDA_SUCCESS;
  g_dead_uses++;
  std::fprintf(stderr, "fake CUDA: %s on stream %p after cuStreamDestroy\n", fn, static_cast<void *>(s));
  return CUDA_ERROR_INVALID_HANDLE;
}

// Counts one operation queued on `s` (an error if `s` is destroyed).
CUresult queued_on(CUstream s, const char *fn) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (CUresult r = alive(s, fn)) return r;
  g_streams[s].ops++;
  return CUDA_SUCCESS;
}

CUresult used(CUstream s, const char *fn) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return alive(s, fn);
}

CUresult copy(void *dst, const void *src, size_t n) {
  if (n && (!dst || !src)) return CUDA_ERROR_INVALID_VALUE;
  std::memmove(dst, src, n);
  return CUDA_SUCCESS;
}

template <typename T> CUresult set(CUdeviceptr dst, T v, size_t n) {
  T *p = reinterpret_cast<T *>(uintptr_t(dst));
  for (size_t i = 0; i < n; i++) p[i] = v;
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuDriverGetVersion(int *v) {
  *v = CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorName(CUresult, const char **s) {
  *s = "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorString(CUresult, const char **s) {
  *s = "an error of the fake driver";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGet(CUdevice *d, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetCount(int *n) {
  *n = 1;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "fake CUDA device", size_t(len));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) {
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: *v = 1; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 228 * 1024; break;
  case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 * 1024; break;
  default: *v = 0;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  *c = reinterpret_cast<CUcontext>(&g_ctx_tag);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSynchronize(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ctx_syncs++;
  return CUDA_SUCCESS;
}
// Not CUDA's: how many cuCtxSynchronize calls so far.
long fake_cuda_ctx_syncs() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_ctx_syncs;
}
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int, CUjit_option *,
                                    void **) {
  if (!image) return CUDA_ERROR_INVALID_VALUE;
  *m = reinterpret_cast<CUmodule>(&g_module_tag);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuModuleGetFunction(CUfunction *f, CUmodule, const char *) {
  *f = reinterpret_cast<CUfunction>(&g_function_tag);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *, size_t *, CUmodule, const char *) {
  return CUDA_ERROR_NOT_FOUND;
}
CUresult CUDAAPI cuFuncGetAttribute(int *v, CUfunction_attribute, CUfunction) {
  *v = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuFuncSetAttribute(CUfunction f, CUfunction_attribute, int) {
  return f ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *p, size_t n) {
  void *m = std::calloc(1, n ? n : 1);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = CUdeviceptr(uintptr_t(m));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemFree(CUdeviceptr p) {
  std::free(reinterpret_cast<void *>(uintptr_t(p)));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) {
  if (CUresult r = queued_on(s, "cuMemAllocAsync")) return r;
  return cuMemAlloc(p, n);
}
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr p, CUstream s) {
  if (CUresult r = queued_on(s, "cuMemFreeAsync")) return r;
  return cuMemFree(p);
}
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *p, CUdevice) {
  *p = reinterpret_cast<CUmemoryPool>(&g_pool_tag);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool, CUmemPool_attribute, void *) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool, CUmemPool_attribute, void *v) {
  *static_cast<cuuint64_t *>(v) = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool, size_t) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  return copy(reinterpret_cast<void *>(uintptr_t(d)), s, n);
}
CUresult CUDAAPI cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
  return copy(d, reinterpret_cast<const void *>(uintptr_t(s)), n);
}
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t n) {
  return copy(reinterpret_cast<void *>(uintptr_t(d)), reinterpret_cast<const void *>(uintptr_t(s)), n);
}
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st) {
  if (CUresult r = queued_on(st, "cuMemcpyHtoDAsync")) return r;
  return cuMemcpyHtoD(d, s, n);
}
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  if (CUresult r = queued_on(st, "cuMemcpyDtoDAsync")) return r;
  return cuMemcpyDtoD(d, s, n);
}
CUresult CUDAAPI cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream st) {
  if (CUresult r = queued_on(st, "cuMemcpyDtoHAsync")) return r;
  return cuMemcpyDtoH(d, s, n);
}
CUresult CUDAAPI cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) { return set(d, v, n); }
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
  if (CUresult r = used(s, "cuMemsetD16Async")) return r;
  return set(d, v, n);
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) {
  if (CUresult r = used(s, "cuMemsetD32Async")) return r;
  return set(d, v, n);
}
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  if (CUresult r = used(s, "cuMemsetD8Async")) return r;
  return set(d, v, n);
}
CUresult CUDAAPI cuMemHostAlloc(void **p, size_t n, unsigned int) {
  *p = std::calloc(1, n ? n : 1);
  return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult CUDAAPI cuMemFreeHost(void *p) {
  std::free(p);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned int) {
  *d = CUdeviceptr(uintptr_t(p));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                                unsigned int bx, unsigned int by, unsigned int bz, unsigned int,
                                CUstream s, void **, void **) {
  if (!f || !gx || !gy || !gz || !bx || !by || !bz) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = queued_on(s, "cuLaunchKernel")) return r;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamCreate(CUstream *s, unsigned int) {
  *s = reinterpret_cast<CUstream>(new int(0)); // a stream of its own
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream s) {
  // Not freed: the address stays the destroyed stream's.
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult r = alive(s, "cuStreamDestroy")) return r;
  g_destroyed.insert(s);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamWaitEvent(CUstream s, CUevent e, unsigned int) {
  if (!reinterpret_cast<FakeEvent *>(e)->recorded) return CUDA_ERROR_INVALID_HANDLE;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (CUresult r = alive(s, "cuStreamWaitEvent")) return r;
  g_streams[s].waits++;
  return CUDA_SUCCESS;
}
// Not CUDA's: how many calls named a stream after cuStreamDestroy.
long fake_cuda_dead_stream_uses() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dead_uses;
}
// Not CUDA's: the operations queued on `s` and the events it waited for, so far.
long fake_cuda_stream_ops(CUstream s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_streams[s].ops;
}
long fake_cuda_stream_waits(CUstream s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_streams[s].waits;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream s) { return used(s, "cuStreamSynchronize"); }
CUresult CUDAAPI cuEventCreate(CUevent *e, unsigned int) {
  *e = reinterpret_cast<CUevent>(new FakeEvent());
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent e) {
  delete reinterpret_cast<FakeEvent *>(e);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent e, CUstream s) {
  if (CUresult r = used(s, "cuEventRecord")) return r;
  auto *f = reinterpret_cast<FakeEvent *>(e);
  f->t = std::chrono::steady_clock::now();
  f->recorded = true;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuEventQuery(CUevent) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  auto *fa = reinterpret_cast<FakeEvent *>(a), *fb = reinterpret_cast<FakeEvent *>(b);
  if (!fa->recorded || !fb->recorded) return CUDA_ERROR_INVALID_HANDLE;
  *ms = std::chrono::duration<float, std::milli>(fb->t - fa->t).count();
  return CUDA_SUCCESS;
}

} // extern "C"
