/* SPDX-License-Identifier: Apache-2.0 */
/* GPU tests of the scratch memory a call may need (tcj.h): tcj_gemm_workspace_size, a caller's
 * workspace (enough, and too small: an error, nothing written), a caller's allocator (asked once
 * per call, with the call's stream, for the size the query gave), a captured CUDA graph that
 * uses the caller's workspace and holds no allocation node, and the default: the region the
 * engine keeps for one stream (no pool allocation; the pool for other streams and captures;
 * threads sharing it on one stream do not mix their calls). Each result must equal, bit for bit,
 * the default path's: the same kernel on the same inputs. Exits 77 (skipped) without a GPU. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"

/* bf16 problems: A's rows 2-byte aligned and large (packed); deep K over few tiles (split-K
 * through the fp32 workspace on every arch; decode shapes of few rows no longer serve here, their
 * splits reduce in a thread-block cluster on sm_90 without scratch); aligned (no scratch). */
typedef struct problem { const char *name; tcj_op op_a, op_b; int64_t m, n, k, lda, ldb, ldc; int scratch; } problem;
/* The plans these tests size are the specialised ones: sync mode (async's workspace also covers
 * the generic plan a class runs until its specialised kernel is ready). */
static tcj_status sync_engine(tcj_engine **e) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC;
  return tcj_create(e, &o);
}

static const problem PROBLEMS[] = {
  {"packed A", TCJ_OP_N, TCJ_OP_N, 2048, 512, 1001, 1001, 512, 512, 1},
  {"split K", TCJ_OP_N, TCJ_OP_T, 128, 256, 32768, 32768, 32768, 256, 1},
  {"aligned", TCJ_OP_N, TCJ_OP_N, 512, 512, 512, 512, 512, 512, 0},
};
#define NP (int)(sizeof PROBLEMS / sizeof *PROBLEMS)

typedef struct bufs { void *a, *b, *c; size_t bytes_c; } bufs;
static bufs g_buf[NP];
static void *g_ref[NP]; /* the default path's C, on the host */
static tcj_engine *g_eng;
static cudaStream_t g_stream;

static uint16_t bf16_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static void *device_random(size_t elems, unsigned seed) {
  uint16_t *h = malloc(elems * 2);
  assert_non_null(h);
  uint32_t x = seed * 2654435761u + 7;
  for (size_t i = 0; i < elems; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    h[i] = bf16_of((float)(x >> 8) / (float)(1 << 24) * 2 - 1);
  }
  void *d = gpu_upload(h, elems * 2);
  free(h);
  return d;
}

static tcj_status gemm(tcj_engine *e, int i, cudaStream_t s) {
  const problem *p = &PROBLEMS[i];
  return tcj_gemm(e, p->op_a, p->op_b, p->m, p->n, p->k, 1.f, g_buf[i].a, TCJ_BF16, p->lda, g_buf[i].b, TCJ_BF16,
                  p->ldb, 0.f, g_buf[i].c, TCJ_BF16, p->ldc, (CUstream)s);
}

static size_t need(tcj_engine *e, int i) {
  const problem *p = &PROBLEMS[i];
  size_t bytes = 1;
  tcj_status st = tcj_gemm_workspace_size(e, p->op_a, p->op_b, p->m, p->n, p->k, g_buf[i].a, TCJ_BF16, p->lda,
                                          g_buf[i].b, TCJ_BF16, p->ldb, g_buf[i].c, TCJ_BF16, p->ldc, &bytes);
  assert_int_equal(st, TCJ_SUCCESS);
  return bytes;
}

/* Problem i's C at c (device, written and waited for) equals the default path's, bit for bit. */
static void expect_ref(int i, const void *c, const char *how) {
  void *h = malloc(g_buf[i].bytes_c);
  assert_non_null(h);
  gpu_download(h, c, g_buf[i].bytes_c);
  if (memcmp(h, g_ref[i], g_buf[i].bytes_c) != 0) print_error("%s %s: C differs from the default path's\n", PROBLEMS[i].name, how);
  assert_memory_equal(h, g_ref[i], g_buf[i].bytes_c);
  free(h);
}

/* C poisoned, the call run and waited for, then C compared with the default path's. */
static void run_and_compare(tcj_engine *e, int i, const char *how) {
  assert_int_equal(cudaMemset(g_buf[i].c, 0xff, g_buf[i].bytes_c), cudaSuccess);
  tcj_status st = gemm(e, i, g_stream);
  if (st != TCJ_SUCCESS) print_error("%s %s: %s\n", PROBLEMS[i].name, how, tcj_last_error(e));
  assert_int_equal(st, TCJ_SUCCESS);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  expect_ref(i, g_buf[i].c, how);
}

