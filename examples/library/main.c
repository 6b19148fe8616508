/* A C program that uses a Kerb program as a library: scores.fut, compiled with
 * `kerb compile --library scores.fut -o out/scores` (CMakeLists.txt does it with
 * kerb_add_library). It computes statistics of some readings (one a record, an opaque
 * value in C), makes a bad call on
 * purpose and prints the message Kerb reports, then goes on using the same context for
 * hundreds of calls and prints the context's counters before and after.
 *
 * Usage: scores [DEVICE]    DEVICE: cpu, cuda, cuda:N (default: a GPU if there is one)
 *
 * Build by hand:
 *   kerb compile --library scores.fut -o out/scores
 *   cc -Iout main.c out/libscores.a -o scores $(kerb config --cflags --libs) */
#include "scores.h"

#include <stdio.h>
#include <stdlib.h>

#define N 8

static void fail(struct kerb_context *ctx, const char *what) {
  char *msg = kerb_context_get_error(ctx);
  fprintf(stderr, "scores: %s failed: %s\n", what, msg ? msg : "(no message)");
  free(msg);
  exit(1);
}

static void print_array(const char *label, const float *xs, int n) {
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf(" %.3f", xs[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  struct kerb_context_config *cfg = kerb_context_config_new();
  if (argc > 1 && kerb_context_config_set_device(cfg, argv[1]) != 0) fail(NULL, "choosing the device");
  struct kerb_context *ctx = kerb_context_new(cfg);
  char *err = kerb_context_get_error(ctx);
  if (err) {
    fprintf(stderr, "scores: cannot start: %s\n", err);
    free(err);
    kerb_context_free(ctx);
    kerb_context_config_free(cfg);
    return 1;
  }
  printf("device: %s\n", kerb_context_get_device(ctx));

  float readings[N] = {3.5f, 4.0f, 2.5f, 9.0f, 4.5f, 3.0f, 5.5f, 4.0f};
  struct kerb_f32_1d *xs = kerb_new_f32_1d(ctx, readings, N);
  if (!xs) fail(ctx, "kerb_new_f32_1d");

  float mean;
  if (kerb_entry_mean(ctx, &mean, xs) != 0) fail(ctx, "mean");
  printf("mean: %.3f\n", mean);

  struct kerb_f32_1d *normalised;
  float out[N];
  if (kerb_entry_normalise(ctx, &normalised, xs) != 0) fail(ctx, "normalise");
  if (kerb_values_f32_1d(ctx, normalised, out) != 0) fail(ctx, "reading normalise's result");
  print_array("normalised", out, N);
  kerb_free_f32_1d(ctx, normalised);

  struct kerb_f32_1d *smoothed;
  if (kerb_entry_smooth(ctx, &smoothed, 3, xs) != 0) fail(ctx, "smooth");
  if (kerb_values_f32_1d(ctx, smoothed, out) != 0) fail(ctx, "reading smooth's result");
  print_array("smoothed", out, N);
  kerb_free_f32_1d(ctx, smoothed);

  /* A record comes back as an opaque value, read field by field. */
  struct kerb_opaque_summary *summary;
  float lo, hi;
  int64_t count;
  if (kerb_entry_summarise(ctx, &summary, xs) != 0 || kerb_project_opaque_summary_lo(ctx, &lo, summary) != 0 ||
      kerb_project_opaque_summary_hi(ctx, &hi, summary) != 0 ||
      kerb_project_opaque_summary_count(ctx, &count, summary) != 0)
    fail(ctx, "summarise");
  printf("summary: %lld readings in [%.3f, %.3f]\n", (long long)count, lo, hi);
  kerb_free_opaque_summary(ctx, summary);

  /* A bad call: there is no reading 12. Entry calls run asynchronously, so the call
   * itself may succeed; the failure is reported at the next sync point. */
  int64_t positions[3] = {0, 12, 3};
  struct kerb_i64_1d *is = kerb_new_i64_1d(ctx, positions, 3);
  struct kerb_f32_1d *picked = NULL;
  int status = kerb_entry_pick(ctx, &picked, xs, is);
  if (status == KERB_SUCCESS) status = kerb_context_sync(ctx);
  if (status != KERB_PROGRAM_ERROR) fail(ctx, "the bad call (it should have failed)");
  err = kerb_context_get_error(ctx);
  printf("bad call reported:\n%s\n", err);
  free(err);
  if (picked) kerb_free_f32_1d(ctx, picked);
  kerb_free_i64_1d(ctx, is);

  /* The context is still usable: many more calls, with memory that stays the same. */
  char *report_before = NULL;
  int calls = 0;
  for (int round = 0; round < 200; round++) {
    positions[0] = round % N;
    positions[1] = (round * 3 + 1) % N;
    positions[2] = N - 1;
    is = kerb_new_i64_1d(ctx, positions, 3);
    if (!is) fail(ctx, "kerb_new_i64_1d");
    if (kerb_entry_pick(ctx, &picked, xs, is) != 0) fail(ctx, "pick");
    float got[3];
    if (kerb_values_f32_1d(ctx, picked, got) != 0) fail(ctx, "reading pick's result");
    for (int k = 0; k < 3; k++)
      if (got[k] != readings[positions[k]]) {
        fprintf(stderr, "scores: pick gave %f for reading %lld, expected %f\n", got[k],
                (long long)positions[k], readings[positions[k]]);
        return 1;
      }
    kerb_free_f32_1d(ctx, picked);
    kerb_free_i64_1d(ctx, is);

    if (kerb_entry_smooth(ctx, &smoothed, 50, xs) != 0) fail(ctx, "smooth");
    float m;
    if (kerb_entry_mean(ctx, &m, smoothed) != 0) fail(ctx, "mean");
    kerb_free_f32_1d(ctx, smoothed);
    if (m < 2.5f || m > 9.0f) { /* smoothing averages, so it stays within the readings */
      fprintf(stderr, "scores: the smoothed readings' mean %f is out of their range\n", m);
      return 1;
    }
    calls += 3;
    if (round == 9) report_before = kerb_context_report(ctx);
  }
  if (kerb_context_sync(ctx) != 0) fail(ctx, "sync");
  char *report_after = kerb_context_report(ctx);
  printf("%d further calls succeeded\n", calls);
  printf("context after round 10: %s\n", report_before);
  printf("context after round 200: %s\n", report_after);
  free(report_before);
  free(report_after);

  kerb_free_f32_1d(ctx, xs);
  kerb_context_free(ctx);
  kerb_context_config_free(cfg);
  return 0;
}
