/* Kerb's C API: what every compiled program's header (NAME.h, written by `kerb compile
 * --library`) shares. The API follows Futhark's C API (futhark_ -> kerb_): a
 * configuration object, a context made from it, arrays made in a context, opaque values
 * (records, arrays of records, abstract types: kerb_opaque_T in NAME.h), and one
 * function per entry point. docs/C-API.md describes it in full.
 *
 * Functions that can fail return an int: KERB_SUCCESS (0), or an error code with a
 * message that kerb_context_get_error() returns. Functions that return a pointer
 * return NULL on failure. Handles that are NULL, freed, of another context or of the
 * wrong type get KERB_USAGE_ERROR and a message, never a crash.
 *
 * Entry calls are asynchronous: a failed check (an index out of bounds, a division by
 * zero, a false assert) may be reported by a later call, at the next point where the
 * host waits for the device anyway: kerb_context_sync(), kerb_values_*(), or an entry
 * whose own host code reads a value back. The message then reads
 *   Index [7] out of bounds for array of shape [3].
 *   at prog.fut:5:46-50
 * and the context stays usable. A context is used by one thread at a time, except
 * kerb_context_poll_error(), which any thread may call at any time.
 *
 * Link with the runtime: `kerb config --cflags --libs`. */
#ifndef KERB_KERB_H
#define KERB_KERB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KERB_SUCCESS 0
/* A device error, or anything without a code of its own. */
#define KERB_ERROR 1
/* A check failed in the program (including entry arguments of mismatched sizes). */
#define KERB_PROGRAM_ERROR 2
/* The device is out of memory. */
#define KERB_OUT_OF_MEMORY 3
/* The API was misused: a NULL, freed or foreign handle, a bad argument. */
#define KERB_USAGE_ERROR 4

struct kerb_context_config;
struct kerb_context;

/* A configuration; change it before kerb_context_new(). NULL if out of memory. */
struct kerb_context_config *kerb_context_config_new(void);
void kerb_context_config_free(struct kerb_context_config *cfg);
/* "cuda" (device 0), "cuda:N" or "#N" (CUDA device N), "cpu" (compiled kernels on host
 * threads), or "" / NULL: the first CUDA device if one can be used, else the CPU. Returns
 * KERB_USAGE_ERROR for any other name (the configuration keeps its device). */
int kerb_context_config_set_device(struct kerb_context_config *cfg, const char *device);

/* With a non-zero flag, the host looks for a failed check after every kernel launch
 * (and waits for it): failures are reported by the call that made them, at a cost.
 * For debugging and comparison; by default the host looks only where it waits for the
 * device anyway. */
int kerb_context_config_set_sync_checks(struct kerb_context_config *cfg, int flag);

/* Defined by the compiled program (its NAME.h). Always returns a context unless out of
 * memory; if it could not start (no such device, ...), kerb_context_get_error() says
 * why, every other call on it fails, and it must still be freed. */
struct kerb_context *kerb_context_new(struct kerb_context_config *cfg);
/* Waits for outstanding work and frees the context and every array still alive in it. */
void kerb_context_free(struct kerb_context *ctx);
/* Waits until all work has finished. Returns KERB_PROGRAM_ERROR if a check failed since
 * the last sync point (the message is in kerb_context_get_error()), another code for a
 * device error, KERB_SUCCESS otherwise. */
int kerb_context_sync(struct kerb_context *ctx);
/* The message of the last error (malloc'd; the caller frees it), or NULL if there has
 * been none since the last call. Given NULL or a context that is not alive, the message
 * of the last call on this thread that failed for that reason. */
char *kerb_context_get_error(struct kerb_context *ctx);
/* Non-blocking: KERB_PROGRAM_ERROR if a check has failed in work not yet synchronised
 * (kernels may still be running), with the message then available from
 * kerb_context_get_error(); 0 if none is visible yet. It waits for nothing and clears
 * nothing: the next sync point still reports the failure. */
int kerb_context_poll_error(struct kerb_context *ctx);
/* The device the context runs on, e.g. "cpu (8 host threads)"; owned by the context. */
const char *kerb_context_get_device(struct kerb_context *ctx);
/* A JSON object with the context's counters: entry calls, live arrays and opaque
 * values, device bytes allocated by the context now and at most, allocations (all, and
 * the fresh ones: not taken from the context's cache of freed blocks), the bytes in that
 * cache, and (CUDA) bytes the device's memory pool holds. Malloc'd; the caller frees it.
 * NULL on failure. */
