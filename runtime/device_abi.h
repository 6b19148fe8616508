// The C interface between generated host code and the runtime, and the layout of the
// failure slot that generated kernels write. Generated host code calls these
// functions (their addresses are given to the JIT, or linked from kerb_runtime in a
// compiled library); `ctx` is the runtime's ExecContext (runtime/exec_context.h).
//
// Arguments travel as 8-byte slots: a scalar's bits in the low bytes (zero-extended),
// an array as its device address followed by one slot per dimension.
//
// Every function that returns int32_t returns 0 on success and non-zero when the call
// failed or found a failure; generated code then returns that status at once, and the
// error is kept in the context.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kerb {

// The failure slot in device memory: the failure code (-1: none) and its arguments.
//
// `mirror` is the mapped mode (DESIGN.md): the address, as the device sees it, of a
// second FailureSlot in host memory (pinned and device-mapped on the GPU), or 0. The
// thread that wins the slot writes its arguments there too, then a system-wide fence,
// then the code; so the host can poll for a failure while kernels still run, and after
// a synchronisation it learns of one without reading device memory. Only failing
// threads touch the mirror.
constexpr int kFailureMaxArgs = 16;
// A failure code that is no check site: a kernel thread needed more scratch memory
// than the host gave it (a compiler bug; see codegen/kernel_memory.cpp).
constexpr int32_t kFailureScratch = -2;
// kerb_rt_launch's flags: the kernel has a check that may record a failure.
constexpr int32_t kLaunchMayFail = 1;
// Bit 0 of slots[0] at a launch: the failure slot is certainly clear.
constexpr int64_t kSlotCertainlyClear = 1;

struct FailureSlot {
  int32_t code;
  int32_t pad;
  int64_t args[kFailureMaxArgs];
  int64_t mirror;
};
static_assert(offsetof(FailureSlot, args) == 8, "generated code writes args at 8");
static_assert(offsetof(FailureSlot, mirror) == 8 + 8 * kFailureMaxArgs,
              "generated code reads the mirror's address after the args");

// How a kernel is launched (for the runtime; the generator writes one per kernel).
struct KernelDesc {
  enum Kind : uint8_t {
    Threads, // one thread per element: slots[0] is the element count
    Blocks,  // `total` blocks of the runtime's block size, with barriers
  } kind = Threads;
  uint32_t shared_bytes_per_thread = 0; // Blocks: shared memory per thread
  uint32_t block_threads = 0;           // Blocks: threads a block on the GPU (0: kGpuBlockThreads)
  // Threads: at most this many blocks an SM on the GPU (0: as many as fit; codegen/
  // extract_kernels.cpp, Note [Loops over rows, fewer threads])
  uint32_t max_blocks_per_sm = 0;
  // ... only when the argument slot rows_slot (> 0), the length of the rows the loop
  // reads, holds at least kLoopMinRowElems elements a thread; 0: always
  uint32_t rows_slot = 0;
};

// KernelDesc::rows_slot: the elements a thread's rows must average for its kernel to run
// at most max_blocks_per_sm blocks an SM (codegen/extract_kernels.cpp, Note [Loops over
// rows, fewer threads]).
constexpr int64_t kLoopMinRowElems = 8;

// Threads per block of Threads kernels on the GPU. The 2-D tiles of map kernels
// (codegen/thread_kernels.cpp, Note [2-D tiles of map kernels]) take a block's index
// and thread index from the global thread index by it.
constexpr int64_t kGpuThreadsBlock = 256;

// Threads an SM runs at most (compute capability 8.0 to 9.0).
constexpr int64_t kGpuMaxThreadsSm = 2048;

// Threads per block of Blocks kernels on the GPU. The tiled block kernels
// (codegen/block_kernels.cpp) size their shared arrays by it.
constexpr int64_t kGpuBlockThreads = 256;

// CPU kernels: called with a range [begin, end) of threads (Threads) or blocks (Blocks,
// block size 1) and a pointer to the argument slots.
using CpuKernelFn = void (*)(int64_t begin, int64_t end, const int64_t *slots);

extern "C" {
// Device memory for the current entry call (freed when it returns unless it holds a
// result); 0 on failure.
int64_t kerb_rt_alloc(void *ctx, int64_t bytes);
// Memory that one kernel writes and one kerb_rt_read then reads back (a reduction's
// result), at most 64 bytes: on the GPU, pinned host memory mapped into the device (the
// kernel's store crosses PCIe), so the read is a wait and a host copy, with no
// device-to-host copy queued; device memory where the device cannot map memory or for
// more bytes. The read that reads it frees it (the end of the call too); kernels must
// not read it. 0 on failure.
int64_t kerb_rt_alloc_readback(void *ctx, int64_t bytes);
// Host loops: `mark` before the loop; after each iteration `release` frees every
// allocation made since the mark that holds none of the `num_live` addresses in `live`
// (the arrays the next iteration carries), so a loop's memory does not grow.
int64_t kerb_rt_scope_mark(void *ctx);
void kerb_rt_scope_release(void *ctx, int64_t mark, const int64_t *live, int32_t num_live);
// The failure slot's device address.
int64_t kerb_rt_failure_slot(void *ctx);
// Threads per block for Blocks kernels, and how many blocks to use for n elements.
int64_t kerb_rt_block_size(void *ctx);
int64_t kerb_rt_num_blocks(void *ctx, int64_t n);
// As kerb_rt_num_blocks, but at most `per_sm` blocks per multiprocessor on the GPU
// (kernels whose blocks each merge a partial result, such as histograms in shared
// memory: few blocks that stay resident and take many elements each).
int64_t kerb_rt_resident_blocks(void *ctx, int64_t n, int64_t per_sm);
// Launches kernel `kernel` over `total` threads or blocks (see KernelDesc). slots[0] is
// the failure slot's address; `flags` says what the kernel does with it
// (kLaunchMayFail). When no kernel that may fail has been launched since the last look
// found the slot clear, the runtime passes slots[0] with bit 0 set ("certainly clear"):
// the kernel then skips its prelude. Generated code masks the bit off before using the
// address (it is at least 8-byte aligned). See docs/CHECKS.md, "The prelude".
int32_t kerb_rt_launch(void *ctx, int32_t kernel, int64_t total, const int64_t *slots,
                       int32_t num_slots, int32_t flags);
// Copies between host and device memory. A read is a sync point: it looks at the
// failure slot (if a checked kernel ran since the last look) and fails if it is set.
int32_t kerb_rt_read(void *ctx, void *host_dst, int64_t dev_src, int64_t bytes);
int32_t kerb_rt_write(void *ctx, int64_t dev_dst, const void *host_src, int64_t bytes);
int32_t kerb_rt_copy(void *ctx, int64_t dev_dst, int64_t dev_src, int64_t bytes);
// Sets `count` elements of `elem_bytes` bytes at `dev_dst` to the low bytes of `bits`
// (a memset, in order with launches): elem_bytes 1, 2 or 4, or 8 when the value's two
// 32-bit halves are equal.
int32_t kerb_rt_fill(void *ctx, int64_t dev_dst, int64_t bits, int32_t elem_bytes, int64_t count);
// A check that failed in host code: records failure `code` with its arguments; returns
// non-zero.
int32_t kerb_rt_fail(void *ctx, int32_t code, const int64_t *args, int32_t num_args);
}

} // namespace kerb
