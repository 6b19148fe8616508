// The execution context and the C functions that generated host code calls (see
// exec_context.h and device_abi.h).
#include "runtime/exec_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kerb {

// Note [The context's memory cache]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every block a context frees (a call's temporaries, a loop iteration's dead arrays,
// arrays the user frees) goes to the context's cache, and an allocation first takes the
// newest cached block of exactly its size. Entry calls and loop iterations allocate the
// same sizes again and again, so after the first call or iteration they make no device
// allocation at all: no driver call, and no dependence on what other contexts do.
//
// Why not leave it to the CUDA pool: all contexts of a process share the device's
// default pool, each on its own stream. On the H100, 2^26-element scan took 0.349 ms a
// call alone but 0.48-0.58 ms with three contexts' calls interleaved (kerb bench
// --variant ..., bench/NOTES.md "Allocation cache"), its kernels unchanged: the extra
// time was in the call's allocations. The pool's choice of block depends on the other
// streams' frees (it reuses them only under conditions of its own, and may cut a small
// block out of the large one a stream just freed, leaving the large allocation to map
// fresh memory); which of these it was could not be seen without the GPU. The cache
// makes a context's reuse its own and takes the pool out of the calls' path.
//
// Safety: all of a context's device work is in order (one CUDA stream; the CPU device
// runs launches to completion), so a block freed after the work that uses it was queued
// may be given to work queued later, as the stream-ordered allocator does.
//
// Bounds: at most kMaxCachedBlocks blocks and at most the context's peak bytes in use
// (so a context holds at most twice its peak); beyond that the oldest blocks go back to
// the device. When the device is out of memory, the context gives back its whole cache
// and tries again, then every other context's cache. kerb_context_clear_caches and
// kerb_context_free give it back too.

// Note [Read-back memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// A reduction's result is written by the last kernel's one thread and read back by the
// host at once (the entry returns it, or host code uses it). In device memory that read
// queues a device-to-host copy and waits for it: the copy engine starts after the
// kernel, and an entry with two results (nn: a distance and an index) queued a second
// copy after the first wait. kerb_rt_alloc_readback gives the result a slot of pinned
// host memory mapped into the device instead: the kernel's store goes across PCIe,
// and the read waits for the stream (if anything was queued since the last wait) and
// copies from host memory; the second result's read then waits for nothing.
//
// Slots are 64 bytes, 64 to a page, pages made on first use and kept for the context's
// life (pinned allocations are slow; a host loop's reductions reuse the same slots).
// The read that reads a slot frees it; end_call() frees every slot (a call that failed
// between the launch and the read). A slot freed while a kernel that writes it may still
// run is safe: the next kernel to write it is queued after that one, and the host reads
// only after a wait. Kernels never read read-back memory (a load would cross PCIe).
// Where the device cannot map memory, read-back memory is plain call memory; so it is
// with KERB_READBACK=0 (to compare the two on the GPU).

namespace {

constexpr size_t kMaxCachedBlocks = 4096;

// The live contexts, for giving back their caches when one runs out of memory. Lock
// order: this mutex, then a context's cache_mutex_.
std::mutex &contexts_mutex() {
  static std::mutex *m = new std::mutex(); // never destroyed: contexts may outlive main()
  return *m;
}
std::vector<ExecContext *> &live_contexts() {
  static std::vector<ExecContext *> *v = new std::vector<ExecContext *>();
  return *v;
}

} // namespace

