/* SPDX-License-Identifier: Apache-2.0 */
/* Two promises of tcj.h at the edges of the epilogue, on the GPU, through the public API only,
 * with every buffer ending where its mapping ends (guard_buf.h), so a read or write one element
 * past the data faults:
 *   - a user epilogue is called for elements of D only: a residual add that indexes its own
 *     m x n (x batch) buffer by (row, col, batch) never reads past it, on every recipe, split-K
 *     and batches, in the sync and generic JIT modes;
 *   - alpha == 0 does not reference A and B (BLAS, cuBLAS): with NaN in A and infinities in B,
 *     D = beta * C (then the epilogue), for a host alpha and for a device alpha, every type.
 * Results are checked element by element against a float64 host reference.
 * Without a GPU it prints SKIP and exits 77. TCJ_TEST_FILTER / TCJ_TEST_SKIP select tests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime.h>

#include "gpu_test.h"
#include "guard_buf.h"
#include "tcj.h"

static tcj_engine *g_eng;
static uint64_t g_seed_base = 0x5eed0e41ull;
static guard_ctx g_ctx; /* the buffers' vmm API, device and stream; no guard */
static int g_sm;

/* ---- host values of each type -------------------------------------------------------------- */

/* Half an ulp at 1.0 of an output type. */
static double unit_roundoff(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return 0x1p-11;
  case TCJ_BF16: return 0x1p-8;
  case TCJ_F64: return 0x1p-53;
  case TCJ_S32: return 0;
  default: return 0x1p-24;
  }
}

static uint64_t g_rng;
static double runit(void) { /* uniform in [-1, 1) */
  g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(g_rng >> 11) * 0x1p-52 - 1.0;
}

/* ---- buffers that end where their mapping ends (no guard before them) --------------------- */

static void buf_alloc(guard_buf *d, size_t bytes) {
  if (!guard_buf_alloc(&g_ctx, d, bytes, 0xFF)) fail_msg("cannot map %zu bytes", bytes);
}

/* An engine of the given JIT mode, with TCJ_RECIPE set to recipe (NULL: auto) while it is
 * created (the engine reads it then). NULL when this GPU cannot run that recipe. */
static tcj_engine *engine_for(tcj_jit_mode mode, const char *recipe) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = mode;
  if (recipe) setenv("TCJ_RECIPE", recipe, 1);
  tcj_engine *e = NULL;
  tcj_status st = tcj_create(&e, &o);
  if (recipe) unsetenv("TCJ_RECIPE");
  if (st == TCJ_ERROR_NOT_SUPPORTED) {
    printf("  (recipe %s not on this GPU: %s)\n", recipe, tcj_last_error(NULL));
    return NULL;
  }
  if (st != TCJ_SUCCESS) fail_msg("tcj_create: %s: %s", tcj_status_string(st), tcj_last_error(NULL));
  return e;
}

static const char *mode_name(tcj_jit_mode m) {
  return m == TCJ_JIT_SYNC ? "sync" : m == TCJ_JIT_GENERIC ? "generic" : "async";
}

/* ---- user epilogues read only inside their buffer ------------------------------------------ */

/* D = v + scale * R[batch * bs + row * ld + col], R exactly m x n per entry. */
static const char *RESIDUAL_SRC =
    "struct residual { const float *r; long long ld, bs; float scale; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col, long long batch,\n"
    "                                          const void *params) {\n"
    "  const residual *p = (const residual *)params;\n"
    "  return v + p->scale * p->r[batch * p->bs + row * p->ld + col];\n"
    "}\n";

typedef struct residual_params {
  uint64_t r;
  long long ld, bs;
  float scale;
} residual_params;

typedef struct user_case {
  const char *what;
  tcj_dtype ab, d_type;
  tcj_op op_a, op_b;
  int64_t m, n, k, batch;
  float alpha, beta; /* beta != 0: C (type d_type, apart from D) is read */
  tcj_bias_kind bias;
  tcj_activation act;
} user_case;

static double gelu(double v) { return 0.5 * v * (1 + erf(v / sqrt(2.0))); }

