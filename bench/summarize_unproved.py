#!/usr/bin/env python3
"""Merges the reports of one run of the group whose checks cannot be proved
(bench/run_gpu_unproved.sh) into unproved.json and a short markdown table: per program
Kerb's --unsafe and default times and their ratio, the hand-written CUDA without and with
checks, JAX jit and checkify (and their ratio, and checkify with the host reading the
error after every call), PyTorch, and Kerb default's speed against the fastest of the
hand-written unchecked version, JAX and PyTorch; then geomeans and maxima, the checks of
every result, and whether each tool reported the planted failure of the bad inputs.

  python3 bench/summarize_unproved.py RAW_DIR --data DIR --json unproved.json --table table.md

RAW_DIR holds kerb_*.json (`kerb bench`), cuda_*.json (kerb-cuda-bench), checks.txt
(bench/check_results.py's lines for the hand-written results), peers_jax.json and
peers_torch.json (bench/peers/unproved_peers.py), bad_status.txt and bad_*.err (the bad
inputs' runs); DIR holds NAME_bad.txt, the message each bad input must produce. Needs
only the standard library."""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import BASE, HAND, geomean, load, median, ms, peer_reports  # noqa: E402
BRANCHING = "--deferred-checks=off"  # each check a branch where it stands (the scheme before)

PROGRAMS = ["spmv", "nbr_stencil", "graph_step", "gather3", "assert_div", "bsearch"]
JIT, CHECKIFY, CHECKIFY_GET, TORCH = "jax.jit", "jax.jit(checkify)", "jax.jit(checkify) + err.get()", "torch eager"


def bad_inputs(raw, data, peers_bad):
    """program -> tool -> (reported the planted failure?, what it said)."""
    out = {}
    status = {}
    path = os.path.join(raw, "bad_status.txt")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) == 3:
                status[(f[0], f[1])] = int(f[2])
    for p in PROGRAMS:
        exp_path = os.path.join(data, f"{p}_bad.txt") if data else ""
        expected = open(exp_path).read().strip() if exp_path and os.path.exists(exp_path) else None
        for tool in ("kerb", "cuda"):
            if (p, tool) not in status:
                continue
            err = os.path.join(raw, f"bad_{tool}_{p}.err")
            text = open(err, errors="replace").read() if os.path.exists(err) else ""
            said = " ".join(text.split())[:200]
            # Without the data folder (a table rebuilt from raw.tar.gz alone) the expected
            # message is unknown: say what the tool said, neither yes nor NO.
            ok = None if expected is None else status[(p, tool)] != 0 and expected in text
            out.setdefault(p, {})[tool] = {"reported": ok, "exit": status[(p, tool)], "said": said,
                                           "expected": expected}
        if p in peers_bad:
            b = peers_bad[p]
            out.setdefault(p, {})["checkify"] = {"reported": b.get("status") == "caught",
                                                 "said": b.get("message") or b.get("error") or b.get("status")}
    return out


