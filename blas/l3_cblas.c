/* SPDX-License-Identifier: Apache-2.0 */
/* The CBLAS ABI of the Level-3 routines beside GEMM, and their _64 twins, generated from
 * TB_L3_ENTRIES. As Netlib's cblas_dsyrk.c, cblas_zher2k.c, cblas_dsymm.c, cblas_dtrsm.c ...
 * do: the enumerations are checked and mapped first (a bad one reported at its own position),
 * then a row-major call becomes the column-major call of the transposed problem, whose Fortran
 * checks report INFO + 1 (the layout argument) with RowMajorStrg set. */
#include "blas/tcjblas.h"
#include "blas/tcjblas_l3.h"

#include <string.h>

static char trans_letter(int t) {
  return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : t == CblasConjTrans ? 'C' : 0;
}

/* TRANS of syrk, herk, syr2k, her2k in a row-major call. Read column-major, the caller's A is
 * A' = A^T and its C is C^T, so C = op(A) op(A)^T becomes C^T = op'(A')^T op'(A') with N and the
 * routine's transpose (T; C for herk and her2k, where C^T = conj(C)) swapped; for real types T
 * and C both become N. Any other value is refused here, as Netlib's wrappers refuse it
 * (column-major calls pass TRANS on as given, and the Fortran check refuses what the routine
 * does not take). */
static char rank_row_trans(const tb_l3 *x, char given) {
  char transpose = tb_l3_hermitian(x->op) ? 'C' : 'T';
  if (given == 'N') return transpose;
  if (given == transpose || !tb_is_complex(x->type)) return 'N';
  return 0;
}

static char flip(char c, char a, char b) { return c == a ? b : a; }

typedef union scalar {
  float c[2];
  double z[2];
} scalar;

/* her2k's row-major call: with A' = A^T and B' = B^T as read column-major, C^T = alpha B'^H A'
 * + conj(alpha) A'^H B', which her2k ('C') computes with conj(alpha) in alpha's place. */
static const void *conj_alpha(const tb_l3 *x, scalar *out) {
  if (x->type == TB_C) {
    memcpy(out->c, x->alpha, sizeof out->c);
    out->c[1] = -out->c[1];
  } else {
    memcpy(out->z, x->alpha, sizeof out->z);
    out->z[1] = -out->z[1];
  }
  return out;
}

/* x holds the sizes, scalars and arrays as the caller gave them; the enumerations come apart,
 * as int, since which of them the routine has depends on its shape. */
