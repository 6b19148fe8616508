#!/usr/bin/env bash
# Pattern tests of the code generator's output (FileCheck-style, with grep): what the
# core IR, the LLVM IR and the PTX of small programs must and must not contain.
# Usage: patterns.sh PATH/TO/kerb
set -uo pipefail
kerb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checks=0

# emit NAME STAGE [FLAGS...] < program: writes $tmp/NAME.STAGE
emit() {
  local name=$1 stage=$2
  shift 2
  cat >"$tmp/$name.fut"
  if ! "$kerb" check --emit="$stage" "$@" "$tmp/$name.fut" >"$tmp/$name.$stage" 2>"$tmp/err"; then
    echo "FAIL: kerb check --emit=$stage $name: $(cat "$tmp/err")"
    failures=$((failures + 1))
  fi
}
# count FILE PATTERN N: the extended regex occurs on exactly N lines.
count() {
  checks=$((checks + 1))
  local got
  got=$(grep -cE "$2" "$1")
  if [ "$got" != "$3" ]; then
    echo "FAIL: $(basename "$1"): '$2' on $got lines, expected $3"
    failures=$((failures + 1))
  fi
}

# FILE's kernels (.entry) and, apart, the slow copies of their deferred checks (.func
# ..._deferred_slow; codegen/deferred_checks.cpp): FILE.entry, FILE.slow.
split_ptx() {
  awk '/^\.visible \.entry/ { p = 1 } /^\.func/ { p = 0 } p' "$1" >"$1.entry"
  awk '/^\.func .*_deferred_slow\(/ { p = 1 } /^\.visible \.entry/ { p = 0 } p' "$1" >"$1.slow"
}

# at_least FILE PATTERN N: the extended regex occurs on N lines or more.
at_least() {
  checks=$((checks + 1))
  local got
  got=$(grep -cE "$2" "$1")
  if [ "$got" -lt "$3" ]; then
    echo "FAIL: $(basename "$1"): '$2' on $got lines, expected at least $3"
    failures=$((failures + 1))
  fi
}

# --fp-contract (on by default): in CUDA kernels a float multiply feeding an add or a
# subtract becomes one fma, as with nvcc; off: each rounded on its own (mul.rn, add.rn).
emit fma ptx <<'P'
entry main (a: []f32) (b: []f32) (c: []f32) : []f32 = map3 (\x y z -> x * y + z) a b c
P
at_least "$tmp/fma.ptx" 'fma\.rn\.f32' 1
count "$tmp/fma.ptx" 'mul\.rn\.f32' 0
emit fma_off ptx --fp-contract=off <<'P'
entry main (a: []f32) (b: []f32) (c: []f32) : []f32 = map3 (\x y z -> x * y + z) a b c
P
count "$tmp/fma_off.ptx" 'fma\.rn\.f32' 0
at_least "$tmp/fma_off.ptx" 'mul\.rn\.f32' 1
at_least "$tmp/fma_off.ptx" 'add\.rn\.f32' 1

# A chain of maps into a reduction is fused: one block kernel (and its second pass).
emit chain llvm <<'P'
entry main (xs: []f32) : f32 = reduce (+) 0 (map (* 2) (map (+ 1) (map f32.abs xs)))
P
count "$tmp/chain.llvm" '^define void @kerb_kernel_[0-9]+_reduce\(i64 %0, i64 %1, ptr %2\)' 1
count "$tmp/chain.llvm" '^define void @kerb_kernel_[0-9]+_reduce_partials\(i64' 1
count "$tmp/chain.llvm" '^define void @kerb_kernel_[0-9]+_map' 0

# A map whose result is also indexed is not fused away.
emit gather llvm <<'P'
entry main (xs: []i32) (is: []i64) : []i32 = let a = map (+ 1) xs in map (\i -> a[i]) is
P
count "$tmp/gather.llvm" '^define void @kerb_kernel_[0-9]+_map\(i64 %0, i64 %1, ptr %2\)' 2

