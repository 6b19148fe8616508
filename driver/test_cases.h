// The values of one test case (driver/test_spec.h) and the check of its outcome, shared
// by `kerb test` and `kerb bench`: a case's arguments come from its inline text, a file
// (text, Futhark's binary format, or .npy) or `random input`; its run must then give the
// expected output (Futhark's float tolerance), fail with a matching error, or succeed.
#pragma once

#include "compiler/ast.h"
#include "compiler/check_options.h"
#include "compiler/interpreter.h"
#include "driver/test_spec.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kerb::driver {

// The arguments of `c` for `entry`, one Value per parameter. `dir` is the program's
// folder (files are relative to it), `fut_path` names the program in messages. Throws
// InputError (or another std::exception) for input that cannot be read or does not fit.
// Random values are reproducible: integers over their type's whole range, floats in
// [0, 1), from a generator seeded by the case's line.
std::vector<Value> case_arguments(const TestCase &c, const FunDef &entry,
                                  const std::filesystem::path &dir, const std::string &fut_path);

// A `script input` (SpecValues::Script) that applies an entry point to values: the
// entry (another entry point of `program`) and its arguments, read with its types.
// Values alone give {nullptr, {}} (case_arguments reads them as an input). Throws
// InputError for FutharkScript that Kerb does not run ($loaddata, let, a script file,
// a function that is not an entry point).
struct ScriptCall {
  const FunDef *entry = nullptr;
  std::vector<Value> args;
};
ScriptCall script_call(const TestCase &c, const Program &program, const std::filesystem::path &dir,
                       const std::string &fut_path);

// Whether run result `r` is what `c` expects: "" when it is, otherwise why not (the
// expected and actual values or errors, abbreviated).
std::string check_case_outcome(const TestCase &c, const FunDef &entry, const RunResult &r,
                               const std::filesystem::path &dir, const std::string &fut_path);

// Whether results `r` (a successful run) match `expected` (one value per flattened
// result) within Futhark's tolerance: "" when they do, otherwise why not.
std::string check_case_results(const FunDef &entry, const RunResult &r,
                               const std::vector<Value> &expected);

// Whether some kind of check whose failure leaves no defined result is off (then an
// error case may have no defined behaviour on the compiled devices).
bool undefined_kinds_off(const CheckOptions &c);

// `text` with every line prefixed by `prefix`.
std::string indent(const std::string &text, const std::string &prefix);

// Whether `tags` holds `tag` (`no_cpu`, `disable`, ...).
bool has_tag(const std::vector<std::string> &tags, const std::string &tag);

// The whole of a file (a .fut program); `ok` is false when it cannot be read.
std::string read_text_file(const std::string &path, bool &ok);

// The .fut files named by `arg`: itself, or those under it (recursively, sorted).
// Throws InputError when it does not exist or cannot be read.
std::vector<std::string> fut_files(const std::string &arg);

} // namespace kerb::driver
