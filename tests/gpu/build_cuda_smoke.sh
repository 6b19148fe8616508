#!/usr/bin/env bash
# Builds tests/gpu/cuda_smoke by hand (outside CMake) into build-gpu/cuda_smoke, with
# libstdc++/libgcc and fmt linked statically where possible so the binary also runs on
# newer distributions (e.g. Ubuntu 24.04). libcuda is never linked: it is dlopen'ed.
# Usage (from anywhere): tests/gpu/build_cuda_smoke.sh   then   build-gpu/cuda_smoke
set -euo pipefail
cd "$(dirname "$0")/../.."
CUDA_INCLUDE=${CUDA_INCLUDE:-/usr/local/cuda/include}
CXX=${CXX:-g++}
mkdir -p build-gpu

fmt_flags=()
if [[ -f /usr/lib/x86_64-linux-gnu/libfmt.a ]]; then
  fmt_link=(/usr/lib/x86_64-linux-gnu/libfmt.a)
elif [[ -f /usr/include/fmt/format-inl.h ]]; then
  # No static libfmt: use fmt header-only, so the binary needs no libfmt.so at all.
  fmt_flags=(-DFMT_HEADER_ONLY)
  fmt_link=()
else
  fmt_link=(-lfmt)
fi

set -x
"$CXX" -O2 -std=c++20 -Wall -Wextra -DKERB_HAVE_CUDA_H "${fmt_flags[@]}" \
  -I. -I"$CUDA_INCLUDE" \
  tests/gpu/cuda_smoke.cpp runtime/cuda_driver.cpp runtime/cuda_device.cpp \
  -static-libstdc++ -static-libgcc "${fmt_link[@]}" -ldl -o build-gpu/cuda_smoke
