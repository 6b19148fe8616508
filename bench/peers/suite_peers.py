#!/usr/bin/env python3
"""JAX and PyTorch versions of the programs of the benchmark suite (bench/*.fut), timed
next to Kerb and the hand-written CUDA in bench/run_gpu_suite.sh: each program as a user
of the framework would write it, on the same input files, its results checked against
the same expected outputs (bench/check_results.py's comparison and tolerances).

  python3 bench/peers/suite_peers.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

JAX: `jax.jit` of the whole program, loops included (`lax.fori_loop`, `lax.while_loop`,
`lax.scan`), with x64 on (gather's and histogram's indices and nn's index are i64 as in
the .fut programs) and every result kept in the program's type (`jnp.cumsum(dtype=
int32)`); sizes that give a result its shape (histogram's bins, kmeans' k) and the loop
counts of `fori_loop` (hotspot's and kmeans' iters, so that XLA knows the trip count)
are static arguments; matrix products at `precision=HIGHEST` (f32, not TF32). PyTorch:
eager, loops in Python (small_kernels reads its loop's condition back every iteration,
as the .fut program does); `torch.backends.cuda.matmul.allow_tf32 = False`. Not
torch.compile: its first call compiles a program for tens of seconds (more with the
Python loops unrolled into the graph), too long for the suite's one call on the GPU, and
it needs a working Triton and C compiler there. Where a program can be written several
ways, the one chosen is the one a user of the framework would reach for first:

| program | JAX | PyTorch |
|---|---|---|
| gather | `a[idx]` | `a[idx]` |
| stencil | `g.at[1:-1, 1:-1].set(...)` of shifted slices | `out[1:-1, 1:-1] = ...` into a clone |
| intdiv | `a // b` | `a // b` (floor division, as Futhark's `/`) |
| reduce | `jnp.sum` | `xs.sum()` |
| scan | `jnp.cumsum(dtype=int32)` | `torch.cumsum(dtype=int32)` |
| matmul | `jnp.matmul(precision=HIGHEST)` | `a @ b` (cuBLAS, TF32 off) |
| histogram | `jax.ops.segment_sum` of ones (drops ids out of range) | `torch.bincount`, ids out of range sent to an extra bin |
| small_kernels | `lax.while_loop` | a Python loop, `q.item()` every iteration |
| hotspot | `lax.fori_loop`, `jnp.pad(mode="edge")` | a Python loop, `F.pad(mode="replicate")` |
| pathfinder | `lax.scan` over the rows | a Python loop over the rows, `torch.cat` for the edges |
| nn | `jnp.argmin`, then the distance at it | `torch.min(d, dim=0)` |
| kmeans | `lax.fori_loop`; distances by broadcasting, `jnp.argmin`, `segment_sum` | the same in a Python loop: `argmin`, `bincount`, `index_add_` |
| backprop | `jax.nn.sigmoid(jnp.dot(precision=HIGHEST))`, the update by broadcasting | `torch.sigmoid(inp @ w)`, the same update |

One variant each: `jax.jit` and `torch eager`. Timing (a batch of calls and one wait,
over the batch), the command line and the JSON (schema kerb-peers/1): bench/peers/
common.py. Only the programs' good inputs are timed (not gather_bad.in: JAX clamps an
index out of bounds and PyTorch's device-side assert ends the process). Needs numpy and
the framework (on the lent GPU machine: jax 0.11 with CUDA, torch 2.11); runs on the CPU
too (bench/gen_data.py --scale small, for trying it here)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import main, run_jax_jit, run_torch_eager  # noqa: E402
from reference import hotspot_constants  # noqa: E402 (common puts bench/ on the path)

PROGRAMS = ["gather", "stencil", "intdiv", "reduce", "scan", "matmul", "histogram", "small_kernels", "hotspot",
            "pathfinder", "nn", "kmeans", "backprop"]
ETA = MOMENTUM = np.float32(0.3)  # backprop's


# ---- JAX ---------------------------------------------------------------------------------

def jax_programs():
    """name -> (f(*inputs) returning the tuple of results, the positions of the inputs that
    are static: Python ints fixed when the program is traced)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    highest = lax.Precision.HIGHEST

    def gather(a, idx):
        return (a[idx],)

    def stencil(g):
        if g.shape[0] <= 2 or g.shape[1] <= 2:
            return (g,)
        inner = 0.2 * (g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
        return (g.at[1:-1, 1:-1].set(inner),)

    def intdiv(a, b):
        return (a // b,)

    def reduce(xs):
        return (jnp.sum(xs),)

    def scan(xs):
        return (jnp.cumsum(xs, dtype=jnp.int32),)  # without dtype, x64 makes it i64

    def matmul(a, b):
        return (jnp.matmul(a, b, precision=highest),)

    def histogram(bins, idx):
        return (jax.ops.segment_sum(jnp.ones(idx.shape, jnp.int32), idx, num_segments=bins),)

    def small_kernels(img, iters):
        n = img.shape[0]

        def cond(state):
            _, it, q = state
            return (it < iters) & (q > 0)

        def body(state):
            img, it, _ = state
            mean = jnp.sum(img) / n
            var = jnp.sum((img - mean) * (img - mean)) / n
            q = var / (mean * mean)
            step = 0.1 / (1 + q)
            p = jnp.pad(img, 1, mode="edge")
            return img + step * (p[:-2] + p[2:] - 2 * img), it + 1, q

        img, it, _ = lax.while_loop(cond, body, (img, jnp.int32(0), jnp.float32(1)))
        return img, it

    def hotspot(iters, temp, power):
        step, cap, rx, ry, rz, amb = hotspot_constants(*temp.shape)
        coef = step / cap

        def body(_, t):
            p = jnp.pad(t, 1, mode="edge")
            n, s, w, e = p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]
            return t + coef * (power + (s + n - 2 * t) / ry + (e + w - 2 * t) / rx + (amb - t) / rz)

        return (lax.fori_loop(0, iters, body, temp),)

    def pathfinder(wall):
        def row(prev, w):
            p = jnp.pad(prev, 1, mode="edge")
            return w + jnp.minimum(prev, jnp.minimum(p[:-2], p[2:])), None

        last, _ = lax.scan(row, wall[0], wall[1:])
        return (last,)

    def nn(lat, lng, tlat, tlng):
        d = jnp.sqrt((lat - tlat) * (lat - tlat) + (lng - tlng) * (lng - tlng))
        i = jnp.argmin(d)  # the first of equal minima
        return d[i], i

    def kmeans(k, iters, points):
        def step(_, centres):
            dist = jnp.sum((points[:, None, :] - centres[None, :, :]) ** 2, axis=2)
            member = jnp.argmin(dist, axis=1)
            counts = jax.ops.segment_sum(jnp.ones(member.shape, jnp.int32), member, num_segments=k)
            sums = jax.ops.segment_sum(points, member, num_segments=k)
            return jnp.where(counts[:, None] == 0, centres, sums / counts[:, None])

        return (lax.fori_loop(0, iters, step, points[:k]),)

    def backprop(inp, w, oldw, delta):
        hidden = jax.nn.sigmoid(jnp.dot(inp, w, precision=highest))
        return hidden, w + ETA * delta[None, :] * inp[:, None] + MOMENTUM * oldw

    return {"gather": (gather, ()), "stencil": (stencil, ()), "intdiv": (intdiv, ()), "reduce": (reduce, ()),
            "scan": (scan, ()), "matmul": (matmul, ()), "histogram": (histogram, (0,)),
            "small_kernels": (small_kernels, ()), "hotspot": (hotspot, (0,)), "pathfinder": (pathfinder, ()),
            "nn": (nn, ()), "kmeans": (kmeans, (0, 1)), "backprop": (backprop, ())}


def run_jax(args, names, data, deadline, save):
    return run_jax_jit(args, names, data, deadline, save, jax_programs())


# ---- PyTorch -----------------------------------------------------------------------------

def torch_programs(torch):
    """name -> f(*inputs) returning the tuple of results; scalar inputs are Python numbers."""
    import torch.nn.functional as F

    def gather(a, idx):
        return (a[idx],)

    def stencil(g):
        out = g.clone()
        if g.shape[0] > 2 and g.shape[1] > 2:
            out[1:-1, 1:-1] = 0.2 * (g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
        return (out,)

    def intdiv(a, b):
        return (a // b,)

    def reduce(xs):
        return (xs.sum(),)

    def scan(xs):
        return (torch.cumsum(xs, 0, dtype=torch.int32),)  # without dtype, i64

    def matmul(a, b):
        return (a @ b,)

    def histogram(bins, idx):
        ok = (idx >= 0) & (idx < bins)
        return (torch.bincount(torch.where(ok, idx, bins), minlength=bins + 1)[:bins].to(torch.int32),)

    def small_kernels(img, iters):
        n = img.numel()
        it, q = 0, 1.0
        while it < iters and q > 0:
            mean = img.sum() / n
            var = ((img - mean) * (img - mean)).sum() / n
            qt = var / (mean * mean)
            step = 0.1 / (1 + qt)
            p = torch.cat([img[:1], img, img[-1:]])
            img = img + step * (p[:-2] + p[2:] - 2 * img)
            q = qt.item()
            it += 1
        return img, torch.tensor(it, dtype=torch.int32)

    def hotspot(iters, temp, power):
        step, cap, rx, ry, rz, amb = hotspot_constants(*temp.shape)
        coef, rx, ry, rz, amb = (float(c) for c in (step / cap, rx, ry, rz, amb))
        t = temp
        for _ in range(iters):
            p = F.pad(t[None], (1, 1, 1, 1), mode="replicate")[0]
            n, s, w, e = p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]
            t = t + coef * (power + (s + n - 2 * t) / ry + (e + w - 2 * t) / rx + (amb - t) / rz)
        return (t,)

    def pathfinder(wall):
        prev = wall[0]
        for r in range(1, wall.shape[0]):
            p = torch.cat([prev[:1], prev, prev[-1:]])
            prev = wall[r] + torch.minimum(prev, torch.minimum(p[:-2], p[2:]))
        return (prev,)

    def nn(lat, lng, tlat, tlng):
        d = torch.sqrt((lat - tlat) * (lat - tlat) + (lng - tlng) * (lng - tlng))
        best = torch.min(d, dim=0)  # the first of equal minima
        return best.values, best.indices

    def kmeans(k, iters, points):
        centres = points[:k]
        for _ in range(iters):
            dist = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(2)
            member = dist.argmin(1)
            counts = torch.bincount(member, minlength=k)
            sums = torch.zeros_like(centres).index_add_(0, member, points)
            centres = torch.where(counts[:, None] == 0, centres, sums / counts[:, None])
        return (centres,)

    def backprop(inp, w, oldw, delta):
        hidden = torch.sigmoid(inp @ w)
        return hidden, w + float(ETA) * delta[None, :] * inp[:, None] + float(MOMENTUM) * oldw

    return {"gather": gather, "stencil": stencil, "intdiv": intdiv, "reduce": reduce, "scan": scan,
            "matmul": matmul, "histogram": histogram, "small_kernels": small_kernels, "hotspot": hotspot,
            "pathfinder": pathfinder, "nn": nn, "kmeans": kmeans, "backprop": backprop}


def run_torch(args, names, data, deadline, save):
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # f32 products in f32, as the programs
    return run_torch_eager(args, names, data, deadline, save, torch, torch_programs(torch))


if __name__ == "__main__":
    main(__doc__, "suite_peers.py", PROGRAMS, {"jax": run_jax, "torch": run_torch})
