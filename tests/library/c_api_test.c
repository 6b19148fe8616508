/* Tests of the C API of a compiled library (tests/library/api.fut, compiled with `kerb
 * compile --library`): values of every type through entry points, the ownership of
 * results (aliases, slices), asynchronous failures with their messages, poll_error,
 * results of failed calls, misuse of every kind, and memory that does not grow over
 * many calls or long host loops. Run by c_api_test.sh; on the GPU by
 * tests/gpu/run_gpu_library.sh. Usage: c_api_test DEVICE. Prints each failed check and
 * a last line "N checks, M failed"; exits 1 if any failed. */
#include "api.h"

#include "checks.h"

/* The context's error, taken (NULL if none); the caller frees it. */
static char *error_of(struct kerb_context *ctx) { return kerb_context_get_error(ctx); }

static void test_scalars(struct kerb_context *ctx) {
  int8_t a; int16_t b; int32_t c; int64_t d; uint8_t e; uint16_t f; uint32_t g; uint64_t h;
  bool p; float q; double r; uint16_t s;
  int st = kerb_entry_scalars(ctx, &a, &b, &c, &d, &e, &f, &g, &h, &p, &q, &r, &s, -128 + 1, 32000,
                              -7, (int64_t)1 << 40, 254, 65534, 4000000000u,
                              18000000000000000000ull, true, 1.5f, -2.25, 0x3c00 /* 1.0 */);
  CHECK(st == 0);
  CHECK(a == -126 && b == 32001 && c == -6 && d == ((int64_t)1 << 40) + 1);
  CHECK(e == 255 && f == 65535 && g == 4000000001u && h == 18000000000000000001ull);
  CHECK(p == false && q == 3.0f && r == -4.5 && s == 0x4000 /* 2.0 */);
}

