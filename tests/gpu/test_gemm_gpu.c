/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of tcj_gemm through the public API only: results against a host fp64
 * reference and against cuBLAS for every supported dtype pair, op pair and alignment class,
 * with poisoned outputs and sentinels around C. Without a GPU it prints SKIP and exits 77, which
 * CTest reports as skipped (SKIP_RETURN_CODE), not as passed. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"
#include "tests/gpu/oracle.h"

/* Host reference cost per case, in multiply-adds; above it only a sample of rows is checked
 * against the host (cuBLAS still checks every element). */
#ifndef REF_MAC_BUDGET
#define REF_MAC_BUDGET 300000000.0
#endif
#define GUARD_BYTES 256  /* sentinel bytes after the last row of C */
#define SENTINEL 0xA5    /* byte pattern around C: padding columns, offset prefix, guard */
#define CASES_PER_DTYPE 36
#define MSG_SIZE 1024

/* ---- dtypes ---------------------------------------------------------------------------- */

typedef struct dt_pair {
  const char *name;
  tcj_dtype ab;     /* storage of A and B (tf32 data is stored as f32) */
  tcj_dtype ab_api; /* type passed to tcj_gemm */
  tcj_dtype c;
} dt_pair;

enum { P_F16_F16, P_F16_F32, P_BF16_BF16, P_BF16_F32, P_F16_BF16, P_TF32_F32, P_S8_S32, P_BF16_F16, P_F32_F32, P_COUNT };

static const dt_pair PAIRS[P_COUNT] = {
    [P_F16_F16] = {"f16->f16", TCJ_F16, TCJ_F16, TCJ_F16},
    [P_F16_F32] = {"f16->f32", TCJ_F16, TCJ_F16, TCJ_F32},
    [P_BF16_BF16] = {"bf16->bf16", TCJ_BF16, TCJ_BF16, TCJ_BF16},
    [P_BF16_F32] = {"bf16->f32", TCJ_BF16, TCJ_BF16, TCJ_F32},
    [P_F16_BF16] = {"f16->bf16", TCJ_F16, TCJ_F16, TCJ_BF16},
    [P_TF32_F32] = {"tf32->f32", TCJ_F32, TCJ_TF32, TCJ_F32},
    [P_S8_S32] = {"s8->s32", TCJ_S8, TCJ_S8, TCJ_S32},
    [P_BF16_F16] = {"bf16->f16", TCJ_BF16, TCJ_BF16, TCJ_F16},
    [P_F32_F32] = {"f32->f32", TCJ_F32, TCJ_F32, TCJ_F32}, /* fp32 accuracy: 3xTF32 */
};

/* ---- random numbers (gpu_test.h's splitmix64: seeded per case, reproducible) ------------ */

