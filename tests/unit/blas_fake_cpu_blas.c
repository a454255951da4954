/* SPDX-License-Identifier: Apache-2.0 */
/* A stand-in CPU BLAS for the libtcjblas tests: xgemm_ (and dgemm_64_ alone of the 64-bit
 * symbols) computed by the built-in reference, each call counted and the last one's arguments
 * kept, so that a test can tell which library ran a call and how it was passed on. */
#include <string.h>

#include "blas/tcjblas_internal.h"

static const char *const names[] = {"sgemm_", "dgemm_", "cgemm_", "zgemm_", "dgemm_64_"};
static int calls[5];
static struct { char ta, tb; int64_t m, n, k; } last;

static void run(int which, tb_type type, char ta, char tb, int64_t m, int64_t n, int64_t k,
                const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                const void *beta, void *c, int64_t ldc) {
  calls[which]++;
  last.ta = ta, last.tb = tb, last.m = m, last.n = n, last.k = k;
  tb_gemm g = {.type = type, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha, .a = a,
               .lda = lda, .b = b, .ldb = ldb, .beta = beta, .c = c, .ldc = ldc};
  if (tb_gemm_check(&g) == 0) tb_ref_gemm(&g); /* checked by libtcjblas already */
}

#define FAKE_GEMM(NAME, WHICH, TYPE, INT)                                                          \
  TB_EXPORT void NAME(const char *ta, const char *tb, const INT *m, const INT *n, const INT *k,    \
                      const void *alpha, const void *a, const INT *lda, const void *b,            \
                      const INT *ldb, const void *beta, void *c, const INT *ldc, size_t la,       \
                      size_t lb) {                                                                \
    (void)la, (void)lb;                                                                           \
    run(WHICH, TYPE, *ta, *tb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);               \
  }

FAKE_GEMM(sgemm_, 0, TB_S, int)
FAKE_GEMM(dgemm_, 1, TB_D, int)
FAKE_GEMM(cgemm_, 2, TB_C, int)
FAKE_GEMM(zgemm_, 3, TB_Z, int)
FAKE_GEMM(dgemm_64_, 4, TB_D, int64_t)

/* Calls of the named symbol so far ("dgemm_", "dgemm_64_", ...); -1 for a name it lacks. */
TB_EXPORT int fake_blas_calls(const char *name) {
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i], name)) return calls[i];
  return -1;
}

/* The transposes and sizes of the last call. */
TB_EXPORT void fake_blas_last(char *ta, char *tb, int64_t *m, int64_t *n, int64_t *k) {
  *ta = last.ta, *tb = last.tb, *m = last.m, *n = last.n, *k = last.k;
}
