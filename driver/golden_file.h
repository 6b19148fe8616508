// Golden files of `kerb run` (issue 7, PCAST's "compare with a recorded run"):
// `--save-golden FILE` records an entry point's results, with what produced them,
// and `--compare-golden FILE` compares a later run's results with them within float
// tolerances (runtime/value_compare.h), to check a program's results across compiler
// versions and devices. The format is text (docs/GOLDEN.md):
//
//   -- kerb golden file 1
//   -- kerb: 0.1.0 (commit 1a2b3c4)
//   -- device: cpu
//   -- program: tests/cli/gather.fut fnv1a64:5c2e9f0d8e6b1a77
//   -- entry: main
//   -- input: 2 values fnv1a64:0f3c...
//   -- results: 1
//   [1i32, 3i32]
//
// Header lines are `--` comments, so the results below them are plain values in
// Futhark's syntax (one per flattened result, as `kerb run` prints them; floats in
// their shortest exact form, so they read back bit for bit).
#pragma once

#include "runtime/value.h"
#include "runtime/value_compare.h"

#include <string>
#include <string_view>
#include <vector>

namespace kerb::driver {

// What produced a golden file's results. The hashes are FNV-1a (64 bits) of the
// program's source text and of the arguments as text (each flattened argument in
// Futhark's syntax, one per line), so the same values give the same hash whether they
// came from stdin, a text file or .npy.
struct GoldenIdentity {
  std::string kerb;    // the version and commit of the kerb that wrote it
  std::string device;  // interp, cpu or cuda
  std::string program; // the path as given
  std::string program_hash;
  std::string entry;
  int64_t input_values = 0;
  std::string input_hash;
};

struct GoldenFile {
  GoldenIdentity identity;
  std::vector<Value> results; // flattened, in `kerb run`'s order
};

// "fnv1a64:" and 16 hex digits.
std::string content_hash(std::string_view text);
// The hash of a list of (flattened) argument values, as GoldenIdentity describes.
std::string values_hash(const std::vector<Value> &values);

// The file's text, and writing it. write_golden_file throws InputError when the file
// cannot be written.
std::string golden_text(const GoldenFile &golden);
void write_golden_file(const std::string &path, const GoldenFile &golden);

// Reads a golden file. Throws InputError for a missing or unreadable file and for a
// malformed one, naming the place: "FILE:LINE: ..." for the header, "FILE:LINE:COL:
// ..." for a value.
GoldenFile read_golden_file(const std::string &path);

// The result of comparing a run with a golden file.
struct GoldenComparison {
  bool equal = true;
  std::vector<std::string> notes; // identity differences that do not stop the comparison
  std::string mismatch;           // the first difference (a count, a type, a shape, a value)
  int64_t differences = 0;        // elements (or results of the wrong type or shape) that differ
  double worst_ulps = 0, worst_rel = 0;
  std::string worst;              // "result 2 at [17]: 1.5f32, expected 1.25f32"; "" if none
};

// Compares `results` (flattened) of a run identified by `now` with `golden`. Throws
// InputError when the golden file is for another entry point or another input: such a
// comparison means nothing. A different program text, device or kerb version is a note.
GoldenComparison compare_golden(const GoldenFile &golden, const GoldenIdentity &now,
                                const std::vector<Value> &results, const FloatTolerance &tol);

// The report printed by `kerb run --compare-golden`: the notes, then one line
// "golden: ..." saying whether the results match, how many differ, the first
// difference and the worst float difference with its place.
std::string golden_report(const GoldenComparison &c, const std::string &path);

} // namespace kerb::driver