static int64_t rng_int(rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static void fill_random(tcj_dtype t, void *buf, size_t i, rng *r) {
  if (t == TCJ_S8) gpu_put(t, buf, i, (double)rng_int(r, -8, 8));
  else if (t == TCJ_S32) gpu_put(t, buf, i, (double)rng_int(r, -1000, 1000));
  else gpu_put(t, buf, i, rng_sym(r));
}

/* ---- cases ------------------------------------------------------------------------------ */

typedef enum align_class { AL_PACKED, AL_ALIGNED16, AL_ODD_LD, AL_OFFSET, AL_COUNT } align_class;
static const char *ALIGN_NAMES[AL_COUNT] = {"packed", "aligned16", "odd-ld", "base+1"};

typedef struct gemm_case {
  const dt_pair *dt;
  tcj_dtype ab_api;
  tcj_op op_a, op_b;
  int64_t m, n, k, lda, ldb, ldc;
  int64_t off_a, off_b, off_c; /* elements between the allocation and the matrix */
  double alpha, beta;
  align_class align;
  uint64_t seed;
  int null_stream; /* pass stream 0 instead of the context's stream */
} gemm_case;

static int describe(const gemm_case *c, char *buf, size_t size) {
  return snprintf(buf, size,
                  "%s (a,b passed as %s) op=%c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld "
                  "align=%s offsets=%lld,%lld,%lld alpha=%g beta=%g seed=0x%llx%s",
                  c->dt->name, tcj_dtype_name(c->ab_api), c->op_a ? 'T' : 'N', c->op_b ? 'T' : 'N',
                  (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->lda,
                  (long long)c->ldb, (long long)c->ldc, ALIGN_NAMES[c->align],
                  (long long)c->off_a, (long long)c->off_b, (long long)c->off_c, c->alpha, c->beta,
                  (unsigned long long)c->seed, c->null_stream ? " stream=NULL" : "");
}

static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

/* Leading dimension of a row-major operand with `cols` columns under an alignment class. */
static int64_t pick_ld(align_class al, int64_t cols, size_t es, int is_c, rng *r) {
  int64_t min = cols > 1 ? cols : 1, per16 = 16 / (int64_t)es;
  switch (al) {
  case AL_PACKED: return is_c ? round_up(cols + 1, per16) : min;
  case AL_ALIGNED16: return round_up(cols + (is_c ? 1 : 0), per16) + (rng_next(r) & 1) * per16;
  case AL_ODD_LD: { int64_t ld = min + 1 + (int64_t)(rng_next(r) & 2); return (ld & 1) ? ld : ld + 1; }
  case AL_OFFSET: return is_c ? cols + 1 : min;
  default: return min;
  }
}

/* Fills in lds and offsets of c from its shape and alignment class. */
static void layout_case(gemm_case *c) {
  rng r = {c->seed ^ 0x1d5ull};
  size_t es = gpu_esize(c->dt->ab), esc = gpu_esize(c->dt->c);
  int64_t cols_a = c->op_a == TCJ_OP_N ? c->k : c->m, cols_b = c->op_b == TCJ_OP_N ? c->n : c->k;
  c->lda = pick_ld(c->align, cols_a, es, 0, &r);
  c->ldb = pick_ld(c->align, cols_b, es, 0, &r);
  c->ldc = pick_ld(c->align, c->n, esc, 1, &r);
  c->off_a = c->off_b = c->off_c = c->align == AL_OFFSET ? 1 : 0;
}

/* alpha and beta: zero, negative and odd values too (alpha 0 leaves beta * C). s32 results
 * take integer scalars, as cuBLAS's int8 GEMM does. */
static const double FLOAT_SCALARS[][2] = {{1, 0}, {0.5, -1.25}, {2, 1}, {0.37, 0}, {-1, 0.37}, {0, -1}, {-0.37, 1}};
static const double INT_SCALARS[][2] = {{1, 0}, {2, -1}, {-1, 0}, {0, 3}, {-3, 1}};
#define N_FLOAT_SCALARS ((int)(sizeof FLOAT_SCALARS / sizeof FLOAT_SCALARS[0]))
#define N_INT_SCALARS ((int)(sizeof INT_SCALARS / sizeof INT_SCALARS[0]))

static void set_scalars(gemm_case *c, int i) {
  if (c->dt->c == TCJ_S32) {
    c->alpha = INT_SCALARS[i % N_INT_SCALARS][0];
    c->beta = INT_SCALARS[i % N_INT_SCALARS][1];
  } else {
    c->alpha = FLOAT_SCALARS[i % N_FLOAT_SCALARS][0];
    c->beta = FLOAT_SCALARS[i % N_FLOAT_SCALARS][1];
  }
}

static uint64_t g_seed_base = 0x7c1e5eedull;
static int g_cases_per_dtype = CASES_PER_DTYPE;

/* Dims from the edge-heavy list; -1 draws uniformly from [1, 3000]. 4095 lives in big_cases. */
static const int64_t DIMS[] = {1, 7, 15, 16, 17, 31, 33, 127, 129, 1000, -1};

static int64_t draw_dim(rng *r) {
  int64_t d = DIMS[rng_next(r) % (sizeof DIMS / sizeof DIMS[0])];
  return d < 0 ? rng_int(r, 1, 3000) : d;
}

/* Case i of the sweep of one dtype pair: op pairs cycle fastest, then alignment classes, so
 * the first 16 cases cover every (op pair, alignment) combination; scalars cycle on their own. */
static gemm_case sweep_case(int pair, int i) {
  gemm_case c = {0};
  c.dt = &PAIRS[pair];
  c.seed = g_seed_base + (uint64_t)pair * 1000 + (uint64_t)i;
  rng r = {c.seed};
  c.ab_api = c.dt->ab_api;
  c.op_a = (tcj_op)(i & 1);
  c.op_b = (tcj_op)((i >> 1) & 1);
  c.align = (align_class)((i / 4) % AL_COUNT);
  c.m = draw_dim(&r);
  c.n = draw_dim(&r);
  c.k = draw_dim(&r);
  c.null_stream = i % 5 == 4;
  set_scalars(&c, i);
  layout_case(&c);
  return c;
}

/* ---- running and checking one case ----------------------------------------------------- */

typedef struct gpu_ctx {
  tcj_engine *eng;
  cublasHandle_t blas;
  cudaStream_t stream;
} gpu_ctx;

/* One case in flight: host copies, device buffers, and what the checks found. */
typedef struct run {
  gemm_case c;
  size_t bytes_a, bytes_b, bytes_c;
  void *ha, *hb, *hc, *hout;
  void *da, *db, *dc;
  tcj_dtype blas_c; /* C type of the cuBLAS call (f32 where cuBLAS lacks the pair) */
  int cublas_skipped;
  int host_all_rows; /* the host reference judged every element: cuBLAS only informs */
  int cublas_disagrees;
  char cublas_note[160];
} run;

static tcj_engine *g_eng;
static cublasHandle_t g_blas;
static cudaStream_t g_stream;
static int g_cublas_skips;

static void run_free(run *r) {
  free(r->ha);
  free(r->hb);
  free(r->hc);
  free(r->hout);
  cudaFree(r->da);
  cudaFree(r->db);
  cudaFree(r->dc);
  memset(r, 0, sizeof *r);
}

static int failf(char *msg, size_t size, const gemm_case *c, const char *fmt, ...) {
  int len = describe(c, msg, size);
  if (len < 0 || (size_t)len >= size) return 0;
  msg[len++] = ':';
  msg[len++] = ' ';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + len, size - (size_t)len, fmt, ap);
  va_end(ap);
  return 0;
}

/* Host buffers with fresh random data, padding of A and B poisoned, C filled with random
 * values (beta != 0) or poison (beta == 0) and sentinels everywhere outside the matrix. Then
 * device copies, queued on stream. Returns 1, or 0 with msg. */
static int run_prepare(run *r, const gemm_case *c, cudaStream_t stream, char *msg, size_t size) {
  memset(r, 0, sizeof *r);
  r->c = *c;
  rng g = {c->seed};
  size_t es = gpu_esize(c->dt->ab), esc = gpu_esize(c->dt->c);
  int64_t rows_a = c->op_a == TCJ_OP_N ? c->m : c->k, cols_a = c->op_a == TCJ_OP_N ? c->k : c->m;
  int64_t rows_b = c->op_b == TCJ_OP_N ? c->k : c->n, cols_b = c->op_b == TCJ_OP_N ? c->n : c->k;
  size_t na = (size_t)(c->off_a + rows_a * c->lda), nb = (size_t)(c->off_b + rows_b * c->ldb);
  size_t nc = (size_t)(c->off_c + c->m * c->ldc);
  r->bytes_a = na * es + 16; /* never a zero-byte allocation */
  r->bytes_b = nb * es + 16;
  r->bytes_c = nc * esc + GUARD_BYTES;
  r->ha = malloc(r->bytes_a);
  r->hb = malloc(r->bytes_b);
  r->hc = malloc(r->bytes_c);
  r->hout = malloc(r->bytes_c);
  if (!r->ha || !r->hb || !r->hc || !r->hout) return failf(msg, size, c, "host out of memory");
  for (size_t i = 0; i < r->bytes_a / es; i++) gpu_poison(c->dt->ab, r->ha, i);
  for (size_t i = 0; i < r->bytes_b / es; i++) gpu_poison(c->dt->ab, r->hb, i);
  for (int64_t i = 0; i < rows_a; i++)
    for (int64_t j = 0; j < cols_a; j++) fill_random(c->dt->ab, r->ha, (size_t)(c->off_a + i * c->lda + j), &g);
  for (int64_t i = 0; i < rows_b; i++)
    for (int64_t j = 0; j < cols_b; j++) fill_random(c->dt->ab, r->hb, (size_t)(c->off_b + i * c->ldb + j), &g);
  memset(r->hc, SENTINEL, r->bytes_c);
  for (int64_t i = 0; i < c->m; i++)
    for (int64_t j = 0; j < c->n; j++) {
      size_t at = (size_t)(c->off_c + i * c->ldc + j);
      if (c->beta != 0) fill_random(c->dt->c, r->hc, at, &g);
      else gpu_poison(c->dt->c, r->hc, at);
    }
  cudaError_t e;
  if ((e = cudaMalloc(&r->da, r->bytes_a)) || (e = cudaMalloc(&r->db, r->bytes_b)) ||
      (e = cudaMalloc(&r->dc, r->bytes_c)) ||
      (e = cudaMemcpyAsync(r->da, r->ha, r->bytes_a, cudaMemcpyHostToDevice, stream)) ||
      (e = cudaMemcpyAsync(r->db, r->hb, r->bytes_b, cudaMemcpyHostToDevice, stream)) ||
      (e = cudaMemcpyAsync(r->dc, r->hc, r->bytes_c, cudaMemcpyHostToDevice, stream)))
    return failf(msg, size, c, "CUDA setup failed: %s", cudaGetErrorName(e));
  return 1;
}

static tcj_status run_launch(tcj_engine *eng, run *r, cudaStream_t stream) {
  const gemm_case *c = &r->c;
  size_t es = gpu_esize(c->dt->ab), esc = gpu_esize(c->dt->c);
  return tcj_gemm(eng, c->op_a, c->op_b, c->m, c->n, c->k, (float)c->alpha,
                  (const char *)r->da + c->off_a * es, c->ab_api, c->lda,
                  (const char *)r->db + c->off_b * es, c->ab_api, c->ldb, (float)c->beta,
                  (char *)r->dc + c->off_c * esc, c->dt->c, c->ldc, (CUstream)stream);
}

/* Rows of C that the host reference checks: all of them while affordable, else row 0, row m-1
 * and a random sample. */
static int64_t pick_rows(const gemm_case *c, int64_t *rows) {
  double per_row = (double)(c->n > 0 ? c->n : 1) * (double)(c->k > 0 ? c->k : 1);
  int64_t want = (int64_t)(REF_MAC_BUDGET / per_row);
  if (want < 2) want = 2;
  if (want >= c->m) {
    for (int64_t i = 0; i < c->m; i++) rows[i] = i;
    return c->m;
  }
  rng g = {c->seed ^ 0x5a3ull};
  rows[0] = 0;
  rows[1] = c->m - 1;
  for (int64_t i = 2; i < want; i++) rows[i] = rng_int(&g, 1, c->m - 2);
  return want;
}

/* Worst |got - ref| / bound seen per dtype pair, host and cuBLAS checks: printed at the end. */
static double g_worst_host[P_COUNT], g_worst_cublas[P_COUNT];
static pthread_mutex_t g_worst_mu = PTHREAD_MUTEX_INITIALIZER; /* the threads test checks too */

static void note_worst(double *worst, const dt_pair *dt, double ratio) {
  pthread_mutex_lock(&g_worst_mu);
  int p = (int)(dt - PAIRS);
  if (ratio > worst[p]) worst[p] = ratio;
  pthread_mutex_unlock(&g_worst_mu);
}

static int pair_index(const dt_pair *dt) { return (int)(dt - PAIRS); }

/* An element of op(A) (i, p) or op(B)^T (j, p) as the tensor cores see it. tf32 data goes in
 * truncated or rounded (tf32_model 1 or 0, tests/gpu/oracle.h): tcj.h promises neither. */
static double operand(const gemm_case *c, const void *buf, int is_b, int64_t row, int64_t p, int tf32_model) {
  int t = is_b ? c->op_b == TCJ_OP_N : c->op_a == TCJ_OP_T; /* stored with K as the row index */
  int64_t ld = is_b ? c->ldb : c->lda, off = is_b ? c->off_b : c->off_a;
  double v = gpu_get(c->dt->ab, buf, (size_t)(off + (t ? p * ld + row : row * ld + p)));
  return tf32_model >= 0 ? (double)oracle_tf32((float)v, tf32_model) : v;
}

/* 3xTF32 (tcj.h, TCJ_COMPUTE_32F_3XTF32) forms each product from parts: with big = tf32(x) and
 * small = tf32(x - big), |x - big - small| <= 2^-22 |x|, and the dropped small_a small_b is at
 * most 2^-22 |a b|: every product is off by at most 2^-20 |a b| (three such terms and their
 * products, rounded up), on top of the fp32 accumulation c_k covers. */
static double x3_term(const gemm_case *c) { return pair_index(c->dt) == P_F32_F32 ? 0x1p-20 : 0; }

/* Host fp64 reference of the sampled rows, every element judged on its own by the bound of
 * tests/gpu/oracle.h (|A||B| per element, the output's rounding, fp32 accumulation over K). */
static int check_host(run *r, char *msg, size_t size) {
  enum { CHUNK = 32 }; /* rows per oracle call: bounds the host memory of deep-K cases */
  const gemm_case *c = &r->c;
  tcj_dtype tc = c->dt->c;
  int64_t *rows = malloc(sizeof *rows * (size_t)(c->m > 2 ? c->m : 2));
  double *bt = malloc(sizeof *bt * (size_t)(c->n * c->k + 1)); /* op(B)^T, n x k */
  double *a = malloc(sizeof *a * (size_t)(CHUNK * c->k + 1));
  double *cin = malloc(sizeof *cin * (size_t)(CHUNK * c->n + 1)), *got = malloc(sizeof *got * (size_t)(CHUNK * c->n + 1));
  int ok = 0, tf32 = pair_index(c->dt) == P_TF32_F32;
  if (!rows || !bt || !a || !cin || !got) {
    failf(msg, size, c, "host out of memory");
    goto done;
  }
  int64_t nrows = pick_rows(c, rows);
  r->host_all_rows = nrows == c->m;
  oracle_result worst = {0};
  for (int model = tf32 ? 1 : -1; model >= (tf32 ? 0 : -1) && !ok; model--) {
    for (int64_t j = 0; j < c->n; j++)
      for (int64_t p = 0; p < c->k; p++) bt[j * c->k + p] = operand(c, r->hb, 1, j, p, model);
    oracle_result all = {0};
    all.worst_i = -1;
    for (int64_t s0 = 0; s0 < nrows; s0 += CHUNK) {
      int64_t rn = nrows - s0 < CHUNK ? nrows - s0 : CHUNK;
      for (int64_t s = 0; s < rn; s++) {
        int64_t i = rows[s0 + s];
        for (int64_t p = 0; p < c->k; p++) a[s * c->k + p] = operand(c, r->ha, 0, i, p, model);
        for (int64_t j = 0; j < c->n; j++) {
          size_t at = (size_t)(c->off_c + i * c->ldc + j);
          cin[s * c->n + j] = c->beta != 0 ? gpu_get(tc, r->hc, at) : 0;
          got[s * c->n + j] = gpu_get(tc, r->hout, at);
        }
      }
      oracle_gemm g = {rn, c->n, c->k, (float)c->alpha, (float)c->beta, tc, a, bt, cin, got, x3_term(c)};
      oracle_result part;
      oracle_check(&g, &part);
      all.checked += part.checked;
      all.bad += part.bad;
      if (part.worst_i >= 0 && (all.worst_i < 0 || !(part.worst_ratio <= all.worst_ratio))) {
        all.worst_i = rows[s0 + part.worst_i];
        all.worst_j = part.worst_j;
        all.worst_got = part.worst_got;
        all.worst_ref = part.worst_ref;
        all.worst_bound = part.worst_bound;
        all.worst_ratio = part.worst_ratio;
      }
    }
    ok = all.bad == 0;
    if (ok || model == (tf32 ? 1 : -1)) worst = all; /* report the first model's failure */
  }
  if (ok) note_worst(g_worst_host, c->dt, worst.worst_ratio);
  if (!ok)
    failf(msg, size, c,
          "host fp64 reference over %lld of %lld rows: %lld of %lld elements outside their bound%s; "
          "worst C[%lld][%lld] = %.9g, want %.9g, |error| / bound = %.3g (bound %.3g)",
          (long long)nrows, (long long)c->m, (long long)worst.bad, (long long)worst.checked,
          tf32 ? " (tf32 inputs truncated or rounded)" : "", (long long)worst.worst_i, (long long)worst.worst_j,
          worst.worst_got, worst.worst_ref, worst.worst_ratio, worst.worst_bound);
done:
  free(rows);
  free(bt);
  free(a);
  free(cin);
  free(got);
  return ok;
}

/* |op(A)| |op(B)| for every element of C (m x n, row-major, into *out, malloc'ed): the same
 * operands with their sign bits cleared, through cuBLAS in fp32. Returns 1, or 0. */
static int abs_product(run *r, cublasHandle_t blas, cudaStream_t stream, double **out) {
  const gemm_case *c = &r->c;
  size_t es = gpu_esize(c->dt->ab);
  unsigned char *ha = malloc(r->bytes_a), *hb = malloc(r->bytes_b);
  float *hres = malloc(sizeof *hres * (size_t)(c->m * c->n));
  void *da = NULL, *db = NULL, *dres = NULL;
  int ok = 0;
  *out = malloc(sizeof **out * (size_t)(c->m * c->n));
  if (!ha || !hb || !hres || !*out) goto done;
  memcpy(ha, r->ha, r->bytes_a);
  memcpy(hb, r->hb, r->bytes_b);
  /* Little-endian: the sign is the top bit of an element's last byte. */
  for (size_t i = es - 1; i < r->bytes_a; i += es) ha[i] &= 0x7f;
  for (size_t i = es - 1; i < r->bytes_b; i += es) hb[i] &= 0x7f;
  if (cudaMalloc(&da, r->bytes_a) || cudaMalloc(&db, r->bytes_b) ||
      cudaMalloc(&dres, sizeof *hres * (size_t)(c->m * c->n)) ||
      cudaMemcpyAsync(da, ha, r->bytes_a, cudaMemcpyHostToDevice, stream) ||
      cudaMemcpyAsync(db, hb, r->bytes_b, cudaMemcpyHostToDevice, stream))
    goto done;
  float one = 1, zero = 0;
  cublasSetStream(blas, stream);
  if (cublasGemmEx(blas, c->op_b == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T, c->op_a == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T,
                   (int)c->n, (int)c->m, (int)c->k, &one, (const char *)db + c->off_b * es, gpu_cublas_type(c->dt->ab),
                   (int)c->ldb, (const char *)da + c->off_a * es, gpu_cublas_type(c->dt->ab), (int)c->lda, &zero, dres,
                   CUDA_R_32F, (int)c->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
    goto done;
  if (cudaMemcpyAsync(hres, dres, sizeof *hres * (size_t)(c->m * c->n), cudaMemcpyDeviceToHost, stream) ||
      cudaStreamSynchronize(stream))
    goto done;
  for (int64_t i = 0; i < c->m * c->n; i++) (*out)[i] = hres[i];
  ok = 1;
done:
  cudaFree(da);
  cudaFree(db);
  cudaFree(dres);
  free(ha);
  free(hb);
  free(hres);
  return ok;
}

/* cuBLAS on the same inputs, all elements. Row-major C = op(A) op(B) is column-major
 * C^T = op(B)^T op(A)^T: swap the operands and m/n, keep the ops. cuBLAS has no f16 -> bf16
 * GEMM, so that pair runs with an f32 C and is compared before the final rounding. */
static int check_cublas(run *r, cublasHandle_t blas, cudaStream_t stream, char *msg, size_t size) {
  const gemm_case *c = &r->c;
  if (c->m == 0 || c->n == 0) return 1;
  /* cuBLAS has no GEMM from one 16-bit type into the other: those pairs get an f32 C. */
  tcj_dtype tc = c->dt->c, bc = gpu_esize(tc) == 2 && tc != c->dt->ab ? TCJ_F32 : tc;
  size_t es = gpu_esize(c->dt->ab), esb = gpu_esize(bc);
  size_t nc = (size_t)(c->off_c + c->m * c->ldc), bytes = nc * esb;
  void *hin = malloc(bytes), *hres = malloc(bytes), *dcb = NULL;
  double *absab = NULL;
  int ok = 0;
  cudaError_t ce;
  if (!hin || !hres) {
    failf(msg, size, c, "host out of memory");
    goto done;
  }
  for (size_t i = 0; i < nc; i++) gpu_put(bc, hin, i, 0);
  if (c->beta != 0)
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++) {
        size_t at = (size_t)(c->off_c + i * c->ldc + j);
        gpu_put(bc, hin, at, gpu_get(tc, r->hc, at));
      }
  if ((ce = cudaMalloc(&dcb, bytes)) ||
      (ce = cudaMemcpyAsync(dcb, hin, bytes, cudaMemcpyHostToDevice, stream))) {
    failf(msg, size, c, "CUDA setup for cuBLAS failed: %s", cudaGetErrorName(ce));
    goto done;
  }
  cublasSetStream(blas, stream);
  float fa = (float)c->alpha, fb = (float)c->beta;
  int32_t ia = (int32_t)c->alpha, ib = (int32_t)c->beta;
  int is_int = tc == TCJ_S32;
  cublasComputeType_t ct = is_int ? CUBLAS_COMPUTE_32I
                           : c->dt == &PAIRS[P_TF32_F32] ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                       : CUBLAS_COMPUTE_32F;
  cublasOperation_t opa = c->op_a == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasOperation_t opb = c->op_b == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasStatus_t bs = cublasGemmEx(
      blas, opb, opa, (int)c->n, (int)c->m, (int)c->k, is_int ? (const void *)&ia : (const void *)&fa,
      (const char *)r->db + c->off_b * es, gpu_cublas_type(c->dt->ab), (int)c->ldb,
      (const char *)r->da + c->off_a * es, gpu_cublas_type(c->dt->ab), (int)c->lda,
      is_int ? (const void *)&ib : (const void *)&fb, (char *)dcb + c->off_c * esb, gpu_cublas_type(bc),
      (int)c->ldc, ct, CUBLAS_GEMM_DEFAULT);
  if (bs != CUBLAS_STATUS_SUCCESS) {
    if (is_int && (bs == CUBLAS_STATUS_NOT_SUPPORTED || bs == CUBLAS_STATUS_INVALID_VALUE)) {
      r->cublas_skipped = 1;
      snprintf(r->cublas_note, sizeof r->cublas_note, "cuBLAS int8 GEMM refused this layout (%s)",
               cublasGetStatusName(bs));
      ok = 1;
    } else {
      failf(msg, size, c, "cublasGemmEx failed: %s", cublasGetStatusName(bs));
    }
    goto done;
  }
  if ((ce = cudaMemcpyAsync(hres, dcb, bytes, cudaMemcpyDeviceToHost, stream)) ||
      (ce = cudaStreamSynchronize(stream))) {
    failf(msg, size, c, "cuBLAS run failed: %s", cudaGetErrorName(ce));
    goto done;
  }
  /* Both results lie within the oracle's bound of the exact value, so within twice it of each
   * other. |A||B| for every element comes from cuBLAS too, a GEMM of the absolute values. */
  if (!is_int && !abs_product(r, blas, stream, &absab)) {
    failf(msg, size, c, "cuBLAS GEMM of |A| and |B| failed");
    goto done;
  }
  double eps_out = 2 * oracle_unit_roundoff(tc), ck = oracle_ck(c->k) * (1 + 0x1p-10), floor_abs = oracle_abs_floor(tc);
  /* cuBLAS may round alpha * AB to the output type before it adds beta * C (seen with bf16 C
   * and beta = 1 on an H100): its error then scales with |alpha AB|, not with the result. */
  double epi = oracle_unit_roundoff(tc);
  /* tf32: cuBLAS rounds its inputs to 10 mantissa bits, tcj may truncate them: the two products
   * then differ by up to 2^-10 of each operand, on top of each one's own bound. */
  if (pair_index(c->dt) == P_TF32_F32) ck += 2 * 0x1p-10;
  ck += x3_term(c); /* cublasSgemm within c_k, tcj within c_k + the parts' term */
  int64_t bad = 0, wi = -1, wj = -1;
  double wratio = 0, wgot = 0, wcub = 0, wbound = 0;
  for (int64_t i = 0; i < c->m; i++)
    for (int64_t j = 0; j < c->n; j++) {
      size_t at = (size_t)(c->off_c + i * c->ldc + j);
      double g = gpu_get(tc, r->hout, at), cb = gpu_get(bc, hres, at), ratio;
      double bound = 0;
      if (is_int) {
        ratio = g == cb ? 0 : INFINITY;
      } else {
        double bcv = c->beta != 0 ? fabs(c->beta * gpu_get(tc, r->hc, at)) : 0;
        bound = 2 * (eps_out * (fabs(cb) + bcv) + ck * fabs(c->alpha) * absab[i * c->n + j] + floor_abs) +
                epi * fabs(c->alpha) * absab[i * c->n + j];
        double err = fabs(g - cb);
        ratio = err != err ? INFINITY : err == 0 ? 0 : bound > 0 ? err / bound : INFINITY;
      }
      if (!(ratio <= 1)) bad++;
      if (wi < 0 || !(ratio <= wratio)) wi = i, wj = j, wratio = ratio, wgot = g, wcub = cb, wbound = bound;
    }
  ok = bad == 0;
  if (ok) note_worst(g_worst_cublas, c->dt, wratio);
  if (!ok && r->host_all_rows) {
    /* tcj met the fp64 reference in every element: the disagreement is cuBLAS's. */
    r->cublas_disagrees = 1;
    snprintf(r->cublas_note, sizeof r->cublas_note,
             "cuBLAS is off the fp64 reference in %lld elements (worst C[%lld][%lld]: cuBLAS %.6g, tcj %.6g)",
             (long long)bad, (long long)wi, (long long)wj, wcub, wgot);
    ok = 1;
  } else if (!ok)
    failf(msg, size, c,
          "vs cuBLAS: %lld elements outside twice the bound, worst C[%lld][%lld] = %.9g, cuBLAS %.9g, "
          "|difference| / bound = %.3g (bound %.3g)",
          (long long)bad, (long long)wi, (long long)wj, wgot, wcub, wratio, wbound);
done:
  cudaFree(dcb);
  free(hin);
  free(hres);
  free(absab);
  return ok;
}

/* Waits for the GEMM, reads C back and checks, in order: nothing outside the matrix touched,
 * every element written (beta == 0), host reference, cuBLAS. */
static int run_verify(run *r, cublasHandle_t blas, cudaStream_t stream, char *msg, size_t size) {
  const gemm_case *c = &r->c;
  size_t esc = gpu_esize(c->dt->c);
  cudaError_t ce;
  if ((ce = cudaMemcpyAsync(r->hout, r->dc, r->bytes_c, cudaMemcpyDeviceToHost, stream)) ||
      (ce = cudaStreamSynchronize(stream)))
    return failf(msg, size, c, "GEMM or read-back failed: %s (%s)", cudaGetErrorName(ce),
                 cudaGetErrorString(ce));
  /* Outside the matrix: the offset prefix, columns n..ldc-1 of every row, the guard. */
  size_t begin = (size_t)c->off_c * esc, pitch = (size_t)c->ldc * esc, row_bytes = (size_t)c->n * esc;
  size_t end = begin + (size_t)c->m * pitch;
  size_t spans[3][2] = {{0, begin}, {end, r->bytes_c}, {0, 0}};
  for (int64_t i = -1; i < c->m; i++) {
    size_t (*sp)[2] = spans;
    int nsp = 2;
    if (i >= 0) {
      spans[2][0] = begin + (size_t)i * pitch + row_bytes;
      spans[2][1] = begin + (size_t)(i + 1) * pitch;
      sp = spans + 2;
      nsp = 1;
    }
    for (int s = 0; s < nsp; s++)
      if (memcmp((const char *)r->hc + sp[s][0], (const char *)r->hout + sp[s][0], sp[s][1] - sp[s][0]) != 0) {
        size_t b = sp[s][0];
        while (((const unsigned char *)r->hc)[b] == ((const unsigned char *)r->hout)[b]) b++;
        return failf(msg, size, c,
                     "wrote outside C: byte %zu of the allocation (C starts at byte %zu, row pitch "
                     "%zu bytes, %zu bytes per row inside) changed from 0x%02x to 0x%02x",
                     b, begin, pitch, row_bytes, ((const unsigned char *)r->hc)[b],
                     ((const unsigned char *)r->hout)[b]);
      }
  }
  if (c->beta == 0) {
    int64_t left = 0, fi = -1, fj = -1;
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++)
        if (gpu_is_poison(c->dt->c, r->hout, (size_t)(c->off_c + i * c->ldc + j)) && left++ == 0) {
          fi = i;
          fj = j;
        }
    if (left)
      return failf(msg, size, c, "%lld elements of C never written (poison left), first C[%lld][%lld]",
                   (long long)left, (long long)fi, (long long)fj);
  }
  if (c->m == 0 || c->n == 0) return 1;
  if (!check_host(r, msg, size)) return 0;
  return check_cublas(r, blas, stream, msg, size);
}

/* One case from start to end on the shared context. */
static int run_case(const gemm_case *c, char *msg, size_t size) {
  run r;
  cudaStream_t s = c->null_stream ? (cudaStream_t)0 : g_stream;
  int ok = run_prepare(&r, c, s, msg, size);
  if (ok) {
    tcj_status st = run_launch(g_eng, &r, s);
    if (st != TCJ_SUCCESS)
      ok = failf(msg, size, c, "tcj_gemm returned %s: %s", tcj_status_string(st),
                 tcj_last_error(g_eng));
  }
  if (ok) ok = run_verify(&r, g_blas, s, msg, size);
  if (r.cublas_disagrees) {
    char d[512];
    describe(c, d, sizeof d);
    printf("  note: %s: %s\n", d, r.cublas_note);
  }
  if (r.cublas_skipped) {
    if (g_cublas_skips++ < 3) {
      char d[512];
      describe(c, d, sizeof d);
      printf("  note: cuBLAS comparison skipped for %s: %s\n", d, r.cublas_note);
    }
  }
  run_free(&r);
  return ok;
}

/* Runs a list of cases, printing every failure; returns the number that failed. */
static int run_list(const char *what, const gemm_case *cases, int n) {
  char msg[MSG_SIZE];
  int failed = 0, skips0 = g_cublas_skips;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; i++) {
    if (!run_case(&cases[i], msg, sizeof msg)) {
      failed++;
      printf("  FAIL %s\n", msg);
      fflush(stdout);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("  %s: %d cases, %d failed, %d cuBLAS comparisons skipped, %.1f s\n", what, n, failed,
         g_cublas_skips - skips0, s);
  return failed;
}

#define run_cases(what, cases, n)                                                         \
  do {                                                                                    \
    int failed_ = run_list(what, cases, n);                                               \
    if (failed_) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed_, n); \
  } while (0)

/* ---- tests ------------------------------------------------------------------------------ */

static void sweep(int pair) {
  int n = g_cases_per_dtype;
  gemm_case *cases = calloc((size_t)n, sizeof *cases);
  assert_non_null(cases);
  for (int i = 0; i < n; i++) cases[i] = sweep_case(pair, i);
  int failed = run_list(PAIRS[pair].name, cases, n);
  free(cases);
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", PAIRS[pair].name, failed, n);
}

static void f16_to_f16_matches_reference_and_cublas(void **state) { (void)state; sweep(P_F16_F16); }
static void f16_to_f32_matches_reference_and_cublas(void **state) { (void)state; sweep(P_F16_F32); }
static void bf16_to_bf16_matches_reference_and_cublas(void **state) { (void)state; sweep(P_BF16_BF16); }
static void bf16_to_f32_matches_reference_and_cublas(void **state) { (void)state; sweep(P_BF16_F32); }
static void f16_to_bf16_matches_reference_and_cublas(void **state) { (void)state; sweep(P_F16_BF16); }
static void tf32_to_f32_matches_reference_and_cublas(void **state) { (void)state; sweep(P_TF32_F32); }
static void s8_to_s32_is_exact_and_matches_cublas(void **state) { (void)state; sweep(P_S8_S32); }
static void bf16_to_f16_matches_reference_and_cublas(void **state) { (void)state; sweep(P_BF16_F16); }
static void f32_to_f32_is_fp32_accurate_and_matches_cublas(void **state) { (void)state; sweep(P_F32_F32); }

static gemm_case make_case(int pair, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                           align_class al, int scalars, uint64_t seed) {
  gemm_case c = {0};
  c.dt = &PAIRS[pair];
  c.ab_api = c.dt->ab_api;
  c.op_a = op_a;
  c.op_b = op_b;
  c.m = m;
  c.n = n;
  c.k = k;
  c.align = al;
  c.seed = g_seed_base + seed;
  set_scalars(&c, scalars);
  layout_case(&c);
  return c;
}

/* The few cases with 4095 dims (ld 4095 breaks 16-byte row alignment of 2-byte types). */
static void dims_4095_match_reference_and_cublas(void **state) {
  (void)state;
  const gemm_case cases[] = {
      make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 4095, 4095, 4095, AL_PACKED, 0, 50001),
      make_case(P_F16_F16, TCJ_OP_T, TCJ_OP_N, 4095, 4095, 4095, AL_ODD_LD, 1, 50002),
      make_case(P_F16_F32, TCJ_OP_N, TCJ_OP_T, 4095, 129, 4095, AL_OFFSET, 2, 50003),
      make_case(P_BF16_F32, TCJ_OP_T, TCJ_OP_T, 33, 4095, 1000, AL_ALIGNED16, 1, 50004),
      make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_N, 1000, 4095, 4095, AL_PACKED, 1, 50005),
      make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_T, 4095, 4095, 127, AL_PACKED, 1, 50006),
      make_case(P_F16_BF16, TCJ_OP_N, TCJ_OP_N, 1, 4095, 4095, AL_ODD_LD, 0, 50007),
      make_case(P_F32_F32, TCJ_OP_T, TCJ_OP_N, 1000, 4095, 4095, AL_ODD_LD, 2, 50008),
  };
  run_cases("4095 dims", cases, (int)(sizeof cases / sizeof cases[0]));
}