# Checked kernels claim the failure slot with a compare-and-swap; --unsafe ones do not.
emit checked ptx <<'P'
entry main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i] / 2) is
P
at_least "$tmp/checked.ptx" 'atom\.(global\.)?cas' 1
count "$tmp/checked.ptx" '^\.visible \.entry kerb_kernel_0_map' 1
emit unchecked ptx --unsafe <<'P'
entry main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i] / 2) is
P
count "$tmp/unchecked.ptx" 'atom' 0
# --unsafe PTX has no reference to the failure slot at all (every kernel's parameter 0):
# no compare-and-swap, no fence for the mapped mirror, and no prelude loading it, also
# in kernels that would have one when checks are on (a loop, a block kernel whose
# operator loops, an unchecked index).
emit noslot ptx --unsafe <<'P'
entry main (xs: []i32) (is: []i64) : (i32, []i32) =
  let a = map (\i -> loop acc = xs[i] for j < i do acc + xs[j]) is
  in (reduce (\x y -> loop acc = x for _j < 1 do acc + y) 0 a, map (\i -> #[unsafe] xs[i]) is)
P
count "$tmp/noslot.ptx" '^\.visible \.entry' 3
count "$tmp/noslot.ptx" 'atom|membar|fence' 0
count "$tmp/noslot.ptx" '_param_0\]' 0
# The same program with checks: kernels do read the slot (the preludes, the CAS).
emit slot ptx <<'P'
entry main (xs: []i32) (is: []i64) : (i32, []i32) =
  let a = map (\i -> loop acc = xs[i] for j < i do acc + xs[j]) is
  in (reduce (\x y -> loop acc = x for _j < 1 do acc + y) 0 a, map (\i -> #[unsafe] xs[i]) is)
P
split_ptx "$tmp/slot.ptx"
count "$tmp/slot.ptx.entry" '_param_0\]' 3
# Each of those preludes first tests the "certainly clear" bit of the slot word (bit 0
# of parameter 0, set by the host when nothing that may fail ran since a clean look):
# 3, and 2 more: the first step of the warp trees (thread l & 1) in the two launches of
# the reduction, whose looping operator is not known to be commutative.
count "$tmp/slot.ptx" 'and\.b64[[:space:]]+%rd[0-9]+, %rd[0-9]+, 1;' 5

# Kernels reading arrays they never write use the read-only path.
emit readonly ptx <<'P'
entry main (xs: []f32) : []f32 = map (\x -> x * 2) xs
P
count "$tmp/readonly.ptx" 'ld\.global\.nc\.f32' 1

# 64-bit elements are read and written whole (the kernel module has NVPTX's data
# layout from the start; LLVM's default one aligns i64 and f64 to 4 bytes, which NVPTX
# splits into two 32-bit accesses), and so are the failure slot's arguments.
emit wide ptx <<'P'
entry main (xs: []f64) (is: []i64) : []f64 = map (\i -> xs[i] * 2) is
P
# The map runs four elements per thread (see lanes below): the index vector is two
# v2.u64 loads, the lambda is there five times (four lanes and the tail loop). In the
# kernel its bounds checks are deferred (predicated loads, no failure path); the slow
# copy (a function of its own) has the lambda five times again, each with its failure
# path.
split_ptx "$tmp/wide.ptx"
count "$tmp/wide.ptx.entry" 'ld\.global\.nc\.v2\.u64' 2
count "$tmp/wide.ptx.entry" 'ld\.global\.nc\.u64' 1
count "$tmp/wide.ptx.entry" '@%p[0-9]+ ld\.global\.nc\.f64' 5
count "$tmp/wide.ptx.entry" 'st\.global\.v2\.f64' 2
count "$tmp/wide.ptx.entry" 'st\.global\.f64' 1
count "$tmp/wide.ptx.entry" 'atom|st\.global\.u64' 0
count "$tmp/wide.ptx.slow" 'ld\.global\.nc\.f64' 5
count "$tmp/wide.ptx.slow" 'st\.global\.u64' 10
count "$tmp/wide.ptx.slow" '(ld|st)[.a-z]*\.(u|b|s)32 ' 5   # only the code into the mirror

# Maps of scalars run four elements per thread: one 16-byte read-only vector load and
# one vector store per thread on the aligned path, element by element in the tail.
emit lanes ptx <<'P'
entry main (xs: []f32) : []f32 = map (\x -> x * 2 + 1) xs
P
count "$tmp/lanes.ptx" 'ld\.global\.nc\.v4\.u32' 1
count "$tmp/lanes.ptx" 'st\.global\.v4\.f32' 1
count "$tmp/lanes.ptx" 'ld\.global\.nc\.f32' 1
# Eight-byte elements: two 16-byte loads of two elements each; loads of i64 are never
# split into 32-bit halves (the kernel module has NVPTX's data layout from the start).
emit lanes64 ptx <<'P'
entry main (a: []f32) (idx: []i64) : []f32 = map (\i -> a[i]) idx
P
split_ptx "$tmp/lanes64.ptx"
count "$tmp/lanes64.ptx.entry" 'ld\.global\.nc\.v2\.u64' 2
count "$tmp/lanes64.ptx.entry" 'ld\.global\.nc\.u64' 1
count "$tmp/lanes64.ptx.entry" 'ld\.global\.nc\.u32' 0
count "$tmp/lanes64.ptx.entry" 'st\.global\.v4\.f32' 1
# Deferred checks (Note [Deferred checks]): from the first load of the indices to the
# last of the four lanes' gathers they feed, no branch, so the gathers issue together
# as under --unsafe.
awk '/ld\.global\.nc\.v2\.u64/ { on = 1 } on { print } on && /@%p[0-9]+ ld\.global\.nc\.f32/ { if (++n == 4) exit }' \
  "$tmp/lanes64.ptx.entry" >"$tmp/lanes64.between"
count "$tmp/lanes64.between" '@%p[0-9]+ ld\.global\.nc\.f32' 4
count "$tmp/lanes64.between" 'bra' 0
# A deferred load's register is defined when its predicate is false (0): ptxas may give
# an undefined register any value, and a gather through it then read anywhere (kerb
# difftest seed 1600860 on the H100; tests/programs/failures/deferred_chain.fut). The
# first index is a parameter: a constant one (`xs[-1]`) is known to fail, and the kernel
# fails without a load.
emit undef ptx <<'P'
entry main (xs: []i32) (v: []f32) (k: i32) : []f32 =
  map (\i -> v[(i64.i32 xs[i64.i32 xs[k]] + i) % length v]) (iota 6)
P
at_least "$tmp/undef.ptx" '@%p[0-9]+ ld\.global' 2
awk '/@%p[0-9]+ ld\.global/ { split($0, w, /[ \t,]+/); r = w[4]; if (prev !~ ("mov\\.[a-z0-9]+[ \t]+" r ", 0")) bad++ }
     { prev = $0 } END { print bad + 0 }' "$tmp/undef.ptx" >"$tmp/undef.count"
count "$tmp/undef.count" '^0$' 1
# Hoisted checks (Note [Hoisted checks]): xs[s + j] in a loop over j is checked once
# before the loop, for its first and last iteration; in the loop its loads are plain
# (not predicated, no select), and the kernel has no failure path (the slow copy has).
emit hoisted ptx <<'P'
entry main (xs: []i32) (ss: []i64) (k: i64) : []i32 =
  map (\s -> loop acc = 0 for j < k do acc + xs[s + j] * xs[j * 2 + s]) ss
P
split_ptx "$tmp/hoisted.ptx"
at_least "$tmp/hoisted.ptx.entry" '^[[:space:]]+ld\.global\.nc\.u32' 2
count "$tmp/hoisted.ptx.entry" '@%p[0-9]+ ld|selp\.b64|atom' 0
at_least "$tmp/hoisted.ptx.slow" 'atom\.global\.cas' 1
# With --deferred-checks=off each load branches to its failure where it stands.
emit hoisted_off ptx --deferred-checks=off <<'P'
entry main (xs: []i32) (ss: []i64) (k: i64) : []i32 =
  map (\s -> loop acc = 0 for j < k do acc + xs[s + j] * xs[j * 2 + s]) ss
P
at_least "$tmp/hoisted_off.ptx" 'atom\.global\.cas' 2
count "$tmp/hoisted_off.ptx" '_deferred_slow' 0
# Deferred loops unrolled (Note [Deferred loops unrolled]): a CSR row's loop, its gather
# deferred, is unrolled four times in the fast copy (four predicated gathers in one
# block, issued before the adds that wait for them), as the unchecked loop is.
emit unrolled ptx <<'P'
entry main (x: []f32) (cols: []i64) (ss: []i64) (k: i64) : []f32 =
  map (\s -> loop acc = 0f32 for j < k do acc + x[cols[s + j]]) ss
P
split_ptx "$tmp/unrolled.ptx"
awk '/^\$L__BB/ { n = 0 } /@%p[0-9]+ ld\.global/ { n++; if (n > m) m = n } END { print m + 0 }' \
  "$tmp/unrolled.ptx.entry" >"$tmp/unrolled.count"
count "$tmp/unrolled.count" '^4$' 1
# A lambda with a loop keeps one element per thread.
emit nolanes ptx <<'P'
entry main (xs: []f32) : []f32 = map (\x -> loop y = x for _i < 3 do y * 2) xs
P
count "$tmp/nolanes.ptx" '\.v4\.' 0

# reduce_by_index: an atomic for +, min/max on integers and & | ^ (per-block histograms
# in shared memory when the bins fit, merged with global atomics: Note [Histograms in
# shared memory]); a compare-and-swap loop for float min/max and *; one thread in index
# order for other operators. The values (a fused map) are computed in the update kernel.
emit hist_add ptx <<'P'
entry main (is: []i64) : []i32 = reduce_by_index (replicate 8 0i32) (+) 0 is (map (\_ -> 1i32) is)
P
# One kernel: the zero-filled destination is a memset (Note [Replicate as a memset]).
count "$tmp/hist_add.ptx" '^\.visible \.entry' 1
count "$tmp/hist_add.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_replicate\(' 0
count "$tmp/hist_add.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_hist_shared\(' 1
at_least "$tmp/hist_add.ptx" 'atom\.shared\.add\.u32' 1
# The merge into the result: a reduction whose old value is unused is a `red`
# (Note [Reductions into global memory] in thread_kernels.cpp), never an `atom`.
at_least "$tmp/hist_add.ptx" 'red\.global\.add\.u32' 1
count "$tmp/hist_add.ptx" 'atom\.global\.add' 0
count "$tmp/hist_add.ptx" '\.shared \.align 16 \.b8 kerb_kernel_[0-9]+_hist_shared_bins\[16384\]' 1
emit hist_fmax ptx <<'P'
entry main (is: []i64) (vs: []f32) : []f32 = reduce_by_index (replicate 8 0f32) f32.max f32.lowest is vs
P
count "$tmp/hist_fmax.ptx" 'atom\.global\.cas\.b32' 1
count "$tmp/hist_fmax.ptx" 'max\.f32' 1
emit hist_last ptx <<'P'
entry main (is: []i64) (vs: []i32) : []i32 = reduce_by_index (replicate 8 0i32) (\_ b -> b) 0 is vs
P
count "$tmp/hist_last.ptx" 'atom' 0

# An iota read only whole is not made: the map computes its elements from the index
# (one kernel, four elements per thread, no 8-byte index array read).
emit tabulate ptx <<'P'
entry main (n: i64) (m: i64) : []f32 = map (\k -> f32.i64 (k / m) + f32.i64 (k % m)) (iota (n * m))
P
count "$tmp/tabulate.ptx" '^\.visible \.entry' 1
count "$tmp/tabulate.ptx" 'ld\.global\.nc' 0
count "$tmp/tabulate.ptx" 'st\.global\.v4\.f32' 1
# (four elements a thread, not the 2-D tiles below: its lambda is straight-line code;
# k / m and k % m by m's magic number, one mul.hi per element: four and the tail's)
count "$tmp/tabulate.ptx" 'mul\.hi\.u32' 5

# Perfectly nested maps are one grid over the inner elements (one thread per cell, not
# a loop per row).
emit nested llvm <<'P'
entry main [n][m] (g: [n][m]f32) : [n][m]f32 = map (\i -> map (\j -> g[i, j] * 2) (iota m)) (iota n)
P
# (the CPU's and the GPU's, each a 64-bit and a 32-bit kernel: Note [32-bit map kernels])
count "$tmp/nested.llvm" '^nested\.elem:' 4
count "$tmp/nested.llvm" '^for\.' 0
# A 2-D gather map (bench/unproved/nbr_stencil.fut's shape) takes four rows a thread:
# the column's index loads are made once for the four rows (eight copies of the
# element, but jW[j] loaded in two: the straight-line one and the guarded one merged).
emit rows4 ptx --unsafe <<'P'
entry main [r][c] (img: [r][c]f32) (jw: [c]i64) : [r][c]f32 =
  map (\i -> map (\j -> img[i, j] + img[i, jw[j]]) (iota c)) (iota r)
P
awk '/^\.visible \.entry kerb_kernel_1_map\(/,/^}/' "$tmp/rows4.ptx" >"$tmp/rows4_32.ptx"
count "$tmp/rows4_32.ptx" 'st\.global\.f32' 8
at_least "$tmp/rows4_32.ptx" 'ld\.global\.nc\.u32' 1
awk '/ld\.global\.nc\.u32/ { n++ } END { print (n <= 5) ? "shared" : "per-row" }' "$tmp/rows4_32.ptx" >"$tmp/rows4.count"
count "$tmp/rows4.count" '^shared$' 1
# Checked, the four rows' gathers issue together in the fast copy (Note [Clean values]
# in codegen/deferred_checks.cpp): no branch between the first row's predicated load
# and the fourth's (a flag test before each row's iota made them wait row by row).
emit rows4c ptx <<'P'
entry main [r][c] (img: [r][c]f32) (iN: [r]i64) : [r][c]f32 =
  map (\i -> map (\j -> img[i, j] + img[iN[i], j]) (iota c)) (iota r)
P
awk '/^\.visible \.entry kerb_kernel_1_map\(/,/^}/' "$tmp/rows4c.ptx" >"$tmp/rows4c_32.ptx"
awk '/@%p[0-9]+ ld\.global/ { n++; on = 1 } on && /bra/ { exit } END { print (n >= 4) ? "together" : "row by row" }' \
  "$tmp/rows4c_32.ptx" >"$tmp/rows4c.count"
count "$tmp/rows4c.count" '^together$' 1
# ... and ptxas is asked for eight blocks an SM there (32 registers), in the 32-bit
# kernel and, since its element has checks, in the 64-bit one (Note [Rows per thread]).
count "$tmp/rows4c_32.ptx" '^\.minnctapersm 8$' 1
awk '/^\.visible \.entry kerb_kernel_0_map\(/,/^}/' "$tmp/rows4c.ptx" >"$tmp/rows4c_64.ptx"
count "$tmp/rows4c_64.ptx" '^\.minnctapersm 8$' 1
# Three nested maps, four middle elements a thread (Note [Three nested maps]): in the
# 32-bit kernel the four rows' b[0, j] and b[1, j] are loaded once in the straight-line
# copy (4 + 2 loads, and 4 x 3 in the guarded one: 18, where 24 would be per row),
# eight stores, no division (the outer element by groups' magic number: mul.hi.u32)
# and no 64-bit multiply; the 64-bit kernel also has no division on its fast path
# (div only behind the test for i < 2^31: one div.u32 and one div.u64).
emit rows3 ptx --unsafe <<'P'
entry main [k][n][m] (as: [k][n][m]f32) (bs: [k][2][m]f32) : [k][n][m]f32 =
  map2 (\a b -> map (\r -> map (\j -> r[j] * b[0, j] + b[1, j]) (iota m)) a) as bs
P
awk '/^\.visible \.entry kerb_kernel_1_map\(/,/^}/' "$tmp/rows3.ptx" >"$tmp/rows3_32.ptx"
awk '/^\.visible \.entry kerb_kernel_0_map\(/,/^}/' "$tmp/rows3.ptx" >"$tmp/rows3_64.ptx"
count "$tmp/rows3_32.ptx" 'st\.global\.f32' 8
count "$tmp/rows3_32.ptx" 'ld\.global\.nc\.f32' 18
count "$tmp/rows3_32.ptx" '(div|rem)\.[su](32|64)' 0
count "$tmp/rows3_32.ptx" '(mul|mad)\.lo\.s64' 0
count "$tmp/rows3_32.ptx" 'mul\.hi\.u32' 3
count "$tmp/rows3_32.ptx" '^\.minnctapersm 8$' 1
count "$tmp/rows3_64.ptx" 'div\.u(32|64)' 2
# ... and with a product's dot in the inner element, the four rows' reductions are one
# loop whose steps load b[k, j] once for the four rows: a block of the PTX with four
# multiply-adds or more and fewer than two loads each (one row a thread: two each).
emit rows3_loop ptx --unsafe <<'P'
entry main [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  map2 (\a b -> map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a) as bs
P
count "$tmp/rows3_loop.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 1
awk '/^\$L__BB/ { if (f >= 4 && l < 2 * f) s++; f = 0; l = 0 } /fma\.rn\.f32/ { f++ } /ld\.global\.nc\.f32/ { l++ }
     END { print (s >= 1) ? "shared" : "per row" }' "$tmp/rows3_loop.ptx" >"$tmp/rows3_loop.count"
count "$tmp/rows3_loop.count" '^shared$' 1
# ... but not when a fused map with a loop would be recomputed for every inner element.
emit nested_lazy llvm <<'P'
entry main (xs: []f32) (m: i64) : [][]f32 =
  map (\x -> map (\j -> x + f32.i64 j) (iota m)) (map (\x -> loop y = x for _i < 3 do y * 2) xs)
P
count "$tmp/nested_lazy.llvm" '^nested\.elem:' 0

# Nested maps run in 2-D tiles (Note [2-D tiles of map kernels]): the block index is
# split into the tile's row and column, and the thread index into its place in the
# tile, by magic numbers (mul.hi.u32), with no division (in each of the 64-bit and the
# 32-bit kernel).
emit nested_tiles ptx <<'P'
entry main [n][m] (g: [n][m]f32) : [n][m]f32 = map (\i -> map (\j -> g[i, j] * 2) (iota m)) (iota n)
P
count "$tmp/nested_tiles.ptx" 'mov\.u32.*%ctaid\.x' 2
count "$tmp/nested_tiles.ptx" 'mul\.hi\.u32' 4
count "$tmp/nested_tiles.ptx" '(div|rem)\.[su](32|64)' 0
# A map over iota n that splits its index into t / p and t % p: the tiled kernel (for
# p > 0, no division) and the one-thread-per-element kernel (p <= 0), which divides.
emit split_tiles ptx <<'P'
entry main (n: i64) (p: i64) : []i64 = map (\t -> loop acc = t / p for _l < t % p do acc + 1) (iota n)
P
count "$tmp/split_tiles.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 2
# (two for the tiles' index split; one for t / p and t % p by p's magic number in the
# one-thread-per-element kernel, which runs when p <= 0, where the division takes over)
count "$tmp/split_tiles.ptx" 'mul\.hi\.u32' 3
count "$tmp/split_tiles.ptx" 'div\.s64' 1

# A reduction's two block kernels each have a barrier after the chunk pass and one in
# the tree; the IR shows an index's check site.
emit sum ptx <<'P'
entry main (xs: []i32) : i32 = reduce (+) 0 xs
P
count "$tmp/sum.ptx" 'bar\.sync' 4
emit index_ir ir <<'P'
entry main (xs: []i32) (i: i64) : i32 = xs[i]
P
count "$tmp/index_ir.ir" '@site 0: bounds at .*Index \[\{\}\] out of bounds for array of shape \[\{\}\]\.' 1
count "$tmp/index_ir.ir" '= xs_[0-9]+\[i_[0-9]+\] @site 0' 1

# Reduce-then-scan (--scan-single-pass-min=off) is two block kernels (block totals;
# then each block's prefix and its part),
# both tiled: coalesced loads of a tile (thread t at t, t + 256, ...: offsets of 1 KiB
# for i32) and barriers that tell whether a thread failed (one at the end of each
# warp-contiguous reduction, four per tile of the scan: load, the warps' scans, the
# rescan, the store); the rest are warp barriers; no one-thread prefix kernel.
emit scan ptx --scan-single-pass-min=off <<'P'
entry main (xs: []i32) : []i32 = scan (+) 0 xs
P
count "$tmp/scan.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_scan_totals\(' 1
count "$tmp/scan.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_scan\(' 1
count "$tmp/scan.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_scan_prefix' 0
at_least "$tmp/scan.ptx" 'ld\.global\.u32.*\+1024\]' 2
at_least "$tmp/scan.ptx" 'st\.global\.u32.*\+1024\]' 1
count "$tmp/scan.ptx" 'bar\.red\.or\.pred' 6
at_least "$tmp/scan.ptx" 'bar\.warp\.sync' 20
# The single-pass scan (Note [Single-pass scan] in codegen/scan_kernels.cpp): one
# kernel, a ticket from an atomic counter, and for i32 the flag and value in one 64-bit
# word: stores of the aggregate, the inclusive prefix and the failed status, a volatile
# load in each lane's wait (and again after a nap: nanosleep after publishing A and
# between reads), no fence; the window's failed and prefix lanes by two ballots, its
# fold by a butterfly of five shuffles. The i32 tile in registers (Note [Single-pass
# tiles in registers]): three block barriers (the ticket's, then two that tell whether
# a thread failed: the warps' totals, the prefix), loads and stores striped over a
# warp (offsets of 128 bytes), the warps' scans by shuffles (five, and one for the
# lanes' exclusive values), nothing in local memory.
# For i64: a flag of 32 bits after the values, with a fence (membar.gl) between them on
# both sides.
emit scan1 ptx --scan-single-pass-min=1 <<'P'
entry main (xs: []i32) : []i32 = scan (+) 0 xs
P
awk '/^\.visible \.entry kerb_kernel_[0-9]+_scan_single_pass\(/,/^}/' "$tmp/scan1.ptx" >"$tmp/scan1.sp"
count "$tmp/scan1.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_scan_single_pass\(' 1
count "$tmp/scan1.sp" 'atom\.global\.add\.u64' 1
count "$tmp/scan1.sp" 'st\.volatile\.global\.u64' 3
count "$tmp/scan1.sp" 'ld\.volatile\.global\.u64' 2
count "$tmp/scan1.sp" 'nanosleep' 2
count "$tmp/scan1.sp" 'membar' 0
count "$tmp/scan1.sp" 'vote\.sync\.ballot\.b32' 2
count "$tmp/scan1.sp" 'shfl\.sync\.bfly' 5
count "$tmp/scan1.sp" 'shfl\.sync\.up' 6
count "$tmp/scan1.sp" 'bar\.red\.or\.pred' 2
count "$tmp/scan1.sp" 'bar\.sync' 1
count "$tmp/scan1.sp" '\.local' 0
at_least "$tmp/scan1.sp" 'ld\.global\.u32.*\+128\]' 2
at_least "$tmp/scan1.sp" 'st\.global\.u32.*\+128\]' 1
# ... and where the part is full and the arrays aligned, 16 bytes at a time: six vector
# loads and six vector stores a thread, 512 bytes apart (a warp's 32 lanes), the slice's
# groups of four read and written as vectors (striped and blocked); none with
# --scan-vectors=off.
count "$tmp/scan1.sp" 'ld\.global\.nc\.v4\.u32' 6
count "$tmp/scan1.sp" 'ld\.global\.nc\.v4\.u32.*\+512\]' 1
count "$tmp/scan1.sp" 'st\.global\.v4\.u32' 6
at_least "$tmp/scan1.sp" 'ld\.shared\.v4\.u32' 12
at_least "$tmp/scan1.sp" 'st\.shared\.v4\.u32' 12
emit scan1_novec ptx --scan-vectors=off <<'P'
entry main (xs: []i32) : []i32 = scan (+) 0 xs
P
awk '/^\.visible \.entry kerb_kernel_[0-9]+_scan_single_pass\(/,/^}/' "$tmp/scan1_novec.ptx" >"$tmp/scan1_novec.sp"
count "$tmp/scan1_novec.sp" 'global\.(nc\.)?v4' 0
count "$tmp/scan1_novec.sp" 'st\.shared\.v4' 0
emit scan1_i64 ptx --scan-single-pass-wide-min=1 <<'P'
entry main (xs: []i64) : []i64 = scan (+) 0 xs
P
awk '/^\.visible \.entry kerb_kernel_[0-9]+_scan_single_pass\(/,/^}/' "$tmp/scan1_i64.ptx" >"$tmp/scan1_i64.sp"
count "$tmp/scan1_i64.sp" 'st\.volatile\.global\.u32' 3
count "$tmp/scan1_i64.sp" 'ld\.volatile\.global\.u32' 2
count "$tmp/scan1_i64.sp" 'membar\.gl' 4
# A reduction with an operator not known to be commutative (argmin over pairs, the map
# fused) is tiled too, in warp-contiguous parts: its loads are coalesced per warp
# (thread l at l, l + 32, ...: offsets of 128 bytes for f32), warp barriers between the
# steps of a warp tile, one block barrier per launch (Note [Warp-contiguous reductions]).
emit argmin ptx <<'P'
entry main [n] (d: [n]f32) : (f32, i64) =
  reduce (\(d1, i1) (d2, i2) -> if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2))
         (f32.inf, -1i64) (zip (map f32.abs d) (iota n))
P
at_least "$tmp/argmin.ptx" 'ld\.global\.f32.*\+128\]' 2
count "$tmp/argmin.ptx" 'bar\.red\.or\.pred' 2
at_least "$tmp/argmin.ptx" 'bar\.warp\.sync' 16
# With reduce_comm the program says the operator commutes (core IR `reduce_comm`, kept
# by every pass): the same argmin runs the commutative block reduction (no tiles, no
# warp barriers), reading four elements per thread with one vector load per array,
# here nn's two arrays indexed by the element of a map over iota (Note [Commutative
# reductions in lanes]); `reduce` stays `reduce`, tiled.
emit comm ptx <<'P'
def argmin (a: (f32, i64)) (b: (f32, i64)) : (f32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b
entry main [n] (lat: [n]f32) (lng: [n]f32) : (f32, i64) =
  reduce_comm argmin (f32.inf, -1) (zip (map (\i -> lat[i] + lng[i]) (iota n)) (iota n))
P
count "$tmp/comm.ptx" 'ld\.global\.nc\.v4\.u32' 2
count "$tmp/comm.ptx" '_tile[0-9]' 0
count "$tmp/comm.ptx" 'bar\.warp\.sync' 0
emit ordered ptx < <(sed 's/reduce_comm/reduce/' "$tmp/comm.fut")
count "$tmp/ordered.ptx" '\.v4\.' 0
at_least "$tmp/ordered.ptx" '_tile[0-9]' 1
# (the reduction survives every pass: lower_to_core and the 13 passes of compiler/pipeline.cpp)
"$kerb" check --dump-after=all "$tmp/comm.fut" >/dev/null 2>"$tmp/comm.dump"
"$kerb" check --dump-after=all "$tmp/ordered.fut" >/dev/null 2>"$tmp/ordered.dump"
count "$tmp/comm.dump" '^-- core IR after ' 14
count "$tmp/comm.dump" ' = reduce_comm [a-z_0-9]+, \(' 14
count "$tmp/ordered.dump" ' = reduce [a-z_0-9]+, \(' 14
count "$tmp/ordered.dump" 'reduce_comm' 0
# An array read whole (reduce.fut) is one vector load too; a row of a matrix, which may
# start off alignment, is tested at run time, the same loop reading it one at a time.
emit sum_lanes ptx <<'P'
entry main (xs: []f32) : f32 = reduce_comm (+) 0 xs
P
emit row_lanes ptx <<'P'
entry main [n] (xss: [3][n]f32) : f32 = reduce_comm (+) 0 xss[1]
P
for f in sum_lanes row_lanes; do
  count "$tmp/$f.ptx" 'ld\.global\.nc\.v4\.u32' 1
  count "$tmp/$f.ptx" 'ld\.global\.nc\.f32' 1
done
# remove_proved_checks (docs/CHECKS.md, Note [Proved in range]): the indices of matmul
# (nested and flat) and backprop are in range by construction: no site is left, and no
# failure path in the LLVM IR; near misses keep theirs.
emit matmul_ir ir <<'P'
def dot [n][m][p] (a: [n][m]f32) (b: [m][p]f32) (i: i64) (j: i64) : f32 =
  reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))
entry nested [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> dot a b i j) (iota p)) (iota n)
entry flat [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  unflatten n p (map (\t -> dot a b (t / p) (t % p)) (iota (n * p)))
entry backprop [nin][nh] (input: [nin]f32) (w: [nin][nh]f32) : [nh]f32 =
  map (\j -> reduce (+) 0f32 (map (\i -> w[i, j] * input[i]) (iota nin))) (iota nh)
P
count "$tmp/matmul_ir.ir" '\] @site' 0
count "$tmp/matmul_ir.ir" '@site [0-9]+: (bounds|div)' 0
count "$tmp/matmul_ir.ir" '@site [0-9]+: size' 4
count "$tmp/matmul_ir.ir" '@site [0-9]+: range' 1 # iota (n * p): the product may wrap
"$kerb" check --report-checks "$tmp/matmul_ir.fut" >"$tmp/matmul_report" 2>&1
count "$tmp/matmul_report" 'bounds  eliminated \(proved in range\)' 6
count "$tmp/matmul_report" 'div  eliminated \(divisor proved positive\)' 2
emit matmul_llvm llvm <<'P'
entry main [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)
P
count "$tmp/matmul_llvm.llvm" '^check\.fail' 1 # the entry's size check, on the host
# Matrix products (extract_kernels.cpp, Note [Matrix products]): nested, split from
# iota (n * p), with both operands transposed, and over rows (`map2 (*) r c` of a's rows
# and transpose b's), a version in block and register tiles
# (Note [Block and register tiling] in codegen/tiled_kernels.cpp) guarded by the sizes,
# the old versions after it. Its PTX: two barriers a k-tile, the thread's 8 + 8 values a
# k by vector loads from shared memory (4 per k: 32 in a whole k-tile, 4 in the loop of
# the last), 64 fmas a k, 8 loads from global memory a k-tile (staged: made once before
# the loop, once in it), 64 stores, two blocks/SM.
matmul_program='entry nested [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)
entry flat [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  unflatten n p (map (\t -> let i = t / p
                            let j = t % p
                            in reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota (n * p)))
entry transposed [n][m][p] (at: [m][n]f32) (bt: [p][m]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> at[k, i] * bt[j, k]) (iota m))) (iota p)) (iota n)
entry rows [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a
'
emit k_matmul kernels <<<"$matmul_program"
count "$tmp/k_matmul.kernels" '^    if a_n0_0 >= 32 and b_n1_4 >= 32: block and register tiles \(128 x 128 a block, 8 x 8 a thread, k-tiles of 8; reads a_2\[i, k\], b_5\[k, j\]\)$' 1
count "$tmp/k_matmul.kernels" '^    if ceil\(t_[0-9]+ / b_n1_[0-9]+\) >= 32 and b_n1_[0-9]+ >= 32: block and register tiles' 1
count "$tmp/k_matmul.kernels" 'block and register tiles .*reads at_[0-9]+\[k, i\], bt_[0-9]+\[j, k\]\)$' 1
count "$tmp/k_matmul.kernels" '^    if a_n0_[0-9]+ >= 32 and b_n1_[0-9]+ >= 32: block and register tiles .*reads a_[0-9]+\[i, k\], b_[0-9]+\[k, j\]\)$' 2
count "$tmp/k_matmul.kernels" '^      kernel tiled: ceil\(.*\) \* ceil\(.* / 128\) blocks of 256 threads$' 4
count "$tmp/k_matmul.kernels" '^    otherwise: 2-D tiles$' 2
count "$tmp/k_matmul.kernels" 'split 2-D tiles' 1
emit k_matmul_off kernels --block-tile-min=off <<<"$matmul_program"
count "$tmp/k_matmul_off.kernels" 'block and register' 0
emit k_matmul_min kernels --block-tile-min=100 <<<"$matmul_program"
count "$tmp/k_matmul_min.kernels" '^    if a_n0_0 >= 100 and b_n1_4 >= 100: block and register tiles' 1
emit matmul_tiled ptx <<<"$matmul_program"
awk '/^\.visible \.entry kerb_kernel_[0-9]+_tiled\(/ { p = 1 } /^}/ { p = 0 } p' "$tmp/matmul_tiled.ptx" \
  >"$tmp/matmul_tiled.ptx.t"
count "$tmp/matmul_tiled.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_tiled\(' 4
count "$tmp/matmul_tiled.ptx.t" 'bar\.sync' 8
count "$tmp/matmul_tiled.ptx.t" 'ld\.shared\.v4\.f32' 144
count "$tmp/matmul_tiled.ptx.t" 'fma\.rn\.f32' 2304
count "$tmp/matmul_tiled.ptx.t" 'ld\.global\.nc\.f32' 64
count "$tmp/matmul_tiled.ptx.t" 'st\.global\.f32' 256
count "$tmp/matmul_tiled.ptx" '^\.minnctapersm 2$' 4
# Near misses keep their 2-D tiles: an index other than [i, k] / [k, j] (b[k, (j + 1) % p],
# b[k, k]), a branch in the map's lambda, a kept bounds check (a's rows are n, the map
# goes to p).
emit k_matmul_miss kernels <<'P'
entry shifted [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, (j + 1) % p]) (iota m))) (iota p)) (iota n)
entry branch [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> if k < 5 then a[i, k] else b[k, j]) (iota m))) (iota p)) (iota n)
entry diagonal [n][m] (a: [n][m]f32) (b: [m][m]f32) : [n][m]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, k]) (iota m))) (iota m)) (iota n)
entry checked (n: i64) (m: i64) (a: [n][m]f32) (b: [m][n]f32) (p: i64) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)
P
count "$tmp/k_matmul_miss.kernels" 'block and register' 0
count "$tmp/k_matmul_miss.kernels" '^  map_[0-9]+ = segmap\(grid\) \[[a-z_0-9]+\]\[[a-z_0-9]+\]: 2-D tiles' 4
# With --unsafe no check is left, but an integer division by a read value would run on
# the zeros past the tiles' edges (a trap on the CPU device): not tiled either.
emit k_matmul_div kernels --unsafe <<'P'
entry main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] / b[k, j]) (iota m))) (iota p)) (iota n)
P
count "$tmp/k_matmul_div.kernels" 'block and register' 0
count "$tmp/k_matmul_div.kernels" '^  map_[0-9]+ = segmap\(grid\) .*: 2-D tiles' 1
emit near_miss ir <<'P'
entry longer [n] (xs: [n]i32) : []i32 = map (\i -> xs[i]) (iota (n + 1))
entry other [n][m] (xs: [n]i32) (_ys: [m]i32) : []i32 = map (\i -> xs[i]) (iota m)
entry plus_one [n] (xs: [n]i32) : []i32 = map (\i -> xs[i + 1]) (iota n)
entry loop_bound [n] (xs: [n]i32) (e: i64) : i32 = loop s = 0 for k < e do s + xs[k]
entry swapped [n][m] (a: [n][m]i32) : []i32 = map (\t -> a[t / n, t % n]) (iota (n * m))
P
count "$tmp/near_miss.ir" '\] @site' 5
count "$tmp/near_miss.ir" '@site [0-9]+: bounds' 5

