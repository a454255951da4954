/* SPDX-License-Identifier: Apache-2.0 */
/* Host-array GEMMs through pinned staging buffers, in tiles whose copies overlap the GEMMs.
 *
 * A pageable copy runs at a fraction of the bus (the driver stages it through its own small
 * pinned buffers, on one core) and, whole, it cannot overlap anything: at 8192^2 DGEMM the three
 * copies took 90% of the call. Here:
 *   - the caller's arrays are staged through our pinned buffers (host_copy.c, several threads),
 *     and the DMA of one buffer runs while the next is filled;
 *   - C is cut into tiles (stage_plan.c: row or column blocks, about 8): the operand that is
 *     not split goes first, whole; then, for each tile, its part of the split operand and of C
 *     (beta != 0) go up on one stream, its GEMM runs on a second once they are there, and its
 *     part of C comes down on a third, unstaged by a thread of ours, while the caller's thread
 *     already stages the next tile: up and down use the two directions of the bus at once.
 * Three streams of ours, created blocking: they wait for work on the legacy default stream (the
 * caller's device arrays may be written there), and it waits for them.
 * Synchronous, as BLAS calls are: all is done, or failed, when this returns.
 * Not run by CI (no GPU there); stage_plan.c and host_copy.c are the CPU-tested parts, and
 * test_blas_pipeline_gpu and the Netlib GPU runs (tests/netlib/run.sh --gpu) run it on a GPU. */
#include "blas/cuda_driver.h"

#include <pthread.h>
#include <stdlib.h>

enum { UP_SLOTS = 4, DOWN_SLOTS = 4, MAX_TILES = 16 }; /* stage_plan.c makes at most 8 tiles */

typedef struct slot {
  void *host; /* pinned, stage.slot_bytes */
  CUevent done;
  int busy;     /* a copy into or out of it was enqueued after its last wait */
  tb_block blk; /* down slots: the block of C it holds */
} slot;

/* One per process, set up at the first call that needs it, used by one call at a time. */
static struct stage {
  pthread_mutex_t lock;
  int state; /* 0 not tried, 1 ready, -1 unavailable */
  size_t slot_bytes;
  slot up[UP_SLOTS], down[DOWN_SLOTS];
  CUstream up_s, run_s, down_s;
  CUevent in[MAX_TILES], gemm[MAX_TILES];
} stage = {.lock = PTHREAD_MUTEX_INITIALIZER};

static atomic_int warned_setup, warned_run;

static CUresult setup(const tb_cuda *cu, size_t pinned) {
  struct stage *st = &stage;
  st->slot_bytes = pinned / (UP_SLOTS + DOWN_SLOTS) / 4096 * 4096;
  if (st->slot_bytes < 4096) st->slot_bytes = 4096; /* a page; tests use slots that small */
  CUresult r = CUDA_SUCCESS;
  for (int i = 0; i < UP_SLOTS + DOWN_SLOTS && r == CUDA_SUCCESS; i++) {
    slot *s = i < UP_SLOTS ? &st->up[i] : &st->down[i - UP_SLOTS];
    r = cu->cuMemHostAlloc(&s->host, st->slot_bytes, 0);
    if (r == CUDA_SUCCESS) r = cu->cuEventCreate(&s->done, CU_EVENT_DISABLE_TIMING);
  }
  for (int t = 0; t < MAX_TILES && r == CUDA_SUCCESS; t++) {
    r = cu->cuEventCreate(&st->in[t], CU_EVENT_DISABLE_TIMING);
    if (r == CUDA_SUCCESS) r = cu->cuEventCreate(&st->gemm[t], CU_EVENT_DISABLE_TIMING);
  }
  CUstream *streams[] = {&st->up_s, &st->run_s, &st->down_s};
  for (int i = 0; i < 3 && r == CUDA_SUCCESS; i++) r = cu->cuStreamCreate(streams[i], CU_STREAM_DEFAULT);
  /* On failure what was made stays made (a few buffers, for the life of the process), and the
   * state says not to try again. */
  return r;
}

static char *at(const void *base, int64_t ld, int64_t row, int64_t col, size_t es) {
  return (char *)base + (row + col * ld) * (int64_t)es;
}

