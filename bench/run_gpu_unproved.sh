#!/usr/bin/env bash
# The group of programs whose checks cannot be proved (bench/unproved/) on the lent GPU,
# in one call of under 300 s on an H100: Kerb without and with checks, the hand-written
# CUDA without and with checks, and the same programs in JAX (jit, checkify) and PyTorch.
# Run from a checkout that carries build-carry/ (bench/build_carry.sh); nothing is built
# here.
#
#   bash bench/run_gpu_unproved.sh
#
# 1. the device's state (nvidia-smi); the inputs, generated here with numpy
#    (bench/gen_data.py --group unproved, one process per program), with their expected
#    results and the small bad inputs NAME_bad.in (one failing element each);
# 2. per program, `kerb bench` with --unsafe and default interleaved run by run in one
#    process (its first run of each variant checked against the expected results);
# 3. the hand-written CUDA, NAME (no checks) and NAME_checked (bench/cuda/unproved.cu),
#    results checked by bench/check_results.py;
# 4. the peers (bench/peers/unproved_peers.py), JAX then PyTorch, each in its own
#    process, results checked against the same expected outputs;
# 5. the bad inputs: Kerb (default checks), the hand-written checked CUDA and JAX's
#    checkify (in step 4) must each report the planted failure;
# 6. bench/summarize_unproved.py: the table (printed last) and unproved.json, written
#    after every stage so that a run cut short still leaves one.
#
# Everything runs against a deadline (SUITE_DEADLINE seconds, default 285): a step that
# would start too late is skipped and every step's timeout is cut to what is left.
#
# Under $OUT (or /tmp/kerb-unproved-out): table.md, unproved.json, log.txt, device.txt and
# raw.tar.gz (every report and log). Settings (environment): RUNS (timed runs per variant,
# default 30), WARMUP (default 3), BUDGET (seconds of timed runs per case, default 3),
# SUITE_DEADLINE, KERB, CUDA_BENCH (the binaries), PYTHON, PEERS ("jax torch"; empty for
# none), SUITE_DEVICE=cpu with SUITE_SCALE=small (a dry run of the plumbing on a machine
# with no GPU: small inputs, the CPU device, no hand-written CUDA; the peers run on the
# CPU where jax or torch is installed and are skipped where not).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

programs=(spmv nbr_stencil graph_step gather3 assert_div bsearch)

# run_settings, begin_run, say, cap, late, device_info, programs_dir, gen_inputs,
# handwritten, run_peers
source bench/gpu_common.sh
run_settings kerb-unproved
begin_run run_gpu_unproved.sh kerb-unproved

summary() {
  "$python" bench/summarize_unproved.py "$raw" --data "$data" --json "$out/unproved.json" \
    --table "$out/table.md" >>"$log" 2>&1 || say "bench/summarize_unproved.py failed"
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ----------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench/unproved)
gen_inputs "${programs[@]}"

# ---- Kerb: --unsafe, default and --deferred-checks=off (each check a branch), interleaved
say "kerb bench (--unsafe, default and --deferred-checks=off interleaved)"
for p in "${programs[@]}"; do
  if late; then
    say "kerb bench: $p and the rest skipped (the deadline is near)"
    break
  fi
  timeout "$(cap 60)" "$kerb" bench "$fut_dir/$p.fut" --device "$device" --variant=--unsafe --variant=default \
    --variant=--deferred-checks=off \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_$p.json" >>"$log" 2>&1 ||
    say "kerb bench $p exited with $?"
done
summary

# ---- the hand-written CUDA, unchecked and checked ----------------------------------------
if [ $have_cuda_bench = 1 ]; then
  say "hand-written CUDA"
  for p in "${programs[@]}"; do
    for name in "$p" "${p}_checked"; do
      if late; then
        say "hand-written $name and the rest skipped (the deadline is near)"
        break 2
      fi
      handwritten "$name" "$p" main "$name" "hand-written $name"
    done
  done
  summary
fi

# ---- the peers: JAX and PyTorch -----------------------------------------------------------
run_peers unproved_peers.py "${programs[@]}"
summary

# ---- the bad inputs: the planted failure must be reported ----------------------------------
say "bad inputs (one failing element each)"
: >"$raw/bad_status.txt"
for p in "${programs[@]}"; do
  if late; then
    say "bad inputs: $p and the rest skipped (the deadline is near)"
    break
  fi
  timeout "$(cap 30)" "$kerb" run "$fut_dir/$p.fut" --device "$device" --input "$data/${p}_bad.in" \
    >/dev/null 2>"$raw/bad_kerb_$p.err"
  echo "$p kerb $?" >>"$raw/bad_status.txt"
  if [ $have_cuda_bench = 1 ]; then
    timeout "$(cap 30)" "$cudabench" "${p}_checked" --input "$data/${p}_bad.in" --runs 1 --warmup 0 \
      >/dev/null 2>"$raw/bad_cuda_$p.err"
    echo "$p cuda $?" >>"$raw/bad_status.txt"
  fi
done

say "summary"
summary
say "done: $out (table.md, unproved.json, log.txt, device.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
