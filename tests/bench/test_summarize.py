#!/usr/bin/env python3
"""Tests of bench/summarize.py's arithmetic: the kernel times of the suite's
KERB_PROFILE pass, the rates against the copy rate and the bandwidth goal's count.
Standard library only; exits 1 on a failure."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish  # noqa: E402 (harness puts bench/ on the path)
import summarize  # noqa: E402


with tempfile.TemporaryDirectory() as raw:
    # No profile files: no kernel time.
    check(summarize.kernel_times(raw, "reduce", "main") is None, "kernel_times without files")
    # 6 calls (1 warm-up + 5 runs); two kernels, one launched once per call, one twice.
    json.dump({"settings": {"runs": 5, "warmup": 1}}, open(os.path.join(raw, "prof_reduce_main.json"), "w"))
    with open(os.path.join(raw, "prof_reduce_main.txt"), "w") as f:
        f.write("profile: copy 268435456 bytes median_ms 0.1800 rate_GBps 2900.0 (read + write)\n")
        f.write("profile: kernel kerb_kernel_0_reduce launches 6 median_ms 0.0900 min_ms 0.0890 total_ms 0.54\n")
        f.write("profile: kernel kerb_kernel_1_reduce_partials launches 12 median_ms 0.0040 min_ms 0.0039 "
                "total_ms 0.048\n")
        f.write("profile: memory allocations 3 fresh_allocations 0 peak_bytes 4096\n")
    k = summarize.kernel_times(raw, "reduce", "main")
    check(k is not None and abs(k - 0.098) < 1e-9, f"kernel_times: {k} != 0.098")
    # A malformed report is ignored, not a crash.
    open(os.path.join(raw, "prof_scan_main.json"), "w").write("{")
    open(os.path.join(raw, "prof_scan_main.txt"), "w").write("profile: kernel x launches 1 median_ms 1\n")
    check(summarize.kernel_times(raw, "scan", "main") is None, "kernel_times with a malformed report")

    # The bandwidth table and the goal's count: one streaming benchmark at 90% (calls)
    # and 95% (kernels), one at 50%, an L2-resident one that does not count.
    suite = {"copy_bandwidth": {"GB_per_s": 1000.0}, "summary": {}, "rows": [
        {"program": "a", "entry": "main", "bound": "memory", "achieved_GBps": 900.0, "hand_GBps": 950.0,
         "kernel_ms": 0.5, "kernel_GBps": 950.0},
        {"program": "b", "entry": "x", "bound": "memory", "achieved_GBps": 500.0},
        {"program": "c", "entry": "main", "bound": "l2", "achieved_GBps": 300.0, "kernel_GBps": 400.0}]}
    streaming = [r for r in suite["rows"] if r["bound"] == "memory"]
    suite["summary"]["bandwidth"] = {"n": len(streaming), "calls_met": 1, "kernels_met": 1, "kernels_measured": 1}
    lines = summarize.bandwidth_table(suite)
    text = "\n".join(lines)
    check("| a | memory | 900 (90%) | 950 (95%) | 0.5000 | 950 (95%) |" in text, "bandwidth row a:\n" + text)
    check("| b:x | memory | 500 (50%) | - | - | - |" in text, "bandwidth row b:\n" + text)
    check("| c | l2 | 300 (30%) | - | - | 400 (40%) |" in text, "bandwidth row c:\n" + text)
    check("calls 1 of 2, kernels alone 1 of 1 measured" in text, "bandwidth goal line:\n" + text)
    check(summarize.bandwidth_table({"copy_bandwidth": None, "rows": [], "summary": {}}) == [],
          "no copy rate: no table")

    # The bound of each benchmark: DRAM streams count for the goal; L2-resident,
    # launch-bound and random-read ones do not.
    check(summarize.floors("reduce", [("f32", [1024], None)])[2] == "memory", "reduce is memory-bound")
    check(summarize.floors("hotspot", [("i32", [], 100), ("f32", [1024, 1024], None),
                                       ("f32", [1024, 1024], None)])[2] == "l2", "hotspot stays in L2")
    check(summarize.floors("gather", [("f32", [16], None), ("i64", [16], None)])[2] == "random",
          "gather reads at random")

finish("summarize tests")
