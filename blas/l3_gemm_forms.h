/* SPDX-License-Identifier: Apache-2.0 */
/* The host halves of the Level-3 routines that l3_gemm.c runs as GEMMs, for one element type,
 * included once per type (no include guard) as l3_reference_loops.h is, with the same macros:
 * TB_REF_T (element), TB_REF_R (its real type), TB_REF_FN(name), TB_REF_CONJ(x), TB_REF_RE(x);
 * they are undefined at the end. Only what a GEMM cannot do is here: the full matrix a
 * triangle stands for, and C's triangle updated from the full product. */
#define T TB_REF_T
#define R TB_REF_R
#define FN TB_REF_FN
#define CONJ TB_REF_CONJ
#define RE TB_REF_RE

/* symm, hemm: the n x n matrix A's triangle stands for (hemm: Hermitian, its diagonal's
 * imaginary part not read, as zhemm.f). trmm: A's triangle, zeros elsewhere, ones on the
 * diagonal for diag 'U' (the stored diagonal not read). NULL when out of memory. */
static T *FN(full_of_triangle)(const tb_l3 *x, int64_t n) {
  T *f = malloc((size_t)n * (size_t)n * sizeof(T));
  if (!f) return NULL;
  const T *a = x->a;
  int upper = x->uplo == 'U', herm = x->op == TB_HEMM, tr = x->op == TB_TRMM;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) {
      int stored = upper ? i <= j : i >= j;
      T v;
      if (tr) v = i == j && x->diag == 'U' ? (T)1 : stored ? a[i + j * x->lda] : (T)0;
      else if (stored) v = a[i + j * x->lda];
      else v = herm ? CONJ(a[j + i * x->lda]) : a[j + i * x->lda];
      if (herm && i == j) v = RE(v);
      f[i + j * n] = v;
    }
  return f;
}

/* syrk, herk, syr2k, her2k: C's UPLO triangle = P + beta C, P the full n x n product alpha's
 * terms made (ld n). beta 0 does not read C; herk and her2k have a real beta and write a real
 * diagonal, reading only its real part, as zherk.f. The other triangle is not touched. */
static void FN(merge_triangle)(const tb_l3 *x, const T *p) {
  int herm = x->op == TB_HERK || x->op == TB_HER2K, upper = x->uplo == 'U';
  T beta = herm ? (T)(*(const R *)x->beta) : *(const T *)x->beta;
  T *c = x->c;
  for (int64_t j = 0; j < x->n; j++) {
    int64_t i0 = upper ? 0 : j, i1 = upper ? j + 1 : x->n;
    for (int64_t i = i0; i < i1; i++) {
      T *cij = c + i + j * x->ldc, pij = p[i + j * x->n];
      if (herm && i == j) *cij = beta == 0 ? (T)RE(pij) : (T)(RE(pij) + RE(beta) * RE(*cij));
      else *cij = beta == 0 ? pij : pij + beta * *cij;
    }
  }
}

/* The routine as one or two GEMMs on the GPU. TB_GPU_NOT_RUN: C was not touched (below the
 * threshold, out of memory, no GPU): the caller runs it on the CPU. */
static tb_gpu_result FN(run)(const tb_l3 *x) {
  static const T zero = 0, one = 1;
  int herm = tb_l3_hermitian(x->op), real_alpha = x->op == TB_HERK;
  T alpha = real_alpha ? (T)(*(const R *)x->alpha) : *(const T *)x->alpha, alpha2 = CONJ(alpha);
  char t = herm ? 'C' : 'T';
  tb_gemm g = {.type = x->type, .ta = 'N', .tb = 'N', .alpha = &alpha, .ilp64 = x->ilp64};
  tb_gpu_result r = TB_GPU_NOT_RUN;
  T *full = NULL, *p = NULL;
  if (x->k == 0 && (tb_l3_shape(x->op) == TB_RK || tb_l3_shape(x->op) == TB_R2K))
    return TB_GPU_NOT_RUN; /* C = beta C on the triangle: no product, the CPU's */
  switch (tb_l3_shape(x->op)) {
  case TB_MM: /* C = alpha A B + beta C (side L) or alpha B A + beta C: a GEMM of the full A */
  case TB_TR: /* B = alpha op(A) B or alpha B op(A): a GEMM of the full A into B, beta 0 */ {
    int left = x->side == 'L', tr = x->op == TB_TRMM;
    int64_t na = left ? x->m : x->n;
    g.m = x->m, g.n = x->n, g.k = na, g.c = x->c, g.ldc = x->ldc;
    g.beta = tr ? &zero : x->beta;
    if (!tb_gemm_worth_the_gpu(&g)) return TB_GPU_NOT_RUN;
    if (!(full = FN(full_of_triangle)(x, na))) return TB_GPU_NOT_RUN;
    const void *b = tr ? x->c : x->b; /* trmm's B is both operand and result */
    int64_t ldb = tr ? x->ldc : x->ldb;
    char ta = tr ? x->trans : 'N';
    if (left) g.ta = ta, g.a = full, g.lda = na, g.b = b, g.ldb = ldb;
    else g.tb = ta, g.a = b, g.lda = ldb, g.b = full, g.ldb = na;
    /* The GPU path reads B into a device copy of its own before C is written back, so trmm's
     * B may be both. */
    r = tb_gpu_gemm_of_host_arrays(&g, all_host);
    break;
  }
  case TB_RK:  /* P = alpha op(A) op(A)^T (^H): the full product, then C's triangle */
  case TB_R2K: /* P = alpha op(A) op(B)^T + alpha op(B) op(A)^T (her2k: conj(alpha) second) */ {
    int trans = x->trans != 'N', two = tb_l3_shape(x->op) == TB_R2K;
    g.m = g.n = x->n, g.k = x->k, g.ldc = x->n, g.beta = &zero;
    g.ta = trans ? t : 'N', g.tb = trans ? 'N' : t;
    if (!tb_gemm_worth_the_gpu(&g)) return TB_GPU_NOT_RUN;
    if (!(p = malloc((size_t)x->n * (size_t)x->n * sizeof(T)))) return TB_GPU_NOT_RUN;
    g.c = p;
    g.a = x->a, g.lda = x->lda;
    g.b = two ? x->b : x->a, g.ldb = two ? x->ldb : x->lda;
    r = tb_gpu_gemm_of_host_arrays(&g, all_host);
    if (r == TB_GPU_DONE && two) {
      g.a = x->b, g.lda = x->ldb, g.b = x->a, g.ldb = x->lda;
      g.alpha = herm ? &alpha2 : &alpha, g.beta = &one;
      r = tb_gpu_gemm_of_host_arrays(&g, all_host);
    }
    if (r == TB_GPU_DONE) FN(merge_triangle)(x, p);
    else r = TB_GPU_NOT_RUN; /* P was ours: C is untouched */
    break;
  }
  }
  free(full);
  free(p);
  return r;
}

#undef T
#undef R
#undef FN
#undef CONJ
#undef RE
#undef TB_REF_T
#undef TB_REF_R
#undef TB_REF_FN
#undef TB_REF_CONJ
#undef TB_REF_RE
