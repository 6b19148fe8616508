#!/usr/bin/env bash
# KERB_TRACE on the lent GPU: where an entry call's time goes outside its kernels
# (bench/README.md, "Time outside kernels"). For each program (PROGRAMS, default reduce
# nn backprop histogram kmeans hotspot): its input made with bench/gen_data.py, then
# `KERB_TRACE=$TRACE kerb bench bench/P.fut --device cuda` (default checks, RUNS timed
# runs); the whole trace goes to $OUT/P.trace.txt, and the medians are printed here.
# Run from a checkout that carries build-carry/ (bench/build_carry.sh):
#   bash bench/run_gpu_trace.sh
# Settings (environment): PROGRAMS, RUNS (default 20), WARMUP (3), TRACE (1; 2 adds a
# line per operation of every call), KERB (default build-carry/kerb), OUT, SCALE (full),
# NO_GEN=1 (the inputs are in bench/data already).
set -uo pipefail
cd "$(dirname "$0")/.."
kerb=${KERB:-build-carry/kerb}
out=${OUT:-/tmp/kerb-trace-out}
programs=(${PROGRAMS:-reduce nn backprop histogram kmeans hotspot})
device=${KERB_DEVICE:-cuda}
mkdir -p "$out"
if [ ! -x "$kerb" ]; then
  echo "run_gpu_trace.sh: no kerb at $kerb (bench/build_carry.sh, carry build-carry/)" >&2
  exit 2
fi
[ -n "${NO_GEN:-}" ] || python3 bench/gen_data.py --scale "${SCALE:-full}" --out bench/data "${programs[@]}" \
  >"$out/gen_data.log" 2>&1 || { echo "gen_data.py failed:"; tail "$out/gen_data.log"; exit 1; }
status=0
for p in "${programs[@]}"; do
  echo "== $p"
  if ! KERB_TRACE=${TRACE:-1} "$kerb" bench "bench/$p.fut" --device "$device" \
      --runs "${RUNS:-20}" --warmup "${WARMUP:-3}" >"$out/$p.bench.txt" 2>"$out/$p.trace.txt"; then
    echo "kerb bench failed:"; tail -5 "$out/$p.bench.txt" "$out/$p.trace.txt"; status=1
  fi
  grep -h ' ms ' "$out/$p.bench.txt" "$out/$p.trace.txt" | grep -v '^trace' | head -3
  grep -E '^trace: (median|  median|driver calls)' "$out/$p.trace.txt"
done
exit $status
