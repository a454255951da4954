/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas as a FlexiBLAS backend (FlexiBLAS called its __flexiblas_initialize) given
 * FlexiBLAS itself as its CPU BLAS (on Debian, libblas.so.3 may be libflexiblas): refused with
 * a message that says what to set, before any call is forwarded; the built-in reference runs
 * the calls, right. The stand-in is tests/unit/blas_forwarding_cpu_blas.c (flexiblas_avail). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <stdlib.h>

#include "tests/unit/blas_test.h"

int __flexiblas_initialize(void);

static void flexiblas_is_refused_as_the_cpu_blas_of_its_own_backend(void **state) {
  (void)state;
  assert_int_equal(__flexiblas_initialize(), 0); /* as FlexiBLAS does when it loads a backend */
  bt_capture cap = bt_capture_begin();
  bt_case cs = {.api = BT_F77, .type = 'd', .ta = 'N', .tb = 'T', .m = 6, .n = 4, .k = 5, .pad = 2,
                .alpha = {2, 0}, .beta = {1, 0}};
  assert_int_equal(bt_check(&cs), 0);
  char *out = bt_capture_end(cap);
  if (bt_count(out, "is FlexiBLAS, whose backend is libtcjblas itself") != 1) print_error("stderr: %s\n", out);
  assert_int_equal(bt_count(out, "is FlexiBLAS, whose backend is libtcjblas itself"), 1);
  free(out);
  void *lib = dlopen(FORWARDING_BLAS, RTLD_NOW | RTLD_NOLOAD);
  int (*calls)(void) = NULL;
  if (lib) *(void **)&calls = dlsym(lib, "forwarding_blas_calls");
  assert_true(!calls || calls() == 0); /* nothing was forwarded */
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  setenv("TCJBLAS_CPU_BLAS", FORWARDING_BLAS, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(flexiblas_is_refused_as_the_cpu_blas_of_its_own_backend),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
