/* SPDX-License-Identifier: Apache-2.0 */
/* Netlib's argument checks of the Level-3 routines beside GEMM and the scalar tests behind their
 * quick returns. Each shape's checks run in its Fortran routine's order (dsyrk.f, dsyr2k.f,
 * dsymm.f, dtrsm.f; the others check as these do): the first failing one decides the INFO. */
#include <ctype.h>

#include "blas/tcjblas_l3.h"

const char *const tb_l3_names[TB_L3_COUNT] = {
#define TB_L3_NAME(name, NAME, SHAPE, CPLX) [TB_##NAME] = #name,
  TB_L3_OPS(TB_L3_NAME)
#undef TB_L3_NAME
};

void tb_l3_srname(const tb_l3 *x, char out[7]) {
  snprintf(out, 7, "%c%-5s", "SDCZ"[x->type], tb_l3_names[x->op]);
  for (int i = 1; out[i]; i++) out[i] = (char)toupper((unsigned char)out[i]);
}

/* LSAME: the upper-case letter when c is one of `allowed` in either case, else 0. */
static char one_of(char c, const char *allowed) {
  char u = (char)toupper((unsigned char)c);
  for (; *allowed; allowed++)
    if (u == *allowed) return u;
  return 0;
}

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* TRANS of syrk and syr2k: N, T, C for real types (C means T there), N and T for complex;
 * herk and her2k: N and C. */
static const char *rank_transposes(const tb_l3 *x) {
  if (tb_l3_hermitian(x->op)) return "NC";
  return tb_is_complex(x->type) ? "NT" : "NTC";
}

/* RK and R2K: UPLO 1, TRANS 2, N 3, K 4, LDA 7, then R2K's LDB 9 and LDC 12, or RK's LDC 10. */
static int check_rank(tb_l3 *x) {
  char uplo = one_of(x->uplo, "UL"), trans = one_of(x->trans, rank_transposes(x));
  int64_t nrowa = trans == 'N' ? x->n : x->k;
  int two = tb_l3_shape(x->op) == TB_R2K;
  if (!uplo) return 1;
  if (!trans) return 2;
  if (x->n < 0) return 3;
  if (x->k < 0) return 4;
  if (x->lda < max1(nrowa)) return 7;
  if (two && x->ldb < max1(nrowa)) return 9;
  if (x->ldc < max1(x->n)) return two ? 12 : 10;
  x->uplo = uplo, x->trans = trans;
  return 0;
}

/* MM: SIDE 1, UPLO 2, M 3, N 4, LDA 7, LDB 9, LDC 12. */
static int check_mm(tb_l3 *x) {
  char side = one_of(x->side, "LR"), uplo = one_of(x->uplo, "UL");
  int64_t nrowa = side == 'L' ? x->m : x->n;
  if (!side) return 1;
  if (!uplo) return 2;
  if (x->m < 0) return 3;
  if (x->n < 0) return 4;
  if (x->lda < max1(nrowa)) return 7;
  if (x->ldb < max1(x->m)) return 9;
  if (x->ldc < max1(x->m)) return 12;
  x->side = side, x->uplo = uplo;
  return 0;
}

/* TR: SIDE 1, UPLO 2, TRANSA 3, DIAG 4, M 5, N 6, LDA 9, LDB 11 (B is x->c). */
static int check_tr(tb_l3 *x) {
  char side = one_of(x->side, "LR"), uplo = one_of(x->uplo, "UL");
  char trans = one_of(x->trans, "NTC"), diag = one_of(x->diag, "UN");
  int64_t nrowa = side == 'L' ? x->m : x->n;
  if (!side) return 1;
  if (!uplo) return 2;
  if (!trans) return 3;
  if (!diag) return 4;
  if (x->m < 0) return 5;
  if (x->n < 0) return 6;
  if (x->lda < max1(nrowa)) return 9;
  if (x->ldc < max1(x->m)) return 11;
  x->side = side, x->uplo = uplo, x->trans = trans, x->diag = diag;
  return 0;
}

int tb_l3_check(tb_l3 *x) {
  switch (tb_l3_shape(x->op)) {
  case TB_RK:
  case TB_R2K: return check_rank(x);
  case TB_MM: return check_mm(x);
  case TB_TR: return check_tr(x);
  }
  return 0;
}

/* Fortran's comparisons: -0 equals 0, NaN equals nothing; a complex value is compared in both
 * parts. `real` says the scalar is a real of the type's precision (herk's, her2k's beta). */
static int scalar_is(tb_type t, int real, const void *p, double v) {
  int single = t == TB_S || t == TB_C;
  double re = single ? ((const float *)p)[0] : ((const double *)p)[0];
  double im = 0;
  if (tb_is_complex(t) && !real) im = single ? ((const float *)p)[1] : ((const double *)p)[1];
  return re == v && im == 0;
}

int tb_l3_alpha_is_zero(const tb_l3 *x) {
  return scalar_is(x->type, x->op == TB_HERK, x->alpha, 0);
}

int tb_l3_beta_is(const tb_l3 *x, double v) {
  return scalar_is(x->type, x->op == TB_HERK || x->op == TB_HER2K, x->beta, v);
}

/* As the reference returns: RK and R2K when N is 0 or (ALPHA is 0 or K is 0) and BETA is 1; MM
 * when M or N is 0 or ALPHA is 0 and BETA is 1; TR when M or N is 0 (ALPHA 0 sets B to 0). The
 * sizes are tested first, so that a call of no size reads not even its scalars. */
int tb_l3_is_noop(const tb_l3 *x) {
  switch (tb_l3_shape(x->op)) {
  case TB_RK:
  case TB_R2K:
    if (x->n == 0) return 1;
    return (x->k == 0 || tb_l3_alpha_is_zero(x)) && tb_l3_beta_is(x, 1);
  case TB_MM:
    if (x->m == 0 || x->n == 0) return 1;
    return tb_l3_alpha_is_zero(x) && tb_l3_beta_is(x, 1);
  case TB_TR: return x->m == 0 || x->n == 0;
  }
  return 0;
}
