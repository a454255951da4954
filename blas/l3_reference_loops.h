/* SPDX-License-Identifier: Apache-2.0 */
/* The built-in reference's loops for one element type, included by l3_reference.c once per type
 * (no include guard). Netlib's loops (dsyrk.f, zherk.f, zsyr2k.f, zher2k.f, zsymm.f, zhemm.f,
 * ztrmm.f, ztrsm.f), in their order and with their tests, so that alpha == 0 reads neither A nor
 * B, beta == 0 never reads C, and only the triangle UPLO names is written. The Hermitian forms
 * share the symmetric ones' loops: `herm` conjugates where zherk.f and its kin do, reads their
 * real scalars as reals (C's rules for real * complex then match Fortran's), takes A's diagonal
 * as real and writes C's diagonal real.
 * The includer defines TB_REF_T (element), TB_REF_R (its real type), TB_REF_FN(name) (a name of
 * this type), TB_REF_CONJ(x) and TB_REF_RE(x); the file undefines them at its end. */
#define T TB_REF_T
#define R TB_REF_R
#define FN TB_REF_FN
#define CONJ TB_REF_CONJ
#define RE TB_REF_RE
#define AT(p, ld, i, j) (p)[(i) + (j) * (ld)]

/* One scalar: an element, or a real widened to one (herk's alpha and beta, her2k's beta). */
static T FN(scalar)(const void *p, int real) { return real ? (T)(*(const R *)p) : *(const T *)p; }

static T FN(cj)(T v, int on) { return on ? CONJ(v) : v; }

/* alpha v, alpha being real for herk. */
static T FN(times)(T alpha, T v, int real) { return real ? RE(alpha) * v : alpha * v; }

/* beta C(i, j) for syrk, syr2k; for herk and her2k beta is real and the diagonal's imaginary
 * part is not read. */
static T FN(scaled)(T beta, T c, int herm, int diag) {
  if (!herm) return beta * c;
  return diag ? (T)(RE(beta) * RE(c)) : RE(beta) * c;
}

/* The rows i0 <= i < i1 of column j of C times beta, as the reference does it before adding
 * alpha's term: beta 0 writes zeros, beta 1 leaves C (herk, her2k: but a real diagonal). */
static void FN(scale_column)(T *cj, int64_t i0, int64_t i1, int64_t j, T beta, int herm) {
  for (int64_t i = i0; i < i1; i++) {
    if (beta == 0) cj[i] = 0;
    else if (herm && i == j) cj[i] = FN(scaled)(beta, cj[i], 1, 1);
    else if (beta != 1) cj[i] = FN(scaled)(beta, cj[i], herm, 0);
  }
}

/* syrk, herk: C = alpha op(A) op(A)^T + beta C (herk: ^H, alpha and beta real). */
static void FN(rk)(const tb_l3 *x) {
  const T *a = x->a;
  T *c = x->c;
  int64_t n = x->n, k = x->k, lda = x->lda, ldc = x->ldc;
  int herm = x->op == TB_HERK, upper = x->uplo == 'U';
  T alpha = FN(scalar)(x->alpha, herm), beta = FN(scalar)(x->beta, herm);
  for (int64_t j = 0; j < n; j++) {
    int64_t i0 = upper ? 0 : j, i1 = upper ? j + 1 : n; /* column j of the triangle */
    T *cj = c + j * ldc;
    if (alpha == 0 || x->trans == 'N') FN(scale_column)(cj, i0, i1, j, beta, herm);
    if (alpha == 0) continue;
    if (x->trans == 'N') {
      for (int64_t l = 0; l < k; l++) {
        T ajl = AT(a, lda, j, l);
        if (ajl == 0) continue;
        T temp = FN(times)(alpha, FN(cj)(ajl, herm), herm);
        for (int64_t i = i0; i < i1; i++)
          cj[i] = herm && i == j ? (T)(RE(cj[i]) + RE(temp * ajl))
                                 : cj[i] + temp * AT(a, lda, i, l);
      }
      continue;
    }
    for (int64_t i = i0; i < i1; i++) {
      T temp = 0;
      for (int64_t l = 0; l < k; l++) temp += FN(cj)(AT(a, lda, l, i), herm) * AT(a, lda, l, j);
      T v = herm && i == j ? (T)(RE(alpha) * RE(temp)) : FN(times)(alpha, temp, herm);
      cj[i] = beta == 0 ? v : v + FN(scaled)(beta, cj[i], herm, i == j);
    }
  }
}

