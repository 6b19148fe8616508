#!/usr/bin/env bash
# Walks every corpus program through every stage and fails on any internal compiler
# error or crash (issue 18: no internal compiler error on any program the type checker
# accepts). The stages: type checking (--emit=typed-ast), the interpreter on the
# program's test cases where it has any (kerb test), the core IR after lower_to_core and
# after each core pass (--dump-after=all, which prints each), the LLVM IR of the host
# code and the CPU and CUDA kernels (--emit=llvm), the kernel IR (--emit=kernels), and
# the PTX (--emit=ptx).
# A diagnostic (a type error, a construct the code generator does not support yet, a
# failing test case) is not what this test looks for: other tests judge those.
# Usage: all_stages.sh PATH/TO/kerb DIR|FILE...
set -uo pipefail
source "$(dirname "$0")/corpus.sh"
kerb=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=0 bad=0
# One stage of one program: fails when kerb crashed or reported a bug of its own.
stage() {
  local name=$1 f=$2
  shift 2
  "$kerb" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ge 128 ] || grep -qE "internal (compiler )?error" "$tmp/out"; then
    echo "FAIL $f ($name, exit status $rc): $(grep -m1 -E "internal|rror" "$tmp/out")"
    bad=$((bad + 1))
    return 1
  fi
  return 0
}
while IFS= read -r -d '' f; do
  programs=$((programs + 1))
  stage "type check" "$f" check --emit=typed-ast "$f" || continue
  # Only programs that type-check go further.
  "$kerb" check "$f" >/dev/null 2>&1 || continue
  if grep -q -- '^-- ==' "$f"; then stage "interpreter" "$f" test "$f" --device interp; fi
  stage "lower_to_core and the core passes, LLVM" "$f" check --emit=llvm --dump-after=all "$f"
  stage "kernel IR" "$f" check --emit=kernels "$f"
  stage "PTX" "$f" check --emit=ptx "$f"
done < <(corpus_programs "$@")
echo "all stages: $programs programs, $bad internal compiler errors or crashes"
[ "$programs" -gt 0 ] && [ "$bad" -eq 0 ]
