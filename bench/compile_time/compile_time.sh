#!/usr/bin/env bash
# Times `kerb compile` of program.fut (about 500 lines, 23 entry points) to each stage:
# the core IR, the LLVM IR and the PTX of its CUDA kernels; the best of three runs.
# Usage: bench/compile_time/compile_time.sh [PATH/TO/kerb]   (default: build/kerb)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kerb=${1:-$here/../../build/kerb}
prog=$here/program.fut
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "$(wc -l < "$prog") lines, $(grep -c '^entry' "$prog") entry points"
for stage in ir llvm ptx; do
  best=
  for _ in 1 2 3; do
    t=$( { /usr/bin/time -f '%e' "$kerb" compile "$prog" --emit=$stage -o "$out/p.$stage" ; } 2>&1 )
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  extra=
  [ "$stage" = ptx ] && extra=" ($(grep -c '^.visible .entry\|^.entry' "$out/p.ptx") kernels)"
  echo "--emit=$stage: ${best} s$extra"
done
