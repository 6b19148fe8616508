#!/usr/bin/env bash
# Seventh session, call S: the staged kernels (a block per product, Note [Small elements
# staged in shared memory]): the nested programs (default = staged, --stage-max=off =
# the 2-D tiles, JAX, PyTorch), the staged corpus on cuda, compute-sanitizer.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
{
  echo "== kerb test --device cuda (staged, nested3, batched)"
  timeout 120 build-carry/kerb test --device cuda tests/programs/soacs/map_nested3_staged.fut \
    tests/programs/soacs/map_nested3.fut tests/programs/soacs/map_nested3_rows.fut bench/batched_matmul.fut 2>&1 | grep -v "^PASS" | tail -15
  echo "== the same with --stage-max=off"
  timeout 60 build-carry/kerb test --device cuda --stage-max=off tests/programs/soacs/map_nested3_staged.fut 2>&1 | tail -2
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer $tool: map_nested3_staged.fut"
    timeout 100 compute-sanitizer --tool $tool --print-limit 5 build-carry/kerb test --device cuda \
      tests/programs/soacs/map_nested3_staged.fut 2>&1 | tail -4
  done
} > $OUT/corpus_cuda.txt 2>&1
OUT=/tmp/o/nested SUITE_DEADLINE=150 bash bench/run_gpu_nested.sh > /tmp/o_nested.txt 2>&1
tar -czf $OUT/nested.tar.gz -C /tmp/o nested
cp /tmp/o/nested/table.md $OUT/nested_table.md
cat $OUT/corpus_cuda.txt
cat /tmp/o/nested/table.md
