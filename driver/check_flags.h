// The check options that every compiling subcommand takes in the same way (kerb run,
// test, check, compile, bench): --unsafe, --checks=KINDS, --report-checks,
// --sync-checks (for the commands that run code), --dump-after=PASS. See
// docs/CHECKS.md for what they do.
#pragma once

#include "codegen/compiled_program.h"

#include <cstdio>
#include <string>
#include <vector>

namespace kerb::driver {

struct CheckFlags {
  CheckOptions checks;
  bool checks_given = false;  // --checks appeared
  bool report = false;        // --report-checks
  bool sync = false;          // --sync-checks
  bool fp_contract = true;    // --fp-contract=on|off
  bool deferred = true;       // --deferred-checks=on|off
  std::string deferred_loads = "predicated"; // --deferred-loads=predicated|select|for-loops
  bool scan_vectors = true;   // --scan-vectors=on|off
  // The strategies' thresholds (threshold_flags(): --row-block-min=N|off, ...), kept in
  // the GenOptions fields they set; the rest of `gen` is set from the flags above.
  codegen::GenOptions thresholds;
  std::vector<std::string> dump_after; // --dump-after=PASS (repeatable)

  // The compile options these flags ask for (dumps go to stderr).
  codegen::CompileOptions compile_options() const;
};

// Matches args[i] against the check options; returns true (advancing i past a separate
// value) when it is one. `runs_code`: the command runs programs, so --sync-checks is
// allowed. Throws UsageError for a bad value, --unsafe with --checks, or --sync-checks
// where nothing runs.
bool match_check_flag(const std::vector<std::string> &args, size_t &i, CheckFlags &flags,
                      bool runs_code);

// The options that set a strategy's threshold, `--NAME=N` or `--NAME=off` (-1: never),
// each a field of GenOptions, in the order variant names list them.
struct ThresholdFlag {
  const char *name;
  int64_t codegen::GenOptions::*field;
  const char *zero_word = nullptr; // a word the flag also takes for 0 ("auto"), if any
};
const std::vector<ThresholdFlag> &threshold_flags();

// Matches args[i] against threshold_flags() only (part of match_check_flag; for
// commands that take no other check option, as kerb difftest).
bool match_threshold_flag(const std::vector<std::string> &args, size_t &i, CheckFlags &flags);

// Prints the --report-checks listing of `program` to `out` (a compile error in the
// lowering is printed instead, as a note).
void print_check_report(const Program &program, const CheckFlags &flags, std::FILE *out);

} // namespace kerb::driver

