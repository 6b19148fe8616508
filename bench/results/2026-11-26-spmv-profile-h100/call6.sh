#!/usr/bin/env bash
# Call 6 (sixth session): spmv's checked loop unrolled 2, 4 (the default), 8 or 16 times
# (experiment knob KERB_DEFERRED_UNROLL, not committed), and --deferred-loads=select.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
python3 bench/gen_data.py --scale full --out bench/data spmv nbr_stencil > $OUT/gen.txt 2>&1
for round in 1 2; do
  for u in 4 8 16 2; do
    echo "== round $round unroll $u" >> $OUT/exp.txt
    KERB_DEFERRED_UNROLL=$u build-carry/kerb bench bench/unproved/spmv.fut --device cuda --variant=--unsafe --variant=default \
      --variant=--deferred-loads=select --runs 60 --warmup 5 --time-budget 3 2>&1 | grep -E "^  " >> $OUT/exp.txt
  done
done
for u in 4 8; do
  echo "== nbr_stencil unroll $u" >> $OUT/exp.txt
  KERB_DEFERRED_UNROLL=$u build-carry/kerb bench bench/unproved/nbr_stencil.fut --device cuda --variant=--unsafe --variant=default \
    --runs 60 --warmup 5 --time-budget 3 2>&1 | grep -E "^  " >> $OUT/exp.txt
done
cat $OUT/exp.txt