/* Runs c on engine e and checks every element of D against the float64 reference. */
static void run_user_case(tcj_engine *e, const char *label, const user_case *c, uint64_t seed) {
  g_rng = seed;
  int64_t m = c->m, n = c->n, k = c->k, nb = c->batch > 1 ? c->batch : 1;
  int64_t a_rows = c->op_a == TCJ_OP_N ? m : k, a_cols = c->op_a == TCJ_OP_N ? k : m;
  int64_t b_rows = c->op_b == TCJ_OP_N ? k : n, b_cols = c->op_b == TCJ_OP_N ? n : k;
  size_t ea = gpu_esize(c->ab), ed = gpu_esize(c->d_type);
  guard_buf A, B, C, D, R, bias, prm;
  buf_alloc(&A, (size_t)(nb * a_rows * a_cols) * ea);
  buf_alloc(&B, (size_t)(nb * b_rows * b_cols) * ea);
  buf_alloc(&D, (size_t)(nb * m * n) * ed);
  buf_alloc(&C, c->beta != 0 ? (size_t)(nb * m * n) * ed : 1);
  buf_alloc(&R, (size_t)(nb * m * n) * 4);
  int64_t blen = c->bias == TCJ_BIAS_COL ? n : c->bias == TCJ_BIAS_ROW ? m : 0;
  buf_alloc(&bias, (size_t)blen * 4 + (blen == 0));
  buf_alloc(&prm, sizeof(residual_params));
  double *a = malloc(sizeof(double) * (size_t)(nb * m * k)), *b = malloc(sizeof(double) * (size_t)(nb * k * n));
  double *cv = calloc((size_t)(nb * m * n), sizeof(double)), *rv = malloc(sizeof(double) * (size_t)(nb * m * n));
  double *bv = calloc((size_t)(blen + 1), sizeof(double));
  assert_true(a && b && cv && rv && bv);
  for (int64_t z = 0; z < nb; z++) {
    for (int64_t i = 0; i < a_rows; i++)
      for (int64_t j = 0; j < a_cols; j++) {
        double v = gpu_put(c->ab, guard_buf_data(&A), (size_t)((z * a_rows + i) * a_cols + j), runit());
        int64_t r = c->op_a == TCJ_OP_N ? i : j, q = c->op_a == TCJ_OP_N ? j : i; /* op(A)[r, q] */
        a[(z * m + r) * k + q] = v;
      }
    for (int64_t i = 0; i < b_rows; i++)
      for (int64_t j = 0; j < b_cols; j++) {
        double v = gpu_put(c->ab, guard_buf_data(&B), (size_t)((z * b_rows + i) * b_cols + j), runit());
        int64_t r = c->op_b == TCJ_OP_N ? i : j, q = c->op_b == TCJ_OP_N ? j : i; /* op(B)[r, q] */
        b[(z * k + r) * n + q] = v;
      }
    for (int64_t i = 0; i < m * n; i++) {
      rv[z * m * n + i] = gpu_put(TCJ_F32, guard_buf_data(&R), (size_t)(z * m * n + i), runit());
      if (c->beta != 0) cv[z * m * n + i] = gpu_put(c->d_type, guard_buf_data(&C), (size_t)(z * m * n + i), runit());
    }
  }
  for (int64_t i = 0; i < blen; i++) bv[i] = gpu_put(TCJ_F32, guard_buf_data(&bias), (size_t)i, runit());
  residual_params rp = {(uint64_t)(uintptr_t)guard_buf_dev(&R), n, m * n, 0.75f};
  memcpy(guard_buf_data(&prm), &rp, sizeof rp);
  memset(guard_buf_data(&D), 0xff, D.bytes); /* NaN in every float type: every element must be written */
  guard_buf *up[] = {&A, &B, &C, &D, &R, &bias, &prm};
  for (size_t i = 0; i < sizeof up / sizeof *up; i++)
    assert_int_equal(guard_buf_upload(&g_ctx, up[i]), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);

  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = c->op_a;
  d.op_b = c->op_b;
  d.m = m;
  d.n = n;
  d.k = k;
  d.a = guard_buf_dev(&A);
  d.a_type = c->ab;
  d.lda = a_cols;
  d.b = guard_buf_dev(&B);
  d.b_type = c->ab;
  d.ldb = b_cols;
  d.c = c->beta != 0 ? guard_buf_dev(&C) : NULL;
  d.c_type = c->d_type;
  d.ldc = n;
  d.d = guard_buf_dev(&D);
  d.d_type = c->d_type;
  d.ldd = n;
  d.alpha = c->alpha;
  d.beta = c->beta;
  d.bias = blen ? guard_buf_dev(&bias) : NULL;
  d.bias_type = TCJ_F32;
  d.bias_kind = c->bias;
  d.activation = c->act;
  d.batch_count = c->batch;
  d.stride_a = a_rows * a_cols;
  d.stride_b = b_rows * b_cols;
  d.stride_c = d.stride_d = m * n;
  d.stride_bias = 0;
  d.epilogue_source = RESIDUAL_SRC;
  d.epilogue_params = guard_buf_dev(&prm);
  if (c->ab == TCJ_F32) d.compute = TCJ_COMPUTE_32F_FAST_TF32; /* tf32 here: the 3xTF32 path has its own tests */
  tcj_status st = tcj_gemm_ex(e, &d, (CUstream)g_ctx.stream);
  if (st != TCJ_SUCCESS) fail_msg("%s: %s: tcj_gemm_ex: %s: %s", label, c->what, tcj_status_string(st), tcj_last_error(e));
  cudaError_t ce = cudaStreamSynchronize(g_ctx.stream);
  if (ce != cudaSuccess) fail_msg("%s: %s: the GEMM failed on the GPU: %s (a read past a buffer?)", label, c->what,
                                  cudaGetErrorName(ce));
  assert_int_equal(guard_buf_download(&g_ctx, &D), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);

  /* |got - ref| <= (eps_p + (k + 2) 2^-23) L |alpha| (|A||B|)_ij + 2 u_out (|ref| + |terms|) + floor, with
   * eps_p the products' rounding (tf32: both operands rounded to 10 bits) and L = 1.2 the
   * activation's Lipschitz bound. */
  double eps_p = c->ab == TCJ_F32 ? 0x1p-10 : 0, u = unit_roundoff(c->d_type), floor_abs = 1e-6 + 4 * u * 1e-3;
  int64_t bad = 0, worst_i = -1, worst_j = -1, worst_z = 0;
  double worst = 0, worst_got = 0, worst_ref = 0;
  for (int64_t z = 0; z < nb; z++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0, t = 0;
        for (int64_t p = 0; p < k; p++) {
          double x = a[(z * m + i) * k + p] * b[(z * k + p) * n + j];
          s += x;
          t += fabs(x);
        }
        int64_t at = z * m * n + i * n + j;
        double bias_v = c->bias == TCJ_BIAS_COL ? bv[j] : c->bias == TCJ_BIAS_ROW ? bv[i] : 0;
        double v = c->alpha * s + c->beta * cv[at] + bias_v;
        double terms = fabs(c->beta * cv[at]) + fabs(bias_v);
        if (c->act == TCJ_ACT_GELU) v = gelu(v);
        else if (c->act == TCJ_ACT_RELU) v = v > 0 ? v : 0;
        double ref = v + 0.75 * rv[at];
        double got = gpu_get(c->d_type, guard_buf_back(&D), (size_t)at);
        double bound = (eps_p + (double)(k + 2) * 0x1p-23) * 1.2 * fabs(c->alpha) * t +
                       2 * u * (fabs(ref) + terms + fabs(0.75 * rv[at])) + 1e-6 * fabs(v) + floor_abs;
        double ratio = isnan(got) ? INFINITY : fabs(got - ref) / bound;
        if (!(ratio <= 1)) bad++;
        if (worst_i < 0 || !(ratio <= worst)) {
          worst = ratio;
          worst_i = i;
          worst_j = j;
          worst_z = z;
          worst_got = got;
          worst_ref = ref;
        }
      }
  printf("  %-8s %-44s %4lld x %4lld x %4lld (batch %lld): worst |err|/bound %.3g\n", label, c->what, (long long)m,
         (long long)n, (long long)k, (long long)nb, worst);
  for (size_t i = 0; i < sizeof up / sizeof *up; i++) guard_buf_free(&g_ctx, up[i]);
  free(a);
  free(b);
  free(cv);
  free(rv);
  free(bv);
  if (bad)
    fail_msg("%s: %s: %lld elements outside their bound; worst at batch %lld (%lld, %lld): got %.9g, want %.9g", label,
             c->what, (long long)bad, (long long)worst_z, (long long)worst_i, (long long)worst_j, worst_got, worst_ref);
}

