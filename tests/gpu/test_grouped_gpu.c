/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of grouped GEMM (tcj_gemm_desc.group_mode) through the public API only:
 * m-grouped CONTIGUOUS calls (int32 and int64 device end offsets, torch._grouped_mm's `offs`)
 * and MASKED calls (device row counts per entry of a strided batch), each element of each group
 * against the float64 reference of tests/gpu/oracle.h (oracle_ep_element: a bound per element
 * from |A||B|, the epilogue's fp32 adds, the activation, D's rounding).
 *
 * Every buffer ends where its mapping ends (guard_buf.h), so a read or write one element past A,
 * B, C, D, the bias, the residual or the ends/counts array faults; D has poison before it and
 * is poisoned itself before every call, and every byte of it outside the groups' rows (rows past
 * the last end; rows past counts[g] in entry g; the guard) must come back as it was, while every
 * element inside must be within its bound (poison, a NaN, never is). A C apart from D must not
 * change. Device values the host cannot check (ends out of order or past m, counts negative or
 * past m) are judged against the clamping tcj.h's grouped section gives.
 *
 * Covered: group counts 1 to 1024 with skewed sizes (empty groups, one-row groups, one group
 * with every row, groups past 2048 rows, rows past the last end); op_a N and T; B as [G, N, K]
 * (op_b T), [G, K, N] (op_b N) and one B for all (stride_b 0); bf16 and f16 operands into
 * bf16, f16 and f32; C apart (read, or NaN and not read) and C == D in place; device alpha and
 * beta; a column bias per group and shared, every activation; a user epilogue per mode (row,
 * col and batch as tcj.h defines them per mode); CUDA graph replays with new ends; empty calls;
 * host-side refusals (status and the field the message names, nothing launched). On compute
 * capability 9.0 the tables run a second time under TCJ_RECIPE=sm90 (the sm90 recipe's grouped
 * kernel; TCJ_TEST_FILTER=sm90* runs that pass alone), a third with every call on 2-CTA
 * clusters along M (TCJ_TILE, a pair of tile rows of one group per unit, B multicast) and a
 * fourth on ping-pong consumers (TCJ_TILE, two 64-row tiles in turn).
 *
 * Without a GPU it prints SKIP and exits 77. TCJ_TEST_SEED changes the data, TCJ_TEST_FILTER /
 * TCJ_TEST_SKIP select tests (cmocka patterns). */
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

static tcj_engine *g_eng;
static uint64_t g_seed_base = 0x96009ed5eedull;
static guard_ctx g_ctx; /* the buffers' vmm API, device, guard and stream */
static int g_cc; /* compute capability, 10 * major + minor */
/* The sm90 pass (TCJ_RECIPE=sm90): cases whose operands TMA cannot read (rows or bases off 16
 * bytes, which the forced recipe refuses) are left out, and counted. */
static int g_tma_only, g_left_out;

/* ---- cases --------------------------------------------------------------------------------- */

typedef enum layout { L_ENDS32, L_ENDS64, L_MASKED } layout;
static const char *const LAYOUT_NAMES[] = {"contiguous/ends32", "contiguous/ends64", "masked"};

typedef enum c_mode {
  C_NONE,    /* c = NULL, beta 0 */
  C_APART,   /* C apart from D; must not change. beta 0: C holds NaN and must not be read */
  C_IN_PLACE /* d == c (same pointer, ld, stride, dtype) */
} c_mode;
static const char *const CM_NAMES[] = {"C=NULL", "C apart", "C==D"};

typedef enum sizes_kind {
  SIZES_SKEWED,    /* drawn (draw_sizes / draw_counts) */
  SIZES_ONE_GROUP, /* every row in group G / 2, the others empty */
  SIZES_GIVEN,     /* the device values are the case's `given` */
} sizes_kind;

typedef struct grp_case {
  const char *what;
  layout lay;
  tcj_dtype ab, d_type; /* operands; C and D (C has D's type) */
  tcj_op op_a, op_b;
  int64_t m, n, k; /* m: rows of A, C, D (contiguous) or rows per entry (masked) */
  int64_t groups;
  int64_t unused;  /* contiguous, drawn sizes: rows left past the last end (never written) */
  sizes_kind sizes;
  const int64_t *given; /* SIZES_GIVEN: groups device values (ends or counts), as stored */
  int shared_b;         /* stride_b 0: one B for every group */
  float alpha;          /* 0: 1.5 / sqrt(k), which keeps alpha * AB where the activations bend */
  int alpha_zero;       /* a host alpha of exactly 0: the call runs as k == 0 (no mainloop) */
  float beta;
  int dev_scalars; /* alpha and beta through alpha_ptr / beta_ptr (the fields hold junk) */
  c_mode cm;
  tcj_bias_kind bias;
  int shared_bias;      /* stride_bias 0 (else n: one bias per group) */
  tcj_dtype bias_type;  /* 0 (TCJ_F16) is a valid type: the tables say it where a bias is set */
  tcj_activation act;
  int user; /* the residual user epilogue (USER_SRC) */
  int64_t hint; /* group_rows_hint */
  uint64_t seed;
} grp_case;

/* v + R[batch * bs + row * ld + col] + batch / 16: R is exactly the rows of D (one m x n entry
 * per group for MASKED, where row is the entry's own row; the m x n of D for CONTIGUOUS, where
 * row is D's row and bs = 0), so a wrong row, col or batch reads a wrong value or faults. */
static const char USER_SRC[] =
    "struct P { const float *r; long long ld, bs; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                           long long batch, const void *params) {\n"
    "  const P *p = (const P *)params;\n"
    "  return v + p->r[batch * p->bs + row * p->ld + col] + 0.0625f * (float)batch;\n"
    "}\n";

static const char *act_name(tcj_activation a) {
  static const char *const names[] = {"none", "relu", "gelu", "gelu_tanh", "silu"};
  return (unsigned)a < sizeof names / sizeof *names ? names[a] : "?";
}

static int describe(const grp_case *c, char *buf, size_t size) {
  return snprintf(buf, size,
                  "[%s] %s %s->%s op=%c%c m=%lld n=%lld k=%lld G=%lld unused=%lld sizes=%d stride_b=%s %s "
                  "alpha=%g beta=%g%s bias=%s%s act=%s user=%d hint=%lld seed=0x%llx",
                  c->what, LAYOUT_NAMES[c->lay], tcj_dtype_name(c->ab), tcj_dtype_name(c->d_type),
                  c->op_a ? 'T' : 'N', c->op_b ? 'T' : 'N', (long long)c->m, (long long)c->n, (long long)c->k,
                  (long long)c->groups, (long long)c->unused, (int)c->sizes, c->shared_b ? "0" : "n*k",
                  CM_NAMES[c->cm], c->alpha_zero ? 0.0 : c->alpha != 0 ? c->alpha : 1.5 / sqrt((double)(c->k > 0 ? c->k : 1)), c->beta, c->dev_scalars ? " (device)" : "",
                  c->bias == TCJ_BIAS_COL ? (c->shared_bias ? "col/shared " : "col/per-group ") : "none",
                  c->bias == TCJ_BIAS_COL ? tcj_dtype_name(c->bias_type) : "", act_name(c->act), c->user,
                  (long long)c->hint, (unsigned long long)c->seed);
}

