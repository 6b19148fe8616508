#!/usr/bin/env bash
# shellcheck disable=SC2154
# The hand-written scan prototypes of bench/cuda/scan_variants.cu (issue 17: a scan at
# >= 0.95x of torch.cumsum; Note [Scan variants]) on the lent GPU, in one call of under
# 200 s on an H100: which design reaches CUB's speed, before codegen/scan_kernels.cpp
# is changed. Run from a checkout that carries build-carry/ (bench/cuda/build.sh
# build-carry; kerb in it is optional); nothing is built here.
#
#   bash bench/run_gpu_scan_variants.sh
#
# 1. the device's state; scan's input and expected result (bench/gen_data.py scan, 2^26
#    i32), and inputs of 10^7 + 3, 1001 and 1 elements (partial tiles and warps, a
#    tail that is not a whole vector);
# 2. torch.cumsum (bench/peers/suite_peers.py torch scan), checked; `kerb bench
#    bench/scan.fut` (reduce-then-scan and --scan-single-pass-min=1, interleaved)
#    where build-carry/kerb is there, for today's numbers on the same machine;
# 3. ROUNDS rounds (default 2) of every variant (kerb-cuda-bench NAME, RUNS timed
#    calls; the variant list below: the suite's `scan`, the scan_* prototypes and
#    scan_sp_256x16 with CUB's delays, KCB_SCAN_DELAY=1245,648), every call's result
#    compared with the expected one on the device (the run fails at the first wrong
#    call), round 1's last also by bench/check_results.py against gen_data's;
# 4. the small inputs (20 calls each) and a stress run of STRESS calls (default 500)
#    of each single-pass variant on 2^26, every call checked;
# 5. a table of medians (ms) per round, the rate (512 MB read and written), the speed
#    against torch.cumsum (the goal: >= 0.95x) and the checks, printed last and written
#    to table.md.
#
# Under $OUT (or /tmp/kerb-scan-variants-out): table.md, log.txt, device.txt, checks.txt
# and raw.tar.gz (every report). Settings (environment): RUNS (default 50), WARMUP (5),
# BUDGET (seconds of timed runs per variant, 3), ROUNDS (2), STRESS (500),
# SUITE_DEADLINE (190), CUDA_BENCH, KERB, PYTHON, PEERS ("torch"; "jax torch" adds
# jnp.cumsum; empty for none). SUITE_DEVICE=cpu with SUITE_SCALE=small is a dry run of
# the plumbing on a machine with no GPU (inputs, kerb on the CPU, the table).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# The variants, in the order of the table: the suite's reduce-then-scan
# (bench/cuda/reductions.cu), then bench/cuda/scan_variants.cu's. NAME, or NAME@A,S:
# NAME with KCB_SCAN_DELAY=A,S, labelled NAME_delayA_S.
variants=(scan scan_rts_256x16 scan_sp_256x8 scan_sp_256x12 scan_sp_256x16 scan_sp_256x20 scan_sp_512x16
  scan_sp_128x24_delay "scan_sp_256x16@1245,648" scan_sp_256x16_memset)

# run_settings, begin_run, say, cap, late, device_info, gen_inputs, handwritten, run_peers
source bench/gpu_common.sh
: "${RUNS:=50}" "${WARMUP:=5}" "${SUITE_DEADLINE:=190}" "${PEERS=torch}"
rounds=${ROUNDS:-2}
stress=${STRESS:-500}
run_settings kerb-scan-variants
begin_run run_gpu_scan_variants.sh kerb-scan-variants kerb-optional

table() {
  "$python" - "$raw" "$out/checks.txt" >"$out/table.md" 2>>"$log" <<'PY'
import json, os, re, sys
raw, checks_path = sys.argv[1], sys.argv[2]
BYTES = 2 * 4 * (1 << 26)  # read once, written once
rows = {}  # label -> {round: median ms}
outcome = {}  # label -> kerb's or the peers' own check of the result
for f in sorted(os.listdir(raw)):
    if not f.endswith(".json"):
        continue
    d = json.load(open(os.path.join(raw, f)))
    for b in d.get("benchmarks", []):
        vs = b["variants"]
        for v in (vs if isinstance(vs, list) else vs.values()):
            if v.get("status", "ok") != "ok" or v.get("median_ms") is None:
                continue
            m = re.fullmatch(r"cuda_(.+)_r(\d+)\.json", f)
            if m:
                rows.setdefault(m.group(1), {})[int(m.group(2))] = v["median_ms"]
            elif f.startswith(("kerb_", "peers_")):
                label = ("kerb " if f.startswith("kerb_") else "") + v["flags"]
                rows.setdefault(label, {})[1] = v["median_ms"]
                outcome[label] = str(v.get("check", v.get("outcome", "")))
checks = open(checks_path).read() if os.path.exists(checks_path) else ""
def check_of(label):
    if label in outcome:
        return outcome[label]
    mine = [l.split() for l in checks.splitlines()]
    mine = [w[0] for w in mine if len(w) > 1 and w[1] == label]
    return f"{mine.count('ok')} of {len(mine)} ok" if mine else ""
torch = min(rows.get("torch eager", {}).values(), default=None)
nrounds = max((len(r) for r in rows.values()), default=1)
head = " | ".join(f"round {k} ms" for k in range(1, nrounds + 1))
print(f"| variant | {head} | best ms | GB/s | vs torch.cumsum (goal >= 0.95x) | checks |")
print("|---|" + "---|" * nrounds + "---|---|---|---|")
for label, r in sorted(rows.items(), key=lambda kv: min(kv[1].values())):
    best = min(r.values())
    cells = " | ".join(f"{r[k]:.4f}" if k in r else "-" for k in range(1, nrounds + 1))
    vs = f"{torch / best:.3f}x" if torch else "-"
    print(f"| {label} | {cells} | {best:.4f} | {BYTES / best / 1e6:.0f} | {vs} | {check_of(label)} |")
PY
  tar -czf "$out/raw.tar.gz" -C "$work" raw 2>>"$log"
}

