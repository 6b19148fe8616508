/* What the C API's tests share (c_api_test.c, opaque_test.c): CHECK, which counts the
 * checks and prints each that fails, the context's error tested for a part, the counters
 * of kerb_context_report, and the start and end of main. Included once, after the
 * program's header. */
#ifndef KERB_TESTS_LIBRARY_CHECKS_H
#define KERB_TESTS_LIBRARY_CHECKS_H

#include <kerb/kerb.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failed;

#define CHECK(cond)                                                                       \
  do {                                                                                    \
    checks++;                                                                             \
    if (!(cond)) {                                                                        \
      failed++;                                                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                              \
    }                                                                                     \
  } while (0)

/* Whether the context's error contains `part` (and takes the error). */
static int error_has(struct kerb_context *ctx, const char *part) {
  char *e = kerb_context_get_error(ctx);
  int ok = e && strstr(e, part);
  if (!ok) printf("  error was: %s\n  expected it to contain: %s\n", e ? e : "(none)", part);
  free(e);
  return ok;
}

/* A counter of kerb_context_report. */
static long long report_value(struct kerb_context *ctx, const char *key) {
  char *r = kerb_context_report(ctx);
  if (!r) return -2;
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  char *at = strstr(r, pattern);
  long long v = at ? strtoll(at + strlen(pattern), NULL, 10) : -3;
  free(r);
  return v;
}

/* A context on `device` (its configuration in *cfg), or the program exits with status 2
 * when it does not start. */
static struct kerb_context *start_context(const char *device, struct kerb_context_config **cfg) {
  *cfg = kerb_context_config_new();
  if (kerb_context_config_set_device(*cfg, device) != 0) {
    printf("bad device %s\n", device);
    exit(2);
  }
  struct kerb_context *ctx = kerb_context_new(*cfg);
  char *e = kerb_context_get_error(ctx);
  if (e) {
    printf("cannot start: %s\n", e);
    exit(2);
  }
  printf("device: %s\n", kerb_context_get_device(ctx));
  return ctx;
}

/* Checks that `ctx` holds no arrays and no memory, frees it and `cfg`, prints the last
 * line ("N checks, M failed") and returns the exit status. */
static int finish(struct kerb_context *ctx, struct kerb_context_config *cfg) {
  CHECK(report_value(ctx, "live_opaques") == 0);
  CHECK(report_value(ctx, "live_arrays") == 0);
  CHECK(report_value(ctx, "bytes_in_use") == 0);
  kerb_context_free(ctx);
  kerb_context_config_free(cfg);
  printf("%d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}

#endif
