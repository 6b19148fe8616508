#!/usr/bin/env bash
# The benchmark suite on the lent GPU, in one call of 6 to 9 minutes. Run from a
# checkout that carries build-carry/ (bench/build_carry.sh makes it: a portable `kerb`
# and kerb-cuda-bench, the hand-written CUDA); nothing is built here, and large inputs
# are generated here with numpy (bench/gen_data.py, with their expected results).
#
#   bash bench/run_gpu_suite.sh
#
# 1. the device and its state (nvidia-smi), the copy-rate probe (`kerb bench
#    --copy-bandwidth`, at the start and at the end);
# 2. rounds (ROUNDS, default 2; the second only if time allows) over every program of
#    bench/: `kerb bench` with the
#    variants --unsafe, default and --sync-checks interleaved run by run inside one
#    process (A B C A B C ...), then the hand-written CUDA (D); every first run checked
#    against the expected results (kerb bench checks its own; the CUDA results are
#    written and checked by bench/check_results.py in round 1);
# 3. the peers (bench/peers/suite_peers.py): every program in JAX (jit) then PyTorch
#    (eager), each framework in its own process under its share of the time left, results
#    checked against the same expected outputs; a framework that is not installed is
#    skipped (its report says so);
# 4. the kernels' own times (KERB_PROFILE=1, default checks) of the memory-bound programs;
# 5. the bad-index program (bench/gather.fut on data/gather_bad.in): the hand-written
#    CUDA with no tool, under compute-sanitizer memcheck, Kerb's checks, and Kerb
#    --unsafe under memcheck: the time and what each reports;
# 6. bench/summarize.py: the table (printed last) and suite.json, written after every
#    stage so that a run cut short still leaves one.
#
# Everything is timed against a deadline (SUITE_DEADLINE seconds, default 540, inside
# the 600 s a device command may run): round 2 starts only if a round like the first
# fits, and every step's timeout is cut to what is left.
#
# Under $OUT (or /tmp/kerb-suite-out): table.md, suite.json, log.txt, device.txt and
# raw.tar.gz (every report and log). Settings (environment): ROUNDS, RUNS (timed runs
# per variant and round, default 10), WARMUP (default 2), BUDGET (seconds of timed runs
# per case and round, default 4; the peers use RUNS, WARMUP and BUDGET too),
# SUITE_DEADLINE, KERB, CUDA_BENCH (the binaries), PYTHON, PEERS ("jax torch"; empty for
# none), SUITE_DEVICE=cpu with
# SUITE_SCALE=small (a dry run of the plumbing on a machine with no GPU: small inputs,
# the CPU device, no CUDA, no compute-sanitizer; the peers run on the CPU where jax or
# torch is installed).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

kerb=${KERB:-build-carry/kerb}
cudabench=${CUDA_BENCH:-build-carry/kerb-cuda-bench}
out=${OUT:-/tmp/kerb-suite-out}
device=${SUITE_DEVICE:-cuda}
scale=${SUITE_SCALE:-full}
rounds=${ROUNDS:-2}
runs=${RUNS:-10}
warmup=${WARMUP:-2}
budget=${BUDGET:-4}
deadline=${SUITE_DEADLINE:-540}
python=${PYTHON:-python3}
peers=${PEERS-jax torch}

programs=(gather stencil intdiv reduce scan matmul histogram small_kernels hotspot pathfinder nn kmeans
  backprop)
# Hand-written CUDA versions as NAME:DATA:ENTRY: kerb-cuda-bench NAME reads DATA.in and
# is checked against DATA.out, the expected results of ENTRY.
handwritten=(gather:gather:main stencil:stencil:nested intdiv:intdiv:main reduce:reduce:main
  scan:scan:main matmul:matmul:nested matmul_tiled:matmul:nested histogram:histogram:main
  small_kernels:small_kernels:main hotspot:hotspot:main pathfinder:pathfinder:main nn:nn:main
  kmeans:kmeans:main backprop:backprop:main)

# begin_run, say, cap, late, device_info, programs_dir
source bench/gpu_common.sh
begin_run run_gpu_suite.sh kerb-suite

