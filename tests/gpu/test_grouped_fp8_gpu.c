/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of fp8 scales in grouped GEMM and of the per-row scales, through the public
 * API only: fp8 (e4m3/e5m2 pairs) grouped calls in both M modes with every scale mode
 * (TCJ_SCALE_TENSOR with one B scale for all or one per group through stride_scale_b,
 * TCJ_SCALE_ROW, TCJ_SCALE_BLOCK), row_scale on fp8, bf16 and f16 grouped calls, and the same
 * fields ungrouped (one GEMM, a column-major call, a strided batch). Each element of each group
 * is judged against a float64 reference over the decoded inputs and scales, under a bound built
 * from sum |a b| (tests/gpu/oracle.h's terms, with test_fp8_gpu.c's tensor-core term for fp8):
 *   pre = (c_k + c_tc) |f| t + 5 u32 (|f s| + |beta c| + |bias|)    (f: alpha and the scales)
 *   err = L pre + act error; with row_scale r: |r| err + u32 |r act(v)|; then D's rounding.
 * Block scales sit inside the sums (s and t of each 128-long K block times its two scales).
 *
 * Every buffer ends where its mapping ends (guard_buf.h), scale arrays included, so a read one
 * element past any of them faults; D has poison before it and is poisoned itself, and every byte
 * outside the groups' rows (rows past the last end, past counts[g], the guard) must come back as
 * it was. Group counts run from 1 to 300, with empty and one-row groups.
 *
 * Passes: the default engine (on sm_90a large K-major groups take the sm90 recipe), an engine
 * under TCJ_RECIPE=sm80 (mma.sync; fp8 from sm_89; block scales refused there, which is checked),
 * and on compute capability 9.0 one under TCJ_RECIPE=sm90 (wgmma; cases it cannot read must be
 * refused, which is checked). Without fp8 tensor cores (before sm_89) fp8 calls must be refused
 * (TCJ_ERROR_NOT_SUPPORTED) and only the bf16/f16 row_scale cases compute. Without a GPU it
 * prints SKIP and exits 77. TCJ_TEST_SEED changes the data, TCJ_TEST_FILTER / TCJ_TEST_SKIP
 * select tests (cmocka patterns). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <cuda_runtime.h>

#include "gpu_test.h"
#include "guard_buf.h"
#include "oracle.h"
#include "tcj.h"

#define MSG_SIZE 2048
#define BLOCK_K 128                /* block scales: per 128 of K and per 128 columns of B */
#define TC_FP8 (4 * 0x1p-10)       /* fp8 tensor cores between fp32 adds (test_fp8_gpu.c's c_tc) */
#define U32 0x1p-24

static tcj_engine *g_eng;
static uint64_t g_seed_base = 0x5ca1e5f8ull;
static guard_ctx g_ctx; /* the buffers' vmm API, device, guard and stream */
static int g_cc;
/* The pass: 0 default, 1 TCJ_RECIPE=sm80, 2 TCJ_RECIPE=sm90. */
enum { PASS_DEFAULT, PASS_SM80, PASS_SM90 };
static int g_pass;

/* ---- cases ---------------------------------------------------------------------------------- */

typedef enum layout { L_NONE, L_ENDS32, L_ENDS64, L_MASKED } layout;
static const char *const LAYOUT_NAMES[] = {"ungrouped", "contiguous/ends32", "contiguous/ends64", "masked"};
typedef enum scale_kind { S_TENSOR, S_ROW, S_BLOCK } scale_kind;
static const char *const SCALE_NAMES[] = {"tensor", "row", "block"};

typedef struct fcase {
  const char *what;
  layout lay;
  tcj_dtype ta, tb, td; /* A, B; C and D */
  tcj_op op_a, op_b;
  int64_t m, n, k;      /* m: all rows (contiguous, one GEMM) or rows per entry (masked, batch) */
  int64_t groups;       /* grouped: G; ungrouped: batch_count (1: one GEMM) */
  int64_t unused;       /* contiguous: rows past the last end (never written) */
  scale_kind scale;     /* fp8 operands only */
  int null_a, null_b;   /* scale_a / scale_b NULL (tensor and row scales: 1) */
  int per_group_b;      /* stride_scale_b: one group's B scales (0: one set for every group) */
  int row_scale;
  float beta;           /* != 0: C apart from D, read */
  tcj_bias_kind bias;   /* per group (stride_bias n) when grouped, one for all otherwise */
  tcj_activation act;
  int col_major;        /* ungrouped: order TCJ_ORDER_COL_MAJOR */
  uint64_t seed;
} fcase;

#define E4 TCJ_E4M3
#define E5 TCJ_E5M2
#define BF TCJ_BF16
#define N_ TCJ_OP_N
#define T_ TCJ_OP_T