static const user_case USER_CASES[] = {
    /* The two shapes that crashed the context (illegal memory access) before the calls were guarded. */
    {"f16, D f32, C not read", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 129, 1000, 777, 0, 1.0f, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE},
    {"bf16, batch 3, bias+GELU, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 333, 517, 271, 3, 0.5f, 0.5f, TCJ_BIAS_COL,
     TCJ_ACT_GELU},
    {"f16 NT, tiny and odd", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_T, 7, 9, 5, 0, 1.0f, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE},
    {"bf16 TN, row bias + ReLU, f32 D, C read", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 65, 130, 33, 2, 1.0f, -1.0f,
     TCJ_BIAS_ROW, TCJ_ACT_RELU},
    {"tf32 TT, odd", TCJ_F32, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 37, 61, 29, 0, 1.0f, 0.25f, TCJ_BIAS_NONE, TCJ_ACT_NONE},
    /* Skinny and deep: split-K (the reduction entry calls the user function) where chosen. */
    {"bf16 NT decode, deep K", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 13, 520, 6000, 0, 1.0f, 0, TCJ_BIAS_NONE,
     TCJ_ACT_NONE},
    {"f16 NT, deep K, C read", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 100, 72, 9000, 0, 1.0f, 0.5f, TCJ_BIAS_COL,
     TCJ_ACT_NONE},
};

