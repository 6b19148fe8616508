// Unit tests for runtime/exec_context: memory of entry calls (loop scopes, results
// taken off the call's list) and the failure protocol's host side with the mapped
// mirror, on the CPU device with hand-written kernels that fail as generated code does.
#include "runtime/exec_context.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <map>
#include <set>
#include <cstring>
#include <vector>

using namespace kerb;

namespace {

FailureTable one_site_table() {
  FailureTable t;
  t.add({FailureKind::Bounds, "k.fut:1:2-3", index_template(1), {ArgType::I64, ArgType::I64}});
  return t;
}

// A kernel that fails at site 0 with arguments (7, 3) in thread 2, as generated code
// does: a CAS on the slot (its address without the "certainly clear" bit), the
// arguments, then the mirror's arguments, a fence, its code.
void failing_kernel(int64_t begin, int64_t end, const int64_t *slots) {
  for (int64_t i = begin; i < end; i++) {
    if (i != 2) continue;
    auto *slot = reinterpret_cast<FailureSlot *>(uintptr_t(slots[0] & ~kSlotCertainlyClear));
    int32_t expected = -1;
    if (!std::atomic_ref<int32_t>(slot->code).compare_exchange_strong(expected, 0)) continue;
    slot->args[0] = 7;
    slot->args[1] = 3;
    if (slot->mirror) {
      auto *mirror = reinterpret_cast<FailureSlot *>(uintptr_t(slot->mirror));
      mirror->args[0] = 7;
      mirror->args[1] = 3;
      std::atomic_thread_fence(std::memory_order_seq_cst);
      std::atomic_ref<int32_t>(mirror->code).store(0, std::memory_order_relaxed);
    }
  }
}

void quiet_kernel(int64_t, int64_t, const int64_t *) {}

// Records whether each launch passed the slot as certainly clear.
std::vector<bool> clear_bits;
void recording_kernel(int64_t begin, int64_t, const int64_t *slots) {
  if (begin == 0) clear_bits.push_back((slots[0] & kSlotCertainlyClear) != 0);
}

struct Fixture {
  FailureTable table = one_site_table();
  std::unique_ptr<Device> device =
      make_cpu_device({failing_kernel, quiet_kernel, recording_kernel},
                      {KernelDesc{}, KernelDesc{}, KernelDesc{}});
  ExecContext ctx{*device, table};
};

} // namespace

TEST_CASE("host loops free what an iteration no longer carries", "[runtime]") {
  Fixture f;
  ExecContext &ctx = f.ctx;
  ctx.begin_call();
  int64_t before = ctx.alloc(100);
  int64_t mark = ctx.scope_mark();
  int64_t carried = 0;
  for (int i = 0; i < 50; i++) {
    int64_t tmp = ctx.alloc(1000);
    int64_t next = ctx.alloc(64);
    REQUIRE((tmp && next));
    // The loop carries a view into `next` (8 bytes in) and the array from before the loop.
    int64_t live[] = {next + 8, before};
    ctx.scope_release(mark, live, 2);
    carried = next;
    CHECK(ctx.bytes_in_use() == 100 + 64);
  }
  CHECK(ctx.peak_bytes() <= 100 + 64 + 1000 + 64);
  // An empty view at the end of an allocation keeps it too.
  int64_t end_view = carried + 64;
  ctx.scope_release(mark, &end_view, 1);
  CHECK(ctx.bytes_in_use() == 100 + 64);
  // The result is taken off the call's list; the rest is freed at the end.
  std::optional<Allocation> taken = ctx.take(carried + 16);
  REQUIRE(taken);
  CHECK(taken->addr == carried);
  CHECK(!ctx.take(carried));
  ctx.finish_call();
  CHECK(ctx.bytes_in_use() == 64);
  ctx.free_owned(*taken);
  CHECK(ctx.bytes_in_use() == 0);
}

TEST_CASE("a failure is found through the mirror, polled, and reset", "[runtime]") {
  Fixture f;
  ExecContext &ctx = f.ctx;
  int64_t slots[] = {ctx.failure_slot()};
  CHECK(!ctx.poll());
  ctx.begin_call(); // call 1: clean
  REQUIRE(ctx.launch(1, 8, slots, 1) == 0);
  CHECK(ctx.sync_check() == 0);
  ctx.finish_call();
  ctx.begin_call(); // call 2: fails, seen at a later sync point
  REQUIRE(ctx.launch(0, 8, slots, 1) == 0);
  ctx.finish_call();
  ctx.begin_call(); // call 3
  REQUIRE(ctx.launch(1, 8, slots, 1) == 0);
  ctx.finish_call();
  std::optional<Failure> polled = ctx.poll();
  REQUIRE(polled);
  CHECK(polled->text() == "Index [7] out of bounds for array of shape [3].\nat k.fut:1:2-3");
  CHECK(ctx.poll()); // polling clears nothing
  CHECK(ctx.sync_check() == 1);
  REQUIRE(ctx.failure);
  CHECK(ctx.failure->message == "Index [7] out of bounds for array of shape [3].");
  CHECK(ctx.failure->location == "k.fut:1:2-3");
  CHECK(ctx.failure_window() == std::pair<uint64_t, uint64_t>{2, 3});
  // Reset: the next calls are clean.
  CHECK(!ctx.poll());
  ctx.clear_error();
  ctx.begin_call();
  REQUIRE(ctx.launch(1, 8, slots, 1) == 0);
  CHECK(ctx.sync_check() == 0);
  ctx.finish_call();
}