/* ---- forced recipes and tiles ------------------------------------------------------------ */

/* Selection reaches some kernels only for particular shapes (a 2-CTA cluster, a one-consumer
 * tile, the sm80 recipe for 16-bit types on Hopper). Each variant below forces one through
 * TCJ_RECIPE / TCJ_TILE on a fresh engine and runs the same edge-heavy cases through it. */
typedef struct forced_variant {
  int needs_sm90; /* runs only on cc 9.0 (wgmma) */
  const char *recipe, *tile;
  /* The tile runs 3xTF32, whose promoted partial sums need at most 64 accumulators per
   * consumer thread beside them (tcj_cfg_check): else f32 cases run f16 -> f32 instead. */
  int x3;
} forced_variant;

static const forced_variant FORCED[] = {
    {0, "sm80", NULL, 1},
    {1, "sm90", NULL, 1},
    {1, "sm90", "128x256x128/2x1/4", 0},
    {1, "sm90", "256x128x128/2x1/4", 0},
    {1, "sm90", "128x128x128/2x1/6", 1},
    {1, "sm90", "128x64x128/2x1/8", 1},
    {1, "sm90", "64x128x128/1x1/8", 1},
    {1, "sm90", "64x64x128/1x1/8", 1},
    {1, "sm90", "128x256x128/2x1/4/c2", 0},
    {1, "sm90", "128x128x128/2x1/6/c2", 1},
    {1, "sm90", "128x128x128/2x1/6/pp", 0},
    {1, "sm90", "64x256x128/2x1/5/pp", 0},
    {1, "sm90", "64x256x128/2x1/5/c2/pp", 0},
    {1, "sm90", "128x128x128/2x1/6/c2/pp", 0},
};

