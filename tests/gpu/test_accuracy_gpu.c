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
 * against a long double reference, with the error against cublasDgemm's printed beside it
 * (specialised kernels); f64's generic kernels (TCJ_JIT_GENERIC, with and without packing) on
 * edge shapes of every op pair with poisoned padding and D, and the async path (the generic
 * kernel at a class's first call, the specialised one after the swap, no compile in the
 * caller's thread for new shapes of a class). Exits 77 without a GPU. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu_test.h"

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
  gpu_download(h, dc, sizeof(float) * (size_t)(m * n));
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
  gpu_download(out, dc, sizeof(float) * (size_t)(m * n));
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
  cublasHandle_t h = gpu_cublas();
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  int failed = 0;
  for (int i = 0; i < NP; i++) {
    const problem *pr = &PROBLEMS[i];
    data d;
    make_data(pr, &d);
    size_t ab = sizeof(float) * (size_t)(pr->m * pr->k), bb = sizeof(float) * (size_t)(pr->n * pr->k);
    float *da = gpu_upload(d.a, ab), *db = gpu_upload(d.b, bb);
    float *dc = gpu_poisoned(sizeof(float) * (size_t)(pr->m * pr->n), 0xff); /* run_tcj, run_cublas poison it again */
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
  o.jit_mode = TCJ_JIT_SYNC; /* specialised kernels; the generic ones: f64_generic_kernels_... below */
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  cublasHandle_t h = gpu_cublas();
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
    double alpha = 1.5, scal[2] = {alpha, fc->beta};
    double *da = gpu_upload(ha, 8 * (na ? na : 1)), *db = gpu_upload(hb, 8 * (nb ? nb : 1));
    double *dc = gpu_upload(hc, 8 * nc); /* NaN where beta == 0: never read */
    double *dscal = gpu_upload(scal, 16);
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
    gpu_download(got, dc, 8 * nc);
    /* Element by element against a long double reference: |err| <= (k + 2) 2^-52 |alpha| (|A||B|)_ij
     * + 2^-52 (|ref| + |beta c|); and the largest error over |A||B| against cublasDgemm's. */
    int64_t bad = 0, rows = m < CHECK_ROWS ? m : CHECK_ROWS;
    double worst = 0, worst_dgemm = 0;
    double *ref_dgemm = NULL;
    if (z == 1 && k > 0) { /* cublasDgemm of the same call on a copy of C */
      double *dref = gpu_upload(hc, 8 * nc);
      assert_int_equal(cublasDgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n, (int)m,
                                   (int)k, &alpha, db + off, (int)ldb, da + off, (int)lda, &scal[1], dref + off,
                                   (int)ldc), CUBLAS_STATUS_SUCCESS);
      ref_dgemm = malloc(8 * nc);
      assert_non_null(ref_dgemm);
      gpu_download(ref_dgemm, dref, 8 * nc);
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

/* ---- f64 generic kernels (TCJ_JIT_GENERIC, and TCJ_JIT_ASYNC's first calls) -------------- */

/* One f64 call of the generic tests. Leading dimensions pad elements past the minimum (odd pad:
 * 8-byte rows), bases off elements in; A's and B's padding, the gaps between batch entries and
 * everything of D outside its m x n windows hold NaN, so that a kernel that reads past m, n or
 * k, or writes past them, shows. */
typedef struct f64_call {
  tcj_op op_a, op_b;
  int64_t m, n, k;
  int64_t pad;
  int off;
  double alpha, beta;
  int cm;          /* 0: C NULL (beta 0); 1: C apart from D; 2: in place (D is C) */
  int dev_scalars; /* alpha and beta through alpha_ptr / beta_ptr (doubles) */
  int64_t batch;
} f64_call;

#define F64_GUARD 64 /* NaN elements after the last element of every region */

static void f64_nan_fill(double *x, size_t count) { memset(x, 0xFF, 8 * count); } /* 0xFF..: a NaN */
static int f64_is_nan_fill(const double *x) {
  static const unsigned char ff[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  return memcmp(x, ff, 8) == 0;
}

/* Runs c on e and checks every element of D against a long double reference (the f64 bound of
 * the test above), every element outside D's windows untouched and a C apart unchanged. Returns
 * 1 when right, else 0 with what was wrong in msg. */
static int f64_call_check(tcj_engine *e, const f64_call *c, uint64_t seed, char *msg, size_t size) {
  int ta = c->op_a == TCJ_OP_T, tb = c->op_b == TCJ_OP_T;
  int64_t m = c->m, n = c->n, k = c->k, z = c->batch > 1 ? c->batch : 1, off = c->off;
  int64_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
  int64_t lda = ca + c->pad, ldb = cb + c->pad, ldd = n + c->pad, ldc = c->cm == 2 ? ldd : n + c->pad + 1;
  int64_t sa = ra * lda + (z > 1 ? 3 : 0), sb = rb * ldb + (z > 1 ? 5 : 0), sd = m * ldd + (z > 1 ? 7 : 0),
          sc = c->cm == 2 ? sd : m * ldc + (z > 1 ? 2 : 0);
  size_t na = (size_t)(off + z * sa + F64_GUARD), nb = (size_t)(off + z * sb + F64_GUARD),
         nd = (size_t)(off + z * sd + F64_GUARD), nc = (size_t)(off + z * sc + F64_GUARD);
  double *ha = malloc(8 * na), *hb = malloc(8 * nb), *hd = malloc(8 * nd), *hc = malloc(8 * nc), *got = malloc(8 * nd),
         *gotc = malloc(8 * nc);
  assert_true(ha && hb && hd && hc && got && gotc);
  f64_nan_fill(ha, na);
  f64_nan_fill(hb, nb);
  f64_nan_fill(hd, nd);
  f64_nan_fill(hc, nc);
  uint64_t s = seed;
  for (int64_t zz = 0; zz < z; zz++) {
    for (int64_t r = 0; r < ra; r++)
      for (int64_t q = 0; q < ca; q++) ha[off + zz * sa + r * lda + q] = 2 * unit(&s) - 1;
    for (int64_t r = 0; r < rb; r++)
      for (int64_t q = 0; q < cb; q++) hb[off + zz * sb + r * ldb + q] = 2 * unit(&s) - 1;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        if (c->cm == 2) hd[off + zz * sd + i * ldd + j] = 2 * unit(&s) - 1;
        if (c->cm == 1) hc[off + zz * sc + i * ldc + j] = 2 * unit(&s) - 1;
      }
  }
  double scal[2] = {c->alpha, c->beta};
  double *da = gpu_upload(ha, 8 * na), *db = gpu_upload(hb, 8 * nb), *dd = gpu_upload(hd, 8 * nd);
  double *dscal = gpu_upload(scal, 16), *dc = c->cm == 1 ? gpu_upload(hc, 8 * nc) : NULL;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = c->op_a, d.op_b = c->op_b, d.m = m, d.n = n, d.k = k;
  d.a = da + off, d.a_type = TCJ_F64, d.lda = lda;
  d.b = db + off, d.b_type = TCJ_F64, d.ldb = ldb;
  d.c_type = d.d_type = TCJ_F64;
  if (c->cm == 1) d.c = dc + off, d.ldc = ldc, d.d = dd + off, d.ldd = ldd;
  else if (c->cm == 2) d.c = dd + off, d.ldc = ldd; /* d NULL: D is C */
  else d.d = dd + off, d.ldd = ldd;
  d.alpha_f64 = c->alpha, d.beta_f64 = c->beta;
  if (c->dev_scalars) {
    d.alpha_ptr = (const float *)(const void *)dscal;
    if (c->cm) d.beta_ptr = (const float *)(const void *)(dscal + 1);
  }
  if (z > 1) {
    d.batch_count = z, d.stride_a = sa, d.stride_b = sb;
    if (c->cm == 1) d.stride_c = sc, d.stride_d = sd;
    else if (c->cm == 2) d.stride_c = sd;
    else d.stride_d = sd;
  }
  tcj_status st = tcj_gemm_ex(e, &d, NULL);
  int ok = st == TCJ_SUCCESS;
  int64_t bad = 0, bad_outside = 0;
  if (!ok) snprintf(msg, size, "tcj_gemm_ex: %s: %s", tcj_status_string(st), tcj_last_error(e));
  if (ok) {
    gpu_download(got, dd, 8 * nd);
    if (dc) gpu_download(gotc, dc, 8 * nc);
    msg[0] = 0;
    for (size_t i = 0; i < nd; i++) { /* outside the windows: the NaN fill, byte for byte */
      int64_t at = (int64_t)i - off, zz = at >= 0 ? at / sd : -1, in = at - zz * sd, row = in / ldd, col = in % ldd;
      int inside = at >= 0 && zz < z && row < m && col < n;
      if (!inside && !f64_is_nan_fill(&got[i]) && bad_outside++ == 0)
        snprintf(msg, size, "D element %zu (outside every m x n window) was written: %.17g", i, got[i]);
    }
    if (dc && memcmp(gotc, hc, 8 * nc) != 0 && !msg[0]) snprintf(msg, size, "C (apart from D) changed");
    for (int64_t zz = 0; zz < z; zz++)
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
          long double sum = 0, abs = 0;
          for (int64_t p = 0; p < k; p++) {
            double x = ha[off + zz * sa + (ta ? p * lda + i : i * lda + p)];
            double y = hb[off + zz * sb + (tb ? j * ldb + p : p * ldb + j)];
            sum += (long double)x * y;
            abs += fabsl((long double)x * y);
          }
          double cval = c->cm == 1 ? hc[off + zz * sc + i * ldc + j] : c->cm == 2 ? hd[off + zz * sd + i * ldd + j] : 0;
          long double ref = (long double)c->alpha * sum + (long double)c->beta * cval;
          double bound = (double)((k + 2) * 0x1p-52 * fabs(c->alpha) * abs) +
                         0x1p-52 * (fabs((double)ref) + fabs(c->beta * cval)) + 0x1p-1000;
          double g = got[off + zz * sd + i * ldd + j], err = fabs(g - (double)ref);
          if (!(err <= bound) && bad++ == 0 && !msg[0])
            snprintf(msg, size, "D[%lld][%lld] (entry %lld) = %.17g, want %.17g (bound %.3g)", (long long)i,
                     (long long)j, (long long)zz, g, (double)ref, bound);
        }
    ok = bad == 0 && bad_outside == 0 && !msg[0];
  }
  free(ha);
  free(hb);
  free(hd);
  free(hc);
  free(got);
  free(gotc);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dd);
  cudaFree(dc);
  cudaFree(dscal);
  return ok;
}

