// `kerb run PROG [-e ENTRY] [--device D] [--input FILE]... [--npy-out PREFIX]
// [--save-golden FILE | --compare-golden FILE [--ulps N] [--rtol X]] [--possible-failures]`:
// runs one entry point on values read from stdin or files and prints its results, or
// records them in a golden file, or compares them with one (driver/golden_file.h); with
// --possible-failures a failed check on the interpreter also lists every failure that
// compiled code may report for the input (compiler/interpreter.h, possible_failures).
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/entry_io.h"
#include "driver/frontend.h"
#include "driver/golden_file.h"
#include "driver/build_info.h"

#include "compiler/interpreter.h"
#include "driver/executor.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb run PROG [options]

Runs an entry point of PROG. Its arguments are read in Futhark's value syntax
(1i32, [1, 2], empty([0]f32), true, ...) from stdin, or from the --input files in
order: one value per parameter, where a tuple parameter takes its components and an
array-of-tuples parameter its component arrays, as consecutive values. Unsuffixed
numbers take the parameter's type. Results are printed one per line (a tuple result
one component per line, an array of tuples as its component arrays).

Options:
  -e, --entry NAME    the entry point to run (default: main)
  --device DEVICE     interp (the reference interpreter, the default), cpu (compiled
                      code on the CPU device) or cuda (compiled code on the GPU); the
                      code generator does not support every construct yet and says so
  --input FILE        read arguments from FILE instead of stdin; may be repeated
                      ('-' is stdin); a FILE ending in .npy holds exactly one value
  --npy-out PREFIX    write the results to PREFIX0.npy, PREFIX1.npy, ... instead of
                      printing them (arrays of primitives and scalars only)
  --save-golden FILE  also write the results to FILE, a golden file (text, in
                      Futhark's value syntax, exact), with the program, entry,
                      input, device and kerb version that produced them
  --compare-golden FILE
                      compare the results with golden file FILE instead of printing
                      them: integers and bools exactly, floats within --ulps/--rtol
                      (NaN equals NaN, -0.0 equals 0.0); prints one line "golden: ..."
                      with the number of differences, the first, and the worst float
                      difference with its place (result K at [I, J]); exits with 1 on
                      a difference. Another input or entry is an error (2); another
                      program text, device or kerb version only a note
  --ulps N            float tolerance for --compare-golden, in units in the last
                      place of the result's type (default 0)
  --rtol X            or a relative tolerance: |a - b| <= X * max(|a|, |b|) (default 0)
  --possible-failures with --device interp: when a check fails, also print on stderr
                      every failure that compiled code may report for this input (a
                      failing element of any map, whose threads race for the failure
                      slot, or the first failure outside map elements; docs/CHECKS.md),
                      the interpreter's own included, each as two lines
                      "Possible failure: MESSAGE" and "at FILE:LINE:COL-COL"
  -h, --help          show this help

)" KERB_CHECK_FLAGS_HELP KERB_SYNC_CHECKS_HELP R"(
The check report goes to stderr, before the program runs. A failed check prints "Error: MESSAGE" and "at FILE:LINE:COL-COL" on stderr.
Exit status: 0 success; 1 a failed check, a compile error or results that differ
from the golden file; 2 a usage error or bad input (wrong number of values, a value
of the wrong type, an unreadable file, a missing or malformed golden file).
)";

std::string read_stdin() {
  std::ostringstream ss;
  ss << std::cin.rdbuf();
  return ss.str();
}