# A map over few segments whose lambda reduces a long inner map (backprop's hidden
# layer) has the segmented reduction's two block kernels, and the one-thread-per-
# element map for many or short segments (chosen at run time); reading w with the
# segment as its last index, also the first kernel across rows for 1 to 64 segments
# (its own segred_segments).
emit segred ptx <<'P'
entry main [nin][nh] (input: [nin]f32) (w: [nin][nh]f32) : [nh]f32 =
  map (\j -> let s = reduce (+) 0f32 (map (\i -> w[i, j] * input[i]) (iota nin))
             in 1f32 / (1f32 + f32.exp (-s)))
      (iota nh)
P
count "$tmp/segred.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred\(' 1
count "$tmp/segred.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred_rows\(' 1
count "$tmp/segred.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred_segments\(' 2
count "$tmp/segred.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 1
# ... not across rows when the segments are rows (w[j, i]: the segment is not the last
# index) ...
emit segred_major ptx <<'P'
entry main [nin][nh] (input: [nin]f32) (w: [nh][nin]f32) : [nh]f32 =
  map (\j -> reduce (+) 0f32 (map (\i -> w[j, i] * input[i]) (iota nin))) (iota nh)
P
count "$tmp/segred_major.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred\(' 1
count "$tmp/segred_major.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred_rows\(' 0
# ... nor with an operator not known to be commutative.
emit segred_noncomm ptx <<'P'
entry main [nin][nh] (w: [nin][nh]i64) : [nh]i64 =
  map (\j -> reduce (\a b -> a * 3 + b) 0 (map (\i -> w[i, j]) (iota nin))) (iota nh)
