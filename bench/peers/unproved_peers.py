#!/usr/bin/env python3
"""JAX and PyTorch versions of the programs whose checks cannot be proved
(bench/unproved/), timed next to Kerb in bench/run_gpu_unproved.sh, and of the row-wise
programs of issue 17 (bench/softmax.fut, layernorm.fut, row_scan.fut; named on the
command line, bench/run_gpu_rows.sh): each program as a user of the framework would
write it, on the same input files, its results checked against the same expected
outputs (bench/check_results.py's comparison).

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

Timing (METHOD.md): inputs are uploaded once; after warm-up calls (compilation
included), each sample is a batch of K back-to-back calls followed by one wait for the
last (JAX: block_until_ready on the results and the error; PyTorch: synchronize),
divided by K, with K chosen so that a batch takes about 5 ms: the device time per call
with the host's dispatch overlapped, as `kerb bench`'s events measure a call. The median
of the samples is `median_ms`; `sync_median_ms` is one call and its wait, the median
over calls (the host's round trip included). `err.get()` is only ever per call.
--deadline stops starting new programs once that many seconds have passed.

Writes JSON (schema kerb-peers/1) and prints one line per variant. Needs numpy and the
framework (on the lent GPU machine: jax 0.11 with CUDA, torch 2.11); runs on the CPU too
(for trying it on small inputs)."""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from check_results import DEFAULT_TOLERANCE, TOLERANCE, compare  # noqa: E402
from futhark_data import read_values  # noqa: E402

PROGRAMS = ["spmv", "nbr_stencil", "graph_step", "gather3", "assert_div", "bsearch"]
ROWS = ["softmax", "layernorm", "row_scan"]
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

    # The row-wise programs: the framework's own operations (nothing to check).
    def softmax(checked, xss):
        return jax.nn.softmax(xss, axis=1)

    def layernorm(checked, xss):
        mean = jnp.mean(xss, axis=1, keepdims=True)
        var = jnp.var(xss, axis=1, keepdims=True)
        return (xss - mean) * lax.rsqrt(var + jnp.float32(1e-5))

    def row_scan(checked, xss):
        return jnp.cumsum(xss, axis=1, dtype=jnp.int32)

    idx = checkify.index_checks
    return {
        "softmax": (softmax, idx),
        "layernorm": (layernorm, idx),
        "row_scan": (row_scan, idx),
        "spmv": (spmv, idx),
        "nbr_stencil": (nbr_stencil, idx),
        "graph_step": (graph_step, idx),
        "gather3": (gather3, idx),
        "assert_div": (assert_div, checkify.user_checks | checkify.div_checks),
        "bsearch": (bsearch, idx),
    }


def run_jax(args, names, data, deadline, save):
    import jax

    jax.config.update("jax_enable_x64", True)
    from jax.experimental import checkify

    progs = jax_programs()
    dev = jax.devices()[0]
    report = {"framework": "jax", "version": jax.__version__, "device": str(dev), "platform": dev.platform,
              "benchmarks": []}
    for name in names:
        if time.time() > deadline:
            print(f"peers: jax {name} and the rest skipped (the deadline)", flush=True)
            break
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

    def softmax(xss):
        return torch.softmax(xss, dim=1)

    def layernorm(xss):
        return torch.nn.functional.layer_norm(xss, (xss.shape[1],), eps=1e-5)

    def row_scan(xss):
        return torch.cumsum(xss, dim=1, dtype=torch.int32)

    return {"softmax": softmax, "layernorm": layernorm, "row_scan": row_scan, "spmv": spmv, "spmv_coo": spmv_coo, "nbr_stencil": nbr_stencil, "graph_step": graph_step,
            "gather3": gather3, "assert_div": assert_div, "bsearch": bsearch}


def run_torch(args, names, data, deadline, save):
    import torch

    cuda = torch.cuda.is_available()
    dev = torch.device("cuda" if cuda else "cpu")
    progs = torch_programs(torch)
    report = {"framework": "torch", "version": torch.__version__,
              "device": torch.cuda.get_device_name(0) if cuda else "cpu", "platform": dev.type, "benchmarks": []}

    def wait(_):
        if cuda:
            torch.cuda.synchronize()

    for name in names:
        if time.time() > deadline:
            print(f"peers: torch {name} and the rest skipped (the deadline)", flush=True)
            break
        inputs, expected = load(data, name)
        # scalars stay Python numbers (bsearch's m slices on the host)
        args_dev = [torch.from_numpy(np.ascontiguousarray(v)).to(dev) if np.ndim(v) else v.item()
                    for v in inputs]
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


