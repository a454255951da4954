/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's BLAS semantics before any computing: quick returns touch nothing, alpha == 0 (or
 * k == 0) never reads A or B, beta == 0 never reads C (a NaN there does not come back), and the
 * library's own xerbla_ and cblas_xerbla print Netlib's messages and return. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_test.h"

static const bt_api apis[] = {BT_F77, BT_F77_64, BT_CBLAS, BT_CBLAS_64};

static void quick_returns_read_and_write_nothing(void **state) {
  (void)state;
  void *none = bt_no_access();
  assert_non_null(none);
  /* m or n zero whatever the scalars; alpha or k zero with beta one. */
  static const struct { int m, n, k; double alpha, beta; } cases[] = {
    {0, 4, 5, 2, 3}, {3, 0, 5, 2, 3}, {0, 0, 0, 0, 0}, {3, 4, 5, 0, 1}, {3, 4, 0, 2, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    for (const char *t = "sdcz"; *t; t++)
      for (size_t api = 0; api < sizeof apis / sizeof *apis; api++) {
        bt_case cs = {.api = apis[api], .type = *t, .ta = 'N', .tb = 'T',
                      .alpha = {cases[i].alpha, 0}, .beta = {cases[i].beta, 0}};
        bt_call(&cs, cases[i].m, cases[i].n, cases[i].k, none, 8, none, 8, none, 8);
      }
}

/* C = beta C from A and B that fault if read; beta 0 sets C to 0 over NaNs. */
static void alpha_zero_reads_neither_a_nor_b(void **state) {
  (void)state;
  void *none = bt_no_access();
  assert_non_null(none);
  for (const char *t = "sdcz"; *t; t++)
    for (size_t api = 0; api < sizeof apis / sizeof *apis; api++)
      for (int beta_zero = 0; beta_zero < 2; beta_zero++) {
        bt_case cs = {.api = apis[api], .type = *t, .ta = 'T', .tb = 'N', .alpha = {0, 0},
                      .beta = {beta_zero ? 0 : 2, beta_zero ? 0 : -0.5}};
        int m = 3, n = 2, ldc = 5; /* ldc > m: the padding rows must stay as they were */
        double c[2 * 5 * 2];
        size_t es = bt_es(*t);
        unsigned char before[sizeof c];
        for (int e = 0; e < ldc * n; e++) bt_put(*t, c, (size_t)e, beta_zero ? NAN : e + 1, beta_zero ? NAN : e - 3);
        memcpy(before, c, sizeof c);
        bt_call(&cs, m, n, 4, none, 4, none, 4, c, ldc);
        for (int j = 0; j < n; j++)
          for (int i = 0; i < ldc; i++) {
            size_t e = (size_t)(i + j * ldc);
            long double re, im, r0, i0;
            bt_get(*t, c, e, &re, &im);
            bt_get(*t, before, e, &r0, &i0);
            if (i >= m) {
              assert_memory_equal((char *)c + e * es, before + e * es, es);
            } else if (beta_zero) {
              assert_true(re == 0 && im == 0);
            } else if (bt_cplx(*t)) {
              assert_true(re == 2 * r0 + 0.5L * i0 && im == 2 * i0 - 0.5L * r0);
            } else {
              assert_true(re == 2 * r0);
            }
          }
      }
}

static void k_zero_scales_c_by_beta_without_reading_a_or_b(void **state) {
  (void)state;
  void *none = bt_no_access();
  for (const char *t = "sdcz"; *t; t++) {
    bt_case cs = {.api = BT_F77, .type = *t, .ta = 'N', .tb = 'N', .alpha = {1, 0}, .beta = {3, 0}};
    double c[2 * 4];
    for (int e = 0; e < 4; e++) bt_put(*t, c, (size_t)e, e + 1, 1);
    bt_call(&cs, 2, 2, 0, none, 2, none, 1, c, 2);
    for (int e = 0; e < 4; e++) {
      long double re, im;
      bt_get(*t, c, (size_t)e, &re, &im);
      assert_true(re == 3 * (e + 1));
      if (bt_cplx(*t)) assert_true(im == 3);
    }
  }
}

/* beta == 0 with a real product: C is written from alpha op(A) op(B) alone. */
static void beta_zero_never_reads_c(void **state) {
  (void)state;
  for (const char *t = "sdcz"; *t; t++)
    for (size_t api = 0; api < sizeof apis / sizeof *apis; api++) {
      bt_case cs = {.api = apis[api], .type = *t, .ta = 'N', .tb = 'N', .alpha = {1, 0}, .beta = {0, 0}};
      double a[2 * 4], b[2 * 4], c[2 * 4];
      for (int e = 0; e < 4; e++) {
        bt_put(*t, a, (size_t)e, e + 1, 0);   /* A = [1 3; 2 4] */
        bt_put(*t, b, (size_t)e, e == 0 || e == 3, 0); /* B = I */
        bt_put(*t, c, (size_t)e, NAN, NAN);
      }
      bt_call(&cs, 2, 2, 2, a, 2, b, 2, c, 2);
      for (int e = 0; e < 4; e++) {
        long double re, im;
        bt_get(*t, c, (size_t)e, &re, &im);
        if (re != e + 1 || im != 0) print_error("%c api %d: C[%d] = (%Lg, %Lg), want %d\n", *t, cs.api, e, re, im, e + 1);
        assert_true(re == e + 1 && im == 0);
      }
    }
}

static void default_xerbla_prints_netlib_message_and_returns(void **state) {
  (void)state;
  void *none = bt_no_access();
  int m = 3, n = 2, k = 2, lda = 2, ldb = 2, ldc = 3;
  double one = 1;
  bt_capture cap = bt_capture_begin();
  dgemm_("N", "N", &m, &n, &k, &one, none, &lda, none, &ldb, &one, none, &ldc);
  char *out = bt_capture_end(cap);
  assert_non_null(strstr(out, " ** On entry to DGEMM parameter number  8 had an illegal value\n"));
  free(out);
}

static void default_cblas_xerbla_names_the_callers_position(void **state) {
  (void)state;
  void *none = bt_no_access();
  bt_capture cap = bt_capture_begin();
  /* row-major, lda 4 < k 5: position 9 (Netlib passes 11 with RowMajorStrg set) */
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 5, 1, none, 4, none, 4, 1, none, 4);
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasConjTrans + 1, 3, 4, 5, 1, none, 3, none, 4, 1, none, 3);
  char *out = bt_capture_end(cap);
  assert_non_null(strstr(out, "Parameter 9 to routine cblas_dgemm was incorrect\n"));
  assert_non_null(strstr(out, "Parameter 3 to routine cblas_sgemm was incorrect\nIllegal TransB setting, 114\n"));
  free(out);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(quick_returns_read_and_write_nothing),
    cmocka_unit_test(alpha_zero_reads_neither_a_nor_b),
    cmocka_unit_test(k_zero_scales_c_by_beta_without_reading_a_or_b),
    cmocka_unit_test(beta_zero_never_reads_c),
    cmocka_unit_test(default_xerbla_prints_netlib_message_and_returns),
    cmocka_unit_test(default_cblas_xerbla_names_the_callers_position),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
