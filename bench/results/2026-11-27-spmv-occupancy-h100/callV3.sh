#!/usr/bin/env bash
# Eighth session, call V3: spmv at other row lengths (auto, 4, 2, off), spmv again, and
# the suite (whose kernels have no bound: nothing should move).
bash build-gpu/setup.sh > /tmp/setup.txt 2>&1
mkdir -p /tmp/r; K=build-carry/kerb
python3 bench/gen_data.py --out bench/data spmv > /tmp/r/gen.txt 2>&1
python3 build-gpu/spmv_shapes.py >> /tmp/r/gen.txt 2>&1
ab() { # NAME INPUT : one kerb bench process
  timeout 80 $K bench bench/unproved/spmv.fut --device cuda --runs 30 ${2:+--input "main=$2"} --variant=--unsafe --variant=default \
    --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
    --variant='--unsafe --loop-blocks-per-sm=4' --variant='--loop-blocks-per-sm=4' \
    --variant='--unsafe --loop-blocks-per-sm=2' --variant='--loop-blocks-per-sm=2' > /tmp/r/spmv_$1.txt 2>&1
  echo "== $1"; grep -E "^\s+(--|default)" /tmp/r/spmv_$1.txt | sed -E 's/\(min.*runs\)//'
}
ab short bench/data/spmv_short.in
ab long bench/data/spmv_long.in
ab smallx bench/data/spmv_smallx.in
ab main
OUT=/tmp/o/suite SUITE_DEADLINE=330 bash bench/run_gpu_suite.sh > /tmp/o_suite.txt 2>&1
cp /tmp/o/suite/table.md /tmp/r/suite_table.md
tar -czf $OUT/callV3.tar.gz -C /tmp r o
cat /tmp/r/suite_table.md | tail -30