P
count "$tmp/segred_noncomm.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred\(' 1
count "$tmp/segred_noncomm.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred_rows\(' 0
# ... unless the program says it commutes (reduce_comm, here a tuple operator).
emit segred_comm ptx <<'P'
entry main [nin][nh] (w: [nin][nh]i64) : [nh](i64, i64) =
  map (\j -> reduce_comm (\(a, x) (b, y) -> (a + b, i64.max x y)) (0, i64.lowest)
                         (map (\i -> (w[i, j], w[i, j] * 3)) (iota nin))) (iota nh)
P
count "$tmp/segred_comm.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred\(' 1
count "$tmp/segred_comm.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred_rows\(' 1
# ... not when the statements after the reduction loop (one thread per element only).
emit segred_loop ptx <<'P'
entry main (xs: []f32) (n: i64) : []f32 =
  map (\j -> let s = reduce (+) 0f32 (map (\x -> x * f32.i64 j) xs)
             in loop y = s for _i < j do y * 2)
      (iota n)
P
count "$tmp/segred_loop.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_segred' 0
count "$tmp/segred_loop.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 1

# flatten of a nested map over iotas (kmeans' slots) is one flat map fused into the
# reduce_by_index that reads it as indices: no map kernel (compiler/flatten_nested_maps.cpp).
flat_hist_prog='entry main [n][d] (pts: [n][d]f32) (owner: [n]i64) (k: i64) : []f32 =
  let slots = flatten (map (\i -> map (\f -> owner[i] * d + f) (iota d)) (iota n))
  in reduce_by_index (replicate (k * d) 0f32) (+) 0f32 slots (flatten pts)
