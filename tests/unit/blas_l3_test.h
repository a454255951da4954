/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the tests of the Level-3 routines beside GEMM: every entry (?syrk ?herk ?syr2k
 * ?her2k ?symm ?hemm ?trmm ?trsm, through the Fortran, Fortran _64_, CBLAS and CBLAS _64 ABIs)
 * called from one description of the call, and elements read and written as long double
 * complex. The routine list is the tests' own, not the library's, so that an entry missing from
 * the library fails to link here. */
#ifndef TCJ_TEST_BLAS_L3_TEST_H
#define TCJ_TEST_BLAS_L3_TEST_H

#include <complex.h>

#include "tests/unit/blas_test.h"

typedef long double _Complex ldc;

/* X(t, op, SHAPE, ALPHA, BETA): ALPHA and BETA are the scalars as CBLAS takes them, from the
 * caller's float sa[2], sb[2] and double da[2], db[2] (real ones by value, complex by address). */
#define L3_ROUTINES(X)                                                                             \
  X(s, syrk, RK, sa[0], sb[0]) X(d, syrk, RK, da[0], db[0]) X(c, syrk, RK, sa, sb)               \
  X(z, syrk, RK, da, db) X(c, herk, RK, sa[0], sb[0]) X(z, herk, RK, da[0], db[0])                \
  X(s, syr2k, R2K, sa[0], sb[0]) X(d, syr2k, R2K, da[0], db[0]) X(c, syr2k, R2K, sa, sb)         \
  X(z, syr2k, R2K, da, db) X(c, her2k, R2K, sa, sb[0]) X(z, her2k, R2K, da, db[0])                \
  X(s, symm, MM, sa[0], sb[0]) X(d, symm, MM, da[0], db[0]) X(c, symm, MM, sa, sb)               \
  X(z, symm, MM, da, db) X(c, hemm, MM, sa, sb) X(z, hemm, MM, da, db)                            \
  X(s, trmm, TR, sa[0], 0) X(d, trmm, TR, da[0], 0) X(c, trmm, TR, sa, 0) X(z, trmm, TR, da, 0)   \
  X(s, trsm, TR, sa[0], 0) X(d, trsm, TR, da[0], 0) X(c, trsm, TR, sa, 0) X(z, trsm, TR, da, 0)

#define L3_NAME(t, op, SHAPE, ALPHA, BETA) #t #op,
static const char *const l3_names[] = {L3_ROUTINES(L3_NAME)};
#undef L3_NAME
#define L3_COUNT ((int)(sizeof l3_names / sizeof *l3_names))

typedef enum l3_shape { L3_RK, L3_R2K, L3_MM, L3_TR } l3_shape;

/* "dsyrk" -> RK, ... */
static inline l3_shape l3_shape_of(const char *name) {
  if (strstr(name, "2k")) return L3_R2K;
  if (strstr(name, "rk")) return L3_RK;
  if (strstr(name, "mm") && name[1] != 't') return L3_MM;
  return L3_TR;
}
static inline int l3_herm(const char *name) { return name[1] == 'h'; }

/* One call. name: "dsyrk", ...; side, uplo, trans, diag: Fortran letters, passed as they are to
 * the Fortran entries and as the matching enumeration to CBLAS (a letter with no enumeration
 * goes as its character code, which no enumeration has). m, n, k: the routine's sizes (RK, R2K:
 * n and k; MM, TR: m and n). Complex scalars have both parts; herk's alpha and beta and her2k's
 * beta use alpha[0] / beta[0]. */
typedef struct l3_case {
  bt_api api;
  int row_major;
  int layout; /* CBLAS: 0 for the one row_major says, else passed as it is (a bad one) */
  const char *name;
  char side, uplo, trans, diag;
  int m, n, k;
  double alpha[2], beta[2];
} l3_case;

static inline int l3_enum(char c, const char *letters, const int *values) {
  const char *p = c ? strchr(letters, c) : NULL;
  return p ? values[p - letters] : (unsigned char)c;
}

/* Calls cs's entry on the arrays. B of trmm and trsm, the matrix they write, is passed as c
 * (with ldc); their b and ldb are not used. */
