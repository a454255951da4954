/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of blas/config.c: which file is read, its keys, comments and blanks, bad lines
 * reported with file and line and ignored, and the environment over the file; and of the rule
 * those settings feed (blas/gpu_worth.c). */
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
  assert_true(cfg.gpu_min_intensity == TB_DEFAULT_GPU_MIN_INTENSITY);
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

static void the_intensity_rule_from_the_file_and_the_environment(void **state) {
  (void)state;
  write_file(path, "gpu_min_intensity 4.5\ngpu_min_intensity -2\n");
  tb_config cfg;
  char *msgs = load(&cfg, path, NULL, NULL);
  assert_true(cfg.gpu_min_intensity == 4.5); /* the bad second line is ignored */
  char want[256];
  snprintf(want, sizeof want, "tcjblas: %s:2: bad value '-2' for gpu_min_intensity", path);
  assert_non_null(strstr(msgs, want));
  free(msgs);
  setenv("TCJBLAS_GPU_MIN_INTENSITY", "0", 1); /* 0: any call over the flops threshold */
  msgs = load(&cfg, path, NULL, NULL);
  unsetenv("TCJBLAS_GPU_MIN_INTENSITY");
  assert_true(cfg.gpu_min_intensity == 0);
  free(msgs);
}

/* tb_gemm_worth_the_gpu under the process's settings (tb_config_get: loaded once, here from the
 * defaults, as main clears the variables first). */
static int worth(tb_type t, int64_t m, int64_t n, int64_t k, double beta) {
  double one[2] = {1, 0}, b[2] = {beta, 0};
  float onef[2] = {1, 0}, bf[2] = {(float)beta, 0};
  int single = t == TB_S || t == TB_C;
  tb_gemm g = {.type = t, .ta = 'N', .tb = 'N', .m = m, .n = n, .k = k,
               .alpha = single ? (const void *)onef : (const void *)one,
               .beta = single ? (const void *)bf : (const void *)b};
  return tb_gemm_worth_the_gpu(&g);
}

static void the_default_rule_keeps_small_and_bus_bound_calls_on_the_cpu(void **state) {
  (void)state;
  /* The measured rows (docs/perf.md): 512^3 and 384^3 won on the GPU in every type, 256^3 lost
   * in s and d, 2048 x 2048 x 32 (4-8 flops per byte) lost in s and d, and c's 1536 x 1536 x 32. */
  for (tb_type t = TB_S; t <= TB_Z; t++) {
    assert_true(worth(t, 512, 512, 512, 0.5));
    assert_true(worth(t, 384, 384, 384, 0.5));
    assert_false(worth(t, 128, 128, 128, 0.5));
    assert_false(worth(t, 2048, 2048, 32, 0.5));
  }
  assert_false(worth(TB_D, 256, 256, 256, 0.5)); /* 3.4e7 flops, under 1e8 */
  assert_false(worth(TB_C, 1536, 1536, 32, 0.5)); /* 6e8 flops but 15.7 per byte */
  assert_true(worth(TB_C, 32, 768, 768, 0.5));    /* 1.5e8 flops, 28 per byte */
  /* beta 0: C is not sent up, so the same shape does more flops per byte: 4096 x 4096 x 64 in s
   * does 31 per byte with beta 0, 15.8 with beta 1. */
  assert_false(worth(TB_S, 4096, 4096, 64, 1.0));
  assert_true(worth(TB_S, 4096, 4096, 64, 0.0));
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
  setenv("TCJBLAS_CONFIG", "", 1); /* no file, not even a tcjblas.conf of this directory */
  unsetenv("TCJBLAS_GPU_THRESHOLD");
  unsetenv("TCJBLAS_GPU_MIN_INTENSITY");
  const struct CMUnitTest tests[] = {
    /* first: tb_config_get loads the settings once, from the environment main left */
    cmocka_unit_test(the_default_rule_keeps_small_and_bus_bound_calls_on_the_cpu),
    cmocka_unit_test(defaults_without_a_file_or_variables),
    cmocka_unit_test(keys_comments_and_blanks_are_read),
    cmocka_unit_test(staging_settings_from_the_file_and_the_environment),
    cmocka_unit_test(the_intensity_rule_from_the_file_and_the_environment),
    cmocka_unit_test(bad_lines_are_reported_with_file_and_line_and_ignored),
    cmocka_unit_test(environment_overrides_the_file),
    cmocka_unit_test(bad_environment_value_is_reported_and_the_file_value_kept),
    cmocka_unit_test(missing_named_file_is_reported),
    cmocka_unit_test(tcjblas_conf_of_the_current_directory_is_read_without_the_variable),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