// The help text of these options, to splice into a command's help (string literals):
// KERB_CHECK_FLAGS_HELP, then KERB_SYNC_CHECKS_HELP for the commands that run code.
#define KERB_CHECK_FLAGS_HELP                                                              \
  "Code generation:\n"                                                                     \
  "  --fp-contract=on|off  on (default): a float multiply and the add or subtract of its\n" \
  "                      result may run as one fused multiply-add in CUDA kernels (as\n"  \
  "                      nvcc's default, -fmad=true; the results can differ in the last\n" \
  "                      bits); off: every operation rounded on its own, as on the CPU\n" \
  "  --deferred-checks=on|off  on (default): in kernel threads, the bounds checks of\n"   \
  "                      loads and division checks do not branch (a flag, the index\n"  \
  "                      clamped; checks affine in a loop counter made once before the\n" \
  "                      loop); a thread whose flag is set runs its work again with\n"  \
  "                      every check branching, to report the first failure exactly;\n" \
  "                      off: every check branches where it stands (docs/CHECKS.md)\n"  \
  "  --deferred-loads=predicated|select|for-loops  how a deferred bounds check guards\n"  \
  "                      its load on the GPU: predicated (default), the address\n"       \
  "                      selected to a fallback, or selected in for-loops only (for\n"   \
  "                      measuring; docs/CHECKS.md)\n"                                     \
  "  --row-block-min=N|off  a map whose lambda reduces, scans and maps over its rows\n"  \
  "                      runs one block per row when the row has at least N elements\n" \
  "                      (default 64; a guard tested at run time), else one thread\n"   \
  "                      per row; off: always one thread (docs/CODEGEN.md)\n"          \
  "  --scan-single-pass-min=N|off  a scan of one scalar of at most 32 bits runs in\n" \
  "                      one pass (decoupled look-back) when it has at least N\n"   \
  "                      elements (default 1; a guard tested at run time), else\n"  \
  "                      reduce-then-scan; off: always reduce-then-scan\n"           \
  "  --scan-single-pass-wide-min=N|off  the same for scans of wider scalars and of\n" \
  "                      tuples (default off: reduce-then-scan) (docs/CODEGEN.md)\n" \
  "  --scan-vectors=on|off  on (default): the one pass of a scalar of at most 32 bits\n" \
  "                      reads and writes whole tiles 16 bytes at a time where the\n"  \
  "                      arrays are aligned (a guard tested at run time); off: one\n"  \
  "                      element at a time (for measuring)\n"                          \
  "  --row-cache-max=N|off  one block per row reads a row read more than once from\n"  \
  "                      global memory once, into shared memory, when the rows have\n"  \
  "                      at most N elements (default 4096; at most 32 KB a block; a\n"  \
  "                      guard tested at run time); off: never (docs/CODEGEN.md)\n"     \
  "  --row-warp-max=N|off  one block per row runs a warp per row instead, eight rows a\n" \
  "                      block, when the rows have at most N elements (default 1024;\n" \
  "                      with rows copied, at most 32 KB of copies a block) and there\n" \
  "                      are at least 2048 rows (a guard tested at run time); off:\n"  \
  "                      never (docs/CODEGEN.md)\n"                                      \
  "  --row-warp-rows=N|off  ... and a warp per row for rows of any length (copies\n"  \
  "                      aside) when there are at least N rows (default 16384); off:\n" \
  "                      only by --row-warp-max (docs/CODEGEN.md)\n"                   \
  "  --block-tile-min=N|off  a matrix product (a map over n x p whose element reduces\n" \
  "                      a map over k reading [i, k] and [k, j]) runs in block and\n"   \
  "                      register tiles when n and p are at least N (default 32; a\n"  \
  "                      guard tested at run time); off: never (docs/CODEGEN.md)\n"    \
  "  --stage-max=N|off   three nested maps whose inner element reduces (batched small\n" \
  "                      matrix products) run a block per outer element, its arrays\n"  \
  "                      copied into shared memory, when each has at most N elements\n" \
  "                      (default 1024; at most 16 KB a block; a guard tested at run\n" \
  "                      time); off: never (docs/CODEGEN.md)\n"                        \
  "  --stage-min-outputs=N  ... and an outer element has at least N outputs (default\n" \
  "                      64)\n"                                                          \
  "  --loop-blocks-per-sm=N|auto|off  a map whose threads each loop over\n"          \
  "                      consecutive elements from a start of their own (CSR rows:\n"  \
  "                      vals[s + j]) runs at most N blocks of 256 threads an SM on\n" \
  "                      the GPU where the rows average 8 elements or more (tested at\n" \
  "                      launch); auto (default): as many as keep a 128-byte line of\n" \
  "                      each such row in the L1 cache (spmv: 3); off: as many as fit\n" \
  "                      (docs/CODEGEN.md)\n"                                          \
  "\n"                                                                                     \
  "Checks (docs/CHECKS.md):\n"                                                             \
  "  --unsafe            no checks at all (the interpreter still reports the failures\n"   \
  "                      that leave no defined result: bounds, div, range, size)\n"       \
  "  --checks=KINDS      the kinds of checks to make, separated by commas: bounds,\n"     \
  "                      div, assert, range, size, nan; `default` is all but nan,\n"      \
  "                      `all` is all (default: default). nan, opt-in, fails a float\n"   \
  "                      operation that gives NaN from operands that are not NaN\n"       \
  "  --report-checks     list every check site: location, kind, kept (its failure\n"      \
  "                      code; why, if it may be skipped as dead code), disabled\n"      \
  "                      (why), eliminated (why) or removed (dead code: why)\n"          \
  "  --dump-after=PASS   print the core IR after PASS on stderr (repeatable; `all`\n"    \
  "                      for every pass): lower_to_core, insert_bounds_checks,\n"        \
  "                      insert_division_checks, insert_assert_checks,\n"                \
  "                      insert_range_checks, insert_size_checks, insert_nan_checks,\n"  \
  "                      remove_proved_checks, remove_disabled_checks,\n"             \
  "                      remove_dead_code, flatten_nested_maps,\n"                    \
  "                      hoist_invariant_scalars, offload_sequential_loops,\n"      \
  "                      mark_lazy_checks\n"
#define KERB_SYNC_CHECKS_HELP                                                              \
  "  --sync-checks       read the failure slot after every launch of a checked\n"        \
  "                      kernel (for comparison; by default the host looks only where\n" \
  "                      it waits for the device anyway)\n"