static int failf(char *msg, size_t size, const grp_case *c, const char *fmt, ...) {
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

/* ---- group sizes --------------------------------------------------------------------------- */

static double runit(rng *g) { return (double)(rng_next(g) >> 11) * 0x1p-53; } /* [0, 1) */

/* Sizes of G groups summing to `rows`, skewed (weights u^3, about one group in eight empty):
 * with 3 groups or more group 0 is empty and group 1 has one row; one group (G / 2, or the last
 * of 2 or 3) takes about half the rows, more than 2048 once rows passes 4200. */
static void draw_sizes(int64_t G, int64_t rows, rng *g, int64_t *size) {
  memset(size, 0, sizeof *size * (size_t)G);
  if (G == 1) {
    size[0] = rows;
    return;
  }
  int64_t big = G >= 4 ? G / 2 : G - 1, rest = rows;
  double *w = calloc((size_t)G, sizeof *w), total = 0;
  assert_non_null(w);
  for (int64_t i = 0; i < G; i++) {
    double u = runit(g);
    w[i] = rng_next(g) % 8 == 0 ? 0 : u * u * u + 1e-3;
  }
  if (G >= 3 && rest > 0) {
    w[0] = w[1] = 0;
    size[1] = 1;
    rest--;
  }
  w[big] = 0;
  for (int64_t i = 0; i < G; i++) total += w[i];
  w[big] = total > 0 ? total : 1; /* about half of what is left */
  total += w[big];
  int64_t left = rest;
  for (int64_t i = 0; i < G; i++)
    if (i != big) {
      int64_t s = (int64_t)floor((double)rest * w[i] / total);
      size[i] += s;
      left -= s;
    }
  size[big] += left;
  free(w);
}

/* Counts of G entries of m rows: skewed in [0, m]; with G >= 3, entry 0 has 0 rows, entry 1 all
 * m, entry 2 one. */
static void draw_counts(int64_t G, int64_t m, rng *g, int64_t *count) {
  for (int64_t i = 0; i < G; i++) {
    double u = runit(g);
    count[i] = (int64_t)floor(u * u * (double)(m + 1));
    if (count[i] > m) count[i] = m;
  }
  if (G >= 3) count[0] = 0, count[1] = m, count[2] = m > 0 ? 1 : 0;
}

/* The rows [lo[g], hi[g]) each group computes, as tcj.h's clamping reads the device values:
 * CONTIGUOUS end[g] = min(max(end[g], end[g-1]), m) with end[-1] = 0 and end[g-1] the value so
 * taken (a running maximum: groups never overlap); D's rows. MASKED [0, min(max(count, 0), m)),
 * rows of entry g. */
static void clamp_groups(const grp_case *c, const int64_t *raw, int64_t *lo, int64_t *hi) {
  int64_t prev = 0;
  for (int64_t g = 0; g < c->groups; g++) {
    int64_t v = raw[g];
    if (c->lay == L_MASKED) {
      lo[g] = 0;
      hi[g] = v < 0 ? 0 : v > c->m ? c->m : v;
    } else {
      if (v < prev) v = prev;
      if (v > c->m) v = c->m;
      lo[g] = prev;
      hi[g] = prev = v;
    }
  }
}

/* ---- one case in flight -------------------------------------------------------------------- */

typedef struct grp_run {
  grp_case c;
  int masked;
  int64_t entries; /* A, C, D entries: G masked, 1 contiguous */
  int64_t lda, ldb, sa, sb, sd, sbias; /* sd: C's and D's entry stride (masked: m * n) */
  float alpha, beta;
  int64_t *raw, *lo, *hi; /* device values as stored (int64 images), clamped row ranges */
  guard_buf a, b, cb, d, bias, res, prm, scal, grp;
} grp_run;

static void run_free(grp_run *r) {
  guard_buf *all[] = {&r->a, &r->b, &r->cb, &r->d, &r->bias, &r->res, &r->prm, &r->scal, &r->grp};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) guard_buf_free(&g_ctx, all[i]);
  free(r->raw);
  free(r->lo);
  free(r->hi);
  memset(r, 0, sizeof *r);
}

static void fill_uniform(tcj_dtype t, unsigned char *img, int64_t count, rng *g) {
  for (int64_t i = 0; i < count; i++) gpu_put(t, img, (size_t)i, 4 * runit(g) - 2); /* [-2, 2) */
}

/* Stores the device values of the groups (int32 or int64) into r->grp's image. */
static void store_groups(grp_run *r) {
  for (int64_t g = 0; g < r->c.groups; g++) {
    if (r->c.lay == L_ENDS64) {
      memcpy(guard_buf_data(&r->grp) + 8 * g, &r->raw[g], 8);
    } else {
      int32_t v = (int32_t)r->raw[g];
      memcpy(guard_buf_data(&r->grp) + 4 * g, &v, 4);
    }
  }
  clamp_groups(&r->c, r->raw, r->lo, r->hi);
}

/* The device values of case c (drawn with g, or given). */
static void make_groups(grp_run *r, rng *g) {
  const grp_case *c = &r->c;
  int64_t G = c->groups;
  if (c->sizes == SIZES_GIVEN) {
    memcpy(r->raw, c->given, sizeof *r->raw * (size_t)G);
  } else if (r->masked) {
    if (c->sizes == SIZES_ONE_GROUP) {
      for (int64_t i = 0; i < G; i++) r->raw[i] = i == G / 2 ? c->m : 0;
    } else {
      draw_counts(G, c->m, g, r->raw);
    }
  } else {
    int64_t rows = c->m - c->unused;
    if (c->sizes == SIZES_ONE_GROUP) {
      for (int64_t i = 0; i < G; i++) r->raw[i] = 0;
      r->raw[G / 2] = rows;
    } else {
      draw_sizes(G, rows, g, r->raw);
    }
    for (int64_t i = 1; i < G; i++) r->raw[i] += r->raw[i - 1]; /* sizes to ends */
  }
  store_groups(r);
}

/* Host images, device buffers and uploads for case c. Returns 1, or 0 with msg. */
static int prepare(grp_run *r, const grp_case *c, char *msg, size_t size) {
  memset(r, 0, sizeof *r);
  r->c = *c;
  r->masked = c->lay == L_MASKED;
  int64_t G = c->groups, m = c->m, n = c->n, k = c->k;
  r->entries = r->masked ? G : 1;
  r->lda = c->op_a == TCJ_OP_N ? k : m;
  r->ldb = c->op_b == TCJ_OP_T ? k : n;
  r->sa = r->masked ? m * k : 0;
  r->sb = c->shared_b ? 0 : n * k;
  r->sd = r->masked ? m * n : 0;
  r->sbias = c->shared_bias ? 0 : n;
  r->alpha = c->alpha_zero ? 0.0f : c->alpha != 0 ? c->alpha : (float)(1.5 / sqrt((double)(k > 0 ? k : 1)));
  r->beta = c->beta;
  r->raw = calloc((size_t)G + 1, sizeof *r->raw);
  r->lo = calloc((size_t)G + 1, sizeof *r->lo);
  r->hi = calloc((size_t)G + 1, sizeof *r->hi);
  size_t ea = gpu_esize(c->ab), ed = gpu_esize(c->d_type);
  int64_t d_elems = r->entries * m * n, b_entries = c->shared_b ? 1 : G;
  int ok = r->raw && r->lo && r->hi && guard_buf_alloc(&g_ctx, &r->a, (size_t)(r->entries * m * k) * ea, 0xFF) &&
           guard_buf_alloc(&g_ctx, &r->b, (size_t)(b_entries * n * k) * ea, 0xFF) &&
           guard_buf_alloc(&g_ctx, &r->d, (size_t)d_elems * ed, gpu_poison_byte(c->d_type)) &&
           guard_buf_alloc(&g_ctx, &r->grp, (size_t)G * (c->lay == L_ENDS64 ? 8 : 4), 0xA5) &&
           guard_buf_alloc(&g_ctx, &r->scal, 2 * sizeof(float), 0);
  if (ok && c->cm == C_APART)
    ok = guard_buf_alloc(&g_ctx, &r->cb, (size_t)d_elems * ed, gpu_poison_byte(c->d_type));
  if (ok && c->bias == TCJ_BIAS_COL)
    ok = guard_buf_alloc(&g_ctx, &r->bias, (size_t)((c->shared_bias ? 1 : G) * n) * gpu_esize(c->bias_type), 0xFF);
  if (ok && c->user)
    ok = guard_buf_alloc(&g_ctx, &r->res, (size_t)d_elems * 4, 0xFF) && guard_buf_alloc(&g_ctx, &r->prm, 24, 0);
  if (!ok) return failf(msg, size, c, "cannot allocate (host or device)");
  rng g = {c->seed};
  fill_uniform(c->ab, guard_buf_data(&r->a), r->entries * m * k, &g);
  fill_uniform(c->ab, guard_buf_data(&r->b), b_entries * n * k, &g);
  if (r->bias.before) fill_uniform(c->bias_type, guard_buf_data(&r->bias), (int64_t)(r->bias.bytes / gpu_esize(c->bias_type)), &g);
  if (r->res.before) fill_uniform(TCJ_F32, guard_buf_data(&r->res), d_elems, &g);
  if (c->cm == C_APART && c->beta != 0) fill_uniform(c->d_type, guard_buf_data(&r->cb), d_elems, &g);
  if (c->cm == C_IN_PLACE) fill_uniform(c->d_type, guard_buf_data(&r->d), d_elems, &g); /* C's values, in D */
  if (c->user) {
    struct { uint64_t r; long long ld, bs; } p = {(uint64_t)(uintptr_t)guard_buf_dev(&r->res), n, r->masked ? m * n : 0};
    memcpy(guard_buf_data(&r->prm), &p, sizeof p);
  }
  float sc[2] = {r->alpha, r->beta};
  memcpy(guard_buf_data(&r->scal), sc, sizeof sc);
  make_groups(r, &g);
  guard_buf *all[] = {&r->a, &r->b, &r->cb, &r->d, &r->bias, &r->res, &r->prm, &r->scal, &r->grp};
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < sizeof all / sizeof *all && !e; i++)
    if (all[i]->before) e = guard_buf_upload(&g_ctx, all[i]);
  if (!e) e = cudaStreamSynchronize(g_ctx.stream);
  if (e) return failf(msg, size, c, "upload failed: %s", cudaGetErrorName(e));
  return 1;
}

