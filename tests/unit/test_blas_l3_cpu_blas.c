/* SPDX-License-Identifier: Apache-2.0 */
/* The Level-3 routines beside GEMM with TCJBLAS_CPU_BLAS naming a CPU BLAS (a stand-in that
 * records its calls): every routine is passed on to the CPU BLAS's symbol of the same name with
 * the caller's arguments (letters in upper case), 64-bit entries to its _64_ symbols where it has
 * them and to its 32-bit ones where it has not, row-major CBLAS as Netlib's column-major call of
 * the transposed problem; quick returns and illegal calls never reach it. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>

#include "tests/unit/blas_fake_cpu_blas.h"
#include "tests/unit/blas_l3_test.h"

static fake_blas_calls_fn calls;
static fake_blas_last_l3_fn last;
static double buf[3][2 * 64]; /* A, B, C: room for every call here (sizes up to 4, lds up to 6) */

void xerbla_(const char *srname, const int *info, size_t len) { (void)srname, (void)info, (void)len; }

/* The stand-in as libtcjblas opened it (RTLD_NOLOAD: already loaded, or not at all). */
static int find_fake(void) {
  void *lib = dlopen(FAKE_BLAS, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return -1;
  *(void **)&calls = dlsym(lib, "fake_blas_calls");
  *(void **)&last = dlsym(lib, "fake_blas_last_l3");
  return calls && last ? 0 : -1;
}

static char up(char c) { return (char)toupper((unsigned char)c); }
static char flip(char c, char x, char y) { return c == x ? y : x; }

/* One call of cs (lds: A 6, B 6, C 5), then what the stand-in must have received. */
static int forwarded_as_expected(const l3_case *cs) {
  char sym[sizeof ((fake_l3_call *)0)->name];
  int fortran = cs->api == BT_F77 || cs->api == BT_F77_64, row = cs->row_major && !fortran;
  int has64 = cs->name[0] == 'd' || cs->name[0] == 'z';
  int wide = (cs->api == BT_F77_64 || cs->api == BT_CBLAS_64) && has64;
  snprintf(sym, sizeof sym, "%s_%s", cs->name, wide ? "64_" : "");
  int before = calls(sym);
  l3_call(cs, buf[0], 6, buf[1], 6, buf[2], 5);
  fake_l3_call r;
  last(&r);
  l3_shape s = l3_shape_of(cs->name);
  int herm = l3_herm(cs->name), bad = 0;
  fake_l3_call w = {.alpha_v = {cs->alpha[0], cs->alpha[1]}, .beta_v = {cs->beta[0], cs->beta[1]}};
  snprintf(w.name, sizeof w.name, "%s", sym);
  w.uplo = row ? flip(up(cs->uplo), 'U', 'L') : up(cs->uplo);
  if (s == L3_RK || s == L3_R2K) {
    char t = up(cs->trans), transpose = herm ? 'C' : 'T';
    w.trans = !row ? t : t == 'N' ? transpose : 'N';
    w.n = cs->n, w.k = cs->k, w.lda = 6, w.ldb = s == L3_R2K ? 6 : 0, w.ldc = 5;
  } else {
    w.side = row ? flip(up(cs->side), 'L', 'R') : up(cs->side);
    if (s == L3_TR) w.trans = up(cs->trans), w.diag = up(cs->diag);
    w.m = row ? cs->n : cs->m, w.n = row ? cs->m : cs->n;
    w.lda = 6, w.ldb = s == L3_TR ? 5 : 6, w.ldc = s == L3_TR ? 0 : 5;
  }
  if (!bt_cplx(cs->name[0]) || !strcmp(cs->name + 1, "herk")) w.alpha_v[1] = 0;
  if (!bt_cplx(cs->name[0]) || (herm && s != L3_MM)) w.beta_v[1] = 0;
  if (s == L3_TR) w.beta_v[0] = w.beta_v[1] = 0;
  if (row && !strcmp(cs->name + 1, "her2k")) w.alpha_v[1] = -w.alpha_v[1];
  /* The arrays go as they are; B of trmm and trsm is the one written (passed as C here). */
  const void *wa = buf[0], *wb = s == L3_TR ? (const void *)buf[2] : s == L3_RK ? NULL : buf[1];
  const void *wc = s == L3_TR ? NULL : buf[2];
  bad += calls(sym) != before + 1;
  bad += strcmp(r.name, w.name) != 0;
  bad += r.side != w.side || r.uplo != w.uplo || r.trans != w.trans || r.diag != w.diag;
  bad += r.m != w.m || r.n != w.n || r.k != w.k || r.lda != w.lda || r.ldb != w.ldb || r.ldc != w.ldc;
  bad += r.a != wa || r.b != wb || r.c != wc;
  bad += r.alpha_v[0] != w.alpha_v[0] || r.alpha_v[1] != w.alpha_v[1];
  bad += r.beta_v[0] != w.beta_v[0] || r.beta_v[1] != w.beta_v[1];
  if (bad)
    print_error("%s api %d row %d: got %s (%c%c%c%c m %ld n %ld k %ld lda %ld ldb %ld ldc %ld alpha (%g, %g) "
                "beta (%g, %g) a %d b %d c %d), %d calls of %s; want %s (%c%c%c%c m %ld n %ld k %ld lda "
                "%ld ldb %ld ldc %ld alpha (%g, %g) beta (%g, %g)), %d calls\n",
                cs->name, cs->api, cs->row_major, r.name, r.side ? r.side : '-', r.uplo,
                r.trans ? r.trans : '-', r.diag ? r.diag : '-', (long)r.m, (long)r.n, (long)r.k,
                (long)r.lda, (long)r.ldb, (long)r.ldc, r.alpha_v[0], r.alpha_v[1], r.beta_v[0],
                r.beta_v[1], r.a == wa, r.b == wb, r.c == wc, calls(sym), sym, w.name,
                w.side ? w.side : '-', w.uplo, w.trans ? w.trans : '-', w.diag ? w.diag : '-',
                (long)w.m, (long)w.n, (long)w.k, (long)w.lda, (long)w.ldb, (long)w.ldc, w.alpha_v[0],
                w.alpha_v[1], w.beta_v[0], w.beta_v[1], before + 1);
  return bad != 0;
}

/* Every routine through one entry and layout, with lower-case letters (Fortran) and every
 * transpose it takes. Sizes fit the lds: A, B, C at most 4 x 4 (k 2). */
static int every_routine(bt_api api, int row_major) {
  int bad = 0;
  for (int r = 0; r < L3_COUNT; r++) {
    const char *name = l3_names[r];
    l3_shape s = l3_shape_of(name);
    const char *transes = s == L3_TR || name[0] == 's' || name[0] == 'd' ? "ntc" : l3_herm(name) ? "nc" : "nt";
    for (const char *t = s == L3_MM ? "n" : transes; *t; t++)
      for (int v = 0; v < 2; v++) {
        int fortran = api == BT_F77 || api == BT_F77_64;
        l3_case cs = {.api = api, .row_major = row_major, .name = name, .side = "lr"[v],
                      .uplo = "ul"[v], .trans = *t, .diag = "un"[v], .m = 3, .n = 4, .k = 2,
                      .alpha = {0.5, -2}, .beta = {1.5, 0.25}};
        if (s == L3_RK || s == L3_R2K) cs.m = 0;
        if (!fortran) /* CBLAS's enumerations have no lower-case forms */
          cs.side = up(cs.side), cs.uplo = up(cs.uplo), cs.trans = up(cs.trans), cs.diag = up(cs.diag);
        bad += forwarded_as_expected(&cs);
      }
  }
  return bad;
}

static void fortran_calls_reach_the_cpu_blas_as_given(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin();
  l3_case first = {.api = BT_F77, .name = "dsyrk", .uplo = 'U', .trans = 'N', .n = 2, .k = 2,
                   .alpha = {1, 0}, .beta = {0, 0}};
  l3_call(&first, buf[0], 6, buf[1], 6, buf[2], 5); /* loads the stand-in */
  char *out = bt_capture_end(cap);
  assert_int_equal(bt_count(out, "no CPU BLAS"), 0);
  free(out);
  assert_int_equal(find_fake(), 0);
  assert_int_equal(every_routine(BT_F77, 0), 0);
}

/* The stand-in has the _64_ symbols of the d and z routines only: sizes fit an int, so the s
 * and c calls go to its 32-bit symbols. */
static void entries_64_use_the_64_bit_symbol_where_the_cpu_blas_has_one(void **state) {
  (void)state;
  assert_int_equal(calls("ssyrk_64_"), -1);
  assert_int_equal(calls("dsyrk_64_"), 0);
  assert_int_equal(every_routine(BT_F77_64, 0), 0);
  assert_int_equal(every_routine(BT_CBLAS_64, 0), 0);
  assert_true(calls("dtrsm_64_") > 0 && calls("zher2k_64_") > 0);
}

static void cblas_column_major_reaches_the_cpu_blas_as_given(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_CBLAS, 0), 0);
}

