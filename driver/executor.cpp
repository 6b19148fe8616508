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
  explicit InterpExecutor(const Program &p) : program_(p) {}
  RunResult run(const FunDef &entry, const std::vector<Value> &args) override {
    return interpret(program_, entry.name, args);
  }

private:
  const Program &program_;
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

bool match_check_option(const std::vector<std::string> &args, size_t &i, ExecOptions &opts) {
  if (args[i] == "--unsafe") {
    opts.unsafe = true;
    return true;
  }
  return false;
}

std::string check_flags(const ExecOptions &opts) {
  std::vector<std::string> flags;
  if (opts.unsafe) flags.push_back("--unsafe");
  if (flags.empty()) return "default";
  std::string out;
  for (const std::string &f : flags) out += (out.empty() ? "" : " ") + f;
  return out;
}

ExecOptions parse_check_flags(const std::string &flags) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < flags.size()) {
    while (i < flags.size() && std::isspace(static_cast<unsigned char>(flags[i]))) ++i;
    size_t b = i;
    while (i < flags.size() && !std::isspace(static_cast<unsigned char>(flags[i]))) ++i;
    if (i > b) words.push_back(flags.substr(b, i - b));
  }
  ExecOptions opts;
  if (words.size() == 1 && words[0] == "default") return opts;
  for (size_t k = 0; k < words.size(); ++k)
    if (!match_check_option(words, k, opts))
      throw UsageError(fmt::format("'{}' in '{}' is not a check option (expected --unsafe, "
                                   "or default for none)",
                                   words[k], flags));
  return opts;
}

std::unique_ptr<codegen::CompiledProgram> compile_program(Device device, const Program &program,
                                                          const ExecOptions &opts) {
  codegen::CompileOptions co;
  co.unsafe = opts.unsafe;
  switch (device) {
  case Device::Interp: break;
  case Device::Cpu: return codegen::compile_for_cpu(program, co);
  case Device::Cuda: return codegen::compile_for_cuda(program, co, cuda_device());
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
  if (device == Device::Interp) return std::make_unique<InterpExecutor>(program);
  return std::make_unique<CompiledExecutor>(compile_program(device, program, opts));
}

bool is_unsupported_error(const std::string &message) {
  return message.find("does not support") != std::string::npos &&
         message.find("yet") != std::string::npos;
}

} // namespace kerb::driver
