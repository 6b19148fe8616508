#!/usr/bin/env bash
# Runs ptxas on the PTX that Kerb emits for every program of a corpus, checked and
# --unsafe: every PTX must be accepted. Programs the code generator does not support yet
# are counted apart. Usage: ptxas_corpus.sh PATH/TO/kerb DIR [PTXAS] [ARCH]
# Prints one line per rejected program and a summary; with no ptxas it says SKIP.
set -uo pipefail
kerb=$1
dir=$2
ptxas=${3:-/usr/local/cuda/bin/ptxas}
arch=${4:-sm_90}
if [ ! -x "$ptxas" ]; then
  echo "SKIP: no ptxas at $ptxas (the CUDA toolkit is not installed)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok=0 bad=0 unsupported=0
while IFS= read -r -d '' f; do
  for mode in checked unsafe; do
    flags=()
    [ "$mode" = unsafe ] && flags=(--unsafe)
    if ! "$kerb" check --emit=ptx "${flags[@]}" "$f" >"$tmp/k.ptx" 2>"$tmp/err"; then
      if grep -q "does not support" "$tmp/err"; then
        unsupported=$((unsupported + 1))
      else
        echo "FAIL ($mode): kerb check --emit=ptx $f: $(head -1 "$tmp/err")"
        bad=$((bad + 1))
      fi
      continue
    fi
    if "$ptxas" -arch="$arch" "$tmp/k.ptx" -o /dev/null 2>"$tmp/perr"; then
      ok=$((ok + 1))
    else
      echo "FAIL ($mode): ptxas rejects the PTX of $f: $(head -3 "$tmp/perr")"
      bad=$((bad + 1))
    fi
  done
done < <(find "$dir" -name '*.fut' -print0 | sort -z)
echo "ptxas -arch=$arch: $ok accepted, $bad rejected, $unsupported not supported by the code generator yet"
[ "$bad" -eq 0 ]
