"""The Python package on the GPU (run by tests/gpu/run_gpu_python.sh): for PyTorch, CuPy
and JAX arrays (each library that imports), on tests/python/prog.fut:
  - results against numpy;
  - zero-copy: `same` returns its argument, and the result's device pointer is the
    argument's (into Kerb and back out without a copy);
  - streams: an argument made on a side stream of the library is read after the work
    that made it (PyTorch, CuPy: the call runs on the current stream); calls after a
    CuPy stream they used was destroyed (the program went back to its own stream);
  - a failed check raises kerb.CheckError at the next sync point, with the message and
    location, and the program stays usable;
  - bad arguments (a CPU tensor of the wrong type, a non-contiguous tensor) raise
    TypeError / ValueError naming the parameter;
  - 10,000 calls with the same memory (the context's counters, the library's memory);
  - the time of a call on 1-element arrays (kerb.Array, and each library's arrays in and
    out), against the C API's (call_overhead, measured by the shell script: --c-api-us).
Usage: python_gpu_test.py --lib DIR/libprog.so --c-api-us X [--json OUT.json] [--device cpu]
(--device cpu runs the numpy part only, to check the script's plumbing without a GPU)."""

import argparse
import gc
import json
import os
import sys
import time
import traceback

import numpy as np

import kerb

results = {"checks": [], "overhead_us": {}}
failures = []


def check(name, ok, detail=""):
    """Records and prints one check. `ok` must be a plain truth value (a numpy or library
    array of one element is taken as bool(...)); `detail` is anything str() takes: a
    string, a number, an array, a tuple or a dict."""
    ok = bool(ok)
    detail = "" if detail is None else str(detail)
    results["checks"].append({"name": name, "ok": ok, "detail": detail})
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, " (%s)" % detail if detail else ""), flush=True)
    if not ok:
        failures.append(name)


def section(name, f):
    try:
        f()
    except Exception:
        check(name + ": ran to the end", False, traceback.format_exc().strip().splitlines()[-1])
        traceback.print_exc()


# The line of prog.fut's gather, where its failure is reported (read, not written down: the
# file's header has grown before, and the test then expected the old line).
GATHER_LINE = next(i for i, line in enumerate(
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "prog.fut")), 1)
    if line.startswith("entry gather"))


