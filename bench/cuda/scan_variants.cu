// Prototypes of the i32 inclusive scan of bench/scan.fut for issue 17 (scan at >= 0.95x
// of torch.cumsum on the H100), to find by hand which design reaches CUB's speed
// before codegen/scan_kernels.cpp is changed: a single pass with decoupled look-back in
// a few tile shapes, with and without a per-launch clear of the statuses and with CUB's
// sm_90 delays, and reduce-then-scan with the same tiles (Note [Scan variants]).
// bench/run_gpu_scan_variants.sh runs them all next to torch.cumsum.
//
// Every call's result is compared on the device with a scan computed on the host at
// setup (Note [Scan variants], checks); a mismatch ends the run with status 2.
// KCB_SCAN_DELAY=AFTER,SPIN (nanoseconds) overrides the look-back's delays of every
// single-pass variant (the scripts use it to try CUB's delays in another shape).
#include "common.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kcb {
namespace {

// Note [Scan variants]
// ~~~~~~~~~~~~~~~~~~~~
// Tiles. A block of NT threads scans a tile of NT * ITEMS consecutive elements (ITEMS a
// multiple of 4). Each warp owns a contiguous 32 * ITEMS of it and moves it between
// global and registers through its own slice of shared memory: lane l loads the
// 16-byte vectors l, l + 32, ... of the warp's part (each load instruction of the warp
// reads 512 contiguous bytes), stores them to the slice, and after a warp barrier reads
// back its ITEMS consecutive elements as ITEMS / 4 vectors (blocked); the store is the
// same backwards. A slice of an even number of vectors per lane is padded by one vector
// in 8 (`slot`), so that the eight lanes of each quarter-warp's 16-byte access hit
// distinct bank groups both ways; an odd number needs no padding. Only warp barriers
// here: the block's barriers are the ticket's, the warps' totals' and the prefix's.
// A warp whose part reaches past n loads and stores element by element, zeros past n.
//
// The scan of a tile: each thread scans its ITEMS in registers; a warp-shuffle scan of
// the threads' totals; lane 31 writes the warp's total; one block barrier; then every
// warp scans the (at most 32) warps' totals with shuffles, which gives each thread its
// exclusive prefix in the tile and the tile's aggregate, in every thread.
//
// Single pass (scan_sp_*). A tile is taken from a ticket (atomicInc on a counter by
// thread 0, shared through a barrier; atomicInc wraps the counter back to 0 at the last
// ticket, so it needs no clearing between launches). Tile j's status is one 64-bit word,
// written and read with one st.relaxed.gpu / ld.relaxed.gpu: bits 0-31 the value, 32-33
// the flag (1 A: the tile's aggregate, 2 P: its inclusive prefix), 34-63 the launch's
// epoch. A word whose epoch is not this launch's reads as X (nothing yet), so the
// statuses are never cleared per launch: the buffer is zeroed once at setup and the
// host counts launches, clearing again only when the 30-bit epoch would wrap
// (scan_sp_256x16_memset instead clears the words every launch with cudaMemsetAsync and
// a constant epoch, as Kerb's kerb_rt_fill does, to measure what the clear costs).
// After the tile's scan, the block's first warp does the look-back: lane 0 publishes
// A (tile 0: P), and the warp reads the 32 predecessors tile - 1 - lane at once,
// re-reading all of them while any lane still sees X (__any_sync); a ballot of the P
// lanes gives the newest P (the lowest such lane); the values of the lanes up to it are
// summed with one __reduce_add_sync; with no P, the whole window is summed and the
// window moves 32 tiles back. Lane 0 publishes P = prefix + aggregate and puts the
// prefix in shared memory; after a barrier every thread adds it and stores.
// Memory order: the flag and the value travel in one aligned 64-bit word, and nothing
// else crosses blocks (the tile's own data is read-only input and its own output), so
// relaxed gpu-scope accesses suffice: a single-copy-atomic word is never seen torn, and
// no fence or acquire is needed. (A status of several words, as Kerb's for i64, f64 and
// tuples, needs release/acquire or membar.gl between value and flag.) Tickets follow
// the order in which blocks start, so every predecessor a block waits for is running.
// Delays (CUB's sm_90 tuning for 4-byte sums: 128 threads, 24 items, 1245 ns after
// publishing A and 648 ns between re-reads, only when the grid has >= 500 blocks):
// __nanosleep, so that fewer polls of not-yet-written statuses compete for L2.
//
// Reduce-then-scan (scan_rts_256x16): the tiles are split into one contiguous range per
// resident block (the occupancy of the scan kernel times the multiprocessors); launch 1
// sums each range with 16-byte loads (walking it from its end, so that its first tiles
// are the most recently read, likelier still in L2 when launch 2 starts there); launch 2
// has each block reduce the totals of the ranges before its own (no launch in between)
// and scan its range tile by tile with the same tile code, carrying the running sum.
// It reads the input twice: its floor at the copy rate is 768 MB / 2.92 TB/s = 0.263 ms.
//
// Checks. The host computes the expected scan at setup (wrapping as i32); after every
// call (outside the timed region) a kernel counts the elements that differ and finds
// the first, so that a rare ordering bug shows in any of the calls, not only the last.

using u64 = unsigned long long;

constexpr u64 kFlagAggregate = 1, kFlagPrefix = 2;
constexpr unsigned kEpochLimit = 1u << 30;

__device__ __forceinline__ u64 load_relaxed(const u64 *p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(u64 *p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ u64 status_word(unsigned epoch, u64 flag, int value) {
  return (u64(epoch) << 34) | (flag << 32) | u64(unsigned(value));
}
// The flag of a status word read in launch `epoch` (0: X).
__device__ __forceinline__ unsigned status_flag(u64 w, unsigned epoch) {
  return unsigned(w >> 34) == epoch ? unsigned(w >> 32) & 3u : 0u;
}

// One tile of NT threads x ITEMS elements (Note [Scan variants]).
template <int NT, int ITEMS> struct TileScan {
  static_assert(ITEMS % 4 == 0 && NT % 32 == 0 && NT <= 1024, "a tile of whole vectors and warps");
  static constexpr int kVecs = ITEMS / 4, kWarps = NT / 32, kTile = NT * ITEMS;
  static constexpr bool kPad = kVecs % 2 == 0;
  // Vectors of a warp's slice of shared memory.
  static constexpr int kSlice = 32 * kVecs + (kPad ? 4 * kVecs : 0);

  __device__ __forceinline__ static int slot(int v) { return kPad ? v + v / 8 : v; }

  // This warp's part of the tile at `base` into v, blocked; zeros past n.
  __device__ __forceinline__ static void load(const int *__restrict__ in, int64_t base, int64_t n, int4 *slice,
                                              int (&v)[ITEMS]) {
    int lane = threadIdx.x & 31;
    int64_t wbase = base + int64_t(threadIdx.x >> 5) * (32 * ITEMS);
    __syncwarp(); // the slice may still be read by the store of an earlier tile
    if (wbase + 32 * ITEMS <= n) {
      const int4 *src = reinterpret_cast<const int4 *>(in + wbase);
      int4 r[kVecs];
#pragma unroll
      for (int k = 0; k < kVecs; k++) r[k] = __ldg(src + k * 32 + lane);
#pragma unroll
      for (int k = 0; k < kVecs; k++) slice[slot(k * 32 + lane)] = r[k];
    } else {
      int *s = reinterpret_cast<int *>(slice);
      for (int k = 0; k < ITEMS; k++) {
        int e = k * 32 + lane;
        int64_t g = wbase + e;
        s[slot(e / 4) * 4 + e % 4] = g < n ? in[g] : 0;
      }
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < kVecs; j++) {
      int4 x = slice[slot(lane * kVecs + j)];
      v[4 * j] = x.x;
      v[4 * j + 1] = x.y;
      v[4 * j + 2] = x.z;
      v[4 * j + 3] = x.w;
    }
  }

  // v (blocked) to this warp's part of the tile at `base`, up to n. The blocked writes
  // go to the slots this lane read in `load`, so they need no barrier before them.
  __device__ __forceinline__ static void store(int *__restrict__ out, int64_t base, int64_t n, int4 *slice,
                                               const int (&v)[ITEMS]) {
    int lane = threadIdx.x & 31;
    int64_t wbase = base + int64_t(threadIdx.x >> 5) * (32 * ITEMS);
#pragma unroll
    for (int j = 0; j < kVecs; j++)
      slice[slot(lane * kVecs + j)] = make_int4(v[4 * j], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
    __syncwarp();
    if (wbase + 32 * ITEMS <= n) {
      int4 *dst = reinterpret_cast<int4 *>(out + wbase);
#pragma unroll
      for (int k = 0; k < kVecs; k++) dst[k * 32 + lane] = slice[slot(k * 32 + lane)];
    } else {
      const int *s = reinterpret_cast<const int *>(slice);
      for (int k = 0; k < ITEMS; k++) {
        int e = k * 32 + lane;
        int64_t g = wbase + e;
        if (g < n) out[g] = s[slot(e / 4) * 4 + e % 4];
      }
    }
  }

  // Scans v in place within the thread; gives the thread's exclusive prefix in the tile
  // and the tile's aggregate, in every thread. One block barrier; `totals` (kWarps
  // ints) must not be read by an earlier tile's scan any more (alternate two buffers).
  __device__ __forceinline__ static void scan(int (&v)[ITEMS], int *totals, int &exclusive, int &aggregate) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int i = 1; i < ITEMS; i++) v[i] += v[i - 1];
    int mine = v[ITEMS - 1], x = mine;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, x, o);
      if (lane >= o) x += y;
    }
    if (lane == 31) totals[warp] = x;
    __syncthreads();
    int w = lane < kWarps ? totals[lane] : 0;
#pragma unroll
    for (int o = 1; o < kWarps; o <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, w, o);
      if (lane >= o) w += y;
    }
    aggregate = __shfl_sync(0xffffffffu, w, kWarps - 1);
    int before = __shfl_sync(0xffffffffu, w, warp > 0 ? warp - 1 : 0);
    exclusive = (warp > 0 ? before : 0) + x - mine;
  }
};

