/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas configured by a file (TCJBLAS_CONFIG): its cpu_blas is the CPU BLAS calls go to, a
 * bad line is reported at the first call and ignored, and TCJBLAS_GPU_THRESHOLD overrides the
 * file's gpu_threshold (the file's 1 would send every call to the GPU path first). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>

#include "tests/unit/blas_test.h"

static char dir[] = "/tmp/tcjblas-conf-XXXXXX";
static char path[sizeof dir + 32];

static void file_settings_apply_and_bad_lines_are_reported(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  bt_case cs = {.api = BT_CBLAS, .row_major = 1, .type = 'd', .ta = 'N', .tb = 'T', .m = 9, .n = 8, .k = 7,
                .pad = 2, .alpha = {-1, 0}, .beta = {2, 0}};
  int bad = bt_check(&cs);
  char *out = bt_capture_end(cap);
  assert_int_equal(bad, 0);
  char want[256];
  snprintf(want, sizeof want, "tcjblas: %s:3: unknown key 'cpu_blass'", path);
  if (!strstr(out, want)) print_error("no '%s' in stderr:\n%s", want, out);
  assert_non_null(strstr(out, want));
  assert_int_equal(bt_count(out, "GPU"), 0);         /* the environment's threshold held */
  assert_int_equal(bt_count(out, "no CPU BLAS"), 0); /* the file's cpu_blas was found */
  free(out);
  void *fake = dlopen(FAKE_BLAS, RTLD_NOW | RTLD_NOLOAD);
  assert_non_null(fake);
  int (*calls)(const char *);
  *(void **)&calls = dlsym(fake, "fake_blas_calls");
  assert_non_null(calls);
  assert_int_equal(calls("dgemm_"), 1);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  snprintf(path, sizeof path, "%s/tcjblas.conf", dir);
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  fprintf(f, "# written by test_blas_config_file\ncpu_blas %s\ncpu_blass typo\ngpu_threshold 1\n", FAKE_BLAS);
  fclose(f);
  setenv("TCJBLAS_CONFIG", path, 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(file_settings_apply_and_bad_lines_are_reported),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  unlink(path);
  rmdir(dir);
  return rc;
}
