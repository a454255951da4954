/* SPDX-License-Identifier: Apache-2.0 */
/* GPU tests of accuracy against cuBLAS. f32: fp32 data (TCJ_F32, computed by 3xTF32) must come out
 * no worse than twice cublasSgemm's error (CUBLAS_COMPUTE_32F, no tf32) against a float64
 * reference, on adversarial data: K up to 65536 over positive terms (where a truncating
 * accumulation drifts), magnitudes spanning 2^-40 .. 2^40 in one matrix, and cancellation (a
 * result far below |A||B|). The error of an element is |got - exact| / (|A||B|)_ij, and a
 * problem's error the largest over its checked elements; selection's recipes run every problem,
 * then the sm80 recipe forced (on Hopper the sm90 recipe runs all but the one-row problem:
 * forced onto it, one 8191-deep chain of fp32 roundings ended 3.6x off, H100). Prints
 * one line per problem and recipe: the figures of tcj.h's promise. f64 (the dmma recipe):
 * every op pair, 8-byte rows, edges, C read in place, device scalars and a batch, each element
 * against a long double reference, with the error against cublasDgemm's printed beside it.
 * Exits 77 without a GPU. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_start.h"

typedef enum data_kind { DATA_SIGNED, DATA_POSITIVE, DATA_WIDE, DATA_CANCEL } data_kind;
static const char *const DATA_NAMES[] = {"signed", "positive", "wide 2^+-20", "cancelling"};

typedef struct problem {
  tcj_op op_a, op_b;
  int64_t m, n, k;
  data_kind data;
} problem;

static const problem PROBLEMS[] = {
    {TCJ_OP_N, TCJ_OP_T, 64, 64, 65536, DATA_POSITIVE},
    {TCJ_OP_N, TCJ_OP_N, 64, 96, 65536, DATA_SIGNED},
    {TCJ_OP_T, TCJ_OP_T, 48, 64, 65536, DATA_WIDE},
    {TCJ_OP_N, TCJ_OP_T, 256, 256, 4096, DATA_CANCEL},
    {TCJ_OP_T, TCJ_OP_N, 129, 77, 1001, DATA_WIDE},
    {TCJ_OP_N, TCJ_OP_N, 1, 4095, 8191, DATA_POSITIVE},
    {TCJ_OP_N, TCJ_OP_T, 300, 200, 7, DATA_SIGNED},
};
#define NP (int)(sizeof PROBLEMS / sizeof *PROBLEMS)
#define CHECK_ROWS 48 /* rows of the fp64 reference (spread over m) */

static uint64_t g_seed = 0xacc0ffeeull;

static uint64_t next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(next(s) >> 11) * 0x1.0p-53; } /* [0, 1) */

/* Element p of op(X)'s K (x is A's row or B's column index i) for the data kind: cancelling data
 * pairs each term of the first half of K with its negation, nudged by 2^-12, in the second. */
static float value(data_kind kind, uint64_t *s, int is_b, int64_t i, int64_t p, int64_t k, const float *first_half) {
  (void)is_b;
  (void)i;
  switch (kind) {
  case DATA_POSITIVE: return (float)(0.5 + unit(s));
  case DATA_WIDE: return (float)((2 * unit(s) - 1) * ldexp(1.0, (int)(next(s) % 41) - 20));
  case DATA_CANCEL:
    if (p >= k / 2 && first_half) return (float)(-(double)first_half[p - k / 2] * (1 + 0x1p-12 * (2 * unit(s) - 1)));
    /* fallthrough */
  default: return (float)(2 * unit(s) - 1);
  }
}

/* op(A) m x k and op(B)^T n x k, row-major on the host (the values, for the reference), and
 * the stored A and B the GEMMs read. */
typedef struct data {
  float *opa, *opbt, *a, *b;
} data;

