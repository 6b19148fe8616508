#!/usr/bin/env bash
# A two-minute tour of Kerb: sets the machine up (scripts/setup.sh), then runs
# examples/demo.fut with `kerb run` twice: on an input that works (its results are
# printed) and on one with a bad index (the checked failure is printed, with its
# source location; the script goes on). It uses the GPU device when there is a GPU and
# this build has it, else the CPU device when this build has it, else the reference
# interpreter, and says which.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh

kerb=build/kerb
prog=examples/demo.fut
good='[10.0, 20.0, 30.0, 40.0] [3, 0, 2]'
bad='[10.0, 20.0, 30.0, 40.0] [3, 7]'

# A device is usable when a run on it succeeds.
usable() { echo "$good" | "$kerb" run "$prog" --device "$1" >/dev/null 2>&1; }

device=interp
why="the reference interpreter (neither the CPU nor the CUDA device works here)"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && usable cuda; then
  device=cuda
  why="the GPU ($(nvidia-smi -L | head -n 1))"
elif usable cpu; then
  device=cpu
  why="the CPU device (no usable GPU)"
fi

echo
echo "== Device: $device, $why"
echo
echo "== $prog"
grep -v '^--' "$prog"
echo
echo "== kerb run $prog --device $device    (input: $good)"
echo "$good" | "$kerb" run "$prog" --device "$device"
echo
echo "== kerb run $prog --device $device    (input: $bad, index 7 is out of bounds)"
status=0
echo "$bad" | "$kerb" run "$prog" --device "$device" || status=$?
echo "(exit status $status: the failure was caught, reported with its location, and"
echo " nothing was read or written out of bounds)"
