/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas: BLAS Level-3 over tcj. The library is used through the standard BLAS ABI (link it,
 * or LD_PRELOAD it ahead of a CPU BLAS); this header declares that ABI for C callers: the
 * Fortran entries (column-major, arguments by reference), their 64-bit-integer twins, and CBLAS:
 * xGEMM, then xSYRK, xHERK, xSYR2K, xHER2K, xSYMM, xHEMM, xTRMM and xTRSM. */
#ifndef TCJBLAS_H
#define TCJBLAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fortran ABI. gfortran also passes the lengths of TRANSA and TRANSB as two size_t after the
 * last argument; libtcjblas reads neither, so callers may pass them or not. Complex scalars and
 * arrays hold (real, imaginary) pairs. */
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);
void cgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
            const void *beta, void *c, const int *ldc);
void zgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
            const void *beta, void *c, const int *ldc);

/* The same with 64-bit integers, named as OpenBLAS (SYMBOLSUFFIX=64_) and Netlib's
 * BUILD_INDEX64_EXT_API name them. */
void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
               const int64_t *k, const float *alpha, const float *a, const int64_t *lda,
               const float *b, const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
void dgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
               const int64_t *k, const double *alpha, const double *a, const int64_t *lda,
               const double *b, const int64_t *ldb, const double *beta, double *c,
               const int64_t *ldc);
void cgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
               const int64_t *k, const void *alpha, const void *a, const int64_t *lda,
               const void *b, const int64_t *ldb, const void *beta, void *c, const int64_t *ldc);
void zgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
               const int64_t *k, const void *alpha, const void *a, const int64_t *lda,
               const void *b, const int64_t *ldb, const void *beta, void *c, const int64_t *ldc);

/* The other Level-3 routines, Fortran ABI, declared one argument list at a time (each line
 * names the 32-bit entry and its _64_ twin). gfortran passes one size_t length per CHARACTER
 * argument after the last one; libtcjblas reads none. herk's alpha and beta and her2k's beta
 * are real. trmm and trsm overwrite B. */
#define TCJBLAS_F77_RK(NAME, NAME64, T, S)                                                      \
  TCJBLAS_F77_RK_(NAME, T, S, int) TCJBLAS_F77_RK_(NAME64, T, S, int64_t)
#define TCJBLAS_F77_RK_(NAME, T, S, INT)                                                        \
  void NAME(const char *uplo, const char *trans, const INT *n, const INT *k, const S *alpha,    \
            const T *a, const INT *lda, const S *beta, T *c, const INT *ldc);
#define TCJBLAS_F77_R2K(NAME, NAME64, T, SA, SB)                                                \
  TCJBLAS_F77_R2K_(NAME, T, SA, SB, int) TCJBLAS_F77_R2K_(NAME64, T, SA, SB, int64_t)
#define TCJBLAS_F77_R2K_(NAME, T, SA, SB, INT)                                                  \
  void NAME(const char *uplo, const char *trans, const INT *n, const INT *k, const SA *alpha,   \
            const T *a, const INT *lda, const T *b, const INT *ldb, const SB *beta, T *c,       \
            const INT *ldc);
#define TCJBLAS_F77_MM(NAME, NAME64, T)                                                         \
  TCJBLAS_F77_MM_(NAME, T, int) TCJBLAS_F77_MM_(NAME64, T, int64_t)
#define TCJBLAS_F77_MM_(NAME, T, INT)                                                           \
  void NAME(const char *side, const char *uplo, const INT *m, const INT *n, const T *alpha,     \
            const T *a, const INT *lda, const T *b, const INT *ldb, const T *beta, T *c,        \
            const INT *ldc);
#define TCJBLAS_F77_TR(NAME, NAME64, T)                                                         \
  TCJBLAS_F77_TR_(NAME, T, int) TCJBLAS_F77_TR_(NAME64, T, int64_t)
#define TCJBLAS_F77_TR_(NAME, T, INT)                                                           \
  void NAME(const char *side, const char *uplo, const char *transa, const char *diag,           \
            const INT *m, const INT *n, const T *alpha, const T *a, const INT *lda, T *b,       \
            const INT *ldb);

