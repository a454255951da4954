/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-latency: the start-up and per-call costs of tcj, next to cuBLAS where that means
 * something: the cold compile of one kernel (ptxgen + compile + load, median over the configs a
 * problem grid selects), a new process with a warm cache (tcj_create to the first tcj_gemm
 * done, beyond context creation), the host time of one tcj_gemm on a memo hit against one
 * cublasGemmEx on the same small problem, and with TCJ_JIT=async on a cache holding only the
 * generic set: a new shape's first call, and a shape-diverse run against cuBLAS. */
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <ftw.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tcj.h"

static const char USAGE[] =
    "usage: tcj-latency [--help]\n"
    "  Needs a GPU. Measures, with the driver's own JIT cache disabled (CUDA_CACHE_DISABLE=1):\n"
    "  1. cold compile per kernel: ptxgen + compile + load, from tcj's counters, median over the\n"
    "     configs a grid of problems selects (fresh cache directory);\n"
    "  2. warm start: a new process with that cache: tcj_create to the first tcj_gemm done\n"
    "     (stream synchronised), beyond CUDA context creation, median of 5 processes;\n"
    "  3. host time per call on a memo hit (bf16 64x64x64, median), the default mode (async) while\n"
    "     the class runs its generic kernel and after its specialised kernel was swapped in, each\n"
    "     in rounds interleaved with TCJ_JIT=sync's, each with the generic launches inside its\n"
    "     timed rounds, vs cublasGemmEx; and the default mode's difference to sync (the bar: +0.3 us\n"
    "     at most);\n"
    "  4. TCJ_JIT_ASYNC with a cache holding the generic set only (tcj-warmup --generic, found\n"
    "     beside this program): the host time of 60 new shapes' first calls over their second\n"
    "     (median, max), and how many compiled in the caller's thread;\n"
    "  5. a shape-diverse run: 500 distinct bf16 shapes (m, n, k from 8 to 768), 100 calls each,\n"
    "     total time to the last result, tcj (async, generic set cached, nothing else) against\n"
    "     cublasGemmEx on the same calls, and tcj's compiles, generic launches and swaps.\n";

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define CHECK_CUDA(x)                                                                     \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "tcj-latency: %s: %s\n", #x, cudaGetErrorName(e_));                \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

typedef struct gemm_case { tcj_dtype ab, c; tcj_op op_a, op_b; int64_t m, n, k; } gemm_case;

static size_t esize(tcj_dtype t) { return t == TCJ_S8 ? 1 : t == TCJ_F16 || t == TCJ_BF16 ? 2 : 4; }

/* Runs one GEMM on zero-initialised buffers of the right size (values do not matter here:
 * correctness is the tests' job) and waits for it. */
