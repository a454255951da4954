/* SPDX-License-Identifier: Apache-2.0 */
/* The Fortran ABI: sgemm_, dgemm_, cgemm_, zgemm_ and their 64-bit-integer twins (_64_).
 * Arguments by reference, column-major; checked as Netlib checks them, reported through
 * xerbla_ (an int INFO for the _64_ entries too: it is at most 13). */
#include "blas/tcjblas.h"
#include "blas/tcjblas_internal.h"

static void f77_gemm(tb_gemm *g, const char *srname) {
  int info = tb_gemm_check(g);
  if (info) {
    tb_xerbla(srname, info);
    return;
  }
  tb_gemm_run(g);
}

/* T: the element as the prototype spells it (void for complex); INT: the integer kind. */
#define TB_F77_GEMM(NAME, SRNAME, TYPE, T, INT, ILP64)                                           \
  TB_EXPORT void NAME(const char *transa, const char *transb, const INT *m, const INT *n,         \
                      const INT *k, const T *alpha, const T *a, const INT *lda, const T *b,       \
                      const INT *ldb, const T *beta, T *c, const INT *ldc) {                      \
    tb_gemm g = {.type = TYPE, .ta = *transa, .tb = *transb, .m = *m, .n = *n, .k = *k,          \
                 .alpha = alpha, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .beta = beta,          \
                 .c = c, .ldc = *ldc, .ilp64 = ILP64};                                            \
    f77_gemm(&g, SRNAME);                                                                         \
  }

/* Netlib passes six-character names ('SGEMM '); xerbla_ gets the length with them. */
TB_F77_GEMM(sgemm_, "SGEMM ", TB_S, float, int, 0)
TB_F77_GEMM(dgemm_, "DGEMM ", TB_D, double, int, 0)
TB_F77_GEMM(cgemm_, "CGEMM ", TB_C, void, int, 0)
TB_F77_GEMM(zgemm_, "ZGEMM ", TB_Z, void, int, 0)
TB_F77_GEMM(sgemm_64_, "SGEMM ", TB_S, float, int64_t, 1)
TB_F77_GEMM(dgemm_64_, "DGEMM ", TB_D, double, int64_t, 1)
TB_F77_GEMM(cgemm_64_, "CGEMM ", TB_C, void, int64_t, 1)
TB_F77_GEMM(zgemm_64_, "ZGEMM ", TB_Z, void, int64_t, 1)