static inline void l3_call(const l3_case *cs, const void *a, int lda, const void *b, int ldb,
                           void *c, int ldc) {
  float sa[2] = {(float)cs->alpha[0], (float)cs->alpha[1]}, sb[2] = {(float)cs->beta[0], (float)cs->beta[1]};
  double da[2] = {cs->alpha[0], cs->alpha[1]}, db[2] = {cs->beta[0], cs->beta[1]};
  int single = cs->name[0] == 's' || cs->name[0] == 'c';
  const void *al = single ? (const void *)sa : (const void *)da;
  const void *be = single ? (const void *)sb : (const void *)db;
  int m = cs->m, n = cs->n, k = cs->k;
  int64_t m64 = m, n64 = n, k64 = k, lda64 = lda, ldb64 = ldb, ldc64 = ldc;
  CBLAS_LAYOUT lay = cs->layout ? (CBLAS_LAYOUT)cs->layout : cs->row_major ? CblasRowMajor : CblasColMajor;
  CBLAS_SIDE side = (CBLAS_SIDE)l3_enum(cs->side, "LR", (const int[]){CblasLeft, CblasRight});
  CBLAS_UPLO uplo = (CBLAS_UPLO)l3_enum(cs->uplo, "UL", (const int[]){CblasUpper, CblasLower});
  CBLAS_TRANSPOSE trans =
    (CBLAS_TRANSPOSE)l3_enum(cs->trans, "NTC", (const int[]){CblasNoTrans, CblasTrans, CblasConjTrans});
  CBLAS_DIAG diag = (CBLAS_DIAG)l3_enum(cs->diag, "UN", (const int[]){CblasUnit, CblasNonUnit});
#define L3_CALL_RK(f, ALPHA, BETA)                                                                 \
  switch (cs->api) {                                                                               \
  case BT_F77: f##_(&cs->uplo, &cs->trans, &n, &k, al, a, &lda, be, c, &ldc); break;               \
  case BT_F77_64: f##_64_(&cs->uplo, &cs->trans, &n64, &k64, al, a, &lda64, be, c, &ldc64); break; \
  case BT_CBLAS: cblas_##f(lay, uplo, trans, n, k, ALPHA, a, lda, BETA, c, ldc); break;            \
  case BT_CBLAS_64: cblas_##f##_64(lay, uplo, trans, n64, k64, ALPHA, a, lda64, BETA, c, ldc64); break; \
  }
#define L3_CALL_R2K(f, ALPHA, BETA)                                                                \
  switch (cs->api) {                                                                               \
  case BT_F77: f##_(&cs->uplo, &cs->trans, &n, &k, al, a, &lda, b, &ldb, be, c, &ldc); break;      \
  case BT_F77_64:                                                                                  \
    f##_64_(&cs->uplo, &cs->trans, &n64, &k64, al, a, &lda64, b, &ldb64, be, c, &ldc64);           \
    break;                                                                                         \
  case BT_CBLAS: cblas_##f(lay, uplo, trans, n, k, ALPHA, a, lda, b, ldb, BETA, c, ldc); break;    \
  case BT_CBLAS_64:                                                                                \
    cblas_##f##_64(lay, uplo, trans, n64, k64, ALPHA, a, lda64, b, ldb64, BETA, c, ldc64);         \
    break;                                                                                         \
  }
#define L3_CALL_MM(f, ALPHA, BETA)                                                                 \
  switch (cs->api) {                                                                               \
  case BT_F77: f##_(&cs->side, &cs->uplo, &m, &n, al, a, &lda, b, &ldb, be, c, &ldc); break;       \
  case BT_F77_64:                                                                                  \
    f##_64_(&cs->side, &cs->uplo, &m64, &n64, al, a, &lda64, b, &ldb64, be, c, &ldc64);            \
    break;                                                                                         \
  case BT_CBLAS: cblas_##f(lay, side, uplo, m, n, ALPHA, a, lda, b, ldb, BETA, c, ldc); break;     \
  case BT_CBLAS_64:                                                                                \
    cblas_##f##_64(lay, side, uplo, m64, n64, ALPHA, a, lda64, b, ldb64, BETA, c, ldc64);          \
    break;                                                                                         \
  }
#define L3_CALL_TR(f, ALPHA, BETA)                                                                 \
  switch (cs->api) {                                                                               \
  case BT_F77: f##_(&cs->side, &cs->uplo, &cs->trans, &cs->diag, &m, &n, al, a, &lda, c, &ldc); break; \
  case BT_F77_64:                                                                                  \
    f##_64_(&cs->side, &cs->uplo, &cs->trans, &cs->diag, &m64, &n64, al, a, &lda64, c, &ldc64);    \
    break;                                                                                         \
  case BT_CBLAS: cblas_##f(lay, side, uplo, trans, diag, m, n, ALPHA, a, lda, c, ldc); break;      \
  case BT_CBLAS_64:                                                                                \
    cblas_##f##_64(lay, side, uplo, trans, diag, m64, n64, ALPHA, a, lda64, c, ldc64);             \
    break;                                                                                         \
  }
#define L3_CASE(t, op, SHAPE, ALPHA, BETA)                                                         \
  if (!strcmp(cs->name, #t #op)) {                                                                 \
    L3_CALL_##SHAPE(t##op, ALPHA, BETA) return;                                                    \
  }
  L3_ROUTINES(L3_CASE)
#undef L3_CASE
#undef L3_CALL_RK
#undef L3_CALL_R2K
#undef L3_CALL_MM
#undef L3_CALL_TR
  fprintf(stderr, "l3_call: no routine %s\n", cs->name);
  abort();
}

/* re + im i exactly: re + im * I would make a NaN or infinite im spill into the real part
 * (im * I multiplies (0, 1) by im). A complex is an array of its two parts. */
static inline ldc l3_cplx(long double re, long double im) {
  ldc v;
  ((long double *)&v)[0] = re;
  ((long double *)&v)[1] = im;
  return v;
}

/* Elements as long double complex (the imaginary part of a real type's is 0). */
static inline ldc l3_get(char type, const void *p, size_t i) {
  long double re, im;
  bt_get(type, p, i, &re, &im);
  return l3_cplx(re, im);
}
static inline void l3_put(char type, void *p, size_t i, ldc v) {
  bt_put(type, p, i, (double)creall(v), (double)cimagl(v));
}

/* Element (r, c) of a stored matrix, in the case's storage order. */
static inline size_t l3_at(int row_major, int r, int c, int ld) {
  return row_major ? (size_t)r * ld + c : (size_t)c * ld + r;
}

static inline long double l3_eps(char type) { return type == 's' || type == 'c' ? 0x1p-24L : 0x1p-53L; }

#endif
