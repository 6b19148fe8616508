#!/usr/bin/env bash
# Call 3 (sixth session): Nsight Compute on Kerb's single-pass scan kernel (the code
# before the vectors: KERB_SCAN_EXP=none) and on the hand-written prototype.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
python3 bench/gen_data.py --scale full --out bench/data scan > $OUT/gen.txt 2>&1
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
echo "ncu: $ncu" > $OUT/ncu_info.txt
$ncu --version >> $OUT/ncu_info.txt 2>&1
secs="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section SourceCounters --section InstructionStats"
KERB_SCAN_EXP=none timeout 200 $ncu --clock-control none -k regex:scan_single_pass -s 2 -c 1 $secs --log-file $OUT/ncu_kerb.txt \
  build-carry/kerb bench bench/scan.fut --device cuda --runs 3 --warmup 1 > /dev/null 2>>$OUT/ncu_info.txt
timeout 200 $ncu --clock-control none -k regex:scan_single_pass -s 2 -c 1 $secs --log-file $OUT/ncu_proto.txt \
  build-carry/kerb-cuda-bench scan_sp_128x24_delay --input bench/data/scan.in --runs 3 --warmup 1 > /dev/null 2>>$OUT/ncu_info.txt
KERB_SCAN_EXP=none timeout 200 $ncu --clock-control none -k regex:scan_single_pass -s 2 -c 1 --section SourceCounters --page source --print-source sass --log-file $OUT/ncu_kerb_sass.txt \
  build-carry/kerb bench bench/scan.fut --device cuda --runs 3 --warmup 1 > /dev/null 2>>$OUT/ncu_info.txt
timeout 200 $ncu --clock-control none -k regex:scan_single_pass -s 2 -c 1 --section SourceCounters --page source --print-source sass --log-file $OUT/ncu_proto_sass.txt \
  build-carry/kerb-cuda-bench scan_sp_128x24_delay --input bench/data/scan.in --runs 3 --warmup 1 > /dev/null 2>>$OUT/ncu_info.txt
ls -la $OUT
grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occ|Block Limit|Warp Cycles Per Issued|Executed Instructions  |Memory Throughput|DRAM Throughput" $OUT/ncu_kerb.txt $OUT/ncu_proto.txt
tail -5 $OUT/ncu_info.txt
