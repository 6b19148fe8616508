# Blocks resident per SM for (carveout %, dynamic shared bytes) configs: a probe kernel
# counts the blocks on its SM while they all spin.
import cupy as cp, numpy as np
SRC = r'''
extern "C" __global__ void probe(int* cur, int* mx, long long spin) {
  unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (threadIdx.x == 0) { int v = atomicAdd(&cur[smid], 1) + 1; atomicMax(&mx[smid], v); }
  long long t0 = clock64(); while (clock64() - t0 < spin) {}
  __syncthreads();
  if (threadIdx.x == 0) atomicSub(&cur[smid], 1);
}'''
sms = cp.cuda.Device().attributes["MultiProcessorCount"]
def resident(cv, smem):
    f = cp.RawModule(code=SRC, options=("-arch=sm_90",)).get_function("probe")
    if cv is not None: f.preferred_shared_memory_carveout = cv
    f.max_dynamic_shared_size_bytes = 64 * 1024
    cur = cp.zeros(256, cp.int32); mx = cp.zeros(256, cp.int32)
    f((sms * 12,), (256,), (cur, mx, np.int64(2_000_000)), shared_mem=smem)
    cp.cuda.Device().synchronize()
    m = cp.asnumpy(mx)[:sms]
    return f"{m.min()}-{m.max()}"
if __name__ == "__main__":
    for cv, smem in [(None, 0), (58, 25 * 1024), (58, 21 * 1024), (58, 32 * 1024), (57, 25984), (57, 32768),
                     (43, 19456), (43, 24576), (28, 12032), (14, 5504), (7, 2176), (3, 512), (0, 512),
                     (100, 0), (0, 0), (58, 0)]:
        print(f"carveout {cv}% smem {smem}: blocks/SM {resident(cv, smem)}", flush=True)
