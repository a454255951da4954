/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of the MoE combine in the grouped GEMM's epilogue (tcj_gemm_desc.scatter_d,
 * scatter_d_rows, scatter_mode), through the public API only: tokens routed to their top-k
 * experts, rows sorted by expert into contiguous groups, and each row's result
 * - TCJ_SCATTER_ADD: added into its token's row of an f32 D that already holds a residual. Every
 *   element of D is judged against the float64 reference D0[t, j] + the sum over the rows r of
 *   token t of row_scale[r] * act(alpha op(A_r) B_g + bias), with a bound built from each row's
 *   (tests/gpu/oracle.h: |A||B|, the fp32 epilogue, the activation) plus the fp32 atomic
 *   additions' (one rounding of the running sum per row added, in any order);
 * - TCJ_SCATTER_STORE: stored to row token * top_k + slot of D (the expert sort's permutation, so
 *   that a token's rows lie side by side), every element judged against its own reference and
 *   bound (oracle_ep_element), every row no index names left as it was.
 *
 * Every buffer ends where its mapping ends with poison before it (guard_buf.h); D's padding
 * columns and guard must come back unchanged, as must every input. Rows carry out-of-range
 * indices (-1, T, INT32_MAX, INT32_MIN: nothing added) and rows past the last group's end (not
 * computed). Covered: bf16, f16 and e4m3 operands; A read directly or gathered by the same token
 * indices; router weights or none; a per-group bias and an activation; n with 16-byte, 8-byte and
 * 4-byte rows; decode (most experts empty) and prefill-sized groups. Each case runs on the
 * default engine, under TCJ_RECIPE=sm80 and, on compute capability 9.0, TCJ_RECIPE=sm90 (its
 * cooperative consumers as selected, and ping-pong ones forced by TCJ_TILE).
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

static tcj_engine *g_default;
static uint64_t g_seed_base = 0x5ca77e2dull;
static guard_ctx g_ctx;
static int g_cc;

typedef struct scase {
  const char *what;
  tcj_scatter_mode mode;
  tcj_dtype ab, d_type; /* d_type: TCJ_F32 for adds */
  int64_t tokens, top_k, experts, n, k;
  int gather, row_scale, bias;
  tcj_activation act;
  int64_t pad_d; /* ldd - n */
} scase;

#define ADD TCJ_SCATTER_ADD
#define STORE TCJ_SCATTER_STORE
static const scase CASES[] = {
  {"small layer, router weights", ADD, TCJ_BF16, TCJ_F32, 300, 2, 16, 256, 128, 0, 1, 0, TCJ_ACT_NONE, 0},
  {"Qwen3-30B-A3B down-projection slice", ADD, TCJ_BF16, TCJ_F32, 512, 8, 128, 2048, 768, 0, 1, 0, TCJ_ACT_NONE, 0},
  {"gathered A, bias, SiLU, f16", ADD, TCJ_F16, TCJ_F32, 1000, 4, 8, 1000, 200, 1, 1, 1, TCJ_ACT_SILU, 4},
  {"prefill-sized groups", ADD, TCJ_BF16, TCJ_F32, 2048, 2, 4, 512, 256, 1, 1, 0, TCJ_ACT_NONE, 0},
  {"decode, most experts empty", ADD, TCJ_BF16, TCJ_F32, 4, 8, 128, 256, 128, 0, 1, 0, TCJ_ACT_NONE, 2},
  {"odd n (4-byte rows), GELU", ADD, TCJ_BF16, TCJ_F32, 200, 2, 3, 333, 64, 0, 0, 1, TCJ_ACT_GELU, 1},
  {"n of 8-byte rows", ADD, TCJ_F16, TCJ_F32, 150, 3, 5, 130, 96, 1, 0, 0, TCJ_ACT_NONE, 0},
  {"e4m3 operands", ADD, TCJ_E4M3, TCJ_F32, 256, 2, 4, 512, 256, 0, 1, 0, TCJ_ACT_NONE, 0},
  {"stored: Qwen3-30B-A3B slice, bf16 D", STORE, TCJ_BF16, TCJ_BF16, 512, 8, 128, 2048, 768, 0, 1, 0, TCJ_ACT_NONE, 0},
  {"stored: prefill-sized groups, gather", STORE, TCJ_BF16, TCJ_BF16, 2048, 2, 4, 512, 256, 1, 1, 0, TCJ_ACT_NONE, 8},
  {"stored: f16, bias, SiLU, f32 D", STORE, TCJ_F16, TCJ_F32, 1000, 4, 8, 1000, 200, 1, 1, 1, TCJ_ACT_SILU, 4},
  {"stored: odd n, decode", STORE, TCJ_BF16, TCJ_BF16, 5, 8, 128, 333, 64, 0, 1, 0, TCJ_ACT_NONE, 1},
};
#define N_CASES (sizeof CASES / sizeof *CASES)

