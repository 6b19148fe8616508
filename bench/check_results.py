#!/usr/bin/env python3
"""Checks a benchmark's results against the numpy reference (bench/reference.py), so
that what `kerb` and the hand-written CUDA compute at full size is known to be right
before their times mean anything (METHOD.md: correct first).

  python3 bench/check_results.py PROGRAM ENTRY INPUT.in RESULT.npy... [--label L]
                                 [--expected NAME.out]

RESULTs are the entry's results in order (`kerb run --npy-out`, or `--out` of the
hand-written CUDA). With --expected, the reference is read from that file (what
bench/gen_data.py wrote) instead of being computed again. Integers must match exactly; floats by relative error
||result - reference|| / ||reference|| (2-norm) under the program's tolerance; NaN
never passes. Prints one line and exits 1 on a mismatch."""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402
from futhark_data import read_values  # noqa: E402

# Relative 2-norm error allowed for float results. f32 arithmetic in a different order
# lands far under 1e-5 for one pass; iterated programs (feedback through reductions,
# float atomics) get more room.
TOLERANCE = {"small_kernels": 1e-3, "kmeans": 1e-3, "hotspot": 1e-4}
DEFAULT_TOLERANCE = 1e-5


def compare(result, ref, tol):
    """None when `result` matches `ref`, else why not."""
    result, ref = np.asarray(result), np.asarray(ref)
    if result.shape != ref.shape:
        return f"shape {result.shape}, expected {ref.shape}"
    if np.issubdtype(ref.dtype, np.integer) or ref.dtype == np.bool_:
        bad = np.flatnonzero(result.reshape(-1) != ref.reshape(-1))
        if bad.size:
            i = bad[0]
            return (f"{bad.size} of {ref.size} elements differ; first at flat index {i}: "
                    f"{result.reshape(-1)[i]}, expected {ref.reshape(-1)[i]}")
        return None
    r = result.astype(np.float64)
    e = ref.astype(np.float64)
    if np.isnan(r).any():
        return f"{int(np.isnan(r).sum())} NaN elements"
    finite = np.isfinite(e)
    if not np.array_equal(np.isfinite(r), finite) or not np.array_equal(r[~finite], e[~finite]):
        return "infinities differ"
    num = np.linalg.norm((r - e)[finite])
    den = np.linalg.norm(e[finite])
    err = num / den if den > 0 else num
    if err > tol:
        return f"relative error {err:.3g} over the tolerance {tol:g}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program")
    ap.add_argument("entry")
    ap.add_argument("input")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--label", default="")
    ap.add_argument("--expected", help="the expected results (Futhark binary values)")
    args = ap.parse_args()
    if args.expected:
        refs = read_values(args.expected)
    else:
        refs = reference.compute(args.program, args.entry, read_values(args.input))
    label = f"{args.label} {args.program}:{args.entry}".strip()
    if len(refs) != len(args.results):
        print(f"MISMATCH {label}: {len(args.results)} results, expected {len(refs)}")
        sys.exit(1)
    tol = TOLERANCE.get(args.program, DEFAULT_TOLERANCE)
    for k, (path, ref) in enumerate(zip(args.results, refs)):
        why = compare(np.load(path), ref, tol)
        if why:
            print(f"MISMATCH {label} result {k + 1}: {why}")
            sys.exit(1)
    print(f"ok {label} ({len(refs)} result{'s' if len(refs) > 1 else ''})")


if __name__ == "__main__":
    main()
