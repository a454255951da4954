/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of blas/complex_real.c, the cgemm/zgemm-as-one-real-GEMM form the GPU path runs:
 * the real GEMM it describes, run here by the built-in reference, then the complex finish, must
 * give what the complex reference gives, element by element, for every op pair, alpha with both
 * parts, beta 0, real and complex, leading dimensions past the rows, and C's padding untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas/tcjblas_internal.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static double next_value(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / (double)(1ull << 53) * 2 - 1;
}

/* One problem of type t (TB_C or TB_Z), run both ways; returns the worst error / bound. */
static double run_case(tb_type t, char ta, char tb, int64_t m, int64_t n, int64_t k,
                       const double alpha[2], const double beta[2]) {
  int z = t == TB_Z;
  size_t es = z ? 16 : 8;
  int64_t ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
  int64_t rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
  int64_t lda = ra + 3, ldb = rb + 1, ldc = m + 2;
  size_t na = (size_t)(lda * ca), nb = (size_t)(ldb * cb), nc = (size_t)(ldc * n);
  double *ad = malloc(2 * na * sizeof(double)), *bd = malloc(2 * nb * sizeof(double));
  double *cd = malloc(2 * nc * sizeof(double));
  for (size_t i = 0; i < 2 * na; i++) ad[i] = next_value();
  for (size_t i = 0; i < 2 * nb; i++) bd[i] = next_value();
  for (size_t i = 0; i < 2 * nc; i++) cd[i] = next_value();
  /* beta == 0 must not read C: NaN in C where the real GEMM would otherwise see it. */
  if (beta[0] == 0 && beta[1] == 0)
    for (size_t i = 0; i < 2 * nc; i++) cd[i] = NAN;
  /* The operands in the type under test, and the |.| bound's inputs in double. */
  void *a = malloc(na * es), *b = malloc(nb * es), *want = malloc(nc * es), *got = malloc(nc * es);
  float as[2] = {(float)alpha[0], (float)alpha[1]}, bs[2] = {(float)beta[0], (float)beta[1]};
  for (size_t i = 0; i < 2 * na; i++) z ? (((double *)a)[i] = ad[i]) : (((float *)a)[i] = (float)ad[i]);
  for (size_t i = 0; i < 2 * nb; i++) z ? (((double *)b)[i] = bd[i]) : (((float *)b)[i] = (float)bd[i]);
  for (size_t i = 0; i < 2 * nc; i++) z ? (((double *)want)[i] = cd[i]) : (((float *)want)[i] = (float)cd[i]);
  memcpy(got, want, nc * es);
  tb_gemm g = {.type = t, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
               .alpha = z ? (const void *)alpha : (const void *)as, .a = a, .lda = lda,
               .b = b, .ldb = ldb, .beta = z ? (const void *)beta : (const void *)bs,
               .c = want, .ldc = ldc};
  tb_ref_gemm(&g);
  g.c = got;
  tb_real_form f;
  assert_int_equal(tb_complex_as_real(&g, &f), 0);
  assert_int_equal(f.real.type, z ? TB_D : TB_S);
  assert_int_equal(f.real.m, 2 * m);
  assert_int_equal(f.real.n, n);
  assert_int_equal(f.real.k, 2 * k);
  tb_ref_gemm(&f.real);
  tb_complex_from_real(&g, &f);
  tb_real_form_free(&f);
  /* Element by element: |error| <= c eps (|alpha| |A| |B| + |beta| |C|) in the parts' sums. */
  double eps = z ? 0x1p-52 : 0x1p-23, worst = 0;
  double mag_alpha = fabs(alpha[0]) + fabs(alpha[1]), mag_beta = fabs(beta[0]) + fabs(beta[1]);
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < ldc; i++)
      for (int p = 0; p < 2; p++) {
        size_t at = 2 * (size_t)(i + j * ldc) + (size_t)p;
        double w = z ? ((double *)want)[at] : ((float *)want)[at];
        double o = z ? ((double *)got)[at] : ((float *)got)[at];
        if (i >= m) { /* padding rows: never written */
          double c0 = z ? cd[at] : (double)(float)cd[at];
          assert_true(isnan(c0) ? isnan(o) : o == c0);
          continue;
        }
        double bound = 0;
        for (int64_t l = 0; l < k; l++) {
          size_t ia = ta == 'N' ? (size_t)(i + l * lda) : (size_t)(l + i * lda);
          size_t ib = tb == 'N' ? (size_t)(l + j * ldb) : (size_t)(j + l * ldb);
          bound += (fabs(ad[2 * ia]) + fabs(ad[2 * ia + 1])) * (fabs(bd[2 * ib]) + fabs(bd[2 * ib + 1]));
        }
        double c_mag = mag_beta == 0 ? 0 : mag_beta * (fabs(cd[at & ~(size_t)1]) + fabs(cd[at | 1]));
        bound = 8 * (double)(k + 2) * eps * (mag_alpha * bound + c_mag);
        assert_false(isnan(o));
        double e = fabs(o - w) / (bound > 0 ? bound : eps);
        if (e > worst) worst = e;
      }
  free(ad), free(bd), free(cd), free(a), free(b), free(want), free(got);
  return worst;
}