/* syr2k, her2k: C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C (her2k: ^H, the second
 * term's alpha conjugated, beta real). */
static void FN(r2k)(const tb_l3 *x) {
  const T *a = x->a, *b = x->b;
  T *c = x->c;
  int64_t n = x->n, k = x->k, lda = x->lda, ldb = x->ldb, ldc = x->ldc;
  int herm = x->op == TB_HER2K, upper = x->uplo == 'U';
  T alpha = FN(scalar)(x->alpha, 0), beta = FN(scalar)(x->beta, herm);
  T alpha2 = FN(cj)(alpha, herm);
  for (int64_t j = 0; j < n; j++) {
    int64_t i0 = upper ? 0 : j, i1 = upper ? j + 1 : n;
    T *cj = c + j * ldc;
    if (alpha == 0 || x->trans == 'N') FN(scale_column)(cj, i0, i1, j, beta, herm);
    if (alpha == 0) continue;
    if (x->trans == 'N') {
      for (int64_t l = 0; l < k; l++) {
        T ajl = AT(a, lda, j, l), bjl = AT(b, ldb, j, l);
        if (ajl == 0 && bjl == 0) continue;
        T temp1 = alpha * FN(cj)(bjl, herm), temp2 = FN(cj)(alpha * ajl, herm);
        for (int64_t i = i0; i < i1; i++)
          cj[i] = herm && i == j ? (T)(RE(cj[i]) + RE(ajl * temp1 + bjl * temp2))
                                 : cj[i] + AT(a, lda, i, l) * temp1 + AT(b, ldb, i, l) * temp2;
      }
      continue;
    }
    for (int64_t i = i0; i < i1; i++) {
      T temp1 = 0, temp2 = 0;
      for (int64_t l = 0; l < k; l++) {
        temp1 += FN(cj)(AT(a, lda, l, i), herm) * AT(b, ldb, l, j);
        temp2 += FN(cj)(AT(b, ldb, l, i), herm) * AT(a, lda, l, j);
      }
      T t1 = alpha * temp1, t2 = alpha2 * temp2;
      if (herm && i == j)
        cj[i] = beta == 0 ? (T)RE(t1 + t2) : (T)(RE(beta) * RE(cj[i]) + RE(t1 + t2));
      else
        cj[i] = beta == 0 ? t1 + t2 : FN(scaled)(beta, cj[i], herm, 0) + t1 + t2;
    }
  }
}

/* symm, hemm: C = alpha A B + beta C (side L) or alpha B A + beta C (side R), A symmetric
 * (Hermitian) and read from its UPLO triangle alone (hemm: its diagonal as real). */
static void FN(mm)(const tb_l3 *x) {
  const T *a = x->a, *b = x->b;
  T *c = x->c;
  int64_t m = x->m, n = x->n, lda = x->lda, ldb = x->ldb, ldc = x->ldc;
  int herm = x->op == TB_HEMM, upper = x->uplo == 'U';
  T alpha = FN(scalar)(x->alpha, 0), beta = FN(scalar)(x->beta, 0);
  for (int64_t j = 0; j < n; j++) {
    T *cj = c + j * ldc;
    const T *bj = b + j * ldb;
    if (alpha == 0) {
      for (int64_t i = 0; i < m; i++) cj[i] = beta == 0 ? 0 : beta * cj[i];
    } else if (x->side == 'L') {
      /* upper: rows top down, each adding to the rows above it; lower: bottom up */
      for (int64_t s = 0; s < m; s++) {
        int64_t i = upper ? s : m - 1 - s, k0 = upper ? 0 : i + 1, k1 = upper ? i : m;
        T temp1 = alpha * bj[i], temp2 = 0;
        for (int64_t k = k0; k < k1; k++) {
          cj[k] += temp1 * AT(a, lda, k, i);
          temp2 += bj[k] * FN(cj)(AT(a, lda, k, i), herm);
        }
        T aii = AT(a, lda, i, i);
        T d = herm ? temp1 * RE(aii) : temp1 * aii;
        cj[i] = beta == 0 ? d + alpha * temp2 : beta * cj[i] + d + alpha * temp2;
      }
    } else {
      T ajj = AT(a, lda, j, j);
      T temp1 = herm ? alpha * RE(ajj) : alpha * ajj;
      for (int64_t i = 0; i < m; i++)
        cj[i] = beta == 0 ? temp1 * bj[i] : beta * cj[i] + temp1 * bj[i];
      for (int64_t k = 0; k < n; k++) {
        if (k == j) continue;
        /* A(k, j) from the stored triangle: A(j, k) conjugated (hemm) when it is the other one */
        int stored = upper ? k < j : k > j;
        T akj = stored ? AT(a, lda, k, j) : FN(cj)(AT(a, lda, j, k), herm);
        T t = alpha * akj;
        for (int64_t i = 0; i < m; i++) cj[i] += t * AT(b, ldb, i, k);
      }
    }
  }
}

