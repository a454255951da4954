/* SPDX-License-Identifier: Apache-2.0 */
/* A stand-in CPU BLAS for the libtcjblas tests: xgemm_ (and dgemm_64_ alone of the 64-bit
 * symbols) and every other Level-3 routine (the 64-bit symbols of the d and z ones alone),
 * computed by the built-in reference, each call counted and the last one's arguments kept, so
 * that a test can tell which library ran a call and how it was passed on. */
#include <string.h>

#include "blas/tcjblas_l3.h"
#include "tests/unit/blas_fake_cpu_blas.h"

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

/* The Level-3 routines beside GEMM: one counter per symbol it defines. The 64-bit symbols of
 * the d and z routines only: s and c calls from 64-bit entries must fall back to the 32-bit
 * symbols. */
#define FAKE_64_s(...)
#define FAKE_64_c(...)
#define FAKE_64_d(...) __VA_ARGS__
#define FAKE_64_z(...) __VA_ARGS__
#define FAKE_L3_NAME(t, TYPE, name, NAME, SHAPE, T, SA, SB) #t #name "_", FAKE_64_##t(#t #name "_64_", )
static const char *const l3_names[] = {TB_L3_ENTRIES(FAKE_L3_NAME)};
static int l3_counts[sizeof l3_names / sizeof *l3_names];
static fake_l3_call l3_last;

static int find_l3(const char *name) {
  for (size_t i = 0; i < sizeof l3_names / sizeof *l3_names; i++)
    if (!strcmp(l3_names[i], name)) return (int)i;
  return -1;
}

static void scalar_value(const tb_l3 *x, const void *p, int real, double out[2]) {
  int single = x->type == TB_S || x->type == TB_C, cplx = tb_is_complex(x->type) && !real;
  out[0] = single ? ((const float *)p)[0] : ((const double *)p)[0];
  out[1] = !cplx ? 0 : single ? ((const float *)p)[1] : ((const double *)p)[1];
}

/* x as the symbol received it (TR's B in c, as tb_l3 holds it). */
static void run_l3(const char *name, tb_l3 x) {
  l3_counts[find_l3(name)]++;
  fake_l3_call *r = &l3_last;
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  r->side = x.side, r->uplo = x.uplo, r->trans = x.trans, r->diag = x.diag;
  r->m = x.m, r->n = x.n, r->k = x.k, r->lda = x.lda, r->ldb = x.ldb, r->ldc = x.ldc;
  r->alpha = x.alpha, r->beta = x.beta, r->a = x.a, r->b = x.b, r->c = x.c;
  if (tb_l3_shape(x.op) == TB_TR) r->b = x.c, r->ldb = x.ldc, r->c = NULL, r->ldc = 0;
  scalar_value(&x, x.alpha, x.op == TB_HERK, r->alpha_v);
  if (x.beta) scalar_value(&x, x.beta, x.op == TB_HERK || x.op == TB_HER2K, r->beta_v);
  if (tb_l3_check(&x) == 0) tb_ref_l3(&x); /* checked by libtcjblas already */
}

#define FAKE_RK(NAME, TYPE, OP, INT)                                                               \
  TB_EXPORT void NAME(const char *uplo, const char *trans, const INT *n, const INT *k,           \
                      const void *alpha, const void *a, const INT *lda, const void *beta, void *c, \
                      const INT *ldc, size_t l1, size_t l2) {                                     \
    (void)l1, (void)l2;                                                                           \
    run_l3(#NAME, (tb_l3){.op = OP, .type = TYPE, .uplo = *uplo, .trans = *trans, .n = *n,        \
                          .k = *k, .alpha = alpha, .a = a, .lda = *lda, .beta = beta, .c = c,     \
                          .ldc = *ldc});                                                          \
  }
#define FAKE_R2K(NAME, TYPE, OP, INT)                                                              \
  TB_EXPORT void NAME(const char *uplo, const char *trans, const INT *n, const INT *k,           \
                      const void *alpha, const void *a, const INT *lda, const void *b,            \
                      const INT *ldb, const void *beta, void *c, const INT *ldc, size_t l1,       \
                      size_t l2) {                                                                \
    (void)l1, (void)l2;                                                                           \
    run_l3(#NAME, (tb_l3){.op = OP, .type = TYPE, .uplo = *uplo, .trans = *trans, .n = *n,        \
                          .k = *k, .alpha = alpha, .a = a, .lda = *lda, .b = b, .ldb = *ldb,      \
                          .beta = beta, .c = c, .ldc = *ldc});                                    \
  }
#define FAKE_MM(NAME, TYPE, OP, INT)                                                               \
  TB_EXPORT void NAME(const char *side, const char *uplo, const INT *m, const INT *n,            \
                      const void *alpha, const void *a, const INT *lda, const void *b,            \
                      const INT *ldb, const void *beta, void *c, const INT *ldc, size_t l1,       \
                      size_t l2) {                                                                \
    (void)l1, (void)l2;                                                                           \
    run_l3(#NAME, (tb_l3){.op = OP, .type = TYPE, .side = *side, .uplo = *uplo, .m = *m,          \
                          .n = *n, .alpha = alpha, .a = a, .lda = *lda, .b = b, .ldb = *ldb,      \
                          .beta = beta, .c = c, .ldc = *ldc});                                    \
  }
#define FAKE_TR(NAME, TYPE, OP, INT)                                                               \
  TB_EXPORT void NAME(const char *side, const char *uplo, const char *transa, const char *diag,  \
                      const INT *m, const INT *n, const void *alpha, const void *a,               \
                      const INT *lda, void *b, const INT *ldb, size_t l1, size_t l2, size_t l3,   \
                      size_t l4) {                                                                \
    (void)l1, (void)l2, (void)l3, (void)l4;                                                       \
    run_l3(#NAME, (tb_l3){.op = OP, .type = TYPE, .side = *side, .uplo = *uplo,                   \
                          .trans = *transa, .diag = *diag, .m = *m, .n = *n, .alpha = alpha,      \
                          .a = a, .lda = *lda, .c = b, .ldc = *ldb});                             \
  }

#define FAKE_L3(t, TYPE, name, NAME, SHAPE, T, SA, SB)                                             \
  FAKE_##SHAPE(t##name##_, TYPE, TB_##NAME, int)                                                  \
  FAKE_64_##t(FAKE_##SHAPE(t##name##_64_, TYPE, TB_##NAME, int64_t))

TB_L3_ENTRIES(FAKE_L3)

/* Calls of the named symbol so far ("dgemm_", "dgemm_64_", "zherk_", ...); -1 for a name it
 * lacks. */
TB_EXPORT int fake_blas_calls(const char *name) {
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i], name)) return calls[i];
  int i = find_l3(name);
  return i < 0 ? -1 : l3_counts[i];
}

TB_EXPORT void fake_blas_last_l3(fake_l3_call *out) { *out = l3_last; }

/* The transposes and sizes of the last call. */
TB_EXPORT void fake_blas_last(char *ta, char *tb, int64_t *m, int64_t *n, int64_t *k) {
  *ta = last.ta, *tb = last.tb, *m = last.m, *n = last.n, *k = last.k;
}
