// `kerb test FILE|DIR... [--device D] [-v]`: runs the `-- ==` test cases of .fut
// programs (Futhark's format, parsed by test_spec.cpp) in this process: compile each
// file once, run every case, compare results with Futhark's float tolerance, and print
// one line per file and a final `N passed, N failed[, N skipped]`.
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/entry_io.h"
#include "driver/frontend.h"
#include "driver/test_spec.h"

#include "compiler/interpreter.h"
#include "driver/executor.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb test FILE|DIR... [options]

Runs the test cases of .fut programs (directories are searched recursively, in sorted
order). A program lists its cases in Futhark's format, in comment blocks that start
with `-- ==`:

  -- ==
  -- entry: main               (the entry points to test; default main)
  -- input { [1, 2, 3] [0, 2] } output { [1, 3] }
  -- input { [1, 2, 3] [0, 7] } error: Index \[7\] out of bounds
  -- input @ data/x.in output @ data/x.out    (files relative to the program; .npy too)
  -- random input { [100]i32 }                (must run without failing)
  -- tags { disable }                         (skips the block)
  -- tags { no_cpu no_cuda }                  (skips it on those devices; `no_cpu input`
                                                skips one case)

A block with only `-- error: REGEX` says the program must fail to compile with a
diagnostic matching REGEX; a block with no cases says it must compile. Values may span
several comment lines, and a file may hold several blocks. Regular expressions are
ECMAScript, searched in "MESSAGE\nat LOCATION" (run-time) or in the whole diagnostic
(compile time). Floats match with Futhark's tolerance. `structure` is ignored;
`script input` and `auto output` are reported as errors.

Options:
  --device DEVICE   interp (the reference interpreter, default), cpu or cuda (compiled
                    code); programs the code generator does not support yet are listed
                    as UNSUPPORTED and counted apart, not as failures
  -v, --verbose     list every case, and the files that have no test block
  -h, --help        show this help

Prints `PASS FILE (N cases)` or `FAIL FILE ...` with the failed cases, then a last line
`N passed, N failed` counting cases (`, N skipped` follows when files without a test
block or cases of disabled blocks were skipped). Exit status: 0 all passed; 1 a case
failed; 2 a usage error or a path that does not exist.
)";

struct Options {
  bool verbose = false;
  Device device = Device::Interp;
};

// The outcome of one file.
struct FileReport {
  int passed = 0, failed = 0, skipped = 0;
  int unsupported = 0;             // cases the code generator cannot run yet
  std::string unsupported_reason;  // its diagnostic
  std::string details; // failure explanations (and case lines with -v), indented
};

std::string first_line(const std::string &s) { return s.substr(0, s.find('\n')); }

std::string device_name(Device d) {
  switch (d) {
  case Device::Interp: return "interp";
  case Device::Cpu: return "cpu";
  case Device::Cuda: return "cuda";
  }
  return "?";
}

