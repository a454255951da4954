/* SPDX-License-Identifier: Apache-2.0 */
/* tests/flexiblas/run_backend.sh's program, linked against libflexiblas (not libtcjblas): calls
 * dgemm_, cblas_dgemm, zgemm_, dsyrk_, dtrsm_ (Level 3, which libtcjblas provides: 5 calls) and
 * daxpy_, dgemv_ (Level 1 and 2, which it does not: FlexiBLAS's fallback serves them) and
 * compares each result with a naive loop. One line per routine; exit status 1 if any differs.
 * -DBLAS_ILP64: 64-bit integers, for a FlexiBLAS built with -DINTEGER8=ON (which binds a
 * backend's plain names, dgemm_ ..., with 64-bit integers: not libtcjblas's, which take 32). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef BLAS_ILP64
typedef int64_t blas_int;
#else
typedef int blas_int;
#endif
typedef double complex zc;

/* gfortran's ABI: everything by reference, then the CHARACTER lengths. */
void dgemm_(const char *, const char *, const blas_int *, const blas_int *, const blas_int *,
            const double *, const double *, const blas_int *, const double *, const blas_int *,
            const double *, double *, const blas_int *, size_t, size_t);
void zgemm_(const char *, const char *, const blas_int *, const blas_int *, const blas_int *,
            const zc *, const zc *, const blas_int *, const zc *, const blas_int *, const zc *,
            zc *, const blas_int *, size_t, size_t);
void dsyrk_(const char *, const char *, const blas_int *, const blas_int *, const double *,
            const double *, const blas_int *, const double *, double *, const blas_int *, size_t,
            size_t);
void dtrsm_(const char *, const char *, const char *, const char *, const blas_int *,
            const blas_int *, const double *, const double *, const blas_int *, double *,
            const blas_int *, size_t, size_t, size_t, size_t);
void daxpy_(const blas_int *, const double *, const double *, const blas_int *, double *,
            const blas_int *);
void dgemv_(const char *, const blas_int *, const blas_int *, const double *, const double *,
            const blas_int *, const double *, const blas_int *, const double *, double *,
            const blas_int *, size_t);
/* CBLAS with its enumerations as ints: 102 column-major, 111 no transpose, 112 transpose. */
void cblas_dgemm(int, int, int, blas_int, blas_int, blas_int, double, const double *, blas_int,
                 const double *, blas_int, double, double *, blas_int);

static int failures;

static void check(const char *name, const double *got, const double *want, size_t n) {
  double err = 0, scale = 1;
  for (size_t i = 0; i < n; i++) {
    err = fmax(err, fabs(got[i] - want[i]));
    scale = fmax(scale, fabs(want[i]));
  }
  int ok = err <= 1e-12 * scale;
  printf("%-12s %s (max |error| %.3g)\n", name, ok ? "ok" : "WRONG", err);
  failures += !ok;
}

static double *fill(size_t n, unsigned seed) {
  double *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = (double)((seed + 7 * i) % 19) / 8 - 1.1;
  return x;
}

static double *copy(const double *x, size_t n) {
  double *y = malloc(n * sizeof *y);
  for (size_t i = 0; i < n; i++) y[i] = x[i];
  return y;
}

