#!/usr/bin/env bash
# Call 5 (sixth session): Nsight Compute on spmv's kernel, --unsafe against default.
bash build-gpu/setup.sh > $OUT/setup.txt 2>&1
python3 bench/gen_data.py --scale full --out bench/data spmv > $OUT/gen.txt 2>&1
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
secs="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats"
for v in unsafe default; do
  fl=--variant=--unsafe; [ $v = default ] && fl=--variant=default
  timeout 200 $ncu --clock-control none -k regex:kerb_kernel -s 3 -c 1 $secs --log-file $OUT/ncu_spmv_$v.txt \
    build-carry/kerb bench bench/unproved/spmv.fut --device cuda $fl --runs 3 --warmup 1 > $OUT/bench_$v.txt 2>&1
  timeout 200 $ncu --clock-control none -k regex:kerb_kernel -s 3 -c 1 --section SourceCounters --page source --print-source sass --log-file $OUT/ncu_spmv_${v}_sass.txt \
    build-carry/kerb bench bench/unproved/spmv.fut --device cuda $fl --runs 3 --warmup 1 > /dev/null 2>&1
done
build-carry/kerb bench bench/unproved/spmv.fut --device cuda --variant=--unsafe --variant=default --runs 60 --warmup 5 --time-budget 4 > $OUT/bench_both.txt 2>&1
cat $OUT/bench_both.txt | tail -4
grep -E "Kernel Name|kerb_kernel|Duration|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Executed Instructions  |DRAM Throughput" $OUT/ncu_spmv_unsafe.txt $OUT/ncu_spmv_default.txt
