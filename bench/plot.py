#!/usr/bin/env python3
"""A PNG bar chart of the check overhead from a suite run (suite.json of
bench/run_gpu_suite.sh): per benchmark, the time of each checked variant (default,
--sync-checks) over --unsafe, with the goal line, stamped with the device, driver,
Kerb's commit and the date. Drawn with gnuplot (Debian's `gnuplot` package); run it
here, on the JSON that came back from the GPU machine.

  python3 bench/plot.py suite.json -o overhead.png [--max 3]

Ratios above --max (default 3) are drawn at the top of the chart with their value."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

VARIANTS = [("default", "default (asynchronous checks)", "#1f77b4"),
            ("--sync-checks", "--sync-checks (slot read after every launch)", "#ff7f0e")]


def label(row):
    name = row["program"] if row["entry"] == "main" else f'{row["program"]}:{row["entry"]}'
    return name.replace("_", "\\\\_")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite")
    ap.add_argument("-o", "--output", default="overhead.png")
    ap.add_argument("--max", type=float, default=3.0, help="the top of the y axis")
    args = ap.parse_args()
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        sys.exit("plot.py: gnuplot is not installed (apt-get install gnuplot-nox)")
    suite = json.load(open(args.suite))
    rows = [r for r in suite["rows"] if r.get("ratios")]
    if not rows:
        sys.exit(f"plot.py: '{args.suite}' has no benchmark with a ratio to --unsafe")
    present = [v for v in VARIANTS if any(v[0] in r["ratios"] for r in rows)]
    dev = suite.get("device") or {}
    kerb = suite.get("kerb") or {}
    stamp = (f'{dev.get("name", "?")}, driver {dev.get("driver", "?")}; kerb {kerb.get("commit", "?")}; '
             f'{suite.get("date", "?")}')
    with tempfile.TemporaryDirectory() as tmp:
        dat = os.path.join(tmp, "ratios.dat")
        with open(dat, "w") as f:
            for r in rows:
                vals = [r["ratios"].get(v[0], float("nan")) for v in present]
                shown = [min(x, args.max) for x in vals]
                f.write(f'"{label(r)}" ' + " ".join(f"{x:.4f}" for x in shown + vals) + "\n")
        n = len(present)
        lowest = min(r["ratios"][v[0]] for r in rows for v in present if v[0] in r["ratios"])
        ymin = max(0.0, min(0.9, round(lowest - 0.05, 1)))
        plots = ["1.01 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'goal: 1.01x geomean, 1.05x max'"]
        for k, (_, title, colour) in enumerate(present):
            plots.append(f"'{dat}' using {k + 2}:xtic(1) title '{title}' lc rgb '{colour}'")
        # The value above every bar that is clipped at the top.
        width = 0.8 / n
        for k in range(n):
            offset = (k - (n - 1) / 2) * width
            plots.append(f"'{dat}' using ($0{offset:+.3f}):(${n + k + 2} > {args.max} ? {args.max} : 1/0):"
                         f"(sprintf('%.2fx', ${n + k + 2})) with labels offset 0,0.6 font ',8' notitle")
        script = f"""
set terminal pngcairo size 1400,700 font ',10'
set output '{os.path.abspath(args.output)}'
set title "Time of checked code over --unsafe, per benchmark\\n{stamp}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [{ymin}:{args.max * 1.08}]
set ylabel 'time / time with --unsafe'
set xtics rotate by -35 scale 0
set grid ytics
set key top left
plot {', '.join(plots)}
"""
        gp = os.path.join(tmp, "plot.gp")
        open(gp, "w").write(script)
        subprocess.run([gnuplot, gp], check=True)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
