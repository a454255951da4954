/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's argument checks: every illegal argument of xGEMM, its _64_ twin and CBLAS reaches
 * the program's own xerbla_ / cblas_xerbla (which take the place of the library's weak ones)
 * with Netlib's parameter number, and the call touches none of A, B and C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_test.h"
#include "tests/unit/blas_handlers.h"


/* What the Netlib CBLAS tester's cblas_xerbla makes of (p, RowMajorStrg) for a gemm: the
 * position in the caller's own argument list. */
static int cblas_position(void) {
  int p = cblas_info;
  if (cblas_row) {
    if (p == 4) p = 5;
    else if (p == 5) p = 4;
    else if (p == 9) p = 11;
    else if (p == 11) p = 9;
  }
  return p;
}

typedef struct bad_args {
  char ta, tb;
  int m, n, k, lda, ldb, ldc;
  int info; /* sgemm.f's INFO */
} bad_args;

/* From valid sizes (m 3, n 4, k 5, A m x k, B k x n, C m x n), one or more arguments spoiled;
 * where several are, the first check in sgemm.f's order wins. */
static const bad_args f77_cases[] = {
  {'X', 'N', 3, 4, 5, 3, 5, 3, 1},  {'N', '?', 3, 4, 5, 3, 5, 3, 2},  {'N', 'N', -1, 4, 5, 3, 5, 3, 3},
  {'N', 'N', 3, -1, 5, 3, 5, 3, 4}, {'N', 'N', 3, 4, -1, 3, 5, 3, 5}, {'N', 'N', 3, 4, 5, 2, 5, 3, 8},
  {'T', 'N', 3, 4, 5, 4, 5, 3, 8},  {'N', 'N', 3, 4, 5, 3, 4, 3, 10}, {'N', 'T', 3, 4, 5, 3, 3, 3, 10},
  {'N', 'N', 3, 4, 5, 3, 5, 2, 13}, {'N', 'N', 0, 4, 5, 0, 5, 1, 8},  {'N', 'N', 0, 4, 5, 1, 5, 0, 13},
  {'X', 'X', -1, -1, -1, 0, 0, 0, 1}, {'N', 'X', -1, -1, -1, 0, 0, 0, 2}, {'c', 'N', -1, -1, 5, 3, 5, 3, 3},
  {'t', 'c', 3, -2, -1, 5, 4, 3, 4}, {'N', 'N', 3, 4, 5, 2, 4, 2, 8},  {'N', 'N', 3, 4, 5, 3, 4, 2, 10},
};

static void run_f77_cases(bt_api api, char type) {
  static const char *const names[] = {"SGEMM", "DGEMM", "CGEMM", "ZGEMM"};
  bt_case cs = {.api = api, .type = type, .alpha = {1, 0}, .beta = {1, 0}};
  for (size_t i = 0; i < sizeof f77_cases / sizeof *f77_cases; i++) {
    const bad_args *x = &f77_cases[i];
    cs.ta = x->ta, cs.tb = x->tb;
    xerbla_calls = 0;
    bt_call(&cs, x->m, x->n, x->k, a, x->lda, b, x->ldb, c, x->ldc);
    if (xerbla_calls != 1 || xerbla_info != x->info)
      print_error("%cgemm case %zu (api %d): %d xerbla_ calls, INFO %d, want 1 call with %d\n", type,
                  i, api, xerbla_calls, xerbla_info, x->info);
    assert_int_equal(xerbla_calls, 1);
    assert_int_equal(xerbla_info, x->info);
    /* Netlib's six-character name, trailing blank included, and its length */
    char want[8];
    snprintf(want, sizeof want, "%s ", names[strchr("sdcz", type) - "sdcz"]);
    assert_string_equal(xerbla_name, want);
  }
}

static void fortran_entries_report_netlib_info_numbers(void **state) {
  (void)state;
  for (const char *t = "sdcz"; *t; t++) run_f77_cases(BT_F77, *t);
}

static void fortran_64_entries_report_the_same_numbers(void **state) {
  (void)state;
  for (const char *t = "sdcz"; *t; t++) run_f77_cases(BT_F77_64, *t);
}

/* Sizes past 32 bits are values like any other to the _64_ entries: an M of 3e9 with LDA 3e9 - 1
 * is an LDA error, not an overflow. */
static void fortran_64_entries_check_sizes_past_32_bits(void **state) {
  (void)state;
  int64_t m = 3000000000LL, n = 2, k = 2, lda = m - 1, ldb = 2, ldc = m;
  double one = 1;
  xerbla_calls = 0;
  dgemm_64_("N", "N", &m, &n, &k, &one, a, &lda, b, &ldb, &one, c, &ldc);
  assert_int_equal(xerbla_calls, 1);
  assert_int_equal(xerbla_info, 8);
}

static void valid_lower_case_transposes_are_accepted(void **state) {
  (void)state;
  int m = 0, n = 0, k = 0, one = 1;
  double alpha = 1, beta = 1;
  xerbla_calls = 0;
  dgemm_("n", "t", &m, &n, &k, &alpha, a, &one, b, &one, &beta, c, &one);
  dgemm_("c", "C", &m, &n, &k, &alpha, a, &one, b, &one, &beta, c, &one);
  assert_int_equal(xerbla_calls, 0);
}

/* CBLAS: the caller's argument list (layout 1, TransA 2, TransB 3, M 4, N 5, K 6, alpha 7, A 8,
 * lda 9, B 10, ldb 11, beta 12, C 13, ldc 14). */
typedef struct cblas_bad {
  int layout;
  int ta, tb;
  int m, n, k, lda, ldb, ldc;
  int position; /* in the caller's list, after Netlib's row-major mapping */
  int raw;      /* what Netlib's cblas_dgemm passes to cblas_xerbla */
} cblas_bad;

