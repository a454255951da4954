/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of tcj_gemm_ex through the public API only: every result against a host fp64
 * reference, element by element, under the bound of tests/gpu/oracle.h (oracle_ep_element:
 * |A||B| per element, the epilogue's fp32 adds, the activation's Lipschitz constant and own
 * error, the user epilogue's adds, D's rounding). D (and C when it is D) is poisoned before
 * every call; every byte of its allocation outside the m x n windows of the batch entries must
 * come back as it was, every element inside must be written, and a C that is not D must not
 * change at all. The host reference is the judge; no cuBLAS.
 *
 * Covered: every built-in epilogue (bias none/col/row x none/relu/gelu/gelu_tanh/silu) for
 * bf16, f16 (D and bias in every type), tf32 and s8 (bias, relu; the rest refused); C and D
 * apart, in place (d NULL, d == c) and C NULL; strided batches (broadcast strides, padded
 * strides, counts 0 and 1, 64 entries, counts past the grid's y/z limit); a user epilogue
 * (a residual read through params, its c/row/col/batch arguments, compile errors, one compile
 * per kernel, the disk cache); device alpha/beta under CUDA graph replay; both recipes
 * forced (sm90 only on cc 9.0) and split-K with an epilogue.
 *
 * Without a GPU it prints SKIP and exits 77 (CTest: skipped). TCJ_TEST_SEED changes the data,
 * TCJ_TEST_FILTER / TCJ_TEST_SKIP select tests (cmocka patterns). */
#include <cuda_runtime.h>
#include <math.h>
#include <pthread.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"
#include "tests/gpu/oracle.h"

#define GUARD_BYTES 256 /* poisoned bytes after the last element of every region */
#define MSG_SIZE 1536
#define STRIDE_PACKED (-1) /* a batch stride of rows * ld: entries back to back */

static uint64_t g_seed_base = 0xe9117e5eedull;
static tcj_engine *g_eng;
static cudaStream_t g_stream;
static int g_cc_major, g_cc_minor; /* the GPU's compute capability (group_setup) */

/* ---- dtypes ---------------------------------------------------------------------------- */

static const char *act_name(tcj_activation a) {
  static const char *names[] = {"none", "relu", "gelu", "gelu_tanh", "silu"};
  return (unsigned)a < sizeof names / sizeof names[0] ? names[a] : "?";
}

static const char *bias_name(tcj_bias_kind b) {
  static const char *names[] = {"none", "col", "row"};
  return (unsigned)b < sizeof names / sizeof names[0] ? names[b] : "?";
}

/* ---- random numbers (gpu_test.h's splitmix64: seeded per case, reproducible) ------------ */

/* Uniform in [-2, 2] (never all zeros); integers in [-8, 8] for s8, [-100, 100] for s32. */
static void fill_random(tcj_dtype t, void *buf, size_t i, rng *r) {
  if (t == TCJ_S8) gpu_put(t, buf, i, (double)((int64_t)(rng_next(r) % 17) - 8));
  else if (t == TCJ_S32) gpu_put(t, buf, i, (double)((int64_t)(rng_next(r) % 201) - 100));
  else gpu_put(t, buf, i, ((double)(rng_next(r) >> 11) * 0x1.0p-53 * 2 - 1) * 2);
}

/* ---- cases ------------------------------------------------------------------------------ */

typedef enum c_mode {
  C_NONE,          /* c = NULL (beta 0, no beta_ptr) */
  C_SEPARATE,      /* C and D apart; C must not change. beta 0: C holds NaN and must not be read */
  C_INPLACE_NULL_D, /* d = NULL: D is C (d_type, ldd and stride_d get junk: they are ignored) */
  C_INPLACE_SAME,  /* d == c with the same ld, stride and dtype */
} c_mode;
static const char *CM_NAMES[] = {"C=NULL", "C apart", "in place (d=NULL)", "in place (d==c)"};

typedef enum user_kind {
  USER_NONE,
  USER_RESIDUAL, /* v + res[batch * bstride + row * ld + col], res through params */
  USER_C_INDEX,  /* v + c * 0.5 + (row - 2 col + 3 batch) * 0.0625 */
  USER_BAD,      /* a syntax error on line 3 */
} user_kind;

static const char SRC_RESIDUAL[] =
    "struct P { const float *res; long long ld; long long bstride; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                           long long batch, const void *params) {\n"
    "  const P *p = (const P *)params;\n"
    "  return v + p->res[batch * p->bstride + row * p->ld + col];\n"
    "}\n";

static const char SRC_C_INDEX[] =
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                           long long batch, const void *params) {\n"
    "  (void)params;\n"
    "  return v + c * 0.5f + (float)(row - 2 * col + 3 * batch) * 0.0625f;\n"
    "}\n";

static const char SRC_BAD[] =
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                           long long batch, const void *params) {\n"
    "  return v + ;\n"
    "}\n";

static const char *user_source(user_kind u) {
  return u == USER_RESIDUAL ? SRC_RESIDUAL : u == USER_C_INDEX ? SRC_C_INDEX : u == USER_BAD ? SRC_BAD : NULL;
}

typedef struct ex_case {
  const char *what;
  tcj_dtype ab; /* as passed: TCJ_TF32 or TCJ_F32 for tf32 (stored as f32) */
  tcj_dtype c_type, d_type, bias_type;
  tcj_op op_a, op_b;
  int64_t m, n, k;
  int64_t lda, ldb, ldc, ldd; /* 0: the minimum */
  int64_t off_d;              /* elements between D's allocation (C's, in place) and D */
  float alpha, beta;
  int dev_alpha, dev_beta; /* through alpha_ptr / beta_ptr; the fields then hold junk */
  c_mode cm;
  tcj_bias_kind bias;
  tcj_activation act;
  int64_t batch; /* batch_count as passed */
  int64_t stride_a, stride_b, stride_c, stride_d, stride_bias; /* elements, or STRIDE_PACKED */
  int64_t extra_d_entries; /* D entries allocated past the batch: they must stay poisoned */
  user_kind user;
  uint64_t seed;
} ex_case;

static ex_case mk(const char *what, tcj_dtype ab, tcj_dtype d, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n,
                  int64_t k, uint64_t seed) {
  ex_case c;
  memset(&c, 0, sizeof c);
  c.what = what;
  c.ab = ab;
  c.c_type = c.d_type = d;
  c.bias_type = TCJ_F32;
  c.op_a = op_a;
  c.op_b = op_b;
  c.m = m;
  c.n = n;
  c.k = k;
  c.alpha = 1;
  c.cm = C_NONE;
  c.stride_a = c.stride_b = c.stride_c = c.stride_d = c.stride_bias = STRIDE_PACKED;
  c.seed = g_seed_base + seed;
  return c;
}

/* f32 data passed as TCJ_TF32: the tf32 path; as TCJ_F32 (both operands): fp32 accuracy
 * (3xTF32), each product off by at most 2^-20 of |a b| (test_gemm_gpu.c, x3_term). */
static int is_tf32(const ex_case *c) { return c->ab == TCJ_TF32; }
static double x3_term(const ex_case *c) { return c->ab == TCJ_F32 ? 0x1p-20 : 0; }

static int describe(const ex_case *c, char *buf, size_t size) {
  return snprintf(buf, size,
                  "[%s] %s->%s op=%c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld ldd=%lld off_d=%lld %s "
                  "c=%s alpha=%g%s beta=%g%s bias=%s/%s act=%s batch=%lld strides a=%lld b=%lld c=%lld d=%lld "
                  "bias=%lld user=%d seed=0x%llx",
                  c->what, tcj_dtype_name(c->ab), tcj_dtype_name(c->d_type), c->op_a ? 'T' : 'N', c->op_b ? 'T' : 'N',
                  (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->lda, (long long)c->ldb,
                  (long long)c->ldc, (long long)c->ldd, (long long)c->off_d, CM_NAMES[c->cm],
                  tcj_dtype_name(c->c_type), c->alpha, c->dev_alpha ? "(ptr)" : "", c->beta, c->dev_beta ? "(ptr)" : "",
                  bias_name(c->bias), tcj_dtype_name(c->bias_type), act_name(c->act), (long long)c->batch,
                  (long long)c->stride_a, (long long)c->stride_b, (long long)c->stride_c, (long long)c->stride_d,
                  (long long)c->stride_bias, (int)c->user, (unsigned long long)c->seed);
}

static int failf(char *msg, size_t size, const ex_case *c, const char *fmt, ...) {
  int len = describe(c, msg, size);
  if (len < 0 || (size_t)len + 3 >= size) return 0;
  msg[len++] = ':';
  msg[len++] = ' ';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + len, size - (size_t)len, fmt, ap);
  va_end(ap);
  return 0;
}

/* ---- one case in flight ----------------------------------------------------------------- */

typedef struct ex_run {
  ex_case c;
  tcj_dtype sab, ct, dt; /* storage of A and B; C's and D's types (in place: both C's) */
  int inplace;
  int64_t nb; /* GEMMs the call runs: batch_count, at least 1 */
  int64_t rows_a, cols_a, rows_b, cols_b, lda, ldb, ldc, ldd, blen;
  int64_t sa, sb, sc, sd, sbias;
  int64_t res_ld, res_stride;
  gpu_region a, b, cr, d, bias, res; /* cr: C apart from D; in place, d is C */
  unsigned char *c_rand, *c_poison; /* images of C's region (in place: D's) with and without values */
  void *scal;   /* device alpha, beta */
  void *params; /* device struct P of USER_RESIDUAL */
} ex_run;

static int64_t resolve_stride(int64_t s, int64_t rows, int64_t ld) { return s == STRIDE_PACKED ? rows * ld : s; }
static int64_t extent(int64_t rows, int64_t cols, int64_t ld) {
  return rows > 0 && cols > 0 ? (rows - 1) * ld + cols : 0;
}
static int64_t entries(int64_t stride, int64_t nb) { return stride == 0 ? 1 : nb; }

static void run_free(ex_run *r) {
  gpu_region_free(&r->a);
  gpu_region_free(&r->b);
  gpu_region_free(&r->cr);
  gpu_region_free(&r->d);
  gpu_region_free(&r->bias);
  gpu_region_free(&r->res);
  free(r->c_rand);
  free(r->c_poison);
  if (r->scal) cudaFree(r->scal);
  if (r->params) cudaFree(r->params);
  memset(r, 0, sizeof *r);
}

/* A region of `elems` elements of t plus the guard, poisoned on the host. */
static int region_alloc(gpu_region *g, tcj_dtype t, int64_t elems) {
  return gpu_region_alloc(g, (size_t)elems * gpu_esize(t) + GUARD_BYTES, gpu_poison_byte(t));
}

/* Random values into `count` matrices of rows x cols (ld, stride apart, from element off). */
static void fill_windows(tcj_dtype t, unsigned char *img, int64_t off, int64_t count, int64_t stride, int64_t rows,
                         int64_t cols, int64_t ld, rng *g) {
  for (int64_t z = 0; z < count; z++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) fill_random(t, img, (size_t)(off + z * stride + i * ld + j), g);
}

/* The images C's region (in place: D's) starts a call with: values where beta != 0, else poison
 * (NaN): C must then not be read, and in place every element must be written. */
static void set_images(ex_run *r) {
  gpu_region *g = r->inplace ? &r->d : r->c.cm == C_SEPARATE ? &r->cr : NULL;
  if (g) memcpy(g->before, r->c.beta != 0 ? r->c_rand : r->c_poison, g->bytes);
}

/* Queues the uploads of every region's `before` image and of the scalars on s. */
static cudaError_t upload(ex_run *r, cudaStream_t s) {
  gpu_region *all[] = {&r->a, &r->b, &r->cr, &r->d, &r->bias, &r->res};
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < sizeof all / sizeof *all && !e; i++)
    if (all[i]->dev) e = cudaMemcpyAsync(all[i]->dev, all[i]->before, all[i]->bytes, cudaMemcpyHostToDevice, s);
  float sc[2] = {r->c.alpha, r->c.beta};
  if (!e) e = cudaMemcpyAsync(r->scal, sc, sizeof sc, cudaMemcpyHostToDevice, s);
  if (!e) e = cudaStreamSynchronize(s); /* sc lives on this stack frame */
  return e;
}

/* Host images, device regions and uploads for case c. Returns 1, or 0 with msg. */
static int prepare(ex_run *r, const ex_case *c, cudaStream_t s, char *msg, size_t size) {
  memset(r, 0, sizeof *r);
  r->c = *c;
  r->sab = c->ab == TCJ_TF32 ? TCJ_F32 : c->ab;
  r->inplace = c->cm == C_INPLACE_NULL_D || c->cm == C_INPLACE_SAME;
  r->ct = c->c_type;
  r->dt = r->inplace ? c->c_type : c->d_type;
  r->nb = c->batch > 1 ? c->batch : 1;
  int ta = c->op_a == TCJ_OP_T, tb = c->op_b == TCJ_OP_T;
  r->rows_a = ta ? c->k : c->m;
  r->cols_a = ta ? c->m : c->k;
  r->rows_b = tb ? c->n : c->k;
  r->cols_b = tb ? c->k : c->n;
  r->lda = c->lda ? c->lda : r->cols_a;
  r->ldb = c->ldb ? c->ldb : r->cols_b;
  r->ldc = c->ldc ? c->ldc : c->n;
  r->ldd = r->inplace ? r->ldc : c->ldd ? c->ldd : c->n;
  r->blen = c->bias == TCJ_BIAS_ROW ? c->m : c->bias == TCJ_BIAS_COL ? c->n : 0;
  r->sa = resolve_stride(c->stride_a, r->rows_a, r->lda);
  r->sb = resolve_stride(c->stride_b, r->rows_b, r->ldb);
  r->sc = resolve_stride(c->stride_c, c->m, r->ldc);
  r->sd = r->inplace ? r->sc : resolve_stride(c->stride_d, c->m, r->ldd);
  r->sbias = c->stride_bias == STRIDE_PACKED ? r->blen : c->stride_bias;
  rng g = {c->seed};
  int64_t ea = entries(r->sa, r->nb), eb = entries(r->sb, r->nb), ec = entries(r->sc, r->nb);
  int64_t ed = entries(r->sd, r->nb) + c->extra_d_entries, ebias = entries(r->sbias, r->nb);
  int ok = region_alloc(&r->a, r->sab, (ea - 1) * r->sa + extent(r->rows_a, r->cols_a, r->lda)) &&
           region_alloc(&r->b, r->sab, (eb - 1) * r->sb + extent(r->rows_b, r->cols_b, r->ldb)) &&
           region_alloc(&r->d, r->dt, c->off_d + (ed - 1) * r->sd + extent(c->m, c->n, r->ldd));
  if (ok && c->cm == C_SEPARATE) ok = region_alloc(&r->cr, r->ct, (ec - 1) * r->sc + extent(c->m, c->n, r->ldc));
  if (ok && c->bias != TCJ_BIAS_NONE) ok = region_alloc(&r->bias, c->bias_type, (ebias - 1) * r->sbias + r->blen);
  if (ok && c->user == USER_RESIDUAL) {
    r->res_ld = c->n + 5;
    r->res_stride = c->m * r->res_ld + 7;
    ok = region_alloc(&r->res, TCJ_F32, (r->nb - 1) * r->res_stride + extent(c->m, c->n, r->res_ld));
  }
  if (ok) ok = cudaMalloc(&r->scal, 2 * sizeof(float)) == cudaSuccess;
  if (!ok) return failf(msg, size, c, "host or device out of memory");
  fill_windows(r->sab, r->a.before, 0, ea, r->sa, r->rows_a, r->cols_a, r->lda, &g);
  fill_windows(r->sab, r->b.before, 0, eb, r->sb, r->rows_b, r->cols_b, r->ldb, &g);
  if (r->bias.dev) fill_windows(c->bias_type, r->bias.before, 0, ebias, r->sbias, 1, r->blen, r->blen, &g);
  if (r->res.dev) fill_windows(TCJ_F32, r->res.before, 0, r->nb, r->res_stride, c->m, c->n, r->res_ld, &g);
  gpu_region *cg = r->inplace ? &r->d : c->cm == C_SEPARATE ? &r->cr : NULL;
  if (cg) {
    r->c_rand = malloc(cg->bytes);
    r->c_poison = malloc(cg->bytes);
    if (!r->c_rand || !r->c_poison) return failf(msg, size, c, "host out of memory");
    memcpy(r->c_poison, cg->before, cg->bytes);
    memcpy(r->c_rand, cg->before, cg->bytes);
    fill_windows(r->ct, r->c_rand, r->inplace ? c->off_d : 0, ec, r->sc, c->m, c->n, r->ldc, &g);
  }
  if (c->user == USER_RESIDUAL) {
    struct { uint64_t res; long long ld, bstride; } p = {(uint64_t)(uintptr_t)r->res.dev, r->res_ld, r->res_stride};
    if (cudaMalloc(&r->params, sizeof p) != cudaSuccess ||
        cudaMemcpy(r->params, &p, sizeof p, cudaMemcpyHostToDevice) != cudaSuccess)
      return failf(msg, size, c, "params upload failed");
  }
  set_images(r);
  cudaError_t e = upload(r, s);
  if (e) return failf(msg, size, c, "CUDA setup failed: %s", cudaGetErrorName(e));
  return 1;
}

