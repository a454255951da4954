/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the libtcjblas tests: calling any of the 16 GEMM entries with one description of
 * the call, a long double reference checked element by element, pages that fault on any access,
 * and stderr captured to a string. */
#ifndef TCJ_TEST_BLAS_TEST_H
#define TCJ_TEST_BLAS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blas/tcjblas.h"

/* Which entry takes the call. */
typedef enum bt_api { BT_F77, BT_F77_64, BT_CBLAS, BT_CBLAS_64 } bt_api;

/* One GEMM: type 's', 'd', 'c' or 'z'; ta/tb 'N', 'T', 'C'; pad: leading dimensions exceed the
 * stored rows (column-major) or columns (row-major, CBLAS only) by this much. */
typedef struct bt_case {
  bt_api api;
  int row_major;
  char type, ta, tb;
  int m, n, k, pad;
  double alpha[2], beta[2];
} bt_case;

static inline size_t bt_es(char type) { return type == 's' ? 4 : type == 'z' ? 16 : 8; }
static inline int bt_cplx(char type) { return type == 'c' || type == 'z'; }

static inline void bt_put(char type, void *p, size_t i, double re, double im) {
  switch (type) {
  case 's': ((float *)p)[i] = (float)re; break;
  case 'd': ((double *)p)[i] = re; break;
  case 'c': ((float *)p)[2 * i] = (float)re, ((float *)p)[2 * i + 1] = (float)im; break;
  case 'z': ((double *)p)[2 * i] = re, ((double *)p)[2 * i + 1] = im; break;
  }
}

static inline void bt_get(char type, const void *p, size_t i, long double *re, long double *im) {
  *re = *im = 0;
  switch (type) {
  case 's': *re = ((const float *)p)[i]; break;
  case 'd': *re = ((const double *)p)[i]; break;
  case 'c': *re = ((const float *)p)[2 * i], *im = ((const float *)p)[2 * i + 1]; break;
  case 'z': *re = ((const double *)p)[2 * i], *im = ((const double *)p)[2 * i + 1]; break;
  }
}

