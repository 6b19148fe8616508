#!/usr/bin/env bash
# shellcheck disable=SC2154
# Matrix products (issue 17 item 4: block and register tiling, Strategy::BlockTiled,
# codegen/tiled_kernels.cpp) on the lent GPU, in one call of under 300 s on an H100:
# bench/matmul.fut (entries nested and flat) at 1024, 2048 and 4096 (f32), Kerb with
# the tiled kernel (--unsafe and default) and without it (--block-tile-min=off, the code
# before item 4), the hand-written CUDA (bench/cuda/matmul.cu: matmul, one thread per
# output; matmul_tiled, 32x32 shared tiles; matmul_reg, the tiled kernel's algorithm by
# hand), JAX (jit, precision HIGHEST) and PyTorch (cuBLAS, TF32 off). Run from a
# checkout that carries build-carry/ (bench/build_carry.sh); nothing is built here.
#
#   bash bench/run_gpu_matmul.sh
#
# 1. the device's state; the inputs and expected results (bench/gen_data.py --group
#    matmul: matmul1024, matmul (2048), matmul4096), one process each;
# 2. the tiled kernel's corpus tests on the GPU (tests/programs/tiled, kerb test), and
#    one of them under compute-sanitizer racecheck and memcheck;
# 3. per size, `kerb bench` with the three variants interleaved (2048: the program's
#    own case, its first run checked; 1024 and 4096: --input), then `kerb run` of the
#    default variant with its result checked against the expected one (check_results.py);
# 4. the hand-written CUDA per size, results checked the same way;
# 5. the peers (bench/peers/matmul_peers.py), JAX then PyTorch, each in its own process;
# 6. a table of medians (ms) and each variant's speed against PyTorch's (cuBLAS) and
#    JAX's, printed last and written to table.md (the goal: Kerb >= 0.5x of PyTorch at
#    2048 and 4096).
#
# Under $OUT (or /tmp/kerb-matmul-out): table.md, log.txt, device.txt, tests.txt and
# raw.tar.gz (every report). Settings (environment): RUNS (default 30), WARMUP (3),
# BUDGET (seconds of timed runs per variant, 3), SUITE_DEADLINE (285), KERB, CUDA_BENCH,
# PYTHON, PEERS ("jax torch"; empty for none), SIZES ("1024 2048 4096"), SUITE_DEVICE=cpu
# with SUITE_SCALE=small (a dry run of the plumbing on a machine with no GPU).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# run_settings, begin_run, say, cap, late, device_info, programs_dir, gen_inputs,
# handwritten, kerb_result, run_peers
source bench/gpu_common.sh
run_settings kerb-matmul
# shellcheck disable=SC2206
sizes=(${SIZES:-1024 2048 4096})
# The data file of each size (bench/gen_data.py's names).
declare -A file=([1024]=matmul1024 [2048]=matmul [4096]=matmul4096)
begin_run run_gpu_matmul.sh kerb-matmul

