#!/usr/bin/env python3
"""Tests of scripts/real_programs.py's classification of one entry point (run_entry),
with a stand-in for the `kerb` commands it runs: a device failure that the interpreter
listed as possible (--possible-failures) fails alike, another does not; results that
differ beyond --rtol agree when they agree compiled with --fp-contract=off; outcomes
saved before --possible-failures (--reuse) still classify. Standard library only
(unittest)."""
import argparse
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import real_programs  # noqa: E402

A = "Index [-1] out of bounds for array of shape [16].", "ray.fut:104:30-45"
B = "Index [-1] out of bounds for array of shape [16].", "ray.fut:104:52-67"
C = "Index [3] out of bounds for array of shape [2].", "ray.fut:90:1-5"


def error(f):
    return f"Error: {f[0]}\nat {f[1]}\n"


def possible(*fs):
    return "".join(f"Possible failure: {m}\nat {loc}\n" for m, loc in fs)


def fake_kerb(test, interp, device, device_off=None):
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
        if "interp" in cmd and "--possible-failures" in cmd:
            return interp[0], "", interp[1]
        if "interp" in cmd:  # the first run: the failure only
            return interp[0], "", "\n".join(interp[1].split("\n")[:2]) + "\n"
        if "--fp-contract=off" in cmd:
            return device_off or device
        return device

    return run, calls


def classify(test, interp, device, device_off=None, reuse_saved=None):
    with tempfile.TemporaryDirectory() as work:
        args = argparse.Namespace(kerb="kerb", size=16, seed=1, run_timeout=10, timeout=10,
                                  rtol=1e-4, device="cuda", reuse=reuse_saved is not None)
        if reuse_saved is not None:
            with open(os.path.join(work, "ray.fut.main.interp.json"), "w") as f:
                json.dump(reuse_saved, f)
        real_programs.run, calls = fake_kerb(test, interp, device, device_off)
        res = real_programs.run_entry(args, "/fb", "/fb/ray.fut", "main", work)
        return res, calls


NOTE = "golden: note: the golden file was made on the interp device, this run is on cuda\n"
DIFFER = (1, NOTE + "golden: the results differ from 'g': 3 differences; the first: ...\n", "")
MATCH = (0, "golden: the results match 'g'\n", "")


class Failures(unittest.TestCase):
    def test_another_real_failure(self):
        # The device reports another failing element's failure, which the interpreter listed.
        res, _ = classify(self, (1, error(A) + possible(A, B)), (1, "", error(B)))
        self.assertEqual(res["outcome"], "fails alike")
        self.assertEqual(res.get("note"), f"another real failure: cuda: {B[0]} at {B[1]}")
        self.assertEqual(res.get("found"), f"{A[0]} at {A[1]}")  # the interpreter's

    def test_same_failure(self):
        res, _ = classify(self, (1, error(A) + possible(A, B)), (1, "", error(A)))
        self.assertEqual(res["outcome"], "fails alike")
        self.assertNotIn("note", res)

    def test_failure_not_possible(self):
        res, _ = classify(self, (1, error(A) + possible(A, B)), (1, "", error(C)))
        self.assertEqual(res["outcome"], "disagrees")

    def test_reuse(self):
        # Outcomes saved before --possible-failures: no set, the same failure only.
        res, calls = classify(self, None, (1, "", error(B)), reuse_saved=[1, error(A), True])
        self.assertEqual(res["outcome"], "disagrees")
        self.assertFalse(any("interp" in c for c in calls), "--reuse runs no interpreter")
        res, _ = classify(self, None, (1, "", error(B)),
                          reuse_saved=[1, error(A) + possible(A, B), True])
        self.assertEqual(res["outcome"], "fails alike")


class Rounding(unittest.TestCase):
    def test_agrees_without_fused_multiply_adds(self):
        res, calls = classify(self, (0, ""), DIFFER, MATCH)
        self.assertEqual(res["outcome"], "agrees")
        self.assertTrue(res.get("note", "").startswith(real_programs.FP_CONTRACT_OFF), res)
        off = [c for c in calls if "--fp-contract=off" in c]
        self.assertEqual(len(off), 1)
        self.assertIn("--rtol", off[0])
        self.assertIn("--compare-golden", off[0])

    def test_differs_without_them_too(self):
        res, _ = classify(self, (0, ""), DIFFER)
        self.assertEqual(res["outcome"], "disagrees")
        # The difference, not the golden file's note.
        self.assertTrue(res.get("note", "").startswith("golden: the results differ"), res)

    def test_agrees_without_rerun(self):
        res, calls = classify(self, (0, ""), MATCH)
        self.assertEqual(res["outcome"], "agrees")
        self.assertNotIn("note", res)
        self.assertFalse(any("--fp-contract=off" in c for c in calls))


if __name__ == "__main__":
    unittest.main()
