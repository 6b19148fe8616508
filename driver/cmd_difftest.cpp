// `kerb difftest [options]`: differential testing of the executors on random programs
// (issue 7). Generates programs and inputs from seeds (difftest/program_gen.h), runs
// every program on every input on the reference interpreter and the compiled devices,
// judges each pair (driver/difftest_run.h), shrinks every difference to a small
// reproducer (difftest/shrink.h) written as a .fut test, and ends with one summary line.
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/difftest_run.h"
#include "driver/entry_io.h"

#include "difftest/program_gen.h"
#include "difftest/shrink.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb difftest [options]

Differential testing: generates random programs of the language (typed by
construction: SOACs, nested maps, loops, indexing in and out of range, divisions,
asserts, every primitive type, tuples; loops reading arrays at affine and indirect
indices, gathers, searches; matrix products in the row form the tiled kernels take;
polymorphic and higher-order helpers, lambdas passed and
let-bound, local functions, partial application, operator sections, pipes) with
random inputs, runs each on the reference
interpreter and on the compiled devices, and compares them. Integers and bools must
be equal; floats too, bit for bit, except results the generator marks approximate
(float sums, whose order parallel code changes, and libm functions such as exp and
sin), which must agree within --ulps. Failures must have the same kind, message and
location, or be another failure that really happens for that input (where several
threads fail, any of them may be reported). The reference may fail alone only at a
check that the compiled program reports removed or skipped as dead code (kerb check
--report-checks; a map whose result is not used), when every failure that really
happens for the input is such a check. Programs the code generator does not support
yet are counted apart.

Each difference is shrunk to a small program and input and written to the --out
directory as a .fut test whose expected results are the reference's. The last line
is a summary; the exit status is 1 when a pair differed or a generated program did not
compile (a generator bug), else 0.

Options:
  --seed N          seed of the first program (default 1); program k has seed N+k, so
                    --seed S --count 1 reruns one program
  --count N         number of programs (default 100)
  --inputs N        inputs per program (default 10); pairs = programs x inputs x
                    compared devices
  --time SECONDS    start no new program after this long (default: no limit)
  --devices LIST    executors, comma-separated, the first the reference (default
                    interp,cpu)
  --sizes LIST      array sizes to pick n and m from (default 0,1,2,3,5,8,16,33,100)
  --ulps N          tolerance for approximate float results, in units in the last
                    place (default 1024)
  --rtol X          or a relative tolerance for them (default 0: ULPs only)
  --timeout SECONDS for one program on all its inputs (default 60); longer is a hang
  --out DIR         where reproducers go (default difftest-out)
  --max-reproducers N  shrink and write at most N differences (default 5); all are
                    counted
  --no-shrink       write reproducers as generated, without shrinking
  --unsafe          compile the devices without checks (the reference still checks):
                    failing programs then differ, which tests difftest itself
  --no-isolate      run programs in this process (a crash ends the run); by default
                    each program runs in a child process
  --row-block-min=N|off, --row-cache-max=N|off, --row-warp-max=N|off,
  --row-warp-rows=N|off, --block-tile-min=N|off, --scan-single-pass-min=N|off,
  --scan-single-pass-wide-min=N|off, --stage-max=N|off, --stage-min-outputs=N,
  --loop-blocks-per-sm=N|auto|off
                    the compiled devices' strategies' thresholds (kerb run --help):
                    e.g. --row-block-min=1 --block-tile-min=1 --scan-single-pass-wide-min=1
                    --stage-min-outputs=1
                    give the small generated programs the kernels of large ones
  --print           print the programs and their inputs instead of running them
  -v, --verbose     one line per program
  -h, --help        show this help

Example: kerb difftest --seed 1 --count 500 --inputs 20 --devices interp,cpu,cuda
)";

struct Options {
  uint64_t seed = 1;
  int64_t count = 100;
  int64_t inputs = 10;
  double time_limit = 0;
  std::vector<Device> devices{Device::Interp, Device::Cpu};
  std::vector<int64_t> sizes{0, 1, 2, 3, 5, 8, 16, 33, 100};
  FloatTolerance tolerance{1024, 0};
  double timeout = 60;
  std::string out_dir = "difftest-out";
  int64_t max_reproducers = 5;
  bool shrink = true, isolate = true, print = false, verbose = false, unsafe = false;
  CheckFlags strategies; // only the strategies' thresholds are taken from it
};

