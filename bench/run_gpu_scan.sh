#!/usr/bin/env bash
# The single-pass scan (issue 17, item 5; Note [Single-pass scan] in
# codegen/scan_kernels.cpp) on the lent GPU, in one call of under 300 s on an H100:
# bench/scan.fut (2^26 i32) in one pass and with reduce-then-scan
# (--scan-single-pass-min=off, the code before), each --unsafe and default, next to
# torch.cumsum and jnp.cumsum; then the scan corpus on the GPU and compute-sanitizer
# racecheck and memcheck of the single-pass kernels. Run from a checkout that carries
# build-carry/ (bench/build_carry.sh); nothing is built here.
#
#   bash bench/run_gpu_scan.sh
#
# 1. the device's state (nvidia-smi); scan's input and expected result, generated here
#    with numpy (bench/gen_data.py);
# 2. `kerb bench` with the five variants interleaved run by run in one process (the
#    first run of each checked against the expected result; --scan-vectors=off: the
#    one pass element by element), then one profiled run of each (KERB_PROFILE=1:
#    every launch and memset timed apart); the hand-written prototype
#    scan_sp_128x24_delay (bench/cuda/scan_variants.cu) where kerb-cuda-bench is carried;
# 3. the peers (bench/peers/suite_peers.py scan: jnp.cumsum, torch.cumsum), each
#    framework in its own process, results checked against the same output;
# 4. `kerb test --device cuda` of the scan corpus (tests/programs/soacs/scan_*.fut,
#    tests/programs/failures/scan_*.fut: sizes around the tiles up to 2^24, failures
#    in the first, a middle and the last tile);
# 5. compute-sanitizer racecheck and memcheck of tests/programs/failures/
#    scan_single_pass_fail.fut's i32 and i64 scans over 10^6 elements (326 and 559
#    tiles), passing and failing in the first tile;
# 6. a table of medians (ms), each variant's speed against torch.cumsum (the goal:
#    >= 0.95x) and against reduce-then-scan of the same checks, printed last and
#    written to table.md.
#
# Under $OUT (or /tmp/kerb-scan-out): table.md, log.txt, device.txt, tests.txt,
# sanitizer.txt and raw.tar.gz (every report). Settings (environment): RUNS (default
# 50), WARMUP (5), BUDGET (seconds of timed runs per variant, 3), SUITE_DEADLINE (285),
# KERB, PYTHON, PEERS ("jax torch"; empty for none), SUITE_DEVICE=cpu with
# SUITE_SCALE=small (a dry run of the plumbing on a machine with no GPU: no sanitizer).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# The variants, in the order of the table (one pass, the default for scans of one scalar
# of at most 32 bits since its tile is in registers, then reduce-then-scan).
variants=(--unsafe default --scan-vectors=off --unsafe\ --scan-single-pass-min=off --scan-single-pass-min=off)

# run_settings, begin_run, say, cap, late, device_info, programs_dir, gen_inputs, run_peers
source bench/gpu_common.sh
# (More runs than the others: the variants differ by a few percent.)
: "${RUNS:=50}" "${WARMUP:=5}"
run_settings kerb-scan
begin_run run_gpu_scan.sh kerb-scan

