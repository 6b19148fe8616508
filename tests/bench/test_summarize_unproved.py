#!/usr/bin/env python3
"""Tests of bench/summarize_unproved.py on made-up reports of one program: the ratios of
the table (Kerb default / --unsafe, hand-written checked / unchecked, checkify / jit),
the fastest peer and Kerb's speed against it, the goal lines, the result checks, and the
bad inputs' verdicts (a wrong message or a zero exit is not a report of the failure).
Standard library only; exits 1 on a failure."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, write  # noqa: E402 (harness puts bench/ on the path)
import summarize_unproved  # noqa: E402


with tempfile.TemporaryDirectory() as tmp:
    raw, data = os.path.join(tmp, "raw"), os.path.join(tmp, "data")
    os.makedirs(raw)
    os.makedirs(data)
    case = {"program": "bench/unproved/spmv.fut", "entry": "main", "case": "2^21 rows", "expect": "output",
            "input": "input @ ../data/spmv.in", "variants": [
                {"flags": "--unsafe", "status": "ok", "runs_ms": [1.0, 1.0, 1.1], "median_ms": 1.0},
                {"flags": "default", "status": "ok", "runs_ms": [1.2, 1.2, 1.3], "median_ms": 1.2},
                {"flags": "--deferred-checks=off", "status": "ok", "runs_ms": [2.5, 2.5, 2.6], "median_ms": 2.5}]}
    write(os.path.join(raw, "kerb_spmv.json"), {"kerb": {"commit": "abc"}, "device": {"name": "H100"},
                                                "date": "today", "benchmarks": [case]})
    for name, t in (("spmv", 0.8), ("spmv_checked", 0.96)):
        write(os.path.join(raw, f"cuda_{name}.json"), {"benchmarks": [{
            "program": "bench/unproved/spmv.fut", "entry": "main", "handwritten": name,
            "input": "input @ bench/data/spmv.in", "variants": [{"runs_ms": [t, t, t], "median_ms": t}]}]})
    write(os.path.join(raw, "peers_jax.json"), {"framework": "jax", "version": "0.11", "device": "cuda:0",
                                                "benchmarks": [{"program": "spmv", "variants": [
        {"flags": "jax.jit", "status": "ok", "median_ms": 2.0, "sync_median_ms": 2.2, "check": "ok"},
        {"flags": "jax.jit(checkify)", "status": "ok", "median_ms": 3.0, "sync_median_ms": 3.1, "check": "ok"},
        {"flags": "jax.jit(checkify) + err.get()", "status": "ok", "median_ms": 3.3, "sync_median_ms": 3.3,
         "check": "MISMATCH result 1: 1 NaN elements"}],
        "bad_input": {"status": "caught", "message": "out-of-bounds indexing"}}]})
    write(os.path.join(raw, "peers_torch.json"), {"framework": "torch", "status": "missing", "error": "no torch",
                                                  "benchmarks": []})
    write(os.path.join(raw, "checks.txt"), "ok hand-written spmv spmv:main (1 result)\n"
                                           "MISMATCH hand-written spmv_checked spmv:main result 1: shape\n")
    write(os.path.join(data, "spmv_bad.txt"), "Index [500] out of bounds for array of shape [500].\n")
    write(os.path.join(raw, "bad_status.txt"), "spmv kerb 1\nspmv cuda 1\n")
    write(os.path.join(raw, "bad_kerb_spmv.err"),
          "Error: Index [500] out of bounds for array of shape [500].\nat spmv.fut:43:66-79\n")
    write(os.path.join(raw, "bad_cuda_spmv.err"), "kerb-cuda-bench: the program failed: Index [499] out of bounds\n")

    s = summarize_unproved.summarize(raw, data)
    r = next(r for r in s["rows"] if r["program"] == "spmv")
    close = lambda a, b: a is not None and abs(a - b) < 1e-9  # noqa: E731
    check(close(r["default_vs_unsafe"], 1.2), f"default / unsafe: {r['default_vs_unsafe']}")
    check(close(r["hand_checked_vs_unchecked"], 1.2), f"hand checked / unchecked: {r['hand_checked_vs_unchecked']}")
    check(close(r["checkify_vs_jit"], 1.5), f"checkify / jit: {r['checkify_vs_jit']}")
    check(close(r["checkify_get_vs_jit_sync"], 1.5), f"checkify + get / jit sync: {r['checkify_get_vs_jit_sync']}")
    check(r["fastest_peer"] == "hand-written" and close(r["speed_vs_fastest"], 0.8 / 1.2),
          f"fastest: {r.get('fastest_peer')} {r.get('speed_vs_fastest')}")
    check(r["torch_ms"] is None, "no torch: no time")
    check(s["summary"]["default_below_checkify"] == {"n": 1, "met": 1}, f"below checkify: {s['summary']}")
    bad = s["bad_inputs"]["spmv"]
    check(bad["kerb"]["reported"], f"kerb's message is the expected one: {bad['kerb']}")
    check(not bad["cuda"]["reported"], f"a different index is not the planted failure: {bad['cuda']}")
    check(bad["checkify"]["reported"], f"checkify caught it: {bad['checkify']}")
    # A zero exit is no report, whatever was printed.
    write(os.path.join(raw, "bad_status.txt"), "spmv kerb 0\n")
    check(not summarize_unproved.summarize(raw, data)["bad_inputs"]["spmv"]["kerb"]["reported"], "exit 0")

    text = summarize_unproved.table(s)
    check("| 1.000 | 1.200 | 1.200x | 2.500x | 0.8000 | 0.9600 | 1.200x | 2.000 | 3.000 | 1.500x | 3.300 | - | 0.67 "
          "(hand-written) |" in text, "the spmv row:\n" + text)
    check("Kerb --deferred-checks=off (each check a branch, the scheme before) / --unsafe: geomean 2.500x" in text,
          "branching line:\n" + text)
    check("Kerb default / --unsafe: geomean 1.200x, max 1.200x (spmv) over 1" in text, "goal line:\n" + text)
    check("Kerb default faster than JAX checkify: 1 of 1" in text, "checkify line:\n" + text)
    check("hand-written CUDA results checked against the reference: 1 of 2 match" in text, "checks:\n" + text)
    check("jax.jit(checkify) + err.get(): MISMATCH" in text, "peer mismatch:\n" + text)
    check("torch: not installed, skipped" in text, "missing torch:\n" + text)
    check("Kerb yes, hand-written checked NO (" in text, "bad inputs:\n" + text)

finish("test_summarize_unproved")
