"""The Python package's CUDA plumbing on the fake CUDA driver (tests/fakecuda/, CTest:
"python: cuda streams and DLPack on a fake driver"). Kernels do not run there, so no
result is looked at; what is checked is where the work goes and what waits for what:
  - a call runs on the stream chosen for it (Program.stream), which first waits for the
    context's earlier work (cuStreamWaitEvent), and nothing is queued on the old one;
  - a result lent with __dlpack__(stream=S) makes S wait for the call;
  - a DLPack array of another context (a kerb.Array of a second program, as a foreign
    library's array) is taken without a copy (an entry returning it gives the same
    device pointer) and given back to its lender when no longer used;
  - arrays on the wrong device are refused naming the parameter;
  - a library's stream is borrowed for a call only: the program goes back to its own
    stream at the end of the call, so that a stream destroyed after the call (CuPy's, when
    its object goes), or after `prog.stream = None`, is never used again (the fake driver
    fails and counts any use of a destroyed stream), also when a result lent on it is
    dropped later. A stand-in module plays CuPy (its current stream, from_dlpack).
Run with LD_LIBRARY_PATH at the fake libcuda.so.1 (see tests/CMakeLists.txt)."""

import ctypes
import os
import shutil
import sys
import tempfile
import types
import unittest

import numpy as np

import kerb
from kerb import _native
from quick_spy import spy_quick_calls

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "prog.fut")

fake = ctypes.CDLL("libcuda.so.1")
fake.fake_cuda_stream_ops.restype = ctypes.c_long
fake.fake_cuda_stream_ops.argtypes = [ctypes.c_void_p]
fake.fake_cuda_stream_waits.restype = ctypes.c_long
fake.fake_cuda_stream_waits.argtypes = [ctypes.c_void_p]


fake.fake_cuda_dead_stream_uses.restype = ctypes.c_long
fake.fake_cuda_ctx_syncs.restype = ctypes.c_long
fake.cuStreamCreate.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint]
_destroy = getattr(fake, "cuStreamDestroy_v2", None) or fake.cuStreamDestroy
_destroy.argtypes = [ctypes.c_void_p]


def new_stream():
    s = ctypes.c_void_p()
    assert fake.cuStreamCreate(ctypes.byref(s), 1) == 0
    return s.value


def destroy_stream(s):
    assert _destroy(s) == 0


def ops(s):
    return fake.fake_cuda_stream_ops(s)


def waits(s):
    return fake.fake_cuda_stream_waits(s)


class Foreign:
    """Another library's GPU array: it has only the DLPack protocol (taken from a kerb.Array
    of a second program, so that its lending is seen in that program's counters)."""

    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.dtype = array.dtype
        self.streams = []

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.array.__dlpack__(stream=stream)


class CupyArray(Foreign):
    """A CuPy array, as the package tells one (by its type's module)."""


CupyArray.__module__ = "cupy"


class CupyResult:
    """What the stand-in CuPy's from_dlpack gives: the capsule it took (the array is
    dropped, its DLPack deleter called, when this object goes)."""

    def __init__(self, capsule):
        self.capsule = capsule


CupyResult.__module__ = "cupy"


class FakeCupy(types.ModuleType):
    """Stands in for the cupy module: a current stream, and from_dlpack asking for the
    array on it (as CuPy does)."""

    def __init__(self):
        super().__init__("cupy")
        self.current = 0
        self.cuda = types.SimpleNamespace(get_current_stream=lambda: types.SimpleNamespace(ptr=self.current))

    def from_dlpack(self, x):
        return CupyResult(x.__dlpack__(stream=self.current or 1))


def data_pointer(capsule):
    return _native.DLManagedTensor.from_address(_native.capsule_pointer(capsule, b"dltensor")).dl_tensor.data


class FakeCudaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="kerb-python-fake-")
        os.environ["KERB_CACHE_DIR"] = cls.cache
        cls.path = kerb._compile.compile_library(PROG)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.cache, ignore_errors=True)

    def test_device(self):
        with kerb.load(self.path, "cuda") as p:
            self.assertEqual(p.device, "cuda:0")
            self.assertIn("fake CUDA device", p.device_description)
            xs = p.array([1, 2, 3], dtype="f32")
            self.assertEqual(xs.__dlpack_device__(), (2, 0))
            self.assertIsInstance(p.gather(xs, p.array([0], dtype="i64")), kerb.Array)

    def test_streams(self):
        with kerb.load(self.path, "cuda") as p:
            own = p._own_stream
            xs, idx = p.array([1, 2, 3], dtype="f32"), p.array([0, 2], dtype="i64")
            p.gather(xs, idx)
            side = 0x5100
            own_before, side_before, waits_before = ops(own), ops(side), waits(side)
            p.stream = side
            for _ in range(3):
                p.gather(xs, idx)
            self.assertEqual(ops(own), own_before, "work queued on the context's own stream")
            self.assertGreaterEqual(ops(side) - side_before, 3, "the calls' launches on the chosen stream")
            self.assertEqual(waits(side) - waits_before, 1, "the new stream waits once for the old one's work")
            # A result lent to a consumer on another stream: that stream waits for the call.
            ys = p.gather(xs, idx)
            consumer = 0x5200
            w = waits(consumer)
            lent = ys.__dlpack__(stream=consumer)
            self.assertEqual(waits(consumer) - w, 1)
            w = waits(side)
            lent_here = ys.__dlpack__(stream=side)  # the call's own stream: nothing to wait for
            self.assertEqual(waits(side), w)
            lent_legacy = ys.__dlpack__(stream=1)
            # Memory the consumer let go of is reused only after the work it queued on its
            # stream: at the program's next call, its stream waits for the legacy default
            # stream; for `side`, its own, nothing; `consumer` may be gone by now, so it is
            # not named: one wait for the whole device instead.
            ctx_syncs, consumer_ops, consumer_waits = fake.fake_cuda_ctx_syncs(), ops(consumer), waits(consumer)
            w = waits(side)
            del lent_here, lent_legacy
            p.gather(xs, idx)
            self.assertEqual(waits(side) - w, 1, "the program's stream waits for the legacy stream")
            self.assertEqual(fake.fake_cuda_ctx_syncs(), ctx_syncs)
            del lent, ys
            p.gather(xs, idx)
            self.assertEqual(fake.fake_cuda_ctx_syncs() - ctx_syncs, 1, "one wait for the whole device")
            self.assertEqual((ops(consumer), waits(consumer)), (consumer_ops, consumer_waits))
            p.stream = None
            self.assertEqual(p._current_stream, own, "back on its own stream at once")
            p.sync()

    def test_lasting_streams(self):
        # JAX takes a result on a stream of its client, which lives as long as the process:
        # the binding declares it lasting, so a result JAX drops goes back after an event on
        # that stream (the program's stream waits for it), not after a wait for the whole
        # device, which a stream that may be gone needs (test_streams' `consumer`). A
        # stand-in module plays jax.dlpack.
        jax_stream = 0x5300
        held = []

        def from_dlpack(x):
            capsule = x.__dlpack__(stream=jax_stream)
            held.append(capsule)
            return capsule
        jax = types.ModuleType("jax")
        jax.dlpack = types.ModuleType("jax.dlpack")
        jax.dlpack.from_dlpack = from_dlpack
        for name, m in (("jax", jax), ("jax.dlpack", jax.dlpack)):
            sys.modules[name] = m
            self.addCleanup(sys.modules.pop, name, None)
        with kerb.load(self.path, "cuda", output="jax") as p:
            own = p._own_stream
            xs, idx = p.array([1, 2, 3], dtype="f32"), p.array([0, 2], dtype="i64")
            for _ in range(3):
                w = waits(jax_stream)
                p.gather(xs, idx)
                self.assertEqual(len(held), 1)
                self.assertEqual(waits(jax_stream) - w, 1, "JAX's stream waits for the call")
                ctx_syncs, w = fake.fake_cuda_ctx_syncs(), waits(own)
                held.clear()  # JAX drops the result
                p.array([0], dtype="i64")  # a call into the context: it frees what was dropped
                p.gather(xs, idx)
                held.clear()
                self.assertEqual(fake.fake_cuda_ctx_syncs(), ctx_syncs, "no wait for the whole device")
                self.assertGreaterEqual(waits(own) - w, 1, "the program's stream waits for JAX's")
            self.assertEqual(p._lasting, {jax_stream})
            p.sync()

    def test_foreign_arrays(self):
        with kerb.load(self.path, "cuda", output="array") as lender, kerb.load(self.path, "cuda") as p:
            a = lender.array(np.arange(8), dtype="i64")
            foreign = Foreign(a)
            before = lender.report()
            quick = spy_quick_calls(self)
            out = p.same(foreign)  # auto: kerb.Array (no library's array among the arguments)
            self.assertEqual(quick, [True])
            self.assertEqual(foreign.streams, [p._current_stream or 1],
                             "taken with __dlpack__(stream=the call's stream)")
            self.assertEqual(data_pointer(out.__dlpack__(stream=-1)), data_pointer(a.__dlpack__(stream=-1)),
                             "the same device memory in and out")
            self.assertEqual(p.report()["bytes_in_use"], 0, "no copy made")
            del out
            p.sync()
            p.clear_caches()
            lender.sync()
            after = lender.report()
            self.assertEqual(after["live_arrays"], before["live_arrays"])
            # Refused: a CPU program given a GPU array.
            with kerb.load(self.path, "cpu") as cpu:
                with self.assertRaisesRegex(ValueError, r"^xs: the array is on cuda:0, but the program runs on "
                                                        r"the cpu device"):
                    cpu.mean(Foreign(lender.array([1.0], dtype="f32")))

    def test_borrowed_streams(self):
        cupy = FakeCupy()
        sys.modules["cupy"] = cupy
        self.addCleanup(sys.modules.pop, "cupy", None)
        dead = fake.fake_cuda_dead_stream_uses()
        with kerb.load(self.path, "cuda", output="array") as lender, kerb.load(self.path, "cuda") as p:
            own = p._own_stream
            xs = CupyArray(lender.array([1, 2, 3], dtype="f32"))
            idx = CupyArray(lender.array([0, 2], dtype="i64"))
            p.gather(xs, idx)  # on the legacy default stream (CuPy's default), where it stays
            self.assertEqual(p._current_stream, 0)
            s = new_stream()
            cupy.current = s
            s_ops, legacy_waits = ops(s), waits(0)
            quick = spy_quick_calls(self)
            ys = p.gather(xs, idx)
            self.assertEqual(quick, [True], "CuPy arrays in and out in one crossing")
            self.assertIsInstance(ys, CupyResult)
            self.assertEqual(p._last_stream, s, "the call ran on CuPy's current stream")
            self.assertGreater(ops(s), s_ops, "the call's work went on it")
            self.assertEqual(p._current_stream, 0, "back on the stream of before after the call")
            self.assertEqual(waits(0) - legacy_waits, 1, "which waits for the call's work")
            # CuPy destroys its stream (its object went) while a result lent on it lives.
            cupy.current = 0
            destroy_stream(s)
            ctx_syncs = fake.fake_cuda_ctx_syncs()
            del ys
            p.gather(xs, idx)  # frees the dropped result: a device-wide wait, not one on `s`
            self.assertGreaterEqual(fake.fake_cuda_ctx_syncs() - ctx_syncs, 1)
            p.gather(xs, idx)
            p.sync()
            self.assertEqual(fake.fake_cuda_dead_stream_uses(), dead, "a destroyed stream was used")
            # A stream set by the user is used until `prog.stream = None` returns, and not after.
            mine = new_stream()
            p.stream = mine
            zs = p.gather(np.arange(3, dtype=np.float32), np.array([1]))
            p.stream = None
            self.assertEqual(p._current_stream, own)
            destroy_stream(mine)
            del zs
            p.gather(xs, idx)
            p.sync()
            self.assertEqual(fake.fake_cuda_dead_stream_uses(), dead, "a destroyed stream was used")
        self.assertEqual(fake.fake_cuda_dead_stream_uses(), dead, "a destroyed stream was used")

    def test_lent_arrays_outlive_the_program(self):
        p = kerb.load(self.path, "cuda", output="array")
        ys = p.same(p.array([5, 6], dtype="i64"))
        capsule = ys.__dlpack__(stream=-1)
        del ys
        p.close()
        # The capsule still holds the memory (its destructor gives it back).
        self.assertNotEqual(data_pointer(capsule), 0)
        del capsule


if __name__ == "__main__":
    unittest.main()