# ---- shared ------------------------------------------------------------------------------

def load(data, name):
    inputs = read_values(os.path.join(data, f"{name}.in"))
    expected = read_values(os.path.join(data, f"{name}.out"))
    return [np.array(v) for v in inputs], expected


def check(name, results, expected):
    tol = TOLERANCE.get(name, DEFAULT_TOLERANCE)
    for k, (r, e) in enumerate(zip(results, expected)):
        why = compare(r, e, tol)
        if why:
            return f"MISMATCH result {k + 1}: {why}"
    return "ok"


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def time_variant(args, flags, fn, wait, batched):
    """Warm-up, then `args.runs` samples (or fewer once `args.time_budget` is spent, at
    least 3): a batch of K calls and one wait, over K (batched), and one call and its
    wait (always)."""
    v = {"flags": flags, "status": "ok"}
    try:
        t_compile = time.perf_counter()
        wait(fn())
        v["first_call_s"] = time.perf_counter() - t_compile
        for _ in range(args.warmup):
            wait(fn())
        sync = []
        spent = 0.0
        for _ in range(args.runs):
            t0 = time.perf_counter()
            wait(fn())
            dt = time.perf_counter() - t0
            sync.append(1e3 * dt)
            spent += dt
            if spent > args.time_budget / 2 and len(sync) >= 3:
                break
        v["sync_median_ms"] = median(sync)
        v["sync_runs_ms"] = sync
        if batched:
            k = max(1, min(200, int(round(5.0 / max(v["sync_median_ms"], 1e-3)))))
            runs = []
            spent = 0.0
            for _ in range(args.runs):
                t0 = time.perf_counter()
                out = None
                for _ in range(k):
                    out = fn()
                wait(out)
                dt = time.perf_counter() - t0
                runs.append(1e3 * dt / k)
                spent += dt
                if spent > args.time_budget / 2 and len(runs) >= 3:
                    break
            v["batch"] = k
            v["runs_ms"] = runs
            v["median_ms"] = median(runs)
        else:
            v["runs_ms"] = sync
            v["median_ms"] = v["sync_median_ms"]
    except Exception as e:  # noqa: BLE001 (reported in the JSON and the table)
        v = {"flags": flags, "status": "error", "error": f"{type(e).__name__}: {e}"[:400]}
    return v


def print_variant(fw, name, v):
    if v["status"] != "ok":
        print(f"peers: {fw} {name} [{v['flags']}]: {v['status']}: {v.get('error', '')}", flush=True)
        return
    print(f"peers: {fw} {name} [{v['flags']}]: median {v['median_ms']:.4f} ms (sync {v['sync_median_ms']:.4f} ms, "
          f"batch {v.get('batch', 1)}, first call {v['first_call_s']:.2f} s), results {v.get('check', '?')}",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("framework", choices=["jax", "torch"])
    ap.add_argument("names", nargs="*", help=f"programs (default: {' '.join(PROGRAMS)})")
    ap.add_argument("--data", required=True, help="the folder of NAME.in / NAME.out (bench/gen_data.py)")
    ap.add_argument("--json", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--time-budget", type=float, default=2.0, help="seconds of timed calls per variant")
    ap.add_argument("--deadline", type=float, default=1e9, help="seconds from now after which no program starts")
    args = ap.parse_intermixed_args()
    names = args.names or PROGRAMS
    for n in names:
        if n not in PROGRAMS + ROWS:
            sys.exit(f"unproved_peers.py: unknown program '{n}' (known: {', '.join(PROGRAMS + ROWS)})")
    deadline = time.time() + args.deadline
    meta = {"schema": "kerb-peers/1", "host": platform.node(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "settings": {"runs": args.runs, "warmup": args.warmup, "time_budget_s": args.time_budget}}

    def save(report):
        # after every program, so that a run stopped by its timeout leaves what it did
        with open(args.json, "w") as f:
            json.dump({**report, **meta}, f, indent=1)

    try:
        run = run_jax if args.framework == "jax" else run_torch
        save(run(args, names, args.data, deadline, save))
    except ImportError as e:
        save({"framework": args.framework, "status": "missing", "error": str(e), "benchmarks": []})
        print(f"peers: {args.framework} is not installed ({e}): skipped", flush=True)


if __name__ == "__main__":
    main()