'
emit flat_hist ptx <<<"$flat_hist_prog"
count "$tmp/flat_hist.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 0
count "$tmp/flat_hist.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_hist_shared\(' 1
# Its updates are wide (a gather, a division): one a thread, 4 blocks per SM, which
# ptxas must fit (Note [Histograms in shared memory]); q / d and q % d by d's magic
# number (Note [Magic divisors]), one multiplication shared by both.
count "$tmp/flat_hist.ptx" '^\.minnctapersm 4' 1
count "$tmp/flat_hist.ptx" 'mul\.hi\.u32' 1
# Its destination is the replicate's own buffer (nothing else reads it): filled, then
# updated in place, no copy (ProgramGen::consumed_dest); a replicate read again after a
# reduce_by_index or scatter is copied first.
emit flat_hist llvm <<<"$flat_hist_prog"
count "$tmp/flat_hist.llvm" 'call i32 @kerb_rt_copy\(' 0
count "$tmp/flat_hist.llvm" 'call i32 @kerb_rt_fill\(' 1
# (A program reading the replicate again after consuming it is now a consumption error,
# as in Futhark: tests/reject/type_uniq_scatter_dest_used.fut.)
# kmeans' counts and sums, two reduce_by_index of one body with statements between them
# (the sums' memset and size checks), run as one hist_shared kernel with two histograms
# in shared memory (Note [Histograms in one kernel]); not when the second reads the
# first's result.
emit hist_pair ptx <<'P'
entry main [n][d] (pts: [n][d]f32) (owner: [n]i64) (k: i64) : ([]i32, []f32) =
  let counts = reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\_ -> 1i32) owner)
  let slots = flatten (map (\i -> map (\f -> owner[i] * d + f) (iota d)) (iota n))
  in (counts, reduce_by_index (replicate (k * d) 0f32) (+) 0f32 slots (flatten pts))
P
count "$tmp/hist_pair.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_hist_shared\(' 1
count "$tmp/hist_pair.ptx" '\.shared \.align 16 \.b8 kerb_kernel_[0-9]+_hist_shared_bins1?\[16384\]' 2
count "$tmp/hist_pair.ptx" '^\.minnctapersm 4' 1
emit hist_nopair ptx <<'P'
entry main (owner: []i64) (k: i64) : ([]i32, []i32) =
  let counts = reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\_ -> 1i32) owner)
  in (counts, reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\i -> counts[i %% k]) owner))
P
count "$tmp/hist_nopair.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_hist_shared\(' 2
# A histogram of loaded indices keeps 8 updates in flight and 2 blocks per SM, no bound.
emit narrow_hist ptx <<'P'
entry main (is: []i64) : []i32 = reduce_by_index (replicate 4096 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
P
count "$tmp/narrow_hist.ptx" '^\.minnctapersm' 0
at_least "$tmp/narrow_hist.ptx" 'ld\.global\.nc\.u64' 8

# Division by a scalar the kernel gets from the host: the magic number (one mul.hi per
# quotient, shared by / and %); by a constant, LLVM's own multiplication; by an array's
# element, the division.
emit magic_div ptx <<'P'
entry main (d: i64) (xs: []i64) (ds: []i64) : ([]i64, []i64, []i64) =
  (map (\x -> x / d + x % d) xs, map (\x -> x / 7) xs, map2 (\x e -> x / e) xs ds)
P
# (four elements a thread and the tail: five, one each)
count "$tmp/magic_div.ptx" 'mul\.hi\.u32' 5

# (A loop body's reduce_by_index into a replicate made before the loop is a consumption
# error now, as in Futhark: the array is not consumable there.)

# A reduction's result goes to read-back memory (the last kernel writes it into mapped
# host memory; Note [Read-back memory]), its components 8 bytes apart in one slot, read
# once.
emit readback llvm <<'P'
entry main (xs: []f32) : (f32, i64) =
  reduce (\(a, i) (b, j) -> if a < b then (a, i) else (b, j)) (f32.inf, -1) (zip xs (iota (length xs)))
P
count "$tmp/readback.llvm" 'call i64 @kerb_rt_alloc_readback' 1
count "$tmp/readback.llvm" 'call i32 @kerb_rt_read' 1

# A clamped 5-point stencil (hotspot's step, Note [32-bit map kernels] in
# codegen/narrow_index.cpp): the nested map has a 64-bit kernel and a 32-bit one, which
# the host launches when its sizes are small. The 32-bit kernel's clamps, compares and
# offsets are i32 (min/max.s32, mul.wide.s32 into each address), no 64-bit clamp or
# multiply is left; the 64-bit kernel keeps them. The loop-step constant `step / cap` is
# computed on the host (compiler/hoist_invariant_scalars.cpp): three divisions a thread.
emit narrow ptx <<'P'
entry main [rows][cols] (iters: i32) (temp: [rows][cols]f32) (power: [rows][cols]f32) (step: f32) (cap: f32) (rx: f32) (ry: f32) (rz: f32) : [rows][cols]f32 =
  loop temp for _i < iters do
    map (\r -> map (\c ->
      let t = temp[r, c]
      let n = temp[i64.max 0 (r - 1), c]
      let s = temp[i64.min (rows - 1) (r + 1), c]
      let w = temp[r, i64.max 0 (c - 1)]
      let e = temp[r, i64.min (cols - 1) (c + 1)]
      in t + (step / cap) * (power[r, c] + (s + n - 2 * t) / ry + (e + w - 2 * t) / rx + (80 - t) / rz))
      (iota cols)) (iota rows)
P
count "$tmp/narrow.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 2
awk '/^\.visible \.entry kerb_kernel_0_map\(/,/^}/' "$tmp/narrow.ptx" >"$tmp/narrow64.ptx"
awk '/^\.visible \.entry kerb_kernel_1_map\(/,/^}/' "$tmp/narrow.ptx" >"$tmp/narrow32.ptx"
# Each thread takes four rows (Note [Rows per thread]): the element is generated eight
# times, four rows in straight-line code and four each behind its own range test.
count "$tmp/narrow32.ptx" '(min|max)\.s64|mul\.lo\.s64|mad\.lo\.s64' 0
at_least "$tmp/narrow32.ptx" '(min|max)\.s32' 16
count "$tmp/narrow32.ptx" 'div\.rn\.f32' 24
at_least "$tmp/narrow64.ptx" '(min|max)\.s64' 16
count "$tmp/narrow64.ptx" '(min|max)\.s32' 0
# A nested map whose element loops (matmul) keeps the 64-bit kernel only: i32 offsets
# would keep LLVM from stepping the addresses through the loop.
emit narrow_loop ptx <<'P'
entry main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\i -> map (\j -> reduce (+) 0 (map (\l -> a[i, l] * b[l, j]) (iota k))) (iota m)) (iota n)
P
count "$tmp/narrow_loop.ptx" '^\.visible \.entry kerb_kernel_[0-9]+_map\(' 1

# A host loop whose body reads arrays runs in a kernel of one thread (Note [Sequential
# loops in one thread] in compiler/offload_sequential_loops.cpp): the host function has
# no loop (it had loop.head and loop.body, a kerb_rt_read per element), launches once and reads each of the two results once, from read-back
# memory; the kernel has the loop and its loads. Host scalars computed before the loop
# (k) are its arguments.
emit seqloop llvm <<'P'
entry main [n] (bs: [n]i8) (ws: [n]i32) : (i8, i32) =
  let k = i32.i64 n * 3
  in loop (a, d) = (i8.highest, 0) for i < n do (i8.min a bs[i], d + ws[i] * k)
P
awk '/^define i32 @kerb_entry_main\(/,/^}/' "$tmp/seqloop.llvm" >"$tmp/seqloop.host"
count "$tmp/seqloop.host" '^loop\.' 0
count "$tmp/seqloop.host" 'call i32 @kerb_rt_launch\(' 1
count "$tmp/seqloop.host" 'call i64 @kerb_rt_alloc_readback\(' 2
count "$tmp/seqloop.host" 'call i64 @kerb_rt_alloc\(' 0
count "$tmp/seqloop.host" 'call i32 @kerb_rt_read\(' 2
emit seqloop ptx <<'P'
entry main [n] (bs: [n]i8) (ws: [n]i32) : (i8, i32) =
  let k = i32.i64 n * 3
  in loop (a, d) = (i8.highest, 0) for i < n do (i8.min a bs[i], d + ws[i] * k)
P
count "$tmp/seqloop.ptx" '^\.visible \.entry kerb_kernel_0_map\(' 1
at_least "$tmp/seqloop.ptx" 'ld\.global\.nc\.u8' 1
at_least "$tmp/seqloop.ptx" 'ld\.global\.nc\.u32' 1
at_least "$tmp/seqloop.ptx" 'min\.s16' 1
# Only where it pays: a loop that reads no array stays on the host (no kernel), and a
# loop in a map's lambda is the map's (one map, no map of one thread).
emit seqloop_scalars ir <<'P'
entry main (n: i64) (x: i32) : i32 = loop acc = x for i < n do acc * 3 + i32.i64 i
P
count "$tmp/seqloop_scalars.ir" 'seq_iota' 0
count "$tmp/seqloop_scalars.ir" '= loop ' 1
emit seqloop_kernel ir <<'P'
entry main [n] (xs: [n]i32) (m: i64) : []i32 = map (\j -> loop acc = 0 for i < n do acc + xs[(i + j) % n]) (iota m)
P
count "$tmp/seqloop_kernel.ir" 'seq_iota' 0
count "$tmp/seqloop_kernel.ir" '= map ' 1

# Host code keeps its stack buffers in the entry block: a kernel launched in a host
# loop (its argument buffer), a host array literal and a host failure's values would
# otherwise grow the stack every iteration (finpar/InterestCalib died of SIGSEGV on the
# GPU after millions of launches; 30 million iterations of this loop on the CPU device).
emit host_loop_launch llvm <<'P'
entry main (n: i64) (xs: []f32) (k: i64) : []f32 =
  loop ys = xs for i < n do map (+ f32.i64 ([i, k, 2][i % 3] / k)) ys
P
awk '/^define /{f = 1; late = 0; next} /^}/{f = 0} f && /^[A-Za-z0-9_.]+:/ && $1 != "entry:" {late = 1}
     f && late && /= alloca /{print}' "$tmp/host_loop_launch.llvm" >"$tmp/host_loop_launch.late"
count "$tmp/host_loop_launch.late" 'alloca' 0