/* trmm and trsm with alpha == 0: B = 0, A not read (ztrmm.f, ztrsm.f). */
static int FN(tr_zeroed)(T alpha, T *b, int64_t m, int64_t n, int64_t ldb) {
  if (alpha != 0) return 0;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < m; i++) AT(b, ldb, i, j) = 0;
  return 1;
}

/* trmm: B = alpha op(A) B (side L) or alpha B op(A) (side R), A triangular (unit: its diagonal
 * not read). B is x->c. */
static void FN(trmm)(const tb_l3 *x) {
  const T *a = x->a;
  T *b = x->c;
  int64_t m = x->m, n = x->n, lda = x->lda, ldb = x->ldc;
  int upper = x->uplo == 'U', nounit = x->diag == 'N', conja = x->trans == 'C';
  T alpha = FN(scalar)(x->alpha, 0);
  if (FN(tr_zeroed)(alpha, b, m, n, ldb)) return;
  if (x->side == 'L' && x->trans == 'N') {
    for (int64_t j = 0; j < n; j++) {
      T *bj = b + j * ldb;
      for (int64_t s = 0; s < m; s++) {
        int64_t k = upper ? s : m - 1 - s, i0 = upper ? 0 : k + 1, i1 = upper ? k : m;
        T temp = alpha * bj[k];
        if (!upper) bj[k] = nounit ? temp * AT(a, lda, k, k) : temp;
        for (int64_t i = i0; i < i1; i++) bj[i] += temp * AT(a, lda, i, k);
        if (upper) bj[k] = nounit ? temp * AT(a, lda, k, k) : temp;
      }
    }
  } else if (x->side == 'L') {
    for (int64_t j = 0; j < n; j++) {
      T *bj = b + j * ldb;
      for (int64_t s = 0; s < m; s++) {
        int64_t i = upper ? m - 1 - s : s, k0 = upper ? 0 : i + 1, k1 = upper ? i : m;
        T temp = bj[i];
        if (nounit) temp *= FN(cj)(AT(a, lda, i, i), conja);
        for (int64_t k = k0; k < k1; k++) temp += FN(cj)(AT(a, lda, k, i), conja) * bj[k];
        bj[i] = alpha * temp;
      }
    }
  } else if (x->trans == 'N') {
    for (int64_t s = 0; s < n; s++) {
      int64_t j = upper ? n - 1 - s : s, k0 = upper ? 0 : j + 1, k1 = upper ? j : n;
      T *bj = b + j * ldb, temp = alpha;
      if (nounit) temp *= AT(a, lda, j, j);
      for (int64_t i = 0; i < m; i++) bj[i] = temp * bj[i];
      for (int64_t k = k0; k < k1; k++) {
        T t = alpha * AT(a, lda, k, j);
        for (int64_t i = 0; i < m; i++) bj[i] += t * AT(b, ldb, i, k);
      }
    }
  } else {
    for (int64_t s = 0; s < n; s++) {
      int64_t k = upper ? s : n - 1 - s, j0 = upper ? 0 : k + 1, j1 = upper ? k : n;
      T *bk = b + k * ldb;
      for (int64_t j = j0; j < j1; j++) {
        T t = alpha * FN(cj)(AT(a, lda, j, k), conja);
        for (int64_t i = 0; i < m; i++) AT(b, ldb, i, j) += t * bk[i];
      }
      T temp = alpha;
      if (nounit) temp *= FN(cj)(AT(a, lda, k, k), conja);
      if (temp != 1)
        for (int64_t i = 0; i < m; i++) bk[i] = temp * bk[i];
    }
  }
}

