#!/usr/bin/env bash
# Call F (sixth session): spmv with a prefetch of each hoisted-check array's first line
# (experiment knob KERB_PREFETCH: 1 = L2, 2 = L1; never committed).
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
python3 bench/gen_data.py --scale full --out bench/data spmv > $OUT/gen.txt 2>&1
for round in 1 2; do
  for p in none 1 2; do
    echo "== round $round prefetch $p" >> $OUT/exp.txt
    if [ $p = none ]; then unset KERB_PREFETCH; else export KERB_PREFETCH=$p; fi
    build-carry/kerb bench bench/unproved/spmv.fut --device cuda --variant=--unsafe --variant=default \
      --runs 60 --warmup 5 --time-budget 3 2>&1 | grep -E "^  " >> $OUT/exp.txt
  done
done
cat $OUT/exp.txt
