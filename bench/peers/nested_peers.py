#!/usr/bin/env python3
"""JAX and PyTorch versions of the nested programs of issue 17 that are neither row-wise
nor one large matrix product (bench/batched_matmul.fut: 2^16 products of 16x16 f32
matrices; bench/nbody.fut: the accelerations of 2^15 bodies, a sum over all pairs),
timed next to Kerb in bench/run_gpu_nested.sh: each program as a user of the framework
would write it, on the same input files (bench/gen_data.py --group nested), its results
checked against the same expected outputs (bench/check_results.py's comparison and
tolerances).

  python3 bench/peers/nested_peers.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

| program | JAX (`jax.jit`) | PyTorch (eager) |
|---|---|---|
| batched_matmul | `jnp.matmul(precision=HIGHEST)` on [k][16][16] (a batched dot_general) | `torch.bmm` (cuBLAS batched, TF32 off) |
| nbody | the pairs by broadcasting (n x n), `lax.rsqrt`, three `jnp.sum(axis=1)` (XLA fuses them into the reductions) | the same in blocks of rows (each pair array at most 2^27 elements, 512 MB), `torch.rsqrt`, `sum(dim=1)` |

One variant each: `jax.jit` and `torch eager`. Timing (a batch of calls and one wait,
over the batch), the command line and the JSON (schema kerb-peers/1): bench/peers/
common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import main, run_jax_jit, run_torch_eager  # noqa: E402

PROGRAMS = ["batched_matmul", "nbody"]
# PyTorch's nbody: rows of pairs a block, so that each pair array has at most this many
# elements (five of them live at once: 2.5 GB at 2^27 f32).
TORCH_PAIRS = 1 << 27


def jax_programs():
    import jax.numpy as jnp
    from jax import lax

    def batched_matmul(a, b):
        return (jnp.matmul(a, b, precision=lax.Precision.HIGHEST),)

    def nbody(x, y, z, m, eps2):
        dx = x[None, :] - x[:, None]
        dy = y[None, :] - y[:, None]
        dz = z[None, :] - z[:, None]
        inv = lax.rsqrt(dx * dx + dy * dy + dz * dz + eps2)
        s = m[None, :] * inv * inv * inv
        return (jnp.sum(s * dx, axis=1), jnp.sum(s * dy, axis=1), jnp.sum(s * dz, axis=1))

    return {"batched_matmul": batched_matmul, "nbody": nbody}


def torch_programs(torch):
    def batched_matmul(a, b):
        return (torch.bmm(a, b),)

    def nbody(x, y, z, m, eps2):
        n = x.shape[0]
        out = torch.empty((3, n), dtype=x.dtype, device=x.device)
        rows = max(1, TORCH_PAIRS // max(n, 1))
        for lo in range(0, n, rows):
            hi = min(lo + rows, n)
            dx = x[None, :] - x[lo:hi, None]
            dy = y[None, :] - y[lo:hi, None]
            dz = z[None, :] - z[lo:hi, None]
            inv = torch.rsqrt(dx * dx + dy * dy + dz * dz + eps2)
            s = m[None, :] * inv * inv * inv
            out[0, lo:hi] = (s * dx).sum(dim=1)
            out[1, lo:hi] = (s * dy).sum(dim=1)
            out[2, lo:hi] = (s * dz).sum(dim=1)
        return (out[0], out[1], out[2])

    return {"batched_matmul": batched_matmul, "nbody": nbody}


def run_jax(args, names, data, deadline, save):
    return run_jax_jit(args, names, data, deadline, save, {k: (f, ()) for k, f in jax_programs().items()})


def run_torch(args, names, data, deadline, save):
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # f32 products in f32, as the programs
    return run_torch_eager(args, names, data, deadline, save, torch, torch_programs(torch))


if __name__ == "__main__":
    main(__doc__, "nested_peers.py", PROGRAMS, {"jax": run_jax, "torch": run_torch})