#!/usr/bin/env python3
"""Runs Futhark's own test programs through `kerb test` and counts what passes.

Futhark's repository (github:diku-dk/futhark) holds about 2,400 test programs in the
format `kerb test` reads. They are never copied into Kerb: fetch the repository, copy its
tests/ folder to a scratch folder outside Kerb's checkout, and give this script that
folder:

    scripts/futhark_tests.py /work/scratch/futhark/tests --device interp,cpu

Which programs count (issue 18): every .fut file under the folder with at least one
`input` case, except automatic differentiation (ad/), accumulators (accs/) and programs
that use f16 ("runnable"); and, apart, the programs whose test block is a lone
`-- error:` (a type error they must be rejected with: "rejected").

Each program runs alone (`kerb test FILE --device D`, with a time limit). A program
passes when every case of it passes. For every other program the script finds the
first error it met and sorts it into a kind: the diagnostic's message with names and
numbers replaced by placeholders (`parameter '_' needs a type annotation`), or
`wrong result`, `wrong failure`, `timeout`, `internal compiler error`, ... It prints
the pass counts and the kinds, most frequent first, with an example each; --out writes
one line per program (device, file, status, kind, first error) for comparing runs.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

SKIP_DIRS = ("ad", "accs")


def select(root):
    runnable, rejected = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if top in SKIP_DIRS:
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".fut"):
                continue
            path = os.path.join(dirpath, name)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            if re.search(r"\bf16\b", text):
                continue
            if "-- ==" not in text:
                continue
            comments = [l for l in text.splitlines() if l.startswith("--")]
            has_input = any(re.search(r"\binput\b", l) for l in comments)
            has_error = any(re.match(r"--\s*error:", l) for l in comments)
            if has_input:
                runnable.append(path)
            elif has_error:
                rejected.append(path)
    return runnable, rejected


NAME_RE = re.compile(r"'[^']*'")
NUM_RE = re.compile(r"\b\d+\b")


def normalise(msg):
    msg = re.sub(r"\S+\.fut:\d+(:\d+)?:?\s*", "", msg)
    msg = NAME_RE.sub("'_'", msg)
    msg = NUM_RE.sub("N", msg)
    return msg.strip()


def first_error(output):
    """(kind, first error line) of a failed `kerb test` run."""
    lines = output.splitlines()
    if "expected a compile error matching" in output:
        m = re.search(r"actual diagnostic:\n\s*(.*)", output)
        if not m:
            return "reject: accepted", ""
        e = re.search(r"error: (.*)", m.group(1))
        return "reject: " + normalise(e.group(1) if e else m.group(1)), m.group(1).strip()
    for i, line in enumerate(lines):
        s = line.strip()
        if "internal compiler error" in s or "internal error" in s:
            return "internal compiler error", s
        if s.startswith("UNSUPPORTED"):
            m = re.search(r"not support (.*)", output)
            return "codegen: unsupported " + normalise(m.group(1) if m else s), s
        m = re.search(r"error: (.*)", s)
        if m and (s.startswith(("error:", "the program")) or re.match(r"\S+\.fut:\d+:\d+: error:", s)):
            return "compile: " + normalise(m.group(1)), s
        if s.startswith("the program does not compile") or s.startswith("the interpreter rejected"):
            continue
        if s.startswith("the diagnostic does not match") or s.startswith("compiled, but"):
            return "reject: " + normalise(s), s
        if s.startswith("expected failure") or "but failed with" in s or "failed with" in s:
            return "run: unexpected failure", s
        if s.startswith("expected") and "error" in s:
            return "run: wrong failure", s
        if s.startswith("result") or "differs" in s or "mismatch" in s or s.startswith("value"):
            return "run: wrong result", s
        if s.startswith("bad input"):
            return "test: bad input", s
        if s.startswith("malformed test block"):
            return "test: " + normalise(s), s
    for line in lines:
        s = line.strip()
        if s.startswith("FAIL line") or s.startswith("FAIL test") or s.startswith("FAIL file"):
            continue
        if s and not s.startswith("FAIL ") and not re.match(r"\d+ passed", s):
            return "other: " + normalise(s)[:80], s
    return "other", lines[0] if lines else ""


def run_one(kerb, path, device, timeout):
    # The interpreter runs every case; when that is too slow, it runs again without the
    # `compiled input` cases, which `futhark test -i` never gives the interpreter (a
    # program left with none does not pass).
    tries = [[], ["--skip-compiled"]] if device == "interp" else [[]]
    for extra in tries:
        try:
            p = subprocess.run([kerb, "test", path, "--device", device] + extra,
                               capture_output=True, text=True, timeout=timeout, errors="replace")
            break
        except subprocess.TimeoutExpired:
            p = None
    if p is None:
        return path, device, "fail", "timeout", ""
    out = p.stdout + p.stderr
    if p.returncode == 0 and "UNSUPPORTED" not in out:
        summary = re.search(r"(\d+) passed, (\d+) failed", out)
        if summary and int(summary.group(1)) > 0:
            return path, device, "pass", "", ""
        return path, device, "fail", "no case ran", out.strip().splitlines()[-1] if out else ""
    if p.returncode < 0 or p.returncode >= 128:
        return path, device, "fail", "crash (signal)", out.strip()[-200:]
    kind, line = first_error(out)
    return path, device, "fail", kind, line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tests", help="a copy of Futhark's tests/ folder (outside Kerb's checkout)")
    ap.add_argument("--kerb", default=os.path.join(os.path.dirname(__file__), "..", "build", "kerb"))
    ap.add_argument("--device", default="interp", help="comma-separated: interp,cpu")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--kinds", type=int, default=40, help="how many kinds of failure to list")
    ap.add_argument("--out", help="write one tab-separated line per program and device")
    ap.add_argument("--only", help="only programs whose path contains this text")
    ap.add_argument("--no-reject", action="store_true", help="skip the lone-error programs")
    ap.add_argument("--reject-only", action="store_true",
                    help="only the lone-error programs (a quick loop on `kerb check`)")
    args = ap.parse_args()

    root = os.path.abspath(args.tests)
    if os.path.abspath(os.path.dirname(__file__) + "/..") in root:
        sys.exit("futhark_tests: run Futhark's tests from a scratch folder outside Kerb's checkout")
    runnable, rejected = select(root)
    if args.only:
        runnable = [p for p in runnable if args.only in p]
        rejected = [p for p in rejected if args.only in p]
    if args.reject_only:
        runnable = []
    devices = args.device.split(",")
    jobs = [(p, d) for d in devices for p in runnable]
    if not args.no_reject:
        jobs += [(p, "interp") for p in rejected]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(run_one, args.kerb, p, d, args.timeout) for p, d in jobs]
        for f in concurrent.futures.as_completed(futs):
            results.append(f.result())
    results.sort()

    reject_set = set(rejected)
    groups = defaultdict(list)
    for r in results:
        key = "rejected (kerb check)" if r[0] in reject_set else r[1]
        groups[key].append(r)
    for key in devices + ["rejected (kerb check)"]:
        rs = groups.get(key, [])
        if not rs:
            continue
        passed = sum(1 for r in rs if r[2] == "pass")
        print(f"== {key}: {passed} of {len(rs)} pass ({100.0 * passed / len(rs):.1f}%)")
        kinds = Counter(r[3] for r in rs if r[2] != "pass")
        example = {}
        for r in rs:
            if r[2] != "pass" and r[3] not in example:
                example[r[3]] = os.path.relpath(r[0], root)
        for kind, n in kinds.most_common(args.kinds):
            print(f"  {n:5d}  {kind}   [{example[kind]}]")
        rest = len(kinds) - args.kinds
        if rest > 0:
            print(f"  ... and {rest} more kinds")
    if args.out:
        with open(args.out, "w") as f:
            for path, device, status, kind, line in results:
                dev = "reject" if path in reject_set else device
                f.write(f"{dev}\t{os.path.relpath(path, root)}\t{status}\t{kind}\t{line}\n")


if __name__ == "__main__":
    main()
