#!/usr/bin/env bash
# Futhark's benchmark suite on the GPU (issue 19, docs/REAL-PROGRAMS.md): every entry point
# of every program `kerb check` accepts runs on the CUDA device on the inputs `kerb dataset`
# made and must agree with the interpreter (the same results, or the same failed check),
# and each that agrees is timed with default checks and with --unsafe (`kerb bench
# --input`, interleaved), with the geomean of default / --unsafe over the entry points
# taking >= 0.1 ms a call. All of it is scripts/real_programs.py; this script splits it
# into device calls of under 10 minutes.
#
#   prepare            (here, not on the GPU) copies the suite's .fut files from FB
#                      (default /work/scratch/fb) into build-carry/real/fb and runs the
#                      interpreter and the CPU device on every entry point, keeping the
#                      inputs and the interpreter's outcomes (with the failures compiled
#                      code may report instead, --possible-failures) in build-carry/real/work
#                      (carry build-carry with the device calls; the GPU calls do not run
#                      the interpreter again)
#   check [K/N]        on the GPU: the agreement check on cuda (shard K of N programs)
#   bench K/N          on the GPU: the timings of shard K of N (--bench-size, default 1000;
#                      BENCH_TIMEOUT seconds a program, default 300; BENCH_ARGS more
#                      options of scripts/real_programs.py, e.g. --bench-skip P, --bench-from P)
#
# Usage: tests/gpu/run_gpu_real_programs.sh prepare [FB] [KERB]
#        tests/gpu/run_gpu_real_programs.sh check|bench [K/N] [KERB] [DEVICE]
#        (KERB default build-carry/kerb, DEVICE default cuda; writes under $OUT or
#        /tmp/kerb-gpu: real_MODE[_K-N].{md,json,log})
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: run_gpu_real_programs.sh prepare|check|bench ...}
real=build-carry/real
if [ "$mode" = prepare ]; then
  fb=${2:-/work/scratch/fb}
  kerb=${3:-build-carry/kerb}
  mkdir -p "$real"
  rm -rf "$real/fb" "$real/work"
  # The .fut files only (the suite's data and tools stay behind).
  (cd "$fb" && find . -name '*.fut' -print0 | tar --null -cf - -T -) | (mkdir -p "$real/fb" && cd "$real/fb" && tar -xf -)
  python3 scripts/real_programs.py "$real/fb" --kerb "$kerb" --run --device cpu \
    --workdir "$real/work" --json "$real/cpu.json" --markdown >"$real/cpu.md" 2>"$real/cpu.log"
  status=$?
  tail -4 "$real/cpu.md"
  echo "build-carry/real: $(du -sh "$real" | cut -f1) (carry build-carry with the device calls)"
  exit $status
fi
shard=${2:-1/1}
kerb=${3:-build-carry/kerb}
device=${4:-cuda}
out=${OUT:-/tmp/kerb-gpu}
mkdir -p "$out"
tag="real_${mode}_${shard/\//-}"
[ -d "$real/work" ] || { echo "no $real/work: run '$0 prepare' here first" >&2; exit 2; }
if command -v nvidia-smi >/dev/null; then nvidia-smi -L | tee "$out/device.txt"; fi
"$kerb" --version | tee -a "$out/device.txt"
case "$mode" in
check)
  python3 scripts/real_programs.py "$real/fb" --kerb "$kerb" --run --device "$device" \
    --workdir "$real/work" --reuse --shard "$shard" -j 8 --run-timeout 120 \
    --json "$out/$tag.json" --markdown >"$out/$tag.md" 2>"$out/$tag.log"
  ;;
bench)
  python3 scripts/real_programs.py "$real/fb" --kerb "$kerb" --run --device "$device" \
    --workdir "$real/work" --reuse --shard "$shard" -j 8 --run-timeout 120 \
    --bench --bench-size "${BENCH_SIZE:-1000}" --runs 10 --time-budget 1 \
    --bench-timeout "${BENCH_TIMEOUT:-300}" ${BENCH_ARGS:-} \
    --json "$out/$tag.json" --markdown >"$out/$tag.md" 2>"$out/$tag.log"
  ;;
*)
  echo "unknown mode '$mode' (prepare, check or bench)" >&2
  exit 2
  ;;
esac
status=$?
grep -vE '^(agrees|fails alike) ' "$out/$tag.log" | tail -40
sed -n '/^[0-9]* of [0-9]* programs compile/,$p' "$out/$tag.md"
exit $status