/* Runs fn on an engine of each recipe (the engine's choice, then TCJ_RECIPE=sm80 and =sm90
 * where the GPU has it) and JIT mode (sync, generic); forced: a recipe is forced. */
static void on_every_engine(void (*fn)(tcj_engine *e, const char *label, int forced)) {
  static const char *const recipes[] = {NULL, "sm80", "sm90"};
  static const tcj_jit_mode modes[] = {TCJ_JIT_SYNC, TCJ_JIT_GENERIC};
  for (size_t r = 0; r < sizeof recipes / sizeof *recipes; r++)
    for (size_t md = 0; md < sizeof modes / sizeof *modes; md++) {
      tcj_engine *e = engine_for(modes[md], recipes[r]);
      if (!e) continue;
      char label[32];
      snprintf(label, sizeof label, "%s/%s", recipes[r] ? recipes[r] : "auto", mode_name(modes[md]));
      fn(e, label, recipes[r] != NULL);
      tcj_destroy(e);
    }
}

static void run_user_cases_on(tcj_engine *e, const char *label, int forced) {
  (void)forced;
  for (size_t i = 0; i < sizeof USER_CASES / sizeof *USER_CASES; i++)
    run_user_case(e, label, &USER_CASES[i], g_seed_base + 101 * i);
}

/* The user epilogue reads its residual through (row, col, batch) from a buffer of exactly the
 * problem's elements: any call for a row or column past the problem faults. */
static void user_epilogue_is_called_for_elements_of_d_only(void **state) {
  (void)state;
  on_every_engine(run_user_cases_on);
}

/* ---- alpha == 0: A and B not referenced ---------------------------------------------------- */

typedef struct zero_case {
  tcj_dtype ab, cd;
  int64_t m, n, k;
} zero_case;

/* D = beta * C exactly (beta = 0.5 scales by a power of two), then ReLU(. + bias) for the
 * bias case; A holds NaNs, B infinities (s8 has neither: random values). device_alpha: alpha
 * through alpha_ptr (a device 0), else the host field. */
/* Runs the case; returns 0 where a forced recipe (forced != 0) cannot run it at all (printed),
 * else 1 (a failure ends the test). */
