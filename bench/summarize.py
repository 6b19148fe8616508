#!/usr/bin/env python3
"""Merges the reports of one run of the benchmark suite (bench/run_gpu_suite.sh) into
suite.json and a short markdown table: per benchmark the --unsafe time, the ratios of
the checked variants to it, the times of the hand-written CUDA, JAX and PyTorch, Kerb
default's speed relative to the fastest of them (and which it is), and for
bandwidth-bound benchmarks the achieved bandwidth (the fewest bytes the benchmark must
move over its time) against the measured copy rate; then geomean and max of the ratios,
the geomean speeds against the hand-written CUDA and against the fastest, the checks of
the hand-written and the peers' results, and the compute-sanitizer comparison.

  python3 bench/summarize.py RAW_DIR --data bench/data --json suite.json --table table.md

RAW_DIR holds the kerb-bench/1 reports: kerb_*.json (`kerb bench`), cuda_*.json
(kerb-cuda-bench), copy.json (`kerb bench --copy-bandwidth`) and optionally
sanitizer.json (written by the suite script), and the kerb-peers/1 reports
peers_jax.json and peers_torch.json (bench/peers/suite_peers.py). Runs of the same
benchmark and variant from several rounds are pooled; the medians of the rounds give the
spread. Needs only the standard library (numpy is not needed)."""

import argparse
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from futhark_data import read_headers  # noqa: E402

CHECK_VARIANTS = ["default", "--sync-checks"]
BASE = "--unsafe"
HAND = "hand-written CUDA"
# The peers' variants that the suite compares with (bench/peers/suite_peers.py), by name.
PEERS = {"JAX": "jax.jit", "PyTorch": "torch eager"}


def floors(program, values):
    """(bytes, flops, bound): the fewest bytes the benchmark must move through device
    memory (each input read once, each output written once), the arithmetic it must
    do, and what bounds it: "memory" (streams through DRAM: the copy rate is its
    ceiling), "random" (random reads from DRAM), "l2" (a working set that stays in the
    L2 cache), "compute" or "latency" (many dependent launches and read-backs)."""
    shapes = [v[1] for v in values]
    scal = [v[2] for v in values]
    if program == "gather":
        n = shapes[1][0]
        # idx 8 + a 4 + out 4 per element; the reads of a are random (a 32-byte sector
        # for 4 bytes), so the copy rate is not its ceiling
        return 16 * n, 0, "random"
    if program == "stencil":
        n, m = shapes[0]
        return 8 * n * m, 5 * n * m, "memory"
    if program == "intdiv":
        n = shapes[0][0]
        return 12 * n, n, "memory"
    if program == "reduce":
        n = shapes[0][0]
        return 4 * n, n, "memory"
    if program == "scan":
        n = shapes[0][0]
        return 8 * n, n, "memory"
    if program == "matmul":
        (n, m), (_, p) = shapes
        return 4 * (n * m + m * p + n * p), 2 * n * m * p, "compute"
    if program == "histogram":
        n = shapes[1][0]
        return 8 * n + 4 * scal[0], n, "memory"
    if program == "small_kernels":
        n, iters = shapes[0][0], scal[1]
        return 16 * n * iters, 10 * n * iters, "latency"  # per iteration: 3 reads, 1 write
    if program == "hotspot":
        # temp, power in; temp out: 12 MB at 1024x1024, resident in the 50 MB L2, so
        # DRAM's copy rate is not its ceiling
        iters, (r, c) = scal[0], shapes[1]
        return 12 * r * c * iters, 15 * r * c * iters, "l2"
    if program == "pathfinder":
        # a launch per row of 4 MB (wall row from DRAM, the previous row from L2): the
        # launches' latency bounds it, not the copy rate
        r, c = shapes[0]
        return 12 * c * (r - 1), 3 * c * (r - 1), "latency"
    if program == "nn":
        n = shapes[0][0]
        return 8 * n, 6 * n, "memory"
    if program == "kmeans":
        k, iters, (n, d) = scal[0], scal[1], shapes[2]
        # per round: points read to assign and to sum, memberships written and read
        return iters * (8 * n * d + 8 * n), iters * (3 * n * k * d + n * d), "compute"
    if program == "backprop":
        nin, nh = shapes[1]
        # forward: w and input read; update: w, oldw, input read, w' written
        return 4 * (nin * nh + nin) + 4 * (3 * nin * nh + nin), 6 * nin * nh, "memory"
    return None, None, None


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if n == 0:
        return None
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def data_file(input_text):
    """The data file of a case's input ("input @ data/x.in" -> "x.in"), or None."""
    if input_text and input_text.startswith("input @ "):
        return os.path.basename(input_text[len("input @ "):].strip())
    return None


