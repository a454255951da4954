/* SPDX-License-Identifier: Apache-2.0 */
/* The built-in host kernels: C = beta C (the alpha == 0 and k == 0 cases, done without a BLAS)
 * and a plain reference xGEMM, the last resort when no CPU BLAS is found. Correct and simple,
 * not fast: inner loops run along contiguous memory, nothing more. */
#include "blas/tcjblas_internal.h"

#include <stdlib.h>

typedef struct { float re, im; } tb_cf;
typedef struct { double re, im; } tb_cd;

/* One set of kernels per real type: T the element. beta == 0 writes 0 without reading C (a NaN
 * there must not survive), as sgemm.f does. */
#define TB_REAL_KERNELS(S, T)                                                                   \
  static void S##_scale(const tb_gemm *g) {                                                     \
    T beta = *(const T *)g->beta, *c = g->c;                                                    \
    for (int64_t j = 0; j < g->n; j++)                                                          \
      for (int64_t i = 0; i < g->m; i++)                                                        \
        c[i + j * g->ldc] = beta == 0 ? 0 : beta * c[i + j * g->ldc];                           \
  }                                                                                             \
  static void S##_gemm(const tb_gemm *g) {                                                      \
    const T *a = g->a, *b = g->b;                                                               \
    T alpha = *(const T *)g->alpha, beta = *(const T *)g->beta, *c = g->c;                      \
    /* op(A) = A: sum columns of A into a column accumulator (contiguous); else dot products   \
       along the columns of A, which are the rows of op(A). */                                  \
    T *acc = g->ta == 'N' ? malloc((size_t)g->m * sizeof *acc) : NULL;                          \
    for (int64_t j = 0; j < g->n; j++) {                                                        \
      T *cj = c + j * g->ldc;                                                                   \
      if (acc) {                                                                                \
        for (int64_t i = 0; i < g->m; i++) acc[i] = 0;                                          \
        for (int64_t l = 0; l < g->k; l++) {                                                    \
          T blj = g->tb == 'N' ? b[l + j * g->ldb] : b[j + l * g->ldb];                         \
          const T *al = a + l * g->lda;                                                         \
          for (int64_t i = 0; i < g->m; i++) acc[i] += al[i] * blj;                             \
        }                                                                                       \
      }                                                                                         \
      for (int64_t i = 0; i < g->m; i++) {                                                      \
        T s = 0;                                                                                \
        if (acc) {                                                                              \
          s = acc[i];                                                                           \
        } else {                                                                                \
          for (int64_t l = 0; l < g->k; l++)                                                    \
            s += (g->ta == 'N' ? a[i + l * g->lda] : a[l + i * g->lda]) *                       \
                 (g->tb == 'N' ? b[l + j * g->ldb] : b[j + l * g->ldb]);                        \
        }                                                                                       \
        cj[i] = beta == 0 ? alpha * s : alpha * s + beta * cj[i];                               \
      }                                                                                         \
    }                                                                                           \
    free(acc);                                                                                  \
  }

TB_REAL_KERNELS(s, float)
TB_REAL_KERNELS(d, double)

/* Complex: CT the element, (re, im) pairs. 'C' conjugates the operand it applies to. */
#define TB_CPLX_KERNELS(S, CT)                                                                  \
  static CT S##_mul(CT x, CT y) { return (CT){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re}; } \
  static CT S##_op(const CT *p, int64_t ld, char t, int64_t row, int64_t col) {                \
    CT v = t == 'N' ? p[row + col * ld] : p[col + row * ld];                                    \
    if (t == 'C') v.im = -v.im;                                                                 \
    return v;                                                                                   \
  }                                                                                             \
  static void S##_scale(const tb_gemm *g) {                                                     \
    CT beta = *(const CT *)g->beta, *c = g->c;                                                  \
    int zero = beta.re == 0 && beta.im == 0;                                                    \
    for (int64_t j = 0; j < g->n; j++)                                                          \
      for (int64_t i = 0; i < g->m; i++) {                                                      \
        CT *cij = c + i + j * g->ldc;                                                           \
        *cij = zero ? (CT){0, 0} : S##_mul(beta, *cij);                                         \
      }                                                                                         \
  }                                                                                             \
  static void S##_gemm(const tb_gemm *g) {                                                      \
    const CT *a = g->a, *b = g->b;                                                              \
    CT alpha = *(const CT *)g->alpha, beta = *(const CT *)g->beta, *c = g->c;                   \
    int beta_zero = beta.re == 0 && beta.im == 0;                                               \
    CT *acc = g->ta == 'N' ? malloc((size_t)g->m * sizeof *acc) : NULL;                         \
    for (int64_t j = 0; j < g->n; j++) {                                                        \
      CT *cj = c + j * g->ldc;                                                                  \
      if (acc) {                                                                                \
        for (int64_t i = 0; i < g->m; i++) acc[i] = (CT){0, 0};                                 \
        for (int64_t l = 0; l < g->k; l++) {                                                    \
          CT blj = S##_op(b, g->ldb, g->tb, l, j);                                              \
          const CT *al = a + l * g->lda;                                                        \
          for (int64_t i = 0; i < g->m; i++) {                                                  \
            CT p = S##_mul(al[i], blj);                                                         \
            acc[i].re += p.re;                                                                  \
            acc[i].im += p.im;                                                                  \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
      for (int64_t i = 0; i < g->m; i++) {                                                      \
        CT s = {0, 0};                                                                          \
        if (acc) {                                                                              \
          s = acc[i];                                                                           \
        } else {                                                                                \
          for (int64_t l = 0; l < g->k; l++) {                                                  \
            CT p = S##_mul(S##_op(a, g->lda, g->ta, i, l), S##_op(b, g->ldb, g->tb, l, j));     \
            s.re += p.re;                                                                       \
            s.im += p.im;                                                                       \
          }                                                                                     \
        }                                                                                       \
        CT v = S##_mul(alpha, s);                                                               \
        if (!beta_zero) {                                                                       \
          CT bc = S##_mul(beta, cj[i]);                                                         \
          v.re += bc.re;                                                                        \
          v.im += bc.im;                                                                        \
        }                                                                                       \
        cj[i] = v;                                                                              \
      }                                                                                         \
    }                                                                                           \
    free(acc);                                                                                  \
  }

TB_CPLX_KERNELS(c, tb_cf)
TB_CPLX_KERNELS(z, tb_cd)

void tb_host_scale_c(const tb_gemm *g) {
  switch (g->type) {
  case TB_S: s_scale(g); break;
  case TB_D: d_scale(g); break;
  case TB_C: c_scale(g); break;
  case TB_Z: z_scale(g); break;
  }
}

void tb_ref_gemm(const tb_gemm *g) {
  switch (g->type) {
  case TB_S: s_gemm(g); break;
  case TB_D: d_gemm(g); break;
  case TB_C: c_gemm(g); break;
  case TB_Z: z_gemm(g); break;
  }
}
