/* SPDX-License-Identifier: Apache-2.0 */
/* The Fortran ABI of the Level-3 routines beside GEMM: ?syrk_ ?syr2k_ ?symm_ ?trmm_ ?trsm_,
 * [cz]herk_ [cz]her2k_ [cz]hemm_ and their 64-bit-integer twins (_64_), generated from
 * TB_L3_ENTRIES, one definition per argument list. Checked as Netlib checks them, reported
 * through xerbla_ (an int INFO for the _64_ entries too: it is at most 12). */
#include "blas/tcjblas.h"
#include "blas/tcjblas_l3.h"

static void f77_l3(tb_l3 *x) {
  int info = tb_l3_check(x);
  if (info) {
    char srname[7];
    tb_l3_srname(x, srname);
    tb_xerbla(srname, info);
    return;
  }
  tb_l3_run(x);
}

#define TB_F77_RK(NAME, TYPE, OP, T, SA, SB, INT, ILP64)                                        \
  TB_EXPORT void NAME(const char *uplo, const char *trans, const INT *n, const INT *k,          \
                      const SA *alpha, const T *a, const INT *lda, const SB *beta, T *c,         \
                      const INT *ldc) {                                                          \
    tb_l3 x = {.op = OP, .type = TYPE, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,        \
               .alpha = alpha, .a = a, .lda = *lda, .beta = beta, .c = c, .ldc = *ldc,           \
               .ilp64 = ILP64};                                                                  \
    f77_l3(&x);                                                                                  \
  }

#define TB_F77_R2K(NAME, TYPE, OP, T, SA, SB, INT, ILP64)                                       \
  TB_EXPORT void NAME(const char *uplo, const char *trans, const INT *n, const INT *k,          \
                      const SA *alpha, const T *a, const INT *lda, const T *b, const INT *ldb,   \
                      const SB *beta, T *c, const INT *ldc) {                                    \
    tb_l3 x = {.op = OP, .type = TYPE, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,        \
               .alpha = alpha, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .beta = beta, .c = c,   \
               .ldc = *ldc, .ilp64 = ILP64};                                                     \
    f77_l3(&x);                                                                                  \
  }

#define TB_F77_MM(NAME, TYPE, OP, T, SA, SB, INT, ILP64)                                        \
  TB_EXPORT void NAME(const char *side, const char *uplo, const INT *m, const INT *n,           \
                      const SA *alpha, const T *a, const INT *lda, const T *b, const INT *ldb,   \
                      const SB *beta, T *c, const INT *ldc) {                                    \
    tb_l3 x = {.op = OP, .type = TYPE, .side = *side, .uplo = *uplo, .m = *m, .n = *n,          \
               .alpha = alpha, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .beta = beta, .c = c,   \
               .ldc = *ldc, .ilp64 = ILP64};                                                     \
    f77_l3(&x);                                                                                  \
  }

/* B, which the routine overwrites, is the call's c. */
#define TB_F77_TR(NAME, TYPE, OP, T, SA, SB, INT, ILP64)                                        \
  TB_EXPORT void NAME(const char *side, const char *uplo, const char *transa, const char *diag, \
                      const INT *m, const INT *n, const SA *alpha, const T *a, const INT *lda,   \
                      T *b, const INT *ldb) {                                                    \
    tb_l3 x = {.op = OP, .type = TYPE, .side = *side, .uplo = *uplo, .trans = *transa,          \
               .diag = *diag, .m = *m, .n = *n, .alpha = alpha, .a = a, .lda = *lda, .c = b,     \
               .ldc = *ldb, .ilp64 = ILP64};                                                     \
    f77_l3(&x);                                                                                  \
  }

#define TB_F77_ENTRY(t, TYPE, name, NAME, SHAPE, T, SA, SB)                                     \
  TB_F77_##SHAPE(t##name##_, TYPE, TB_##NAME, T, SA, SB, int, 0)                                \
  TB_F77_##SHAPE(t##name##_64_, TYPE, TB_##NAME, T, SA, SB, int64_t, 1)

TB_L3_ENTRIES(TB_F77_ENTRY)
