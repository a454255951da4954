/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of blas/l3_gemm.c, the Level-3 routines as GEMMs: with the GPU GEMM replaced by the
 * built-in host GEMM (this file defines tb_gpu_gemm_of_host_arrays and tb_gemm_worth_the_gpu),
 * every routine but trsm, in every type and every option (side, uplo, trans, diag), with alpha
 * and beta of each kind, must give what the built-in reference gives, element by element
 * within a rounding bound, leave the triangle and padding it must not write as they were, and
 * never read C when beta is 0 (NaN there). A GPU run of the same is Netlib's testers
 * (tests/netlib, netlib_*_gpu). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas/tcjblas_l3.h"

static int gemms_run;

int tb_gemm_worth_the_gpu(const tb_gemm *g) {
  (void)g;
  return 1;
}

tb_gpu_result tb_gpu_gemm_of_host_arrays(const tb_gemm *g, tb_places p) {
  assert_true(p.a == TB_HOST && p.b == TB_HOST && p.c == TB_HOST);
  assert_true(g->ta == 'N' || g->ta == 'T' || g->ta == 'C');
  assert_true(g->tb == 'N' || g->tb == 'T' || g->tb == 'C');
  gemms_run++;
  /* trmm passes its B as both operand and result, which the GPU path copies to the device
   * before it writes C: so does this stand-in. */
  tb_gemm h = *g;
  void *copy = NULL;
  if (g->a == g->c || g->b == g->c) {
    size_t bytes = (size_t)(g->ldc * g->n) * tb_elem_size(g->type);
    copy = malloc(bytes);
    memcpy(copy, g->c, bytes);
    if (g->a == g->c) h.a = copy;
    else h.b = copy;
  }
  tb_ref_gemm(&h);
  free(copy);
  return TB_GPU_DONE;
}

static uint64_t rng = 0x2545F4914F6CDD1Du;
static double next_value(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / (double)(1ull << 53) * 2 - 1;
}

/* A matrix of rows x cols (ld rows + 2) of random values as doubles (2 per complex element). */
typedef struct mat {
  int64_t ld, cols;
  double *v; /* 2 * ld * cols doubles: one per real element, two per complex one */
} mat;

static mat random_mat(int64_t rows, int64_t cols) {
  mat m = {rows + 2, cols, malloc(2 * (size_t)(rows + 2) * (size_t)(cols > 0 ? cols : 1) * sizeof(double))};
  for (int64_t i = 0; i < 2 * m.ld * cols; i++) m.v[i] = next_value();
  return m;
}

/* The matrix in the type's layout (floats for s and c). */
static void *typed(tb_type t, const mat *m) {
  size_t n = (size_t)(m->ld * m->cols) * (tb_is_complex(t) ? 2 : 1);
  void *p = malloc(n * (t == TB_S || t == TB_C ? 4 : 8) + 16);
  for (size_t i = 0; i < n; i++)
    if (t == TB_S || t == TB_C) ((float *)p)[i] = (float)m->v[i];
    else ((double *)p)[i] = m->v[i];
  return p;
}

static double element(tb_type t, const void *p, size_t i) {
  return t == TB_S || t == TB_C ? ((const float *)p)[i] : ((const double *)p)[i];
}

/* Runs x through l3_gemm.c and through the reference on two copies of C; compares. */
static void compare(tb_l3 *x, const mat *cm, int64_t crows, int64_t depth, const char *what) {
  tb_type t = x->type;
  int cplx = tb_is_complex(t), beta_zero = x->op != TB_TRMM && tb_l3_beta_is(x, 0);
  mat c0 = *cm;
  if (beta_zero) /* must not be read */
    for (int64_t i = 0; i < 2 * c0.ld * c0.cols; i++) c0.v[i] = NAN;
  void *want = typed(t, &c0), *got = typed(t, &c0);
  x->c = want;
  tb_ref_l3(x);
  x->c = got;
  int before = gemms_run;
  assert_int_equal(tb_l3_on_gpu(x), TB_GPU_DONE);
  assert_true(gemms_run > before);
  double eps = t == TB_S || t == TB_C ? 0x1p-23 : 0x1p-52;
  size_t per = cplx ? 2 : 1;
  for (int64_t j = 0; j < c0.cols; j++)
    for (int64_t i = 0; i < c0.ld; i++)
      for (size_t p = 0; p < per; p++) {
        size_t at = ((size_t)(i + j * c0.ld)) * per + p;
        double w = element(t, want, at), o = element(t, got, at);
        if (isnan(w)) { /* untouched NaN (beta 0 outside the triangle or padding) */
          if (!isnan(o)) fail_msg("%s: (%lld,%lld) written where the reference left it", what, (long long)i, (long long)j);
          continue;
        }
        /* |error| <= c eps depth max|.|^2 |alpha| + ...: values are in [-1, 1], scalars <= 2. */
        double bound = 64 * eps * (double)(depth + 2) * (i < crows ? 1 : 0) + 0;
        if (fabs(o - w) > bound && !(fabs(o - w) == 0))
          fail_msg("%s: (%lld,%lld)%s %.9g, the reference %.9g", what, (long long)i, (long long)j,
                   p ? " imag" : "", o, w);
      }
  free(want), free(got);
}

