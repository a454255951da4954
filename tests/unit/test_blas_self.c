/* SPDX-License-Identifier: Apache-2.0 */
/* TCJBLAS_CPU_BLAS naming libtcjblas itself: refused with a message (taking our own dgemm_ as
 * the CPU BLAS would call it back without end), and the built-in reference computes instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_test.h"

static void libtcjblas_as_its_own_cpu_blas_is_refused(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  int bad = 0;
  for (const char *t = "sdcz"; *t; t++) {
    bt_case cs = {.api = BT_F77, .type = *t, .ta = 'N', .tb = 'C', .m = 4, .n = 3, .k = 2, .pad = 1,
                  .alpha = {1, 0}, .beta = {1, 0}};
    bad += bt_check(&cs);
  }
  char *out = bt_capture_end(cap);
  assert_int_equal(bad, 0);
  if (!strstr(out, "is libtcjblas itself")) print_error("stderr:\n%s", out);
  assert_non_null(strstr(out, "is libtcjblas itself"));
  assert_int_equal(bt_count(out, "no CPU BLAS found"), 1);
  free(out);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  setenv("TCJBLAS_CPU_BLAS", TCJBLAS_LIB, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(libtcjblas_as_its_own_cpu_blas_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
