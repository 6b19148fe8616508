"""What stream JAX asks for, and the call's time by parts (issue 20). Usage: jaxprobe.py LIB"""
import cProfile, io, pstats, sys, time
import numpy as np
import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp, jax.dlpack
import kerb
from kerb import _program as kp
gpu = jax.devices("gpu")[0]
x1 = jax.device_put(jnp.asarray(np.array([1.5], dtype=np.float32)), gpu)
i1 = jax.device_put(jnp.asarray(np.array([0], dtype=np.int64)), gpu)
lib = sys.argv[1]
prog = kerb.load(lib, "cuda")
parr = kerb.load(lib, "cuda", output="array")
seen = []
class Probe:
    def __init__(s, a): s.a = a
    def __dlpack_device__(s): return s.a.__dlpack_device__()
    def __dlpack__(s, **kw):
        seen.append(kw)
        return s.a.__dlpack__(**kw)
ka = parr.gather(x1, i1)
y = jax.dlpack.from_dlpack(Probe(ka))
print("JAX asks __dlpack__ with", seen, "own stream %#x" % prog._own_stream, flush=True)
def t(name, f, n=3000):
    for _ in range(200): f()
    jax.block_until_ready(f()); prog.sync(); parr.sync()
    t0 = time.perf_counter()
    for _ in range(n): f()
    us = (time.perf_counter() - t0) / n * 1e6
    print("%-50s %8.2f us" % (name, us), flush=True)
t("A prog.gather jax->jax", lambda: prog.gather(x1, i1))
print("lasting:", prog._lasting)
t("B parr.gather jax->Array", lambda: parr.gather(x1, i1))
t("C from_dlpack(_JaxLent(parr.gather))", lambda: jax.dlpack.from_dlpack(kp._JaxLent(parr.gather(x1, i1))))
t("D from_dlpack(parr.gather)", lambda: jax.dlpack.from_dlpack(parr.gather(x1, i1)))
t("E from_dlpack(ka) same array", lambda: jax.dlpack.from_dlpack(ka))
t("F from_dlpack(_JaxLent(ka)) same array", lambda: jax.dlpack.from_dlpack(kp._JaxLent(ka)))
keep = []
t("G from_dlpack(ka), results kept", lambda: keep.append(jax.dlpack.from_dlpack(ka)), n=2000)
keep.clear()
t("H ka.__dlpack__(stream=S) dropped", lambda: ka.__dlpack__(stream=seen[0].get("stream") if seen else None))
pr = cProfile.Profile(); pr.enable()
for _ in range(2000): prog.gather(x1, i1)
pr.disable()
s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18); print(s.getvalue())