# ---- inputs ------------------------------------------------------------------------
# In a dry run, copies of the programs without their no_interp/no_cpu tags read small
# inputs; on the GPU the programs themselves read bench/data/.
data=bench/data
[ "$device" = cuda ] || data=$work/data
fut_dir=$(programs_dir bench)
say "generating inputs ($scale) into $data"
if ! timeout "$(cap 240)" "$python" bench/gen_data.py --scale "$scale" --out "$data" >>"$log" 2>&1; then
  say "bench/gen_data.py failed (see log.txt)"
  exit 1
fi

# ---- the copy rate -----------------------------------------------------------------
say "copy-rate probe"
timeout "$(cap 60)" "$kerb" bench --copy-bandwidth --device "$device" --json "$raw/copy.json" >>"$log" 2>&1 ||
  say "the copy-rate probe failed"

variants=(--variant=--unsafe --variant=default)
bench_help=$("$kerb" bench --help 2>&1)
if [[ $bench_help == *--sync-checks* ]]; then
  variants+=(--variant=--sync-checks)
else
  say "this kerb has no --sync-checks: timing --unsafe and default only"
fi

# ---- rounds ------------------------------------------------------------------------
bench_round() {
  local round=$1
  for p in "${programs[@]}"; do
    if late; then
      say "round $round: $p and the rest skipped (the deadline is near)"
      return
    fi
    timeout "$(cap 240)" "$kerb" bench "$fut_dir/$p.fut" --device "$device" "${variants[@]}" --runs "$runs" \
      --warmup "$warmup" --time-budget "$budget" --json "$raw/kerb_${p}_r$round.json" >>"$log" 2>&1
    local st=$?
    [ $st -ne 0 ] && say "kerb bench $p (round $round) exited with $st"
    [ $have_cuda_bench = 1 ] || continue
    for h in "${handwritten[@]}"; do
      IFS=: read -r name file entry <<<"$h"
      [ "$file" = "$p" ] || continue
      local extra=()
      [ "$round" = 1 ] && extra=(--out "$work/cuda_${name}_")
      timeout "$(cap 120)" "$cudabench" "$name" --input "$data/$file.in" --runs "$runs" --warmup "$warmup" \
        --time-budget "$budget" --json "$raw/cuda_${name}_r$round.json" "${extra[@]}" >>"$log" 2>&1 ||
        say "kerb-cuda-bench $name (round $round) failed"
      if [ "$round" = 1 ]; then
        "$python" bench/check_results.py "$file" "$entry" "$data/$file.in" "$work/cuda_${name}_"*.npy \
          --expected "$data/$file.out" --label "hand-written $name" >>"$raw/checks.txt" 2>&1 ||
          true
        rm -f "$work/cuda_${name}_"*.npy
      fi
    done
  done
}

