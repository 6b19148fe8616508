# spmv (kerb's kernels u: --unsafe, c: default) at B blocks an SM and a shared-memory
# carveout of C KB (L1 = 256 - C), the blocks verified by probe.py's kernel.
import os, sys, statistics
sys.argv = [sys.argv[0], "7"]
here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "occ.py")).read().split("configs = ")[0]
exec(src)
import probe
def cfgC(B, C):
    if C is None: return (f"{B}b/dflt", None, 0 if B == 8 else None)
    unit = (C * 1024 // B) // 128 * 128
    assert (B + 1) * unit > C * 1024
    return (f"{B}b/{C}k", C * 100 // 228, max(unit - 1024, 0))
configs = [c for c in (cfgC(B, C) for B in (8, 6, 5, 4) for C in (None, 100, 132, 164, 196, 228)) if c[2] is not None]
kernels = {k: (lambda k=k: (ptx_fn(os.path.join(here, k + ".ptx")), True)) for k in ["u", "c"]}
variants = {}
for kn, mk in kernels.items():
    for cn, cv, sm in configs:
        f, is_ptx = mk()
        variants[f"{kn}@{cn}"] = launcher(f, is_ptx, cv, sm)
times = {k: [] for k in variants}
ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
for rnd in range(7):
    for name, (run, y, slot) in variants.items():
        for _ in range(3): run()
        for _ in range(10):
            ev0.record(); run(); ev1.record(); ev1.synchronize()
            times[name].append(cp.cuda.get_elapsed_time(ev0, ev1))
med = {k: statistics.median(t) for k, t in times.items()}
print(f"{'config':10s} {'blocks':>7s} {'u ms':>8s} {'c ms':>8s}  c/u")
for cn, cv, sm in configs:
    print(f"{cn:10s} {probe.resident(cv, sm):>7s} {med['u@' + cn]:8.4f} {med['c@' + cn]:8.4f}  {med['c@' + cn] / med['u@' + cn]:.3f}  ({cv}%, {sm} B)")
