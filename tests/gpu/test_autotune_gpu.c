/* SPDX-License-Identifier: Apache-2.0 */
/* GPU test of TCJ_TUNE=1 (engine/autotune.h), through the public API: a tuned first call is
 * correct, and writes the caller's D once (an in-place update, C = A B + C, applies beta once
 * although the tuner ran every candidate); it compiles several candidates and stores its choice
 * beside them; a second engine on the same cache takes the choice from disk and loads only the
 * chosen kernel; a call inside a stream capture is not tuned and replays correctly, and the
 * same problem outside the capture is tuned then; a tuning call beside another stream's
 * global-mode capture leaves that capture whole. Every result is checked element by element
 * against a float64 reference (tests/gpu/oracle.h).
 * Without a GPU it prints SKIP and exits 77 (CTest: skipped). */
#include <cuda_runtime.h>
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"
#include "tests/gpu/oracle.h"

static char g_dir[64];
static int g_sm90a; /* only sm_90a has more than one plan to time for these problems */

typedef struct problem {
  tcj_op op_b;
  int64_t m, n, k;
  float beta; /* 0: D poisoned first; else C = A B + beta C in place */
} problem;

static tcj_engine *tuned_engine(void) {
  setenv("TCJ_TUNE", "1", 1);
  setenv("TCJ_CACHE_DIR", g_dir, 1);
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, NULL), TCJ_SUCCESS);
  unsetenv("TCJ_TUNE");
  return e;
}

static tcj_stats stats_of(tcj_engine *e) {
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  return s;
}

static long entries_in(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  long n = 0;
  for (struct dirent *de; (de = readdir(d));) n += strstr(de->d_name, ".tcjc") != NULL;
  closedir(d);
  return n;
}

/* How run_and_check calls tcj_gemm: on a plain stream; captured into a graph (thread-local
 * mode) and replayed; or on a plain stream while this thread captures another stream in global
 * mode, whose capture the call (and a tuning inside it) must leave whole. */
enum { PLAIN, CAPTURED, BESIDE_GLOBAL_CAPTURE };

