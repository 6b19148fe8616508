// Running and judging generated programs for `kerb difftest` (see difftest_run.h).
#include "driver/difftest_run.h"

#include "compiler/interpreter.h"
#include "compiler/syntax/parser.h"
#include "compiler/types/type_check.h"
#include "driver/entry_io.h"
#include "driver/executor.h"
#include "driver/frontend.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kerb::driver {

using difftest::Case;
using difftest::GenInput;
using difftest::GProgram;

const char *verdict_name(Verdict v) {
  switch (v) {
  case Verdict::AgreeOk: return "agree";
  case Verdict::AgreeFailure: return "same failure";
  case Verdict::AgreeOtherSite: return "another real failure";
  case Verdict::AgreeDeadCheck: return "only the reference fails, in dead code";
  case Verdict::ResultsDiffer: return "results differ";
  case Verdict::FailuresDiffer: return "failures differ";
  case Verdict::OnlyReferenceFails: return "only the reference fails";
  case Verdict::OnlyDeviceFails: return "only the device fails";
  case Verdict::DeviceError: return "error";
  case Verdict::Crash: return "crash";
  case Verdict::Hang: return "hang";
  }
  return "?";
}

bool is_difference(Verdict v) {
  return v != Verdict::AgreeOk && v != Verdict::AgreeFailure && v != Verdict::AgreeOtherSite &&
         v != Verdict::AgreeDeadCheck;
}

namespace {

// A program's source checked by the front end.
struct Checked {
  std::optional<Program> program;
  std::string diagnostic;
};

Checked check(const GProgram &g) {
  Checked c;
  auto file = std::make_shared<const SourceFile>(fmt::format("difftest-{}.fut", g.seed), g.source());
  try {
    Program p = parse_program(file);
    type_check(p);
    c.program = std::move(p);
  } catch (const CompileError &e) {
    c.diagnostic = e.render();
  } catch (const std::exception &e) {
    c.diagnostic = fmt::format("internal error in the front end: {}", e.what());
  }
  return c;
}

struct Outcome {
  enum Kind { Ok, Failed, Error } kind = Error;
  std::vector<Value> results; // Ok: flattened
  RunFailure failure;         // Failed
  std::string error;          // Error
};

Outcome run_on(Executor &exec, const FunDef &entry, const std::vector<Value> &args) {
  Outcome o;
  try {
    RunResult r = exec.run(entry, args);
    if (r.ok) {
      o.kind = Outcome::Ok;
      o.results = flatten_values(r.results);
    } else {
      o.kind = Outcome::Failed;
      o.failure = std::move(r.failure);
    }
  } catch (const CompileError &e) {
    o.error = e.render();
  } catch (const std::exception &e) {
    o.error = e.what();
  }
  return o;
}

std::string describe(const Outcome &o) {
  switch (o.kind) {
  case Outcome::Ok: {
    std::string s;
    for (size_t i = 0; i < o.results.size(); i++) s += (i ? " " : "") + abbreviate(format_value(o.results[i]), 200);
    return "results " + s;
  }
  case Outcome::Failed: return fmt::format("failure \"{}\" at {}", o.failure.message, o.failure.location);
  case Outcome::Error: return "error: " + o.error;
  }
  return "?";
}

bool same_failure(const RunFailure &a, const RunFailure &b) {
  return a.kind == b.kind && a.message == b.message && a.location == b.location;
}

// Whether `dev` differs from `ref` only in inner sizes of an empty array that the
// interpreter gave as 0 because it could not find them (compiler/interpreter.cpp, Note
// [Inner sizes of empty arrays]: a map over no elements whose function fails on a row
// of zeros, with rows of a size the types do not know): ref's shape is [..., 0, 0, ...]
// from its first 0 on, dev's the same up to that 0 (kerb difftest, seed 202993).
bool unknown_inner_sizes(const Value &ref, const Value &dev) {
  if (ref.kind != Value::Array || dev.kind != Value::Array || ref.type() != dev.type()) return false;
  const std::vector<int64_t> &a = ref.shape(), &b = dev.shape();
  size_t z = 0;
  while (z < a.size() && a[z] != 0) z++;
  if (a.size() != b.size() || z + 1 >= a.size()) return false;
  for (size_t d = 0; d < a.size(); d++)
    if (d <= z ? a[d] != b[d] : a[d] != 0) return false;
  return true;
}

// Which flattened results are approximate: a result's flag covers all its pieces.
std::vector<bool> flattened_approx(const GProgram &g, const FunDef &entry) {
  std::vector<bool> per_result = g.approx_results();
  std::vector<bool> out;
  const Type &ret = entry.ret_type;
  std::vector<Type> results = ret.is_tuple() && !per_result.empty() && per_result.size() != 1 ? ret.elems
                                                                                              : std::vector<Type>{ret};
  for (size_t k = 0; k < results.size(); k++) {
    FunDef probe;
    probe.ret_type = results[k];
    size_t pieces = entry_output_slots(probe).size();
    out.insert(out.end(), pieces, k < per_result.size() && per_result[k]);
  }
  return out;
}

struct Judge {
  const Program &program;
  const FunDef &entry;
  const DifftestConfig &config;
  const std::vector<bool> &approx;
  ProgramReport &report;

