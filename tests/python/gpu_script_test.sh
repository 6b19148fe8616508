#!/usr/bin/env bash
# The plumbing of the GPU machine's Python test (tests/gpu/run_gpu_python.sh) on the CPU
# device (registered with CTest): compiles tests/python/prog.fut with --shared, builds
# tests/gpu/call_overhead.c against it, runs it and tests/gpu/python_gpu_test.py (its
# numpy and kerb.Array parts) with --device cpu. Usage: gpu_script_test.sh KERB PYTHON OUT
set -euo pipefail
kerb=$1
python=$2
out=$3
cd "$(dirname "$0")/../.."
rm -rf "$out"
mkdir -p "$out"
"$kerb" compile --library --shared tests/python/prog.fut -o "$out/prog"
# shellcheck disable=SC2046  # word splitting of the flags is intended
"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -I"$out" tests/gpu/call_overhead.c "$out/libprog.a" \
  -o "$out/call_overhead" $("$kerb" config --cflags --libs)
line=$("$out/call_overhead" cpu 2000)
echo "$line"
us=$(sed -n 's/.* us_per_call \([0-9.]*\) .*/\1/p' <<< "$line")
[ -n "$us" ] || { echo "gpu_script_test: no time from call_overhead" >&2; exit 1; }
PYTHONPATH=python "$python" tests/gpu/python_gpu_test.py --lib "$out/libprog.so" --device cpu \
  --c-api-us "$us" --calls 100 --timed 2000 --json "$out/python_cpu.json"
