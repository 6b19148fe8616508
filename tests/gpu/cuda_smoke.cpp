// Standalone smoke test of Kerb's CUDA runtime (runtime/cuda_device.h), not Catch2:
// opens device 0, JIT-loads a hand-written PTX kernel, round-trips 2^20 floats through
// it, checks that malformed PTX fails with the JIT log in the error, times a launch, and
// counts the blocks resident on an SM under CudaDevice::bound_blocks_per_sm.
// Prints "cuda_smoke: OK" (exit 0), "cuda_smoke: SKIP (reason)" without a usable GPU
// (exit 0), or "cuda_smoke: FAIL ..." (exit 1). Build: tests/gpu/build_cuda_smoke.sh.
#include "runtime/cuda_device.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

// add_one(float *xs, long n): xs[i] += 1 for i < n, one thread per element.
const char *const add_one_ptx = R"(
.version 7.5
.target sm_80
.address_size 64

.visible .entry add_one(
    .param .u64 xs,
    .param .u64 n
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<7>;
    .reg .f32 %f<3>;

    ld.param.u64 %rd1, [xs];
    ld.param.u64 %rd2, [n];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd3, %r1, %r2;
    cvt.u64.u32 %rd4, %r3;
    add.s64 %rd3, %rd3, %rd4;
    setp.ge.s64 %p1, %rd3, %rd2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd5, %rd1;
    shl.b64 %rd6, %rd3, 2;
    add.s64 %rd5, %rd5, %rd6;
    ld.global.f32 %f1, [%rd5];
    add.f32 %f2, %f1, 0f3F800000;
    st.global.f32 [%rd5], %f2;
DONE:
    ret;
}
)";

// resident(unsigned *now, unsigned *most, long spin): each block counts itself in now[SM]
// and keeps the largest count in most[SM], spins for `spin` cycles, then leaves.
const char *const resident_ptx = R"(
.version 7.5
.target sm_80
.address_size 64

.visible .entry resident(
    .param .u64 now,
    .param .u64 most,
    .param .u64 spin
)
{
    .reg .pred %p<3>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<10>;

    ld.param.u64 %rd1, [now];
    ld.param.u64 %rd2, [most];
    ld.param.u64 %rd3, [spin];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r1, %smid;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    mov.u32 %r2, %tid.x;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra SPIN;
    atom.global.add.u32 %r3, [%rd5], 1;
    add.u32 %r3, %r3, 1;
    atom.global.max.u32 %r4, [%rd6], %r3;
SPIN:
    mov.u64 %rd7, %clock64;
LOOP:
    mov.u64 %rd8, %clock64;
    sub.s64 %rd9, %rd8, %rd7;
    setp.lt.s64 %p2, %rd9, %rd3;
    @%p2 bra LOOP;
    bar.sync 0;
    @%p1 bra DONE;
    atom.global.add.u32 %r5, [%rd5], 4294967295;
DONE:
    ret;
}
)";

const char *const bad_ptx = R"(
.version 7.5
.target sm_80
.address_size 64

.visible .entry broken(.param .u64 xs)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [xs];
    frobnicate.u64 %rd1, %rd1;
    ret;
}
)";

int fail(const std::string &what) {
  std::printf("cuda_smoke: FAIL %s\n", what.c_str());
  return 1;
}