# The kernel IR (--emit=kernels; codegen/kernel_ir.h): which kernels a program gets and
# how each runs, without reading LLVM.
# A map of straight-line scalar code: four elements a thread, one kernel.
emit k_map kernels <<'P'
entry main (xs: []f32) : []f32 = map (\x -> x * 2 + 1) xs
P
count "$tmp/k_map.kernels" '^  map_[0-9]+ = segmap\(grid\) \[xs_n0_0\]: lanes, 4 elements a thread' 1
count "$tmp/k_map.kernels" '^    kernel map: ceil\(xs_n0_0 / 4\) threads$' 1
count "$tmp/k_map.kernels" 'kernel ' 1
# A reduction with a commutative operator: the block tree, two launches.
emit k_reduce kernels <<'P'
entry main (xs: []i32) : i32 = reduce (+) 0 xs
P
count "$tmp/k_reduce.kernels" '= segred\(grid\) \[xs_n0_0\] comm: block tree, 4 lanes where aligned' 1
count "$tmp/k_reduce.kernels" '^    kernel reduce: num_blocks\(xs_n0_0\) blocks of 256 threads, 8 blocks/SM$' 1
count "$tmp/k_reduce.kernels" '^    kernel reduce_partials: 1 block of 256 threads, 8 blocks/SM$' 1
# Any other operator: warp-contiguous runs, 15 i32 a thread per tile.
emit k_reduce_order kernels <<'P'
entry main (xs: []i32) : i32 = reduce (\a b -> a * 3 + b) 0 xs
P
count "$tmp/k_reduce_order.kernels" '= segred\(grid\) \[xs_n0_0\]: warp-contiguous runs, 15 elements a thread per tile' 1
# A scan: in one pass from --scan-single-pass-min elements (default 1) for one scalar
# of at most 32 bits, from --scan-single-pass-wide-min (default off) for others, else
# reduce-then-scan; off: reduce-then-scan only.
emit k_scan kernels <<'P'
entry main (xs: []i32) : []i32 = scan (+) 0 xs
P
count "$tmp/k_scan.kernels" '= segscan\(grid\) \[xs_n0_0\] comm \(' 1
count "$tmp/k_scan.kernels" '^    if xs_n0_0 >= 1: single pass \(decoupled look-back\), one tile of 128 x 24 elements per block$' 1
count "$tmp/k_scan.kernels" '^      kernel scan_single_pass: tiles\(xs_n0_0\) blocks of 128 threads$' 1
count "$tmp/k_scan.kernels" '^    otherwise: reduce-then-scan, 15 elements a thread per tile$' 1
count "$tmp/k_scan.kernels" '^      kernel scan_totals: num_blocks\(xs_n0_0\) blocks' 1
count "$tmp/k_scan.kernels" '^      kernel scan: num_blocks\(xs_n0_0\) blocks' 1
emit k_scan_min kernels --scan-single-pass-wide-min=100000 <<'P'
entry main (xs: [](i64, f32)) : [](i64, f32) = scan (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) xs
P
count "$tmp/k_scan_min.kernels" '^    if xs_n0_0 >= 100000: single pass \(decoupled look-back\), one tile of 256 x 5 elements per block$' 1
emit k_scan_off kernels --scan-single-pass-min=off <<'P'
entry main (xs: []i32) : []i32 = scan (+) 0 xs
P
count "$tmp/k_scan_off.kernels" '= segscan\(grid\) \[xs_n0_0\] comm: reduce-then-scan, 15 elements a thread per tile' 1
count "$tmp/k_scan_off.kernels" 'single pass' 0
emit k_scan_wide kernels <<'P'
entry main (xs: []i64) : []i64 = scan (+) 0 xs
P
count "$tmp/k_scan_wide.kernels" 'single pass' 0
# A map fused into a reduction: no kernel of its own, computed in the reduction's (whose
# checks, the map2's size check's none here, defer where it can fail: a division).
emit k_mapred kernels <<'P'
entry main (xs: []i32) (ys: []i32) : i32 = reduce (+) 0 (map2 (/) xs ys)
P
count "$tmp/k_mapred.kernels" '^  map_[0-9]+ = segmap\(grid\) \[xs_n0_0\]: fused' 1
count "$tmp/k_mapred.kernels" '^    fused: map map_[0-9]+ ' 1
count "$tmp/k_mapred.kernels" '^    in: xs_n0_0, xs_1, ys_3; out: reduce_[0-9]+$' 1
count "$tmp/k_mapred.kernels" '^    kernel reduce: .*, checks deferred$' 1
count "$tmp/k_mapred.kernels" 'kernel map' 0
emit k_mapred_unsafe kernels --unsafe <<'P'
entry main (xs: []i32) (ys: []i32) : i32 = reduce (+) 0 (map2 (/) xs ys)
P
count "$tmp/k_mapred_unsafe.kernels" 'checks deferred|prelude' 0
# A 2-D map (perfectly nested maps): one thread per inner element in 2-D tiles, with a
# 32-bit version the host takes when the sizes fit.
emit k_map2d kernels <<'P'
entry main (n: i64) (m: i64) : [][]i64 = map (\i -> map (\j -> i * m + j) (iota m)) (iota n)
P
count "$tmp/k_map2d.kernels" '^  map_[0-9]+ = segmap\(grid\) \[n_0\]\[m_1\] ' 1
count "$tmp/k_map2d.kernels" '^    if the sizes fit 32 bits: 2-D tiles, 4 rows a thread from 64 rows, 32-bit indices$' 1
count "$tmp/k_map2d.kernels" '^    otherwise: 2-D tiles, 4 rows a thread from 64 rows$' 1
count "$tmp/k_map2d.kernels" '^      kernel map: tiles of n_0 x max\(m_1, 1\) threads' 2
count "$tmp/k_map2d.kernels" '^  iota_[0-9]+ = iota\(grid\) \[n_0\]: fused' 1
# Four rows a thread with checks in the element: both kernels bounded to eight blocks an
# SM (Note [Rows per thread]); without checks only the 32-bit one.
emit k_map2d_checked kernels <<'P'
entry main [n][m] (a: [n][m]f32) (is: [n]i64) : [n][m]f32 = map (\i -> map (\j -> a[is[i], j]) (iota m)) (iota n)
P
count "$tmp/k_map2d_checked.kernels" '^      kernel map: tiles of .*, 8 blocks/SM$' 2
emit k_map2d_unchecked kernels --unsafe <<'P'
entry main [n][m] (a: [n][m]f32) (is: [n]i64) : [n][m]f32 = map (\i -> map (\j -> a[is[i], j]) (iota m)) (iota n)
P
count "$tmp/k_map2d_unchecked.kernels" '^      kernel map: tiles of .*, 8 blocks/SM$' 1
# Three nested maps whose inner element is straight-line code: the two-map versions,
# four middle elements of one outer element a thread and a 32-bit version (Note [Three
# nested maps] in codegen/thread_kernels.cpp), the launch bounds as for two maps.
emit k_map3d kernels <<'P'
entry main [k][n][m] (as: [k][n][m]f32) (bs: [k][2][m]f32) : [k][n][m]f32 =
  map2 (\a b -> map (\r -> map (\j -> r[j] * b[0, j] + b[1, j]) (iota m)) a) as bs
