// The DLPack structs (the unversioned DLManagedTensor of DLPack 0.x, which every library
// still exchanges by default), as the runtime's import and export of arrays use them
// (kerb_rt_array_from_dlpack, kerb_rt_array_to_dlpack in runtime/program_abi.h). The
// layout is DLPack's ABI, written out from its specification: plain C structs with natural
// alignment.
#pragma once

#include <cstdint>

namespace kerb::dlpack {

// DLDeviceType's values that Kerb meets.
constexpr int32_t kCPU = 1, kCUDA = 2, kCUDAHost = 3, kCUDAManaged = 13;
// DLDataTypeCode's values.
constexpr uint8_t kInt = 0, kUInt = 1, kFloat = 2, kBool = 6;

struct Device {
  int32_t device_type;
  int32_t device_id;
};

struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct Tensor {
  void *data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t *shape;
  int64_t *strides; // in elements; null: compact row-major
  uint64_t byte_offset;
};

struct ManagedTensor {
  Tensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(ManagedTensor *self);
};

} // namespace kerb::dlpack
