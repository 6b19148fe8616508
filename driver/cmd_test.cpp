// `kerb test FILE|DIR... [--device D] [-v]`: runs the `-- ==` test cases of .fut
// programs (Futhark's format, parsed by test_spec.cpp) in this process: compile each
// file once, run every case, compare results with Futhark's float tolerance, and print
// one line per file and a final `N passed, N failed[, N skipped]`.
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"
#include "driver/test_cases.h"
#include "driver/test_spec.h"

#include "compiler/interpreter.h"
#include "driver/entry_io.h"
#include "driver/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <regex>

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
  -- script input { mkdata 100i64 } output { 5050.0f32 }  (FutharkScript: the results
                                                of entry mkdata are the arguments)
  -- input { [1, 2] } auto output            (the interpreter's results are expected)
  -- tags { disable }                         (skips the block)
  -- tags { no_cpu no_cuda }                  (skips it on those devices; `no_cpu input`
                                                skips one case)

A block with only `-- error: REGEX` says the program must fail to compile with a
diagnostic matching REGEX; a block with no cases says it must compile. Values may span
several comment lines, and a file may hold several blocks. Regular expressions are
ECMAScript, searched in "MESSAGE\nat LOCATION" (run-time) or in the whole diagnostic
(compile time). Floats match with Futhark's tolerance. `structure` is ignored. Of
FutharkScript, `script input` runs values and an entry point applied to values;
the rest ($loaddata, let, script files) is reported as bad input.

Options:
  --device DEVICE   interp (the reference interpreter, default), cpu or cuda (compiled
                    code); programs the code generator does not support yet are listed
                    as UNSUPPORTED and counted apart, not as failures
  --skip-compiled   on the interpreter, skip the cases marked `compiled input` (what
                    Futhark's `futhark test -i` does: they are too slow to interpret);
                    by default the interpreter runs them too, as the reference
  -v, --verbose     list every case, and the files that have no test block
  -h, --help        show this help

)" KERB_CHECK_FLAGS_HELP KERB_SYNC_CHECKS_HELP R"(
With checks turned off, an `error:` case whose failure (as the interpreter finds it)
is of a kind that is off is skipped on cpu and cuda: such a program has no defined
result there. The check report of each file goes to stderr.

Prints `PASS FILE (N cases)` or `FAIL FILE ...` with the failed cases, then a last line
`N passed, N failed` counting cases (`, N skipped` follows when files without a test
block or cases of disabled blocks were skipped). Exit status: 0 all passed; 1 a case
failed; 2 a usage error or a path that does not exist.
)";

struct Options {
  bool verbose = false;
  bool skip_compiled = false; // --skip-compiled
  Device device = Device::Interp;
  CheckFlags checks;
};

// The outcome of one file.
struct FileReport {
  int passed = 0, failed = 0, skipped = 0;
  int unsupported = 0;             // cases the code generator cannot run yet
  std::string unsupported_reason;  // its diagnostic
  std::string details; // failure explanations (and case lines with -v), indented
};

std::string first_line(const std::string &s) { return s.substr(0, s.find('\n')); }

const char kSkipped[] = "\x01skipped: ";

// Runs one case; returns an explanation when it fails, "" when it passes, kSkipped and
// the reason when it must not run. `compiled`: the executor runs compiled code (an
// `auto output` case then compares with the interpreter running `program`).
// `reference`: with checks off, the program for the interpreter, which says whether an
// error case fails a check that is off.
std::string run_case(Executor &exec, const FunDef &entry, const TestCase &c,
                     const fs::path &dir, const std::string &fut_path, const Program &program,
                     bool compiled, const Program *reference, const CheckOptions &checks) {
  std::vector<Value> args;
  try {
    ScriptCall script = script_call(c, program, dir, fut_path);
    if (script.entry) {
      // `script input { f v... }`: f's results are the arguments.
      RunResult sr = exec.run(*script.entry, script.args);
      if (!sr.ok)
        return fmt::format("the script input's call of '{}' failed:\n{}", script.entry->name,
                           indent(sr.failure.str(), "  "));
      args = group_arguments(entry, flatten_values(sr.results));
    } else {
      args = case_arguments(c, entry, dir, fut_path);
    }
  } catch (const CompileError &e) {
    return fmt::format("the script input's entry point was rejected:\n{}", e.render());
  } catch (const std::exception &e) {
    return fmt::format("bad input: {}", e.what());
  }
  if (reference && c.expect == TestCase::Error) {
    RunResult ref = interpret(*reference, entry.name, args, checks);
    if (!ref.ok && !checks.enabled(ref.failure.kind))
      return fmt::format("{}{} checks are off", kSkipped, failure_kind_name(ref.failure.kind));
  }

  RunResult r;
  try {
    r = exec.run(entry, args);
  } catch (const CompileError &e) {
    return fmt::format("the interpreter rejected the program:\n{}", e.render());
  } catch (const std::bad_alloc &) {
    return "out of memory: an array too large for this machine's memory";
  } catch (const std::exception &e) {
    return fmt::format("internal error: {}", e.what());
  }
  if (c.expect == TestCase::Auto && compiled) {
    // `auto output`: the reference interpreter's results (or its failure).
    RunResult ref = interpret(program, entry.name, args, checks);
    if (!ref.ok) {
      if (r.ok)
        return fmt::format("the reference interpreter failed, but the program succeeded:\n{}",
                           indent(ref.failure.str(), "  "));
      return "";
    }
    return check_case_results(entry, r, ref.results);
  }
  return check_case_outcome(c, entry, r, dir, fut_path);
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
  std::string text = read_text_file(path, ok);
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
  if (fr.program && opts.checks.report) {
    std::fprintf(stderr, "%s: ", path.c_str());
    print_check_report(*fr.program, opts.checks, stderr);
  }
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
        ExecOptions eo;
        eo.compile = opts.checks.compile_options();
        exec = make_executor(opts.device, *fr.program, eo);
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
        if (c.compiled && opts.skip_compiled && opts.device == Device::Interp) {
          ++rep.skipped;
          if (opts.verbose)
            rep.details += fmt::format("  skip {} (compiled input)\n", case_label(c, entry_name));
          continue;
        }
        const Program *reference = opts.device != Device::Interp &&
                                           undefined_kinds_off(opts.checks.checks)
                                       ? &*fr.program
                                       : nullptr;
        std::string failure =
            entry ? run_case(*exec, *entry, c, dir, path, *fr.program,
                             opts.device != Device::Interp, reference, opts.checks.checks)
                  : fmt::format("the program has no entry point '{}'", entry_name);
        if (failure.rfind(kSkipped, 0) == 0) {
          ++rep.skipped;
          if (opts.verbose)
            rep.details += fmt::format("  skip {} ({})\n", case_label(c, entry_name),
                                       failure.substr(sizeof kSkipped - 1));
          continue;
        }
        record(rep, opts, case_label(c, entry_name), failure);
      }
    }
  }
  return rep;
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
    if (args[i] == "--skip-compiled") {
      opts.skip_compiled = true;
      continue;
    }
    if (match_check_flag(args, i, opts.checks, /*runs_code=*/true)) continue;
    if (looks_like_option(args[i])) throw UsageError(unknown_option("test", args[i]));
    paths.push_back(args[i]);
  }
  if (paths.empty()) throw UsageError("'kerb test' needs at least one file or directory");
  opts.device = parse_device(device);

  std::vector<std::string> files;
  for (const std::string &p : paths) {
    std::vector<std::string> found = fut_files(p);
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