static const int64_t FORCED_DIMS[] = {1, 17, 64, 65, 127, 128, 129, 255, 257, 383, 700};
static const int64_t FORCED_K[] = {1, 15, 64, 65, 200, 1000};
/* Every pair the recipe takes: the sm80 recipe all of them, the sm90 recipe the 16-bit ones in
 * any layout (tf32 and s8, K-major only, are added as NT cases). */
static const int FORCED_PAIRS_SM80[] = {P_F16_F16, P_F16_F32, P_BF16_BF16, P_BF16_F32, P_F16_BF16,
                                        P_BF16_F16, P_TF32_F32, P_S8_S32, P_F32_F32};
/* f32 (3xTF32) runs any layout: the split pass writes K-major parts. */
static const int FORCED_PAIRS_SM90[] = {P_F16_F16, P_F16_F32, P_BF16_BF16, P_BF16_F32, P_F16_BF16, P_BF16_F16, P_F32_F32};
#define FORCED_RANDOM 24

/* TCJ_TEST_QUICK=1 (for sanitizer runs): 4 random cases per variant and one small multi-tile
 * case instead of the two large ones. TCJ_TEST_FORCED_MATCH=TEXT: only variants whose
 * description contains TEXT. */
static int g_quick;
static const char *g_forced_match;

