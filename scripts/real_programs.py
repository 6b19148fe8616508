#!/usr/bin/env python3
"""Runs Kerb on the programs of Futhark's benchmark suite: which compile, whether the
compiled code agrees with the interpreter on generated inputs, and (--bench) their times.

The suite (github:diku-dk/futhark-benchmarks) is never copied into Kerb: fetch it, with
the libraries it vendors under lib/ of each benchmark folder, into a scratch folder
outside Kerb's checkout, and give this script that folder:

    scripts/real_programs.py /work/scratch/fb [--kerb build/kerb] [--markdown]
    scripts/real_programs.py /work/scratch/fb --run [--device cpu] [--markdown]
    scripts/real_programs.py /work/scratch/fb --run --device cuda --bench --json out.json

The programs (issue 19): every .fut file outside the vendored lib/ folders, except the
GUI front ends (`*-gui.fut`) and the input generators (`*-input.fut`): 125 programs.
Files that other programs import (a benchmark's own helper modules) count as programs
too, as they do in the issue's count.

Without --run, for each program the script prints `yes` or `no` (`kerb check`) and, for
`no`, the first line of the diagnostic; then the count that compile and the kinds of
failure, most frequent first (the message with names and numbers replaced by
placeholders).

With --run, for each entry point of each program that compiles (`kerb check --entries`):
  1. `kerb dataset PROG -e ENTRY --size N --seed S` makes its arguments;
  2. `kerb run --device interp --possible-failures` runs it on them, saving the results
     as a golden file, or, where a check fails, the failure and every other failure that
     compiled code may report for these arguments (a failing element of any map, whose
     threads race for the failure slot; docs/CHECKS.md, "Which failure is reported";
     a second run, of at most 60 s: going on past failing elements may not end);
  3. `kerb run --device DEV` (cpu or cuda) runs it on the same arguments and compares
     with the golden file: exactly, then (if that differs) within --rtol, then (if that
     differs too) again compiled with --fp-contract=off, within --rtol: no fused
     multiply-adds, every float operation rounded as the interpreter rounds it (programs
     that amplify rounding, a Barnes-Hut tree's decisions or an f32 tridiagonal solver,
     can differ beyond any tolerance with them);
     where the interpreter failed a check, DEV must fail with one of those failures.
An entry then `agrees` (same results; the note says "within rtol" or "with
--fp-contract=off (rounding of fused multiply-adds)" where it took those), `fails
alike` (both failed a check on the random data: a failure found, to read: a real bug or
a precondition random data break; DEV's failure is the interpreter's, or another that
really happens for the input, noted "another real failure"),
`undefined` (the interpreter failed a check that the program turns off with #[unsafe],
which the interpreter makes anyway: DEV's behaviour is then undefined, docs/CHECKS.md),
`disagrees`, `crashes` (an internal compiler error or a signal), `unsupported` (DEV's
code generator rejects a construct), `no inputs` (no arguments could be made), or
`timeout`. With --bench it is then timed on DEV with `kerb bench --input` on arguments
of --bench-size, with default checks and with --unsafe (interleaved), and the script
prints each entry's medians and the geometric mean of the ratios of those taking at
least 0.1 ms a call.

--markdown prints the per-program lines as rows of a Markdown table (for
docs/REAL-PROGRAMS.md); --json FILE writes everything measured.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

NAME_RE = re.compile(r"'[^']*'|\"[^\"]*\"")
NUM_RE = re.compile(r"\b\d+\b")

# Outcomes of one entry point, in the order the summary lists them.
# The note of a result that agrees only compiled with --fp-contract=off.
FP_CONTRACT_OFF = "with --fp-contract=off (rounding of fused multiply-adds)"

# Seconds for the interpreter's listing of the possible failures (--possible-failures).
POSSIBLE_TIMEOUT = 60

OUTCOMES = ["agrees", "fails alike", "undefined", "disagrees", "crashes", "unsupported",
            "no inputs", "timeout"]


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


def run(cmd, timeout, cwd=None):
    """(returncode, stdout, stderr); returncode None on a timeout."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return r.returncode, r.stdout, r.stderr


def check(kerb, path, timeout):
    code, out, err = run([kerb, "check", path], timeout)
    if code is None:
        return False, "timeout", "timeout"
    if code == 0:
        return True, "", ""
    text = (err + out).strip()
    first = text.splitlines()[0] if text else f"exit status {code}"
    m = re.search(r"error: (.*)", first)
    msg = m.group(1) if m else first
    if "internal" in first:
        return False, "internal compiler error", first
    return False, normalise(msg), first


