#!/usr/bin/env python3
"""Writes program.fut: a 500-line program of the kind real ones are (numeric
functions, maps, reductions, a histogram, a stencil in a loop, a record, higher-order
helpers and lambdas, 23 entry points), for timing `kerb compile` (compile_time.sh).
Deterministic: the same text every run."""

import os

HEADER = """\
-- A program of about 500 lines for timing the compiler (bench/compile_time/README.md):
-- written by gen_program.py; do not edit.

def apply_n 'a (n: i64) (f: a -> a) (x: a) : a = loop x for _i < n do f x

type stats = {mean: f32, var: f32}
"""

BLOCK = """\
-- Block {k}.
def scale_{k} (a: f32) (xs: []f32) : []f32 = map (\\x -> a * x + {k}.5f32) xs
def stats_{k} [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\\x -> (x - m) * (x - m)) xs)
  in {{mean = m, var = v}}
def hist_{k} [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\\i -> i64.abs i % m) is) (replicate n 1)
def stencil_{k} [n] (xs: [n]f32) : [n]f32 =
  map (\\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_{k} [n] (xs: [n]f32) : [n]f32 = apply_n {steps} stencil_{k} xs
entry main_{k} (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_{k} (scale_{k} a xs)
  let st = stats_{k} ys
  let h = hist_{k} is {bins}
  let top = reduce f32.max (-f32.inf) (map2 (\\y j -> y * f32.i32 h[j % {bins}]) ys (indices ys))
  in (st.mean, st.var, h, top)

"""


def main():
    parts = [HEADER]
    k = 0
    while sum(p.count("\n") for p in parts) < 495:
        parts.append(BLOCK.format(k=k, steps=1 + k % 4, bins=8 + k))
        k += 1
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "program.fut")
    with open(out, "w") as f:
        f.write("".join(parts).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