def load(raw):
    rows = {}  # (program, entry, case) -> row
    meta = {"kerb": None, "device": None, "date": None}
    hand = []
    for path in sorted(glob.glob(os.path.join(raw, "kerb_*.json"))):
        r = json.load(open(path))
        meta["kerb"] = meta["kerb"] or r.get("kerb")
        meta["device"] = meta["device"] or r.get("device")
        meta["date"] = meta["date"] or r.get("date")
        for b in r["benchmarks"]:
            program = os.path.splitext(os.path.basename(b["program"]))[0]
            key = (program, b["entry"], b["case"])
            row = rows.setdefault(key, {"program": program, "entry": b["entry"], "case": b["case"],
                                        "input": b["input"], "expect": b["expect"], "variants": {}})
            if b.get("error"):
                row["error"] = b["error"]
            if b.get("pool_growth_bytes") is not None:
                row["pool_growth_bytes"] = row.get("pool_growth_bytes", 0) + b["pool_growth_bytes"]
            for v in b["variants"]:
                acc = row["variants"].setdefault(v["flags"], {"runs_ms": [], "round_medians": [],
                                                              "status": "ok"})
                if v["status"] != "ok":
                    acc["status"] = v["status"]
                    acc["error"] = v.get("error") or v.get("skipped")
                if v.get("runs_ms"):
                    acc["runs_ms"] += v["runs_ms"]
                    acc["round_medians"].append(v["median_ms"])
                if v.get("fresh_allocations") is not None:
                    acc["fresh_allocations"] = acc.get("fresh_allocations", 0) + v["fresh_allocations"]
    for path in sorted(glob.glob(os.path.join(raw, "cuda_*.json"))):
        hand.append(json.load(open(path)))
    for r in hand:
        b = r["benchmarks"][0]
        program = os.path.splitext(os.path.basename(b["program"]))[0]
        name = b["handwritten"]
        flags = HAND if name == program else f"{HAND} ({name})"
        for key, row in rows.items():
            if key[0] != program or key[1] not in b["entry"].split():
                continue
            if data_file(row["input"]) != data_file(b["input"]):
                continue
            v = b["variants"][0]
            acc = row["variants"].setdefault(flags, {"runs_ms": [], "round_medians": [], "status": "ok"})
            acc["runs_ms"] += v["runs_ms"]
            acc["round_medians"].append(v["median_ms"])
            acc["about"] = b.get("about", "")
        meta["device"] = meta["device"] or r.get("device")
    return rows, meta


def peer_reports(raw):
    """program -> flags -> variant, and program -> the checkified bad-input result, from
    raw/peers_*.json (kerb-peers/1); plus the frameworks' versions and devices."""
    times, bad, frameworks = {}, {}, []
    for path in sorted(glob.glob(os.path.join(raw, "peers_*.json"))):
        r = json.load(open(path))
        frameworks.append({k: r.get(k) for k in ("framework", "version", "device", "platform", "status", "error")})
        for b in r.get("benchmarks", []):
            for v in b["variants"]:
                times.setdefault(b["program"], {})[v["flags"]] = v
            if "bad_input" in b:
                bad[b["program"]] = b["bad_input"]
    return times, bad, frameworks


