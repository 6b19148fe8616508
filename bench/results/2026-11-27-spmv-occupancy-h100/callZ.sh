#!/usr/bin/env bash
# Eighth session, call Z: spmv under bound_blocks_per_sm's shared memory (KB shared out
# among the blocks: KERB_BOUND_SHARED_KB, an experiment's override) and blocks an SM.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
K=build-carry/kerb
python3 bench/gen_data.py --out bench/data spmv > $OUT/gen.txt 2>&1
ab() { # NAME ENV... : one kerb bench process
  local name=$1; shift
  env "$@" timeout 60 $K bench bench/unproved/spmv.fut --device cuda --runs 30 --variant=--unsafe --variant=default \
    --variant='--unsafe --loop-blocks-per-sm=off' --variant='--loop-blocks-per-sm=off' \
    --variant='--unsafe --loop-blocks-per-sm=3' --variant='--loop-blocks-per-sm=3' \
    --variant='--unsafe --loop-blocks-per-sm=5' --variant='--loop-blocks-per-sm=5' > $OUT/spmv_$name.txt 2>&1
  echo "== $name $*"; grep -E "^\s+(--|default)" $OUT/spmv_$name.txt | sed -E 's/\(min.*runs\)//'
}
ab k98 KERB_BOUND_SHARED_KB=98
ab k64 KERB_BOUND_SHARED_KB=64
ab k32 KERB_BOUND_SHARED_KB=32
ab k16 KERB_BOUND_SHARED_KB=16
ab k130 KERB_BOUND_SHARED_KB=130
ab k98b KERB_BOUND_SHARED_KB=98
ab k64b KERB_BOUND_SHARED_KB=64