table() {
  "$python" - "$raw" >"$out/table.md" 2>>"$log" <<'PY'
import json, os, sys
raw = sys.argv[1]
sys.path.insert(0, "bench")
from reports import print_checks
names = {"matmul1024": "1024", "matmul": "2048", "matmul4096": "4096"}
rows = {}  # size -> variant -> (median ms, check)
for f in sorted(os.listdir(raw)):
    if not f.endswith(".json"):
        continue
    d = json.load(open(os.path.join(raw, f)))
    if f.startswith("kerb_"):
        size = f.removeprefix("kerb_").removesuffix(".json")
        for b in d.get("benchmarks", []):
            for v in (b["variants"] if isinstance(b["variants"], list) else b["variants"].values()):
                if v.get("status") == "ok" and v.get("median_ms") is not None:
                    key = f"kerb {b.get('entry', '')} {v['flags']}".replace("  ", " ")
                    rows.setdefault(size, {})[key] = (v["median_ms"], v.get("check", v.get("outcome", "")))
    elif f.startswith("cuda_"):
        name, size = f.removeprefix("cuda_").removesuffix(".json").rsplit("_", 1)
        for b in d.get("benchmarks", []):
            for v in b.get("variants", []):
                if v.get("median_ms") is not None:
                    rows.setdefault(size, {})[f"hand-written {name}"] = (v["median_ms"], "")
    elif f.startswith("peers_"):
        for b in d.get("benchmarks", []):
            size = names.get(b["program"], b["program"])
            for v in b["variants"]:
                if v.get("status") == "ok":
                    rows.setdefault(size, {})[v["flags"]] = (v["median_ms"], v.get("check", ""))
print("| size | variant | median ms | vs PyTorch (cuBLAS) | vs JAX | results |")
print("|---|---|---|---|---|---|")
for size in sorted(rows, key=lambda s: int(s) if s.isdigit() else 0):
    vs = rows[size]
    torch_ms = vs.get("torch eager", (None,))[0]
    jax_ms = vs.get("jax.jit", (None,))[0]
    for k, (m, check) in sorted(vs.items(), key=lambda kv: kv[1][0]):
        t = f"{torch_ms / m:.2f}x" if torch_ms else "-"
        j = f"{jax_ms / m:.2f}x" if jax_ms else "-"
        print(f"| {size} | {k} | {m:.4f} | {t} | {j} | {check} |")
print_checks(raw, "Results checked against the expected outputs:")
PY
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
names=()
for s in "${sizes[@]}"; do names+=("${file[$s]}"); done
gen_inputs "${names[@]}"

# ---- the tiled kernel's corpus on the device --------------------------------------------
say "kerb test tests/programs/tiled --device $device"
timeout "$(cap 60)" "$kerb" test tests/programs/tiled --device "$device" >"$out/tests.txt" 2>&1 ||
  say "kerb test exited with $? (tests.txt)"
tail -1 "$out/tests.txt" | tee -a "$log"
if [ "$device" = cuda ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in racecheck memcheck; do
    say "compute-sanitizer $tool: tests/programs/tiled/matmul_float.fut (every entry and case)"
    timeout "$(cap 90)" "$cs" --tool "$tool" --error-exitcode 99 "$kerb" test tests/programs/tiled/matmul_float.fut \
      --device cuda >"$raw/sanitizer_$tool.log" 2>&1
    say "  exit $?: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$raw/sanitizer_$tool.log")"
  done
fi

# ---- Kerb: tiled (--unsafe, default) and not (--block-tile-min=off) ----------------------
for s in "${sizes[@]}"; do
  f=${file[$s]}
  if late; then
    say "kerb bench: $s and the rest skipped (the deadline is near)"
    break
  fi
  say "kerb bench $s (--unsafe, default and --block-tile-min=off interleaved)"
  inputs=()
  [ "$s" = 2048 ] || inputs=(--input "nested=$data/$f.in" --input "flat=$data/$f.in")
  timeout "$(cap 90)" "$kerb" bench "$fut_dir/matmul.fut" "${inputs[@]}" --device "$device" \
    --variant=--unsafe --variant=default --variant=--block-tile-min=off \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_$s.json" >>"$log" 2>&1 ||
    say "kerb bench $s exited with $?"
  for entry in nested flat; do kerb_result "$fut_dir/matmul.fut" "$entry" "$f" "kerb $s"; done
done

# ---- the hand-written CUDA ---------------------------------------------------------------
if [ $have_cuda_bench = 1 ]; then
  for s in "${sizes[@]}"; do
    f=${file[$s]}
    for name in matmul matmul_tiled matmul_reg; do
      late && break 2
      say "kerb-cuda-bench $name $s"
      handwritten "$name" "$f" nested "${name}_$s" "hand-written $name $s"
    done
  done
fi
table

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers matmul_peers.py "${names[@]}"

say "summary"
table
say "done: $out (table.md, log.txt, device.txt, tests.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