static int is_fp8(tcj_dtype t) { return t == TCJ_E4M3 || t == TCJ_E5M2; }

static const fcase CASES[] = {
  /* per-tensor scales: one A scale, B's per group or shared */
  {"tensor/per-expert", L_ENDS32, E4, E4, BF, N_, T_, 2048, 256, 512, 8, 9, S_TENSOR, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"tensor/one group", L_ENDS64, E4, E5, BF, N_, T_, 300, 192, 256, 1, 0, S_TENSOR, 0, 0, 0, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"tensor/B [G,K,N]", L_ENDS32, E5, E4, TCJ_F16, N_, N_, 1500, 128, 384, 33, 0, S_TENSOR, 0, 0, 1, 0, 0.5f, TCJ_BIAS_COL, TCJ_ACT_SILU, 0, 0},
  {"tensor/300 groups", L_ENDS32, E4, E4, BF, N_, T_, 1200, 128, 256, 300, 5, S_TENSOR, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"tensor/masked", L_MASKED, E4, E4, TCJ_F32, N_, T_, 128, 256, 512, 8, 0, S_TENSOR, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"tensor/masked A op T", L_MASKED, E4, E5, BF, T_, N_, 96, 192, 256, 5, 0, S_TENSOR, 1, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  /* row scales */
  {"row/per-expert", L_ENDS32, E4, E4, BF, N_, T_, 2048, 256, 512, 8, 3, S_ROW, 0, 0, 1, 1, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"row/B scales NULL", L_ENDS64, E4, E5, BF, N_, T_, 1000, 208, 320, 64, 0, S_ROW, 0, 1, 0, 0, 0, TCJ_BIAS_COL, TCJ_ACT_GELU, 0, 0},
  {"row/masked", L_MASKED, E4, E4, BF, N_, T_, 80, 256, 256, 6, 0, S_ROW, 1, 0, 1, 1, 0.5f, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"row/one group", L_ENDS32, E5, E5, TCJ_F32, N_, T_, 257, 128, 128, 1, 0, S_ROW, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"row/B [G,K,N]", L_ENDS32, E4, E4, BF, N_, N_, 700, 160, 256, 12, 2, S_ROW, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_RELU, 0, 0},
  /* block scales (sm90 only) */
  {"block/DeepGEMM-like", L_ENDS32, E4, E4, BF, N_, T_, 1024, 384, 512, 4, 0, S_BLOCK, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"block/40 groups", L_ENDS32, E4, E4, BF, N_, T_, 1200, 256, 384, 40, 7, S_BLOCK, 0, 0, 1, 1, 0, TCJ_BIAS_COL, TCJ_ACT_NONE, 0, 0},
  {"block/masked", L_MASKED, E4, E4, TCJ_F32, N_, T_, 128, 256, 640, 6, 0, S_BLOCK, 0, 0, 1, 0, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"block/shared, ragged n k", L_ENDS64, E4, E5, BF, N_, T_, 600, 208, 304, 3, 0, S_BLOCK, 0, 0, 0, 0, 0.5f, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  /* row_scale on 16-bit grouped calls */
  {"row_scale/bf16", L_ENDS32, BF, BF, BF, N_, T_, 1024, 256, 256, 16, 4, S_TENSOR, 0, 0, 0, 1, 0, TCJ_BIAS_COL, TCJ_ACT_RELU, 0, 0},
  {"row_scale/f16 masked", L_MASKED, TCJ_F16, TCJ_F16, TCJ_F16, N_, N_, 64, 128, 128, 5, 0, S_TENSOR, 0, 0, 0, 1, 0.5f, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  /* ungrouped: one GEMM, a column-major call, a batch */
  {"ungrouped/row", L_NONE, E4, E4, BF, N_, T_, 500, 256, 512, 1, 0, S_ROW, 0, 0, 0, 1, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"ungrouped/row col-major", L_NONE, E4, E5, BF, N_, N_, 300, 208, 256, 1, 0, S_ROW, 0, 0, 0, 0, 0.5f, TCJ_BIAS_NONE, TCJ_ACT_NONE, 1, 0},
  {"ungrouped/row_scale batch", L_NONE, BF, BF, BF, N_, T_, 100, 128, 256, 3, 0, S_TENSOR, 0, 0, 0, 1, 0, TCJ_BIAS_COL, TCJ_ACT_NONE, 0, 0},
  {"ungrouped/block row_scale", L_NONE, E4, E4, BF, N_, T_, 1000, 512, 512, 1, 0, S_BLOCK, 0, 0, 0, 1, 0, TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, 0},
  {"ungrouped/tensor row_scale", L_NONE, E4, E4, TCJ_F32, T_, N_, 256, 128, 128, 1, 0, S_TENSOR, 0, 0, 0, 1, 0, TCJ_BIAS_NONE, TCJ_ACT_GELU, 0, 0},
};
#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *act_name(tcj_activation a) {
  static const char *const names[] = {"none", "relu", "gelu", "gelu_tanh", "silu"};
  return (unsigned)a < sizeof names / sizeof *names ? names[a] : "?";
}

static int failf(char *msg, size_t size, const fcase *c, const char *fmt, ...) {
  int len = snprintf(msg, size,
                     "[%s] %s %s x %s -> %s op=%c%c%s m=%lld n=%lld k=%lld G=%lld scale=%s%s%s%s%s beta=%g bias=%d "
                     "act=%s seed=0x%llx: ",
                     c->what, LAYOUT_NAMES[c->lay], tcj_dtype_name(c->ta), tcj_dtype_name(c->tb), tcj_dtype_name(c->td),
                     c->op_a ? 'T' : 'N', c->op_b ? 'T' : 'N', c->col_major ? " col-major" : "", (long long)c->m,
                     (long long)c->n, (long long)c->k, (long long)c->groups, SCALE_NAMES[c->scale],
                     c->null_a ? " a=NULL" : "", c->null_b ? " b=NULL" : "", c->per_group_b ? " per-group B" : "",
                     c->row_scale ? " row_scale" : "", c->beta, (int)c->bias, act_name(c->act),
                     (unsigned long long)c->seed);
  if (len < 0 || (size_t)len >= size) return 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + len, size - (size_t)len, fmt, ap);
  va_end(ap);
  return 0;
}

/* ---- one case in flight ------------------------------------------------------------------- */

typedef struct frun {
  fcase c;
  int grouped, masked, fp8;
  int64_t entries;        /* A, C, D entries: G masked, the batch ungrouped, else 1 */
  int64_t lda, ldb, ldd;  /* as the caller passes them */
  int a_kn, b_nk, d_cm;   /* A stored k x m, B stored n x k, D column-major */
  int64_t sa, sb, sd;     /* entry strides (elements) */
  int64_t kb, nb;         /* block scales: ceil(k / 128), ceil(n / 128) */
  int64_t a_scales, b_group, b_scales, stride_scale_b; /* scale array lengths (floats) */
  float alpha;
  int64_t *raw, *lo, *hi; /* groups' device values (ends or counts) and their row ranges */
  guard_buf a, b, cb, d, bias, sca, scb, rs, grp;
} frun;

static void run_free(frun *r) {
  guard_buf *all[] = {&r->a, &r->b, &r->cb, &r->d, &r->bias, &r->sca, &r->scb, &r->rs, &r->grp};
  for (int i = 0; i < NCASES(all); i++) guard_buf_free(&g_ctx, all[i]);
  free(r->raw);
  free(r->lo);
  free(r->hi);
  memset(r, 0, sizeof *r);
}

static double runit(rng *g) { return (double)(rng_next(g) >> 11) * 0x1p-53; } /* [0, 1) */

/* Contiguous sizes summing to rows, skewed: with 3 groups or more group 0 is empty and group 1
 * has one row, about one in six of the rest empty; masked counts in [0, m] with entry 0 empty,
 * entry 1 full and entry 2 one row. */
static void make_groups(frun *r, rng *g) {
  const fcase *c = &r->c;
  int64_t G = c->groups;
  if (!r->grouped) {
    for (int64_t z = 0; z < r->entries; z++) r->lo[z] = 0, r->hi[z] = c->m;
    return;
  }
  if (r->masked) {
    for (int64_t i = 0; i < G; i++) {
      double u = runit(g);
      r->raw[i] = (int64_t)floor(u * u * (double)(c->m + 1));
      if (r->raw[i] > c->m) r->raw[i] = c->m;
    }
    if (G >= 3) r->raw[0] = 0, r->raw[1] = c->m, r->raw[2] = 1;
  } else {
    int64_t rows = c->m - c->unused, left = rows;
    double *w = calloc((size_t)G, sizeof *w), total = 0;
    assert_non_null(w);
    for (int64_t i = 0; i < G; i++) {
      double u = runit(g);
      w[i] = rng_next(g) % 6 == 0 ? 0 : u * u * u + 1e-3;
    }
    if (G >= 3) {
      w[0] = w[1] = 0;
      r->raw[1] = 1;
      left--;
    }
    for (int64_t i = 0; i < G; i++) total += w[i];
    int64_t rest = left, big = G / 2;
    for (int64_t i = 0; i < G; i++)
      if (total > 0) {
        int64_t s = (int64_t)floor((double)rest * w[i] / total);
        r->raw[i] += s;
        left -= s;
      }
    r->raw[big] += left;
    free(w);
    for (int64_t i = 1; i < G; i++) r->raw[i] += r->raw[i - 1]; /* sizes to ends */
  }
  int64_t prev = 0;
  for (int64_t i = 0; i < G; i++) {
    if (r->masked) {
      r->lo[i] = 0, r->hi[i] = r->raw[i];
    } else {
      r->lo[i] = prev, r->hi[i] = prev = r->raw[i];
    }
    if (c->lay == L_ENDS64) {
      memcpy(guard_buf_data(&r->grp) + 8 * i, &r->raw[i], 8);
    } else {
      int32_t v = (int32_t)r->raw[i];
      memcpy(guard_buf_data(&r->grp) + 4 * i, &v, 4);
    }
  }
}

/* Index of row i of group (entry) g among D's rows as the per-row scales see them: the row of
 * D for contiguous groups and one GEMM, g * m + i for masked groups and batch entries. */
static int64_t row_index(const frun *r, int64_t g, int64_t i) { return r->entries > 1 ? g * r->c.m + i : i; }

/* Element offsets of A(i, p), B(p, j) (op applied) and D(i, j) within group g's entries. */
static int64_t a_at(const frun *r, int64_t g, int64_t i, int64_t p) {
  return (r->entries > 1 ? g * r->sa : 0) + (r->a_kn ? p * r->lda + i : i * r->lda + p);
}
static int64_t b_at(const frun *r, int64_t g, int64_t p, int64_t j) {
  return g * r->sb + (r->b_nk ? j * r->ldb + p : p * r->ldb + j);
}
static int64_t d_at(const frun *r, int64_t g, int64_t i, int64_t j) {
  return (r->entries > 1 ? g * r->sd : 0) + (r->d_cm ? j * r->ldd + i : i * r->ldd + j);
}

static int prepare(frun *r, const fcase *c, char *msg, size_t size) {
  memset(r, 0, sizeof *r);
  r->c = *c;
  r->grouped = c->lay != L_NONE;
  r->masked = c->lay == L_MASKED;
  r->fp8 = is_fp8(c->ta);
  int64_t G = c->groups, m = c->m, n = c->n, k = c->k;
  r->entries = r->masked || !r->grouped ? G : 1;
  int64_t b_entries = r->grouped || G > 1 ? G : 1;
  r->a_kn = (c->op_a == TCJ_OP_T) ^ c->col_major;
  r->b_nk = (c->op_b == TCJ_OP_T) ^ c->col_major;
  r->d_cm = c->col_major;
  r->lda = r->a_kn ? m : k;
  r->ldb = r->b_nk ? k : n;
  r->ldd = r->d_cm ? m : n;
  r->sa = m * k;
  r->sb = b_entries > 1 ? n * k : 0;
  r->sd = m * n;
  r->kb = (k + BLOCK_K - 1) / BLOCK_K;
  r->nb = (n + BLOCK_K - 1) / BLOCK_K;
  int64_t rows = r->entries * m; /* D's rows as the per-row scales index them */
  r->a_scales = c->scale == S_BLOCK ? rows * r->kb : c->scale == S_ROW ? rows : 1;
  r->b_group = c->scale == S_BLOCK ? r->nb * r->kb : c->scale == S_ROW ? n : 1;
  r->stride_scale_b = r->grouped && c->per_group_b ? r->b_group : 0;
  r->b_scales = r->b_group * (r->stride_scale_b ? G : 1);
  r->alpha = (float)(1.0 / sqrt((double)k));
  r->raw = calloc((size_t)G + 1, sizeof *r->raw);
  r->lo = calloc((size_t)G + 1, sizeof *r->lo);
  r->hi = calloc((size_t)G + 1, sizeof *r->hi);
  size_t ea = gpu_esize(c->ta), ed = gpu_esize(c->td);
  int64_t d_elems = r->entries * m * n;
  int ok = r->raw && r->lo && r->hi && guard_buf_alloc(&g_ctx, &r->a, (size_t)(r->entries * m * k) * ea, 0xFF) &&
           guard_buf_alloc(&g_ctx, &r->b, (size_t)(b_entries * n * k) * ea, 0xFF) &&
           guard_buf_alloc(&g_ctx, &r->d, (size_t)d_elems * ed, gpu_poison_byte(c->td));
  if (ok && r->grouped) ok = guard_buf_alloc(&g_ctx, &r->grp, (size_t)G * (c->lay == L_ENDS64 ? 8 : 4), 0xA5);
  if (ok && c->beta != 0) ok = guard_buf_alloc(&g_ctx, &r->cb, (size_t)d_elems * ed, 0xFF);
  if (ok && c->bias == TCJ_BIAS_COL)
    ok = guard_buf_alloc(&g_ctx, &r->bias, (size_t)((r->grouped ? G : 1) * n) * 4, 0xFF);
  if (ok && r->fp8 && !c->null_a) ok = guard_buf_alloc(&g_ctx, &r->sca, (size_t)r->a_scales * 4, 0xFF);
  if (ok && r->fp8 && !c->null_b) ok = guard_buf_alloc(&g_ctx, &r->scb, (size_t)r->b_scales * 4, 0xFF);
  if (ok && c->row_scale) ok = guard_buf_alloc(&g_ctx, &r->rs, (size_t)rows * 4, 0xFF);
  if (!ok) return failf(msg, size, c, "cannot allocate (host or device)");
  rng g = {c->seed};
  for (int64_t i = 0; i < r->entries * m * k; i++) gpu_put(c->ta, guard_buf_data(&r->a), (size_t)i, 2 * rng_sym(&g));
  for (int64_t i = 0; i < b_entries * n * k; i++) gpu_put(c->tb, guard_buf_data(&r->b), (size_t)i, 2 * rng_sym(&g));
  if (r->cb.before)
    for (int64_t i = 0; i < d_elems; i++) gpu_put(c->td, guard_buf_data(&r->cb), (size_t)i, rng_sym(&g));
  if (r->bias.before)
    for (size_t i = 0; i < r->bias.bytes / 4; i++) gpu_put(TCJ_F32, guard_buf_data(&r->bias), i, rng_sym(&g));
  /* Scales: per tensor in [0.25, 2), per row and column of either sign, per block in [0.5, 2). */
  for (int64_t i = 0; r->sca.before && i < r->a_scales; i++)
    gpu_put(TCJ_F32, guard_buf_data(&r->sca), (size_t)i,
            c->scale == S_ROW ? 1.5 * rng_sym(&g) : c->scale == S_BLOCK ? 0.5 + 1.5 * runit(&g) : 0.25 + 1.75 * runit(&g));
  for (int64_t i = 0; r->scb.before && i < r->b_scales; i++)
    gpu_put(TCJ_F32, guard_buf_data(&r->scb), (size_t)i,
            c->scale == S_ROW ? 1.5 * rng_sym(&g) : c->scale == S_BLOCK ? 0.5 + 1.5 * runit(&g) : 0.25 + 1.75 * runit(&g));
  for (int64_t i = 0; r->rs.before && i < rows; i++) gpu_put(TCJ_F32, guard_buf_data(&r->rs), (size_t)i, rng_sym(&g));
  make_groups(r, &g);
  guard_buf *all[] = {&r->a, &r->b, &r->cb, &r->d, &r->bias, &r->sca, &r->scb, &r->rs, &r->grp};
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < NCASES(all) && !e; i++)
    if (all[i]->before) e = guard_buf_upload(&g_ctx, all[i]);
  if (!e) e = cudaStreamSynchronize(g_ctx.stream);
  if (e) return failf(msg, size, c, "upload failed: %s", cudaGetErrorName(e));
  return 1;
}