int64_t parse_count(const std::string &opt, const std::string &v, int64_t min) {
  try {
    size_t used = 0;
    long long n = std::stoll(v, &used);
    if (used == v.size() && n >= min) return n;
  } catch (const std::exception &) {
  }
  throw UsageError(fmt::format("{} needs a whole number of at least {}, not '{}'", opt, min, v));
}

std::vector<std::string> split_list(const std::string &v) {
  std::vector<std::string> out;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parse_options(const std::vector<std::string> &args) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string v;
    if (match_option(args, i, {"--seed"}, v)) o.seed = uint64_t(parse_count("--seed", v, 0));
    else if (match_option(args, i, {"--count"}, v)) o.count = parse_count("--count", v, 0);
    else if (match_option(args, i, {"--inputs"}, v)) o.inputs = parse_count("--inputs", v, 1);
    else if (match_option(args, i, {"--time"}, v)) o.time_limit = parse_nonnegative_number("--time", v);
    else if (match_option(args, i, {"--timeout"}, v)) o.timeout = parse_nonnegative_number("--timeout", v);
    else if (match_option(args, i, {"--ulps"}, v)) o.tolerance.ulps = parse_nonnegative_number("--ulps", v);
    else if (match_option(args, i, {"--rtol"}, v)) o.tolerance.rtol = parse_nonnegative_number("--rtol", v);
    else if (match_option(args, i, {"--out"}, v)) o.out_dir = v;
    else if (match_option(args, i, {"--max-reproducers"}, v))
      o.max_reproducers = parse_count("--max-reproducers", v, 0);
    else if (match_option(args, i, {"--devices"}, v)) {
      o.devices.clear();
      for (const std::string &d : split_list(v)) o.devices.push_back(parse_device(d));
      if (o.devices.size() < 2) throw UsageError("--devices needs at least two executors to compare");
    } else if (match_option(args, i, {"--sizes"}, v)) {
      o.sizes.clear();
      for (const std::string &s : split_list(v)) {
        int64_t n = parse_count("--sizes", s, 0);
        if (n > 100000) throw UsageError(fmt::format("--sizes: {} is too large (at most 100000)", n));
        o.sizes.push_back(n);
      }
      if (o.sizes.empty()) throw UsageError("--sizes needs at least one size");
    } else if (args[i] == "--no-shrink") o.shrink = false;
    else if (args[i] == "--no-isolate") o.isolate = false;
    else if (args[i] == "--unsafe") o.unsafe = true;
    else if (match_threshold_flag(args, i, o.strategies)) {
    }
    else if (args[i] == "--print") o.print = true;
    else if (args[i] == "-v" || args[i] == "--verbose") o.verbose = true;
    else if (looks_like_option(args[i])) throw UsageError(unknown_option("difftest", args[i]));
    else throw UsageError(fmt::format("'kerb difftest' takes no arguments (unexpected '{}')", args[i]));
  }
  return o;
}

std::string devices_text(const std::vector<Device> &ds) {
  std::string s;
  for (size_t i = 0; i < ds.size(); i++) s += (i ? " vs " : "") + std::string(device_name(ds[i]));
  return s;
}

// The inputs of program `seed`: from their own generator, so that a program's inputs
// do not depend on how many inputs other programs had.
std::vector<difftest::GenInput> inputs_for(const difftest::GProgram &p, uint64_t seed, const Options &o) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 12345);
  std::vector<difftest::GenInput> out;
  for (int64_t k = 0; k < o.inputs; k++) out.push_back(difftest::generate_input(p, rng, o.sizes));
  return out;
}

std::string regex_escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (std::strchr("\\^$.|?*+()[]{}", c)) out += '\\';
    out += c;
  }
  return out;
}

std::string comment_lines(const std::string &text) {
  std::string out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) out += "-- " + line + "\n";
  return out;
}

struct Difference {
  uint64_t seed;
  PairVerdict pair;
};

class Runner {
public:
  explicit Runner(const Options &o) : o_(o) {
    config_.devices = o.devices;
    config_.tolerance = o.tolerance;
    config_.timeout_seconds = o.timeout;
    config_.isolate = o.isolate;
    config_.unsafe = o.unsafe;
    config_.gen = o.strategies.compile_options().gen;
  }