int run() {
  std::string why;
  auto dev = kerb::CudaDevice::open(0, &why);
  if (!dev) {
    std::printf("cuda_smoke: SKIP (%s)\n", why.c_str());
    return 0;
  }
  std::printf("device: %s\n", dev->describe().c_str());

  kerb::CudaModule module = dev->load_module(add_one_ptx);
  CUfunction add_one = dev->function(module, "add_one");

  const long long n = 1 << 20;
  std::vector<float> host(n);
  for (long long i = 0; i < n; i++) host[i] = static_cast<float>(i % 1000) * 0.5f;
  CUdeviceptr xs = dev->alloc(n * sizeof(float));
  dev->copy_to_device(xs, host.data(), n * sizeof(float));
  void *args[] = {&xs, const_cast<long long *>(&n)};
  const unsigned block = 256, grid = static_cast<unsigned>((n + block - 1) / block);
  dev->launch(add_one, {grid, 1, 1}, {block, 1, 1}, 0, args);
  std::vector<float> back(n, -1.0f);
  dev->copy_to_host(back.data(), xs, n * sizeof(float));
  for (long long i = 0; i < n; i++)
    if (back[i] != host[i] + 1.0f)
      return fail("add_one: element " + std::to_string(i) + " is " + std::to_string(back[i]) +
                  ", expected " + std::to_string(host[i] + 1.0f));
  std::printf("add_one over %lld floats: correct\n", n);

  // memset32 + copy back.
  dev->memset32(xs, 0x3f800000u /* 1.0f */, n);
  dev->copy_to_host(back.data(), xs, n * sizeof(float));
  for (long long i = 0; i < n; i++)
    if (back[i] != 1.0f) return fail("memset32: element " + std::to_string(i));
  std::printf("memset32: correct\n");

  // A missing kernel name is an error naming it.
  try {
    dev->function(module, "no_such_kernel");
    return fail("function(\"no_such_kernel\") did not throw");
  } catch (const kerb::CudaError &e) {
    if (!std::strstr(e.what(), "no_such_kernel"))
      return fail(std::string("missing-kernel error lacks the name: ") + e.what());
  }

  // Malformed PTX: the error must carry the JIT error log.
  try {
    dev->load_module(bad_ptx);
    return fail("malformed PTX loaded without error");
  } catch (const kerb::CudaError &e) {
    std::printf("malformed PTX error (expected):\n%s\n", e.what());
    const char *log = std::strstr(e.what(), "JIT error log:\n");
    if (!log || std::strncmp(log + 15, "(empty)", 7) == 0 || log[15] == '\0')
      return fail("malformed-PTX error has no JIT error log");
    if (!std::strstr(e.what(), "cuModuleLoadDataEx") || !std::strstr(e.what(), "cuda_device.cpp:"))
      return fail("malformed-PTX error lacks the call or the file:line");
  }

  // Timing with events.
  dev->launch(add_one, {grid, 1, 1}, {block, 1, 1}, 0, args); // warm-up
  float ms = dev->time_ms([&] { dev->launch(add_one, {grid, 1, 1}, {block, 1, 1}, 0, args); });
  if (!(ms >= 0.0f)) return fail("time_ms returned " + std::to_string(ms));
  std::printf("add_one launch: %.4f ms\n", ms);
  dev->copy_to_host(back.data(), xs, n * sizeof(float));
  for (long long i = 0; i < n; i++)
    if (back[i] != 3.0f) return fail("after timed launches: element " + std::to_string(i));

  dev->free(xs);

  // bound_blocks_per_sm: with its shared memory, at most (and, given enough blocks,
  // exactly) that many blocks of 256 threads share an SM.
  kerb::CudaModule probe_module = dev->load_module(resident_ptx);
  CUfunction resident = dev->function(probe_module, "resident");
  const std::size_t slots = 1024; // %smid < %nsmid <= 1024
  CUdeviceptr now = dev->alloc(2 * slots * sizeof(unsigned)), most = now + slots * sizeof(unsigned);
  if (dev->bound_blocks_per_sm(resident, 0) != 0) return fail("bound_blocks_per_sm(f, 0) is not 0");
  for (unsigned want : {2u, 3u, 4u, 5u, 6u}) {
    unsigned bytes = dev->bound_blocks_per_sm(resident, want);
    if (bytes == 0) return fail("bound_blocks_per_sm(f, " + std::to_string(want) + ") found no amount");
    dev->memset32(now, 0, 2 * slots);
    long long spin = 200000;
    void *pargs[] = {&now, &most, &spin};
    unsigned blocks = unsigned(dev->multiprocessors()) * 12;
    dev->launch(resident, {blocks, 1, 1}, {256, 1, 1}, bytes, pargs);
    std::vector<unsigned> seen(slots);
    dev->copy_to_host(seen.data(), most, slots * sizeof(unsigned));
    unsigned top = 0;
    for (unsigned v : seen) top = v > top ? v : top;
    std::printf("bound_blocks_per_sm(%u): %u bytes, at most %u blocks on an SM\n", want, bytes, top);
    if (top != want)
      return fail("bound_blocks_per_sm(" + std::to_string(want) + "): " + std::to_string(top) +
                  " blocks shared an SM");
  }
  dev->free(now);
  dev->synchronize();
  std::printf("cuda_smoke: OK\n");
  return 0;
}

} // namespace

int main() {
  try {
    return run();
  } catch (const std::exception &e) {
    return fail(std::string("unexpected exception: ") + e.what());
  }
}
