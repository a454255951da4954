/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas with no CPU BLAS in the process and no GPU: the built-in reference GEMM computes
 * every type, transpose pair, entry and storage order correctly, says once that no CPU BLAS was
 * found, and a call above the GPU threshold falls back to it after saying the GPU is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>

#include "tests/unit/blas_test.h"

/* Set in main: below it (7 x 5 x 6 and smaller) calls stay on the CPU. */
#define THRESHOLD "1000"

static void first_calls_warn_once_that_no_cpu_blas_was_found(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  bt_case cs = {.api = BT_F77, .type = 'd', .ta = 'N', .tb = 'N', .m = 3, .n = 2, .k = 4, .pad = 1,
                .alpha = {1, 0}, .beta = {1, 0}};
  int bad = bt_check(&cs) + bt_check(&cs);
  char *out = bt_capture_end(cap);
  assert_int_equal(bad, 0);
  if (bt_count(out, "no CPU BLAS found") != 1) print_error("stderr: %s\n", out);
  assert_int_equal(bt_count(out, "no CPU BLAS found"), 1);
  assert_int_equal(bt_count(out, "GPU"), 0); /* below the threshold: the GPU was not tried */
  free(out);
}

/* Every type, every transpose pair (N, T, C), leading dimensions past the rows, sizes that are
 * not multiples of anything, complex scalars with both parts. */
static int all_cases(bt_api api, int row_major) {
  int bad = 0;
  static const char tr[] = "NTC";
  for (const char *t = "sdcz"; *t; t++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        bt_case cs = {.api = api, .row_major = row_major, .type = *t, .ta = tr[i], .tb = tr[j],
                      .m = 7, .n = 5, .k = 6, .pad = 3, .alpha = {1.5, -0.75}, .beta = {-0.5, 0.25}};
        bad += bt_check(&cs);
        /* k = 1 and beta = 0 (C not read) through the same path */
        cs.m = 4, cs.n = 6, cs.k = 1, cs.pad = 2, cs.beta[0] = 0, cs.beta[1] = 0;
        bad += bt_check(&cs);
      }
  return bad;
}

static void fortran_entries_match_the_reference(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_F77, 0), 0);
}

static void fortran_64_entries_match_the_reference(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_F77_64, 0), 0);
}

static void cblas_column_major_matches_the_reference(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_CBLAS, 0), 0);
  assert_int_equal(all_cases(BT_CBLAS_64, 0), 0);
}

static void cblas_row_major_matches_the_reference(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_CBLAS, 1), 0);
  assert_int_equal(all_cases(BT_CBLAS_64, 1), 0);
}

/* Complex "== 0" and "== 1" compare both parts: (0, 1) is neither zero nor one, nor is (1, 1). */
static void complex_scalars_are_zero_or_one_only_in_both_parts(void **state) {
  (void)state;
  static const double scalars[][4] = {{0, 1, 1, 0}, {0, 0, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, -1}, {0, -1, 0, 0}};
  int bad = 0;
  for (const char *t = "cz"; *t; t++)
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++) {
      bt_case cs = {.api = BT_F77, .type = *t, .ta = 'C', .tb = 'T', .m = 3, .n = 4, .k = 2, .pad = 1,
                    .alpha = {scalars[i][0], scalars[i][1]}, .beta = {scalars[i][2], scalars[i][3]}};
      bad += bt_check(&cs);
      cs.api = BT_CBLAS, cs.row_major = 1;
      bad += bt_check(&cs);
    }
  assert_int_equal(bad, 0);
}

/* 16 x 16 x 16 (8192 real flops, 32768 complex) is past the threshold: the GPU path is tried
 * (c and z as one real GEMM), finds no driver or device here, says so once, and the CPU
 * computes the call. Where a driver is installed the call may run on a GPU: then only the
 * results are checked. Second in the run: the first call above the threshold says it. */
static void above_the_threshold_without_a_gpu_runs_on_the_cpu(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  int bad = 0;
  for (const char *t = "sdcz"; *t; t++) {
    bt_case cs = {.api = BT_F77, .type = *t, .ta = 'T', .tb = 'N', .m = 16, .n = 16, .k = 16, .pad = 1,
                  .alpha = {2, 0}, .beta = {1, 0}};
    bad += bt_check(&cs);
    cs.api = BT_CBLAS, cs.row_major = 1;
    bad += bt_check(&cs);
  }
  char *out = bt_capture_end(cap);
  assert_int_equal(bad, 0);
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    if (bt_count(out, "GPU path unavailable") != 1) print_error("stderr: %s\n", out);
    assert_int_equal(bt_count(out, "GPU path unavailable"), 1);
  } else {
    dlclose(driver);
  }
  free(out);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", THRESHOLD, 1);
  setenv("TCJBLAS_GPU_MIN_INTENSITY", "0", 1); /* 16^3 does 2-4 flops per byte */
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(first_calls_warn_once_that_no_cpu_blas_was_found), /* first: the first call */
    cmocka_unit_test(above_the_threshold_without_a_gpu_runs_on_the_cpu), /* the first above it */
    cmocka_unit_test(fortran_entries_match_the_reference),
    cmocka_unit_test(fortran_64_entries_match_the_reference),
    cmocka_unit_test(cblas_column_major_matches_the_reference),
    cmocka_unit_test(cblas_row_major_matches_the_reference),
    cmocka_unit_test(complex_scalars_are_zero_or_one_only_in_both_parts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