table() {
  "$python" - "$raw" >"$out/table.md" 2>>"$log" <<'PY'
import json, os, sys
raw = sys.argv[1]
medians = {}
for f in sorted(os.listdir(raw)):
    if not f.endswith(".json") or f.startswith("prof_"):
        continue
    d = json.load(open(os.path.join(raw, f)))
    for b in d.get("benchmarks", []):
        vs = b["variants"]
        for v in (vs if isinstance(vs, list) else vs.values()):
            if v.get("status") == "ok" and v.get("median_ms") is not None:
                label = "hand-written " + f[5:-5] if f.startswith("cuda_") else v["flags"]
                medians[label] = (v["median_ms"], v.get("check", v.get("outcome", "")))
torch = medians.get("torch eager", (None,))[0]
def rts_of(flags):
    """The reduce-then-scan variant with the same checks as a single-pass one."""
    base = {"--unsafe": "--unsafe --scan-single-pass-min=off", "default": "--scan-single-pass-min=off"}
    return medians.get(base.get(flags, ""), (None,))[0]
print("| variant | median ms | vs torch.cumsum (goal >= 0.95x) | vs reduce-then-scan | results |")
print("|---|---|---|---|---|")
for flags, (m, check) in medians.items():
    vs_torch = f"{torch / m:.3f}x" if torch else "-"
    rts = rts_of(flags)
    vs_rts = f"{rts / m:.3f}x" if rts else "-"
    print(f"| {flags} | {m:.4f} | {vs_torch} | {vs_rts} | {check} |")
PY
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
gen_inputs scan

# ---- Kerb: single pass and reduce-then-scan, --unsafe and default -----------------------
say "kerb bench scan (${variants[*]} interleaved)"
vflags=()
for v in "${variants[@]}"; do vflags+=("--variant=$v"); done
timeout "$(cap 90)" "$kerb" bench "$fut_dir/scan.fut" --device "$device" "${vflags[@]}" \
  --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_scan.json" >>"$log" 2>&1 ||
  say "kerb bench scan exited with $?"
table
say "kernel times (KERB_PROFILE=1), one process per variant"
for v in "${variants[@]}"; do
  late && break
  tag=${v//[^a-z0-9]/_}
  # shellcheck disable=SC2086 # a variant is several flags
  [ "$v" = default ] && set -- || set -- $v
  KERB_PROFILE=1 timeout "$(cap 60)" "$kerb" bench "$fut_dir/scan.fut" --device "$device" "$@" --runs 5 \
    --warmup 1 --json "$raw/prof_$tag.json" >/dev/null 2>"$raw/prof_$tag.txt" ||
    say "kernel times of '$v' failed (raw/prof_$tag.txt)"
  { echo "== KERB_PROFILE, $v"; grep -E "^profile|kernel|memset|fill" "$raw/prof_$tag.txt" | head -40; } >>"$log"
done

# ---- the hand-written prototype (Note [Scan variants]), where kerb-cuda-bench is here -------
if [ -x "$cudabench" ] && [ "$device" = cuda ] && ! late; then
  say "hand-written scan_sp_128x24_delay (bench/cuda/scan_variants.cu)"
  handwritten scan_sp_128x24_delay scan main scan_sp_128x24_delay "hand-written scan_sp_128x24_delay"
fi

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers suite_peers.py scan
table

# ---- the scan corpus on the device --------------------------------------------------------
say "kerb test --device $device: the scan corpus"
if ! late; then
  timeout "$(cap 120)" "$kerb" test tests/programs/soacs/scan_*.fut tests/programs/failures/scan_*.fut \
    --device "$device" --scan-single-pass-min=1 --scan-single-pass-wide-min=1 >"$out/tests.txt" 2>&1
  say "kerb test exited with $? ($(tail -1 "$out/tests.txt"))"
fi

# ---- compute-sanitizer racecheck and memcheck ---------------------------------------------
if [ "$device" = cuda ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  prog=tests/programs/failures/scan_single_pass_fail.fut
  : >"$out/sanitizer.txt"
  for tool in racecheck memcheck; do
    for ea in "index:1000000i64 -1i64 999999i64" "index64:1000000i64 -1i64 999999i64" \
      "index:1000000i64 3i64 0i64" "index64:1000000i64 3i64 0i64"; do
      if late; then
        say "compute-sanitizer $tool skipped (the deadline is near)"
        break 2
      fi
      entry=${ea%%:*} args=${ea#*:}
      {
        echo "== $tool $entry $args"
        echo "$args" | timeout "$(cap 60)" "$cs" --tool "$tool" --print-limit 10 "$kerb" run "$prog" -e "$entry" \
          --device cuda --scan-single-pass-min=1 --scan-single-pass-wide-min=1 2>&1 | tail -8
        echo "exit ${PIPESTATUS[1]}"
      } >>"$out/sanitizer.txt"
    done
  done
  say "compute-sanitizer: $(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$out/sanitizer.txt") of 8 runs clean"
fi

say "summary"
table
say "done: $out (table.md, log.txt, device.txt, tests.txt, sanitizer.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
