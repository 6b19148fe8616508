// `kerb run PROG [-e ENTRY] [--device D] [--input FILE]... [--npy-out PREFIX]`: runs
// one entry point on values read from stdin or files and prints its results.
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/entry_io.h"
#include "driver/frontend.h"

#include "compiler/interpreter.h"
#include "driver/executor.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
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
  -h, --help          show this help

)" KERB_CHECK_FLAGS_HELP KERB_SYNC_CHECKS_HELP R"(
The check report goes to stderr, before the program runs. A failed check prints "Error: MESSAGE" and "at FILE:LINE:COL-COL" on stderr.
Exit status: 0 success; 1 a failed check or a compile error; 2 a usage error or bad
input (wrong number of values, a value of the wrong type, an unreadable file).
)";

std::string read_stdin() {
  std::ostringstream ss;
  ss << std::cin.rdbuf();
  return ss.str();
}

int run_run(const std::vector<std::string> &args) {
  std::string prog, entry_name = "main", device = "interp", npy_prefix;
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
    std::unique_ptr<Executor> exec = make_executor(dev, program, eo);
    result = exec->run(*entry, arguments);
  } catch (const CompileError &e) {
    // The interpreter or the code generator may reject what it cannot run.
    std::fputs(e.render().c_str(), stderr);
    return kExitFailure;
  } catch (const InputError &) {
    throw;
  } catch (const std::exception &e) {
    print_error(fmt::format("the {} device failed: {}", device, e.what()));
    return kExitFailure;
  }
  if (!result.ok) {
    std::fflush(stdout);
    std::fprintf(stderr, "Error: %s\nat %s\n", result.failure.message.c_str(),
                 result.failure.location.c_str());
    return kExitFailure;
  }

  std::vector<Value> results = flatten_values(result.results);
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