  PairVerdict judge(int input, Device device, const DeadChecks &dead, const Outcome &ref, const Outcome &dev,
                    const std::vector<Value> &args, std::optional<std::vector<RunFailure>> &possible) {
    PairVerdict pv;
    pv.input = input;
    pv.device = device;
    auto differ = [&](Verdict v, std::string why) {
      pv.verdict = v;
      pv.detail = fmt::format("{}\n{}: {}\n{}: {}", why, device_name(config.devices[0]), describe(ref),
                              device_name(device), describe(dev));
      return pv;
    };
    if (ref.kind == Outcome::Error) return differ(Verdict::DeviceError, "the reference raised an error");
    if (dev.kind == Outcome::Error) return differ(Verdict::DeviceError, "the device raised an error");
    if (ref.kind == Outcome::Ok && dev.kind == Outcome::Ok) {
      if (ref.results.size() != dev.results.size())
        return differ(Verdict::ResultsDiffer,
                      fmt::format("{} results, expected {}", dev.results.size(), ref.results.size()));
      for (size_t k = 0; k < ref.results.size(); k++) {
        bool loose = k < approx.size() && approx[k];
        if (config.devices[0] == Device::Interp && unknown_inner_sizes(ref.results[k], dev.results[k])) continue;
        Comparison c = compare_values(ref.results[k], dev.results[k], loose ? config.tolerance : FloatTolerance{});
        report.worst_ulps = std::max(report.worst_ulps, c.worst_ulps);
        report.worst_rel = std::max(report.worst_rel, c.worst_rel);
        if (!c.equal)
          return differ(Verdict::ResultsDiffer,
                        fmt::format("result {}{}: {}", k + 1, loose ? " (approximate)" : "", c.why));
      }
      pv.verdict = Verdict::AgreeOk;
      return pv;
    }
    if (ref.kind == Outcome::Ok) return differ(Verdict::OnlyDeviceFails, "only the device fails");
    auto enumerate = [&]() -> std::optional<PairVerdict> {
      if (possible) return std::nullopt;
      try {
        possible = possible_failures(program, entry.name, args, CheckOptions{},
                                     [&](const RunFailure &f) { return in_dead_code(dead, f); });
      } catch (const std::exception &e) {
        return differ(Verdict::DeviceError, fmt::format("enumerating the failures raised: {}", e.what()));
      }
      return std::nullopt;
    };
    if (dev.kind == Outcome::Ok) {
      if (!in_dead_code(dead, ref.failure)) return differ(Verdict::OnlyReferenceFails, "only the reference fails");
      // A check in dead code: the compiled program may skip it, but not a failure
      // elsewhere that really happens too.
      if (std::optional<PairVerdict> error = enumerate()) return *error;
      for (const RunFailure &f : *possible)
        if (!in_dead_code(dead, f))
          return differ(Verdict::OnlyReferenceFails,
                        fmt::format("only the reference fails; its failure is in dead code, but \"{}\" at {} "
                                    "happens too and is not",
                                    f.message, f.location));
      pv.verdict = Verdict::AgreeDeadCheck;
      return pv;
    }
    if (same_failure(ref.failure, dev.failure)) {
      pv.verdict = Verdict::AgreeFailure;
      return pv;
    }
    if (std::optional<PairVerdict> error = enumerate()) return *error;
    for (const RunFailure &f : *possible)
      if (same_failure(f, dev.failure)) {
        pv.verdict = Verdict::AgreeOtherSite;
        return pv;
      }
    return differ(Verdict::FailuresDiffer,
                  fmt::format("the device's failure is not one that happens for this input ({} do)",
                              possible->size()));
  }
};

// What a child process tells its parent, one message at a time: a tag, a length, the
// text (which may hold newlines).
void send(int fd, char tag, const std::string &text) {
  std::string msg = fmt::format("{}{}\n", tag, text.size()) + text;
  const char *p = msg.data();
  size_t left = msg.size();
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(3);
    p += w;
    left -= size_t(w);
  }
}