double Device::time_ms(const std::function<void()> &work) {
  auto t0 = std::chrono::steady_clock::now();
  work();
  synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string Failure::text() const {
  return location.empty() ? message : message + "\nat " + location;
}

ExecContext::ExecContext(Device &device, const FailureTable &table)
    : device_(device), table_(table) {
  const char *p = std::getenv("KERB_PROFILE");
  profile_ = p && *p && std::string(p) != "0";
  // KERB_READBACK=0: read-back memory is call memory, read with a copy (to compare).
  const char *rb = std::getenv("KERB_READBACK");
  readback_unmapped_ = rb && std::string(rb) == "0";
  mirror_ = static_cast<FailureSlot *>(device_.alloc_mapped(int64_t(sizeof(FailureSlot)), &mirror_device_));
  if (mirror_) {
    std::memset(static_cast<void *>(mirror_), 0, sizeof(FailureSlot));
    mirror_->code = -1;
  }
  slot_ = device_.alloc(int64_t(sizeof(FailureSlot)));
  try {
    reset_slot();
  } catch (...) {
    device_.free(slot_);
    if (mirror_) device_.free_mapped(mirror_);
    throw;
  }
  std::lock_guard<std::mutex> lock(contexts_mutex());
  live_contexts().push_back(this);
}

ExecContext::~ExecContext() {
  {
    std::lock_guard<std::mutex> lock(contexts_mutex());
    auto &v = live_contexts();
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
  if (profile_)
    std::fprintf(stderr,
                 "profile: memory allocations %lld fresh_allocations %lld peak_bytes %lld "
                 "cached_bytes %lld\n",
                 static_cast<long long>(allocations_), static_cast<long long>(fresh_allocations_),
                 static_cast<long long>(peak_bytes_), static_cast<long long>(cached_bytes()));
  try {
    end_call();
    flush_cache(true);
    device_.synchronize();
    device_.free(slot_);
    if (mirror_) device_.free_mapped(mirror_);
    for (const ReadbackPage &p : readback_) device_.free_mapped(p.host);
  } catch (...) {
    // Never throw from a destructor; the device is going away anyway.
  }
}

void ExecContext::clear_error() {
  failure.reset();
  error.clear();
  out_of_memory = false;
}

int32_t ExecContext::device_error(const std::exception &e) {
  error = e.what();
  if (dynamic_cast<const OutOfMemoryError *>(&e)) out_of_memory = true;
  return 1;
}

// ---- memory

int64_t ExecContext::alloc(int64_t bytes) {
  try {
    call_memory_.push_back(alloc_owned(bytes));
    return call_memory_.back().addr;
  } catch (const std::exception &e) {
    device_error(e);
    return 0;
  }
}

int64_t ExecContext::alloc_readback(int64_t bytes) {
  if (bytes <= 0 || bytes > kReadbackSlot || readback_unmapped_) return alloc(bytes);
  try {
    for (ReadbackPage &p : readback_)
      if (~p.used != 0) {
        int slot = __builtin_ctzll(~p.used);
        p.used |= uint64_t(1) << slot;
        return p.addr + slot * kReadbackSlot;
      }
    ReadbackPage p;
    p.host = device_.alloc_mapped(kReadbackSlot * kReadbackSlots, &p.addr);
    if (!p.host) {
      readback_unmapped_ = true;
      return alloc(bytes);
    }
    p.used = 1;
    readback_.push_back(p);
    return p.addr;
  } catch (const std::exception &e) {
    device_error(e);
    return 0;
  }
}

const void *ExecContext::take_readback(int64_t addr, int64_t bytes) {
  for (ReadbackPage &p : readback_) {
    int64_t off = addr - p.addr;
    if (off < 0 || off >= kReadbackSlot * kReadbackSlots) continue;
    if (off % kReadbackSlot + bytes > kReadbackSlot) return nullptr;
    p.used &= ~(uint64_t(1) << (off / kReadbackSlot));
    return static_cast<const char *>(p.host) + off;
  }
  return nullptr;
}

Allocation ExecContext::alloc_owned(int64_t bytes) {
  Allocation a;
  a.bytes = std::max<int64_t>(bytes, 1);
  a.addr = take_cached(a.bytes);
  if (!a.addr) a.addr = fresh_block(a.bytes);
  bytes_in_use_ += a.bytes;
  peak_bytes_ = std::max(peak_bytes_, bytes_in_use_);
  allocations_++;
  return a;
}

void ExecContext::release(const Allocation &a) {
  bytes_in_use_ -= a.bytes;
  try {
    cache_block(a);
  } catch (const std::exception &e) {
    if (error.empty()) device_error(e);
  }
}

// ---- the memory cache (Note [The context's memory cache])

int64_t ExecContext::take_cached(int64_t bytes) {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  auto it = cache_.find(bytes);
  if (it == cache_.end() || it->second.empty()) return 0;
  int64_t addr = it->second.back().addr;
  it->second.pop_back();
  cached_blocks_--;
  cached_bytes_ -= bytes;
  return addr;
}

int64_t ExecContext::fresh_block(int64_t bytes) {
  for (int attempt = 0;; attempt++) {
    try {
      int64_t addr = device_.alloc(bytes);
      fresh_allocations_++;
      return addr;
    } catch (const OutOfMemoryError &) {
      if (attempt == 0 && flush_cache(true) > 0) continue;
      if (attempt <= 1 && flush_other_caches() > 0) {
        attempt = 1;
        continue;
      }
      throw;
    }
  }
}

void ExecContext::cache_block(const Allocation &a) {
  bool over;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    cache_[a.bytes].push_back(Cached{a.addr, cache_stamp_++});
    cached_blocks_++;
    cached_bytes_ += a.bytes;
    over = cache_over_bounds();
  }
  if (over) flush_cache(false);
}

bool ExecContext::cache_over_bounds() const {
  // Sizes of which no block is left count too: drop them before they pile up.
  return cached_blocks_ > kMaxCachedBlocks || cached_bytes_ > peak_bytes_ ||
         cache_.size() > 2 * kMaxCachedBlocks;
}

int64_t ExecContext::flush_cache(bool all) {
  std::vector<int64_t> out;
  int64_t freed = 0;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    for (auto it = cache_.begin(); it != cache_.end();)
      it = it->second.empty() ? cache_.erase(it) : std::next(it);
    while (cached_blocks_ > 0 && (all || cache_over_bounds())) {
      // The oldest block: the first of its size's list.
      auto oldest = cache_.end();
      for (auto it = cache_.begin(); it != cache_.end(); ++it)
        if (!it->second.empty() &&
            (oldest == cache_.end() || it->second.front().stamp < oldest->second.front().stamp))
          oldest = it;
      out.push_back(oldest->second.front().addr);
      oldest->second.erase(oldest->second.begin());
      cached_blocks_--;
      cached_bytes_ -= oldest->first;
      freed += oldest->first;
      if (oldest->second.empty()) cache_.erase(oldest);
    }
  }
  for (int64_t addr : out) device_.free(addr);
  return freed;
}