int main(void) {
  enum { M = 23, N = 17, K = 11 };
  const blas_int m = M, n = N, k = K, one = 1;
  const double alpha = 1.5, beta = -0.5;

  { /* dgemm_: C = alpha A^T B + beta C, A K x M, B K x N */
    double *a = fill(K * M, 1), *b = fill(K * N, 2), *c = fill(M * N, 3), *r = copy(c, M * N);
    dgemm_("T", "N", &m, &n, &k, &alpha, a, &k, b, &k, &beta, c, &m, 1, 1);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++) {
        double s = 0;
        for (int p = 0; p < K; p++) s += a[p + i * K] * b[p + j * K];
        r[i + j * M] = alpha * s + beta * r[i + j * M];
      }
    check("dgemm_", c, r, M * N);
    /* cblas_dgemm, column-major: C = alpha A B^T + beta C, A M x K, B N x K */
    double *a2 = fill(M * K, 4), *b2 = fill(N * K, 5);
    for (int i = 0; i < M * N; i++) r[i] = c[i];
    cblas_dgemm(102, 111, 112, m, n, k, alpha, a2, m, b2, n, beta, c, m);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++) {
        double s = 0;
        for (int p = 0; p < K; p++) s += a2[i + p * M] * b2[j + p * N];
        r[i + j * M] = alpha * s + beta * r[i + j * M];
      }
    check("cblas_dgemm", c, r, M * N);
    free(a), free(b), free(c), free(r), free(a2), free(b2);
  }
  { /* zgemm_: C = alpha A^H B + beta C */
    const zc za = 0.5 - 1.25 * I, zb = 0.75 + 0.5 * I;
    zc *a = malloc(K * M * sizeof *a), *b = malloc(K * N * sizeof *b);
    zc *c = malloc(M * N * sizeof *c), *r = malloc(M * N * sizeof *r);
    for (int i = 0; i < K * M; i++) a[i] = (i % 7) / 3.0 - 1 + I * ((i % 5) / 4.0 - 0.5);
    for (int i = 0; i < K * N; i++) b[i] = (i % 3) / 2.0 - 0.25 + I * ((i % 11) / 5.0 - 1);
    for (int i = 0; i < M * N; i++) r[i] = c[i] = (i % 13) / 6.0 - 1 + I * ((i % 4) / 3.0);
    zgemm_("C", "N", &m, &n, &k, &za, a, &k, b, &k, &zb, c, &m, 1, 1);
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++) {
        zc s = 0;
        for (int p = 0; p < K; p++) s += conj(a[p + i * K]) * b[p + j * K];
        r[i + j * M] = za * s + zb * r[i + j * M];
      }
    check("zgemm_", (double *)c, (double *)r, 2 * M * N);
    free(a), free(b), free(c), free(r);
  }
  { /* dsyrk_: lower triangle of C = alpha A A^T + beta C, A N x K */
    double *a = fill(N * K, 6), *c = fill(N * N, 7), *r = copy(c, N * N);
    dsyrk_("L", "N", &n, &k, &alpha, a, &n, &beta, c, &n, 1, 1);
    for (int j = 0; j < N; j++)
      for (int i = j; i < N; i++) {
        double s = 0;
        for (int p = 0; p < K; p++) s += a[i + p * N] * a[j + p * N];
        r[i + j * N] = alpha * s + beta * r[i + j * N];
      }
    check("dsyrk_", c, r, N * N); /* the upper triangle must be untouched */
    free(a), free(c), free(r);
  }
  { /* dtrsm_: solve A X = alpha B, A upper triangular N x N, B N x M; check A X == alpha B */
    double *a = fill(N * N, 8), *b = fill(N * M, 9), *x = copy(b, N * M), *ax = fill(N * M, 0);
    for (int i = 0; i < N; i++) a[i + i * N] = 4 + i % 3; /* well conditioned */
    dtrsm_("L", "U", "N", "N", &n, &m, &alpha, a, &n, x, &n, 1, 1, 1, 1);
    for (int j = 0; j < M; j++)
      for (int i = 0; i < N; i++) {
        double s = 0;
        for (int p = i; p < N; p++) s += a[i + p * N] * x[p + j * N];
        ax[i + j * N] = s;
        b[i + j * N] *= alpha;
      }
    check("dtrsm_", ax, b, N * M);
    free(a), free(b), free(x), free(ax);
  }
  { /* daxpy_ and dgemv_ (y = alpha A x + beta y, A M x N) */
    double *x = fill(N, 10), *y = fill(N, 11), *r = copy(y, N);
    daxpy_(&n, &alpha, x, &one, y, &one);
    for (int i = 0; i < N; i++) r[i] += alpha * x[i];
    check("daxpy_", y, r, N);
    double *a = fill(M * N, 12), *v = fill(M, 13), *w = copy(v, M);
    dgemv_("N", &m, &n, &alpha, a, &m, x, &one, &beta, v, &one, 1);
    for (int i = 0; i < M; i++) {
      double s = 0;
      for (int j = 0; j < N; j++) s += a[i + j * M] * x[j];
      w[i] = alpha * s + beta * w[i];
    }
    check("dgemv_", v, w, M);
    free(x), free(y), free(r), free(a), free(v), free(w);
  }
  printf("%s\n", failures ? "FAILED" : "all results correct");
  return failures != 0;
}