struct Listener {
  virtual ~Listener() = default;
  virtual void starting(int input, Device device) = 0;
  virtual void judged(const PairVerdict &pv) = 0;
};

ProgramReport evaluate(const GProgram &g, const std::vector<GenInput> &inputs, const DifftestConfig &config,
                       Listener *listener) {
  ProgramReport report;
  Checked checked = check(g);
  if (!checked.program) {
    report.invalid = true;
    report.reason = checked.diagnostic;
    return report;
  }
  const Program &program = *checked.program;
  const FunDef *entry = find_entry(program, "main");
  if (!entry) {
    report.invalid = true;
    report.reason = "the generated program has no entry point 'main'";
    return report;
  }
  std::vector<std::unique_ptr<Executor>> execs;
  std::vector<std::string> compile_errors(config.devices.size());
  std::vector<DeadChecks> dead(config.devices.size());
  for (size_t d = 0; d < config.devices.size(); d++) {
    try {
      ExecOptions eo;
      eo.compile.pipeline.checks.unsafe = config.unsafe && d > 0;
      eo.compile.gen = config.gen;
      // Results are compared to the bit: no fused multiply-adds in CUDA kernels, whose
      // rounding differs from the interpreter's (--fp-contract=off).
      eo.compile.fp_contract = false;
      execs.push_back(make_executor(config.devices[d], program, eo));
      if (config.devices[d] != Device::Interp) dead[d] = dead_checks(program, eo);
    } catch (const CompileError &e) {
      if (is_unsupported_error(e.what())) {
        report.unsupported = true;
        report.reason = e.render();
        return report;
      }
      compile_errors[d] = "the code generator failed: " + e.render();
      execs.push_back(nullptr);
    } catch (const std::exception &e) {
      compile_errors[d] = fmt::format("compiling for {} failed: {}", device_name(config.devices[d]), e.what());
      execs.push_back(nullptr);
    }
  }
  std::vector<bool> approx = flattened_approx(g, *entry);
  Judge judge{program, *entry, config, approx, report};
  for (size_t k = 0; k < inputs.size(); k++) {
    const std::vector<Value> &args = inputs[k].args;
    auto run = [&](size_t d) {
      if (listener) listener->starting(int(k), config.devices[d]);
      if (!execs[d]) {
        Outcome o;
        o.error = compile_errors[d];
        return o;
      }
      return run_on(*execs[d], *entry, args);
    };
    Outcome ref = run(0);
    std::optional<std::vector<RunFailure>> possible;
    for (size_t d = 1; d < config.devices.size(); d++) {
      Outcome dev = run(d);
      PairVerdict pv = judge.judge(int(k), config.devices[d], dead[d], ref, dev, args, possible);
      if (listener) listener->judged(pv);
      report.pairs.push_back(std::move(pv));
    }
  }
  return report;
}

// Streams a child's progress to its parent.
struct PipeListener : Listener {
  int fd;
  explicit PipeListener(int f) : fd(f) {}
  void starting(int input, Device device) override {
    send(fd, 'S', fmt::format("{} {}", input, int(device)));
  }
  void judged(const PairVerdict &pv) override {
    send(fd, 'P', fmt::format("{} {} {} {}", pv.input, int(pv.device), int(pv.verdict), pv.detail));
  }
};

[[noreturn]] void child_main(int fd, const GProgram &g, const std::vector<GenInput> &inputs,
                             const DifftestConfig &config) {
  PipeListener listener(fd);
  ProgramReport r = evaluate(g, inputs, config, &listener);
  if (r.invalid) send(fd, 'I', r.reason);
  if (r.unsupported) send(fd, 'U', r.reason);
  send(fd, 'W', fmt::format("{} {}", r.worst_ulps, r.worst_rel));
  send(fd, 'E', "");
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);
}

