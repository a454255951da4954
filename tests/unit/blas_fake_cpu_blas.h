/* SPDX-License-Identifier: Apache-2.0 */
/* What the stand-in CPU BLAS (blas_fake_cpu_blas.c) keeps of the last Level-3 call beside GEMM
 * it received, as it received it (Fortran ABI, column-major), for the tests that look it up. */
#ifndef TCJ_TEST_BLAS_FAKE_CPU_BLAS_H
#define TCJ_TEST_BLAS_FAKE_CPU_BLAS_H

#include <stdint.h>

typedef struct fake_l3_call {
  char name[16]; /* the symbol called: "dsyrk_", "ztrsm_64_", ... */
  char side, uplo, trans, diag; /* 0 where the routine has none */
  int64_t m, n, k, lda, ldb, ldc; /* TR: ldb is B's; RK and R2K: m is 0; TR and MM: k is 0 */
  const void *alpha, *beta, *a, *b, *c; /* TR: b is B, c NULL */
  double alpha_v[2], beta_v[2];         /* the scalars' values (real ones: [1] is 0) */
} fake_l3_call;

/* Exported by the stand-in: calls of a symbol so far (-1 for one it lacks), the last L3 call. */
typedef int (*fake_blas_calls_fn)(const char *name);
typedef void (*fake_blas_last_l3_fn)(fake_l3_call *out);

#endif
