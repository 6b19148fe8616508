#!/usr/bin/env bash
# shellcheck disable=SC2154
# The nested programs of issue 17 that are neither row-wise nor one large matrix product,
# on the lent GPU in one call of under 250 s on an H100, next to JAX (jit) and PyTorch
# (eager): bench/batched_matmul.fut (2^16 products of 16x16 f32 matrices; entries rows
# and indexed, three nested maps: a block per four products staged in shared memory;
# and flat, one map: one thread per output in 2-D tiles) and bench/nbody.fut (the accelerations of 2^15 bodies, a reduce_comm over every pair).
# Kerb's variants, their runs interleaved in one process:
#   --unsafe, default          what Kerb chooses (kerb check --emit=kernels; nbody: a
#                              block per body, Note [Arrays every element reads] in
#                              codegen/extract_kernels.cpp);
#   batched_matmul --stage-max=off  the 2-D tiles, not a block per product with a and b
#                              in shared memory (Note [Small elements staged in shared
#                              memory] in codegen/staged_kernels.cpp);
#   nbody --row-warp-max=65536 a warp per body, 8 a block;
#   nbody --row-block-min=off  one thread per body (what nbody ran before that Note).
# Run from a checkout that carries build-carry/ (bench/build_carry.sh); nothing is built
# here.
#
#   bash bench/run_gpu_nested.sh
#
# 1. the device's state (nvidia-smi); the inputs and their expected results, generated
#    here with numpy (bench/gen_data.py --group nested, one process per program; nbody's
#    float64 reference spread over the cores);
# 2. what Kerb makes of each program (`kerb check --emit=kernels`, to kernels.txt);
# 3. per program, `kerb bench` with the variants interleaved run by run (the first run
#    of each checked against the expected results with Futhark's tolerance), then `kerb
#    run` of each entry's default variant, its results checked against the float64
#    reference with bench/check_results.py's tolerance;
# 4. the peers (bench/peers/nested_peers.py), JAX then PyTorch, each in its own process;
# 5. a table of medians (ms), each variant's speed against the fastest of jax.jit and
#    torch eager, and its rate (batched_matmul: GB/s of the inputs read and the result
#    written; nbody: 10^9 pairs a second), printed last and written to table.md.
#
# Under $OUT (or /tmp/kerb-nested-out): table.md, kernels.txt, log.txt, device.txt and
# raw.tar.gz (every report). Settings (environment): RUNS (default 30), WARMUP (3),
# BUDGET (seconds of timed runs per variant, 3), SUITE_DEADLINE (240), KERB, PYTHON,
# PEERS ("jax torch"; empty for none), SUITE_DEVICE=cpu with SUITE_SCALE=small (a dry run
# of the plumbing on a machine with no GPU).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

programs=(batched_matmul nbody)
# The strategy variants of each program, besides --unsafe and default: `;` between
# variants, spaces between one variant's options.
declare -A strategy_variants=(
  [batched_matmul]="--stage-max=off"
  [nbody]="--row-warp-max=65536;--row-block-min=off"
)
declare -A entries=([batched_matmul]="rows indexed flat" [nbody]="main")

# run_settings, begin_run, say, cap, late, device_info, programs_dir, gen_inputs,
# kerb_result, run_peers
source bench/gpu_common.sh
SUITE_DEADLINE=${SUITE_DEADLINE:-240} # (this script's default; run_settings reads it)
run_settings kerb-nested
begin_run run_gpu_nested.sh kerb-nested

table() {
  "$python" - "$raw" "$data" >"$out/table.md" 2>>"$log" <<'PY'
import os, sys
raw, data = sys.argv[1], sys.argv[2]
sys.path.insert(0, "bench")
from futhark_data import read_headers
from reports import medians, print_checks


def rate(name):
    """(unit, amount per ms) of a program's work, from its input's shapes."""
    try:
        heads = read_headers(os.path.join(data, f"{name}.in"))
    except (OSError, ValueError):
        return None
    if name == "batched_matmul":
        (_, (k, n, m), _), (_, (_, _, p), _) = heads[:2]
        return "GB/s", 4 * k * (n * m + m * p + n * p) / 1e6
    if name == "nbody":
        n = heads[0][1][0]
        return "Gpairs/s", n * n / 1e6
    return None


rows = medians(raw, entries=True)  # program -> variant -> (median ms, check)
print("| program | variant | median ms | vs the fastest peer | rate | results |")
print("|---|---|---|---|---|---|")
for name, vs in rows.items():
    peers = {k: m for k, (m, _) in vs.items() if k in ("jax.jit", "torch eager")}
    best = min(peers.values(), default=None)
    r = rate(name)
    for k, (m, check) in sorted(vs.items(), key=lambda kv: kv[1][0]):
        speed = f"{best / m:.2f}x" if best else "-"
        amount = f"{r[1] / m:.3g} {r[0]}" if r else "-"
        print(f"| {name} | {k} | {m:.4f} | {speed} | {amount} | {check} |")
    if best:
        print(f"| {name} | (fastest peer: {min(peers, key=peers.get)}) | | | | |")
print_checks(raw, "Kerb default against the float64 reference (bench/check_results.py):")
PY
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
gen_inputs "${programs[@]}"

# ---- what Kerb makes of them -------------------------------------------------------------
for p in "${programs[@]}"; do
  echo "== $p.fut" >>"$out/kernels.txt"
  "$kerb" check "bench/$p.fut" --emit=kernels >>"$out/kernels.txt" 2>&1 || say "kerb check $p exited with $?"
done

# ---- Kerb: --unsafe, default and the strategy variants -----------------------------------
for p in "${programs[@]}"; do
  if late; then
    say "kerb bench: $p and the rest skipped (the deadline is near)"
    break
  fi
  variants=(--variant=--unsafe --variant=default)
  IFS=';' read -ra more <<<"${strategy_variants[$p]}"
  for v in "${more[@]}"; do variants+=("--variant=$v"); done
  say "kerb bench $p (${variants[*]})"
  timeout "$(cap 75)" "$kerb" bench "$fut_dir/$p.fut" --device "$device" "${variants[@]}" \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_$p.json" >>"$log" 2>&1 ||
    say "kerb bench $p exited with $?"
  for entry in ${entries[$p]}; do kerb_result "$fut_dir/$p.fut" "$entry" "$p" "kerb default"; done
done
table

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers nested_peers.py "${programs[@]}"

say "summary"
table
say "done: $out (table.md, kernels.txt, log.txt, device.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