static tcj_status run_case(tcj_engine *e, const gemm_case *g, void *a, void *b, void *c) {
  int64_t lda = g->op_a ? g->m : g->k, ldb = g->op_b ? g->k : g->n;
  tcj_status st = tcj_gemm(e, g->op_a, g->op_b, g->m, g->n, g->k, 1.f, a, g->ab, lda, b, g->ab, ldb, 0.f,
                           c, g->c, g->n, NULL);
  if (st == TCJ_SUCCESS) CHECK_CUDA(cudaDeviceSynchronize());
  return st;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

/* 1: the cold compile of every distinct config a grid of problems selects. */
static double cold_compiles(const char *dir, int *count) {
  static const tcj_dtype types[][2] = {{TCJ_BF16, TCJ_BF16}, {TCJ_F16, TCJ_F32}, {TCJ_TF32, TCJ_F32}, {TCJ_S8, TCJ_S32}};
  static const int64_t shapes[][3] = {{16, 4096, 4096}, {1000, 1000, 1000}, {4096, 4096, 4096}, {128, 28672, 4096}};
  tcj_options o = TCJ_OPTIONS_INIT;
  o.cache_dir = dir;
  o.jit_mode = TCJ_JIT_SYNC; /* the selected (specialised) configs, each compiled at its first call */
  tcj_engine *e;
  if (tcj_create(&e, &o) != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-latency: tcj_create: %s\n", tcj_last_error(NULL));
    exit(1);
  }
  void *a, *b, *c;
  size_t bytes = (size_t)4096 * 28672 * 4;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMalloc(&c, bytes));
  double ms[64];
  int n = 0;
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (int op = 0; op < 2; op++)
      for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        gemm_case g = {types[t][0], types[t][1], TCJ_OP_N, op ? TCJ_OP_T : TCJ_OP_N, shapes[s][0], shapes[s][1], shapes[s][2]};
        tcj_stats before = TCJ_STATS_INIT, after = TCJ_STATS_INIT;
        tcj_get_stats(e, &before);
        if (run_case(e, &g, a, b, c) != TCJ_SUCCESS) {
          fprintf(stderr, "tcj-latency: tcj_gemm: %s\n", tcj_last_error(e));
          exit(1);
        }
        tcj_get_stats(e, &after);
        if (after.compiles == before.compiles + 1 && n < 64) ms[n++] = (after.compile_ns - before.compile_ns) / 1e6;
      }
  double lo = 1e30, hi = 0;
  for (int i = 0; i < n; i++) lo = ms[i] < lo ? ms[i] : lo, hi = ms[i] > hi ? ms[i] : hi;
  double med = median(ms, n);
  printf("cold compile per kernel: median %.1f ms over %d configs (min %.1f, max %.1f)\n", med, n, lo, hi);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  tcj_destroy(e);
  *count = n;
  return med;
}

/* 2 (the child process): context, buffers, then tcj_create .. first tcj_gemm done. */
static int warm_child(const char *dir) {
  double t0 = now_ms();
  CHECK_CUDA(cudaFree(0)); /* creates the primary context */
  double t1 = now_ms();
  /* Deep K over few tiles: split along K through scratch on every arch, so the warm start
   * includes the engine's first scratch allocation (a decode shape's split reduces in a
   * thread-block cluster on sm_90, without scratch). */
  gemm_case g = {TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 128, 256, 32768};
  void *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, (size_t)g.m * g.k * 2));
  CHECK_CUDA(cudaMalloc(&b, (size_t)g.k * g.n * 2));
  CHECK_CUDA(cudaMalloc(&c, (size_t)g.m * g.n * 2));
  CHECK_CUDA(cudaDeviceSynchronize());
  double t2 = now_ms();
  tcj_options o = TCJ_OPTIONS_INIT;
  o.cache_dir = dir;
  tcj_engine *e;
  if (tcj_create(&e, &o) != TCJ_SUCCESS || run_case(e, &g, a, b, c) != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-latency (child): %s\n", tcj_last_error(NULL));
    return 1;
  }
  double t3 = now_ms();
  tcj_stats s = TCJ_STATS_INIT;
  tcj_get_stats(e, &s);
  printf("%.3f %.3f %llu %llu\n", t1 - t0, t3 - t2, (unsigned long long)s.compiles, (unsigned long long)s.disk_hits);
  tcj_destroy(e);
  return 0;
}

static double warm_starts(const char *self, const char *dir) {
  double ms[5], ctx[5];
  int n = 0;
  /* Child -1 compiles the child's kernel into the cache (phase 1 need not have); 0..4 are timed. */
  for (int i = -1; i < 5; i++) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' --child-warm '%s'", self, dir);
    FILE *p = popen(cmd, "r");
    unsigned long long compiles = 1, hits = 0;
    int read = p && fscanf(p, "%lf %lf %llu %llu", &ctx[n], &ms[n], &compiles, &hits) == 4;
    if (i < 0) {
      if (!read) fprintf(stderr, "tcj-latency: the child that fills the cache failed\n");
    } else if (read && compiles == 0 && hits == 1) {
      n++;
    } else {
      fprintf(stderr, "tcj-latency: warm child %d did not report a cache hit without compiling\n", i);
    }
    if (p) pclose(p);
  }
  if (n == 0) exit(1);
  double c = median(ctx, n), m = median(ms, n);
  printf("warm start (new process, cache hit): tcj_create to first tcj_gemm done %.2f ms median of %d "
         "(context creation before it: %.1f ms)\n", m, n, c);
  return m;
}

