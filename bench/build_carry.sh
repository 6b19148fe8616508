#!/usr/bin/env bash
# Builds what the lent GPU machine runs into build-carry/ (ignored by git; carry it with
# the device call): a portable, stripped `kerb` (LLVM and the C++ runtime linked in;
# built in build-carry-src/ with -DKERB_PORTABLE=ON -DKERB_BUILD_TESTS=OFF) and
# kerb-cuda-bench, the hand-written CUDA of the benchmark suite (bench/cuda/build.sh).
# Checks that the whole folder fits the 64 MiB a device call may carry.
# Usage: bench/build_carry.sh [--no-cuda]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build-carry
# Release without -Werror: GCC 12 warns falsely (-Wrestrict in std::string) at -O3.
cmake -S . -B build-carry-src -G Ninja -DCMAKE_BUILD_TYPE=Release -DKERB_PORTABLE=ON \
  -DKERB_BUILD_TESTS=OFF -DKERB_WERROR=OFF >/dev/null
cmake --build build-carry-src --target kerb -j "${JOBS:-2}"
strip -o build-carry/kerb build-carry-src/kerb
if [ "${1:-}" != --no-cuda ]; then
  bench/cuda/build.sh build-carry
fi
build-carry/kerb --version
total=$(du -cb build-carry | tail -1 | cut -f1)
ls -l build-carry
echo "build-carry/: $((total / 1024 / 1024)) MiB of the 64 MiB a device call may carry"
if [ "$total" -gt $((60 * 1024 * 1024)) ]; then
  echo "bench/build_carry.sh: build-carry/ is too large to carry with the working tree" >&2
  exit 1
fi
