#!/usr/bin/env python3
"""JAX and PyTorch versions of the programs whose checks cannot be proved
(bench/unproved/), timed next to Kerb in bench/run_gpu_unproved.sh: each program as a
user of the framework would write it, on the same input files, its results checked
against the same expected outputs (bench/check_results.py's comparison).

  python3 bench/peers/unproved_peers.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

JAX (with x64 on: the indices are i64 as in the .fut programs): `jit` (no checks: what
JAX does by default with an index out of bounds is clamp it) and
`jit(checkify.checkify(f, errors=...))` with the checks that fit the program
(index_checks for gathers, div_checks for integer divisions, user_checks for the asserts,
written as `checkify.check(jnp.all(cond), ...)`), timed two ways: the error blocked on
with the results, and the host reading the error after every call (`err.get()`, as
Kerb's host looks at its failure slot at the end of every call). PyTorch: eager (its
CUDA indexing kernels assert in-bounds indices on the device; nothing else is checked).
Each checkified version also runs once on NAME_bad.in (bench/gen_data.py: one failing
element) and must report an error.

Timing (a batch of calls and one wait, over the batch: JAX waits for the results and the
error), the command line and the JSON: bench/peers/common.py. `err.get()` is only ever
per call.

Writes JSON (schema kerb-peers/1) and prints one line per variant. Needs numpy and the
framework (on the lent GPU machine: jax 0.11 with CUDA, torch 2.11); runs on the CPU too
(for trying it on small inputs)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (check, in_time, jax_setup, load, main, print_variant, time_variant,  # noqa: E402
                    to_torch, torch_setup)
from futhark_data import read_values  # noqa: E402 (common puts bench/ on the path)

PROGRAMS = ["spmv", "nbr_stencil", "graph_step", "gather3", "assert_div", "bsearch"]
DAMPING = 0.85


# ---- JAX ---------------------------------------------------------------------------------

def jax_programs():
    """name -> (f(checked, *inputs), checkify error set, the inputs' static arguments).
    `checked` is static: with it the program makes its asserts with checkify.check, which
    plain jit cannot trace."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import checkify

    def spmv(checked, row_ptr, row_end, cols, vals, x):
        # COO from CSR (the rows tile the nonzeros in order, as gen_data writes them),
        # then one segment sum: how a JAX user writes a CSR product
        n, nnz = row_ptr.shape[0], cols.shape[0]
        rows = jnp.repeat(jnp.arange(n), row_end - row_ptr, total_repeat_length=nnz)
        return jax.ops.segment_sum(vals * x[cols], rows, num_segments=n)

    def nbr_stencil(checked, img, iN, iS, jW, jE):
        return jnp.float32(0.2) * (img + img[iN, :] + img[iS, :] + img[:, jW] + img[:, jE])

    def graph_step(checked, rank, outdeg, src, dst):
        nv = rank.shape[0]
        contrib = rank[src] / outdeg[src].astype(jnp.float32)
        sums = jnp.zeros(nv, jnp.float32).at[dst].add(contrib, mode="drop")
        base = (jnp.float32(1) - jnp.float32(DAMPING)) / jnp.float32(nv)
        return base + jnp.float32(DAMPING) * sums

    def gather3(checked, a, b, c):
        return a[b[c]]

    def assert_div(checked, xs, ws, vs, nbuckets):
        if checked:
            checkify.check(jnp.all(xs >= 0), "Assertion is false: x >= 0")
            checkify.check(jnp.all(ws > 0), "Assertion is false: w > 0")
        b = xs // ws
        r = xs % ws
        s = xs % vs
        if checked:
            checkify.check(jnp.all(b < nbuckets), "Assertion is false: b < nbuckets")
        return b * 4 + r + s

    def bsearch(checked, keys, m, queries):
        # the .fut program's loop on every query at once, a fixed number of times as
        # jnp.searchsorted does (a while_loop would read its condition on the host every
        # iteration): enough for m <= n + 1, where a query's range of m + 1 candidates
        # halves each time; a finished query's probe is keys[0]
        lo = jnp.zeros(queries.shape, jnp.int64)
        hi = jnp.full(queries.shape, m, jnp.int64)

        def body(_, state):
            lo, hi = state
            active = lo < hi
            mid = (lo + hi) // 2
            below = keys[jnp.where(active, mid, 0)] < queries
            return jnp.where(active & below, mid + 1, lo), jnp.where(active & ~below, mid, hi)

        lo, _ = lax.fori_loop(0, (keys.shape[0] + 1).bit_length(), body, (lo, hi))
        return lo

    idx = checkify.index_checks
    return {
        "spmv": (spmv, idx),
        "nbr_stencil": (nbr_stencil, idx),
        "graph_step": (graph_step, idx),
        "gather3": (gather3, idx),
        "assert_div": (assert_div, checkify.user_checks | checkify.div_checks),
        "bsearch": (bsearch, idx),
    }


def run_jax(args, names, data, deadline, save):
    jax, report = jax_setup()
    from jax.experimental import checkify

    progs = jax_programs()
    for name in in_time("jax", names, deadline):
        f, errors = progs[name]
        inputs, expected = load(data, name)
        args_dev = [jax.device_put(v) for v in inputs]
        plain = jax.jit(lambda *a, f=f: f(False, *a))
        checked_f = jax.jit(checkify.checkify(lambda *a, f=f: f(True, *a), errors=errors))
        bench = {"program": name, "variants": []}

        def call_plain():
            return plain(*args_dev)

        def call_checked():
            return checked_f(*args_dev)

        def get_checked():
            err, out = checked_f(*args_dev)
            msg = err.get()
            if msg is not None:
                raise RuntimeError(f"checkify reported an error on good input: {msg}")
            return out

        for flags, fn, result, wait in (
                ("jax.jit", call_plain, lambda o: o, jax.block_until_ready),
                ("jax.jit(checkify)", call_checked, lambda o: o[1], jax.block_until_ready),
                ("jax.jit(checkify) + err.get()", get_checked, lambda o: o, jax.block_until_ready)):
            v = time_variant(args, flags, fn, wait, batched=flags != "jax.jit(checkify) + err.get()")
            if v["status"] == "ok":
                out = fn()
                if flags == "jax.jit(checkify)":
                    err, _ = out
                    msg = err.get()
                    if msg is not None:
                        v.update(status="error", error=f"checkify reported an error on good input: {msg}")
                v.setdefault("check", check(name, [np.asarray(result(out))], expected))
            bench["variants"].append(v)
            print_variant("jax", name, v)
        bench["bad_input"] = jax_bad_input(data, name, checked_f)
        print(f"peers: jax {name} bad input: {bench['bad_input']}", flush=True)
        report["benchmarks"].append(bench)
        save(report)
        args_dev = None  # the device copies go before the next program's come
    return report


def jax_bad_input(data, name, checked_f):
    """Runs the checkified version on NAME_bad.in: it must report an error."""
    import jax

    path = os.path.join(data, f"{name}_bad.in")
    if not os.path.exists(path):
        return {"status": "skipped", "why": f"no {path}"}
    try:
        err, _ = checked_f(*[jax.device_put(v) for v in read_values(path)])
        msg = err.get()
    except Exception as e:  # noqa: BLE001 (reported, not hidden)
        return {"status": "error", "error": f"{type(e).__name__}: {e}"[:300]}
    return {"status": "caught" if msg else "missed", "message": (msg or "")[:300]}


# ---- PyTorch -----------------------------------------------------------------------------

def torch_programs(torch):
    def spmv(row_ptr, row_end, cols, vals, x):
        # torch's CSR tensor (cuSPARSE on CUDA): the rows tile the nonzeros in order
        crow = torch.cat([row_ptr, row_end[-1:]]) if row_ptr.numel() else torch.zeros(1, dtype=torch.int64,
                                                                                        device=x.device)
        a = torch.sparse_csr_tensor(crow, cols, vals, size=(row_ptr.numel(), x.numel()),
                                    check_invariants=False)
        return torch.mv(a, x)

    def spmv_coo(row_ptr, row_end, cols, vals, x):
        # where torch.mv has no CSR kernel: the products summed per row, as JAX does
        rows = torch.repeat_interleave(torch.arange(row_ptr.numel(), device=x.device), row_end - row_ptr,
                                       output_size=cols.numel())
        return torch.zeros(row_ptr.numel(), dtype=x.dtype, device=x.device).index_add_(0, rows, vals * x[cols])

    def nbr_stencil(img, iN, iS, jW, jE):
        return 0.2 * (img + img[iN, :] + img[iS, :] + img[:, jW] + img[:, jE])

    def graph_step(rank, outdeg, src, dst):
        # every destination is in range in the inputs (index_add_ would fail otherwise)
        nv = rank.numel()
        contrib = rank[src] / outdeg[src].to(torch.float32)
        sums = torch.zeros(nv, dtype=torch.float32, device=rank.device).index_add_(0, dst, contrib)
        return (1 - DAMPING) / nv + DAMPING * sums

    def gather3(a, b, c):
        return a[b[c]]

    def assert_div(xs, ws, vs, nbuckets):
        # no asserts: PyTorch has none that do not sync the host
        b = torch.div(xs, ws, rounding_mode="floor")
        return b * 4 + torch.remainder(xs, ws) + torch.remainder(xs, vs)

    def bsearch(keys, m, queries):
        return torch.searchsorted(keys[:m], queries, side="left")

    return {"spmv": spmv, "spmv_coo": spmv_coo, "nbr_stencil": nbr_stencil, "graph_step": graph_step,
            "gather3": gather3, "assert_div": assert_div, "bsearch": bsearch}


def run_torch(args, names, data, deadline, save):
    import torch

    dev, report, wait = torch_setup(torch)
    progs = torch_programs(torch)
    for name in in_time("torch", names, deadline):
        inputs, expected = load(data, name)
        args_dev = to_torch(torch, inputs, dev)  # bsearch's m slices on the host
        f = progs[name]
        bench = {"program": name, "variants": []}
        with torch.inference_mode():
            v = time_variant(args, "torch eager", lambda: f(*args_dev), wait, batched=True)
            if v["status"] != "ok" and name == "spmv":
                print(f"peers: torch spmv with a CSR tensor failed ({v['error'][:200]}); COO instead", flush=True)
                f = progs["spmv_coo"]
                v = time_variant(args, "torch eager", lambda: f(*args_dev), wait, batched=True)
                v["how"] = "COO: index_add_ of the products (torch.mv of a CSR tensor failed)"
            if v["status"] == "ok":
                v["check"] = check(name, [f(*args_dev).cpu().numpy()], expected)
        bench["variants"].append(v)
        print_variant("torch", name, v)
        report["benchmarks"].append(bench)
        save(report)
        args_dev = None  # the device copies go before the next program's come
    return report


if __name__ == "__main__":
    main(__doc__, "unproved_peers.py", PROGRAMS, {"jax": run_jax, "torch": run_torch})