static const char *f64_call_name(const f64_call *c, char *buf, size_t size) {
  static const char *cms[] = {"C=NULL", "C apart", "in place"};
  snprintf(buf, size, "f64 %c%c %lldx%lldx%lld pad %lld%s %s beta %g%s batch %lld", c->op_a == TCJ_OP_T ? 'T' : 'N',
           c->op_b == TCJ_OP_T ? 'T' : 'N', (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->pad,
           c->off ? " base+1" : "", cms[c->cm], c->beta, c->dev_scalars ? " dev-scalars" : "",
           (long long)(c->batch > 1 ? c->batch : 1));
  return buf;
}

/* Edge shapes, every op pair of each: n and k multiples of nothing, k of 1 and 0, one row or
 * column, below and past one tile either way, both generic tiles (128x128 where the tiles
 * fill half the SMs), padded and odd leading dimensions and bases (8-byte rows), C NULL, apart
 * and in place, device scalars, a batch. */
static int f64_edge_calls(f64_call *out) {
  static const int64_t shapes[][4] = {{1, 1, 1, 1},     {1, 7, 1, 1},       {7, 1, 3, 1},     {3, 5, 2, 1},
                                      {33, 17, 9, 1},   {77, 131, 1, 1},    {129, 65, 100, 1}, {257, 383, 1000, 1},
                                      {100, 3, 4097, 1}, {1000, 999, 37, 1}, {5, 13, 0, 1},     {1100, 1300, 67, 1},
                                      {65, 70, 33, 3}};
  int n = 0;
  for (int i = 0; i < (int)(sizeof shapes / sizeof *shapes); i++)
    for (int ops = 0; ops < 4; ops++) {
      int v = i + ops;
      f64_call c = {(tcj_op)(ops & 1), (tcj_op)(ops >> 1), shapes[i][0], shapes[i][1], shapes[i][2],
                    v % 3 == 0 ? 0 : v % 3 == 1 ? 1 : 4, v % 4 == 1, 1.5, 0, v % 3, v % 5 == 2, shapes[i][3]};
      if (c.cm) c.beta = v % 2 ? 0.5 : -1.0;
      out[n++] = c;
    }
  return n;
}

static tcj_engine *f64_engine(int jit_mode, int disable_packing) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = jit_mode;
  o.disable_packing = disable_packing;
  o.disable_disk_cache = 1; /* the compile counts are this test's */
  tcj_engine *e = NULL;
  if (tcj_create(&e, &o) != TCJ_SUCCESS) fail_msg("tcj_create: %s", tcj_last_error(NULL));
  return e;
}

