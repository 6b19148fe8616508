#!/usr/bin/env python3
"""JAX and PyTorch matrix products at 1024, 2048 and 4096 (bench/matmul.fut's inputs
matmul1024.in, matmul.in and matmul4096.in of bench/gen_data.py --group matmul), timed
next to Kerb and the hand-written CUDA in bench/run_gpu_matmul.sh: suite_peers.py's
matmul (`jnp.matmul(precision=HIGHEST)`; `a @ b`, cuBLAS with TF32 off) on each input,
its results checked against the same expected outputs.

  python3 bench/peers/matmul_peers.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

One variant each: `jax.jit` and `torch eager`. Timing, the command line and the JSON
(schema kerb-peers/1): bench/peers/common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import main, run_jax_jit, run_torch_eager  # noqa: E402
import suite_peers  # noqa: E402

PROGRAMS = ["matmul1024", "matmul", "matmul4096"]


def run_jax(args, names, data, deadline, save):
    mm = suite_peers.jax_programs()["matmul"]
    return run_jax_jit(args, names, data, deadline, save, {name: mm for name in PROGRAMS})


def run_torch(args, names, data, deadline, save):
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # f32 products in f32, as the programs
    mm = suite_peers.torch_programs(torch)["matmul"]
    return run_torch_eager(args, names, data, deadline, save, torch, {name: mm for name in PROGRAMS})


if __name__ == "__main__":
    main(__doc__, "matmul_peers.py", PROGRAMS, {"jax": run_jax, "torch": run_torch})
