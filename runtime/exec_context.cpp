// The execution context and the C functions that generated host code calls (see
// exec_context.h and device_abi.h).
#include "runtime/exec_context.h"

#include <fmt/format.h>

#include <cstring>

namespace kerb {

ExecContext::ExecContext(Device &device, const FailureTable &table)
    : device_(device), table_(table) {
  slot_ = device_.alloc(int64_t(sizeof(FailureSlot)));
  FailureSlot clear{};
  clear.code = -1;
  device_.write(slot_, &clear, int64_t(sizeof clear));
}

ExecContext::~ExecContext() {
  try {
    end_call();
    device_.free(slot_);
  } catch (...) {
    // Never throw from a destructor; the device is going away anyway.
  }
}

void ExecContext::end_call() {
  for (int64_t a : call_memory_) device_.free(a);
  call_memory_.clear();
}

int32_t ExecContext::device_error(const std::exception &e) {
  error = e.what();
  return 1;
}

int64_t ExecContext::alloc(int64_t bytes) {
  try {
    int64_t a = device_.alloc(bytes < 1 ? 1 : bytes);
    call_memory_.push_back(a);
    return a;
  } catch (const std::exception &e) {
    device_error(e);
    return 0;
  }
}

int32_t ExecContext::launch(int kernel, int64_t total, const int64_t *slots, int num_slots) {
  if (total <= 0) return 0;
  try {
    device_.launch(kernel, total, slots, num_slots);
    kernel_ran_ = true;
    return 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

int32_t ExecContext::read(void *dst, int64_t src, int64_t bytes) {
  try {
    if (int32_t st = sync_check()) return st;
    device_.read(dst, src, bytes);
    return 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

int32_t ExecContext::write(int64_t dst, const void *src, int64_t bytes) {
  try {
    device_.write(dst, src, bytes);
    return 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

int32_t ExecContext::copy(int64_t dst, int64_t src, int64_t bytes) {
  if (bytes <= 0) return 0;
  try {
    device_.copy(dst, src, bytes);
    return 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

void ExecContext::record(int32_t code, const int64_t *args, int num_args) {
  Failure f;
  if (code < 0 || size_t(code) >= table_.records.size()) {
    f.kind = FailureKind::Assert;
    f.message = code == kFailureScratch
                    ? std::string("internal error: a kernel needed more scratch memory than "
                                  "planned (please report)")
                    : fmt::format("unknown failure code {}", code);
    failure = f;
    return;
  }
  const FailureRecord &r = table_.records[size_t(code)];
  f.kind = r.kind;
  f.message = format_failure_message(r, std::vector<int64_t>(args, args + num_args));
  f.location = r.location;
  failure = f;
}

int32_t ExecContext::fail(int32_t code, const int64_t *args, int32_t num_args) {
  // A host-side check: kernels launched before it may have failed first.
  if (int32_t st = sync_check()) return st;
  record(code, args, num_args);
  return 1;
}

int32_t ExecContext::sync_check() {
  if (!kernel_ran_) return 0;
  kernel_ran_ = false;
  FailureSlot s;
  device_.read(&s, slot_, int64_t(sizeof s));
  if (s.code == -1) return 0;
  const FailureRecord *r =
      s.code >= 0 && size_t(s.code) < table_.records.size() ? &table_.records[size_t(s.code)] : nullptr;
  int n = r ? int(r->arg_types.size()) : 0;
  record(s.code, s.args, std::min(n, kFailureMaxArgs));
  FailureSlot clear{};
  clear.code = -1;
  device_.write(slot_, &clear, int64_t(sizeof clear));
  return 1;
}

void ExecContext::read_result(void *dst, int64_t src, int64_t bytes) {
  if (bytes > 0) device_.read(dst, src, bytes);
}

namespace {
ExecContext &context(void *ctx) { return *static_cast<ExecContext *>(ctx); }
} // namespace

extern "C" {

int64_t kerb_rt_alloc(void *ctx, int64_t bytes) { return context(ctx).alloc(bytes); }
int64_t kerb_rt_failure_slot(void *ctx) { return context(ctx).failure_slot(); }
int64_t kerb_rt_block_size(void *ctx) { return context(ctx).device().block_size(); }
int64_t kerb_rt_num_blocks(void *ctx, int64_t n) { return context(ctx).device().num_blocks(n); }
int32_t kerb_rt_launch(void *ctx, int32_t kernel, int64_t total, const int64_t *slots,
                       int32_t num_slots) {
  return context(ctx).launch(kernel, total, slots, num_slots);
}
int32_t kerb_rt_read(void *ctx, void *host_dst, int64_t dev_src, int64_t bytes) {
  return context(ctx).read(host_dst, dev_src, bytes);
}
int32_t kerb_rt_write(void *ctx, int64_t dev_dst, const void *host_src, int64_t bytes) {
  return context(ctx).write(dev_dst, host_src, bytes);
}
int32_t kerb_rt_copy(void *ctx, int64_t dev_dst, int64_t dev_src, int64_t bytes) {
  return context(ctx).copy(dev_dst, dev_src, bytes);
}
int32_t kerb_rt_fail(void *ctx, int32_t code, const int64_t *args, int32_t num_args) {
  return context(ctx).fail(code, args, num_args);
}

} // extern "C"

} // namespace kerb