static void cblas_row_major_arrives_as_the_transposed_column_major_call(void **state) {
  (void)state;
  assert_int_equal(every_routine(BT_CBLAS, 1), 0);
  assert_int_equal(every_routine(BT_CBLAS_64, 1), 0);
}

static int total_calls(void) {
  int n = 0;
  char sym[24];
  for (int r = 0; r < L3_COUNT; r++)
    for (int wide = 0; wide < 2; wide++) {
      snprintf(sym, sizeof sym, "%s_%s", l3_names[r], wide ? "64_" : "");
      if (calls(sym) > 0) n += calls(sym);
    }
  return n;
}

/* Quick returns and illegal arguments are settled by libtcjblas; trsm with alpha 0 (B = 0, not a
 * quick return in the reference) is the CPU BLAS's to do, as everything past the quick return. */
static void quick_returns_and_illegal_calls_never_reach_the_cpu_blas(void **state) {
  (void)state;
  int before = total_calls();
  for (int r = 0; r < L3_COUNT; r++) {
    l3_case cs = {.api = BT_F77, .name = l3_names[r], .side = 'L', .uplo = 'U', .trans = 'N',
                  .diag = 'N', .m = 0, .n = 0, .k = 2, .alpha = {1, 0}, .beta = {1, 0}};
    l3_call(&cs, buf[0], 6, buf[1], 6, buf[2], 5); /* n 0 */
    cs.m = 3, cs.n = 3, cs.alpha[0] = 0;
    if (l3_shape_of(cs.name) != L3_TR) l3_call(&cs, buf[0], 6, buf[1], 6, buf[2], 5); /* alpha 0, beta 1 */
    cs.uplo = 'X';
    l3_call(&cs, buf[0], 6, buf[1], 6, buf[2], 5); /* illegal */
  }
  assert_int_equal(total_calls(), before);
  l3_case trsm = {.api = BT_CBLAS, .name = "strsm", .side = 'L', .uplo = 'U', .trans = 'N', .diag = 'N',
                  .m = 2, .n = 2, .alpha = {0, 0}};
  l3_call(&trsm, buf[0], 6, buf[1], 6, buf[2], 5);
  assert_int_equal(total_calls(), before + 1);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  setenv("TCJBLAS_CPU_BLAS", FAKE_BLAS, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(fortran_calls_reach_the_cpu_blas_as_given), /* first: loads the stand-in */
    cmocka_unit_test(entries_64_use_the_64_bit_symbol_where_the_cpu_blas_has_one),
    cmocka_unit_test(cblas_column_major_reaches_the_cpu_blas_as_given),
    cmocka_unit_test(cblas_row_major_arrives_as_the_transposed_column_major_call),
    cmocka_unit_test(quick_returns_and_illegal_calls_never_reach_the_cpu_blas),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
