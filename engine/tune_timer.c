/* SPDX-License-Identifier: Apache-2.0 */
/* The autotuner's timing (engine/tune_timer.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/error.h"
#include "engine/tune_timer.h"
#include "ptxgen/ptxgen.h"

tcj_status eng_tune_timer_open(eng_tune_timer *t, const eng_cuda_api *cu, CUstream stream, CUfunction flush_fn,
                               CUdeviceptr flush, size_t flush_bytes, CUdeviceptr sink, int sm_count) {
  memset(t, 0, sizeof *t);
  t->cu = cu;
  t->stream = stream;
  if (flush_fn && flush_bytes >= 16) {
    t->flush_fn = flush_fn;
    t->flush = flush;
    t->sink = sink;
    t->flush_chunks = flush_bytes / 16;
    t->flush_grid = (unsigned)(sm_count > 0 ? 4 * sm_count : 512); /* enough loads in flight to stream */
  }
  for (; t->events < ENG_TUNE_MAX_PLANS; t->events++) {
    CUresult r = cu->cuEventCreate(&t->start[t->events], CU_EVENT_DEFAULT);
    if (r == CUDA_SUCCESS && (r = cu->cuEventCreate(&t->stop[t->events], CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
      cu->cuEventDestroy(t->start[t->events]);
    if (r != CUDA_SUCCESS) {
      eng_tune_timer_close(t);
      return eng_cuda_error(r, "cuEventCreate (autotune)");
    }
  }
  return TCJ_SUCCESS;
}

void eng_tune_timer_close(eng_tune_timer *t) {
  for (int i = 0; i < t->events; i++) {
    t->cu->cuEventDestroy(t->start[i]);
    t->cu->cuEventDestroy(t->stop[i]);
  }
  t->events = 0;
}

static CUresult flush_l2(const eng_tune_timer *t) {
  if (!t->flush_fn) return CUDA_SUCCESS;
  CUdeviceptr buf = t->flush, sink = t->sink;
  uint64_t chunks = t->flush_chunks;
  void *args[] = {&buf, &chunks, &sink};
  return t->cu->cuLaunchKernel(t->flush_fn, t->flush_grid, 1, 1, PTX_L2_FLUSH_THREADS, 1, 1, 0, t->stream, args, NULL);
}

/* One round: each live plan once, flushed and timed alone. ms[i] for the live ones. A plan whose
 * call fails is marked dead (failed[i]); plan 0's failure, or the events', is returned. */
static tcj_status round_of(const eng_tune_timer *t, const eng_plan *plans, int n, eng_tune_run_fn run, void *ctx,
                           int *live, tcj_status *failed, float *ms) {
  CUresult r = CUDA_SUCCESS;
  int last = -1;
  for (int i = 0; i < n && r == CUDA_SUCCESS; i++) {
    if (!live[i]) continue;
    if ((r = flush_l2(t)) != CUDA_SUCCESS || (r = t->cu->cuEventRecord(t->start[i], t->stream)) != CUDA_SUCCESS) break;
    tcj_status st = run(ctx, &plans[i]);
    if (st != TCJ_SUCCESS) {
      failed[i] = st;
      live[i] = 0;
      if (i == 0) return st;
      continue;
    }
    if ((r = t->cu->cuEventRecord(t->stop[i], t->stream)) != CUDA_SUCCESS) break;
    last = i;
  }
  if (r == CUDA_SUCCESS && last >= 0) r = t->cu->cuEventSynchronize(t->stop[last]);
  for (int i = 0; i < n && r == CUDA_SUCCESS; i++)
    if (live[i]) r = t->cu->cuEventElapsedTime(&ms[i], t->start[i], t->stop[i]);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "autotune timing (events)");
}

static int by_value(const void *x, const void *y) {
  float a = *(const float *)x, b = *(const float *)y;
  return (a > b) - (a < b);
}

tcj_status eng_tune_timer_run(eng_tune_timer *t, const eng_plan *plans, int n, eng_tune_run_fn run, void *ctx,
                              double *us, tcj_status *failed) {
  if (n > t->events) n = t->events;
  int live[ENG_TUNE_MAX_PLANS];
  float ms[ENG_TUNE_MAX_PLANS], samples[ENG_TUNE_MAX_PLANS][ENG_TUNE_MAX_ROUNDS];
  for (int i = 0; i < n; i++) {
    live[i] = 1;
    failed[i] = TCJ_SUCCESS;
    us[i] = -1;
  }
  tcj_status st = round_of(t, plans, n, run, ctx, live, failed, ms); /* first launches: untimed */
  if (st == TCJ_SUCCESS) st = round_of(t, plans, n, run, ctx, live, failed, ms);
  if (st != TCJ_SUCCESS) return st;
  double round_ms = 0;
  for (int i = 0; i < n; i++)
    if (live[i]) round_ms += ms[i];
  int rounds = round_ms > 0 ? (int)(ENG_TUNE_ROUNDS_MS / round_ms) : ENG_TUNE_MAX_ROUNDS;
  rounds = rounds < ENG_TUNE_MIN_ROUNDS ? ENG_TUNE_MIN_ROUNDS : rounds > ENG_TUNE_MAX_ROUNDS ? ENG_TUNE_MAX_ROUNDS : rounds;
  for (int r = 0; r < rounds; r++) {
    if ((st = round_of(t, plans, n, run, ctx, live, failed, ms)) != TCJ_SUCCESS) return st;
    for (int i = 0; i < n; i++) samples[i][r] = ms[i];
  }
  for (int i = 0; i < n; i++) {
    if (!live[i]) continue;
    qsort(samples[i], (size_t)rounds, sizeof samples[i][0], by_value);
    us[i] = 1e3 * samples[i][rounds / 2];
  }
  return TCJ_SUCCESS;
}