// What a golden file records about this run.
GoldenIdentity run_identity(const std::string &prog, const FunDef &entry, const std::string &device,
                            const std::vector<Value> &flat_arguments) {
  GoldenIdentity id;
  id.kerb = fmt::format("{} (commit {})", kVersion, build_commit());
  id.device = device;
  id.program = prog;
  std::ifstream in(prog, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  id.program_hash = content_hash(text.str());
  id.entry = entry.name;
  id.input_values = int64_t(flat_arguments.size());
  id.input_hash = values_hash(flat_arguments);
  return id;
}

// --possible-failures: the failures that compiled code (with the same check flags) may
// report for this call, after the interpreter's own. A map whose every element fails
// in code that compiled code removes as dead is filled (possible_failures), so the
// dead checks come from the compiled program's lowering; where the code generator
// rejects the program there are none.
int print_possible_failures(const Program &program, const FunDef &entry, const std::vector<Value> &arguments,
                            const CheckFlags &checks) {
  ExecOptions eo;
  eo.compile = checks.compile_options();
  eo.compile.only_entry = entry.name;
  DeadChecks dead;
  try {
    dead = dead_checks(program, eo);
  } catch (const std::exception &) {
  }
  std::vector<RunFailure> possible;
  try {
    possible = possible_failures(program, entry.name, arguments, eo.compile.pipeline.checks,
                                 [&](const RunFailure &f) { return in_dead_code(dead, f); });
  } catch (const std::exception &e) {
    print_error(fmt::format("enumerating the possible failures raised: {}", e.what()));
    return kExitFailure;
  }
  for (const RunFailure &f : possible)
    std::fprintf(stderr, "Possible failure: %s\nat %s\n", f.message.c_str(), f.location.c_str());
  return kExitFailure;
}

int run_run(const std::vector<std::string> &args) {
  std::string prog, entry_name = "main", device = "interp", npy_prefix, save_golden_path, compare_golden_path;
  FloatTolerance tolerance;
  bool tolerance_given = false;
  bool list_possible = false;
  std::vector<std::string> inputs;
  bool options_done = false;
  CheckFlags checks;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (!options_done) {
      if (args[i] == "--") {
        options_done = true;
        continue;
      }
      if (match_option(args, i, {"-e", "--entry"}, value)) {
        entry_name = value;
        continue;
      }
      if (match_option(args, i, {"--device"}, value)) {
        device = value;
        continue;
      }
      if (match_check_flag(args, i, checks, /*runs_code=*/true)) continue;
      if (match_option(args, i, {"--input"}, value)) {
        inputs.push_back(value);
        continue;
      }
      if (match_option(args, i, {"--save-golden"}, value)) {
        if (value.empty()) throw UsageError("--save-golden needs a file name");
        save_golden_path = value;
        continue;
      }
      if (match_option(args, i, {"--compare-golden"}, value)) {
        if (value.empty()) throw UsageError("--compare-golden needs a file name");
        compare_golden_path = value;
        continue;
      }
      if (match_option(args, i, {"--ulps"}, value)) {
        tolerance.ulps = parse_nonnegative_number("--ulps", value);
        tolerance_given = true;
        continue;
      }
      if (match_option(args, i, {"--rtol"}, value)) {
        tolerance.rtol = parse_nonnegative_number("--rtol", value);
        tolerance_given = true;
        continue;
      }
      if (args[i] == "--possible-failures") {
        list_possible = true;
        continue;
      }
      if (match_option(args, i, {"--npy-out"}, value)) {
        if (value.empty()) throw UsageError("--npy-out needs a non-empty prefix");
        npy_prefix = value;
        continue;
      }
      if (looks_like_option(args[i])) throw UsageError(unknown_option("run", args[i]));
    }
    if (!prog.empty())
      throw UsageError(fmt::format("'kerb run' takes one program (unexpected '{}')", args[i]));
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb run' needs a program (kerb run PROG)");
  Device dev = parse_device(device);
  if (!save_golden_path.empty() && !compare_golden_path.empty())
    throw UsageError("--save-golden and --compare-golden cannot be used together");
  if (list_possible && dev != Device::Interp) throw UsageError("--possible-failures needs --device interp");
  if (tolerance_given && compare_golden_path.empty()) throw UsageError("--ulps and --rtol need --compare-golden");
  if (!compare_golden_path.empty() && !npy_prefix.empty())
    throw UsageError("--npy-out and --compare-golden cannot be used together");
  // A missing or malformed golden file is reported before the program runs.
  std::optional<GoldenFile> golden;
  if (!compare_golden_path.empty()) golden = read_golden_file(compare_golden_path);

  FrontendResult fr = run_frontend(prog);
  if (!fr.program) return report_frontend_failure(fr);
  const Program &program = *fr.program;
  const FunDef *entry = find_entry(program, entry_name);
  if (!entry) throw InputError(fmt::format("'{}' has no entry point '{}'", prog, entry_name));

  std::vector<Slot> slots = entry_input_slots(*entry);
  std::vector<ValueSource> sources;
  if (inputs.empty()) inputs.push_back("-");
  for (const std::string &path : inputs) {
    if (path != "-") {
      sources.push_back(load_value_file(path));
      continue;
    }
    // With no parameters and a terminal on stdin there is nothing to wait for.
    if (slots.empty() && isatty(STDIN_FILENO)) continue;
    sources.push_back(ValueSource{"stdin", read_stdin(), false, Value()});
  }
  std::vector<Value> flat = read_slot_values(sources, slots, SlotRole::Argument, entry->name);
  std::vector<Value> arguments = group_arguments(*entry, flat);

  if (checks.report) print_check_report(program, checks, stderr);
  RunResult result;
  try {
    ExecOptions eo;
    eo.compile = checks.compile_options();
    // Only the entry point called is compiled (a program of many large entry points
    // would otherwise compile them all for one call).
    eo.compile.only_entry = entry->name;
    std::unique_ptr<Executor> exec = make_executor(dev, program, eo);
    result = exec->run(*entry, arguments);
  } catch (const CompileError &e) {
    // The interpreter or the code generator may reject what it cannot run.
    std::fputs(e.render().c_str(), stderr);
    return kExitFailure;
  } catch (const InputError &) {
    throw;
  } catch (const std::bad_alloc &) {
    print_error(fmt::format("the {} device ran out of memory: an array too large for this machine's memory", device));
    return kExitFailure;
  } catch (const std::exception &e) {
    print_error(fmt::format("the {} device failed: {}", device, e.what()));
    return kExitFailure;
  }
  if (!result.ok) {
    std::fflush(stdout);
    std::fprintf(stderr, "Error: %s\nat %s\n", result.failure.message.c_str(),
                 result.failure.location.c_str());
    if (list_possible) return print_possible_failures(program, *entry, arguments, checks);
    return kExitFailure;
  }

  std::vector<Value> results = flatten_values(result.results);
  if (!save_golden_path.empty() || golden) {
    GoldenIdentity id = run_identity(prog, *entry, device, flat);
    if (golden) {
      GoldenComparison c = compare_golden(*golden, id, results, tolerance);
      std::string report = golden_report(c, compare_golden_path);
      std::fwrite(report.data(), 1, report.size(), stdout);
      return c.equal ? kExitOk : kExitFailure;
    }
    write_golden_file(save_golden_path, GoldenFile{id, results});
  }
  if (!npy_prefix.empty()) {
    for (size_t k = 0; k < results.size(); ++k) {
      std::string path = fmt::format("{}{}.npy", npy_prefix, k);
      try {
        write_npy_file(results[k], path);
      } catch (const std::exception &e) {
        print_error(fmt::format("cannot write result {} to '{}': {}", k, path, e.what()));
        return kExitFailure;
      }
    }
    return kExitOk;
  }
  std::string out;
  for (const Value &v : results) {
    out += format_value(v);
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

} // namespace

const Command kRunCommand = {"run", "run an entry point on values from stdin or files", kHelp,
                             run_run};

} // namespace kerb::driver