static void make_desc(const frun *r, tcj_gemm_desc *d) {
  const fcase *c = &r->c;
  tcj_gemm_desc init = TCJ_GEMM_DESC_INIT;
  *d = init;
  d->op_a = c->op_a;
  d->op_b = c->op_b;
  d->m = c->m;
  d->n = c->n;
  d->k = c->k;
  d->a = guard_buf_dev(&r->a);
  d->a_type = c->ta;
  d->lda = r->lda;
  d->b = guard_buf_dev(&r->b);
  d->b_type = c->tb;
  d->ldb = r->ldb;
  d->d = guard_buf_dev(&r->d);
  d->c_type = d->d_type = c->td;
  d->ldc = d->ldd = r->ldd;
  d->alpha = r->alpha;
  if (c->beta != 0) {
    d->c = guard_buf_dev(&r->cb);
    d->beta = c->beta;
    d->stride_c = r->entries > 1 ? r->sd : 0;
  }
  d->stride_d = r->entries > 1 ? r->sd : 0;
  d->stride_a = r->entries > 1 ? r->sa : 0;
  d->stride_b = r->sb;
  if (!r->grouped && c->groups > 1) d->batch_count = c->groups;
  if (c->bias == TCJ_BIAS_COL) {
    d->bias = guard_buf_dev(&r->bias);
    d->bias_type = TCJ_F32;
    d->bias_kind = TCJ_BIAS_COL;
    d->stride_bias = r->grouped ? c->n : 0;
  }
  d->activation = c->act;
  d->order = c->col_major ? TCJ_ORDER_COL_MAJOR : TCJ_ORDER_ROW_MAJOR;
  if (r->fp8) {
    d->scale_mode = c->scale == S_ROW ? TCJ_SCALE_ROW : c->scale == S_BLOCK ? TCJ_SCALE_BLOCK : TCJ_SCALE_TENSOR;
    d->scale_a = r->sca.before ? (const float *)guard_buf_dev(&r->sca) : NULL;
    d->scale_b = r->scb.before ? (const float *)guard_buf_dev(&r->scb) : NULL;
    d->stride_scale_b = r->stride_scale_b;
  }
  if (c->row_scale) d->row_scale = (const float *)guard_buf_dev(&r->rs);
  if (r->grouped) {
    d->group_mode = r->masked ? TCJ_GROUP_M_MASKED : TCJ_GROUP_M_CONTIGUOUS;
    d->group_count = c->groups;
    if (c->lay == L_ENDS32) d->group_ends32 = (const int32_t *)guard_buf_dev(&r->grp);
    if (c->lay == L_ENDS64) d->group_ends64 = (const int64_t *)guard_buf_dev(&r->grp);
    if (c->lay == L_MASKED) d->group_counts = (const int32_t *)guard_buf_dev(&r->grp);
  }
}