int64_t ExecContext::flush_other_caches() {
  std::lock_guard<std::mutex> lock(contexts_mutex());
  int64_t freed = 0;
  for (ExecContext *c : live_contexts()) {
    if (c == this) continue;
    try {
      int64_t n = c->flush_cache(true);
      // Let the frees on its stream finish, so the device's pool may reuse them here.
      if (n > 0) c->device_.synchronize();
      freed += n;
    } catch (const std::exception &) {
      // That context's device failed; it will report it itself.
    }
  }
  return freed;
}

int64_t ExecContext::cached_bytes() const {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  return cached_bytes_;
}

void ExecContext::trim() {
  flush_cache(true);
  device_.trim();
}

void ExecContext::free_owned(const Allocation &a) { release(a); }

void ExecContext::scope_release(int64_t mark, const int64_t *live, int num_live) {
  size_t keep = std::min(size_t(std::max<int64_t>(mark, 0)), call_memory_.size());
  for (size_t i = keep; i < call_memory_.size(); i++) {
    const Allocation a = call_memory_[i];
    bool used = std::any_of(live, live + std::max(num_live, 0), [&](int64_t p) { return a.holds(p); });
    if (used)
      call_memory_[keep++] = a;
    else
      release(a);
  }
  call_memory_.resize(keep);
}