// Run by the 32 lanes of the block's first warp: publishes the tile's aggregate, looks
// back over the predecessors' statuses and publishes its inclusive prefix; gives the
// tile's exclusive prefix (Note [Scan variants]).
__device__ int look_back(u64 *__restrict__ status, unsigned tile, unsigned epoch, int aggregate, int after_ns,
                         int spin_ns) {
  int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) store_relaxed(&status[0], status_word(epoch, kFlagPrefix, aggregate));
    return 0;
  }
  if (lane == 0) store_relaxed(&status[tile], status_word(epoch, kFlagAggregate, aggregate));
  bool nap = gridDim.x >= 500; // as CUB: no delays in small grids
  if (nap && after_ns > 0) __nanosleep(unsigned(after_ns));
  int prefix = 0;
  int64_t newest = int64_t(tile) - 1;
  for (;;) {
    int64_t j = newest - lane;
    u64 w = 0;
    unsigned flag = unsigned(kFlagPrefix); // before tile 0: never folded (tile 0 is P)
    if (j >= 0) {
      w = load_relaxed(&status[j]);
      flag = status_flag(w, epoch);
    }
    while (__any_sync(0xffffffffu, flag == 0)) {
      if (nap && spin_ns > 0) __nanosleep(unsigned(spin_ns));
      if (j >= 0) {
        w = load_relaxed(&status[j]);
        flag = status_flag(w, epoch);
      }
    }
    unsigned p = __ballot_sync(0xffffffffu, flag == unsigned(kFlagPrefix));
    int last = p ? __ffs(p) - 1 : 31; // the newest P, or the whole window
    int value = lane <= last && j >= 0 ? int(unsigned(w)) : 0;
    prefix += __reduce_add_sync(0xffffffffu, value);
    if (p) break;
    newest -= 32;
  }
  if (lane == 0) store_relaxed(&status[tile], status_word(epoch, kFlagPrefix, prefix + aggregate));
  return prefix;
}