static double scale_at(const guard_buf *s, int64_t i) { return s->before ? gpu_get(TCJ_F32, guard_buf_data(s), (size_t)i) : 1.0; }

/* Reads D (and C) back and checks: no byte of D outside the groups' rows changed (its guard
 * included), C unchanged, every element of every group within its bound. */
static int verify(frun *r, double *worst, char *msg, size_t size) {
  const fcase *c = &r->c;
  int64_t G = r->grouped ? c->groups : r->entries, n = c->n, k = c->k;
  cudaError_t e = guard_buf_download(&g_ctx, &r->d);
  if (!e && r->cb.before) e = guard_buf_download(&g_ctx, &r->cb);
  if (!e) e = cudaStreamSynchronize(g_ctx.stream);
  if (e) return failf(msg, size, c, "the call or the read-back failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
  size_t es = gpu_esize(c->td), total = GUARD_BYTES + r->d.bytes;
  unsigned char *inside = calloc(total, 1);
  if (!inside) return failf(msg, size, c, "host out of memory");
  for (int64_t g = 0; g < G; g++)
    for (int64_t i = r->lo[g]; i < r->hi[g]; i++)
      for (int64_t j = 0; j < n; j++) memset(inside + GUARD_BYTES + (size_t)d_at(r, g, i, j) * es, 1, es);
  for (size_t b = 0; b < total; b++)
    if (!inside[b] && r->d.after[b] != r->d.before[b]) {
      free(inside);
      return failf(msg, size, c, "wrote outside the groups' rows: byte %lld of D (from its first element) changed",
                   (long long)b - GUARD_BYTES);
    }
  free(inside);
  if (r->cb.before && memcmp(r->cb.before, r->cb.after, GUARD_BYTES + r->cb.bytes) != 0)
    return failf(msg, size, c, "C (apart from D) changed");

  double tc = r->fp8 ? TC_FP8 : 0, lip = oracle_act_lipschitz(c->act), ud = oracle_unit_roundoff(c->td);
  int64_t bad = 0, checked = 0, wg = -1, wi = -1, wj = -1;
  double wratio = 0, wgot = 0, wref = 0, wbound = 0;
  const unsigned char *ai = guard_buf_data(&r->a), *bi = guard_buf_data(&r->b);
  for (int64_t g = 0; g < G; g++) {
    int64_t sbase = r->grouped ? g * r->stride_scale_b : 0;
    for (int64_t i = r->lo[g]; i < r->hi[g]; i++) {
      int64_t ri = row_index(r, g, i);
      for (int64_t j = 0; j < n; j++) {
        /* The sums per 128-long K block (one block unless block-scaled: then scaled inside). */
        int64_t blocks = c->scale == S_BLOCK && r->fp8 ? r->kb : 1, per = c->scale == S_BLOCK && r->fp8 ? BLOCK_K : k;
        double sum = 0, tabs = 0;
        for (int64_t q = 0; q < blocks; q++) {
          double bs = 0, bt = 0;
          for (int64_t p = q * per; p < k && p < (q + 1) * per; p++) {
            double x = gpu_get(c->ta, ai, (size_t)a_at(r, g, i, p)) * gpu_get(c->tb, bi, (size_t)b_at(r, g, p, j));
            bs += x;
            bt += fabs(x);
          }
          double w = 1;
          if (c->scale == S_BLOCK && r->fp8)
            w = scale_at(&r->sca, ri * r->kb + q) * scale_at(&r->scb, sbase + (j / BLOCK_K) * r->kb + q);
          sum += w * bs;
          tabs += fabs(w) * bt;
        }
        double f = r->alpha;
        if (r->fp8 && c->scale == S_TENSOR) f *= scale_at(&r->sca, 0) * scale_at(&r->scb, sbase);
        if (r->fp8 && c->scale == S_ROW) f *= scale_at(&r->sca, ri) * scale_at(&r->scb, sbase + j);
        int64_t at = d_at(r, g, i, j);
        double cv = c->beta != 0 ? c->beta * gpu_get(c->td, guard_buf_data(&r->cb), (size_t)at) : 0;
        double bv = r->bias.before ? gpu_get(TCJ_F32, guard_buf_data(&r->bias), (size_t)((r->grouped ? g * n : 0) + j)) : 0;
        double v = f * sum + cv + bv;
        double acc = oracle_ck(k) + tc + (c->scale == S_BLOCK && r->fp8 ? 0x1p-23 : 0);
        double pre = acc * fabs(f) * tabs + 5 * U32 * (fabs(f * sum) + fabs(cv) + fabs(bv));
        double err = lip * pre + oracle_act_abs_error(c->act, fabs(v) + pre), ref = oracle_act(c->act, v);
        if (c->row_scale) {
          double rs = scale_at(&r->rs, ri);
          ref *= rs;
          err = fabs(rs) * err + U32 * fabs(ref);
        }
        double bound = err * (1 + ud) + 2 * ud * fabs(ref) + oracle_abs_floor(c->td);
        double got = gpu_get(c->td, guard_buf_back(&r->d), (size_t)at), diff = fabs(got - ref);
        double ratio = diff != diff ? INFINITY : diff == 0 ? 0 : bound > 0 ? diff / bound : INFINITY;
        checked++;
        if (!(ratio <= 1)) bad++;
        if (wg < 0 || !(ratio <= wratio)) {
          wg = g, wi = i, wj = j, wgot = got, wref = ref, wbound = bound;
          wratio = ratio;
        }
      }
    }
  }
  if (bad)
    return failf(msg, size, c,
                 "%lld of %lld elements outside their bound; worst group %lld row %lld col %lld: got %.9g, want %.9g, "
                 "|error| / bound %.3g (bound %.3g)",
                 (long long)bad, (long long)checked, (long long)wg, (long long)wi, (long long)wj, wgot, wref, wratio,
                 wbound);
  if (checked && wratio > *worst) *worst = wratio;
  return 1;
}

/* ---- what each pass must run or refuse ------------------------------------------------------ */

/* The refusal a case must get in this pass (TCJ_SUCCESS: it must run): fp8 before sm_89; block
 * scales off the sm90 recipe (the sm80 pass, GPUs other than 9.0, grouped calls that wgmma cannot
 * read: grouped calls pack nothing); in the sm90 pass, grouped fp8 whose operands are not
 * K-major and 16-byte rows. */
static tcj_status expected(const fcase *c) {
  int fp8 = is_fp8(c->ta), grouped = c->lay != L_NONE;
  int kmajor = c->op_a == TCJ_OP_N && c->op_b == TCJ_OP_T && !c->col_major;
  int rows16 = (c->k * (int64_t)gpu_esize(c->ta)) % 16 == 0;
  if (fp8 && g_cc < 89) return TCJ_ERROR_NOT_SUPPORTED;
  if (fp8 && c->scale == S_BLOCK && (g_pass == PASS_SM80 || g_cc != 90 || (grouped && !(kmajor && rows16))))
    return TCJ_ERROR_NOT_SUPPORTED;
  if (g_pass == PASS_SM90 && grouped && (!rows16 || (fp8 && !kmajor))) return TCJ_ERROR_NOT_SUPPORTED;
  return TCJ_SUCCESS;
}

static int run_case(const fcase *c, double *worst, int *refused, char *msg, size_t size) {
  frun r;
  msg[0] = '\0';
  int ok = prepare(&r, c, msg, size);
  if (ok) {
    tcj_gemm_desc d;
    make_desc(&r, &d);
    tcj_status want = expected(c), st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
    if (st != want) {
      ok = failf(msg, size, c, "tcj_gemm_ex returned %s (wanted %s): %s", tcj_status_string(st), tcj_status_string(want),
                 st != TCJ_SUCCESS ? tcj_last_error(g_eng) : "");
    } else if (st != TCJ_SUCCESS) {
      (*refused)++;
      /* Nothing launched: D is as it was. */
      cudaError_t e = guard_buf_download(&g_ctx, &r.d);
      if (!e) e = cudaStreamSynchronize(g_ctx.stream);
      if (e || memcmp(r.d.after, r.d.before, GUARD_BYTES + r.d.bytes) != 0)
        ok = failf(msg, size, c, "a refused call changed D");
      run_free(&r);
      return ok;
    }
  }
  if (ok) ok = verify(&r, worst, msg, size);
  run_free(&r);
  return ok;
}

static void run_list(const char *what, const fcase *cases, int count, uint64_t salt) {
  char msg[MSG_SIZE];
  int failed = 0, refused = 0;
  double worst = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < count; i++) {
    fcase c = cases[i];
    c.seed = g_seed_base + salt + 7919 * (uint64_t)i;
    if (!run_case(&c, &worst, &refused, msg, sizeof msg)) {
      failed++;
      printf("  FAIL %s\n", msg);
    }
    fflush(stdout);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("  %s: %d cases, %d refused as expected, %d failed, worst |err|/bound %.3f, %.1f s\n", what, count, refused,
         failed, worst, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, count);
  assert_true(refused < count); /* something computed */
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void scales_match_reference_on_the_default_recipe(void **state) {
  (void)state;
  g_pass = PASS_DEFAULT;
  run_list("default", CASES, NCASES(CASES), 0);
}

static void run_pass(int pass, const char *recipe) {
  tcj_engine *e = gpu_engine_under(recipe), *keep = g_eng;
  assert_non_null(e);
  g_eng = e;
  g_pass = pass;
  run_list(recipe, CASES, NCASES(CASES), 1000003);
  g_eng = keep;
  g_pass = PASS_DEFAULT;
  tcj_destroy(e);
}

static void scales_match_reference_on_the_sm80_recipe(void **state) {
  (void)state;
  run_pass(PASS_SM80, "sm80");
}

static void scales_match_reference_on_the_sm90_recipe(void **state) {
  (void)state;
  gpu_skip_unless_sm90(g_cc);
  run_pass(PASS_SM90, "sm90");
}

/* Host-side refusals, each naming its field, nothing launched (D untouched is checked by the
 * tables' refused cases; here the statuses and names). */
static void host_side_refusals_name_the_field(void **state) {
  (void)state;
  frun r;
  char msg[MSG_SIZE];
  fcase c = CASES[0];
  c.seed = g_seed_base;
  assert_true(prepare(&r, &c, msg, sizeof msg));
  static const struct { const char *field; tcj_status st; } want[] = {
    {"stride_scale_b", TCJ_ERROR_INVALID_VALUE}, /* negative */
    {"stride_scale_b", TCJ_ERROR_INVALID_VALUE}, /* without groups */
    {"row", TCJ_ERROR_NOT_SUPPORTED},            /* row scales over a batch */
    {"row_scale", TCJ_ERROR_NOT_SUPPORTED},      /* column-major */
    {"row_scale", TCJ_ERROR_INVALID_VALUE},      /* misaligned */
    {"stride_scale_b", TCJ_ERROR_INVALID_VALUE}, /* on bf16 operands */
  };
  for (int i = 0; i < NCASES(want); i++) {
    tcj_gemm_desc d;
    make_desc(&r, &d);
    switch (i) {
    case 0: d.stride_scale_b = -1; break;
    case 1:
      d.group_mode = TCJ_GROUP_NONE, d.group_count = 0, d.group_ends32 = NULL, d.stride_b = 0;
      d.stride_scale_b = 1;
      break;
    case 2:
      d.group_mode = TCJ_GROUP_NONE, d.group_count = 0, d.group_ends32 = NULL;
      d.m = 256, d.batch_count = 2, d.stride_a = 256 * d.k, d.stride_d = 256 * d.n, d.scale_mode = TCJ_SCALE_ROW;
      d.stride_scale_b = 0;
      break;
    case 3:
      d.group_mode = TCJ_GROUP_NONE, d.group_count = 0, d.group_ends32 = NULL, d.stride_b = 0, d.stride_scale_b = 0;
      d.order = TCJ_ORDER_COL_MAJOR, d.row_scale = (const float *)guard_buf_dev(&r.sca);
      d.op_a = TCJ_OP_T, d.op_b = TCJ_OP_N, d.ldc = d.ldd = d.m; /* the same extents, column-major */
      break;
    case 4: d.row_scale = (const float *)((const char *)guard_buf_dev(&r.sca) + 2); break;
    case 5:
      d.a_type = d.b_type = TCJ_BF16, d.scale_a = d.scale_b = NULL, d.lda = d.k, d.ldb = d.k;
      break;
    }
    tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
    const char *text = tcj_last_error(g_eng);
    if (st != want[i].st || !text || !strstr(text, want[i].field))
      printf("  refusal %d: %s (%s), wanted %s naming %s\n", i, tcj_status_string(st), text ? text : "",
             tcj_status_string(want[i].st), want[i].field);
    assert_int_equal(st, want[i].st);
    assert_non_null(strstr(text, want[i].field));
  }
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);
  run_free(&r);
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("grouped fp8 and row-scale checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_cc = 10 * prop.major + prop.minor;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_side_refusals_name_the_field),
      cmocka_unit_test(scales_match_reference_on_the_default_recipe),
      cmocka_unit_test(scales_match_reference_on_the_sm80_recipe),
      cmocka_unit_test(scales_match_reference_on_the_sm90_recipe),
  };
  int failures = cmocka_run_group_tests_name("grouped_fp8_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
