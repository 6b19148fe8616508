// Loading of the CUDA driver table (see cuda_driver.h) and CUDA error messages.
#include "runtime/cuda_driver.h"

#if defined(KERB_HAVE_CUDA_H)

#include <dlfcn.h>
#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace kerb {

namespace {

#define KERB_CUDA_STR_(x) #x
#define KERB_CUDA_STR(x) KERB_CUDA_STR_(x)

struct Loaded {
  CudaDriver table;   // the driver's entry points
  CudaDriver counted; // KERB_TRACE: each counts its calls, then calls table's
  const CudaDriver *driver = nullptr;
  bool counting = false;
  std::string why_not;
};

// The entry points' numbers and names (as written in code), for the counts.
#define KERB_CUDA_ENUM(name) e_##name,
enum EntryPoint { KERB_CUDA_DRIVER_ENTRY_POINTS(KERB_CUDA_ENUM) kNumEntryPoints };
#undef KERB_CUDA_ENUM
#define KERB_CUDA_NAME(name) #name,
const char *const kEntryNames[] = {KERB_CUDA_DRIVER_ENTRY_POINTS(KERB_CUDA_NAME)};
#undef KERB_CUDA_NAME

std::atomic<unsigned long long> g_counts[kNumEntryPoints];

const Loaded &loaded();

Loaded load() {
  Loaded l;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    l.why_not = fmt::format("cannot load the CUDA driver library libcuda.so.1 ({})",
                            e ? e : "unknown dlopen error");
    return l;
  }
  std::string missing;
  // sym is already the versioned name (e.g. cuMemAlloc_v2).
#define KERB_CUDA_LOAD_(sym)                                                              \
  l.table.sym = reinterpret_cast<decltype(l.table.sym)>(dlsym(lib, KERB_CUDA_STR(sym))); \
  if (!l.table.sym) missing += (missing.empty() ? "" : ", ") + std::string(KERB_CUDA_STR(sym));
#define KERB_CUDA_LOAD(name) KERB_CUDA_LOAD_(name)
  KERB_CUDA_DRIVER_ENTRY_POINTS(KERB_CUDA_LOAD)
#undef KERB_CUDA_LOAD
#undef KERB_CUDA_LOAD_
  if (!missing.empty()) {
    // The library stays loaded (cheap; unloading a driver is never worth the risk).
    l.why_not = fmt::format("the CUDA driver libcuda.so.1 lacks entry points Kerb needs "
                            "(driver older than the CUDA {}.{} headers Kerb was built "
                            "with?): {}",
                            CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10, missing);
    return l;
  }
  CUresult r = l.table.cuInit(0);
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr, *desc = nullptr;
    if (l.table.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
    if (l.table.cuGetErrorString(r, &desc) != CUDA_SUCCESS) desc = nullptr;
    l.why_not = name ? fmt::format("cuInit failed: {} ({})", name, desc ? desc : "no description")
                     : fmt::format("cuInit failed with CUDA error {}{}", static_cast<int>(r),
                                   r == CUDA_ERROR_STUB_LIBRARY
                                       ? " (CUDA_ERROR_STUB_LIBRARY: libcuda.so.1 is the "
                                         "toolkit's stub, not a real driver)"
                                       : "");
    return l;
  }
  l.driver = &l.table;
  const char *trace = std::getenv("KERB_TRACE");
  if (trace && *trace && std::strcmp(trace, "0") != 0) {
    // A captureless generic lambda converts to the entry point's pointer type.
#define KERB_CUDA_COUNT_(sym, name)                                                       \
  l.counted.sym = [](auto... a) {                                                         \
    g_counts[name].fetch_add(1, std::memory_order_relaxed);                           \
    return loaded().table.sym(a...);                                                      \
  };
#define KERB_CUDA_COUNT(name) KERB_CUDA_COUNT_(name, e_##name)
    KERB_CUDA_DRIVER_ENTRY_POINTS(KERB_CUDA_COUNT)
#undef KERB_CUDA_COUNT
#undef KERB_CUDA_COUNT_
    l.counting = true;
    l.driver = &l.counted;
  }
  return l;
}

const Loaded &loaded() {
  static const Loaded l = load(); // thread-safe one-time initialisation
  return l;
}

} // namespace

const CudaDriver *cuda_driver(std::string *why_not) {
  const Loaded &l = loaded();
  if (!l.driver && why_not) *why_not = l.why_not;
  return l.driver;
}

bool cuda_driver_counting() { return loaded().counting; }

unsigned long long cuda_driver_calls() {
  unsigned long long n = 0;
  for (const auto &c : g_counts) n += c.load(std::memory_order_relaxed);
  return n;
}

unsigned long long cuda_driver_calls(const char *name) {
  for (int i = 0; i < kNumEntryPoints; i++)
    if (std::strcmp(kEntryNames[i], name) == 0) return g_counts[i].load(std::memory_order_relaxed);
  return 0;
}

const CudaDriver *cuda_driver_uncounted() {
  const Loaded &l = loaded();
  return l.driver ? &l.table : nullptr;
}

std::string cuda_driver_call_counts() {
  std::string s;
  for (int i = 0; i < kNumEntryPoints; i++)
    if (unsigned long long n = g_counts[i].load(std::memory_order_relaxed))
      s += fmt::format("{}{} {}", s.empty() ? "" : ", ", kEntryNames[i], n);
  return s;
}

std::string cuda_error_text(CUresult r) {
  const CudaDriver *d = cuda_driver(nullptr);
  const char *name = nullptr, *desc = nullptr;
  if (d) {
    if (d->cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
    if (d->cuGetErrorString(r, &desc) != CUDA_SUCCESS) desc = nullptr;
  }
  if (!name) return fmt::format("CUDA error {}", static_cast<int>(r));
  return fmt::format("{} ({})", name, desc ? desc : "no description");
}

void cuda_fail(CUresult r, const char *call, const char *file, int line,
               const std::string &extra) {
  std::string msg = fmt::format("CUDA error {} in {} at {}:{}", cuda_error_text(r), call,
                                file, line);
  if (!extra.empty()) msg += "\n" + extra;
  throw CudaError(msg);
}

} // namespace kerb

#else // !KERB_HAVE_CUDA_H

namespace kerb {

const CudaDriver *cuda_driver(std::string *why_not) {
  if (why_not)
    *why_not = "this build of Kerb has no CUDA support (cuda.h was not found at build time)";
  return nullptr;
}

} // namespace kerb

#endif
