"""Reference results of the benchmark suite, computed with numpy independently of Kerb
and of the hand-written CUDA (bench/cuda/): `reference.compute(name, inputs)` takes a
benchmark's inputs as bench/futhark_data.py reads them and returns its results (float64
where the program sums floats, so that both implementations are compared with the exact
answer rather than with each other). bench/check_results.py uses it on the GPU machine;
bench/gen_data.py writes its results as the expected outputs of the large cases."""

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def gather(a, idx):
    return [a[idx]]


def stencil(g):
    out = g.copy()
    if g.shape[0] > 2 and g.shape[1] > 2:
        c = g[1:-1, 1:-1]
        out[1:-1, 1:-1] = np.float32(0.2) * (c + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
    return [out]


def intdiv(a, b):
    return [np.floor_divide(a, b)]


def reduce(xs):
    return [np.sum(xs, dtype=np.float64)]


def scan(xs):
    return [np.cumsum(xs, dtype=np.int64).astype(np.int32)]


def matmul(a, b):
    return [a.astype(np.float64) @ b.astype(np.float64)]


def histogram(bins, idx):
    ok = (idx >= 0) & (idx < bins)
    return [np.bincount(idx[ok], minlength=int(bins)).astype(np.int32)]


def small_kernels(img, iters):
    img = img.astype(np.float32)
    n = np.float32(img.shape[0])
    it, q = 0, np.float32(1)
    while it < iters and q > 0:
        mean = np.float32(np.sum(img, dtype=np.float64)) / n
        var = np.float32(np.sum((img - mean) * (img - mean), dtype=np.float64)) / n
        q = np.float32(var / (mean * mean))
        step = np.float32(0.1) / (np.float32(1) + q)
        left = np.concatenate([img[:1], img[:-1]])
        right = np.concatenate([img[1:], img[-1:]])
        img = img + step * (left + right - np.float32(2) * img)
        it += 1
    return [img, np.int32(it)]


def hotspot_constants(rows, cols):
    """hotspot's (step, cap, rx, ry, rz, ambient temperature), in f32 as the .fut program
    computes them (bench/peers/suite_peers.py uses them too)."""
    f = np.float32
    t_chip, chip_h, chip_w, amb = f(0.0005), f(0.016), f(0.016), f(80)
    gh, gw = chip_h / f(rows), chip_w / f(cols)
    cap = f(0.5) * f(1.75e6) * t_chip * gw * gh
    rx = gw / (f(2) * f(100) * t_chip * gh)
    ry = gh / (f(2) * f(100) * t_chip * gw)
    rz = t_chip / (f(100) * gh * gw)
    step = f(0.001) / (f(3.0e6) / (f(0.5) * t_chip * f(1.75e6)))
    return step, cap, rx, ry, rz, amb


def hotspot(iters, temp, power):
    f = np.float32
    step, cap, rx, ry, rz, amb = hotspot_constants(*temp.shape)
    t = temp.astype(np.float32)
    for _ in range(int(iters)):
        n = np.concatenate([t[:1], t[:-1]], axis=0)
        s = np.concatenate([t[1:], t[-1:]], axis=0)
        w = np.concatenate([t[:, :1], t[:, :-1]], axis=1)
        e = np.concatenate([t[:, 1:], t[:, -1:]], axis=1)
        delta = (step / cap) * (power + (s + n - f(2) * t) / ry + (e + w - f(2) * t) / rx
                                + (amb - t) / rz)
        t = t + delta
    return [t]


def pathfinder(wall):
    prev = wall[0].astype(np.int64)
    for r in range(1, wall.shape[0]):
        left = np.concatenate([prev[:1], prev[:-1]])
        right = np.concatenate([prev[1:], prev[-1:]])
        prev = wall[r] + np.minimum(prev, np.minimum(left, right))
    return [prev.astype(np.int32)]


def nn(lat, lng, tlat, tlng):
    if lat.shape[0] == 0:
        return [np.float32(np.inf), np.int64(-1)]
    d = np.sqrt((lat - tlat) * (lat - tlat) + (lng - tlng) * (lng - tlng))
    i = int(np.argmin(d))  # the first of equal minima
    return [d[i], np.int64(i)]


def kmeans(k, iters, points):
    k = int(k)
    pts = points.astype(np.float64)
    centres = points[:k].astype(np.float32)
    for _ in range(int(iters)):
        c32 = centres.astype(np.float32)
        dist = ((points[:, None, :] - c32[None, :, :]) ** 2).sum(axis=2, dtype=np.float32)
        member = np.argmin(dist, axis=1)
        counts = np.bincount(member, minlength=k)
        sums = np.stack([np.bincount(member, weights=pts[:, f], minlength=k)
                         for f in range(points.shape[1])], axis=1)
        new = centres.copy()
        nz = counts > 0
        new[nz] = (sums[nz] / counts[nz, None]).astype(np.float32)
        centres = new
    return [centres]


def backprop(inp, w, oldw, delta):
    s = inp.astype(np.float64) @ w.astype(np.float64)
    hidden = 1 / (1 + np.exp(-s))
    f = np.float32
    w2 = w + f(0.3) * delta[None, :] * inp[:, None] + f(0.3) * oldw
    return [hidden, w2]


# ---- the group whose checks cannot be proved (bench/unproved/) -------------------------


def spmv(row_ptr, row_end, cols, vals, x):
    lens = np.maximum(row_end - row_ptr, 0)
    rows = np.repeat(np.arange(len(row_ptr)), lens)
    ks = _ranges(row_ptr, lens)
    prod = vals[ks].astype(np.float64) * x[cols[ks]].astype(np.float64)
    return [np.bincount(rows, weights=prod, minlength=len(row_ptr))]


def _ranges(starts, lens):
    """The concatenation of arange(s, s + l) over the rows, without a Python loop."""
    total = int(lens.sum())
    ends = np.cumsum(lens)
    out = np.ones(total, np.int64)
    nz = lens > 0
    first = ends[nz] - lens[nz]  # position of each non-empty row's first element
    out[first] = starts[nz]
    out[first[1:]] -= starts[nz][:-1] + lens[nz][:-1] - 1
    return np.cumsum(out)


def nbr_stencil(img, iN, iS, jW, jE):
    g = img.astype(np.float64)
    return [0.2 * (g + g[iN, :] + g[iS, :] + g[:, jW] + g[:, jE])]


def graph_step(rank, outdeg, src, dst):
    nv = len(rank)
    contrib = rank[src].astype(np.float64) / outdeg[src]
    ok = (dst >= 0) & (dst < nv)
    sums = np.bincount(dst[ok], weights=contrib[ok], minlength=nv)
    return [(1 - 0.85) / nv + 0.85 * sums]


def gather3(a, b, c):
    return [a[b[c]]]


def assert_div(xs, ws, vs, nbuckets):
    b = np.floor_divide(xs, ws)
    if not ((xs >= 0).all() and (ws > 0).all() and (vs != 0).all() and (b < nbuckets).all()):
        raise ValueError("assert_div: the input makes the program fail")
    return [b * 4 + np.mod(xs, ws) + np.mod(xs, vs)]


def bsearch(keys, m, queries):
    m = int(m)
    if m > len(keys):
        raise ValueError("bsearch: m is beyond the keys")
    order = np.argsort(queries, kind="stable")  # sorted queries search far faster
    out = np.empty(len(queries), np.int64)
    out[order] = np.searchsorted(keys[:max(m, 0)], queries[order], side="left")
    return [out]


def softmax(xss):
    x = xss.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return [e / e.sum(axis=1, keepdims=True)]


def layernorm(xss):
    x = xss.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return [(x - mean) / np.sqrt(var + 1e-5)]


def row_scan(xss):
    return [np.cumsum(xss, axis=1, dtype=np.int64).astype(np.int32)]


def batched_matmul(a, b):
    return [np.matmul(a.astype(np.float64), b.astype(np.float64))]


def _nbody_rows(args):
    """nbody's accelerations of bodies [lo, hi), float64, 256 bodies at a time."""
    x, y, z, m, eps2, lo, hi = args
    out = np.empty((3, hi - lo))
    for s in range(lo, hi, 256):
        e = min(s + 256, hi)
        d = [v[None, :] - v[s:e, None] for v in (x, y, z)]
        r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2
        w = m[None, :] / (r2 * np.sqrt(r2))
        for c in range(3):
            out[c, s - lo:e - lo] = np.einsum("ij,ij->i", w, d[c])
    return out


def nbody(xs, ys, zs, ms, eps2):
    """The sum over j of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps2)^(3/2) for each i, in
    float64; n^2 terms, so large inputs are split over processes (one per core)."""
    x, y, z, m = (np.asarray(v, np.float64) for v in (xs, ys, zs, ms))
    n = len(x)
    parts = max(1, min(os.cpu_count() or 1, n // 2048))
    bounds = [(k * n // parts, (k + 1) * n // parts) for k in range(parts)]
    jobs = [(x, y, z, m, float(eps2), lo, hi) for lo, hi in bounds]
    if parts == 1:
        out = [_nbody_rows(j) for j in jobs]
    else:
        with ProcessPoolExecutor(parts) as pool:
            out = list(pool.map(_nbody_rows, jobs))
    acc = np.concatenate(out, axis=1) if out else np.empty((3, 0))
    return [acc[0], acc[1], acc[2]]


# (program, entry) -> reference
REFERENCES = {
    ("gather", "main"): gather,
    ("stencil", "nested"): stencil,
    ("stencil", "flat"): stencil,
    ("intdiv", "main"): intdiv,
    ("reduce", "main"): reduce,
    ("scan", "main"): scan,
    ("matmul", "nested"): matmul,
    ("matmul", "flat"): matmul,
    ("matmul1024", "nested"): matmul,
    ("matmul4096", "nested"): matmul,
    ("histogram", "main"): histogram,
    ("small_kernels", "main"): small_kernels,
    ("hotspot", "main"): hotspot,
    ("pathfinder", "main"): pathfinder,
    ("nn", "main"): nn,
    ("kmeans", "main"): kmeans,
    ("backprop", "main"): backprop,
    ("spmv", "main"): spmv,
    ("nbr_stencil", "main"): nbr_stencil,
    ("graph_step", "main"): graph_step,
    ("gather3", "main"): gather3,
    ("assert_div", "main"): assert_div,
    ("bsearch", "main"): bsearch,
    ("softmax", "main"): softmax,
    ("layernorm", "main"): layernorm,
    ("row_scan", "main"): row_scan,
    ("batched_matmul", "rows"): batched_matmul,
    ("batched_matmul", "indexed"): batched_matmul,
    ("nbody", "main"): nbody,
}


def compute(program, entry, inputs):
    return REFERENCES[(program, entry)](*inputs)
