/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas with no CPU BLAS in the process: the built-in reference of every Level-3 routine
 * beside GEMM, for every side, uplo, trans and diag, every type and storage order, agrees element
 * by element with a long double reference computed here from the definitions (error bounds from
 * the magnitudes of the terms). What the routine must not read (the other triangle of A, a unit
 * diagonal, hemm's imaginary diagonal, herk's and her2k's imaginary diagonal of C, all of C when
 * beta is 0) holds NaNs; what it must not write (the other triangle of C, padding, A, B) comes
 * back bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/blas_l3_test.h"

#define NAN_C l3_cplx(NAN, NAN)

/* A stored rows x cols matrix with two elements of padding per stored line. */
typedef struct mat {
  void *p, *orig;
  int rows, cols, ld;
  size_t count;
} mat;

static mat mat_new(char t, int row, int rows, int cols) {
  mat x = {.rows = rows, .cols = cols, .ld = (row ? cols : rows) + 2};
  x.count = (size_t)x.ld * (size_t)(row ? rows : cols) + 1;
  x.p = calloc(x.count, bt_es(t)), x.orig = calloc(x.count, bt_es(t));
  return x;
}
static void mat_keep(char t, mat *x) { memcpy(x->orig, x->p, x->count * bt_es(t)); }
static void mat_free(mat *x) { free(x->p), free(x->orig); }

static const l3_case *cs; /* the case being checked: what get() and friends read */
static char ty;

static ldc get(const mat *x, int i, int j) { return l3_get(ty, x->p, l3_at(cs->row_major, i, j, x->ld)); }
static ldc get0(const mat *x, int i, int j) { return l3_get(ty, x->orig, l3_at(cs->row_major, i, j, x->ld)); }
static void put(mat *x, int i, int j, ldc v) { l3_put(ty, x->p, l3_at(cs->row_major, i, j, x->ld), v); }
static ldc cj(ldc v, int on) { return on ? conjl(v) : v; }

static unsigned seed;
static ldc rnd(void) {
  double re = bt_rand(&seed), im = bt_rand(&seed);
  return l3_cplx(re, bt_cplx(ty) ? im : 0);
}

/* The routine's A element (i, j) as the definition reads it: symm / hemm's full matrix, trmm /
 * trsm's op(A). */
static ldc sym_a(const mat *a, int i, int j, int herm) {
  if (i == j) return herm ? creall(get(a, i, i)) : get(a, i, i);
  int stored = cs->uplo == 'U' ? i < j : i > j;
  return stored ? get(a, i, j) : cj(get(a, j, i), herm);
}
static ldc tri_a(const mat *a, int i, int j) { /* the triangular matrix itself */
  if (i == j) return cs->diag == 'U' ? 1 : get(a, i, i);
  return (cs->uplo == 'U' ? i < j : i > j) ? get(a, i, j) : 0;
}
static ldc op_a(const mat *a, int i, int j) {
  return cs->trans == 'N' ? tri_a(a, i, j) : cj(tri_a(a, j, i), cs->trans == 'C');
}

/* Solves M x = r for a triangular M of order d given by m(i, k) (lower or upper), and z with
 * |M| replaced by its comparison matrix: z = M_c^{-1} y bounds |M^{-1}| y. */
static void solve(int d, int lower, ldc (*m)(int, int), const ldc *r, ldc *x, const long double *y,
                  long double *z) {
  for (int s = 0; s < d; s++) {
    int i = lower ? s : d - 1 - s;
    ldc acc = r[i];
    long double zacc = y[i];
    for (int k = 0; k < d; k++)
      if (lower ? k < i : k > i) acc -= m(i, k) * x[k], zacc += cabsl(m(i, k)) * z[k];
    x[i] = acc / m(i, i);
    z[i] = zacc / cabsl(m(i, i));
  }
}
static const mat *solve_a;
static ldc op_a_at(int i, int k) { return op_a(solve_a, i, k); }
static ldc op_a_transposed_at(int i, int k) { return op_a(solve_a, k, i); }