static void test_arrays(struct kerb_context *ctx) {
  int32_t m[6] = {1, 2, 3, 4, 5, 6};
  struct kerb_i32_2d *xss = kerb_new_i32_2d(ctx, m, 2, 3);
  CHECK(xss != NULL);
  struct kerb_i32_2d *t = NULL;
  CHECK(kerb_entry_transpose2(ctx, &t, xss) == 0);
  const int64_t *shape = kerb_shape_i32_2d(ctx, t);
  CHECK(shape && shape[0] == 3 && shape[1] == 2);
  int32_t out[6] = {0};
  CHECK(kerb_values_i32_2d(ctx, t, out) == 0);
  CHECK(out[0] == 1 && out[1] == 4 && out[2] == 2 && out[3] == 5 && out[4] == 3 && out[5] == 6);
  CHECK(kerb_free_i32_2d(ctx, t) == 0 && kerb_free_i32_2d(ctx, xss) == 0);

  struct kerb_i64_3d *cube = NULL;
  CHECK(kerb_entry_cube(ctx, &cube, 3) == 0);
  int64_t c[27];
  CHECK(kerb_values_i64_3d(ctx, cube, c) == 0);
  CHECK(c[0] == 0 && c[5] == 12 && c[26] == 222);
  CHECK(kerb_free_i64_3d(ctx, cube) == 0);

  /* Tuples flatten: (i32, f32) is two scalars, [](i32, bool) two arrays. */
  int32_t xs[3] = {1, 2, 3};
  bool bs[3] = {true, false, true};
  struct kerb_i32_1d *x = kerb_new_i32_1d(ctx, xs, 3);
  struct kerb_bool_1d *bb = kerb_new_bool_1d(ctx, bs, 3);
  float f;
  int32_t i;
  struct kerb_bool_1d *ob = NULL;
  struct kerb_i32_1d *ox = NULL;
  CHECK(kerb_entry_tup(ctx, &f, &i, &ob, &ox, 7, 0.5f, x, bb) == 0);
  bool gb[3];
  int32_t gx[3];
  CHECK(f == 0.5f && i == 7);
  CHECK(kerb_values_bool_1d(ctx, ob, gb) == 0 && !gb[0] && gb[1] && !gb[2]);
  CHECK(kerb_values_i32_1d(ctx, ox, gx) == 0 && gx[0] == 2 && gx[2] == 6);
  kerb_free_bool_1d(ctx, ob);
  kerb_free_i32_1d(ctx, ox);

  /* Component arrays of different lengths: the entry's size check. */
  struct kerb_bool_1d *b2 = kerb_new_bool_1d(ctx, bs, 2);
  ob = NULL;
  CHECK(kerb_entry_tup(ctx, &f, &i, &ob, &ox, 7, 0.5f, x, b2) == KERB_PROGRAM_ERROR);
  CHECK(ob == NULL);
  CHECK(error_has(ctx, "components of one array of tuples but differ in their outer size: [3] and [2]"));
  kerb_free_bool_1d(ctx, b2);
  kerb_free_bool_1d(ctx, bb);

  /* An entry that returns its input, the same array twice, a slice. */
  struct kerb_i32_1d *same = NULL, *t1 = NULL, *t2 = NULL, *tail = NULL;
  CHECK(kerb_entry_same(ctx, &same, x) == 0);
  CHECK(kerb_entry_twice(ctx, &t1, &t2, x) == 0);
  CHECK(kerb_entry_tail1(ctx, &tail, x) == 0);
  CHECK(kerb_free_i32_1d(ctx, x) == 0); /* the results stay valid */
  CHECK(kerb_values_i32_1d(ctx, same, gx) == 0 && gx[0] == 1 && gx[2] == 3);
  CHECK(kerb_free_i32_1d(ctx, t1) == 0);
  CHECK(kerb_values_i32_1d(ctx, t2, gx) == 0 && gx[0] == 2 && gx[2] == 4);
  CHECK(kerb_shape_i32_1d(ctx, tail)[0] == 2);
  CHECK(kerb_values_i32_1d(ctx, tail, gx) == 0 && gx[0] == 3 && gx[1] == 4);
  kerb_free_i32_1d(ctx, same);
  kerb_free_i32_1d(ctx, t2);
  kerb_free_i32_1d(ctx, tail);

  /* Empty arrays: no data needed. */
  struct kerb_i32_1d *empty = kerb_new_i32_1d(ctx, NULL, 0);
  CHECK(empty != NULL);
  struct kerb_i32_1d *e2 = NULL;
  CHECK(kerb_entry_twice(ctx, &e2, &t2, empty) == 0);
  CHECK(kerb_shape_i32_1d(ctx, e2)[0] == 0);
  CHECK(kerb_values_i32_1d(ctx, e2, NULL) == 0);
  kerb_free_i32_1d(ctx, e2);
  kerb_free_i32_1d(ctx, t2);
  kerb_free_i32_1d(ctx, empty);
}

