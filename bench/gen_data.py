#!/usr/bin/env python3
"""Writes the inputs of the benchmark suite (bench/*.fut cases `input @ data/NAME.in
output @ data/NAME.out`) in Futhark's binary value format, with numpy and fixed seeds:
the same files every time, read by `kerb bench`, `kerb run` and the hand-written CUDA
(bench/cuda/). NAME.out holds the expected results, computed by bench/reference.py
(numpy, float64 where floats are summed, rounded to the result type), which `kerb
bench` checks on the first run of every variant.

  python3 bench/gen_data.py [--scale full|small] [--out DIR] [--group suite|unproved]
                            [NAME...]

--scale full (default) gives the sizes the programs name (2^26 elements and so on;
about 2.6 GB in all for the suite, 1.3 GB for the unproved group); small gives tiny
ones for trying the scripts on a machine with no GPU. DIR defaults to bench/data
(ignored by git). NAMEs pick benchmarks; without them, every benchmark of the group:
`suite` (default: bench/*.fut) or `unproved` (bench/unproved/*.fut, the programs whose
checks cannot be proved, each with a small NAME_bad.in that makes its checks fail in
one element) or `rows` (the row-wise programs of issue 17: softmax, layernorm,
row_scan, 65536 x 1024 each, 256 MB an input) or `matmul` (bench/matmul.fut's inputs at
1024, 2048 and 4096: matmul1024, matmul, matmul4096) or `nested` (the other nested
programs of issue 17: batched_matmul, 2^16 products of 16x16 f32 matrices, 128 MB; nbody,
2^15 bodies, whose reference takes about 2^30 pair terms in float64, spread over the
machine's cores). Never zeros: values are random in ranges where each program does real
work."""

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
# The group bench/unproved/ (bench/README.md, "Checks that cannot be proved").
SIZES["full"].update(spmv=(1 << 21, 32, 1 << 21), nbr_stencil=(4096, 4096),
                     graph_step=(1 << 22, 1 << 25), gather3=1 << 24, assert_div=1 << 24,
                     bsearch=(1 << 24, 1 << 22))
SIZES["small"].update(spmv=(1000, 32, 500), nbr_stencil=(40, 30), graph_step=(300, 2000),
                      gather3=1000, assert_div=1000, bsearch=(1000, 500))
