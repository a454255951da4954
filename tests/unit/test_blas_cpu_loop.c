/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas given a CPU BLAS that forwards back to it (a dispatcher such as FlexiBLAS whose
 * backend is libtcjblas, tests/unit/blas_forwarding_cpu_blas.c): the call that comes back is
 * run by the built-in reference (not forwarded again until the stack overflows), said once on
 * stderr, and the results are right; later calls skip the dispatcher. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <stdlib.h>

#include "tests/unit/blas_test.h"

static int forwarded(void) {
  void *lib = dlopen(FORWARDING_BLAS, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return -1;
  int (*calls)(void);
  *(void **)&calls = dlsym(lib, "forwarding_blas_calls");
  return calls ? calls() : -1;
}

static void a_cpu_blas_that_calls_back_is_dropped_and_the_reference_runs(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  bt_case cs = {.api = BT_F77, .type = 'd', .ta = 'T', .tb = 'N', .m = 7, .n = 5, .k = 6, .pad = 1,
                .alpha = {1.5, 0}, .beta = {0.5, 0}};
  assert_int_equal(bt_check(&cs), 0); /* against its own reference, element by element */
  assert_int_equal(forwarded(), 1);   /* the dispatcher saw it once, then it came back */
  assert_int_equal(bt_check(&cs), 0); /* the next call skips the dispatcher */
  assert_int_equal(forwarded(), 1);
  /* Another routine: the reference too (syrk of a 3 x 2 A: C = A A^T, lower triangle). */
  int n = 3, k = 2, ld = 3;
  double a[6] = {1, 2, 3, 4, 5, 6}, c[9] = {0}, one = 1, zero = 0;
  dsyrk_("L", "N", &n, &k, &one, a, &ld, &zero, c, &ld);
  assert_true(c[0] == 17 && c[1] == 22 && c[2] == 27 && c[4] == 29 && c[5] == 36 && c[8] == 45);
  char *out = bt_capture_end(cap);
  if (bt_count(out, "calls libtcjblas back with the same call") != 1) print_error("stderr: %s\n", out);
  assert_int_equal(bt_count(out, "calls libtcjblas back with the same call"), 1);
  free(out);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  setenv("TCJBLAS_CPU_BLAS", FORWARDING_BLAS, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_cpu_blas_that_calls_back_is_dropped_and_the_reference_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
