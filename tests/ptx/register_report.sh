#!/usr/bin/env bash
# Registers per kernel, checked (default checks) vs --unsafe, as ptxas reports them
# (BENCHMARKS.md "Registers"; issue 5's goal: median increase <= 1). For every program
# given (files, or folders searched for *.fut) it emits the PTX both ways
# (`kerb check --emit=ptx`, every entry point), assembles each with `ptxas -v`, pairs
# the kernels by name and writes a Markdown table (program, kernel, registers unsafe,
# checked, difference) and a summary (kernels, median/mean/max increase, kernels that
# grow by more than one register). Programs the code generator does not support yet
# are listed apart.
#
# Usage: register_report.sh PATH/TO/kerb [--ptxas PTXAS] [--arch sm_90] [--max-median N]
#                           [--max-increase N] [--out FILE] PROGRAM|DIR...
# The report goes to FILE (or stdout); the summary line is printed last on stderr as
# well. With --max-median N the script fails when the median increase is above N, with
# --max-increase N when some kernel grows by more than N (for CI); without them, only
# when a PTX is rejected or a kernel is missing in one variant.
# With no ptxas it says SKIP and succeeds.
set -uo pipefail
export LC_ALL=C
kerb=$1
shift
ptxas=/usr/local/cuda/bin/ptxas
arch=sm_90
max_median=
max_increase=
out=
inputs=()
while [ $# -gt 0 ]; do
  case $1 in
  --ptxas) ptxas=$2; shift 2 ;;
  --arch) arch=$2; shift 2 ;;
  --max-median) max_median=$2; shift 2 ;;
  --max-increase) max_increase=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) inputs+=("$1"); shift ;;
  esac
done
if [ ! -x "$ptxas" ]; then
  echo "SKIP: no ptxas at $ptxas (the CUDA toolkit is not installed)"
  exit 0
fi
if [ ${#inputs[@]} -eq 0 ]; then
  echo "usage: register_report.sh KERB [--ptxas P] [--arch A] [--max-median N] [--max-increase N] [--out F] PROGRAM|DIR..." >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ptxas -v's lines for one PTX -> "kernel registers" lines (entry functions only).
regs_of() {
  awk '/Compiling entry function/ { match($0, /'"'"'[^'"'"']*'"'"'/); k = substr($0, RSTART + 1, RLENGTH - 2) }
       /Used [0-9]+ registers/ && k != "" { for (i = 1; i <= NF; i++) if ($i == "Used") print k, $(i + 1); k = "" }' "$1"
}

programs=()
for p in "${inputs[@]}"; do
  if [ -d "$p" ]; then
    while IFS= read -r -d '' f; do programs+=("$f"); done < <(find "$p" -name '*.fut' -print0 | sort -z)
  else
    programs+=("$p")
  fi
done

rows=$tmp/rows.tsv unsupported=$tmp/unsupported.txt errors=$tmp/errors.txt
: >"$rows"; : >"$unsupported"; : >"$errors"
for f in "${programs[@]}"; do
  ok=1
  for mode in checked unsafe; do
    flags=()
    [ "$mode" = unsafe ] && flags=(--unsafe)
    if ! "$kerb" check --emit=ptx "${flags[@]}" "$f" >"$tmp/$mode.ptx" 2>"$tmp/err"; then
      if grep -q "does not support" "$tmp/err"; then
        echo "$f: $(grep -m1 'does not support' "$tmp/err")" >>"$unsupported"
      elif grep -q "error:" "$tmp/err" && ! grep -q "^\.visible" "$tmp/$mode.ptx"; then
        # Programs that must fail to compile (a lone `-- error:` case) have no PTX.
        echo "$f: does not compile ($(grep -m1 'error' "$tmp/err"))" >>"$unsupported"
      else
        echo "$f ($mode): kerb failed: $(head -1 "$tmp/err")" >>"$errors"
      fi
      ok=0
      break
    fi
    if ! "$ptxas" -v -arch="$arch" "$tmp/$mode.ptx" -o /dev/null >"$tmp/$mode.log" 2>&1; then
      echo "$f ($mode): ptxas rejects the PTX: $(grep -m1 -i error "$tmp/$mode.log")" >>"$errors"
      ok=0
      break
    fi
    regs_of "$tmp/$mode.log" | sort >"$tmp/$mode.regs"
  done
  [ "$ok" = 1 ] || continue
  # Pair by name: kernel, unsafe registers, checked registers ("-" when missing).
  join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/unsafe.regs" "$tmp/checked.regs" |
    while read -r k u c; do printf '%s\t%s\t%s\t%s\n' "$f" "$k" "$u" "$c"; done >>"$rows"
done

report=$(python3 - "$rows" "$unsupported" "$errors" "$arch" "${max_median:-}" "${max_increase:-}" <<'PY'
import statistics, sys
rows_path, unsup_path, err_path, arch, max_median, max_increase = sys.argv[1:7]
rows = [l.rstrip("\n").split("\t") for l in open(rows_path) if l.strip()]
unsupported = [l.rstrip("\n") for l in open(unsup_path) if l.strip()]
errors = [l.rstrip("\n") for l in open(err_path) if l.strip()]
out = []
out.append(f"| program | kernel | regs --unsafe | regs checked | diff |")
out.append("|---|---|---|---|---|")
diffs, unpaired = [], []
for prog, kernel, u, c in rows:
    if u == "-" or c == "-":
        unpaired.append(f"{prog} {kernel} (unsafe {u}, checked {c})")
        d = "-"
    else:
        d = int(c) - int(u)
        diffs.append((d, prog, kernel))
    out.append(f"| {prog} | {kernel} | {u} | {c} | {d if d == '-' else f'{d:+d}'} |")
out.append("")
vals = [d for d, _, _ in diffs]
if vals:
    summary = (f"{len(vals)} kernels in {len({p for _, p, _ in diffs})} programs (ptxas -arch={arch}): "
               f"register increase median {statistics.median(vals):+g}, "
               f"mean {statistics.mean(vals):+.2f}, max {max(vals):+d}, min {min(vals):+d}; "
               f"{sum(1 for v in vals if v > 1)} kernels grow by more than 1, "
               f"{sum(1 for v in vals if v > 0)} grow at all")
else:
    summary = "no kernels measured"
out.append("Summary: " + summary)
big = sorted((d for d in diffs if d[0] > 1), reverse=True)
if big:
    out.append("")
    out.append("Kernels that grow by more than 1 register:")
    for d, p, k in big:
        out.append(f"- {p} {k}: {d:+d}")
for title, items in (("Kernels in only one variant", unpaired),
                     ("Not measured (not supported by the code generator, or not a program)", unsupported),
                     ("Errors", errors)):
    if items:
        out.append("")
        out.append(f"{title}:")
        out.extend(f"- {i}" for i in items)
print("\n".join(out))
fail = bool(errors or unpaired)
if max_median and vals and statistics.median(vals) > float(max_median):
    print(f"FAIL: median register increase {statistics.median(vals):+g} > {max_median}", file=sys.stderr)
    fail = True
if max_increase and vals and max(vals) > int(max_increase):
    print(f"FAIL: a kernel grows by {max(vals):+d} registers > {max_increase}", file=sys.stderr)
    fail = True
if errors or unpaired:
    print(f"FAIL: {len(errors)} errors, {len(unpaired)} unpaired kernels", file=sys.stderr)
print("Summary: " + summary, file=sys.stderr)
sys.exit(1 if fail else 0)
PY
)
status=$?
if [ -n "$out" ]; then printf '%s\n' "$report" >"$out"; else printf '%s\n' "$report"; fi
exit $status
