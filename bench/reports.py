"""What the tables of the GPU scripts (bench/run_gpu_rows.sh, run_gpu_matmul.sh,
run_gpu_nested.sh) read from the raw/ folder they leave: the medians of the JSON
reports (`kerb bench --json`'s kerb_*.json, bench/peers' peers_*.json) and the results
checked against the expected outputs (checks.txt)."""

import json
import os


def medians(raw, entries=False):
    """{program: {variant: (median ms, check)}} over the reports in `raw`, the variants
    that ran: a kerb variant is named by its flags (with `entries`, `kerb ENTRY FLAGS`),
    a peer's by its own (`jax.jit`, `torch eager`)."""
    rows = {}
    for f in sorted(os.listdir(raw)):
        if not f.endswith(".json"):
            continue
        with open(os.path.join(raw, f)) as fh:
            d = json.load(fh)
        for b in d.get("benchmarks", []):
            name = os.path.basename(b["program"]).removesuffix(".fut")
            vs = b["variants"]
            for v in (vs if isinstance(vs, list) else vs.values()):
                if v.get("status") == "ok" and v.get("median_ms") is not None:
                    key = f"kerb {b['entry']} {v['flags']}" if entries and b.get("entry") else v["flags"]
                    rows.setdefault(name, {})[key] = (v["median_ms"], v.get("check", v.get("outcome", "")))
    return rows


def print_checks(raw, title):
    """The lines of `raw`/checks.txt (bench/check_results.py's, one a result checked),
    under `title`, where there is such a file."""
    path = os.path.join(raw, "checks.txt")
    if not os.path.exists(path):
        return
    print()
    print(title)
    with open(path) as f:
        for line in f:
            print("    " + line.rstrip())