static int forced_cases(gemm_case *cases, int variant) {
  int n = 0;
  const int *pairs = FORCED[variant].needs_sm90 ? FORCED_PAIRS_SM90 : FORCED_PAIRS_SM80;
  int npairs = FORCED[variant].needs_sm90 ? (int)(sizeof FORCED_PAIRS_SM90 / sizeof *FORCED_PAIRS_SM90)
                                          : (int)(sizeof FORCED_PAIRS_SM80 / sizeof *FORCED_PAIRS_SM80);
  if (g_quick) {
    for (int i = 0; i < 4; i++) {
      rng r = {g_seed_base + 7000ull * (uint64_t)(variant + 1) + (uint64_t)i};
      int pair = pairs[(i + variant) % npairs];
      if (pair == P_F32_F32 && !FORCED[variant].x3) pair = P_F16_F32;
      cases[n++] = make_case(pair, (tcj_op)(i & 1), (tcj_op)((i >> 1) & 1),
                             FORCED_DIMS[rng_next(&r) % 11], FORCED_DIMS[rng_next(&r) % 11],
                             FORCED_K[rng_next(&r) % 6], (align_class)(i % AL_COUNT), i,
                             60000 + 100 * (uint64_t)variant + (uint64_t)i);
    }
    /* Still more tiles than CTAs for the small tiles (64x64: 11 x 18 tiles). */
    cases[n++] = make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 700, 1100, 130, AL_PACKED, 1, 60090 + 100 * (uint64_t)variant);
    return n;
  }
  for (int i = 0; i < FORCED_RANDOM; i++) {
    rng r = {g_seed_base + 7000ull * (uint64_t)(variant + 1) + (uint64_t)i};
    int pair = pairs[i % npairs];
    if (pair == P_F32_F32 && !FORCED[variant].x3) pair = P_F16_F32;
    int64_t m = FORCED_DIMS[rng_next(&r) % 11], nn = FORCED_DIMS[rng_next(&r) % 11];
    int64_t k = FORCED_K[rng_next(&r) % 6];
    cases[n++] = make_case(pair, (tcj_op)(i & 1), (tcj_op)((i >> 1) & 1), m, nn, k,
                           (align_class)((i / 4) % AL_COUNT), i, 60000 + 100 * (uint64_t)variant + (uint64_t)i);
  }
  /* More tiles than SMs: every CTA of the persistent grid runs several tiles, and the ring's
   * phases carry across them. */
  cases[n++] = make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_T, 2500, 2100, 520, AL_PACKED, 1, 60090 + 100 * (uint64_t)variant);
  cases[n++] = make_case(P_F16_F32, TCJ_OP_T, TCJ_OP_N, 1900, 2304, 333, AL_ALIGNED16, 2, 60091 + 100 * (uint64_t)variant);
  if (FORCED[variant].needs_sm90) {
    /* tf32 and s8 on wgmma: K-major operands only (A op N, B op T), edges and many tiles. */
    cases[n++] = make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 257, 383, 1000, AL_PACKED, 1, 60092 + 100 * (uint64_t)variant);
    cases[n++] = make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_T, 129, 700, 200, AL_PACKED, 2, 60093 + 100 * (uint64_t)variant);
    cases[n++] = make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 700, 1100, 130, AL_ALIGNED16, 0, 60094 + 100 * (uint64_t)variant);
    cases[n++] = make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_T, 1100, 703, 260, AL_ALIGNED16, 1, 60095 + 100 * (uint64_t)variant);
    /* MN-major tf32 and s8: transposed into K-major scratch first (the transposing pack). */
    cases[n++] = make_case(P_TF32_F32, TCJ_OP_T, TCJ_OP_N, 257, 383, 1000, AL_ODD_LD, 1, 60096 + 100 * (uint64_t)variant);
    cases[n++] = make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_N, 129, 700, 200, AL_PACKED, 2, 60097 + 100 * (uint64_t)variant);
    cases[n++] = make_case(P_TF32_F32, TCJ_OP_T, TCJ_OP_T, 700, 65, 130, AL_ALIGNED16, 0, 60098 + 100 * (uint64_t)variant);
  }
  return n;
}

