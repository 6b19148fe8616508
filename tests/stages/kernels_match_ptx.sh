#!/usr/bin/env bash
# The kernel IR (--emit=kernels, codegen/kernel_ir.h) lists the kernels the program gets:
# for every corpus program that compiles, the kernel functions named in the kernel IR
# (every version's, each as often as it is made) are exactly those of its PTX
# (kerb_kernel_<id>_<name>), except `copy`, the gather that makes a strided view
# contiguous where the host needs it (the kernel IR does not list those).
# Usage: kernels_match_ptx.sh PATH/TO/kerb DIR|FILE...
set -uo pipefail
source "$(dirname "$0")/corpus.sh"
kerb=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=0 bad=0
while IFS= read -r -d '' f; do
  "$kerb" check --emit=kernels "$f" >"$tmp/kernels" 2>/dev/null || continue
  "$kerb" check --emit=ptx "$f" >"$tmp/ptx" 2>/dev/null || continue
  programs=$((programs + 1))
  ir=$(sed -nE 's/^ *kernel ([a-z_]+):.*/\1/p' "$tmp/kernels" | sort | tr '\n' ' ')
  ptx=$(sed -nE 's/^\.visible \.entry kerb_kernel_[0-9]+_([a-z_]+)\(.*/\1/p' "$tmp/ptx" | grep -vx copy | sort |
        tr '\n' ' ')
  if [ "$ir" != "$ptx" ]; then
    echo "FAIL $f: the kernel IR lists [$ir], the PTX has [$ptx]"
    bad=$((bad + 1))
  fi
done < <(corpus_programs "$@")
echo "kernels match the PTX: $programs programs, $bad differ"
[ "$programs" -gt 0 ] && [ "$bad" -eq 0 ]