def fastest(row, peers):
    """Sets the row's peer times (`peers_ms`: JAX and PyTorch, where they ran and their
    results matched), and `fastest` and `speed_vs_fastest`: the fastest of the
    hand-written versions (each of them), JAX and PyTorch, and its time over Kerb
    default's (1.0: as fast; above 1: Kerb is faster). A peer whose results did not match
    is not a candidate (`peer_problems` says why); nor are peers for a case whose input is
    not the program's own data file (gather's bad index)."""
    row["peers_ms"] = {}
    if data_file(row["input"]) != f'{row["program"]}.in' or row["expect"] == "error":
        return
    for who, flags in PEERS.items():
        v = peers.get(row["program"], {}).get(flags)
        if not v:
            continue
        if v.get("status") != "ok":
            row.setdefault("peer_problems", {})[who] = v.get("error") or v.get("status")
        elif v.get("check") != "ok":
            row.setdefault("peer_problems", {})[who] = v.get("check") or "results not checked"
        else:
            row["peers_ms"][who] = v["median_ms"]
    candidates = [(a["median_ms"], "hand-written" + flags[len(HAND):]) for flags, a in row["variants"].items()
                  if flags.startswith(HAND) and a.get("median_ms")]
    candidates += [(t, who) for who, t in row["peers_ms"].items() if t]
    default = row["variants"].get("default", {}).get("median_ms")
    if candidates and default:
        t, who = min(candidates)
        row["fastest"] = who
        row["speed_vs_fastest"] = t / default


def kernel_times(raw, program, entry):
    """The milliseconds a call spends in kernels, from the suite's KERB_PROFILE=1 pass
    (raw/prof_PROGRAM_ENTRY.txt, its lines `profile: kernel NAME launches L median_ms M
    ...`, and .json, its warm-up and runs): the sum over kernels of the median launch
    times the launches per call; None without them."""
    txt = os.path.join(raw, f"prof_{program}_{entry}.txt")
    rep = os.path.join(raw, f"prof_{program}_{entry}.json")
    if not (os.path.exists(txt) and os.path.exists(rep)):
        return None
    try:
        settings = json.load(open(rep))["settings"]
    except (ValueError, KeyError):
        return None
    calls = settings["runs"] + settings["warmup"]
    total = 0.0
    kernels = 0
    for line in open(txt):
        f = line.split()
        if len(f) >= 7 and f[:2] == ["profile:", "kernel"] and f[3] == "launches" and f[5] == "median_ms":
            total += float(f[6]) * int(f[4]) / calls
            kernels += 1
    return total if kernels else None