template <int NT, int ITEMS>
__global__ void __launch_bounds__(NT) scan_single_pass(const int *__restrict__ in, int *__restrict__ out, int64_t n,
                                                      unsigned tiles, unsigned *__restrict__ counter,
                                                      u64 *__restrict__ status, unsigned epoch, int after_ns,
                                                      int spin_ns) {
  using T = TileScan<NT, ITEMS>;
  __shared__ int4 slices[T::kWarps * T::kSlice];
  __shared__ int totals[T::kWarps];
  __shared__ unsigned ticket;
  __shared__ int tile_prefix;
  if (threadIdx.x == 0) ticket = atomicInc(counter, tiles - 1);
  __syncthreads();
  unsigned tile = ticket;
  int64_t base = int64_t(tile) * T::kTile;
  int4 *slice = slices + (threadIdx.x >> 5) * T::kSlice;
  int v[ITEMS];
  T::load(in, base, n, slice, v);
  int exclusive, aggregate;
  T::scan(v, totals, exclusive, aggregate);
  if (threadIdx.x < 32) {
    int prefix = look_back(status, tile, epoch, aggregate, after_ns, spin_ns);
    if (threadIdx.x == 0) tile_prefix = prefix;
  }
  __syncthreads();
  int add = tile_prefix + exclusive;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) v[i] += add;
  T::store(out, base, n, slice, v);
}

