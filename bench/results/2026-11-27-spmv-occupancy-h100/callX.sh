#!/usr/bin/env bash
# Eighth session, call X: threads kernels that loop over rows of their own run at most
# 4 blocks an SM (--loop-blocks-per-sm). The occupancy probe (cuda_smoke), the
# unproved group with peers, spmv at other bounds, the corpus programs with such kernels.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
build-gpu/cuda_smoke > $OUT/smoke.txt 2>&1; echo "smoke rc $?" >> $OUT/smoke.txt
K=build-carry/kerb
OUT=/tmp/o/unproved SUITE_DEADLINE=270 bash bench/run_gpu_unproved.sh > /tmp/o_unproved.txt 2>&1
cp /tmp/o/unproved/table.md $OUT/unproved_table.md; tar -czf $OUT/unproved.tar.gz -C /tmp/o unproved
timeout 150 $K bench bench/unproved/spmv.fut --device cuda --runs 30 --variant=--unsafe --variant=default \
  --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
  --variant='--unsafe --loop-blocks-per-sm=6' --variant='--loop-blocks-per-sm=6' \
  --variant='--unsafe --loop-blocks-per-sm=2' --variant='--loop-blocks-per-sm=2' \
  --json $OUT/spmv_bounds.json > $OUT/spmv_bounds.txt 2>&1
timeout 60 $K test --device cuda tests/programs/failures/deferred_loop.fut tests/programs/control/loop_reads_arrays.fut \
  bench/unproved/spmv.fut > $OUT/corpus.txt 2>&1; echo "corpus rc $?" >> $OUT/corpus.txt
tail -3 $OUT/smoke.txt; tail -3 $OUT/corpus.txt; grep -v "^\s*$" $OUT/spmv_bounds.txt | tail -12; cat $OUT/unproved_table.md