std::optional<Allocation> ExecContext::take(int64_t addr) {
  auto it = std::find_if(call_memory_.begin(), call_memory_.end(),
                         [&](const Allocation &a) { return a.addr == addr; });
  if (it == call_memory_.end())
    it = std::find_if(call_memory_.begin(), call_memory_.end(), [&](const Allocation &a) {
      return addr >= a.addr && addr < a.addr + a.bytes;
    });
  if (it == call_memory_.end()) return std::nullopt;
  Allocation a = *it;
  call_memory_.erase(it);
  return a;
}

void ExecContext::end_call() {
  for (const Allocation &a : call_memory_) release(a);
  call_memory_.clear();
  for (ReadbackPage &p : readback_) p.used = 0;
}

// ---- the device

int32_t ExecContext::launch(int kernel, int64_t total, const int64_t *slots, int num_slots,
                            bool may_fail) {
  if (total <= 0) return 0;
  try {
    if (!kernel_ran_ && num_slots > 0) {
      // Certainly clear: nothing that may fail ran since the last look found the slot
      // clear (or reset it), so the kernel can skip its prelude.
      int64_t local[64];
      std::vector<int64_t> heap;
      int64_t *copy = local;
      if (num_slots > 64) {
        heap.resize(size_t(num_slots));
        copy = heap.data();
      }
      std::memcpy(copy, slots, sizeof(int64_t) * size_t(num_slots));
      copy[0] |= kSlotCertainlyClear;
      device_.launch(kernel, total, copy, num_slots);
    } else {
      device_.launch(kernel, total, slots, num_slots);
    }
    // Only kernels that may fail make the next sync point look at the slot.
    kernel_ran_ = kernel_ran_ || may_fail;
    return sync_checks ? sync_check() : 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

int32_t ExecContext::read(void *dst, int64_t src, int64_t bytes) {
  try {
    if (bytes <= 0) return sync_check();
    if (const void *host = take_readback(src, bytes)) {
      // Note [Read-back memory]: the kernel that wrote it has finished after the wait
      // (none when nothing was queued since the last).
      device_.synchronize();
      std::memcpy(dst, host, size_t(bytes));
      return sync_check(true);
    }
    // The read waits for the device, so the failure check after it waits for nothing.
    device_.read(dst, src, bytes);
    return sync_check(true);
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

int32_t ExecContext::write(int64_t dst, const void *src, int64_t bytes) {
  if (bytes <= 0) return 0;
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

int32_t ExecContext::fill(int64_t dst, uint64_t bits, int elem_bytes, int64_t count) {
  if (count <= 0) return 0;
  try {
    device_.fill(dst, bits, elem_bytes, count);
    return 0;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

// ---- the failure protocol

Failure ExecContext::make_failure(int32_t code, const int64_t *args, int num_args) const {
  Failure f;
  if (code < 0 || size_t(code) >= table_.records.size()) {
    f.message = code == kFailureScratch
                    ? std::string("internal error: a kernel needed more scratch memory than "
                                  "planned (please report)")
                    : fmt::format("unknown failure code {}", code);
    return f;
  }
  const FailureRecord &r = table_.records[size_t(code)];
  int n = std::min({num_args, int(r.arg_types.size()), kFailureMaxArgs});
  f.kind = r.kind;
  f.message = format_failure_message(r, std::vector<int64_t>(args, args + std::max(n, 0)));
  f.location = r.location;
  return f;
}

int32_t ExecContext::fail(int32_t code, const int64_t *args, int32_t num_args) {
  // A host-side check: kernels launched before it may have failed first.
  if (int32_t st = sync_check()) return st;
  failure = make_failure(code, args, num_args);
  window_ = {calls_, calls_};
  return 1;
}

void ExecContext::reset_slot() {
  FailureSlot clear{};
  clear.code = -1;
  clear.mirror = mirror_device_;
  device_.write(slot_, &clear, int64_t(sizeof clear));
  if (mirror_) std::atomic_ref<int32_t>(mirror_->code).store(-1, std::memory_order_release);
}

void ExecContext::begin_call() {
  calls_++;
  in_call_ = true;
  device_.call_started();
}

void ExecContext::finish_call() {
  end_call();
  in_call_ = false;
  // Nothing launched since the last look: this call is clean too.
  if (!kernel_ran_) note_clean();
  device_.call_finished();
}

int32_t ExecContext::sync_check(bool synchronized) {
  if (!kernel_ran_) {
    note_clean();
    return 0;
  }
  try {
    if (!synchronized) device_.synchronize();
    kernel_ran_ = false;
    FailureSlot s;
    if (mirror_) {
      // Every kernel has finished, so a failing thread's mirror writes are visible.
      s.code = std::atomic_ref<int32_t>(mirror_->code).load(std::memory_order_acquire);
      if (s.code != -1) std::memcpy(s.args, mirror_->args, sizeof s.args);
    } else {
      device_.read(&s, slot_, int64_t(sizeof s));
    }
    if (s.code == -1) {
      note_clean();
      return 0;
    }
    failure = make_failure(s.code, s.args, kFailureMaxArgs);
    window_ = {clean_through_ + 1, calls_};
    clean_through_ = calls_;
    reset_slot();
    return 1;
  } catch (const std::exception &e) {
    return device_error(e);
  }
}

std::optional<Failure> ExecContext::poll() const {
  if (!mirror_) return std::nullopt;
  // The payload is written before the code (after a system fence); read the code, the
  // payload, and the code again, so a failure recorded meanwhile is not torn.
  for (int attempt = 0; attempt < 4; attempt++) {
    int32_t code = std::atomic_ref<int32_t>(mirror_->code).load(std::memory_order_acquire);
    if (code == -1) return std::nullopt;
    int64_t args[kFailureMaxArgs];
    for (int i = 0; i < kFailureMaxArgs; i++)
      args[i] = std::atomic_ref<int64_t>(mirror_->args[i]).load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (std::atomic_ref<int32_t>(mirror_->code).load(std::memory_order_relaxed) == code)
      return make_failure(code, args, kFailureMaxArgs);
  }
  return std::nullopt;
}

namespace {
ExecContext &context(void *ctx) { return *static_cast<ExecContext *>(ctx); }
} // namespace

extern "C" {

int64_t kerb_rt_alloc(void *ctx, int64_t bytes) { return context(ctx).alloc(bytes); }
int64_t kerb_rt_alloc_readback(void *ctx, int64_t bytes) {
  return context(ctx).alloc_readback(bytes);
}
int64_t kerb_rt_scope_mark(void *ctx) { return context(ctx).scope_mark(); }
void kerb_rt_scope_release(void *ctx, int64_t mark, const int64_t *live, int32_t num_live) {
  context(ctx).scope_release(mark, live, num_live);
}
int64_t kerb_rt_failure_slot(void *ctx) { return context(ctx).failure_slot(); }
int64_t kerb_rt_block_size(void *ctx) { return context(ctx).device().block_size(); }
int64_t kerb_rt_num_blocks(void *ctx, int64_t n) { return context(ctx).device().num_blocks(n); }
int64_t kerb_rt_resident_blocks(void *ctx, int64_t n, int64_t per_sm) {
  return context(ctx).device().resident_blocks(n, per_sm);
}
int32_t kerb_rt_launch(void *ctx, int32_t kernel, int64_t total, const int64_t *slots,
                       int32_t num_slots, int32_t flags) {
  return context(ctx).launch(kernel, total, slots, num_slots, (flags & kLaunchMayFail) != 0);
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
int32_t kerb_rt_fill(void *ctx, int64_t dst, int64_t bits, int32_t elem_bytes, int64_t count) {
  return context(ctx).fill(dst, uint64_t(bits), elem_bytes, count);
}
int32_t kerb_rt_fail(void *ctx, int32_t code, const int64_t *args, int32_t num_args) {
  return context(ctx).fail(code, args, num_args);
}

} // extern "C"

} // namespace kerb
