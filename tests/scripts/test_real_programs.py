#!/usr/bin/env python3
"""Tests of scripts/real_programs.py's classification of one entry point (run_entry),
with a stand-in for the `kerb` commands it runs: a device failure that the interpreter
listed as possible (--possible-failures) fails alike, another does not; results that
differ beyond --rtol agree when they agree compiled with --fp-contract=off; outcomes
saved before --possible-failures (--reuse) still classify. Standard library only;
exits 1 on a failure."""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import real_programs  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print(f"FAIL: {what}")
        failures += 1


A = "Index [-1] out of bounds for array of shape [16].", "ray.fut:104:30-45"
B = "Index [-1] out of bounds for array of shape [16].", "ray.fut:104:52-67"
C = "Index [3] out of bounds for array of shape [2].", "ray.fut:90:1-5"


def error(f):
    return f"Error: {f[0]}\nat {f[1]}\n"


def possible(*fs):
    return "".join(f"Possible failure: {m}\nat {loc}\n" for m, loc in fs)


def fake_kerb(interp, device, device_off=None):
    """A stand-in for real_programs.run: `interp` is the interpreter run's (code, stderr),
    `device` the device run's (code, stdout, stderr), `device_off` that of the device
    run with --fp-contract=off (default: as `device`). Records the commands."""
    calls = []

    def run(cmd, timeout, cwd=None):
        calls.append(cmd)
        if cmd[1] == "dataset":
            return 0, "", ""
        if cmd[1] == "check":  # --report-checks: no disabled check
            return 0, "", ""
        if "interp" in cmd:
            check("--possible-failures" in cmd, "the interpreter lists the possible failures")
            return interp[0], "", interp[1]
        if "--fp-contract=off" in cmd:
            return device_off or device
        return device

    return run, calls


def classify(interp, device, device_off=None, reuse_saved=None):
    with tempfile.TemporaryDirectory() as work:
        args = argparse.Namespace(kerb="kerb", size=16, seed=1, run_timeout=10, timeout=10,
                                  rtol=1e-4, device="cuda", reuse=reuse_saved is not None)
        if reuse_saved is not None:
            with open(os.path.join(work, "ray.fut.main.interp.json"), "w") as f:
                json.dump(reuse_saved, f)
        real_programs.run, calls = fake_kerb(interp, device, device_off)
        res = real_programs.run_entry(args, "/fb", "/fb/ray.fut", "main", work)
        return res, calls


# The device reports another failing element's failure, which the interpreter listed.
res, _ = classify((1, error(A) + possible(A, B)), (1, "", error(B)))
check(res["outcome"] == "fails alike", f"another real failure: {res}")
check(res.get("note") == f"another real failure: cuda: {B[0]} at {B[1]}", f"its note: {res}")
check(res.get("found") == f"{A[0]} at {A[1]}", f"the interpreter's failure is the one found: {res}")
# The interpreter's own failure: fails alike, no note.
res, _ = classify((1, error(A) + possible(A, B)), (1, "", error(A)))
check(res["outcome"] == "fails alike" and "note" not in res, f"the same failure: {res}")
# A failure that does not happen for the input disagrees.
res, _ = classify((1, error(A) + possible(A, B)), (1, "", error(C)))
check(res["outcome"] == "disagrees", f"a failure not in the set: {res}")
# Outcomes saved before --possible-failures (--reuse): no set, the same failure only.
res, calls = classify(None, (1, "", error(B)), reuse_saved=[1, error(A), True])
check(res["outcome"] == "disagrees", f"reused, without the set: {res}")
check(not any("interp" in c for c in calls), "--reuse does not run the interpreter")
res, _ = classify(None, (1, "", error(B)), reuse_saved=[1, error(A) + possible(A, B), True])
check(res["outcome"] == "fails alike", f"reused, with the set: {res}")

# Results beyond --rtol that agree without fused multiply-adds.
NOTE = "golden: note: the golden file was made on the interp device, this run is on cuda\n"
differ = (1, NOTE + "golden: the results differ from 'g': 3 differences; the first: ...\n", "")
res, calls = classify((0, ""), differ, (0, "golden: the results match 'g'\n", ""))
check(res["outcome"] == "agrees", f"agrees with --fp-contract=off: {res}")
check(res.get("note", "").startswith(real_programs.FP_CONTRACT_OFF), f"its note: {res}")
off = [c for c in calls if "--fp-contract=off" in c]
check(len(off) == 1 and "--rtol" in off[0] and "--compare-golden" in off[0],
      f"one rerun with --fp-contract=off, --rtol and the golden file: {off}")
# ... and that differ without them too.
res, _ = classify((0, ""), differ)
check(res["outcome"] == "disagrees", f"differs with --fp-contract=off too: {res}")
check(res.get("note", "").startswith("golden: the results differ"), f"the difference, not the note: {res}")
# Results that agree: no rerun.
res, calls = classify((0, ""), (0, "golden: the results match 'g'\n", ""))
check(res["outcome"] == "agrees" and "note" not in res, f"agrees: {res}")
check(not any("--fp-contract=off" in c for c in calls), "no rerun where the results agree")

if failures:
    print(f"{failures} failures")
    sys.exit(1)
print("ok")