static void variant_text(const forced_variant *fv, char *what, size_t size) {
  snprintf(what, size, "TCJ_RECIPE=%s TCJ_TILE=%s", fv->recipe, fv->tile ? fv->tile : "(selected)");
}

/* Whether TEXT selects any forced variant of either kind. */
static int sm90_or_sm80_matches(const char *text) {
  for (size_t v = 0; v < sizeof FORCED / sizeof FORCED[0]; v++) {
    char what[96];
    variant_text(&FORCED[v], what, sizeof what);
    if (strstr(what, text)) return 1;
  }
  return 0;
}

/* The variants of one kind (sm90 ones need cc 9.0: on another GPU that test is skipped, not
 * passed). A TCJ_TEST_FORCED_MATCH that selects none of them is a failure. */
static void run_forced_variants(int sm90) {
  int major = 0, minor = 0, failed = 0, ran = 0, matched = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  tcj_engine *saved = g_eng;
  for (size_t v = 0; v < sizeof FORCED / sizeof FORCED[0]; v++) {
    const forced_variant *fv = &FORCED[v];
    if (fv->needs_sm90 != sm90) continue;
    char what[96];
    variant_text(fv, what, sizeof what);
    if (g_forced_match && !strstr(what, g_forced_match)) continue;
    matched++;
    if (fv->needs_sm90 && !(major == 9 && minor == 0)) continue;
    setenv("TCJ_RECIPE", fv->recipe, 1);
    if (fv->tile) setenv("TCJ_TILE", fv->tile, 1);
    tcj_engine *eng = NULL;
    tcj_status st = tcj_create(&eng, NULL);
    unsetenv("TCJ_RECIPE");
    unsetenv("TCJ_TILE");
    if (st != TCJ_SUCCESS) {
      printf("  FAIL %s: tcj_create: %s\n", what, tcj_last_error(NULL));
      failed++;
      continue;
    }
    gemm_case cases[FORCED_RANDOM + 9];
    int n = forced_cases(cases, (int)v);
    g_eng = eng;
    failed += run_list(what, cases, n);
    g_eng = saved;
    tcj_destroy(eng);
    ran++;
  }
  printf("  forced %s variants: %d run\n", sm90 ? "sm90" : "sm80", ran);
  if (failed) fail_msg("forced recipes/tiles: %d failures (see FAIL lines above)", failed);
  if (matched == 0) {
    if (g_forced_match && !sm90_or_sm80_matches(g_forced_match))
      fail_msg("TCJ_TEST_FORCED_MATCH='%s' selects no forced variant", g_forced_match);
    print_message("no %s variant matches TCJ_TEST_FORCED_MATCH='%s'\n", sm90 ? "sm90" : "sm80", g_forced_match);
    skip();
  }
  if (ran == 0) {
    print_message("the %d sm90 variants need cc 9.0 (wgmma); this GPU is %d.%d\n", matched, major, minor);
    skip();
  }
}

static void forced_sm80_recipe_matches_reference_and_cublas(void **state) {
  (void)state;
  run_forced_variants(0);
}

static void forced_sm90_tiles_match_reference_and_cublas(void **state) {
  (void)state;
  run_forced_variants(1);
}

/* Deep K over few tiles: selection splits K (on Hopper the sm90 recipe, elsewhere sm80), the
 * slices' fp32 partial sums meet in the reduction, which applies alpha and beta. */
static void deep_k_splits_match_reference_and_cublas(void **state) {
  (void)state;
  const gemm_case cases[] = {
      make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 512, 512, 65536, AL_PACKED, 0, 51001),
      make_case(P_F16_F32, TCJ_OP_T, TCJ_OP_N, 100, 300, 8191, AL_ALIGNED16, 1, 51002),
      make_case(P_BF16_F32, TCJ_OP_N, TCJ_OP_T, 130, 520, 9000, AL_ODD_LD, 2, 51003),
      make_case(P_F16_BF16, TCJ_OP_T, TCJ_OP_T, 1000, 64, 12000, AL_OFFSET, 1, 51004),
      make_case(P_F16_F16, TCJ_OP_N, TCJ_OP_T, 256, 256, 16384, AL_PACKED, 2, 51005),
      make_case(P_BF16_BF16, TCJ_OP_T, TCJ_OP_N, 128, 4096, 14336, AL_PACKED, 1, 51006),
      /* tf32 splits on the sm80 recipe; s8 never splits (its s32 sums would pass through the
       * fp32 workspace), so deep K must stay exact in one pass. */
      make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 64, 256, 20000, AL_PACKED, 1, 51007),
      make_case(P_TF32_F32, TCJ_OP_T, TCJ_OP_N, 33, 100, 9001, AL_ODD_LD, 2, 51008),
      make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_T, 64, 256, 20000, AL_PACKED, 1, 51009),
  };
  run_cases("deep K", cases, (int)(sizeof cases / sizeof cases[0]));
}

/* ---- decode: K slices reduced in a cluster ------------------------------------------------ */

/* Runs c on two engines: C (restored in between) must come out bitwise equal from both, and
 * the second result passes the reference and cuBLAS checks. Returns 1, or 0 with msg. */