bool has_tag(const std::vector<std::string> &tags, const std::string &tag) {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::string indent(const std::string &text, const std::string &prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string read_file(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  ok = bool(in) && !in.bad();
  return ss.str();
}

// Random values for `random input`: integers over their whole range, floats in [0, 1),
// from a generator seeded by the case's line so that runs are reproducible.
Value random_value(const RandomType &t, std::mt19937_64 &rng) {
  auto one = [&]() -> PrimValue {
    if (t.prim == PrimType::Bool) return PrimValue::boolean(rng() & 1);
    if (is_signed_int(t.prim)) return PrimValue::signed_int(t.prim, int64_t(rng()));
    if (is_unsigned_int(t.prim)) return PrimValue::unsigned_int(t.prim, rng());
    return PrimValue::floating(t.prim, std::uniform_real_distribution<double>(0, 1)(rng));
  };
  if (t.dims.empty()) return Value(one());
  int64_t count = 1;
  for (int64_t d : t.dims) {
    if (d != 0 && count > (int64_t(1) << 27) / d)
      throw InputError(fmt::format("random input {} is too large", t.str()));
    count *= d;
  }
  std::vector<Bits> data(size_t(count), Bits{0});
  for (Bits &b : data)
    b = one().bits;
  return make_prim_array(t.prim, t.dims, std::move(data));
}

// The argument values of one case (flattened, one per input slot).
std::vector<Value> case_inputs(const TestCase &c, const FunDef &entry,
                               const std::vector<Slot> &slots, const fs::path &dir,
                               const std::string &fut_path) {
  if (c.input.kind == SpecValues::Random) {
    if (c.input.random.size() != slots.size())
      throw InputError(fmt::format("random input has {} values, but entry '{}' expects {}",
                                   c.input.random.size(), entry.name, slots.size()));
    std::mt19937_64 rng(uint64_t(c.line) * 0x9e3779b97f4a7c15ULL + 1);
    std::vector<Value> values;
    for (size_t k = 0; k < slots.size(); ++k) {
      const RandomType &t = c.input.random[k];
      if (!t.literal.empty()) {
        std::vector<ValueSource> literal{ValueSource{fut_path, t.literal, false, Value()}};
        std::vector<Slot> one{slots[k]};
        values.push_back(read_slot_values(literal, one, SlotRole::Argument, entry.name)[0]);
        continue;
      }
      ValueType vt = ValueType::of_prim(t.prim, int(t.dims.size()));
      if (vt != slots[k].type)
        throw InputError(fmt::format("random input {} does not fit argument {} of type {}", t.str(),
                                     k + 1, slots[k].type.str()));
      values.push_back(random_value(t, rng));
    }
    return values;
  }
  std::vector<ValueSource> sources;
  if (c.input.kind == SpecValues::File)
    sources.push_back(load_value_file((dir / c.input.path).string()));
  else
    sources.push_back(ValueSource{fut_path, c.input.text, false, Value()});
  return read_slot_values(sources, slots, SlotRole::Argument, entry.name);
}

std::string failure_text(const RunFailure &f) {
  return f.str();
}

// Runs one case; returns an explanation when it fails, "" when it passes.
std::string run_case(Executor &exec, const FunDef &entry, const TestCase &c,
                     const fs::path &dir, const std::string &fut_path) {
  std::vector<Value> args;
  try {
    std::vector<Value> flat = case_inputs(c, entry, entry_input_slots(entry), dir, fut_path);
    args = group_arguments(entry, flat);
  } catch (const std::exception &e) {
    return fmt::format("bad input: {}", e.what());
  }

  RunResult r;
  try {
    r = exec.run(entry, args);
  } catch (const CompileError &e) {
    return fmt::format("the interpreter rejected the program:\n{}", e.render());
  } catch (const std::exception &e) {
    return fmt::format("internal error: {}", e.what());
  }

  if (c.expect == TestCase::Error) {
    if (r.ok)
      return fmt::format("expected an error matching: {}\nbut the program succeeded",
                         c.error_regex);
    try {
      std::regex re(c.error_regex, std::regex::ECMAScript);
      // Also with the "Error: " that `kerb run` prints first, as Futhark's tests expect.
      std::string text = failure_text(r.failure);
      if (std::regex_search(text, re) || std::regex_search("Error: " + text, re)) return "";
    } catch (const std::regex_error &e) {
      return fmt::format("invalid regular expression '{}': {}", c.error_regex, e.what());
    }
    return fmt::format("expected an error matching: {}\nactual error:\n{}", c.error_regex,
                       indent(failure_text(r.failure), "  "));
  }
  if (!r.ok) return fmt::format("the program failed:\n{}", indent(failure_text(r.failure), "  "));
  if (c.expect == TestCase::Succeed) return "";

  std::vector<Value> expected;
  try {
    std::vector<ValueSource> sources;
    if (c.output.kind == SpecValues::File)
      sources.push_back(load_value_file((dir / c.output.path).string()));
    else
      sources.push_back(ValueSource{fut_path, c.output.text, false, Value()});
    expected =
        read_slot_values(sources, entry_output_slots(entry), SlotRole::ExpectedResult, entry.name);
  } catch (const std::exception &e) {
    return fmt::format("bad expected output: {}", e.what());
  }
  std::vector<Value> actual = flatten_values(r.results);
  if (actual.size() != expected.size())
    return fmt::format("expected {} results, got {}", expected.size(), actual.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    std::string why;
    if (values_match(expected[k], actual[k], Tolerance::futhark(), &why)) continue;
    return fmt::format("result {} differs: {}\n  expected: {}\n  actual:   {}", k + 1, why,
                       abbreviate(format_value(expected[k])), abbreviate(format_value(actual[k])));
  }
  return "";
}

std::string case_label(const TestCase &c, const std::string &entry) {
  if (!c.name.empty())
    return fmt::format("line {}, entry '{}', case \"{}\"", c.line, entry, c.name);
  return fmt::format("line {}, entry '{}'", c.line, entry);
}

void record(FileReport &rep, const Options &opts, const std::string &label,
            const std::string &failure) {
  if (failure.empty()) {
    ++rep.passed;
    if (opts.verbose) rep.details += fmt::format("  ok   {}\n", label);
    return;
  }
  ++rep.failed;
  rep.details += fmt::format("  FAIL {}:\n{}", label, indent(failure, "    "));
}

FileReport test_file(const std::string &path, const Options &opts) {
  FileReport rep;
  bool ok = false;
  std::string text = read_file(path, ok);
  if (!ok) {
    record(rep, opts, "file", fmt::format("cannot read '{}'", path));
    return rep;
  }
  TestSpec spec;
  try {
    spec = parse_test_spec(text, path);
  } catch (const TestSpecError &e) {
    record(rep, opts, "test block", fmt::format("malformed test block: {}", e.what()));
    return rep;
  }
  if (spec.blocks.empty()) {
    ++rep.skipped;
    return rep;
  }

  FrontendResult fr = run_frontend(path);
  std::unique_ptr<Executor> exec;
  fs::path dir = fs::path(path).parent_path();
  bool shown_diagnostic = false;
  for (const TestBlock &block : spec.blocks) {
    std::string no_device = "no_" + device_name(opts.device);
    if (block.disabled() || has_tag(block.tags, no_device)) {
      rep.skipped += std::max<int>(1, int(block.cases.size() * block.entries.size()));
      if (opts.verbose)
        rep.details += fmt::format("  skip block at line {} (tagged {})\n", block.line,
                                   block.disabled() ? "disable" : no_device);
      continue;
    }
    std::string block_label = fmt::format("line {}", block.line);
    if (block.compile_error) {
      std::string failure;
      if (fr.program) {
        failure = fmt::format("expected a compile error matching: {}\nbut the program "
                              "compiled",
                              *block.compile_error);
      } else {
        try {
          std::regex re(*block.compile_error, std::regex::ECMAScript);
          if (!std::regex_search(fr.diagnostic, re))
            failure = fmt::format("expected a compile error matching: {}\nactual "
                                  "diagnostic:\n{}",
                                  *block.compile_error, indent(fr.diagnostic, "  "));
        } catch (const std::regex_error &e) {
          failure =
              fmt::format("invalid regular expression '{}': {}", *block.compile_error, e.what());
        }
      }
      record(rep, opts, block_label + ", compile error", failure);
      continue;
    }
    if (!fr.program) {
      int n = std::max<int>(1, int(block.cases.size() * block.entries.size()));
      std::string failure = shown_diagnostic
                                ? "the program does not compile (see above)"
                                : fmt::format("the program does not compile:\n{}", fr.diagnostic);
      shown_diagnostic = true;
      rep.failed += n - 1;
      record(rep, opts, block_label, failure);
      continue;
    }
    if (block.cases.empty()) {
      record(rep, opts, block_label + ", compiles", "");
      continue;
    }
    if (!exec) {
      // Compile once per file, for the first block that runs something.
      try {
        exec = make_executor(opts.device, *fr.program, ExecOptions{});
      } catch (const CompileError &e) {
        int n = std::max<int>(1, int(block.cases.size() * block.entries.size()));
        if (is_unsupported_error(e.what())) {
          rep.unsupported += n;
          rep.unsupported_reason = e.render();
          continue;
        }
        rep.failed += n - 1;
        record(rep, opts, block_label, fmt::format("the code generator rejected the program:\n{}",
                                                   e.render()));
        continue;
      } catch (const std::exception &e) {
        // A compiler bug: this file fails, the other files still run.
        int n = std::max<int>(1, int(block.cases.size() * block.entries.size()));
        rep.failed += n - 1;
        record(rep, opts, block_label, fmt::format("compiling the program failed: {}", e.what()));
        continue;
      }
    }
    for (const std::string &entry_name : block.entries) {
      const FunDef *entry = find_entry(*fr.program, entry_name);
      for (const TestCase &c : block.cases) {
        if (has_tag(c.tags, no_device)) {
          ++rep.skipped;
          continue;
        }
        std::string failure = entry
                                  ? run_case(*exec, *entry, c, dir, path)
                                  : fmt::format("the program has no entry point '{}'", entry_name);
        record(rep, opts, case_label(c, entry_name), failure);
      }
    }
  }
  return rep;
}

// The .fut files named by `arg`: itself, or those under it (recursively, sorted).
std::vector<std::string> collect_files(const std::string &arg) {
  std::error_code ec;
  fs::file_status st = fs::status(arg, ec);
  if (ec || !fs::exists(st)) throw InputError(fmt::format("no such file or directory: '{}'", arg));
  if (!fs::is_directory(st)) return {arg};
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(arg, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError(fmt::format("cannot read directory '{}': {}", arg, ec.message()));
  for (fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) throw InputError(fmt::format("cannot read directory '{}': {}", arg, ec.message()));
    std::error_code fec;
    if (it->path().extension() == ".fut" && it->is_regular_file(fec))
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int run_test(const std::vector<std::string> &args) {
  Options opts;
  std::string device = "interp";
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"--device"}, value)) {
      device = value;
      continue;
    }
    if (args[i] == "-v" || args[i] == "--verbose") {
      opts.verbose = true;
      continue;
    }
    if (looks_like_option(args[i])) throw UsageError(unknown_option("test", args[i]));
    paths.push_back(args[i]);
  }
  if (paths.empty()) throw UsageError("'kerb test' needs at least one file or directory");
  opts.device = parse_device(device);

  std::vector<std::string> files;
  for (const std::string &p : paths) {
    std::vector<std::string> found = collect_files(p);
    files.insert(files.end(), found.begin(), found.end());
  }
  if (files.empty()) std::printf("no .fut files found\n");

  int passed = 0, failed = 0, skipped = 0, unsupported = 0;
  for (const std::string &file : files) {
    FileReport rep = test_file(file, opts);
    passed += rep.passed;
    failed += rep.failed;
    skipped += rep.skipped;
    unsupported += rep.unsupported;
    int cases = rep.passed + rep.failed;
    if (rep.unsupported > 0 && cases == 0) {
      std::printf("UNSUPPORTED %s (%d case%s: %s)\n", file.c_str(), rep.unsupported,
                  rep.unsupported == 1 ? "" : "s", first_line(rep.unsupported_reason).c_str());
      if (opts.verbose) std::fputs(rep.unsupported_reason.c_str(), stdout);
    } else if (rep.failed > 0)
      std::printf("FAIL %s (%d of %d cases failed)\n", file.c_str(), rep.failed, cases);
    else if (cases > 0)
      std::printf("PASS %s (%d case%s)\n", file.c_str(), cases, cases == 1 ? "" : "s");
    else if (opts.verbose)
      std::printf("SKIP %s (%s)\n", file.c_str(),
                  rep.skipped > 0 && !rep.details.empty() ? "all blocks disabled"
                                                          : "no test block");
    std::fputs(rep.details.c_str(), stdout);
    std::fflush(stdout);
  }
  std::printf("%d passed, %d failed", passed, failed);
  if (skipped > 0) std::printf(", %d skipped", skipped);
  if (unsupported > 0)
    std::printf(", %d not supported by the code generator yet", unsupported);
  std::printf("\n");
  return failed > 0 ? kExitFailure : kExitOk;
}

} // namespace

const Command kTestCommand = {"test", "run the -- == test cases of .fut programs", kHelp, run_test};

} // namespace kerb::driver
