#!/usr/bin/env bash
# Runs the CPU test suite under AddressSanitizer and UndefinedBehaviorSanitizer: builds
# `kerb` with -fsanitize=address,undefined (CMake option KERB_SANITIZE, -O1, line-table
# debug info, tests off: only the kerb binary) into build-asan/, then runs with it the
# program corpus on the reference interpreter and on the CPU device, the programs that
# must be rejected, and the benchmark suite's small cases. Any sanitizer report fails
# the run: UBSan reports abort (-fno-sanitize-recover), ASan stops at the first error,
# and the logs are searched for reports as well. Leaks are reported too (LeakSanitizer).
#
#   scripts/sanitize.sh
#
# Logs: build-asan/logs/*.log. The code that LLVM's JIT makes for the CPU device is not
# instrumented; the runtime it calls, the front end, the interpreter and the code
# generator are. KERB_JOBS sets the build's parallelism (default: all cores); ccache is
# used when it is installed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
start=$(date +%s)
# Warnings are not errors here: GCC 12 with ASan at -O1 warns falsely (maybe-uninitialized
# in libstdc++'s <regex>, mismatched-new-delete on LLVM's GlobalVariable); the main build
# (scripts/setup.sh) keeps -Werror.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS='-O1 -g1' \
  -DCMAKE_C_FLAGS='-O1 -g1' -DKERB_SANITIZE=ON -DKERB_BUILD_TESTS=OFF -DKERB_WERROR=OFF \
  "${launcher[@]}" >/dev/null
if ! cmake --build build-asan -j "${KERB_JOBS:-$(nproc)}" --target kerb >build-asan/build.log 2>&1; then
  echo "sanitize: error: the build failed; the end of build-asan/build.log:" >&2
  grep -E -A5 'error|FAILED' build-asan/build.log | head -n 40 >&2
  exit 1
fi
echo "sanitize: built build-asan/kerb in $(( $(date +%s) - start ))s"

kerb=build-asan/kerb
mkdir -p build-asan/logs
# abort_on_error gives a core-less abort with a report; halt_on_error stops at the
# first ASan error; every UBSan check aborts (the build has -fno-sanitize-recover).
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=0:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}

passed=0
failed=0
# suite NAME ARGS...: runs `kerb ARGS...` with its log in build-asan/logs/NAME.log;
# fails on a non-zero exit or any sanitizer report in the log.
suite() {
  local name=$1
  shift
  local log=build-asan/logs/$name.log
  local t0 status=0
  t0=$(date +%s)
  "$kerb" "$@" >"$log" 2>&1 || status=$?
  local secs=$(( $(date +%s) - t0 ))
  if [ $status -eq 0 ] && ! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer' "$log"; then
    echo "sanitize: $name: ok ($(tail -n 1 "$log"); ${secs}s)"
    passed=$((passed + 1))
  else
    echo "sanitize: $name: FAILED (exit status $status, ${secs}s); log $log:"
    grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -n 60 || tail -n 30 "$log"
    failed=$((failed + 1))
  fi
}

suite programs-interp test tests/programs --device interp
suite programs-cpu test tests/programs --device cpu
suite reject test tests/reject --device interp
suite bench-cpu test bench --device cpu

echo "sanitize: $passed passed, $failed failed"
[ $failed -eq 0 ]
