/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas with TCJBLAS_CPU_BLAS naming a CPU BLAS (a stand-in that counts its calls): calls
 * below the GPU threshold go to it, 64-bit entries to its _64_ symbols where it has them and to
 * its 32-bit ones where it has not, row-major CBLAS as the swapped column-major call, and what
 * BLAS semantics settle on the host (quick returns, alpha == 0) never reaches it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>

#include "tests/unit/blas_test.h"

static int (*calls)(const char *name);
static void (*last)(char *ta, char *tb, int64_t *m, int64_t *n, int64_t *k);

/* The stand-in as libtcjblas opened it (RTLD_NOLOAD: already loaded, or not at all). */
static int find_fake(void) {
  void *lib = dlopen(FAKE_BLAS, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return -1;
  *(void **)&calls = dlsym(lib, "fake_blas_calls");
  *(void **)&last = dlsym(lib, "fake_blas_last");
  return calls && last ? 0 : -1;
}

static void every_type_goes_to_the_configured_cpu_blas(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  static const char *const names[] = {"sgemm_", "dgemm_", "cgemm_", "zgemm_"};
  for (int i = 0; i < 4; i++) {
    bt_case cs = {.api = BT_F77, .type = "sdcz"[i], .ta = 'C', .tb = 'N', .m = 5, .n = 3, .k = 4, .pad = 2,
                  .alpha = {1, 1}, .beta = {0.5, 0}};
    assert_int_equal(bt_check(&cs), 0);
    if (i == 0) assert_int_equal(find_fake(), 0); /* loaded at the first call */
    assert_int_equal(calls(names[i]), 1);
  }
  char *out = bt_capture_end(cap);
  assert_int_equal(bt_count(out, "no CPU BLAS"), 0);
  free(out);
}

static void entries_64_use_the_cpu_blas_64_bit_symbol_where_it_has_one(void **state) {
  (void)state;
  int s32 = calls("sgemm_"), d32 = calls("dgemm_"), d64 = calls("dgemm_64_");
  bt_case cs = {.api = BT_F77_64, .type = 'd', .ta = 'N', .tb = 'T', .m = 4, .n = 3, .k = 2, .pad = 1,
                .alpha = {1, 0}, .beta = {1, 0}};
  assert_int_equal(bt_check(&cs), 0);
  assert_int_equal(calls("dgemm_64_"), d64 + 1);
  assert_int_equal(calls("dgemm_"), d32);
  /* the stand-in has no sgemm_64_: the sizes fit an int, so its sgemm_ takes the call */
  cs.type = 's';
  assert_int_equal(bt_check(&cs), 0);
  assert_int_equal(calls("sgemm_"), s32 + 1);
}

static void row_major_cblas_arrives_as_the_swapped_column_major_call(void **state) {
  (void)state;
  bt_case cs = {.api = BT_CBLAS, .row_major = 1, .type = 'z', .ta = 'T', .tb = 'C', .m = 6, .n = 2, .k = 3,
                .pad = 1, .alpha = {0.5, 2}, .beta = {1, -1}};
  assert_int_equal(bt_check(&cs), 0);
  char ta, tb;
  int64_t m, n, k;
  last(&ta, &tb, &m, &n, &k);
  assert_int_equal(ta, 'C');
  assert_int_equal(tb, 'T');
  assert_int_equal(m, 2);
  assert_int_equal(n, 6);
  assert_int_equal(k, 3);
}

static void host_settled_calls_never_reach_the_cpu_blas(void **state) {
  (void)state;
  int before = calls("dgemm_");
  double a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {1, 2, 3, 4};
  double zero = 0, one = 1, two = 2;
  int n2 = 2, n0 = 0;
  dgemm_("N", "N", &n2, &n2, &n2, &zero, a, &n2, b, &n2, &two, c, &n2); /* C = 2 C */
  dgemm_("N", "N", &n0, &n2, &n2, &one, a, &n2, b, &n2, &two, c, &n2);  /* m = 0 */
  dgemm_("N", "N", &n2, &n0, &n2, &one, a, &n2, b, &n2, &two, c, &n2);  /* n = 0 */
  dgemm_("N", "N", &n2, &n2, &n0, &one, a, &n2, b, &n2, &one, c, &n2);  /* k = 0, beta = 1 */
  assert_int_equal(calls("dgemm_"), before);
  for (int i = 0; i < 4; i++) assert_true(c[i] == 2 * (i + 1));
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  setenv("TCJBLAS_CPU_BLAS", FAKE_BLAS, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_type_goes_to_the_configured_cpu_blas), /* first: loads the stand-in */
    cmocka_unit_test(entries_64_use_the_cpu_blas_64_bit_symbol_where_it_has_one),
    cmocka_unit_test(row_major_cblas_arrives_as_the_swapped_column_major_call),
    cmocka_unit_test(host_settled_calls_never_reach_the_cpu_blas),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
