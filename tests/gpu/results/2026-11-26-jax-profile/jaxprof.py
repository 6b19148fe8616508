"""Where a kerb call on JAX arrays spends its time (issue 20): each piece timed alone,
then cProfile of the whole call. Usage: python3 jaxprof.py LIBPROG.so"""
import cProfile
import io
import pstats
import sys
import time

import numpy as np
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.dlpack

import kerb

lib = sys.argv[1]
gpu = jax.devices("gpu")[0]
x1 = jax.device_put(jnp.asarray(np.array([1.5], dtype=np.float32)), gpu)
i1 = jax.device_put(jnp.asarray(np.array([0], dtype=np.int64)), gpu)
x1.block_until_ready()
i1.block_until_ready()


def t(name, f, n=5000):
    for _ in range(200):
        f()
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    us = (time.perf_counter() - t0) / n * 1e6
    print("%-52s %8.2f us" % (name, us), flush=True)
    return us


prog = kerb.load(lib, "cuda")
parr = kerb.load(lib, "cuda", output="array")
ka = parr.gather(x1, i1)
parr.sync()
t("x.__dlpack__()", lambda: x1.__dlpack__())
t("x.__dlpack__(stream=1)", lambda: x1.__dlpack__(stream=1))
t("x.__dlpack__(stream=2)", lambda: x1.__dlpack__(stream=2))
t("x.is_ready()", lambda: x1.is_ready())
t("x.unsafe_buffer_pointer()", lambda: x1.unsafe_buffer_pointer())
try:
    t("x.__cuda_array_interface__", lambda: x1.__cuda_array_interface__)
except Exception as e:
    print("cuda_array_interface:", e)
t("x.shape, x.dtype", lambda: (x1.shape, x1.dtype))
t("type(x), module", lambda: type(x1).__module__)
t("kerb.Array.__dlpack__()", lambda: ka.__dlpack__())
t("jax.dlpack.from_dlpack(kerb.Array)", lambda: jax.dlpack.from_dlpack(ka))
try:
    from jax._src import dlpack as _jd
    print("jax._src.dlpack has:", [n for n in dir(_jd) if not n.startswith("__")])
except Exception as e:
    print("jax._src.dlpack:", e)

# Zero-copy import routes other than jax.dlpack.from_dlpack.
try:
    from jax._src.lib import xla_client as _xc
    print("xla_client._xla names:", [n for n in dir(_xc._xla) if "cuda" in n.lower() or "dlpack" in n.lower()])
except Exception as e:
    print("xla_client:", e)
import ctypes
ptr = None
try:
    cap = ka.__dlpack__()
    # DLManagedTensor's first field is DLTensor whose first field is data.
    ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    mt = ctypes.pythonapi.PyCapsule_GetPointer(cap, b"dltensor")
    ptr = ctypes.c_void_p.from_address(mt).value
    print("kerb.Array data pointer %#x" % ptr)
except Exception as e:
    print("pointer:", e)


class CAI:
    def __init__(self, p):
        self.__cuda_array_interface__ = {"shape": (1,), "typestr": "<f4", "data": (p, False), "version": 3,
                                         "strides": None, "stream": None}


if ptr:
    for name, f in (("jnp.asarray(CAI)", lambda: jnp.asarray(CAI(ptr))),
                    ("jax.device_put(CAI)", lambda: jax.device_put(CAI(ptr), gpu))):
        try:
            y = f()
            print(name, "pointer %#x" % y.unsafe_buffer_pointer(), "zero-copy" if y.unsafe_buffer_pointer() == ptr else "COPY")
            t(name, f, n=2000)
        except Exception as e:
            print(name, "failed:", type(e).__name__, str(e)[:200])
    try:
        f = lambda: _xc._xla.cuda_array_interface_to_buffer(cai=CAI(ptr).__cuda_array_interface__, gpu_backend=gpu.client, device_id=gpu.id)
        y = f()
        print("cuda_array_interface_to_buffer", type(y), "pointer %#x" % y.unsafe_buffer_pointer())
        t("_xla.cuda_array_interface_to_buffer", f, n=2000)
    except Exception as e:
        print("cuda_array_interface_to_buffer failed:", type(e).__name__, str(e)[:300])
try:
    import inspect
    from jax._src import dlpack as _jd
    print(inspect.getsource(_jd.from_dlpack)[:3000])
    print(inspect.getsource(_jd.to_dlpack)[:2500])
except Exception as e:
    print("source:", e)

t("prog.gather(jax, jax) -> jax", lambda: prog.gather(x1, i1))
t("parr.gather(jax, jax) -> kerb.Array", lambda: parr.gather(x1, i1))
kx, ki = parr.array([1.5], dtype="f32"), parr.array([0], dtype="i64")
t("parr.gather(Array, Array) -> kerb.Array", lambda: parr.gather(kx, ki))
prog.sync()
pr = cProfile.Profile()
pr.enable()
for _ in range(3000):
    prog.gather(x1, i1)
pr.disable()
s = io.StringIO()
pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
print(s.getvalue())
s = io.StringIO()
pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(30)
print(s.getvalue())
prog.sync()
print("jax", jax.__version__)