summary() {
  local checks=()
  [ -f "$raw/checks.txt" ] && checks=(--checks "$raw/checks.txt")
  "$python" bench/summarize.py "$raw" --data "$data" --json "$out/suite.json" --table "$out/table.md" \
    "${checks[@]}" >>"$log" 2>&1 || say "bench/summarize.py failed"
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

say "round 1"
start=$SECONDS
bench_round 1
round_time=$((SECONDS - start))
say "round 1 took $round_time s"
summary
# Round 2 leaves about 160 s for the kernel times, the compute-sanitizer comparison and
# the summary, and 120 s more for the peers (about a minute a framework on the H100).
after_rounds=160
[ -n "${peers// /}" ] && after_rounds=280
for ((r = 2; r <= rounds; r++)); do
  if [ $((SECONDS + round_time + after_rounds)) -gt "$deadline" ]; then
    say "round $r skipped: it would not end before the deadline ($deadline s)"
    break
  fi
  say "round $r"
  bench_round "$r"
  summary
done

# ---- the peers: JAX and PyTorch -------------------------------------------------------
# Each framework gets an equal share of what is left once 90 s are kept for the kernel
# times, the compute-sanitizer comparison and the summary; --deadline stops it starting a
# program 20 s before its share ends (a program takes a few seconds: its inputs read,
# compiled, timed for at most BUDGET seconds, checked).
read -ra fws <<<"$peers"
for k in "${!fws[@]}"; do
  fw=${fws[$k]}
  if late; then
    say "peers: $fw skipped (the deadline is near)"
    continue
  fi
  share=$(((deadline - SECONDS - 90) / (${#fws[@]} - k)))
  ((share < 30)) && share=30
  say "peers: $fw (at most $share s)"
  timeout "$(cap "$share")" "$python" bench/peers/suite_peers.py "$fw" --data "$data" --json "$raw/peers_$fw.json" \
    --runs "$runs" --warmup "$warmup" --time-budget "$budget" --deadline "$((share - 20))" "${programs[@]}" \
    >>"$log" 2>&1 || say "peers: $fw exited with $?"
done
summary

# ---- kernel times in place (KERB_PROFILE=1) ------------------------------------------
# The memory-bound programs once more, default checks only, every launch timed with
# events (synchronously: these calls are not the timed ones above): the time a call
# spends in kernels, for the kernels' own bandwidth next to the call's (summarize.py).
# Files raw/prof_PROGRAM_ENTRY.{json,txt}; gather is left out (random reads, and its bad
# case would add a failing call's kernels).
kernel_profiles() {
  local pe p e
  for pe in stencil:nested stencil:flat intdiv:main reduce:main scan:main histogram:main nn:main \
    backprop:main hotspot:main pathfinder:main; do
    IFS=: read -r p e <<<"$pe"
    if late; then
      say "kernel times: $p:$e and the rest skipped (the deadline is near)"
      return
    fi
    KERB_PROFILE=1 timeout "$(cap 60)" "$kerb" bench "$fut_dir/$p.fut" -e "$e" --device "$device" --runs 5 \
      --warmup 1 --json "$raw/prof_${p}_$e.json" >/dev/null 2>"$raw/prof_${p}_$e.txt" ||
      say "kernel times of $p:$e failed (see raw/prof_${p}_$e.txt)"
  done
}
if [ "$device" = cuda ]; then
  say "kernel times in place (KERB_PROFILE=1)"
  kernel_profiles
  summary
fi

# ---- compute-sanitizer vs Kerb's checks on a bad index ----------------------------
sanitizer() {
  local cs
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  local bad=$data/gather_bad.in good=$data/gather.in
  local t0
  step() { # NAME CMD...: runs CMD with a capped timeout, records status and seconds
    local name=$1
    shift
    if late; then
      say "compute-sanitizer step $name skipped (the deadline is near)"
      return
    fi
    t0=$(date +%s.%N)
    timeout "$(cap 100)" "$@"
    echo "$name $? $t0 $(date +%s.%N)" >>"$raw/san_times.txt"
  }
  step plain_bad "$cudabench" gather --input "$bad" --runs 1 --warmup 0 >"$raw/san_plain_bad.out" 2>&1
  step memcheck_bad "$cs" --tool memcheck --leak-check no --print-limit 10 --log-file "$raw/san_memcheck_bad.log" \
    "$cudabench" gather --input "$bad" --runs 1 --warmup 0 >"$raw/san_memcheck_bad.out" 2>&1
  step memcheck_good "$cs" --tool memcheck --leak-check no --log-file "$raw/san_memcheck_good.log" \
    "$cudabench" gather --input "$good" --runs 3 --warmup 1 --json "$raw/san_memcheck_good.json" \
    >"$raw/san_memcheck_good.out" 2>&1
  step kerb_bad "$kerb" run "$fut_dir/gather.fut" --device cuda --input "$bad" >/dev/null 2>"$raw/san_kerb_bad.err"
  step kerb_unsafe_memcheck_bad "$cs" --tool memcheck --leak-check no --print-limit 10 \
    --log-file "$raw/san_kerb_unsafe_bad.log" "$kerb" run "$fut_dir/gather.fut" --unsafe --device cuda \
    --input "$bad" >/dev/null 2>"$raw/san_kerb_unsafe_bad.err"
}
if [ "$device" = cuda ] && [ $have_cuda_bench = 1 ]; then
  say "compute-sanitizer memcheck vs Kerb's checks (bad index)"
  sanitizer
  "$python" bench/sanitizer_report.py "$raw" >>"$log" 2>&1 || say "bench/sanitizer_report.py failed"
fi

say "copy-rate probe (end)"
timeout "$(cap 60)" "$kerb" bench --copy-bandwidth --device "$device" --json "$raw/copy_end.json" >>"$log" 2>&1 ||
  say "the copy-rate probe failed"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$out/device.txt" 2>&1

# ---- the table -------------------------------------------------------------------
say "summary"
summary
say "done: $out (table.md, suite.json, log.txt, device.txt, raw.tar.gz)"
echo
cat "$out/table.md" 2>/dev/null
