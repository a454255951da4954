/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_TUNE=1: the opt-in autotuner. The first call of a problem class on an sm_90a GPU times
 * the plans the time model ranks best (engine/select.h's candidates, and the plan select chose)
 * on the caller's operands and stream, writing into scratch rather than D, and keeps the
 * fastest: in memory for the engine's later calls, and in the disk cache as an entry of its
 * own, keyed by the problem class, the arch and the GPU model, so that a cache warmed on one
 * node (tcj-warmup --tune) carries the choice to every node of that kind.
 *
 * Why: the model ranks tiles by waves, bytes and a fixed cost per tile; measured against forced
 * configs it misses a few problems by 7-18% (tests/data/measured_h100.txt lists them), and no
 * fixed model follows every GPU clock and memory part. Timing the top few is exact for the GPU
 * at hand, once per problem class.
 *
 * What is trusted: a tuned entry only names one of the candidates the engine itself computes
 * for the problem; an entry that names anything else (a foreign, stale or damaged one) is
 * ignored and the problem is tuned again. Calls inside a stream capture are never tuned (the
 * timing needs the stream to finish work), they run the model's choice. */
#ifndef TCJ_ENG_AUTOTUNE_H
#define TCJ_ENG_AUTOTUNE_H

#include <pthread.h>
#include <stddef.h>

#include "engine/select.h"
#include "engine/tune_timer.h"

/* Plans timed per problem class: the selected plan, the other recipe's plan and the sm90
 * candidates the model places within ENG_AUTOTUNE_WITHIN of its best. Six compiles cold (about
 * 0.1 s each, once per class and cache) bound the cost of a first call. */
#define ENG_AUTOTUNE_MAX 6
#define ENG_AUTOTUNE_WITHIN 1.5
/* A timed plan replaces the selected one only when it is faster by more than this margin: the
 * model's choice was measured good on most problems, and two plans within 2% swap places from
 * one timing to the next. */
#define ENG_AUTOTUNE_MARGIN 0.98

/* Reads TCJ_TUNE: 1 (tune), 0 or unset (do not). Returns 0, or -1 for any other value. */
int eng_autotune_from_env(int *on);

/* Whether the autotuner times row's plan beside a selected plan of config `selected`: another
 * recipe that TCJ_RECIPE can force and that takes the same operand type. */
int eng_autotune_alternative(const tcj_kernel_cfg *selected, const ptx_recipe_row *row);
/* The plans to time for p, best first by the model, selected (what eng_select chose) always
 * first; no plan twice. Returns how many (at most max). Pure: no CUDA. */
int eng_autotune_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_plan *selected, eng_plan *out, int max);

/* The disk and memory key of p's tuned choice on a GPU: the problem's every field that
 * selection reads (shape, types, layouts, leading dimensions, alignments, epilogue, batch),
 * the arch, the GPU's name and SM count, and the code generator's identity (new kernels are
 * tuned again). Returns the length, or -1 when out is too small. */
#define ENG_AUTOTUNE_KEY_MAX 1024
int eng_autotune_key(const eng_problem *p, const eng_device_caps *caps, const char *arch, const char *device,
                     char *out, size_t size);

/* A plan as a tuned entry stores it: the config text and the packing of A and B. Returns the
 * length, or -1 when buf is too small. */
int eng_autotune_plan_text(const eng_plan *plan, char *buf, size_t size);
/* The index of the candidate whose plan text is exactly payload[0, size), or -1. */
int eng_autotune_pick(const eng_plan *cands, int n, const void *payload, size_t size);

/* Tuned choices of one engine in memory: key -> plan. Thread-safe. */
typedef struct eng_tuned_memo {
  pthread_mutex_t lock;
  struct eng_tuned_entry *entries;
  size_t count, cap;
} eng_tuned_memo;
void eng_tuned_memo_init(eng_tuned_memo *m);
void eng_tuned_memo_free(eng_tuned_memo *m);
int eng_tuned_memo_find(eng_tuned_memo *m, const char *key, eng_plan *out); /* 1: found */
int eng_tuned_memo_put(eng_tuned_memo *m, const char *key, const eng_plan *plan); /* 0, or -1: out of memory */

struct tcj_engine;
/* For a problem eng_autotune_known does not know, on a stream eng_autotune_cannot_time allows
 * (the caller asks both first, before it allocates the scratch). *plan: in, the plan select
 * chose; out, the tuned choice for p: another process's that appeared meanwhile, or timed now
 * with run (one call of a plan on the caller's stream with D in scratch); flush_bytes at flush,
 * zeroed, with 4 bytes after it, is read before each timed call (twice the L2; 0: no flush). A
 * problem with no candidate but the selected one keeps it. Only a failure of the selected plan
 * itself is an error. Needs the engine's context current. */
tcj_status eng_autotune(struct tcj_engine *e, const eng_problem *p, const char *user_source, CUstream stream,
                        eng_tune_run_fn run, void *ctx, CUdeviceptr flush, size_t flush_bytes, eng_plan *plan);

/* Whether the driver has the event calls the tuner times with (cuEventElapsedTime_v2: CUDA
 * 12.8); tcj_create turns TCJ_TUNE off without them. */
int eng_autotune_driver_ok(const eng_cuda_api *cu);
/* Why a call on stream cannot be timed now (the stream is being captured, where even an
 * allocation would break the capture), or NULL. */
const char *eng_autotune_cannot_time(struct tcj_engine *e, CUstream stream);

/* The plan eng_autotune would run p with, without timing: the tuned choice when one is known
 * (memory or disk), else the selected plan (*plan unchanged). Returns 1 when a tuned choice
 * was found. For tcj_gemm_ex_workspace_size. */
int eng_autotune_known(struct tcj_engine *e, const eng_problem *p, eng_plan *plan);

#endif
