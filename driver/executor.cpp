// Executors for the interpreter, the CPU device and the CUDA device (see executor.h).
#include "driver/executor.h"

#include "codegen/compiled_program.h"
#include "runtime/cuda_device.h"

#include <fmt/format.h>

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

// The process's CUDA device, opened on first use.
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

} // namespace

std::unique_ptr<Executor> make_executor(Device device, const Program &program,
                                        const ExecOptions &opts) {
  const codegen::CompileOptions &co = opts.compile;
  switch (device) {
  case Device::Interp: return std::make_unique<InterpExecutor>(program, co.pipeline.checks);
  case Device::Cpu:
    return std::make_unique<CompiledExecutor>(codegen::compile_for_cpu(program, co));
  case Device::Cuda:
    return std::make_unique<CompiledExecutor>(
        codegen::compile_for_cuda(program, co, cuda_device()));
  }
  return nullptr;
}

bool is_unsupported_error(const std::string &message) {
  return message.find("does not support") != std::string::npos &&
         message.find("yet") != std::string::npos;
}

} // namespace kerb::driver