static void queries_say_which_calls_need_scratch(void **state) {
  (void)state;
  for (int i = 0; i < NP; i++) {
    size_t bytes = need(g_eng, i);
    print_message("%s: %zu bytes of scratch\n", PROBLEMS[i].name, bytes);
    if (PROBLEMS[i].scratch) assert_true(bytes > 0);
    else assert_int_equal(bytes, 0);
  }
  size_t bytes = 7;
  assert_int_equal(tcj_gemm_workspace_size(g_eng, TCJ_OP_N, TCJ_OP_N, 4, 4, 4, g_buf[2].a, TCJ_BF16, 3, g_buf[2].b,
                                           TCJ_BF16, 4, g_buf[2].c, TCJ_BF16, 4, &bytes),
                   TCJ_ERROR_INVALID_VALUE); /* lda below k: validated like tcj_gemm */
}

static void a_callers_workspace_serves_and_a_small_one_is_refused(void **state) {
  (void)state;
  tcj_engine *e;
  assert_int_equal(sync_engine(&e), TCJ_SUCCESS);
  size_t most = 0;
  for (int i = 0; i < NP; i++) most = need(e, i) > most ? need(e, i) : most;
  void *ws = NULL;
  assert_int_equal(cudaMalloc(&ws, most), cudaSuccess);
  assert_int_equal(tcj_set_workspace(e, (CUdeviceptr)ws + 8, most), TCJ_ERROR_INVALID_VALUE); /* alignment */
  for (int i = 0; i < NP; i++) {
    assert_int_equal(tcj_set_workspace(e, (CUdeviceptr)ws, need(e, i)), TCJ_SUCCESS);
    run_and_compare(e, i, "with an exact workspace");
    if (!PROBLEMS[i].scratch) continue;
    /* One byte short: an error naming the size, and C exactly as it was. */
    assert_int_equal(tcj_set_workspace(e, (CUdeviceptr)ws, need(e, i) - 1), TCJ_SUCCESS);
    assert_int_equal(cudaMemset(g_buf[i].c, 0x5a, g_buf[i].bytes_c), cudaSuccess);
    assert_int_equal(gemm(e, i, g_stream), TCJ_ERROR_OUT_OF_MEMORY);
    print_message("%s, one byte short: %s\n", PROBLEMS[i].name, tcj_last_error(e));
    assert_non_null(strstr(tcj_last_error(e), "workspace"));
    assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
    unsigned char *h = malloc(g_buf[i].bytes_c);
    assert_non_null(h);
    assert_int_equal(cudaMemcpy(h, g_buf[i].c, g_buf[i].bytes_c, cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t j = 0; j < g_buf[i].bytes_c; j++) assert_int_equal(h[j], 0x5a);
    free(h);
  }
  assert_int_equal(tcj_set_workspace(e, 0, 0), TCJ_SUCCESS); /* back to the pool */
  run_and_compare(e, 0, "after the workspace was taken back");
  tcj_destroy(e);
  cudaFree(ws);
}

typedef struct counting { int allocs, frees; size_t last_bytes; cudaStream_t last_stream; } counting;

static int count_alloc(void *ctx, size_t bytes, CUstream stream, CUdeviceptr *ptr) {
  counting *c = ctx;
  void *p = NULL;
  if (cudaMallocAsync(&p, bytes, (cudaStream_t)stream) != cudaSuccess) return 1;
  c->allocs++;
  c->last_bytes = bytes;
  c->last_stream = (cudaStream_t)stream;
  *ptr = (CUdeviceptr)p;
  return 0;
}

static void count_free(void *ctx, CUdeviceptr ptr, size_t bytes, CUstream stream) {
  counting *c = ctx;
  (void)bytes;
  cudaFreeAsync((void *)ptr, (cudaStream_t)stream);
  c->frees++;
}

static void a_callers_allocator_is_asked_once_per_call_with_its_stream(void **state) {
  (void)state;
  counting cnt = {0, 0, 0, NULL};
  tcj_options o = TCJ_OPTIONS_INIT;
  o.alloc = count_alloc;
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &o), TCJ_ERROR_INVALID_VALUE); /* alloc without free */
  o.free = count_free;
  o.alloc_ctx = &cnt;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  for (int i = 0; i < NP; i++) {
    int before = cnt.allocs;
    run_and_compare(e, i, "with the caller's allocator");
    assert_int_equal(cnt.allocs - before, PROBLEMS[i].scratch ? 1 : 0);
    if (PROBLEMS[i].scratch) {
      assert_int_equal(cnt.last_bytes, need(e, i));
      assert_ptr_equal(cnt.last_stream, g_stream);
    }
    assert_int_equal(cnt.frees, cnt.allocs);
  }
  tcj_destroy(e);
}

