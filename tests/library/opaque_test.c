/* Tests of opaque values in the C API (tests/library/opaque.fut, compiled with `kerb
 * compile --library`): records built from their fields and projected back, records of
 * records and of tuples, arrays of records (zip and unzip), anonymous records, a
 * module's abstract type and a sum type through entries, store and restore, results of
 * failed calls, and misuse of every kind (NULL, freed, of another type or context,
 * fields of different sizes), with memory all given back. Run by c_api_test.sh; on the
 * GPU by tests/gpu/run_gpu_library.sh. Usage: opaque_test DEVICE. Prints each failed
 * check and a last line "N checks, M failed"; exits 1 if any failed. */
#include "opaque.h"

#include "checks.h"

static struct kerb_opaque_point *point(struct kerb_context *ctx, float x, float y) {
  struct kerb_opaque_point *p = NULL;
  CHECK(kerb_new_opaque_point(ctx, &p, x, y) == 0 && p != NULL);
  return p;
}

static void test_records(struct kerb_context *ctx) {
  struct kerb_opaque_point *p = point(ctx, 3, 4), *q = NULL;
  float n = 0, x = 0, y = 0;
  CHECK(kerb_entry_norm2(ctx, &n, p) == 0 && n == 25);
  CHECK(kerb_entry_swap(ctx, &q, p) == 0 && q != NULL && q != p);
  CHECK(kerb_project_opaque_point_x(ctx, &x, q) == 0 && x == 4);
  CHECK(kerb_project_opaque_point_y(ctx, &y, q) == 0 && y == 3);
  CHECK(kerb_free_opaque_point(ctx, p) == 0);
  CHECK(kerb_project_opaque_point_x(ctx, &x, q) == 0 && x == 4); /* independent of p */

  /* A record of records and a tuple: fields in name order (from, tag, to), the tuple
   * flattened into two values. */
  struct kerb_opaque_seg *s = NULL;
  struct kerb_opaque_point *origin = point(ctx, 0, 0);
  CHECK(kerb_entry_make_seg(ctx, &s, origin, q, 5) == 0);
  CHECK(kerb_free_opaque_point(ctx, origin) == 0);
  int32_t k = 0;
  bool positive = false;
  CHECK(kerb_project_opaque_seg_tag(ctx, &k, &positive, s) == 0 && k == 5 && positive);
  struct kerb_opaque_point *to = NULL, *mid = NULL;
  CHECK(kerb_project_opaque_seg_to(ctx, &to, s) == 0);
  CHECK(kerb_project_opaque_point_y(ctx, &y, to) == 0 && y == 3);
  CHECK(kerb_entry_mid(ctx, &mid, &k, s) == 0 && k == 5);
  CHECK(kerb_project_opaque_point_x(ctx, &x, mid) == 0 && x == 2);
  CHECK(kerb_project_opaque_point_y(ctx, &y, mid) == 0 && y == 1.5f);
  struct kerb_opaque_seg *s2 = NULL;
  CHECK(kerb_new_opaque_seg(ctx, &s2, to, -1, false, mid) == 0);
  CHECK(kerb_free_opaque_point(ctx, mid) == 0);
  CHECK(kerb_entry_mid(ctx, &mid, &k, s2) == 0 && k == -1);
  CHECK(kerb_project_opaque_point_x(ctx, &x, mid) == 0 && x == 3);
  kerb_free_opaque_point(ctx, mid);
  kerb_free_opaque_seg(ctx, s2);
  kerb_free_opaque_seg(ctx, s);
  kerb_free_opaque_point(ctx, to);
  kerb_free_opaque_point(ctx, q);
  CHECK(report_value(ctx, "live_opaques") == 0);

  /* An anonymous record as a result and as a parameter. */
  double data[4] = {1, 2, 3, 6};
  struct kerb_f64_1d *xs = kerb_new_f64_1d(ctx, data, 4), *d = NULL;
  struct kerb_opaque_rec3_count_i64_data_arr1d_f64_mean_f64 *st = NULL;
  CHECK(kerb_entry_stats(ctx, &st, xs) == 0);
  int64_t count = 0;
  double mean = 0, back[4] = {0};
  CHECK(kerb_project_opaque_rec3_count_i64_data_arr1d_f64_mean_f64_count(ctx, &count, st) == 0 && count == 4);
  CHECK(kerb_project_opaque_rec3_count_i64_data_arr1d_f64_mean_f64_mean(ctx, &mean, st) == 0 && mean == 3);
  CHECK(kerb_project_opaque_rec3_count_i64_data_arr1d_f64_mean_f64_data(ctx, &d, st) == 0);
  CHECK(kerb_values_f64_1d(ctx, d, back) == 0 && back[3] == 6);
  kerb_free_opaque_rec3_count_i64_data_arr1d_f64_mean_f64(ctx, st);
  kerb_free_f64_1d(ctx, xs);
  kerb_free_f64_1d(ctx, d);
  int64_t bs[3] = {1, 2, 3}, total = 0;
  struct kerb_i64_1d *b = kerb_new_i64_1d(ctx, bs, 3);
  struct kerb_opaque_rec2_a_i32_b_arr1d_i64 *ab = NULL;
  CHECK(kerb_new_opaque_rec2_a_i32_b_arr1d_i64(ctx, &ab, 10, b) == 0);
  kerb_free_i64_1d(ctx, b); /* the record keeps its own reference */
  CHECK(kerb_entry_pair_ok(ctx, &total, ab) == 0 && total == 16);
  kerb_free_opaque_rec2_a_i32_b_arr1d_i64(ctx, ab);
}

