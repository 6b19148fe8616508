// `kerb dataset PROG [-e ENTRY] [--size N] [--size-of NAME=N]... [--seed S] [-o FILE]`:
// prints random arguments for an entry point, made from its parameter types
// (driver/random_inputs.h), in the form `kerb run --input` reads.
#include "compiler/interpreter.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"
#include "driver/random_inputs.h"

#include "runtime/value_text.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb dataset PROG [options]

Prints random arguments for an entry point of PROG, chosen from its parameter types,
one value per line in Futhark's value syntax, as `kerb run` reads them (a tuple or
record parameter as its components, an array of tuples as its component arrays):

  kerb dataset prog.fut -e main --size 100 > in.txt
  kerb run prog.fut -e main --device cpu --input in.txt

Sizes: every size variable of the parameter types has length N (--size), so that
parameters that share a size get arrays of one length; --size-of gives one size
variable another length. Size expressions are evaluated ([n * m], [n + 1]), constant
sizes kept ([3]), and an integer parameter named as a size ((n: i64) (xs: [n]f32)) is
that size. Values: integers in arrays uniform in [0, N) (often indices), integer
scalars in [1, N] (often counts), both clipped to their type's range; floats in
[0, 1); bools either way. A program may still fail a check on such data: that is its
outcome on them. The same options give the same values.

Options:
  -e, --entry NAME    the entry point (default: main)
  --size N            the length of every size variable (default 16)
  --size-of NAME=N    the length of size variable NAME (may be repeated)
  --seed S            the random generator's seed, a whole number (default 0)
  -o, --output FILE   write the values to FILE instead of stdout
  -h, --help          show this help

Exit status: 0 success; 1 a compile error; 2 a usage error or an entry whose
arguments cannot be made (an unknown size name, a size expression that is not
arithmetic on sizes, an argument of more than 2^27 elements).
)";

int run_dataset(const std::vector<std::string> &args) {
  std::string prog, entry_name = "main", output;
  RandomInputOptions opts;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"-e", "--entry"}, value)) {
      entry_name = value;
    } else if (match_option(args, i, {"--size"}, value)) {
      opts.size = parse_whole_number("--size", value);
    } else if (match_option(args, i, {"--size-of"}, value)) {
      size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError(fmt::format("--size-of needs NAME=N (got '{}')", value));
      opts.sizes[value.substr(0, eq)] = parse_whole_number("--size-of", value.substr(eq + 1));
    } else if (match_option(args, i, {"--seed"}, value)) {
      opts.seed = uint64_t(parse_whole_number("--seed", value));
    } else if (match_option(args, i, {"-o", "--output"}, value)) {
      if (value.empty()) throw UsageError("--output needs a file name");
      output = value;
    } else if (looks_like_option(args[i])) {
      throw UsageError(unknown_option("dataset", args[i]));
    } else if (!prog.empty()) {
      throw UsageError(fmt::format("'kerb dataset' takes one program (unexpected '{}')", args[i]));
    } else {
      prog = args[i];
    }
  }
  if (prog.empty()) throw UsageError("'kerb dataset' needs a program (kerb dataset PROG)");

  FrontendResult fr = run_frontend(prog);
  if (!fr.program) return report_frontend_failure(fr);
  const FunDef *entry = find_entry(*fr.program, entry_name);
  if (!entry) throw InputError(fmt::format("'{}' has no entry point '{}'", prog, entry_name));
  // A size named by a top-level constant (no parameters, an integer) is its value, as
  // the interpreter computes it.
  const Program &program = *fr.program;
  opts.constant = [&program](const std::string &name) -> std::optional<int64_t> {
    const FunDef *f = program.find(name);
    if (!f || !f->params.empty() || f->is_entry || !f->ret_type.is_prim() || !is_int(f->ret_type.prim)) return std::nullopt;
    RunResult r = interpret(program, name, {});
    if (!r.ok || r.results.size() != 1 || r.results[0].kind != Value::Prim) return std::nullopt;
    return r.results[0].prim.as_i64();
  };
  std::vector<Value> values = random_entry_inputs(*entry, opts);

  std::string text;
  for (const Value &v : values) {
    text += format_value(v);
    text += '\n';
  }
  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  std::ofstream out(output, std::ios::binary);
  out << text;
  if (!out.good()) throw InputError(fmt::format("cannot write '{}'", output));
  return kExitOk;
}

} // namespace

const Command kDatasetCommand = {"dataset", "print random arguments for an entry point", kHelp,
                                 run_dataset};

} // namespace kerb::driver
