/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas: BLAS Level-3 over tcj. The library is used through the standard BLAS ABI (link it,
 * or LD_PRELOAD it ahead of a CPU BLAS); this header declares that ABI for C callers: the
 * Fortran entries (column-major, arguments by reference), their 64-bit-integer twins, and CBLAS. */
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

/* Illegal arguments are reported as Netlib does, through handlers a program may replace by
 * defining its own (libtcjblas's are weak, and it looks them up in the program first). The
 * defaults print and return; Netlib's stop the program. */
void xerbla_(const char *srname, const int *info, size_t srname_len);
void cblas_xerbla(int p, const char *rout, const char *form, ...);

/* CBLAS, unless a cblas.h came first (its declarations are the same ABI). */
#ifndef CBLAS_H
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
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

#ifdef __cplusplus
}
#endif
#endif /* TCJBLAS_H */