static int same_bits_on_two_engines(const gemm_case *c, tcj_engine *first, tcj_engine *second, char *msg,
                                    size_t size) {
  run r;
  int ok = run_prepare(&r, c, g_stream, msg, size);
  void *got = ok ? malloc(r.bytes_c) : NULL;
  if (ok && !got) ok = failf(msg, size, c, "host out of memory");
  tcj_engine *engines[2] = {first, second};
  for (int i = 0; ok && i < 2; i++) {
    cudaError_t ce = i ? cudaMemcpyAsync(r.dc, r.hc, r.bytes_c, cudaMemcpyHostToDevice, g_stream) : cudaSuccess;
    if (ce) { ok = failf(msg, size, c, "restoring C: %s", cudaGetErrorName(ce)); break; }
    tcj_status st = run_launch(engines[i], &r, g_stream);
    if (st != TCJ_SUCCESS) {
      ok = failf(msg, size, c, "engine %d: tcj_gemm returned %s: %s", i, tcj_status_string(st), tcj_last_error(engines[i]));
      break;
    }
    if (i == 0 && ((ce = cudaMemcpyAsync(got, r.dc, r.bytes_c, cudaMemcpyDeviceToHost, g_stream)) ||
                   (ce = cudaStreamSynchronize(g_stream))))
      ok = failf(msg, size, c, "engine 0: %s", cudaGetErrorName(ce));
  }
  if (ok) ok = run_verify(&r, g_blas, g_stream, msg, size);
  if (ok && memcmp(got, r.hout, r.bytes_c) != 0) {
    size_t b = 0;
    while (((unsigned char *)got)[b] == ((unsigned char *)r.hout)[b]) b++;
    ok = failf(msg, size, c, "the two reductions differ first at byte %zu of C's allocation", b);
  }
  free(got);
  run_free(&r);
  return ok;
}

/* Decode shapes (m <= 16) select a 16-row tile and split K; on sm_90 and newer the slices of a
 * tile form a cluster and add their partial sums through distributed shared memory. Each case
 * runs on the default engine (reference and cuBLAS), then forced to one tile and slice count on
 * an engine that reduces in a cluster and on one that reduces through the workspace: both add
 * the same partial sums in the same order, so C must be bitwise equal. Edges in n and k, every
 * layout and alignment class, beta and alpha. */
static void decode_splits_reduce_alike_in_a_cluster_and_the_workspace(void **state) {
  (void)state;
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  const struct { gemm_case c; int slices; } cases[] = {
      {make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 1, 6144, 4096, AL_PACKED, 0, 52001), 5},
      {make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_T, 16, 1000, 4095, AL_ALIGNED16, 2, 52002), 8},
      {make_case(P_F16_F32, TCJ_OP_T, TCJ_OP_N, 7, 257, 3000, AL_ODD_LD, 1, 52003), 3},
      {make_case(P_BF16_F16, TCJ_OP_T, TCJ_OP_T, 16, 4096, 14336, AL_PACKED, 2, 52004), 8},
      {make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 3, 640, 2000, AL_PACKED, 1, 52005), 4},
      {make_case(P_F16_F16, TCJ_OP_N, TCJ_OP_N, 16, 129, 1000, AL_OFFSET, 4, 52006), 2},
      {make_case(P_BF16_F32, TCJ_OP_N, TCJ_OP_T, 9, 4097, 8191, AL_ODD_LD, 0, 52007), 7},
  };
  int n = (int)(sizeof cases / sizeof *cases), failed = 0;
  gemm_case plain[sizeof cases / sizeof *cases];
  for (int i = 0; i < n; i++) plain[i] = cases[i].c;
  failed += run_list("decode, selected kernels", plain, n);
  if (major < 9) {
    if (failed) fail_msg("decode: %d cases failed (see FAIL lines above)", failed);
    print_message("cluster splits need cc 9.0 or newer; this GPU is %d.x (the selected kernels passed)\n", major);
    skip();
  }
  char msg[MSG_SIZE];
  for (int i = 0; i < n; i++) {
    char cluster_tile[64], workspace_tile[64];
    const char *tile = i % 2 ? "16x64x128/1x2/4" : "16x128x128/1x4/4"; /* both decode tiles */
    snprintf(cluster_tile, sizeof cluster_tile, "%s/sc%d", tile, cases[i].slices);
    snprintf(workspace_tile, sizeof workspace_tile, "%s/s%d", tile, cases[i].slices);
    tcj_engine *cl = gpu_engine_with(NULL, cluster_tile), *ws = gpu_engine_with(NULL, workspace_tile);
    if (!cl || !ws || !same_bits_on_two_engines(&cases[i].c, cl, ws, msg, sizeof msg)) {
      if (cl && ws) printf("  FAIL %s (%s against %s)\n", msg, cluster_tile, workspace_tile);
      failed++;
    }
    tcj_destroy(cl);
    tcj_destroy(ws);
  }
  printf("  decode: %d cases forced to a cluster and a workspace reduction\n", n);
  if (failed) fail_msg("decode: %d cases failed (see FAIL lines above)", failed);
}

/* k == 0: C = beta * C (beta == 0: zeros over the poison); every dtype, both scalar kinds. */
static void k_zero_scales_c_by_beta(void **state) {
  (void)state;
  gemm_case cases[2 * P_COUNT];
  int n = 0;
  for (int p = 0; p < P_COUNT; p++) {
    cases[n] = make_case(p, TCJ_OP_N, TCJ_OP_N, 33, 17, 0, AL_PACKED, 0, 60000 + (uint64_t)n);
    n++;
    cases[n] = make_case(p, TCJ_OP_T, TCJ_OP_T, 7, 129, 0, AL_ODD_LD, 1, 60000 + (uint64_t)n);
    n++;
  }
  run_cases("k == 0", cases, n);
}

/* m == 0 or n == 0: nothing at all may be written (C is all sentinel bytes). */
static void empty_m_or_n_writes_nothing(void **state) {
  (void)state;
  gemm_case cases[] = {
      make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 0, 64, 64, AL_PACKED, 1, 61001),
      make_case(P_F16_F32, TCJ_OP_T, TCJ_OP_N, 64, 0, 64, AL_ODD_LD, 0, 61002),
      make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 0, 0, 17, AL_PACKED, 2, 61003),
      make_case(P_S8_S32, TCJ_OP_N, TCJ_OP_N, 16, 0, 32, AL_ALIGNED16, 1, 61004),
      make_case(P_F16_F16, TCJ_OP_T, TCJ_OP_T, 0, 31, 0, AL_OFFSET, 0, 61005),
  };
  run_cases("m or n == 0", cases, (int)(sizeof cases / sizeof cases[0]));
}

static void check_bad(const char *what, tcj_status want, tcj_status got, int *failed) {
  const char *why = tcj_last_error(g_eng);
  if (got != want) {
    printf("  FAIL %s: got %s, want %s\n", what, tcj_status_string(got), tcj_status_string(want));
    ++*failed;
  } else if (!why || !why[0]) {
    printf("  FAIL %s: %s but tcj_last_error is empty\n", what, tcj_status_string(got));
    ++*failed;
  } else {
    printf("  %s -> %s: %s\n", what, tcj_status_string(got), why);
  }
}

