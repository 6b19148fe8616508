#!/usr/bin/env python3
"""Tests of bench/summarize.py's comparison with the peers (bench/peers/suite_peers.py's
reports) on made-up reports: the fastest of the hand-written versions (the tiled matmul
included), JAX and PyTorch for each benchmark and Kerb default's speed against it; a peer
whose results did not match, or that failed, is shown but never the fastest; no peers for
gather's bad-index case; the geomean line with how often each was the fastest; the
frameworks' lines. Standard library only; exits 1 on a failure."""
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, write  # noqa: E402 (harness puts bench/ on the path)
import summarize  # noqa: E402


def kerb_case(program, entry, data, unsafe, default, expect="output", case="big"):
    return {"program": f"bench/{program}.fut", "entry": entry, "case": case, "expect": expect,
            "input": f"input @ data/{data}.in", "variants": [
                {"flags": "--unsafe", "status": "ok", "runs_ms": [unsafe] * 3, "median_ms": unsafe},
                {"flags": "default", "status": "ok", "runs_ms": [default] * 3, "median_ms": default}]}


def hand(program, name, entry, t):
    return {"benchmarks": [{"program": f"bench/{program}.fut", "entry": entry, "handwritten": name,
                            "input": f"input @ bench/data/{program}.in",
                            "variants": [{"runs_ms": [t] * 3, "median_ms": t}]}]}


def peer(program, flags, t, check="ok"):
    return {"program": program, "variants": [{"flags": flags, "status": "ok", "median_ms": t,
                                              "sync_median_ms": t, "check": check}]}


