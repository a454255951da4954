/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of grouped GEMM with gathered rows of A (tcj_gemm_desc.gather_a,
 * gather_a_rows) and B by an array of pointers (group_b_ptrs), through the public API only.
 * Every element of every group's rows of D is judged against the float64 reference of
 * tests/gpu/oracle.h (oracle_ep_element: a bound from |A||B|, the epilogue's fp32 adds, the
 * activation, D's rounding): row r of a gathered problem is A's row gather_a[r], or a row of
 * zeros for an index outside [0, gather_a_rows); group g's B is the buffer its pointer names.
 *
 * Every buffer ends where its mapping ends with poison before it (guard_buf.h): A ends where its
 * gather_a_rows-th row ends, each group's B is its own allocation (the pointer array lists them
 * in shuffled order), so a read one element past any of them faults. D (its rows, the padding
 * between them, rows no group owns and the guard) is poisoned before every call; what no group
 * writes must come back unchanged, as must A, the B buffers, C, the bias and the arrays.
 *
 * Covered: gathers that permute the token rows, repeat rows, hold out-of-range indices (-1,
 * gather_a_rows, INT32_MAX, INT32_MIN) and reach A's last row; A with fewer and with more rows
 * than the problem; pointer arrays in contiguous and masked modes, op_b N and T;
 * bf16 and f16 into bf16, f16 and f32; C read or not; a per-group bias; activations; empty
 * groups. Each table runs on the default engine (on sm_90a its gathers of 64 expected rows a
 * group or more take the sm90 kernel, the rest the sm80 one) and on one made under
 * TCJ_RECIPE=sm80; on compute capability 9.0, TCJ_RECIPE=sm90 runs every gather and pointer
 * array whose rows are 16-byte aligned on the sm90 kernel (its producer copies A's rows with
 * cp.async, and rewrites B's tensor map per group), whatever its groups' rows, and refuses the
 * others for their alignment; then again with ping-pong consumers forced (TCJ_TILE).
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

#include "gather_cases.h"
#include "gpu_test.h"
#include "guard_buf.h"
#include "oracle.h"
#include "tcj.h"

static tcj_engine *g_eng;        /* the engine the tables run on */
static tcj_engine *g_default;    /* made with default options */
static uint64_t g_seed_base = 0x9a7e5eedull;
static guard_ctx g_ctx;          /* the buffers' vmm API, device, guard and stream */
static int g_cc;
static tcj_status g_last_status; /* run_case's tcj_gemm_ex */

/* ---- cases (gather_cases.h) ------------------------------------------------------------------ */

static int describe(const gcase *c, char *buf, size_t size) {
  return snprintf(buf, size, "[%s] %s->%s %s m=%lld n=%lld k=%lld G=%lld op_b=%c pads=%lld/%lld/%lld gather_rows=%lld%s "
                  "beta=%g bias=%d act=%d seed=0x%llx", c->what, tcj_dtype_name(c->ab), tcj_dtype_name(c->d_type),
                  c->masked ? "masked" : "contiguous", (long long)c->m, (long long)c->n, (long long)c->k,
                  (long long)c->groups, c->op_b_t ? 'T' : 'N', (long long)c->pad_a, (long long)c->pad_b,
                  (long long)c->pad_d, (long long)c->gather_rows, c->b_ptrs ? " b_ptrs" : "", c->beta, c->bias,
                  (int)c->act, (unsigned long long)c->seed);
}

/* Group g's rows: contiguous, [start, end) of the m rows (ragged, some empty, the last few rows
 * owned by no group); masked, rows [0, count) of entry g (some 0, some m). */
static void draw_groups(const gcase *c, rng *r, int64_t *start, int64_t *end, int32_t *value) {
  int64_t G = c->groups, at = 0, owned = c->masked ? c->m : c->m - c->m / 16;
  for (int64_t g = 0; g < G; g++) {
    if (c->masked) {
      int64_t u = (int64_t)(rng_next(r) % 4);
      int64_t count = u == 0 ? 0 : u == 1 ? c->m : (int64_t)(rng_next(r) % (uint64_t)(c->m + 1));
      start[g] = 0, end[g] = count, value[g] = (int32_t)count;
      continue;
    }
    int64_t left = owned - at, rows = g == G - 1 ? left : rng_next(r) % 5 == 0 ? 0 : (int64_t)(rng_next(r) % (uint64_t)(2 * owned / G + 1));
    if (rows > left) rows = left;
    start[g] = at, end[g] = at += rows;
    value[g] = (int32_t)at;
  }
}

/* The gather: a permutation of A's rows (gather_rows >= m: m of them; else every row of A, then
 * repeats), then about one row in eight repeating another and one in twelve out of range;
 * A's last row is always read. */
static void draw_gather(const gcase *c, rng *r, int32_t *idx) {
  int64_t m = c->m, rows = c->gather_rows;
  int32_t *perm = malloc((size_t)rows * sizeof *perm);
  assert_non_null(perm);
  for (int64_t i = 0; i < rows; i++) perm[i] = (int32_t)i;
  for (int64_t i = rows - 1; i > 0; i--) {
    int64_t j = (int64_t)(rng_next(r) % (uint64_t)(i + 1));
    int32_t t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int64_t i = 0; i < m; i++) idx[i] = perm[i % rows];
  static const int32_t outside[4] = {-1, 0, INT32_MAX, INT32_MIN};
  for (int64_t i = 0; i < m; i++) {
    uint64_t u = rng_next(r) % 24;
    if (u < 3) idx[i] = idx[rng_next(r) % (uint64_t)m];
    else if (u < 5) {
      int32_t o = outside[rng_next(r) % 4];
      idx[i] = o == 0 ? (int32_t)rows : o;
    }
  }
  /* Always: A's last row, and both kinds of outside index where there are rows enough. */
  idx[m - 1] = (int32_t)(rows - 1);
  if (m >= 3) idx[0] = -1, idx[m / 2] = (int32_t)rows;
  free(perm);
}

/* Runs one case on g_eng and judges every element; returns 1, or 0 with msg set. */
static int run_case(const gcase *c, char *msg, size_t size) {
  const int64_t m = c->m, n = c->n, k = c->k, G = c->groups;
  assert_true(G <= GCASE_MAX_GROUPS);
  const gcase_extent x = gcase_extent_of(c);
  const int64_t lda = x.lda, ldb = x.ldb, ldd = x.ldd, a_rows = x.a_rows;
  const size_t es = gpu_esize(c->ab), ed = gpu_esize(c->d_type);
  rng r = {g_seed_base ^ c->seed};
  int64_t start[GCASE_MAX_GROUPS], end[GCASE_MAX_GROUPS];
  int32_t value[GCASE_MAX_GROUPS];
  draw_groups(c, &r, start, end, value);

  /* A: a_rows rows of lda (k values, then NaN padding), the last row ending at k. */
  const size_t a_elems = x.a_elems, b_elems = x.b_elems, stride_d = x.stride_d, d_elems = x.d_elems;
  guard_buf A, Bs[GCASE_MAX_GROUPS], C, D, bias, groups, gather, ptrs;
  int nb = c->b_ptrs ? (int)G : 1;
  assert_true(guard_buf_alloc(&g_ctx, &A, a_elems * es, 0xFF));
  size_t b_bytes = (c->b_ptrs ? b_elems : (size_t)(G - 1) * b_elems + b_elems) * es;
  for (int i = 0; i < nb; i++) assert_true(guard_buf_alloc(&g_ctx, &Bs[i], b_bytes, 0xFF));
  /* The pointers as tcj.h asks (the library cannot check them; test_gpu_cases checks the tables). */
  for (int i = 0; i < nb && c->b_ptrs; i++)
    if ((uintptr_t)guard_buf_dev(&Bs[i]) % (uintptr_t)gcase_b_ptr_align(c, es)) {
      describe(c, msg, size);
      fail_msg("%s: B at %p is not aligned to the %d bytes tcj.h asks of group_b_ptrs", msg, guard_buf_dev(&Bs[i]),
               gcase_b_ptr_align(c, es));
    }
  assert_true(guard_buf_alloc(&g_ctx, &C, d_elems * ed, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &D, d_elems * ed, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &bias, (size_t)(G * n) * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &groups, (size_t)G * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &gather, (size_t)(c->gather_rows ? m : 1) * 4, 0xFF));
  assert_true(guard_buf_alloc(&g_ctx, &ptrs, (size_t)G * 8, 0xFF));
  double *a = calloc((size_t)(a_rows * k), sizeof *a), *bt = calloc((size_t)(G * n * k), sizeof *bt);
  assert_true(a && bt);
  for (int64_t i = 0; i < a_rows; i++)
    for (int64_t t = 0; t < k; t++)
      a[i * k + t] = gpu_put(c->ab, guard_buf_data(&A), (size_t)(i * lda + t), rng_sym(&r));
  /* Group g's B: buffer slot[g] (a shuffle) with pointers, else entry g of one buffer. bt: B^T. */
  int slot[GCASE_MAX_GROUPS];
  for (int g = 0; g < (int)G; g++) slot[g] = g;
  for (int g = (int)G - 1; g > 0 && c->b_ptrs; g--) {
    int j = (int)(rng_next(&r) % (uint64_t)(g + 1)), t = slot[g];
    slot[g] = slot[j], slot[j] = t;
  }
  for (int64_t g = 0; g < G; g++) {
    unsigned char *base = c->b_ptrs ? guard_buf_data(&Bs[slot[g]]) : guard_buf_data(&Bs[0]) + (size_t)g * b_elems * es;
    for (int64_t j = 0; j < n; j++)
      for (int64_t t = 0; t < k; t++)
        bt[(g * n + j) * k + t] = gpu_put(c->ab, base, (size_t)(c->op_b_t ? j * ldb + t : t * ldb + j), rng_sym(&r));
  }
  if (c->beta != 0)
    for (size_t e = 0; e < d_elems; e++) gpu_put(c->d_type, guard_buf_data(&C), e, rng_sym(&r));
  for (int64_t e = 0; e < G * n; e++) gpu_put(TCJ_F32, guard_buf_data(&bias), (size_t)e, 0.5 * rng_sym(&r));
  memcpy(guard_buf_data(&groups), value, (size_t)G * 4);
  int32_t *idx = NULL;
  if (c->gather_rows) {
    idx = malloc((size_t)m * sizeof *idx);
    assert_non_null(idx);
    draw_gather(c, &r, idx);
    memcpy(guard_buf_data(&gather), idx, (size_t)m * 4);
  }
  for (int64_t g = 0; g < G; g++) {
    void *p = guard_buf_dev(&Bs[c->b_ptrs ? slot[g] : 0]);
    memcpy(guard_buf_data(&ptrs) + g * 8, &p, 8);
  }
  guard_buf *all[4 + GCASE_MAX_GROUPS + 4] = {&A, &C, &D, &bias, &groups, &gather, &ptrs};
  size_t n_all = 7;
  for (int i = 0; i < nb; i++) all[n_all++] = &Bs[i];
  for (size_t i = 0; i < n_all; i++) assert_int_equal(guard_buf_upload(&g_ctx, all[i]), cudaSuccess);

  const float alpha = (float)(1.5 / sqrt((double)k));
  gcase_at at = {guard_buf_dev(&A), guard_buf_dev(&Bs[0]), guard_buf_dev(&C), guard_buf_dev(&bias),
                 guard_buf_dev(&groups), guard_buf_dev(&gather), guard_buf_dev(&D),
                 (const void *const *)guard_buf_dev(&ptrs)};
  tcj_gemm_desc d = gcase_desc(c, &at, alpha);
  tcj_status st = g_last_status = tcj_gemm_ex(g_eng, &d, (CUstream)g_ctx.stream);
  int ok = 1;
  int len = describe(c, msg, size);
  if (st != TCJ_SUCCESS) {
    snprintf(msg + len, size - (size_t)len, ": tcj_gemm_ex %s: %s", tcj_status_string(st), tcj_last_error(g_eng));
    ok = 0;
  }
  for (size_t i = 0; ok && i < n_all; i++) assert_int_equal(guard_buf_download(&g_ctx, all[i]), cudaSuccess);
  cudaError_t ce = cudaStreamSynchronize(g_ctx.stream);
  if (ok && ce != cudaSuccess) {
    snprintf(msg + len, size - (size_t)len, ": %s", cudaGetErrorName(ce));
    ok = 0;
  }
  /* Every element of every group's rows within its bound; a row gathered from outside A is a
   * row of zeros (s = t = 0). written: D's elements some group owns. */
  unsigned char *written = calloc(d_elems, 1);
  assert_non_null(written);
  oracle_ep ep = {k, alpha, c->beta, c->act, c->d_type, 0, 0};
  int64_t bad = 0, zero_rows = 0;
  double worst = 0, *zeros = calloc((size_t)k, sizeof *zeros);
  assert_non_null(zeros);
  for (int64_t g = 0; ok && g < G; g++)
    for (int64_t i = start[g]; i < end[g]; i++) {
      int64_t src = c->masked ? g * m + i : i;
      const double *arow = a + src * k;
      if (idx) {
        int outside = idx[i] < 0 || idx[i] >= c->gather_rows;
        zero_rows += outside;
        arow = outside ? zeros : a + (int64_t)idx[i] * k;
      }
      for (int64_t j = 0; j < n; j++) {
        double s, t, ref, bound;
        oracle_dot(arow, bt + (g * n + j) * k, k, &s, &t);
        size_t at = (size_t)g * stride_d + (size_t)(i * ldd + j);
        written[at] = 1;
        double cv = c->beta != 0 ? gpu_get(c->d_type, guard_buf_data(&C), at) : 0;
        double bv = c->bias ? gpu_get(TCJ_F32, guard_buf_data(&bias), (size_t)(g * n + j)) : 0;
        double got = gpu_get(c->d_type, guard_buf_back(&D), at);
        double ratio = oracle_ep_element(&ep, s, t, cv, bv, 0, 0, got, &ref, &bound);
        if (!(ratio <= 1)) {
          if (!bad)
            snprintf(msg + len, size - (size_t)len, ": group %lld D[%lld, %lld] (A row %lld) = %.9g, reference %.9g, bound %.3g",
                     (long long)g, (long long)i, (long long)j, idx ? (long long)idx[i] : (long long)src, got, ref, bound);
          bad++;
        }
        if (ratio > worst) worst = ratio;
      }
    }
  if (ok && bad) ok = 0;
  for (size_t i = 0; ok && i < n_all; i++) {
    const guard_buf *x = all[i];
    for (size_t byte = 0; byte < GUARD_BYTES + x->bytes; byte++) {
      if (x == &D && byte >= GUARD_BYTES && written[(byte - GUARD_BYTES) / ed]) continue;
      if (x->before[byte] != x->after[byte]) {
        snprintf(msg + len, size - (size_t)len, ": buffer %zu changed at byte %zu (guard %d)", i, byte, GUARD_BYTES);
        ok = 0;
        break;
      }
    }
  }
  if (ok && idx && m >= 3) assert_true(zero_rows > 0); /* out-of-range rows were judged */
  if (ok && worst > 0.5) print_message("  worst error %.2f of its bound: %s\n", worst, msg);
  for (size_t i = 0; i < n_all; i++) guard_buf_free(&g_ctx, all[i]);
  free(written);
  free(zeros);
  free(idx);
  free(a);
  free(bt);
  return ok;
}

static void run_table(const gcase *cases, size_t count) {
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

static void gathered_rows_match_reference(void **state) {
  (void)state;
  run_table(GATHERS, sizeof GATHERS / sizeof *GATHERS);
}

/* B by pointer arrays (POINTERS in gather_cases.h: each group's B its own allocation). */
static void b_pointer_arrays_match_reference(void **state) {
  (void)state;
  run_table(POINTERS, sizeof POINTERS / sizeof *POINTERS);
}

/* ---- the recipes ------------------------------------------------------------------------------ */

/* The tables again under TCJ_RECIPE=sm80. */
static void sm80_recipe_runs_gathers_and_pointer_arrays(void **state) {
  tcj_engine *e = gpu_engine_under("sm80");
  assert_non_null(e);
  g_eng = e;
  gathered_rows_match_reference(state);
  b_pointer_arrays_match_reference(state);
  g_eng = g_default;
  tcj_destroy(e);
}

/* Whether the sm90 recipe can address a case: 16-byte aligned A and B rows and starts (TMA for
 * B, 16-byte cp.async copies for gathered A); each buffer ends where its data ends, so it starts
 * as aligned as its size in bytes (gcase_align16). */
static int sm90_addressable(const gcase *c) {
  gcase_extent x = gcase_extent_of(c);
  size_t es = c->ab == TCJ_F16 || c->ab == TCJ_BF16 ? 2 : 1;
  return gcase_align16((uint64_t)x.lda * es) == 16 && gcase_align16((uint64_t)x.ldb * es) == 16 &&
         gcase_align16(x.a_elems * es) == 16 && gcase_align16(x.b_elems * es) == 16;
}

/* One table under TCJ_RECIPE=sm90: every case it can address runs and matches, the others are
 * refused for their 16-byte alignment. Returns the cases that ran. */
static int run_table_on_sm90(tcj_engine *e, const gcase *cases, size_t count, const char *what) {
  char msg[1024];
  int failures = 0, ran = 0;
  for (size_t i = 0; i < count; i++) {
    const gcase *c = &cases[i];
    int ok = run_case(c, msg, sizeof msg);
    if (sm90_addressable(c)) {
      ran++;
      if (!ok) print_error("FAIL (TCJ_RECIPE=sm90) %s\n", msg), failures++;
    } else if (ok || g_last_status != TCJ_ERROR_NOT_SUPPORTED || !strstr(tcj_last_error(e), "16-byte")) {
      print_error("FAIL (TCJ_RECIPE=sm90) %s: expected TCJ_ERROR_NOT_SUPPORTED naming 16-byte alignment, got %s: %s\n",
                  c->what, tcj_status_string(g_last_status), tcj_last_error(e));
      failures++;
    }
  }
  print_message("  TCJ_RECIPE=sm90: %d %s ran, %d failed\n", ran, what, failures);
  assert_int_equal(failures, 0);
  return ran;
}

/* On compute capability 9.0: TCJ_RECIPE=sm90 runs every gather and pointer array it can
 * address, whatever its groups' rows; with tile (TCJ_TILE) every call on that tile. */
static void sm90_runs_gathers_and_pointer_arrays_on(const char *tile) {
  gpu_skip_unless_sm90(g_cc);
  tcj_engine *e = gpu_engine_with("sm90", tile);
  assert_non_null(e);
  g_eng = e;
  assert_true(run_table_on_sm90(e, GATHERS, sizeof GATHERS / sizeof *GATHERS, "gathers") >= 8);
  assert_true(run_table_on_sm90(e, POINTERS, sizeof POINTERS / sizeof *POINTERS, "pointer arrays") >= 5);
  g_eng = g_default;
  tcj_destroy(e);
}

static void sm90_recipe_runs_gathers_and_pointer_arrays(void **state) {
  (void)state;
  sm90_runs_gathers_and_pointer_arrays_on(NULL);
}

/* Ping-pong consumers (two 64-row tiles in turn): the kernel of Qwen3's gathered up-projection. */
static void sm90_pingpong_consumers_run_gathers_and_pointer_arrays(void **state) {
  (void)state;
  sm90_runs_gathers_and_pointer_arrays_on(GPU_SM90_PINGPONG_TILE);
}

/* 128-row ping-pong tiles: what selection gives short-K groups of few rows. */
static void sm90_128_row_pingpong_tiles_run_gathers_and_pointer_arrays(void **state) {
  (void)state;
  sm90_runs_gathers_and_pointer_arrays_on(GPU_SM90_PINGPONG_128_TILE);
}

/* The whole-tile TMA epilogue, cooperative and ping-pong. */
static void sm90_whole_tile_epilogues_run_gathers_and_pointer_arrays(void **state) {
  (void)state;
  sm90_runs_gathers_and_pointer_arrays_on(GPU_SM90_WHOLE_EPI_TILE);
  sm90_runs_gathers_and_pointer_arrays_on(GPU_SM90_WHOLE_EPI_PP_TILE);
}

/* Three consumer warpgroups (192-row tiles): the gathering producer copies six rows a thread. */
static void sm90_three_consumers_run_gathers_and_pointer_arrays(void **state) {
  (void)state;
  sm90_runs_gathers_and_pointer_arrays_on(GPU_SM90_THREE_CONSUMER_TILE);
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("grouped gathers and B pointer arrays", &g_default, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_eng = g_default;
  g_cc = 10 * prop.major + prop.minor;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major, prop.minor,
         (unsigned long long)g_seed_base);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gathered_rows_match_reference),
      cmocka_unit_test(b_pointer_arrays_match_reference),
      cmocka_unit_test(sm80_recipe_runs_gathers_and_pointer_arrays),
      cmocka_unit_test(sm90_recipe_runs_gathers_and_pointer_arrays),
      cmocka_unit_test(sm90_pingpong_consumers_run_gathers_and_pointer_arrays),
      cmocka_unit_test(sm90_128_row_pingpong_tiles_run_gathers_and_pointer_arrays),
      cmocka_unit_test(sm90_whole_tile_epilogues_run_gathers_and_pointer_arrays),
      cmocka_unit_test(sm90_three_consumers_run_gathers_and_pointer_arrays),
  };
  int failures = cmocka_run_group_tests_name("grouped_gather_gpu", tests, guard_group_setup, guard_group_teardown);
  tcj_destroy(g_default);
  return failures ? 1 : 0;
}