TCJBLAS_F77_RK(ssyrk_, ssyrk_64_, float, float)
TCJBLAS_F77_RK(dsyrk_, dsyrk_64_, double, double)
TCJBLAS_F77_RK(csyrk_, csyrk_64_, void, void)
TCJBLAS_F77_RK(zsyrk_, zsyrk_64_, void, void)
TCJBLAS_F77_RK(cherk_, cherk_64_, void, float)
TCJBLAS_F77_RK(zherk_, zherk_64_, void, double)
TCJBLAS_F77_R2K(ssyr2k_, ssyr2k_64_, float, float, float)
TCJBLAS_F77_R2K(dsyr2k_, dsyr2k_64_, double, double, double)
TCJBLAS_F77_R2K(csyr2k_, csyr2k_64_, void, void, void)
TCJBLAS_F77_R2K(zsyr2k_, zsyr2k_64_, void, void, void)
TCJBLAS_F77_R2K(cher2k_, cher2k_64_, void, void, float)
TCJBLAS_F77_R2K(zher2k_, zher2k_64_, void, void, double)
TCJBLAS_F77_MM(ssymm_, ssymm_64_, float)
TCJBLAS_F77_MM(dsymm_, dsymm_64_, double)
TCJBLAS_F77_MM(csymm_, csymm_64_, void)
TCJBLAS_F77_MM(zsymm_, zsymm_64_, void)
TCJBLAS_F77_MM(chemm_, chemm_64_, void)
TCJBLAS_F77_MM(zhemm_, zhemm_64_, void)
TCJBLAS_F77_TR(strmm_, strmm_64_, float)
TCJBLAS_F77_TR(dtrmm_, dtrmm_64_, double)
TCJBLAS_F77_TR(ctrmm_, ctrmm_64_, void)
TCJBLAS_F77_TR(ztrmm_, ztrmm_64_, void)
TCJBLAS_F77_TR(strsm_, strsm_64_, float)
TCJBLAS_F77_TR(dtrsm_, dtrsm_64_, double)
TCJBLAS_F77_TR(ctrsm_, ctrsm_64_, void)
TCJBLAS_F77_TR(ztrsm_, ztrsm_64_, void)

/* Illegal arguments are reported as Netlib does, through handlers a program may replace by
 * defining its own (libtcjblas's are weak, and it looks them up in the program first). The
 * defaults print and return; Netlib's stop the program. */
void xerbla_(const char *srname, const int *info, size_t srname_len);
void cblas_xerbla(int p, const char *rout, const char *form, ...);

/* The other Level-3 routines, CBLAS, one argument list at a time: SA and SB are alpha and beta
 * as passed (real ones by value, complex ones by address). */
#define TCJBLAS_CBLAS_RK(NAME, T, SA, SB, INT)                                                  \
  void NAME(CBLAS_LAYOUT layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, INT n, INT k,          \
            SA alpha, const T *a, INT lda, SB beta, T *c, INT ldc);
#define TCJBLAS_CBLAS_R2K(NAME, T, SA, SB, INT)                                                 \
  void NAME(CBLAS_LAYOUT layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, INT n, INT k,          \
            SA alpha, const T *a, INT lda, const T *b, INT ldb, SB beta, T *c, INT ldc);
#define TCJBLAS_CBLAS_MM(NAME, T, S, INT)                                                       \
  void NAME(CBLAS_LAYOUT layout, CBLAS_SIDE side, CBLAS_UPLO uplo, INT m, INT n, S alpha,       \
            const T *a, INT lda, const T *b, INT ldb, S beta, T *c, INT ldc);
#define TCJBLAS_CBLAS_TR(NAME, T, S, INT)                                                       \
  void NAME(CBLAS_LAYOUT layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa,      \
            CBLAS_DIAG diag, INT m, INT n, S alpha, const T *a, INT lda, T *b, INT ldb);
