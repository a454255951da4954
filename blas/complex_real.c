/* SPDX-License-Identifier: Apache-2.0 */
/* cgemm and zgemm as one real GEMM, so that tcj's real kernels (DMMA for z, 3xTF32 for c) run
 * them. Column-major, a complex m x n matrix is a real 2m x n one (ld doubled) whose row pairs
 * are an element's real and imaginary parts, and complex multiplication is a 2 x 2 real block:
 *
 *     [Re c]   [Re a  -Im a] [Re b]
 *     [Im c] = [Im a   Re a] [Im b]
 *
 * So with Ahat, the 2m x 2k real matrix of such blocks built from alpha op(A), C's real view is
 * Ahat times op(B)'s real view (2k x n) plus beta C: the 8mnk real flops of the complex product,
 * no more, and op(B) = N and C are read where they lie. This is the 4M method (four real
 * products of the parts) written as one GEMM; its error bound is 4M's, which Netlib's testers
 * check. Ahat is 4 times A in size: the cost is in the transfer, not in the tensor cores.
 * alpha is folded into Ahat; a real beta is the real GEMM's; a beta with an imaginary part is
 * applied on the host after the product (C = P + beta C), where P went to a buffer of its own. */
#include "blas/tcjblas_internal.h"

#include <stdlib.h>

#define TB_COMPLEX_AS_REAL(S, T, SCAL)                                                              \
  /* Element (row, col) of op(X) times s, as (re, im). */                                      \
  static void S##_op_scaled(const T *x, int64_t ld, char t, int64_t row, int64_t col,          \
                            const T *s, T *re, T *im) {                                         \
    const T *v = t == 'N' ? x + 2 * (row + col * ld) : x + 2 * (col + row * ld);               \
    T vr = v[0], vi = t == 'C' ? -v[1] : v[1];                                                  \
    *re = s[0] * vr - s[1] * vi;                                                                \
    *im = s[0] * vi + s[1] * vr;                                                                \
  }                                                                                             \
  static int S##_build(const tb_gemm *g, tb_real_form *f) {                                     \
    static const T one[2] = {1, 0};                                                             \
    const T *alpha = g->alpha, *beta = g->beta;                                                 \
    int64_t m2 = 2 * g->m, k2 = 2 * g->k;                                                       \
    T *ahat = malloc((size_t)m2 * (size_t)k2 * sizeof(T));                                      \
    if (!ahat) return -1;                                                                       \
    for (int64_t l = 0; l < g->k; l++)                                                          \
      for (int64_t i = 0; i < g->m; i++) {                                                      \
        T re, im;                                                                               \
        S##_op_scaled(g->a, g->lda, g->ta, i, l, alpha, &re, &im);                              \
        T *col0 = ahat + 2 * l * m2, *col1 = col0 + m2;                                         \
        col0[2 * i] = re, col0[2 * i + 1] = im;                                                 \
        col1[2 * i] = -im, col1[2 * i + 1] = re;                                                \
      }                                                                                         \
    f->owned[0] = ahat;                                                                         \
    const void *b = g->b;                                                                       \
    int64_t ldb = 2 * g->ldb;                                                                   \
    if (g->tb != 'N') { /* op(B)'s real view is no view of B: pack it, 2k x n */               \
      T *bp = malloc((size_t)k2 * (size_t)g->n * sizeof(T));                                    \
      if (!bp) return -1;                                                                       \
      for (int64_t j = 0; j < g->n; j++)                                                        \
        for (int64_t l = 0; l < g->k; l++)                                                      \
          S##_op_scaled(g->b, g->ldb, g->tb, l, j, one, bp + 2 * l + j * k2, bp + 2 * l + 1 + j * k2); \
      f->owned[1] = bp;                                                                         \
      b = bp;                                                                                   \
      ldb = k2;                                                                                 \
    }                                                                                           \
    f->complex_beta = beta[1] != 0;                                                             \
    void *c = g->c;                                                                             \
    int64_t ldc = 2 * g->ldc;                                                                   \
    if (f->complex_beta) {                                                                      \
      c = f->owned[2] = malloc((size_t)m2 * (size_t)g->n * sizeof(T));                          \
      if (!c) return -1;                                                                        \
      ldc = m2;                                                                                 \
    }                                                                                           \
    T *scal = f->scalars.SCAL;                                                                  \
    scal[0] = 1;                                                                                \
    scal[1] = f->complex_beta ? 0 : beta[0];                                                    \
    f->real = (tb_gemm){.type = g->type == TB_C ? TB_S : TB_D, .ta = 'N', .tb = 'N',            \
                        .m = m2, .n = g->n, .k = k2, .alpha = &scal[0], .a = ahat, .lda = m2,   \
                        .b = b, .ldb = ldb, .beta = &scal[1], .c = c, .ldc = ldc,              \
                        .ilp64 = g->ilp64};                                                     \
    return 0;                                                                                   \
  }                                                                                             \
  /* C = P + beta C, P in the buffer (column-major, ld 2m). */                                  \
  static void S##_finish(const tb_gemm *g, const tb_real_form *f) {                             \
    const T *beta = g->beta, *p = f->owned[2];                                                  \
    T *c = g->c;                                                                                \
    for (int64_t j = 0; j < g->n; j++)                                                          \
      for (int64_t i = 0; i < g->m; i++) {                                                      \
        T *cij = c + 2 * (i + j * g->ldc);                                                      \
        const T *pij = p + 2 * i + j * 2 * g->m;                                                \
        T re = pij[0] + beta[0] * cij[0] - beta[1] * cij[1];                                    \
        T im = pij[1] + beta[0] * cij[1] + beta[1] * cij[0];                                    \
        cij[0] = re, cij[1] = im;                                                               \
      }                                                                                         \
  }

TB_COMPLEX_AS_REAL(c, float, s)
TB_COMPLEX_AS_REAL(z, double, d)

int tb_complex_as_real(const tb_gemm *g, tb_real_form *f) {
  *f = (tb_real_form){0};
  int r = g->type == TB_C ? c_build(g, f) : z_build(g, f);
  if (r) tb_real_form_free(f);
  return r;
}

void tb_complex_from_real(const tb_gemm *g, const tb_real_form *f) {
  if (!f->complex_beta) return; /* the real GEMM wrote C itself */
  if (g->type == TB_C) c_finish(g, f);
  else z_finish(g, f);
}

void tb_real_form_free(tb_real_form *f) {
  for (int i = 0; i < 3; i++) free(f->owned[i]);
  *f = (tb_real_form){0};
}
