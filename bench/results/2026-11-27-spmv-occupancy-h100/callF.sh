#!/usr/bin/env bash
# Eighth session, call F (kerb 0f959cc, the final code; 31eb168 differs in comments and
# help text only): the unproved group with peers again.
bash build-gpu/setup.sh > /tmp/setup.txt 2>&1
OUT=/tmp/o/unproved SUITE_DEADLINE=280 bash bench/run_gpu_unproved.sh > /tmp/o_unproved.txt 2>&1
cp /tmp/o/unproved/table.md /tmp/o/unproved_table.md
tar -czf $OUT/callF.tar.gz -C /tmp/o .
cat /tmp/o/unproved_table.md