static void make_data(const problem *pr, data *d) {
  int64_t m = pr->m, n = pr->n, k = pr->k;
  d->opa = malloc(sizeof(float) * (size_t)(m * k));
  d->opbt = malloc(sizeof(float) * (size_t)(n * k));
  d->a = malloc(sizeof(float) * (size_t)(m * k));
  d->b = malloc(sizeof(float) * (size_t)(n * k));
  assert_true(d->opa && d->opbt && d->a && d->b);
  uint64_t s = g_seed + (uint64_t)(pr - PROBLEMS) * 7919;
  for (int64_t i = 0; i < m; i++)
    for (int64_t p = 0; p < k; p++) d->opa[i * k + p] = value(pr->data, &s, 0, i, p, k, NULL);
  /* Cancellation: B's second half negates its first, so each product pair nearly cancels. */
  for (int64_t j = 0; j < n; j++)
    for (int64_t p = 0; p < k; p++) d->opbt[j * k + p] = value(pr->data, &s, 1, j, p, k, d->opbt + j * k);
  if (pr->data == DATA_CANCEL)
    for (int64_t i = 0; i < m; i++)
      for (int64_t p = k / 2; p < k; p++) d->opa[i * k + p] = d->opa[i * k + p - k / 2];
  /* Stored: A m x k (N) or k x m (T); B k x n (N) or n x k (T); packed rows. */
  for (int64_t i = 0; i < m; i++)
    for (int64_t p = 0; p < k; p++) {
      float v = d->opa[i * k + p];
      if (pr->op_a == TCJ_OP_N) d->a[i * k + p] = v;
      else d->a[p * m + i] = v;
    }
  for (int64_t j = 0; j < n; j++)
    for (int64_t p = 0; p < k; p++) {
      float v = d->opbt[j * k + p];
      if (pr->op_b == TCJ_OP_T) d->b[j * k + p] = v;
      else d->b[p * n + j] = v;
    }
}

static void free_data(data *d) {
  free(d->opa);
  free(d->opbt);
  free(d->a);
  free(d->b);
}

/* The largest |got - exact| / (|A||B|)_ij over the checked rows (every row up to CHECK_ROWS). */
static double max_error(const problem *pr, const data *d, const float *got) {
  int64_t m = pr->m, n = pr->n, k = pr->k, rows = m < CHECK_ROWS ? m : CHECK_ROWS;
  double worst = 0;
  for (int64_t r = 0; r < rows; r++) {
    int64_t i = rows == m ? r : r * (m - 1) / (rows - 1);
    for (int64_t j = 0; j < n; j++) {
      const float *x = d->opa + i * k, *y = d->opbt + j * k;
      double s = 0, t = 0;
      for (int64_t p = 0; p < k; p++) {
        double v = (double)x[p] * (double)y[p];
        s += v;
        t += fabs(v);
      }
      double e = fabs((double)got[i * n + j] - s) / (t > 0 ? t : 1);
      if (!(e <= worst)) worst = e; /* NaN wins */
    }
  }
  return worst;
}

