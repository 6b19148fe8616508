#!/usr/bin/env bash
# Builds the hand-written CUDA versions of the benchmark suite into one binary,
# kerb-cuda-bench (nvcc -O3 -arch=sm_90; the CUDA and C++ runtimes linked statically, so
# that it needs only libc), for the
# lent GPU machine. Never part of the default build. Needs nvcc (the CUDA toolkit), no
# GPU. Usage: bench/cuda/build.sh [OUT_DIR]   (default build-carry/)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-carry}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "bench/cuda/build.sh: no nvcc (set NVCC or install the CUDA toolkit)" >&2
  exit 2
fi
mkdir -p "$out"
set -x
"$nvcc" -O3 -arch=sm_90 -std=c++17 -lineinfo -Xcompiler -Wall,-Wextra -Werror all-warnings \
  --cudart static -Xcompiler -static-libstdc++,-static-libgcc bench/cuda/main.cu bench/cuda/elementwise.cu bench/cuda/reductions.cu \
  bench/cuda/matmul.cu bench/cuda/iterative.cu bench/cuda/ports.cu bench/cuda/unproved.cu bench/cuda/scan_variants.cu \
  -o "$out/kerb-cuda-bench"
