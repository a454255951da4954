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

/* Netlib's cblas_xerbla.c without its exit(-1). Only the gemm swap is needed today; syrk,
 * trsm, ... add theirs when they come. */
TB_EXPORT __attribute__((weak)) void cblas_xerbla(int p, const char *rout, const char *form, ...) {
  if (RowMajorStrg && strstr(rout, "gemm")) {
    if (p == 4) p = 5;
    else if (p == 5) p = 4;
    else if (p == 9) p = 11;
    else if (p == 11) p = 9;
  }
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