def summarize(raw, data):
    rows, meta = load(raw)
    peers, peers_bad, frameworks = peer_reports(raw)
    by_program = {}
    for (program, entry, case), row in rows.items():
        if program in PROGRAMS and row.get("expect") != "error":
            by_program[program] = row
    table = []
    for p in PROGRAMS:
        row = by_program.get(p, {"variants": {}})
        v = row["variants"]

        r = {"program": p, "case": row.get("case")}
        r["unsafe_ms"] = median(v[BASE]["runs_ms"]) if v.get(BASE, {}).get("runs_ms") else None
        r["default_ms"] = median(v["default"]["runs_ms"]) if v.get("default", {}).get("runs_ms") else None
        r["branching_ms"] = median(v[BRANCHING]["runs_ms"]) if v.get(BRANCHING, {}).get("runs_ms") else None
        r["kerb_status"] = {f: a.get("status") for f, a in v.items() if not f.startswith(HAND)}
        r["hand_ms"] = median(v[HAND]["runs_ms"]) if v.get(HAND, {}).get("runs_ms") else None
        chk = f"{HAND} ({p}_checked)"
        r["hand_checked_ms"] = median(v[chk]["runs_ms"]) if v.get(chk, {}).get("runs_ms") else None
        pv = peers.get(p, {})
        for key, flags in (("jit_ms", JIT), ("checkify_ms", CHECKIFY), ("checkify_get_ms", CHECKIFY_GET),
                           ("torch_ms", TORCH)):
            a = pv.get(flags)
            r[key] = a.get("median_ms") if a and a.get("status") == "ok" else None
            if a and a.get("status") != "ok":
                r.setdefault("peer_errors", {})[flags] = a.get("error", a.get("status"))
            if a and a.get("check") not in (None, "ok"):
                r.setdefault("peer_mismatches", {})[flags] = a["check"]
        a = pv.get(JIT)
        r["jit_sync_ms"] = a.get("sync_median_ms") if a and a.get("status") == "ok" else None

        def ratio(x, y):
            return x / y if x and y else None

        r["default_vs_unsafe"] = ratio(r["default_ms"], r["unsafe_ms"])
        r["branching_vs_unsafe"] = ratio(r["branching_ms"], r["unsafe_ms"])
        r["hand_checked_vs_unchecked"] = ratio(r["hand_checked_ms"], r["hand_ms"])
        r["checkify_vs_jit"] = ratio(r["checkify_ms"], r["jit_ms"])
        r["checkify_get_vs_jit_sync"] = ratio(r["checkify_get_ms"], r["jit_sync_ms"])
        fastest = [(t, who) for t, who in ((r["hand_ms"], "hand-written"), (r["jit_ms"], "JAX"),
                                           (r["torch_ms"], "PyTorch")) if t]
        if fastest and r["default_ms"]:
            t, who = min(fastest)
            r["fastest_peer"] = who
            r["speed_vs_fastest"] = t / r["default_ms"]  # 1.0: as fast as the fastest
        table.append(r)
    summary = {}
    for key in ("default_vs_unsafe", "branching_vs_unsafe", "hand_checked_vs_unchecked", "checkify_vs_jit",
                "checkify_get_vs_jit_sync", "speed_vs_fastest"):
        xs = [(r[key], r["program"]) for r in table if r.get(key)]
        if xs:
            summary[key] = {"geomean": geomean([x for x, _ in xs]), "max": max(xs)[0], "max_at": max(xs)[1],
                            "min": min(xs)[0], "min_at": min(xs)[1], "n": len(xs)}
    both = [r for r in table if r["default_ms"] and r["checkify_ms"]]
    summary["default_below_checkify"] = {"n": len(both),
                                         "met": sum(r["default_ms"] < r["checkify_ms"] for r in both)}
    checks_path = os.path.join(raw, "checks.txt")
    checks = [line.strip() for line in open(checks_path) if line.strip()] if os.path.exists(checks_path) else []
    kerb_outcomes = {}
    for p, row in by_program.items():
        for f, a in row["variants"].items():
            if not f.startswith(HAND):
                kerb_outcomes[f"{p} {f}"] = a.get("error") or a.get("status")
    return {"schema": "kerb-unproved/1", "date": meta["date"], "kerb": meta["kerb"], "device": meta["device"],
            "frameworks": frameworks, "rows": table, "summary": summary, "checks": checks,
            "kerb_status": kerb_outcomes, "bad_inputs": bad_inputs(raw, data, peers_bad)}