static float *run_tcj(tcj_engine *e, const problem *pr, const float *da, const float *db, float *dc) {
  int64_t m = pr->m, n = pr->n, k = pr->k;
  cudaMemset(dc, 0xff, sizeof(float) * (size_t)(m * n)); /* NaN: an element never written fails */
  tcj_status st = tcj_gemm(e, pr->op_a, pr->op_b, m, n, k, 1.0f, da, TCJ_F32, pr->op_a == TCJ_OP_N ? k : m, db, TCJ_F32,
                           pr->op_b == TCJ_OP_T ? k : n, 0.0f, dc, TCJ_F32, n, NULL);
  if (st != TCJ_SUCCESS) fail_msg("tcj_gemm: %s: %s", tcj_status_string(st), tcj_last_error(e));
  float *h = malloc(sizeof(float) * (size_t)(m * n));
  assert_non_null(h);
  assert_int_equal(cudaMemcpy(h, dc, sizeof(float) * (size_t)(m * n), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

/* cublasSgemm, row-major through C^T = op(B)^T op(A)^T, in fp32 (CUBLAS_DEFAULT_MATH: no tf32). */
static float *run_cublas(cublasHandle_t h, const problem *pr, const float *da, const float *db, float *dc) {
  int64_t m = pr->m, n = pr->n, k = pr->k;
  const float one = 1, zero = 0;
  cudaMemset(dc, 0xff, sizeof(float) * (size_t)(m * n));
  cublasStatus_t bs = cublasSgemm(h, pr->op_b == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T,
                                  pr->op_a == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T, (int)n, (int)m, (int)k, &one, db,
                                  (int)(pr->op_b == TCJ_OP_T ? k : n), da, (int)(pr->op_a == TCJ_OP_N ? k : m), &zero, dc,
                                  (int)n);
  assert_int_equal(bs, CUBLAS_STATUS_SUCCESS);
  float *out = malloc(sizeof(float) * (size_t)(m * n));
  assert_non_null(out);
  assert_int_equal(cudaMemcpy(out, dc, sizeof(float) * (size_t)(m * n), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

/* Runs every problem through tcj_gemm on the engine made with TCJ_RECIPE=recipe ("auto": the
 * recipe selection picks, the sm90 one on Hopper but for one-row problems) and through
 * cublasSgemm, and holds tcj's error to twice cuBLAS's. */
static void f32_within_twice_sgemm_error(const char *recipe) {
  setenv("TCJ_RECIPE", recipe, 1);
  tcj_engine *e = NULL;
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC;
  tcj_status st = tcj_create(&e, &o);
  unsetenv("TCJ_RECIPE");
  assert_int_equal(st, TCJ_SUCCESS);
  cublasHandle_t h;
  assert_int_equal(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  int failed = 0;
  for (int i = 0; i < NP; i++) {
    const problem *pr = &PROBLEMS[i];
    data d;
    make_data(pr, &d);
    size_t ab = sizeof(float) * (size_t)(pr->m * pr->k), bb = sizeof(float) * (size_t)(pr->n * pr->k);
    float *da, *db, *dc;
    assert_int_equal(cudaMalloc((void **)&da, ab), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&db, bb), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&dc, sizeof(float) * (size_t)(pr->m * pr->n)), cudaSuccess);
    cudaMemcpy(da, d.a, ab, cudaMemcpyHostToDevice);
    cudaMemcpy(db, d.b, bb, cudaMemcpyHostToDevice);
    float *got = run_tcj(e, pr, da, db, dc), *ref = run_cublas(h, pr, da, db, dc);
    double et = max_error(pr, &d, got), ec = max_error(pr, &d, ref);
    /* 2^-30: a floor for data cuBLAS happens to sum exactly. */
    int ok = et <= 2 * ec + 0x1p-30;
    printf("  %s %c%c %5lldx%5lldx%6lld %-11s tcj %.3e  cublasSgemm %.3e  ratio %.2f %s\n", recipe,
           pr->op_a ? 'T' : 'N', pr->op_b ? 'T' : 'N', (long long)pr->m, (long long)pr->n, (long long)pr->k,
           DATA_NAMES[pr->data], et, ec, ec > 0 ? et / ec : 0.0, ok ? "" : "FAIL");
    failed += !ok;
    free(got);
    free(ref);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free_data(&d);
  }
  cublasDestroy(h);
  tcj_destroy(e);
  if (failed) fail_msg("%d of %d problems: tcj's fp32 error exceeds twice cublasSgemm's (see FAIL above)", failed, NP);
}

static void f32_selected_recipe_within_twice_sgemm_error(void **state) {
  (void)state;
  f32_within_twice_sgemm_error("auto");
}
static void f32_sm80_recipe_within_twice_sgemm_error(void **state) {
  (void)state;
  f32_within_twice_sgemm_error("sm80");
}

/* ---- f64 (the dmma recipe) ---------------------------------------------------------------- */

/* One f64 case: every op pair, rows that are 8-byte but not 16-byte aligned (odd ld, or a base
 * one element in), edges, C read in place with beta, device scalars, a batch. */
typedef struct f64_case {
  tcj_op op_a, op_b;
  int64_t m, n, k;
  int odd;        /* 1: ld + 1 and bases one element in (8-byte aligned rows) */
  double beta;    /* != 0: C is read, D is C */
  int dev_scalars; /* alpha and beta through alpha_ptr / beta_ptr (doubles) */
  int batch;      /* entries (strided, each its own A, B, C) */
  int wide;       /* data over 2^-20 .. 2^20 */
} f64_case;

static const f64_case F64_CASES[] = {
    {TCJ_OP_N, TCJ_OP_N, 512, 512, 512, 0, 0, 0, 1, 0},     {TCJ_OP_N, TCJ_OP_T, 257, 383, 1000, 1, 0.5, 0, 1, 0},
    {TCJ_OP_T, TCJ_OP_N, 129, 65, 77, 0, -1, 1, 1, 1},      {TCJ_OP_T, TCJ_OP_T, 700, 1100, 130, 1, 0, 0, 1, 0},
    {TCJ_OP_N, TCJ_OP_N, 1, 4095, 4095, 1, 0, 0, 1, 0},     {TCJ_OP_N, TCJ_OP_T, 4095, 129, 17, 0, 2, 0, 1, 1},
    {TCJ_OP_T, TCJ_OP_N, 33, 48, 5, 1, 0.25, 1, 3, 0},      {TCJ_OP_N, TCJ_OP_N, 1000, 1000, 0, 0, 0.5, 0, 1, 0},
    {TCJ_OP_N, TCJ_OP_T, 64, 64, 65536, 0, 0, 0, 1, 1},
};
#define NF64 (int)(sizeof F64_CASES / sizeof *F64_CASES)

static double f64_value(uint64_t *s, int wide) {
  double v = 2 * unit(s) - 1;
  return wide ? v * ldexp(1.0, (int)(next(s) % 41) - 20) : v;
}

static void f64_cases_match_reference_element_by_element(void **state) {
  (void)state;
  tcj_engine *e = NULL;
  tcj_options o = TCJ_OPTIONS_INIT;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  cublasHandle_t h;
  assert_int_equal(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  int failed = 0;
  for (int ci = 0; ci < NF64; ci++) {
    const f64_case *fc = &F64_CASES[ci];
    int64_t m = fc->m, n = fc->n, k = fc->k, z = fc->batch, off = fc->odd;
    int ta = fc->op_a == TCJ_OP_T, tb = fc->op_b == TCJ_OP_T;
    int64_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
    int64_t lda = ca + fc->odd, ldb = cb + fc->odd, ldc = n + fc->odd;
    int64_t sa = ra * lda + 3, sb = rb * ldb + 5, sc = m * ldc + 1; /* entry strides */
    size_t na = (size_t)(off + z * sa), nb = (size_t)(off + z * sb), nc = (size_t)(off + z * sc);
    double *ha = malloc(8 * (na ? na : 1)), *hb = malloc(8 * (nb ? nb : 1)), *hc = malloc(8 * nc), *got = malloc(8 * nc);
    assert_true(ha && hb && hc && got);
    uint64_t s = g_seed + 1000 + (uint64_t)ci;
    for (size_t i = 0; i < na; i++) ha[i] = f64_value(&s, fc->wide);
    for (size_t i = 0; i < nb; i++) hb[i] = f64_value(&s, fc->wide);
    for (size_t i = 0; i < nc; i++) hc[i] = fc->beta != 0 ? 2 * unit(&s) - 1 : NAN;
    double *da, *db, *dc, *dscal;
    assert_int_equal(cudaMalloc((void **)&da, 8 * (na ? na : 1)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&db, 8 * (nb ? nb : 1)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&dc, 8 * nc), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&dscal, 16), cudaSuccess);
    double alpha = 1.5, scal[2] = {alpha, fc->beta};
    cudaMemcpy(da, ha, 8 * na, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, 8 * nb, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc, 8 * nc, cudaMemcpyHostToDevice); /* NaN where beta == 0: never read */
    cudaMemcpy(dscal, scal, 16, cudaMemcpyHostToDevice);
    tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
    d.op_a = fc->op_a, d.op_b = fc->op_b, d.m = m, d.n = n, d.k = k;
    d.a = da + off, d.a_type = TCJ_F64, d.lda = lda;
    d.b = db + off, d.b_type = TCJ_F64, d.ldb = ldb;
    d.c = dc + off, d.c_type = TCJ_F64, d.ldc = ldc;
    d.alpha_f64 = alpha, d.beta_f64 = fc->beta;
    if (fc->dev_scalars) d.alpha_ptr = (const float *)(const void *)dscal, d.beta_ptr = (const float *)(const void *)(dscal + 1);
    if (z > 1) d.batch_count = z, d.stride_a = sa, d.stride_b = sb, d.stride_c = sc;
    tcj_status st = tcj_gemm_ex(e, &d, NULL);
    if (st != TCJ_SUCCESS) fail_msg("f64 case %d: %s: %s", ci, tcj_status_string(st), tcj_last_error(e));
    assert_int_equal(cudaMemcpy(got, dc, 8 * nc, cudaMemcpyDeviceToHost), cudaSuccess);
    /* Element by element against a long double reference: |err| <= (k + 2) 2^-52 |alpha| (|A||B|)_ij
     * + 2^-52 (|ref| + |beta c|); and the largest error over |A||B| against cublasDgemm's. */
    int64_t bad = 0, rows = m < CHECK_ROWS ? m : CHECK_ROWS;
    double worst = 0, worst_dgemm = 0;
    double *ref_dgemm = NULL;
    if (z == 1 && k > 0) { /* cublasDgemm of the same call on a copy of C */
      double *dref;
      assert_int_equal(cudaMalloc((void **)&dref, 8 * nc), cudaSuccess);
      cudaMemcpy(dref, hc, 8 * nc, cudaMemcpyHostToDevice);
      assert_int_equal(cublasDgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n, (int)m,
                                   (int)k, &alpha, db + off, (int)ldb, da + off, (int)lda, &scal[1], dref + off,
                                   (int)ldc), CUBLAS_STATUS_SUCCESS);
      ref_dgemm = malloc(8 * nc);
      assert_non_null(ref_dgemm);
      assert_int_equal(cudaMemcpy(ref_dgemm, dref, 8 * nc, cudaMemcpyDeviceToHost), cudaSuccess);
      cudaFree(dref);
    }
    for (int64_t zz = 0; zz < z; zz++)
      for (int64_t r = 0; r < rows; r++) {
        int64_t i = rows == m ? r : r * (m - 1) / (rows - 1);
        for (int64_t j = 0; j < n; j++) {
          long double sum = 0, abs = 0;
          for (int64_t p = 0; p < k; p++) {
            double x = ha[off + zz * sa + (ta ? p * lda + i : i * lda + p)];
            double y = hb[off + zz * sb + (tb ? j * ldb + p : p * ldb + j)];
            sum += (long double)x * y;
            abs += fabsl((long double)x * y);
          }
          size_t at = (size_t)(off + zz * sc + i * ldc + j);
          double cval = fc->beta != 0 ? hc[at] : 0;
          long double ref = (long double)alpha * sum + (long double)fc->beta * cval;
          double bound = (double)((k + 2) * 0x1p-52 * alpha * abs) + 0x1p-52 * (fabs((double)ref) + fabs(fc->beta * cval)) +
                         0x1p-1000;
          double err = fabs(got[at] - (double)ref);
          if (!(err <= bound)) {
            if (bad++ < 3)
              print_message("  f64 case %d: D[%lld][%lld] (entry %lld) = %.17g, want %.17g (bound %.3g)\n", ci,
                            (long long)i, (long long)j, (long long)zz, got[at], (double)ref, bound);
          }
          double scale = abs > 0 ? (double)abs : 1;
          if (!(err / scale <= worst)) worst = err / scale;
          if (ref_dgemm) {
            double ed = fabs(ref_dgemm[at] - (double)ref) / scale;
            if (ed > worst_dgemm) worst_dgemm = ed;
          }
        }
      }
    /* The bound decides; the error against cublasDgemm's is reported (cuBLAS splits deep or
     * skinny problems into shorter sums, tcj sums each K in one fp64 chain). */
    int ok = bad == 0;
    printf("  f64 %c%c %5lldx%5lldx%6lld%s%s%s%s batch %lld: tcj %.3e  cublasDgemm %s%.3e %s\n", ta ? 'T' : 'N',
           tb ? 'T' : 'N', (long long)m, (long long)n, (long long)k, fc->odd ? " odd-ld" : "",
           fc->beta != 0 ? " beta" : "", fc->dev_scalars ? " dev-scalars" : "", fc->wide ? " wide" : "",
           (long long)z, worst, ref_dgemm ? "" : "(none) ", worst_dgemm, ok ? "" : "FAIL");
    failed += !ok;
    free(ref_dgemm);
    free(ha);
    free(hb);
    free(hc);
    free(got);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dscal);
  }
  cublasDestroy(h);
  tcj_destroy(e);
  if (failed) fail_msg("%d of %d f64 cases failed (see FAIL above)", failed, NF64);
}

/* f64's rules of tcj.h: float scalars refused, no fused epilogue, no compute mode. */
static void f64_refuses_float_scalars_and_fused_epilogues(void **state) {
  (void)state;
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, NULL), TCJ_SUCCESS);
  double *buf;
  assert_int_equal(cudaMalloc((void **)&buf, 8 * 64 * 3), cudaSuccess);
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.m = d.n = d.k = 8;
  d.a = buf, d.b = buf + 64, d.c = buf + 128;
  d.a_type = d.b_type = d.c_type = TCJ_F64;
  d.lda = d.ldb = d.ldc = 8;
  d.alpha = 2.0f;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(e), "alpha_f64"));
  d.alpha = 1.0f;
  d.activation = TCJ_ACT_RELU;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_NOT_SUPPORTED);
  d.activation = TCJ_ACT_NONE;
  d.compute = TCJ_COMPUTE_32F_3XTF32;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  d.compute = TCJ_COMPUTE_DEFAULT;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_SUCCESS);
  assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(buf);
  tcj_destroy(e);
}

int main(void) {
  tcj_engine *e = NULL;
  struct cudaDeviceProp prop;
  int go = gpu_test_start("accuracy tests", &e, &g_seed, &prop);
  if (go != GPU_START_GO_ON) return go;
  tcj_destroy(e); /* each test makes its engine with its recipe */
  printf("GPU: %s; error = max |got - exact| / (|A||B|)_ij over %d rows\n", prop.name, CHECK_ROWS);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(f32_selected_recipe_within_twice_sgemm_error),
      cmocka_unit_test(f32_sm80_recipe_within_twice_sgemm_error),
      cmocka_unit_test(f64_cases_match_reference_element_by_element),
      cmocka_unit_test(f64_refuses_float_scalars_and_fused_epilogues),
  };
  return cmocka_run_group_tests_name("accuracy_gpu", tests, NULL, NULL) ? 1 : 0;
}
