/* SPDX-License-Identifier: Apache-2.0 */
/* The CBLAS ABI: cblas_[sdcz]gemm and their _64 twins. Row-major calls become the column-major
 * call of the transposed problem (C^T = op(B)^T op(A)^T: A and B, M and N, LDA and LDB swap
 * places), as Netlib's cblas_dgemm.c does; errors are reported as it reports them. */
#include "blas/tcjblas.h"
#include "blas/tcjblas_internal.h"

static char trans_of(CBLAS_TRANSPOSE t) {
  switch (t) {
  case CblasNoTrans: return 'N';
  case CblasTrans: return 'T';
  case CblasConjTrans: return 'C';
  }
  return 0;
}

/* g holds the caller's arguments as given. Netlib's positions: layout 1, TransA 2, TransB 3; a
 * bad size or leading dimension gets the Fortran INFO of the column-major call plus one (the
 * layout argument), with RowMajorStrg telling cblas_xerbla to swap M/N and LDA/LDB back. */
static void cblas_gemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb,
                       tb_gemm g, const char *rout) {
  if (layout != CblasColMajor && layout != CblasRowMajor) {
    tb_cblas_xerbla(1, 0, rout, "Illegal layout setting, %d\n", (int)layout);
    return;
  }
  int row = layout == CblasRowMajor;
  g.ta = trans_of(transa);
  g.tb = trans_of(transb);
  if (!g.ta) {
    tb_cblas_xerbla(2, row, rout, "Illegal TransA setting, %d\n", (int)transa);
    return;
  }
  if (!g.tb) {
    tb_cblas_xerbla(3, row, rout, "Illegal TransB setting, %d\n", (int)transb);
    return;
  }
  if (row) {
    tb_gemm t = g;
    g.ta = t.tb, g.tb = t.ta;
    g.m = t.n, g.n = t.m;
    g.a = t.b, g.lda = t.ldb;
    g.b = t.a, g.ldb = t.lda;
  }
  int info = tb_gemm_check(&g);
  if (info) {
    tb_cblas_xerbla(info + 1, row, rout, "", 0);
    return;
  }
  tb_gemm_run(&g);
}

/* Real scalars come by value, complex ones by address. */
#define TB_CBLAS_GEMM(NAME, ROUT, TYPE, T, S, ADDR, INT, ILP64)                                     \
  TB_EXPORT void NAME(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, INT m, \
                      INT n, INT k, S alpha, const T *a, INT lda, const T *b, INT ldb, S beta,    \
                      T *c, INT ldc) {                                                            \
    tb_gemm g = {.type = TYPE, .m = m, .n = n, .k = k, .alpha = ADDR alpha, .a = a, .lda = lda,  \
                 .b = b, .ldb = ldb, .beta = ADDR beta, .c = c, .ldc = ldc, .ilp64 = ILP64};      \
    cblas_gemm(layout, transa, transb, g, ROUT);                                                  \
  }

TB_CBLAS_GEMM(cblas_sgemm, "cblas_sgemm", TB_S, float, float, &, int, 0)
TB_CBLAS_GEMM(cblas_dgemm, "cblas_dgemm", TB_D, double, double, &, int, 0)
TB_CBLAS_GEMM(cblas_cgemm, "cblas_cgemm", TB_C, void, const void *, , int, 0)
TB_CBLAS_GEMM(cblas_zgemm, "cblas_zgemm", TB_Z, void, const void *, , int, 0)
/* Netlib's _64 API reports under the same routine names, through the same cblas_xerbla (the
 * positions fit an int). */
TB_CBLAS_GEMM(cblas_sgemm_64, "cblas_sgemm", TB_S, float, float, &, int64_t, 1)
TB_CBLAS_GEMM(cblas_dgemm_64, "cblas_dgemm", TB_D, double, double, &, int64_t, 1)
TB_CBLAS_GEMM(cblas_cgemm_64, "cblas_cgemm", TB_C, void, const void *, , int64_t, 1)
TB_CBLAS_GEMM(cblas_zgemm_64, "cblas_zgemm", TB_Z, void, const void *, , int64_t, 1)