/* The descriptor of a prepared run. */
static void make_desc(const ex_run *r, tcj_gemm_desc *d) {
  const ex_case *c = &r->c;
  tcj_gemm_desc init = TCJ_GEMM_DESC_INIT;
  *d = init;
  d->op_a = c->op_a;
  d->op_b = c->op_b;
  d->m = c->m;
  d->n = c->n;
  d->k = c->k;
  d->a = r->a.dev;
  d->a_type = c->ab;
  d->lda = r->lda;
  d->b = r->b.dev;
  d->b_type = c->ab;
  d->ldb = r->ldb;
  void *dptr = (char *)r->d.dev + (size_t)c->off_d * gpu_esize(r->dt);
  d->c_type = r->ct;
  d->ldc = r->ldc;
  d->stride_c = r->sc;
  switch (c->cm) {
  case C_NONE:
    d->c = NULL;
    d->stride_c = 0;
    break;
  case C_SEPARATE: d->c = r->cr.dev; break;
  case C_INPLACE_NULL_D: d->c = dptr; break;
  case C_INPLACE_SAME: d->c = dptr; break;
  }
  if (c->cm == C_INPLACE_NULL_D) {
    d->d = NULL; /* junk in the fields tcj.h says are then ignored */
    d->d_type = TCJ_S8;
    d->ldd = 1;
    d->stride_d = 3;
  } else {
    d->d = dptr;
    d->d_type = r->dt;
    d->ldd = r->ldd;
    d->stride_d = r->sd;
  }
  d->alpha = c->dev_alpha ? 1000.0f : c->alpha;
  d->beta = c->dev_beta ? -777.0f : c->beta;
  d->alpha_ptr = c->dev_alpha ? (const float *)r->scal : NULL;
  d->beta_ptr = c->dev_beta ? (const float *)r->scal + 1 : NULL;
  d->bias = c->bias != TCJ_BIAS_NONE ? r->bias.dev : NULL;
  d->bias_type = c->bias_type;
  d->bias_kind = c->bias;
  d->activation = c->act;
  d->batch_count = c->batch;
  d->stride_a = r->sa;
  d->stride_b = r->sb;
  d->stride_bias = r->sbias;
  d->epilogue_source = user_source(c->user);
  d->epilogue_params = c->user == USER_RESIDUAL ? r->params : NULL;
}

/* op(A_z)[i, p] and op(B_z)[p, j] as the tensor cores take them (tf32: model 1 truncates the
 * f32 data to tf32, 0 rounds it; tcj.h promises neither, so either must hold for a whole case). */
static double op_a_at(const ex_run *r, int64_t z, int64_t i, int64_t p, int model) {
  int64_t base = r->sa ? z * r->sa : 0;
  double v = gpu_get(r->sab, r->a.before, (size_t)(base + (r->c.op_a == TCJ_OP_T ? p * r->lda + i : i * r->lda + p)));
  return model >= 0 ? (double)oracle_tf32((float)v, model) : v;
}

static double op_b_at(const ex_run *r, int64_t z, int64_t p, int64_t j, int model) {
  int64_t base = r->sb ? z * r->sb : 0;
  double v = gpu_get(r->sab, r->b.before, (size_t)(base + (r->c.op_b == TCJ_OP_T ? j * r->ldb + p : p * r->ldb + j)));
  return model >= 0 ? (double)oracle_tf32((float)v, model) : v;
}

typedef struct check_result {
  int64_t checked, bad, wz, wi, wj;
  double wgot, wref, wbound, wratio;
} check_result;

/* Every element of every batch entry against the fp64 reference under one tf32 model. */
static int check_reference(const ex_run *r, int model, check_result *res) {
  const ex_case *c = &r->c;
  memset(res, 0, sizeof *res);
  res->wz = -1;
  double *a = malloc(sizeof *a * (size_t)(c->m * c->k + 1)), *bt = malloc(sizeof *bt * (size_t)(c->n * c->k + 1));
  if (!a || !bt) {
    free(a);
    free(bt);
    return 0;
  }
  oracle_ep e = {c->k, c->alpha, c->beta, c->act, r->dt,
                 c->user == USER_RESIDUAL ? 1 : c->user == USER_C_INDEX ? 2 : 0, x3_term(c)};
  const unsigned char *cimg = r->inplace ? r->d.before : r->cr.before;
  int64_t coff = r->inplace ? c->off_d : 0;
  for (int64_t z = 0; z < r->nb; z++) {
    if (z == 0 || r->sa)
      for (int64_t i = 0; i < c->m; i++)
        for (int64_t p = 0; p < c->k; p++) a[i * c->k + p] = op_a_at(r, z, i, p, model);
    if (z == 0 || r->sb)
      for (int64_t j = 0; j < c->n; j++)
        for (int64_t p = 0; p < c->k; p++) bt[j * c->k + p] = op_b_at(r, z, p, j, model);
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++) {
        double s, t;
        oracle_dot(a + i * c->k, bt + j * c->k, c->k, &s, &t);
        double cv = c->beta != 0 ? gpu_get(r->ct, cimg, (size_t)(coff + z * r->sc + i * r->ldc + j)) : 0;
        double bv = 0;
        if (c->bias != TCJ_BIAS_NONE)
          bv = gpu_get(c->bias_type, r->bias.before, (size_t)(z * r->sbias + (c->bias == TCJ_BIAS_ROW ? i : j)));
        double ua = 0, uabs = 0;
        if (c->user == USER_RESIDUAL) {
          ua = gpu_get(TCJ_F32, r->res.before, (size_t)(z * r->res_stride + i * r->res_ld + j));
          uabs = fabs(ua);
        } else if (c->user == USER_C_INDEX) {
          double half_c = 0.5 * cv, idx = (double)(i - 2 * j + 3 * z) * 0.0625;
          ua = half_c + idx;
          uabs = fabs(half_c) + fabs(idx);
        }
        double got = gpu_get(r->dt, r->d.after, (size_t)(c->off_d + z * r->sd + i * r->ldd + j)), ref, bound;
        double ratio = oracle_ep_element(&e, s, t, cv, bv, ua, uabs, got, &ref, &bound);
        res->checked++;
        if (!(ratio <= 1)) res->bad++;
        if (res->wz < 0 || !(ratio <= res->wratio)) {
          res->wz = z, res->wi = i, res->wj = j;
          res->wgot = got, res->wref = ref, res->wbound = bound;
          res->wratio = ratio != ratio ? INFINITY : ratio;
        }
      }
  }
  free(a);
  free(bt);
  return 1;
}

/* Waits for the call, reads D (and C) back and checks, in order: no byte of D's allocation
 * outside the windows of the batch entries changed; C apart from D unchanged; every element of
 * a poisoned D written; every element within its bound. Returns 1, or 0 with msg. */
static int verify(ex_run *r, cudaStream_t s, double *worst, char *msg, size_t size) {
  const ex_case *c = &r->c;
  cudaError_t e;
  if ((e = cudaMemcpyAsync(r->d.after, r->d.dev, r->d.bytes, cudaMemcpyDeviceToHost, s)) ||
      (r->cr.dev && (e = cudaMemcpyAsync(r->cr.after, r->cr.dev, r->cr.bytes, cudaMemcpyDeviceToHost, s))) ||
      (e = cudaStreamSynchronize(s)))
    return failf(msg, size, c, "GEMM or read-back failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
  size_t es = gpu_esize(r->dt);
  unsigned char *inside = calloc(r->d.bytes, 1);
  if (!inside) return failf(msg, size, c, "host out of memory");
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < c->m; i++)
      memset(inside + (size_t)(c->off_d + z * r->sd + i * r->ldd) * es, 1, (size_t)c->n * es);
  for (size_t b = 0; b < r->d.bytes; b++)
    if (!inside[b] && r->d.after[b] != r->d.before[b]) {
      int64_t el = (int64_t)(b / es) - c->off_d, z = r->sd ? el / r->sd : 0, in = r->sd ? el % r->sd : el;
      free(inside);
      return failf(msg, size, c,
                   "wrote outside D: byte %zu of %zu (element %lld past D: entry %lld, row %lld, column %lld of "
                   "ldd %lld) changed from 0x%02x to 0x%02x",
                   b, r->d.bytes, (long long)el, (long long)z, (long long)(in / r->ldd), (long long)(in % r->ldd),
                   (long long)r->ldd, r->d.before[b], r->d.after[b]);
    }
  free(inside);
  if (r->cr.dev && memcmp(r->cr.before, r->cr.after, r->cr.bytes) != 0) {
    size_t b = 0;
    while (r->cr.before[b] == r->cr.after[b]) b++;
    return failf(msg, size, c, "C (apart from D) changed: byte %zu of %zu", b, r->cr.bytes);
  }
  if (!r->inplace || c->beta == 0) {
    int64_t left = 0, fz = -1, fi = -1, fj = -1;
    for (int64_t z = 0; z < r->nb; z++)
      for (int64_t i = 0; i < c->m; i++)
        for (int64_t j = 0; j < c->n; j++)
          if (gpu_is_poison(r->dt, r->d.after, (size_t)(c->off_d + z * r->sd + i * r->ldd + j)) && left++ == 0)
            fz = z, fi = i, fj = j;
    if (left)
      return failf(msg, size, c, "%lld elements of D never written (poison left), first D[%lld][%lld][%lld]",
                   (long long)left, (long long)fz, (long long)fi, (long long)fj);
  }
  check_result cr = {0}, first = {0};
  int tf32 = is_tf32(c), ok = 0;
  for (int model = tf32 ? 1 : -1; model >= (tf32 ? 0 : -1); model--) {
    if (!check_reference(r, model, &cr)) return failf(msg, size, c, "host out of memory");
    if (model == (tf32 ? 1 : -1)) first = cr;
    if (cr.bad == 0) {
      ok = 1;
      break;
    }
  }
  if (!ok)
    return failf(msg, size, c,
                 "%lld of %lld elements outside their bound%s; worst D[%lld][%lld][%lld] = %.9g, want %.9g, "
                 "|error| / bound = %.3g (bound %.3g)",
                 (long long)first.bad, (long long)first.checked,
                 tf32 ? " (tf32 inputs truncated; rounded fails too)" : "",
                 (long long)first.wz, (long long)first.wi, (long long)first.wj, first.wgot, first.wref, first.wratio,
                 first.wbound);
  if (worst && cr.wratio > *worst) *worst = cr.wratio;
  return 1;
}

/* 1: passed; 0: failed (msg); -1: the engine refused a user epilogue with NOT_SUPPORTED. On
 * stream, or (run_case) g_stream. */
static int run_case_on(tcj_engine *eng, const ex_case *c, cudaStream_t stream, double *worst, char *msg,
                       size_t size) {
  ex_run r;
  msg[0] = '\0';
  int ok = prepare(&r, c, stream, msg, size);
  if (ok) {
    tcj_gemm_desc d;
    make_desc(&r, &d);
    tcj_status st = tcj_gemm_ex(eng, &d, (CUstream)stream);
    if (st == TCJ_ERROR_NOT_SUPPORTED && c->user != USER_NONE) {
      failf(msg, size, c, "user epilogue not supported here: %s", tcj_last_error(eng));
      ok = -1;
    } else if (st != TCJ_SUCCESS) {
      ok = failf(msg, size, c, "tcj_gemm_ex returned %s: %s", tcj_status_string(st), tcj_last_error(eng));
    }
  }
  if (ok == 1) ok = verify(&r, stream, worst, msg, size);
  run_free(&r);
  return ok;
}

static int run_case(tcj_engine *eng, const ex_case *c, double *worst, char *msg, size_t size) {
  return run_case_on(eng, c, g_stream, worst, msg, size);
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* Runs a list, printing every failure and one summary line; returns the failures. *refused
 * (when given) counts user epilogues refused as not supported (no NVRTC). */
static int run_list(tcj_engine *eng, const char *what, const ex_case *cases, int n, int *refused) {
  char msg[MSG_SIZE];
  int failed = 0, skipped = 0;
  double worst = 0;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; i++) {
    int ok = run_case(eng, &cases[i], &worst, msg, sizeof msg);
    if (ok == -1 && refused) {
      skipped++;
      printf("  note: %s\n", msg);
    } else if (ok != 1) {
      failed++;
      printf("  FAIL %s\n", msg);
    }
    fflush(stdout);
  }
  printf("  %s: %d cases, %d failed%s, worst |err|/bound %.3f, %.1f s\n", what, n, failed,
         skipped ? ", some user epilogues refused (no NVRTC?)" : "", worst, seconds_since(&t0));
  if (refused) *refused = skipped;
  return failed;
}

#define RUN_CASES(eng, what, cases, n)                                                               \
  do {                                                                                               \
    int failed_ = run_list(eng, what, cases, n, NULL);                                               \
    if (failed_) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed_, (int)(n)); \
  } while (0)

#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* TCJ_CACHE_DISABLE set: engines have no disk cache, whatever their options say. */
static int disk_cache_disabled(void) {
  const char *disable = getenv("TCJ_CACHE_DISABLE");
  return disable && *disable;
}

/* Removes a test's scratch directory and what it holds. */
static void remove_tree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* ---- 1. built-in epilogues ------------------------------------------------------------- */

/* Shapes with edges: m = 1, n = 8, k never a multiple of 64 (k = 1 too). */
static const int64_t SHAPES[][3] = {{200, 136, 72}, {1, 8, 40}, {77, 8, 100}, {129, 40, 200},
                                    {33, 264, 24},  {64, 72, 136}, {31, 56, 1}};
#define NSHAPES NCASES(SHAPES)
static const tcj_dtype OUT_TYPES[3] = {TCJ_F16, TCJ_BF16, TCJ_F32};
static const tcj_dtype BIAS_TYPES[3] = {TCJ_F32, TCJ_BF16, TCJ_F16};

/* Leading dimensions: 0 the minimum; 1 lda padded (16-byte rows kept), ldd = n + 3 and
 * ldc = n + 5; 2 odd lda and ldb (operands packed or read narrowly), ldd = n + 1 and D one
 * element past its allocation's start. */
static void apply_layout(ex_case *c, int variant) {
  int64_t cols_a = c->op_a == TCJ_OP_T ? c->m : c->k, cols_b = c->op_b == TCJ_OP_T ? c->k : c->n;
  switch (variant % 3) {
  case 1:
    c->lda = cols_a + 8;
    c->ldd = c->n + 3;
    c->ldc = c->n + 5;
    break;
  case 2:
    c->lda = cols_a + 1;
    c->ldb = cols_b + 3;
    c->ldd = c->n + 1;
    c->ldc = c->n + 2;
    c->off_d = 1;
    break;
  default: break;
  }
}

/* alpha ~ 1.5 / sqrt(k) keeps alpha * AB (data in [-2, 2]) around [-4, 4], where the
 * activations bend; the sign alternates. */
static float scaled_alpha(int64_t k, int i) { return (float)((i & 1 ? -1.5 : 1.5) / sqrt((double)(k > 0 ? k : 1))); }

/* All 15 (bias kind, activation) pairs for 16-bit operands; D, bias and C types, C modes, op
 * pairs, shapes and layouts cycle so that every (D type, bias type) pair and every (D type, C
 * mode) pair occurs. */
static void epilogue_matrix_16bit(tcj_dtype ab, int t, const char *what) {
  ex_case cases[15];
  for (int i = 0; i < 15; i++) {
    const int64_t *sh = SHAPES[(i + 3 * t) % NSHAPES];
    int di = (i + t) % 3;
    ex_case c = mk(what, ab, OUT_TYPES[di], (tcj_op)(i & 1), (tcj_op)((i >> 1) & 1), sh[0], sh[1], sh[2],
                   1000 * (uint64_t)(t + 1) + (uint64_t)i);
    c.bias = (tcj_bias_kind)(i / 5);
    c.act = (tcj_activation)(i % 5);
    c.bias_type = BIAS_TYPES[(i / 3 + t) % 3];
    c.alpha = scaled_alpha(c.k, i);
    switch ((i + i / 3 + t) % 3) {
    case 0: c.cm = C_NONE; break;
    case 1: /* C of another type, read */
      c.cm = C_SEPARATE;
      c.c_type = OUT_TYPES[(di + 1) % 3];
      c.beta = i & 2 ? 0.75f : -0.5f;
      break;
    default: /* C given, beta 0: holds NaN, must not be read */
      c.cm = C_SEPARATE;
      c.c_type = OUT_TYPES[(di + 2) % 3];
      break;
    }
    apply_layout(&c, i + t);
    cases[i] = c;
  }
  RUN_CASES(g_eng, what, cases, 15);
}

static void bf16_every_bias_and_activation_matches_reference(void **state) {
  (void)state;
  epilogue_matrix_16bit(TCJ_BF16, 0, "bf16 epilogues");
}