def summarize(raw, data_dir, checks_path=None):
    rows, meta = load(raw)
    peers, _, frameworks = peer_reports(raw)
    copy = None
    if os.path.exists(os.path.join(raw, "copy.json")):
        copy = json.load(open(os.path.join(raw, "copy.json"))).get("copy_bandwidth")
    sanitizer = None
    if os.path.exists(os.path.join(raw, "sanitizer.json")):
        sanitizer = json.load(open(os.path.join(raw, "sanitizer.json")))
    out_rows = []
    for key in sorted(rows, key=lambda k: (k[0], k[1], k[2])):
        row = rows[key]
        for acc in row["variants"].values():
            runs = acc["runs_ms"]
            acc["runs"] = len(runs)
            if runs:
                acc["median_ms"] = median(runs)
                acc["min_ms"] = min(runs)
                acc["max_ms"] = max(runs)
                rm = acc["round_medians"]
                acc["spread"] = (max(rm) - min(rm)) / acc["median_ms"] if len(rm) > 1 and acc["median_ms"] else 0
        df = data_file(row["input"])
        if data_dir and df and os.path.exists(os.path.join(data_dir, df)):
            b, f, bound = floors(row["program"], read_headers(os.path.join(data_dir, df)))
            row.update(bytes=b, flops=f, bound=bound)
        base = row["variants"].get(BASE, {}).get("median_ms")
        row["ratios"] = {}
        for flags in CHECK_VARIANTS:
            m = row["variants"].get(flags, {}).get("median_ms")
            if base and m:
                row["ratios"][flags] = m / base
        hand = row["variants"].get(HAND, {}).get("median_ms")
        default = row["variants"].get("default", {}).get("median_ms")
        if hand and default:
            row["speed_vs_hand"] = hand / default  # 1.0: as fast as the hand-written CUDA
        fastest(row, peers)
        if row.get("bytes") and default and row["expect"] != "error":
            row["achieved_GBps"] = row["bytes"] / (default * 1e6)
            if copy:
                row["copy_fraction"] = row["achieved_GBps"] / copy["GB_per_s"]
            if hand:
                row["hand_GBps"] = row["bytes"] / (hand * 1e6)
            kms = kernel_times(raw, row["program"], row["entry"])
            if kms:
                row["kernel_ms"] = kms
                row["kernel_GBps"] = row["bytes"] / (kms * 1e6)
        out_rows.append(row)
    summary = {}
    for flags in CHECK_VARIANTS:
        rs = [r["ratios"][flags] for r in out_rows if flags in r["ratios"]]
        if rs:
            worst = max(out_rows, key=lambda r: r["ratios"].get(flags, 0))
            summary[flags] = {"geomean": geomean(rs), "max": max(rs), "n": len(rs),
                              "max_at": f'{worst["program"]}:{worst["entry"]}'}
    sv = [r["speed_vs_hand"] for r in out_rows if "speed_vs_hand" in r]
    if sv:
        slowest = min(out_rows, key=lambda r: r.get("speed_vs_hand", 1e9))
        summary["speed_vs_hand"] = {"geomean": geomean(sv), "min": min(sv), "n": len(sv),
                                    "min_at": f'{slowest["program"]}:{slowest["entry"]}'}
    sf = [r for r in out_rows if "speed_vs_fastest" in r]
    if sf:
        slowest = min(sf, key=lambda r: r["speed_vs_fastest"])
        who = {}
        for r in sf:
            who[r["fastest"]] = who.get(r["fastest"], 0) + 1
        summary["speed_vs_fastest"] = {"geomean": geomean([r["speed_vs_fastest"] for r in sf]),
                                       "min": slowest["speed_vs_fastest"], "n": len(sf),
                                       "min_at": f'{slowest["program"]}:{slowest["entry"]}', "fastest": who}
    if copy:
        streaming = [r for r in out_rows if r.get("bound") == "memory" and "achieved_GBps" in r]
        if streaming:
            floor = 0.85 * copy["GB_per_s"]
            summary["bandwidth"] = {
                "n": len(streaming), "goal_fraction": 0.85,
                "calls_met": sum(r["achieved_GBps"] >= floor for r in streaming),
                "kernels_met": sum(r.get("kernel_GBps", 0) >= floor for r in streaming),
                "kernels_measured": sum("kernel_GBps" in r for r in streaming)}
    checks = None
    if checks_path and os.path.exists(checks_path):
        checks = [line.strip() for line in open(checks_path) if line.strip()]
    return {"schema": "kerb-suite/1", "date": meta["date"], "kerb": meta["kerb"], "device": meta["device"],
            "frameworks": frameworks, "copy_bandwidth": copy, "rows": out_rows, "summary": summary,
            "sanitizer": sanitizer, "checks": checks}


def ms(x):
    if x is None:
        return "-"
    return f"{x:.1f}" if x >= 100 else f"{x:.3f}" if x >= 1 else f"{x:.4f}"