/* Runs pr through e as `how` says and checks every element of the result. */
static void run_and_check(tcj_engine *e, const problem *pr, int how, unsigned seed) {
  int capture = how == CAPTURED;
  int64_t m = pr->m, n = pr->n, k = pr->k, lda = k, ldb = pr->op_b ? k : n;
  size_t na = (size_t)(m * k), nb = (size_t)(k * n), nc = (size_t)(m * n);
  uint16_t *ha = malloc(na * 2), *hb = malloc(nb * 2), *hc = malloc(nc * 2);
  double *a = malloc(na * 8), *bt = malloc(nb * 8), *c_in = malloc(nc * 8), *got = malloc(nc * 8);
  assert_true(ha && hb && hc && a && bt && c_in && got);
  srand(seed);
  for (size_t i = 0; i < na; i++) ha[i] = f32_to_bf16((float)rand() / (float)RAND_MAX * 2 - 1);
  for (size_t i = 0; i < nb; i++) hb[i] = f32_to_bf16((float)rand() / (float)RAND_MAX * 2 - 1);
  for (size_t i = 0; i < nc; i++) hc[i] = f32_to_bf16((float)rand() / (float)RAND_MAX * 2 - 1);
  void *da = gpu_upload(ha, na * 2), *db = gpu_upload(hb, nb * 2);
  void *dc = pr->beta != 0 ? gpu_upload(hc, nc * 2) : gpu_poisoned(nc * 2, 0xff); /* poison: each is written */
  cudaStream_t s;
  assert_int_equal(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  cudaStream_t side = NULL;
  void *side_buf = NULL;
  if (how == BESIDE_GLOBAL_CAPTURE) {
    assert_int_equal(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), cudaSuccess);
    assert_int_equal(cudaMalloc(&side_buf, 4096), cudaSuccess);
    assert_int_equal(cudaStreamBeginCapture(side, cudaStreamCaptureModeGlobal), cudaSuccess);
    assert_int_equal(cudaMemsetAsync(side_buf, 0, 4096, side), cudaSuccess);
  }
  if (capture) assert_int_equal(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  tcj_status st = tcj_gemm(e, TCJ_OP_N, pr->op_b, m, n, k, 1.f, da, TCJ_BF16, lda, db, TCJ_BF16, ldb, pr->beta, dc,
                           TCJ_BF16, n, (CUstream)s);
  if (st != TCJ_SUCCESS) print_error("%lldx%lldx%lld: %s\n", (long long)m, (long long)n, (long long)k, tcj_last_error(e));
  assert_int_equal(st, TCJ_SUCCESS);
  if (side) { /* the other capture is whole: it ends into a graph */
    cudaGraph_t side_graph = NULL;
    assert_int_equal(cudaStreamEndCapture(side, &side_graph), cudaSuccess);
    assert_non_null(side_graph);
    cudaGraphDestroy(side_graph);
    cudaStreamDestroy(side);
    cudaFree(side_buf);
  }
  if (capture) {
    assert_int_equal(cudaStreamEndCapture(s, &graph), cudaSuccess);
    assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(exec, s), cudaSuccess);
  }
  assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
  uint16_t *out = malloc(nc * 2);
  assert_non_null(out);
  gpu_download(out, dc, nc * 2);
  for (int64_t i = 0; i < m; i++)
    for (int64_t l = 0; l < k; l++) a[i * k + l] = bf16_to_f32(ha[i * lda + l]);
  for (int64_t j = 0; j < n; j++)
    for (int64_t l = 0; l < k; l++) bt[j * k + l] = bf16_to_f32(hb[pr->op_b ? j * ldb + l : l * ldb + j]);
  for (size_t i = 0; i < nc; i++) {
    c_in[i] = bf16_to_f32(hc[i]);
    got[i] = bf16_to_f32(out[i]);
  }
  oracle_gemm og = {m, n, k, 1.f, pr->beta, TCJ_BF16, a, bt, c_in, got, 0};
  oracle_result r;
  oracle_check(&og, &r);
  if (r.bad)
    print_error("%lldx%lldx%lld beta %g: %lld elements outside their bound, worst D[%lld][%lld] = %.9g, want %.9g\n",
                (long long)m, (long long)n, (long long)k, pr->beta, (long long)r.bad, (long long)r.worst_i,
                (long long)r.worst_j, r.worst_got, r.worst_ref);
  assert_int_equal(r.bad, 0);
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha), free(hb), free(hc), free(out), free(a), free(bt), free(c_in), free(got);
}

/* odd1000: the time model's largest known miss (tests/data/measured_h100.txt). */
static const problem ODD = {TCJ_OP_N, 1000, 1000, 1000, 1.f};

static void a_tuned_in_place_update_applies_beta_once(void **state) {
  (void)state;
  tcj_engine *e = tuned_engine();
  size_t before = 0, after = 0;
  /* The query reads addresses for their alignment only: three far apart, 256-byte aligned. */
  void *a = (void *)(uintptr_t)(1ull << 40), *b = (void *)(uintptr_t)(2ull << 40), *c = (void *)(uintptr_t)(3ull << 40);
  assert_int_equal(tcj_gemm_workspace_size(e, TCJ_OP_N, ODD.op_b, ODD.m, ODD.n, ODD.k, a, TCJ_BF16, ODD.k, b,
                                           TCJ_BF16, ODD.n, c, TCJ_BF16, ODD.n, &before), TCJ_SUCCESS);
  run_and_check(e, &ODD, PLAIN, 11);
  assert_int_equal(tcj_gemm_workspace_size(e, TCJ_OP_N, ODD.op_b, ODD.m, ODD.n, ODD.k, a, TCJ_BF16, ODD.k, b,
                                           TCJ_BF16, ODD.n, c, TCJ_BF16, ODD.n, &after), TCJ_SUCCESS);
  /* Before the choice the query covers every candidate; after it, the choice. */
  assert_true(after <= before);
  tcj_stats s = stats_of(e);
  if (g_sm90a) {
    /* Several candidates compiled, and each kernel plus the choice stored. */
    assert_true(s.compiles >= 3);
    assert_int_equal(entries_in(g_dir), (long)s.compiles + 1);
  }
  /* The second call is a memo hit of the tuned kernel: correct again, nothing compiled. */
  run_and_check(e, &ODD, PLAIN, 12);
  assert_int_equal(stats_of(e).compiles, s.compiles);
  tcj_destroy(e);
}

