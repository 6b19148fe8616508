#!/usr/bin/env bash
# Fuzzes Kerb's front end with libFuzzer: builds the fuzz targets of tests/fuzz/ with
# clang-14, AddressSanitizer and UndefinedBehaviorSanitizer into build-fuzz/ (front end
# and runtime only, no LLVM), then runs each target for its share of the time, starting
# from the corpus in build-fuzz/corpus/TARGET (kept between runs) and the seeds in the
# repository (the .fut programs of tests/programs and tests/reject; tests/fuzz/values
# for the value readers).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the total time, split evenly over the targets (default: all
# of lexer parser type_check values). Each run is single-threaded and niced. A crash,
# hang (10 s for one input), sanitizer report or uncaught exception stops that target
# and leaves the input in build-fuzz/artifacts/; the script then exits 1. The log of
# each target is build-fuzz/logs/TARGET.log. KERB_FUZZ_JOBS sets the build's
# parallelism (default 2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

total=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(lexer parser type_check values); fi
if ! [[ $total =~ ^[0-9]+$ ]] || ((total < ${#targets[@]})); then
  echo "fuzz: error: SECONDS must be a whole number of at least one per target" >&2
  exit 2
fi

for cc in clang-14 clang++-14; do
  command -v "$cc" >/dev/null || { echo "fuzz: error: $cc not found (scripts/setup.sh --fuzz --no-build installs it)" >&2; exit 2; }
done

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERB_FUZZ=ON \
  -DKERB_WERROR=ON -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build-fuzz -j "${KERB_FUZZ_JOBS:-2}" >/dev/null

per=$((total / ${#targets[@]}))
mkdir -p build-fuzz/artifacts build-fuzz/logs
status=0
for t in "${targets[@]}"; do
  bin=build-fuzz/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz: error: no target '$t'" >&2; exit 2; }
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  if [ "$t" = values ]; then seeds=(tests/fuzz/values); else seeds=(tests/programs tests/reject); fi
  log=build-fuzz/logs/$t.log
  echo "fuzz: $t for ${per}s (log: $log)"
  if nice -n 10 "$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/"$t"- \
      "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $t: $runs inputs, no crash"
  else
    status=1
    echo "fuzz: $t: FAILED; the end of its log:"
    grep -v '^#\|^INFO\|NEW_FUNC' "$log" | tail -n 30
  fi
done
exit $status
