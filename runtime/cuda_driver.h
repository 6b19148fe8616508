// The CUDA driver entry points Kerb uses, loaded once at run time with
// dlopen("libcuda.so.1") (Kerb never links libcuda, so it starts on machines without a
// driver). cuda.h renames many entry points to versioned symbols (cuMemAlloc ->
// cuMemAlloc_v2, ...); the table resolves exactly the names the header selects, and its
// members carry those names too, so `drv->cuMemAlloc(...)` calls the right version.
// Without KERB_HAVE_CUDA_H, cuda_driver() always returns null with a reason.
#pragma once

#include "runtime/cuda_api.h"

#include <stdexcept>
#include <string>

namespace kerb {

// A failed CUDA driver call (or a failure of the Kerb code around one).
class CudaError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct CudaDriver;

// The loaded driver table, or null with the reason in *why_not (if non-null): no CUDA
// support in this build, libcuda.so.1 not found, an entry point missing (driver older
// than the headers), or cuInit failing (e.g. no device). Loaded once; thread-safe.
const CudaDriver *cuda_driver(std::string *why_not);

#if defined(KERB_HAVE_CUDA_H)

// Every entry point Kerb uses, listed once. X(name) with `name` as written in code; the
// macros below resolve it to the versioned name cuda.h defines it as.
#define KERB_CUDA_DRIVER_ENTRY_POINTS(X)                                                  \
  X(cuInit)                                                                               \
  X(cuDriverGetVersion)                                                                   \
  X(cuGetErrorName)                                                                       \
  X(cuGetErrorString)                                                                     \
  X(cuDeviceGet)                                                                          \
  X(cuDeviceGetCount)                                                                     \
  X(cuDeviceGetName)                                                                      \
  X(cuDeviceGetAttribute)                                                                 \
  X(cuDevicePrimaryCtxRetain)                                                             \
  X(cuDevicePrimaryCtxRelease)                                                            \
  X(cuCtxSetCurrent)                                                                      \
  X(cuCtxSynchronize)                                                                     \
  X(cuModuleLoadDataEx)                                                                   \
  X(cuModuleUnload)                                                                       \
  X(cuModuleGetFunction)                                                                  \
  X(cuModuleGetGlobal)                                                                    \
  X(cuFuncGetAttribute)                                                                   \
  X(cuFuncSetAttribute)                                                                   \
  X(cuMemAlloc)                                                                           \
  X(cuMemFree)                                                                            \
  X(cuMemAllocAsync)                                                                      \
  X(cuMemFreeAsync)                                                                       \
  X(cuDeviceGetDefaultMemPool)                                                            \
  X(cuMemPoolSetAttribute)                                                                \
  X(cuMemPoolGetAttribute)                                                                \
  X(cuMemPoolTrimTo)                                                                      \
  X(cuMemcpyHtoD)                                                                         \
  X(cuMemcpyDtoH)                                                                         \
  X(cuMemcpyDtoD)                                                                         \
  X(cuMemcpyHtoDAsync)                                                                    \
  X(cuMemcpyDtoDAsync)                                                                    \
  X(cuMemcpyDtoHAsync)                                                                    \
  X(cuMemsetD8)                                                                           \
  X(cuMemsetD16Async)                                                                     \
  X(cuMemsetD32Async)                                                                     \
  X(cuMemsetD8Async)                                                                      \
  X(cuMemHostAlloc)                                                                       \
  X(cuMemFreeHost)                                                                        \
  X(cuMemHostGetDevicePointer)                                                            \
  X(cuLaunchKernel)                                                                       \
  X(cuStreamCreate)                                                                       \
  X(cuStreamDestroy)                                                                      \
  X(cuStreamSynchronize)                                                                  \
  X(cuEventCreate)                                                                        \
  X(cuEventDestroy)                                                                       \
  X(cuEventRecord)                                                                        \
  X(cuEventSynchronize)                                                                   \
  X(cuEventQuery)                                                                         \
  X(cuStreamWaitEvent)                                                                    \
  X(cuEventElapsedTime)

// Indirection so that `name` is macro-expanded (cuMemAlloc -> cuMemAlloc_v2) first.
#define KERB_CUDA_DRIVER_MEMBER_(sym) decltype(&::sym) sym = nullptr;
#define KERB_CUDA_DRIVER_MEMBER(name) KERB_CUDA_DRIVER_MEMBER_(name)

struct CudaDriver {
  KERB_CUDA_DRIVER_ENTRY_POINTS(KERB_CUDA_DRIVER_MEMBER)
};

// KERB_TRACE (set when the driver is loaded): cuda_driver() returns a table whose every
// entry point counts its calls before it calls the driver's; cuda_driver_uncounted()
// is the driver's own table (the trace's own calls go through it, so that the counts
// are the runtime's). Counts are process-wide: the total, or one entry point's by its
// name as written in code ("cuLaunchKernel"); 0 when counting is off.
bool cuda_driver_counting();
unsigned long long cuda_driver_calls();
unsigned long long cuda_driver_calls(const char *name);
const CudaDriver *cuda_driver_uncounted();
// Every entry point's name and count so far (those called at least once).
std::string cuda_driver_call_counts();

// "CUDA_ERROR_XXX (description)", or "CUDA error <n>" if the driver is not loaded.
std::string cuda_error_text(CUresult r);

// Throws CudaError "CUDA error CUDA_ERROR_XXX (description) in <call> at <file>:<line>".
[[noreturn]] void cuda_fail(CUresult r, const char *call, const char *file, int line,
                            const std::string &extra = {});

inline void cuda_check(CUresult r, const char *call, const char *file, int line) {
  if (r != CUDA_SUCCESS) cuda_fail(r, call, file, line);
}

// Checks a CUresult-returning call: KERB_CU(drv->cuMemAlloc(&p, n));
#define KERB_CU(call) ::kerb::cuda_check((call), #call, __FILE__, __LINE__)

#endif // KERB_HAVE_CUDA_H

} // namespace kerb