TEST_CASE("sync checks report a failure at the launch", "[runtime]") {
  Fixture f;
  ExecContext &ctx = f.ctx;
  ctx.sync_checks = true;
  int64_t slots[] = {ctx.failure_slot()};
  ctx.begin_call();
  CHECK(ctx.launch(0, 8, slots, 1) == 1);
  REQUIRE(ctx.failure);
  CHECK(ctx.failure_window() == std::pair<uint64_t, uint64_t>{1, 1});
  ctx.finish_call();
}

TEST_CASE("the slot is certainly clear until a kernel that may fail runs", "[runtime]") {
  Fixture f;
  ExecContext &ctx = f.ctx;
  clear_bits.clear();
  int64_t slots[] = {ctx.failure_slot()};
  ctx.begin_call();
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // clear: nothing ran
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // still: it cannot fail
  REQUIRE(ctx.launch(1, 8, slots, 1, /*may_fail=*/true) == 0);  // may fail (does not)
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // not certain any more
  REQUIRE(ctx.sync_check() == 0);                               // a clean look
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // clear again
  REQUIRE(ctx.launch(0, 8, slots, 1, /*may_fail=*/true) == 0);  // fails
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // not clear
  CHECK(ctx.sync_check() == 1);                                 // found and reset
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0); // clear after the reset
  ctx.finish_call();
  CHECK(clear_bits == std::vector<bool>{true, true, false, true, false, true});
  // The caller's slots are not changed.
  CHECK((slots[0] & kSlotCertainlyClear) == 0);
  // Only kernels that may fail make a sync point look: after kernels that cannot, the
  // call is clean without a look.
  ctx.begin_call();
  REQUIRE(ctx.launch(2, 1, slots, 1, /*may_fail=*/false) == 0);
  CHECK(ctx.sync_check() == 0);
  ctx.finish_call();
}

namespace {

// A device of `limit` bytes of host memory that counts its allocations and frees.
class CountingDevice : public Device {
public:
  explicit CountingDevice(int64_t limit) : limit_(limit) {}
  int64_t allocs = 0, frees = 0, used = 0;
  std::string describe() const override { return "counting"; }
  int64_t alloc(int64_t bytes) override {
    if (used + bytes > limit_) throw OutOfMemoryError("out of memory (test)");
    void *p = std::malloc(size_t(bytes));
    sizes_[int64_t(reinterpret_cast<uintptr_t>(p))] = bytes;
    used += bytes;
    allocs++;
    return int64_t(reinterpret_cast<uintptr_t>(p));
  }
  void free(int64_t addr) override {
    used -= sizes_.at(addr);
    sizes_.erase(addr);
    frees++;
    std::free(reinterpret_cast<void *>(uintptr_t(addr)));
  }
  void write(int64_t dst, const void *src, int64_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, size_t(bytes));
  }
  void read(void *dst, int64_t src, int64_t bytes) override {
    std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), size_t(bytes));
  }
  void copy(int64_t, int64_t, int64_t) override {}
  void fill(int64_t, uint64_t, int, int64_t) override {}
  void launch(int, int64_t, const int64_t *, int) override {}
  int64_t block_size() const override { return 1; }
  int64_t num_blocks(int64_t) const override { return 1; }
  void synchronize() override {}
  void *alloc_mapped(int64_t, int64_t *) override { return nullptr; }
  void free_mapped(void *) override {}

private:
  int64_t limit_;
  std::map<int64_t, int64_t> sizes_;
};

// One entry call's memory as generated code uses it: a temporary, a loop of 3
// iterations carrying an array, and a result the caller frees after the next call.
Allocation one_call(ExecContext &ctx, std::optional<Allocation> &previous) {
  if (previous) ctx.free_owned(*previous);
  ctx.begin_call();
  int64_t tmp = ctx.alloc(4096);
  REQUIRE(tmp);
  int64_t mark = ctx.scope_mark();
  int64_t carried = 0;
  for (int i = 0; i < 3; i++) {
    carried = ctx.alloc(1 << 20);
    REQUIRE(carried);
    ctx.scope_release(mark, &carried, 1);
  }
  std::optional<Allocation> result = ctx.take(carried);
  REQUIRE(result);
  ctx.finish_call();
  previous = result;
  return *result;
}

} // namespace

