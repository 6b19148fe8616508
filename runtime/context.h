// C++ access to a C API context (include/kerb/kerb.h) for Kerb's own tools: `kerb run`
// runs JIT-compiled programs through the same contexts that compiled libraries use, and
// needs the error of a call in structured form (a check failure's kind, message and
// location apart) rather than as text.
#pragma once

#include "runtime/exec_context.h"

#include <functional>
#include <optional>
#include <string>

struct kerb_context;
struct kerb_context_config;

namespace kerb {

struct ContextError {
  int code = 0;                   // KERB_SUCCESS when there was none
  std::optional<Failure> failure; // set when a check failed
  std::string message;            // what kerb_context_get_error() would return
};

// Takes (and clears) the context's last error.
ContextError take_context_error(kerb_context *ctx);

// Runs `work` (calls on `ctx`) and returns the time the context's device took for it
// (Device::time_ms: CUDA events on its stream, or a steady clock). Throws
// std::runtime_error if the context is not alive or a device call fails.
double time_on_device(kerb_context *ctx, const std::function<void()> &work);

// A context's memory counters (kerb_context_report's): device allocations it made (not
// taken from its cache), and the bytes the CUDA device's pool holds (-1: no pool).
struct ContextMemory {
  int64_t fresh_allocations = 0;
  int64_t pool_reserved_bytes = -1;
};
// Throws std::runtime_error if the context is not alive or did not start.
ContextMemory context_memory(kerb_context *ctx);

} // namespace kerb
