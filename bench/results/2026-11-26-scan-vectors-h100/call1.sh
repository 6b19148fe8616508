#!/usr/bin/env bash
# Call 1 (sixth session): the single-pass scan with 16-byte accesses against
# --scan-vectors=off, reduce-then-scan, the hand-written prototype and torch.cumsum.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
OUT=$OUT/scan SUITE_DEADLINE=285 bash bench/run_gpu_scan.sh > $OUT/scan_stdout.txt 2>&1
tail -30 $OUT/scan_stdout.txt
