#!/usr/bin/env bash
# The check toggles end to end (DESIGN.md "Toggles"; issue 4's done-when):
# - `#[unsafe]` on a function and on an expression disables exactly the check sites it
#   covers: `kerb check --report-checks` of toggles/unsafe_sites.fut, site by site
#   (location, kind, kept/disabled), against the list below; without the attributes
#   every site is kept; under --unsafe every site is disabled;
# - the opt-in nan kind: toggles/nan_checks.fut passes with --checks=default,nan on the
#   interpreter and the CPU device (the test format has no per-file options).
# Usage: toggles_test.sh PATH/TO/kerb tests/cli [DEVICE...]   (devices: interp cpu)
set -uo pipefail
kerb=$1
dir=$2/toggles
shift 2
devices=("$@")
[ ${#devices[@]} -eq 0 ] && devices=(interp cpu)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# "LOCATION KIND STATE" per site, sorted (STATE: kept, or what disabled it).
sites() {
  "$kerb" check --report-checks "$@" | tail -n +2 |
    sed -E 's/^[^:]*:([0-9]+:[0-9]+-[0-9]+) +([a-z]+) +(kept|disabled \([^)]*\)?\)?|eliminated).*/\1 \2 \3/' |
    sed -E 's/kept \(code [0-9]+\)/kept/; s/ \(code [0-9]+\)//; s/disabled \(#\[unsafe\] at function .([a-z_]+).*/unsafe-fn \1/; s/disabled \(#\[unsafe\] at [^:]*:([0-9:-]+)\)/unsafe-exp \1/; s/disabled \(--unsafe\)/--unsafe/' |
    sort
}

checks=$((checks + 1))
sites "$dir/unsafe_sites.fut" >"$tmp/got"
# is[i] (10:22-26) has i from iota (length is): proved in range, and `iota (length is)`
# cannot have a negative size (docs/CHECKS.md, Note [Proved in range]): eliminated.
sort >"$tmp/want" <<'W'
10:22-26 bounds eliminated
11:8-23 range eliminated
7:46-50 bounds kept
6:48-52 bounds unsafe-fn get
6:56-60 bounds unsafe-fn get
6:48-60 div unsafe-fn get
10:43-47 bounds unsafe-exp 10:32-61
8:40-44 bounds unsafe-exp 10:32-61
10:43-60 div unsafe-exp 10:32-61
W
if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
  fail "#[unsafe] sites of unsafe_sites.fut differ:"; cat "$tmp/diff"
fi

# Without the attributes (same columns: `#[unsafe]` becomes 9 spaces) every site is kept.
checks=$((checks + 1))
sed 's/#\[unsafe\]/         /' "$dir/unsafe_sites.fut" >"$tmp/unsafe_sites.fut"
sites "$tmp/unsafe_sites.fut" >"$tmp/got_safe"
sed -E 's/ (unsafe-fn|unsafe-exp) .*/ kept/' "$tmp/want" | sort >"$tmp/want_safe"
if ! diff -u "$tmp/want_safe" "$tmp/got_safe" >"$tmp/diff"; then
  fail "without #[unsafe] not every site is kept:"; cat "$tmp/diff"
fi

# --unsafe: every site is disabled by it.
checks=$((checks + 1))
sites --unsafe "$dir/unsafe_sites.fut" >"$tmp/got_unsafe"
sed -E 's/ (kept|eliminated|unsafe-fn .*|unsafe-exp .*)$/ --unsafe/' "$tmp/want" | sort >"$tmp/want_unsafe"
if ! diff -u "$tmp/want_unsafe" "$tmp/got_unsafe" >"$tmp/diff"; then
  fail "--unsafe does not disable every site:"; cat "$tmp/diff"
fi

# The nan kind, on each device.
for d in "${devices[@]}"; do
  checks=$((checks + 1))
  if ! "$kerb" test --checks=default,nan --device "$d" "$dir/nan_checks.fut" >"$tmp/out" 2>"$tmp/err"; then
    fail "kerb test --checks=default,nan --device $d nan_checks.fut:"; cat "$tmp/out"
  fi
done

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