/* want and the bound of |got - want| for element (i, j) of the result. */
static void expected(const mat *a, const mat *b, const mat *c, int i, int j, ldc *want, long double *bound) {
  l3_shape s = l3_shape_of(cs->name);
  int herm = l3_herm(cs->name);
  /* The scalars as the routine reads them: in the type's precision; herk's alpha and beta and
   * her2k's beta real. */
  int single = ty == 's' || ty == 'c', cplx = bt_cplx(ty);
  double ar = cs->alpha[0], ai = cplx ? cs->alpha[1] : 0, br = cs->beta[0], bi = cplx ? cs->beta[1] : 0;
  if (single) ar = (float)ar, ai = (float)ai, br = (float)br, bi = (float)bi;
  ldc alpha = l3_cplx(ar, ai), beta = l3_cplx(br, bi);
  if (!strcmp(cs->name + 1, "herk")) alpha = creall(alpha);
  if (herm && s != L3_MM) beta = creall(beta);
  long double eps = l3_eps(ty), mag = 0;
  ldc sum = 0;
  int terms = 0;
  if (s == L3_RK || s == L3_R2K) {
    /* op(X)(i, l): X (n x k) or X^T, X^H (k x n) */
#define OP(x, r, l) (cs->trans == 'N' ? get(x, r, l) : cj(get(x, l, r), cs->trans == 'C'))
    for (int l = 0; l < cs->k; l++) {
      ldc t1 = s == L3_RK ? OP(a, i, l) * cj(OP(a, j, l), herm)
                          : alpha * OP(a, i, l) * cj(OP(b, j, l), herm);
      ldc t2 = s == L3_RK ? 0 : cj(alpha, herm) * OP(b, i, l) * cj(OP(a, j, l), herm);
      sum += t1 + t2;
      mag += cabsl(t1) + cabsl(t2);
    }
#undef OP
    if (s == L3_RK) sum *= alpha, mag *= cabsl(alpha);
    terms = cs->k;
  } else if (s == L3_MM) {
    int ka = cs->side == 'L' ? cs->m : cs->n;
    for (int k = 0; k < ka; k++) {
      ldc t = cs->side == 'L' ? sym_a(a, i, k, herm) * get(b, k, j) : get(b, i, k) * sym_a(a, k, j, herm);
      sum += t, mag += cabsl(t);
    }
    sum *= alpha, mag *= cabsl(alpha);
    terms = ka;
  } else if (!strcmp(cs->name + 1, "trmm")) {
    int ka = cs->side == 'L' ? cs->m : cs->n;
    for (int k = 0; k < ka; k++) {
      ldc t = cs->side == 'L' ? op_a(a, i, k) * get0(c, k, j) : get0(c, i, k) * op_a(a, k, j);
      sum += t, mag += cabsl(t);
    }
    *want = alpha * sum;
    *bound = 4 * (ka + 4) * eps * cabsl(alpha) * mag + 1e-30L;
    return;
  } else { /* trsm: op(A) X = alpha B, or X op(A) = alpha B, that is op(A)^T X^T = alpha B^T */
    int left = cs->side == 'L', d = left ? cs->m : cs->n;
    int op_lower = (cs->uplo == 'L') == (cs->trans == 'N');
    ldc r[16], x[16];
    long double y[16], z[16];
    solve_a = a;
    for (int pass = 0; pass < 2; pass++) { /* x first, then z from |M| |x| + |alpha B| */
      for (int k = 0; k < d; k++) {
        ldc bk = left ? get0(c, k, j) : get0(c, i, k);
        r[k] = alpha * bk;
        y[k] = cabsl(alpha * bk);
        if (pass)
          for (int q = 0; q < d; q++) y[k] += cabsl(left ? op_a(a, k, q) : op_a(a, q, k)) * cabsl(x[q]);
      }
      solve(d, left ? op_lower : !op_lower, left ? op_a_at : op_a_transposed_at, r, x, y, z);
    }
    *want = x[left ? i : j];
    *bound = 8 * (d + 4) * eps * z[left ? i : j] + 1e-30L;
    return;
  }
  /* C's term: herk and her2k read its diagonal's real part alone */
  ldc c0 = get0(c, i, j);
  if (herm && s != L3_MM && i == j) c0 = creall(c0);
  ldc bc = beta == 0 ? 0 : beta * c0;
  *want = sum + bc;
  *bound = 4 * (terms + 4) * eps * (mag + cabsl(bc)) + 1e-30L;
}

