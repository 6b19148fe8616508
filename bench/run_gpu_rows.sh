#!/usr/bin/env bash
# The row-wise programs of issue 17 (bench/softmax.fut, layernorm.fut, row_scan.fut:
# 65536 x 1024 each) on the lent GPU, in one call of under 300 s on an H100: Kerb with
# one block per row (--unsafe and default) and with one thread per row
# (--row-block-min=off, the code before issue 17's item 2), next to JAX (jit) and
# PyTorch (eager). Run from a checkout that carries build-carry/ (bench/build_carry.sh);
# nothing is built here.
#
#   bash bench/run_gpu_rows.sh
#
# 1. the device's state (nvidia-smi); the inputs and their expected results, generated
#    here with numpy (bench/gen_data.py --group rows, one process per program);
# 2. per program, `kerb bench` with the three variants interleaved run by run in one
#    process (the first run of each checked against the expected results);
# 3. the peers (bench/peers/rows_peers.py), JAX then
#    PyTorch, each in its own process, results checked against the same outputs;
# 4. a table of medians (ms) and each variant's speed against the faster of jax.jit and
#    torch eager (the checkify variants are listed, not compared with), printed
#    last and written to table.md.
#
# Under $OUT (or /tmp/kerb-rows-out): table.md, log.txt, device.txt and raw.tar.gz (every
# report). Settings (environment): RUNS (default 30), WARMUP (3), BUDGET (seconds of
# timed runs per variant, 3), SUITE_DEADLINE (285), KERB, PYTHON, PEERS ("jax torch";
# empty for none), SUITE_DEVICE=cpu with SUITE_SCALE=small (a dry run of the plumbing on
# a machine with no GPU).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

programs=(softmax layernorm row_scan)

# run_settings, begin_run, say, cap, late, device_info, programs_dir, gen_inputs,
# handwritten, run_peers
source bench/gpu_common.sh
run_settings kerb-rows
begin_run run_gpu_rows.sh kerb-rows

table() {
  "$python" - "$raw" >"$out/table.md" 2>>"$log" <<'PY'
import json, os, sys
raw = sys.argv[1]
rows = {}
for f in sorted(os.listdir(raw)):
    if not f.endswith(".json"):
        continue
    d = json.load(open(os.path.join(raw, f)))
    for b in d.get("benchmarks", []):
        name = os.path.basename(b["program"]).removesuffix(".fut")
        vs = b["variants"]
        for v in (vs if isinstance(vs, list) else vs.values()):
            if v.get("status") == "ok" and v.get("median_ms") is not None:
                rows.setdefault(name, {})[v["flags"]] = (v["median_ms"], v.get("check", v.get("outcome", "")))
print("| program | variant | median ms | vs the faster peer | results |")
print("|---|---|---|---|---|")
for name, vs in rows.items():
    peer = min((m for k, (m, _) in vs.items() if k in ("jax.jit", "torch eager")), default=None)
    for k, (m, check) in vs.items():
        speed = f"{peer / m:.2f}x" if peer else "-"
        print(f"| {name} | {k} | {m:.4f} | {speed} | {check} |")
PY
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
gen_inputs "${programs[@]}"

# ---- Kerb: one block per row (--unsafe, default), one thread per row --------------------
say "kerb bench (--unsafe, default and --row-block-min=off interleaved)"
for p in "${programs[@]}"; do
  if late; then
    say "kerb bench: $p and the rest skipped (the deadline is near)"
    break
  fi
  timeout "$(cap 60)" "$kerb" bench "$fut_dir/$p.fut" --device "$device" --variant=--unsafe --variant=default \
    --variant=--row-block-min=off \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_$p.json" >>"$log" 2>&1 ||
    say "kerb bench $p exited with $?"
done
table

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers rows_peers.py "${programs[@]}"

say "summary"
table
say "done: $out (table.md, log.txt, device.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
