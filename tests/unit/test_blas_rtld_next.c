/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas ahead of a CPU BLAS in the process (linked after it here; LD_PRELOAD does the same
 * for a program linked with OpenBLAS): with nothing configured, RTLD_NEXT finds that BLAS, and
 * the program's BLAS calls (GEMM and the other Level-3 routines) still come to libtcjblas first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>

#include "tests/unit/blas_test.h"

int fake_blas_calls(const char *name); /* the stand-in CPU BLAS, linked after libtcjblas */

static void program_calls_reach_libtcjblas_first(void **state) {
  (void)state;
  Dl_info info;
  assert_true(dladdr((void *)&dgemm_, &info) != 0);
  if (!strstr(info.dli_fname, "libtcjblas")) print_error("dgemm_ is from %s\n", info.dli_fname);
  assert_non_null(strstr(info.dli_fname, "libtcjblas"));
}

static void the_next_library_s_blas_takes_small_calls(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  for (const char *t = "sdcz"; *t; t++) {
    bt_case cs = {.api = BT_F77, .type = *t, .ta = 'T', .tb = 'T', .m = 3, .n = 4, .k = 5, .pad = 1,
                  .alpha = {1, 0}, .beta = {0, 0}};
    assert_int_equal(bt_check(&cs), 0);
  }
  char *out = bt_capture_end(cap);
  assert_int_equal(bt_count(out, "no CPU BLAS"), 0);
  free(out);
  assert_int_equal(fake_blas_calls("sgemm_"), 1);
  assert_int_equal(fake_blas_calls("dgemm_"), 1);
  assert_int_equal(fake_blas_calls("cgemm_"), 1);
  assert_int_equal(fake_blas_calls("zgemm_"), 1);
}

/* The other Level-3 routines are found there the same way, each by its own name. */
static void the_next_library_s_blas_takes_the_other_level3_routines(void **state) {
  (void)state;
  double a[4] = {2, 0, 0, 2}, c[4] = {1, 2, 3, 4}, one = 1, z[8] = {2, 0, 0, 0, 0, 0, 2, 0}, zone[2] = {1, 0};
  int n = 2;
  dsyrk_("U", "N", &n, &n, &one, a, &n, &one, c, &n);
  ztrsm_("L", "U", "N", "N", &n, &n, zone, z, &n, (double[8]){2, 0, 4, 0, 6, 0, 8, 0}, &n);
  assert_int_equal(fake_blas_calls("dsyrk_"), 1);
  assert_int_equal(fake_blas_calls("ztrsm_"), 1);
  assert_true(c[0] == 5 && c[2] == 3 && c[3] == 8); /* C + A A^T on the upper triangle */
  assert_true(c[1] == 2);                            /* below it: as it was */
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(program_calls_reach_libtcjblas_first),
    cmocka_unit_test(the_next_library_s_blas_takes_small_calls),
    cmocka_unit_test(the_next_library_s_blas_takes_the_other_level3_routines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