# The row-wise programs of issue 17 (bench/softmax.fut, layernorm.fut, row_scan.fut).
SIZES["full"].update(softmax=(65536, 1024), layernorm=(65536, 1024), row_scan=(65536, 1024))
SIZES["small"].update(softmax=(100, 300), layernorm=(100, 300), row_scan=(100, 300))
# Matrix products at other sizes (issue 17 item 4; bench/run_gpu_matmul.sh times
# bench/matmul.fut on them with --input): the same generator as matmul.
SIZES["full"].update(matmul1024=(1024, 1024, 1024), matmul4096=(4096, 4096, 4096))
SIZES["small"].update(matmul1024=(33, 17, 65), matmul4096=(130, 67, 129))
# The other nested programs of issue 17 (bench/batched_matmul.fut: products, rows,
# inner, columns; bench/nbody.fut: bodies).
SIZES["full"].update(batched_matmul=(1 << 16, 16, 16, 16), nbody=1 << 15)
SIZES["small"].update(batched_matmul=(37, 16, 16, 16), nbody=300)
GROUPS = {
    "suite": ["gather", "stencil", "intdiv", "reduce", "scan", "matmul", "histogram",
              "small_kernels", "hotspot", "pathfinder", "nn", "kmeans", "backprop"],
    "unproved": ["spmv", "nbr_stencil", "graph_step", "gather3", "assert_div", "bsearch"],
    "rows": ["softmax", "layernorm", "row_scan"],
    "matmul": ["matmul1024", "matmul", "matmul4096"],
    "nested": ["batched_matmul", "nbody"],
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


gen_matmul1024 = gen_matmul4096 = gen_matmul


def gen_batched_matmul(shape):
    k, n, m, p = shape
    r = rng("batched_matmul")
    a = r.random((k, n, m), dtype=np.float32) * 2 - 1
    b = r.random((k, m, p), dtype=np.float32) * 2 - 1
    return [a, b]


def gen_nbody(n):
    """Positions normal around the origin (about 0.03 between neighbours at 2^15 bodies),
    masses in [0.5, 1.5), softening eps2 = 0.01 (eps = 0.1)."""
    r = rng("nbody")
    pos = [r.standard_normal(n, dtype=np.float32) for _ in range(3)]
    mass = (r.random(n, dtype=np.float32) + np.float32(0.5)).astype(np.float32)
    return pos + [mass, np.float32(0.01)]


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


def gen_softmax(shape):
    return [(rng("softmax").standard_normal(shape, dtype=np.float32) * 3).astype(np.float32)]


def gen_layernorm(shape):
    r = rng("layernorm")
    return [(r.standard_normal(shape, dtype=np.float32) * 2 + 1).astype(np.float32)]


def gen_row_scan(shape):
    return [rng("row_scan").integers(-100, 101, shape, dtype=np.int32)]


def gen_spmv(shape):
    """CSR: row r holds cols/vals[row_ptr[r]:row_end[r]], 0 to maxlen - 1 nonzeros
    (uniform), random columns of x."""
    rows, maxlen, ncols = shape
    r = rng("spmv")
    offs = np.zeros(rows + 1, np.int64)
    np.cumsum(r.integers(0, maxlen, rows), out=offs[1:])
    nnz = int(offs[-1])
    cols = r.integers(0, ncols, nnz, dtype=np.int64)
    vals = r.random(nnz, dtype=np.float32) * 2 - 1
    x = r.random(ncols, dtype=np.float32) * 2 - 1
    return [offs[:-1].copy(), offs[1:].copy(), cols, vals.astype(np.float32), x.astype(np.float32)]


def gen_nbr_stencil(shape):
    """srad's neighbour arrays: the rows above and below, the columns left and right,
    clamped at the edges."""
    rows, cols = shape
    img = rng("nbr_stencil").random(shape, dtype=np.float32)
    i, j = np.arange(rows, dtype=np.int64), np.arange(cols, dtype=np.int64)
    return [img, np.maximum(i - 1, 0), np.minimum(i + 1, rows - 1), np.maximum(j - 1, 0),
            np.minimum(j + 1, cols - 1)]


def gen_graph_step(shape):
    """Edges sorted by source (uniform random sources and destinations); outdeg counts
    them, so that every source has outdeg > 0."""
    nv, ne = shape
    r = rng("graph_step")
    outdeg = np.bincount(r.integers(0, nv, ne), minlength=nv)
    src = np.repeat(np.arange(nv, dtype=np.int64), outdeg)
    dst = r.integers(0, nv, ne, dtype=np.int64)
    rank = (r.random(nv, dtype=np.float32) * np.float32(2.0 / nv)).astype(np.float32)
    return [rank, outdeg.astype(np.int32), src, dst]


def gen_gather3(n):
    r = rng("gather3")
    return [r.random(n, dtype=np.float32), r.integers(0, n, n, dtype=np.int64),
            r.integers(0, n, n, dtype=np.int64)]


def gen_assert_div(n):
    """x in [0, 2^30), w in [2^10, 2^15), so that x / w < 2^20 = nbuckets; v in [1, 2^12)."""
    r = rng("assert_div")
    xs = r.integers(0, 1 << 30, n, dtype=np.int32)
    ws = r.integers(1 << 10, 1 << 15, n, dtype=np.int32)
    vs = r.integers(1, 1 << 12, n, dtype=np.int32)
    return [xs, ws, vs, np.int32(1 << 20)]


def gen_bsearch(shape):
    """Sorted keys with repeats (steps of 0 to 63), all of them searched (m = n); queries
    from a little below the first key to a little above the last."""
    n, q = shape
    r = rng("bsearch")
    keys = (np.cumsum(r.integers(0, 64, n), dtype=np.int64) - (1 << 28)).astype(np.int32)
    lo, hi = (int(keys[0]) - 100, int(keys[-1]) + 100) if n else (-100, 100)
    return [keys, np.int64(n), r.integers(lo, hi, q, dtype=np.int32)]


# The bad inputs of the unproved group (NAME_bad.in): each program's small-scale input
# with one check failing in one element, the message Kerb and the hand-written checked
# version must both report (bench/run_gpu_unproved.sh).
def bad_inputs(name, inputs):
    """(inputs with one planted failure, the expected message)."""
    v = [np.array(a, copy=True) if np.ndim(a) else a for a in inputs]
    if name == "spmv":
        rows = len(v[0])
        r = rows // 2
        while v[1][r] == v[0][r]:  # a row with nonzeros
            r += 1
        v[2][v[1][r] - 1] = len(v[4])
        return v, f"Index [{len(v[4])}] out of bounds for array of shape [{len(v[4])}]."
    if name == "nbr_stencil":
        cols = v[0].shape[1]
        v[4][cols // 2] = cols + 3
        # every row's cell in column cols // 2 fails: the message's row may be any of
        # them, so the expected text starts after it (messages are matched as substrings)
        return v, f"{cols + 3}] out of bounds for array of shape [{v[0].shape[0]}][{cols}]."
    if name == "graph_step":
        # past the end, not negative: JAX's peer wraps negative indices as numpy does
        v[2][len(v[2]) // 2] = len(v[0]) + 7
        return v, f"Index [{len(v[0]) + 7}] out of bounds for array of shape [{len(v[0])}]."
    if name == "gather3":
        v[1][v[2][-1]] = len(v[0])
        return v, f"Index [{len(v[0])}] out of bounds for array of shape [{len(v[0])}]."
    if name == "assert_div":
        v[1][len(v[1]) // 3] = 0
        return v, "Assertion is false: w > 0"
    if name == "bsearch":
        n = len(v[0])
        v[1] = np.int64(n + 1)
        v[2][-1] = np.int32(int(v[0][-1]) + 1)  # above every key: its last probe is keys[n]
        return v, f"Index [{n}] out of bounds for array of shape [{n}]."
    raise KeyError(name)


# The result types of each program (the .out files hold the reference in them).
RESULTS = {
    "gather": ["f32"], "stencil": ["f32"], "intdiv": ["i32"], "reduce": ["f32"], "scan": ["i32"],
    "matmul": ["f32"], "histogram": ["i32"], "small_kernels": ["f32", "i32"], "hotspot": ["f32"],
    "pathfinder": ["i32"], "nn": ["f32", "i64"], "kmeans": ["f32"], "backprop": ["f32", "f32"],
    "spmv": ["f32"], "nbr_stencil": ["f32"], "graph_step": ["f32"], "gather3": ["f32"],
    "assert_div": ["i32"], "bsearch": ["i64"], "softmax": ["f32"], "layernorm": ["f32"], "row_scan": ["i32"],
    "matmul1024": ["f32"], "matmul4096": ["f32"], "batched_matmul": ["f32"], "nbody": ["f32", "f32", "f32"],
}
# The entry whose reference gives the expected output (entries of one program agree).
ENTRY = {"stencil": "nested", "matmul": "nested", "matmul1024": "nested", "matmul4096": "nested",
         "batched_matmul": "rows"}
NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", choices=sorted(SIZES), default="full")
    ap.add_argument("--out", default=os.path.join(here, "data"))
    ap.add_argument("--group", choices=sorted(GROUPS), default="suite",
                    help="the benchmarks written when no NAME is given")
    ap.add_argument("names", nargs="*", help="benchmarks (default: those of the group)")
    args = ap.parse_args()
    sizes = SIZES[args.scale]
    names = args.names or GROUPS[args.group]
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
        if name in GROUPS["unproved"]:
            bad, message = bad_inputs(name, globals()[f"gen_{name}"](SIZES["small"][name]))
            write_values(f"{args.out}/{name}_bad.in", bad)
            with open(f"{args.out}/{name}_bad.txt", "w") as f:
                f.write(message + "\n")
        t1 = time.time()
        results = reference.compute(name, ENTRY.get(name, "main"), inputs)
        expected = [np.asarray(r).astype(NUMPY[t]) for r, t in zip(results, RESULTS[name])]
        write_values(f"{args.out}/{name}.out", expected)
        print(f"gen_data: {name} ({args.scale}): inputs {t1 - t0:.1f} s, reference {time.time() - t1:.1f} s",
              flush=True)


if __name__ == "__main__":
    main()