/* One chunk between a pinned slot (packed: ld = rows) and the device. */
static CUresult dma(const tb_cuda *cu, slot *s, CUdeviceptr dev, int64_t dld, tb_block c, size_t es,
                    int up, CUstream stream) {
  CUDA_MEMCPY2D m = {0};
  CUdeviceptr d = (CUdeviceptr)(uintptr_t)at((void *)(uintptr_t)dev, dld, c.row, c.col, es);
  m.WidthInBytes = (size_t)c.rows * es;
  m.Height = (size_t)c.cols;
  m.srcMemoryType = up ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  m.dstMemoryType = up ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  if (up) {
    m.srcHost = s->host;
    m.srcPitch = m.WidthInBytes;
    m.dstDevice = d;
    m.dstPitch = (size_t)dld * es;
  } else {
    m.srcDevice = d;
    m.srcPitch = (size_t)dld * es;
    m.dstHost = s->host;
    m.dstPitch = m.WidthInBytes;
  }
  CUresult r = cu->cuMemcpy2DAsync(&m, stream);
  if (r == CUDA_SUCCESS) r = cu->cuEventRecord(s->done, stream);
  s->busy = r == CUDA_SUCCESS;
  s->blk = c;
  return r;
}

/* Copies block b of a host matrix up into the device matrix (same coordinates), chunk by chunk
 * through the up slots; *next is the ring position. */
