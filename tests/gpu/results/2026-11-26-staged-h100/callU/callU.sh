#!/usr/bin/env bash
# Seventh session, call U (after 3f4ee41's fix): the corpus of the new shapes and the
# fixed one on cuda, then kerb difftest again over call T's seeds (600000-600799, where
# program 600521 was an internal error) and 400 new ones, the same flags.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
{
  echo "== kerb test --device cuda (tiled, rowblock, staged)"
  timeout 150 build-carry/kerb test --device cuda tests/programs/tiled tests/programs/rowblock \
    tests/programs/soacs/map_nested3_staged.fut 2>&1 | grep -v "^PASS" | tail -8
  echo "== compute-sanitizer memcheck, racecheck: rowblock/fused_assert.fut"
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 build-carry/kerb test --device cuda \
      tests/programs/rowblock/fused_assert.fut 2>&1 | tail -2
  done
} > $OUT/corpus_cuda.txt 2>&1
export OUT_ROOT=$OUT
OUT=/tmp/o/dt1 DT_FLAGS="--row-block-min=1 --block-tile-min=1 --stage-min-outputs=1 --scan-single-pass-min=1 --no-shrink --max-reproducers 20" \
  bash tests/gpu/run_gpu_difftest.sh build-carry/kerb staged interp,cuda 600000 1200 16 14 230 > /tmp/o_dt1.txt 2>&1
cp /tmp/o_dt1.txt $OUT_ROOT/difftest_staged.txt
tar -czf $OUT_ROOT/difftest.tar.gz -C /tmp/o dt1
cat $OUT_ROOT/corpus_cuda.txt
tail -3 /tmp/o_dt1.txt
