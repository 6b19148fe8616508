#!/usr/bin/env bash
# Seventh session, call T: the epilogue of the block and register tiles (LUD's update)
# and the staged batched products: corpus on cuda with sanitizers, the LUD-like update
# at 2048 (default, --block-tile-min=off, PyTorch's a - l @ u), then kerb difftest with
# the large inputs' strategies (--stage-min-outputs=1 and --block-tile-min=1 so that
# the generated programs' small products take the staged and tiled kernels).
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
{
  echo "== kerb test --device cuda (tiled, staged, nested3)"
  timeout 150 build-carry/kerb test --device cuda tests/programs/tiled tests/programs/soacs/map_nested3_staged.fut \
    tests/programs/soacs/map_nested3.fut tests/programs/soacs/map_nested3_rows.fut 2>&1 | grep -v "^PASS" | tail -8
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer $tool: tiled/epilogue.fut"
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 build-carry/kerb test --device cuda \
      tests/programs/tiled/epilogue.fut 2>&1 | tail -3
  done
} > $OUT/corpus_cuda.txt 2>&1
{
  echo "== lud 2048: kerb bench (default, --unsafe, --block-tile-min=off)"
  timeout 120 build-carry/kerb bench --device cuda build-gpu/lud.fut --runs 20 --variant=default --variant=--unsafe \
    --variant=--block-tile-min=off 2>&1 | tail -8
  python3 build-gpu/lud_torch.py 2>&1 | tail -2
} > $OUT/lud.txt 2>&1
export OUT_ROOT=$OUT
OUT=/tmp/o/dt1 DT_FLAGS="--row-block-min=1 --block-tile-min=1 --stage-min-outputs=1 --scan-single-pass-min=1 --no-shrink --max-reproducers 20" \
  bash tests/gpu/run_gpu_difftest.sh build-carry/kerb staged interp,cuda 600000 800 16 14 200 > /tmp/o_dt1.txt 2>&1
cp /tmp/o_dt1.txt $OUT_ROOT/difftest_staged.txt
tar -czf $OUT_ROOT/difftest.tar.gz -C /tmp/o dt1
cat $OUT_ROOT/corpus_cuda.txt $OUT_ROOT/lud.txt
tail -8 /tmp/o_dt1.txt