// Reduce-then-scan, launch 1: the sum of each block's range of tiles, walked from its
// last tile to its first.
template <int NT, int ITEMS>
__global__ void __launch_bounds__(NT) rts_totals(const int *__restrict__ in, int64_t n, int64_t tiles,
                                                int64_t per_block, int *__restrict__ totals) {
  using T = TileScan<NT, ITEMS>;
  int64_t first = int64_t(blockIdx.x) * per_block, last = min(tiles, first + per_block);
  int acc = 0;
  for (int64_t t = last - 1; t >= first; t--) {
    int64_t base = t * T::kTile;
    if (base + T::kTile <= n) {
      const int4 *src = reinterpret_cast<const int4 *>(in + base);
      int4 r[T::kVecs];
#pragma unroll
      for (int k = 0; k < T::kVecs; k++) r[k] = __ldg(src + k * NT + threadIdx.x);
#pragma unroll
      for (int k = 0; k < T::kVecs; k++) acc += (r[k].x + r[k].y) + (r[k].z + r[k].w);
    } else {
      for (int64_t g = base + threadIdx.x; g < n; g += NT) acc += in[g];
    }
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) totals[blockIdx.x] = acc;
}

// Reduce-then-scan, launch 2: each block sums the totals of the blocks before its own,
// then scans its range tile by tile from there.
template <int NT, int ITEMS>
__global__ void __launch_bounds__(NT) rts_scan(const int *__restrict__ in, int *__restrict__ out, int64_t n,
                                              int64_t tiles, int64_t per_block, const int *__restrict__ totals) {
  using T = TileScan<NT, ITEMS>;
  __shared__ int4 slices[T::kWarps * T::kSlice];
  __shared__ int wtotals[2][T::kWarps];
  int carry = 0;
  for (int b = threadIdx.x; b < int(blockIdx.x); b += NT) carry += totals[b];
  carry = block_sum(carry);
  int64_t first = int64_t(blockIdx.x) * per_block, last = min(tiles, first + per_block);
  int4 *slice = slices + (threadIdx.x >> 5) * T::kSlice;
  for (int64_t t = first; t < last; t++) {
    int64_t base = t * T::kTile;
    int v[ITEMS];
    T::load(in, base, n, slice, v);
    int exclusive, aggregate;
    T::scan(v, wtotals[t & 1], exclusive, aggregate);
    int add = carry + exclusive;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) v[i] += add;
    T::store(out, base, n, slice, v);
    carry += aggregate;
  }
}