P
count "$tmp/k_map3d.kernels" '^  map_[0-9]+ = segmap\(grid\) \[as_n0_0\]\[as_n1_1\]\[as_n2_2\] ' 1
count "$tmp/k_map3d.kernels" '^    if the sizes fit 32 bits: 2-D tiles, 4 rows a thread from 64 rows, 32-bit indices$' 1
count "$tmp/k_map3d.kernels" '^    otherwise: 2-D tiles, 4 rows a thread from 64 rows$' 1
count "$tmp/k_map3d.kernels" '^      kernel map: tiles of as_n0_0 \* max\(as_n1_1, 1\) x max\(as_n2_2, 1\) threads, .*8 blocks/SM$' 2
# ... and a product's dot (a reduction in the inner element: bench/batched_matmul.fut's
# `rows`): four rows a thread, their reductions in one loop, 64-bit only, no bound.
emit k_map3d_loop kernels <<'P'
entry main [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  map2 (\a b -> map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a) as bs
P
count "$tmp/k_map3d_loop.kernels" '^    otherwise: 2-D tiles, 4 rows a thread from 64 rows, their reductions in one loop$' 1
count "$tmp/k_map3d_loop.kernels" '32 bits|blocks/SM' 0
# ... whose version before the tiles is a block per few products, their arrays copied
# into shared memory (Note [Small elements staged in shared memory] in
# codegen/staged_kernels.cpp): each array's element at most --stage-max elements (1024,
# or fewer for what 16 KB holds), at least 64 outputs an element (--stage-min-outputs).
count "$tmp/k_map3d_loop.kernels" '^    if each element of as_[0-9]+, bs_[0-9]+ has <= 1024 elements and 64 <= as_n1_1 \* max\(bs_n2_6, 1\) <= 16777216: one block per outer element, its arrays in shared memory \(as_[0-9]+, bs_[0-9]+\), as many elements a block as the copies hold, at most 8$' 1
count "$tmp/k_map3d_loop.kernels" '^      kernel staged: ceil\(as_n0_0 / its elements a block\) blocks of 256 threads$' 1
emit k_map3d_stage kernels --stage-max=5000 --stage-min-outputs=1 <"$tmp/k_map3d_loop.fut"
count "$tmp/k_map3d_stage.kernels" '^    if each element of as_[0-9]+, bs_[0-9]+ has <= 2048 elements and 1 <= ' 1
emit k_map3d_nostage kernels --stage-max=off <"$tmp/k_map3d_loop.fut"
count "$tmp/k_map3d_nostage.kernels" 'shared memory|staged' 0
count "$tmp/k_map3d_nostage.kernels" '^  map_[0-9]+ = segmap\(grid\) \[as_n0_0\]\[as_n1_1\]\[bs_n2_6\]: 2-D tiles, 4 rows a thread from 64 rows, their reductions in one loop \(' 1
# Its PTX: one barrier (after the copies), global loads of both arrays issued before
# their stores into shared memory (four indices of each a thread), and the four rows'
# reductions in one loop reading shared memory: a[i + u, k] for four rows and b[k, j]
# once, 5 loads for 4 fma a step.
emit k_map3d_stage ptx <"$tmp/k_map3d_loop.fut"
awk '/^\.visible \.entry kerb_kernel_[0-9]+_staged/ { p = 1; next } /^\.visible \.entry/ { p = 0 } p' \
  "$tmp/k_map3d_stage.ptx" >"$tmp/k_map3d_stage.staged"
count "$tmp/k_map3d_stage.staged" 'bar\.sync' 1
at_least "$tmp/k_map3d_stage.staged" 'st\.shared\.f32' 8
awk '/ld\.global\.nc\.f32/ { if (++n > most) most = n } /st\.shared\.f32/ { n = 0 } END { print most + 0 }' \
  "$tmp/k_map3d_stage.staged" >"$tmp/k_map3d_stage.first"
count "$tmp/k_map3d_stage.first" '^8$' 1
awk '/^\$L__BB[0-9_]+:/ { if (fma >= 4 && 4 * lds <= 5 * fma) found++; fma = 0; lds = 0 }
     /fma\.rn\.f32/ { fma++ } /ld\.shared\.f32/ { lds++ } END { print found + 0 }' \
  "$tmp/k_map3d_stage.staged" >"$tmp/k_map3d_stage.loop"
count "$tmp/k_map3d_stage.loop" '^[1-9]' 1
# A product with statements of the element around the dot (LUD's update `a[i, j] -
# dot`: a read at the output's indices and a subtraction): the block and register tiles
# run them per output when it is stored (Note [Matrix products]).
emit k_lud kernels <<'P'
entry main [n][m] (a: [n][n]f32) (l: [n][m]f32) (u: [m][n]f32) : [n][n]f32 =
  map (\i -> map (\j -> a[i, j] - reduce (+) 0f32 (map (\k -> l[i, k] * u[k, j]) (iota m))) (iota n)) (iota n)
P
count "$tmp/k_lud.kernels" '^    if a_n0_0 >= 32 and a_n0_0 >= 32: block and register tiles \(.*reads l_[0-9]+\[i, k\], u_[0-9]+\[k, j\]; 2 statements of the element per output\)$' 1
# A map whose lambda makes an array sized by the element: a host loop, whose body's
# operations are kernels of their own.
emit k_hostloop kernels <<'P'
entry main (ns: []i64) : []i64 = map (\n -> reduce (+) 0 (replicate n 1)) ns
P
count "$tmp/k_hostloop.kernels" '^  map_[0-9]+ = segmap\(grid\) \[ns_n0_0\]: host loop' 1
count "$tmp/k_hostloop.kernels" '^    each element, on the host:$' 1
count "$tmp/k_hostloop.kernels" '^      rep_[0-9]+ = replicate\(grid\) \[x_[0-9]+\]: one thread per element' 1
count "$tmp/k_hostloop.kernels" '^      reduce_[0-9]+ = segred\(grid\) \[x_[0-9]+\] comm: block tree' 1
# A map whose lambda reduces: versions the host chooses among by the sizes, and the
# reduction inside the element (sequential in the last version).
emit k_segred kernels <<'P'
entry main [n][m] (w: [m][n]f32) (x: [m]f32) : [n]f32 =
  map (\j -> reduce (+) 0 (map (\i -> w[i, j] * x[i]) (iota m))) (iota n)
P
count "$tmp/k_segred.kernels" '^    if 1 <= w_n1_1 <= 64 and num_blocks\(w_n0_0\) > 1: segmented reduction across rows' 1
count "$tmp/k_segred.kernels" '^    if w_n1_1 <= 16384 and num_blocks\(w_n0_0\) > 1: segmented reduction$' 1
count "$tmp/k_segred.kernels" '^    otherwise: one thread per element$' 1
count "$tmp/k_segred.kernels" '^      kernel segred_segments: w_n1_1 blocks of 256 threads, prelude, checks deferred$' 2
count "$tmp/k_segred.kernels" '^      reduce_[0-9]+ = segred\(thread\) \[w_n0_0\]: sequential' 1
# reduce_by_index of f32 sums into a memset replicate: a histogram in shared memory that
# updates the replicate's buffer in place.
emit k_hist kernels <<'P'
entry main (is: []i64) (vs: []f32) : []f32 = reduce_by_index (replicate 10 0) (+) 0 is vs
P
count "$tmp/k_hist.kernels" '= replicate\(grid\) \[10\]: memset' 1
count "$tmp/k_hist.kernels" '= seghist\(grid\) \[is_n0_0\] comm: shared-memory histogram, atomic add, 8 updates in flight' 1
count "$tmp/k_hist.kernels" '^    updates rep_[0-9]+ in place$' 1

# --deferred-loads (Note [Deferred loads]): a deferred check in a for-loop's body guards
# its load with a predicate by default; with for-loops, by selecting the address to a
# fallback there, while a while-loop's loads stay predicated; with select, everywhere.
emit dl_pred ptx <<'P'
entry main [n][m] (cols: [n]i64) (x: [m]f32) (k: i64) : f32 =
  (loop acc = 0f32 for j < k do acc + x[cols[j]]) + (loop (i, a) = (0, 0f32) while i < k do (i + 1, a + x[cols[i] + 1]) ).1
P
count "$tmp/dl_pred.ptx" '@%p[0-9]+ ld\.global' 7
count "$tmp/dl_pred.ptx" 'kerb_deferred_fallback' 0
emit dl_forloops ptx --deferred-loads=for-loops <<'P'
entry main [n][m] (cols: [n]i64) (x: [m]f32) (k: i64) : f32 =
  (loop acc = 0f32 for j < k do acc + x[cols[j]]) + (loop (i, a) = (0, 0f32) while i < k do (i + 1, a + x[cols[i] + 1]) ).1
P
count "$tmp/dl_forloops.ptx" '@%p[0-9]+ ld\.global' 2
count "$tmp/dl_forloops.ptx" 'kerb_deferred_fallback' 2
emit dl_select ptx --deferred-loads=select <<'P'
entry main [n][m] (cols: [n]i64) (x: [m]f32) (k: i64) : f32 =
  (loop acc = 0f32 for j < k do acc + x[cols[j]]) + (loop (i, a) = (0, 0f32) while i < k do (i + 1, a + x[cols[i] + 1]) ).1
P
count "$tmp/dl_select.ptx" '@%p[0-9]+ ld\.global' 0
count "$tmp/dl_select.ptx" 'kerb_deferred_fallback' 3

# One block per row (Note [One block per row] in codegen/row_block_kernels.cpp): softmax
# gets a version guarded on the row's length whose inner operations are at the block
# level, before one thread per row; its kernel combines with warp shuffles and block
# barriers that tell whether a thread failed (bar.red.or), and no thread of it leaves
# alone before one (its PTX: shfl.sync down, five steps a reduction; no bar.sync).
softmax_program='def softmax [m] (row: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) row
  let es = map (\x -> f32.exp (x - mx)) row
  let s = reduce (+) 0f32 es
  in map (\e -> e / s) es
entry main [n][m] (xss: [n][m]f32) : [n][m]f32 = map softmax xss
'
emit k_softmax kernels <<<"$softmax_program"
count "$tmp/k_softmax.kernels" '^    if xss_n1_1 >= 64: one block per element$' 1
count "$tmp/k_softmax.kernels" '^      kernel row_block: xss_n0_0 blocks of 256 threads$' 1
count "$tmp/k_softmax.kernels" '^    otherwise: one thread per element$' 1
count "$tmp/k_softmax.kernels" '^    each element, in its block \(one block or warp per element\):$' 1
count "$tmp/k_softmax.kernels" '^      reduce_[0-9]+ = segred\(block\) \[xss_n1_1\] comm: striped' 2
count "$tmp/k_softmax.kernels" '^      map_[0-9]+ = segmap\(block\) \[xss_n1_1\]: fused' 1
count "$tmp/k_softmax.kernels" '^      map_[0-9]+ = segmap\(block\) \[xss_n1_1\]: striped' 1
count "$tmp/k_softmax.kernels" '^      reduce_[0-9]+ = segred\(thread\) \[xss_n1_1\]: sequential' 2
emit k_softmax_off kernels --row-block-min=off <<'P'
entry main [n][m] (xss: [n][m]f32) : [n]f32 = map (\r -> reduce (+) 0 r / reduce f32.max 0 r) xss
P
count "$tmp/k_softmax_off.kernels" 'one block|\(block\)' 0
emit k_softmax_min kernels --row-block-min=1000 <<'P'
entry main [n][m] (xss: [n][m]f32) : [n]f32 = map (\r -> reduce (+) 0 r / reduce f32.max 0 r) xss
P
count "$tmp/k_softmax_min.kernels" '^    if xss_n1_1 >= 1000: one block per element$' 1
# A map over scalars whose lambda reduces over arrays of the host that every element
# reads whole (N-body's shape; Note [Arrays every element reads] in
# codegen/extract_kernels.cpp) gets the same versions after the segmented reduction's;
# not where the reduction's map gathers (a[i, k], ys[i]) or is over an iota.
emit k_host_arrays kernels <<'P'
entry main [n][m] (xs: [n]f32) (ys: [m]f32) (ws: [m]f32) : [n]f32 =
  map (\x -> reduce (+) 0 (map2 (\y w -> w * (y - x) * (y - x)) ys ws)) xs
P
count "$tmp/k_host_arrays.kernels" '^    if xs_n0_0 <= 16384 and num_blocks\(ys_n0_2\) > 1: segmented reduction$' 1
count "$tmp/k_host_arrays.kernels" '^    if 64 <= ys_n0_2 and \(ys_n0_2 <= 1024 or xs_n0_0 >= 16384\) and xs_n0_0 >= 2048: one warp per element, 8 a block$' 1
count "$tmp/k_host_arrays.kernels" '^    if ys_n0_2 >= 64: one block per element$' 1
count "$tmp/k_host_arrays.kernels" '^      reduce_[0-9]+ = segred\(block\) \[ys_n0_2\] comm: striped' 1
emit k_host_gather kernels <<'P'
entry main [n][m] (xs: [n]f32) (a: [n][m]f32) (ys: [m]f32) (is: [m]i64) : ([n]f32, [n]f32, [n]f32) =
  (map (\i -> reduce (+) 0 (map (\k -> a[i, k] * xs[i]) (iota m))) (iota n),
   map (\x -> reduce (+) 0 (map (\i -> ys[i] * x) is)) xs,
   map (\x -> reduce (+) 0 (map (\k -> f32.i64 k * x) (iota m))) xs)
P
count "$tmp/k_host_gather.kernels" 'one block|one warp|\(block\)' 0
count "$tmp/k_host_gather.kernels" '^    if xs_n0_0 <= 16384 and num_blocks\([a-z_0-9]+\) > 1: segmented reduction$' 3
emit softmax ptx <<<"$softmax_program"
awk '/^\.visible \.entry kerb_kernel_[0-9]+_row_block\(/ { p = 1 } /^\.visible \.entry kerb_kernel_[0-9]+_map\(/ { p = 0 } p' \
  "$tmp/softmax.ptx" >"$tmp/softmax.ptx.rb"
count "$tmp/softmax.ptx.rb" 'shfl\.sync\.down\.b32' 10
count "$tmp/softmax.ptx.rb" 'bar\.red\.or\.pred' 2
count "$tmp/softmax.ptx.rb" 'bar\.sync|barrier\.sync' 0
at_least "$tmp/softmax.ptx.rb" 'ld\.global\.nc\.f32' 3
count "$tmp/softmax.ptx.rb" 'ld\.global\.f32' 0
# A scan of the row: four tiles of 256 loaded at a time, then each scanned: shuffles up
# (five steps) and one barrier per tile, the row stored in place.
emit rowscan ptx <<'P'
entry main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scan (+) 0 row) xss
P
awk '/^\.visible \.entry kerb_kernel_[0-9]+_row_block\(/ { p = 1 } /^\.visible \.entry kerb_kernel_[0-9]+_map\(/ { p = 0 } p' \
  "$tmp/rowscan.ptx" >"$tmp/rowscan.ptx.rb"