static void f16_every_bias_and_activation_matches_reference(void **state) {
  (void)state;
  epilogue_matrix_16bit(TCJ_F16, 1, "f16 epilogues");
}

/* f32 data passed as TCJ_TF32 (tf32) and as TCJ_F32 (fp32 accuracy, 3xTF32) -> f32: every
 * activation and bias kind. */
static void tf32_bias_and_activations_match_reference(void **state) {
  (void)state;
  ex_case cases[8];
  for (int i = 0; i < 8; i++) {
    const int64_t *sh = SHAPES[(i + 1) % NSHAPES];
    ex_case c = mk("tf32 epilogues", i & 1 ? TCJ_F32 : TCJ_TF32, TCJ_F32, (tcj_op)((i >> 1) & 1),
                   (tcj_op)((i & 1) ^ ((i >> 2) & 1)), sh[0], sh[1], sh[2], 3000 + (uint64_t)i);
    c.bias = (tcj_bias_kind)(i % 3);
    c.act = (tcj_activation)((2 * i) % 5);
    c.alpha = scaled_alpha(c.k, i);
    if (i % 3 == 1) {
      c.cm = C_SEPARATE;
      c.beta = 0.5f;
    }
    apply_layout(&c, i);
    cases[i] = c;
  }
  RUN_CASES(g_eng, "tf32 epilogues", cases, NCASES(cases));
}

/* f32 D and a tiny K keep the accumulation term near 1e-5, so the activations themselves are
 * judged: GELU's erf and tanh forms differ by up to 4.7e-4 (caught either way round), and an
 * approximation coarser than 2^-20 (|v| + 1) fails. alpha 1.5 with data in [-2, 2] and a bias
 * spreads v over [-8, 8]. */
static void activations_into_f32_are_the_documented_functions(void **state) {
  (void)state;
  ex_case cases[10];
  for (int i = 0; i < 10; i++) {
    int f16 = i >= 5;
    ex_case c = mk("activation functions", f16 ? TCJ_F16 : TCJ_BF16, TCJ_F32, (tcj_op)f16, TCJ_OP_N, 64, 72,
                   f16 ? 3 : 2, 3500 + (uint64_t)i);
    c.act = (tcj_activation)(i % 5);
    c.bias = f16 ? TCJ_BIAS_COL : TCJ_BIAS_ROW;
    c.alpha = 1.5f;
    if (f16) {
      c.cm = C_SEPARATE;
      c.c_type = TCJ_F32;
      c.beta = 0.5f;
    }
    cases[i] = c;
  }
  RUN_CASES(g_eng, "activation functions (f32 D, k 2 and 3)", cases, NCASES(cases));
}

/* s8 -> s32 with an f32 bias (fractional values: the fp64 epilogue rounds them) and ReLU: exact. */
static void s8_bias_and_relu_are_exact(void **state) {
  (void)state;
  static const float alphas[] = {1, 2, -1, 0.5f, 3, -2}, betas[] = {0, -1, 0, 2, 0, 1};
  ex_case cases[6];
  for (int i = 0; i < 6; i++) {
    const int64_t *sh = SHAPES[(i + 2) % NSHAPES];
    ex_case c = mk("s8 bias/relu", TCJ_S8, TCJ_S32, (tcj_op)(i & 1), (tcj_op)((i >> 1) & 1), sh[0], sh[1], sh[2],
                   4000 + (uint64_t)i);
    c.bias = (tcj_bias_kind)(i % 3);
    c.act = i >= 3 ? TCJ_ACT_RELU : TCJ_ACT_NONE;
    c.alpha = alphas[i];
    c.beta = betas[i];
    c.cm = c.beta != 0 ? C_SEPARATE : i == 4 ? C_SEPARATE : C_NONE; /* case 4: C given, not read */
    apply_layout(&c, i);
    cases[i] = c;
  }
  RUN_CASES(g_eng, "s8 bias/relu", cases, NCASES(cases));
}

/* s8 takes no GELU, SiLU or user epilogue: NOT_SUPPORTED with a message, D untouched. */
static void s8_refuses_gelu_silu_and_user_epilogues(void **state) {
  (void)state;
  char msg[MSG_SIZE];
  ex_case c = mk("s8 refusals", TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_T, 64, 48, 40, 4100);
  c.bias = TCJ_BIAS_COL;
  ex_run r;
  if (!prepare(&r, &c, g_stream, msg, sizeof msg)) fail_msg("%s", msg);
  int failed = 0;
  for (int v = 0; v < 4; v++) {
    tcj_gemm_desc d;
    make_desc(&r, &d);
    if (v < 3) d.activation = v == 0 ? TCJ_ACT_GELU : v == 1 ? TCJ_ACT_GELU_TANH : TCJ_ACT_SILU;
    else d.epilogue_source = SRC_C_INDEX;
    tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_stream);
    const char *why = tcj_last_error(g_eng);
    const char *label = v < 3 ? act_name(d.activation) : "user epilogue";
    if (st != TCJ_ERROR_NOT_SUPPORTED || !why || !why[0]) {
      printf("  FAIL s8 with %s: %s (%s), want NOT_SUPPORTED with a message\n", label, tcj_status_string(st),
             why ? why : "");
      failed++;
    } else {
      printf("  s8 with %s -> %s: %s\n", label, tcj_status_string(st), why);
    }
  }
  assert_int_equal(cudaMemcpy(r.d.after, r.d.dev, r.d.bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  if (memcmp(r.d.after, r.d.before, r.d.bytes) != 0) {
    printf("  FAIL a refused s8 call wrote to D\n");
    failed++;
  }
  run_free(&r);
  if (failed) fail_msg("%d s8 refusal checks failed", failed);
  /* The engine still runs the supported s8 epilogue. */
  c.act = TCJ_ACT_RELU;
  RUN_CASES(g_eng, "s8 refusals, then relu", &c, 1);
}

/* ---- 2. C and D ------------------------------------------------------------------------- */

static void d_apart_from_c_reads_c_and_leaves_it_untouched(void **state) {
  (void)state;
  ex_case cases[3];
  cases[0] = mk("D bf16, C f32 apart", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 100, 72, 96, 5001);
  cases[0].c_type = TCJ_F32;
  cases[0].cm = C_SEPARATE;
  cases[0].beta = 0.5f;
  cases[0].alpha = 0.2f;
  cases[0].ldc = 72 + 5;
  cases[0].ldd = 72 + 3;
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].bias_type = TCJ_F16;
  cases[0].act = TCJ_ACT_RELU;
  cases[1] = mk("D f32, C bf16 apart", TCJ_F16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 57, 40, 88, 5002);
  cases[1].c_type = TCJ_BF16;
  cases[1].cm = C_SEPARATE;
  cases[1].beta = -1.25f;
  cases[1].ldc = 40 + 1;
  cases[1].ldd = 40 + 7;
  cases[2] = mk("D f16, C f16 apart", TCJ_BF16, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 130, 24, 50, 5003);
  cases[2].cm = C_SEPARATE;
  cases[2].beta = 1;
  cases[2].alpha = 0.25f;
  cases[2].ldc = 24 + 8;
  cases[2].ldd = 24 + 3;
  cases[2].bias = TCJ_BIAS_ROW;
  cases[2].act = TCJ_ACT_SILU;
  RUN_CASES(g_eng, "D apart from C", cases, NCASES(cases));
}

static void d_equal_to_c_updates_in_place(void **state) {
  (void)state;
  ex_case cases[4];
  cases[0] = mk("in place, d NULL", TCJ_F16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 90, 64, 80, 5101);
  cases[0].cm = C_INPLACE_NULL_D;
  cases[0].ldc = 64 + 8;
  cases[0].beta = -0.5f;
  cases[0].alpha = 0.125f;
  cases[0].bias = TCJ_BIAS_ROW;
  cases[0].act = TCJ_ACT_GELU;
  cases[1] = mk("in place, d == c", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 70, 56, 120, 5102);
  cases[1].cm = C_INPLACE_SAME;
  cases[1].ldc = 56 + 3;
  cases[1].beta = 1.25f;
  cases[1].alpha = 0.125f;
  cases[1].bias = TCJ_BIAS_COL;
  cases[1].bias_type = TCJ_BF16;
  cases[1].act = TCJ_ACT_SILU;
  cases[2] = mk("in place, d NULL, beta 0", TCJ_BF16, TCJ_F16, TCJ_OP_N, TCJ_OP_T, 33, 40, 72, 5103);
  cases[2].cm = C_INPLACE_NULL_D;
  cases[2].ldc = 40 + 3;
  cases[2].bias = TCJ_BIAS_COL;
  cases[2].act = TCJ_ACT_RELU;
  cases[3] = mk("in place, d == c, tf32", TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 45, 24, 33, 5104);
  cases[3].cm = C_INPLACE_SAME;
  cases[3].beta = 2;
  cases[3].bias = TCJ_BIAS_ROW;
  cases[3].act = TCJ_ACT_GELU_TANH;
  cases[3].alpha = 0.25f;
  RUN_CASES(g_eng, "D is C", cases, NCASES(cases));
}

static void c_null_with_beta_zero_writes_d(void **state) {
  (void)state;
  ex_case cases[2];
  cases[0] = mk("C NULL", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 120, 80, 64, 5201);
  cases[0].ldd = 80 + 3;
  cases[1] = mk("C NULL, bias", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 17, 136, 56, 5202);
  cases[1].bias = TCJ_BIAS_COL;
  cases[1].bias_type = TCJ_BF16;
  cases[1].act = TCJ_ACT_GELU;
  cases[1].alpha = 0.2f;
  RUN_CASES(g_eng, "C NULL", cases, NCASES(cases));
}

/* ---- 3. strided batches ----------------------------------------------------------------- */

static void batch_broadcasts_weight_bias_and_c_with_zero_strides(void **state) {
  (void)state;
  ex_case cases[2];
  cases[0] = mk("4 inputs, one weight", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 50, 72, 88, 6001);
  cases[0].batch = 4;
  cases[0].stride_b = 0;
  cases[0].stride_bias = 0;
  cases[0].stride_c = 0;
  cases[0].c_type = TCJ_F32;
  cases[0].cm = C_SEPARATE;
  cases[0].beta = 0.5f;
  cases[0].alpha = 0.2f;
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].act = TCJ_ACT_RELU;
  cases[1] = mk("4 inputs, one weight, s8", TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_T, 37, 48, 64, 6002);
  cases[1].batch = 4;
  cases[1].stride_b = 0;
  cases[1].stride_bias = 0;
  cases[1].stride_c = 0;
  cases[1].cm = C_SEPARATE;
  cases[1].beta = 1;
  cases[1].bias = TCJ_BIAS_COL;
  cases[1].act = TCJ_ACT_RELU;
  RUN_CASES(g_eng, "broadcast strides", cases, NCASES(cases));
}

/* One weight, inputs and outputs one under another: tcj runs these as one GEMM of batch * m
 * rows. Row biases stacked the same way, C read in place, a user epilogue (which sees each
 * entry's own row and batch index, so is not folded), and a large case on the sm90 recipe. */
static void batch_of_stacked_entries_with_one_weight(void **state) {
  (void)state;
  ex_case cases[4];
  cases[0] = mk("stacked, col bias shared", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 50, 72, 88, 6101);
  cases[0].batch = 5;
  cases[0].stride_b = 0;
  cases[0].stride_bias = 0;
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].act = TCJ_ACT_GELU;
  cases[0].alpha = 0.2f;
  cases[1] = mk("stacked, row bias stacked, in place", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 33, 40, 24, 6102);
  cases[1].batch = 3;
  cases[1].stride_b = 0;
  cases[1].bias = TCJ_BIAS_ROW;
  cases[1].act = TCJ_ACT_SILU;
  cases[1].cm = C_INPLACE_NULL_D;
  cases[1].beta = 0.5f;
  cases[2] = mk("stacked, user epilogue", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 20, 36, 40, 6103);
  cases[2].batch = 3;
  cases[2].stride_b = 0;
  cases[2].user = USER_C_INDEX;
  cases[3] = mk("stacked, 8 x 256x1024x512", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 256, 1024, 512, 6104);
  cases[3].batch = 8;
  cases[3].stride_b = 0;
  cases[3].stride_bias = 0;
  cases[3].bias = TCJ_BIAS_COL;
  cases[3].alpha = 0.05f;
  RUN_CASES(g_eng, "stacked entries, one weight", cases, NCASES(cases));
}

/* B's row pitch 16-byte aligned but not a multiple of 128 bytes, K past 32 tiles, rows enough:
 * on sm_90a these select 128x128 tiles in CTA pairs that multicast B (test_select checks the
 * choice; tcj-ptx shows it), with an odd count of tile rows, C read, a wider D, op_b T and a
 * batch with a fused epilogue. Elsewhere they run whatever is selected and must hold all the
 * same. */
