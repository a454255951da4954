/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's argument checks of the Level-3 routines beside GEMM: every illegal argument of
 * every routine, through the Fortran entries, their _64_ twins and CBLAS in both layouts (and its
 * _64 twins), reaches the program's own xerbla_ / cblas_xerbla with the reference's parameter
 * number (Netlib's dsyrk.f, dsyr2k.f, dsymm.f, dtrsm.f and kin; Netlib CBLAS's positions), and
 * the call touches none of A, B and C. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_l3_test.h"
#include "tests/unit/blas_handlers.h"


/* What Netlib CBLAS's cblas_xerbla_map_info makes of (p, RowMajorStrg): the position in the
 * caller's own argument list. Row-major symm and hemm reach the checks with M and N swapped,
 * trmm and trsm too; the rank-k routines swap nothing. */
static int caller_position(void) {
  int p = cblas_info;
  const char *op = cblas_rout + 7; /* past "cblas_" and the type */
  if (!cblas_row) return p;
  if (!strcmp(op, "symm") || !strcmp(op, "hemm")) return p == 4 ? 5 : p == 5 ? 4 : p;
  if (!strcmp(op, "trmm") || !strcmp(op, "trsm")) return p == 6 ? 7 : p == 7 ? 6 : p;
  return p;
}

/* One illegal call: the letters (in TRANS, '*' stands for the routine's transpose, T or for
 * herk and her2k C; '!' for the letter it refuses, C for complex syrk and syr2k, T for herk and
 * her2k: real syrk and syr2k refuse none and skip the row), sizes and leading dimensions (TR:
 * ldb is B's), and the number expected: the Fortran INFO, or the CBLAS position. */
typedef struct bad {
  char side, uplo, trans, diag;
  int m, n, k, lda, ldb, ldc;
  int want;
  int r2k_only; /* a bad LDB, which syrk and herk do not have */
} bad;

/* Columns: side, uplo, trans, diag; m, n, k; lda, ldb, ldc; the number; R2K only.
 * Valid: n 3, k 5; lda >= n (TRANS N) or k, ldb as lda, ldc >= n. Where several arguments are
 * bad, the first check in the routine's order wins. Lower-case letters are valid. */
static const bad rank_f77[] = {
  {  0, 'X', 'N',   0,  0,  3,  5,  3,  3,  3,  1, 0},
  {  0, 'U', 'X',   0,  0,  3,  5,  3,  3,  3,  2, 0},
  {  0, 'U', '!',   0,  0,  3,  5,  5,  5,  3,  2, 0},
  {  0, 'U', 'N',   0,  0, -1,  5,  3,  3,  3,  3, 0},
  {  0, 'U', 'N',   0,  0,  3, -1,  3,  3,  3,  4, 0},
  {  0, 'U', 'N',   0,  0,  3,  5,  2,  3,  3,  7, 0},
  {  0, 'L', '*',   0,  0,  3,  5,  4,  5,  3,  7, 0},
  {  0, 'U', 'N',   0,  0,  3,  5,  3,  2,  3,  9, 1},
  {  0, 'L', '*',   0,  0,  3,  5,  5,  4,  3,  9, 1},
  {  0, 'U', 'N',   0,  0,  3,  5,  3,  3,  2, 12, 0},
  {  0, 'U', 'N',   0,  0,  0,  5,  0,  1,  1,  7, 0},
  {  0, 'U', 'N',   0,  0,  0,  5,  1,  1,  0, 12, 0},
  {  0, 'X', 'X',   0,  0, -1, -1,  0,  0,  0,  1, 0},
  {  0, 'u', 'x',   0,  0, -1, -1,  0,  0,  0,  2, 0},
  {  0, 'l', 'n',   0,  0, -1, -1,  0,  0,  0,  3, 0},
  {  0, 'L', 'N',   0,  0,  3, -1,  0,  0,  0,  4, 0},
};
/* Row-major: A is n x k (TRANS N) or k x n as stored rows, so lda >= k (N) or n. */
static const bad rank_row[] = {
  {  0, 'X', 'N',   0,  0,  3,  5,  5,  5,  3,  2, 0},
  {  0, 'U', 'X',   0,  0,  3,  5,  5,  5,  3,  3, 0},
  {  0, 'U', '!',   0,  0,  3,  5,  3,  3,  3,  3, 0},
  {  0, 'U', 'N',   0,  0, -1,  5,  5,  5,  3,  4, 0},
  {  0, 'U', 'N',   0,  0,  3, -1,  5,  5,  3,  5, 0},
  {  0, 'U', 'N',   0,  0,  3,  5,  4,  5,  3,  8, 0},
  {  0, 'L', '*',   0,  0,  3,  5,  2,  3,  3,  8, 0},
  {  0, 'U', 'N',   0,  0,  3,  5,  5,  4,  3, 10, 1},
  {  0, 'L', '*',   0,  0,  3,  5,  3,  2,  3, 10, 1},
  {  0, 'U', 'N',   0,  0,  3,  5,  5,  5,  2, 13, 0},
  {  0, 'U', 'N',   0,  0,  0,  5,  4,  5,  1,  8, 0},
  {  0, 'X', 'X',   0,  0, -1, -1,  0,  0,  0,  2, 0},
  {  0, 'U', 'N',   0,  0, -1, -1,  0,  0,  0,  4, 0},
};

