# spmv kernels at capped occupancy: dynamic shared memory per block with a fixed carveout.
import sys, zlib, glob, os, statistics
import numpy as np, cupy as cp
sys.argv += ["7"]
exec(open(os.path.join(os.path.dirname(__file__), "harness.py")).read().split("variants = {}")[0])
from cupy.cuda import driver
ATTR_MAXDYN, ATTR_CARVEOUT = 8, 9
def ptx_fn(path):
    return cp.RawModule(path=path).get_function("kerb_kernel_0_map")
def launcher(f, is_ptx, cv, smem):
    if cv is not None: f.preferred_shared_memory_carveout = cv
    f.max_dynamic_shared_size_bytes = 64 * 1024
    y = cp.zeros(rows, cp.float32); slot = cp.full(4, -1, dtype=cp.int32)
    grid = ((rows + 255) // 256,)
    if is_ptx:
        def p(a): return U(a.data.ptr)
        args = (U(slot.data.ptr | 1), U(rows), p(d_rp), U(rows), U(1), p(d_re), U(rows), U(1),
                p(d_c), U(nnz), U(1), p(d_v), U(nnz), U(1), p(d_x), U(ncols), U(1), U(0),
                p(y), U(rows), U(1))
    else:
        args = (d_rp, d_re, d_c, d_v, d_x, y, np.int64(rows), np.int64(ncols), slot)
    return (lambda: f(grid, (256,), args, shared_mem=smem)), y, slot
def cfg(B, C_kb):
    # carveout C KB of 228, B blocks: unit = C / B rounded down to 128 B, S = unit - 1 KB reserved
    unit = (C_kb * 1024 // B) // 128 * 128
    assert (B + 1) * unit > C_kb * 1024
    return (f"{B}b/{C_kb}k", C_kb * 100 // 228, unit - 1024)
configs = [("dflt", None, 0)] + [cfg(B, C) for B in (4, 5, 6) for C in (8, 16, 32, 64, 100, 132)]
d = os.path.dirname(__file__)
kernels = {k: (lambda k=k: (ptx_fn(os.path.join(d, k + ".ptx")), True)) for k in ["u", "c"]}
kernels["cu_plain_r32"] = lambda: (cp.RawModule(code=CUDA, options=("-arch=sm_90", "--maxrregcount=32")).get_function("plain"), False)
variants = {}
for kn, mk in kernels.items():
    for cn, cv, sm in configs:
        f, is_ptx = mk()
        variants[f"{kn}@{cn}"] = launcher(f, is_ptx, cv, sm)
refy = None
for name, (run, y, slot) in variants.items():
    run(); cp.cuda.Device().synchronize()
    h = cp.asnumpy(y)
    if refy is None: refy = h
    if not np.allclose(h, refy, rtol=1e-4, atol=1e-4): print("MISMATCH", name)
times = {k: [] for k in variants}
ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
for rnd in range(7):
    for name, (run, y, slot) in variants.items():
        for _ in range(3): run()
        for _ in range(10):
            ev0.record(); run(); ev1.record(); ev1.synchronize()
            times[name].append(cp.cuda.get_elapsed_time(ev0, ev1))
med = {k: statistics.median(t) for k, t in times.items()}
print(f"{'config':8s} " + " ".join(f"{k:>13s}" for k in kernels) + "   c/u")
for cn, cv, sm in configs:
    row = [med[f"{k}@{cn}"] for k in kernels]
    print(f"{cn:8s} " + " ".join(f"{v:13.4f}" for v in row) + f"  {row[1]/row[0]:.3f}  (carveout {cv}%, {sm} B)")