def time_calls(f, n, sync):
    for _ in range(max(n // 10, 10)):
        f()
    sync()
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    t1 = time.perf_counter()
    sync()
    t2 = time.perf_counter()
    return (t2 - t0) / n * 1e6, (t1 - t0) / n * 1e6


def expect_raises(name, exc, pattern, f):
    import re
    try:
        f()
    except exc as e:
        check(name, re.search(pattern, str(e)) is not None, str(e).splitlines()[0])
        return
    except Exception as e:
        check(name, False, "raised %s: %s" % (type(e).__name__, e))
        return
    check(name, False, "no exception")


def library_tests(prog, lib, n_calls, n_timed, c_api_us):
    """The tests for one library: lib is "torch", "cupy" or "jax"."""
    if lib == "torch":
        import torch
        dev = torch.device("cuda:0")
        asarray = lambda a: torch.as_tensor(a, device=dev)
        tonumpy = lambda t: t.cpu().numpy()
        pointer = lambda t: t.data_ptr()
        sync = torch.cuda.synchronize
        memory = torch.cuda.memory_allocated
    elif lib == "cupy":
        import cupy
        asarray = cupy.asarray
        tonumpy = cupy.asnumpy
        pointer = lambda a: a.data.ptr
        sync = cupy.cuda.Device().synchronize
        memory = lambda: cupy.get_default_memory_pool().used_bytes()
    else:
        import jax
        # 64-bit types, as the program's i64 parameters need (JAX makes int32 arrays of
        # numpy's int64 without it: the first GPU run's TypeErrors, 2026-11-25).
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        gpu = jax.devices("gpu")[0]
        asarray = lambda a: jax.device_put(jnp.asarray(a), gpu)
        tonumpy = np.asarray
        pointer = lambda a: a.unsafe_buffer_pointer()
        sync = lambda: (jnp.zeros(1, device=gpu) + 1).block_until_ready()
        memory = lambda: gpu.memory_stats().get("bytes_in_use", 0) if gpu.memory_stats() else 0

    rng = np.random.default_rng(1)
    xs_np = rng.random(100000, dtype=np.float32)
    is_np = rng.integers(0, len(xs_np), 5000, dtype=np.int64)
    xs, is_ = asarray(xs_np), asarray(is_np)

    def results_():
        ys = prog.gather(xs, is_)
        check(lib + ": gather gives the library's array", type(ys).__module__.split(".")[0] in (lib, "jaxlib"),
              type(ys))
        check(lib + ": gather's results", np.array_equal(tonumpy(ys), xs_np[is_np]))
        m = prog.mean(xs)
        check(lib + ": mean (a scalar result)", abs(float(m) - float(xs_np.mean())) < 1e-3, m)
        zs = prog.scale(2.0, xs, xs)
        check(lib + ": scale", np.allclose(tonumpy(zs), 3 * xs_np))
        xss = asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
        check(lib + ": row_sums (2-D)", np.array_equal(tonumpy(prog.row_sums(xss)), [6, 22, 38]))
    section(lib + ": results", results_)

    def zero_copy():
        a = asarray(np.arange(1000, dtype=np.int64))
        b = prog.same(a)
        check(lib + ": zero-copy (same device pointer in and out)", pointer(a) == pointer(b),
              "%#x %#x" % (pointer(a), pointer(b)))
        check(lib + ": zero-copy values", np.array_equal(tonumpy(b), np.arange(1000)))
        k = kerb.Program(prog._lib, "cuda", output="array")
        ka = k.same(a)
        again = {"torch": lambda: __import__("torch").from_dlpack(ka),
                 "cupy": lambda: __import__("cupy").from_dlpack(ka),
                 "jax": lambda: __import__("jax").dlpack.from_dlpack(ka)}[lib]()
        check(lib + ": kerb.Array lent through DLPack without a copy", pointer(again) == pointer(a))
        del ka, again
        k.close()
    section(lib + ": zero-copy", zero_copy)

    def streams():
        n = 1 << 22
        # What `big` holds after the producer: 20 rounds of big * 1.0001 + 0.5 from ones.
        ref = np.ones(1, dtype=np.float32)
        for _ in range(20):
            ref = ref * np.float32(1.0001) + np.float32(0.5)
        if lib == "torch":
            import torch
            s = torch.cuda.Stream()
            with torch.cuda.stream(s):
                big = torch.ones(n, device="cuda:0", dtype=torch.float32)
                for _ in range(20):
                    big = big * 1.0001 + 0.5  # a long producer on the side stream
                ys = prog.gather(big, asarray(np.array([0, n - 1], dtype=np.int64)))
                check("torch: the call ran on the current (side) stream", prog._last_stream == s.cuda_stream)
                out = ys * 2
            s.synchronize()
            check("torch: stream order (producer, Kerb, consumer on a side stream)",
                  np.allclose(out.cpu().numpy(), 2 * ref[0], rtol=1e-4), out.cpu().numpy())
        elif lib == "cupy":
            import cupy
            s = cupy.cuda.Stream(non_blocking=True)
            with s:
                big = cupy.ones(n, dtype=cupy.float32)
                for _ in range(20):
                    big = big * 1.0001 + 0.5
                ys = prog.gather(big, cupy.asarray(np.array([0, n - 1], dtype=np.int64)))
                check("cupy: the call ran on the current stream", prog._last_stream == s.ptr)
                out = ys * 2
            s.synchronize()
            check("cupy: stream order (producer, Kerb, consumer on a stream)",
                  np.allclose(cupy.asnumpy(out), 2 * ref[0], rtol=1e-4), cupy.asnumpy(out))
            prog.sync()
            # CuPy destroys a stream with its object: a call on one, a result that outlives
            # it, then calls on the default stream (Kerb once used the dead stream: a crash).
            s2 = cupy.cuda.Stream(non_blocking=True)
            with s2:
                kept = prog.gather(xs, is_)
            s2.synchronize()
            del s, s2
            gc.collect()
            first = prog.gather(xs, is_)
            del kept
            gc.collect()
            second = prog.gather(xs, is_)
            prog.sync()
            check("cupy: calls after a stream they used was destroyed",
                  np.array_equal(tonumpy(first), xs_np[is_np]) and np.array_equal(tonumpy(second), xs_np[is_np]))
        else:
            import jax.numpy as jnp
            big = jnp.ones(n, dtype=jnp.float32)
            for _ in range(20):
                big = big * 1.0001 + 0.5
            ys = prog.gather(big, asarray(np.array([0, n - 1], dtype=np.int64)))
            out = np.asarray(ys * 2)
            check("jax: order with JAX's stream (DLPack's stream protocol)", np.allclose(out, 2 * ref[0], rtol=1e-4), out)
    section(lib + ": streams", streams)

    def failures_():
        bad = asarray(np.array([0, len(xs_np) + 5], dtype=np.int64))
        try:
            ys = prog.gather(xs, bad)
            del ys
            prog.sync()
            check(lib + ": CheckError at the sync point", False, "no CheckError")
        except kerb.CheckError as e:
            check(lib + ": CheckError at the sync point",
                  e.message == "Index [%d] out of bounds for array of shape [%d]." % (len(xs_np) + 5, len(xs_np))
                  and e.location is not None and "prog.fut:%d:" % GATHER_LINE in e.location, str(e).replace("\n", " "))
        ys = prog.gather(xs, is_)
        prog.sync()
        check(lib + ": usable after the failure", np.array_equal(tonumpy(ys), xs_np[is_np]))
        expect_raises(lib + ": wrong element type names the parameter", TypeError, r"^xs: expected an array of f32",
                      lambda: prog.gather(asarray(xs_np.astype(np.float64)), is_))
        expect_raises(lib + ": sizes that disagree name the parameter", ValueError, r"^ys: dimension 0 is",
                      lambda: prog.scale(1.0, xs, asarray(xs_np[:10])))
        if lib != "jax":
            t = asarray(np.arange(20, dtype=np.float32))[::2]
            expect_raises(lib + ": non-contiguous array", ValueError, r"^xs: the array is not contiguous",
                          lambda: prog.gather(t, is_[:1] * 0))
    section(lib + ": failures", failures_)

    def memory_():
        small_is = asarray(np.arange(0, 100, 3, dtype=np.int64))

        def calls(n):
            # Each result lives until the next call has returned (two at once), in the
            # warm-up as in the measured calls, so that the warm-up reaches the measured
            # calls' steady state and any growth after it is a leak.
            ys = None
            for _ in range(n):
                ys = prog.gather(xs, small_is)
            del ys
        calls(200)
        sync()
        prog.sync()
        before, lib_before = prog.report(), memory()
        calls(n_calls)
        sync()
        prog.sync()
        after, lib_after = prog.report(), memory()
        same = all(after[k] == before[k] for k in ("bytes_in_use", "fresh_allocations", "live_arrays"))
        check(lib + ": %d calls with the same memory (context counters)" % n_calls, same,
              {k: (before[k], after[k]) for k in ("bytes_in_use", "fresh_allocations", "live_arrays", "cached_bytes")})
        check(lib + ": %d calls with the same memory (%s's)" % (n_calls, lib), lib_after <= lib_before + (1 << 20),
              (lib_before, lib_after))
    section(lib + ": memory", memory_)

    def overhead():
        x1, i1 = asarray(np.array([1.5], dtype=np.float32)), asarray(np.array([0], dtype=np.int64))
        us, issue = time_calls(lambda: prog.gather(x1, i1), n_timed, sync)
        # The library's own share: what the call asks of it through DLPack (its two
        # arguments exported, one result imported from a kerb.Array), timed alone.
        k = kerb.Program(prog._lib, "cuda", output="array")
        ka = k.gather(x1, i1)
        export = (lambda a: __import__("torch").utils.dlpack.to_dlpack(a)) if lib == "torch" else \
            (lambda a: a.__dlpack__())
        import_ = {"torch": lambda: __import__("torch").from_dlpack(ka),
                   "cupy": lambda: __import__("cupy").from_dlpack(ka),
                   "jax": lambda: __import__("jax").dlpack.from_dlpack(ka)}[lib]
        own, _ = time_calls(lambda: (export(x1), export(i1), import_()), n_timed // 4, sync)
        del ka
        k.close()
        results["overhead_us"][lib] = {"us_per_call": us, "us_per_call_issue": issue, "over_c_api": us - c_api_us,
                                       "library_dlpack_us": own}
        check(lib + ": a call on 1-element arrays within 20 us of the C API's",
              us - c_api_us < 20, "%.2f us per call, C API %.2f us (issue %.2f us); %s's own DLPack export of the "
              "two arguments and import of the result alone: %.2f us" % (us, c_api_us, issue, lib, own))
        # What Kerb adds: the call less the library's own export and import, which no
        # binding can avoid (JAX's from_dlpack alone took about 29 us on the H100).
        check(lib + ": Kerb's share of a call (less the library's own DLPack work) within 20 us of the C API's",
              us - own - c_api_us < 20, "%.2f us - %.2f us = %.2f us, C API %.2f us" % (us, own, us - own, c_api_us))
    section(lib + ": overhead", overhead)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--c-api-us", type=float, default=0.0)
    ap.add_argument("--json")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--calls", type=int, default=10000)
    ap.add_argument("--timed", type=int, default=20000)
    args = ap.parse_args()
    prog = kerb.load(args.lib, args.device)
    print("kerb.Program on %s: %s" % (prog.device_description, args.lib), flush=True)
    results["device"] = prog.device_description

    def kerb_arrays():
        k = kerb.load(args.lib, args.device, output="array")
        x1, i1 = k.array([1.5], dtype="f32"), k.array([0], dtype="i64")
        ys = k.gather(x1, i1)
        check("kerb.Array: gather", ys.numpy().tolist() == [1.5])
        us, issue = time_calls(lambda: k.gather(x1, i1), args.timed, k.sync)
        results["overhead_us"]["kerb.Array"] = {"us_per_call": us, "us_per_call_issue": issue,
                                                "over_c_api": us - args.c_api_us}
        # Timed, not judged, on the CPU device (the plumbing run of this script).
        check("kerb.Array: a call on 1-element arrays within 20 us of the C API's",
              us - args.c_api_us < 20 or args.device == "cpu",
              "%.2f us per call, C API %.2f us (issue %.2f us)" % (us, args.c_api_us, issue))
        xs = np.arange(10, dtype=np.float32)
        got = k.gather(xs, np.array([3, 9]))  # numpy in: copied to the device
        check("numpy arguments on %s" % args.device, np.array_equal(np.asarray(got), [3, 9]))
        try:
            k.gather(xs, np.array([10]))
            k.sync()
            check("numpy: CheckError", False, "none")
        except kerb.CheckError as e:
            check("numpy: CheckError", "out of bounds" in e.message, e.message)
        k.close()
    section("kerb.Array", kerb_arrays)

    if args.device != "cpu":
        for lib in ("torch", "cupy", "jax"):
            try:
                __import__(lib)
            except Exception as e:
                check("%s imports" % lib, False, e)
                continue
            section(lib, lambda: library_tests(prog, lib, args.calls, args.timed, args.c_api_us))
    prog.close()
    results["failures"] = failures
    print("%d passed, %d failed" % (sum(c["ok"] for c in results["checks"]), len(failures)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
