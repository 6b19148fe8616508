#!/usr/bin/env bash
# Eighth session, call G (the bound only where rows average >= 8 elements): spmv at
# several row lengths, default (auto) against off and 4; the probe; the bounded corpus.
bash build-gpu/setup.sh > /tmp/setup.txt 2>&1
mkdir -p /tmp/r; K=build-carry/kerb
build-gpu/cuda_smoke > /tmp/r/smoke.txt 2>&1; echo "smoke rc $?" >> /tmp/r/smoke.txt
python3 bench/gen_data.py --out bench/data spmv > /tmp/r/gen.txt 2>&1
python3 build-gpu/spmv_shapes.py >> /tmp/r/gen.txt 2>&1
ab() { # NAME INPUT : one kerb bench process
  timeout 80 $K bench bench/unproved/spmv.fut --device cuda --runs 30 ${2:+--input "main=$2"} --variant=--unsafe --variant=default \
    --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
    --variant='--unsafe --loop-blocks-per-sm=4' --variant='--loop-blocks-per-sm=4' > /tmp/r/spmv_$1.txt 2>&1
  echo "== $1"; grep -E "^\s+(--|default)" /tmp/r/spmv_$1.txt | sed -E 's/\(min.*runs\)//'
}
ab main
ab short bench/data/spmv_short.in
ab r16 bench/data/spmv_16.in
ab r24 bench/data/spmv_24.in
ab long bench/data/spmv_long.in
timeout 60 $K test --device cuda tests/programs/failures/deferred_loop.fut tests/programs/control/loop_reads_arrays.fut \
  bench/unproved/spmv.fut > /tmp/r/corpus.txt 2>&1; echo "corpus rc $?" >> /tmp/r/corpus.txt
tar -czf $OUT/callG.tar.gz -C /tmp r
tail -3 /tmp/r/smoke.txt; tail -2 /tmp/r/corpus.txt
