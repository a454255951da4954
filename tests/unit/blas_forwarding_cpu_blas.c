/* SPDX-License-Identifier: Apache-2.0 */
/* A CPU BLAS that is only a dispatcher, as FlexiBLAS is (or a libblas.so.3 that points to it):
 * its dgemm_ and dsyrk_ forward to whatever the process resolves those names to first, which in
 * the test that loads it is libtcjblas itself. Given to libtcjblas as its CPU BLAS, every call
 * it passes on comes straight back (test_blas_cpu_loop). It also looks like FlexiBLAS
 * (flexiblas_avail), which libtcjblas refuses as its CPU BLAS once FlexiBLAS has loaded it as a
 * backend (test_blas_cpu_flexiblas). */
#include <dlfcn.h>
#include <stddef.h>

#define EXPORT __attribute__((visibility("default")))

typedef void gemm_fn(const char *, const char *, const int *, const int *, const int *, const double *,
                     const double *, const int *, const double *, const int *, const double *, double *,
                     const int *, size_t, size_t);
typedef void syrk_fn(const char *, const char *, const int *, const int *, const double *, const double *,
                     const int *, const double *, double *, const int *, size_t, size_t);

static int forwarded;
EXPORT int forwarding_blas_calls(void) { return forwarded; }
/* What FlexiBLAS's libflexiblas exports, and libtcjblas looks for (test_blas_cpu_flexiblas). */
EXPORT int flexiblas_avail(void) { return 1; }

EXPORT void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
                   const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
                   const int *ldc, size_t la, size_t lb) {
  forwarded++;
  gemm_fn *f;
  *(void **)&f = dlsym(RTLD_DEFAULT, "dgemm_");
  f(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);
}

EXPORT void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
                   const double *a, const int *lda, const double *beta, double *c, const int *ldc, size_t lu,
                   size_t lt) {
  forwarded++;
  syrk_fn *f;
  *(void **)&f = dlsym(RTLD_DEFAULT, "dsyrk_");
  f(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);
}