/* 3: host cost of one call on a memo hit, tcj in each JIT mode vs cuBLAS, same problem and
 * stream. Each tcj figure comes with the generic launches inside its timed windows (tcj_stats
 * before and after), which says which kernel it timed. The modes are compared in interleaved
 * rounds (sync, default, sync, default, ...), so that a drift of the machine (clock, another
 * process) falls on both: one figure per mode measured in a block of its own moved by up to
 * 0.7 us between two runs on one H100, more than the 0.3 us the bar allows. */
/* BIG_DIM^3 f16: 2mnk of 2^34, a class the default mode queues at its first call. */
#define BIG_DIM 2048
enum { HOST_ROUNDS = 10, HOST_ROUND_CALLS = 200, HOST_CALLS = HOST_ROUNDS * HOST_ROUND_CALLS, HOST_BATCH = 100 };

typedef struct host_cost {
  double t[HOST_CALLS];        /* host time of each timed call, us */
  int n;
  unsigned long long generic;  /* generic launches inside the timed windows */
} host_cost;

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void tcj_call(tcj_engine *e, cudaStream_t stream, void *a, void *b, void *c) {
  tcj_status st = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, 64, 64, 64, 1.f, a, TCJ_BF16, 64, b, TCJ_BF16, 64, 0.f, c, TCJ_BF16,
                           64, (CUstream)stream);
  if (st != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-latency: tcj_gemm: %s\n", tcj_last_error(e));
    exit(1);
  }
}

/* One round: HOST_ROUND_CALLS timed calls appended to r, the stream drained before it and every
 * HOST_BATCH calls, so that no call waits for a full launch queue. */
static void time_round(tcj_engine *e, cudaStream_t stream, void *a, void *b, void *c, host_cost *r) {
  tcj_stats before = TCJ_STATS_INIT, after = TCJ_STATS_INIT;
  CHECK_CUDA(cudaStreamSynchronize(stream));
  tcj_get_stats(e, &before);
  for (int i = 0; i < HOST_ROUND_CALLS; i++) {
    double t0 = now_ms();
    tcj_call(e, stream, a, b, c);
    double t1 = now_ms();
    r->t[r->n++] = (t1 - t0) * 1e3;
    if ((i + 1) % HOST_BATCH == 0) CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  tcj_get_stats(e, &after);
  r->generic += after.generic_launches - before.generic_launches;
}

/* HOST_ROUNDS rounds of each engine, alternating, after HOST_BATCH untimed calls of the first
 * (the second's class must stay where it is: its untimed calls are the caller's). */
static void time_interleaved(tcj_engine *e0, tcj_engine *e1, cudaStream_t stream, void *a, void *b, void *c,
                             host_cost *r0, host_cost *r1) {
  for (int i = 0; i < HOST_BATCH; i++) tcj_call(e0, stream, a, b, c);
  r0->n = r1->n = 0;
  r0->generic = r1->generic = 0;
  for (int round = 0; round < HOST_ROUNDS; round++) {
    time_round(e0, stream, a, b, c, r0);
    time_round(e1, stream, a, b, c, r1);
  }
}

static tcj_engine *host_engine(int jit_mode) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.disable_disk_cache = 1;
  o.jit_mode = jit_mode;
  tcj_engine *e;
  if (tcj_create(&e, &o) != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-latency: tcj_create: %s\n", tcj_last_error(NULL));
    exit(1);
  }
  return e;
}

