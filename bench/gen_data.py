#!/usr/bin/env python3
"""Writes the inputs of the benchmark suite (bench/*.fut cases `input @ data/NAME.in
output @ data/NAME.out`) in Futhark's binary value format, with numpy and fixed seeds:
the same files every time, read by `kerb bench`, `kerb run` and the hand-written CUDA
(bench/cuda/). NAME.out holds the expected results, computed by bench/reference.py
(numpy, float64 where floats are summed, rounded to the result type), which `kerb
bench` checks on the first run of every variant.

  python3 bench/gen_data.py [--scale full|small] [--out DIR] [NAME...]

--scale full (default) gives the sizes the programs name (2^26 elements and so on;
about 2.6 GB in all); small gives tiny ones for trying the scripts on a machine with no
GPU. DIR defaults to bench/data (ignored by git). NAMEs pick benchmarks (default all).
Never zeros: values are random in ranges where each program does real work."""

import argparse
import os
import shutil
import sys
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402
from futhark_data import write_values  # noqa: E402

# The index the bad gather case plants: far beyond any allocation, so that unchecked
# code reads unmapped memory.
BAD_INDEX = 1 << 36
BAD_POS = 12345

SIZES = {
    "full": dict(gather=1 << 26, stencil=(8192, 8192), intdiv=1 << 26, reduce=1 << 26,
                 scan=1 << 26, matmul=(2048, 2048, 2048), histogram=(4096, 1 << 24),
                 small_kernels=(1 << 16, 1000), hotspot=(100, 1024, 1024),
                 pathfinder=(100, 1 << 20), nn=1 << 25, kmeans=(8, 10, 1 << 17, 16),
                 backprop=(1 << 20, 16)),
    "small": dict(gather=1 << 14, stencil=(64, 48), intdiv=1000, reduce=1000, scan=1000,
                  matmul=(32, 48, 40), histogram=(64, 5000), small_kernels=(1000, 20),
                  hotspot=(3, 40, 30), pathfinder=(10, 100), nn=1000, kmeans=(3, 3, 300, 4),
                  backprop=(300, 16)),
}


def rng(name):
    """A generator seeded by the benchmark's name: the same data on every machine."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def gen_gather(n):
    r = rng("gather")
    return [r.random(n, dtype=np.float32), r.integers(0, n, n, dtype=np.int64)]


def write_gather_bad(out, n):
    """gather_bad.in: gather.in with one index far out of bounds (patched in a copy)."""
    shutil.copyfile(f"{out}/gather.in", f"{out}/gather_bad.in")
    offset = (7 + 8) + 4 * n + (7 + 8) + 8 * (BAD_POS % n)
    with open(f"{out}/gather_bad.in", "r+b") as f:
        f.seek(offset)
        f.write(np.int64(BAD_INDEX).tobytes())


def gen_stencil(shape):
    return [rng("stencil").random(shape, dtype=np.float32)]


def gen_intdiv(n):
    r = rng("intdiv")
    a = r.integers(-(1 << 31) + 1, 1 << 31, n, dtype=np.int32)
    b = r.integers(1, 1 << 15, n, dtype=np.int32) * r.choice(np.array([-1, 1], np.int32), n)
    return [a, b.astype(np.int32)]


def gen_reduce(n):
    return [rng("reduce").random(n, dtype=np.float32)]


def gen_scan(n):
    return [rng("scan").integers(-1000, 1000, n, dtype=np.int32)]


def gen_matmul(shape):
    n, m, p = shape
    r = rng("matmul")
    a = r.random((n, m), dtype=np.float32) * 2 - 1
    b = r.random((m, p), dtype=np.float32) * 2 - 1
    return [a, b]


def gen_histogram(shape):
    bins, n = shape
    r = rng("histogram")
    idx = r.integers(0, bins, n, dtype=np.int64)
    bad = r.random(n) < 0.01  # about 1% out of range: ignored by reduce_by_index
    idx[bad] = r.choice(np.array([-1, bins], np.int64), int(bad.sum()))
    return [np.int64(bins), idx]


def gen_small_kernels(shape):
    n, iters = shape
    img = rng("small_kernels").random(n, dtype=np.float32) + np.float32(1)
    return [img, np.int32(iters)]


def gen_hotspot(shape):
    iters, rows, cols = shape
    r = rng("hotspot")
    temp = (r.random((rows, cols), dtype=np.float32) * 20 + 320).astype(np.float32)
    power = (r.random((rows, cols), dtype=np.float32) * 2e-3).astype(np.float32)
    return [np.int32(iters), temp, power]


def gen_pathfinder(shape):
    return [rng("pathfinder").integers(0, 10, shape, dtype=np.int32)]


def gen_nn(n):
    r = rng("nn")
    lat = (r.random(n, dtype=np.float32) * 180 - 90).astype(np.float32)
    lng = (r.random(n, dtype=np.float32) * 360 - 180).astype(np.float32)
    return [lat, lng, np.float32(30.5), np.float32(90.25)]


def gen_kmeans(shape):
    k, iters, n, d = shape
    r = rng("kmeans")
    centres = r.random((k, d), dtype=np.float32) * 10
    points = centres[r.integers(0, k, n)] + r.standard_normal((n, d), dtype=np.float32)
    return [np.int64(k), np.int32(iters), points.astype(np.float32)]


def gen_backprop(shape):
    nin, nh = shape
    r = rng("backprop")
    inp = r.random(nin, dtype=np.float32)
    w = ((r.random((nin, nh), dtype=np.float32) - 0.5) * 2e-3).astype(np.float32)
    oldw = ((r.random((nin, nh), dtype=np.float32) - 0.5) * 2e-3).astype(np.float32)
    delta = (r.random(nh, dtype=np.float32) * 2 - 1).astype(np.float32)
    return [inp, w, oldw, delta]


# The result types of each program (the .out files hold the reference in them).
RESULTS = {
    "gather": ["f32"], "stencil": ["f32"], "intdiv": ["i32"], "reduce": ["f32"], "scan": ["i32"],
    "matmul": ["f32"], "histogram": ["i32"], "small_kernels": ["f32", "i32"], "hotspot": ["f32"],
    "pathfinder": ["i32"], "nn": ["f32", "i64"], "kmeans": ["f32"], "backprop": ["f32", "f32"],
}
# The entry whose reference gives the expected output (entries of one program agree).
ENTRY = {"stencil": "nested", "matmul": "nested"}
NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", choices=sorted(SIZES), default="full")
    ap.add_argument("--out", default=os.path.join(here, "data"))
    ap.add_argument("names", nargs="*", help="benchmarks (default: all)")
    args = ap.parse_args()
    sizes = SIZES[args.scale]
    names = args.names or list(sizes)
    for name in names:
        if name not in sizes:
            sys.exit(f"gen_data.py: unknown benchmark '{name}' (known: {', '.join(sizes)})")
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        t0 = time.time()
        inputs = globals()[f"gen_{name}"](sizes[name])
        write_values(f"{args.out}/{name}.in", inputs)
        if name == "gather":
            write_gather_bad(args.out, sizes[name])
        t1 = time.time()
        results = reference.compute(name, ENTRY.get(name, "main"), inputs)
        expected = [np.asarray(r).astype(NUMPY[t]) for r, t in zip(results, RESULTS[name])]
        write_values(f"{args.out}/{name}.out", expected)
        print(f"gen_data: {name} ({args.scale}): inputs {t1 - t0:.1f} s, reference {time.time() - t1:.1f} s",
              flush=True)


if __name__ == "__main__":
    main()
