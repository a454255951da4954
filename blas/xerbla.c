/* SPDX-License-Identifier: Apache-2.0 */
/* Illegal-argument reports: the default xerbla_ and cblas_xerbla (weak, so that a program's own
 * win, as the BLAS, LAPACK and CBLAS testers define theirs) and how the library calls them. */
#include "blas/tcjblas_internal.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>

/* Netlib CBLAS's global: 1 while a row-major call reports an error, so that a cblas_xerbla
 * (Netlib's, its tester's, ours) maps the column-major call's positions back to the caller's.
 * Written on the error path only; two threads reporting at once may see each other's value,
 * as with Netlib. */
TB_EXPORT int RowMajorStrg = 0;

/* Netlib's message (xerbla.f, name trimmed), on stderr rather than Fortran's unit 6, and no STOP:
 * a library must not end the program. */
TB_EXPORT __attribute__((weak)) void xerbla_(const char *srname, const int *info, size_t len) {
  while (len > 0 && srname[len - 1] == ' ') len--;
  fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)len,
          srname, *info);
}

/* Netlib's cblas_xerbla_map_info: a row-major call reaches the checks as the column-major call
 * of the transposed problem, with these positions swapped; the others are the caller's own. */
static const struct {
  const char *op;
  int swap[2][2];
} row_major_swaps[] = {
  {"gemm", {{4, 5}, {9, 11}}},
  {"symm", {{4, 5}, {0, 0}}},
  {"hemm", {{4, 5}, {0, 0}}},
  {"trmm", {{6, 7}, {0, 0}}},
  {"trsm", {{6, 7}, {0, 0}}},
};

/* "cblas_dtrsm" or "cblas_dtrsm_64": is the operation `op`? */
static int operation_is(const char *rout, const char *op) {
  if (strncmp(rout, "cblas_", 6) || !rout[6]) return 0;
  const char *p = rout + 7;
  size_t n = strlen(op);
  return !strncmp(p, op, n) && (!p[n] || !strcmp(p + n, "_64"));
}

static int caller_position(int p, const char *rout) {
  for (size_t i = 0; i < sizeof row_major_swaps / sizeof *row_major_swaps; i++) {
    if (!operation_is(rout, row_major_swaps[i].op)) continue;
    for (int s = 0; s < 2; s++) {
      const int *w = row_major_swaps[i].swap[s];
      if (p && p == w[0]) return w[1];
      if (p && p == w[1]) return w[0];
    }
  }
  return p;
}

/* Netlib's cblas_xerbla.c without its exit(-1). */
TB_EXPORT __attribute__((weak)) void cblas_xerbla(int p, const char *rout, const char *form, ...) {
  if (RowMajorStrg) p = caller_position(p, rout);
  if (p) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
  va_list ap;
  va_start(ap, form);
  vfprintf(stderr, form, ap);
  va_end(ap);
}

/* The handler is looked up by name in the program's global scope first: a plain call could be
 * bound to our own weak definition when the library is linked with -Bsymbolic-functions (as
 * some distributions do), and the program's handler would never be called. */
typedef void (*xerbla_fn)(const char *, const int *, size_t);
typedef void (*cblas_xerbla_fn)(int, const char *, const char *, ...);

void tb_xerbla(const char *srname, int info) {
  xerbla_fn fn;
  *(void **)&fn = dlsym(RTLD_DEFAULT, "xerbla_");
  if (!fn) fn = xerbla_; /* loaded with RTLD_LOCAL: ours is not in the global scope */
  fn(srname, &info, strlen(srname));
}

void tb_cblas_xerbla(int info, int row_major, const char *rout, const char *form, int value) {
  cblas_xerbla_fn fn;
  *(void **)&fn = dlsym(RTLD_DEFAULT, "cblas_xerbla");
  if (!fn) fn = cblas_xerbla;
  RowMajorStrg = row_major;
  fn(info, rout, form, value);
  RowMajorStrg = 0;
}
