#!/usr/bin/env bash
# The example project examples/library (registered with CTest): configures it with
# find_package(Kerb) against Kerb's build tree, or against an install of it made here
# (`cmake --install`), builds it (kerb_add_library compiles scores.fut), and runs its C
# and C++ programs on the CPU device.
# Usage: example_test.sh KERB_BUILD_DIR examples/library build|install
set -euo pipefail

build=$1
example=$2
mode=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case "$mode" in
build) prefix=$build ;;
install)
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
  for f in bin/kerb lib/libkerb_runtime.a include/kerb/kerb.h include/kerb/kerb.hpp \
           lib/cmake/Kerb/KerbConfig.cmake lib/cmake/Kerb/KerbConfigVersion.cmake; do
    [ -e "$prefix/$f" ] || { echo "example_test: the install lacks $f"; exit 1; }
  done
  ;;
*) echo "example_test: mode must be build or install"; exit 2 ;;
esac

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$example" -B "$tmp/example" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$tmp/configure.log" ||
  { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/example" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }

"$tmp/example/scores" cpu >"$tmp/scores.out" 2>&1 || { cat "$tmp/scores.out"; exit 1; }
bash "$here/check_scores.sh" "$tmp/scores.out" cpu

"$tmp/example/scores_cpp" cpu >"$tmp/scores_cpp.out" 2>&1 || { cat "$tmp/scores_cpp.out"; exit 1; }
for line in "mean: 4.500" "summary: 8 readings in [2.500, 9.000]" "bad call reported (code 2):" "Index [12] out of bounds for array of shape [8]." \
            "picked: 4.000 3.500"; do
  grep -qF -- "$line" "$tmp/scores_cpp.out" || { echo "example_test: scores_cpp lacks: $line"; cat "$tmp/scores_cpp.out"; exit 1; }
done
echo "example_test ($mode): ok"
