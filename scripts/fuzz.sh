#!/usr/bin/env bash
# Fuzzes Kerb's front end with libFuzzer: builds the fuzz targets of tests/fuzz/ with
# clang-14, AddressSanitizer and UndefinedBehaviorSanitizer into build-fuzz/ (front end
# and runtime only, no LLVM), then runs each target for its share of the time, starting
# from the corpus in build-fuzz/corpus/TARGET (kept between runs) and the seeds in the
# repository (the .fut programs of tests/programs and tests/reject; tests/fuzz/values
# for the value readers).
#
#   scripts/fuzz.sh [--workers N] [--no-build] [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the total wall time, split evenly over the targets (default:
# all of lexer parser type_check values), which run one after another. Each target runs
# as N niced single-threaded processes at once (--workers, default 1; each with its own
# seed and log, sharing the corpus), so the CPU time spent is SECONDS x N. --no-build
# runs targets built earlier (e.g. carried to another machine). A crash,
# hang (10 s for one input), sanitizer report or uncaught exception stops that target
# and leaves the input in build-fuzz/artifacts/; the script then exits 1. The log of
# each target is build-fuzz/logs/TARGET.log. KERB_FUZZ_JOBS sets the build's
# parallelism (default 2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

workers=1
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --workers) workers=${2:-}; shift 2 || { echo "fuzz: error: --workers needs a number" >&2; exit 2; } ;;
    --no-build) build=0; shift ;;
    -*) echo "fuzz: error: unknown option '$1' (scripts/fuzz.sh [--workers N] [--no-build] [SECONDS] [TARGET...])" >&2; exit 2 ;;
    *) break ;;
  esac
done
if ! [[ $workers =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: error: --workers needs a whole number of at least 1" >&2
  exit 2
fi
total=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(lexer parser type_check values); fi
if ! [[ $total =~ ^[0-9]+$ ]] || ((total < ${#targets[@]})); then
  echo "fuzz: error: SECONDS must be a whole number of at least one per target" >&2
  exit 2
fi

if ((build)); then
  for cc in clang-14 clang++-14; do
    command -v "$cc" >/dev/null || { echo "fuzz: error: $cc not found (scripts/setup.sh --fuzz --no-build installs it)" >&2; exit 2; }
  done
  # The build's output goes to a log; on failure its last lines are shown (a CI run then
  # says which file failed to compile under clang 14).
  mkdir -p build-fuzz/logs
  if ! { cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERB_FUZZ=ON \
           -DKERB_WERROR=ON -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 &&
         cmake --build build-fuzz -j "${KERB_FUZZ_JOBS:-2}"; } >build-fuzz/logs/build.log 2>&1; then
    echo "fuzz: error: the build of the fuzz targets failed (build-fuzz/logs/build.log):" >&2
    grep -E 'error|FAILED' build-fuzz/logs/build.log | head -20 >&2
    tail -5 build-fuzz/logs/build.log >&2
    exit 2
  fi
fi

per=$((total / ${#targets[@]}))
mkdir -p build-fuzz/artifacts build-fuzz/logs
# log_of TARGET WORKER: the log of one process (TARGET.log when there is one worker).
log_of() {
  if ((workers == 1)); then echo "build-fuzz/logs/$1.log"; else echo "build-fuzz/logs/$1-$2.log"; fi
}

status=0
for t in "${targets[@]}"; do
  bin=build-fuzz/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz: error: no target '$t'" >&2; exit 2; }
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  if [ "$t" = values ]; then seeds=(tests/fuzz/values); else seeds=(tests/programs tests/reject); fi
  echo "fuzz: $t for ${per}s with $workers worker(s) (logs: build-fuzz/logs/$t*.log)"
  rm -f build-fuzz/logs/"$t".log build-fuzz/logs/"$t"-*.log
  pids=()
  for ((w = 0; w < workers; w++)); do
    nice -n 10 "$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -seed=$((w + 1)) -artifact_prefix=build-fuzz/artifacts/"$t"- \
      "$corpus" "${seeds[@]}" >"$(log_of "$t" "$w")" 2>&1 &
    pids+=($!)
  done
  runs=0
  failed=0
  for ((w = 0; w < workers; w++)); do
    log=$(log_of "$t" "$w")
    if ! wait "${pids[$w]}"; then
      failed=1
      echo "fuzz: $t (worker $w): FAILED; the end of $log:"
      grep -v '^#\|^INFO\|NEW_FUNC' "$log" | tail -n 30
    fi
    n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    runs=$((runs + ${n:-0}))
  done
  if ((failed)); then
    status=1
  else
    echo "fuzz: $t: $runs inputs in ${per}s x $workers, no crash"
  fi
done
exit $status