/* Valid: m 3, n 4; lda >= m (side L) or n; ldb, ldc >= m. */
static const bad mm_f77[] = {
  {'X', 'U',   0,   0,  3,  4,  0,  3,  3,  3,  1, 0},
  {'L', 'X',   0,   0,  3,  4,  0,  3,  3,  3,  2, 0},
  {'L', 'U',   0,   0, -1,  4,  0,  3,  3,  3,  3, 0},
  {'L', 'U',   0,   0,  3, -1,  0,  3,  3,  3,  4, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  2,  3,  3,  7, 0},
  {'R', 'U',   0,   0,  3,  4,  0,  3,  3,  3,  7, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  3,  2,  3,  9, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  3,  3,  2, 12, 0},
  {'L', 'U',   0,   0,  0,  4,  0,  1,  0,  1,  9, 0},
  {'x', 'x',   0,   0, -1, -1,  0,  0,  0,  0,  1, 0},
  {'r', 'x',   0,   0, -1, -1,  0,  0,  0,  0,  2, 0},
  {'r', 'l',   0,   0, -1, -1,  0,  0,  0,  0,  3, 0},
  {'R', 'L',   0,   0,  3, -1,  0,  0,  0,  0,  4, 0},
};
/* Row-major: B and C are m x n as stored rows, so ldb, ldc >= n; the transposed call checks the
 * caller's N before its M. */
static const bad mm_row[] = {
  {'X', 'U',   0,   0,  3,  4,  0,  3,  4,  4,  2, 0},
  {'L', 'X',   0,   0,  3,  4,  0,  3,  4,  4,  3, 0},
  {'L', 'U',   0,   0, -1,  4,  0,  3,  4,  4,  4, 0},
  {'L', 'U',   0,   0,  3, -1,  0,  3,  4,  4,  5, 0},
  {'L', 'U',   0,   0, -1, -1,  0,  3,  4,  4,  5, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  2,  4,  4,  8, 0},
  {'R', 'U',   0,   0,  3,  4,  0,  3,  4,  4,  8, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  3,  3,  4, 10, 0},
  {'L', 'U',   0,   0,  3,  4,  0,  3,  4,  3, 13, 0},
};

