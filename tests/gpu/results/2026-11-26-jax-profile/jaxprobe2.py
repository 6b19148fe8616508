"""The JAX call's parts again, in alternating order (issue 20). Usage: jaxprobe2.py LIB"""
import sys, time
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
pjax = kerb.load(lib, "cuda", output="jax")
def t(name, f, n=3000):
    for _ in range(300): f()
    jax.block_until_ready(f()); prog.sync(); parr.sync(); pjax.sync()
    t0 = time.perf_counter()
    for _ in range(n): f()
    us = (time.perf_counter() - t0) / n * 1e6
    print("%-52s %8.2f us" % (name, us), flush=True)
A = lambda: prog.gather(x1, i1)
D = lambda: jax.dlpack.from_dlpack(parr.gather(x1, i1))
B = lambda: parr.gather(x1, i1)
J = lambda: pjax.gather(x1, i1)
kx, ki = parr.array([1.5], dtype="f32"), parr.array([0], dtype="i64")
K = lambda: jax.dlpack.from_dlpack(parr.gather(kx, ki))
for r in range(2):
    t("D from_dlpack(parr.gather(jax))", D)
    t("A prog.gather (auto -> jax)", A)
    t("J pjax.gather (output=jax)", J)
    t("B parr.gather -> Array", B)
    t("K from_dlpack(parr.gather(Array))", K)
# Keep results alive (no drop path): 
keep = []
t("A, results kept", lambda: keep.append(A()), n=2000)
keep.clear()
t("D, results kept", lambda: keep.append(D()), n=2000)
keep.clear()
