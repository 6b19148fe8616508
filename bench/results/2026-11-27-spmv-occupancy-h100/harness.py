# A/B of spmv kernel variants (PTX files and CUDA sources) in one process, H100.
import sys, zlib, glob, os, statistics
import numpy as np, cupy as cp

rows, maxlen, ncols = 1 << 21, 32, 1 << 21
r = np.random.default_rng(zlib.crc32(b"spmv"))
offs = np.zeros(rows + 1, np.int64)
np.cumsum(r.integers(0, maxlen, rows), out=offs[1:])
nnz = int(offs[-1])
cols = r.integers(0, ncols, nnz, dtype=np.int64)
vals = (r.random(nnz, dtype=np.float32) * 2 - 1).astype(np.float32)
x = (r.random(ncols, dtype=np.float32) * 2 - 1).astype(np.float32)
d_rp, d_re = cp.asarray(offs[:-1]), cp.asarray(offs[1:])
d_c, d_v, d_x = cp.asarray(cols), cp.asarray(vals), cp.asarray(x)
ref = None
U = np.uint64

CUDA = r'''
extern "C" __global__ void twopass(const long long* __restrict__ rp, const long long* __restrict__ re,
  const long long* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
  float* __restrict__ y, long long n, long long m, int* flag) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  long long s = rp[r], e = re[r];
  unsigned long long mx = 0;
  for (long long k = s; k < e; k++) { unsigned long long c = cols[k]; mx = c > mx ? c : mx; }
  float acc = 0;
  if (mx < (unsigned long long)m) {
    for (long long k = s; k < e; k++) acc += vals[k] * __ldg(&x[cols[k]]);
  } else *flag = 1;
  y[r] = acc;
}
extern "C" __global__ void plain(const long long* __restrict__ rp, const long long* __restrict__ re,
  const long long* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
  float* __restrict__ y, long long n, long long m, int* flag) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  long long s = rp[r], e = re[r];
  float acc = 0;
  for (long long k = s; k < e; k++) acc += vals[k] * __ldg(&x[cols[k]]);
  y[r] = acc;
}
extern "C" __global__ void clampflag(const long long* __restrict__ rp, const long long* __restrict__ re,
  const long long* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
  float* __restrict__ y, long long n, long long m, int* flag) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  long long s = rp[r], e = re[r];
  float acc = 0; bool bad = false;
  for (long long k = s; k < e; k++) { long long c = cols[k]; bool o = (unsigned long long)c >= (unsigned long long)m;
    bad |= o; acc += vals[k] * __ldg(&x[o ? 0 : c]); }
  y[r] = acc; if (bad) *flag = 1;
}

extern "C" __global__ void plain_gs(const long long* __restrict__ rp, const long long* __restrict__ re,
  const long long* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
  float* __restrict__ y, long long n, long long m, int* flag) {
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < n; r += (long long)gridDim.x * blockDim.x) {
    long long s = rp[r], e = re[r];
    float acc = 0;
    for (long long k = s; k < e; k++) acc += vals[k] * __ldg(&x[cols[k]]);
    y[r] = acc;
  }
}
'''

def ptx_launcher(path):
    mod = cp.RawModule(path=path)
    f = mod.get_function("kerb_kernel_0_map")
    slot = cp.full(4, -1, dtype=cp.int32)
    y = cp.zeros(rows, cp.float32)
    def p(a): return U(a.data.ptr)
    args = [U(slot.data.ptr | 1), U(rows), p(d_rp), U(rows), U(1), p(d_re), U(rows), U(1),
            p(d_c), U(nnz), U(1), p(d_v), U(nnz), U(1), p(d_x), U(ncols), U(1), U(0),
            p(y), U(rows), U(1)]
    grid = ((rows + 255) // 256,)
    return (lambda: f(grid, (256,), tuple(args))), y, slot

def cu_launcher(name, opts=(), blocks=None):
    mod = cp.RawModule(code=CUDA, options=("-arch=sm_90",) + tuple(opts))
    f = mod.get_function(name)
    y = cp.zeros(rows, cp.float32); flag = cp.zeros(4, cp.int32)
    grid = ((rows + 255) // 256,) if blocks is None else (blocks,)
    return (lambda: f(grid, (256,), (d_rp, d_re, d_c, d_v, d_x, y, np.int64(rows), np.int64(ncols), flag))), y, flag

variants = {}
for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "*.ptx"))):
    variants[os.path.basename(path)[:-4]] = ptx_launcher(path)
for name in ["plain", "clampflag"]:
    variants["cu_" + name] = cu_launcher(name)
variants["cu_plain_r32"] = cu_launcher("plain", ("--maxrregcount=32",))
variants["cu_clampflag_r32"] = cu_launcher("clampflag", ("--maxrregcount=32",))
sms = cp.cuda.Device().attributes["MultiProcessorCount"]
for b in [8, 7, 6, 5, 4]:
    variants[f"cu_gs{b}"] = cu_launcher("plain_gs", ("--maxrregcount=32",), blocks=sms * b)

refy = None
for name, (run, y, slot) in variants.items():
    run(); cp.cuda.Device().synchronize()
    h = cp.asnumpy(y)
    if refy is None: refy = h
    ok = np.allclose(h, refy, rtol=1e-4, atol=1e-4)
    print(f"{name}: matches u={ok} slot={cp.asnumpy(slot)[:2]}", flush=True)

times = {k: [] for k in variants}
ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
for rnd in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
    for name, (run, y, slot) in variants.items():
        for _ in range(3): run()
        for _ in range(10):
            ev0.record(); run(); ev1.record(); ev1.synchronize()
            times[name].append(cp.cuda.get_elapsed_time(ev0, ev1))
base = statistics.median(times["u"])
print(f"{'variant':12s} {'median ms':>10s} {'vs u':>7s}  min")
for name, t in times.items():
    m = statistics.median(t)
    print(f"{name:12s} {m:10.4f} {m/base:7.3f}x {min(t):.4f}")
