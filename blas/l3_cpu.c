/* SPDX-License-Identifier: Apache-2.0 */
/* The Level-3 routines beside GEMM on the CPU BLAS: the call passed on as the Fortran routine
 * takes it (32- or 64-bit integers, whichever symbol cpu_blas.c picked), or to the built-in
 * reference when the CPU BLAS cannot take it. */
#include <limits.h>

#include "blas/tcjblas_l3.h"

/* gfortran's ABI: everything by reference, then one size_t per CHARACTER argument. One set of
 * prototypes and one call per integer kind; `tb_l3` holds TR's B in c. */
#define TB_L3_CALLS(BITS, INT)                                                                  \
  typedef void (*rk##BITS)(const char *, const char *, const INT *, const INT *, const void *,  \
                           const void *, const INT *, const void *, void *, const INT *,        \
                           size_t, size_t);                                                     \
  typedef void (*r2k##BITS)(const char *, const char *, const INT *, const INT *, const void *, \
                            const void *, const INT *, const void *, const INT *, const void *, \
                            void *, const INT *, size_t, size_t);                               \
  typedef r2k##BITS mm##BITS; /* side and uplo where R2K has uplo and trans */                 \
  typedef void (*tr##BITS)(const char *, const char *, const char *, const char *, const INT *, \
                           const INT *, const void *, const void *, const INT *, void *,        \
                           const INT *, size_t, size_t, size_t, size_t);                        \
  static void call##BITS(tb_fn f, const tb_l3 *x) {                                             \
    INT m = (INT)x->m, n = (INT)x->n, k = (INT)x->k;                                            \
    INT lda = (INT)x->lda, ldb = (INT)x->ldb, ldc = (INT)x->ldc;                                \
    switch (tb_l3_shape(x->op)) {                                                               \
    case TB_RK:                                                                                 \
      ((rk##BITS)f)(&x->uplo, &x->trans, &n, &k, x->alpha, x->a, &lda, x->beta, x->c, &ldc, 1,  \
                    1);                                                                         \
      break;                                                                                    \
    case TB_R2K:                                                                                \
      ((r2k##BITS)f)(&x->uplo, &x->trans, &n, &k, x->alpha, x->a, &lda, x->b, &ldb, x->beta,    \
                     x->c, &ldc, 1, 1);                                                         \
      break;                                                                                    \
    case TB_MM:                                                                                 \
      ((mm##BITS)f)(&x->side, &x->uplo, &m, &n, x->alpha, x->a, &lda, x->b, &ldb, x->beta,      \
                    x->c, &ldc, 1, 1);                                                          \
      break;                                                                                    \
    case TB_TR:                                                                                 \
      ((tr##BITS)f)(&x->side, &x->uplo, &x->trans, &x->diag, &m, &n, x->alpha, x->a, &lda,      \
                    x->c, &ldc, 1, 1, 1, 1);                                                    \
      break;                                                                                    \
    }                                                                                           \
  }

TB_L3_CALLS(32, int)
TB_L3_CALLS(64, int64_t)

static int fits_int(const tb_l3 *x) {
  return x->m <= INT_MAX && x->n <= INT_MAX && x->k <= INT_MAX && x->lda <= INT_MAX &&
         x->ldb <= INT_MAX && x->ldc <= INT_MAX;
}

void tb_cpu_l3(const tb_l3 *x) {
  int ilp64;
  tb_cpu_call call = {.routine = TB_CPU_L3(x->op), .type = x->type, .m = x->m, .n = x->n, .k = x->k, .a = x->a, .b = x->b, .c = x->c};
  tb_fn f = tb_cpu_begin(&call, x->ilp64, fits_int(x), &ilp64);
  if (!f) {
    tb_ref_l3(x);
    return;
  }
  if (ilp64) call64(f, x);
  else call32(f, x);
  tb_cpu_end(&call);
}
