#!/usr/bin/env bash
# The SASS (the GPU's machine code) of every kernel of the given programs, compiled
# three ways (default checks, --unsafe, --deferred-checks=off as `branching`), with ptxas' register
# counts: for reading what checks cost on the machine's own instructions. Needs ptxas
# and cuobjdump (or nvdisasm) of a CUDA toolkit: on the lent GPU machine, or wherever
# they are installed (this machine's toolkit has ptxas only).
#
#   bash bench/dump_sass.sh OUT_DIR PROG.fut...      (KERB: the kerb binary, SM: sm_90)
#
# Writes OUT_DIR/NAME.VARIANT.sass and OUT_DIR/registers.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=${1:?usage: bench/dump_sass.sh OUT_DIR PROG.fut...}
shift
kerb=${KERB:-build-carry/kerb}
sm=${SM:-sm_90}
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
mkdir -p "$out"
: >"$out/registers.txt"
for prog in "$@"; do
  name=$(basename "$prog" .fut)
  for variant in default --unsafe --deferred-checks=off; do
    case $variant in default) tag=default ;; --unsafe) tag=unsafe ;; *) tag=branching ;; esac
    flags=()
    [ "$variant" = default ] || flags=("$variant")
    ptx="$out/$name.$tag.ptx"
    if ! "$kerb" check "$prog" --emit=ptx "${flags[@]}" >"$ptx" 2>"$out/$name.$tag.err"; then
      echo "$name $tag: kerb failed (see $name.$tag.err)" | tee -a "$out/registers.txt"
      continue
    fi
    rm -f "$out/$name.$tag.err"
    if ! "$ptxas" -arch="$sm" -v "$ptx" -o "$out/$name.$tag.cubin" 2>"$out/$name.$tag.ptxas"; then
      echo "$name $tag: ptxas failed" | tee -a "$out/registers.txt"
      continue
    fi
    # "Compiling entry function 'K'" then "Used N registers": one line per kernel.
    awk -v p="$name" -v v="$tag" '/Compiling entry function/ { k = $0; sub(/.*function .\047?/, "", k); sub(/\047.*/, "", k) }
      /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); print p, v, k, substr($0, RSTART + 5, RLENGTH - 15) }' \
      "$out/$name.$tag.ptxas" >>"$out/registers.txt"
    "$cuobjdump" -sass "$out/$name.$tag.cubin" >"$out/$name.$tag.sass" 2>&1 || echo "$name $tag: cuobjdump failed" >>"$out/registers.txt"
    rm -f "$out/$name.$tag.cubin" "$out/$name.$tag.ptxas"
  done
done
cat "$out/registers.txt"