static void make_desc(const grp_run *r, tcj_gemm_desc *d) {
  const grp_case *c = &r->c;
  tcj_gemm_desc init = TCJ_GEMM_DESC_INIT;
  *d = init;
  d->op_a = c->op_a;
  d->op_b = c->op_b;
  d->m = c->m;
  d->n = c->n;
  d->k = c->k;
  d->a = guard_buf_dev(&r->a);
  d->a_type = d->b_type = c->ab;
  d->lda = r->lda;
  d->b = guard_buf_dev(&r->b);
  d->ldb = r->ldb;
  d->c_type = d->d_type = c->d_type;
  d->ldc = d->ldd = c->n;
  d->d = guard_buf_dev(&r->d);
  d->c = c->cm == C_APART ? guard_buf_dev(&r->cb) : c->cm == C_IN_PLACE ? d->d : NULL;
  d->stride_c = c->cm == C_NONE ? 0 : r->sd;
  d->stride_d = r->sd;
  d->alpha = c->dev_scalars ? 1000.0f : r->alpha;
  d->beta = c->dev_scalars ? -777.0f : r->beta;
  if (c->dev_scalars) {
    d->alpha_ptr = (const float *)guard_buf_dev(&r->scal);
    d->beta_ptr = (const float *)guard_buf_dev(&r->scal) + 1;
  }
  if (c->bias == TCJ_BIAS_COL) {
    d->bias = guard_buf_dev(&r->bias);
    d->bias_type = c->bias_type;
    d->bias_kind = TCJ_BIAS_COL;
    d->stride_bias = r->sbias;
  }
  d->activation = c->act;
  d->stride_a = r->sa;
  d->stride_b = r->sb;
  if (c->user) {
    d->epilogue_source = USER_SRC;
    d->epilogue_params = guard_buf_dev(&r->prm);
  }
  d->group_mode = r->masked ? TCJ_GROUP_M_MASKED : TCJ_GROUP_M_CONTIGUOUS;
  d->group_count = c->groups;
  if (c->lay == L_ENDS32) d->group_ends32 = (const int32_t *)guard_buf_dev(&r->grp);
  if (c->lay == L_ENDS64) d->group_ends64 = (const int64_t *)guard_buf_dev(&r->grp);
  if (c->lay == L_MASKED) d->group_counts = (const int32_t *)guard_buf_dev(&r->grp);
  d->group_rows_hint = c->hint;
}

/* Element index in D (and C, R) of row i of group g: D's row for CONTIGUOUS, entry g's row for
 * MASKED. */
static int64_t d_index(const grp_run *r, int64_t g, int64_t i, int64_t j) {
  return (r->masked ? g * r->sd : 0) + i * r->c.n + j;
}

/* Reads D (and C apart) back and checks: no byte of D's buffer outside the groups' rows changed
 * (the guard before it included); C apart unchanged; every element of every group within its
 * bound of the fp64 reference. Returns 1, or 0 with msg; *worst takes the largest ratio. */