// Reads the child's messages until it ends, dies or runs out of time.
ProgramReport parent_main(int fd, pid_t pid, const DifftestConfig &config) {
  ProgramReport report;
  std::string buf;
  bool ended = false;
  int last_input = -1;
  Device last_device = config.devices[0];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(config.timeout_seconds);
  bool timed_out = false;
  for (;;) {
    // Handle every complete message in the buffer.
    for (;;) {
      size_t nl = buf.find('\n');
      if (nl == std::string::npos) break;
      size_t len = std::stoul(buf.substr(1, nl - 1));
      if (buf.size() < nl + 1 + len) break;
      char tag = buf[0];
      std::string text = buf.substr(nl + 1, len);
      buf.erase(0, nl + 1 + len);
      switch (tag) {
      case 'S': {
        int dev = 0;
        std::sscanf(text.c_str(), "%d %d", &last_input, &dev);
        last_device = Device(dev);
        break;
      }
      case 'P': {
        PairVerdict pv;
        int dev = 0, verdict = 0, used = 0;
        std::sscanf(text.c_str(), "%d %d %d %n", &pv.input, &dev, &verdict, &used);
        pv.device = Device(dev);
        pv.verdict = Verdict(verdict);
        pv.detail = text.substr(size_t(used));
        report.pairs.push_back(std::move(pv));
        last_input = -1;
        break;
      }
      case 'I': report.invalid = true; report.reason = text; break;
      case 'U': report.unsupported = true; report.reason = text; break;
      case 'W': std::sscanf(text.c_str(), "%lf %lf", &report.worst_ulps, &report.worst_rel); break;
      case 'E': ended = true; break;
      default: break;
      }
    }
    if (ended) break;
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    struct pollfd p {fd, POLLIN, 0};
    int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    int rc = poll(&p, 1, ms);
    if (rc < 0 && errno == EINTR) continue;
    if (rc == 0) continue;
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; // the child is gone
    buf.append(chunk, size_t(n));
  }
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  close(fd);
  if (ended) return report;
  PairVerdict pv;
  pv.input = last_input < 0 ? 0 : last_input;
  pv.device = last_device;
  if (timed_out) {
    pv.verdict = Verdict::Hang;
    pv.detail = fmt::format("{} did not finish input {} within {} s", device_name(last_device), pv.input,
                            config.timeout_seconds);
  } else {
    pv.verdict = Verdict::Crash;
    pv.detail = WIFSIGNALED(status)
                    ? fmt::format("{} died of signal {} ({}) on input {}", device_name(last_device),
                                  WTERMSIG(status), strsignal(WTERMSIG(status)), pv.input)
                    : fmt::format("the process running {} on input {} exited with status {}",
                                  device_name(last_device), pv.input, WEXITSTATUS(status));
  }
  if (pv.device == config.devices[0] && config.devices.size() > 1) {
    pv.detail = "the reference: " + pv.detail;
    pv.device = config.devices[1];
  }
  report.pairs.push_back(std::move(pv));
  return report;
}

} // namespace

ProgramReport evaluate_program(const GProgram &program, const std::vector<GenInput> &inputs,
                               const DifftestConfig &config) {
  if (!config.isolate) return evaluate(program, inputs, config, nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", std::strerror(errno)));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    child_main(fds[1], program, inputs, config);
  }
  close(fds[1]);
  return parent_main(fds[0], pid, config);
}

RunText reference_outcome(const Case &c, Device reference) {
  Checked checked = check(c.program);
  if (!checked.program) throw std::runtime_error("the program does not compile:\n" + checked.diagnostic);
  const FunDef *entry = find_entry(*checked.program, "main");
  if (!entry) throw std::runtime_error("the program has no entry point 'main'");
  std::unique_ptr<Executor> exec = make_executor(reference, *checked.program, ExecOptions{});
  Outcome o = run_on(*exec, *entry, c.input.args);
  if (o.kind == Outcome::Error) throw std::runtime_error(o.error);
  RunText t;
  t.ok = o.kind == Outcome::Ok;
  for (const Value &v : o.results) t.results.push_back(format_value(v));
  t.failure_message = o.failure.message;
  t.failure_location = o.failure.location;
  return t;
}

} // namespace kerb::driver