/* Runs one case on e; returns 1, or 0 with msg set. */
static int run_case(tcj_engine *e, const scase *c, uint64_t seed, char *msg, size_t size) {
  const int64_t T = c->tokens, K = c->top_k, G = c->experts, n = c->n, k = c->k, ldd = n + c->pad_d;
  const int64_t extra = 5, m = T * K + extra; /* rows past the last group's end: not computed */
  const size_t es = gpu_esize(c->ab);
  rng r = {g_seed_base ^ seed};
  int len = snprintf(msg, size, "[%s] %s T=%lld top-%lld G=%lld n=%lld k=%lld gather=%d row_scale=%d bias=%d act=%d",
                     c->what, tcj_dtype_name(c->ab), (long long)T, (long long)K, (long long)G, (long long)n,
                     (long long)k, c->gather, c->row_scale, c->bias, (int)c->act);
  /* Routing: each (token, slot) to an expert, rows sorted by expert (stable), ends per expert. */
  int64_t *expert = malloc((size_t)(T * K) * sizeof *expert), *ends = calloc((size_t)G, sizeof *ends);
  int32_t *token = malloc((size_t)m * sizeof *token), *dest = malloc((size_t)m * sizeof *dest);
  assert_true(expert && ends && token && dest);
  const int store = c->mode == TCJ_SCATTER_STORE;
  const int64_t R = store ? T * K + 3 : T; /* D's rows: stores leave the last 3 unnamed */
  for (int64_t i = 0; i < T * K; i++) expert[i] = (int64_t)(rng_next(&r) % (uint64_t)G);
  int64_t row = 0;
  for (int64_t g = 0; g < G; g++) {
    for (int64_t i = 0; i < T * K; i++)
      if (expert[i] == g) dest[row] = (int32_t)i, token[row++] = (int32_t)(i / K);
    ends[g] = row;
  }
  for (int64_t i = T * K; i < m; i++) token[i] = (int32_t)(i % T), dest[i] = (int32_t)(i % R);
  if (!store) memcpy(dest, token, (size_t)m * sizeof *dest); /* adds: each row into its token's */
  /* A few rows write nothing: indices outside [0, R) (and, gathered, read a row of zeros). */
  static const int32_t outside[4] = {-1, 0, INT32_MAX, INT32_MIN};
  for (int i = 0; i < 4 && T * K > 8; i++) {
    int64_t at = (int64_t)(rng_next(&r) % (uint64_t)(T * K));
    dest[at] = outside[i] == 0 ? (int32_t)R : outside[i];
    if (!store) token[at] = dest[at];
  }
  const int64_t a_rows = c->gather ? T : m, lda = k, ldb = k; /* B: nn.Linear [G, n, k] */
  const size_t ed = gpu_esize(c->d_type);
  guard_buf A, B, D, bias, groups, idx, didx, rs, scales;
  assert_true(guard_buf_alloc(&g_ctx, &A, (size_t)(a_rows * lda) * es, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &B, (size_t)(G * n * ldb) * es, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &D, (size_t)((R - 1) * ldd + n) * ed, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &bias, (size_t)(G * n) * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &groups, (size_t)G * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &idx, (size_t)m * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &didx, (size_t)m * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &rs, (size_t)m * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &scales, 8, 0xFF));
  double *a = malloc((size_t)(a_rows * k) * sizeof *a), *bt = malloc((size_t)(G * n * k) * sizeof *bt);
  double *d0 = malloc((size_t)(R * n) * sizeof *d0), *w = malloc((size_t)m * sizeof *w);
  assert_true(a && bt && d0 && w);
  for (int64_t i = 0; i < a_rows * k; i++) a[i] = gpu_put(c->ab, guard_buf_data(&A), (size_t)i, 2 * rng_sym(&r));
  for (int64_t i = 0; i < G * n * k; i++) bt[i] = gpu_put(c->ab, guard_buf_data(&B), (size_t)i, rng_sym(&r));
  for (int64_t t = 0; t < R; t++)
    for (int64_t j = 0; j < n; j++) d0[t * n + j] = gpu_put(c->d_type, guard_buf_data(&D), (size_t)(t * ldd + j), rng_sym(&r));
  for (int64_t e2 = 0; e2 < G * n; e2++) gpu_put(TCJ_F32, guard_buf_data(&bias), (size_t)e2, 0.5 * rng_sym(&r));
  for (int64_t i = 0; i < m; i++) w[i] = c->row_scale ? gpu_put(TCJ_F32, guard_buf_data(&rs), (size_t)i, 0.5 + 0.5 * rng_sym(&r)) : 1;
  for (int64_t g = 0; g < G; g++) {
    int32_t v = (int32_t)ends[g];
    memcpy(guard_buf_data(&groups) + 4 * g, &v, 4);
  }
  memcpy(guard_buf_data(&idx), token, (size_t)m * 4);
  memcpy(guard_buf_data(&didx), dest, (size_t)m * 4);
  const float sa = 0.75f, sb = 1.25f; /* fp8 per-tensor scales */
  memcpy(guard_buf_data(&scales), &sa, 4);
  memcpy(guard_buf_data(&scales) + 4, &sb, 4);
  guard_buf *all[] = {&A, &B, &D, &bias, &groups, &idx, &didx, &rs, &scales};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) assert_int_equal(guard_buf_upload(&g_ctx, all[i]), cudaSuccess);

  const float alpha = (float)(1.0 / sqrt((double)k));
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = TCJ_OP_N, d.op_b = TCJ_OP_T;
  d.m = m, d.n = n, d.k = k;
  d.a = guard_buf_dev(&A), d.a_type = c->ab, d.lda = lda;
  d.b = guard_buf_dev(&B), d.b_type = c->ab, d.ldb = ldb, d.stride_b = n * k;
  d.d = guard_buf_dev(&D), d.d_type = c->d_type, d.ldd = ldd;
  d.c_type = c->d_type;
  d.alpha = alpha;
  d.activation = c->act;
  if (c->bias) d.bias = guard_buf_dev(&bias), d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_COL, d.stride_bias = n;
  if (c->row_scale) d.row_scale = guard_buf_dev(&rs);
  if (c->gather) d.gather_a = guard_buf_dev(&idx), d.gather_a_rows = T;
  if (c->ab == TCJ_E4M3) d.scale_a = guard_buf_dev(&scales), d.scale_b = (const float *)guard_buf_dev(&scales) + 1;
  d.group_mode = TCJ_GROUP_M_CONTIGUOUS, d.group_count = G, d.group_ends32 = guard_buf_dev(&groups);
  d.scatter_d = guard_buf_dev(&didx), d.scatter_d_rows = R, d.scatter_mode = c->mode;
  tcj_status st = tcj_gemm_ex(e, &d, (CUstream)g_ctx.stream);
  int ok = 1;
  if (st != TCJ_SUCCESS) {
    snprintf(msg + len, size - (size_t)len, ": tcj_gemm_ex %s: %s", tcj_status_string(st), tcj_last_error(e));
    ok = 0;
  }
  for (size_t i = 0; ok && i < sizeof all / sizeof *all; i++)
    assert_int_equal(guard_buf_download(&g_ctx, all[i]), cudaSuccess);
  cudaError_t ce = cudaStreamSynchronize(g_ctx.stream);
  if (ok && ce != cudaSuccess) {
    snprintf(msg + len, size - (size_t)len, ": %s", cudaGetErrorName(ce));
    ok = 0;
  }
  /* The reference per element of D's R rows: ref (adds: the sum of the terms; stores: the
   * value), mag (sum of |terms|), err (the terms' own bounds, before D's rounding) and hits (rows
   * that land on the row). */
  double *ref = calloc((size_t)(R * n), sizeof *ref), *mag = calloc((size_t)(R * n), sizeof *mag);
  double *err = calloc((size_t)(R * n), sizeof *err);
  int *hits = calloc((size_t)R, sizeof *hits);
  assert_true(ref && mag && err && hits);
  const double ab_scale = c->ab == TCJ_E4M3 ? (double)sa * (double)sb : 1;
  /* fp8: the tensor cores' own accumulation between fp32 adds (test_fp8_gpu.c's c_tc). */
  oracle_ep ep = {k, alpha * ab_scale, 0, c->act, TCJ_F32, 0, c->ab == TCJ_E4M3 ? 4 * 0x1p-10 : 0};
  for (int64_t g = 0, start = 0; ok && g < G; start = ends[g++])
    for (int64_t i = start; i < ends[g]; i++) {
      int32_t to = dest[i];
      if (to < 0 || to >= R) continue;
      hits[to]++;
      const double *arow = a + (c->gather ? (int64_t)token[i] : i) * k;
      for (int64_t j = 0; j < n; j++) {
        double s, tt, v, bound;
        oracle_dot(arow, bt + (g * n + j) * k, k, &s, &tt);
        double bv = c->bias ? gpu_get(TCJ_F32, guard_buf_data(&bias), (size_t)(g * n + j)) : 0;
        oracle_ep_element(&ep, s, tt, 0, bv, 0, 0, 0, &v, &bound);
        size_t at = (size_t)(to * n + j);
        ref[at] += w[i] * v;
        mag[at] += fabs(w[i] * v);
        err[at] += fabs(w[i]) * bound + 0x1p-24 * fabs(w[i] * v); /* and the row scale's product */
      }
    }
  int64_t bad = 0, touched = 0;
  double worst = 0, ud = oracle_unit_roundoff(c->d_type);
  for (int64_t row = 0; ok && row < R; row++)
    for (int64_t j = 0; hits[row] && j < n; j++) {
      size_t at = (size_t)(row * n + j);
      double want, bound;
      if (store) { /* one row, rounded to D's type */
        want = ref[at];
        bound = err[at] * (1 + ud) + 2 * ud * fabs(want) + oracle_abs_floor(c->d_type);
      } else { /* each atomic add rounds the running sum once (and flushes subnormal results) */
        want = d0[at] + ref[at];
        bound = err[at] + hits[row] * 0x1p-24 * (fabs(d0[at]) + mag[at] + err[at]) + hits[row] * 0x1p-126;
      }
      double got = gpu_get(c->d_type, guard_buf_back(&D), (size_t)(row * ldd + j));
      double diff = fabs(got - want), ratio = diff != diff ? INFINITY : diff == 0 ? 0 : diff / bound;
      touched++;
      if (!(ratio <= 1)) {
        if (!bad)
          snprintf(msg + len, size - (size_t)len, ": D[%lld, %lld] = %.9g, reference %.9g (D0 %.9g, %d rows), bound %.3g",
                   (long long)row, (long long)j, got, want, d0[at], hits[row], bound);
        bad++;
      }
      if (ratio > worst) worst = ratio;
    }
  if (ok && bad) ok = 0;
  if (ok) assert_true(touched > 0);
  /* Every element of D no row lands on, D's padding columns, and every guard and input come
   * back as they went. */
  for (size_t i = 0; ok && i < sizeof all / sizeof *all; i++) {
    const guard_buf *x = all[i];
    for (size_t byte = 0; byte < GUARD_BYTES + x->bytes; byte++) {
      if (x == &D && byte >= GUARD_BYTES) {
        size_t el = (byte - GUARD_BYTES) / ed;
        if ((int64_t)(el % (size_t)ldd) < n && hits[el / (size_t)ldd]) continue; /* judged above */
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
  free(expert), free(ends), free(token), free(dest), free(a), free(bt), free(d0), free(w);
  free(ref), free(mag), free(err), free(hits);
  return ok;
}

static void run_table_but(tcj_engine *e, const char *under, int no_fp8) {
  char msg[1024];
  int failures = 0;
  for (size_t i = 0; i < N_CASES; i++) {
    if (CASES[i].ab == TCJ_E4M3 && (g_cc < 89 || no_fp8)) continue; /* fp8 needs sm_89 */
    if (!run_case(e, &CASES[i], 0x1000 + i, msg, sizeof msg)) {
      print_error("FAIL (%s) %s\n", under, msg);
      failures++;
    }
  }
  print_message("  %s: %zu cases, %d failed%s\n", under, N_CASES, failures, no_fp8 ? " (fp8 cases not run)" : "");
  assert_int_equal(failures, 0);
}

static void run_table(tcj_engine *e, const char *under) { run_table_but(e, under, 0); }

static void scattered_rows_add_into_d_on_the_default_engine(void **state) {
  (void)state;
  run_table(g_default, "default");
}

static void scattered_rows_add_into_d_under_sm80(void **state) {
  (void)state;
  tcj_engine *e = gpu_engine_under("sm80");
  assert_non_null(e);
  run_table(e, "TCJ_RECIPE=sm80");
  tcj_destroy(e);
}

static void scattered_rows_add_into_d_under_sm90(void **state) {
  (void)state;
  gpu_skip_unless_sm90(g_cc);
  tcj_engine *e = gpu_engine_under("sm90");
  assert_non_null(e);
  run_table(e, "TCJ_RECIPE=sm90");
  tcj_destroy(e);
}

/* The table on the sm90 recipe with TCJ_TILE forced to `tile` (no_fp8: a tile promoted fp8
 * cannot take, which the config check refuses and selection never gives it). */
static void run_table_on_sm90_tile(const char *tile, const char *label, int no_fp8) {
  gpu_skip_unless_sm90(g_cc);
  tcj_engine *e = gpu_engine_with("sm90", tile);
  assert_non_null(e);
  run_table_but(e, label, no_fp8);
  tcj_destroy(e);
}

/* Ping-pong consumers (two 64-row tiles in turn). */
static void scattered_rows_add_into_d_on_sm90_pingpong_consumers(void **state) {
  (void)state;
  run_table_on_sm90_tile(GPU_SM90_PINGPONG_TILE, "TCJ_RECIPE=sm90 TCJ_TILE=" GPU_SM90_PINGPONG_TILE, 0);
}

/* 128-row ping-pong tiles: what selection gives Qwen3's down-projection at 2048 tokens. Its
 * consumers hold 128 accumulators, which leaves promoted fp8 no room for its partial sums: the
 * config check refuses the fp8 case (selection gives the tile 16-bit groups only). */
static void scattered_rows_add_into_d_on_sm90_128_row_pingpong_tiles(void **state) {
  (void)state;
  run_table_on_sm90_tile(GPU_SM90_PINGPONG_128_TILE, "TCJ_RECIPE=sm90 TCJ_TILE=" GPU_SM90_PINGPONG_128_TILE, 1);
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("grouped scatter-add (the MoE combine)", &g_default, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_cc = 10 * prop.major + prop.minor;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scattered_rows_add_into_d_on_the_default_engine),
      cmocka_unit_test(scattered_rows_add_into_d_under_sm80),
      cmocka_unit_test(scattered_rows_add_into_d_under_sm90),
      cmocka_unit_test(scattered_rows_add_into_d_on_sm90_pingpong_consumers),
      cmocka_unit_test(scattered_rows_add_into_d_on_sm90_128_row_pingpong_tiles),
  };
  int failures = cmocka_run_group_tests_name("grouped_scatter_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_default);
  return failures ? 1 : 0;
}