/* Valid: m 3, n 4; lda >= m (side L) or n; ldb >= m. */
static const bad tr_f77[] = {
  {'X', 'U', 'N', 'N',  3,  4,  0,  3,  3,  0,  1, 0},
  {'L', 'X', 'N', 'N',  3,  4,  0,  3,  3,  0,  2, 0},
  {'L', 'U', 'X', 'N',  3,  4,  0,  3,  3,  0,  3, 0},
  {'L', 'U', 'N', 'X',  3,  4,  0,  3,  3,  0,  4, 0},
  {'L', 'U', 'N', 'N', -1,  4,  0,  3,  3,  0,  5, 0},
  {'L', 'U', 'N', 'N',  3, -1,  0,  3,  3,  0,  6, 0},
  {'L', 'U', 'N', 'N',  3,  4,  0,  2,  3,  0,  9, 0},
  {'R', 'L', 'T', 'U',  3,  4,  0,  3,  3,  0,  9, 0},
  {'L', 'U', 'C', 'N',  3,  4,  0,  3,  2,  0, 11, 0},
  {'L', 'U', 'N', 'N',  0,  4,  0,  1,  0,  0, 11, 0},
  {'x', 'x', 'x', 'x', -1, -1,  0,  0,  0,  0,  1, 0},
  {'l', 'u', 'x', 'x', -1, -1,  0,  0,  0,  0,  3, 0},
  {'l', 'u', 't', 'x', -1, -1,  0,  0,  0,  0,  4, 0},
  {'l', 'u', 'c', 'u', -1, -1,  0,  0,  0,  0,  5, 0},
  {'r', 'l', 'n', 'n',  3, -1,  0,  0,  0,  0,  6, 0},
};
/* Row-major: B is m x n as stored rows, so ldb >= n. */
static const bad tr_row[] = {
  {'X', 'U', 'N', 'N',  3,  4,  0,  3,  4,  0,  2, 0},
  {'L', 'X', 'N', 'N',  3,  4,  0,  3,  4,  0,  3, 0},
  {'L', 'U', 'X', 'N',  3,  4,  0,  3,  4,  0,  4, 0},
  {'L', 'U', 'N', 'X',  3,  4,  0,  3,  4,  0,  5, 0},
  {'L', 'U', 'N', 'N', -1,  4,  0,  3,  4,  0,  6, 0},
  {'L', 'U', 'N', 'N',  3, -1,  0,  3,  4,  0,  7, 0},
  {'L', 'U', 'N', 'N', -1, -1,  0,  3,  4,  0,  7, 0},
  {'L', 'U', 'N', 'N',  3,  4,  0,  2,  4,  0, 10, 0},
  {'R', 'L', 'T', 'U',  3,  4,  0,  3,  4,  0, 10, 0},
  {'L', 'U', 'C', 'N',  3,  4,  0,  3,  3,  0, 12, 0},
};

/* The table of a shape in a layout (F77: Fortran INFO; CBLAS column-major: INFO + 1). */
static const bad *table(l3_shape s, int row, size_t *n) {
#define PICK(f77, rowt)                                                                            \
  (*n = row ? sizeof rowt / sizeof *rowt : sizeof f77 / sizeof *f77, row ? rowt : f77)
  switch (s) {
  case L3_RK:
  case L3_R2K: return PICK(rank_f77, rank_row);
  case L3_MM: return PICK(mm_f77, mm_row);
  case L3_TR: return PICK(tr_f77, tr_row);
  }
#undef PICK
  return NULL;
}

/* x's letters for routine `name`; 0 when the row does not apply to it. RK has no B: its LDC is
 * parameter 10 (CBLAS 11), two before R2K's 12 (13). */
static int letters_for(const char *name, bad *x, int upper_only) {
  int cplx = name[0] == 'c' || name[0] == 'z';
  if (x->trans == '*') x->trans = l3_herm(name) ? 'C' : 'T';
  if (x->trans == '!') {
    if (!cplx) return 0;
    x->trans = l3_herm(name) ? 'T' : 'C';
  }
  if (l3_shape_of(name) == L3_RK) {
    if (x->r2k_only) return 0;
    if (x->want == 12 || x->want == 13) x->want -= 2;
  }
  if (upper_only) { /* CBLAS: its enumerations have no lower-case forms */
    x->side = (char)toupper((unsigned char)x->side), x->uplo = (char)toupper((unsigned char)x->uplo);
    x->trans = (char)toupper((unsigned char)x->trans), x->diag = (char)toupper((unsigned char)x->diag);
  }
  return 1;
}