/* Values in [-1, 1) from a fixed sequence: every run sees the same matrices. */
static inline double bt_rand(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

static inline CBLAS_TRANSPOSE bt_cblas_trans(char t) {
  return t == 'N' ? CblasNoTrans : t == 'T' ? CblasTrans : t == 'C' ? CblasConjTrans : (CBLAS_TRANSPOSE)0;
}

/* Calls the entry cs->api names. Scalars are converted to the type (complex: two parts). */
static inline void bt_call(const bt_case *cs, int m, int n, int k, const void *a, int lda,
                           const void *b, int ldb, void *c, int ldc) {
  float sa[2] = {(float)cs->alpha[0], (float)cs->alpha[1]}, sb[2] = {(float)cs->beta[0], (float)cs->beta[1]};
  const double *da = cs->alpha, *db = cs->beta;
  int64_t m64 = m, n64 = n, k64 = k, lda64 = lda, ldb64 = ldb, ldc64 = ldc;
  CBLAS_LAYOUT lay = cs->row_major ? CblasRowMajor : CblasColMajor;
  CBLAS_TRANSPOSE ta = bt_cblas_trans(cs->ta), tb = bt_cblas_trans(cs->tb);
  switch (cs->api) {
  case BT_F77:
    switch (cs->type) {
    case 's': sgemm_(&cs->ta, &cs->tb, &m, &n, &k, sa, a, &lda, b, &ldb, sb, c, &ldc); break;
    case 'd': dgemm_(&cs->ta, &cs->tb, &m, &n, &k, da, a, &lda, b, &ldb, db, c, &ldc); break;
    case 'c': cgemm_(&cs->ta, &cs->tb, &m, &n, &k, sa, a, &lda, b, &ldb, sb, c, &ldc); break;
    case 'z': zgemm_(&cs->ta, &cs->tb, &m, &n, &k, da, a, &lda, b, &ldb, db, c, &ldc); break;
    }
    break;
  case BT_F77_64:
    switch (cs->type) {
    case 's': sgemm_64_(&cs->ta, &cs->tb, &m64, &n64, &k64, sa, a, &lda64, b, &ldb64, sb, c, &ldc64); break;
    case 'd': dgemm_64_(&cs->ta, &cs->tb, &m64, &n64, &k64, da, a, &lda64, b, &ldb64, db, c, &ldc64); break;
    case 'c': cgemm_64_(&cs->ta, &cs->tb, &m64, &n64, &k64, sa, a, &lda64, b, &ldb64, sb, c, &ldc64); break;
    case 'z': zgemm_64_(&cs->ta, &cs->tb, &m64, &n64, &k64, da, a, &lda64, b, &ldb64, db, c, &ldc64); break;
    }
    break;
  case BT_CBLAS:
    switch (cs->type) {
    case 's': cblas_sgemm(lay, ta, tb, m, n, k, sa[0], a, lda, b, ldb, sb[0], c, ldc); break;
    case 'd': cblas_dgemm(lay, ta, tb, m, n, k, da[0], a, lda, b, ldb, db[0], c, ldc); break;
    case 'c': cblas_cgemm(lay, ta, tb, m, n, k, sa, a, lda, b, ldb, sb, c, ldc); break;
    case 'z': cblas_zgemm(lay, ta, tb, m, n, k, da, a, lda, b, ldb, db, c, ldc); break;
    }
    break;
  case BT_CBLAS_64:
    switch (cs->type) {
    case 's': cblas_sgemm_64(lay, ta, tb, m64, n64, k64, sa[0], a, lda64, b, ldb64, sb[0], c, ldc64); break;
    case 'd': cblas_dgemm_64(lay, ta, tb, m64, n64, k64, da[0], a, lda64, b, ldb64, db[0], c, ldc64); break;
    case 'c': cblas_cgemm_64(lay, ta, tb, m64, n64, k64, sa, a, lda64, b, ldb64, sb, c, ldc64); break;
    case 'z': cblas_zgemm_64(lay, ta, tb, m64, n64, k64, da, a, lda64, b, ldb64, db, c, ldc64); break;
    }
    break;
  }
}

/* A stored rows x cols matrix's element (r, c) index, in the case's storage order. */
static inline size_t bt_at(const bt_case *cs, int r, int c, int ld) {
  return cs->row_major ? (size_t)r * ld + c : (size_t)c * ld + r;
}

/* op(X)(i, l) of a matrix stored as the case says (X is rows x cols when t == 'N'). */
static inline void bt_op(const bt_case *cs, const void *x, char t, int i, int l, int ld,
                         long double *re, long double *im) {
  bt_get(cs->type, x, t == 'N' ? bt_at(cs, i, l, ld) : bt_at(cs, l, i, ld), re, im);
  if (t == 'C') *im = -*im;
}

/* Runs the case on fresh matrices and checks every element of C against a long double
 * reference, with the error bound of a k-term dot product taken from |alpha| |A| |B| + |beta C|
 * element by element; elements of C's padding must come back bit for bit. Returns the number
 * of wrong elements (the first few are printed). */
static inline int bt_check(const bt_case *cs) {
  char t = cs->type;
  size_t es = bt_es(t);
  int ra = cs->ta == 'N' ? cs->m : cs->k, ca = cs->ta == 'N' ? cs->k : cs->m;
  int rb = cs->tb == 'N' ? cs->k : cs->n, cb = cs->tb == 'N' ? cs->n : cs->k;
  /* The leading dimension spans the stored rows (column-major) or columns (row-major). */
  int lda = (cs->row_major ? ca : ra) + cs->pad, ldb = (cs->row_major ? cb : rb) + cs->pad;
  int ldc = (cs->row_major ? cs->n : cs->m) + cs->pad;
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (ldc < 1) ldc = 1;
  size_t na = (size_t)lda * (cs->row_major ? ra : ca), nb = (size_t)ldb * (cs->row_major ? rb : cb);
  size_t nc = (size_t)ldc * (cs->row_major ? cs->m : cs->n);
  void *a = calloc(na + 1, es), *b = calloc(nb + 1, es), *c = calloc(nc + 1, es), *c0 = calloc(nc + 1, es);
  unsigned s = 12345u + (unsigned)t * 7u + (unsigned)cs->ta * 131u + (unsigned)cs->tb * 17u;
  for (size_t i = 0; i < na; i++) bt_put(t, a, i, bt_rand(&s), bt_rand(&s));
  for (size_t i = 0; i < nb; i++) bt_put(t, b, i, bt_rand(&s), bt_rand(&s));
  for (size_t i = 0; i < nc; i++) bt_put(t, c, i, bt_rand(&s), bt_rand(&s));
  memcpy(c0, c, nc * es);
  bt_call(cs, cs->m, cs->n, cs->k, a, lda, b, ldb, c, ldc);

  long double eps = t == 's' || t == 'c' ? 0x1p-24L : 0x1p-53L;
  long double ar = cs->alpha[0], ai = bt_cplx(t) ? cs->alpha[1] : 0;
  long double br = cs->beta[0], bi = bt_cplx(t) ? cs->beta[1] : 0;
  if (t == 's' || t == 'c') ar = (float)ar, ai = (float)ai, br = (float)br, bi = (float)bi;
  int bad = 0;
  for (int i = 0; i < cs->m; i++)
    for (int j = 0; j < cs->n; j++) {
      long double sr = 0, si = 0, mag = 0;
      for (int l = 0; l < cs->k; l++) {
        long double xr, xi, yr, yi;
        bt_op(cs, a, cs->ta, i, l, lda, &xr, &xi);
        bt_op(cs, b, cs->tb, l, j, ldb, &yr, &yi);
        sr += xr * yr - xi * yi;
        si += xr * yi + xi * yr;
        mag += hypotl(xr, xi) * hypotl(yr, yi);
      }
      long double cr, ci, gr, gi;
      bt_get(t, c0, bt_at(cs, i, j, ldc), &cr, &ci);
      long double er = ar * sr - ai * si + br * cr - bi * ci;
      long double ei = ar * si + ai * sr + br * ci + bi * cr;
      long double bound = (cs->k + 4) * 4 * eps * (hypotl(ar, ai) * mag + hypotl(br, bi) * hypotl(cr, ci)) + 1e-30L;
      bt_get(t, c, bt_at(cs, i, j, ldc), &gr, &gi);
      long double err = hypotl(gr - er, gi - ei);
      if (!(err <= bound)) {
        if (bad++ < 3)
          fprintf(stderr, "%c%c%c api %d %s m=%d n=%d k=%d: C(%d,%d) = (%Lg, %Lg), want (%Lg, %Lg), error %Lg > bound %Lg\n",
                  t, cs->ta, cs->tb, cs->api, cs->row_major ? "row" : "col", cs->m, cs->n, cs->k, i, j,
                  gr, gi, er, ei, err, bound);
      }
    }
  /* The padding between the rows (or columns) of C is C's caller's, not the call's. */
  int outer = cs->row_major ? cs->m : cs->n, inner = cs->row_major ? cs->n : cs->m;
  for (int o = 0; o < outer; o++)
    if (memcmp((char *)c + ((size_t)o * ldc + inner) * es, (char *)c0 + ((size_t)o * ldc + inner) * es,
               (size_t)(ldc - inner) * es)) {
      if (bad++ < 3) fprintf(stderr, "%c%c%c: padding of C changed after line %d\n", t, cs->ta, cs->tb, o);
    }
  free(a), free(b), free(c), free(c0);
  return bad;
}

/* A page that faults on any access: an operand the call must not touch. */
static inline void *bt_no_access(void) {
  void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* stderr into a temporary file between begin and end; end returns what was written (free it). */
typedef struct bt_capture {
  int saved;
  FILE *f;
} bt_capture;

static inline bt_capture bt_capture_begin(void) {
  bt_capture cap = {-1, tmpfile()};
  fflush(stderr);
  if (cap.f) {
    cap.saved = dup(2);
    dup2(fileno(cap.f), 2);
  }
  return cap;
}

static inline char *bt_capture_end(bt_capture cap) {
  fflush(stderr);
  if (!cap.f) return strdup("");
  dup2(cap.saved, 2);
  close(cap.saved);
  /* The writes went through descriptor 2, which shares the file (and its offset) with cap.f. */
  int fd = fileno(cap.f);
  off_t n = lseek(fd, 0, SEEK_END);
  char *s = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
  if (n > 0 && pread(fd, s, (size_t)n, 0) != (ssize_t)n) s[0] = 0;
  fclose(cap.f);
  return s;
}

/* How many times `needle` occurs in `hay`. */
static inline int bt_count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

#endif