char *kerb_context_report(struct kerb_context *ctx);
/* Waits for the device and returns cached device memory that no array uses (the
 * context's cache of freed blocks, and the CUDA memory pool's). */
int kerb_context_clear_caches(struct kerb_context *ctx);

/* CUDA streams (contexts on a CUDA device; KERB_USAGE_ERROR on the CPU device). A context
 * queues its work on one stream at a time: its own non-blocking stream at first. */
/* The stream (a CUstream) the context queues its work on now. */
int kerb_context_get_cuda_stream(struct kerb_context *ctx, void **stream);
/* Queues the context's later work on `stream`, a CUstream of the device's primary context
 * (NULL: the legacy default stream), e.g. the current stream of PyTorch or CuPy, so that
 * calls order with their work; `stream` first waits (an event, without blocking the
 * host) for the work the context queued so far. The stream must stay alive while it is
 * the context's and until the next kerb_context_set_cuda_stream (or kerb_context_free)
 * has returned, which records an event on it: set the context's own stream back
 * (kerb_context_get_cuda_stream before) before destroying it. */
int kerb_context_set_cuda_stream(struct kerb_context *ctx, void *stream);
/* Makes `stream` wait, without blocking the host, for the work the context queued so
 * far (nothing when it is the context's stream). */
int kerb_context_order_cuda_stream(struct kerb_context *ctx, void *stream);
/* Declares that `stream` lives at least as long as the context (e.g. the stream a library
 * keeps for its whole process, as JAX's client does). An array lent out through DLPack
 * for a borrower on such a stream (or on the legacy or per-thread default stream) is
 * freed, once dropped, after an event on that stream; for any other stream other than
 * the context's, the context waits for the whole device first, since the stream may be
 * gone by then (Note [Arrays lent through DLPack] in runtime/c_api.cpp). */
int kerb_context_lasting_cuda_stream(struct kerb_context *ctx, void *stream);

/* For bindings to array libraries (the Python package): one call of entry number `entry`
 * (0-based, in the order of the program's header and of its manifest), its arrays taken
 * from and given to other libraries without a copy as DLPack tensors (DLManagedTensor,
 * dlpack.h), so that a binding crosses into C once per call.
 *
 * args: one per flattened parameter (slot: an opaque value's too, one by one, as the
 * manifest's `slots` list them): for a scalar, a pointer to its value; for an array, a DLManagedTensor * (compact
 * row-major, on the context's device, of the parameter's element type and rank), or an
 * array handle of the context where kinds (one byte per parameter; NULL: none) is
 * non-zero. outs: one per result slot, likewise: a scalar's storage, or where an
 * array goes: a handle, or with KERB_CALL_EXPORT a DLManagedTensor * whose deleter gives
 * it back (kerb_rt_array_to_dlpack's: `consumer_stream` is the CUstream the consumer will
 * use it on, as DLPack's __dlpack__(stream=...) gives it, -1 for none).
 *
 * problem (two ints) says whether the tensors were taken. If an argument's tensor does not
 * fit, none is (each still belongs to the caller): the call returns KERB_USAGE_ERROR with
 * problem[0] the argument's number and problem[1] a KERB_DLPACK_* code saying why. If the
 * call failed before looking at them (a context that is not alive or did not start, no
 * such entry, a NULL pointer), none is either: problem[1] is KERB_DLPACK_NOT_TAKEN.
 * Otherwise (problem[1] KERB_DLPACK_OK) every tensor is taken, whatever the outcome: the
 * runtime calls its deleter once no array views it and the work queued before has
 * finished. With KERB_CALL_SYNC the call then waits for the device, so that a failed
 * check of this call (or an earlier one) is reported by it. On any failure no result is
 * returned (outs' arrays set to NULL, results made already freed). The same sizes
 * checks as kerb_entry_NAME's apply. */
#define KERB_CALL_EXPORT 1
#define KERB_CALL_SYNC 2
#define KERB_DLPACK_OK 0
#define KERB_DLPACK_DEVICE 1
#define KERB_DLPACK_TYPE 2
#define KERB_DLPACK_RANK 3
#define KERB_DLPACK_STRIDES 4
#define KERB_DLPACK_ALIGNMENT 5
#define KERB_DLPACK_NOT_TAKEN 6
int kerb_call_dlpack(struct kerb_context *ctx, int32_t entry, void *const *args, const uint8_t *kinds,
                     void *const *outs, int32_t flags, int64_t consumer_stream, int32_t *problem);

#ifdef __cplusplus
}
#endif

#endif /* KERB_KERB_H */
