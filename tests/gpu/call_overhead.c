/* The C API's cost of a call, for the Python package's overhead test
 * (tests/gpu/run_gpu_python.sh): N calls of tests/python/prog.fut's `gather` on arrays of
 * 1 element (the result freed after each), then a sync, on DEVICE. Prints
 *   c_api DEVICE calls N us_per_call X us_per_call_issue Y
 * (issue: before the final sync). Usage: call_overhead DEVICE N */
#define _POSIX_C_SOURCE 199309L
#include "prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int fail(struct kerb_context *ctx, const char *what) {
  char *e = kerb_context_get_error(ctx);
  fprintf(stderr, "call_overhead: %s: %s\n", what, e ? e : "?");
  free(e);
  return 1;
}

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "cuda";
  long n = argc > 2 ? atol(argv[2]) : 20000;
  struct kerb_context_config *cfg = kerb_context_config_new();
  kerb_context_config_set_device(cfg, device);
  struct kerb_context *ctx = kerb_context_new(cfg);
  kerb_context_config_free(cfg);
  float x = 1.5f;
  int64_t i = 0;
  struct kerb_f32_1d *xs = kerb_new_f32_1d(ctx, &x, 1);
  struct kerb_i64_1d *is = kerb_new_i64_1d(ctx, &i, 1);
  if (!xs || !is) return fail(ctx, "new");
  for (int round = 0; round < 2; round++) { /* the first round warms up */
    long calls = round == 0 ? n / 10 : n;
    double t0 = now_us();
    for (long k = 0; k < calls; k++) {
      struct kerb_f32_1d *out = NULL;
      if (kerb_entry_gather(ctx, &out, xs, is) != 0) return fail(ctx, "gather");
      kerb_free_f32_1d(ctx, out);
    }
    double t1 = now_us();
    if (kerb_context_sync(ctx) != 0) return fail(ctx, "sync");
    double t2 = now_us();
    if (round == 1)
      printf("c_api %s calls %ld us_per_call %.3f us_per_call_issue %.3f\n", device, calls, (t2 - t0) / calls,
             (t1 - t0) / calls);
  }
  kerb_free_f32_1d(ctx, xs);
  kerb_free_i64_1d(ctx, is);
  kerb_context_free(ctx);
  return 0;
}