static void host_overhead(void) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) exit(1);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  cublasSetStream(h, stream);
  void *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, 1 << 16));
  CHECK_CUDA(cudaMalloc(&b, 1 << 16));
  CHECK_CUDA(cudaMalloc(&c, 1 << 16));

  /* The default mode on one engine twice, each time interleaved with a sync engine: while the
   * class runs its generic kernel (its specialised kernel queued at the 8th call and building in
   * the background, which takes far longer than the rounds), then after the worker swapped the
   * specialised kernel in. */
  static host_cost sync, generic, sync2, swapped;
  tcj_engine *es = host_engine(TCJ_JIT_SYNC), *e = host_engine(TCJ_JIT_ASYNC);
  /* The worker builds in queue order: a big class queued first (at its first call) keeps it
   * busy for the rounds. Without it the 64^3 kernel, which the sync engine had loaded, was
   * swapped in within a millisecond and no round timed the generic kernel. */
  void *big;
  CHECK_CUDA(cudaMalloc(&big, (size_t)3 * BIG_DIM * BIG_DIM * 2));
  char *bb = big;
  tcj_status bst = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, BIG_DIM, BIG_DIM, BIG_DIM, 1.f, bb, TCJ_F16, BIG_DIM,
                            bb + (size_t)BIG_DIM * BIG_DIM * 2, TCJ_F16, BIG_DIM, 0.f,
                            bb + (size_t)2 * BIG_DIM * BIG_DIM * 2, TCJ_F16, BIG_DIM, (CUstream)stream);
  if (bst != TCJ_SUCCESS) fprintf(stderr, "tcj-latency: the big call: %s\n", tcj_last_error(e));
  for (int i = 0; i < 20; i++) tcj_call(e, stream, a, b, c); /* past the class's hot point */
  time_interleaved(es, e, stream, a, b, c, &sync, &generic);
  tcj_stats s = TCJ_STATS_INIT;
  /* Two swaps: the big class's, then the 64^3 class's. */
  for (int waited = 0; waited < 60000 && (tcj_get_stats(e, &s), s.swaps < 2); waited += 10) sleep_ms(10);
  if (s.swaps < 2) fprintf(stderr, "tcj-latency: the background builds did not finish within 60 s\n");
  time_interleaved(es, e, stream, a, b, c, &sync2, &swapped);
  tcj_destroy(e);
  tcj_destroy(es);
  cudaFree(big);
  double m_sync = median(sync.t, sync.n), m_gen = median(generic.t, generic.n);
  double m_sync2 = median(sync2.t, sync2.n), m_swap = median(swapped.t, swapped.n);

  static double t_blas[HOST_CALLS];
  float alpha = 1, beta = 0;
  for (int i = -HOST_BATCH; i < HOST_CALLS; i++) {
    double t0 = now_ms();
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &alpha, b, CUDA_R_16BF, 64, a, CUDA_R_16BF, 64, &beta, c,
                 CUDA_R_16BF, 64, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    double t1 = now_ms();
    if (i >= 0) t_blas[i] = (t1 - t0) * 1e3;
    if ((i + 1) % HOST_BATCH == 0) CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  double mb = median(t_blas, HOST_CALLS);
  printf("host time per call on a memo hit (bf16 64x64x64, median of %d calls in %d rounds, each mode's rounds "
         "interleaved with TCJ_JIT=sync's; generic = generic launches in the timed rounds):\n", HOST_CALLS, HOST_ROUNDS);
  printf("  tcj, TCJ_JIT=sync:                                 %6.2f us  generic %llu of %d  tcj/cuBLAS %.2fx\n",
         m_sync, sync.generic, HOST_CALLS, m_sync / mb);
  printf("  tcj, default mode (async), class running generic:  %6.2f us  generic %llu of %d  tcj/cuBLAS %.2fx\n",
         m_gen, generic.generic, HOST_CALLS, m_gen / mb);
  printf("  tcj, TCJ_JIT=sync (rounds beside the next line):   %6.2f us  generic %llu of %d  tcj/cuBLAS %.2fx\n",
         m_sync2, sync2.generic, HOST_CALLS, m_sync2 / mb);
  printf("  tcj, default mode (async), after the swap:         %6.2f us  generic %llu of %d  tcj/cuBLAS %.2fx\n",
         m_swap, swapped.generic, HOST_CALLS, m_swap / mb);
  printf("  cublasGemmEx:                                      %6.2f us\n", mb);
  /* The bar: a default-mode call costs no more than a sync call, within 0.3 us. */
  double d_generic = m_gen - m_sync, d_swapped = m_swap - m_sync2;
  int ok = d_generic <= 0.3 && d_swapped <= 0.3;
  printf("  default minus sync: %+.2f us (generic), %+.2f us (after the swap); bar: <= +0.30 us each: %s\n",
         d_generic, d_swapped, ok ? "met" : "NOT met");
  cublasDestroy(h);
  cudaStreamDestroy(stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}

/* ---- 4 and 5: the tiers (TCJ_JIT_ASYNC) ------------------------------------------------ */

enum { DIVERSE_SHAPES = 500, DIVERSE_CALLS = 100, DIVERSE_MAX = 768, NEW_SHAPES = 60 };

static uint64_t rng_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static tcj_engine *async_engine(const char *dir) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.cache_dir = dir;
  o.jit_mode = TCJ_JIT_ASYNC;
  tcj_engine *e;
  if (tcj_create(&e, &o) != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-latency: tcj_create (async): %s\n", tcj_last_error(NULL));
    exit(1);
  }
  return e;
}

