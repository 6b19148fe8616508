#!/usr/bin/env bash
# On the lent GPU machine: runs the corpus on the CUDA device, the check toggles' test
# (tests/cli/toggles_test.sh: #[unsafe] sites and the nan kind on cuda), then the corpus under
# compute-sanitizer memcheck, with a `kerb` built here (KERB_PORTABLE=ON, stripped) and
# carried in build-carry/. Logs go to $OUT (or /tmp/kerb-gpu); a short table is last.
# Usage: tests/gpu/run_gpu_corpus.sh [KERB]
set -uo pipefail
kerb=${1:-build-carry/kerb}
out=${OUT:-/tmp/kerb-gpu}
mkdir -p "$out"
nvidia-smi -L | tee "$out/device.txt"
nvidia-smi --query-gpu=driver_version --format=csv,noheader | tee -a "$out/device.txt"
echo "== kerb test tests/programs --device cuda"
"$kerb" test tests/programs --device cuda >"$out/cuda_corpus.log" 2>&1
corpus_status=$?
grep -v '^PASS' "$out/cuda_corpus.log" | head -60
echo "== the check toggles on cuda (#[unsafe] sites, the opt-in nan kind)"
bash tests/cli/toggles_test.sh "$kerb" tests/cli cuda >"$out/toggles.log" 2>&1
toggles_status=$?
tail -5 "$out/toggles.log"
echo "== the same under compute-sanitizer memcheck"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
"$cs" --tool memcheck --leak-check no --error-exitcode 99 "$kerb" test tests/programs --device cuda \
  >"$out/memcheck.log" 2>&1
memcheck_status=$?
grep -E "ERROR SUMMARY|========= (Invalid|Error)" "$out/memcheck.log" | sort | uniq -c | head -20
echo
echo "| run | exit | summary |"
echo "|---|---|---|"
echo "| kerb test --device cuda | $corpus_status | $(tail -1 "$out/cuda_corpus.log") |"
echo "| toggles_test.sh cuda | $toggles_status | $(tail -1 "$out/toggles.log") |"
echo "| same under memcheck | $memcheck_status | $(grep -m1 'ERROR SUMMARY' "$out/memcheck.log") ; $(grep -E 'passed, [0-9]+ failed' "$out/memcheck.log" | tail -1) |"