static void test_failures(struct kerb_context *ctx) {
  int32_t xs[4] = {10, 20, 30, 40};
  int64_t good[3] = {3, 0, 1}, bad[3] = {0, 9, 1};
  struct kerb_i32_1d *x = kerb_new_i32_1d(ctx, xs, 4);
  struct kerb_i64_1d *g = kerb_new_i64_1d(ctx, good, 3), *b = kerb_new_i64_1d(ctx, bad, 3);
  CHECK(x && g && b);
  const char *message = "Index [9] out of bounds for array of shape [4].\nat ";
  const char *where = "api.fut:22:59-63";

  /* A kernel fails; the call returns before anyone looks (asynchronous). */
  struct kerb_i32_1d *r = NULL, *r2 = NULL;
  CHECK(kerb_entry_gather(ctx, &r, x, b) == 0);
  CHECK(kerb_entry_gather(ctx, &r2, x, g) == 0); /* queued after the failure */
  /* Non-blocking poll: once the kernel has run, the mirror shows the failure. */
  int polled = 0;
  for (int i = 0; i < 1000000 && !polled; i++) polled = kerb_context_poll_error(ctx) != 0;
  CHECK(polled);
  CHECK(error_has(ctx, message));
  CHECK(kerb_context_poll_error(ctx) == KERB_PROGRAM_ERROR); /* polling clears nothing */
  free(error_of(ctx));
  /* The sync point reports it, with the location. */
  CHECK(kerb_context_sync(ctx) == KERB_PROGRAM_ERROR);
  char *e = error_of(ctx);
  CHECK(e && strstr(e, message) && strstr(e, where));
  free(e);
  CHECK(error_of(ctx) == NULL); /* taken */
  CHECK(kerb_context_poll_error(ctx) == 0);
  CHECK(kerb_context_sync(ctx) == 0);
  /* Results of the calls since the last clean sync are refused. */
  int32_t out[3];
  CHECK(kerb_values_i32_1d(ctx, r, out) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "result of a call that failed"));
  struct kerb_i32_1d *r3 = NULL;
  CHECK(kerb_entry_same(ctx, &r3, r2) == KERB_USAGE_ERROR && r3 == NULL);
  CHECK(error_has(ctx, "result of a call that failed"));
  CHECK(kerb_free_i32_1d(ctx, r) == 0 && kerb_free_i32_1d(ctx, r2) == 0);

  /* A failure found inside the call (its scalar result is read back). */
  int32_t s = -1;
  CHECK(kerb_entry_gather_sum(ctx, &s, x, b) == KERB_PROGRAM_ERROR);
  CHECK(s == -1);
  CHECK(error_has(ctx, message));
  CHECK(kerb_entry_gather_sum(ctx, &s, x, g) == 0 && s == 70);

  /* A failure found by values(). */
  CHECK(kerb_entry_gather(ctx, &r, x, b) == 0);
  CHECK(kerb_values_i32_1d(ctx, r, out) == KERB_PROGRAM_ERROR);
  CHECK(error_has(ctx, where));
  kerb_free_i32_1d(ctx, r);

  /* A check in host code (sizes). */
  struct kerb_i32_1d *three = kerb_new_i32_1d(ctx, xs, 3);
  CHECK(kerb_entry_add(ctx, &r, x, three) == KERB_PROGRAM_ERROR);
  CHECK(error_has(ctx, "Sizes of the arguments of map2 do not match: [4] and [3]."));
  kerb_free_i32_1d(ctx, three);

  /* 1,000 alternating failing and passing calls, with memory that stays the same. */
  long long before = report_value(ctx, "bytes_in_use");
  int right = 0, reported = 0;
  for (int i = 0; i < 1000; i++) {
    int fails = i % 2;
    int st = kerb_entry_gather(ctx, &r, x, fails ? b : g);
    if (st == 0) st = kerb_values_i32_1d(ctx, r, out);
    if (fails) {
      char *m = error_of(ctx);
      reported += st == KERB_PROGRAM_ERROR && m && strstr(m, message) != NULL;
      free(m);
    } else {
      right += st == 0 && out[0] == 40 && out[1] == 10 && out[2] == 20;
    }
    if (r) kerb_free_i32_1d(ctx, r);
    r = NULL;
  }
  CHECK(right == 500);
  CHECK(reported == 500);
  CHECK(report_value(ctx, "bytes_in_use") == before);
  kerb_free_i32_1d(ctx, x);
  kerb_free_i64_1d(ctx, g);
  kerb_free_i64_1d(ctx, b);
}