def entries(kerb, path, timeout):
    """[(name, type)] from `kerb check --entries`."""
    code, out, _ = run([kerb, "check", "--entries", path], timeout)
    if code != 0:
        return []
    result = []
    for line in out.splitlines():
        name, _, typ = line.partition(": ")
        result.append((name, typ))
    return result


def failure(code, err):
    """What a failed `kerb run` said: ("check", message, location), ("crash", text),
    ("unsupported", text) or ("error", text)."""
    text = err.strip()
    if code is not None and code < 0:
        return ("crash", f"signal {-code}: " + (text.splitlines()[-1] if text else ""))
    if code not in (0, 1, 2):
        return ("crash", f"exit status {code}: " + (text.splitlines()[-1] if text else ""))
    m = re.search(r"^Error: (.*)\nat (.*)$", text, re.M)
    if m:  # a failed check (an `assert` says "Assertion is false: ...")
        return ("check", m.group(1), m.group(2))
    if "internal" in text.lower():
        return ("crash", first_line(text))
    if re.search(r"not (yet )?supported|does not support|cannot (yet )?(compile|generate)", text):
        return ("unsupported", first_line(text))
    return ("error", first_line(text))


def possible_failures(err):
    """The failures `kerb run --device interp --possible-failures` listed after a failed
    check: a set of (message, location)."""
    return set(re.findall(r"^Possible failure: (.*)\nat (.*)$", err, re.M))


