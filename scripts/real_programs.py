#!/usr/bin/env python3
"""Runs `kerb check` on the programs of Futhark's benchmark suite and says which compile.

The suite (github:diku-dk/futhark-benchmarks) is never copied into Kerb: fetch it, with
the libraries it vendors under lib/ of each benchmark folder, into a scratch folder
outside Kerb's checkout, and give this script that folder:

    scripts/real_programs.py /work/scratch/fb [--kerb build/kerb] [--markdown]

The programs (issue 19): every .fut file outside the vendored lib/ folders, except the
GUI front ends (`*-gui.fut`) and the input generators (`*-input.fut`): 125 programs.
Files that other programs import (a benchmark's own helper modules) count as programs
too, as they do in the issue's count.

For each program the script prints `yes` or `no` and, for `no`, the first line of the
diagnostic; then the count that compile and the kinds of failure, most frequent first
(the message with names and numbers replaced by placeholders). --markdown prints the
per-program lines as rows of a Markdown table (for docs/REAL-PROGRAMS.md).
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
from collections import Counter

NAME_RE = re.compile(r"'[^']*'|\"[^\"]*\"")
NUM_RE = re.compile(r"\b\d+\b")


def select(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "lib" and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".fut") and not f.endswith("-gui.fut") and not f.endswith("-input.fut"):
                out.append(os.path.join(dirpath, f))
    return sorted(out)


def normalise(msg):
    msg = NAME_RE.sub("'_'", msg)
    msg = NUM_RE.sub("N", msg)
    return msg.strip()


def check(kerb, path, timeout):
    try:
        r = subprocess.run([kerb, "check", path], capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timeout", "timeout"
    if r.returncode == 0:
        return True, "", ""
    text = (r.stderr + r.stdout).strip()
    first = text.splitlines()[0] if text else f"exit status {r.returncode}"
    m = re.search(r"error: (.*)", first)
    msg = m.group(1) if m else first
    if "internal" in first:
        return False, "internal compiler error", first
    return False, normalise(msg), first


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--kerb", default=os.path.join(os.path.dirname(__file__), "..", "build", "kerb"))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()

    programs = select(args.root)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(args.kerb, p, args.timeout), programs))
    kinds = Counter()
    ok = 0
    for path, (good, kind, first) in zip(programs, results):
        rel = os.path.relpath(path, args.root)
        ok += good
        if not good:
            kinds[kind] += 1
        why = first.replace(args.root.rstrip("/") + "/", "")
        if args.markdown:
            why = why.replace("|", "\\|")
            print(f"| {rel} | {'yes' if good else 'no'} | {'' if good else '`' + why + '`'} |")
        else:
            print(f"{'yes' if good else 'no '} {rel}{'' if good else '  ' + why}")
    print(f"\n{ok} of {len(programs)} programs compile (kerb check)")
    for kind, n in kinds.most_common():
        print(f"{n:4} {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
