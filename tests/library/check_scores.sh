#!/usr/bin/env bash
# Checks what examples/library/main.c (`scores`) printed: the results (a record's too),
# the failure message with its location after the bad call, 600 further calls, and the context's
# device memory the same after round 10 and round 200.
# Usage: check_scores.sh OUTPUT_FILE [DEVICE_PREFIX]  (DEVICE_PREFIX: "cpu", "NVIDIA", ...)
set -uo pipefail
out=$1
device=${2:-}
failures=0
expect() {
  if ! grep -qF -- "$1" "$out"; then
    echo "check_scores: the output lacks: $1"
    failures=$((failures + 1))
  fi
}
expect "device: $device"
expect "mean: 4.500"
expect "normalised: -0.222 -0.111 -0.444 1.000 0.000 -0.333 0.222 -0.111"
expect "smoothed: 3.722 4.074 4.667 5.000 5.019 4.685 4.463 4.370"
expect "summary: 8 readings in [2.500, 9.000]"
expect "bad call reported:"
expect "Index [12] out of bounds for array of shape [8]."
if ! grep -qE '^at .*scores\.fut:16:64-68$' "$out"; then
  echo "check_scores: the output lacks the failure's location (scores.fut:16:64-68)"
  failures=$((failures + 1))
fi
expect "600 further calls succeeded"
value() { grep "context after round $1:" "$out" | sed -n "s/.*\"$2\": \([-0-9]*\).*/\1/p"; }
for key in bytes_in_use live_arrays pool_reserved_bytes; do
  a=$(value 10 "$key")
  b=$(value 200 "$key")
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "check_scores: $key after round 10 ($a) and round 200 ($b) differ"
    failures=$((failures + 1))
  fi
done
if [ "$failures" -ne 0 ]; then
  echo "check_scores: $failures problems; the output was:"
  cat "$out"
  exit 1
fi
echo "check_scores: ok ($(value 200 bytes_in_use) bytes in use after round 10 and round 200)"