static tcj_status bf16_call(tcj_engine *e, int64_t m, int64_t n, int64_t k, void *a, void *b, void *c,
                            cudaStream_t s) {
  return tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, m, n, k, 1.f, a, TCJ_BF16, k, b, TCJ_BF16, n, 0.f, c, TCJ_BF16, n,
                  (CUstream)s);
}

static void tiers(const char *self, const char *dir) {
  /* The generic set of this GPU's arch, alone in a fresh cache. */
  char exe[4096], cmd[8192];
  snprintf(exe, sizeof exe, "%s", self);
  snprintf(cmd, sizeof cmd, "'%s/tcj-warmup' --generic --cache-dir '%s' > /dev/null", dirname(exe), dir);
  double w0 = now_ms();
  if (system(cmd) != 0) {
    fprintf(stderr, "tcj-latency: %s failed: the tiers need tcj-warmup beside tcj-latency\n", cmd);
    exit(1);
  }
  printf("generic set (tcj-warmup --generic, this GPU's arch): %.1f s\n", (now_ms() - w0) / 1e3);
  size_t bytes = (size_t)DIVERSE_MAX * DIVERSE_MAX * 2;
  void *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMalloc(&c, bytes));
  CHECK_CUDA(cudaMemset(a, 0x3c, bytes));
  CHECK_CUDA(cudaMemset(b, 0x3c, bytes));
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));

  /* 4: first call of a new shape over its second (both host time; the GPU drained between). */
  tcj_engine *e = async_engine(dir);
  uint64_t x = 0x5eed1234ull;
  double extra[NEW_SHAPES];
  tcj_stats before = TCJ_STATS_INIT, after = TCJ_STATS_INIT;
  bf16_call(e, 64, 64, 64, a, b, c, s); /* the engine's first call pays its one-time costs */
  CHECK_CUDA(cudaStreamSynchronize(s));
  tcj_get_stats(e, &before);
  for (int i = 0; i < NEW_SHAPES; i++) {
    int64_t m = 8 + (int64_t)(rng_next(&x) % 761), n = 8 + (int64_t)(rng_next(&x) % 761), k = 8 + (int64_t)(rng_next(&x) % 761);
    double t[2];
    for (int rep = 0; rep < 2; rep++) {
      double t0 = now_ms();
      if (bf16_call(e, m, n, k, a, b, c, s) != TCJ_SUCCESS) {
        fprintf(stderr, "tcj-latency: tcj_gemm: %s\n", tcj_last_error(e));
        exit(1);
      }
      t[rep] = (now_ms() - t0) * 1e3;
      CHECK_CUDA(cudaStreamSynchronize(s));
    }
    extra[i] = t[0] - t[1];
  }
  tcj_get_stats(e, &after);
  tcj_destroy(e);
  double hi = extra[0];
  for (int i = 1; i < NEW_SHAPES; i++) hi = extra[i] > hi ? extra[i] : hi;
  printf("new shape, generic set cached (async): first call's host time over the second's: median %.1f us, "
         "max %.1f us over %d shapes; %llu compiles in the caller's thread\n", median(extra, NEW_SHAPES), hi,
         NEW_SHAPES, (unsigned long long)((after.compiles - after.compiles_background) -
                                          (before.compiles - before.compiles_background)));

  /* 5: the shape-diverse run, tcj first (a fresh engine), then cuBLAS (a fresh handle). */
  static int64_t shapes[DIVERSE_SHAPES][3];
  x = 0xd1ce5ull;
  for (int i = 0; i < DIVERSE_SHAPES; i++)
    for (int d = 0; d < 3; d++) shapes[i][d] = 8 + (int64_t)(rng_next(&x) % (DIVERSE_MAX - 7));
  e = async_engine(dir);
  double t0 = now_ms();
  for (int i = 0; i < DIVERSE_SHAPES; i++)
    for (int r = 0; r < DIVERSE_CALLS; r++)
      if (bf16_call(e, shapes[i][0], shapes[i][1], shapes[i][2], a, b, c, s) != TCJ_SUCCESS) {
        fprintf(stderr, "tcj-latency: tcj_gemm: %s\n", tcj_last_error(e));
        exit(1);
      }
  CHECK_CUDA(cudaStreamSynchronize(s));
  double t_tcj = now_ms() - t0;
  tcj_stats st = TCJ_STATS_INIT;
  tcj_get_stats(e, &st);
  double d0 = now_ms();
  tcj_destroy(e); /* waits for the compile in progress */
  double t_destroy = now_ms() - d0;
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) exit(1);
  cublasSetStream(h, s);
  float alpha = 1, beta = 0;
  t0 = now_ms();
  for (int i = 0; i < DIVERSE_SHAPES; i++)
    for (int r = 0; r < DIVERSE_CALLS; r++) {
      int m = (int)shapes[i][0], n = (int)shapes[i][1], k = (int)shapes[i][2];
      if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, n, a, CUDA_R_16BF, k, &beta, c,
                       CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        exit(1);
    }
  CHECK_CUDA(cudaStreamSynchronize(s));
  double t_blas = now_ms() - t0;
  cublasDestroy(h);
  printf("shape-diverse run (%d bf16 shapes x %d calls, async, generic set cached): tcj %.1f ms, cuBLAS %.1f ms, "
         "tcj/cuBLAS time %.2fx; tcj compiled %llu in the caller's thread and %llu in the background, ran %llu "
         "generic launches, swapped %llu classes; tcj_destroy after it %.1f ms\n",
         DIVERSE_SHAPES, DIVERSE_CALLS, t_tcj, t_blas, t_tcj / t_blas,
         (unsigned long long)(st.compiles - st.compiles_background), (unsigned long long)st.compiles_background,
         (unsigned long long)st.generic_launches, (unsigned long long)st.swaps, t_destroy);
  cudaStreamDestroy(s);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}

int main(int argc, char **argv) {
  /* The driver's JIT cache must not hide compile time. */
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  if (argc == 3 && !strcmp(argv[1], "--child-warm")) return warm_child(argv[2]);
  if (argc > 1) {
    int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
    fputs(USAGE, help ? stdout : stderr);
    return help ? 0 : 2;
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    fprintf(stderr, "tcj-latency: no GPU: these are device measurements\n");
    return 1;
  }
  struct cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  time_t now = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  printf("tcj-latency: %s, %s\n", prop.name, date);
  char dir[] = "/tmp/tcj-latency-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  int count = 0;
  cold_compiles(dir, &count);
  warm_starts(argv[0], dir);
  host_overhead();
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  char tier_dir[] = "/tmp/tcj-latency-tiers-XXXXXX";
  if (!mkdtemp(tier_dir)) return 1;
  tiers(argv[0], tier_dir);
  nftw(tier_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  return 0;
}