def bandwidth_table(suite):
    """Lines: the rate of every benchmark that moves a known number of bytes, per call
    (default checks and hand-written) and in its kernels alone, against the copy rate."""
    copy = suite.get("copy_bandwidth")
    rows = [r for r in suite["rows"] if "achieved_GBps" in r and r.get("bound") in ("memory", "random", "l2", "latency")]
    if not copy or not rows:
        return []
    rate = copy["GB_per_s"]

    def gbps(x):
        return f"{x:.0f} ({100 * x / rate:.0f}%)" if x else "-"

    lines = ["", f"Bytes moved per second, against the copy rate ({rate:.0f} GB/s); the goal (>= 85%) is for "
             "the benchmarks that stream through DRAM (bound: memory):", "",
             "| benchmark | bound | call GB/s (default) | hand-written call GB/s | kernels ms per call | kernels GB/s |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        name = f'{r["program"]}:{r["entry"]}' if r["entry"] != "main" else r["program"]
        lines.append(f'| {name} | {r["bound"]} | {gbps(r["achieved_GBps"])} | {gbps(r.get("hand_GBps"))} | '
                     f'{ms(r.get("kernel_ms"))} | {gbps(r.get("kernel_GBps"))} |')
    b = suite["summary"].get("bandwidth")
    if b:
        lines += ["", f'bandwidth-bound (memory) at >= 85% of the copy rate: calls {b["calls_met"]} of {b["n"]}, '
                      f'kernels alone {b["kernels_met"]} of {b["kernels_measured"]} measured']
    return lines


def table(suite):
    dev = suite.get("device") or {}
    kerb = suite.get("kerb") or {}
    lines = [f'Device: {dev.get("name", "?")}, driver {dev.get("driver", "?")} '
             f'(CUDA {dev.get("cuda_driver_api", "?")}); kerb {kerb.get("commit", "?")}; {suite.get("date", "?")}']
    copy = suite.get("copy_bandwidth")
    if copy:
        lines.append(f'Copy rate (device-to-device, read + write): {copy["GB_per_s"]:.0f} GB/s')
    for f in suite.get("frameworks") or []:
        if f.get("status") == "missing":
            lines.append(f'Peers: {f["framework"]} not installed, skipped')
        else:
            lines.append(f'Peers: {f["framework"]} {f.get("version")} on {f.get("device")}')
    lines += ["",
              "| benchmark | --unsafe ms | default | --sync-checks | hand-written ms | JAX ms | PyTorch ms | "
              "Kerb default vs fastest | GB/s (% of copy) | spread |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in suite["rows"]:
        v = r["variants"]
        name = f'{r["program"]}:{r["entry"]} {r["case"]}' if r["entry"] != "main" else f'{r["program"]} {r["case"]}'

        def ratio(flags):
            if flags in r["ratios"]:
                return f'{r["ratios"][flags]:.3f}x'
            a = v.get(flags)
            if not a:
                return "-"
            if a.get("status") == "skipped":
                return "skipped"
            if a.get("status") != "ok":
                return "ERROR"
            return f'{ms(a.get("median_ms"))} ms' if a.get("median_ms") else "-"

        base = v.get(BASE, {})
        base_txt = ms(base.get("median_ms")) if base.get("status") == "ok" else base.get("status", "-")
        hand = v.get(HAND, {}).get("median_ms")

        def peer(who):
            if who in r.get("peers_ms", {}):
                return ms(r["peers_ms"][who])
            why = r.get("peer_problems", {}).get(who)
            return "-" if why is None else "MISMATCH" if why.startswith("MISMATCH") else "ERROR"

        speed = f'{r["speed_vs_fastest"]:.2f} ({r["fastest"]})' if "speed_vs_fastest" in r else "-"
        bw = "-"
        if r.get("bound") == "memory" and "achieved_GBps" in r:
            bw = f'{r["achieved_GBps"]:.0f}'
            if "copy_fraction" in r:
                bw += f' ({100 * r["copy_fraction"]:.0f}%)'
        spreads = [a.get("spread", 0) for a in v.values() if a.get("runs")]
        spread = f"{100 * max(spreads):.1f}%" if spreads else "-"
        lines.append(f"| {name} | {base_txt} | {ratio('default')} | {ratio('--sync-checks')} | {ms(hand)} | "
                     f"{peer('JAX')} | {peer('PyTorch')} | {speed} | {bw} | {spread} |")
    s = suite["summary"]
    lines.append("")
    for flags, goal in (("default", "goal <= 1.01x geomean, <= 1.05x max"), ("--sync-checks", "")):
        if flags in s:
            x = s[flags]
            lines.append(f'{flags} / --unsafe: geomean {x["geomean"]:.3f}x, max {x["max"]:.3f}x '
                         f'({x["max_at"]}) over {x["n"]} benchmarks' + (f"; {goal}" if goal else ""))
    if "speed_vs_hand" in s:
        x = s["speed_vs_hand"]
        lines.append(f'generated (default) speed vs hand-written CUDA: geomean {x["geomean"]:.2f}, '
                     f'min {x["min"]:.2f} ({x["min_at"]}) over {x["n"]}; goal >= 0.95')
    if "speed_vs_fastest" in s:
        x = s["speed_vs_fastest"]
        who = ", ".join(f"{w} {n}" for w, n in sorted(x["fastest"].items(), key=lambda i: (-i[1], i[0])))
        lines.append(f'Kerb default speed vs the fastest of hand-written, JAX and PyTorch (its time over Kerb\'s): '
                     f'geomean {x["geomean"]:.2f}, min {x["min"]:.2f} ({x["min_at"]}) over {x["n"]}; '
                     f'the fastest: {who}')
    peer_rows = [r for r in suite["rows"] if r.get("peers_ms") or r.get("peer_problems")]
    if peer_rows:
        problems = [f'{r["program"]}:{r["entry"]} {who}: {why[:160]}' for r in peer_rows
                    for who, why in r.get("peer_problems", {}).items()]
        lines.append("peers' results checked against the expected outputs: " +
                     ("all match" if not problems else "not counted where they did not match or ran:"))
        lines += [f"  {p}" for p in problems]
    lines += bandwidth_table(suite)
    errors = [f'{r["program"]}:{r["entry"]} {r["case"]} {f}: {a.get("error", "")[:100]}'
              for r in suite["rows"] for f, a in r["variants"].items() if a.get("status") == "error"]
    for e in errors:
        lines.append(f"ERROR {e}")
    # After the warm-up, calls should take their memory from their contexts' caches
    # (bench/NOTES.md, "Allocation cache per context"); reports before it have no counts.
    fresh = [f'{r["program"]}:{r["entry"]} {r["case"]} {f}: {a["fresh_allocations"]}'
             for r in suite["rows"] for f, a in r["variants"].items() if a.get("fresh_allocations")]
    grown = [f'{r["program"]}:{r["entry"]} {r["case"]}: {r["pool_growth_bytes"]} bytes'
             for r in suite["rows"] if r.get("pool_growth_bytes")]
    counted = any("fresh_allocations" in a for r in suite["rows"] for a in r["variants"].values())
    if counted:
        lines.append("device allocations in the timed runs: " + ("; ".join(fresh) if fresh else "none"))
        lines.append("memory pool growth in the timed runs: " + ("; ".join(grown) if grown else "none"))
    checks = suite.get("checks")
    if checks:
        bad = [c for c in checks if not c.startswith("ok ")]
        lines.append(f"hand-written CUDA results checked against the reference: {len(checks) - len(bad)} of "
                     f"{len(checks)} match")
        lines += [f"  {c}" for c in bad]
    san = suite.get("sanitizer")
    if san:
        lines.append("")
        for item in san.get("lines", []):
            lines.append(item)
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw", help="the folder of kerb_*.json, cuda_*.json, copy.json")
    ap.add_argument("--data", help="the data folder (for the byte counts)")
    ap.add_argument("--json", help="write the merged report here")
    ap.add_argument("--table", help="write the table here")
    ap.add_argument("--checks", help="the result checks of the hand-written CUDA (check_results.py lines)")
    args = ap.parse_args()
    if not glob.glob(os.path.join(args.raw, "kerb_*.json")):
        sys.exit(f"summarize.py: no kerb_*.json reports in '{args.raw}'")
    suite = summarize(args.raw, args.data, args.checks)
    text = table(suite)
    if args.json:
        json.dump(suite, open(args.json, "w"), indent=1)
    if args.table:
        open(args.table, "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