// Counts the elements of `got` that differ from `want` and the first index of one.
__global__ void count_mismatches(const int *__restrict__ got, const int *__restrict__ want, int64_t n,
                                 unsigned long long *__restrict__ result) {
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  unsigned long long count = 0, first = ~0ull;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (got[i] != want[i]) {
      count++;
      if (first == ~0ull) first = (unsigned long long)i;
    }
  if (count) {
    atomicAdd(&result[0], count);
    atomicMin(&result[1], first);
  }
}

// The input, the result and the expected result of every variant, and the check after
// each call.
class ScanVariant : public Benchmark {
public:
  explicit ScanVariant(const char *name) : name_(name) {}
  void setup(const std::vector<HostArray> &in) override {
    expect_inputs(in, {{"i32", 1}}, name_);
    n_ = in[0].count();
    xs_.upload(in[0]);
    out_.resize(n_);
    HostArray want = HostArray::make("i32", {n_});
    const int *x = in[0].data<int>();
    int *w = want.data<int>();
    unsigned acc = 0; // wraps as i32 does
    for (int64_t i = 0; i < n_; i++) w[i] = int(acc += unsigned(x[i]));
    want_.upload(want);
    check_.resize(2);
    prepare();
  }
  std::vector<HostArray> results() override { return {out_.download("i32", {n_})}; }
  void after_call() override {
    calls_++;
    if (n_ == 0) return;
    unsigned long long init[2] = {0, ~0ull}, got[2];
    CUDA_CHECK(cudaMemcpy(check_.get(), init, sizeof init, cudaMemcpyHostToDevice));
    count_mismatches<<<multiprocessors() * 4, kBlock>>>(out_.get(), want_.get(), n_, check_.get());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(got, check_.get(), sizeof got, cudaMemcpyDeviceToHost));
    if (got[0] == 0) return;
    int at = 0, expected = 0;
    CUDA_CHECK(cudaMemcpy(&at, out_.get() + got[1], sizeof at, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&expected, want_.get() + got[1], sizeof expected, cudaMemcpyDeviceToHost));
    fail(std::string(name_) + ": call " + std::to_string(calls_) + " of n = " + std::to_string(n_) + ": " +
         std::to_string(got[0]) + " elements differ from the expected scan, the first at index " +
         std::to_string(got[1]) + " (" + std::to_string(at) + ", expected " + std::to_string(expected) + ")");
  }

protected:
  virtual void prepare() = 0;
  const char *name_;
  DeviceBuffer<int> xs_, out_, want_;
  DeviceBuffer<unsigned long long> check_;
  int64_t n_ = 0;
  long calls_ = 0;
};

// The look-back's delays: the variant's, or KCB_SCAN_DELAY=AFTER,SPIN.
std::pair<int, int> delays(std::pair<int, int> fallback) {
  const char *e = std::getenv("KCB_SCAN_DELAY");
  if (!e || !*e) return fallback;
  int after = 0, spin = 0;
  char extra = 0;
  if (std::sscanf(e, "%d,%d%c", &after, &spin, &extra) != 2 || after < 0 || spin < 0 || after > 100000 ||
      spin > 100000)
    fail("KCB_SCAN_DELAY must be AFTER,SPIN: two numbers of nanoseconds (0 to 100000)");
  return {after, spin};
}

template <int NT, int ITEMS> class SinglePass : public ScanVariant {
public:
  SinglePass(const char *name, bool clear_each_call, std::pair<int, int> delay)
      : ScanVariant(name), clear_(clear_each_call), delay_(delays(delay)) {}
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    if (clear_) {
      CUDA_CHECK(cudaMemsetAsync(status_.get(), 0, size_t(tiles_) * sizeof(u64), s));
      epoch_ = 1;
    } else if (++epoch_ == kEpochLimit) {
      CUDA_CHECK(cudaMemsetAsync(status_.get(), 0, size_t(tiles_) * sizeof(u64), s));
      epoch_ = 1;
    }
    scan_single_pass<NT, ITEMS><<<tiles_, NT, 0, s>>>(xs_.get(), out_.get(), n_, tiles_, counter_.get(),
                                                      status_.get(), epoch_, delay_.first, delay_.second);
    CUDA_CHECK_LAUNCH();
  }