static void b_pitch_splitting_lines_runs_multicast_pairs(void **state) {
  (void)state;
  ex_case cases[3];
  cases[0] = mk("ldb 1208: 128x128 pairs, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 900, 1200, 2100, 6301);
  cases[0].ldb = 1208;
  cases[0].cm = C_SEPARATE;
  cases[0].beta = 0.5f;
  cases[0].alpha = scaled_alpha(2100, 0);
  cases[1] = mk("op_b T, ldb 2104, f32 D", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 900, 1200, 2100, 6302);
  cases[1].ldb = 2104;
  cases[2] = mk("batch 2, ldb 1008, bias + gelu", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 520, 1000, 2100, 6303);
  cases[2].ldb = 1008;
  cases[2].batch = 2;
  cases[2].bias = TCJ_BIAS_COL;
  cases[2].act = TCJ_ACT_GELU;
  cases[2].bias_type = TCJ_F16;
  cases[2].alpha = scaled_alpha(2100, 1);
  RUN_CASES(g_eng, "B pitch splitting 128-byte lines", cases, NCASES(cases));
}

/* Deep K over few tiles: on sm_90a these split K with the slices of tile rows paired in CTA
 * clusters that multicast B (tcj-ptx shows split=16 cluster=2), with an odd count of tile rows
 * (the last pair's second CTA has no rows), C read, an f32 D, op_b T and a fused epilogue
 * applied once by the reduction. Elsewhere they run whatever is selected and must hold all the
 * same. */
static void k_splits_run_in_multicast_pairs(void **state) {
  (void)state;
  ex_case cases[3];
  cases[0] = mk("260x256x16384: 3 tile rows in pairs, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 260, 256,
                16384, 6401);
  cases[0].cm = C_SEPARATE;
  cases[0].beta = -0.75f;
  cases[0].alpha = scaled_alpha(16384, 0);
  cases[1] = mk("400x256x16384 op_b T, f32 D, bias + gelu", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 400, 256, 16384,
                6402);
  cases[1].bias = TCJ_BIAS_COL;
  cases[1].act = TCJ_ACT_GELU;
  cases[1].alpha = scaled_alpha(16384, 1);
  cases[2] = mk("f16 260x384x16384 op_b T, 128x192 pairs, bias", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_T, 260, 384,
                16384, 6403);
  cases[2].bias = TCJ_BIAS_COL;
  cases[2].bias_type = TCJ_F16;
  cases[2].act = TCJ_ACT_RELU;
  cases[2].alpha = scaled_alpha(16384, 1);
  RUN_CASES(g_eng, "K splits in multicast pairs", cases, NCASES(cases));
}

/* The sm90 recipe runs on compute capability 9.0 only: elsewhere its tests skip. */
static void skip_unless_sm90(void) {
  if (g_cc_major == 9 && g_cc_minor == 0) return;
  print_message("the sm90 recipe needs compute capability 9.0; this GPU is %d.%d\n", g_cc_major, g_cc_minor);
  skip();
}

/* An engine forced to one sm90 tile (TCJ_RECIPE, TCJ_TILE), or a failed test. */
static tcj_engine *forced_sm90_engine(const char *tile) {
  tcj_engine *e = gpu_engine_with("sm90", tile);
  if (!e) fail_msg("tcj_create with TCJ_TILE=%s failed (above)", tile);
  return e;
}

/* A case and the sm90 tile it is forced onto. */
typedef struct forced_run {
  const char *tile;
  ex_case c;
} forced_run;

/* Runs each case on an engine forced to its tile; returns the failures. */
static int run_on_forced_tiles(forced_run *runs, int n) {
  int failed = 0;
  for (int i = 0; i < n; i++) {
    tcj_engine *e = forced_sm90_engine(runs[i].tile);
    char what[128];
    snprintf(what, sizeof what, "TCJ_TILE=%s", runs[i].tile);
    failed += run_list(e, what, &runs[i].c, 1, NULL);
    tcj_destroy(e);
  }
  return failed;
}

/* Clusters that share an operand by multicast, forced (TCJ_TILE): pairs and fours along N that
 * share A, with an odd count of tile columns (the last cluster's last CTAs have none), tile rows
 * past m, MN-major A (op_a T), C read, a fused epilogue into f32, a K split and a batch; and
 * fours along M that share B, with tile rows past the last whole cluster. */
static void operands_shared_by_clusters_along_m_and_n_match_reference(void **state) {
  (void)state;
  skip_unless_sm90();
  forced_run runs[6];
  runs[0].c = mk("130x5000x4096, 79 tile columns, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 130, 5000, 4096, 6601);
  runs[0].c.cm = C_SEPARATE;
  runs[0].c.beta = 0.5f;
  runs[0].c.alpha = scaled_alpha(4096, 0);
  runs[0].tile = "128x64x128/2x1/8/cn2";
  runs[1].c = mk("f16 96x1000x2048 op_a T op_b T, bias + gelu into f32", TCJ_F16, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 96, 1000,
                 2048, 6602);
  runs[1].c.bias = TCJ_BIAS_COL;
  runs[1].c.act = TCJ_ACT_GELU;
  runs[1].c.alpha = scaled_alpha(2048, 1);
  runs[1].tile = "128x128x128/2x1/6/cn2";
  runs[2].c = mk("64x3000x8192 op_b T, split 3", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 64, 3000, 8192, 6603);
  runs[2].c.alpha = scaled_alpha(8192, 0);
  runs[2].tile = "64x128x128/1x1/8/cn2/s3";
  runs[3].c = mk("batch of 3, 48x640x512", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 48, 640, 512, 6604);
  runs[3].c.batch = 3;
  runs[3].c.alpha = scaled_alpha(512, 1);
  runs[3].tile = "64x64x128/1x1/8/cn2";
  runs[4].c = mk("fours along N, 200x5000x3000, 79 tile columns, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 200,
                 5000, 3000, 6605);
  runs[4].c.cm = C_SEPARATE;
  runs[4].c.beta = -1;
  runs[4].c.alpha = scaled_alpha(3000, 0);
  runs[4].tile = "128x64x128/2x1/8/cn4";
  runs[5].c = mk("fours along M, 600x3000x2000, 5 tile rows, row bias + relu", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 600,
                 3000, 2000, 6606);
  runs[5].c.bias = TCJ_BIAS_ROW;
  runs[5].c.bias_type = TCJ_BF16;
  runs[5].c.act = TCJ_ACT_RELU;
  runs[5].c.alpha = scaled_alpha(2000, 1);
  runs[5].tile = "128x256x128/2x1/4/c4";
  int failed = run_on_forced_tiles(runs, NCASES(runs));
  if (failed) fail_msg("%d of %d cases with a shared operand failed (see FAIL lines above)", failed, NCASES(runs));
}

/* Three consumer warpgroups (192-row tiles, 64 rows each; TCJ_TILE forces them): tile rows past
 * m, odd k and n (the staged stores), MN-major A and B, C read, fused epilogues into f32, a K
 * split, a batch, a pair along M sharing B, and 192x64 tiles. */
static void three_consumer_tiles_match_reference(void **state) {
  (void)state;
  skip_unless_sm90();
  forced_run runs[7];
  runs[0].c = mk("1000x1000x999, 6 tile rows (the last part full)", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 1000, 1000,
                 999, 6701);
  runs[0].c.alpha = scaled_alpha(999, 0);
  runs[0].tile = GPU_SM90_THREE_CONSUMER_TILE;
  runs[1].c = mk("f16 700x640x512 op_a T, C read, into f32", TCJ_F16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 700, 640, 512, 6702);
  runs[1].c.cm = C_SEPARATE;
  runs[1].c.c_type = TCJ_F32;
  runs[1].c.beta = 0.5f;
  runs[1].c.alpha = scaled_alpha(512, 1);
  runs[1].tile = GPU_SM90_THREE_CONSUMER_TILE;
  runs[2].c = mk("2304x1536x1024 op_b T, column bias + gelu", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 2304, 1536, 1024,
                 6703);
  runs[2].c.bias = TCJ_BIAS_COL;
  runs[2].c.act = TCJ_ACT_GELU;
  runs[2].c.alpha = scaled_alpha(1024, 0);
  runs[2].tile = GPU_SM90_THREE_CONSUMER_TILE;
  runs[3].c = mk("500x300x6000 op TT, row bias + relu, split 3", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 500, 300, 6000,
                 6704);
  runs[3].c.bias = TCJ_BIAS_ROW;
  runs[3].c.bias_type = TCJ_BF16;
  runs[3].c.act = TCJ_ACT_RELU;
  runs[3].c.alpha = scaled_alpha(6000, 1);
  runs[3].tile = GPU_SM90_THREE_CONSUMER_TILE "/s3";
  runs[4].c = mk("batch of 3, 200x256x320", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 200, 256, 320, 6705);
  runs[4].c.batch = 3;
  runs[4].c.alpha = scaled_alpha(320, 0);
  runs[4].tile = GPU_SM90_THREE_CONSUMER_TILE;
  runs[5].c = mk("pairs along M, 2000x2048x1024, 11 tile rows", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 2000, 2048, 1024,
                 6706);
  runs[5].c.alpha = scaled_alpha(1024, 1);
  runs[5].tile = GPU_SM90_THREE_CONSUMER_TILE "/c2";
  runs[6].c = mk("192x64, 777x333x555", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 777, 333, 555, 6707);
  runs[6].c.alpha = scaled_alpha(555, 0);
  runs[6].tile = "192x64x128/3x1/6";
  int failed = run_on_forced_tiles(runs, NCASES(runs));
  if (failed) fail_msg("%d of %d cases on three consumers failed (see FAIL lines above)", failed, NCASES(runs));
}

/* The whole-tile TMA epilogue ("/ew"), forced: persistent CTAs whose consumers store tile after
 * tile with the previous tile's stores in flight, tile rows and columns past m and n, f32 D (four
 * boxes a row block), a batch and MN-major operands on ping-pong tiles, C read (beta: the staged
 * path after TMA tiles in one kernel), and fused epilogues on cooperative tiles, which the TMA
 * path applies from the accumulators when it stages the whole tile: column and row biases of
 * each type, every activation, tiles past m and n, and beta with a bias (staged in the same
 * kernel). */
static void whole_tile_epilogues_match_reference(void **state) {
  (void)state;
  skip_unless_sm90();
  forced_run runs[6 + 6];
  runs[0].c = mk("1000x1000x999, tiles past m and n", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 1000, 1000, 999, 6801);
  runs[0].c.alpha = scaled_alpha(999, 0);
  runs[0].tile = GPU_SM90_WHOLE_EPI_TILE;
  runs[1].c = mk("8192x4096x256, 8 tiles a CTA", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 8192, 4096, 256, 6802);
  runs[1].c.alpha = scaled_alpha(256, 1);
  runs[1].tile = GPU_SM90_WHOLE_EPI_TILE;
  runs[2].c = mk("f16 3000x2000x512 op_a T, into f32", TCJ_F16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 3000, 2000, 512, 6803);
  runs[2].c.alpha = scaled_alpha(512, 0);
  runs[2].tile = "128x128x128/2x1/3/ew";
  runs[3].c = mk("ping-pong 4100x2048x384 op TT", TCJ_BF16, TCJ_BF16, TCJ_OP_T, TCJ_OP_T, 4100, 2048, 384, 6804);
  runs[3].c.alpha = scaled_alpha(384, 1);
  runs[3].tile = GPU_SM90_WHOLE_EPI_PP_TILE;
  runs[4].c = mk("ping-pong batch of 3, 700x640x512", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 700, 640, 512, 6805);
  runs[4].c.batch = 3;
  runs[4].c.alpha = scaled_alpha(512, 0);
  runs[4].tile = GPU_SM90_WHOLE_EPI_PP_TILE;
  runs[5].c = mk("2000x3000x1024, C read", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 2000, 3000, 1024, 6806);
  runs[5].c.cm = C_SEPARATE;
  runs[5].c.beta = 0.5f;
  runs[5].c.alpha = scaled_alpha(1024, 1);
  runs[5].tile = GPU_SM90_WHOLE_EPI_TILE;
  static const struct {
    const char *what;
    tcj_dtype ab;
    tcj_op op_a, op_b;
    int64_t m, n, k;
    tcj_bias_kind bias;
    tcj_dtype bias_type;
    tcj_activation act;
    float beta; /* C read: the staged path, in the same kernel */
  } fused[] = {
    {"2304x1536x1024, column bias + gelu", TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 2304, 1536, 1024, TCJ_BIAS_COL, TCJ_F32,
     TCJ_ACT_GELU, 0},
    {"1000x1000x999, bf16 row bias + relu, tiles past m and n", TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 1000, 1000, 999,
     TCJ_BIAS_ROW, TCJ_BF16, TCJ_ACT_RELU, 0},
    {"f16 4096x2560x512 op_a T, gelu (tanh), no bias", TCJ_F16, TCJ_OP_T, TCJ_OP_N, 4096, 2560, 512, TCJ_BIAS_NONE,
     TCJ_F32, TCJ_ACT_GELU_TANH, 0},
    {"8192x4096x256, 8 tiles a CTA, f16 column bias + silu", TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 8192, 4096, 256,
     TCJ_BIAS_COL, TCJ_F16, TCJ_ACT_SILU, 0},
    {"2000x3000x1024, C read, column bias + gelu", TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 2000, 3000, 1024, TCJ_BIAS_COL,
     TCJ_F32, TCJ_ACT_GELU, 0.5f},
    {"3000x2056x777, row bias only, odd k", TCJ_BF16, TCJ_OP_T, TCJ_OP_T, 3000, 2056, 777, TCJ_BIAS_ROW, TCJ_F32,
     TCJ_ACT_NONE, 0},
  };
  for (int i = 0; i < NCASES(fused); i++) {
    forced_run *r = &runs[6 + i];
    r->c = mk(fused[i].what, fused[i].ab, fused[i].ab, fused[i].op_a, fused[i].op_b, fused[i].m, fused[i].n,
              fused[i].k, 6807 + (uint64_t)i);
    r->c.bias = fused[i].bias;
    r->c.bias_type = fused[i].bias_type;
    r->c.act = fused[i].act;
    if (fused[i].beta != 0) {
      r->c.cm = C_SEPARATE;
      r->c.beta = fused[i].beta;
    }
    r->c.alpha = scaled_alpha(fused[i].k, i);
    r->tile = GPU_SM90_WHOLE_EPI_TILE;
  }
  int failed = run_on_forced_tiles(runs, NCASES(runs));
  if (failed) fail_msg("%d of %d cases on whole-tile epilogues failed (see FAIL lines above)", failed, NCASES(runs));
}

/* Every stride nonzero and past one entry: the gaps between entries must stay poisoned. Case 1
 * pads by multiples of 16 bytes; case 2 by odd counts, so each entry has its own alignment. */
static void batch_with_padded_strides_writes_only_its_entries(void **state) {
  (void)state;
  ex_case cases[3];
  ex_case *c = &cases[0];
  *c = mk("padded strides", TCJ_F16, TCJ_F16, TCJ_OP_T, TCJ_OP_N, 40, 48, 56, 6101);
  c->batch = 4;
  c->ldd = 48 + 3;
  c->ldc = 48 + 1;
  c->c_type = TCJ_BF16;
  c->cm = C_SEPARATE;
  c->beta = 0.5f;
  c->alpha = 0.2f;
  c->bias = TCJ_BIAS_ROW;
  c->bias_type = TCJ_BF16;
  c->act = TCJ_ACT_GELU_TANH;
  c->stride_a = 56 * 40 + 16;
  c->stride_b = 56 * 48 + 24;
  c->stride_c = 40 * 49 + 40;
  c->stride_d = 40 * 51 + 8;
  c->stride_bias = 40 + 8;
  c = &cases[1];
  *c = mk("odd padded strides", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 24, 40, 72, 6102);
  c->batch = 3;
  c->cm = C_SEPARATE;
  c->beta = 1;
  c->alpha = 0.2f;
  c->bias = TCJ_BIAS_COL;
  c->act = TCJ_ACT_SILU;
  c->stride_a = 24 * 72 + 3;
  c->stride_b = 72 * 40 + 5;
  c->stride_c = 24 * 40 + 1;
  c->stride_d = 24 * 40 + 1;
  c->stride_bias = 40 + 1;
  c = &cases[2];
  *c = mk("padded strides, tf32", TCJ_TF32, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 36, 20, 44, 6103);
  c->batch = 2;
  c->bias = TCJ_BIAS_ROW;
  c->act = TCJ_ACT_GELU;
  c->alpha = 0.25f;
  c->stride_a = 44 * 36 + 4;
  c->stride_b = 20 * 44 + 12;
  c->stride_d = 36 * 20 + 36;
  c->stride_bias = 36 + 4;
  RUN_CASES(g_eng, "padded strides", cases, NCASES(cases));
}

/* batch_count 0 and 1 are one GEMM whatever the strides: D's allocation has room for a second
 * entry, which must stay poisoned. */
static void batch_count_0_and_1_run_one_gemm(void **state) {
  (void)state;
  ex_case cases[2];
  for (int i = 0; i < 2; i++) {
    ex_case c = mk(i ? "batch_count 1" : "batch_count 0", TCJ_BF16, TCJ_BF16, (tcj_op)i, TCJ_OP_N, 48, 40, 64,
                   6201 + (uint64_t)i);
    c.batch = i;
    c.extra_d_entries = 1;
    c.stride_d = 48 * 40 + 8;
    c.cm = C_SEPARATE;
    c.beta = 0.5f;
    c.alpha = 0.25f;
    c.bias = TCJ_BIAS_COL;
    c.act = TCJ_ACT_RELU;
    cases[i] = c;
  }
  RUN_CASES(g_eng, "batch_count 0 and 1", cases, NCASES(cases));
}

static void batch_of_64_entries_of_64_cubed(void **state) {
  (void)state;
  ex_case c = mk("64 x 64^3", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 64, 6301);
  c.batch = 64;
  c.bias = TCJ_BIAS_COL;
  c.bias_type = TCJ_BF16;
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.2f;
  RUN_CASES(g_eng, "64 x 64^3", &c, 1);
}

/* Many small entries: 3000 (more CTAs than one grid row) and 66000 (past 65535, the limit of
 * a grid's y and z): the batch must be folded into the grid. */
static void large_batch_counts_fold_the_grid(void **state) {
  (void)state;
  ex_case cases[2];
  cases[0] = mk("3000 x 16^3", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 16, 16, 16, 6401);
  cases[0].batch = 3000;
  cases[0].bias = TCJ_BIAS_ROW;
  cases[0].bias_type = TCJ_F16;
  cases[0].act = TCJ_ACT_RELU;
  cases[0].cm = C_SEPARATE;
  cases[0].beta = 1;
  cases[1] = mk("66000 x 16^3", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 16, 16, 16, 6402);
  cases[1].batch = 66000;
  cases[1].stride_b = 0;
  cases[1].bias = TCJ_BIAS_COL;
  cases[1].stride_bias = 0;
  cases[1].act = TCJ_ACT_SILU;
  cases[1].alpha = 0.375f;
  RUN_CASES(g_eng, "large batch counts", cases, NCASES(cases));
}

static void batch_in_place_updates_every_entry(void **state) {
  (void)state;
  ex_case cases[2];
  cases[0] = mk("batch in place, d NULL", TCJ_BF16, TCJ_BF16, TCJ_OP_T, TCJ_OP_N, 60, 32, 48, 6501);
  cases[0].batch = 3;
  cases[0].cm = C_INPLACE_NULL_D;
  cases[0].stride_c = 60 * 32 + 8;
  cases[0].beta = 1;
  cases[0].alpha = 0.25f;
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].act = TCJ_ACT_RELU;
  cases[1] = mk("batch in place, d == c", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 20, 24, 100, 6502);
  cases[1].batch = 5;
  cases[1].cm = C_INPLACE_SAME;
  cases[1].ldc = 24 + 1;
  cases[1].beta = -0.5f;
  cases[1].alpha = 0.15f;
  cases[1].bias = TCJ_BIAS_ROW;
  cases[1].bias_type = TCJ_BF16;
  cases[1].act = TCJ_ACT_GELU;
  RUN_CASES(g_eng, "batch in place", cases, NCASES(cases));
}

/* ---- 4. user epilogues ------------------------------------------------------------------ */

static ex_case residual_case(uint64_t seed) {
  ex_case c = mk("residual", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 96, 80, 64, seed);
  c.user = USER_RESIDUAL;
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.2f;
  return c;
}

static void run_user_cases(const char *what, const ex_case *cases, int n) {
  int refused = 0;
  int failed = run_list(g_eng, what, cases, n, &refused);
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, n);
  if (refused) {
    print_message("user epilogues refused with NOT_SUPPORTED: no NVRTC here\n");
    skip();
  }
}

/* v + res[...]: a tensor read through params (a device struct), per batch entry. */
static void user_epilogue_adds_a_residual_read_through_params(void **state) {
  (void)state;
  ex_case cases[2];
  cases[0] = residual_case(7001);
  cases[0].batch = 2;
  cases[1] = residual_case(7002);
  cases[1].what = "residual, f32 D, C read";
  cases[1].d_type = TCJ_F32;
  cases[1].c_type = TCJ_F32;
  cases[1].cm = C_SEPARATE;
  cases[1].beta = 0.5f;
  cases[1].ldd = 80 + 3;
  cases[1].act = TCJ_ACT_NONE;
  cases[1].bias = TCJ_BIAS_ROW;
  run_user_cases("user epilogue: residual", cases, NCASES(cases));
}

