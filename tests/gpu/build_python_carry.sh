#!/usr/bin/env bash
# Builds, here, what tests/gpu/run_gpu_python.sh needs on the lent GPU machine, into
# build-carry/python/ (ignored by git; carry it with the device call):
#   kerb                   a portable kerb (LLVM linked in; built in build-carry-src/ with
#                          -DKERB_PORTABLE=ON), beside include/ and lib/ so that
#                          `kerb compile --shared` and kerb.compile find the runtime there
#   include/kerb/, lib/libkerb_runtime.a
#   prog/libprog.so        tests/python/prog.fut, compiled with --library --shared
#   call_overhead          tests/gpu/call_overhead.c against prog/libprog.a (the C API's
#                          time per call)
# Then runs the GPU script's plumbing here on the CPU device and checks what the library
# needs from the system (glibc symbol versions at most 2.39, the GPU machine's).
# Usage: tests/gpu/build_python_carry.sh [PYTHON]   (a Python with numpy; default python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${1:-python3}
src=build-carry-src
out=build-carry/python
# Warnings are not errors here (GCC 12 at -O3 warns falsely; see build_library_carry.sh).
cmake -S . -B "$src" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKERB_PORTABLE=ON \
  -DKERB_BUILD_TESTS=OFF -DKERB_WERROR=OFF >/dev/null
cmake --build "$src" --target kerb kerb_runtime_dist -j "${JOBS:-2}"
rm -rf "$out"
mkdir -p "$out/include/kerb" "$out/lib" "$out/prog"
cp include/kerb/kerb.h include/kerb/kerb.hpp "$out/include/kerb/"
strip --strip-debug -o "$out/lib/libkerb_runtime.a" "$src/lib/libkerb_runtime.a"
strip -o "$out/kerb" "$src/kerb"
# A relative path, so that failure locations read the same on both machines.
"$out/kerb" compile --library --shared tests/python/prog.fut -o "$out/prog/prog"
# shellcheck disable=SC2046
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/prog" tests/gpu/call_overhead.c "$out/prog/libprog.a" \
  -o "$out/call_overhead" $("$out/kerb" config --cflags --libs)

"$out/call_overhead" cpu 2000
PYTHONPATH=python "$python" tests/gpu/python_gpu_test.py --lib "$out/prog/libprog.so" --device cpu \
  --calls 100 --timed 2000
newest=$(objdump -T "$out/prog/libprog.so" "$out/call_overhead" | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1)
echo "newest glibc symbol version needed: $newest"
if [ "$(printf '%s\nGLIBC_2.39\n' "$newest" | sort -V | tail -1)" != GLIBC_2.39 ]; then
  echo "build_python_carry: $newest is newer than the GPU machine's glibc 2.39" >&2
  exit 1
fi
total=$(du -cb "$out" | tail -1 | cut -f1)
ls -l "$out" "$out/prog"
echo "$out: $((total / 1024 / 1024)) MiB of the 64 MiB a device call may carry"