static void test_arrays_of_records(struct kerb_context *ctx) {
  float xv[3] = {1, 2, 3}, yv[3] = {10, 20, 30}, got[3] = {0};
  struct kerb_f32_1d *x = kerb_new_f32_1d(ctx, xv, 3), *y = kerb_new_f32_1d(ctx, yv, 3);
  struct kerb_opaque_arr1d_point *ps = NULL, *scaled = NULL;
  CHECK(kerb_new_opaque_arr1d_point(ctx, &ps, x, y) == 0);
  const int64_t *shape = kerb_shape_opaque_arr1d_point(ctx, ps);
  CHECK(shape && shape[0] == 3);
  CHECK(kerb_entry_scale(ctx, &scaled, 2, ps) == 0);
  struct kerb_f32_1d *sy = NULL, *sx = NULL;
  CHECK(kerb_project_opaque_arr1d_point_y(ctx, &sy, scaled) == 0);
  CHECK(kerb_values_f32_1d(ctx, sy, got) == 0 && got[0] == 20 && got[2] == 60);
  CHECK(kerb_entry_xs_of(ctx, &sx, scaled) == 0);
  CHECK(kerb_values_f32_1d(ctx, sx, got) == 0 && got[1] == 4);
  struct kerb_opaque_point *p = NULL;
  float py = 0;
  CHECK(kerb_entry_pick(ctx, &p, ps, 2) == 0);
  CHECK(kerb_project_opaque_point_y(ctx, &py, p) == 0 && py == 30);
  kerb_free_opaque_point(ctx, p);
  CHECK(kerb_entry_pick(ctx, &p, ps, 3) == KERB_PROGRAM_ERROR);
  CHECK(error_has(ctx, "Index [3] out of bounds for array of shape [3]."));

  /* Fields of different lengths. */
  struct kerb_f32_1d *two = kerb_new_f32_1d(ctx, xv, 2);
  struct kerb_opaque_arr1d_point *bad = NULL;
  CHECK(kerb_new_opaque_arr1d_point(ctx, &bad, x, two) == KERB_PROGRAM_ERROR && bad == NULL);
  CHECK(error_has(ctx, "kerb_new_opaque_arr1d_point: the fields of an array of records differ in their outer "
                       "size: [3] and [2]"));
  kerb_free_f32_1d(ctx, two);

  /* A failing kernel: the array of records it returned is refused, then freed. */
  int64_t is[2] = {0, 7};
  struct kerb_i64_1d *idx = kerb_new_i64_1d(ctx, is, 2);
  struct kerb_opaque_arr1d_point *g = NULL;
  CHECK(kerb_entry_gather_pts(ctx, &g, ps, idx) == 0);
  CHECK(kerb_context_sync(ctx) == KERB_PROGRAM_ERROR);
  CHECK(error_has(ctx, "Index [7] out of bounds for array of shape [3]."));
  CHECK(kerb_project_opaque_arr1d_point_x(ctx, &sx, g) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "result of a call that failed"));
  CHECK(kerb_entry_scale(ctx, &scaled, 1, g) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "argument 1 (in1) is (part of) a result of a call that failed"));
  CHECK(kerb_free_opaque_arr1d_point(ctx, g) == 0);
  kerb_free_i64_1d(ctx, idx);

  kerb_free_f32_1d(ctx, x);
  kerb_free_f32_1d(ctx, y);
  kerb_free_f32_1d(ctx, sx);
  kerb_free_f32_1d(ctx, sy);
  kerb_free_opaque_arr1d_point(ctx, ps);
  kerb_free_opaque_arr1d_point(ctx, scaled);
}