static int run_cases(bt_api api, int row_major, const char *name) {
  size_t count;
  const bad *rows = table(l3_shape_of(name), row_major, &count);
  int cblas = api == BT_CBLAS || api == BT_CBLAS_64, failed = 0;
  for (size_t i = 0; i < count; i++) {
    bad x = rows[i];
    if (!letters_for(name, &x, cblas)) continue;
    l3_case cs = {.api = api, .row_major = row_major, .name = name, .side = x.side, .uplo = x.uplo,
                  .trans = x.trans, .diag = x.diag, .m = x.m, .n = x.n, .k = x.k,
                  .alpha = {1, 0}, .beta = {1, 0}};
    int want = cblas && !row_major ? x.want + 1 : x.want;
    xerbla_calls = cblas_calls = 0;
    RowMajorStrg = 7; /* whatever it was: the library sets it for the report and clears it after */
    l3_call(&cs, a, x.lda, b, x.ldb, c, l3_shape_of(name) == L3_TR ? x.ldb : x.ldc);
    char want_name[24];
    int calls, got;
    if (cblas) {
      snprintf(want_name, sizeof want_name, "cblas_%s", name);
      calls = cblas_calls, got = caller_position();
      if (calls == 1 && (cblas_row != row_major || RowMajorStrg != 0 || strcmp(cblas_rout, want_name)))
        calls = -1;
    } else {
      snprintf(want_name, sizeof want_name, "%s", name);
      for (char *p = want_name; *p; p++) *p = (char)toupper((unsigned char)*p);
      snprintf(want_name + strlen(want_name), sizeof want_name - strlen(want_name), "%*s",
               6 - (int)strlen(want_name), ""); /* Netlib's six characters, blank-padded */
      calls = xerbla_calls, got = xerbla_info;
      if (calls == 1 && strcmp(xerbla_name, want_name)) calls = -1;
    }
    if (calls != 1 || got != want || xerbla_calls + cblas_calls != 1) {
      print_error("%s api %d %s row %zu (%c%c%c%c m %d n %d k %d lda %d ldb %d ldc %d): %d reports "
                  "(xerbla_ %d '%s', cblas_xerbla %d '%s' row %d), number %d, want one %s with %d\n",
                  name, api, row_major ? "row-major" : "column-major", i, x.side ? x.side : '-',
                  x.uplo, x.trans ? x.trans : '-', x.diag ? x.diag : '-', x.m, x.n, x.k, x.lda,
                  x.ldb, x.ldc, calls, xerbla_calls, xerbla_name, cblas_calls, cblas_rout, cblas_row,
                  got, want_name, want);
      failed++;
    }
  }
  return failed;
}

static int every_routine(bt_api api, int row_major) {
  int failed = 0;
  for (int r = 0; r < L3_COUNT; r++) failed += run_cases(api, row_major, l3_names[r]);
  return failed;
}

static void fortran_entries_report_netlib_info_numbers(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_F77, 0), 0);
}

static void fortran_64_entries_report_the_same_numbers(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_F77_64, 0), 0);
}

static void cblas_column_major_reports_info_plus_one(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_CBLAS, 0), 0);
  assert_int_equal(every_routine(BT_CBLAS_64, 0), 0);
}

static void cblas_row_major_reports_the_callers_positions(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_CBLAS, 1), 0);
  assert_int_equal(every_routine(BT_CBLAS_64, 1), 0);
}

