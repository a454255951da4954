/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of K-grouped GEMM (tcj_gemm_desc.group_mode TCJ_GROUP_K_CONTIGUOUS, weight
 * gradients dW_g = dY_g^T X_g) through the public API only: A stored k x m (op_a T), B stored
 * k x n (op_b N), group g the K range [end[g-1], end[g]) of both, C and D strided batches of G
 * entries. Every element of every D_g is judged against the float64 reference of
 * tests/gpu/oracle.h (oracle_ep_element: a bound from |A||B| over the group's K, the epilogue's
 * fp32 adds, the activation, D's rounding); an empty group's D_g must be act(beta C_g + bias_g).
 *
 * Every buffer ends where its mapping ends (guard_buf.h) with poison before it, so a read or write
 * one element past A, B, C, D, the bias or the ends faults; D (entries, the padding between its
 * rows and the guard) is poisoned before every call, and the padding and guard must come back
 * unchanged; the padding of A and B holds NaN, which must never reach D; C apart from D must not
 * change, and holds NaN where beta is 0 (it must not be read then).
 *
 * Covered: G 1 to 512, int32 and int64 ends, empty groups (first, last, runs of them), one-token
 * groups, ragged ends at any K (no alignment), every token in one group, zero tokens, ends out of
 * order, negative or past k (clamped as tcj.h says); bf16 and f16 operands into bf16, f16 and
 * f32; C read per group, one C for all (stride_c 0), not read; a bias per group and a shared
 * one; the activations; lda and ldb past m and n. Each table runs on the default engine and on
 * one made under TCJ_RECIPE=sm80; on compute capability 9.0 the default engine routes the calls
 * to the sm80 kernel, and TCJ_RECIPE=sm90 runs every case whose rows are 16-byte aligned on the
 * sm90 kernel (its producer rewrites A's and B's tensor maps per group) and refuses the others
 * for their alignment.
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

#include <cmocka.h>
#include <cuda_runtime.h>

#include "gpu_test.h"
#include "guard_buf.h"
#include "oracle.h"
#include "tcj.h"


static tcj_engine *g_eng;        /* the engine the tables run on */
static tcj_engine *g_default;    /* made with default options */
static uint64_t g_seed_base = 0x6b9e5eedull;
static guard_ctx g_ctx; /* the buffers' vmm API, device, guard and stream */
static int g_cc;
static tcj_status g_last_status; /* run_case's tcj_gemm_ex */

/* ---- cases --------------------------------------------------------------------------------- */

typedef enum ends_kind {
  ENDS_DRAWN,   /* ragged depths summing to k, about one group in five empty */
  ENDS_ONE,     /* every token in group G / 2 */
  ENDS_GIVEN,   /* the case's own device values */
} ends_kind;

typedef struct kcase {
  const char *what;
  tcj_dtype ab, d_type; /* C has D's type */
  int64_t m, n, k, groups;
  int64_t pad_a, pad_b, pad_d; /* lda = m + pad_a, ldb = n + pad_b, ldd = ldc = n + pad_d */
  int wide;                    /* int64 ends */
  ends_kind ends;
  const int64_t *given;        /* ENDS_GIVEN: G values */
  float beta;                  /* 0: C (apart) holds NaN and must not be read */
  int shared_c;                /* stride_c 0 */
  int bias;                    /* 0 none, 1 per group (stride_bias n), 2 shared */
  tcj_activation act;
  uint64_t seed;
} kcase;

static int describe(const kcase *c, char *buf, size_t size) {
  return snprintf(buf, size, "[%s] %s->%s m=%lld n=%lld k=%lld G=%lld pads=%lld/%lld/%lld ends%d kind=%d beta=%g%s "
                  "bias=%d act=%d seed=0x%llx", c->what, tcj_dtype_name(c->ab), tcj_dtype_name(c->d_type),
                  (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->groups, (long long)c->pad_a,
                  (long long)c->pad_b, (long long)c->pad_d, c->wide ? 64 : 32, (int)c->ends, c->beta,
                  c->shared_c ? " (one C)" : "", c->bias, (int)c->act, (unsigned long long)c->seed);
}

/* Ragged depths of G groups summing to k: skewed weights, about one group in five empty, group
 * 0 empty and group 1 one token where G >= 3, so empty and tiny groups always appear. */
static void draw_depths(int64_t G, int64_t k, rng *r, int64_t *depth) {
  double *w = calloc((size_t)G, sizeof *w), total = 0;
  assert_non_null(w);
  for (int64_t g = 0; g < G; g++) {
    double u = (double)(rng_next(r) >> 11) * 0x1p-53;
    w[g] = rng_next(r) % 5 == 0 ? 0 : u * u + 1e-3;
    total += w[g];
  }
  int64_t left = k;
  for (int64_t g = 0; g < G; g++) {
    depth[g] = total > 0 ? (int64_t)floor((double)k * w[g] / total) : 0;
    if (depth[g] > left) depth[g] = left;
    left -= depth[g];
  }
  if (G >= 3) {
    left += depth[0] + depth[1] - 1;
    depth[0] = 0;
    depth[1] = 1;
    if (left < 0) depth[1] = 0, left = 0; /* k 0 */
  }
  depth[G >= 4 ? G / 2 : G - 1] += left; /* the rest: one big group */
  free(w);
}

/* The device values of the case's ends, and the clamped [start, end) of each group as tcj.h
 * defines it: end[g] = min(max(v[g], end[g-1]), k), end[-1] = 0. */
static void case_ends(const kcase *c, rng *r, int64_t *value, int64_t *start, int64_t *end) {
  int64_t G = c->groups;
  if (c->ends == ENDS_GIVEN) {
    memcpy(value, c->given, sizeof *value * (size_t)G);
  } else {
    int64_t *depth = calloc((size_t)G, sizeof *depth), at = 0;
    assert_non_null(depth);
    if (c->ends == ENDS_ONE) depth[G / 2] = c->k;
    else draw_depths(G, c->k, r, depth);
    for (int64_t g = 0; g < G; g++) value[g] = at += depth[g];
    free(depth);
  }
  int64_t prev = 0;
  for (int64_t g = 0; g < G; g++) {
    int64_t e = value[g] > prev ? value[g] : prev;
    if (e > c->k) e = c->k;
    start[g] = prev;
    end[g] = e;
    prev = e;
  }
}

/* Runs one case on g_eng and judges every element; returns 1, or 0 with msg set. */
static int run_case(const kcase *c, char *msg, size_t size) {
  const int64_t m = c->m, n = c->n, k = c->k, G = c->groups;
  const int64_t lda = m + c->pad_a, ldb = n + c->pad_b, ldd = n + c->pad_d, ldc = ldd;
  const size_t es = gpu_esize(c->ab), ed = gpu_esize(c->d_type);
  rng r = {g_seed_base ^ c->seed};
  int64_t *value = calloc((size_t)G, sizeof *value), *start = calloc((size_t)G, sizeof *start);
  int64_t *end = calloc((size_t)G, sizeof *end);
  assert_true(value && start && end);
  case_ends(c, &r, value, start, end);

  /* A: k rows of lda (m values, then NaN padding), the last row ending at m; B likewise. */
  size_t a_elems = k > 0 ? (size_t)((k - 1) * lda + m) : 1, b_elems = k > 0 ? (size_t)((k - 1) * ldb + n) : 1;
  size_t d_entry = (size_t)((m - 1) * ldd + n), stride_d = (size_t)(m * ldd);
  size_t d_elems = (size_t)(G - 1) * stride_d + d_entry, c_elems = c->shared_c ? d_entry : d_elems;
  guard_buf A, B, C, D, bias, ends;
  assert_true(guard_buf_alloc(&g_ctx, &A, a_elems * es, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &B, b_elems * es, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &C, c_elems * ed, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &D, d_elems * ed, 0xFF));
  int64_t bias_elems = c->bias == 1 ? G * n : n;
  assert_true(guard_buf_alloc(&g_ctx, &bias, (size_t)bias_elems * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &ends, (size_t)G * (c->wide ? 8 : 4), 0xFF));
  double *a = calloc((size_t)(k * m + 1), sizeof *a), *b = calloc((size_t)(k * n + 1), sizeof *b);
  assert_true(a && b);
  /* a: A^T as m rows of k (the oracle's dot reads contiguous K); b: B^T as n rows of k. */
  for (int64_t t = 0; t < k; t++) {
    for (int64_t i = 0; i < m; i++) a[i * k + t] = gpu_put(c->ab, guard_buf_data(&A), (size_t)(t * lda + i), rng_sym(&r));
    for (int64_t j = 0; j < n; j++) b[j * k + t] = gpu_put(c->ab, guard_buf_data(&B), (size_t)(t * ldb + j), rng_sym(&r));
  }
  if (c->beta != 0)
    for (size_t e = 0; e < c_elems; e++) gpu_put(c->d_type, guard_buf_data(&C), e, rng_sym(&r));
  for (int64_t e = 0; e < bias_elems; e++) gpu_put(TCJ_F32, guard_buf_data(&bias), (size_t)e, 0.5 * rng_sym(&r));
  for (int64_t g = 0; g < G; g++) {
    if (c->wide) memcpy(guard_buf_data(&ends) + g * 8, &value[g], 8);
    else {
      int32_t v = (int32_t)value[g];
      memcpy(guard_buf_data(&ends) + g * 4, &v, 4);
    }
  }
  guard_buf *all[] = {&A, &B, &C, &D, &bias, &ends};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    assert_int_equal(guard_buf_upload(&g_ctx, all[i]), cudaSuccess);

  const float alpha = (float)(1.5 / sqrt((double)(k > G ? k / G : 1)));
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = TCJ_OP_T, d.op_b = TCJ_OP_N;
  d.m = m, d.n = n, d.k = k;
  d.a = guard_buf_dev(&A), d.a_type = c->ab, d.lda = lda;
  d.b = guard_buf_dev(&B), d.b_type = c->ab, d.ldb = ldb;
  d.c = guard_buf_dev(&C), d.c_type = c->d_type, d.ldc = ldc, d.stride_c = c->shared_c ? 0 : (int64_t)stride_d;
  d.d = guard_buf_dev(&D), d.d_type = c->d_type, d.ldd = ldd, d.stride_d = (int64_t)stride_d;
  d.alpha = alpha, d.beta = c->beta;
  if (c->bias) {
    d.bias = guard_buf_dev(&bias), d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_COL;
    d.stride_bias = c->bias == 1 ? n : 0;
  }
  d.activation = c->act;
  d.group_mode = TCJ_GROUP_K_CONTIGUOUS;
  d.group_count = G;
  if (c->wide) d.group_ends64 = guard_buf_dev(&ends);
  else d.group_ends32 = guard_buf_dev(&ends);
  tcj_status st = g_last_status = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
  int ok = 1;
  int len = describe(c, msg, size);
  if (st != TCJ_SUCCESS) {
    snprintf(msg + len, size - (size_t)len, ": tcj_gemm_ex %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
    ok = 0;
  }
  /* A kernel fault surfaces here: the case is named (and every later one fails too, the
   * context being lost). */
  cudaError_t ce = cudaSuccess;
  for (size_t i = 0; ok && ce == cudaSuccess && i < sizeof all / sizeof *all; i++) ce = guard_buf_download(&g_ctx, all[i]);
  if (ce == cudaSuccess) ce = cudaStreamSynchronize(g_ctx.stream);
  if (ok && ce != cudaSuccess) {
    snprintf(msg + len, size - (size_t)len, ": %s", cudaGetErrorName(ce));
    ok = 0;
  }
  /* Every element of every D_g within its bound; the padding of D and every guard unchanged; C,
   * A, B, the bias and the ends unchanged. */
  oracle_ep ep = {0, alpha, c->beta, c->act, c->d_type, 0, 0};
  int64_t bad = 0;
  double worst = 0;
  for (int64_t g = 0; ok && g < G; g++) {
    ep.k = end[g] - start[g];
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s, t, ref, bound;
        oracle_dot(a + i * k + start[g], b + j * k + start[g], end[g] - start[g], &s, &t);
        size_t at = (size_t)g * stride_d + (size_t)(i * ldd + j);
        double cv = c->beta != 0 ? gpu_get(c->d_type, guard_buf_data(&C), c->shared_c ? (size_t)(i * ldc + j) : at) : 0;
        double bv = c->bias ? gpu_get(TCJ_F32, guard_buf_data(&bias), (size_t)((c->bias == 1 ? g * n : 0) + j)) : 0;
        double got = gpu_get(c->d_type, guard_buf_back(&D), at);
        double ratio = oracle_ep_element(&ep, s, t, cv, bv, 0, 0, got, &ref, &bound);
        if (!(ratio <= 1)) {
          if (!bad)
            snprintf(msg + len, size - (size_t)len, ": group %lld [%lld, %lld) D[%lld, %lld] = %.9g, reference %.9g, bound %.3g",
                     (long long)g, (long long)start[g], (long long)end[g], (long long)i, (long long)j, got, ref, bound);
          bad++;
        }
        if (ratio > worst) worst = ratio;
      }
  }
  if (ok && bad) ok = 0;
  for (size_t i = 0; ok && i < sizeof all / sizeof *all; i++) {
    const guard_buf *x = all[i];
    for (size_t byte = 0; byte < GUARD_BYTES + x->bytes; byte++) {
      if (x == &D && byte >= GUARD_BYTES) { /* inside D: only the padding between rows is kept */
        size_t e = (byte - GUARD_BYTES) / ed, in_entry = e % stride_d;
        if ((int64_t)(in_entry % (size_t)ldd) < n) continue;
      }
      if (x->before[byte] != x->after[byte]) {
        snprintf(msg + len, size - (size_t)len, ": buffer %zu changed at byte %zu (guard %d)", i, byte, GUARD_BYTES);
        ok = 0;
        break;
      }
    }
  }
  if (ok && worst > 0.5) print_message("  worst error %.2f of its bound: %s\n", worst, msg);
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) guard_buf_free(&g_ctx, all[i]);
  free(a);
  free(b);
  free(value);
  free(start);
  free(end);
  return ok;
}

static void run_table(const kcase *cases, size_t count) {
  char msg[1024];
  int failures = 0;
  for (size_t i = 0; i < count; i++) {
    if (!run_case(&cases[i], msg, sizeof msg)) {
      print_error("FAIL %s\n", msg);
      failures++;
    }
  }
  print_message("  %zu cases, %d failed\n", count, failures);
  assert_int_equal(failures, 0);
}

/* ---- tables ---------------------------------------------------------------------------------- */

#define BF TCJ_BF16
#define F16 TCJ_F16
#define F32 TCJ_F32

/* Group counts 1 to 512 with drawn ragged depths (empty and one-token groups), int32 and int64
 * ends, the types, C read per group or shared or not at all, biases and activations. */
static const kcase COUNTS[] = {
  {"G1", BF, BF, 64, 64, 300, 1, 0, 0, 0, 0, ENDS_DRAWN, NULL, 0, 0, 0, TCJ_ACT_NONE, 1},
  {"G2", F16, F32, 96, 128, 517, 2, 8, 0, 0, 1, ENDS_DRAWN, NULL, 0.5f, 0, 1, TCJ_ACT_NONE, 2},
  {"G7", BF, F32, 128, 96, 1001, 7, 0, 8, 4, 0, ENDS_DRAWN, NULL, 0, 0, 1, TCJ_ACT_GELU, 3},
  {"G32", F16, F16, 64, 136, 2049, 32, 0, 0, 0, 1, ENDS_DRAWN, NULL, 1.0f, 0, 2, TCJ_ACT_RELU, 4},
  {"G33", BF, BF, 200, 64, 1500, 33, 16, 0, 2, 0, ENDS_DRAWN, NULL, 0.5f, 1, 1, TCJ_ACT_SILU, 5},
  {"G100", BF, F32, 64, 64, 4000, 100, 0, 0, 0, 1, ENDS_DRAWN, NULL, 0, 0, 1, TCJ_ACT_GELU_TANH, 6},
  {"G512", F16, F16, 32, 64, 6000, 512, 0, 0, 0, 0, ENDS_DRAWN, NULL, 0.25f, 0, 1, TCJ_ACT_NONE, 7},
  {"G512 wide", BF, BF, 48, 40, 3000, 512, 0, 8, 0, 1, ENDS_DRAWN, NULL, 0, 0, 2, TCJ_ACT_NONE, 8},
  {"one group holds every token", BF, F32, 256, 256, 777, 16, 0, 0, 0, 0, ENDS_ONE, NULL, 0, 0, 1, TCJ_ACT_NONE, 9},
  {"deep", F16, F32, 128, 128, 12345, 3, 0, 0, 0, 1, ENDS_DRAWN, NULL, 0, 0, 0, TCJ_ACT_NONE, 10},
  {"odd n", BF, BF, 72, 50, 999, 5, 0, 0, 6, 0, ENDS_DRAWN, NULL, 0.5f, 0, 1, TCJ_ACT_NONE, 11},
  /* G33 one feature at a time: its own C per group, D rows 16-byte aligned, no bias, A packed. */
  {"G33 own C", BF, BF, 200, 64, 1500, 33, 16, 0, 2, 0, ENDS_DRAWN, NULL, 0.5f, 0, 1, TCJ_ACT_SILU, 5},
  {"G33 aligned D", BF, BF, 200, 64, 1500, 33, 16, 0, 0, 0, ENDS_DRAWN, NULL, 0.5f, 1, 1, TCJ_ACT_SILU, 5},
  {"G33 no bias", BF, BF, 200, 64, 1500, 33, 16, 0, 2, 0, ENDS_DRAWN, NULL, 0.5f, 1, 0, TCJ_ACT_SILU, 5},
  {"G33 packed A", BF, BF, 200, 64, 1500, 33, 0, 0, 2, 0, ENDS_DRAWN, NULL, 0.5f, 1, 1, TCJ_ACT_SILU, 5},
  {"G33 beta 0", BF, BF, 200, 64, 1500, 33, 16, 0, 2, 0, ENDS_DRAWN, NULL, 0, 1, 1, TCJ_ACT_SILU, 5},
};

static void k_groups_of_every_count_match_reference(void **state) {
  (void)state;
  run_table(COUNTS, sizeof COUNTS / sizeof *COUNTS);
}

/* Device ends the host cannot check, judged against tcj.h's clamp; every group empty; no tokens
 * at all (k 0: every D_g = act(beta C_g + bias_g)). */
static const int64_t UNSORTED[] = {-3, 50, 20, 9999, 70, 100, -1, 130};
static const int64_t ALL_ZERO[] = {0, 0, 0, 0, 0};
static const int64_t PAST_K[] = {((int64_t)1 << 40), 5, 7};
static const int64_t NONE[] = {0, 0, 0, 0};
static const kcase CLAMPED[] = {
  {"unsorted, negative, past k", BF, F32, 64, 64, 120, 8, 0, 0, 0, 0, ENDS_GIVEN, UNSORTED, 0.5f, 0, 1, TCJ_ACT_NONE, 21},
  {"unsorted, int64", F16, F16, 64, 64, 120, 8, 0, 0, 0, 1, ENDS_GIVEN, UNSORTED, 0, 0, 1, TCJ_ACT_GELU, 22},
  {"every group empty", BF, BF, 64, 96, 64, 5, 0, 0, 0, 0, ENDS_GIVEN, ALL_ZERO, 0.5f, 0, 1, TCJ_ACT_SILU, 23},
  {"int64 end past 2^32", BF, F32, 32, 64, 64, 3, 0, 0, 0, 1, ENDS_GIVEN, PAST_K, 0.5f, 1, 1, TCJ_ACT_NONE, 24},
  {"no tokens", F16, F32, 64, 64, 0, 4, 0, 0, 0, 0, ENDS_GIVEN, NONE, 0.5f, 0, 1, TCJ_ACT_RELU, 25},
};

static void k_group_ends_are_clamped_and_empty_groups_write_d(void **state) {
  (void)state;
  run_table(CLAMPED, sizeof CLAMPED / sizeof *CLAMPED);
}

/* Host-side refusals name the field: other ops, strides of A or B, a pointer array. */
static void k_group_refusals_name_the_field(void **state) {
  (void)state;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  static uint16_t dummy[64] __attribute__((aligned(16)));
  d.op_a = TCJ_OP_T, d.op_b = TCJ_OP_N;
  d.m = d.n = d.k = 8;
  d.a = d.b = dummy, d.a_type = d.b_type = TCJ_BF16, d.lda = d.ldb = 8;
  d.d = dummy + 16, d.d_type = TCJ_BF16, d.ldd = 8, d.stride_d = 64;
  d.group_mode = TCJ_GROUP_K_CONTIGUOUS, d.group_count = 1, d.group_ends32 = (const int32_t *)dummy;
  static const struct { int field; tcj_status want; const char *name; } cases[] = {
    {0, TCJ_ERROR_NOT_SUPPORTED, "op_a"}, {1, TCJ_ERROR_NOT_SUPPORTED, "op_b"},
    {2, TCJ_ERROR_INVALID_VALUE, "stride_a"}, {3, TCJ_ERROR_INVALID_VALUE, "stride_b"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_gemm_desc x = d;
    if (cases[i].field == 0) x.op_a = TCJ_OP_N;
    if (cases[i].field == 1) x.op_b = TCJ_OP_T;
    if (cases[i].field == 2) x.stride_a = 64;
    if (cases[i].field == 3) x.stride_b = 64;
    tcj_status st = tcj_gemm_ex(g_eng, &x, (CUstream)g_ctx.stream);
    const char *why = tcj_last_error(g_eng);
    if (st != cases[i].want || !strstr(why, cases[i].name))
      print_error("case %zu: %s: %s (wanted %s naming %s)\n", i, tcj_status_string(st), why,
                  tcj_status_string(cases[i].want), cases[i].name);
    assert_int_equal(st, cases[i].want);
    assert_non_null(strstr(why, cases[i].name));
  }
}

/* ---- the recipes ------------------------------------------------------------------------------ */

/* The tables again under TCJ_RECIPE=sm80. */
static void sm80_recipe_runs_the_k_groups(void **state) {
  tcj_engine *e = gpu_engine_under("sm80");
  assert_non_null(e);
  g_eng = e;
  k_groups_of_every_count_match_reference(state);
  k_group_ends_are_clamped_and_empty_groups_write_d(state);
  g_eng = g_default;
  tcj_destroy(e);
}

/* Whether the sm90 kernel can address a case: A and B rows 16-byte aligned, and their starts
 * (each buffer ends where its data ends, so it starts as aligned as its size). k 0 has no
 * mainloop: it runs the sm80 kernel under any recipe. */
static int sm90_addressable(const kcase *c) {
  size_t es = gpu_esize(c->ab);
  uint64_t lda = (uint64_t)(c->m + c->pad_a) * es, ldb = (uint64_t)(c->n + c->pad_b) * es;
  uint64_t a_bytes = ((uint64_t)(c->k - 1) * (uint64_t)(c->m + c->pad_a) + (uint64_t)c->m) * es;
  uint64_t b_bytes = ((uint64_t)(c->k - 1) * (uint64_t)(c->n + c->pad_b) + (uint64_t)c->n) * es;
  return lda % 16 == 0 && ldb % 16 == 0 && a_bytes % 16 == 0 && b_bytes % 16 == 0;
}

/* One table under TCJ_RECIPE=sm90: every case it can address runs on the sm90 kernel (its
 * producer rewrites A's and B's tensor maps per group) and matches; the others are refused for
 * their 16-byte alignment. Returns the cases that ran on it. */
static int run_table_on_sm90(tcj_engine *e, const kcase *cases, size_t count) {
  char msg[1024];
  int failures = 0, ran = 0;
  const char *only = getenv("TCJ_TEST_CASE"); /* a substring of the cases to run, to isolate one */
  for (size_t i = 0; i < count; i++) {
    const kcase *c = &cases[i];
    if (only && !strstr(c->what, only)) continue;
    int ok = run_case(c, msg, sizeof msg);
    if (c->k == 0 || sm90_addressable(c)) {
      ran += c->k > 0;
      if (!ok) print_error("FAIL (TCJ_RECIPE=sm90) %s\n", msg), failures++;
    } else if (ok || g_last_status != TCJ_ERROR_NOT_SUPPORTED || !strstr(tcj_last_error(e), "16-byte")) {
      print_error("FAIL (TCJ_RECIPE=sm90) %s: expected TCJ_ERROR_NOT_SUPPORTED naming 16-byte alignment, got %s: %s\n",
                  c->what, tcj_status_string(g_last_status), tcj_last_error(e));
      failures++;
    }
  }
  print_message("  TCJ_RECIPE=sm90: %d cases ran on the sm90 kernel, %d failed\n", ran, failures);
  assert_int_equal(failures, 0);
  return ran;
}

/* On compute capability 9.0: TCJ_RECIPE=sm90 runs the tables' K groups it can address. */
static void sm90_recipe_runs_the_k_groups(void **state) {
  (void)state;
  gpu_skip_unless_sm90(g_cc);
  tcj_engine *e = gpu_engine_under("sm90");
  assert_non_null(e);
  g_eng = e;
  int only = getenv("TCJ_TEST_CASE") != NULL;
  assert_true(run_table_on_sm90(e, COUNTS, sizeof COUNTS / sizeof *COUNTS) >= (only ? 0 : 8));
  assert_true(run_table_on_sm90(e, CLAMPED, sizeof CLAMPED / sizeof *CLAMPED) >= (only ? 0 : 4));
  g_eng = g_default;
  tcj_destroy(e);
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("grouped operand checks", &g_default, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_eng = g_default;
  g_cc = 10 * prop.major + prop.minor;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(k_group_refusals_name_the_field),
      cmocka_unit_test(k_groups_of_every_count_match_reference),
      cmocka_unit_test(k_group_ends_are_clamped_and_empty_groups_write_d),
      cmocka_unit_test(sm80_recipe_runs_the_k_groups),
      cmocka_unit_test(sm90_recipe_runs_the_k_groups),
  };
  int failures = cmocka_run_group_tests_name("grouped_operands_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_default);
  return failures ? 1 : 0;
}