  int run() {
    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    difftest::GenOptions gen;
    uint64_t last_seed = o_.seed;
    int64_t done = 0;
    for (int64_t k = 0; k < o_.count; k++) {
      if (o_.time_limit > 0 && elapsed() >= o_.time_limit) break;
      uint64_t seed = o_.seed + uint64_t(k);
      last_seed = seed;
      done++;
      difftest::GProgram p = difftest::generate_program(seed, gen);
      std::vector<difftest::GenInput> inputs = inputs_for(p, seed, o_);
      if (o_.print) {
        print_program(p, inputs);
        continue;
      }
      ProgramReport r = evaluate_program(p, inputs, config_);
      account(seed, p, inputs, r);
    }
    if (o_.print) return kExitOk;
    std::string seeds = done == 0 ? "none" : done == 1 ? fmt::format("{}", o_.seed)
                                                       : fmt::format("{}..{}", o_.seed, last_seed);
    print_summary(done, seeds, elapsed());
    return differing_ > 0 || invalid_ > 0 ? kExitFailure : kExitOk;
  }

private:
  void print_program(const difftest::GProgram &p, const std::vector<difftest::GenInput> &inputs) {
    std::printf("%s", p.source().c_str());
    for (size_t k = 0; k < inputs.size(); k++) {
      std::string line;
      for (const Value &v : inputs[k].args) line += (line.empty() ? "" : " ") + format_value(v);
      std::printf("-- input %zu: %s\n", k, abbreviate(line, 400).c_str());
    }
    std::printf("\n");
  }

  void account(uint64_t seed, const difftest::GProgram &p, const std::vector<difftest::GenInput> &inputs,
               const ProgramReport &r) {
    int64_t pairs = int64_t(inputs.size()) * int64_t(o_.devices.size() - 1);
    if (r.invalid) {
      invalid_++;
      std::printf("INVALID program %llu: the generator made a program the front end rejects:\n%s\n",
                  (unsigned long long)seed, r.reason.c_str());
      if (invalid_ == 1) std::printf("%s\n", p.source().c_str());
      return;
    }
    if (r.unsupported) {
      unsupported_programs_++;
      unsupported_pairs_ += pairs;
      std::string first = r.reason.substr(0, r.reason.find('\n'));
      std::string what = first.substr(first.find("error: ") == std::string::npos ? 0 : first.find("error: ") + 7);
      unsupported_reasons_[what]++;
      if (o_.verbose) std::printf("program %llu: not supported:\n%s", (unsigned long long)seed, r.reason.c_str());
      return;
    }
    programs_run_++;
    worst_ulps_ = std::max(worst_ulps_, r.worst_ulps);
    worst_rel_ = std::max(worst_rel_, r.worst_rel);
    int64_t diffs = 0;
    for (const PairVerdict &pv : r.pairs) {
      counts_[pv.verdict]++;
      if (!is_difference(pv.verdict)) continue;
      diffs++;
      differing_++;
      std::printf("DIFFERENCE program %llu, input %d, %s vs %s: %s\n%s\n", (unsigned long long)seed, pv.input,
                  device_name(o_.devices[0]).c_str(), device_name(pv.device).c_str(), verdict_name(pv.verdict),
                  comment_lines(pv.detail).c_str());
      if (reproducers_ < o_.max_reproducers) {
        reproducers_++;
        write_reproducer(seed, p, inputs[size_t(pv.input)], pv);
      }
    }
    // Pairs that never ran because the program crashed or hung are not counted.
    int64_t ran = int64_t(r.pairs.size());
    pairs_ += ran;
    if (o_.verbose)
      std::printf("program %llu: %lld pairs, %lld differ\n", (unsigned long long)seed, (long long)ran,
                  (long long)diffs);
    std::fflush(stdout);
  }

  // Greedy shrinking: keep the first smaller variant that shows the same verdict on
  // the same device, until none does or the budget is spent.
  difftest::Case shrink(difftest::Case c, const PairVerdict &pv) {
    DifftestConfig config = config_;
    config.devices = {o_.devices[0], pv.device};
    auto still = [&](const difftest::Case &v) {
      ProgramReport r = evaluate_program(v.program, {v.input}, config);
      if (r.invalid || r.unsupported) return false;
      for (const PairVerdict &q : r.pairs)
        if (q.verdict == pv.verdict) return true;
      return false;
    };
    auto start = std::chrono::steady_clock::now();
    int tests = 0;
    const int kMaxTests = 400;
    const double kMaxSeconds = 120;
    for (bool improved = true; improved;) {
      improved = false;
      std::vector<difftest::Case> cands = difftest::shrink_program(c);
      std::vector<difftest::Case> more = difftest::shrink_input(c);
      cands.insert(cands.end(), more.begin(), more.end());
      size_t size = difftest::case_size(c);
      for (difftest::Case &v : cands) {
        if (difftest::case_size(v) >= size) continue;
        if (++tests > kMaxTests ||
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kMaxSeconds)
          return c;
        if (still(v)) {
          c = std::move(v);
          improved = true;
          break;
        }
      }
    }
    return c;
  }

