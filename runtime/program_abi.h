// The contract between a compiled program and the runtime's C API (include/kerb/kerb.h):
// the descriptor a compiled program hands to the runtime, and the functions that the
// program's generated C API (kerb_context_new, kerb_entry_NAME, kerb_new_i32_1d, ...)
// forward to, over its opaque types too (kerb_opaque_point, kerb_new_opaque_point, ...).
//
// `kerb compile --library` emits a kerb_program_desc as constant data in the library's
// object (codegen/library.cpp), with the PTX text, the kernels' names and launch kinds,
// the serialised failure table, each entry's signature, and the compiled host code and
// CPU kernels; `kerb run` builds one in memory from the JIT (codegen/compiled_program.cpp).
// The layout is plain C with natural alignment; the code generator builds the same
// struct in LLVM IR, and abi_version changes whenever it does.
#pragma once

#include "kerb/kerb.h"

#include <cstdint>

extern "C" {

struct kerb_context;
struct kerb_context_config;

#define KERB_PROGRAM_ABI_VERSION 3

// An entry point's host code: `ctx` is the runtime's ExecContext, `in` and `out` its
// flattened parameters and results as 8-byte slots (runtime/device_abi.h).
typedef int32_t (*kerb_host_entry_fn)(void *ctx, const int64_t *in, int64_t *out);
// A CPU kernel (runtime/device_abi.h's CpuKernelFn).
typedef void (*kerb_cpu_kernel_fn)(int64_t begin, int64_t end, const int64_t *slots);

// The code of one device.
struct kerb_target_code {
  const kerb_host_entry_fn *entries; // one per entry, in the descriptor's order
  const kerb_cpu_kernel_fn *kernels; // the CPU device's kernels; null for CUDA
};

struct kerb_program_desc {
  uint32_t abi_version; // KERB_PROGRAM_ABI_VERSION
  uint32_t num_entries;
  uint32_t num_kernels;
  uint32_t reserved;
  const char *name; // the source file, for messages
  // Per entry: its name, and its signature "PARAMS->RESULTS[|SHARED]": PARAMS and
  // RESULTS are comma-separated lists of flattened slots, each a primitive type and a
  // rank ("i32_1d", "f64_0d"); SHARED lists "J=I:K" for the component arrays of an array
  // of tuples: parameter J's first K dims must equal parameter I's.
  const char *const *entry_names;
  const char *const *entry_signatures;
  // Per kernel: its name (in the PTX) and three words: KernelDesc::kind | block_threads
  // << 8 | max_blocks_per_sm << 24, shared_bytes_per_thread, rows_slot + 1.
  const char *const *kernel_names;
  const uint32_t *kernel_info;
  const char *ptx; // NUL-terminated PTX of every kernel; "" when there are none
  const char *failure_table; // FailureTable::serialize()
  uint64_t failure_table_size;
  const struct kerb_target_code *cpu;  // null: not compiled for the CPU device
  const struct kerb_target_code *cuda; // null: not compiled for the CUDA device
  // The opaque types of the entries' C signatures (compiler/entry_types.h), each
  // "NAME;KIND;RANK;SLOTS" then ";FIELD=VALUES" per field of a record: NAME is the C
  // name (point, arr1d_point), KIND r (a record), a (abstract) or s (a sum), RANK the
  // outer dims every slot shares (an array of records), SLOTS the flattened slots it
  // holds. VALUES (here and below) is a comma-separated list, each `s` (one slot: a
  // scalar or an array handle) or `oK` (a handle of opaque type K, taking its slots).
  uint32_t num_opaque_types;
  uint32_t reserved2;
  const char *const *opaque_types;
  // Per entry, its C signature "VALUES->VALUES" over its slots; null (the whole table,
  // or an entry's) for one value per slot.
  const char *const *entry_interfaces;
};

// What the generated C API calls. Array handles are checked (live, this context, this
// type); misuse returns KERB_USAGE_ERROR (or null) with a message, never crashes.
struct kerb_context *kerb_rt_context_new(struct kerb_context_config *cfg,
                                         const struct kerb_program_desc *program);
// Calls entry `entry` of `program`: outs[k] points to the k-th result's storage (a
// scalar, or an array handle), ins[k] to the k-th parameter's value (a scalar) or is the
// array handle itself.
int kerb_rt_entry(struct kerb_context *ctx, const struct kerb_program_desc *program,
                  int32_t entry, void *const *outs, const void *const *ins);
// Arrays of primitive type `prim` (the runtime's PrimType numbering) and rank `rank`.
void *kerb_rt_array_new(struct kerb_context *ctx, int32_t prim, int32_t rank,
                        const void *data, const int64_t *dims);
int kerb_rt_array_values(struct kerb_context *ctx, int32_t prim, int32_t rank,
                         const void *array, void *data);
const int64_t *kerb_rt_array_shape(struct kerb_context *ctx, int32_t prim, int32_t rank,
                                   const void *array);
int kerb_rt_array_free(struct kerb_context *ctx, int32_t prim, int32_t rank, void *array);
// Opaque values of type `type` (an index into the descriptor's opaque_types). `ins`
// and `outs` hold one pointer per value of a record's fields, as kerb_rt_entry's do.
int kerb_rt_opaque_free(struct kerb_context *ctx, const struct kerb_program_desc *program,
                        int32_t type, void *obj);
int kerb_rt_opaque_new(struct kerb_context *ctx, const struct kerb_program_desc *program,
                       int32_t type, void **out, const void *const *ins);
int kerb_rt_opaque_project(struct kerb_context *ctx, const struct kerb_program_desc *program,
                           int32_t type, int32_t field, void *const *outs, const void *obj);
const int64_t *kerb_rt_opaque_shape(struct kerb_context *ctx, const struct kerb_program_desc *program,
                                    int32_t type, const void *obj);
int kerb_rt_opaque_store(struct kerb_context *ctx, const struct kerb_program_desc *program,
                         int32_t type, const void *obj, void **p, size_t *n);
void *kerb_rt_opaque_restore(struct kerb_context *ctx, const struct kerb_program_desc *program,
                             int32_t type, const void *p);

// For bindings (the Python package): arrays lent to and by other libraries through
// DLPack without a copy (runtime/dlpack.h; Note [Arrays lent through DLPack] in
// runtime/c_api.cpp).
//
// An array handle viewing the memory of `managed`, a DLManagedTensor on the context's
// device (CPU memory for the CPU device; for CUDA, memory of the device the context
// uses), of element type `prim`, rank `rank`, compact row-major. The runtime calls its
// deleter once no handle views it and the work queued before has finished. NULL if it
// does not fit, with *problem saying why (and the deleter not called: the caller still
// owns it), or for another error (*problem KERB_DLPACK_OK). The KERB_DLPACK_* codes are
// include/kerb/kerb.h's (kerb_call_dlpack, which takes a whole call's tensors at once).
void *kerb_rt_array_from_dlpack(struct kerb_context *ctx, int32_t prim, int32_t rank,
                                void *managed, int32_t *problem);
// A DLManagedTensor viewing `array` (which stays valid, and is freed as usual); its
// deleter may be called from any thread, even after kerb_context_free. On a CUDA
// device, `consumer_stream` (a CUstream, as DLPack's __dlpack__(stream=...) gives it;
// -1: none) waits for the work queued so far, and the memory is reused only after the
// work queued on that stream before the deleter's call. NULL on error.
void *kerb_rt_array_to_dlpack(struct kerb_context *ctx, int32_t prim, int32_t rank,
                              const void *array, int64_t consumer_stream);
// Python's PyCapsule_GetName and PyCapsule_GetPointer (given by the binding, so that the
// runtime needs no libpython), for kerb_rt_dlpack_capsule_destructor: the destructor of
// a "dltensor" capsule, which calls the tensor's deleter unless a consumer took it
// (renamed the capsule "used_dltensor").
void kerb_rt_dlpack_capsule_api(const char *(*get_name)(void *),
                                void *(*get_pointer)(void *, const char *));
void kerb_rt_dlpack_capsule_destructor(void *capsule);
// The capsule names "dltensor" and "used_dltensor" (used != 0), as static strings (a
// capsule keeps the pointer to its name).
const char *kerb_rt_dlpack_name(int32_t used);

} // extern "C"