static void test_abstract_and_sums(struct kerb_context *ctx) {
  struct kerb_opaque_counter_t *c = NULL, *c2 = NULL;
  int64_t total = 0;
  CHECK(kerb_entry_counter_make(ctx, &c, 4) == 0);
  CHECK(kerb_entry_counter_bump(ctx, &c2, c) == 0);
  CHECK(kerb_entry_counter_total(ctx, &total, c2) == 0 && total == 8);

  /* Store and restore: the size alone, into malloc'd memory, into the caller's. */
  size_t n = 0;
  CHECK(kerb_store_opaque_counter_t(ctx, c2, NULL, &n) == 0 && n > 0);
  void *bytes = NULL;
  size_t n2 = 0;
  CHECK(kerb_store_opaque_counter_t(ctx, c2, &bytes, &n2) == 0 && bytes && n2 == n);
  char own[256];
  void *at = own;
  CHECK(n <= sizeof own && kerb_store_opaque_counter_t(ctx, c2, &at, &n2) == 0 && at == own);
  CHECK(memcmp(own, bytes, n) == 0);
  struct kerb_opaque_counter_t *r = kerb_restore_opaque_counter_t(ctx, bytes);
  CHECK(r != NULL);
  CHECK(kerb_entry_counter_total(ctx, &total, r) == 0 && total == 8);
  /* Bytes of another type. */
  CHECK(kerb_restore_opaque_point(ctx, bytes) == NULL);
  CHECK(error_has(ctx, "the bytes are not a stored kerb_opaque_point"));
  CHECK(kerb_restore_opaque_point(ctx, NULL) == NULL);
  CHECK(error_has(ctx, "p is NULL"));
  free(bytes);
  kerb_free_opaque_counter_t(ctx, r);
  kerb_free_opaque_counter_t(ctx, c);
  kerb_free_opaque_counter_t(ctx, c2);

  /* An array of records stored and restored. */
  float xv[2] = {1, 2}, got[2] = {0};
  struct kerb_f32_1d *x = kerb_new_f32_1d(ctx, xv, 2), *gx = NULL;
  struct kerb_opaque_arr1d_point *ps = NULL;
  CHECK(kerb_new_opaque_arr1d_point(ctx, &ps, x, x) == 0);
  bytes = NULL;
  CHECK(kerb_store_opaque_arr1d_point(ctx, ps, &bytes, &n) == 0);
  struct kerb_opaque_arr1d_point *ps2 = kerb_restore_opaque_arr1d_point(ctx, bytes);
  free(bytes);
  CHECK(ps2 && kerb_project_opaque_arr1d_point_y(ctx, &gx, ps2) == 0);
  CHECK(kerb_values_f32_1d(ctx, gx, got) == 0 && got[0] == 1 && got[1] == 2);
  kerb_free_f32_1d(ctx, gx);
  kerb_free_f32_1d(ctx, x);
  kerb_free_opaque_arr1d_point(ctx, ps);
  kerb_free_opaque_arr1d_point(ctx, ps2);

  struct kerb_opaque_shape *sq = NULL, *ci = NULL;
  float area = 0;
  CHECK(kerb_entry_make_shape(ctx, &sq, -3) == 0 && kerb_entry_make_shape(ctx, &ci, 2) == 0);
  CHECK(kerb_entry_area(ctx, &area, sq) == 0 && area == 3);
  CHECK(kerb_entry_area(ctx, &area, ci) == 0 && area == 12);
  kerb_free_opaque_shape(ctx, sq);
  kerb_free_opaque_shape(ctx, ci);
}

