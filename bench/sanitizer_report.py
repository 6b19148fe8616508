#!/usr/bin/env python3
"""The compute-sanitizer part of the benchmark suite (bench/run_gpu_suite.sh): what
compute-sanitizer memcheck and Kerb's checks each report for the same bad index
(bench/gather.fut on data/gather_bad.in) and what each costs, from the logs the suite
wrote into RAW_DIR. Writes RAW_DIR/sanitizer.json, whose `lines` bench/summarize.py
puts under the table.

  python3 bench/sanitizer_report.py RAW_DIR"""

import json
import os
import re
import sys


def read(path, limit=100000):
    try:
        return open(path, errors="replace").read()[:limit]
    except OSError:
        return ""


def first(pattern, text, default=""):
    m = re.search(pattern, text, re.M)
    return m.group(0).strip() if m else default


def median_of(path, case=None, flags=None):
    try:
        r = json.load(open(path))
    except (OSError, ValueError):
        return None
    for b in r.get("benchmarks", []):
        if case is not None and b.get("case") != case:
            continue
        for v in b.get("variants", []):
            if flags is None or v.get("flags") == flags:
                return v.get("median_ms")
    return None


def main():
    raw = sys.argv[1]
    times = {}
    for line in read(os.path.join(raw, "san_times.txt")).splitlines():
        name, status, t0, t1 = line.split()
        times[name] = (int(status), float(t1) - float(t0))

    def t(name):
        status, secs = times.get(name, (None, None))
        return status, secs

    plain_ms = median_of(os.path.join(raw, "cuda_gather_r1.json"))
    memcheck_ms = median_of(os.path.join(raw, "san_memcheck_good.json"))
    kerb_good_ms = median_of(os.path.join(raw, "kerb_gather_r1.json"), "2^26", "default")
    kerb_bad_ms = median_of(os.path.join(raw, "kerb_gather_r1.json"), "2^26, one bad index", "default")
    plain_bad = read(os.path.join(raw, "san_plain_bad.out"))
    memcheck_bad = read(os.path.join(raw, "san_memcheck_bad.log"))
    kerb_bad = read(os.path.join(raw, "san_kerb_bad.err"))
    kerb_unsafe = read(os.path.join(raw, "san_kerb_unsafe_bad.log"))

    def fmt(x, unit="ms"):
        return f"{x:.3f} {unit}" if x is not None else "?"

    lines = ["compute-sanitizer memcheck vs Kerb's checks, gather 2^26 (bench/gather.fut):"]
    if plain_ms and memcheck_ms:
        lines.append(f"- hand-written CUDA gather, good input: {fmt(plain_ms)} per call; under memcheck "
                     f"{fmt(memcheck_ms)} ({memcheck_ms / plain_ms:.0f}x); the whole memcheck process "
                     f"{fmt(t('memcheck_good')[1], 's')}")
    if kerb_good_ms and kerb_bad_ms:
        lines.append(f"- Kerb (default checks): {fmt(kerb_good_ms)} per call on good input; the call that "
                     f"fails on the bad index {fmt(kerb_bad_ms)}, then the context is reused")
    st, secs = t("plain_bad")
    lines.append(f"- bad index, hand-written CUDA, no tool: exit {st} after {fmt(secs, 's')}: "
                 f"{first(r'CUDA error.*', plain_bad, '(no error printed)')}")
    st, secs = t("memcheck_bad")
    lines.append(f"- bad index, hand-written CUDA under memcheck: exit {st} after {fmt(secs, 's')}: "
                 f"{first(r'Invalid __global__ read.*', memcheck_bad, '(no invalid access reported)')} "
                 f"{first(r'at .*gather_kernel.*', memcheck_bad)} "
                 f"{first(r'ERROR SUMMARY.*', memcheck_bad)}")
    st, secs = t("kerb_bad")
    lines.append(f"- bad index, Kerb (default checks): exit {st} after {fmt(secs, 's')} (whole `kerb run`): "
                 f"{first(r'Error:.*', kerb_bad, '(no error printed)')} {first(r'^at .*', kerb_bad)}")
    st, secs = t("kerb_unsafe_memcheck_bad")
    lines.append(f"- bad index, Kerb --unsafe under memcheck: exit {st} after {fmt(secs, 's')}: "
                 f"{first(r'Invalid __global__ read.*', kerb_unsafe, '(no invalid access reported)')} "
                 f"{first(r'ERROR SUMMARY.*', kerb_unsafe)}")
    report = {"times_s": {k: v[1] for k, v in times.items()}, "exit": {k: v[0] for k, v in times.items()},
              "plain_ms": plain_ms, "memcheck_ms": memcheck_ms, "kerb_good_ms": kerb_good_ms,
              "kerb_bad_ms": kerb_bad_ms, "lines": lines}
    json.dump(report, open(os.path.join(raw, "sanitizer.json"), "w"), indent=1)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
