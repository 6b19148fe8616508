#!/usr/bin/env bash
# On the lent GPU machine: a C program linked with a compiled Kerb library and the
# runtime runs on the CUDA device, with no kerb and no LLVM there. Needs
# build-carry/library/ from tests/gpu/build_library_carry.sh (built here, carried).
#   1. examples/library/main.c (scores) on cuda: its results, the failure message after the
#      bad call, 600 further calls with the same device memory (check_scores.sh); the
#      same on cpu; the C++ example when a C++ compiler is there
#   2. tests/library/c_api_test.c on cuda: the C API's checks (failures, poll_error,
#      misuse, memory over 1,000 alternating failing calls and long host loops)
#   3. tests/library/opaque_test.c on cuda: opaque values (records, arrays of records,
#      abstract and sum types, store/restore, misuse)
#   4. all three under compute-sanitizer memcheck
# Logs go to $OUT (or /tmp/kerb-gpu-library); a short table is last.
# Usage: tests/gpu/run_gpu_library.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
lib=build-carry/library
out=${OUT:-/tmp/kerb-gpu-library}
mkdir -p "$out"
if [ ! -f "$lib/lib/libkerb_runtime.a" ]; then
  echo "run_gpu_library: no $lib (run tests/gpu/build_library_carry.sh where Kerb builds, and carry build-carry/)"
  exit 2
fi
nvidia-smi -L | tee "$out/device.txt"
cc=${CC:-cc}
cxx=${CXX:-c++}
# What `kerb config --libs` prints, with the carried runtime. Where the C++ library has no
# linker name (libstdc++.so, from a -dev package), link its soname.
stdcxx=-lstdc++
if ! echo 'int main(void){return 0;}' | "$cc" -x c - -o "$out/probe" -lstdc++ 2>/dev/null; then
  stdcxx=-l:libstdc++.so.6
fi
libs=(-L"$lib/lib" -lkerb_runtime "$stdcxx" -lm -ldl -lpthread)
"$cc" --version | head -1
status=()
note() { status+=("| $1 | $2 | $3 |"); }

echo "== build"
"$cc" -std=c11 -O2 -Wall -Wextra -I"$lib/include" -I"$lib/scores" examples/library/main.c \
  "$lib/scores/libscores.a" "${libs[@]}" -o "$out/scores"
note "build scores (C)" $? "$cc"
"$cc" -std=c11 -O2 -Wall -Wextra -I"$lib/include" -I"$lib/api" tests/library/c_api_test.c \
  "$lib/api/libapi.a" "${libs[@]}" -o "$out/c_api_test"
note "build c_api_test (C)" $? "$cc"
"$cc" -std=c11 -O2 -Wall -Wextra -I"$lib/include" -I"$lib/opaque" tests/library/opaque_test.c \
  "$lib/opaque/libopaque.a" "${libs[@]}" -o "$out/opaque_test"
note "build opaque_test (C)" $? "$cc"
have_cxx=0
if command -v "$cxx" >/dev/null; then
  "$cxx" -std=c++17 -O2 -Wall -Wextra -I"$lib/include" -I"$lib/scores" examples/library/main.cpp \
    "$lib/scores/libscores.a" "${libs[@]}" -o "$out/scores_cpp" && have_cxx=1
  note "build scores_cpp (C++)" $? "$cxx"
fi

echo "== scores cuda"
"$out/scores" cuda >"$out/scores_cuda.txt" 2>&1
s=$?
cat "$out/scores_cuda.txt"
bash tests/library/check_scores.sh "$out/scores_cuda.txt" NVIDIA >"$out/check_cuda.txt" 2>&1
c=$?
cat "$out/check_cuda.txt"
note "scores cuda (exit, check)" "$s, $c" "$(tail -1 "$out/check_cuda.txt")"

echo "== scores cpu"
"$out/scores" cpu >"$out/scores_cpu.txt" 2>&1
s=$?
bash tests/library/check_scores.sh "$out/scores_cpu.txt" cpu >"$out/check_cpu.txt" 2>&1
c=$?
note "scores cpu (exit, check)" "$s, $c" "$(tail -1 "$out/check_cpu.txt")"

if [ "$have_cxx" = 1 ]; then
  echo "== scores_cpp cuda"
  "$out/scores_cpp" cuda 2>&1 | tee "$out/scores_cpp_cuda.txt"
  note "scores_cpp cuda" "${PIPESTATUS[0]}" "$(grep -c 'Index \[12\] out of bounds' "$out/scores_cpp_cuda.txt") failure message(s)"
fi

echo "== c_api_test cuda"
"$out/c_api_test" cuda >"$out/c_api_test_cuda.txt" 2>&1
s=$?
grep -v '^device' "$out/c_api_test_cuda.txt" | head -40
note "c_api_test cuda" $s "$(tail -1 "$out/c_api_test_cuda.txt")"

echo "== opaque_test cuda"
"$out/opaque_test" cuda >"$out/opaque_test_cuda.txt" 2>&1
s=$?
grep -v '^device' "$out/opaque_test_cuda.txt" | head -40
note "opaque_test cuda" $s "$(tail -1 "$out/opaque_test_cuda.txt")"

echo "== under compute-sanitizer memcheck"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for prog in scores c_api_test opaque_test; do
  "$cs" --tool memcheck --leak-check no --error-exitcode 99 "$out/$prog" cuda >"$out/memcheck_$prog.txt" 2>&1
  s=$?
  grep -E "ERROR SUMMARY|========= (Invalid|Error)" "$out/memcheck_$prog.txt" | sort | uniq -c | head -10
  note "$prog cuda under memcheck" $s "$(grep -m1 'ERROR SUMMARY' "$out/memcheck_$prog.txt"); $(tail -1 "$out/memcheck_$prog.txt")"
done

echo
echo "| run | exit | summary |"
echo "|---|---|---|"
printf '%s\n' "${status[@]}"