static void every_op_pair_and_beta_matches_the_complex_reference(void **state) {
  (void)state;
  static const char ops[] = "NTC";
  static const double alphas[][2] = {{1, 0}, {0.75, -1.25}, {0, 2}};
  static const double betas[][2] = {{0, 0}, {1, 0}, {-0.5, 0}, {0.25, 1.5}};
  static const int64_t sizes[][3] = {{1, 1, 1}, {3, 5, 2}, {7, 2, 9}, {16, 17, 15}};
  for (int t = TB_C; t <= TB_Z; t++)
    for (int x = 0; x < 3; x++)
      for (int y = 0; y < 3; y++)
        for (size_t al = 0; al < sizeof alphas / sizeof *alphas; al++)
          for (size_t be = 0; be < sizeof betas / sizeof *betas; be++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
              double worst = run_case((tb_type)t, ops[x], ops[y], sizes[s][0], sizes[s][1],
                                      sizes[s][2], alphas[al], betas[be]);
              if (worst > 1)
                fail_msg("%c: op %c%c alpha (%g,%g) beta (%g,%g) %lldx%lldx%lld: error %.2f of the bound",
                         "sdcz"[t], ops[x], ops[y], alphas[al][0], alphas[al][1], betas[be][0],
                         betas[be][1], (long long)sizes[s][0], (long long)sizes[s][1],
                         (long long)sizes[s][2], worst);
            }
}

static void the_real_form_reads_c_in_place_unless_beta_is_complex(void **state) {
  (void)state;
  double a[2] = {1, 2}, b[2] = {3, 4}, c[2] = {5, 6};
  double alpha[2] = {1, 0}, real_beta[2] = {2, 0}, complex_beta[2] = {0, 1};
  tb_gemm g = {.type = TB_Z, .ta = 'N', .tb = 'N', .m = 1, .n = 1, .k = 1, .alpha = alpha,
               .a = a, .lda = 1, .b = b, .ldb = 1, .beta = real_beta, .c = c, .ldc = 1};
  tb_real_form f;
  assert_int_equal(tb_complex_as_real(&g, &f), 0);
  assert_ptr_equal(f.real.c, c);      /* C's own memory, its real view */
  assert_int_equal(f.real.ldc, 2);
  assert_ptr_equal(f.real.b, b);      /* op(B) = N: B's real view, no copy */
  assert_int_equal(f.real.ldb, 2);
  assert_true(f.real.beta == &f.scalars.d[1] && f.scalars.d[1] == 2);
  tb_real_form_free(&f);
  g.beta = complex_beta;
  assert_int_equal(tb_complex_as_real(&g, &f), 0);
  assert_true(f.complex_beta);
  assert_ptr_not_equal(f.real.c, c);  /* the product goes to a buffer; C = P + beta C after */
  assert_true(f.scalars.d[1] == 0);
  tb_real_form_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_op_pair_and_beta_matches_the_complex_reference),
    cmocka_unit_test(the_real_form_reads_c_in_place_unless_beta_is_complex),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
