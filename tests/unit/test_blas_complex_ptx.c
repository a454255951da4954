/* SPDX-License-Identifier: Apache-2.0 */
/* The PTX of libtcjblas's complex kernels (blas/complex_ptx.c) assembles with ptxas for sm_80,
 * sm_89 and sm_90a, has the four entries the loader asks for, and fits its loader's buffer. The
 * kernels' results are checked on a GPU by Netlib's c and z testers (tests/netlib). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blas/tcjblas_internal.h"

static char ptx[16384]; /* the loader's buffer size (complex_kernels.c) */

static void the_module_fits_and_names_its_entries(void **state) {
  (void)state;
  size_t n = tb_complex_kernels_ptx(ptx, sizeof ptx);
  assert_true(n > 0 && n < sizeof ptx);
  assert_int_equal(strlen(ptx), n);
  static const char *entries[] = {".entry tb_expand_f32(", ".entry tb_combine_f32(",
                                  ".entry tb_expand_f64(", ".entry tb_combine_f64("};
  for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) assert_non_null(strstr(ptx, entries[i]));
  /* A truncated render says how much it needed, as snprintf. */
  char small[64];
  assert_int_equal(tb_complex_kernels_ptx(small, sizeof small), n);
}

static void ptxas_assembles_it_for_every_architecture(void **state) {
  (void)state;
  tb_complex_kernels_ptx(ptx, sizeof ptx);
  char dir[] = "/tmp/tcjblas-ptx-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[sizeof dir + 16], cmd[1024];
  snprintf(path, sizeof path, "%s/k.ptx", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(ptx, f);
  fclose(f);
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a"};
  for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s -o '%s/k.cubin' '%s'", TCJ_PTXAS, arches[i], dir, path);
    int rc = system(cmd);
    if (rc != 0) fail_msg("ptxas -arch=%s failed (%d) on:\n%s", arches[i], rc, ptx);
  }
  snprintf(cmd, sizeof cmd, "%s/k.cubin", dir);
  unlink(cmd);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(the_module_fits_and_names_its_entries),
    cmocka_unit_test(ptxas_assembles_it_for_every_architecture),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
