// The CUDA device for generated code: a Device (exec_context.h) over a CudaDevice and
// the module of one program's kernels.
#pragma once

#include "runtime/cuda_device.h"
#include "runtime/exec_context.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb {

// Loads `ptx` (throws CudaError with the JIT log on failure) and looks up `names`.
std::unique_ptr<Device> make_cuda_exec_device(CudaDevice &dev, const std::string &ptx,
                                              const std::vector<std::string> &names,
                                              std::vector<KernelDesc> descs);

} // namespace kerb
