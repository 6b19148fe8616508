#!/usr/bin/env bash
# Eighth session, call D (after ded3e8c, the bound on loops over rows): the corpus on
# cuda, compute-sanitizer on the programs with bounded kernels, kerb difftest on cuda.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
{
  echo "== kerb test --device cuda tests/programs bench/unproved"
  timeout 200 build-carry/kerb test --device cuda tests/programs bench/unproved 2>&1 | grep -v "^PASS" | tail -8
  echo "== compute-sanitizer memcheck, racecheck: the bounded kernels"
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --print-limit 5 build-carry/kerb test --device cuda \
      tests/programs/failures/deferred_loop.fut tests/programs/control/loop_reads_arrays.fut 2>&1 | tail -2
  done
} > $OUT/corpus_cuda.txt 2>&1
export OUT_ROOT=$OUT
OUT=/tmp/o/dt1 DT_FLAGS="--no-shrink --max-reproducers 20" \
  bash tests/gpu/run_gpu_difftest.sh build-carry/kerb loops interp,cuda 800000 1600 12 14 200 > /tmp/o_dt1.txt 2>&1
cp /tmp/o_dt1.txt $OUT_ROOT/difftest.txt
tar -czf $OUT_ROOT/difftest.tar.gz -C /tmp/o dt1
cat $OUT_ROOT/corpus_cuda.txt
tail -4 /tmp/o_dt1.txt