static const double alphas[][2] = {{1, 0}, {-0.75, 1.25}};
static const double betas[][2] = {{0, 0}, {1, 0}, {0.5, -1.5}};

/* Scalars as the routine reads them: an element, or a real (herk's both, her2k's beta). */
static void set_scalar(tb_type t, int real, const double v[2], void *out) {
  if (t == TB_S || (t == TB_C && real)) *(float *)out = (float)v[0];
  else if (t == TB_D || (t == TB_Z && real)) *(double *)out = v[0];
  else if (t == TB_C) ((float *)out)[0] = (float)v[0], ((float *)out)[1] = (float)v[1];
  else ((double *)out)[0] = v[0], ((double *)out)[1] = v[1];
}

static void every_routine_matches_the_reference(void **state) {
  (void)state;
  const int64_t m = 7, n = 5, k = 6;
  for (int t = TB_S; t <= TB_Z; t++)
    for (int op = 0; op < TB_L3_COUNT; op++) {
      if (op == TB_TRSM) continue;
      int herm = tb_l3_hermitian((tb_l3_op)op);
      if (herm && !tb_is_complex((tb_type)t)) continue;
      tb_shape shape = tb_l3_shape((tb_l3_op)op);
      const char *sides = shape == TB_MM || shape == TB_TR ? "LR" : "L";
      const char *transes = shape == TB_TR ? (tb_is_complex((tb_type)t) ? "NTC" : "NT")
                            : shape == TB_MM ? "N" : herm ? "NC" : "NT";
      const char *diags = shape == TB_TR ? "NU" : "N";
      for (const char *side = sides; *side; side++)
        for (const char *uplo = "UL"; *uplo; uplo++)
          for (const char *tr = transes; *tr; tr++)
            for (const char *dg = diags; *dg; dg++)
              for (size_t al = 0; al < 2; al++)
                for (size_t be = 0; be < (shape == TB_TR ? 1u : 3u); be++) {
                  int real_alpha = op == TB_HERK, real_beta = op == TB_HERK || op == TB_HER2K;
                  double alpha_v[2] = {alphas[al][0], real_alpha ? 0 : alphas[al][1]};
                  double beta_v[2] = {betas[be][0], real_beta ? 0 : betas[be][1]};
                  unsigned char alpha[16], beta[16];
                  set_scalar((tb_type)t, real_alpha, alpha_v, alpha);
                  set_scalar((tb_type)t, real_beta, beta_v, beta);
                  tb_l3 x = {.op = (tb_l3_op)op, .type = (tb_type)t, .side = *side, .uplo = *uplo,
                             .trans = *tr, .diag = *dg, .alpha = alpha, .beta = beta};
                  int64_t crows, ccols, ar, ac, br = 0, bc = 0, depth;
                  if (shape == TB_RK || shape == TB_R2K) {
                    x.n = n, x.k = k, crows = ccols = n, depth = 2 * k;
                    ar = *tr == 'N' ? n : k, ac = *tr == 'N' ? k : n, br = ar, bc = ac;
                  } else {
                    x.m = m, x.n = n, crows = m, ccols = n;
                    ar = ac = *side == 'L' ? m : n, br = m, bc = n, depth = ar;
                  }
                  mat a = random_mat(ar, ac), b = random_mat(br, bc), c = random_mat(crows, ccols);
                  void *at = typed((tb_type)t, &a), *bt = typed((tb_type)t, &b);
                  x.a = at, x.lda = a.ld;
                  if (shape == TB_R2K || shape == TB_MM) x.b = bt, x.ldb = b.ld;
                  x.ldc = c.ld;
                  if (shape == TB_TR) { /* B is the matrix written: it is "c" */
                    x.ldc = b.ld;
                    free(c.v);
                    c = b;
                    b.v = NULL;
                  }
                  char what[96];
                  snprintf(what, sizeof what, "%c%s side %c uplo %c trans %c diag %c alpha %zu beta %zu",
                           "sdcz"[t], tb_l3_names[op], *side, *uplo, *tr, *dg, al, be);
                  compare(&x, &c, crows, depth, what);
                  free(at), free(bt), free(a.v), free(b.v), free(c.v);
                }
    }
}

static void trsm_and_alpha_zero_stay_on_the_cpu(void **state) {
  (void)state;
  double alpha = 0, beta = 1, a = 1, c = 1;
  tb_l3 x = {.op = TB_SYRK, .type = TB_D, .uplo = 'U', .trans = 'N', .n = 1, .k = 1,
             .alpha = &alpha, .beta = &beta, .a = &a, .lda = 1, .c = &c, .ldc = 1};
  int before = gemms_run;
  assert_int_equal(tb_l3_on_gpu(&x), TB_GPU_NOT_RUN);
  alpha = 1;
  x.op = TB_TRSM, x.side = 'L', x.diag = 'N', x.trans = 'N', x.m = 1;
  assert_int_equal(tb_l3_on_gpu(&x), TB_GPU_NOT_RUN);
  assert_int_equal(gemms_run, before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_routine_matches_the_reference),
    cmocka_unit_test(trsm_and_alpha_zero_stay_on_the_cpu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
