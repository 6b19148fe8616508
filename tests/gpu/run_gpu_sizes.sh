#!/usr/bin/env bash
# On the lent GPU machine: the corpus programs of the shapes that issue 18's code
# generator work added (maps whose arrays are sized inside them and run on the host,
# loops whose arrays change size, scatter and scans of arrays of arrays, sizes given by
# constants and size expressions) on the CUDA device, then under compute-sanitizer
# memcheck (the host loop's kernels, the row scatter's indices). A `kerb` built here by
# bench/build_carry.sh is carried in build-carry/. Logs go to $OUT (or /tmp/kerb-gpu).
# Usage: tests/gpu/run_gpu_sizes.sh [KERB]   (DEVICE=cpu tries the plumbing without a GPU,
# and then skips memcheck)
set -uo pipefail
kerb=${1:-build-carry/kerb}
device=${DEVICE:-cuda}
out=${OUT:-/tmp/kerb-gpu}
mkdir -p "$out"
progs=(tests/programs/sizes/arrays_sized_inside_map.fut
       tests/programs/sizes/loop_sizes_change.fut
       tests/programs/sizes/constant_and_expression_sizes.fut
       tests/programs/sizes/param_size_expressions_of_size_params.fut
       tests/programs/soacs/arrays_of_arrays_in_map.fut
       tests/programs/lang/prelude_flatmap.fut
       tests/programs/modules/sizes.fut)
if [ "$device" = cuda ]; then nvidia-smi -L | tee "$out/device.txt"; fi
echo "== kerb test (${#progs[@]} programs) --device $device"
"$kerb" test "${progs[@]}" --device "$device" >"$out/sizes.log" 2>&1
status=$?
cat "$out/sizes.log"
memcheck="skipped (not cuda)"
if [ "$device" = cuda ]; then
  echo "== the same under compute-sanitizer memcheck"
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  "$cs" --tool memcheck --leak-check no --error-exitcode 99 "$kerb" test "${progs[@]}" --device cuda \
    >"$out/sizes_memcheck.log" 2>&1
  memcheck="exit $?; $(grep -m1 'ERROR SUMMARY' "$out/sizes_memcheck.log")"
  grep -E "========= (Invalid|Error)" "$out/sizes_memcheck.log" | sort | uniq -c | head -20
fi
echo
echo "| run | exit | summary |"
echo "|---|---|---|"
echo "| kerb test --device $device | $status | $(tail -1 "$out/sizes.log") |"
echo "| same under memcheck | $memcheck | |"
exit $status
