"""What the peers' scripts share (bench/peers/unproved_peers.py for the group whose checks
cannot be proved, bench/peers/suite_peers.py for the main suite, bench/peers/rows_peers.py
for the row-wise programs): reading a program's input and expected output files,
checking results against them (bench/check_results.py's comparison and tolerances),
timing a variant, the per-framework report, the plain variants (`jax.jit`, `torch
eager`) of a table of programs, and the command line, which the scripts present the
same way:

  python3 bench/peers/SCRIPT.py jax|torch --data DIR --json OUT.json
          [--runs N] [--warmup N] [--time-budget SEC] [--deadline SEC] [NAME...]

Timing (METHOD.md): inputs are uploaded once; after warm-up calls (compilation
included), each sample is a batch of K back-to-back calls followed by one wait for the
last (JAX: block_until_ready on the results; PyTorch: synchronize), divided by K, with K
chosen so that a batch takes about 5 ms: the device time per call with the host's
dispatch overlapped, as `kerb bench`'s events measure a call. The median of the samples
is `median_ms`; `sync_median_ms` is one call and its wait, the median over calls (the
host's round trip included). --deadline stops starting new programs once that many
seconds have passed.

The JSON (schema kerb-peers/1) is written after every program, so that a run stopped by
its timeout leaves what it did; a framework that is not installed gives a report with
status "missing" and no benchmarks. Needs numpy, and the framework to time."""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from check_results import DEFAULT_TOLERANCE, TOLERANCE, compare  # noqa: E402
from futhark_data import read_values  # noqa: E402


def load(data, name):
    """(inputs, expected outputs) of program `name`: DATA/NAME.in and DATA/NAME.out."""
    inputs = read_values(os.path.join(data, f"{name}.in"))
    expected = read_values(os.path.join(data, f"{name}.out"))
    return [np.array(v) for v in inputs], expected


def check(name, results, expected):
    """"ok", or why the results do not match the expected ones."""
    tol = TOLERANCE.get(name, DEFAULT_TOLERANCE)
    if len(results) != len(expected):
        return f"MISMATCH: {len(results)} results, expected {len(expected)}"
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


def in_time(fw, names, deadline):
    """The names, up to the first one that would start after the deadline."""
    for name in names:
        if time.time() > deadline:
            print(f"peers: {fw} {name} and the rest skipped (the deadline)", flush=True)
            return
        yield name


def jax_setup():
    """(jax with x64 on, the start of a JAX report: the version and the device the programs
    run on). x64: the programs' indices are i64."""
    import jax

    jax.config.update("jax_enable_x64", True)
    dev = jax.devices()[0]
    return jax, {"framework": "jax", "version": jax.__version__, "device": str(dev), "platform": dev.platform,
                 "benchmarks": []}


def torch_setup(torch):
    """(device, the start of a PyTorch report, wait): CUDA where there is one, else the CPU;
    wait(result) synchronizes the device."""
    cuda = torch.cuda.is_available()
    dev = torch.device("cuda" if cuda else "cpu")
    report = {"framework": "torch", "version": torch.__version__,
              "device": torch.cuda.get_device_name(0) if cuda else "cpu", "platform": dev.type, "benchmarks": []}

    def wait(_):
        if cuda:
            torch.cuda.synchronize()

    return dev, report, wait


def to_torch(torch, inputs, dev):
    """The inputs on the device; scalars stay Python numbers (sizes and loop counts, read
    on the host)."""
    return [torch.from_numpy(np.ascontiguousarray(v)).to(dev) if np.ndim(v) else v.item() for v in inputs]


def run_jax_jit(args, names, data, deadline, save, progs):
    """One `jax.jit` variant per program: `progs` maps a name to (f(*inputs) returning the
    tuple of results, the indices of its inputs that are static: scalars that give a
    result its shape or a loop its trip count, passed as Python numbers)."""
    jax, report = jax_setup()
    for name in in_time("jax", names, deadline):
        f, static = progs[name]
        inputs, expected = load(data, name)
        fixed = {k: inputs[k].item() for k in static}
        args_dev = [jax.device_put(v) for k, v in enumerate(inputs) if k not in fixed]

        def with_fixed(*dynamic, f=f, fixed=fixed, n=len(inputs)):
            rest = iter(dynamic)
            return f(*[fixed[k] if k in fixed else next(rest) for k in range(n)])

        jitted = jax.jit(with_fixed)

        def call():
            return jitted(*args_dev)

        v = time_variant(args, "jax.jit", call, jax.block_until_ready, batched=True)
        if v["status"] == "ok":
            v["check"] = check(name, [np.asarray(r) for r in call()], expected)
        report["benchmarks"].append({"program": name, "variants": [v]})
        print_variant("jax", name, v)
        save(report)
        args_dev = None  # the device copies go before the next program's come
    return report


def run_torch_eager(args, names, data, deadline, save, torch, progs):
    """One `torch eager` variant per program: `progs` maps a name to f(*inputs) returning
    the tuple of results (scalar inputs as Python numbers: to_torch)."""
    dev, report, wait = torch_setup(torch)
    for name in in_time("torch", names, deadline):
        inputs, expected = load(data, name)
        args_dev = to_torch(torch, inputs, dev)
        f = progs[name]
        with torch.inference_mode():
            v = time_variant(args, "torch eager", lambda: f(*args_dev), wait, batched=True)
            if v["status"] == "ok":
                v["check"] = check(name, [r.cpu().numpy() for r in f(*args_dev)], expected)
        report["benchmarks"].append({"program": name, "variants": [v]})
        print_variant("torch", name, v)
        save(report)
        args_dev = None  # the device copies go before the next program's come
    return report


def main(doc, script, programs, runners):
    """The command line of a peers script: `runners` maps "jax" and "torch" to
    run(args, names, data, deadline, save), which returns the report."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("framework", choices=sorted(runners))
    ap.add_argument("names", nargs="*", help=f"programs (default: {' '.join(programs)})")
    ap.add_argument("--data", required=True, help="the folder of NAME.in / NAME.out (bench/gen_data.py)")
    ap.add_argument("--json", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--time-budget", type=float, default=2.0, help="seconds of timed calls per variant")
    ap.add_argument("--deadline", type=float, default=1e9, help="seconds from now after which no program starts")
    args = ap.parse_intermixed_args()
    names = args.names or programs
    for n in names:
        if n not in programs:
            sys.exit(f"{script}: unknown program '{n}' (known: {', '.join(programs)})")
    deadline = time.time() + args.deadline
    meta = {"schema": "kerb-peers/1", "host": platform.node(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "settings": {"runs": args.runs, "warmup": args.warmup, "time_budget_s": args.time_budget}}

    def save(report):
        # after every program, so that a run stopped by its timeout leaves what it did
        with open(args.json, "w") as f:
            json.dump({**report, **meta}, f, indent=1)

    try:
        save(runners[args.framework](args, names, args.data, deadline, save))
    except ImportError as e:
        save({"framework": args.framework, "status": "missing", "error": str(e), "benchmarks": []})
        print(f"peers: {args.framework} is not installed ({e}): skipped", flush=True)
