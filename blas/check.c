/* SPDX-License-Identifier: Apache-2.0 */
/* Netlib's argument checks of xGEMM and the scalar tests behind its quick returns. The order of
 * the checks is sgemm.f's: the first failing one decides the number XERBLA reports. */
#include "blas/tcjblas_internal.h"

/* LSAME: one character, either case. 0 for anything but N, T, C. */
static char trans_of(char c) {
  switch (c) {
  case 'N': case 'n': return 'N';
  case 'T': case 't': return 'T';
  case 'C': case 'c': return 'C';
  default: return 0;
  }
}

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

int tb_gemm_check(tb_gemm *g) {
  char ta = trans_of(g->ta), tb = trans_of(g->tb);
  /* A is nrowa x ..., B nrowb x ...: what LDA and LDB must cover. */
  int64_t nrowa = ta == 'N' ? g->m : g->k;
  int64_t nrowb = tb == 'N' ? g->k : g->n;
  if (!ta) return 1;
  if (!tb) return 2;
  if (g->m < 0) return 3;
  if (g->n < 0) return 4;
  if (g->k < 0) return 5;
  if (g->lda < max1(nrowa)) return 8;
  if (g->ldb < max1(nrowb)) return 10;
  if (g->ldc < max1(g->m)) return 13;
  g->ta = ta;
  g->tb = tb;
  return 0;
}

/* Fortran's comparisons: -0 equals 0, NaN equals nothing. Complex: both parts. */
static int scalar_is(tb_type t, const void *x, double re) {
  switch (t) {
  case TB_S: return ((const float *)x)[0] == re;
  case TB_D: return ((const double *)x)[0] == re;
  case TB_C: return ((const float *)x)[0] == re && ((const float *)x)[1] == 0;
  case TB_Z: return ((const double *)x)[0] == re && ((const double *)x)[1] == 0;
  }
  return 0;
}

int tb_alpha_is_zero(const tb_gemm *g) { return scalar_is(g->type, g->alpha, 0); }
int tb_beta_is_zero(const tb_gemm *g) { return scalar_is(g->type, g->beta, 0); }
int tb_beta_is_one(const tb_gemm *g) { return scalar_is(g->type, g->beta, 1); }

int tb_gemm_only_scales(const tb_gemm *g) { return g->k == 0 || tb_alpha_is_zero(g); }

int tb_gemm_is_noop(const tb_gemm *g) {
  if (g->m == 0 || g->n == 0) return 1; /* before the scalars: nothing at all is read */
  return tb_gemm_only_scales(g) && tb_beta_is_one(g);
}
