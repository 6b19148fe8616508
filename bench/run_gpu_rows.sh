#!/usr/bin/env bash
# The row-wise programs of issue 17 (bench/softmax.fut, layernorm.fut, row_scan.fut:
# 65536 x 1024 each) on the lent GPU, in one call of under 300 s on an H100, next to JAX
# (jit) and PyTorch (eager). Kerb's variants, their runs interleaved in one process:
#   --unsafe, default        a warp per row (Note [A warp per row] in
#                            codegen/row_block_kernels.cpp), the row copied into shared
#                            memory where it is read more than once (Note [Rows in shared
#                            memory] in codegen/row_cache.cpp; not row_scan's);
#   --row-warp-max=off       a block per row, the row copied;
#   --row-cache-max=off      a warp per row reading global memory;
#   both off                 a block per row reading global memory (the kernel of
#                            bench/results/2026-11-26-rows-h100);
#   --row-block-min=off      one thread per row (before issue 17's item 2).
# (row_scan reads its row once: its copy variants are the same kernels as the others.)
# Run from a checkout that carries build-carry/ (bench/build_carry.sh); nothing is built
# here.
#
#   bash bench/run_gpu_rows.sh
#
# 0. the row corpus (tests/programs/rowblock: every version at and past its bound,
#    failures inside rows) on the device, `kerb test`, to corpus.txt;
# 1. the device's state (nvidia-smi); the inputs and their expected results, generated
#    here with numpy (bench/gen_data.py --group rows, one process per program);
# 2. per program, `kerb bench` with the six variants interleaved run by run in one
#    process (the first run of each checked against the expected results);
# 3. the peers (bench/peers/rows_peers.py), JAX then
#    PyTorch, each in its own process, results checked against the same outputs;
# 4. a table of medians (ms) and each variant's speed against the faster of jax.jit and
#    torch eager (the checkify variants are listed, not compared with), printed
#    last and written to table.md.
#
# Under $OUT (or /tmp/kerb-rows-out): table.md, corpus.txt, log.txt, device.txt and
# raw.tar.gz (every report). Settings (environment): RUNS (default 30), WARMUP (3),
# BUDGET (seconds of timed runs per variant, 3), SUITE_DEADLINE (285), KERB, PYTHON,
# PEERS ("jax torch"; empty for none), SANITIZE (1: step 0 under compute-sanitizer too),
# SUITE_DEVICE=cpu with SUITE_SCALE=small (a dry run of the plumbing on a machine with no
# GPU).
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
import sys
sys.path.insert(0, "bench")
from reports import medians
rows = medians(sys.argv[1])
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

# ---- the row corpus on the device ---------------------------------------------------------
say "kerb test tests/programs/rowblock --device $device"
timeout "$(cap 60)" "$kerb" test tests/programs/rowblock --device "$device" >"$out/corpus.txt" 2>&1 ||
  say "kerb test exited with $? (corpus.txt)"
say "corpus: $(tail -1 "$out/corpus.txt")"
# SANITIZE=1: the same programs but argmax (its 20000-row cases are slow there) under
# compute-sanitizer racecheck (shared memory between a block's or a warp's threads) and
# memcheck, to racecheck.txt and memcheck.txt (give the call SUITE_DEADLINE=540).
if [ "${SANITIZE:-0}" = 1 ] && [ "$device" = cuda ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  sanitized=(tests/programs/rowblock/{layernorm,read_back,row_cache,row_scan,softmax}.fut)
  for tool in racecheck memcheck; do
    say "compute-sanitizer --tool $tool: kerb test ${sanitized[*]}"
    timeout "$(cap 120)" "$cs" --tool "$tool" --error-exitcode 99 "$kerb" test "${sanitized[@]}" --device cuda \
      >"$out/$tool.txt" 2>&1
    say "$tool: exit $?, $(grep -m1 'ERROR SUMMARY' "$out/$tool.txt"); $(tail -1 "$out/$tool.txt")"
  done
fi

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
gen_inputs "${programs[@]}"

# ---- Kerb: a warp or a block per row, rows copied or not; one thread per row -------------
say "kerb bench (six variants interleaved)"
for p in "${programs[@]}"; do
  if late; then
    say "kerb bench: $p and the rest skipped (the deadline is near)"
    break
  fi
  timeout "$(cap 60)" "$kerb" bench "$fut_dir/$p.fut" --device "$device" --variant=--unsafe --variant=default \
    --variant=--row-warp-max=off --variant=--row-cache-max=off \
    --variant='--row-warp-max=off --row-cache-max=off' --variant=--row-block-min=off \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_$p.json" >>"$log" 2>&1 ||
    say "kerb bench $p exited with $?"
done
table

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers rows_peers.py "${programs[@]}"

say "summary"
table
say "done: $out (table.md, corpus.txt, log.txt, device.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