static int run_zero_case(tcj_engine *e, const char *label, int forced, const zero_case *c, int device_alpha,
                         int with_bias, uint64_t seed) {
  g_rng = seed;
  int64_t m = c->m, n = c->n, k = c->k;
  size_t ea = gpu_esize(c->ab), ec = gpu_esize(c->cd);
  int f64 = c->ab == TCJ_F64;
  guard_buf A, B, C, D, S, bias;
  buf_alloc(&A, (size_t)(m * k) * ea);
  buf_alloc(&B, (size_t)(k * n) * ea);
  buf_alloc(&C, (size_t)(m * n) * ec);
  buf_alloc(&D, (size_t)(m * n) * ec);
  buf_alloc(&S, 8);
  buf_alloc(&bias, (size_t)n * 4);
  for (int64_t i = 0; i < m * k; i++) {
    double v = c->ab == TCJ_S8 ? 100 * runit() : (i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : runit());
    gpu_put(c->ab, guard_buf_data(&A), (size_t)i, v);
  }
  for (int64_t i = 0; i < k * n; i++) {
    double v = c->ab == TCJ_S8 ? 100 * runit() : (i % 2 ? -INFINITY : INFINITY);
    gpu_put(c->ab, guard_buf_data(&B), (size_t)i, v);
  }
  for (int64_t i = 0; i < m * n; i++)
    gpu_put(c->cd, guard_buf_data(&C), (size_t)i, c->cd == TCJ_S32 ? 1000 * runit() : runit());
  for (int64_t i = 0; i < n; i++) gpu_put(TCJ_F32, guard_buf_data(&bias), (size_t)i, runit());
  memset(guard_buf_data(&S), 0, 8); /* the device alpha: +0.0 as float or double */
  memset(guard_buf_data(&D), 0xff, D.bytes);
  guard_buf *up[] = {&A, &B, &C, &D, &S, &bias};
  for (size_t i = 0; i < sizeof up / sizeof *up; i++)
    assert_int_equal(guard_buf_upload(&g_ctx, up[i]), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);

  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.m = m;
  d.n = n;
  d.k = k;
  d.a = guard_buf_dev(&A);
  d.a_type = d.b_type = c->ab;
  d.lda = k;
  d.b = guard_buf_dev(&B);
  d.ldb = n;
  d.c = guard_buf_dev(&C);
  d.c_type = d.d_type = c->cd;
  d.ldc = d.ldd = n;
  d.d = guard_buf_dev(&D);
  if (f64) {
    d.alpha = 1.0f;
    d.alpha_f64 = device_alpha ? 1.0 : 0.0;
    d.beta_f64 = 0.5;
  } else {
    d.alpha = device_alpha ? 1.0f : 0.0f;
    d.beta = 0.5f;
  }
  if (device_alpha) d.alpha_ptr = (const float *)guard_buf_dev(&S);
  if (with_bias) {
    d.bias = guard_buf_dev(&bias);
    d.bias_type = TCJ_F32;
    d.bias_kind = TCJ_BIAS_COL;
    d.activation = TCJ_ACT_RELU;
  }
  tcj_status st = tcj_gemm_ex(e, &d, (CUstream)g_ctx.stream);
  if (st == TCJ_ERROR_NOT_SUPPORTED && forced) { /* a tuning knob's limit (e.g. sm90 generic tiles and m < 64) */
    printf("  %-8s %s %lld x %lld x %lld: not run: %s\n", label, tcj_dtype_name(c->ab), (long long)m, (long long)n,
           (long long)k, tcj_last_error(e));
    for (size_t i = 0; i < sizeof up / sizeof *up; i++) guard_buf_free(&g_ctx, up[i]);
    return 0;
  }
  if (st != TCJ_SUCCESS) fail_msg("%s: tcj_gemm_ex: %s: %s", label, tcj_status_string(st), tcj_last_error(e));
  cudaError_t ce = cudaStreamSynchronize(g_ctx.stream);
  if (ce != cudaSuccess) fail_msg("%s: the GEMM failed on the GPU: %s", label, cudaGetErrorName(ce));
  assert_int_equal(guard_buf_download(&g_ctx, &D), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);
  int64_t bad = 0, first = -1;
  double first_got = 0, first_want = 0;
  for (int64_t i = 0; i < m * n; i++) {
    double cv = gpu_get(c->cd, guard_buf_data(&C), (size_t)i), want = 0.5 * cv;
    if (with_bias) {
      /* fp32 arithmetic, then rounded to D's type: within its rounding of the exact value. */
      double x = (double)(float)(0.5 * cv) + gpu_get(TCJ_F32, guard_buf_data(&bias), (size_t)(i % n));
      want = x > 0 ? x : 0;
    }
    double got = gpu_get(c->cd, guard_buf_back(&D), (size_t)i);
    double tol = with_bias ? 2 * unit_roundoff(c->cd) * fabs(want) + 1e-30 : 0;
    if (c->cd == TCJ_S32) want = nearbyint(want), tol = 0.5; /* s32: rounded to nearest, either on a tie */
    if (!(fabs(got - want) <= tol)) {
      if (first < 0) first = i, first_got = got, first_want = want;
      bad++;
    }
  }
  printf("  %-8s %-4s %s alpha 0%s: %lld x %lld x %lld: %lld wrong\n", label, tcj_dtype_name(c->ab), device_alpha ? "device" : "host",
         with_bias ? " +bias+ReLU" : "", (long long)m, (long long)n, (long long)k, (long long)bad);
  for (size_t i = 0; i < sizeof up / sizeof *up; i++) guard_buf_free(&g_ctx, up[i]);
  if (!bad) return 1;
    fail_msg("%s: %s alpha 0 (%s): %lld of %lld elements are not beta * C; first (%lld, %lld): got %.9g, want %.9g",
             label, tcj_dtype_name(c->ab), device_alpha ? "device" : "host", (long long)bad, (long long)(m * n),
             (long long)(first / n), (long long)(first % n), first_got, first_want);
  return 1;
}

