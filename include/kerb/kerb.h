/* Kerb's C API: what every compiled program's header (NAME.h, written by `kerb compile
 * --library`) shares. The API follows Futhark's C API (futhark_ -> kerb_): a
 * configuration object, a context made from it, arrays made in a context, and one
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
/* A JSON object with the context's counters: entry calls, live arrays, device bytes
 * allocated by the context now and at most, allocations (all, and the fresh ones: not
 * taken from the context's cache of freed blocks), the bytes in that cache, and (CUDA)
 * bytes the device's memory pool holds. Malloc'd; the caller frees it. NULL on
 * failure. */
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

#ifdef __cplusplus
}
#endif

#endif /* KERB_KERB_H */
