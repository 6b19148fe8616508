#!/usr/bin/env bash
# On the lent GPU machine: host loops that read arrays run in one kernel of one thread
# (compiler/offload_sequential_loops.cpp, Note [Sequential loops in one thread]). Before,
# reduce_comm_tuples.fut's `one` spent ~33 us an iteration of its reference loop in
# device-to-host reads (5 s for n = 100003, 21 s for 600000, minutes for 4194307). Times
# `kerb run -e one` (compiling included) for the file's sizes, each in its own process
# (a limit of 60 s each), then `kerb bench` of the entry (compiling and uploading not
# timed) and KERB_PROFILE=1 for the largest (the loop's kernel is the one `_map` launch
# of width 1 after the reductions), and the file's cases through `kerb test`. Each
# `one` must print 0i64 and take well under a second.
# Usage: tests/gpu/run_gpu_seq_loop.sh [KERB] [DEVICE]   (default build-carry/kerb cuda;
#        writes under $OUT or /tmp/kerb-gpu)
set -uo pipefail
kerb=${1:-build-carry/kerb}
device=${2:-cuda}
out=${OUT:-/tmp/kerb-gpu}
prog=tests/programs/soacs/reduce_comm_tuples.fut
mkdir -p "$out"
status=0
for n in 100003 600000 1048575 2097151 4194307; do
  start=$(date +%s%N)
  got=$(timeout 60 "$kerb" run "$prog" -e one --device "$device" <<<"${n}i64" 2>&1)
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  printf 'one %8s: %-8s exit %d, %d ms (kerb run, compiling included)\n' "$n" "$got" "$rc" "$ms"
  [ "$rc" = 0 ] && [ "$got" = 0i64 ] || status=1
done
"$kerb" bench "$prog" -e one --device "$device" --runs 3 --warmup 1 --json "$out/seq_loop_bench.json" \
  2>&1 | tee "$out/seq_loop_bench.txt" || status=1
KERB_PROFILE=1 "$kerb" run "$prog" -e one --device "$device" <<<4194307i64 \
  >"$out/seq_loop_profile.txt" 2>&1 || status=1
grep -E '_map|profile: (call|total)' "$out/seq_loop_profile.txt" | head -20
timeout 300 "$kerb" test "$prog" --device "$device" || status=1
exit $status