TEST_CASE("calls reuse their memory whatever other contexts do in between", "[runtime]") {
  FailureTable table = one_site_table();
  CountingDevice da(int64_t(1) << 30), db(int64_t(1) << 30);
  {
    ExecContext a(da, table), b(db, table);
    int64_t slot_allocs = da.allocs;
    std::optional<Allocation> ra, rb;
    one_call(a, ra);
    one_call(b, rb);
    one_call(a, ra);
    one_call(b, rb);
    int64_t fresh_a = a.fresh_allocations(), fresh_b = b.fresh_allocations();
    int64_t device_a = da.allocs;
    // The temporary and the loop's two buffers (one of them the result, which the
    // caller frees before the next call): 3 blocks.
    CHECK(fresh_a == 3);
    CHECK(device_a - slot_allocs == 3);
    for (int i = 0; i < 100; i++) {
      one_call(a, ra);
      one_call(b, rb);
      one_call(b, rb);
    }
    CHECK(a.fresh_allocations() == fresh_a);
    CHECK(b.fresh_allocations() == fresh_b);
    CHECK(da.allocs == device_a);
    CHECK(a.allocations() == 2 * 4 + 100 * 4);
    // Freed blocks wait in the cache; clearing it gives them back.
    CHECK(a.cached_bytes() == 4096 + (1 << 20));
    a.free_owned(*ra);
    a.trim();
    CHECK(a.cached_bytes() == 0);
    CHECK(da.used == int64_t(sizeof(FailureSlot)));
    b.free_owned(*rb);
  }
  // Destroying a context gives everything back.
  CHECK(da.used == 0);
  CHECK(db.used == 0);
  CHECK(db.allocs == db.frees);
}

TEST_CASE("the memory cache stays within its context's peak", "[runtime]") {
  FailureTable table = one_site_table();
  CountingDevice d(int64_t(1) << 30);
  ExecContext ctx(d, table);
  // Sizes that never repeat: the cache keeps at most the peak in use.
  for (int64_t n = 1000; n < 200000; n += 1000) {
    Allocation a = ctx.alloc_owned(n);
    ctx.free_owned(a);
    CHECK(ctx.cached_bytes() <= ctx.peak_bytes());
  }
  CHECK(ctx.peak_bytes() == 199000);
}

TEST_CASE("out of memory, contexts give their cached blocks back", "[runtime]") {
  FailureTable table = one_site_table();
  // One device's memory seen by two contexts: what one caches, the other cannot get.
  CountingDevice d(int64_t(3) << 20);
  ExecContext a(d, table), b(d, table);
  Allocation x = a.alloc_owned(int64_t(1) << 20), y = b.alloc_owned(int64_t(1) << 20);
  a.free_owned(x);
  b.free_owned(y);
  CHECK(a.cached_bytes() == int64_t(1) << 20);
  CHECK(b.cached_bytes() == int64_t(1) << 20);
  // 2 MB for a: its own cached block and then b's go back to the device first.
  Allocation big = a.alloc_owned(int64_t(2) << 20);
  CHECK(a.cached_bytes() == 0);
  CHECK(b.cached_bytes() == 0);
  a.free_owned(big);
  // More than the device has: still out of memory.
  CHECK_THROWS_AS(b.alloc_owned(int64_t(4) << 20), OutOfMemoryError);
}

TEST_CASE("read-back memory: slots of mapped pages, freed by their read and at the call's end",
          "[runtime]") {
  // Note [Read-back memory] in runtime/exec_context.cpp. On the CPU device mapped memory
  // is host memory, so the test writes what a kernel would.
  Fixture f;
  ExecContext &ctx = f.ctx;
  ctx.begin_call();
  std::vector<int64_t> first;
  for (int64_t i = 0; i < 100; i++) {
    int64_t a = ctx.alloc_readback(8);
    REQUIRE(a != 0);
    *reinterpret_cast<int64_t *>(uintptr_t(a)) = i * 3;
    first.push_back(a);
  }
  // Distinct slots of 64 bytes (two pages), not the call's device memory.
  std::set<int64_t> distinct(first.begin(), first.end());
  CHECK(distinct.size() == 100);
  for (int64_t a : first) CHECK(a % 8 == 0);
  CHECK(ctx.bytes_in_use() == 0);
  for (int64_t i = 0; i < 100; i++) {
    int64_t v = -1;
    REQUIRE(ctx.read(&v, first[size_t(i)], 8) == 0);
    CHECK(v == i * 3);
  }
  // Each read freed its slot: the next allocations take the same slots.
  std::set<int64_t> again;
  for (int i = 0; i < 100; i++) again.insert(ctx.alloc_readback(4));
  CHECK(again == distinct);
  // More than a slot holds: call memory.
  int64_t big = ctx.alloc_readback(65);
  REQUIRE(big != 0);
  CHECK(ctx.bytes_in_use() == 65);
  ctx.finish_call();
  // The call's end freed the slots that were never read.
  ctx.begin_call();
  std::set<int64_t> third;
  for (int i = 0; i < 100; i++) third.insert(ctx.alloc_readback(8));
  CHECK(third == distinct);
  ctx.finish_call();
}
