#!/usr/bin/env bash
# On the lent GPU machine (or anywhere): kerb difftest sharded over processes, for the
# records of issue 7. Runs SHARDS processes of `kerb difftest`, shard k on the programs
# SEED + k*PER .. SEED + (k+1)*PER - 1, each with --inputs INPUTS on DEVICES, all under
# one wall-clock limit (--time: no new program starts after it). Logs and reproducers go
# to $OUT/difftest-NAME/ (or /tmp/kerb-gpu); the last lines are a table and a total.
# DT_FLAGS adds options to every shard (e.g. "--no-shrink --max-reproducers 50").
#
# Usage: tests/gpu/run_gpu_difftest.sh KERB NAME DEVICES SEED PROGRAMS INPUTS SHARDS SECONDS
#   e.g. tests/gpu/run_gpu_difftest.sh build-carry/kerb gpu interp,cpu,cuda 100000 1000 10 8 240
set -uo pipefail
if [ $# -ne 8 ]; then
  echo "usage: $0 KERB NAME DEVICES SEED PROGRAMS INPUTS SHARDS SECONDS" >&2
  exit 2
fi
kerb=$1 name=$2 devices=$3 seed=$4 programs=$5 inputs=$6 shards=$7 seconds=$8
out=${OUT:-/tmp/kerb-gpu}/difftest-$name
mkdir -p "$out"
per=$(( (programs + shards - 1) / shards ))
start=$(date +%s)
pids=()
for ((k = 0; k < shards; k++)); do
  s=$((seed + k * per))
  n=$per
  if ((k * per + n > programs)); then n=$((programs - k * per)); fi
  ((n > 0)) || break
  "$kerb" difftest --seed "$s" --count "$n" --inputs "$inputs" --devices "$devices" \
    --time "$seconds" --out "$out/repro-$k" ${DT_FLAGS:-} >"$out/shard-$k.log" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
secs=$(( $(date +%s) - start ))
echo "| shard | summary |"
echo "|---|---|"
for ((k = 0; k < ${#pids[@]}; k++)); do
  echo "| $k | $(grep '^difftest:' "$out/shard-$k.log" | tail -1 || echo "no summary: $(tail -1 "$out/shard-$k.log")") |"
done
# Totals over the shards' summary lines ("... N pairs agree ... M differ ...").
python3 - "$out" "$name" "$devices" "$secs" "$status" <<'PY'
import glob, re, sys
out, name, devices, secs, status = sys.argv[1:]
keys = [("programs", r"(\d+) programs x"), ("pairs agree", r"(\d+) pairs agree"),
        ("same results", r"(\d+) same results"), ("same failure", r"(\d+) same failure"),
        ("another real failure", r"(\d+) another real failure"),
        ("reference-only failures in dead code", r"(\d+) reference-only failures in dead code"),
        ("differ", r"(\d+) differ"),
        ("programs not supported", r"(\d+) programs \(\d+ pairs\) not supported"),
        ("pairs not supported", r"\((\d+) pairs\) not supported"), ("invalid", r"(\d+) invalid programs")]
tot = {k: 0 for k, _ in keys}
worst = 0.0
missing = 0
for path in sorted(glob.glob(f"{out}/shard-*.log")):
    lines = [l for l in open(path, errors="replace") if l.startswith("difftest:")]
    if not lines:
        missing += 1
        continue
    for k, rx in keys:
        m = re.search(rx, lines[-1])
        tot[k] += int(m.group(1)) if m else 0
    m = re.search(r"worst float difference ([0-9.e+-]+|inf|nan) ulps", lines[-1])
    if m: worst = max(worst, float(m.group(1)))
print(f"difftest {name} ({devices}): " + ", ".join(f"{v} {k}" for k, v in tot.items()) +
      f", worst float difference {worst:g} ulps; {missing} shards without a summary; {secs} s wall; exit {status}")
PY
exit $status
