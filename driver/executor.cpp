// Executors for the interpreter, the CPU device and the CUDA device (see executor.h).
#include "driver/executor.h"

#include "codegen/compiled_program.h"
#include "runtime/cuda_device.h"
#include "runtime/exec_context.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace kerb::driver {

namespace {

class InterpExecutor : public Executor {
public:
  InterpExecutor(const Program &p, const CheckOptions &checks) : program_(p), checks_(checks) {}
  RunResult run(const FunDef &entry, const std::vector<Value> &args) override {
    return interpret(program_, entry.name, args, checks_);
  }

private:
  const Program &program_;
  CheckOptions checks_;
};

class CompiledExecutor : public Executor {
public:
  explicit CompiledExecutor(std::unique_ptr<codegen::CompiledProgram> c) : c_(std::move(c)) {}
  RunResult run(const FunDef &entry, const std::vector<Value> &args) override {
    return c_->run(entry.name, args);
  }

private:
  std::unique_ptr<codegen::CompiledProgram> c_;
};

} // namespace

// The process's CUDA device, opened on first use and kept open: each compiled program
// opens the device again in its own context, and this one keeps the device's primary
// context alive between programs (`kerb test` runs hundreds).
CudaDevice &cuda_device() {
  static std::unique_ptr<CudaDevice> dev;
  static std::string why_not;
  if (!dev && why_not.empty()) {
    dev = CudaDevice::open(0, &why_not);
    if (!dev && why_not.empty()) why_not = "no CUDA device";
  }
  if (!dev) throw InputError(fmt::format("the cuda device is not available: {}", why_not));
  return *dev;
}

std::unique_ptr<codegen::CompiledProgram> compile_program(Device device, const Program &program,
                                                          const ExecOptions &opts) {
  const codegen::CompileOptions &co = opts.compile;
  switch (device) {
  case Device::Interp: break;
  case Device::Cpu: return codegen::compile_for_cpu(program, co);
  case Device::Cuda:
    cuda_device();
    return codegen::compile_for_cuda(program, co);
  }
  throw std::invalid_argument("compile_program: the interpreter compiles nothing");
}

namespace {

// The first line of `path` that starts with `key`, after the key; "" if none.
std::string read_line_after(const std::string &path, const std::string &key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) return line.substr(key.size());
  return "";
}

std::string trim_text(const std::string &s) {
  size_t b = s.find_first_not_of(" \t:");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

} // namespace

DeviceInfo device_info(Device device) {
  DeviceInfo info;
  switch (device) {
  case Device::Interp:
    info.kind = "interp";
    info.name = info.description = "the reference interpreter";
    return info;
  case Device::Cpu: {
    info.kind = "cpu";
    info.name = trim_text(read_line_after("/proc/cpuinfo", "model name"));
    if (info.name.empty()) info.name = "host CPU";
    info.host_threads = cpu_device_threads();
    info.description = fmt::format("cpu ({}, {} host threads)", info.name, info.host_threads);
    return info;
  }
  case Device::Cuda: {
    CudaDevice &dev = cuda_device();
    info.kind = "cuda";
    info.name = dev.name();
    info.description = dev.describe();
    info.compute_capability = fmt::format("{}.{}", dev.cc_major(), dev.cc_minor());
    info.cuda_driver_api =
        fmt::format("{}.{}", dev.driver_version() / 1000, dev.driver_version() % 1000 / 10);
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..."
    std::string nvrm = read_line_after("/proc/driver/nvidia/version", "NVRM version:");
    size_t k = nvrm.find("Kernel Module");
    if (k != std::string::npos) {
      std::istringstream words(nvrm.substr(k + 13));
      words >> info.driver;
    }
    return info;
  }
  }
  return info;
}

std::unique_ptr<Executor> make_executor(Device device, const Program &program,
                                        const ExecOptions &opts) {
  if (device == Device::Interp)
    return std::make_unique<InterpExecutor>(program, opts.compile.pipeline.checks);
  return std::make_unique<CompiledExecutor>(compile_program(device, program, opts));
}

bool is_unsupported_error(const std::string &message) {
  return message.find("does not support") != std::string::npos &&
         message.find("yet") != std::string::npos;
}

DeadChecks dead_checks(const Program &program, const ExecOptions &opts) {
  DeadChecks out;
  for (const core::CheckCandidate &c : codegen::lower_checked(program, opts.compile).candidates)
    if (c.skipped_where_dead()) out.insert({c.kind, c.span.location()});
  return out;
}

bool in_dead_code(const DeadChecks &dead, const RunFailure &f) {
  return dead.count({f.kind, f.location}) > 0;
}

} // namespace kerb::driver
