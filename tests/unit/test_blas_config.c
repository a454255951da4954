/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of blas/config.c: which file is read, its keys, comments and blanks, bad lines
 * reported with file and line and ignored, and the environment over the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blas/tcjblas_internal.h"

static char dir[] = "/tmp/tcjblas-config-XXXXXX";
static char path[sizeof dir + 32];

static int setup(void **state) {
  (void)state;
  if (!mkdtemp(dir)) return -1;
  snprintf(path, sizeof path, "%s/test.conf", dir);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  unlink(path);
  char local[sizeof dir + 32];
  snprintf(local, sizeof local, "%s/tcjblas.conf", dir);
  unlink(local);
  rmdir(dir);
  return 0;
}

static void write_file(const char *p, const char *text) {
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Loads with the environment as given (NULL: unset) and returns what was said. */
static char *load(tb_config *cfg, const char *config, const char *cpu_blas, const char *threshold) {
  if (config) setenv("TCJBLAS_CONFIG", config, 1);
  else unsetenv("TCJBLAS_CONFIG");
  if (cpu_blas) setenv("TCJBLAS_CPU_BLAS", cpu_blas, 1);
  else unsetenv("TCJBLAS_CPU_BLAS");
  if (threshold) setenv("TCJBLAS_GPU_THRESHOLD", threshold, 1);
  else unsetenv("TCJBLAS_GPU_THRESHOLD");
  char *text = NULL;
  size_t len = 0;
  FILE *msgs = open_memstream(&text, &len);
  assert_non_null(msgs);
  tb_config_load(cfg, msgs);
  fclose(msgs);
  return text;
}

static void defaults_without_a_file_or_variables(void **state) {
  (void)state;
  tb_config cfg;
  char *msgs = load(&cfg, "", NULL, NULL);
  assert_string_equal(msgs, "");
  assert_string_equal(cfg.cpu_blas, "");
  assert_true(cfg.gpu_threshold == TB_DEFAULT_GPU_THRESHOLD);
  assert_int_equal(cfg.gpu_device, 0);
  assert_true(cfg.pinned_mb == TB_DEFAULT_PINNED_MB);
  assert_int_equal(cfg.copy_threads, 0); /* 0: chosen from the CPUs at the first copy */
  free(msgs);
}

static void staging_settings_from_the_file_and_the_environment(void **state) {
  (void)state;
  write_file(path, "pinned_mb 0.0625\ncopy_threads 3\npinned_mb -1\npinned_mb 2e6\ncopy_threads 65\n"
                   "copy_threads 2.5\n");
  setenv("TCJBLAS_COPY_THREADS", "5", 1);
  tb_config cfg;
  char *msgs = load(&cfg, path, NULL, NULL);
  unsetenv("TCJBLAS_COPY_THREADS");
  assert_true(cfg.pinned_mb == 0.0625); /* fractions of a MiB: tests use small buffers */
  assert_int_equal(cfg.copy_threads, 5); /* the environment over the file's 3 */
  for (int line = 3; line <= 6; line++) {
    char want[256];
    snprintf(want, sizeof want, "tcjblas: %s:%d: bad value", path, line);
    if (!strstr(msgs, want)) print_error("no '%s' in:\n%s", want, msgs);
    assert_non_null(strstr(msgs, want));
  }
  free(msgs);
  setenv("TCJBLAS_PINNED_MB", "0", 1); /* 0: no staging, whole pageable copies */
  msgs = load(&cfg, path, NULL, NULL);
  unsetenv("TCJBLAS_PINNED_MB");
  assert_true(cfg.pinned_mb == 0);
  free(msgs);
}

static void keys_comments_and_blanks_are_read(void **state) {
  (void)state;
  write_file(path, "# tcjblas settings\n"
                   "\n"
                   "   # indented comment\n"
                   "cpu_blas   /opt/my blas/lib#1/libopenblas.so  \r\n"
                   "GPU_THRESHOLD 1e9\n"
                   "\tgpu_device\t2\n");
  tb_config cfg;
  char *msgs = load(&cfg, path, NULL, NULL);
  assert_string_equal(msgs, "");
  assert_string_equal(cfg.cpu_blas, "/opt/my blas/lib#1/libopenblas.so");
  assert_true(cfg.gpu_threshold == 1e9);
  assert_int_equal(cfg.gpu_device, 2);
  free(msgs);
}

static void bad_lines_are_reported_with_file_and_line_and_ignored(void **state) {
  (void)state;
  write_file(path, "gpu_threshold 5000\n"
                   "frobnicate 3\n"
                   "gpu_threshold lots\n"
                   "gpu_threshold -1\n"
                   "gpu_threshold nan\n"
                   "gpu_device -1\n"
                   "gpu_device 1x\n"
                   "cpu_blas\n"
                   "gpu_device 3\n");
  tb_config cfg;
  char *msgs = load(&cfg, path, NULL, NULL);
  char want[256];
  snprintf(want, sizeof want, "tcjblas: %s:2: unknown key 'frobnicate'", path);
  assert_non_null(strstr(msgs, want));
  static const int bad_value_lines[] = {3, 4, 5, 6, 7, 8};
  for (size_t i = 0; i < sizeof bad_value_lines / sizeof *bad_value_lines; i++) {
    snprintf(want, sizeof want, "tcjblas: %s:%d: bad value", path, bad_value_lines[i]);
    if (!strstr(msgs, want)) print_error("no '%s' in:\n%s", want, msgs);
    assert_non_null(strstr(msgs, want));
  }
  /* the good lines around them hold */
  assert_true(cfg.gpu_threshold == 5000);
  assert_int_equal(cfg.gpu_device, 3);
  assert_string_equal(cfg.cpu_blas, "");
  free(msgs);
}

static void environment_overrides_the_file(void **state) {
  (void)state;
  write_file(path, "cpu_blas /from/file.so\ngpu_threshold 5000\n");
  tb_config cfg;
  char *msgs = load(&cfg, path, "/from/env.so", "inf");
  assert_string_equal(msgs, "");
  assert_string_equal(cfg.cpu_blas, "/from/env.so");
  assert_true(isinf(cfg.gpu_threshold));
  free(msgs);
}

static void bad_environment_value_is_reported_and_the_file_value_kept(void **state) {
  (void)state;
  write_file(path, "gpu_threshold 5000\n");
  tb_config cfg;
  char *msgs = load(&cfg, path, NULL, "fast");
  assert_non_null(strstr(msgs, "tcjblas: bad value 'fast' in TCJBLAS_GPU_THRESHOLD (ignored)"));
  assert_true(cfg.gpu_threshold == 5000);
  free(msgs);
}

static void missing_named_file_is_reported(void **state) {
  (void)state;
  tb_config cfg;
  char *msgs = load(&cfg, "/nonexistent/tcjblas.conf", NULL, NULL);
  assert_non_null(strstr(msgs, "cannot read the config file /nonexistent/tcjblas.conf"));
  assert_true(cfg.gpu_threshold == TB_DEFAULT_GPU_THRESHOLD);
  free(msgs);
}

static void tcjblas_conf_of_the_current_directory_is_read_without_the_variable(void **state) {
  (void)state;
  char local[sizeof dir + 32], cwd[4096];
  snprintf(local, sizeof local, "%s/tcjblas.conf", dir);
  write_file(local, "gpu_device 5\n");
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(dir), 0);
  tb_config cfg;
  char *msgs = load(&cfg, NULL, NULL, NULL);
  assert_int_equal(cfg.gpu_device, 5);
  free(msgs);
  /* an empty TCJBLAS_CONFIG means no file at all, even there */
  msgs = load(&cfg, "", NULL, NULL);
  assert_int_equal(cfg.gpu_device, 0);
  free(msgs);
  assert_int_equal(chdir(cwd), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(defaults_without_a_file_or_variables),
    cmocka_unit_test(keys_comments_and_blanks_are_read),
    cmocka_unit_test(staging_settings_from_the_file_and_the_environment),
    cmocka_unit_test(bad_lines_are_reported_with_file_and_line_and_ignored),
    cmocka_unit_test(environment_overrides_the_file),
    cmocka_unit_test(bad_environment_value_is_reported_and_the_file_value_kept),
    cmocka_unit_test(missing_named_file_is_reported),
    cmocka_unit_test(tcjblas_conf_of_the_current_directory_is_read_without_the_variable),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