/* Each routine with its integer kind INT: the 32-bit list (int) and the _64 one (int64_t). */
#define TCJBLAS_CBLAS_L3(INT, S)                                                                \
  TCJBLAS_CBLAS_RK(cblas_ssyrk##S, float, float, float, INT)                                    \
  TCJBLAS_CBLAS_RK(cblas_dsyrk##S, double, double, double, INT)                                 \
  TCJBLAS_CBLAS_RK(cblas_csyrk##S, void, const void *, const void *, INT)                       \
  TCJBLAS_CBLAS_RK(cblas_zsyrk##S, void, const void *, const void *, INT)                       \
  TCJBLAS_CBLAS_RK(cblas_cherk##S, void, float, float, INT)                                     \
  TCJBLAS_CBLAS_RK(cblas_zherk##S, void, double, double, INT)                                   \
  TCJBLAS_CBLAS_R2K(cblas_ssyr2k##S, float, float, float, INT)                                  \
  TCJBLAS_CBLAS_R2K(cblas_dsyr2k##S, double, double, double, INT)                               \
  TCJBLAS_CBLAS_R2K(cblas_csyr2k##S, void, const void *, const void *, INT)                     \
  TCJBLAS_CBLAS_R2K(cblas_zsyr2k##S, void, const void *, const void *, INT)                     \
  TCJBLAS_CBLAS_R2K(cblas_cher2k##S, void, const void *, float, INT)                            \
  TCJBLAS_CBLAS_R2K(cblas_zher2k##S, void, const void *, double, INT)                           \
  TCJBLAS_CBLAS_MM(cblas_ssymm##S, float, float, INT)                                           \
  TCJBLAS_CBLAS_MM(cblas_dsymm##S, double, double, INT)                                         \
  TCJBLAS_CBLAS_MM(cblas_csymm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_MM(cblas_zsymm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_MM(cblas_chemm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_MM(cblas_zhemm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_TR(cblas_strmm##S, float, float, INT)                                           \
  TCJBLAS_CBLAS_TR(cblas_dtrmm##S, double, double, INT)                                         \
  TCJBLAS_CBLAS_TR(cblas_ctrmm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_TR(cblas_ztrmm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_TR(cblas_strsm##S, float, float, INT)                                           \
  TCJBLAS_CBLAS_TR(cblas_dtrsm##S, double, double, INT)                                         \
  TCJBLAS_CBLAS_TR(cblas_ctrsm##S, void, const void *, INT)                                     \
  TCJBLAS_CBLAS_TR(cblas_ztrsm##S, void, const void *, INT)

/* CBLAS, unless a cblas.h came first (its declarations are the same ABI). */
#ifndef CBLAS_H
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;
#define CBLAS_ORDER CBLAS_LAYOUT

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta,
                 float *c, int ldc);
void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, double alpha, const double *a, int lda, const double *b, int ldb,
                 double beta, double *c, int ldc);
void cblas_cgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                 const void *beta, void *c, int ldc);
void cblas_zgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                 const void *beta, void *c, int ldc);
TCJBLAS_CBLAS_L3(int, )
#endif

/* 64-bit-integer CBLAS, as Netlib's BUILD_INDEX64_EXT_API names it. */
void cblas_sgemm_64(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int64_t m,
                    int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                    int64_t ldb, float beta, float *c, int64_t ldc);
void cblas_dgemm_64(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int64_t m,
                    int64_t n, int64_t k, double alpha, const double *a, int64_t lda,
                    const double *b, int64_t ldb, double beta, double *c, int64_t ldc);
void cblas_cgemm_64(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int64_t m,
                    int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda,
                    const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc);
void cblas_zgemm_64(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int64_t m,
                    int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda,
                    const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc);
TCJBLAS_CBLAS_L3(int64_t, _64)

#undef TCJBLAS_F77_RK
#undef TCJBLAS_F77_RK_
#undef TCJBLAS_F77_R2K
#undef TCJBLAS_F77_R2K_
#undef TCJBLAS_F77_MM
#undef TCJBLAS_F77_MM_
#undef TCJBLAS_F77_TR
#undef TCJBLAS_F77_TR_
#undef TCJBLAS_CBLAS_RK
#undef TCJBLAS_CBLAS_R2K
#undef TCJBLAS_CBLAS_MM
#undef TCJBLAS_CBLAS_TR
#undef TCJBLAS_CBLAS_L3

#ifdef __cplusplus
}
#endif
#endif /* TCJBLAS_H */