/* trsm: solves op(A) X = alpha B (side L) or X op(A) = alpha B (side R); X overwrites B, which
 * is x->c. A triangular (unit: its diagonal not read). */
static void FN(trsm)(const tb_l3 *x) {
  const T *a = x->a;
  T *b = x->c;
  int64_t m = x->m, n = x->n, lda = x->lda, ldb = x->ldc;
  int upper = x->uplo == 'U', nounit = x->diag == 'N', conja = x->trans == 'C';
  T alpha = FN(scalar)(x->alpha, 0);
  if (FN(tr_zeroed)(alpha, b, m, n, ldb)) return;
  if (x->side == 'L' && x->trans == 'N') {
    for (int64_t j = 0; j < n; j++) {
      T *bj = b + j * ldb;
      for (int64_t i = 0; i < m; i++) bj[i] = alpha * bj[i];
      for (int64_t s = 0; s < m; s++) {
        int64_t k = upper ? m - 1 - s : s, i0 = upper ? 0 : k + 1, i1 = upper ? k : m;
        if (nounit) bj[k] = bj[k] / AT(a, lda, k, k);
        for (int64_t i = i0; i < i1; i++) bj[i] -= bj[k] * AT(a, lda, i, k);
      }
    }
  } else if (x->side == 'L') {
    for (int64_t j = 0; j < n; j++) {
      T *bj = b + j * ldb;
      for (int64_t s = 0; s < m; s++) {
        int64_t i = upper ? s : m - 1 - s, k0 = upper ? 0 : i + 1, k1 = upper ? i : m;
        T temp = alpha * bj[i];
        for (int64_t k = k0; k < k1; k++) temp -= FN(cj)(AT(a, lda, k, i), conja) * bj[k];
        if (nounit) temp = temp / FN(cj)(AT(a, lda, i, i), conja);
        bj[i] = temp;
      }
    }
  } else if (x->trans == 'N') {
    for (int64_t s = 0; s < n; s++) {
      int64_t j = upper ? s : n - 1 - s, k0 = upper ? 0 : j + 1, k1 = upper ? j : n;
      T *bj = b + j * ldb;
      for (int64_t i = 0; i < m; i++) bj[i] = alpha * bj[i];
      for (int64_t k = k0; k < k1; k++) {
        T akj = AT(a, lda, k, j);
        for (int64_t i = 0; i < m; i++) bj[i] -= akj * AT(b, ldb, i, k);
      }
      if (nounit)
        for (int64_t i = 0; i < m; i++) bj[i] = bj[i] / AT(a, lda, j, j);
    }
  } else {
    for (int64_t s = 0; s < n; s++) {
      int64_t k = upper ? n - 1 - s : s, j0 = upper ? 0 : k + 1, j1 = upper ? k : n;
      T *bk = b + k * ldb;
      if (nounit) {
        T akk = FN(cj)(AT(a, lda, k, k), conja);
        for (int64_t i = 0; i < m; i++) bk[i] = bk[i] / akk;
      }
      for (int64_t j = j0; j < j1; j++) {
        T temp = FN(cj)(AT(a, lda, j, k), conja);
        for (int64_t i = 0; i < m; i++) AT(b, ldb, i, j) -= temp * bk[i];
      }
      for (int64_t i = 0; i < m; i++) bk[i] = alpha * bk[i];
    }
  }
}

/* The routines of this type, in tb_l3_op's order (the Hermitian ones run for c and z only). */
static void (*const FN(routines)[TB_L3_COUNT])(const tb_l3 *) = {
  [TB_SYRK] = FN(rk),   [TB_HERK] = FN(rk),   [TB_SYR2K] = FN(r2k), [TB_HER2K] = FN(r2k),
  [TB_SYMM] = FN(mm),   [TB_HEMM] = FN(mm),   [TB_TRMM] = FN(trmm), [TB_TRSM] = FN(trsm),
};

#undef T
#undef R
#undef FN
#undef CONJ
#undef RE
#undef AT
/* The instantiation's parameters too, so that the next one defines its own. */
#undef TB_REF_T
#undef TB_REF_R
#undef TB_REF_FN
#undef TB_REF_CONJ
#undef TB_REF_RE