/* Runs cs on fresh matrices; returns the number of wrong elements (the first few printed). */
static int check(const l3_case *c_) {
  cs = c_, ty = cs->name[0];
  seed = 12345u;
  for (const char *p = cs->name; *p; p++) seed = seed * 31u + (unsigned char)*p;
  seed += (unsigned)(cs->side * 7 + cs->uplo * 11 + cs->trans * 13 + cs->diag * 17);
  seed += (unsigned)(cs->m * 19 + cs->n * 23 + cs->k);
  l3_shape s = l3_shape_of(cs->name);
  int herm = l3_herm(cs->name), left = cs->side == 'L', rank = s == L3_RK || s == L3_R2K;
  int ra, ca, rc = rank ? cs->n : cs->m, cc = cs->n;
  if (rank) ra = cs->trans == 'N' ? cs->n : cs->k, ca = cs->trans == 'N' ? cs->k : cs->n;
  else ra = ca = left ? cs->m : cs->n;
  mat a = mat_new(ty, cs->row_major, ra, ca), b = mat_new(ty, cs->row_major, ra, ca);
  mat c = mat_new(ty, cs->row_major, rc, cc);
  if (s == L3_MM) b = (mat_free(&b), mat_new(ty, cs->row_major, cs->m, cs->n));
  int beta_zero = cs->beta[0] == 0 && cs->beta[1] == 0 && s != L3_TR;
  for (size_t e = 0; e < a.count; e++) l3_put(ty, a.p, e, rnd());
  for (size_t e = 0; e < b.count; e++) l3_put(ty, b.p, e, rnd());
  for (size_t e = 0; e < c.count; e++) l3_put(ty, c.p, e, rnd());
  for (int i = 0; i < ra && !rank; i++) /* what symm, hemm, trmm, trsm must not read */
    for (int j = 0; j < ca; j++) {
      int other = cs->uplo == 'U' ? i > j : i < j;
      if (other) put(&a, i, j, NAN_C);
      if (i == j && s == L3_TR) put(&a, i, i, cs->diag == 'U' ? NAN_C : get(&a, i, i) + 3);
      if (i == j && s == L3_MM && herm) put(&a, i, i, l3_cplx(creall(get(&a, i, i)), NAN));
    }
  for (int i = 0; i < rc; i++) /* C: not read with beta 0; herk's, her2k's diagonal: real part */
    for (int j = 0; j < cc; j++) {
      int written = !rank || (cs->uplo == 'U' ? i <= j : i >= j);
      if (written && beta_zero) put(&c, i, j, NAN_C);
      else if (rank && herm && i == j) put(&c, i, i, l3_cplx(creall(get(&c, i, i)), NAN));
    }
  mat_keep(ty, &a), mat_keep(ty, &b), mat_keep(ty, &c);
  l3_call(cs, a.p, a.ld, b.p, b.ld, c.p, c.ld);

  int bad = 0;
  size_t es = bt_es(ty);
  int quick = rank && cs->k == 0 && cs->beta[0] == 1 && (herm || cs->beta[1] == 0); /* nothing written */
  for (int i = 0; i < rc; i++)
    for (int j = 0; j < cc; j++) {
      int written = !quick && (!rank || (cs->uplo == 'U' ? i <= j : i >= j));
      size_t e = l3_at(cs->row_major, i, j, c.ld);
      if (!written) {
        if (memcmp((char *)c.p + e * es, (char *)c.orig + e * es, es) && bad++ < 3)
          print_error("%s: C(%d,%d) outside the %c triangle changed\n", cs->name, i, j, cs->uplo);
        continue;
      }
      ldc want, got = get(&c, i, j);
      long double bound;
      expected(&a, &b, &c, i, j, &want, &bound);
      int ok = cabsl(got - want) <= bound && !(rank && herm && i == j && cimagl(got) != 0);
      if (!ok && bad++ < 3)
        print_error("%s api %d %s %c%c%c%c m %d n %d k %d beta (%g, %g): C(%d,%d) = (%Lg, %Lg), want "
                    "(%Lg, %Lg), error %Lg > %Lg\n", cs->name, cs->api, cs->row_major ? "row" : "col",
                    cs->side, cs->uplo, cs->trans, cs->diag, cs->m, cs->n, cs->k, cs->beta[0], cs->beta[1],
                    i, j, creall(got), cimagl(got), creall(want), cimagl(want), cabsl(got - want), bound);
    }
  /* The padding of C, and every byte of A and B, are the caller's. */
  int outer = cs->row_major ? rc : cc, inner = cs->row_major ? cc : rc;
  for (int o = 0; o < outer; o++)
    if (memcmp((char *)c.p + ((size_t)o * c.ld + inner) * es, (char *)c.orig + ((size_t)o * c.ld + inner) * es,
               (size_t)(c.ld - inner) * es) && bad++ < 3)
      print_error("%s: C's padding changed after line %d\n", cs->name, o);
  if ((memcmp(a.p, a.orig, a.count * es) || memcmp(b.p, b.orig, b.count * es)) && bad++ < 3)
    print_error("%s: A or B changed\n", cs->name);
  mat_free(&a), mat_free(&b), mat_free(&c);
  return bad;
}

