#!/usr/bin/env bash
# Eighth session, call V2: threads kernels looping over rows of their own run at most
# as many blocks an SM as keep their lines in the L1 (spmv: 3; --loop-blocks-per-sm).
# The occupancy probe (cuda_smoke), spmv at other bounds and row lengths, the corpus
# programs with such kernels, then the unproved group with peers.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
build-gpu/cuda_smoke > $OUT/smoke.txt 2>&1; echo "smoke rc $?" >> $OUT/smoke.txt
K=build-carry/kerb
python3 bench/gen_data.py --out bench/data spmv > $OUT/gen.txt 2>&1
python3 build-gpu/spmv_shapes.py >> $OUT/gen.txt 2>&1
ab() { # NAME INPUT : one kerb bench process
  timeout 80 $K bench bench/unproved/spmv.fut --device cuda --runs 30 ${2:+--input "$2"} --variant=--unsafe --variant=default \
    --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
    --variant='--unsafe --loop-blocks-per-sm=4' --variant='--loop-blocks-per-sm=4' \
    --variant='--unsafe --loop-blocks-per-sm=2' --variant='--loop-blocks-per-sm=2' > $OUT/spmv_$1.txt 2>&1
  echo "== $1"; grep -E "^\s+(--|default)" $OUT/spmv_$1.txt | sed -E 's/\(min.*runs\)//'
}
ab main
ab short bench/data/spmv_short.in
ab long bench/data/spmv_long.in
ab smallx bench/data/spmv_smallx.in
timeout 60 $K test --device cuda tests/programs/failures/deferred_loop.fut tests/programs/control/loop_reads_arrays.fut \
  bench/unproved/spmv.fut > $OUT/corpus.txt 2>&1; echo "corpus rc $?" >> $OUT/corpus.txt
OUT=/tmp/o/unproved SUITE_DEADLINE=250 bash bench/run_gpu_unproved.sh > /tmp/o_unproved.txt 2>&1
cp /tmp/o/unproved/table.md $OUT/unproved_table.md; tar -czf $OUT/unproved.tar.gz -C /tmp/o unproved
tail -7 $OUT/smoke.txt; tail -3 $OUT/corpus.txt; cat $OUT/gen.txt | tail -4; cat $OUT/unproved_table.md
