#!/usr/bin/env bash
# On the lent GPU machine: the codegen issue's bandwidth goal. Times (KERB_PROFILE=1,
# device events around every launch) a map over 2^26 f32 and a sum over 2^26 f32 from
# bench/bandwidth.fut, and the device-to-device copy rate measured in the same process.
# Usage: tests/gpu/run_gpu_bandwidth.sh [KERB]   (writes under $OUT or /tmp/kerb-gpu)
set -uo pipefail
kerb=${1:-build-carry/kerb}
out=${OUT:-/tmp/kerb-gpu}
mkdir -p "$out"
python3 -c "
import numpy as np
np.save('$out/xs.npy', np.random.default_rng(1).random(1 << 26, dtype=np.float32))
open('$out/reps.txt', 'w').write('10')
"
for entry in map_scale sum; do
  KERB_PROFILE=1 "$kerb" run bench/bandwidth.fut -e "$entry" --device cuda \
    --input "$out/reps.txt" --input "$out/xs.npy" --npy-out "$out/result_$entry" \
    2>"$out/profile_$entry.txt"
  echo "== $entry (exit $?)"
  cat "$out/profile_$entry.txt"
done
python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
n = 1 << 26
def parse(entry):
    text = open(f"{out}/profile_{entry}.txt").read()
    copy = float(re.search(r"rate_GBps ([0-9.]+)", text).group(1))
    kernels = {m.group(1): float(m.group(2)) for m in re.finditer(r"kernel (\S+) launches \d+ median_ms ([0-9.]+)", text)}
    return copy, kernels
copy, k = parse("map_scale")
map_ms = next(v for name, v in k.items() if "_map" in name)
map_rate = 2 * 4 * n / (map_ms * 1e6)
copy2, k2 = parse("sum")
red_ms = sum(v for name, v in k2.items() if "reduce" in name)
red_rate = 4 * n / (red_ms * 1e6)
print("| kernel | median ms | GB/s | % of copy rate |")
print("|---|---|---|---|")
print(f"| copy (d2d, 256 MiB) | - | {copy:.0f} | 100% |")
print(f"| map x*1.0001+0.5 over 2^26 f32 (read+write) | {map_ms:.3f} | {map_rate:.0f} | {100*map_rate/copy:.0f}% |")
print(f"| sum over 2^26 f32 (both passes) | {red_ms:.3f} | {red_rate:.0f} | {100*red_rate/copy2:.0f}% |")
PY
