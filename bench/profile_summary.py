#!/usr/bin/env python3
"""Summarise bench/profile_gpu.sh's ncu CSVs (ncu --csv --page raw): one line per kernel
of every profiled process, aggregated over its launches (median duration).

    python3 bench/profile_summary.py DIR     (DIR holds TAG.csv files)
"""
import csv
import os
import re
import statistics
import sys

SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
         "nsecond": 1e-9, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0,
         "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "Kbyte/block": 1e3, "byte/block": 1}


def value(row, units, col):
    if col not in row or row[col] in ("", "n/a"):
        return None
    s = row[col].replace(",", "")
    try:
        v = float(s)
    except ValueError:
        return None
    return v * SCALE.get(units.get(col, ""), 1.0)


def read(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    if len(lines) < 3:
        return [], {}
    rows = list(csv.reader(lines))
    header, unit_row = rows[0], rows[1]
    units = dict(zip(header, unit_row))
    return [dict(zip(header, r)) for r in rows[2:]], units


def short(name):
    name = re.sub(r"\(.*", "", name)
    return name if len(name) <= 48 else name[:45] + "..."


def main():
    d = sys.argv[1]
    print("| process | kernel | n | grid x block | regs | smem B | median us | DRAM MB | GB/s | occ % | SM % | top stalls (per issue) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for fn in sorted(os.listdir(d)):
        if not fn.endswith(".csv"):
            continue
        rows, units = read(os.path.join(d, fn))
        if not rows:
            print(f"| {fn[:-4]} | (no kernels profiled) |")
            continue
        stall_cols = [c for c in rows[0] if re.match(r"smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio$", c)]
        by = {}
        for r in rows:
            by.setdefault(r.get("Kernel Name", "?"), []).append(r)
        for k, rs in by.items():
            dur = [value(r, units, "gpu__time_duration.sum") or 0 for r in rs]
            med = statistics.median(dur)
            i = dur.index(sorted(dur)[len(dur) // 2])
            r = rs[i]
            # DRAM bytes read and written: the section's rate times the duration.
            rd = (value(r, units, "dram__bytes.sum.per_second") or 0) * (value(r, units, "gpu__time_duration.sum") or 0)
            wr = 0
            regs = value(r, units, "launch__registers_per_thread")
            smem = (value(r, units, "launch__shared_mem_per_block_static") or 0) + \
                (value(r, units, "launch__shared_mem_per_block_dynamic") or 0)
            occ = value(r, units, "sm__warps_active.avg.pct_of_peak_sustained_active")
            sm = value(r, units, "sm__throughput.avg.pct_of_peak_sustained_elapsed")
            stalls = []
            for c in stall_cols:
                v = value(r, units, c)
                if v:
                    stalls.append((v, re.match(r"smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active", c).group(1)))
            stalls.sort(reverse=True)
            st = ", ".join(f"{n} {v:.1f}" for v, n in stalls[:3])
            gbs = (rd + wr) / med / 1e9 if med else 0
            grid = f"{r.get('Grid Size', '?')} x {r.get('Block Size', '?')}"
            fmt = lambda x, f: (f % x) if x is not None else "-"
            print(f"| {fn[:-4]} | {short(k)} | {len(rs)} | {grid} | {fmt(regs, '%.0f')} | {smem:.0f} | "
                  f"{med * 1e6:.1f} | {(rd + wr) / 1e6:.1f} | {gbs:.0f} | {fmt(occ, '%.0f')} | {fmt(sm, '%.0f')} | {st} |")


if __name__ == "__main__":
    main()
