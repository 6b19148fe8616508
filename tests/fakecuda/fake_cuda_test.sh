#!/usr/bin/env bash
# KERB_TRACE on the fake CUDA driver (fake_cuda.cpp): `kerb bench --device cuda` of
# reduce.fut and nn.fut prints a trace line per call and the medians, and the CUDA driver
# calls per entry call stay at most the numbers below (bench/NOTES.md, "Time outside
# kernels"). Usage: fake_cuda_test.sh KERB FAKE_LIB_DIR THIS_DIR
set -u
KERB=$1 LIB=$2 DIR=$3
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
fail=0

# name, most driver calls per call
check() {
  local name=$1 max_calls=$2 ops=$3
  if ! LD_LIBRARY_PATH="$LIB" KERB_TRACE=2 "$KERB" bench "$DIR/$name.fut" --device cuda \
      --runs 4 --warmup 1 > "$OUT/$name.out" 2> "$OUT/$name.err"; then
    echo "FAIL: $name: kerb bench failed"; cat "$OUT/$name.out" "$OUT/$name.err"; fail=1; return
  fi
  grep -q 'fake CUDA device' "$OUT/$name.out" "$OUT/$name.err" ||
    { echo "FAIL: $name: not run on the fake device"; cat "$OUT/$name.out"; fail=1; }
  local timed
  timed=$(grep -c '^trace: call [0-9]* (timed):' "$OUT/$name.err")
  [ "$timed" -ge 4 ] || { echo "FAIL: $name: $timed timed calls traced, want >= 4"; fail=1; }
  grep -q '^trace:   op 0 launch ' "$OUT/$name.err" ||
    { echo "FAIL: $name: no per-operation lines (KERB_TRACE=2)"; fail=1; }
  local median
  median=$(grep '^trace: median of ' "$OUT/$name.err")
  [ -n "$median" ] || { echo "FAIL: $name: no median line"; fail=1; cat "$OUT/$name.err"; return; }
  local calls nops
  calls=$(sed -n 's/.*driver_calls \([0-9]*\)$/\1/p' <<< "$median")
  nops=$(sed -n 's/.* with the same \([0-9]*\) operations.*/\1/p' <<< "$median")
  echo "$name: $median"
  grep '^trace:   median op' "$OUT/$name.err"
  [ -n "$calls" ] && [ "$calls" -le "$max_calls" ] ||
    { echo "FAIL: $name: $calls driver calls per entry call, want <= $max_calls"; fail=1; }
  [ "$nops" = "$ops" ] || { echo "FAIL: $name: $nops operations per call, want $ops"; fail=1; }
  grep -q '^trace: driver calls in this process so far: .*cuLaunchKernel' "$OUT/$name.err" ||
    { echo "FAIL: $name: no per-entry-point counts"; fail=1; }
}

check reduce 4 3
check nn 4 3   # one read of both results (before: a read each, 4 operations)

# A loop over rows of its own: launched with the shared memory that bounds its blocks an
# SM (3 for two rows: 9856 bytes of the fake device's 32 KB share) where the rows
# average 8 elements or more (rows.fut: 20), without it where not (rows_short.fut: 2).
bounded() {
  local name=$1 want=$2
  LD_LIBRARY_PATH="$LIB" KERB_TRACE=2 "$KERB" bench "$DIR/$name.fut" --device cuda --runs 2 --warmup 0 \
    > "$OUT/$name.out" 2> "$OUT/$name.err" || { echo "FAIL: $name: kerb bench failed"; cat "$OUT/$name.err"; fail=1; }
  local got
  got=$(grep -c '^trace:   op [0-9]* launch kerb_kernel_[0-9]*_map\[grid=4, 9856 B shared\]' "$OUT/$name.err")
  if { [ "$want" = yes ] && [ "$got" -eq 0 ]; } || { [ "$want" = no ] && [ "$got" -ne 0 ]; }; then
    echo "FAIL: $name: $got launches with the bound's shared memory, want $want"
    grep 'launch' "$OUT/$name.err" | head -3
    fail=1
  fi
  grep -q '^trace:   op [0-9]* launch kerb_kernel_[0-9]*_map\[grid=4' "$OUT/$name.err" ||
    { echo "FAIL: $name: no launch of the map traced"; fail=1; }
}
bounded rows yes
bounded rows_short no
exit $fail