static void a_second_engine_takes_the_choice_from_disk(void **state) {
  (void)state;
  tcj_engine *e = tuned_engine();
  run_and_check(e, &ODD, PLAIN, 13);
  tcj_stats s = stats_of(e);
  /* Timing would load every candidate: the stored choice loads one kernel. */
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.disk_hits, 1);
  assert_int_equal(s.disk_misses, 0);
  tcj_destroy(e);
}

static void a_captured_call_is_not_tuned_and_replays_correctly(void **state) {
  (void)state;
  tcj_engine *e = tuned_engine();
  problem decode = {TCJ_OP_T, 777, 1664, 640, 0.f};
  long entries = entries_in(g_dir);
  run_and_check(e, &decode, CAPTURED, 14);
  tcj_stats s = stats_of(e);
  assert_int_equal(s.compiles, 1); /* the model's choice only */
  assert_int_equal(entries_in(g_dir), entries + 1);
  run_and_check(e, &decode, PLAIN, 15); /* outside the capture it is tuned */
  if (g_sm90a) assert_true(stats_of(e).compiles >= 3);
  run_and_check(e, &decode, CAPTURED, 16); /* and a capture now runs the tuned choice */
  tcj_destroy(e);
}

static void decode_rows_on_both_weight_layouts_tune_correctly(void **state) {
  (void)state;
  tcj_engine *e = tuned_engine();
  const problem ps[] = {{TCJ_OP_T, 1, 4096, 4096, 0.f}, {TCJ_OP_N, 16, 2048, 4096, 1.f}, {TCJ_OP_T, 64, 3000, 2048, 0.f}};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) run_and_check(e, &ps[i], PLAIN, 20 + (unsigned)i);
  tcj_destroy(e);
}

/* A tuning call (allocations, synchronisation, events) while this thread captures another
 * stream in global mode: the tuner relaxes the thread's capture mode, so the call is tuned and
 * correct, and the other capture ends whole. */
static void tuning_beside_a_global_capture_leaves_it_whole(void **state) {
  (void)state;
  tcj_engine *e = tuned_engine();
  problem p = {TCJ_OP_T, 600, 1280, 1536, 0.5f};
  run_and_check(e, &p, BESIDE_GLOBAL_CAPTURE, 30);
  if (g_sm90a) assert_true(stats_of(e).compiles >= 3); /* it was tuned, not skipped */
  tcj_destroy(e);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

int main(void) {
  struct cudaDeviceProp prop;
  int go = gpu_test_device("autotune tests", &prop); /* each test makes its engine */
  if (go != GPU_START_GO_ON) return go;
  g_sm90a = prop.major == 9 && prop.minor == 0;
  snprintf(g_dir, sizeof g_dir, "/tmp/tcj-autotune-gpu-XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_tuned_in_place_update_applies_beta_once),
    cmocka_unit_test(a_second_engine_takes_the_choice_from_disk),
    cmocka_unit_test(a_captured_call_is_not_tuned_and_replays_correctly),
    cmocka_unit_test(decode_rows_on_both_weight_layouts_tune_correctly),
    cmocka_unit_test(tuning_beside_a_global_capture_leaves_it_whole),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  nftw(g_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}
