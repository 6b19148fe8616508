// `kerb bench FILE|DIR... [options]`: times the benchmark inputs of .fut programs (the
// cases of their `-- ==` blocks, Futhark's format) on the CPU or CUDA device. Each
// program is compiled once per variant (a set of check flags), each case's arguments
// are uploaded once, and the entry call is timed on the device's clock after warm-up
// runs; with several variants the runs are interleaved (A B C A B C ...). Prints a table
// and, with --json, writes a report with the device, driver, commit, date and, per
// case and variant, every run's time and their median, min and max.
#include "driver/build_info.h"
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/executor.h"
#include "driver/frontend.h"
#include "driver/json_writer.h"
#include "driver/test_cases.h"
#include "driver/test_spec.h"

#include "codegen/compiled_program.h"
#include "compiler/source.h"
#include "runtime/cuda_device.h"
#include "runtime/exec_context.h"
#include "runtime/timing.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace fs = std::filesystem;

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb bench FILE|DIR... [options]
       kerb bench PROG --input [ENTRY=]FILE... [options]
       kerb bench --copy-bandwidth [--device DEVICE] [--json FILE]

Times the benchmark inputs of .fut programs (directories are searched recursively):
the cases of their `-- ==` blocks, in Futhark's format as `kerb test` reads them,
except `nobench` cases, cases and blocks tagged `no_DEVICE` for the device used
(`no_cuda`, `no_cpu`) and disabled blocks. Inputs may be inline, files (`input @
data/x.in`: Futhark's text or binary values, or .npy) or generated
(`random input { [1048576]f32 }`: integers over their whole range, floats in [0, 1)).

Each program is compiled once per variant, each case's arguments are uploaded to the
device once, then every variant runs --warmup untimed calls and --runs timed calls,
interleaved (A B C A B C ...). The first call of each variant is checked: a case with
an expected output must give it (Futhark's float tolerance), a case with `error:` must
fail with a matching message (its failing call is what is timed), and no run of a case
may succeed or fail otherwise.

With --input, the blocks are not read: each --input is one case, the arguments in FILE
(as `kerb run --input` reads them, e.g. made by `kerb dataset`) for entry ENTRY (or the
-e entry) of the one program PROG, which must run without failing.

What is timed: one entry call, that is its host code with every kernel launch,
allocation, copy and scalar read-back it makes; on the CUDA device between two CUDA
events on the program's stream (the second queued when the entry returns, so the time
ends with the call's last device work, as the hand-written versions' does), on the CPU
device by a steady clock. The sync and the look at the failure slot that end the call
follow; the wall-clock times (JSON) include them. Not timed: compiling, uploading the
arguments, reading the results back, freeing the previous call's memory.

Options:
  --device DEVICE     cuda or cpu (default: cuda when a CUDA device is found, else cpu)
  -e, --entry NAME    only this entry point (default: those the blocks name)
  --input [ENTRY=]FILE  time ENTRY (default: the -e entry) on the arguments in FILE
                      instead of the blocks' cases (Futhark's text or binary values, or
                      .npy; one PROG); may be repeated
  --runs N            timed runs per case and variant (default 10)
  --warmup N          untimed runs before them (default 3; the first checks the outcome)
  --time-budget SEC   stop a case's timed runs once they have taken SEC seconds in all
                      (not before 3 rounds, unless the first round alone took longer);
                      warm-up stops early the same way (after the checked first run)
  --json FILE         write the report as JSON to FILE ('-': stdout, the table then goes
                      to stderr)
  --variant FLAGS     compile and time a variant with these check options (below),
                      e.g. `--variant=--unsafe`, `--variant='--checks=bounds
                      --sync-checks'`, `--variant=default` for none; repeat it to
                      compare variants in one process, their runs interleaved; not
                      together with check options outside --variant
  --copy-bandwidth    also measure the device's copy rate: a 256 MiB device-to-device
                      copy (CUDA) or a memcpy across the CPU device's threads, counting
                      bytes read plus bytes written, median of 10 after 2 warm-ups
  -h, --help          show this help

)" KERB_CHECK_FLAGS_HELP KERB_SYNC_CHECKS_HELP R"(
A case that expects a failed check is skipped by a variant that turns off a kind of
check whose failure leaves no defined result (--unsafe, or --checks without bounds,
div, range or size).

The table gives each variant's median, min and max in milliseconds and, with several
variants, the ratio of each median to the first variant's, and notes device
allocations made in the timed runs (after the warm-up a call should take all its
memory from its context's cache). The JSON report (schema "kerb-bench/1") holds the
device, its driver, Kerb's commit, the date, the settings, and per case and variant
every run's device and wall-clock time with their median, min and max, and the device
allocations of the timed runs (fresh_allocations; per case, pool_growth_bytes: how much
the CUDA memory pool grew meanwhile). Exit status: 0 every case ran as expected; 1 a case failed, gave a wrong
result, or did not compile; 2 a usage error or bad input.
)";

struct Variant {
  std::string flags; // "--unsafe", "default", "--checks=bounds,div --sync-checks", ...
  CheckFlags checks;
};

struct Options {
  std::optional<Device> device;
  std::string entry;
  // --input: (entry, file) cases instead of the blocks'.
  std::vector<std::pair<std::string, std::string>> inputs;
  int runs = 10, warmup = 3;
  double time_budget_s = 0;
  std::string json_path;
  bool copy_bandwidth = false;
  std::vector<Variant> variants;
};

// One variant's outcome for one case.
struct VariantResult {
  std::string flags;
  double compile_s = 0;
  std::string error;   // non-empty: the variant did not run as expected
  std::string skipped; // non-empty: why the variant does not run this case
  std::string outcome; // "output matched", "failed as expected", "ran"
  std::vector<double> device_ms, wall_ms;
  // Device allocations the timed runs made (not taken from the context's cache); -1:
  // not known (no timed run).
  long long fresh_allocations = -1;
};

struct CaseResult {
  std::string program, entry, name, input, expect;
  int line = 0;
  std::string error; // the case could not run at all (bad input)
  std::vector<VariantResult> variants;
  // How much the CUDA device's memory pool (shared by the variants) grew during the
  // timed runs; -1: no pool (the CPU device) or no timed run.
  long long pool_growth_bytes = -1;
};

struct ProgramError {
  std::string program, error;
};

struct Report {
  std::vector<CaseResult> cases;
  std::vector<ProgramError> program_errors;
  std::optional<CopyRate> copy;
  bool failed = false;
};

int parse_count(const std::string &option, const std::string &value, int min) {
  size_t used = 0;
  long n = -1;
  try {
    n = std::stol(value, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used != value.size() || value.empty() || n < min || n > 1000000)
    throw UsageError(fmt::format("{} needs a whole number from {} to 1000000 (got '{}')", option,
                                 min, value));
  return int(n);
}

double parse_seconds(const std::string &option, const std::string &value) {
  size_t used = 0;
  double s = -1;
  try {
    s = std::stod(value, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used != value.size() || value.empty() || !(s > 0) || s > 1e6)
    throw UsageError(fmt::format("{} needs a positive number of seconds (got '{}')", option, value));
  return s;
}

// Whether calling `entry` may consume an argument (a unique array parameter): then each
// run gets a fresh copy of the arguments.
bool consumes(const Type &t) {
  if (t.unique && t.is_array()) return true;
  for (const Type &e : t.elems)
    if (consumes(e)) return true;
  return false;
}

bool consumes_arguments(const FunDef &entry) {
  for (const Pattern &p : entry.params)
    if (consumes(p.type)) return true;
  return false;
}

std::string describe_input(const TestCase &c) {
  switch (c.input.kind) {
  case SpecValues::Random: {
    std::string types;
    for (const RandomType &t : c.input.random) types += (types.empty() ? "" : " ") + t.str();
    return fmt::format("random input {{ {} }}", types);
  }
  case SpecValues::File: return fmt::format("input @ {}", c.input.path);
  case SpecValues::Script: case SpecValues::Inline: {
    std::string text;
    bool space = false;
    for (char ch : c.input.text) {
      bool ws = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
      if (ws) {
        space = !text.empty();
        continue;
      }
      if (space) text += ' ';
      space = false;
      text += ch;
    }
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return fmt::format("input {{ {} }}", text);
  }
  }
  return "";
}

std::string first_line(const std::string &s) { return s.substr(0, s.find('\n')); }

// Milliseconds with about four significant digits, never in exponent form.
std::string ms_text(double ms) {
  if (ms >= 100) return fmt::format("{:.1f}", ms);
  if (ms >= 1) return fmt::format("{:.3f}", ms);
  if (ms >= 0.01) return fmt::format("{:.4f}", ms);
  return fmt::format("{:.6f}", ms);
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

// A compiled variant of one program.
struct CompiledVariant {
  const Variant *variant;
  std::unique_ptr<codegen::CompiledProgram> program;
  std::string error;
  double compile_s = 0;
};

class Bencher {
public:
  Bencher(const Options &opts, Device device, std::FILE *table)
      : opts_(opts), device_(device), table_(table) {}

  void bench_file(const std::string &path, Report &report) {
    bool ok = false;
    std::string text = read_text_file(path, ok);
    if (!ok) return program_error(report, path, fmt::format("cannot read '{}'", path));
    TestSpec spec;
    try {
      spec = opts_.inputs.empty() ? parse_test_spec(text, path) : input_spec();
    } catch (const TestSpecError &e) {
      return program_error(report, path, fmt::format("malformed test block: {}", e.what()));
    }
    std::vector<std::pair<const TestBlock *, const TestCase *>> todo;
    std::string no_device = "no_" + device_name(device_);
    for (const TestBlock &block : spec.blocks) {
      if (block.disabled() || has_tag(block.tags, no_device)) continue;
      for (const TestCase &c : block.cases)
        if (!c.nobench && !has_tag(c.tags, no_device)) todo.push_back({&block, &c});
    }
    if (todo.empty()) {
      std::fprintf(table_, "%s: no benchmark inputs for the %s device\n", path.c_str(),
                   device_name(device_).c_str());
      return;
    }
    FrontendResult fr = run_frontend(path);
    if (!fr.program)
      return program_error(report, path,
                           fr.unreadable ? fmt::format("cannot read '{}'", path) : fr.diagnostic);
    const Program &program = *fr.program;

    std::vector<CompiledVariant> compiled;
    for (const Variant &v : opts_.variants) {
      CompiledVariant cv{&v, nullptr, "", 0};
      if (v.checks.report) {
        std::fprintf(stderr, "%s, %s:\n", path.c_str(), v.flags.c_str());
        print_check_report(program, v.checks, stderr);
      }
      auto t0 = std::chrono::steady_clock::now();
      try {
        ExecOptions eo;
        eo.compile = v.checks.compile_options();
        cv.program = compile_program(device_, program, eo);
      } catch (const CompileError &e) {
        cv.error = fmt::format("does not compile: {}", first_line(e.render()));
      } catch (const InputError &) {
        throw;
      } catch (const std::exception &e) {
        cv.error = fmt::format("the {} device failed: {}", device_name(device_), e.what());
      }
      cv.compile_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      compiled.push_back(std::move(cv));
    }

    fs::path dir = fs::path(path).parent_path();
    for (const auto &[block, c] : todo)
      for (const std::string &entry_name : block->entries) {
        if (opts_.inputs.empty() && !opts_.entry.empty() && entry_name != opts_.entry) continue;
        report.cases.push_back(bench_case(program, path, dir, entry_name, *c, compiled));
        print_case(report.cases.back());
        if (!case_ok(report.cases.back())) report.failed = true;
      }
  }

private:
  // The cases of --input: each an entry on a file's arguments, expected to succeed.
  TestSpec input_spec() const {
    TestSpec spec;
    for (const auto &[entry, file] : opts_.inputs) {
      TestCase c;
      c.input.kind = SpecValues::File;
      c.input.path = fs::absolute(file).string();
      c.expect = TestCase::Succeed;
      c.name = file;
      TestBlock block;
      block.entries = {entry};
      block.cases.push_back(std::move(c));
      spec.blocks.push_back(std::move(block));
    }
    return spec;
  }

  void program_error(Report &report, const std::string &path, const std::string &error) {
    std::fprintf(table_, "%s: %s\n", path.c_str(), error.c_str());
    report.program_errors.push_back(ProgramError{path, error});
    report.failed = true;
  }

  static bool case_ok(const CaseResult &r) {
    if (!r.error.empty()) return false;
    for (const VariantResult &v : r.variants)
      if (!v.error.empty()) return false;
    return true;
  }

  // Checks the first call of a variant against the case's expectation. Returns "" or why
  // not.
  static std::string check_first(codegen::TimedCall &call, const codegen::TimedCall::Sample &s,
                                 const TestCase &c, const FunDef &entry, const fs::path &dir,
                                 const std::string &path) {
    RunResult r;
    if (s.ok) {
      r = call.results();
    } else {
      r.ok = false;
      r.failure = s.failure;
    }
    return check_case_outcome(c, entry, r, dir, path);
  }

  // Whether a later run behaved as the first: succeeded, or failed as expected.
  static std::string check_later(const codegen::TimedCall::Sample &s, const TestCase &c, int run) {
    if (c.expect == TestCase::Error && s.ok)
      return fmt::format("run {} succeeded, but the case expects an error", run);
    if (c.expect != TestCase::Error && !s.ok)
      return fmt::format("run {} failed: {}", run, first_line(s.failure.str()));
    return "";
  }

  CaseResult bench_case(const Program &program, const std::string &path, const fs::path &dir,
                        const std::string &entry_name, const TestCase &c,
                        std::vector<CompiledVariant> &compiled) {
    CaseResult res;
    res.program = path;
    res.entry = entry_name;
    res.line = c.line;
    res.name = c.name.empty() ? fmt::format("line {}", c.line) : c.name;
    res.input = describe_input(c);
    res.expect = c.expect == TestCase::Output  ? "output"
                 : c.expect == TestCase::Error ? "error"
                                               : "success";
    const FunDef *entry = find_entry(program, entry_name);
    if (!entry) {
      res.error = fmt::format("the program has no entry point '{}'", entry_name);
      return res;
    }
    std::vector<Value> args;
    try {
      args = case_arguments(c, *entry, dir, path);
    } catch (const std::exception &e) {
      res.error = fmt::format("bad input: {}", e.what());
      return res;
    }
    bool restore = consumes_arguments(*entry);

    size_t nv = compiled.size();
    res.variants.resize(nv);
    std::vector<std::unique_ptr<codegen::TimedCall>> calls(nv);
    for (size_t v = 0; v < nv; v++) {
      VariantResult &vr = res.variants[v];
      vr.flags = compiled[v].variant->flags;
      vr.compile_s = compiled[v].compile_s;
      vr.error = compiled[v].error;
      if (!vr.error.empty()) continue;
      if (c.expect == TestCase::Error && undefined_kinds_off(compiled[v].variant->checks.checks)) {
        vr.skipped = fmt::format("the case expects a failed check that {} may leave out",
                                 compiled[v].variant->flags);
        continue;
      }
      try {
        calls[v] = compiled[v].program->prepare_call(entry_name, args, restore);
      } catch (const std::exception &e) {
        vr.error = fmt::format("cannot set up the call: {}", e.what());
      }
    }
    args.clear(); // the host copy is no longer needed

    // Runs variant v once; false (with the error recorded) when it misbehaved.
    auto run_one = [&](size_t v, int number, bool timed) {
      VariantResult &vr = res.variants[v];
      try {
        codegen::TimedCall::Sample s = calls[v]->run();
        std::string why = number == 0 ? check_first(*calls[v], s, c, *entry, dir, path)
                                      : check_later(s, c, number);
        if (number == 0 && why.empty())
          vr.outcome = c.expect == TestCase::Output  ? "output matched"
                       : c.expect == TestCase::Error ? "failed as expected"
                                                     : "ran";
        if (!why.empty()) {
          vr.error = why;
          return 0.0;
        }
        if (timed) {
          vr.device_ms.push_back(s.device_ms);
          vr.wall_ms.push_back(s.wall_ms);
        }
        return s.wall_ms;
      } catch (const std::exception &e) {
        vr.error = fmt::format("the {} device failed: {}", device_name(device_), e.what());
        return 0.0;
      }
    };
    auto live = [&](size_t v) { return calls[v] && res.variants[v].error.empty(); };

    // Runs are numbered across warm-up and timed runs; run 0 is checked in full.
    double budget_ms = opts_.time_budget_s * 1000;
    double spent = 0;
    int k = 0;
    for (; k < opts_.warmup; k++) {
      for (size_t v = 0; v < nv; v++)
        if (live(v)) spent += run_one(v, k, false);
      if (budget_ms > 0 && spent > budget_ms) {
        k++;
        break;
      }
    }
    // Memory counters around the timed runs: after the warm-up, a call should find all
    // its memory in its context's cache (fresh allocations 0, the pool not growing).
    std::vector<codegen::TimedCall::Memory> before(nv);
    auto memory = [&](size_t v) {
      try {
        return calls[v]->memory();
      } catch (const std::exception &e) {
        res.variants[v].error = fmt::format("the {} device failed: {}", device_name(device_), e.what());
        return codegen::TimedCall::Memory{};
      }
    };
    for (size_t v = 0; v < nv; v++)
      if (live(v)) before[v] = memory(v);
    // Timed rounds: at least 3 within the budget, only 1 when one round alone is over it.
    spent = 0;
    for (int r = 0; r < opts_.runs; r++, k++) {
      for (size_t v = 0; v < nv; v++)
        if (live(v)) spent += run_one(v, k, true);
      if (budget_ms > 0 && spent > budget_ms && (r + 1 >= 3 || r == 0)) break;
    }
    for (size_t v = 0; v < nv; v++) {
      if (!live(v) || res.variants[v].device_ms.empty()) continue;
      codegen::TimedCall::Memory after = memory(v);
      res.variants[v].fresh_allocations = after.fresh_allocations - before[v].fresh_allocations;
      if (after.pool_reserved_bytes >= 0 && before[v].pool_reserved_bytes >= 0 &&
          res.pool_growth_bytes < 0)
        res.pool_growth_bytes = after.pool_reserved_bytes - before[v].pool_reserved_bytes;
    }
    return res;
  }

  void print_case(const CaseResult &r) {
    std::fprintf(table_, "%s:%s %s (%s)\n", r.program.c_str(), r.entry.c_str(),
                 r.name.c_str(), r.input.c_str());
    if (!r.error.empty()) {
      std::fprintf(table_, "  error: %s\n", r.error.c_str());
      return;
    }
    double base = 0;
    for (size_t v = 0; v < r.variants.size(); v++) {
      const VariantResult &vr = r.variants[v];
      TimingStats st = timing_stats(vr.device_ms);
      if (v == 0) base = st.median;
      std::string line = fmt::format("  {:<16}", vr.flags);
      if (!vr.device_ms.empty())
        line += fmt::format(" {:>10} ms  (min {}, max {}; {} runs)", ms_text(st.median),
                            ms_text(st.min), ms_text(st.max), vr.device_ms.size());
      if (!vr.device_ms.empty() && r.variants.size() > 1 && v > 0 && base > 0)
        line += fmt::format("  {:.3f}x", st.median / base);
      if (vr.fresh_allocations > 0)
        line += fmt::format("  ({} device allocations in the timed runs)", vr.fresh_allocations);
      if (!vr.error.empty()) line += fmt::format("  error: {}", first_line(vr.error));
      if (!vr.skipped.empty()) line += fmt::format("  skipped: {}", vr.skipped);
      std::fprintf(table_, "%s\n", line.c_str());
    }
    std::fflush(table_);
  }

  const Options &opts_;
  Device device_;
  std::FILE *table_;
};

void write_stats(JsonWriter &j, const std::string &prefix, const std::vector<double> &ms) {
  TimingStats st = timing_stats(ms);
  j.field(prefix + "median_ms", st.median);
  j.field(prefix + "min_ms", st.min);
  j.field(prefix + "max_ms", st.max);
  j.field(prefix + "mean_ms", st.mean);
}

void write_copy_rate(JsonWriter &j, const CopyRate &r, Device device) {
  j.key("copy_bandwidth").begin_object();
  j.field("what", device == Device::Cuda
                      ? "cuMemcpyDtoDAsync on the device's stream, timed with CUDA events"
                      : "memcpy in host memory across the CPU device's threads, steady clock");
  j.field("bytes", static_cast<long long>(r.bytes));
  j.field("warmup", r.warmup);
  j.field("runs", int(r.runs_ms.size()));
  j.field("runs_ms", r.runs_ms);
  write_stats(j, "", r.runs_ms);
  j.field("GB_per_s", r.gb_per_s());
  j.field("counts", "bytes read plus bytes written, 10^9 bytes per second of the median run");
  j.end_object();
}

std::string report_json(const Report &report, const Options &opts, const DeviceInfo &info,
                        Device device, const std::vector<std::string> &args) {
  JsonWriter j;
  j.begin_object();
  j.field("schema", "kerb-bench/1");
  j.field("tool", "kerb bench");
  j.key("kerb").begin_object();
  j.field("version", kVersion);
  j.field("commit", build_commit());
  j.end_object();
  j.field("date", utc_now());
  j.field("host", host_name());
  std::string command = "kerb bench";
  for (const std::string &a : args) command += " " + a;
  j.field("command", command);
  j.key("device").begin_object();
  j.field("kind", info.kind);
  j.field("name", info.name);
  j.field("description", info.description);
  if (device == Device::Cuda) {
    j.field("compute_capability", info.compute_capability);
    j.field("driver", info.driver.empty() ? std::string("unknown") : info.driver);
    j.field("cuda_driver_api", info.cuda_driver_api);
  } else {
    j.field("host_threads", info.host_threads);
  }
  j.end_object();
  j.field("clock", device == Device::Cuda ? "CUDA events on the program's stream" : "steady clock");
  j.field("timed",
          "one entry call: its host code with every launch, allocation, copy and scalar "
          "read-back, up to its last device work (the sync and the look at the failure "
          "slot that end it: in the wall_ times only); not compiling, uploading "
          "arguments, reading results back or freeing the previous call's memory");
  j.key("settings").begin_object();
  j.field("runs", opts.runs);
  j.field("warmup", opts.warmup);
  j.field("time_budget_s", opts.time_budget_s);
  j.key("variants").begin_array();
  for (const Variant &v : opts.variants) j.value(v.flags);
  j.end_array();
  j.field("interleaved", opts.variants.size() > 1);
  j.end_object();
  if (report.copy) write_copy_rate(j, *report.copy, device);
  j.key("benchmarks").begin_array();
  for (const CaseResult &c : report.cases) {
    j.begin_object();
    j.field("program", c.program);
    j.field("entry", c.entry);
    j.field("case", c.name);
    j.field("line", c.line);
    j.field("input", c.input);
    j.field("expect", c.expect);
    if (!c.error.empty()) j.field("error", c.error);
    if (c.pool_growth_bytes >= 0) j.field("pool_growth_bytes", c.pool_growth_bytes);
    j.key("variants").begin_array();
    for (const VariantResult &v : c.variants) {
      j.begin_object();
      j.field("flags", v.flags);
      j.field("status", !v.error.empty() ? "error" : !v.skipped.empty() ? "skipped" : "ok");
      if (!v.error.empty()) j.field("error", v.error);
      if (!v.skipped.empty()) j.field("skipped", v.skipped);
      if (!v.outcome.empty()) j.field("outcome", v.outcome);
      j.field("compile_s", v.compile_s);
      j.field("runs", int(v.device_ms.size()));
      if (!v.device_ms.empty()) {
        write_stats(j, "", v.device_ms);
        write_stats(j, "wall_", v.wall_ms);
        j.field("runs_ms", v.device_ms);
        j.field("wall_runs_ms", v.wall_ms);
      }
      if (v.fresh_allocations >= 0) j.field("fresh_allocations", v.fresh_allocations);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("program_errors").begin_array();
  for (const ProgramError &e : report.program_errors) {
    j.begin_object();
    j.field("program", e.program);
    j.field("error", e.error);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str();
}

// The flags of a variant as one string, in a fixed order ("default" for none).
std::string variant_name(const CheckFlags &f) {
  std::vector<std::string> parts;
  if (f.checks.unsafe) parts.push_back("--unsafe");
  if (f.checks_given) parts.push_back("--checks=" + f.checks.str());
  if (f.sync) parts.push_back("--sync-checks");
  if (!f.fp_contract) parts.push_back("--fp-contract=off");
  if (!f.deferred) parts.push_back("--deferred-checks=off");
  if (f.deferred_loads != "predicated") parts.push_back("--deferred-loads=" + f.deferred_loads);
  if (!f.scan_vectors) parts.push_back("--scan-vectors=off");
  for (const ThresholdFlag &t : threshold_flags()) {
    int64_t v = f.thresholds.*t.field;
    if (v != codegen::GenOptions{}.*t.field)
      parts.push_back(std::string(t.name) + "=" + (v < 0 ? std::string("off") : std::to_string(v)));
  }
  if (f.report) parts.push_back("--report-checks");
  for (const std::string &d : f.dump_after) parts.push_back("--dump-after=" + d);
  std::string out;
  for (const std::string &p : parts) out += (out.empty() ? "" : " ") + p;
  return out.empty() ? "default" : out;
}

// The check flags of a --variant value: options separated by spaces, or "default".
CheckFlags parse_variant(const std::string &text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t b = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > b) words.push_back(text.substr(b, i - b));
  }
  CheckFlags flags;
  if (words.size() == 1 && words[0] == "default") return flags;
  for (size_t k = 0; k < words.size(); ++k)
    if (!match_check_flag(words, k, flags, /*runs_code=*/true))
      throw UsageError(fmt::format("'{}' in --variant '{}' is not a check option (see 'kerb bench "
                                   "--help'; default for none)",
                                   words[k], text));
  return flags;
}

Options parse_options(const std::vector<std::string> &args, std::vector<std::string> &paths) {
  Options opts;
  CheckFlags checks;
  bool any_check = false;
  std::vector<std::string> variant_texts;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"--device"}, value)) {
      opts.device = parse_device(value);
      if (*opts.device == Device::Interp)
        throw UsageError("'kerb bench' times compiled code: use --device cuda or cpu");
      continue;
    }
    if (match_option(args, i, {"-e", "--entry"}, value)) {
      opts.entry = value;
      continue;
    }
    if (match_option(args, i, {"--input"}, value)) {
      size_t eq = value.find('=');
      std::string entry = eq == std::string::npos ? "" : value.substr(0, eq);
      std::string file = eq == std::string::npos ? value : value.substr(eq + 1);
      if (file.empty()) throw UsageError("--input needs a file name");
      opts.inputs.push_back({entry, file});
      continue;
    }
    if (match_option(args, i, {"--runs"}, value)) {
      opts.runs = parse_count("--runs", value, 1);
      continue;
    }
    if (match_option(args, i, {"--warmup"}, value)) {
      opts.warmup = parse_count("--warmup", value, 0);
      continue;
    }
    if (match_option(args, i, {"--time-budget"}, value)) {
      opts.time_budget_s = parse_seconds("--time-budget", value);
      continue;
    }
    if (match_option(args, i, {"--json"}, value)) {
      if (value.empty()) throw UsageError("--json needs a file name ('-' for stdout)");
      opts.json_path = value;
      continue;
    }
    if (match_option(args, i, {"--variant"}, value)) {
      variant_texts.push_back(value);
      continue;
    }
    if (args[i] == "--copy-bandwidth") {
      opts.copy_bandwidth = true;
      continue;
    }
    if (match_check_flag(args, i, checks, /*runs_code=*/true)) {
      any_check = true;
      continue;
    }
    if (looks_like_option(args[i])) throw UsageError(unknown_option("bench", args[i]));
    paths.push_back(args[i]);
  }
  if (!variant_texts.empty() && any_check)
    throw UsageError("give the check options either directly or in --variant, not both");
  for (const std::string &text : variant_texts) {
    CheckFlags f = parse_variant(text);
    std::string name = variant_name(f);
    for (const Variant &v : opts.variants)
      if (v.flags == name) throw UsageError(fmt::format("variant '{}' is given twice", name));
    opts.variants.push_back(Variant{name, f});
  }
  if (opts.variants.empty()) opts.variants.push_back(Variant{variant_name(checks), checks});
  if (paths.empty() && !opts.copy_bandwidth)
    throw UsageError("'kerb bench' needs at least one file or directory (or --copy-bandwidth)");
  if (!opts.inputs.empty() && paths.size() != 1)
    throw UsageError("--input needs one program (kerb bench PROG --input [ENTRY=]FILE)");
  for (auto &[entry, file] : opts.inputs) {
    if (entry.empty()) entry = opts.entry;
    if (entry.empty())
      throw UsageError(fmt::format("--input '{}' needs an entry point: -e ENTRY or --input "
                                   "ENTRY={}",
                                   file, file));
  }
  return opts;
}

int run_bench(const std::vector<std::string> &args) {
  std::vector<std::string> paths;
  Options opts = parse_options(args, paths);

  std::vector<std::string> files;
  for (const std::string &p : paths) {
    std::vector<std::string> found = fut_files(p);
    files.insert(files.end(), found.begin(), found.end());
  }

  std::FILE *table = opts.json_path == "-" ? stderr : stdout;
  Device device = Device::Cpu;
  if (opts.device) {
    device = *opts.device;
  } else {
    std::string why;
    if (CudaDevice::device_count(&why) > 0)
      device = Device::Cuda;
    else
      std::fprintf(table, "no CUDA device (%s): timing on the cpu device\n", why.c_str());
  }
  DeviceInfo info = device_info(device); // throws InputError when not available
  std::fprintf(table, "device: %s\n", info.description.c_str());

  Report report;
  if (opts.copy_bandwidth) {
    try {
      report.copy = device == Device::Cuda
                        ? measure_cuda_copy_rate(cuda_device(), int64_t(1) << 28, 2, 10)
                        : measure_host_copy_rate(int64_t(1) << 28, info.host_threads, 2, 10);
      std::fprintf(table, "copy bandwidth: %.1f GB/s (%lld bytes, median %.4f ms, read + write)\n",
                   report.copy->gb_per_s(), static_cast<long long>(report.copy->bytes),
                   report.copy->ms.median);
    } catch (const std::exception &e) {
      print_error(fmt::format("the copy-bandwidth probe failed: {}", e.what()));
      report.failed = true;
    }
  }

  Bencher bencher(opts, device, table);
  if (files.empty() && !paths.empty()) std::fprintf(table, "no .fut files found\n");
  for (const std::string &file : files) bencher.bench_file(file, report);

  if (!opts.json_path.empty()) {
    std::string json = report_json(report, opts, info, device, args);
    if (opts.json_path == "-") {
      std::fwrite(json.data(), 1, json.size(), stdout);
    } else {
      std::ofstream out(opts.json_path, std::ios::binary);
      out << json;
      out.close();
      if (!out) {
        print_error(fmt::format("cannot write '{}'", opts.json_path));
        return kExitFailure;
      }
    }
  }
  return report.failed ? kExitFailure : kExitOk;
}

} // namespace

const Command kBenchCommand = {"bench", "time benchmark inputs on a device (JSON report)", kHelp,
                               run_bench};

} // namespace kerb::driver
