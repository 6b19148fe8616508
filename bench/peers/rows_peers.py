#!/usr/bin/env python3
"""JAX and PyTorch versions of the row-wise programs of issue 17 (bench/softmax.fut,
layernorm.fut, row_scan.fut: 65536 x 1024), timed next to Kerb in bench/run_gpu_rows.sh:
each program as a user of the framework would write it, with the framework's own
operations, on the same input files, its results checked against the same expected
outputs (bench/check_results.py's comparison and tolerances).

  python3 bench/peers/rows_peers.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

| program | JAX (`jax.jit`) | PyTorch (eager) |
|---|---|---|
| softmax | `jax.nn.softmax(axis=1)` | `torch.softmax(dim=1)` |
| layernorm | `jnp.mean`, `jnp.var`, `lax.rsqrt` (eps 1e-5, no scale or shift) | `F.layer_norm` (eps 1e-5, no weight) |
| row_scan | `jnp.cumsum(axis=1, dtype=int32)` | `torch.cumsum(dim=1, dtype=int32)` |

One variant each: `jax.jit` and `torch eager`. Timing (a batch of calls and one wait,
over the batch), the command line and the JSON (schema kerb-peers/1): bench/peers/
common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import main, run_jax_jit, run_torch_eager  # noqa: E402

PROGRAMS = ["softmax", "layernorm", "row_scan"]
EPS = 1e-5


def jax_programs():
    import jax
    import jax.numpy as jnp
    from jax import lax

    def softmax(xss):
        return (jax.nn.softmax(xss, axis=1),)

    def layernorm(xss):
        mean = jnp.mean(xss, axis=1, keepdims=True)
        var = jnp.var(xss, axis=1, keepdims=True)
        return ((xss - mean) * lax.rsqrt(var + jnp.float32(EPS)),)

    def row_scan(xss):
        return (jnp.cumsum(xss, axis=1, dtype=jnp.int32),)

    return {"softmax": softmax, "layernorm": layernorm, "row_scan": row_scan}


def torch_programs(torch):
    import torch.nn.functional as F

    def softmax(xss):
        return (torch.softmax(xss, dim=1),)

    def layernorm(xss):
        return (F.layer_norm(xss, (xss.shape[1],), eps=EPS),)

    def row_scan(xss):
        return (torch.cumsum(xss, dim=1, dtype=torch.int32),)  # without dtype, i64

    return {"softmax": softmax, "layernorm": layernorm, "row_scan": row_scan}


def run_jax(args, names, data, deadline, save):
    return run_jax_jit(args, names, data, deadline, save, {k: (f, ()) for k, f in jax_programs().items()})


def run_torch(args, names, data, deadline, save):
    import torch

    return run_torch_eager(args, names, data, deadline, save, torch, torch_programs(torch))


if __name__ == "__main__":
    main(__doc__, "rows_peers.py", PROGRAMS, {"jax": run_jax, "torch": run_torch})
