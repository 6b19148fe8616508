#!/usr/bin/env bash
# Builds, here, what tests/gpu/run_gpu_library.sh needs on the lent GPU machine (which has
# a C compiler but no LLVM, fmt or kerb): into build-carry/library/ (ignored by git; carry
# it with the device call)
#   include/kerb/kerb.h, kerb.hpp   the C API's headers
#   lib/libkerb_runtime.a           the runtime, Release, without debug info
#   scores/scores.h, libscores.a    examples/library/scores.fut, compiled with --library
#   api/api.h, libapi.a             tests/library/api.fut, likewise
#   opaque/opaque.h, libopaque.a    tests/library/opaque.fut (opaque values), likewise
# The kerb that compiles them is built in build-carry-src/ (-DKERB_PORTABLE=ON, as
# bench/build_carry.sh does). It then links the C programs here with exactly the flags the
# GPU script uses, runs them on the CPU device, and lists what the carried archives need
# from the system (glibc symbol versions must be at most 2.39, the GPU machine's).
# Usage: tests/gpu/build_library_carry.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
src=build-carry-src
out=build-carry/library
# Warnings are not errors here: GCC 12 at -O3 gives false -Wrestrict warnings in
# std::string code (compiler/syntax/ast_printer.cpp, compiler/check_options.cpp).
cmake -S . -B "$src" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKERB_PORTABLE=ON \
  -DKERB_BUILD_TESTS=OFF -DKERB_WERROR=OFF >/dev/null
cmake --build "$src" --target kerb kerb_runtime_dist -j "${JOBS:-2}"
rm -rf "$out"
mkdir -p "$out/include/kerb" "$out/lib" "$out/scores" "$out/api" "$out/opaque"
cp include/kerb/kerb.h include/kerb/kerb.hpp "$out/include/kerb/"
strip --strip-debug -o "$out/lib/libkerb_runtime.a" "$src/lib/libkerb_runtime.a"
# Relative paths, so that failure locations read the same on both machines.
"$src/kerb" compile --library examples/library/scores.fut -o "$out/scores/scores"
"$src/kerb" compile --library tests/library/api.fut -o "$out/api/api"
"$src/kerb" compile --library tests/library/opaque.fut -o "$out/opaque/opaque"

# Link and run here as the GPU script will there.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libs=(-L"$out/lib" -lkerb_runtime -lstdc++ -lm -ldl -lpthread)
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/include" -I"$out/scores" examples/library/main.c \
  "$out/scores/libscores.a" "${libs[@]}" -o "$tmp/scores"
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/include" -I"$out/api" tests/library/c_api_test.c \
  "$out/api/libapi.a" "${libs[@]}" -o "$tmp/c_api_test"
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/include" -I"$out/opaque" tests/library/opaque_test.c \
  "$out/opaque/libopaque.a" "${libs[@]}" -o "$tmp/opaque_test"
"$tmp/scores" cpu >"$tmp/scores.out"
bash tests/library/check_scores.sh "$tmp/scores.out" cpu
"$tmp/c_api_test" cpu | tail -1
"$tmp/opaque_test" cpu | tail -1

echo "glibc versions the programs need (the GPU machine has 2.39):"
objdump -T "$tmp/scores" "$tmp/c_api_test" "$tmp/opaque_test" | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -3
echo "shared libraries they need:"
objdump -p "$tmp/scores" "$tmp/c_api_test" "$tmp/opaque_test" | awk '/NEEDED/ {print "  " $2}' | sort -u
du -sh "$out"