  void write_reproducer(uint64_t seed, const difftest::GProgram &p, const difftest::GenInput &input,
                        const PairVerdict &pv) {
    difftest::Case c{p, input};
    size_t before = difftest::case_size(c);
    if (o_.shrink) c = shrink(c, pv);
    std::string expected;
    try {
      RunText ref = reference_outcome(c, o_.devices[0]);
      if (ref.ok) {
        expected = "-- output {";
        for (const std::string &r : ref.results) expected += " " + r;
        expected += " }\n";
      } else {
        expected = "-- error: " + regex_escape(ref.failure_message) + "\n";
      }
    } catch (const std::exception &e) {
      expected = comment_lines(fmt::format("(the reference could not run it: {})", e.what()));
    }
    std::string args;
    for (const Value &v : c.input.args) args += " " + format_value(v);
    std::string source = c.program.source();
    source = source.substr(source.find('\n') + 1); // drop the "Generated by" line
    std::string text = fmt::format(
        "-- Found by kerb difftest: {} ({} vs {}), program {} input {}{}.\n"
        "-- Rerun: kerb difftest --seed {} --count 1 --inputs {} --devices {},{}\n"
        "-- What the executors gave on the generated program:\n{}"
        "-- ==\n-- input {{{} }}\n{}{}",
        verdict_name(pv.verdict), device_name(o_.devices[0]), device_name(pv.device), seed, pv.input,
        o_.shrink ? ", shrunk" : "", seed, pv.input + 1, device_name(o_.devices[0]), device_name(pv.device),
        comment_lines(pv.detail), args, expected, source);
    std::error_code ec;
    fs::create_directories(o_.out_dir, ec);
    std::string path = (fs::path(o_.out_dir) / fmt::format("difftest-{}-{}.fut", seed, pv.input)).string();
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) {
      std::printf("could not write %s\n", path.c_str());
      return;
    }
    std::printf("wrote %s (%zu -> %zu bytes of program and input)\n", path.c_str(), before,
                difftest::case_size(c));
  }

  void print_summary(int64_t done, const std::string &seeds, double seconds) {
    int64_t agree = counts_[Verdict::AgreeOk] + counts_[Verdict::AgreeFailure] + counts_[Verdict::AgreeOtherSite] +
                    counts_[Verdict::AgreeDeadCheck];
    std::string kinds;
    for (auto &[v, n] : counts_)
      if (is_difference(v) && n > 0) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, verdict_name(v));
    for (auto &[what, n] : unsupported_reasons_)
      std::printf("not supported yet (%lld programs): %s\n", (long long)n, what.c_str());
    std::printf("difftest: %s, seeds %s, %lld programs x %lld inputs: %lld pairs agree (%lld same results, %lld "
                "same failure, %lld another real failure, %lld reference-only failures in dead code), %lld "
                "differ%s; %lld programs (%lld pairs) not supported by the code generator yet; %lld invalid "
                "programs; worst float difference %g ulps (relative %.3g); %.1f s\n",
                devices_text(o_.devices).c_str(), seeds.c_str(), (long long)done, (long long)o_.inputs,
                (long long)agree, (long long)counts_[Verdict::AgreeOk], (long long)counts_[Verdict::AgreeFailure],
                (long long)counts_[Verdict::AgreeOtherSite], (long long)counts_[Verdict::AgreeDeadCheck],
                (long long)differing_,
                kinds.empty() ? "" : (" (" + kinds + ")").c_str(), (long long)unsupported_programs_,
                (long long)unsupported_pairs_, (long long)invalid_, worst_ulps_, worst_rel_, seconds);
  }

  const Options &o_;
  DifftestConfig config_;
  std::map<Verdict, int64_t> counts_;
  std::map<std::string, int64_t> unsupported_reasons_;
  int64_t pairs_ = 0, differing_ = 0, invalid_ = 0, programs_run_ = 0;
  int64_t unsupported_programs_ = 0, unsupported_pairs_ = 0, reproducers_ = 0;
  double worst_ulps_ = 0, worst_rel_ = 0;
};

int run_difftest(const std::vector<std::string> &args) {
  Options o = parse_options(args);
  return Runner(o).run();
}

} // namespace

const Command kDifftestCommand = {"difftest", "compare the executors on random programs", kHelp,
                                  run_difftest};

} // namespace kerb::driver