with tempfile.TemporaryDirectory() as raw:
    write(os.path.join(raw, "kerb_r1.json"), {"kerb": {"commit": "abc"}, "device": {"name": "H100"}, "date": "today",
                                              "benchmarks": [
        kerb_case("matmul", "nested", "matmul", 1.9, 2.0), kerb_case("matmul", "flat", "matmul", 1.9, 2.0),
        kerb_case("gather", "main", "gather", 0.39, 0.4),
        kerb_case("gather", "main", "gather_bad", 0.01, 0.02, expect="error", case="bad"),
        kerb_case("reduce", "main", "reduce", 0.2, 0.2), kerb_case("scan", "main", "scan", 0.4, 0.4)]})
    write(os.path.join(raw, "cuda_matmul_r1.json"), hand("matmul", "matmul", "nested flat", 2.5))
    write(os.path.join(raw, "cuda_matmul_tiled_r1.json"), hand("matmul", "matmul_tiled", "nested flat", 1.0))
    write(os.path.join(raw, "cuda_gather_r1.json"), hand("gather", "gather", "main", 0.5))
    write(os.path.join(raw, "cuda_reduce_r1.json"), hand("reduce", "reduce", "main", 0.21))
    write(os.path.join(raw, "cuda_scan_r1.json"), hand("scan", "scan", "main", 0.3))
    write(os.path.join(raw, "peers_jax.json"), {"framework": "jax", "version": "0.11", "device": "cuda:0",
                                                "benchmarks": [
        peer("matmul", "jax.jit", 1.2), peer("gather", "jax.jit", 0.1, check="MISMATCH result 1: 5 of 9 differ"),
        peer("reduce", "jax.jit", 0.3), peer("scan", "jax.jit", 0.1)]})
    torch_gather = {"program": "gather", "variants": [{"flags": "torch eager", "status": "error",
                                                       "error": "RuntimeError: out of memory"}]}
    write(os.path.join(raw, "peers_torch.json"), {"framework": "torch", "version": "2.11", "device": "NVIDIA H100",
                                                  "benchmarks": [
        peer("matmul", "torch eager", 1.5), torch_gather, peer("reduce", "torch eager", 0.1),
        peer("scan", "torch eager", 0.35)]})

    s = summarize.summarize(raw, None)
    rows = {(r["program"], r["entry"], summarize.data_file(r["input"])): r for r in s["rows"]}
    close = lambda a, b: a is not None and abs(a - b) < 1e-9  # noqa: E731

    for entry in ("nested", "flat"):
        r = rows[("matmul", entry, "matmul.in")]
        check(r["fastest"] == "hand-written (matmul_tiled)" and close(r["speed_vs_fastest"], 0.5),
              f"matmul {entry}: the tiled version is the fastest: {r.get('fastest')} {r.get('speed_vs_fastest')}")
        check(r["peers_ms"] == {"JAX": 1.2, "PyTorch": 1.5}, f"matmul {entry} peers: {r['peers_ms']}")
        check(close(r["speed_vs_hand"], 1.25), f"matmul {entry}: speed vs hand stays: {r.get('speed_vs_hand')}")
    r = rows[("gather", "main", "gather.in")]
    check(r["fastest"] == "hand-written" and close(r["speed_vs_fastest"], 1.25),
          f"gather: a mismatched or failed peer is not the fastest: {r.get('fastest')} {r.get('speed_vs_fastest')}")
    check(r["peers_ms"] == {} and set(r["peer_problems"]) == {"JAX", "PyTorch"},
          f"gather: the peers' problems: {r.get('peer_problems')}")
    r = rows[("gather", "main", "gather_bad.in")]
    check("fastest" not in r and r["peers_ms"] == {} and "peer_problems" not in r,
          f"gather's bad case has no peers: {r}")
    r = rows[("reduce", "main", "reduce.in")]
    check(r["fastest"] == "PyTorch" and close(r["speed_vs_fastest"], 0.5), f"reduce: {r.get('fastest')}")
    r = rows[("scan", "main", "scan.in")]
    check(r["fastest"] == "JAX" and close(r["speed_vs_fastest"], 0.25), f"scan: {r.get('fastest')}")

    x = s["summary"]["speed_vs_fastest"]
    check(x["n"] == 5 and close(x["geomean"], math.exp((3 * math.log(0.5) + math.log(1.25) + math.log(0.25)) / 5)),
          f"geomean over the 5 cases with a fastest: {x}")
    check(x["min_at"] == "scan:main" and close(x["min"], 0.25), f"min: {x}")
    check(x["fastest"] == {"hand-written (matmul_tiled)": 2, "hand-written": 1, "PyTorch": 1, "JAX": 1},
          f"who was the fastest: {x['fastest']}")

    text = summarize.table(s)
    check("Peers: jax 0.11 on cuda:0" in text and "Peers: torch 2.11 on NVIDIA H100" in text, "frameworks:\n" + text)
    check("| matmul:nested big | 1.900 | 1.053x | - | 2.500 | 1.200 | 1.500 | 0.50 (hand-written (matmul_tiled)) |"
          in text, "the matmul row:\n" + text)
    check("| gather big | 0.3900 | 1.026x | - | 0.5000 | MISMATCH | ERROR | 1.25 (hand-written) |" in text,
          "the gather row:\n" + text)
    check("| scan big | 0.4000 | 1.000x | - | 0.3000 | 0.1000 | 0.3500 | 0.25 (JAX) |" in text, "the scan row:\n" + text)
    check("vs the fastest of hand-written, JAX and PyTorch (its time over Kerb's): geomean "
          f"{x['geomean']:.2f}, min 0.25 (scan:main) over 5; the fastest: hand-written (matmul_tiled) 2, "
          "JAX 1, PyTorch 1, hand-written 1" in text, "the geomean line:\n" + text)
    check("gather:main JAX: MISMATCH result 1" in text and "gather:main PyTorch: RuntimeError: out of memory" in text,
          "the peers' problems:\n" + text)

    # A framework that is not installed: said so, and no peer times.
    write(os.path.join(raw, "peers_torch.json"), {"framework": "torch", "status": "missing",
                                                  "error": "No module named 'torch'", "benchmarks": []})
    s = summarize.summarize(raw, None)
    check("Peers: torch not installed, skipped" in summarize.table(s), "missing torch")
    r = next(r for r in s["rows"] if r["program"] == "reduce")
    check(r["fastest"] == "hand-written" and close(r["speed_vs_fastest"], 0.21 / 0.2), f"reduce without torch: {r}")
    # No peers' reports at all (runs before them): the table as before, no peers' lines.
    os.remove(os.path.join(raw, "peers_torch.json"))
    os.remove(os.path.join(raw, "peers_jax.json"))
    s = summarize.summarize(raw, None)
    text = summarize.table(s)
    check("Peers:" not in text and "peers' results" not in text, "no peers:\n" + text)
    r = next(r for r in s["rows"] if r["program"] == "scan")
    check(r["fastest"] == "hand-written" and close(r["speed_vs_fastest"], 0.75), f"scan without peers: {r}")

finish("test_summarize_peers")