/* Every letter combination of every routine on odd sizes, through one entry and storage order;
 * betas general, 0 (C not read) and 1. alpha's imaginary part is set for herk too (whose alpha
 * is real: it must not be read), and beta's for her2k. */
static int all_cases(bt_api api, int row_major) {
  static const int sizes[][3] = {{5, 7, 3}, {7, 5, 6}, {1, 1, 1}, {4, 3, 0}}; /* k 0: C = beta C */
  static const double betas[][2] = {{-0.5, 0.25}, {0, 0}, {1, 0}};
  int bad = 0;
  for (int r = 0; r < L3_COUNT; r++) {
    const char *name = l3_names[r];
    l3_shape s = l3_shape_of(name);
    const char *transes = s == L3_TR || name[0] == 's' || name[0] == 'd' ? "NTC" : l3_herm(name) ? "NC" : "NT";
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
      for (const char *side = s >= L3_MM ? "LR" : "-"; *side; side++)
        for (const char *uplo = "UL"; *uplo; uplo++)
          for (const char *t = s == L3_MM ? "-" : transes; *t; t++)
            for (const char *diag = s == L3_TR ? "UN" : "-"; *diag; diag++)
              for (size_t bi = 0; bi < (s == L3_TR ? 1 : 3); bi++) {
                /* RK, R2K: n and k are the first and third; MM, TR: m and n the first two */
                l3_case x = {.api = api, .row_major = row_major, .name = name, .side = *side,
                             .uplo = *uplo, .trans = *t, .diag = *diag,
                             .m = s >= L3_MM ? sizes[z][0] : 0,
                             .n = s >= L3_MM ? sizes[z][1] : sizes[z][0],
                             .k = s >= L3_MM ? 0 : sizes[z][2], .alpha = {1.5, -0.75},
                             .beta = {betas[bi][0], betas[bi][1]}};
                bad += check(&x);
              }
  }
  return bad;
}

static void fortran_entries_match_the_definitions(void **state) {
  (void)state;
  bt_capture cap = bt_capture_begin(); /* the one "no CPU BLAS found" */
  int bad = all_cases(BT_F77, 0);
  free(bt_capture_end(cap));
  assert_int_equal(bad, 0);
}

static void fortran_64_entries_match_the_definitions(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_F77_64, 0), 0);
}

static void cblas_column_major_matches_the_definitions(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_CBLAS, 0), 0);
  assert_int_equal(all_cases(BT_CBLAS_64, 0), 0);
}

static void cblas_row_major_matches_the_definitions(void **state) {
  (void)state;
  assert_int_equal(all_cases(BT_CBLAS, 1), 0);
  assert_int_equal(all_cases(BT_CBLAS_64, 1), 0);
}

int main(void) {
  setenv("TCJBLAS_CONFIG", "", 1);
  setenv("TCJBLAS_GPU_THRESHOLD", "inf", 1);
  unsetenv("TCJBLAS_CPU_BLAS");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(fortran_entries_match_the_definitions),
    cmocka_unit_test(fortran_64_entries_match_the_definitions),
    cmocka_unit_test(cblas_column_major_matches_the_definitions),
    cmocka_unit_test(cblas_row_major_matches_the_definitions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