static int verify(grp_run *r, double *worst, char *msg, size_t size) {
  const grp_case *c = &r->c;
  int64_t G = c->groups, n = c->n, k = c->k;
  cudaError_t e = guard_buf_download(&g_ctx, &r->d);
  if (!e && r->cb.before) e = guard_buf_download(&g_ctx, &r->cb);
  if (!e) e = cudaStreamSynchronize(g_ctx.stream);
  if (e) return failf(msg, size, c, "the call or the read-back failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
  size_t es = gpu_esize(c->d_type), total = GUARD_BYTES + r->d.bytes;
  unsigned char *inside = calloc(total, 1);
  if (!inside) return failf(msg, size, c, "host out of memory");
  int64_t rows_in = 0;
  for (int64_t g = 0; g < G; g++)
    for (int64_t i = r->lo[g]; i < r->hi[g]; i++, rows_in++)
      memset(inside + GUARD_BYTES + (size_t)d_index(r, g, i, 0) * es, 1, (size_t)n * es);
  for (size_t b = 0; b < total; b++)
    if (!inside[b] && r->d.after[b] != r->d.before[b]) {
      free(inside);
      if (b < GUARD_BYTES) return failf(msg, size, c, "wrote before D: byte %zu of the guard changed", GUARD_BYTES - b);
      int64_t el = (int64_t)((b - GUARD_BYTES) / es), ent = r->masked ? el / r->sd : 0, in = el - ent * r->sd;
      return failf(msg, size, c,
                   "wrote outside the groups: D element %lld (entry %lld, row %lld, column %lld) changed from 0x%02x "
                   "to 0x%02x",
                   (long long)el, (long long)ent, (long long)(in / n), (long long)(in % n), r->d.before[b], r->d.after[b]);
    }
  free(inside);
  if (r->cb.before && memcmp(r->cb.before, r->cb.after, GUARD_BYTES + r->cb.bytes) != 0)
    return failf(msg, size, c, "C (apart from D) changed");

  oracle_ep ep = {k, r->alpha, r->beta, c->act, c->d_type, c->user ? 2 : 0, 0};
  const unsigned char *cimg = c->cm == C_IN_PLACE ? guard_buf_data(&r->d) : c->cm == C_APART ? guard_buf_data(&r->cb) : NULL;
  double *arow = malloc(sizeof *arow * (size_t)(k + 1)), *bt = malloc(sizeof *bt * (size_t)(n * k + 1));
  if (!arow || !bt) {
    free(arow);
    free(bt);
    return failf(msg, size, c, "host out of memory");
  }
  int64_t bad = 0, checked = 0, wg = -1, wi = -1, wj = -1, bt_of = -1;
  double wratio = 0, wgot = 0, wref = 0, wbound = 0;
  for (int64_t g = 0; g < G; g++) {
    if (r->hi[g] <= r->lo[g]) continue;
    int64_t bg = c->shared_b ? 0 : g;
    if (bt_of != bg) { /* op(B_g)^T, n x k */
      const unsigned char *bimg = guard_buf_data(&r->b);
      for (int64_t j = 0; j < n; j++)
        for (int64_t p = 0; p < k; p++)
          bt[j * k + p] = gpu_get(c->ab, bimg, (size_t)(bg * r->sb + (c->op_b == TCJ_OP_T ? j * k + p : p * n + j)));
      bt_of = bg;
    }
    for (int64_t i = r->lo[g]; i < r->hi[g]; i++) {
      for (int64_t p = 0; p < k; p++)
        arow[p] = gpu_get(c->ab, guard_buf_data(&r->a),
                          (size_t)(g * r->sa + (c->op_a == TCJ_OP_N ? i * k + p : p * r->lda + i)));
      for (int64_t j = 0; j < n; j++) {
        double s, t;
        oracle_dot(arow, bt + j * k, k, &s, &t);
        int64_t at = d_index(r, g, i, j);
        double cv = cimg && r->beta != 0 ? gpu_get(c->d_type, cimg, (size_t)at) : 0;
        double bv = c->bias == TCJ_BIAS_COL ? gpu_get(c->bias_type, guard_buf_data(&r->bias), (size_t)(g * r->sbias + j)) : 0;
        double ua = 0, uabs = 0;
        if (c->user) {
          double res = gpu_get(TCJ_F32, guard_buf_data(&r->res), (size_t)at), idx = 0.0625 * (double)(float)g;
          ua = res + idx;
          uabs = fabs(res) + fabs(idx);
        }
        double got = gpu_get(c->d_type, guard_buf_back(&r->d), (size_t)at), ref, bound;
        double ratio = oracle_ep_element(&ep, s, t, cv, bv, ua, uabs, got, &ref, &bound);
        checked++;
        if (!(ratio <= 1)) bad++;
        if (wg < 0 || !(ratio <= wratio)) {
          wg = g, wi = i, wj = j;
          wgot = got, wref = ref, wbound = bound;
          wratio = ratio != ratio ? INFINITY : ratio;
        }
      }
    }
  }
  free(arow);
  free(bt);
  if (bad)
    return failf(msg, size, c,
                 "%lld of %lld elements (%lld rows) outside their bound; worst group %lld row %lld col %lld: got %.9g, "
                 "want %.9g, |error| / bound %.3g (bound %.3g)",
                 (long long)bad, (long long)checked, (long long)rows_in, (long long)wg, (long long)wi, (long long)wj,
                 wgot, wref, wratio, wbound);
  if (worst && checked && wratio > *worst) *worst = wratio;
  return 1;
}

/* One call of case c: 1 passed, 0 failed (msg). */
static int run_case(const grp_case *c, double *worst, char *msg, size_t size) {
  grp_run r;
  msg[0] = '\0';
  int ok = prepare(&r, c, msg, size);
  if (ok) {
    tcj_gemm_desc d;
    make_desc(&r, &d);
    tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
    if (st != TCJ_SUCCESS) ok = failf(msg, size, c, "tcj_gemm_ex returned %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
  }
  if (ok) ok = verify(&r, worst, msg, size);
  run_free(&r);
  return ok;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* Whether TMA reads case c's A and B as prepare() lays them out: rows, entries and the buffers'
 * bases (each buffer ends where its mapping ends) on 16 bytes. */
static int tma_reads(const grp_case *c) {
  int64_t es = (int64_t)gpu_esize(c->ab), entries = c->lay == L_MASKED ? c->groups : 1;
  int64_t lda = c->op_a == TCJ_OP_N ? c->k : c->m, ldb = c->op_b == TCJ_OP_T ? c->k : c->n;
  int64_t a_bytes = entries * c->m * c->k * es, b_bytes = (c->shared_b ? 1 : c->groups) * c->n * c->k * es;
  return (lda * es) % 16 == 0 && (ldb * es) % 16 == 0 && (c->m * c->k * es) % 16 == 0 &&
         (c->n * c->k * es) % 16 == 0 && a_bytes % 16 == 0 && b_bytes % 16 == 0;
}

/* Runs a table of cases (seeds offset by the table's salt), prints each failure and one line. */
static void run_list(const char *what, const grp_case *cases, int count, uint64_t salt) {
  char msg[MSG_SIZE];
  int failed = 0;
  double worst = 0;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < count; i++) {
    grp_case c = cases[i];
    c.seed = g_seed_base + salt + 7919 * (uint64_t)i;
    if (g_tma_only && !tma_reads(&c)) {
      g_left_out++;
      continue;
    }
    if (!run_case(&c, &worst, msg, sizeof msg)) {
      failed++;
      printf("  FAIL %s\n", msg);
    }
    fflush(stdout);
  }
  printf("  %s: %d cases, %d failed, worst |err|/bound %.3f, %.1f s\n", what, count, failed, worst, seconds_since(&t0));
  if (failed) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed, count);
}

#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- 1. contiguous groups: counts, widths, sizes ------------------------------------------- */

/* G = 1 to 1024 with each end width; skewed sizes (empty and one-row groups, a group past 2048
 * rows from G = 7 on), some rows past the last end; B as [G, N, K] or [G, K, N]. */
static void contiguous_groups_of_every_count_match_reference(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "G=1, every row", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 1000, .n = 256, .k = 64, .groups = 1},
      {.what = "G=1, rows past the end", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_T,
       .m = 1000, .n = 256, .k = 64, .groups = 1, .unused = 37},
      {.what = "G=2", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 3000, .n = 200, .k = 72, .groups = 2, .unused = 10},
      {.what = "G=2", .lay = L_ENDS64, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 3000, .n = 200, .k = 72, .groups = 2},
      {.what = "G=7", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_F16, .op_b = TCJ_OP_T,
       .m = 5000, .n = 384, .k = 128, .groups = 7, .unused = 100},
      {.what = "G=7", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_BF16, .op_b = TCJ_OP_N,
       .m = 5000, .n = 384, .k = 128, .groups = 7, .unused = 1},
      {.what = "G=64", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_N,
       .m = 8192, .n = 256, .k = 128, .groups = 64, .unused = 555},
      {.what = "G=64", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F32, .op_b = TCJ_OP_T,
       .m = 8192, .n = 256, .k = 128, .groups = 64},
      {.what = "G=256", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_T,
       .m = 12000, .n = 384, .k = 64, .groups = 256, .unused = 3},
      {.what = "G=256", .lay = L_ENDS64, .ab = TCJ_BF16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 12000, .n = 384, .k = 64, .groups = 256, .unused = 999},
      {.what = "G=1024, hint 16", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 16384, .n = 256, .k = 64, .groups = 1024, .hint = 16},
      {.what = "G=1024", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_N,
       .m = 16000, .n = 256, .k = 64, .groups = 1024, .unused = 17},
  };
  run_list("contiguous, G = 1 .. 1024", cases, NCASES(cases), 100);
}

/* ---- 2. contiguous: operand layouts and shapes ----------------------------------------------- */

/* B as [G, N, K] and [G, K, N], one B for every group, every row in one group of seven, k of
 * 8-byte rows (narrow copies), wide n and deep k. Contiguous groups with A op T are refused in
 * this release (a group may start at any column of A: see the refusals); masked ones run it. */