private:
  void prepare() override {
    int64_t tiles = (n_ + TileScan<NT, ITEMS>::kTile - 1) / TileScan<NT, ITEMS>::kTile;
    if (tiles > int64_t(0x7fffffff)) fail(std::string(name_) + ": too many tiles");
    tiles_ = unsigned(tiles);
    status_.resize(tiles);
    counter_.resize(1);
    CUDA_CHECK(cudaMemset(status_.get(), 0, size_t(tiles) * sizeof(u64)));
    CUDA_CHECK(cudaMemset(counter_.get(), 0, sizeof(unsigned)));
  }
  bool clear_;
  std::pair<int, int> delay_;
  DeviceBuffer<u64> status_;
  DeviceBuffer<unsigned> counter_;
  unsigned tiles_ = 0, epoch_ = 0;
};

template <int NT, int ITEMS> class ReduceThenScan : public ScanVariant {
public:
  using ScanVariant::ScanVariant;
  void run(cudaStream_t s) override {
    if (n_ == 0) return;
    rts_totals<NT, ITEMS><<<blocks_, NT, 0, s>>>(xs_.get(), n_, tiles_, per_block_, totals_.get());
    CUDA_CHECK_LAUNCH();
    rts_scan<NT, ITEMS><<<blocks_, NT, 0, s>>>(xs_.get(), out_.get(), n_, tiles_, per_block_, totals_.get());
    CUDA_CHECK_LAUNCH();
  }

private:
  void prepare() override {
    tiles_ = (n_ + TileScan<NT, ITEMS>::kTile - 1) / TileScan<NT, ITEMS>::kTile;
    int resident = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, rts_scan<NT, ITEMS>, NT, 0));
    int64_t want = int64_t(multiprocessors()) * (resident > 0 ? resident : 1);
    per_block_ = (tiles_ + want - 1) / want;
    if (per_block_ < 1) per_block_ = 1;
    blocks_ = unsigned((tiles_ + per_block_ - 1) / per_block_);
    totals_.resize(blocks_);
  }
  DeviceBuffer<int> totals_;
  int64_t tiles_ = 0, per_block_ = 1;
  unsigned blocks_ = 0;
};

constexpr std::pair<int, int> kNoDelay{0, 0}, kCubDelay{1245, 648};

template <int NT, int ITEMS> BenchmarkInfo single_pass(const char *name, const char *about, bool clear,
                                                       std::pair<int, int> delay) {
  return {name, "bench/scan.fut", "main", about,
          [=] { return std::make_unique<SinglePass<NT, ITEMS>>(name, clear, delay); }};
}

Register sp_256x8(single_pass<256, 8>("scan_sp_256x8", "single pass, 256 threads x 8 items", false, kNoDelay));
Register sp_256x12(single_pass<256, 12>("scan_sp_256x12", "single pass, 256 threads x 12 items", false, kNoDelay));
Register sp_256x16(single_pass<256, 16>("scan_sp_256x16", "single pass, 256 threads x 16 items", false, kNoDelay));
Register sp_256x20(single_pass<256, 20>("scan_sp_256x20", "single pass, 256 threads x 20 items", false, kNoDelay));
Register sp_512x16(single_pass<512, 16>("scan_sp_512x16", "single pass, 512 threads x 16 items", false, kNoDelay));
Register sp_128x24(single_pass<128, 24>("scan_sp_128x24_delay",
                                        "single pass, 128 threads x 24 items, CUB's sm_90 look-back delays",
                                        false, kCubDelay));
Register sp_memset(single_pass<256, 16>("scan_sp_256x16_memset",
                                        "single pass, 256 x 16, statuses cleared by a memset every call", true,
                                        kNoDelay));
Register rts_256x16({"scan_rts_256x16", "bench/scan.fut", "main",
                     "reduce-then-scan in two launches, 256 x 16 tiles, 16-byte loads, a range of tiles a block",
                     [] { return std::make_unique<ReduceThenScan<256, 16>>("scan_rts_256x16"); }});

} // namespace
} // namespace kcb