static void test_memory(struct kerb_context *ctx) {
  enum { N = 1 << 16 };
  static float data[N];
  for (int i = 0; i < N; i++) data[i] = (float)i;
  struct kerb_f32_1d *xs = kerb_new_f32_1d(ctx, data, N), *ys = NULL;
  long long base = report_value(ctx, "bytes_in_use");
  /* A host loop of 2,000 iterations, each making a new array: at most a few live. */
  CHECK(kerb_entry_iterate(ctx, &ys, 2000, xs) == 0);
  static float out[N];
  CHECK(kerb_values_f32_1d(ctx, ys, out) == 0 && out[0] == 2.0f && out[N - 1] == 2.0f);
  kerb_free_f32_1d(ctx, ys);
  long long peak = report_value(ctx, "peak_bytes");
  CHECK(peak > 0 && peak <= base + 4LL * N * (long long)sizeof(float));
  /* A while loop of scalars. */
  int32_t k = 0;
  CHECK(kerb_entry_count_down(ctx, &k, 100000) == 0 && k == 100000);
  /* Hundreds of calls: nothing is left behind. */
  long long reserved = -1;
  for (int i = 0; i < 500; i++) {
    CHECK(kerb_entry_iterate(ctx, &ys, 3, xs) == 0);
    kerb_free_f32_1d(ctx, ys);
    if (i == 9) reserved = report_value(ctx, "pool_reserved_bytes");
  }
  CHECK(kerb_context_sync(ctx) == 0);
  CHECK(report_value(ctx, "bytes_in_use") == base);
  CHECK(report_value(ctx, "live_arrays") == 1);
  CHECK(report_value(ctx, "pool_reserved_bytes") == reserved); /* -1 on the CPU */
  CHECK(kerb_context_clear_caches(ctx) == 0);
  CHECK(report_value(ctx, "cached_bytes") == 0);
  kerb_free_f32_1d(ctx, xs);
}

/* Two contexts whose calls alternate (a user of two programs): after the first calls,
 * each call takes its memory from its own context's cache, whatever the other does. */
static void test_alternating(struct kerb_context *ctx, const char *device) {
  enum { N = 1 << 16 };
  static float data[N];
  struct kerb_context_config *cfg = kerb_context_config_new();
  CHECK(kerb_context_config_set_device(cfg, device) == 0);
  struct kerb_context *other = kerb_context_new(cfg);
  struct kerb_f32_1d *xs = kerb_new_f32_1d(ctx, data, N), *ys = NULL;
  struct kerb_f32_1d *oxs = kerb_new_f32_1d(other, data, N), *oys = NULL;
  long long fresh = 0, ofresh = 0;
  for (int i = 0; i < 50; i++) {
    if (ys) kerb_free_f32_1d(ctx, ys);
    CHECK(kerb_entry_iterate(ctx, &ys, 3, xs) == 0);
    if (oys) kerb_free_f32_1d(other, oys);
    CHECK(kerb_entry_iterate(other, &oys, 3 + i % 2, oxs) == 0);
    if (i == 1) {
      fresh = report_value(ctx, "fresh_allocations");
      ofresh = report_value(other, "fresh_allocations");
    }
  }
  CHECK(fresh > 0 && report_value(ctx, "fresh_allocations") == fresh);
  CHECK(ofresh > 0 && report_value(other, "fresh_allocations") == ofresh);
  CHECK(kerb_context_sync(ctx) == 0 && kerb_context_sync(other) == 0);
  kerb_free_f32_1d(ctx, ys);
  kerb_free_f32_1d(ctx, xs);
  kerb_context_free(other);
  kerb_context_config_free(cfg);
}