static void cblas_l3(CBLAS_LAYOUT layout, int side, int uplo, int trans, int diag, tb_l3 x,
                     const char *rout) {
  if (layout != CblasColMajor && layout != CblasRowMajor) {
    tb_cblas_xerbla(1, 0, rout, "Illegal layout setting, %d\n", (int)layout);
    return;
  }
  int row = layout == CblasRowMajor, pos = 2;
  tb_shape shape = tb_l3_shape(x.op);
  if (shape == TB_MM || shape == TB_TR) {
    x.side = side == CblasLeft ? 'L' : side == CblasRight ? 'R' : 0;
    if (!x.side) {
      tb_cblas_xerbla(pos, row, rout, "Illegal Side setting, %d\n", side);
      return;
    }
    if (row) x.side = flip(x.side, 'L', 'R');
    pos++;
  }
  x.uplo = uplo == CblasUpper ? 'U' : uplo == CblasLower ? 'L' : 0;
  if (!x.uplo) {
    tb_cblas_xerbla(pos, row, rout, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  if (row) x.uplo = flip(x.uplo, 'U', 'L');
  pos++;
  if (shape != TB_MM) {
    x.trans = trans_letter(trans);
    /* trmm and trsm keep TransA: the transposed problem moves A to the other side instead. */
    if (x.trans && row && shape != TB_TR) x.trans = rank_row_trans(&x, x.trans);
    if (!x.trans) {
      tb_cblas_xerbla(pos, row, rout, "Illegal Trans setting, %d\n", trans);
      return;
    }
    pos++;
  }
  if (shape == TB_TR) {
    x.diag = diag == CblasUnit ? 'U' : diag == CblasNonUnit ? 'N' : 0;
    if (!x.diag) {
      tb_cblas_xerbla(pos, row, rout, "Illegal Diag setting, %d\n", diag);
      return;
    }
  }
  if (row && (shape == TB_MM || shape == TB_TR)) {
    int64_t m = x.m;
    x.m = x.n, x.n = m;
  }
  scalar alpha;
  if (row && x.op == TB_HER2K) x.alpha = conj_alpha(&x, &alpha);
  int info = tb_l3_check(&x);
  if (info) {
    tb_cblas_xerbla(info + 1, row, rout, "", 0);
    return;
  }
  tb_l3_run(&x);
}

/* Real scalars come by value, complex ones by address: BYVAL and ADDR of what they point to. */
#define TB_BYVAL_float float
#define TB_BYVAL_double double
#define TB_BYVAL_void const void *
#define TB_ADDR_float &
#define TB_ADDR_double &
#define TB_ADDR_void

#define TB_CBLAS_RK(NAME, ROUT, TYPE, OP, T, SA, SB, INT, ILP64)                                \
  TB_EXPORT void NAME(CBLAS_LAYOUT layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, INT n, INT k, \
                      TB_BYVAL_##SA alpha, const T *a, INT lda, TB_BYVAL_##SB beta, T *c,        \
                      INT ldc) {                                                                 \
    tb_l3 x = {.op = OP, .type = TYPE, .n = n, .k = k, .alpha = TB_ADDR_##SA alpha, .a = a,     \
               .lda = lda, .beta = TB_ADDR_##SB beta, .c = c, .ldc = ldc, .ilp64 = ILP64};       \
    cblas_l3(layout, 0, uplo, trans, 0, x, ROUT);                                                \
  }

#define TB_CBLAS_R2K(NAME, ROUT, TYPE, OP, T, SA, SB, INT, ILP64)                               \
  TB_EXPORT void NAME(CBLAS_LAYOUT layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, INT n, INT k, \
                      TB_BYVAL_##SA alpha, const T *a, INT lda, const T *b, INT ldb,             \
                      TB_BYVAL_##SB beta, T *c, INT ldc) {                                       \
    tb_l3 x = {.op = OP, .type = TYPE, .n = n, .k = k, .alpha = TB_ADDR_##SA alpha, .a = a,     \
               .lda = lda, .b = b, .ldb = ldb, .beta = TB_ADDR_##SB beta, .c = c, .ldc = ldc,    \
               .ilp64 = ILP64};                                                                  \
    cblas_l3(layout, 0, uplo, trans, 0, x, ROUT);                                                \
  }

#define TB_CBLAS_MM(NAME, ROUT, TYPE, OP, T, SA, SB, INT, ILP64)                                \
  TB_EXPORT void NAME(CBLAS_LAYOUT layout, CBLAS_SIDE side, CBLAS_UPLO uplo, INT m, INT n,      \
                      TB_BYVAL_##SA alpha, const T *a, INT lda, const T *b, INT ldb,             \
                      TB_BYVAL_##SB beta, T *c, INT ldc) {                                       \
    tb_l3 x = {.op = OP, .type = TYPE, .m = m, .n = n, .alpha = TB_ADDR_##SA alpha, .a = a,     \
               .lda = lda, .b = b, .ldb = ldb, .beta = TB_ADDR_##SB beta, .c = c, .ldc = ldc,    \
               .ilp64 = ILP64};                                                                  \
    cblas_l3(layout, side, uplo, 0, 0, x, ROUT);                                                 \
  }

/* B, which the routine overwrites, is the call's c. */
#define TB_CBLAS_TR(NAME, ROUT, TYPE, OP, T, SA, SB, INT, ILP64)                                \
  TB_EXPORT void NAME(CBLAS_LAYOUT layout, CBLAS_SIDE side, CBLAS_UPLO uplo,                    \
                      CBLAS_TRANSPOSE transa, CBLAS_DIAG diag, INT m, INT n,                     \
                      TB_BYVAL_##SA alpha, const T *a, INT lda, T *b, INT ldb) {                 \
    tb_l3 x = {.op = OP, .type = TYPE, .m = m, .n = n, .alpha = TB_ADDR_##SA alpha, .a = a,     \
               .lda = lda, .c = b, .ldc = ldb, .ilp64 = ILP64};                                  \
    cblas_l3(layout, side, uplo, transa, diag, x, ROUT);                                         \
  }

/* Netlib's _64 API reports under the same routine names, through the same cblas_xerbla. */
#define TB_CBLAS_ENTRY(t, TYPE, name, NAME, SHAPE, T, SA, SB)                                   \
  TB_CBLAS_##SHAPE(cblas_##t##name, "cblas_" #t #name, TYPE, TB_##NAME, T, SA, SB, int, 0)      \
  TB_CBLAS_##SHAPE(cblas_##t##name##_64, "cblas_" #t #name, TYPE, TB_##NAME, T, SA, SB, int64_t, 1)

TB_L3_ENTRIES(TB_CBLAS_ENTRY)
