// The test blocks of a .fut file, in Futhark's format (`futhark test`):
//
//   -- Description lines.
//   -- ==
//   -- entry: main other            (default: main)
//   -- tags { slow disable }        (a block tagged `disable` is skipped)
//   -- input { [1, 2] 3 } output { [4, 5] }
//   -- input { [1, 2] 7 } error: Index \[7\] out of bounds
//   -- input @ data/big.in output @ data/big.out    (paths relative to the .fut file)
//   -- compiled input { 1 }         (run like any input: Kerb's interpreter is the
//                                    reference, so it runs the compiled-only cases too,
//                                    unless `kerb test --skip-compiled`)
//   -- nobench input { 1 }          (run like any input; `kerb bench` will skip it)
//   -- random input { [10]i32 f32 } (no output: it must run without failing)
//   -- structure { Assert 0 }       (ignored by `kerb test`)
//   -- warning: REGEX               (ignored: Kerb has no compile-time warnings)
//   -- no_python input { 1 }        (per-case tags before `input`; ignored)
//   -- "big" input @ big.in         (a named case)
//
// A block whose only content is `error: REGEX` says the program must fail to compile
// with a diagnostic matching REGEX (an empty REGEX matches any error). Values and braces may span
// several comment lines; a file may hold several `-- ==` blocks, each ended by the first line that
// is not a `--` comment. `script input { ... }` (FutharkScript) holds values or an entry
// point applied to values, whose results are the case's arguments; other FutharkScript
// ($loaddata, let, `script input @ file`) is reported when the case runs.
//
// This file parses the blocks only; the runner (cmd_test.cpp) reads the values with the
// entry's types. It depends on runtime/ only, so it is unit-tested on its own.
#pragma once

#include "runtime/value.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerb::driver {

// A malformed test block; what() is "FILE:LINE: message".
class TestSpecError : public std::runtime_error {
public:
  TestSpecError(const std::string &file, int line, const std::string &message);
  int line() const { return line_; }

private:
  int line_;
};

// One value of a `random input`: the type of a random value, e.g. [10][20]f32, or a
// fixed value written as a literal (`random input { 10i64 [10]f32 }`).
struct RandomType {
  std::vector<int64_t> dims;
  PrimType prim = PrimType::I32;
  std::string literal;     // non-empty: this fixed value
  std::string str() const; // "[10][20]f32" or the literal
};

// Where a case's values come from.
struct SpecValues {
  // Script: `script input { f 10i64 }`, FutharkScript; Kerb runs values and an entry
  // point applied to values (driver/test_cases.h, script_call); `text` as for Inline.
  enum Kind : uint8_t { Inline, File, Random, Script } kind = Inline;
  // Inline: the text between the braces, padded with newlines and spaces so that a
  // ValueReader reports positions as lines and columns of the .fut file itself.
  std::string text;
  std::string path;               // File: as written (relative to the .fut file)
  std::vector<RandomType> random; // Random
  int line = 0;                   // where the block starts
};

struct TestCase {
  int line = 0; // the line of its `input`
  SpecValues input;
  // Auto: `auto output`, the results of the reference interpreter (Futhark compares
  // with its reference backend).
  enum Expect : uint8_t { Output, Error, Succeed, Auto } expect = Succeed;
  SpecValues output;             // Output
  std::string error_regex;       // Error
  bool compiled = false;         // `compiled input`
  bool nobench = false;          // `nobench input`
  std::string name;              // `"name" input {...}`, or empty
  std::vector<std::string> tags; // per-case tags (`no_cpu input {...}`): no_DEVICE skips
};

struct TestBlock {
  int line = 0;                     // the line of its `-- ==`
  std::string description;          // the comment lines just above `-- ==`
  std::vector<std::string> entries; // `entry:`; {"main"} when absent
  std::vector<std::string> tags;
  std::vector<TestCase> cases;
  std::optional<std::string> compile_error; // `error:` with no input
  bool disabled() const;                    // tagged `disable`
};

struct TestSpec {
  std::vector<TestBlock> blocks; // empty: the file has no `-- ==`
};

// Parses every `-- ==` block of `source` (the whole .fut text). `file` names it in
// errors. Throws TestSpecError at the first malformed block.
TestSpec parse_test_spec(const std::string &source, const std::string &file);

} // namespace kerb::driver