static void contiguous_layouts_and_shapes_match_reference(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "B [G,N,K]", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 4096, .n = 256, .k = 128, .groups = 7, .unused = 40},
      {.what = "B [G,K,N]", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_N, .m = 2048, .n = 264, .k = 64, .groups = 5},
      {.what = "k 36 (8-byte rows of A and B)", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F16,
       .op_b = TCJ_OP_T, .m = 700, .n = 136, .k = 36, .groups = 5},
      {.what = "stride_b 0, B [N,K]", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_F32, .op_b = TCJ_OP_T,
       .m = 3000, .n = 512, .k = 128, .groups = 16, .shared_b = 1, .unused = 8},
      {.what = "stride_b 0, B [K,N]", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F16,
       .op_b = TCJ_OP_N, .m = 1000, .n = 200, .k = 72, .groups = 4, .shared_b = 1},
      {.what = "every row in group 3 of 7", .lay = L_ENDS64, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 2500, .n = 256, .k = 64, .groups = 7, .sizes = SIZES_ONE_GROUP},
      {.what = "every row in group 3 of 7, op_b N", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_N, .m = 2500, .n = 256, .k = 64, .groups = 7, .sizes = SIZES_ONE_GROUP, .unused = 300},
      {.what = "n 1536, k 1024", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 200, .n = 1536, .k = 1024, .groups = 3},
      {.what = "k 2048", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 120, .n = 256, .k = 2048, .groups = 3, .unused = 5},
      /* Tile columns past one band (PTX_GROUP_BAND) and a narrower last band: 11 of 256 columns
       * (sm90), 21 to 41 (sm80). */
      {.what = "n 2600: bands of tile columns and a tail", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 3000, .n = 2600, .k = 64, .groups = 5, .unused = 7},
      {.what = "masked, n 2600, op_b N", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_N, .m = 300, .n = 2600, .k = 64, .groups = 4},
  };
  run_list("contiguous layouts and shapes", cases, NCASES(cases), 200);
}

/* ---- 3. epilogues, C and scalars ---------------------------------------------------------- */

/* beta != 0 with C apart and in place, C given but beta 0 (NaN there, not read), device alpha
 * and beta, a host alpha of 0 (the call runs with no mainloop), a column bias per group
 * (stride_bias n) and shared (0), each activation, contiguous and masked. */
static void epilogues_per_group_match_reference(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "C apart, bias per group, relu", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 2000, .n = 256, .k = 64, .groups = 9, .unused = 21, .cm = C_APART, .beta = 0.75f,
       .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32, .act = TCJ_ACT_RELU},
      {.what = "C==D, shared bias, gelu", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_N,
       .m = 1500, .n = 200, .k = 72, .groups = 6, .unused = 50, .cm = C_IN_PLACE, .beta = 0.5f,
       .bias = TCJ_BIAS_COL, .shared_bias = 1, .bias_type = TCJ_F16, .act = TCJ_ACT_GELU},
      {.what = "C apart f32, bf16 bias per group, gelu_tanh", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_T, .m = 1024, .n = 256, .k = 128, .groups = 5, .cm = C_APART,
       .beta = -1.0f, .bias = TCJ_BIAS_COL, .bias_type = TCJ_BF16, .act = TCJ_ACT_GELU_TANH},
      {.what = "device alpha and beta, silu", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 1800, .n = 256, .k = 64, .groups = 8, .unused = 9, .cm = C_APART, .alpha = 0.125f, .beta = 0.25f,
       .dev_scalars = 1, .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32, .act = TCJ_ACT_SILU},
      {.what = "C apart, beta 0: C not read", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_F16, .op_b = TCJ_OP_N,
       .m = 1000, .n = 264, .k = 64, .groups = 4, .unused = 3, .cm = C_APART},
      {.what = "masked, C apart, bias per group, relu", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_N, .m = 333, .n = 256, .k = 64, .groups = 8, .cm = C_APART, .beta = 0.5f,
       .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32, .act = TCJ_ACT_RELU},
      {.what = "masked, C==D, shared bias, gelu", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 200, .n = 200, .k = 72, .groups = 6, .cm = C_IN_PLACE, .beta = -0.5f,
       .bias = TCJ_BIAS_COL, .shared_bias = 1, .bias_type = TCJ_BF16, .act = TCJ_ACT_GELU},
      {.what = "host alpha 0: beta C + bias per group", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_T, .m = 1200, .n = 256, .k = 128, .groups = 7, .unused = 30, .cm = C_APART, .alpha_zero = 1,
       .beta = 0.5f, .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32, .act = TCJ_ACT_RELU},
      {.what = "masked, host alpha 0, C==D", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F16,
       .op_b = TCJ_OP_N, .m = 150, .n = 200, .k = 72, .groups = 5, .cm = C_IN_PLACE, .alpha_zero = 1, .beta = -0.5f},
      {.what = "masked, device scalars, silu", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_F16,
       .op_b = TCJ_OP_T, .m = 64, .n = 256, .k = 128, .groups = 64, .cm = C_APART, .alpha = 0.1f, .beta = 2.0f,
       .dev_scalars = 1, .bias = TCJ_BIAS_COL, .bias_type = TCJ_F16, .act = TCJ_ACT_SILU},
  };
  run_list("epilogues per group", cases, NCASES(cases), 300);
}

/* ---- 4. masked ------------------------------------------------------------------------------ */

/* Entries of m rows (A [G, m, K], D [G, m, N]); counts 0, m, 1 and skewed, op_a N and T (A
 * [G, K, m]), B per entry and shared; every entry's rows past its count must stay poisoned. */
static void masked_entries_compute_their_counted_rows(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "G=8", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 256, .n = 256, .k = 128, .groups = 8},
      {.what = "G=16, op_b N", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 1000, .n = 200, .k = 72, .groups = 16},
      {.what = "op_a T, stride_b 0", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_F16, .op_a = TCJ_OP_T,
       .op_b = TCJ_OP_T, .m = 320, .n = 256, .k = 64, .groups = 6, .shared_b = 1},
      {.what = "op_a T, op_b N", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F16, .op_a = TCJ_OP_T,
       .op_b = TCJ_OP_N, .m = 136, .n = 264, .k = 256, .groups = 9},
      {.what = "G=256 of 32 rows", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_F32, .op_b = TCJ_OP_T,
       .m = 32, .n = 256, .k = 64, .groups = 256},
      {.what = "one entry full, the rest empty", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 700, .n = 256, .k = 64, .groups = 5, .sizes = SIZES_ONE_GROUP},
  };
  run_list("masked", cases, NCASES(cases), 400);
}

/* ---- 5. device values out of range ----------------------------------------------------------- */

static const int64_t BAD_ENDS32_A[] = {100, 50, 400, 300, 350, 900, 2000, -3};
static const int64_t BAD_ENDS32_B[] = {INT32_MAX, 10, 20};
static const int64_t BAD_ENDS64[] = {-7, INT64_MIN, 600, (int64_t)1 << 40, 5, INT64_MAX};
static const int64_t BAD_COUNTS[] = {-5, 5000, INT32_MIN, INT32_MAX, 0, 17, 200, 201};

/* Ends out of order (an empty group), past m (clamped to m), negative, huge; counts negative
 * and past m: judged against tcj.h's clamping, with every buffer ending at its last element
 * (A, C and D at m rows, G entries of m rows for masked) so a row past the clamp faults. */
static void bad_device_ends_and_counts_are_clamped(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "ends out of order and past m", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16,
       .op_b = TCJ_OP_T, .m = 1000, .n = 256, .k = 64, .groups = 8, .sizes = SIZES_GIVEN, .given = BAD_ENDS32_A,
       .cm = C_APART, .beta = 0.5f},
      {.what = "end[0] = 2^31 - 1", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F32,
       .op_b = TCJ_OP_N, .m = 512, .n = 200, .k = 72, .groups = 3, .sizes = SIZES_GIVEN, .given = BAD_ENDS32_B},
      {.what = "int64 ends negative and past 2^32", .lay = L_ENDS64, .ab = TCJ_BF16, .d_type = TCJ_F16,
       .op_b = TCJ_OP_N, .m = 1200, .n = 256, .k = 64, .groups = 6, .sizes = SIZES_GIVEN, .given = BAD_ENDS64,
       .cm = C_IN_PLACE, .beta = 1.0f},
      {.what = "counts negative and past m", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 200, .n = 256, .k = 64, .groups = 8, .sizes = SIZES_GIVEN, .given = BAD_COUNTS, .cm = C_APART,
       .beta = 1.0f, .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32},
      {.what = "counts past m, op_a T", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_F32, .op_a = TCJ_OP_T,
       .op_b = TCJ_OP_N, .m = 200, .n = 200, .k = 72, .groups = 8, .sizes = SIZES_GIVEN, .given = BAD_COUNTS},
  };
  run_list("bad device ends and counts", cases, NCASES(cases), 500);
}