/* The c, row, col and batch arguments: c is C's value when C is read and 0 when not (C then
 * holds NaN). */
static void user_epilogue_sees_c_row_col_and_batch(void **state) {
  (void)state;
  ex_case cases[3];
  for (int i = 0; i < 3; i++) {
    ex_case c = mk(i == 0 ? "c/row/col/batch, C read" : i == 1 ? "c/row/col/batch, beta 0" : "c/row/col, in place",
                   TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 70, 48, 40, 7101 + (uint64_t)i);
    c.user = USER_C_INDEX;
    c.batch = i < 2 ? 2 : 0;
    c.alpha = 0.25f;
    c.cm = i < 2 ? C_SEPARATE : C_INPLACE_NULL_D;
    c.c_type = i < 2 ? TCJ_F32 : TCJ_F16;
    c.beta = i == 1 ? 0 : 0.5f;
    c.act = i == 2 ? TCJ_ACT_RELU : TCJ_ACT_NONE;
    cases[i] = c;
  }
  run_user_cases("user epilogue: arguments", cases, NCASES(cases));
}

/* A syntax error: TCJ_ERROR_COMPILE, NVRTC's log (with "epilogue.cu(line)") in the message,
 * D untouched; the engine still works afterwards. */
static void user_epilogue_syntax_error_returns_compile_error_with_line(void **state) {
  (void)state;
  char msg[MSG_SIZE];
  ex_case c = residual_case(7201);
  c.user = USER_BAD;
  ex_run r;
  if (!prepare(&r, &c, g_stream, msg, sizeof msg)) fail_msg("%s", msg);
  tcj_gemm_desc d;
  make_desc(&r, &d);
  tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_stream);
  const char *why = tcj_last_error(g_eng);
  char copy[2048];
  snprintf(copy, sizeof copy, "%s", why ? why : "");
  if (st == TCJ_ERROR_NOT_SUPPORTED) {
    run_free(&r);
    print_message("user epilogue not supported (no NVRTC?): %s\n", copy);
    skip();
  }
  printf("  syntax error -> %s: %s\n", tcj_status_string(st), copy);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  assert_int_equal(cudaMemcpy(r.d.after, r.d.dev, r.d.bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  int untouched = memcmp(r.d.after, r.d.before, r.d.bytes) == 0;
  run_free(&r);
  if (st != TCJ_ERROR_COMPILE) fail_msg("want TCJ_ERROR_COMPILE, got %s: %s", tcj_status_string(st), copy);
  if (!strstr(copy, "epilogue.cu(")) fail_msg("the message lacks NVRTC's \"epilogue.cu(<line>)\": %s", copy);
  if (!strstr(copy, "epilogue.cu(3)"))
    printf("  note: the error is on line 3 of the source, the message does not say \"epilogue.cu(3)\"\n");
  if (!untouched) fail_msg("a call that failed to compile wrote to D");
  ex_case ok = residual_case(7202);
  run_user_cases("valid user epilogue after a compile error", &ok, 1);
}

/* One kernel per source and shape: a second call compiles nothing; a second engine on the same
 * cache directory loads it from disk (the key holds the source's hash). */
static void user_epilogue_compiles_once_and_is_served_from_disk(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-gemm-ex-cache-XXXXXX";
  assert_non_null(mkdtemp(dir));
  int disk = !disk_cache_disabled();
  char msg[MSG_SIZE];
  int failed = 0, refused = 0;
  uint64_t compiles[2] = {0, 0}, disk_hits[2] = {0, 0}, memory_hits = 0;
  double worst = 0;
  for (int round = 0; round < 2 && !failed && !refused; round++) {
    tcj_options o = TCJ_OPTIONS_INIT;
    o.cache_dir = dir;
    tcj_engine *e = NULL;
    tcj_status st = tcj_create(&e, &o);
    if (st != TCJ_SUCCESS) {
      printf("  FAIL tcj_create: %s\n", tcj_last_error(NULL));
      failed++;
      break;
    }
    for (int call = 0; call < (round == 0 ? 2 : 1); call++) {
      ex_case c = residual_case(7301 + 10 * (uint64_t)round + (uint64_t)call);
      int ok = run_case(e, &c, &worst, msg, sizeof msg);
      if (ok == -1) {
        refused = 1;
        break;
      }
      if (!ok) {
        printf("  FAIL round %d call %d: %s\n", round, call, msg);
        failed++;
      }
    }
    tcj_stats s = TCJ_STATS_INIT;
    assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
    compiles[round] = s.compiles;
    disk_hits[round] = s.disk_hits;
    if (round == 0) memory_hits = s.memory_hits;
    /* compile_ns: NVRTC, the join, the kernel's compile and load of the cold first call (a
     * figure for the log, not a check: timings never decide a test). */
    printf("  engine %d: compiles=%llu disk_hits=%llu memory_hits=%llu bad_entries=%llu compile %.1f ms\n", round + 1,
           (unsigned long long)s.compiles, (unsigned long long)s.disk_hits, (unsigned long long)s.memory_hits,
           (unsigned long long)s.bad_entries, (double)s.compile_ns / 1e6);
    tcj_destroy(e);
  }
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("  note: could not remove %s\n", dir);
  if (refused) {
    print_message("user epilogue not supported (no NVRTC?): %s\n", msg);
    skip();
  }
  printf("  user epilogue cache: worst |err|/bound %.3f\n", worst);
  if (failed) fail_msg("%d user epilogue runs failed (see FAIL lines above)", failed);
  if (compiles[0] != 1)
    fail_msg("two calls of one user epilogue kernel compiled %llu times, want 1", (unsigned long long)compiles[0]);
  if (memory_hits < 1) fail_msg("the second call was not served by the loaded kernel (memory_hits 0)");
  if (!disk) {
    print_message("TCJ_CACHE_DISABLE is set: the disk half is not checked\n");
    return;
  }
  if (compiles[1] != 0 || disk_hits[1] == 0)
    fail_msg("a second engine on the same cache dir compiled %llu kernels with %llu disk hits, want 0 and > 0",
             (unsigned long long)compiles[1], (unsigned long long)disk_hits[1]);
}

/* ---- 5. device alpha / beta -------------------------------------------------------------- */

/* One call with alpha_ptr and beta_ptr captured into a graph, replayed with new scalars each
 * time (set with copies between replays). beta 0 replays put NaN into C: it must not be read.
 * In place, C is restored before every replay. */
static void graph_replays(ex_case c, const char *what) {
  static const float scal[3][2] = {{1, 0}, {0.5f, 1}, {-2, 0.25f}};
  char msg[MSG_SIZE];
  double worst = 0;
  int failed = 0;
  ex_run r;
  c.dev_alpha = c.dev_beta = 1;
  c.alpha = 0.75f; /* the eager run's scalars */
  c.beta = 0.5f;
  if (!prepare(&r, &c, g_stream, msg, sizeof msg)) fail_msg("%s", msg);
  tcj_gemm_desc d;
  make_desc(&r, &d);
  /* Eager first: it loads the kernel, which a capture must not do. */
  tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_stream);
  if (st != TCJ_SUCCESS) {
    failf(msg, sizeof msg, &r.c, "eager tcj_gemm_ex: %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
    run_free(&r);
    fail_msg("%s", msg);
  }
  if (!verify(&r, g_stream, &worst, msg, sizeof msg)) {
    printf("  FAIL eager: %s\n", msg);
    failed++;
  }
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  assert_int_equal(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  st = tcj_gemm_ex(g_eng, &d, (CUstream)g_stream);
  cudaError_t ce = cudaStreamEndCapture(g_stream, &graph);
  if (st != TCJ_SUCCESS || ce != cudaSuccess) {
    printf("  FAIL capture: tcj_gemm_ex %s (%s), end capture %s\n", tcj_status_string(st),
           st ? tcj_last_error(g_eng) : "", cudaGetErrorName(ce));
    if (graph) cudaGraphDestroy(graph);
    run_free(&r);
    fail_msg("%s: the call could not be captured", what);
  }
  assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int rep = 0; rep < 3; rep++) {
    r.c.alpha = scal[rep][0];
    r.c.beta = scal[rep][1];
    set_images(&r); /* D poisoned; C (in place: D) with values, or NaN where beta is 0 */
    cudaError_t e = upload(&r, g_stream);
    if (!e) e = cudaGraphLaunch(exec, g_stream);
    if (e) {
      printf("  FAIL replay %d: %s\n", rep, cudaGetErrorName(e));
      failed++;
      continue;
    }
    if (!verify(&r, g_stream, &worst, msg, sizeof msg)) {
      printf("  FAIL replay %d (alpha %g, beta %g): %s\n", rep, r.c.alpha, r.c.beta, msg);
      failed++;
    }
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  run_free(&r);
  printf("  %s: eager + 3 replays, %d failed, worst |err|/bound %.3f\n", what, failed, worst);
  if (failed) fail_msg("%s: %d runs failed (see FAIL lines above)", what, failed);
}

static void device_alpha_beta_follow_every_graph_replay(void **state) {
  (void)state;
  ex_case c = mk("graph, D apart", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 128, 96, 64, 8001);
  c.c_type = TCJ_F32;
  c.cm = C_SEPARATE;
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_GELU;
  graph_replays(c, "graph replays, D apart from C");
}

static void device_alpha_beta_in_place_graph_replays_with_c_restored(void **state) {
  (void)state;
  ex_case c = mk("graph, in place", TCJ_F16, TCJ_F16, TCJ_OP_T, TCJ_OP_N, 72, 64, 48, 8101);
  c.cm = C_INPLACE_NULL_D;
  c.bias = TCJ_BIAS_ROW;
  c.bias_type = TCJ_F16;
  c.act = TCJ_ACT_GELU;
  graph_replays(c, "graph replays, in place");
}

/* Without a graph: alpha_ptr (and beta_ptr) win over the fields, which hold 1000 and -777. */
static void device_alpha_ptr_overrides_the_alpha_field(void **state) {
  (void)state;
  ex_case cases[3];
  cases[0] = mk("alpha_ptr, beta_ptr", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 64, 48, 56, 8201);
  cases[0].dev_alpha = cases[0].dev_beta = 1;
  cases[0].alpha = 0.5f;
  cases[0].beta = 0.25f;
  cases[0].cm = C_SEPARATE;
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].act = TCJ_ACT_RELU;
  cases[1] = mk("alpha_ptr, C NULL", TCJ_F16, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 40, 40, 40, 8202);
  cases[1].dev_alpha = 1;
  cases[1].alpha = -0.75f;
  cases[2] = mk("beta_ptr 0, C NaN", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 50, 24, 64, 8203);
  cases[2].dev_beta = 1;
  cases[2].beta = 0; /* through the pointer: C is given, holds NaN and must not be read */
  cases[2].cm = C_SEPARATE;
  cases[2].alpha = 0.5f;
  cases[2].bias = TCJ_BIAS_ROW;
  cases[2].act = TCJ_ACT_SILU;
  RUN_CASES(g_eng, "device scalars", cases, NCASES(cases));
}

/* ---- 6. recipes and split-K --------------------------------------------------------------- */


/* The representative subset: bf16 NT bias col + gelu, f16 NN bias row + silu, tf32 NT bias +
 * relu (sm80 only: the sm90 recipe takes 16-bit operands), a deep-K case, a batch, in place. */
static int forced_cases(ex_case *cases, int sm90) {
  int n = 0;
  ex_case c = mk("bf16 NT col+gelu", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 200, 136, 72, 9001);
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.2f;
  c.ldd = 136 + 3;
  cases[n++] = c;
  c = mk("f16 NN row+silu", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 257, 200, 130, 9002);
  c.bias = TCJ_BIAS_ROW;
  c.bias_type = TCJ_F16;
  c.act = TCJ_ACT_SILU;
  c.alpha = 0.15f;
  c.cm = C_SEPARATE;
  c.c_type = TCJ_BF16;
  c.beta = -0.5f;
  cases[n++] = c;
  if (!sm90) {
    c = mk("tf32 NT bias+relu", TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 129, 72, 100, 9003);
    c.bias = TCJ_BIAS_COL;
    c.act = TCJ_ACT_RELU;
    cases[n++] = c;
  }
  c = mk("bf16 deep K col+gelu", TCJ_BF16, TCJ_BF16, TCJ_OP_T, TCJ_OP_N, 128, 256, 8192, 9004);
  c.bias = TCJ_BIAS_COL;
  c.bias_type = TCJ_BF16;
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.02f;
  c.cm = C_SEPARATE;
  c.c_type = TCJ_F32;
  c.beta = 1;
  cases[n++] = c;
  c = mk("bf16 batch row+gelu_tanh", TCJ_BF16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 130, 128, 64, 9005);
  c.batch = 3;
  c.stride_b = 0;
  c.bias = TCJ_BIAS_ROW;
  c.act = TCJ_ACT_GELU_TANH;
  c.alpha = 0.2f;
  cases[n++] = c;
  c = mk("f16 in place col+relu", TCJ_F16, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 192, 136, 96, 9006);
  c.cm = C_INPLACE_NULL_D;
  c.beta = 0.5f;
  c.alpha = 0.2f;
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_RELU;
  cases[n++] = c;
  return n;
}

static void run_forced(const char *recipe) {
  int sm90 = strcmp(recipe, "sm90") == 0;
  if (sm90 && !(g_cc_major == 9 && g_cc_minor == 0)) {
    print_message("the sm90 recipe needs compute capability 9.0; this GPU is %d.%d\n", g_cc_major, g_cc_minor);
    skip();
  }
  tcj_engine *e = gpu_engine_under(recipe);
  if (!e) fail_msg("tcj_create with TCJ_RECIPE=%s failed", recipe);
  ex_case cases[8];
  int n = forced_cases(cases, sm90);
  char what[64];
  snprintf(what, sizeof what, "TCJ_RECIPE=%s epilogues", recipe);
  int failed = run_list(e, what, cases, n, NULL);
  tcj_destroy(e);
  if (sm90) printf("  (tf32 is not run under TCJ_RECIPE=sm90: that recipe takes f16 and bf16 only)\n");
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, n);
}

static void forced_sm80_recipe_epilogues_match_reference(void **state) {
  (void)state;
  run_forced("sm80");
}

static void forced_sm90_recipe_epilogues_match_reference(void **state) {
  (void)state;
  run_forced("sm90");
}

/* Every sm90 tile shape a fused epilogue may run on, forced with TCJ_TILE: ping-pong consumers
 * (whose fused epilogue stores D through TMA when beta is 0), cooperative ones (staged), one
 * and two 64-row blocks per consumer; beta 0 and beta != 0 take the two store paths. */
static int tile_cases(ex_case *cases) {
  int n = 0;
  ex_case c = mk("bf16 NT col+gelu beta 0", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 300, 520, 200, 9201);
  c.bias = TCJ_BIAS_COL;
  c.bias_type = TCJ_BF16;
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.1f;
  cases[n++] = c;
  c = mk("f16 NN row+silu f32 D, C bf16", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 257, 264, 136, 9202);
  c.bias = TCJ_BIAS_ROW;
  c.bias_type = TCJ_F16;
  c.act = TCJ_ACT_SILU;
  c.alpha = 0.15f;
  c.cm = C_SEPARATE;
  c.c_type = TCJ_BF16;
  c.beta = -0.5f;
  cases[n++] = c;
  c = mk("bf16 TN col+gelu_tanh f32 D beta 0", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 200, 392, 64, 9203);
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_GELU_TANH;
  c.alpha = 0.2f;
  cases[n++] = c;
  c = mk("f16 TT row+relu in place", TCJ_F16, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 136, 320, 72, 9204);
  c.bias = TCJ_BIAS_ROW;
  c.act = TCJ_ACT_RELU;
  c.cm = C_INPLACE_NULL_D;
  c.beta = 0.75f;
  cases[n++] = c;
  c = mk("bf16 NN gelu no bias, D apart beta 0", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 130, 260, 128, 9205);
  c.act = TCJ_ACT_GELU;
  c.alpha = 0.2f;
  cases[n++] = c;
  return n;
}

static void forced_sm90_tiles_run_every_fused_epilogue(void **state) {
  (void)state;
  skip_unless_sm90();
  static const char *const tiles[] = {"64x256x128/2x1/4/pp", "128x256x128/2x1/4", "256x128x128/2x1/4",
                                      "128x192x128/2x1/4", "64x128x128/1x1/6"};
  int failed = 0, total = 0;
  for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
    tcj_engine *e = forced_sm90_engine(tiles[t]);
    ex_case cases[8];
    int n = tile_cases(cases);
    char what[96];
    snprintf(what, sizeof what, "TCJ_TILE=%s fused epilogues", tiles[t]);
    failed += run_list(e, what, cases, n, NULL);
    total += n;
    tcj_destroy(e);
  }
  if (failed) fail_msg("%d of %d forced-tile cases failed (see FAIL lines above)", failed, total);
}

