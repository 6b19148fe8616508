#!/usr/bin/env bash
# On the lent GPU machine: the Python package (python/kerb) with PyTorch, CuPy and JAX
# arrays on the CUDA device. Needs build-carry/python/ from tests/gpu/build_python_carry.sh
# (built here, carried). Runs
#   1. call_overhead: the C API's time per call of `gather` on 1-element arrays;
#   2. tests/gpu/python_gpu_test.py: for each library, results, zero-copy (the same device
#      pointer in and out), stream order, CheckError at the sync point, bad arguments,
#      10,000 calls with the same memory, and the time per call against the C API's;
#   3. kerb.compile there (the carried kerb and the machine's cc) and the CPU unit tests
#      (tests/python/test_kerb.py) with the machine's numpy.
# Logs and python_gpu.json go to $OUT (or /tmp/kerb-gpu-python); a summary is last.
# Usage: tests/gpu/run_gpu_python.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
carry=build-carry/python
out=${OUT:-/tmp/kerb-gpu-python}
mkdir -p "$out"
if [ ! -f "$carry/prog/libprog.so" ]; then
  echo "run_gpu_python: no $carry (run tests/gpu/build_python_carry.sh where Kerb builds, and carry build-carry/)"
  exit 2
fi
nvidia-smi -L | tee "$out/device.txt"
python3 -c 'import sys, numpy; print("python", sys.version.split()[0], "numpy", numpy.__version__)' | tee "$out/versions.txt"
for m in torch cupy jax; do
  python3 -c "import $m; print('$m', $m.__version__)" 2>&1 | tail -1 | tee -a "$out/versions.txt"
done
export PYTHONPATH=$PWD/python KERB=$PWD/$carry/kerb KERB_CACHE_DIR=$out/cache
status=0

echo "== C API: time per call"
"$carry/call_overhead" cuda 20000 | tee "$out/c_api.txt"
c_us=$(sed -n 's/.* us_per_call \([0-9.]*\) .*/\1/p' "$out/c_api.txt")
[ -n "$c_us" ] || { echo "no C API time"; c_us=0; status=1; }

echo "== python_gpu_test.py"
python3 tests/gpu/python_gpu_test.py --lib "$carry/prog/libprog.so" --c-api-us "$c_us" \
  --json "$out/python_gpu.json" 2>&1 | tee "$out/python_gpu.txt"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

echo "== kerb.compile on this machine, and the CPU unit tests"
python3 -c '
import kerb, numpy as np
p = kerb.compile("tests/python/prog.fut", device="cuda")
print(p.device_description, p.divide(7, 2), p.gather(p.array([1.5, 2.5], dtype="f32"), p.array([1], dtype="i64")).numpy())
' 2>&1 | tee "$out/compile.txt"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
(cd tests/python && python3 -m unittest test_kerb) > "$out/unittest_cpu.txt" 2>&1 || status=1
tail -3 "$out/unittest_cpu.txt"

echo "== summary"
grep -E '^(FAIL|PASS): .*(within 20 us|zero-copy \(same|CheckError at|calls with the same memory \(context)' \
  "$out/python_gpu.txt"
tail -1 "$out/python_gpu.txt"
echo "run_gpu_python: exit $status (logs in $out)"
exit $status
