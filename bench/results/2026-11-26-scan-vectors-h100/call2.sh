#!/usr/bin/env bash
# Call 2 (sixth session): which part of the scan's 16-byte accesses costs (experiment
# knobs KERB_SCAN_EXP, not committed): global vectors, shared vectors (swizzled or
# padded as the prototype), plain vs .nc loads, blocks per SM; two rounds.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
python3 bench/gen_data.py --scale full --out bench/data scan > $OUT/gen.txt 2>&1
res=$OUT/exp.txt
for round in 1 2; do
  for x in none gvec svec "gvec,svec" "gvec,svec,ppad" "svec,ppad" "gvec,svec,ppad,plain" "gvec,svec,ppad,blocks=9" "gvec,svec,ppad,blocks=7" "blocks=7" "blocks=9"; do
    KERB_SCAN_EXP=$x build-carry/kerb bench bench/scan.fut --device cuda --runs 40 --warmup 3 --time-budget 2 > /tmp/o.txt 2>/tmp/e.txt
    echo "r$round $x | $(grep -o 'default *[0-9.]* ms' /tmp/o.txt | head -1) | $(grep -io 'output matched\|mismatch\|differ' /tmp/o.txt /tmp/e.txt | head -1)" >> $res
  done
  build-carry/kerb-cuda-bench scan_sp_128x24_delay --input bench/data/scan.in --runs 40 --warmup 3 --time-budget 2 > /tmp/h.txt 2>&1
  echo "r$round hand-written scan_sp_128x24_delay | $(grep -io 'median[^,;]*' /tmp/h.txt | head -1)" >> $res
done
cat /tmp/o.txt | tail -5
cat $res