static tcj_stats f64_stats(tcj_engine *e) {
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  return s;
}

/* TCJ_JIT_GENERIC runs f64 on the dmma recipe's generic kernels: every edge call right, each a
 * generic launch, and few kernels for all of them (2 tiles x 4 op pairs x 2 D classes), with
 * operands packed into 16-byte rows and, with packing off, on 8-byte copies. */
static void f64_generic_kernels_match_reference_on_edge_shapes(void **state) {
  (void)state;
  f64_call calls[64];
  int n = f64_edge_calls(calls), failed = 0;
  for (int packing_off = 0; packing_off < 2; packing_off++) {
    tcj_engine *e = f64_engine(TCJ_JIT_GENERIC, packing_off);
    for (int i = 0; i < n; i++) {
      char msg[512], name[160];
      if (!f64_call_check(e, &calls[i], g_seed + 3000 + (uint64_t)i, msg, sizeof msg)) {
        printf("  FAIL generic%s %s: %s\n", packing_off ? " (packing off)" : "", f64_call_name(&calls[i], name, sizeof name),
               msg);
        failed++;
      }
    }
    tcj_stats s = f64_stats(e);
    printf("  f64 generic%s: %d calls, %llu generic launches, %llu kernels compiled\n", packing_off ? " (packing off)" : "",
           n, (unsigned long long)s.generic_launches, (unsigned long long)s.compiles);
    tcj_destroy(e);
    if (s.generic_launches != (uint64_t)n) fail_msg("%llu generic launches for %d calls", (unsigned long long)s.generic_launches, n);
    /* 2 tiles x 4 op pairs x 2 D classes, times A's and B's copy widths (8 or 16) with packing off. */
    uint64_t most = packing_off ? 64 : 16;
    if (s.compiles < 1 || s.compiles > most)
      fail_msg("%llu generic f64 kernels compiled, want 1 to %llu", (unsigned long long)s.compiles, (unsigned long long)most);
  }
  if (failed) fail_msg("%d f64 generic calls failed (see FAIL above)", failed);
}