/* Deep K over few tiles: split-K sums fp32 partials, then applies beta * C, the bias and the
 * activation once, after the reduction: the same bound as one pass. The scratch sizes are
 * printed to show whether a split was taken (tcj.h does not promise one). */
static void split_k_applies_the_epilogue_once(void **state) {
  (void)state;
  ex_case cases[3];
  cases[0] = mk("split-K col+gelu", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 64, 64, 8192, 9101);
  cases[0].bias = TCJ_BIAS_COL;
  cases[0].act = TCJ_ACT_GELU;
  cases[0].alpha = 0.02f;
  cases[0].cm = C_SEPARATE;
  cases[0].c_type = TCJ_F32;
  cases[0].beta = 0.5f;
  cases[1] = mk("split-K row+silu", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 8192, 9102);
  cases[1].bias = TCJ_BIAS_ROW;
  cases[1].bias_type = TCJ_F16;
  cases[1].act = TCJ_ACT_SILU;
  cases[1].alpha = 0.02f;
  cases[2] = mk("split-K in place relu", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 32, 64, 12000, 9103);
  cases[2].cm = C_INPLACE_SAME;
  cases[2].beta = 1;
  cases[2].bias = TCJ_BIAS_COL;
  cases[2].act = TCJ_ACT_RELU;
  cases[2].alpha = 0.02f;
  for (int i = 0; i < NCASES(cases); i++) {
    char msg[MSG_SIZE];
    ex_run r;
    if (!prepare(&r, &cases[i], g_stream, msg, sizeof msg)) fail_msg("%s", msg);
    tcj_gemm_desc d;
    make_desc(&r, &d);
    size_t ex_bytes = 0, plain_bytes = 0;
    tcj_status s1 = tcj_gemm_ex_workspace_size(g_eng, &d, &ex_bytes);
    tcj_status s2 = tcj_gemm_workspace_size(g_eng, d.op_a, d.op_b, d.m, d.n, d.k, d.a, d.a_type, d.lda, d.b, d.b_type,
                                            d.ldb, d.d ? d.d : d.c, r.dt, d.d ? d.ldd : d.ldc, &plain_bytes);
    printf("  %s: scratch %zu bytes (%s; plain tcj_gemm %zu bytes)\n", cases[i].what, ex_bytes,
           s1 == TCJ_SUCCESS ? (ex_bytes ? "split or packed" : "one pass") : tcj_last_error(g_eng),
           s2 == TCJ_SUCCESS ? plain_bytes : 0);
    if (s1 != TCJ_SUCCESS) {
      run_free(&r);
      fail_msg("tcj_gemm_ex_workspace_size: %s", tcj_status_string(s1));
    }
    run_free(&r);
  }
  RUN_CASES(g_eng, "split-K epilogues", cases, NCASES(cases));
}

/* A pitch TMA cannot encode: ldc = 2^40 elements, so only row 0 of C exists (m = 1). The sm90
 * plan stores D through its staged path instead of failing with TCJ_ERROR_INTERNAL ("TMA cannot
 * address C", seen on an H200), beta 0 and 0.5, in place; specialised (sync) and generic
 * (async's first call) kernels. */
static void a_pitch_tma_cannot_encode_is_stored_staged(void **state) {
  (void)state;
  ex_case cases[2];
  for (int i = 0; i < 2; i++) {
    cases[i] = mk("ldc 2^40", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 1, 16896, 16384, 15300 + (uint64_t)i);
    cases[i].ldc = (int64_t)1 << 40;
    cases[i].cm = C_INPLACE_NULL_D;
    cases[i].beta = i ? 0.5f : 0.0f;
    cases[i].alpha = scaled_alpha(cases[i].k, i);
  }
  static const int modes[] = {TCJ_JIT_SYNC, TCJ_JIT_ASYNC};
  for (int j = 0; j < 2; j++) {
    tcj_options o = TCJ_OPTIONS_INIT;
    o.jit_mode = modes[j];
    o.disable_disk_cache = 1;
    tcj_engine *e = NULL;
    assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
    int failed = run_list(e, j ? "ldc 2^40 (async)" : "ldc 2^40 (sync)", cases, 2, NULL);
    tcj_destroy(e);
    if (failed) fail_msg("ldc 2^40: %d of 2 cases failed (see FAIL lines above)", failed);
  }
}

/* ---- generic kernels (TCJ_JIT_GENERIC) ----------------------------------------------------- */

/* An engine that runs generic kernels only, with no disk cache (its compile count is this
 * test's); recipe "sm80", "sm90" or NULL (selection's). A failed test when it cannot be made. */
static tcj_engine *generic_engine(const char *recipe) {
  if (recipe) setenv("TCJ_RECIPE", recipe, 1);
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_GENERIC;
  o.disable_disk_cache = 1;
  tcj_engine *e = NULL;
  tcj_status st = tcj_create(&e, &o);
  if (recipe) unsetenv("TCJ_RECIPE");
  if (st != TCJ_SUCCESS) fail_msg("tcj_create (generic%s%s): %s", recipe ? ", TCJ_RECIPE=" : "", recipe ? recipe : "",
                                  tcj_last_error(NULL));
  return e;
}

/* Edge shapes (m, n or k of 1, none a multiple of a tile, k below one K tile), every op pair,
 * every type, fused epilogues, C read, in place, padded and odd leading dimensions, a batch:
 * the cases a specialised kernel decides at compile time and a generic one at run time. */
static int generic_cases(ex_case *cases) {
  /* Odd n too: D's pairs and vectors are a class a generic kernel must not assume. */
  static const int64_t shapes[][3] = {{1, 8, 40},     {77, 9, 100},    {129, 40, 200},   {33, 263, 24},
                                      {31, 56, 1},    {200, 137, 72},  {700, 600, 700},  {1000, 521, 520},
                                      {300, 1000, 13}, {5, 4095, 4097}};
  static const tcj_dtype types[] = {TCJ_BF16, TCJ_F16, TCJ_TF32, TCJ_S8};
  int n = 0;
  for (int i = 0; i < NCASES(shapes); i++)
    for (int t = 0; t < NCASES(types); t++) {
      tcj_dtype ab = types[t];
      tcj_dtype d = ab == TCJ_TF32 ? TCJ_F32 : ab == TCJ_S8 ? TCJ_S32 : ab;
      ex_case c = mk("generic", ab, d, (tcj_op)((i + t) & 1), (tcj_op)(((i + t) >> 1) & 1), shapes[i][0],
                     shapes[i][1], shapes[i][2], 12000 + 10 * (uint64_t)i + (uint64_t)t);
      c.alpha = ab == TCJ_S8 ? 1.0f : scaled_alpha(c.k, i);
      if ((i + t) % 3 == 1) { /* a column bias, an activation, C read */
        c.bias = TCJ_BIAS_COL;
        c.act = ab == TCJ_S8 ? TCJ_ACT_RELU : TCJ_ACT_GELU;
        c.cm = C_SEPARATE;
        c.beta = ab == TCJ_S8 ? 2.0f : -0.5f;
      } else if ((i + t) % 3 == 2) { /* in place, a row bias */
        c.cm = C_INPLACE_NULL_D;
        c.beta = ab == TCJ_S8 ? 1.0f : 0.75f;
        c.bias = TCJ_BIAS_ROW;
      }
      apply_layout(&c, i + t);
      cases[n++] = c;
    }
  ex_case c = mk("generic batch", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 130, 200, 72, 12999);
  c.batch = 3;
  c.stride_b = 0;
  c.bias = TCJ_BIAS_COL;
  c.act = TCJ_ACT_SILU;
  c.alpha = 0.2f;
  cases[n++] = c;
  return n;
}

static void run_generic(const char *recipe, const char *what) {
  tcj_engine *e = generic_engine(recipe);
  ex_case cases[64];
  int n = generic_cases(cases), kept = 0;
  /* Forced onto the sm90 recipe: the 16-bit cases with k of a few elements or more (what the
   * forced specialised tests run there too); tf32 and s8 reach it through selection above. */
  int sm90 = recipe && strcmp(recipe, "sm90") == 0;
  for (int i = 0; i < n; i++)
    if (!sm90 || ((cases[i].ab == TCJ_BF16 || cases[i].ab == TCJ_F16) && cases[i].k >= 8)) cases[kept++] = cases[i];
  int failed = run_list(e, what, cases, kept, NULL);
  tcj_destroy(e);
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, kept);
}

static void generic_kernels_match_reference_on_edge_shapes(void **state) {
  (void)state;
  run_generic(NULL, "generic kernels (selected recipe)");
  run_generic("sm80", "generic kernels (TCJ_RECIPE=sm80)");
  if (g_cc_major == 9 && g_cc_minor == 0) run_generic("sm90", "generic kernels (TCJ_RECIPE=sm90)");
}

/* A generic kernel serves every n and k of its class: shapes that differ in n and k only (one
 * alignment class, 16-byte rows) compile a few kernels (tiles), and a second pass none. A
 * specialised engine compiles one per shape (checked too, so the count means what it says). */
static void generic_kernels_serve_new_shapes_without_compiling(void **state) {
  (void)state;
  ex_case cases[24];
  for (int i = 0; i < NCASES(cases); i++) {
    /* Up to 615 x 776 x 760: past 2^28 multiply-adds (the sm90 recipe) and small enough for
     * the float64 reference. */
    int64_t m = 40 + 25 * i, n = 8 * (5 + 4 * i), k = 8 * (3 + 4 * i);
    cases[i] = mk("one class", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, m, n, k, 13000 + (uint64_t)i);
    cases[i].alpha = scaled_alpha(k, i);
  }
  tcj_engine *e = generic_engine(NULL);
  tcj_stats s0 = TCJ_STATS_INIT, s1 = TCJ_STATS_INIT, s2 = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s0), TCJ_SUCCESS);
  int failed = run_list(e, "generic: 24 shapes of one class", cases, NCASES(cases), NULL);
  assert_int_equal(tcj_get_stats(e, &s1), TCJ_SUCCESS);
  failed += run_list(e, "generic: the same shapes again", cases, NCASES(cases), NULL);
  assert_int_equal(tcj_get_stats(e, &s2), TCJ_SUCCESS);
  tcj_destroy(e);
  printf("  generic: %llu kernels compiled for %d shapes, %llu on the second pass\n",
         (unsigned long long)(s1.compiles - s0.compiles), NCASES(cases), (unsigned long long)(s2.compiles - s1.compiles));
  if (failed) fail_msg("generic shapes: %d failures (see FAIL lines above)", failed);
  /* Recipes (sm80 below 2^28 multiply-adds, sm90 above) times their generic tiles. */
  assert_true(s1.compiles - s0.compiles <= 6);
  assert_int_equal(s2.compiles - s1.compiles, 0);

  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC;
  o.disable_disk_cache = 1;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  assert_int_equal(tcj_get_stats(e, &s0), TCJ_SUCCESS);
  failed = run_list(e, "specialised: the same shapes", cases, 6, NULL);
  assert_int_equal(tcj_get_stats(e, &s1), TCJ_SUCCESS);
  tcj_destroy(e);
  if (failed) fail_msg("specialised shapes: %d failures", failed);
  assert_int_equal(s1.compiles - s0.compiles, 6);
}

/* Generic kernels take their K split at launch (p_slices): deep K against few tiles splits into
 * the workspace and the reduction, with odd n, fused epilogues, C read and in place, every op
 * pair; then forced counts 1 (no split) to 7 on one class run one kernel, compiled once. */
static void generic_kernels_split_k_at_launch(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {{1, 8, 8192}, {16, 520, 16384}, {64, 263, 12000}, {7, 1000, 30000},
                                      {130, 136, 20000}, {33, 72, 9000}};
  static const tcj_dtype types[] = {TCJ_BF16, TCJ_F16, TCJ_TF32};
  ex_case cases[NCASES(shapes) * NCASES(types)];
  int n = 0;
  for (int i = 0; i < NCASES(shapes); i++)
    for (int t = 0; t < NCASES(types); t++) {
      tcj_dtype ab = types[t], d = ab == TCJ_TF32 ? TCJ_F32 : ab;
      ex_case c = mk("generic split", ab, d, (tcj_op)((i + t) & 1), (tcj_op)(((i + t) >> 1) & 1), shapes[i][0],
                     shapes[i][1], shapes[i][2], 14000 + 10 * (uint64_t)i + (uint64_t)t);
      c.alpha = scaled_alpha(c.k, i);
      if ((i + t) % 3 == 1) {
        c.bias = TCJ_BIAS_COL;
        c.act = TCJ_ACT_GELU;
        c.cm = C_SEPARATE;
        c.beta = -0.5f;
      } else if ((i + t) % 3 == 2) {
        c.cm = C_INPLACE_NULL_D;
        c.beta = 0.75f;
      }
      cases[n++] = c;
    }
  const char *recipes[] = {NULL, "sm80", "sm90"};
  for (int r = 0; r < 3; r++) {
    if (r == 2 && !(g_cc_major == 9 && g_cc_minor == 0)) continue;
    tcj_engine *e = generic_engine(recipes[r]);
    char what[64];
    snprintf(what, sizeof what, "generic split (%s)", recipes[r] ? recipes[r] : "selected recipe");
    int failed = run_list(e, what, cases, n, NULL);
    tcj_destroy(e);
    if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, n);
  }

  /* One class, forced slice counts: engines sharing a cache directory compile its kernel once. */
  char dir[] = "/tmp/tcj_generic_split_XXXXXX";
  assert_non_null(mkdtemp(dir));
  int sm90 = g_cc_major == 9 && g_cc_minor == 0;
  uint64_t compiles = 0;
  for (int s = 1; s <= 7; s++) {
    char tile[64];
    snprintf(tile, sizeof tile, sm90 ? "64x128x128/1x1/8/s%d" : "64x64x64/2x2/4/s%d", s);
    setenv("TCJ_RECIPE", sm90 ? "sm90" : "sm80", 1);
    setenv("TCJ_TILE", tile, 1);
    tcj_options o = TCJ_OPTIONS_INIT;
    o.jit_mode = TCJ_JIT_GENERIC;
    o.cache_dir = dir;
    tcj_engine *e = NULL;
    tcj_status st = tcj_create(&e, &o);
    unsetenv("TCJ_RECIPE");
    unsetenv("TCJ_TILE");
    if (st != TCJ_SUCCESS) fail_msg("tcj_create (generic, TCJ_TILE=%s): %s", tile, tcj_last_error(NULL));
    ex_case c = mk("forced slices", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 100, 200, 7000, 14500 + (uint64_t)s);
    c.alpha = scaled_alpha(c.k, s);
    c.cm = C_SEPARATE;
    c.beta = 0.5f;
    char what[96];
    snprintf(what, sizeof what, "generic, TCJ_TILE=%s", tile);
    int failed = run_list(e, what, &c, 1, NULL);
    tcj_stats st_e = TCJ_STATS_INIT;
    assert_int_equal(tcj_get_stats(e, &st_e), TCJ_SUCCESS);
    compiles += st_e.compiles;
    tcj_destroy(e);
    if (failed) fail_msg("generic, TCJ_TILE=%s: wrong result", tile);
  }
  printf("  generic split: forced slice counts 1..7 compiled %llu kernel(s)\n", (unsigned long long)compiles);
  if (!disk_cache_disabled()) assert_int_equal(compiles, 1); /* else each engine compiles its own */
  remove_tree(dir);
}

/* ---- TCJ_JIT_ASYNC: generic kernels at once, specialised ones from the background -------- */

static tcj_engine *async_engine(const char *cache_dir) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_ASYNC;
  o.cache_dir = cache_dir;
  o.disable_disk_cache = cache_dir == NULL;
  tcj_engine *e = NULL;
  if (tcj_create(&e, &o) != TCJ_SUCCESS) fail_msg("tcj_create (async): %s", tcj_last_error(NULL));
  return e;
}

static tcj_stats stats_of(tcj_engine *e) {
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  return s;
}

/* Waits (up to a minute) until the background worker has made `swaps` kernels ready. */
static tcj_stats wait_for_swaps(tcj_engine *e, uint64_t swaps) {
  tcj_stats s = stats_of(e);
  for (int i = 0; i < 600 && s.swaps < swaps; i++) {
    usleep(100000);
    s = stats_of(e);
  }
  if (s.swaps < swaps) fail_msg("the background worker made %llu kernels ready in a minute, want %llu",
                                (unsigned long long)s.swaps, (unsigned long long)swaps);
  return s;
}

/* A device buffer of bytes filled with a pattern (not zeros), for calls whose results these
 * tests do not check (big classes, whose float64 reference would take minutes). */
static void *patterned(size_t bytes) {
  void *p = NULL;
  assert_int_equal(cudaMalloc(&p, bytes), cudaSuccess);
  assert_int_equal(cudaMemset(p, 0x3c, bytes), cudaSuccess);
  return p;
}