static CUresult upload(const tb_cuda *cu, int *next, const void *host, int64_t hld, CUdeviceptr dev,
                       int64_t dld, tb_block b, size_t es, int threads) {
  struct stage *st = &stage;
  int64_t slot_elems = (int64_t)(st->slot_bytes / es);
  for (int64_t i = 0, n = tb_chunk_count(b, slot_elems); i < n; i++) {
    tb_block c = tb_chunk(b, slot_elems, i);
    slot *s = &st->up[(*next)++ % UP_SLOTS];
    if (s->busy) { /* its last DMA must have read it */
      CUresult r = cu->cuEventSynchronize(s->done);
      s->busy = 0;
      if (r != CUDA_SUCCESS) return r;
    }
    tb_host_copy(s->host, c.rows, at(host, hld, c.row, c.col, es), hld, c.rows, c.cols, es, threads);
    CUresult r = dma(cu, s, dev, dld, c, es, 1, st->up_s);
    if (r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

/* The download side, on a thread of its own: tile t's part of C comes down once its GEMM was
 * enqueued (`launched` > t: an event waited on before it is recorded would be no wait). */
typedef struct downloader {
  const tb_cuda *cu;
  const tb_gemm *g;
  tb_pipeline_plan plan;
  CUdeviceptr c;
  int64_t ldc;
  size_t es;
  int threads;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int launched, stop; /* under mu */
  atomic_int failed;  /* set by either side: the other stops early */
  CUresult r;
  int wrote; /* some of the caller's C was written */
} downloader;

/* Waits for slot s's DMA and moves its block into the caller's C. */
static CUresult unstage(downloader *d, slot *s) {
  CUresult r = d->cu->cuEventSynchronize(s->done);
  s->busy = 0;
  if (r != CUDA_SUCCESS) return r;
  d->wrote = 1;
  tb_host_copy(at(d->g->c, d->g->ldc, s->blk.row, s->blk.col, d->es), d->g->ldc, s->host, s->blk.rows,
               s->blk.rows, s->blk.cols, d->es, d->threads);
  return CUDA_SUCCESS;
}

static void *download_main(void *arg) {
  downloader *d = arg;
  struct stage *st = &stage;
  if (tb_cuda_enter(d->cu)) {
    d->r = CUDA_ERROR_INVALID_CONTEXT;
    atomic_store(&d->failed, 1);
    return NULL;
  }
  int64_t slot_elems = (int64_t)(st->slot_bytes / d->es);
  int next = 0;
  CUresult r = CUDA_SUCCESS;
  for (int64_t t = 0; t < d->plan.tiles && r == CUDA_SUCCESS; t++) {
    pthread_mutex_lock(&d->mu);
    while (d->launched <= t && !d->stop) pthread_cond_wait(&d->cv, &d->mu);
    int stop = d->launched <= t;
    pthread_mutex_unlock(&d->mu);
    if (stop) break;
    tb_block tile = tb_tile_of_c(d->g, d->plan, t);
    r = d->cu->cuStreamWaitEvent(st->down_s, st->gemm[t], 0);
    for (int64_t i = 0, n = tb_chunk_count(tile, slot_elems); i < n && r == CUDA_SUCCESS; i++) {
      slot *s = &st->down[next++ % DOWN_SLOTS];
      if (s->busy) r = unstage(d, s);
      if (r == CUDA_SUCCESS) r = dma(d->cu, s, d->c, d->ldc, tb_chunk(tile, slot_elems, i), d->es, 0, st->down_s);
    }
  }
  for (int i = 0; i < DOWN_SLOTS; i++) { /* the last ones, in order */
    slot *s = &st->down[next++ % DOWN_SLOTS];
    if (s->busy && r == CUDA_SUCCESS) r = unstage(d, s);
    s->busy = 0;
  }
  if (r != CUDA_SUCCESS) {
    d->r = r;
    atomic_store(&d->failed, 1);
  }
  tb_cuda_leave(d->cu);
  return NULL;
}

static void set_launched(downloader *d, int launched, int stop) {
  pthread_mutex_lock(&d->mu);
  d->launched = launched;
  d->stop = stop;
  pthread_cond_signal(&d->cv);
  pthread_mutex_unlock(&d->mu);
}

/* Worth it when the bytes to move fill at least two slots (else there is nothing to overlap),
 * every operand is the caller's host memory or ours to read in place, and the product is
 * computed (C = beta C alone stays on gpu.c's path). */
static int takes(const tb_gemm *g, tb_places p, size_t pinned) {
  if (!pinned || tb_gemm_only_scales(g)) return 0;
  if (p.a == TB_OTHER_DEVICE || p.b == TB_OTHER_DEVICE || p.c == TB_OTHER_DEVICE) return 0;
  double es = (double)tb_elem_size(g->type), bytes = 0;
  if (p.a == TB_HOST) bytes += (double)g->m * (double)g->k * es;
  if (p.b == TB_HOST) bytes += (double)g->k * (double)g->n * es;
  if (p.c == TB_HOST) bytes += (double)g->m * (double)g->n * es * (tb_beta_is_zero(g) ? 1 : 2);
  return bytes >= 2.0 * (double)pinned / (UP_SLOTS + DOWN_SLOTS);
}

int tb_pipeline_gemm(const tb_cuda *cu, tcj_engine *e, const tb_gemm *g, tb_places p, tb_gpu_result *res) {
  const tb_config *cfg = tb_config_get();
  size_t pinned = (size_t)(cfg->pinned_mb * 1048576.0);
  if (!takes(g, p, pinned)) return -1;
  struct stage *st = &stage;
  pthread_mutex_lock(&st->lock);
  if (st->state == 0) {
    CUresult r = setup(cu, pinned);
    st->state = r == CUDA_SUCCESS ? 1 : -1;
    if (r != CUDA_SUCCESS)
      tb_msg_once(&warned_setup, "cannot set up %g MiB of pinned staging (%s): host arrays are copied "
                  "whole from pageable memory", cfg->pinned_mb, tb_cuda_error_name(cu, r));
  }
  if (st->state != 1) {
    pthread_mutex_unlock(&st->lock);
    return -1;
  }
  size_t es = tb_elem_size(g->type);
  int threads = cfg->copy_threads ? cfg->copy_threads : tb_copy_threads_default();
  tb_pipeline_plan plan = tb_pipeline_plan_of(g, p);
  int64_t ra = g->ta == 'N' ? g->m : g->k, ca = g->ta == 'N' ? g->k : g->m;
  int64_t rb = g->tb == 'N' ? g->k : g->n, cb = g->tb == 'N' ? g->n : g->k;
  /* Buffers for the operands on the host (filled below, tile by tile), the others in place. */
  tb_operand oa = {0}, ob = {0}, oc = {0};
  const char *what = "cuMemAlloc";
  CUresult r = tb_cuda_place(cu, &oa, p.a, g->a, g->lda, ra, ca, es, 0);
  if (r == CUDA_SUCCESS) r = tb_cuda_place(cu, &ob, p.b, g->b, g->ldb, rb, cb, es, 0);
  if (r == CUDA_SUCCESS) r = tb_cuda_place(cu, &oc, p.c, g->c, g->ldc, g->m, g->n, es, 0);
  const CUdeviceptr a = oa.ptr, b = ob.ptr, c = oc.ptr;
  const int64_t lda = oa.ld, ldb = ob.ld, ldc = oc.ld;
  downloader d = {.cu = cu, .g = g, .plan = plan, .c = c, .ldc = ldc, .es = es, .threads = threads,
                  .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
  pthread_t down;
  int down_started = 0, up_next = 0, launched = 0, gemm_failed = 0;
  if (r == CUDA_SUCCESS && p.c == TB_HOST) {
    down_started = pthread_create(&down, NULL, download_main, &d) == 0;
    if (!down_started) r = CUDA_ERROR_OUT_OF_MEMORY;
  }
  /* The operand every tile reads in full goes first. */
  what = "copying operands up";
  if (r == CUDA_SUCCESS && plan.along_m && p.b == TB_HOST)
    r = upload(cu, &up_next, g->b, g->ldb, b, ldb, (tb_block){0, 0, rb, cb}, es, threads);
  if (r == CUDA_SUCCESS && !plan.along_m && p.a == TB_HOST)
    r = upload(cu, &up_next, g->a, g->lda, a, lda, (tb_block){0, 0, ra, ca}, es, threads);
  for (int64_t t = 0; t < plan.tiles && r == CUDA_SUCCESS && !atomic_load(&d.failed); t++) {
    tb_block tc = tb_tile_of_c(g, plan, t);
    tb_gemm sub = *g;
    sub.m = tc.rows;
    sub.n = tc.cols;
    /* The tile's part of the split operand: rows of op(A) or columns of op(B). */
    tb_block pa = {tc.row, 0, tc.rows, g->k}, pb = {0, tc.col, g->k, tc.cols};
    tb_block sa = tb_stored_block(g->ta, pa), sb = tb_stored_block(g->tb, pb);
    if (plan.along_m && p.a == TB_HOST) r = upload(cu, &up_next, g->a, g->lda, a, lda, sa, es, threads);
    if (!plan.along_m && p.b == TB_HOST) r = upload(cu, &up_next, g->b, g->ldb, b, ldb, sb, es, threads);
    if (r == CUDA_SUCCESS && p.c == TB_HOST && !tb_beta_is_zero(g))
      r = upload(cu, &up_next, g->c, g->ldc, c, ldc, tc, es, threads);
    if (r == CUDA_SUCCESS) r = cu->cuEventRecord(st->in[t], st->up_s);
    if (r == CUDA_SUCCESS) r = cu->cuStreamWaitEvent(st->run_s, st->in[t], 0);
    if (r != CUDA_SUCCESS) break;
    sub.a = at((void *)(uintptr_t)a, lda, sa.row, sa.col, es);
    sub.lda = lda;
    sub.b = at((void *)(uintptr_t)b, ldb, sb.row, sb.col, es);
    sub.ldb = ldb;
    sub.c = at((void *)(uintptr_t)c, ldc, tc.row, tc.col, es);
    sub.ldc = ldc;
    if (tb_gpu_enqueue(e, &sub, st->run_s)) {
      gemm_failed = 1; /* said by tb_gpu_enqueue */
      break;
    }
    what = "the GEMM or copying C";
    r = cu->cuEventRecord(st->gemm[t], st->run_s);
    if (r == CUDA_SUCCESS && down_started) set_launched(&d, (int)t + 1, 0);
    launched = (int)t + 1;
  }
  if (down_started) {
    set_launched(&d, launched, 1);
    pthread_join(down, NULL);
  }
  /* Nothing may still read the slots or the buffers freed below. */
  CUstream streams[] = {st->up_s, st->run_s, st->down_s};
  for (int i = 0; i < 3; i++) {
    CUresult s = cu->cuStreamSynchronize(streams[i]);
    if (r == CUDA_SUCCESS) r = s;
  }
  for (int i = 0; i < UP_SLOTS; i++) st->up[i].busy = 0;
  if (r == CUDA_SUCCESS && d.r != CUDA_SUCCESS) r = d.r;
  int complete = r == CUDA_SUCCESS && !gemm_failed && launched == plan.tiles;
  /* The caller's C is written only by the download thread (host C) or the GEMMs (device C):
   * a call that failed before either leaves C as it was, and the caller may run it again. */
  int touched = p.c == TB_HOST ? d.wrote : launched > 0;
  *res = complete ? TB_GPU_DONE : touched ? TB_GPU_FAILED : TB_GPU_NOT_RUN;
  if (complete) {
    tb_report_ran(TB_RAN_GPU);
    tb_report_ran(TB_RAN_STAGED);
  }
  if (r != CUDA_SUCCESS)
    tb_msg_once(&warned_run, "GPU GEMM failed in %s (%s)%s", what, tb_cuda_error_name(cu, r),
                touched ? ": C may be partly written" : ": such calls run on the CPU");
  CUdeviceptr owned[] = {oa.owned, ob.owned, oc.owned};
  for (int i = 0; i < 3; i++)
    if (owned[i]) cu->cuMemFree(owned[i]);
  pthread_mutex_unlock(&st->lock);
  return 0;
}