/* Waits (up to a minute) until the background worker has made `swaps` kernels ready. */
static tcj_stats f64_wait_for_swaps(tcj_engine *e, uint64_t swaps) {
  tcj_stats s = f64_stats(e);
  for (int i = 0; i < 600 && s.swaps < swaps; i++) {
    usleep(100000);
    s = f64_stats(e);
  }
  if (s.swaps < swaps) fail_msg("the background worker made %llu kernels ready in a minute, want %llu",
                                (unsigned long long)s.swaps, (unsigned long long)swaps);
  return s;
}

/* The default mode (async) on f64 as LAPACK's tester calls it: a class's first call runs its
 * generic kernel at once (compiled in this thread only the first time: no disk cache here), the
 * specialised kernel is built in the background once the class is hot (8 calls) and runs after
 * the swap; new shapes of the same generic class then compile nothing in the caller's thread.
 * Every result is checked. (Before f64 had generic kernels each new shape compiled its kernel
 * in the caller's thread.) */
static void f64_async_runs_generic_kernels_then_the_specialised_one(void **state) {
  (void)state;
  tcj_engine *e = f64_engine(TCJ_JIT_ASYNC, 0);
  char msg[512];
  f64_call c = {TCJ_OP_N, TCJ_OP_T, 300, 521, 263, 3, 1, 1.5, 0.5, 1, 0, 1};
  if (!f64_call_check(e, &c, g_seed + 4000, msg, sizeof msg)) fail_msg("first call: %s", msg);
  tcj_stats s = f64_stats(e);
  printf("  f64 async first call: compiles %llu (background %llu), generic launches %llu, swaps %llu\n",
         (unsigned long long)s.compiles, (unsigned long long)s.compiles_background,
         (unsigned long long)s.generic_launches, (unsigned long long)s.swaps);
  assert_int_equal(s.generic_launches, 1);
  assert_int_equal(s.compiles, 1); /* the generic kernel, in this thread */
  assert_int_equal(s.compiles_background, 0);
  for (int i = 1; i < 8; i++)
    if (!f64_call_check(e, &c, g_seed + 4000 + (uint64_t)i, msg, sizeof msg)) fail_msg("call %d: %s", i + 1, msg);
  s = f64_wait_for_swaps(e, 1);
  assert_int_equal(s.generic_launches, 8);
  assert_int_equal(s.compiles_background, 1);
  if (!f64_call_check(e, &c, g_seed + 4010, msg, sizeof msg)) fail_msg("after the swap: %s", msg);
  assert_int_equal(f64_stats(e).generic_launches, 8); /* the specialised kernel ran */

  /* New shapes of the class (n and k differ, the same op pair, copy and D class): each runs the
   * loaded generic kernel, nothing compiled in this thread. */
  tcj_stats before = f64_stats(e);
  static const int64_t shapes[][3] = {{17, 3, 1}, {129, 77, 33}, {500, 999, 5}, {64, 1, 4097}, {2, 641, 300}};
  for (int i = 0; i < (int)(sizeof shapes / sizeof *shapes); i++) {
    f64_call x = c;
    x.m = shapes[i][0], x.n = shapes[i][1], x.k = shapes[i][2];
    x.pad = 3 + 2 * i; /* odd: 8-byte rows, packed as the first call's were */
    char name[160];
    if (!f64_call_check(e, &x, g_seed + 4100 + (uint64_t)i, msg, sizeof msg))
      fail_msg("%s: %s", f64_call_name(&x, name, sizeof name), msg);
  }
  tcj_stats after = f64_stats(e);
  uint64_t caller = (after.compiles - after.compiles_background) - (before.compiles - before.compiles_background);
  printf("  f64 async: 5 new shapes of one class: %llu generic launches, %llu compiles in the caller's thread\n",
         (unsigned long long)(after.generic_launches - before.generic_launches), (unsigned long long)caller);
  assert_int_equal(after.generic_launches - before.generic_launches, 5);
  assert_int_equal(caller, 0);
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
      cmocka_unit_test(f64_generic_kernels_match_reference_on_edge_shapes),
      cmocka_unit_test(f64_async_runs_generic_kernels_then_the_specialised_one),
  };
  return cmocka_run_group_tests_name("accuracy_gpu", tests, NULL, NULL) ? 1 : 0;
}