def table(s):
    dev = s.get("device") or {}
    kerb = s.get("kerb") or {}
    lines = [f'Device: {dev.get("name", "?")}, driver {dev.get("driver", "?")} '
             f'(CUDA {dev.get("cuda_driver_api", "?")}); kerb {kerb.get("commit", "?")}; {s.get("date", "?")}']
    for f in s["frameworks"]:
        if f.get("status") == "missing":
            lines.append(f'{f["framework"]}: not installed, skipped')
        else:
            lines.append(f'{f["framework"]} {f.get("version")} on {f.get("device")}')

    def x(v):
        return f"{v:.3f}x" if v else "-"

    lines += ["", "| program | Kerb --unsafe ms | Kerb default ms | default / unsafe | branching / unsafe | "
              "hand-written ms | hand checked ms | checked / unchecked | JAX jit ms | JAX checkify ms | "
              "checkify / jit | checkify + get() ms | PyTorch ms | Kerb default vs fastest |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in s["rows"]:
        fastest = f'{r["speed_vs_fastest"]:.2f} ({r["fastest_peer"]})' if r.get("speed_vs_fastest") else "-"
        name = f'{r["program"]} {r["case"]}' if r["case"] else r["program"]
        lines.append(f'| {name} | {ms(r["unsafe_ms"])} | {ms(r["default_ms"])} | '
                     f'{x(r["default_vs_unsafe"])} | {x(r.get("branching_vs_unsafe"))} | '
                     f'{ms(r["hand_ms"])} | {ms(r["hand_checked_ms"])} | '
                     f'{x(r["hand_checked_vs_unchecked"])} | {ms(r["jit_ms"])} | {ms(r["checkify_ms"])} | '
                     f'{x(r["checkify_vs_jit"])} | {ms(r["checkify_get_ms"])} | {ms(r["torch_ms"])} | {fastest} |')
    lines.append("")
    sm = s["summary"]

    def line(key, what, goal=""):
        if key in sm:
            v = sm[key]
            lines.append(f'{what}: geomean {v["geomean"]:.3f}x, max {v["max"]:.3f}x ({v["max_at"]}) over '
                         f'{v["n"]}' + (f"; {goal}" if goal else ""))

    line("default_vs_unsafe", "Kerb default / --unsafe", "goal <= 1.02x geomean, <= 1.05x each")
    line("branching_vs_unsafe", "Kerb --deferred-checks=off (each check a branch, the scheme before) / --unsafe")
    line("hand_checked_vs_unchecked", "hand-written checked / unchecked")
    line("checkify_vs_jit", "JAX checkify / jit")
    line("checkify_get_vs_jit_sync", "JAX checkify + err.get() / jit, both waited for after every call")
    if "speed_vs_fastest" in sm:
        v = sm["speed_vs_fastest"]
        lines.append(f'Kerb default speed vs the fastest of hand-written, JAX jit and PyTorch (their time over '
                     f'Kerb\'s): geomean {v["geomean"]:.2f}, min {v["min"]:.2f} ({v["min_at"]})')
    b = sm["default_below_checkify"]
    if b["n"]:
        lines.append(f'Kerb default faster than JAX checkify: {b["met"]} of {b["n"]} (goal: all)')
    bad_kerb = {k: v for k, v in s["kerb_status"].items() if v not in ("ok", "skipped")}
    lines.append("Kerb's results checked by kerb bench: " + ("all match" if not bad_kerb else
                                                             "; ".join(f"{k}: {v}" for k, v in bad_kerb.items())))
    if s["checks"]:
        bad = [c for c in s["checks"] if not c.startswith("ok ")]
        lines.append(f"hand-written CUDA results checked against the reference: {len(s['checks']) - len(bad)} of "
                     f"{len(s['checks'])} match")
        lines += [f"  {c}" for c in bad]
    peer_rows = [r for r in s["rows"] if any(r.get(k) for k in ("jit_ms", "checkify_ms", "torch_ms"))]
    if peer_rows:
        mism = [f'{r["program"]} {f}: {why}' for r in s["rows"] for f, why in r.get("peer_mismatches", {}).items()]
        errs = [f'{r["program"]} {f}: {why}' for r in s["rows"] for f, why in r.get("peer_errors", {}).items()]
        lines.append("peers' results checked against the reference: " + ("all match" if not mism else "; ".join(mism)))
        lines += [f"  peer error: {e[:160]}" for e in errs]
    bad = s["bad_inputs"]
    if bad:
        lines.append("")
        lines.append("Bad inputs (NAME_bad.in, one planted failure): reported by")
        for p in PROGRAMS:
            if p not in bad:
                continue
            parts = []
            for tool, label in (("kerb", "Kerb"), ("cuda", "hand-written checked"), ("checkify", "JAX checkify")):
                if tool in bad[p]:
                    t = bad[p][tool]
                    if t["reported"] is None:
                        verdict = f'exit {t["exit"]}, expected message unknown (no --data): {t["said"][:120]}'
                    else:
                        verdict = "yes" if t["reported"] else "NO (" + t["said"][:120] + ")"
                    parts.append(f"{label} {verdict}")
            exp = next((t["expected"] for t in bad[p].values() if t.get("expected")), "")
            lines.append(f"- {p} ({exp}): " + ", ".join(parts))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw")
    ap.add_argument("--data", help="the data folder (NAME_bad.txt)")
    ap.add_argument("--json")
    ap.add_argument("--table")
    args = ap.parse_args()
    s = summarize(args.raw, args.data)
    text = table(s)
    if args.json:
        json.dump(s, open(args.json, "w"), indent=1)
    if args.table:
        open(args.table, "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
