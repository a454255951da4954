/* SPDX-License-Identifier: Apache-2.0 */
/* The reference's semantics of the Level-3 routines beside GEMM, before any computing: quick
 * returns touch nothing, alpha == 0 reads neither A nor B (C = beta C on the triangle UPLO names,
 * or B = 0 for trmm and trsm), beta == 0 sets C without reading it, and the library's own
 * xerbla_ and cblas_xerbla print Netlib's messages (the caller's position for row-major CBLAS)
 * and return. No CPU BLAS here: the built-in reference runs what is left. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_l3_test.h"

static const bt_api apis[] = {BT_F77, BT_F77_64, BT_CBLAS, BT_CBLAS_64};

/* Calls that return at once, whatever the arrays: all of them fault on any access. */
static void quick_returns_read_and_write_nothing(void **state) {
  (void)state;
  void *none = bt_no_access();
  assert_non_null(none);
  /* RK and R2K: n 0; alpha 0 or k 0 with beta 1. MM: m or n 0; alpha 0 with beta 1. TR: m or
   * n 0. herk's and her2k's beta is real: a NaN after it is not read. */
  static const struct { int m, n, k; double alpha, beta; } rank[] = {
    {0, 0, 3, 2, 3}, {0, 3, 3, 0, 1}, {0, 3, 0, 2, 1}, {0, 0, 0, 0, 0},
  }, mm[] = {{0, 3, 0, 2, 3}, {3, 0, 0, 2, 3}, {3, 4, 0, 0, 1}}, tr[] = {{0, 3, 0, 2, 0}, {3, 0, 0, 2, 0}};
  int calls = 0;
  for (int r = 0; r < L3_COUNT; r++) {
    const char *name = l3_names[r];
    l3_shape s = l3_shape_of(name);
    size_t count = s == L3_MM ? 3 : s == L3_TR ? 2 : 4;
    for (size_t i = 0; i < count; i++)
      for (size_t api = 0; api < sizeof apis / sizeof *apis; api++)
        for (int row = 0; row < 2; row++) {
          const __typeof__(rank[0]) *q = s == L3_MM ? &mm[i] : s == L3_TR ? &tr[i] : &rank[i];
          l3_case cs = {.api = apis[api], .row_major = row, .name = name, .side = 'R', .uplo = 'L',
                        .trans = 'N', .diag = 'N', .m = q->m, .n = q->n, .k = q->k,
                        .alpha = {q->alpha, 0}, .beta = {q->beta, l3_herm(name) && s != L3_MM ? NAN : 0}};
          if (apis[api] < BT_CBLAS && row) continue;
          l3_call(&cs, none, 8, none, 8, none, 8);
          calls++;
        }
  }
  assert_int_equal(calls, (6 * 4 + 6 * 4 + 6 * 3 + 8 * 2) * 6);
}

/* C's elements start as small integers (products with 2 and (2, -0.5) are exact); A and B fault
 * if read. RK and R2K scale the triangle UPLO names (herk, her2k: beta real, diagonal real), MM
 * all of C, TR sets B to 0 without reading it (NaN there). Everything else stays bit for bit. */
static int alpha_zero_case(const char *name, bt_api api, int row, char uplo, int beta_zero) {
  static void *none;
  if (!none) none = bt_no_access();
  char t = name[0];
  l3_shape s = l3_shape_of(name);
  int herm_real_beta = name[1] == 'h' && s != L3_MM, n = 4, m = s == L3_RK || s == L3_R2K ? 4 : 3;
  double beta_im = herm_real_beta || !bt_cplx(t) ? 0 : -0.5;
  l3_case cs = {.api = api, .row_major = row, .name = name, .side = 'L', .uplo = uplo, .trans = 'N',
                .diag = 'U', .m = m, .n = n, .k = 3, .alpha = {0, 0},
                .beta = {beta_zero ? 0 : 2, beta_zero ? 0 : beta_im}};
  int ld = (row ? n : m) + 2, outer = row ? m : n; /* C (or B) is m x n, stored with padding */
  double c[2 * 6 * 4], before[2 * 6 * 4];
  size_t es = bt_es(t);
  for (int e = 0; e < ld * outer; e++)
    l3_put(t, c, (size_t)e, s == L3_TR || beta_zero ? l3_cplx(NAN, NAN) : l3_cplx(e + 1, e % 3 - 1));
  memcpy(before, c, sizeof c);
  l3_call(&cs, none, 8, none, 8, c, ld);
  int bad = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      size_t e = l3_at(row, i, j, ld);
      ldc got = l3_get(t, c, e), c0 = l3_get(t, before, e), want;
      int written = s == L3_MM || s == L3_TR || (uplo == 'U' ? i <= j : i >= j);
      if (!written) {
        if (memcmp((char *)c + e * es, (char *)before + e * es, es)) bad++;
        continue;
      }
      if (s == L3_TR || beta_zero) want = 0;
      else if (herm_real_beta && i == j) want = 2 * creall(c0);
      else want = l3_cplx(2, beta_im) * c0;
      if (!(creall(got) == creall(want) && cimagl(got) == cimagl(want))) {
        if (bad++ < 3)
          print_error("%s api %d row %d uplo %c beta %s: C(%d,%d) = (%Lg, %Lg), want (%Lg, %Lg)\n", name,
                      api, row, uplo, beta_zero ? "0" : "2", i, j, creall(got), cimagl(got),
                      creall(want), cimagl(want));
      }
    }
  for (int o = 0; o < outer; o++) /* the padding */
    for (int p = row ? n : m; p < ld; p++)
      if (memcmp((char *)c + ((size_t)o * ld + p) * es, (char *)before + ((size_t)o * ld + p) * es, es)) bad++;
  return bad;
}