static const zero_case ZERO_SHAPES[] = {
    {TCJ_BF16, TCJ_BF16, 64, 64, 64},
    {TCJ_BF16, TCJ_BF16, 1000, 1000, 1000},
    {TCJ_BF16, TCJ_BF16, 4096, 4096, 512},
    {TCJ_BF16, TCJ_BF16, 7, 300, 9000},
};

static const zero_case ZERO_TYPES[] = {
    {TCJ_F16, TCJ_F32, 200, 136, 300},   {TCJ_F32, TCJ_F32, 200, 136, 300}, /* 3xTF32 */
    {TCJ_TF32, TCJ_F32, 200, 136, 300},  {TCJ_E4M3, TCJ_BF16, 200, 136, 320},
    {TCJ_S8, TCJ_S32, 200, 136, 320},    {TCJ_F64, TCJ_F64, 200, 136, 300},
    {TCJ_F16, TCJ_F16, 7, 300, 9000},    {TCJ_F64, TCJ_F64, 7, 300, 9000},
};

/* Runs the cases on e; returns how many ran (a forced recipe may not run some). */
static int zero_cases_on(tcj_engine *e, const char *label, int forced, const zero_case *cases, size_t count,
                         int bias_too) {
  int ran = 0;
  for (size_t i = 0; i < count; i++) {
    const zero_case *c = &cases[i];
    if ((c->ab == TCJ_E4M3 || c->ab == TCJ_E5M2) && g_sm < 89) continue; /* fp8: sm_89 and newer */
    for (int dev = 0; dev < 2; dev++) {
      ran += run_zero_case(e, label, forced, c, dev, 0, g_seed_base + 7 * i + (uint64_t)dev);
      int biased = bias_too && c->ab != TCJ_F64 && c->ab != TCJ_S8; /* f64 and s8: no float bias + ReLU here */
      if (biased) ran += run_zero_case(e, label, forced, c, dev, 1, g_seed_base + 7 * i + 3);
    }
  }
  return ran;
}

static void run_zero_shapes_on(tcj_engine *e, const char *label, int forced) {
  int ran = zero_cases_on(e, label, forced, ZERO_SHAPES, sizeof ZERO_SHAPES / sizeof *ZERO_SHAPES, 1);
  if (ran < 8) fail_msg("%s: only %d of 16 runs could run", label, ran);
}

/* The shapes the defect was seen on, bf16, host and device alpha, on each recipe and JIT mode. */
static void alpha_zero_does_not_reference_a_and_b(void **state) {
  (void)state;
  on_every_engine(run_zero_shapes_on);
}

/* Every operand type (f32 through 3xTF32, fp8, s8, f64 on DMMA), with the default engine. */
static void alpha_zero_does_not_reference_a_and_b_of_any_type(void **state) {
  (void)state;
  static const tcj_jit_mode modes[] = {TCJ_JIT_SYNC, TCJ_JIT_GENERIC};
  for (size_t md = 0; md < sizeof modes / sizeof *modes; md++) {
    tcj_engine *e = engine_for(modes[md], NULL);
    zero_cases_on(e, mode_name(modes[md]), 0, ZERO_TYPES, sizeof ZERO_TYPES / sizeof *ZERO_TYPES, 1);
    tcj_destroy(e);
  }
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("epilogue edge checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, 0)) return 1;
  g_sm = prop.major * 10 + prop.minor;
  printf("GPU: %s (sm_%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, g_sm, (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(user_epilogue_is_called_for_elements_of_d_only),
      cmocka_unit_test(alpha_zero_does_not_reference_a_and_b),
      cmocka_unit_test(alpha_zero_does_not_reference_a_and_b_of_any_type),
  };
  int failures = cmocka_run_group_tests_name("epilogue_edges_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