static const cblas_bad cblas_cases[] = {
  /* column-major: m 3, n 4, k 5; lda >= m, ldb >= k, ldc >= m */
  {0, CblasNoTrans, CblasNoTrans, 3, 4, 5, 3, 5, 3, 1, 1},
  {CblasColMajor, 0, CblasNoTrans, 3, 4, 5, 3, 5, 3, 2, 2},
  {CblasColMajor, CblasNoTrans, 119, 3, 4, 5, 3, 5, 3, 3, 3},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 4, 5, 3, 5, 3, 4, 4},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, -1, 5, 3, 5, 3, 5, 5},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, -1, 3, 5, 3, 6, 6},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 2, 5, 3, 9, 9},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 3, 4, 3, 11, 11},
  {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 3, 5, 2, 14, 14},
  /* row-major: lda >= k, ldb >= n, ldc >= n */
  {CblasRowMajor, 0, CblasNoTrans, 3, 4, 5, 5, 4, 4, 2, 2},
  {CblasRowMajor, CblasNoTrans, 0, 3, 4, 5, 5, 4, 4, 3, 3},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 4, 5, 5, 4, 4, 4, 5},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, -1, 5, 5, 4, 4, 5, 4},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, -1, 5, 4, 4, 6, 6},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 4, 4, 4, 9, 11},
  {CblasRowMajor, CblasTrans, CblasNoTrans, 3, 4, 5, 2, 4, 4, 9, 11},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 5, 3, 4, 11, 9},
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 5, 4, 3, 14, 14},
  /* both M and N bad in row-major: the column-major call checks its M (the caller's N) first */
  {CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, -1, 5, 5, 4, 4, 5, 4},
};

static void run_cblas_cases(bt_api api, char type) {
  for (size_t i = 0; i < sizeof cblas_cases / sizeof *cblas_cases; i++) {
    const cblas_bad *x = &cblas_cases[i];
    float fs[2] = {1, 0};
    double ds[2] = {1, 0};
    cblas_calls = 0;
    RowMajorStrg = 7; /* whatever it was: the library sets it for the report and clears it after */
    int m = x->m, n = x->n, k = x->k, lda = x->lda, ldb = x->ldb, ldc = x->ldc;
    CBLAS_LAYOUT lay = (CBLAS_LAYOUT)x->layout;
    CBLAS_TRANSPOSE ta = (CBLAS_TRANSPOSE)x->ta, tb = (CBLAS_TRANSPOSE)x->tb;
    if (api == BT_CBLAS) {
      switch (type) {
      case 's': cblas_sgemm(lay, ta, tb, m, n, k, 1, a, lda, b, ldb, 1, c, ldc); break;
      case 'd': cblas_dgemm(lay, ta, tb, m, n, k, 1, a, lda, b, ldb, 1, c, ldc); break;
      case 'c': cblas_cgemm(lay, ta, tb, m, n, k, fs, a, lda, b, ldb, fs, c, ldc); break;
      case 'z': cblas_zgemm(lay, ta, tb, m, n, k, ds, a, lda, b, ldb, ds, c, ldc); break;
      }
    } else {
      cblas_dgemm_64(lay, ta, tb, m, n, k, 1, a, lda, b, ldb, 1, c, ldc);
    }
    if (cblas_calls != 1 || cblas_info != x->raw || cblas_position() != x->position)
      print_error("cblas %c case %zu: %d calls, p %d (row %d) -> position %d; want p %d -> %d\n", type,
                  i, cblas_calls, cblas_info, cblas_row, cblas_position(), x->raw, x->position);
    assert_int_equal(cblas_calls, 1);
    assert_int_equal(cblas_info, x->raw);
    assert_int_equal(cblas_row, x->layout == CblasRowMajor);
    assert_int_equal(cblas_position(), x->position);
    assert_int_equal(RowMajorStrg, 0);
    char want[16];
    snprintf(want, sizeof want, "cblas_%cgemm", api == BT_CBLAS ? type : 'd');
    assert_string_equal(cblas_rout, want);
  }
}

static void cblas_reports_positions_as_netlib_cblas_does(void **state) {
  (void)state;
  for (const char *t = "sdcz"; *t; t++) run_cblas_cases(BT_CBLAS, *t);
}

static void cblas_64_reports_the_same_positions(void **state) {
  (void)state;
  run_cblas_cases(BT_CBLAS_64, 'd');
}

static void fortran_errors_do_not_reach_cblas_xerbla_and_back(void **state) {
  (void)state;
  cblas_calls = xerbla_calls = 0;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 1, 1, 1, a, 1, b, 1, 1, c, 1);
  int m = -1, one = 1;
  double s = 1;
  dgemm_("N", "N", &m, &one, &one, &s, a, &one, b, &one, &s, c, &one);
  assert_int_equal(cblas_calls, 1);
  assert_int_equal(xerbla_calls, 1);
}

int main(void) {
  /* Nothing here may reach a CPU BLAS or a GPU; keep both out of the way all the same. */
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(fortran_entries_report_netlib_info_numbers),
    cmocka_unit_test(fortran_64_entries_report_the_same_numbers),
    cmocka_unit_test(fortran_64_entries_check_sizes_past_32_bits),
    cmocka_unit_test(valid_lower_case_transposes_are_accepted),
    cmocka_unit_test(cblas_reports_positions_as_netlib_cblas_does),
    cmocka_unit_test(cblas_64_reports_the_same_positions),
    cmocka_unit_test(fortran_errors_do_not_reach_cblas_xerbla_and_back),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