static void alpha_zero_reads_neither_a_nor_b(void **state) {
  (void)state;
  int bad = 0;
  for (int r = 0; r < L3_COUNT; r++)
    for (size_t api = 0; api < sizeof apis / sizeof *apis; api++)
      for (int row = 0; row < 2; row++)
        for (const char *uplo = "UL"; *uplo; uplo++)
          for (int beta_zero = 0; beta_zero < 2; beta_zero++) {
            if (apis[api] < BT_CBLAS && row) continue;
            bad += alpha_zero_case(l3_names[r], apis[api], row, *uplo, beta_zero);
          }
  assert_int_equal(bad, 0);
}

static void default_xerbla_prints_netlib_message_and_returns(void **state) {
  (void)state;
  void *none = bt_no_access();
  int n = 3, k = 2, lda = 3, ldc = 2, m = 3;
  double one = 1, z[2] = {1, 0};
  bt_capture cap = bt_capture_begin();
  dsyrk_("U", "N", &n, &k, &one, none, &lda, &one, none, &ldc);
  zher2k_("L", "T", &n, &k, z, none, &lda, none, &lda, &one, none, &lda);
  strsm_("L", "U", "N", "N", &m, &n, (float[]){1}, none, &lda, none, &ldc);
  char *out = bt_capture_end(cap);
  assert_non_null(strstr(out, " ** On entry to DSYRK parameter number 10 had an illegal value\n"));
  assert_non_null(strstr(out, " ** On entry to ZHER2K parameter number  2 had an illegal value\n"));
  assert_non_null(strstr(out, " ** On entry to STRSM parameter number 11 had an illegal value\n"));
  free(out);
}

/* Row-major symm and trsm reach the checks with M and N swapped; the default cblas_xerbla swaps
 * them back as Netlib's does. */
static void default_cblas_xerbla_names_the_callers_position(void **state) {
  (void)state;
  void *none = bt_no_access();
  double z[2] = {1, 0};
  bt_capture cap = bt_capture_begin();
  cblas_dsymm(CblasRowMajor, CblasLeft, CblasUpper, -1, 4, 1, none, 4, none, 4, 1, none, 4);
  cblas_ctrsm(CblasRowMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, 3, -1, (float[]){1, 0},
              none, 3, none, 3);
  cblas_zherk(CblasRowMajor, CblasUpper, CblasTrans, 3, 3, 1, none, 3, 1, none, 3);
  cblas_zhemm_64(CblasRowMajor, CblasRight, CblasUpper, 2, 3, z, none, 3, none, 2, z, none, 3);
  char *out = bt_capture_end(cap);
  assert_non_null(strstr(out, "Parameter 4 to routine cblas_dsymm was incorrect\n"));
  assert_non_null(strstr(out, "Parameter 7 to routine cblas_ctrsm was incorrect\n"));
  assert_non_null(strstr(out, "Parameter 3 to routine cblas_zherk was incorrect\nIllegal Trans setting, 112\n"));
  assert_non_null(strstr(out, "Parameter 10 to routine cblas_zhemm was incorrect\n")); /* ldb 2 < n 3 */
  free(out);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(quick_returns_read_and_write_nothing),
    cmocka_unit_test(alpha_zero_reads_neither_a_nor_b),
    cmocka_unit_test(default_xerbla_prints_netlib_message_and_returns),
    cmocka_unit_test(default_cblas_xerbla_names_the_callers_position),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