/* bf16 NN m x n x k, D = A B, on buffers of the size; results unchecked. */
static tcj_status unchecked_call(tcj_engine *e, void *a, void *b, void *d, int64_t m, int64_t n, int64_t k) {
  return tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, m, n, k, 1.0f, a, TCJ_BF16, k, b, TCJ_BF16, n, 0.0f, d, TCJ_BF16, n,
                  (CUstream)g_stream);
}

/* A small class runs its generic kernel (compiled in the caller's thread, no disk cache here)
 * until its TIER_HOT_CALLS-th call queues the specialised kernel; the worker builds it, and the
 * next call runs it. A big class (2mnk >= 2^33) is queued at its first call. Every checked
 * result is right, before and after the swap. */
static void async_runs_generic_kernels_until_the_specialised_one_is_ready(void **state) {
  (void)state;
  tcj_engine *e = async_engine(NULL);
  ex_case c = mk("async small class", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 300, 520, 264, 14000);
  c.alpha = scaled_alpha(c.k, 0);
  char msg[MSG_SIZE];
  double worst = 0;
  if (run_case(e, &c, &worst, msg, sizeof msg) != 1) fail_msg("%s", msg);
  tcj_stats s = stats_of(e);
  printf("  first call: compiles %llu (background %llu), generic launches %llu, swaps %llu\n",
         (unsigned long long)s.compiles, (unsigned long long)s.compiles_background,
         (unsigned long long)s.generic_launches, (unsigned long long)s.swaps);
  assert_int_equal(s.generic_launches, 1);
  assert_int_equal(s.compiles, 1); /* the generic kernel, in this thread */
  assert_int_equal(s.compiles_background, 0);
  for (int i = 1; i < 8; i++)
    if (run_case(e, &c, &worst, msg, sizeof msg) != 1) fail_msg("call %d: %s", i + 1, msg);
  s = wait_for_swaps(e, 1);
  assert_int_equal(s.generic_launches, 8);
  assert_int_equal(s.compiles_background, 1);
  if (run_case(e, &c, &worst, msg, sizeof msg) != 1) fail_msg("after the swap: %s", msg);
  s = stats_of(e);
  assert_int_equal(s.generic_launches, 8); /* the specialised kernel ran */

  /* Big: queued at the first call. */
  int64_t m = 64, n = 8192, k = 8192;
  void *a = patterned((size_t)(m * k * 2)), *b = patterned((size_t)(k * n * 2)), *d = patterned((size_t)(m * n * 2));
  assert_int_equal(unchecked_call(e, a, b, d, m, n, k), TCJ_SUCCESS);
  s = wait_for_swaps(e, 2);
  assert_int_equal(s.generic_launches, 9);
  assert_int_equal(unchecked_call(e, a, b, d, m, n, k), TCJ_SUCCESS);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  assert_int_equal(stats_of(e).generic_launches, 9);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
  tcj_destroy(e);
  printf("  async: results right before and after both swaps, worst |err|/bound %.3f\n", worst);
}

/* Eight threads, each on its own stream, call three classes in turn while their specialised
 * kernels become ready underneath them: every result is right, each specialised kernel is
 * built once. */
typedef struct load_arg {
  tcj_engine *e;
  int thread, failed;
  char msg[MSG_SIZE];
} load_arg;

static void *load_thread(void *p) {
  load_arg *a = p;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
    a->failed++;
    snprintf(a->msg, sizeof a->msg, "no stream");
    return NULL;
  }
  for (int i = 0; i < 12; i++) {
    int cls = (i + a->thread) % 3;
    ex_case c = mk("async under load", TCJ_BF16, TCJ_BF16, (tcj_op)(cls & 1), TCJ_OP_T, 130 + 70 * cls,
                   136 + 64 * cls, 200 + 56 * cls, 15000 + 100 * (uint64_t)a->thread + (uint64_t)i);
    c.alpha = scaled_alpha(c.k, i);
    if (run_case_on(a->e, &c, s, NULL, a->msg, sizeof a->msg) != 1) a->failed++;
  }
  cudaStreamDestroy(s);
  return NULL;
}

static void async_swaps_are_safe_under_load_from_8_threads(void **state) {
  (void)state;
  tcj_engine *e = async_engine(NULL);
  load_arg args[8];
  pthread_t th[8];
  for (int t = 0; t < 8; t++) {
    args[t] = (load_arg){e, t, 0, ""};
    assert_int_equal(pthread_create(&th[t], NULL, load_thread, &args[t]), 0);
  }
  int failed = 0;
  for (int t = 0; t < 8; t++) {
    pthread_join(th[t], NULL);
    if (args[t].failed) printf("  FAIL thread %d: %d calls, last: %s\n", t, args[t].failed, args[t].msg);
    failed += args[t].failed;
  }
  tcj_stats s = wait_for_swaps(e, 3);
  printf("  8 threads x 12 calls: %d failed; generic launches %llu, swaps %llu, background compiles %llu\n", failed,
         (unsigned long long)s.generic_launches, (unsigned long long)s.swaps,
         (unsigned long long)s.compiles_background);
  tcj_destroy(e);
  if (failed) fail_msg("%d calls failed under load", failed);
  assert_int_equal(s.swaps, 3);
  assert_int_equal(s.compiles_background, 3);
}

/* Six big classes (2mnk >= 2^33 each: under async, six queued compiles) run on an engine of the
 * mode on the cache directory, then the engine is destroyed. */
static void six_big_classes(int jit_mode, const char *dir) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = jit_mode;
  o.cache_dir = dir;
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  int64_t m = 128, k = 8192;
  void *a = patterned((size_t)(m * k * 2)), *b = patterned((size_t)(k * 8192 * 2)), *d = patterned((size_t)(m * 8192 * 2));
  for (int i = 0; i < 6; i++) assert_int_equal(unchecked_call(e, a, b, d, m, 8192 - 64 * i, k), TCJ_SUCCESS);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  tcj_destroy(e);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
}

/* tcj_destroy with compiles queued and one in progress returns after that one (seconds, not
 * the queue), and the cache it leaves serves a new engine. */
static void async_destroy_with_compiles_in_flight_returns(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-async-destroy-XXXXXX";
  assert_non_null(mkdtemp(dir));
  tcj_engine *e = async_engine(dir);
  int64_t m = 128, k = 8192; /* 2mnk >= 2^33 for every n below: each class big */
  void *a = patterned((size_t)(m * k * 2)), *b = patterned((size_t)(k * 8192 * 2)), *d = patterned((size_t)(m * 8192 * 2));
  for (int i = 0; i < 6; i++) /* six big classes: six queued compiles */
    assert_int_equal(unchecked_call(e, a, b, d, m, 8192 - 64 * i, k), TCJ_SUCCESS);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tcj_destroy(e);
  double secs = seconds_since(&t0);
  printf("  destroy with 6 big classes queued: %.2f s\n", secs);
  assert_true(secs < 20);
  /* What was published is whole: a sync engine on the same cache runs every class. */
  six_big_classes(TCJ_JIT_SYNC, dir);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
  remove_tree(dir);
}

/* A class first met while the stream is captured: the graph gets the specialised kernel
 * (compiled in the caller's thread), never a generic one, and its replays are right. */
static void async_capture_of_a_cold_class_takes_the_specialised_kernel(void **state) {
  (void)state;
  tcj_engine *e = async_engine(NULL);
  ex_case c = mk("async capture", TCJ_BF16, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 260, 200, 136, 16000);
  c.alpha = 0.3f;
  char msg[MSG_SIZE];
  ex_run r;
  if (!prepare(&r, &c, g_stream, msg, sizeof msg)) fail_msg("%s", msg);
  tcj_gemm_desc d;
  make_desc(&r, &d);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  assert_int_equal(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  tcj_status st = tcj_gemm_ex(e, &d, (CUstream)g_stream);
  assert_int_equal(cudaStreamEndCapture(g_stream, &graph), cudaSuccess);
  if (st != TCJ_SUCCESS) fail_msg("captured tcj_gemm_ex: %s", tcj_last_error(e));
  tcj_stats s = stats_of(e);
  assert_int_equal(s.generic_launches, 0);
  assert_int_equal(s.compiles, 1);
  assert_int_equal(s.compiles_background, 0);
  assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  int failed = 0;
  for (int rep = 0; rep < 2; rep++) {
    set_images(&r);
    assert_int_equal(upload(&r, g_stream), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(exec, g_stream), cudaSuccess);
    if (!verify(&r, g_stream, NULL, msg, sizeof msg)) {
      printf("  FAIL replay %d: %s\n", rep, msg);
      failed++;
    }
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  run_free(&r);
  tcj_destroy(e);
  if (failed) fail_msg("%d replays failed", failed);
}

/* Threads of this process (/proc/self/task), or -1 where it cannot be read. */
static int thread_count(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  int n = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %d", &n) == 1) break;
  if (f) fclose(f);
  return n;
}

/* No thread starts until a compile is queued; then exactly one, gone after tcj_destroy. */
static void async_starts_its_worker_at_the_first_queued_compile(void **state) {
  (void)state;
  int before = thread_count();
  if (before < 0) skip();
  tcj_engine *e = async_engine(NULL);
  ex_case c = mk("async worker", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 100, 72, 40, 17000);
  char msg[MSG_SIZE];
  if (run_case(e, &c, NULL, msg, sizeof msg) != 1) fail_msg("%s", msg);
  assert_int_equal(thread_count(), before); /* one call: generic, nothing queued */
  for (int i = 1; i < 8; i++)
    if (run_case(e, &c, NULL, msg, sizeof msg) != 1) fail_msg("%s", msg);
  assert_int_equal(thread_count(), before + 1);
  wait_for_swaps(e, 1);
  tcj_destroy(e);
  assert_int_equal(thread_count(), before);
}

/* Two async engines of one process, one disk cache, the same hot class: one compile in all (the
 * other engine's worker waits on the compile lock and loads the entry). */
static void two_async_engines_compile_a_kernel_once(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-async-two-XXXXXX";
  assert_non_null(mkdtemp(dir));
  tcj_engine *e[2] = {async_engine(dir), async_engine(dir)};
  ex_case c = mk("two engines", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 250, 136, 88, 18000);
  char msg[MSG_SIZE];
  for (int i = 0; i < 8; i++) /* the 8th call of each queues the same specialised kernel */
    for (int j = 0; j < 2; j++)
      if (run_case(e[j], &c, NULL, msg, sizeof msg) != 1) fail_msg("engine %d: %s", j, msg);
  tcj_stats s0 = wait_for_swaps(e[0], 1), s1 = wait_for_swaps(e[1], 1);
  printf("  two engines: background compiles %llu + %llu, disk hits %llu + %llu\n",
         (unsigned long long)s0.compiles_background, (unsigned long long)s1.compiles_background,
         (unsigned long long)s0.disk_hits, (unsigned long long)s1.disk_hits);
  assert_int_equal(s0.compiles_background + s1.compiles_background, 1);
  tcj_destroy(e[0]);
  tcj_destroy(e[1]);
  remove_tree(dir);
}

/* A class whose specialised kernel is in the disk cache (an earlier process, a warmed cache)
 * runs it from its first call under async: loaded, not compiled, no generic launch. */
static void async_first_call_loads_a_cached_specialised_kernel(void **state) {
  (void)state;
  if (disk_cache_disabled()) skip();
  char dir[] = "/tmp/tcj_async_disk_XXXXXX";
  assert_non_null(mkdtemp(dir));
  ex_case c = mk("specialised on disk", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 96, 328, 200, 15100);
  c.alpha = scaled_alpha(c.k, 1);
  char msg[MSG_SIZE];
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC;
  o.cache_dir = dir;
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  if (run_case(e, &c, NULL, msg, sizeof msg) != 1) fail_msg("sync: %s", msg);
  tcj_destroy(e);
  e = async_engine(dir);
  if (run_case(e, &c, NULL, msg, sizeof msg) != 1) fail_msg("async: %s", msg);
  tcj_stats s = stats_of(e);
  tcj_destroy(e);
  printf("  async first call with the specialised kernel on disk: compiles %llu, disk hits %llu, generic launches %llu\n",
         (unsigned long long)s.compiles, (unsigned long long)s.disk_hits, (unsigned long long)s.generic_launches);
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.generic_launches, 0);
  assert_true(s.disk_hits >= 1);
  remove_tree(dir);
}

/* The child's SIGSEGV: where (stderr, for the log), then death by the signal. */
static void crash_report(int sig) {
  void *frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The child of the next test: queues six big classes (one compile in flight, five queued) and
 * exits at once, after tcj_destroy (mode "destroy") or not (mode "exit"), with no disk cache
 * (the generic kernels compile in this thread first) or with TCJ_TEST_EXIT_CACHE, a cache that
 * holds the generic kernels only (the worker's compile is then the process's first). Mode
 * "fork": it forks first, and its own child exits at once (it has none of the workers its exit
 * handler knows of); status 5 when that child did not exit 0 within 10 s. */
static int exit_with_compiles_queued(const char *mode) {
  tcj_engine *e = async_engine(getenv("TCJ_TEST_EXIT_CACHE"));
  int64_t m = 128, k = 8192;
  void *a = NULL, *b = NULL, *d = NULL;
  if (cudaMalloc(&a, (size_t)(m * k * 2)) || cudaMalloc(&b, (size_t)(k * 8192 * 2)) || cudaMalloc(&d, (size_t)(m * 8192 * 2)))
    return 3;
  for (int i = 0; i < 6; i++)
    if (unchecked_call(e, a, b, d, m, 8192 - 64 * i, k) != TCJ_SUCCESS) return 4;
  if (strcmp(mode, "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      alarm(10);
      exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 5;
  }
  if (strcmp(mode, "destroy") == 0) tcj_destroy(e);
  exit(0);
}

/* A process that exits with compiles queued ends soon after the compile in flight, cleanly:
 * after tcj_destroy, and without it (exit() stops the workers before the compiler's static
 * destructors run: without that, one child in two died of signal 11 inside nvJitLink), with the
 * compiler first used by the caller or by the worker. Five children each. */
static void a_process_exiting_with_compiles_queued_ends(void **state) {
  (void)state;
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) skip();
  self[len] = '\0';
  /* A cache with the six classes' generic kernels and none of their specialised ones. */
  char dir[] = "/tmp/tcj_exit_cache_XXXXXX";
  assert_non_null(mkdtemp(dir));
  six_big_classes(TCJ_JIT_GENERIC, dir);
  static const struct { const char *mode; int warm; } runs[] = {{"destroy", 0}, {"exit", 0}, {"exit", 1}, {"fork", 0}};
  for (int r = 0; r < NCASES(runs); r++) {
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "TCJ_TEST_EXIT_CHILD=%s %s%s timeout 60 '%s' > /dev/null 2>&1", runs[r].mode,
             runs[r].warm ? "TCJ_TEST_EXIT_CACHE=" : "", runs[r].warm ? dir : "", self);
    for (int i = 0; i < 5; i++) {
      struct timespec t0;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      int rc = system(cmd);
      double secs = seconds_since(&t0);
      printf("  child %d (%s, %s cache) exiting with 6 big classes queued: %s %d after %.2f s\n", i, runs[r].mode,
             runs[r].warm ? "generic-warm" : "no", WIFEXITED(rc) ? "exit status" : "signal",
             WIFEXITED(rc) ? WEXITSTATUS(rc) : WTERMSIG(rc), secs);
      assert_true(WIFEXITED(rc));
      assert_int_equal(WEXITSTATUS(rc), 0);
    }
  }
  remove_tree(dir);
}

/* jit_mode and TCJ_JIT: the three modes, and a clear refusal of anything else. */
static void jit_mode_option_and_environment_are_checked(void **state) {
  (void)state;
  tcj_options o = TCJ_OPTIONS_INIT;
  tcj_engine *e = NULL;
  o.jit_mode = 7;
  assert_int_equal(tcj_create(&e, &o), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "jit_mode"));
  o.jit_mode = TCJ_JIT_DEFAULT;
  setenv("TCJ_JIT", "fast", 1);
  assert_int_equal(tcj_create(&e, &o), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "TCJ_JIT"));
  setenv("TCJ_JIT", "generic", 1);
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  tcj_destroy(e);
  setenv("TCJ_JIT", "async", 1);
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  tcj_destroy(e);
  o.jit_mode = TCJ_JIT_ASYNC;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  tcj_destroy(e);
  o.jit_mode = TCJ_JIT_SYNC; /* the option wins over the variable */
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  tcj_destroy(e);
  unsetenv("TCJ_JIT");
}

/* ---- column-major storage order (tcj_gemm_desc.order) --------------------------------------- */

/* A user epilogue that uses its row and column: a column-major residual of exactly m x n per
 * entry (ld m, nothing after it), and an index term. The swap identity's row-major call names
 * its parameters the other way round: its row is the caller's column. */
#define CM_USER_BODY                                                                        \
  "                                           long long batch, const void *params) {\n"   \
  "  const float *res = *(const float *const *)params;\n"                                   \
  "  long long m = ((const long long *)params)[1], n = ((const long long *)params)[2];\n"   \
  "  return v + res[(batch * n + col) * m + row] + (float)(row - 2 * col) * 0.0625f;\n"     \
  "}\n"