def golden_line(out):
    """The comparison's line of `kerb run --compare-golden` ("golden: the results ..."),
    not its notes ("golden: note: the golden file was made on the interp device");
    "" if there is none."""
    for line in out.splitlines():
        if line.startswith("golden:") and not line.startswith("golden: note:"):
            return line.strip()
    return ""


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def short(text, n=160):
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def run_entry(args, root, prog, entry, work):
    """The agreement check of one entry point; a dict."""
    rel = os.path.relpath(prog, root)
    res = {"program": rel, "entry": entry}
    stem = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", rel) + "." + entry)
    inputs, golden, saved = stem + ".in", stem + ".golden", stem + ".interp.json"
    base = [args.kerb, "run", prog, "-e", entry, "--input", inputs]
    if args.reuse and os.path.exists(saved):
        # The inputs and the interpreter's outcome of an earlier run (--workdir).
        # Outcomes saved before --possible-failures have no "Possible failure" lines:
        # the device must then fail exactly as the interpreter did.
        with open(saved) as f:
            code, err, made = json.load(f)
    else:
        code, _, err = run([args.kerb, "dataset", prog, "-e", entry, "--size", str(args.size),
                            "--seed", str(args.seed), "-o", inputs], args.run_timeout)
        made = code == 0
        if made:
            code, _, err = run(base + ["--device", "interp", "--save-golden", golden],
                               args.run_timeout)
            if code == 1 and failure(code, err)[0] == "check":
                # The failures compiled code may report instead: a second run, since
                # going on past failing elements with filler values may not end (a
                # loop until convergence; pbbs/maximalIndependentSet): then none.
                c2, _, e2 = run(base + ["--device", "interp", "--possible-failures"],
                                min(args.run_timeout, POSSIBLE_TIMEOUT))
                if c2 == 1:
                    err += "".join(f"Possible failure: {m}\nat {loc}\n"
                                   for m, loc in sorted(possible_failures(e2)))
        with open(saved, "w") as f:
            json.dump([code, err, made], f)
    if not made:
        res["outcome"] = "timeout" if code is None else "no inputs"
        res["note"] = "kerb dataset: " + (short(first_line(err)) if code is not None else "timeout")
        return res
    if code is None:
        res["outcome"] = "timeout"
        res["note"] = f"interp: more than {args.run_timeout:g} s"
        return res
    interp = None if code == 0 else failure(code, err)
    res["interp"] = "ok" if interp is None else " ".join(interp[1:])
    if interp is not None and interp[0] == "check":
        res["found"] = f"{interp[1]} at {interp[2]}"
    if interp is not None and interp[0] != "check":
        res["outcome"] = "crashes" if interp[0] == "crash" else "unsupported"
        res["note"] = "interp: " + short(interp[1])
        return res
    possible = possible_failures(err)
    dev = ["--device", args.device]
    if interp is None:
        code, out, err = run(base + dev + ["--compare-golden", golden], args.run_timeout)
    else:
        code, out, err = run(base + dev, args.run_timeout)
    if code is None:
        res["outcome"] = "timeout"
        res["note"] = f"{args.device}: more than {args.run_timeout:g} s"
        return res
    if interp is None and code == 1 and golden_line(out) and \
            args.rtol > 0:
        exact = golden_line(out)
        code, out, err = run(base + dev + ["--compare-golden", golden, "--rtol", str(args.rtol)],
                             args.run_timeout)
        if code == 0:
            res["outcome"] = "agrees"
            res["note"] = f"within rtol {args.rtol:g}: " + short(exact.removeprefix("golden: "))
            return res
    if interp is None:
        if code == 0:
            res["outcome"] = "agrees"
            return res
        if golden_line(out):
            # Fused multiply-adds round differently from the interpreter (CUDA kernels
            # fuse them by default, docs/CHECKS.md): once more without them.
            differ = golden_line(out)
            tol = ["--rtol", str(args.rtol)] if args.rtol > 0 else []
            code, out, err = run(base + dev + ["--fp-contract=off", "--compare-golden", golden] +
                                 tol, args.run_timeout)
            if code == 0:
                res["outcome"] = "agrees"
                res["note"] = (f"{FP_CONTRACT_OFF}; with it: " +
                               short(differ.removeprefix("golden: ")))
                return res
            res["outcome"] = "disagrees"
            res["note"] = short(differ)
            return res
        f = failure(code, err)
        res["outcome"] = {"crash": "crashes", "unsupported": "unsupported"}.get(f[0], "disagrees")
        res["note"] = f"{args.device}: " + short(" ".join(f[1:]))
        return res
    # The interpreter failed a check: the device must fail alike, unless the program
    # turns that check off (#[unsafe]): the interpreter makes it anyway, compiled code
    # then has no defined behaviour (docs/CHECKS.md).
    f = failure(code, err) if code != 0 else None
    if f is not None and f[0] == "check" and f[1:] != interp[1:] and f[1:] in possible:
        # Another failing element of a map, or a later failure of a fused kernel: the
        # device may report any failure that really happens (docs/CHECKS.md).
        res["outcome"] = "fails alike"
        res["note"] = f"another real failure: {args.device}: {short(f[1])} at {f[2]}"
        return res
    if f is None or f[0] in ("check", "crash", "error") and f[1:] != interp[1:]:
        _, report, _ = run([args.kerb, "check", prog, "--report-checks"], args.timeout)
        if any(line.startswith(interp[2] + " ") and " disabled " in line
               for line in report.splitlines()):
            res["outcome"] = "undefined"
            res["note"] = (f"the failing check is disabled (#[unsafe]); {args.device}: " +
                           ("succeeded" if f is None else short(" ".join(f[1:]))))
            return res
    if code == 0:
        res["outcome"] = "disagrees"
        res["note"] = f"interp failed ({short(interp[1])} at {interp[2]}), {args.device} succeeded"
        return res
    if f[0] == "check" and f[1:] == interp[1:]:
        res["outcome"] = "fails alike"
        return res
    res["outcome"] = {"crash": "crashes", "unsupported": "unsupported"}.get(f[0], "disagrees")
    res["note"] = f"{args.device}: " + short(" ".join(f[1:]))
    if res["outcome"] == "disagrees":
        res["note"] = f"interp: {short(interp[1])} at {interp[2]}; " + res["note"]
    return res