count "$tmp/rowscan.ptx.rb" 'shfl\.sync\.up\.b32' 20
count "$tmp/rowscan.ptx.rb" 'bar\.red\.or\.pred' 4
# Rows in shared memory (Note [Rows in shared memory] in codegen/row_cache.cpp): softmax's
# row, which three inner operations read, gets a version before the plain one that
# copies it into shared memory, its only global loads (read-only), each stored into the
# copy; then a barrier more (three) and every other read from shared memory. With
# --row-cache-max=off, or for a row read once (a prefix sum), no such version; two rows
# of 8 bytes fit 2048 elements each in 32 KB.
emit k_softmax_cached kernels <<<"$softmax_program"
count "$tmp/k_softmax_cached.kernels" '^    if xss_n1_1 >= 64 and the rows of xss_[0-9]+ have <= 4096 elements: one block per element, rows in shared memory \(xss_[0-9]+\)$' 1
count "$tmp/k_softmax_cached.kernels" '^      kernel row_cache: xss_n0_0 blocks of 256 threads$' 1
count "$tmp/k_softmax_cached.kernels" '^    if xss_n1_1 >= 64: one block per element$' 1
emit k_softmax_nocache kernels --row-cache-max=off <<<"$softmax_program"
count "$tmp/k_softmax_nocache.kernels" 'row_cache|shared memory' 0
count "$tmp/k_softmax_nocache.kernels" '^    if xss_n1_1 >= 64: one block per element$' 1
emit k_softmax_cache1000 kernels --row-cache-max=1000 <<<"$softmax_program"
count "$tmp/k_softmax_cache1000.kernels" 'have <= 1000 elements: one block per element, rows in shared memory' 1
emit k_rowscan kernels <<'P'
entry main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scan (+) 0 row) xss
P
count "$tmp/k_rowscan.kernels" 'row_cache|shared memory' 0
# --row-warp-rows=off: a warp per row only for rows of at most --row-warp-max elements.
emit k_rowscan_nomany kernels --row-warp-rows=off <<'P'
entry main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scan (+) 0 row) xss
P
count "$tmp/k_rowscan_nomany.kernels" '^    if 64 <= xss_n1_1 <= 1024 and xss_n0_0 >= 2048: one warp per element, 8 a block$' 1
emit k_pair kernels <<'P'
entry main [n][m] (xss: [n][m]i64) (yss: [n][m]f64) : [n][m]f64 =
  map2 (\xs ys -> let s = reduce (+) 0 (map2 (\x y -> f64.i64 x * y) xs ys)
                  in map2 (\x y -> f64.i64 x + y / s) xs ys) xss yss
P
count "$tmp/k_pair.kernels" 'the rows of xss_[0-9]+, yss_[0-9]+ have <= 2048 elements' 1
awk '/^\.visible \.entry kerb_kernel_[0-9]+_row_cache\(/ { p = 1 } /^\.visible \.entry kerb_kernel_[0-9]+_row_block\(/ { p = 0 } p' \
  "$tmp/softmax.ptx" >"$tmp/softmax.ptx.rc"
at_least "$tmp/softmax.ptx.rc" 'ld\.global\.nc\.f32' 1
count "$tmp/softmax.ptx.rc" 'ld\.global\.f32' 0
count "$tmp/softmax.ptx.rc" 'st\.shared\.f32' "$(grep -cE 'ld\.global' "$tmp/softmax.ptx.rc")"
at_least "$tmp/softmax.ptx.rc" 'ld\.shared\.f32' 3
count "$tmp/softmax.ptx.rc" 'bar\.red\.or\.pred' 3
count "$tmp/softmax.ptx.rc" 'shfl\.sync\.down\.b32' 10
# A warp per row (Note [A warp per row] in codegen/row_block_kernels.cpp): before both,
# for rows of at most 1024 (256 for two 8-byte rows copied per warp, eight warps a
# block) and at least 2048 rows; its barriers are the warp's (bar.warp.sync, then vote.sync.any where the
# block has bar.red.or), none of the block's; its copy reads eight at a time.
count "$tmp/k_softmax_cached.kernels" '^    if 64 <= xss_n1_1 and \(xss_n1_1 <= 1024 or xss_n0_0 >= 16384\) and xss_n0_0 >= 2048 and the rows of xss_[0-9]+ have <= 1024 elements: one warp per element, 8 a block, rows in shared memory \(xss_[0-9]+\)$' 1
count "$tmp/k_softmax_cached.kernels" '^      kernel row_warp: ceil\(xss_n0_0 / 8\) blocks of 256 threads$' 1
count "$tmp/k_softmax_nocache.kernels" '^    if 64 <= xss_n1_1 and \(xss_n1_1 <= 1024 or xss_n0_0 >= 16384\) and xss_n0_0 >= 2048: one warp per element, 8 a block$' 1
count "$tmp/k_rowscan.kernels" '^    if 64 <= xss_n1_1 and \(xss_n1_1 <= 1024 or xss_n0_0 >= 16384\) and xss_n0_0 >= 2048: one warp per element, 8 a block$' 1
count "$tmp/k_pair.kernels" 'if 64 <= xss_n1_1 and \(xss_n1_1 <= 256 or xss_n0_0 >= 16384\) and xss_n0_0 >= 2048 and the rows of xss_[0-9]+, yss_[0-9]+ have <= 256 elements: one warp' 1
emit k_softmax_nowarp kernels --row-warp-max=off <<<"$softmax_program"
count "$tmp/k_softmax_nowarp.kernels" 'row_warp|one warp' 0
count "$tmp/k_softmax_nowarp.kernels" 'kernel row_cache' 1
awk '/^\.visible \.entry kerb_kernel_[0-9]+_row_warp\(/ { p = 1 } /^\.visible \.entry kerb_kernel_[0-9]+_row_cache\(/ { p = 0 } p' \
  "$tmp/softmax.ptx" >"$tmp/softmax.ptx.rw"
count "$tmp/softmax.ptx.rw" 'bar\.red|bar\.sync|barrier\.sync' 0
count "$tmp/softmax.ptx.rw" 'bar\.warp\.sync' 3
count "$tmp/softmax.ptx.rw" 'vote\.sync\.any\.pred' 3
count "$tmp/softmax.ptx.rw" 'shfl\.sync\.down\.b32' 10
at_least "$tmp/softmax.ptx.rw" 'ld\.global\.nc\.f32' 8
count "$tmp/softmax.ptx.rw" 'st\.shared\.f32' "$(grep -cE 'ld\.global' "$tmp/softmax.ptx.rw")"
awk '/^\.visible \.entry kerb_kernel_[0-9]+_row_warp\(/ { p = 1 } /^\.visible \.entry kerb_kernel_[0-9]+_row_block\(/ { p = 0 } p' \
  "$tmp/rowscan.ptx" >"$tmp/rowscan.ptx.rw"
count "$tmp/rowscan.ptx.rw" 'shfl\.sync\.up\.b32' 20
count "$tmp/rowscan.ptx.rw" 'vote\.sync\.any\.pred' 4
count "$tmp/rowscan.ptx.rw" 'bar\.red|bar\.sync|barrier\.sync' 0

# Loops over rows of their own (Note [Loops over rows, fewer threads] in
# codegen/extract_kernels.cpp): a CSR row's loop reads vals[s + j] and cols[s + j], so
# its kernel runs at most as many blocks an SM as keep a 128-byte line of both rows of
# every thread in 224 KB of L1 (3; one row: 7), or --loop-blocks-per-sm=N; off, or a
# loop that reads a shared array at j (no row of its own) or a binary search's while
# loop, keeps every block that fits.
emit k_csr kernels <<'P'
entry main [n][nnz][m] (rp: [n]i64) (re: [n]i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: [m]f32) : [n]f32 =
  map (\r -> let s = rp[r]
             let e = re[r]
             in loop acc = 0f32 for j < e - s do acc + vals[s + j] * x[cols[s + j]]) (iota n)
P
count "$tmp/k_csr.kernels" '^    kernel map: rp_n0_0 threads, prelude, checks deferred, at most 3 blocks/SM if cols_[0-9]+ has >= 8 elements a thread$' 1
emit k_csr_auto kernels --loop-blocks-per-sm=auto <"$tmp/k_csr.fut"
count "$tmp/k_csr_auto.kernels" 'at most 3 blocks/SM if cols_[0-9]+ has >= 8 elements a thread$' 1
emit k_one_row kernels <<'P'
entry main [n][nnz] (rp: [n]i64) (re: [n]i64) (vals: [nnz]f32) : [n]f32 =
  map (\r -> let s = rp[r]
             let e = re[r]
             in loop acc = 0f32 for j < e - s do acc + vals[s + j]) (iota n)
P
count "$tmp/k_one_row.kernels" '^    kernel map: rp_n0_0 threads, prelude, checks deferred, at most 7 blocks/SM if vals_[0-9]+ has >= 8 elements a thread$' 1
emit k_csr_off kernels --loop-blocks-per-sm=off <"$tmp/k_csr.fut"
count "$tmp/k_csr_off.kernels" 'blocks/SM' 0
emit k_csr_6 kernels --loop-blocks-per-sm=6 --unsafe <"$tmp/k_csr.fut"
count "$tmp/k_csr_6.kernels" '^    kernel map: rp_n0_0 threads, at most 6 blocks/SM if cols_[0-9]+ has >= 8 elements a thread$' 1
emit k_loop_shared kernels <<'P'
entry main [n][m] (a: [m]f32) (b: [n]f32) : [n]f32 =
  map (\y -> loop acc = 0f32 for j < m do acc + a[j] * y) b
P
count "$tmp/k_loop_shared.kernels" 'blocks/SM' 0
emit k_bsearch kernels <<'P'
entry main [n][m] (xs: [m]i64) (qs: [n]i64) : [n]i64 =
  map (\q -> let (lo, _) = loop (lo, hi) = (0i64, m) while lo < hi do
                            let mid = (lo + hi) / 2
                            in if xs[mid] < q then (mid + 1, hi) else (lo, mid)
             in lo) qs
P
count "$tmp/k_bsearch.kernels" 'blocks/SM' 0

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