# ---- inputs ------------------------------------------------------------------------------
data=bench/data
[ "$device" = cuda ] || data=$work/data
gen_inputs scan
"$python" - "$data" <<'PY' >>"$log" 2>&1 || say "the small inputs failed (log.txt)"
import os, sys
import numpy as np
sys.path.insert(0, "bench")
from futhark_data import write_values
rng = np.random.default_rng(17)
for name, n in (("scan_odd", 10**7 + 3), ("scan_1001", 1001), ("scan_1", 1)):
    write_values(os.path.join(sys.argv[1], name + ".in"), [rng.integers(-1000, 1000, n, dtype=np.int32)])
print("small inputs written")
PY
: >"$out/checks.txt"

# ---- torch.cumsum ----------------------------------------------------------------------------
[ "$device" = cuda ] && run_peers suite_peers.py scan

# ---- Kerb today ----------------------------------------------------------------------------
if [ "$have_kerb" = 1 ] && ! late; then
  say "kerb bench scan (default, --scan-single-pass-min=1)"
  fut_dir=$(programs_dir bench)
  timeout "$(cap 60)" "$kerb" bench "$fut_dir/scan.fut" --device "$device" --variant=default \
    --variant=--scan-single-pass-min=1 --runs "$runs" --warmup "$warmup" --time-budget "$budget" \
    --json "$raw/kerb_scan.json" >>"$log" 2>&1 || say "kerb bench scan exited with $?"
fi

# ---- the variants, ROUNDS rounds, timed and checked -----------------------------------------
if [ "$have_cuda_bench" = 1 ]; then
  for ((r = 1; r <= rounds; r++)); do
    say "round $r of $rounds: ${variants[*]}"
    for v in "${variants[@]}"; do
      late && break 2
      name=${v%%@*} delay='' tag=$v
      if [ "$v" != "$name" ]; then
        delay=${v#*@}
        tag=${name}_delay${delay//,/_}
      fi
      if [ "$r" = 1 ]; then # its result also checked against gen_data's
        KCB_SCAN_DELAY=$delay handwritten "$name" scan main "${tag}_r$r" "$tag"
      else
        KCB_SCAN_DELAY=$delay timeout "$(cap 60)" "$cudabench" "$name" --input "$data/scan.in" --runs "$runs" \
          --warmup "$warmup" --time-budget "$budget" --json "$raw/cuda_${tag}_r$r.json" >>"$log" 2>&1 ||
          echo "FAILED $tag round $r (log.txt)" >>"$raw/checks.txt"
      fi
    done
  done
  cat "$raw/checks.txt" >>"$out/checks.txt" 2>/dev/null

  say "small inputs and stress ($stress calls of each single pass on 2^26), every call checked"
  for v in "${variants[@]}"; do
    late && break
    name=$v
    case $name in *@*) continue ;; scan_sp_* | scan_rts_*) ;; *) continue ;; esac # those that check every call
    for f in scan_odd scan_1001 scan_1; do
      if timeout "$(cap 30)" "$cudabench" "$name" --input "$data/$f.in" --runs 20 --warmup 0 >/dev/null 2>>"$log"; then
        echo "ok $v $f (20 calls)" >>"$out/checks.txt"
      else
        echo "FAILED $v $f (log.txt)" >>"$out/checks.txt"
      fi
    done
    case $name in scan_sp_*) ;; *) continue ;; esac
    if timeout "$(cap 40)" "$cudabench" "$name" --input "$data/scan.in" --runs "$stress" --warmup 0 \
      --json "$raw/stress_$name.json" 2>>"$log" >/dev/null; then
      echo "ok $v stress ($stress calls)" >>"$out/checks.txt"
    else
      echo "FAILED $v stress (log.txt)" >>"$out/checks.txt"
    fi
  done
  say "checks: $(grep -c '^ok' "$out/checks.txt") ok, $(grep -vc '^ok' "$out/checks.txt") not"
fi

say "summary"
table
say "done: $out (table.md, log.txt, device.txt, checks.txt, raw.tar.gz)"
echo
cat "$out/checks.txt"
echo
cat "$out/table.md" 2>/dev/null