/* ---- 6. user epilogue ------------------------------------------------------------------------ */

/* The residual epilogue once per mode: row is D's row (CONTIGUOUS) or the entry's (MASKED), col
 * the column, batch the group; the residual is exactly D's size. */
static void user_epilogue_gets_rows_and_groups_per_mode(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "contiguous user epilogue", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 2000, .n = 256, .k = 64, .groups = 9, .unused = 77, .user = 1, .cm = C_APART, .beta = 0.5f,
       .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32},
      {.what = "masked user epilogue", .lay = L_MASKED, .ab = TCJ_F16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 200, .n = 256, .k = 64, .groups = 5, .user = 1, .act = TCJ_ACT_RELU},
  };
  run_list("user epilogue", cases, NCASES(cases), 600);
}

/* ---- 7. empty calls -------------------------------------------------------------------------- */

static const int64_t ENDS_ZERO[] = {0};
static const int64_t ENDS_3_7[] = {3, 7};
static const int64_t COUNTS_ZERO[] = {0, 0, 0, 0};

/* end[0] = 0 (every row past the end), m = 0 with ends past it, every count 0: success and D
 * untouched. */
static void empty_groups_write_nothing(void **state) {
  (void)state;
  static const grp_case cases[] = {
      {.what = "G=1, end 0", .lay = L_ENDS32, .ab = TCJ_BF16, .d_type = TCJ_BF16, .op_b = TCJ_OP_T,
       .m = 512, .n = 256, .k = 64, .groups = 1, .sizes = SIZES_GIVEN, .given = ENDS_ZERO},
      {.what = "m = 0, ends 3 and 7", .lay = L_ENDS64, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_T,
       .m = 0, .n = 256, .k = 64, .groups = 2, .sizes = SIZES_GIVEN, .given = ENDS_3_7},
      {.what = "every count 0", .lay = L_MASKED, .ab = TCJ_BF16, .d_type = TCJ_F32, .op_b = TCJ_OP_N,
       .m = 100, .n = 256, .k = 64, .groups = 4, .sizes = SIZES_GIVEN, .given = COUNTS_ZERO, .cm = C_APART,
       .beta = 1.0f},
  };
  run_list("empty", cases, NCASES(cases), 700);
}

/* ---- 8. CUDA graph ----------------------------------------------------------------------------- */

/* One contiguous call captured, replayed 3 times with new ends written into the same device
 * array (stream-ordered copies before each replay, D poisoned again): the kernel reads them at
 * run time. */