static const char SRC_CM_USER[] =
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n" CM_USER_BODY;
static const char SRC_CM_USER_SWAPPED[] =
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long col, long long row,\n" CM_USER_BODY;

typedef struct cm_case {
  tcj_dtype ab, d;
  tcj_op op_a, op_b;
  int64_t m, n, k, batch;
  tcj_bias_kind bias;
  int user;
} cm_case;

/* The row-major descriptor of the swap identity: D^T = op(B)^T op(A)^T over the same memory. */
static tcj_gemm_desc cm_swapped(const tcj_gemm_desc *c) {
  tcj_gemm_desc r = *c;
  r.order = TCJ_ORDER_ROW_MAJOR;
  r.op_a = c->op_b, r.op_b = c->op_a;
  r.m = c->n, r.n = c->m;
  r.a = c->b, r.a_type = c->b_type, r.lda = c->ldb, r.stride_a = c->stride_b;
  r.b = c->a, r.b_type = c->a_type, r.ldb = c->lda, r.stride_b = c->stride_a;
  r.bias_kind = c->bias_kind == TCJ_BIAS_COL ? TCJ_BIAS_ROW : c->bias_kind == TCJ_BIAS_ROW ? TCJ_BIAS_COL : c->bias_kind;
  if (c->epilogue_source) r.epilogue_source = SRC_CM_USER_SWAPPED;
  return r;
}

/* One column-major case: D (poisoned) against the host fp64 reference in column-major indexing,
 * bytes outside D's entries untouched, and bitwise the D of the swap identity's call. */
static int run_cm_case(tcj_engine *e, const cm_case *c, uint64_t seed, char *msg, size_t size) {
  int64_t m = c->m, n = c->n, k = c->k, nb = c->batch;
  int an = c->op_a == TCJ_OP_N, bn = c->op_b == TCJ_OP_N;
  int64_t lda = (an ? m : k) + 3, ldb = (bn ? k : n) + 2, ldc = m + 1, ldd = m + 5;
  int64_t stride_a = lda * (an ? k : m) + 5, stride_b = nb > 1 ? 0 : ldb * (bn ? n : k);
  int64_t stride_c = ldc * n, stride_d = ldd * n + 3, blen = c->bias == TCJ_BIAS_ROW ? m : n;
  int64_t ea = stride_a * nb, eb = ldb * (bn ? n : k), ec = stride_c * nb, ed = stride_d * nb, ebias = blen * nb;
  size_t sa = gpu_esize(c->ab), sd = gpu_esize(c->d);
  unsigned char *ha = malloc((size_t)ea * sa), *hb = malloc((size_t)eb * sa), *hc = malloc((size_t)ec * sd);
  float *hbias = malloc((size_t)ebias * 4), *hres = malloc((size_t)(m * n * nb) * 4);
  unsigned char *hd = malloc((size_t)ed * sd), *hd2 = malloc((size_t)ed * sd);
  void *da = NULL, *db = NULL, *dc = NULL, *dd = NULL, *dd2 = NULL, *dbias = NULL, *dres = NULL, *dparams = NULL;
  int bad = 0;
  rng r = {seed};
  for (int64_t i = 0; i < ea; i++) fill_random(c->ab, ha, (size_t)i, &r);
  for (int64_t i = 0; i < eb; i++) fill_random(c->ab, hb, (size_t)i, &r);
  for (int64_t i = 0; i < ec; i++) fill_random(c->d, hc, (size_t)i, &r);
  for (int64_t i = 0; i < ebias; i++) fill_random(TCJ_F32, hbias, (size_t)i, &r);
  for (int64_t i = 0; i < m * n * nb; i++) fill_random(TCJ_F32, hres, (size_t)i, &r);
  memset(hd, gpu_poison_byte(c->d), (size_t)ed * sd);
  int ok = cudaMalloc(&da, (size_t)ea * sa) == cudaSuccess && cudaMalloc(&db, (size_t)eb * sa) == cudaSuccess &&
           cudaMalloc(&dc, (size_t)ec * sd) == cudaSuccess && cudaMalloc(&dd, (size_t)ed * sd) == cudaSuccess &&
           cudaMalloc(&dd2, (size_t)ed * sd) == cudaSuccess && cudaMalloc(&dbias, (size_t)ebias * 4) == cudaSuccess &&
           cudaMalloc(&dres, (size_t)(m * n * nb) * 4) == cudaSuccess && cudaMalloc(&dparams, 24) == cudaSuccess;
  long long params[3] = {0, (long long)m, (long long)n};
  if (ok) {
    memcpy(params, &dres, sizeof dres);
    ok = cudaMemcpy(da, ha, (size_t)ea * sa, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(db, hb, (size_t)eb * sa, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dc, hc, (size_t)ec * sd, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dd, hd, (size_t)ed * sd, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dd2, hd, (size_t)ed * sd, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dbias, hbias, (size_t)ebias * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dres, hres, (size_t)(m * n * nb) * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(dparams, params, sizeof params, cudaMemcpyHostToDevice) == cudaSuccess;
  }
  if (!ok) {
    snprintf(msg, size, "cuda allocation or copy failed");
    bad = 1;
    goto done;
  }
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.order = TCJ_ORDER_COL_MAJOR;
  g.op_a = c->op_a, g.op_b = c->op_b;
  g.m = m, g.n = n, g.k = k;
  g.a = da, g.a_type = c->ab, g.lda = lda;
  g.b = db, g.b_type = c->ab, g.ldb = ldb;
  g.c = dc, g.c_type = c->d, g.ldc = ldc;
  g.d = dd, g.d_type = c->d, g.ldd = ldd;
  g.alpha = 0.75f, g.beta = 0.5f;
  g.batch_count = nb;
  g.stride_a = stride_a, g.stride_b = stride_b, g.stride_c = stride_c, g.stride_d = stride_d;
  if (c->bias != TCJ_BIAS_NONE) g.bias = dbias, g.bias_type = TCJ_F32, g.bias_kind = c->bias, g.stride_bias = blen;
  if (c->user) g.epilogue_source = SRC_CM_USER, g.epilogue_params = dparams;
  tcj_gemm_desc sw = cm_swapped(&g);
  sw.d = dd2;
  size_t ws_cm = 0, ws_sw = 0;
  tcj_status st = tcj_gemm_ex_workspace_size(e, &g, &ws_cm);
  if (st == TCJ_SUCCESS) st = tcj_gemm_ex_workspace_size(e, &sw, &ws_sw);
  if (st == TCJ_SUCCESS) st = tcj_gemm_ex(e, &g, g_stream);
  if (st == TCJ_SUCCESS) st = tcj_gemm_ex(e, &sw, g_stream);
  if (st != TCJ_SUCCESS) {
    snprintf(msg, size, "%s: %s", tcj_status_string(st), tcj_last_error(e));
    bad = 1;
    goto done;
  }
  if (ws_cm != ws_sw) {
    snprintf(msg, size, "workspace: column-major %zu bytes, the swapped call %zu", ws_cm, ws_sw);
    bad = 1;
    goto done;
  }
  if (cudaStreamSynchronize(g_stream) != cudaSuccess || cudaMemcpy(hd, dd, (size_t)ed * sd, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(hd2, dd2, (size_t)ed * sd, cudaMemcpyDeviceToHost) != cudaSuccess) {
    snprintf(msg, size, "cuda error after the calls: %s", cudaGetErrorName(cudaGetLastError()));
    bad = 1;
    goto done;
  }
  if (memcmp(hd, hd2, (size_t)ed * sd) != 0) {
    snprintf(msg, size, "D differs from the swap identity's D");
    bad = 1;
    goto done;
  }
  /* Relative bound: the magnitudes that go into each element, times D's rounding and fp32's
   * (or tf32 parts') accumulation error. */
  double rel = c->d == TCJ_BF16 ? 0x1p-7 : c->d == TCJ_F16 ? 0x1p-10 : 0x1p-18;
  for (int64_t z = 0; z < nb; z++)
    for (int64_t j = 0; j < stride_d; j++) { /* every element of the allocation */
      int64_t at = z * stride_d + j, i = j % ldd, col = j / ldd;
      int inside = i < m && col < n;
      if (!inside) {
        if (!gpu_is_poison(c->d, hd, (size_t)at)) {
          snprintf(msg, size, "entry %lld: element %lld outside D (row %lld of ld %lld) was written", (long long)z,
                   (long long)j, (long long)i, (long long)ldd);
          bad = 1;
          goto done;
        }
        continue;
      }
      double acc = 0, mag = 0;
      for (int64_t p = 0; p < k; p++) {
        double x = gpu_get(c->ab, ha, (size_t)(z * stride_a + (an ? i + p * lda : p + i * lda)));
        double y = gpu_get(c->ab, hb, (size_t)(z * stride_b + (bn ? p + col * ldb : col + p * ldb)));
        acc += x * y;
        mag += fabs(x * y);
      }
      double v = 0.75 * acc + 0.5 * gpu_get(c->d, hc, (size_t)(z * stride_c + i + col * ldc));
      mag = 0.75 * mag + fabs(v - 0.75 * acc);
      if (c->bias != TCJ_BIAS_NONE) {
        double b = hbias[z * blen + (c->bias == TCJ_BIAS_COL ? col : i)];
        v += b;
        mag += fabs(b);
      }
      if (c->user) {
        double u = hres[(z * n + col) * m + i] + (double)(i - 2 * col) * 0.0625;
        v += u;
        mag += fabs(u);
      }
      double got = gpu_get(c->d, hd, (size_t)at);
      if (!(fabs(got - v) <= rel * (fabs(v) + mag) + 1e-6)) {
        snprintf(msg, size, "entry %lld, D(%lld, %lld) = %.9g, reference %.9g (bound %.3g)", (long long)z, (long long)i,
                 (long long)col, got, v, rel * (fabs(v) + mag) + 1e-6);
        bad = 1;
        goto done;
      }
    }
done:
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dd), cudaFree(dd2), cudaFree(dbias), cudaFree(dres), cudaFree(dparams);
  free(ha), free(hb), free(hc), free(hbias), free(hres), free(hd), free(hd2);
  return bad;
}

/* Column-major calls (cuBLAS's conventions) for every op pair on odd shapes, bias per column and
 * per row, batches and a user epilogue that uses row and column, against the host reference and
 * bitwise against the explicit swap identity (sync mode: one kernel per class, so both calls
 * run the same arithmetic). */
static void col_major_calls_match_the_reference_and_the_swap_identity(void **state) {
  (void)state;
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC;
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  static const int64_t shapes[][3] = {{64, 48, 32}, {129, 77, 33}, {1, 200, 17}, {333, 5, 271}, {7, 9, 1}};
  static const tcj_dtype types[][2] = {{TCJ_BF16, TCJ_F32}, {TCJ_F16, TCJ_F16}, {TCJ_F32, TCJ_F32}, {TCJ_BF16, TCJ_BF16}};
  int failures = 0, runs = 0;
  for (int s = 0; s < 5; s++)
    for (int op = 0; op < 4; op++) {
      cm_case c = {types[(s + op) % 4][0], types[(s + op) % 4][1], op & 1 ? TCJ_OP_T : TCJ_OP_N,
                   op & 2 ? TCJ_OP_T : TCJ_OP_N, shapes[s][0], shapes[s][1], shapes[s][2], op % 2 ? 3 : 1,
                   (tcj_bias_kind)((s + op) % 3), (s + op) % 2 || s == 1};
      char msg[MSG_SIZE] = "";
      runs++;
      if (run_cm_case(e, &c, g_seed_base + (uint64_t)(s * 4 + op), msg, sizeof msg)) {
        print_error("FAIL column-major %s->%s op=%c%c %lldx%lldx%lld batch %lld bias %s%s: %s\n", tcj_dtype_name(c.ab),
                    tcj_dtype_name(c.d), op & 1 ? 'T' : 'N', op & 2 ? 'T' : 'N', (long long)c.m, (long long)c.n,
                    (long long)c.k, (long long)c.batch, bias_name(c.bias), c.user ? " user" : "", msg);
        failures++;
      }
    }
  print_message("column-major: %d of %d cases matched\n", runs - failures, runs);
  tcj_destroy(e);
  assert_int_equal(failures, 0);
}

/* ---- setup -------------------------------------------------------------------------------- */

static int group_setup(void **state) {
  (void)state;
  return cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) == cudaSuccess ? 0 : -1;
}

static int group_teardown(void **state) {
  (void)state;
  if (g_stream) cudaStreamDestroy(g_stream);
  return 0;
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("tcj_gemm_ex checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (getenv("TCJ_TEST_EXIT_CHILD")) { /* a_process_exiting_with_compiles_queued_ends's child */
    signal(SIGSEGV, crash_report);
    if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) return 2;
    return exit_with_compiles_queued(getenv("TCJ_TEST_EXIT_CHILD"));
  }
  g_cc_major = prop.major;
  g_cc_minor = prop.minor;
  printf("GPU: %s (sm_%d%d, %d SMs); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, (unsigned long long)g_seed_base);

  const struct CMUnitTest tests[] = {
      /* First: its cold compile time then includes loading NVRTC (it prints the figure). */
      cmocka_unit_test(user_epilogue_compiles_once_and_is_served_from_disk),
      cmocka_unit_test(bf16_every_bias_and_activation_matches_reference),
      cmocka_unit_test(f16_every_bias_and_activation_matches_reference),
      cmocka_unit_test(tf32_bias_and_activations_match_reference),
      cmocka_unit_test(activations_into_f32_are_the_documented_functions),
      cmocka_unit_test(s8_bias_and_relu_are_exact),
      cmocka_unit_test(s8_refuses_gelu_silu_and_user_epilogues),
      cmocka_unit_test(d_apart_from_c_reads_c_and_leaves_it_untouched),
      cmocka_unit_test(d_equal_to_c_updates_in_place),
      cmocka_unit_test(c_null_with_beta_zero_writes_d),
      cmocka_unit_test(batch_broadcasts_weight_bias_and_c_with_zero_strides),
      cmocka_unit_test(batch_of_stacked_entries_with_one_weight),
      cmocka_unit_test(b_pitch_splitting_lines_runs_multicast_pairs),
      cmocka_unit_test(k_splits_run_in_multicast_pairs),
      cmocka_unit_test(operands_shared_by_clusters_along_m_and_n_match_reference),
      cmocka_unit_test(batch_with_padded_strides_writes_only_its_entries),
      cmocka_unit_test(batch_count_0_and_1_run_one_gemm),
      cmocka_unit_test(batch_of_64_entries_of_64_cubed),
      cmocka_unit_test(large_batch_counts_fold_the_grid),
      cmocka_unit_test(batch_in_place_updates_every_entry),
      cmocka_unit_test(user_epilogue_adds_a_residual_read_through_params),
      cmocka_unit_test(user_epilogue_sees_c_row_col_and_batch),
      cmocka_unit_test(user_epilogue_syntax_error_returns_compile_error_with_line),
      cmocka_unit_test(device_alpha_beta_follow_every_graph_replay),
      cmocka_unit_test(device_alpha_beta_in_place_graph_replays_with_c_restored),
      cmocka_unit_test(device_alpha_ptr_overrides_the_alpha_field),
      cmocka_unit_test(forced_sm80_recipe_epilogues_match_reference),
      cmocka_unit_test(forced_sm90_recipe_epilogues_match_reference),
      cmocka_unit_test(split_k_applies_the_epilogue_once),
      cmocka_unit_test(forced_sm90_tiles_run_every_fused_epilogue),
      cmocka_unit_test(generic_kernels_match_reference_on_edge_shapes),
      cmocka_unit_test(generic_kernels_serve_new_shapes_without_compiling),
      cmocka_unit_test(a_pitch_tma_cannot_encode_is_stored_staged),
      cmocka_unit_test(generic_kernels_split_k_at_launch),
      cmocka_unit_test(async_first_call_loads_a_cached_specialised_kernel),
      cmocka_unit_test(jit_mode_option_and_environment_are_checked),
      cmocka_unit_test(async_runs_generic_kernels_until_the_specialised_one_is_ready),
      cmocka_unit_test(async_swaps_are_safe_under_load_from_8_threads),
      cmocka_unit_test(async_destroy_with_compiles_in_flight_returns),
      cmocka_unit_test(async_capture_of_a_cold_class_takes_the_specialised_kernel),
      cmocka_unit_test(async_starts_its_worker_at_the_first_queued_compile),
      cmocka_unit_test(two_async_engines_compile_a_kernel_once),
      cmocka_unit_test(a_process_exiting_with_compiles_queued_ends),
      cmocka_unit_test(col_major_calls_match_the_reference_and_the_swap_identity),
      cmocka_unit_test(three_consumer_tiles_match_reference),
      cmocka_unit_test(whole_tile_epilogues_match_reference),
  };
  int failures = cmocka_run_group_tests_name("gemm_ex_gpu", tests, group_setup, group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
