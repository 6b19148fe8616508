#!/usr/bin/env bash
# Call 14: one block per row with ptxas asked for 6 or 8 blocks an SM (KERB_RB_BPS, an
# experiment's switch, not committed) against none, alternating processes, 3 rounds.
set -u
bash build-gpu/setup.sh > /dev/null
o=/tmp/o14; mkdir -p $o
for p in softmax layernorm row_scan; do timeout 120 python3 bench/gen_data.py --scale full --group rows --out bench/data $p > $o/gen_$p.log 2>&1 & done; wait
for r in 1 2 3; do for b in 0 6 8; do for p in softmax layernorm row_scan; do
  KERB_RB_BPS=$b timeout 40 build-carry/kerb bench bench/$p.fut --device cuda --runs 30 --warmup 3 --time-budget 1.5 > $o/${p}_${b}_$r.log 2>&1
done; done; done
tar -czf $OUT/call14.tgz -C /tmp o14
for p in softmax layernorm row_scan; do for b in 0 6 8; do echo "$p bps=$b: $(grep -hE '^\s+default' $o/${p}_${b}_*.log | awk '{print $2}' | tr '\n' ' ')"; done; done
