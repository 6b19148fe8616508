"""The Python package on the CPU device with numpy (CTest: "python: package on the cpu
device"): results of every kind of entry, numpy arrays in and out without a copy,
failed checks raising kerb.CheckError with Futhark's message and the location, bad
arguments raising TypeError or ValueError naming the parameter, records as namedtuples,
kerb.Array, which calls
take the quick path (kerb_call_dlpack) and that function's contract, and 10,000 calls
with the same memory (RSS and the context's counters).

Run: KERB=build/kerb PYTHONPATH=python python3 -m unittest tests/python/test_kerb.py -v"""

import gc
import inspect
import os
import shutil
import tempfile
import unittest

import numpy as np

import kerb

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "prog.fut")


def _has(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class KerbCpuTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="kerb-python-test-")
        os.environ["KERB_CACHE_DIR"] = cls.cache
        cls.prog = kerb.compile(PROG, device="cpu")

    @classmethod
    def tearDownClass(cls):
        cls.prog.close()
        shutil.rmtree(cls.cache, ignore_errors=True)

    # ---- results

    def test_results(self):
        p = self.prog
        xs = np.array([1.5, 2.5, 3.5], dtype=np.float32)
        ys = p.gather(xs, np.array([2, 0, 2], dtype=np.int64))
        self.assertIsInstance(ys, np.ndarray)
        self.assertEqual(ys.dtype, np.float32)
        np.testing.assert_array_equal(ys, [3.5, 1.5, 3.5])
        m = p.mean(xs)
        self.assertIsInstance(m, np.float32)
        self.assertAlmostEqual(float(m), 2.5)
        np.testing.assert_array_equal(p.scale(2, xs, xs), 3 * xs)
        self.assertEqual(p.divide(7, 2), 3)
        self.assertEqual(p.root(9.0), 3.0)
        self.assertEqual(p.swap((3, 1.5)), (np.float32(1.5), np.int32(3)))
        np.testing.assert_array_equal(p.pairs((np.array([1, 2]), np.array([0.5, 0.25], dtype=np.float32))),
                                      [1.5, 2.25])
        self.assertEqual(p.three(np.array([1, 2, 3], dtype=np.int32)), 6)
        xss = np.arange(12, dtype=np.int32).reshape(3, 4)
        np.testing.assert_array_equal(p.row_sums(xss), xss.sum(axis=1))
        np.testing.assert_array_equal(p.flip(np.array([True, False])), [False, True])
        a, b, h = p.small(255 - 1, -32768 + 1, np.float16(1.5))
        self.assertEqual((a, b, h), (255, -32768, np.float16(3.0)))
        self.assertEqual(h.dtype, np.float16)
        # Keywords, lists, empty arrays.
        np.testing.assert_array_equal(p.gather(xs=xs, is_=[1]), [2.5])
        np.testing.assert_array_equal(p.gather(xs=xs, **{"is": [1]}), [2.5])
        self.assertEqual(p.gather(xs, np.zeros(0, dtype=np.int64)).shape, (0,))

    def test_records(self):
        p = self.prog
        # A record argument: a namedtuple, any tuple of its fields, a dict, an object.
        q, k = p.mirror((3.0, 4.0), 7)
        self.assertEqual(type(q).__name__, "point")
        self.assertEqual(q._fields, ("x", "y"))
        self.assertEqual((q.x, q.y, k), (4.0, 3.0, 8))
        self.assertEqual(p.norm2(q), 25.0)
        self.assertEqual(p.norm2({"x": 1, "y": 2}), 5.0)

        class P:
            x, y = 2.0, 0.0
        self.assertEqual(p.norm2(P()), 4.0)
        # An array of records (its fields are arrays), inside a record result.
        c = p.centroid({"x": np.array([0, 2], dtype=np.float32), "y": np.array([1, 3], dtype=np.float32)})
        self.assertEqual(c._fields, ("at", "n"))
        self.assertEqual((c.at.x, c.at.y, c.n), (1.0, 2.0, 2))
        with self.assertRaisesRegex(TypeError, "p: the point has no field y"):
            p.norm2({"x": 1})
        with self.assertRaisesRegex(TypeError, r"p.y: expected a number \(f32\)"):
            p.norm2((1, "two"))
        with self.assertRaisesRegex(TypeError, "p: expected a point"):
            p.norm2(3)
        self.assertIn("norm2(p: point) -> f32", p.entries["norm2"])
        # A module's abstract type: the tuple of its components, which goes back in.
        t = p.tally_make(4)
        self.assertIsInstance(t, tuple)
        self.assertEqual(len(t), 2)
        self.assertEqual(p.tally_total(t), 0 + 1 + 2 + 3 + 4)

    def test_zero_copy(self):
        # On the CPU device a numpy argument is used where it is, and a result is a numpy
        # view of the program's memory: an entry that returns its argument gives the same
        # memory back.
        xs = np.arange(5, dtype=np.int64)
        ys = self.prog.same(xs)
        self.assertEqual(ys.__array_interface__["data"][0], xs.__array_interface__["data"][0])
        del ys
        # A non-contiguous argument is copied first.
        zs = self.prog.same(np.arange(10, dtype=np.int64)[::2])
        np.testing.assert_array_equal(zs, [0, 2, 4, 6, 8])

    @unittest.skipUnless(_has("torch"), "no PyTorch here")
    def test_torch_cpu_tensors(self):
        # PyTorch tensors on the CPU device take the quick path (torch's to_dlpack, results
        # through torch's from_dlpack): results are tensors, without a copy either way.
        import torch
        xs = torch.arange(5, dtype=torch.int64)
        ys = self.prog.same(xs)
        self.assertIs(type(ys), torch.Tensor)
        self.assertEqual(ys.data_ptr(), xs.data_ptr())
        got = self.prog.gather(torch.tensor([1.5, 2.5, 3.5]), torch.tensor([2, 0]))
        self.assertEqual(got.tolist(), [3.5, 1.5])
        with self.assertRaisesRegex(TypeError, r"^xs: expected an array of f32 \(\[n\]f32\), got one of float64"):
            self.prog.gather(torch.zeros(3, dtype=torch.float64), torch.tensor([0]))
        with self.assertRaisesRegex(ValueError, r"^ys: dimension 0 is 2, but the size n is 3 \(from xs\)"):
            self.prog.scale(1.0, torch.zeros(3), torch.zeros(2))
        with self.assertRaisesRegex(ValueError, r"^xs: the array is not contiguous"):
            self.prog.same(torch.arange(10)[::2])
        with self.assertRaises(kerb.CheckError):
            self.prog.gather(torch.zeros(3), torch.tensor([3]))
        # A tensor that requires grad goes through torch's __dlpack__, which refuses it.
        with self.assertRaises(Exception):
            self.prog.mean(torch.zeros(3, requires_grad=True))
        # output="torch" in a process that has given the package no tensor yet.
        import subprocess
        import sys
        code = ("import kerb, numpy as np; p = kerb.compile(%r, device='cpu', output='torch'); "
                "print(type(p.gather(np.array([1.5], dtype=np.float32), np.array([0]))).__name__)" % PROG)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(out.stdout.strip(), "Tensor", out.stderr)

    def test_quick_path(self):
        # Calls on numpy arrays, PyTorch tensors, kerb.Arrays and Python scalars cross into C
        # once (kerb_call_dlpack, Note [The quick call]); the rest takes the general path
        # with the same results.
        from quick_spy import spy_quick_calls
        taken = spy_quick_calls(self)
        p = self.prog
        xs = np.array([1.5, 2.5, 3.5], dtype=np.float32)
        cases = [
            (True, lambda: p.gather(xs, np.array([2, 0]))),
            (True, lambda: p.scale(2.0, xs, xs)),
            (True, lambda: p.divide(7, 2)),
            (True, lambda: p.row_sums(np.ones((2, 3), dtype=np.int32))),
            (False, lambda: p.gather(xs, [2, 0])),               # a list: made a numpy array
            (False, lambda: p.same(np.arange(10)[::2])),          # not contiguous: copied
            (False, lambda: p.flip(np.array([True, False]))),     # bool: numpy lends no view
            (False, lambda: p.three(np.array([1, 2], dtype=np.int32))),  # a wrong size: the error
        ]
        if _has("torch"):
            import torch
            cases.append((True, lambda: p.gather(torch.tensor([1.5, 2.5]), torch.tensor([1]))))
        for expected, f in cases:
            taken.clear()
            try:
                f()
            except ValueError:
                pass
            self.assertEqual(taken, [expected])
        a = kerb.compile(PROG, device="cpu", output="array")
        try:
            taken.clear()
            ys = a.gather(a.array([1.0, 2.0], dtype="f32"), np.array([1]))
            self.assertEqual((taken, ys.numpy().tolist()), ([True], [2.0]))
            taken.clear()
            self.assertEqual(a.gather(ys, a.array([0, 0], dtype="i64")).numpy().tolist(), [2.0, 2.0])
            self.assertEqual(taken, [True])
        finally:
            a.close()

    def test_call_dlpack(self):
        # kerb_call_dlpack itself: what it takes and when (include/kerb/kerb.h).
        import ctypes
        from kerb import _native
        p = self.prog
        lib, ctx = p._lib, p._ctx
        args, outs, problem = (ctypes.c_void_p * 2)(), (ctypes.c_void_p * 1)(), (ctypes.c_int32 * 2)()
        out = ctypes.c_void_p()
        outs[0] = ctypes.addressof(out)
        gather = [e["name"] for e in p.manifest["entries"]].index("gather")
        # No such entry: nothing looked at, nothing taken.
        rc = lib.call_dlpack(ctx, 99, args, None, outs, 0, -1, problem)
        self.assertEqual((rc, problem[1]), (_native.USAGE_ERROR, _native.DLPACK_NOT_TAKEN))
        self.assertIn("no entry number 99", _native.take_string(lib.context_get_error(ctx)))
        # An argument that does not fit: none taken, the capsules keep their tensors.
        xs, bad = np.array([1.5, 2.5], dtype=np.float32), np.array([0.0])
        caps = [xs.__dlpack__(), bad.__dlpack__()]
        for k, c in enumerate(caps):
            args[k] = _native.capsule_pointer(c, b"dltensor")
        rc = lib.call_dlpack(ctx, gather, args, None, outs, _native.CALL_SYNC, -1, problem)
        self.assertEqual((rc, list(problem)), (_native.USAGE_ERROR, [1, _native.DLPACK_TYPE]))
        lib.context_get_error(ctx)
        del caps  # their destructors give the tensors back to numpy
        # A failed check, reported by the call itself (KERB_CALL_SYNC): the tensors taken,
        # no result.
        caps = [xs.__dlpack__(), np.array([5]).__dlpack__()]
        for k, c in enumerate(caps):
            args[k] = _native.capsule_pointer(c, b"dltensor")
        rc = lib.call_dlpack(ctx, gather, args, None, outs, _native.CALL_SYNC | _native.CALL_EXPORT, -1, problem)
        self.assertEqual((rc, problem[1], out.value), (_native.PROGRAM_ERROR, _native.DLPACK_OK, None))
        self.assertIn("out of bounds", _native.take_string(lib.context_get_error(ctx)))
        for c in caps:
            lib.take_capsule(c)
        del caps
        self.assertEqual(p.report()["live_arrays"], 0)
        np.testing.assert_array_equal(xs, [1.5, 2.5])

    def test_kerb_arrays(self):
        p = kerb.compile(PROG, device="cpu", output="array")
        try:
            xs = p.array([1, 2, 3], dtype="f32")
            self.assertEqual(repr(xs), "kerb.Array([3]f32, device='cpu')")
            ys = p.gather(xs, p.array([2, 1], dtype="i64"))
            self.assertIsInstance(ys, kerb.Array)
            self.assertEqual((ys.shape, ys.dtype, ys.ndim, len(ys)), ((2,), np.float32, 1, 2))
            np.testing.assert_array_equal(ys.numpy(), [3, 2])
            np.testing.assert_array_equal(np.asarray(ys), [3, 2])
            # DLPack out: numpy views the array's memory; the view outlives the Array.
            same = p.same(p.array([4, 5], dtype="i64"))
            view = np.from_dlpack(same)
            again = p.same(same)  # a kerb.Array goes back in as it is
            np.testing.assert_array_equal(np.from_dlpack(again), [4, 5])
            del same, again
            gc.collect()
            np.testing.assert_array_equal(view, [4, 5])
            with self.assertRaisesRegex(ValueError, "xs: the kerb.Array belongs to another program"):
                self.prog.gather(xs, [0])
        finally:
            p.close()
        self.assertRaisesRegex(kerb.KerbError, "closed", p.mean, [1.0])

    def test_help(self):
        f = self.prog.gather
        self.assertIn("gather(xs: [n]f32, is: [m]i64) -> [m]f32", f.__doc__)
        self.assertEqual(list(inspect.signature(f).parameters), ["xs", "is_"])
        self.assertIn("gather", self.prog.entries)
        self.assertIn("kerb.Program(", repr(self.prog))
        self.assertEqual(self.prog.device, "cpu")

    # ---- failures

    def test_check_errors(self):
        p = self.prog
        xs = np.array([1, 2, 3], dtype=np.float32)
        with self.assertRaises(kerb.CheckError) as e:
            p.gather(xs, np.array([0, 7], dtype=np.int64))
        self.assertIsInstance(e.exception, RuntimeError)
        self.assertEqual(e.exception.message, "Index [7] out of bounds for array of shape [3].")
        self.assertRegex(e.exception.location, r"prog\.fut:8:\d+-\d+$")
        self.assertIn("at ", str(e.exception))
        # The program stays usable.
        np.testing.assert_array_equal(p.gather(xs, [1]), [2])
        with self.assertRaisesRegex(kerb.CheckError, r"(?i)division by zero") as e:
            p.divide(1, 0)
        self.assertRegex(e.exception.location, r"prog\.fut:14:")
        with self.assertRaisesRegex(kerb.CheckError, r"(?i)assert") as e:
            p.root(-1.0)
        self.assertRegex(e.exception.location, r"prog\.fut:16:")
        self.assertEqual(p.divide(9, 3), 3)

    def test_bad_arguments(self):
        p = self.prog
        f32 = np.array([1, 2, 3], dtype=np.float32)
        i64 = np.array([0], dtype=np.int64)
        cases = [
            (TypeError, r"^xs: expected an array of f32 \(\[n\]f32\), got one of f64",
             lambda: p.gather(np.zeros(3), i64)),
            (ValueError, r"^xs: expected an array of 1 dimension \(\[n\]f32\), got 2 dimensions",
             lambda: p.gather(np.zeros((2, 2), dtype=np.float32), i64)),
            (ValueError, r"^ys: dimension 0 is 2, but the size n is 3 \(from xs\)",
             lambda: p.scale(1.0, f32, f32[:2].copy())),
            (ValueError, r"^xs: dimension 0 must be 3 \(\[3\]i32\), but is 2",
             lambda: p.three(np.array([1, 2], dtype=np.int32))),
            (TypeError, r"^a: expected an integer \(i32\), got float", lambda: p.divide(1.5, 2)),
            (ValueError, r"^b: 4294967296 is out of range for i32", lambda: p.divide(1, 2**32)),
            (TypeError, r"^x: expected a number \(f64\), got str", lambda: p.root("9")),
            (TypeError, r"^p: expected a tuple of 2 components \(\(i32, f32\)\), got int", lambda: p.swap(3)),
            (TypeError, r"^is: expected an array \(\[m\]i64\), got str", lambda: p.gather(f32, "ab")),
            (TypeError, r"gather\(\) missing argument: 'is'", lambda: p.gather(f32)),
            (TypeError, r"gather\(\) got an unexpected keyword argument 'ys'", lambda: p.gather(f32, i64, ys=1)),
            (TypeError, r"gather\(\) takes 2 arguments but 3 were given", lambda: p.gather(f32, i64, i64)),
            (AttributeError, r"has no entry point or attribute 'nope'", lambda: p.nope),
            (kerb.KerbError, r"the cuda device is not available", lambda: kerb.compile(PROG, device="cuda:7")),
            (ValueError, r"unknown device 'tpu'", lambda: kerb.compile(PROG, device="tpu")),
        ]
        for exc, pattern, f in cases:
            with self.subTest(pattern=pattern):
                self.assertRaisesRegex(exc, pattern, f)
        bad = os.path.join(self.cache, "bad.fut")
        with open(bad, "w") as out:
            out.write("entry main (x: i32) : i32 = x +\n")
        self.assertRaises(kerb.CompileError, kerb.compile, bad, device="cpu")
        # Still usable.
        self.assertEqual(p.divide(4, 2), 2)

    # ---- memory

    def test_memory_is_stable(self):
        p = kerb.compile(PROG, device="cpu")
        try:
            xs = np.arange(1000, dtype=np.float32)
            idx = np.arange(0, 1000, 7, dtype=np.int64)
            bad = np.array([5, 1000], dtype=np.int64)

            held = {}  # the last result stays alive across calls, as in a loop

            def calls(n):
                for k in range(n):
                    held["ys"] = ys = p.gather(xs, idx)
                    assert ys[1] == 7
                    if k % 100 == 0:
                        try:
                            p.gather(xs, bad)
                            raise AssertionError("no CheckError")
                        except kerb.CheckError:
                            pass
                    p.mean(xs)
            calls(500)
            gc.collect()
            before, rss_before = p.report(), rss_bytes()
            calls(10000)
            gc.collect()
            after, rss_after = p.report(), rss_bytes()
            self.assertEqual(after["entry_calls"] - before["entry_calls"], 10000 * 2 + 100)
            for key in ("live_arrays", "bytes_in_use", "fresh_allocations", "cached_bytes"):
                self.assertEqual(after[key], before[key], key)
            self.assertEqual(after["live_arrays"], 0)
            self.assertLess(rss_after - rss_before, 2 << 20, "RSS grew by %d bytes" % (rss_after - rss_before))
        finally:
            p.close()


if __name__ == "__main__":
    unittest.main()