static void test_misuse(struct kerb_context *ctx, const char *device) {
  struct kerb_opaque_point *p = point(ctx, 1, 2), *q = NULL;
  float f = 0;
  CHECK(kerb_entry_norm2(ctx, &f, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "kerb_entry_norm2: argument 0 (in0) is NULL"));
  CHECK(kerb_entry_swap(ctx, NULL, p) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "the pointer for result 0 (out0) is NULL"));
  CHECK(kerb_new_opaque_point(ctx, NULL, 1, 2) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "kerb_new_opaque_point: out is NULL"));
  CHECK(kerb_project_opaque_point_x(ctx, NULL, p) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "kerb_project_opaque_point_x: the pointer for value 0 (out0) is NULL"));
  CHECK(kerb_project_opaque_point_x(ctx, &f, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "the record is NULL"));

  /* A value of another type, an array where an opaque value goes, and the reverse. */
  struct kerb_opaque_arr1d_point *ps = NULL;
  CHECK(kerb_entry_scale(ctx, &ps, 1, (struct kerb_opaque_arr1d_point *)p) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "argument 1 (in1) is a kerb_opaque_point, not a kerb_opaque_arr1d_point"));
  float xv[1] = {1};
  struct kerb_f32_1d *x = kerb_new_f32_1d(ctx, xv, 1);
  CHECK(kerb_entry_norm2(ctx, &f, (struct kerb_opaque_point *)x) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "argument 0 (in0) is an array, not a kerb_opaque_point"));
  CHECK(kerb_values_f32_1d(ctx, (struct kerb_f32_1d *)p, xv) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "not a live array"));
  CHECK(kerb_new_opaque_arr1d_point(ctx, &ps, x, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "kerb_new_opaque_arr1d_point: field y is NULL"));
  struct kerb_opaque_seg *s = NULL;
  CHECK(kerb_new_opaque_seg(ctx, &s, p, 1, true, (struct kerb_opaque_point *)x) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "field to is an array, not a kerb_opaque_point"));
  CHECK(s == NULL && report_value(ctx, "live_opaques") == 1); /* p alone */
  kerb_free_f32_1d(ctx, x);

  /* Freed values. */
  CHECK(kerb_entry_swap(ctx, &q, p) == 0);
  CHECK(kerb_free_opaque_point(ctx, q) == 0);
  CHECK(kerb_free_opaque_point(ctx, q) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "kerb_free_opaque_point: the value is not a live value (freed already"));
  CHECK(kerb_entry_norm2(ctx, &f, q) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "not a live value"));
  CHECK(kerb_store_opaque_point(ctx, p, NULL, NULL) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "n is NULL"));

  /* Values of another context, and a dead context. */
  struct kerb_context_config *cfg = kerb_context_config_new();
  CHECK(kerb_context_config_set_device(cfg, device) == 0);
  struct kerb_context *other = kerb_context_new(cfg);
  CHECK(kerb_context_get_error(other) == NULL);
  CHECK(kerb_entry_norm2(other, &f, p) == KERB_USAGE_ERROR);
  CHECK(error_has(other, "belongs to another context"));
  struct kerb_opaque_point *op = point(other, 5, 6);
  CHECK(kerb_project_opaque_point_x(ctx, &f, op) == KERB_USAGE_ERROR);
  CHECK(error_has(ctx, "belongs to another context"));
  kerb_context_free(other); /* frees op too */
  CHECK(kerb_free_opaque_point(ctx, op) == KERB_USAGE_ERROR);
  free(kerb_context_get_error(ctx));
  CHECK(kerb_new_opaque_point(other, &q, 1, 2) == KERB_USAGE_ERROR);
  char *e = kerb_context_get_error(NULL);
  CHECK(e && strstr(e, "kerb_new_opaque_point: the context is not alive"));
  free(e);
  kerb_context_config_free(cfg);

  /* Still usable. */
  CHECK(kerb_entry_norm2(ctx, &f, p) == 0 && f == 5);
  kerb_free_opaque_point(ctx, p);
}

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "cpu";
  struct kerb_context_config *cfg;
  struct kerb_context *ctx = start_context(device, &cfg);
  test_records(ctx);
  test_arrays_of_records(ctx);
  test_abstract_and_sums(ctx);
  test_misuse(ctx, device);
  return finish(ctx, cfg);
}