static void graph_replays_read_new_ends(void **state) {
  (void)state;
  grp_case c = {.what = "graph", .lay = L_ENDS32, .ab = TCJ_F16, .d_type = TCJ_F16, .op_b = TCJ_OP_T,
                .m = 2048, .n = 256, .k = 64, .groups = 8, .unused = 100, .cm = C_APART, .beta = 0.5f,
                .bias = TCJ_BIAS_COL, .bias_type = TCJ_F32, .act = TCJ_ACT_SILU};
  c.seed = g_seed_base + 800;
  char msg[MSG_SIZE];
  double worst = 0;
  int failed = 0;
  grp_run r;
  if (!prepare(&r, &c, msg, sizeof msg)) fail_msg("%s", msg);
  tcj_gemm_desc d;
  make_desc(&r, &d);
  /* Eager first: it loads the kernel, and its result is checked too. */
  tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
  if (st != TCJ_SUCCESS) {
    failf(msg, sizeof msg, &r.c, "eager tcj_gemm_ex: %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
    run_free(&r);
    fail_msg("%s", msg);
  }
  if (!verify(&r, &worst, msg, sizeof msg)) {
    printf("  FAIL eager: %s\n", msg);
    failed++;
  }
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  assert_int_equal(cudaStreamBeginCapture(g_ctx.stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
  cudaError_t ce = cudaStreamEndCapture(g_ctx.stream, &graph);
  if (st != TCJ_SUCCESS || ce != cudaSuccess) {
    printf("  FAIL capture: tcj_gemm_ex %s (%s), end capture %s\n", tcj_status_string(st), st ? tcj_last_error(g_eng) : "",
           cudaGetErrorName(ce));
    if (graph) cudaGraphDestroy(graph);
    run_free(&r);
    fail_msg("graph: the call could not be captured");
  }
  assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int rep = 0; rep < 3; rep++) {
    uint64_t seed = c.seed + 1000 * (uint64_t)(rep + 1);
    rng g = {seed};
    r.c.sizes = rep == 2 ? SIZES_ONE_GROUP : SIZES_SKEWED; /* the last: every row in group 4 */
    r.c.unused = rep == 1 ? 0 : 100 + 300 * rep;
    make_groups(&r, &g);
    memset(guard_buf_data(&r.d), gpu_poison_byte(c.d_type), r.d.bytes);
    cudaError_t e = guard_buf_upload(&g_ctx, &r.grp);
    if (!e) e = guard_buf_upload(&g_ctx, &r.d);
    if (!e) e = cudaGraphLaunch(exec, g_ctx.stream);
    if (e) {
      printf("  FAIL replay %d: %s\n", rep, cudaGetErrorName(e));
      failed++;
      continue;
    }
    if (!verify(&r, &worst, msg, sizeof msg)) {
      printf("  FAIL replay %d (ends from seed 0x%llx): %s\n", rep, (unsigned long long)seed, msg);
      failed++;
    }
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  run_free(&r);
  printf("  graph: eager + 3 replays with new ends, %d failed, worst |err|/bound %.3f\n", failed, worst);
  if (failed) fail_msg("graph: %d runs failed (see FAIL lines above)", failed);
}

/* ---- 9. refusals ----------------------------------------------------------------------------- */

enum { RM = 64, RN = 64, RK = 64, RG = 2 };

typedef struct refusal {
  const char *what;
  tcj_status want;
  const char *names; /* '|'-separated: the message must contain one (case-insensitive); "" any */
} refusal;

/* The device arrays a refusal may point the descriptor at. */
typedef struct refusal_bufs {
  const void *b;
  const int64_t *ends64;
  const int32_t *counts;
} refusal_bufs;

/* Applies refusal i (REFUSALS[i]) to a good contiguous descriptor: bf16, op_b T, 64 x 64 x 64,
 * two groups through group_ends32, B per group, a shared column bias; A and B have room for f32,
 * D for two entries. */
static void apply_refusal(int i, tcj_gemm_desc *d, const refusal_bufs *x) {
  switch (i) {
  case 0: d->group_mode = TCJ_GROUP_NONE, d->group_count = 0; break; /* group_ends32 left set */
  case 1: d->group_mode = TCJ_GROUP_NONE, d->group_count = 0, d->group_ends32 = NULL, d->group_ends64 = x->ends64; break;
  case 2: d->group_mode = TCJ_GROUP_NONE, d->group_ends32 = NULL; break; /* group_count 2 left */
  case 3: d->group_mode = TCJ_GROUP_NONE, d->group_count = 0, d->group_ends32 = NULL, d->group_counts = x->counts; break;
  case 4: d->group_mode = TCJ_GROUP_NONE, d->group_count = 0, d->group_ends32 = NULL, d->group_rows_hint = 32; break;
  case 5: d->group_ends64 = x->ends64; break;
  case 6: d->group_ends32 = NULL; break;
  case 7: d->group_counts = x->counts; break;
  case 8: d->group_mode = TCJ_GROUP_M_MASKED, d->group_ends32 = NULL, d->stride_a = RM * RK, d->stride_d = RM * RN; break;
  case 9: d->group_mode = TCJ_GROUP_M_MASKED, d->group_counts = x->counts, d->stride_a = RM * RK, d->stride_d = RM * RN;
    break; /* group_ends32 left set */
  case 10: d->op_a = TCJ_OP_T, d->lda = RM; break;
  case 11: d->group_count = -3; break;
  case 12: d->group_mode = (tcj_group_mode)7; break;
  case 13: d->order = TCJ_ORDER_COL_MAJOR; break;
  case 14: d->bias_kind = TCJ_BIAS_ROW; break;
  case 15: d->a_type = d->b_type = TCJ_S8, d->c_type = d->d_type = TCJ_S32; break; /* fp8 runs (its own test) */
  case 16: d->a_type = d->b_type = d->c_type = d->d_type = TCJ_F32; break;
  case 17: d->stride_a = RM * RK; break;
  case 18: d->stride_d = RM * RN; break;
  case 19: d->batch_count = 2; break;
  case 20: d->group_count = (int64_t)1 << 31; break;
  case 21: d->d = (char *)x->b + (size_t)RN * RK * 2; break; /* D inside B's entry 1 (not entry 0) */
  case 22: d->group_mode = TCJ_GROUP_M_MASKED, d->group_ends32 = NULL, d->group_counts = x->counts,
    d->stride_a = RM * RK, d->stride_d = 0;
    break;
  default: fail_msg("no refusal %d", i);
  }
}

static const refusal REFUSALS[] = {
    {"group_mode NONE with group_ends32", TCJ_ERROR_INVALID_VALUE, "group_ends32"},
    {"group_mode NONE with group_ends64", TCJ_ERROR_INVALID_VALUE, "group_ends64"},
    {"group_mode NONE with group_count 2", TCJ_ERROR_INVALID_VALUE, "group_count"},
    {"group_mode NONE with group_counts", TCJ_ERROR_INVALID_VALUE, "group_counts"},
    {"group_mode NONE with group_rows_hint", TCJ_ERROR_INVALID_VALUE, "group_rows_hint"},
    {"contiguous with both ends", TCJ_ERROR_INVALID_VALUE, "group_ends"},
    {"contiguous without ends", TCJ_ERROR_INVALID_VALUE, "group_ends"},
    {"contiguous with counts", TCJ_ERROR_INVALID_VALUE, "group_counts"},
    {"masked without counts", TCJ_ERROR_INVALID_VALUE, "group_counts"},
    {"masked with ends", TCJ_ERROR_INVALID_VALUE, "group_ends32"},
    {"contiguous with A op T", TCJ_ERROR_NOT_SUPPORTED, "op_a"},
    {"group_count -3", TCJ_ERROR_INVALID_VALUE, "group_count"},
    {"group_mode 7", TCJ_ERROR_INVALID_VALUE, "group_mode"},
    {"column-major order", TCJ_ERROR_NOT_SUPPORTED, "order|column-major|col_major"},
    {"row bias", TCJ_ERROR_NOT_SUPPORTED, "bias"},
    {"s8 operands", TCJ_ERROR_NOT_SUPPORTED, "s8"},
    {"f32 operands", TCJ_ERROR_NOT_SUPPORTED, "f32"},
    {"contiguous with stride_a", TCJ_ERROR_INVALID_VALUE, "stride_a"},
    {"contiguous with stride_d", TCJ_ERROR_INVALID_VALUE, "stride_d"},
    {"batch_count 2", TCJ_ERROR_INVALID_VALUE, "batch_count"},
    {"group_count 2^31", TCJ_ERROR_NOT_SUPPORTED, "group_count"},
    {"D inside B's second group", TCJ_ERROR_INVALID_VALUE, "overlap"},
    {"masked D entries overlapping (stride_d 0)", TCJ_ERROR_INVALID_VALUE, "stride_d"},
};

static int names_one_of(const char *text, const char *names) {
  if (!*names) return *text != '\0';
  char buf[128];
  snprintf(buf, sizeof buf, "%s", names);
  for (char *save = NULL, *tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
    if (strcasestr(text, tok)) return 1;
  return 0;
}

/* Each descriptor error of the grouped fields, and each thing this slice does not do, through
 * tcj_gemm_ex: the status tcj.h's grouped section implies, a message naming the field, and
 * nothing launched (D keeps its poison). A good call on the same buffers runs first. */
static void host_side_refusals_name_the_field_and_launch_nothing(void **state) {
  (void)state;
  guard_buf a, b, dd, e32, e64, cnt, bias;
  int ok = guard_buf_alloc(&g_ctx, &a, (size_t)RG * RM * RK * 4, 0) &&
           guard_buf_alloc(&g_ctx, &b, (size_t)RG * RN * RK * 4, 0) &&
           guard_buf_alloc(&g_ctx, &dd, (size_t)RG * RM * RN * 2, 0xFF) && guard_buf_alloc(&g_ctx, &e32, RG * 4, 0) &&
           guard_buf_alloc(&g_ctx, &e64, RG * 8, 0) && guard_buf_alloc(&g_ctx, &cnt, RG * 4, 0) &&
           guard_buf_alloc(&g_ctx, &bias, RM * 4, 0);
  if (!ok) fail_msg("cannot allocate");
  rng g = {g_seed_base + 900};
  fill_uniform(TCJ_BF16, guard_buf_data(&a), RG * RM * RK, &g);
  fill_uniform(TCJ_BF16, guard_buf_data(&b), RG * RN * RK, &g);
  fill_uniform(TCJ_F32, guard_buf_data(&bias), RM, &g);
  int32_t ends32[RG] = {20, RM}, counts[RG] = {30, RM};
  int64_t ends64[RG] = {20, RM};
  memcpy(guard_buf_data(&e32), ends32, sizeof ends32);
  memcpy(guard_buf_data(&e64), ends64, sizeof ends64);
  memcpy(guard_buf_data(&cnt), counts, sizeof counts);
  guard_buf *all[] = {&a, &b, &dd, &e32, &e64, &cnt, &bias};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    assert_int_equal(guard_buf_upload(&g_ctx, all[i]), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);

  tcj_gemm_desc good = TCJ_GEMM_DESC_INIT;
  good.op_a = TCJ_OP_N;
  good.op_b = TCJ_OP_T;
  good.m = RM, good.n = RN, good.k = RK;
  good.a = guard_buf_dev(&a), good.lda = RK;
  good.b = guard_buf_dev(&b), good.ldb = RK, good.stride_b = RN * RK;
  good.a_type = good.b_type = good.c_type = good.d_type = TCJ_BF16;
  good.d = guard_buf_dev(&dd), good.ldd = good.ldc = RN;
  good.bias = guard_buf_dev(&bias), good.bias_type = TCJ_F32, good.bias_kind = TCJ_BIAS_COL, good.stride_bias = 0;
  good.group_mode = TCJ_GROUP_M_CONTIGUOUS;
  good.group_count = RG;
  good.group_ends32 = (const int32_t *)guard_buf_dev(&e32);
  refusal_bufs x = {guard_buf_dev(&b), (const int64_t *)guard_buf_dev(&e64), (const int32_t *)guard_buf_dev(&cnt)};

  tcj_gemm_desc d = good;
  tcj_status st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
  if (st != TCJ_SUCCESS) fail_msg("the good call failed: %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
  assert_int_equal(cudaStreamSynchronize(g_ctx.stream), cudaSuccess);
  assert_int_equal(guard_buf_upload(&g_ctx, &dd), cudaSuccess); /* poison again */

  int failed = 0;
  for (int i = 0; i < NCASES(REFUSALS); i++) {
    const refusal *f = &REFUSALS[i];
    d = good;
    apply_refusal(i, &d, &x);
    st = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
    const char *err = tcj_last_error(g_eng) ? tcj_last_error(g_eng) : "";
    cudaError_t ce = cudaStreamSynchronize(g_ctx.stream);
    if (!ce) ce = guard_buf_download(&g_ctx, &dd);
    if (!ce) ce = cudaStreamSynchronize(g_ctx.stream);
    int untouched = !ce && memcmp(dd.before, dd.after, GUARD_BYTES + dd.bytes) == 0;
    int pass = st == f->want && names_one_of(err, f->names) && untouched;
    printf("  %s %-44s %s: %s\n", pass ? "ok  " : "FAIL", f->what, tcj_status_string(st), err);
    if (!pass) {
      failed++;
      if (st != f->want) printf("       want %s\n", tcj_status_string(f->want));
      else if (!names_one_of(err, f->names)) printf("       the message names none of \"%s\"\n", f->names);
      if (!untouched) printf("       D changed (or the stream failed: %s): something ran\n", cudaGetErrorName(ce));
      if (!untouched && !ce) assert_int_equal(guard_buf_upload(&g_ctx, &dd), cudaSuccess);
    }
  }
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) guard_buf_free(&g_ctx, all[i]);
  printf("  refusals: %d cases, %d failed\n", NCASES(REFUSALS), failed);
  if (failed) fail_msg("%d of %d refusals wrong (see FAIL lines above)", failed, NCASES(REFUSALS));
}

/* ---- 9. the sm90 recipe ------------------------------------------------------------------------ */

/* The contiguous, epilogue, masked, clamping and user-epilogue tables again on an engine made
 * under TCJ_RECIPE=sm90 (the engine reads it at creation), which runs every grouped call on
 * the sm90 recipe (wgmma, TMA, persistent CTAs) or refuses it: on compute capability 9.0 only.
 * Setup swaps the engine in, teardown puts the default one back (also after a failure). */
static tcj_engine *g_default_eng;

/* The engine for the sm90 pass: TCJ_RECIPE=sm90, and TCJ_TILE = tile where given. */
static int sm90_setup_with(const char *tile) {
  if (g_cc != 90) return 0; /* the test skips */
  tcj_engine *e = gpu_engine_with("sm90", tile);
  if (!e) return -1;
  g_default_eng = g_eng;
  g_eng = e;
  g_tma_only = 1;
  g_left_out = 0;
  return 0;
}

static int sm90_setup(void **state) {
  (void)state;
  return sm90_setup_with(NULL);
}

/* Clusters: a pair of CTAs per unit, adjacent tile rows of one group sharing its B tile by
 * multicast (the second often past the group's end: computed, never stored). */
#define SM90_CLUSTER_TILE "128x128x128/2x1/4/c2" /* K in bytes: one swizzle line */
static int sm90_cluster_setup(void **state) {
  (void)state;
  return sm90_setup_with(SM90_CLUSTER_TILE);
}

/* Ping-pong consumers: two 64-row tiles in turn, each consumer walking its own units. */
static int sm90_pingpong_setup(void **state) {
  (void)state;
  return sm90_setup_with(GPU_SM90_PINGPONG_TILE);
}

/* Ping-pong consumers of 128-row tiles (what short-K groups of few rows are given). */
static int sm90_pingpong_128_setup(void **state) {
  (void)state;
  return sm90_setup_with(GPU_SM90_PINGPONG_128_TILE);
}

/* The whole-tile TMA epilogue: a consumer's tile inside its group leaves its stores in flight,
 * and its next tile may cross the group's end and take the staged path into the same buffer. */
static int sm90_whole_epi_setup(void **state) {
  (void)state;
  return sm90_setup_with(GPU_SM90_WHOLE_EPI_TILE);
}

/* Three consumer warpgroups: 192-row tiles, whose rows cross group ends more often. */
static int sm90_three_consumer_setup(void **state) {
  (void)state;
  return sm90_setup_with(GPU_SM90_THREE_CONSUMER_TILE);
}

static int sm90_teardown(void **state) {
  (void)state;
  if (g_default_eng) {
    tcj_destroy(g_eng);
    g_eng = g_default_eng;
    g_default_eng = NULL;
  }
  g_tma_only = 0;
  return 0;
}

/* The tables on the sm90 recipe; user: with the user-epilogue cases. */
static void sm90_runs_the_grouped_tables(void **state, int user) {
  gpu_skip_unless_sm90(g_cc);
  contiguous_groups_of_every_count_match_reference(state);
  contiguous_layouts_and_shapes_match_reference(state);
  epilogues_per_group_match_reference(state);
  masked_entries_compute_their_counted_rows(state);
  bad_device_ends_and_counts_are_clamped(state);
  if (user) user_epilogue_gets_rows_and_groups_per_mode(state);
  else printf("  user epilogue: not run on this tile (the config check refuses one beside 128 accumulators)\n");
  printf("  sm90: %d cases left out (operands TMA cannot read)\n", g_left_out);
  assert_true(g_left_out <= 3); /* the k 36 case, not the tables */
}

static void sm90_recipe_runs_the_grouped_cases(void **state) { sm90_runs_the_grouped_tables(state, 1); }

/* The same tables with every call on a 2-CTA cluster along M (TCJ_TILE=SM90_CLUSTER_TILE). */
static void sm90_cluster_pairs_run_the_grouped_cases(void **state) {
  sm90_recipe_runs_the_grouped_cases(state);
}

/* The same tables with every call on ping-pong consumers (TCJ_TILE=GPU_SM90_PINGPONG_TILE). */
static void sm90_pingpong_consumers_run_the_grouped_cases(void **state) {
  sm90_recipe_runs_the_grouped_cases(state);
}

/* The same tables on 128-row ping-pong tiles (TCJ_TILE=GPU_SM90_PINGPONG_128_TILE), but for the
 * user epilogues: a user function is a call with every accumulator live, refused past 96 a
 * thread (tcj_cfg_check), so selection never gives these tiles one. */
static void sm90_pingpong_128_row_tiles_run_the_grouped_cases(void **state) {
  sm90_runs_the_grouped_tables(state, 0);
}

/* The same tables with the whole-tile TMA epilogue (TCJ_TILE=GPU_SM90_WHOLE_EPI_TILE), but for
 * the user epilogues (refused beside 128 cooperative accumulators, as on the tile above). */
static void sm90_whole_tile_epilogues_run_the_grouped_cases(void **state) {
  sm90_runs_the_grouped_tables(state, 0);
}

/* The same tables on three consumer warpgroups (TCJ_TILE=GPU_SM90_THREE_CONSUMER_TILE). */
static void sm90_three_consumers_run_the_grouped_cases(void **state) {
  sm90_recipe_runs_the_grouped_cases(state);
}

/* ---- setup ------------------------------------------------------------------------------------ */

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("grouped GEMM checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_cc = 10 * prop.major + prop.minor;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_side_refusals_name_the_field_and_launch_nothing),
      cmocka_unit_test(contiguous_groups_of_every_count_match_reference),
      cmocka_unit_test(contiguous_layouts_and_shapes_match_reference),
      cmocka_unit_test(epilogues_per_group_match_reference),
      cmocka_unit_test(masked_entries_compute_their_counted_rows),
      cmocka_unit_test(bad_device_ends_and_counts_are_clamped),
      cmocka_unit_test(user_epilogue_gets_rows_and_groups_per_mode),
      cmocka_unit_test(empty_groups_write_nothing),
      cmocka_unit_test(graph_replays_read_new_ends),
      cmocka_unit_test_setup_teardown(sm90_recipe_runs_the_grouped_cases, sm90_setup, sm90_teardown),
      cmocka_unit_test_setup_teardown(sm90_cluster_pairs_run_the_grouped_cases, sm90_cluster_setup, sm90_teardown),
      cmocka_unit_test_setup_teardown(sm90_pingpong_consumers_run_the_grouped_cases, sm90_pingpong_setup,
                                      sm90_teardown),
      cmocka_unit_test_setup_teardown(sm90_pingpong_128_row_tiles_run_the_grouped_cases, sm90_pingpong_128_setup,
                                      sm90_teardown),
      cmocka_unit_test_setup_teardown(sm90_whole_tile_epilogues_run_the_grouped_cases, sm90_whole_epi_setup,
                                      sm90_teardown),
      cmocka_unit_test_setup_teardown(sm90_three_consumers_run_the_grouped_cases, sm90_three_consumer_setup,
                                      sm90_teardown),
  };
  int failures = cmocka_run_group_tests_name("grouped_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
