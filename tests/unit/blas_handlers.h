/* SPDX-License-Identifier: Apache-2.0 */
/* The program's own BLAS error handlers, as the BLAS and CBLAS testers define theirs: a test
 * that includes this (once per program) replaces libtcjblas's weak xerbla_ and cblas_xerbla and
 * reads what the last illegal call reported; and the operands such a call must not touch. */
#ifndef TCJ_TEST_BLAS_HANDLERS_H
#define TCJ_TEST_BLAS_HANDLERS_H

#include <stddef.h>
#include <stdio.h>

#include "tests/unit/blas_test.h"

static int xerbla_calls, xerbla_info;
static char xerbla_name[16];

void xerbla_(const char *srname, const int *info, size_t len) {
  xerbla_calls++;
  xerbla_info = *info;
  snprintf(xerbla_name, sizeof xerbla_name, "%.*s", (int)len, srname);
}

extern int RowMajorStrg; /* Netlib CBLAS's global, which libtcjblas exports as Netlib does */
static int cblas_calls, cblas_info, cblas_row;
static char cblas_rout[32];

void cblas_xerbla(int p, const char *rout, const char *form, ...) {
  (void)form;
  cblas_calls++;
  cblas_info = p;
  cblas_row = RowMajorStrg;
  snprintf(cblas_rout, sizeof cblas_rout, "%s", rout);
}

static void *a, *b, *c; /* fault on any access: a rejected call must read and write nothing */

static int setup(void **state) {
  (void)state;
  a = bt_no_access(), b = bt_no_access(), c = bt_no_access();
  return a && b && c ? 0 : -1;
}

#endif