def bench_program(args, root, prog, names, work):
    """Times entry points `names` of one program (default and --unsafe, one `kerb bench`
    call, so that each variant is compiled once); a list of dicts."""
    rel = os.path.relpath(prog, root)
    stem = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", rel))
    results, inputs = [], []
    for name in names:
        res = {"program": rel, "entry": name, "size": args.bench_size}
        path = f"{stem}.{name}.bench.in"
        code, _, err = run([args.kerb, "dataset", prog, "-e", name, "--size",
                            str(args.bench_size), "--seed", str(args.seed), "-o", path],
                           args.run_timeout)
        if code != 0:
            res["error"] = "kerb dataset: " + (short(first_line(err)) if code is not None
                                               else "timeout")
        else:
            inputs.append(path)
        results.append(res)
    todo = [r for r in results if "error" not in r]
    if not todo:
        return results
    report = stem + ".bench.json"
    cmd = [args.kerb, "bench", prog, "--device", args.device, "--variant=default",
           "--variant=--unsafe", "--runs", str(args.runs), "--time-budget",
           str(args.time_budget), "--json", report]
    cmd += [f"--input={r['entry']}={path}" for r, path in zip(todo, inputs)]
    code, out, err = run(cmd, args.bench_timeout)
    for path in inputs:
        os.remove(path)
    cases = []
    if code is not None:
        try:
            with open(report) as f:
                cases = json.load(f)["benchmarks"]
        except (OSError, ValueError, KeyError):
            cases = []
    by_entry = {c["entry"]: c for c in cases}
    for r in todo:
        case = by_entry.get(r["entry"])
        if case is None:
            r["error"] = (f"kerb bench: more than {args.bench_timeout:g} s" if code is None else
                          "kerb bench: " + short(first_line(err + out) or f"exit status {code}"))
            continue
        if "error" in case:
            r["error"] = short(case["error"])
            continue
        for v in case["variants"]:
            if v["status"] != "ok":
                r["error"] = f"{v['flags']}: " + short(v.get("error", v.get("skipped", "")))
                break
            r["unsafe_ms" if v["flags"] == "--unsafe" else "default_ms"] = v["median_ms"]
    return results


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--kerb", default=os.path.join(os.path.dirname(__file__), "..", "build", "kerb"))
    ap.add_argument("--timeout", type=float, default=120, help="seconds for kerb check")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--run", action="store_true",
                    help="run the entry points of the programs that compile")
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"],
                    help="the device compared with the interpreter (default cpu)")
    ap.add_argument("--size", type=int, default=16, help="kerb dataset --size for the check")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rtol", type=float, default=1e-4,
                    help="float tolerance when the results differ exactly (default 1e-4)")
    ap.add_argument("--run-timeout", type=float, default=300,
                    help="seconds for each kerb dataset and kerb run (default 300)")
    ap.add_argument("--only", action="append", default=[],
                    help="only programs whose path contains this (may be repeated)")
    ap.add_argument("--bench", action="store_true",
                    help="also time each entry that agrees, default checks vs --unsafe")
    ap.add_argument("--bench-size", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--time-budget", type=float, default=5)
    ap.add_argument("--bench-timeout", type=float, default=600)
    ap.add_argument("--bench-skip", action="append", default=[],
                    help="do not time programs whose path contains this (may be repeated; "
                    "for those known to take minutes a call)")
    ap.add_argument("--bench-from",
                    help="time only the programs from the first whose path contains this on "
                    "(to go on after a device call that ran out of time)")
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("--workdir", help="keep inputs and golden files here (default: a temporary folder)")
    ap.add_argument("--reuse", action="store_true",
                    help="take the inputs and the interpreter's outcomes from an earlier run's "
                    "--workdir (the interpreter is not run again)")
    ap.add_argument("--shard", help="K/N: only every N-th program, starting with the K-th")
    args = ap.parse_args()
    args.kerb = os.path.abspath(args.kerb)
    if args.bench and not args.run:
        ap.error("--bench needs --run")
    if args.reuse and not args.workdir:
        ap.error("--reuse needs --workdir")

    programs = select(args.root)
    if args.only:
        programs = [p for p in programs if any(o in p for o in args.only)]
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        programs = programs[k - 1::n]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(args.kerb, p, args.timeout), programs))

    runs = {}
    benches = []
    if args.run:
        work = args.workdir or tempfile.mkdtemp(prefix="kerb-real-")
        os.makedirs(work, exist_ok=True)
        todo = []
        for path, (good, _, _) in zip(programs, results):
            if good:
                for name, _ in entries(args.kerb, path, args.timeout):
                    todo.append((path, name))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            done = pool.map(lambda t: run_entry(args, args.root, t[0], t[1], work), todo)
            for (path, _), r in zip(todo, done):
                runs.setdefault(path, []).append(r)
                print(f"{r['outcome']:12} {r['program']} {r['entry']}"
                      f"{'  ' + r['note'] if r.get('note') else ''}", file=sys.stderr, flush=True)
        if args.bench:
            # One program at a time: the timings should not share the device.
            timed = programs
            if args.bench_from:
                first = next((i for i, p in enumerate(programs) if args.bench_from in p),
                             len(programs))
                timed = programs[first:]
            for path in timed:
                if any(k in path for k in args.bench_skip):
                    print(f"bench {os.path.relpath(path, args.root)}: skipped (--bench-skip)",
                          file=sys.stderr, flush=True)
                    continue
                names = [r["entry"] for r in runs.get(path, []) if r["outcome"] == "agrees"]
                if not names:
                    continue
                for b in bench_program(args, args.root, path, names, work):
                    benches.append(b)
                    print(f"bench {b['program']} {b['entry']}: " +
                          (b["error"] if "error" in b else
                           f"{b['default_ms']:.4f} ms, --unsafe {b['unsafe_ms']:.4f} ms"),
                          file=sys.stderr, flush=True)

    kinds = Counter()
    ok = 0
    outcome_counts = Counter()
    programs_agreeing = programs_run = 0
    if args.markdown and args.run:
        print(f"| program | compiles | entries | agree on {args.device} | failures found | notes |")
        print("|---|---|---|---|---|---|")
    elif args.markdown:
        print("| program | compiles | first error |")
        print("|---|---|---|")
    for path, (good, kind, first) in zip(programs, results):
        rel = os.path.relpath(path, args.root)
        ok += good
        if not good:
            kinds[kind] += 1
        why = first.replace(args.root.rstrip("/") + "/", "")
        why_cell = "`" + why.replace("|", "\\|") + "`"
        rs = runs.get(path, [])
        for r in rs:
            outcome_counts[r["outcome"]] += 1
        agree = sum(r["outcome"] in ("agrees", "fails alike") for r in rs)
        if rs:
            programs_run += 1
        if rs and agree == len(rs):
            programs_agreeing += 1
        found = [f"{r['entry']}: {r['found']}" for r in rs if r.get("found")]
        notes = [f"{r['entry']}: {r['outcome']}" + (f" ({r['note']})" if r.get("note") else "")
                 for r in rs if r["outcome"] not in ("agrees", "fails alike")]
        notes += [f"{r['entry']}: {r['note']}" for r in rs
                  if r["outcome"] in ("agrees", "fails alike") and r.get("note")]
        if args.markdown:
            def cell(items):
                return "<br>".join(i.replace(args.root.rstrip("/") + "/", "")
                                   .replace("|", "\\|") for i in items)
            if args.run:
                print(f"| {rel} | {'yes' if good else 'no'} | {len(rs) if good else ''} | "
                      f"{f'{agree} of {len(rs)}' if good else ''} | {cell(found)} | "
                      f"{cell(notes) if good else why_cell} |")
            else:
                print(f"| {rel} | {'yes' if good else 'no'} | "
                      f"{'' if good else why_cell} |")
        elif not args.run:
            print(f"{'yes' if good else 'no '} {rel}{'' if good else '  ' + why}")
    print(f"\n{ok} of {len(programs)} programs compile (kerb check)")
    if args.run:
        total = sum(outcome_counts.values())
        print(f"{programs_run} of them have entry points; in {programs_agreeing} every entry "
              f"point agrees with the interpreter on {args.device} (or fails alike)")
        print(f"{total} entry points: " +
              ", ".join(f"{outcome_counts[o]} {o}" for o in OUTCOMES if outcome_counts[o]))
    else:
        for kind, n in kinds.most_common():
            print(f"{n:4} {kind}")

    if benches:
        print(f"\n| program | entry | default ms | --unsafe ms | default / unsafe |")
        print("|---|---|---|---|---|")
        ratios = []
        for b in benches:
            if "error" in b:
                error = b["error"].replace("|", "\\|")
                print(f"| {b['program']} | {b['entry']} | | | {error} |")
                continue
            ratio = b["default_ms"] / b["unsafe_ms"] if b["unsafe_ms"] > 0 else float("nan")
            if b["default_ms"] >= 0.1 and b["unsafe_ms"] > 0:
                ratios.append(ratio)
            print(f"| {b['program']} | {b['entry']} | {b['default_ms']:.4f} | "
                  f"{b['unsafe_ms']:.4f} | {ratio:.3f} |")
        print(f"\ngeomean default / --unsafe over the {len(ratios)} entry points taking >= 0.1 ms: "
              f"{geomean(ratios):.4f}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device if args.run else None, "size": args.size,
                       "seed": args.seed, "rtol": args.rtol, "bench_size": args.bench_size,
                       "programs": [{"program": os.path.relpath(p, args.root), "compiles": g,
                                     "first_error": first, "entries": runs.get(p, [])}
                                    for p, (g, _, first) in zip(programs, results)],
                       "bench": benches}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