static void cblas_bad_layout_is_position_one(void **state) {
  (void)state;
  static const int layouts[] = {0, 100, 103, -1};
  int failed = 0;
  for (int r = 0; r < L3_COUNT; r++)
    for (int api = BT_CBLAS; api <= BT_CBLAS_64; api++)
      for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        /* else valid: the layout is checked first */
        l3_case cs = {.api = (bt_api)api, .layout = layouts[i] ? layouts[i] : 7, .name = l3_names[r],
                      .side = 'L', .uplo = 'U', .trans = 'N', .diag = 'N', .m = 3, .n = 3, .k = 3,
                      .alpha = {1, 0}, .beta = {1, 0}};
        cblas_calls = xerbla_calls = 0;
        l3_call(&cs, a, 3, b, 3, c, 3);
        if (cblas_calls != 1 || cblas_info != 1 || cblas_row || xerbla_calls ||
            strcmp(cblas_rout + 6, l3_names[r])) {
          print_error("%s layout %d: %d reports, position %d, row %d, '%s'\n", l3_names[r], cs.layout,
                      cblas_calls, cblas_info, cblas_row, cblas_rout);
          failed++;
        }
      }
  assert_int_equal(failed, 0);
}

/* Sizes past 32 bits are values like any other to the _64_ entries. */
static void fortran_64_entries_check_sizes_past_32_bits(void **state) {
  (void)state;
  int64_t big = 3000000000LL, small = 2, two = 2;
  double one = 1;
  xerbla_calls = 0;
  dsyrk_64_("U", "N", &big, &small, &one, a, &(int64_t){big - 1}, &one, c, &big);
  assert_int_equal(xerbla_info, 7);
  dtrsm_64_("L", "U", "N", "N", &big, &two, &one, a, &big, c, &two);
  assert_int_equal(xerbla_info, 11);
  double z1[2] = {1, 0};
  zhemm_64_("R", "L", &two, &big, z1, a, &(int64_t){big - 1}, b, &two, z1, c, &two);
  assert_int_equal(xerbla_info, 7);
  assert_int_equal(xerbla_calls, 3);
}

/* Every letter each routine takes, in either case (real syrk and syr2k take C as T): no report.
 * Sizes 0, so that nothing is read. */
static void valid_letters_in_either_case_are_accepted(void **state) {
  (void)state;
  static const struct { const char *names, *trans; } rank[] = {
    {"ssyrk dsyrk ssyr2k dsyr2k", "NnTtCc"},
    {"csyrk zsyrk csyr2k zsyr2k", "NnTt"},
    {"cherk zherk cher2k zher2k", "NnCc"},
  };
  xerbla_calls = 0;
  for (int r = 0; r < L3_COUNT; r++) {
    const char *name = l3_names[r];
    l3_shape s = l3_shape_of(name);
    const char *transes = "NnTtCc";
    for (size_t i = 0; i < sizeof rank / sizeof *rank; i++)
      if (s <= L3_R2K && strstr(rank[i].names, name)) transes = rank[i].trans;
    for (const char *side = "LlRr"; *side; side++)
      for (const char *uplo = "UuLl"; *uplo; uplo++)
        for (const char *t = transes; *t; t++)
          for (const char *diag = "UuNn"; *diag; diag++) {
            l3_case cs = {.api = BT_F77, .name = name, .side = *side, .uplo = *uplo, .trans = *t,
                          .diag = *diag, .alpha = {1, 0}, .beta = {1, 0}};
            l3_call(&cs, a, 1, b, 1, c, 1);
          }
  }
  assert_int_equal(xerbla_calls, 0);
}

int main(void) {
  /* Nothing here may reach a CPU BLAS or a GPU; keep both out of the way all the same. */
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(fortran_entries_report_netlib_info_numbers),
    cmocka_unit_test(fortran_64_entries_report_the_same_numbers),
    cmocka_unit_test(cblas_column_major_reports_info_plus_one),
    cmocka_unit_test(cblas_row_major_reports_the_callers_positions),
    cmocka_unit_test(cblas_bad_layout_is_position_one),
    cmocka_unit_test(fortran_64_entries_check_sizes_past_32_bits),
    cmocka_unit_test(valid_letters_in_either_case_are_accepted),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