/* Bad arguments on a real engine: a status, a message, and C untouched. */
static void bad_input_is_rejected_and_leaves_c_untouched(void **state) {
  (void)state;
  const int64_t m = 64, n = 64, k = 64;
  void *da = NULL, *db = NULL, *dc = NULL;
  size_t bytes = (size_t)(m * n * 2);
  unsigned char *before = malloc(bytes), *after = malloc(bytes);
  assert_non_null(before);
  assert_non_null(after);
  memset(before, SENTINEL, bytes);
  assert_int_equal(cudaMalloc(&da, bytes), cudaSuccess);
  assert_int_equal(cudaMalloc(&db, bytes), cudaSuccess);
  assert_int_equal(cudaMalloc(&dc, bytes), cudaSuccess);
  assert_int_equal(cudaMemset(da, 0x3c, bytes), cudaSuccess); /* 0x3c3c: f16 ~1.06 */
  assert_int_equal(cudaMemset(db, 0x3c, bytes), cudaSuccess);
  assert_int_equal(cudaMemcpy(dc, before, bytes, cudaMemcpyHostToDevice), cudaSuccess);
  CUstream s = (CUstream)g_stream;
  int failed = 0;
  /* Arguments are evaluated before check_bad runs, so tcj_last_error is read right after
   * each call (it is the message of this thread's last failure). */
#define BAD(what, want, ...) check_bad(what, want, tcj_gemm(g_eng, __VA_ARGS__), &failed)
  BAD("m = -1", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, -1, n, k, 1, da, TCJ_F16, k, db, TCJ_F16, n, 0, dc, TCJ_F16, n, s);
  BAD("n = -5", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, m, -5, k, 1, da, TCJ_F16, k, db, TCJ_F16, n, 0, dc, TCJ_F16, n, s);
  BAD("lda = k - 1 (op N)", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, k - 1, db, TCJ_F16, n, 0, dc, TCJ_F16, n, s);
  BAD("lda = m - 1 (op T)", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_T, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, m - 1, db, TCJ_F16, n, 0, dc, TCJ_F16, n, s);
  BAD("ldc = n - 1", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, k, db, TCJ_F16, n, 0, dc, TCJ_F16, n - 1, s);
  BAD("c = NULL", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, k, db, TCJ_F16, n, 0, NULL, TCJ_F16, n, s);
  BAD("a = NULL", TCJ_ERROR_INVALID_VALUE,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, NULL, TCJ_F16, k, db, TCJ_F16, n, 0, dc, TCJ_F16, n, s);
  BAD("a f16, b bf16", TCJ_ERROR_NOT_SUPPORTED,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, k, db, TCJ_BF16, n, 0, dc, TCJ_F16, n, s);
  BAD("s8 -> f16", TCJ_ERROR_NOT_SUPPORTED,
      TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_S8, k, db, TCJ_S8, n, 0, dc, TCJ_F16, n, s);
#undef BAD
  assert_int_equal(tcj_gemm(NULL, TCJ_OP_N, TCJ_OP_N, m, n, k, 1, da, TCJ_F16, k, db, TCJ_F16, n, 0,
                            dc, TCJ_F16, n, s),
                   TCJ_ERROR_INVALID_VALUE);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  assert_int_equal(cudaMemcpy(after, dc, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  if (memcmp(before, after, bytes) != 0) {
    printf("  FAIL a rejected call wrote to C\n");
    failed++;
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(before);
  free(after);
  if (failed) fail_msg("%d checks of bad input failed", failed);

  /* The engine still works after rejecting calls. */
  gemm_case ok = make_case(P_F16_F16, TCJ_OP_N, TCJ_OP_N, 64, 64, 64, AL_PACKED, 1, 62001);
  run_cases("valid call after rejected ones", &ok, 1);
}

/* ---- many threads, many streams --------------------------------------------------------- */

#define THREADS 4
#define PER_THREAD 6

typedef struct thread_job {
  int id;
  gemm_case cases[PER_THREAD];
  int failed;
  char msgs[PER_THREAD][MSG_SIZE];
  pthread_barrier_t *start;
} thread_job;

/* Each thread: own stream and cuBLAS handle; queues all its GEMMs before waiting for any, so
 * the same kernels are first requested by several threads at once. */
static void *thread_main(void *arg) {
  thread_job *j = arg;
  cudaStream_t s = NULL;
  cublasHandle_t blas = NULL;
  run runs[PER_THREAD];
  int ready[PER_THREAD] = {0};
  memset(runs, 0, sizeof runs);
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
      cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
    snprintf(j->msgs[0], MSG_SIZE, "thread %d: stream or cuBLAS handle creation failed", j->id);
    j->failed = 1;
    pthread_barrier_wait(j->start);
    goto done;
  }
  for (int i = 0; i < PER_THREAD; i++)
    ready[i] = run_prepare(&runs[i], &j->cases[i], s, j->msgs[i], MSG_SIZE);
  pthread_barrier_wait(j->start);
  for (int i = 0; i < PER_THREAD; i++) {
    if (!ready[i]) continue;
    tcj_status st = run_launch(g_eng, &runs[i], s);
    if (st != TCJ_SUCCESS) {
      failf(j->msgs[i], MSG_SIZE, &j->cases[i], "thread %d: tcj_gemm returned %s: %s", j->id,
            tcj_status_string(st), tcj_last_error(g_eng));
      ready[i] = 0;
    }
  }
  for (int i = 0; i < PER_THREAD; i++)
    if (ready[i]) ready[i] = run_verify(&runs[i], blas, s, j->msgs[i], MSG_SIZE);
  for (int i = 0; i < PER_THREAD; i++) j->failed += !ready[i];
done:
  for (int i = 0; i < PER_THREAD; i++) run_free(&runs[i]);
  if (blas) cublasDestroy(blas);
  if (s) cudaStreamDestroy(s);
  return NULL;
}

static void threads_on_separate_streams_match_reference(void **state) {
  (void)state;
  thread_job jobs[THREADS];
  pthread_t tid[THREADS];
  pthread_barrier_t start;
  assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
  for (int t = 0; t < THREADS; t++) {
    thread_job *j = &jobs[t];
    memset(j, 0, sizeof *j);
    j->id = t;
    j->start = &start;
    uint64_t s = 70000 + 100 * (uint64_t)t;
    /* Same shapes in every thread (fresh data each). */
    j->cases[0] = make_case(P_BF16_BF16, TCJ_OP_N, TCJ_OP_N, 256, 384, 512, AL_PACKED, 0, s + 0);
    j->cases[1] = make_case(P_F16_F32, TCJ_OP_T, TCJ_OP_N, 100, 200, 300, AL_ODD_LD, 1, s + 1);
    j->cases[2] = make_case(P_TF32_F32, TCJ_OP_N, TCJ_OP_T, 64, 96, 128, AL_ALIGNED16, 2, s + 2);
    /* Shapes of this thread only. */
    rng r = {g_seed_base + s};
    for (int i = 3; i < PER_THREAD; i++) {
      int pair = (t * 3 + i) % P_COUNT;
      j->cases[i] = make_case(pair, (tcj_op)(i & 1), (tcj_op)(t & 1), rng_int(&r, 1, 600),
                              rng_int(&r, 1, 600), rng_int(&r, 1, 600),
                              (align_class)((t + i) % AL_COUNT), i, s + (uint64_t)i);
    }
  }
  for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_create(&tid[t], NULL, thread_main, &jobs[t]), 0);
  int failed = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(tid[t], NULL);
    for (int i = 0; i < PER_THREAD; i++)
      if (jobs[t].msgs[i][0]) printf("  FAIL thread %d: %s\n", t, jobs[t].msgs[i]);
    failed += jobs[t].failed;
  }
  pthread_barrier_destroy(&start);
  printf("  threads: %d threads x %d GEMMs, %d failed\n", THREADS, PER_THREAD, failed);
  if (failed) fail_msg("%d of %d GEMMs issued from %d threads failed", failed, THREADS * PER_THREAD, THREADS);
}

/* ---- setup ------------------------------------------------------------------------------ */

static int group_setup(void **state) {
  (void)state;
  if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS) return -1;
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  if (g_blas) cublasDestroy(g_blas);
  if (g_stream) cudaStreamDestroy(g_stream);
  return 0;
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("GPU GEMM checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  const char *env = getenv("TCJ_TEST_CASES");
  if (env && atoi(env) > 0) g_cases_per_dtype = atoi(env);
  env = getenv("TCJ_TEST_QUICK");
  g_quick = env && atoi(env) > 0;
  g_forced_match = getenv("TCJ_TEST_FORCED_MATCH");
  int drv = 0;
  cudaDriverGetVersion(&drv);
  printf("GPU: %s (sm_%d%d, %d SMs), driver %d.%d; seed base 0x%llx (TCJ_TEST_SEED), %d cases per "
         "dtype pair (TCJ_TEST_CASES); TCJ_TEST_FILTER / TCJ_TEST_SKIP select tests\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount, drv / 1000, drv % 1000 / 10,
         (unsigned long long)g_seed_base, g_cases_per_dtype);

  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bad_input_is_rejected_and_leaves_c_untouched),
      cmocka_unit_test(empty_m_or_n_writes_nothing),
      cmocka_unit_test(k_zero_scales_c_by_beta),
      cmocka_unit_test(f16_to_f16_matches_reference_and_cublas),
      cmocka_unit_test(f16_to_f32_matches_reference_and_cublas),
      cmocka_unit_test(bf16_to_bf16_matches_reference_and_cublas),
      cmocka_unit_test(bf16_to_f32_matches_reference_and_cublas),
      cmocka_unit_test(f16_to_bf16_matches_reference_and_cublas),
      cmocka_unit_test(tf32_to_f32_matches_reference_and_cublas),
      cmocka_unit_test(s8_to_s32_is_exact_and_matches_cublas),
      cmocka_unit_test(bf16_to_f16_matches_reference_and_cublas),
      cmocka_unit_test(f32_to_f32_is_fp32_accurate_and_matches_cublas),
      cmocka_unit_test(dims_4095_match_reference_and_cublas),
      cmocka_unit_test(deep_k_splits_match_reference_and_cublas),
      cmocka_unit_test(decode_splits_reduce_alike_in_a_cluster_and_the_workspace),
      cmocka_unit_test(forced_sm80_recipe_matches_reference_and_cublas),
      cmocka_unit_test(forced_sm90_tiles_match_reference_and_cublas),
      cmocka_unit_test(threads_on_separate_streams_match_reference),
  };
  int failures = cmocka_run_group_tests_name("gemm_gpu", tests, group_setup, group_teardown);
  printf("worst |error| / bound per pair (passing cases): host reference, cuBLAS (twice the bound)\n");
  for (int p = 0; p < P_COUNT; p++)
    printf("  %-11s %.3f  %.3f\n", PAIRS[p].name, g_worst_host[p], g_worst_cublas[p]);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
