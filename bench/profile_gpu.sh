#!/usr/bin/env bash
# On the lent GPU: Nsight Compute (ncu) over one checked call of every suite program
# (default checks) and of its hand-written CUDA version, to see where the time goes
# kernel by kernel: duration, DRAM bytes, registers, occupancy, warp stalls. One call
# of the device tool, 5-8 minutes; carry build-carry/ (bench/build_carry.sh).
#
#   bash bench/profile_gpu.sh [PROGRAM...]      (default: every program of the suite)
#
# Under $OUT: ncu.tar.gz (one CSV per program and side, ncu's raw page), log.txt and
# profile.md (bench/profile_summary.py's table, also printed last). ncu runs with
# --clock-control none (METHOD.md: leave the clocks alone) and at most LAUNCHES kernel
# launches per process (default 40). Kernel times under ncu are serialised and
# replayed: compare them with each other, not with `kerb bench`'s times.
set -uo pipefail
cd "$(dirname "$0")/.."
kerb=${KERB:-build-carry/kerb}
cudabench=${CUDA_BENCH:-build-carry/kerb-cuda-bench}
out=${OUT:-/tmp/kerb-profile-out}
launches=${LAUNCHES:-40}
deadline=${PROFILE_DEADLINE:-540}
mkdir -p "$out"
work=$(mktemp -d /tmp/kerb-profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
log=$out/log.txt
: >"$log"
say() { echo "[$(printf '%4d' "$SECONDS") s] $*" | tee -a "$log"; }
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(gather stencil intdiv reduce scan matmul histogram small_kernels
  hotspot pathfinder nn kmeans backprop)
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { say "no ncu"; exit 2; }
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
  --section MemoryWorkloadAnalysis)
say "generating inputs: ${programs[*]}"
python3 bench/gen_data.py --out bench/data "${programs[@]}" >>"$log" 2>&1 || { say "gen_data failed"; exit 1; }
mkdir -p "$work/csv"
prof() { # TAG CMD...
  local tag=$1
  shift
  if [ $((deadline - SECONDS)) -lt 20 ]; then say "$tag skipped (deadline)"; return; fi
  timeout $((deadline - SECONDS - 10)) "$ncu" --clock-control none -c "$launches" "${sections[@]}" --csv \
    --page raw --log-file "$work/csv/$tag.log" "$@" >"$work/csv/$tag.out" 2>"$work/csv/$tag.err"
  local st=$?
  grep "^\"" "$work/csv/$tag.log" >"$work/csv/$tag.csv"
  say "$tag: exit $st ($(wc -l <"$work/csv/$tag.csv") csv lines)"
}
for p in "${programs[@]}"; do
  prof "kerb_$p" "$kerb" bench "bench/$p.fut" --device cuda --runs 1 --warmup 0
  for name in $("$cudabench" --list | awk -v p="bench/$p.fut" 'index($2, p) == 1 {print $1}'); do
    prof "cuda_$name" "$cudabench" "$name" --input "bench/data/$p.in" --runs 1 --warmup 0
  done
done
tar -czf "$out/ncu.tar.gz" -C "$work" csv
python3 bench/profile_summary.py "$work/csv" >"$out/profile.md" 2>>"$log" || say "profile_summary.py failed"
cat "$out/profile.md"
