#!/usr/bin/env bash
# Eighth session, call Y: spmv under bound_blocks_per_sm's shared memory choices.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
build-gpu/cuda_smoke > $OUT/smoke.txt 2>&1; echo "smoke rc $?" >> $OUT/smoke.txt
K=build-carry/kerb
python3 bench/gen_data.py --out bench/data spmv > $OUT/gen.txt 2>&1
ab() { # NAME ENV... : one kerb bench process
  local name=$1; shift
  env "$@" timeout 60 $K bench bench/unproved/spmv.fut --device cuda --runs 30 --variant=--unsafe --variant=default \
    --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
    --variant='--unsafe --loop-blocks-per-sm=6' --variant='--loop-blocks-per-sm=6' > $OUT/spmv_$name.txt 2>&1
  echo "== $name $*"; grep -E "^\s+(--|default)" $OUT/spmv_$name.txt
}
ab k160 X=1
ab k130 KERB_BOUND_SHARED_KB=130
ab k100 KERB_BOUND_SHARED_KB=98
ab k190 KERB_BOUND_SHARED_KB=190
ab k160b X=1
tail -4 $OUT/smoke.txt