static void test_misuse(struct kerb_context *ctx, const char *device) {
  int32_t xs[2] = {1, 2};
  struct kerb_i32_1d *x = kerb_new_i32_1d(ctx, xs, 2), *r = NULL;

  /* NULL and dead contexts: the message goes to kerb_context_get_error(NULL). */
  CHECK(kerb_entry_same(NULL, &r, x) == KERB_USAGE_ERROR);
  char *e = kerb_context_get_error(NULL);
  CHECK(e && strstr(e, "kerb_entry_same: the context is NULL"));
  free(e);
  CHECK(kerb_context_sync(NULL) == KERB_USAGE_ERROR);
  free(kerb_context_get_error(NULL));
  CHECK(kerb_new_i32_1d((struct kerb_context *)0x1234, xs, 2) == NULL);
  e = kerb_context_get_error(NULL);
  CHECK(e && strstr(e, "the context is not alive"));
  free(e);

  /* Bad arrays. */
  CHECK(kerb_entry_same(ctx, &r, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "argument 0 (in0) is NULL"));
  CHECK(kerb_entry_same(ctx, NULL, x) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "(out0) is NULL"));
  CHECK(kerb_values_i32_1d(ctx, (struct kerb_i32_1d *)0x10, xs) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "not a live array"));
  struct kerb_i64_1d *wrong = kerb_new_i64_1d(ctx, (int64_t[]){1}, 1);
  CHECK(kerb_entry_same(ctx, &r, (struct kerb_i32_1d *)wrong) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "is an array of type []i64, not []i32"));
  kerb_free_i64_1d(ctx, wrong);
  CHECK(kerb_free_i64_1d(ctx, wrong) == KERB_USAGE_ERROR); /* double free */
  CHECK(error_has(ctx, "not a live array (freed already"));
  CHECK(kerb_new_i32_1d(ctx, NULL, 2) == NULL);
  CHECK(error_has(ctx, "data is NULL"));
  CHECK(kerb_new_i32_2d(ctx, xs, 1, -2) == NULL);
  CHECK(error_has(ctx, "negative"));
  CHECK(kerb_values_i32_1d(ctx, x, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "data is NULL"));

  /* Arrays of another context. */
  struct kerb_context_config *cfg = kerb_context_config_new();
  CHECK(kerb_context_config_set_device(cfg, device) == 0);
  struct kerb_context *other = kerb_context_new(cfg);
  CHECK(kerb_context_get_error(other) == NULL);
  CHECK(kerb_entry_same(other, &r, x) == KERB_USAGE_ERROR);
  CHECK(error_has(other, "belongs to another context"));
  struct kerb_i32_1d *y = kerb_new_i32_1d(other, xs, 2);
  kerb_context_free(other); /* frees y too */
  CHECK(kerb_free_i32_1d(ctx, y) == KERB_USAGE_ERROR);
  CHECK(kerb_context_sync(other) == KERB_USAGE_ERROR);
  free(kerb_context_get_error(NULL));

  /* Configurations. */
  CHECK(kerb_context_config_set_device(cfg, "tpu") == KERB_USAGE_ERROR);
  e = kerb_context_get_error(NULL);
  CHECK(e && strstr(e, "unknown device 'tpu'"));
  free(e);
  kerb_context_config_free(cfg);
  struct kerb_context *none = kerb_context_new(NULL);
  CHECK(none != NULL);
  e = kerb_context_get_error(none);
  CHECK(e && strstr(e, "the configuration is NULL"));
  free(e);
  CHECK(kerb_entry_same(none, &r, x) == KERB_ERROR);
  CHECK(error_has(none, "the context did not start"));
  kerb_context_free(none);

  /* The context still works after all that. */
  CHECK(kerb_entry_same(ctx, &r, x) == 0);
  int32_t out[2];
  CHECK(kerb_values_i32_1d(ctx, r, out) == 0 && out[1] == 2);
  kerb_free_i32_1d(ctx, r);
  kerb_free_i32_1d(ctx, x);
}

/* With sync checks, the call that fails reports it. */
static void test_sync_checks(const char *device) {
  struct kerb_context_config *cfg = kerb_context_config_new();
  CHECK(kerb_context_config_set_device(cfg, device) == 0);
  CHECK(kerb_context_config_set_sync_checks(cfg, 1) == 0);
  struct kerb_context *ctx = kerb_context_new(cfg);
  CHECK(kerb_context_get_error(ctx) == NULL);
  int32_t xs[2] = {1, 2};
  int64_t bad[1] = {5};
  struct kerb_i32_1d *x = kerb_new_i32_1d(ctx, xs, 2), *r = NULL;
  struct kerb_i64_1d *b = kerb_new_i64_1d(ctx, bad, 1);
  CHECK(kerb_entry_gather(ctx, &r, x, b) == KERB_PROGRAM_ERROR && r == NULL);
  CHECK(error_has(ctx, "Index [5] out of bounds for array of shape [2]."));
  CHECK(kerb_context_sync(ctx) == 0);
  kerb_context_free(ctx);
  kerb_context_config_free(cfg);
}

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "cpu";
  struct kerb_context_config *cfg;
  struct kerb_context *ctx = start_context(device, &cfg);
  test_scalars(ctx);
  test_arrays(ctx);
  test_failures(ctx);
  test_memory(ctx);
  test_alternating(ctx, device);
  test_misuse(ctx, device);
  test_sync_checks(device);
  return finish(ctx, cfg);
}
