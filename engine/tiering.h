/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_JIT=async: a call whose specialised kernel is not loaded runs the generic kernel of its
 * class at once, and the specialised kernel of a hot or big class is built by a background
 * worker (one per engine, started at the first job), which loads it into the engine's kernel
 * table: later calls find it there. Modules are never unloaded before tcj_destroy, so a launch
 * of the generic kernel that is still queued on a stream is never left without its module. */
#ifndef TCJ_ENG_TIERING_H
#define TCJ_ENG_TIERING_H

#include <pthread.h>
#include <stdint.h>

#include "engine/select.h"

/* A class is specialised at its TIER_HOT_CALLS-th call, or at its first when one call is
 * TIER_BIG_FLOP or more (2 m n k per batch entry, summed). See docs/perf.md, "Generic kernels":
 * the generic kernels lose up to 2.5x on K splits' shapes, so a big class is worth its
 * background compile at once; a class called a few times stays generic. */
#define TIER_HOT_CALLS 8
#define TIER_BIG_FLOP (1ull << 33) /* about 11 us at 800 TFLOP/s */

typedef struct eng_tier_job eng_tier_job;

typedef struct eng_tiering {
  pthread_mutex_t lock;
  pthread_cond_t wake;       /* a job was queued, or stop was set */
  pthread_mutex_t busy;      /* held by the worker while it builds a job (fork waits for it) */
  int started, stop;         /* the worker thread exists; it must finish */
  pthread_t worker;
  eng_tier_job *head, *tail; /* queued jobs, oldest first */
  /* Calls per class (the specialised config's text, hashed) and whether it was queued: an
   * open-addressing table of 64-bit hashes (0: empty slot; a collision merges two classes'
   * counts, which only moves when one is specialised). */
  uint64_t *hashes;
  uint32_t *calls; /* high bit: queued */
  size_t slots, used;
  struct eng_tiering *next_running; /* the process's started workers (tiering.c, exit) */
} eng_tiering;

struct tcj_engine;

void eng_tier_init(eng_tiering *t);
/* Stops the worker: queued jobs are dropped, the one being built finishes (its cache entry is
 * published whole or not at all), the thread is joined. Then frees the table.
 * exit() with workers running does the same for every engine before the compiler's static
 * destructors run (tiering.c, "exit"): the process ends after the compile in flight. */
void eng_tier_shutdown(eng_tiering *t);

/* Counts a call of the class whose specialised config text is cfg_text, with flop multiply-adds
 * times two. Returns ENG_TIER_QUEUE when the class is to be specialised now (hot or big, and
 * not queued before: it is marked queued), with ENG_TIER_FIRST at the class's first call. */
enum { ENG_TIER_QUEUE = 1, ENG_TIER_FIRST = 2 };
int eng_tier_count(eng_tiering *t, const char *cfg_text, uint64_t flop);

/* Queues cfg (and the user epilogue's source, copied; may be NULL) for the background worker,
 * starting it at the first job. Returns 0, or -1 when out of memory or no thread can start
 * (the class then stays generic). */
int eng_tier_queue(struct tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source);

/* 1 on the background worker's thread (its compiles are counted apart). */
int eng_tier_on_worker(void);

#endif