/* Captured with a caller's workspace: the graph holds kernels and copies, no allocation. */
/* The nodes of a captured graph, and how many allocate or free memory. */
static size_t graph_nodes(cudaGraph_t graph, size_t *allocs, size_t *frees) {
  size_t n = 0;
  *allocs = *frees = 0;
  assert_int_equal(cudaGraphGetNodes(graph, NULL, &n), cudaSuccess);
  cudaGraphNode_t *nodes = calloc(n ? n : 1, sizeof *nodes);
  assert_non_null(nodes);
  assert_int_equal(cudaGraphGetNodes(graph, nodes, &n), cudaSuccess);
  for (size_t j = 0; j < n; j++) {
    enum cudaGraphNodeType t;
    assert_int_equal(cudaGraphNodeGetType(nodes[j], &t), cudaSuccess);
    *allocs += t == cudaGraphNodeTypeMemAlloc;
    *frees += t == cudaGraphNodeTypeMemFree;
  }
  free(nodes);
  return n;
}

static void a_captured_graph_uses_the_workspace_and_allocates_nothing(void **state) {
  (void)state;
  tcj_engine *e;
  assert_int_equal(sync_engine(&e), TCJ_SUCCESS);
  void *ws = NULL;
  size_t most = 0;
  for (int i = 0; i < NP; i++) most = need(e, i) > most ? need(e, i) : most;
  assert_int_equal(cudaMalloc(&ws, most), cudaSuccess);
  assert_int_equal(tcj_set_workspace(e, (CUdeviceptr)ws, most), TCJ_SUCCESS);
  for (int i = 0; i < NP; i++) run_and_compare(e, i, "before capture"); /* kernels loaded: capture only enqueues */
  for (int i = 0; i < 2; i++) {
    assert_int_equal(cudaMemset(g_buf[i].c, 0xff, g_buf[i].bytes_c), cudaSuccess);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    assert_int_equal(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    tcj_status st = gemm(e, i, g_stream);
    assert_int_equal(cudaStreamEndCapture(g_stream, &graph), cudaSuccess);
    if (st != TCJ_SUCCESS) print_error("%s under capture: %s\n", PROBLEMS[i].name, tcj_last_error(e));
    assert_int_equal(st, TCJ_SUCCESS);
    size_t allocs, frees, n = graph_nodes(graph, &allocs, &frees);
    assert_int_equal(allocs + frees, 0);
    print_message("%s: a graph of %zu nodes, none an allocation\n", PROBLEMS[i].name, n);
    assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int replay = 0; replay < 2; replay++) assert_int_equal(cudaGraphLaunch(exec, g_stream), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
    expect_ref(i, g_buf[i].c, "replayed");
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  tcj_destroy(e);
  cudaFree(ws);
}

/* The device's default pool's high-water mark of used memory, reset to 0 by reset_pool_high. */
static size_t pool_high(void) {
  cudaMemPool_t pool;
  uint64_t high = 0;
  assert_int_equal(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
  assert_int_equal(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
  return (size_t)high;
}

static void reset_pool_high(void) {
  cudaMemPool_t pool;
  uint64_t zero = 0;
  assert_int_equal(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
  assert_int_equal(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
}

/* Default scratch: the first stream that needs it gets the engine's kept region, so its calls
 * allocate nothing from the pool; another stream's calls and a captured call do (the capture as
 * allocation nodes). */
static void default_scratch_keeps_a_region_for_one_stream(void **state) {
  (void)state;
  tcj_engine *e;
  assert_int_equal(sync_engine(&e), TCJ_SUCCESS);
  cudaStream_t other;
  assert_int_equal(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
  reset_pool_high();
  for (int round = 0; round < 3; round++)
    for (int i = 0; i < NP; i++) run_and_compare(e, i, "on the kept region's stream");
  size_t high = pool_high();
  print_message("pool high-water mark after the owner stream's calls: %zu bytes\n", high);
  assert_int_equal(high, 0);
  /* Another stream: the pool. */
  assert_int_equal(cudaMemset(g_buf[1].c, 0xff, g_buf[1].bytes_c), cudaSuccess);
  assert_int_equal(gemm(e, 1, other), TCJ_SUCCESS);
  assert_int_equal(cudaStreamSynchronize(other), cudaSuccess);
  high = pool_high();
  print_message("after a call on another stream: %zu bytes (its scratch: %zu)\n", high, need(e, 1));
  assert_true(high >= need(e, 1));
  expect_ref(1, g_buf[1].c, "on another stream");
  /* A capture on the owner stream: allocation nodes, not the kept region. */
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  assert_int_equal(cudaMemset(g_buf[1].c, 0xff, g_buf[1].bytes_c), cudaSuccess);
  assert_int_equal(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  tcj_status st = gemm(e, 1, g_stream);
  assert_int_equal(cudaStreamEndCapture(g_stream, &graph), cudaSuccess);
  assert_int_equal(st, TCJ_SUCCESS);
  size_t allocs, frees, n = graph_nodes(graph, &allocs, &frees);
  print_message("captured on the owner stream: %zu nodes, %zu allocation and %zu free node(s)\n", n, allocs, frees);
  assert_int_equal(allocs, 1);
  assert_int_equal(frees, 1);
  assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  assert_int_equal(cudaGraphLaunch(exec, g_stream), cudaSuccess);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  expect_ref(1, g_buf[1].c, "captured on the owner stream, replayed");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(other);
  tcj_destroy(e);
}

/* The kept region is allocated (cuMemAlloc) while a global-mode capture is under way on another
 * stream: made in that mode it would fail and invalidate the capture; tcj makes it relaxed. */
static void allocating_the_kept_region_leaves_a_global_capture_valid(void **state) {
  (void)state;
  tcj_engine *e;
  assert_int_equal(sync_engine(&e), TCJ_SUCCESS);
  /* The kernel loaded first (a module load is no call to make during a global capture either),
   * through a workspace, so that the engine still has no region of its own. */
  void *ws = NULL;
  assert_int_equal(cudaMalloc(&ws, need(e, 1)), cudaSuccess);
  assert_int_equal(tcj_set_workspace(e, (CUdeviceptr)ws, need(e, 1)), TCJ_SUCCESS);
  run_and_compare(e, 1, "through a workspace, before the capture");
  assert_int_equal(tcj_set_workspace(e, 0, 0), TCJ_SUCCESS);
  cudaStream_t cap;
  assert_int_equal(cudaStreamCreateWithFlags(&cap, cudaStreamNonBlocking), cudaSuccess);
  void *dst = NULL;
  assert_int_equal(cudaMalloc(&dst, 256), cudaSuccess);
  assert_int_equal(cudaMemset(g_buf[1].c, 0xff, g_buf[1].bytes_c), cudaSuccess);
  assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
  cudaGraph_t graph;
  assert_int_equal(cudaStreamBeginCapture(cap, cudaStreamCaptureModeGlobal), cudaSuccess);
  assert_int_equal(cudaMemsetAsync(dst, 0, 256, cap), cudaSuccess);
  tcj_status st = gemm(e, 1, g_stream); /* split-K: scratch from the kept region, allocated now */
  cudaError_t end = cudaStreamEndCapture(cap, &graph);
  if (st != TCJ_SUCCESS) print_error("a call during another stream's capture: %s\n", tcj_last_error(e));
  assert_int_equal(st, TCJ_SUCCESS);
  if (end != cudaSuccess) print_error("the capture was invalidated: %s\n", cudaGetErrorString(end));
  assert_int_equal(end, cudaSuccess);
  cudaGraphDestroy(graph);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  expect_ref(1, g_buf[1].c, "during another stream's capture");
  cudaFree(dst);
  cudaStreamDestroy(cap);
  tcj_destroy(e);
  cudaFree(ws);
}

/* Threads sharing one engine: two on the kept region's stream (a call's copies and kernels must
 * not interleave with the other's: the packed A of one and the split-K sums of the other lie at
 * the same offset), two on streams of their own (the pool), each writing its own C, alternating
 * a packing call and a split-K call. */
enum { THREADS = 4, ROUNDS = 12 };
typedef struct worker { tcj_engine *e; cudaStream_t stream; void *c[2]; int index, failures; } worker;

static void *work(void *arg) {
  worker *w = arg;
  for (int r = 0; r < ROUNDS; r++) {
    int i = (r + w->index) % 2; /* the two threads of the shared stream run different problems at once */
    const problem *p = &PROBLEMS[i];
    if (tcj_gemm(w->e, p->op_a, p->op_b, p->m, p->n, p->k, 1.f, g_buf[i].a, TCJ_BF16, p->lda, g_buf[i].b, TCJ_BF16,
                 p->ldb, 0.f, w->c[i], TCJ_BF16, p->ldc, (CUstream)w->stream) != TCJ_SUCCESS)
      w->failures++;
  }
  return NULL;
}

static void threads_sharing_the_kept_region_do_not_mix_their_calls(void **state) {
  (void)state;
  tcj_engine *e;
  assert_int_equal(sync_engine(&e), TCJ_SUCCESS);
  cudaStream_t shared, own[2];
  assert_int_equal(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking), cudaSuccess);
  for (int t = 0; t < 2; t++) assert_int_equal(cudaStreamCreateWithFlags(&own[t], cudaStreamNonBlocking), cudaSuccess);
  worker w[THREADS];
  memset(w, 0, sizeof w);
  for (int t = 0; t < THREADS; t++) {
    w[t].e = e;
    w[t].index = t;
    w[t].stream = t < 2 ? shared : own[t - 2];
    for (int i = 0; i < 2; i++) {
      assert_int_equal(cudaMalloc(&w[t].c[i], g_buf[i].bytes_c), cudaSuccess);
      assert_int_equal(cudaMemset(w[t].c[i], 0xff, g_buf[i].bytes_c), cudaSuccess);
    }
  }
  /* The shared stream asks first, so it owns the kept region. */
  assert_int_equal(gemm(e, 1, shared), TCJ_SUCCESS);
  assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_create(&th[t], NULL, work, &w[t]), 0);
  for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_join(th[t], NULL), 0);
  assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
  for (int t = 0; t < THREADS; t++) {
    assert_int_equal(w[t].failures, 0);
    for (int i = 0; i < 2; i++) {
      expect_ref(i, w[t].c[i], t < 2 ? "a thread on the shared stream" : "a thread on its own stream");
      cudaFree(w[t].c[i]);
    }
  }
  print_message("%d threads x %d calls (two threads on the kept region's stream): every C as the default path's\n",
                THREADS, ROUNDS);
  cudaStreamDestroy(shared);
  for (int t = 0; t < 2; t++) cudaStreamDestroy(own[t]);
  tcj_destroy(e);
}

static int setup(void **state) {
  (void)state;
  if (sync_engine(&g_eng) != TCJ_SUCCESS || cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking)) return -1;
  for (int i = 0; i < NP; i++) {
    const problem *p = &PROBLEMS[i];
    size_t rows_a = p->op_a == TCJ_OP_N ? (size_t)p->m : (size_t)p->k;
    size_t rows_b = p->op_b == TCJ_OP_N ? (size_t)p->k : (size_t)p->n;
    g_buf[i].a = device_random(rows_a * (size_t)p->lda, 10u + (unsigned)i);
    g_buf[i].b = device_random(rows_b * (size_t)p->ldb, 20u + (unsigned)i);
    g_buf[i].bytes_c = (size_t)p->m * (size_t)p->ldc * 2;
    if (cudaMalloc(&g_buf[i].c, g_buf[i].bytes_c) != cudaSuccess || !(g_ref[i] = malloc(g_buf[i].bytes_c))) return -1;
    if (cudaMemset(g_buf[i].c, 0xff, g_buf[i].bytes_c) || gemm(g_eng, i, g_stream) != TCJ_SUCCESS ||
        cudaStreamSynchronize(g_stream) ||
        cudaMemcpy(g_ref[i], g_buf[i].c, g_buf[i].bytes_c, cudaMemcpyDeviceToHost))
      return -1;
  }
  return 0;
}

int main(void) {
  struct cudaDeviceProp prop;
  int go = gpu_test_device("workspace checks", &prop); /* setup makes the engine */
  if (go != GPU_START_GO_ON) return go;
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(queries_say_which_calls_need_scratch),
    cmocka_unit_test(a_callers_workspace_serves_and_a_small_one_is_refused),
    cmocka_unit_test(a_callers_allocator_is_asked_once_per_call_with_its_stream),
    cmocka_unit_test(a_captured_graph_uses_the_workspace_and_allocates_nothing),
    cmocka_unit_test(default_scratch_keeps_a_region_for_one_stream),
    cmocka_unit_test(threads_sharing_the_kept_region_do_not_mix_their_calls),
    cmocka_unit_test(allocating_the_kept_region_leaves_a_global_capture_valid),
  };
  int failures = cmocka_run_group_tests_name("workspace_gpu", tests, setup, NULL);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
