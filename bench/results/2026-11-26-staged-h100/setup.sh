#!/usr/bin/env bash
# Unpacks the carried kerb (build-gpu/kerb.xz) and kerb-cuda-bench into build-carry/.
set -e
mkdir -p build-carry
xz -dc build-gpu/kerb.xz > build-carry/kerb
chmod +x build-carry/kerb
cp build-gpu/kerb-cuda-bench build-carry/
build-carry/kerb --version
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
