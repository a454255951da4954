/* SPDX-License-Identifier: Apache-2.0 */
/* How the autotuner (engine/autotune.h) times its candidate plans on the caller's stream: each
 * call alone between two CUDA events, after a read of a buffer twice the L2 that leaves the
 * call's operands in memory and L2 clean (ptxgen's PTX_L2_FLUSH_ENTRY); the candidates in
 * interleaved rounds, so that clock and temperature drift falls on all of them alike (timed one
 * after another, 16384^3's tuned choice lost 5% on an H100); the median of each one's rounds. */
#ifndef TCJ_ENG_TUNE_TIMER_H
#define TCJ_ENG_TUNE_TIMER_H

#include "engine/cuda_api.h"
#include "engine/select.h"

/* Rounds: as many as take about ENG_TUNE_ROUNDS_MS of GPU time, 5 to 15. */
#define ENG_TUNE_ROUNDS_MS 10.0
#define ENG_TUNE_MIN_ROUNDS 5
#define ENG_TUNE_MAX_ROUNDS 15
#define ENG_TUNE_MAX_PLANS 8

/* One call of plan on the stream being timed; returns what the launch returned. */
typedef tcj_status (*eng_tune_run_fn)(void *ctx, const eng_plan *plan);

typedef struct eng_tune_timer {
  const eng_cuda_api *cu;
  CUstream stream;
  CUfunction flush_fn;      /* NULL: no flush (the calls then time from whatever L2 holds) */
  CUdeviceptr flush, sink;  /* the zeroed buffer it reads, 4 bytes it never writes in practice */
  uint64_t flush_chunks;    /* 16-byte chunks of the buffer */
  unsigned flush_grid;
  CUevent start[ENG_TUNE_MAX_PLANS], stop[ENG_TUNE_MAX_PLANS];
  int events;               /* pairs created */
} eng_tune_timer;

/* Creates the events. flush_fn NULL or flush_bytes 0: no flush. Returns TCJ_SUCCESS, or the
 * CUDA error (the timer is then closed). */
tcj_status eng_tune_timer_open(eng_tune_timer *t, const eng_cuda_api *cu, CUstream stream, CUfunction flush_fn,
                               CUdeviceptr flush, size_t flush_bytes, CUdeviceptr sink, int sm_count);
void eng_tune_timer_close(eng_tune_timer *t);

/* Times plans[0, n) (n <= ENG_TUNE_MAX_PLANS) with run: one untimed round (first launches), one
 * round that sizes the run, then the rounds. us[i]: plan i's median microseconds, or -1 when one
 * of its calls failed (it then drops out; failed[i] holds the status). Returns TCJ_SUCCESS, or
 * the failure of plan 0 (the plan the caller would run anyway) or of the stream's events. */
tcj_status eng_tune_timer_run(eng_tune_timer *t, const eng_plan *plans, int n, eng_tune_run_fn run, void *ctx,
                              double *us, tcj_status *failed);

#endif
