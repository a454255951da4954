/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_JIT=async: a call whose specialised kernel is not loaded runs the generic kernel of its
 * class at once, and the specialised kernel of a hot or big class is built by a background
 * worker (one per engine, started at the first job), which loads it into the engine's kernel
 * table: later calls find it there. Modules are never unloaded before tcj_destroy, so a launch
 * of the generic kernel that is still queued on a stream is never left without its module.
 *
 * Costs and bounds. A call on the generic path pays what a sync call pays (one selection, one
 * kernel-text format and hash, one memo probe) plus a capture query, one mutex section here
 * (the class's count and the generic memo) and, for an sm90 generic kernel, a copy of the
 * tensor maps of its last call with the same addresses: the generic plan, its kernel and its
 * maps are remembered per problem (eng_generic_memo), never selected or encoded again. What
 * grows: one 16-byte class record per class ever called (a class is a kernel: distinct n, k,
 * types, layouts; a process meets few thousand), ENG_GENERIC_MEMO_SLOTS memos (a fixed table,
 * allocated at the first generic call), at most TIER_QUEUE_MAX queued jobs, and the kernel
 * table (cache/kernel_table.h), one module per distinct kernel loaded: not bounded, because a
 * module may be unloaded only when no launch of it is queued on any stream, which tcj cannot
 * know without a synchronisation per call; it grows by one module per compile (0.05-0.5 s) or
 * disk hit of a distinct kernel, as cuBLAS's and Triton's kernel caches do. */
#ifndef TCJ_ENG_TIERING_H
#define TCJ_ENG_TIERING_H

#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cache/kernel_table.h"
#include "engine/select.h"

/* A class is specialised at its TIER_HOT_CALLS-th call, or at its first when one call is
 * TIER_BIG_FLOP or more (2 m n k per batch entry, summed). See docs/perf.md, "Generic kernels":
 * the generic kernels lose up to 2.5x on K splits' shapes, so a big class is worth its
 * background compile at once; a class called a few times stays generic. */
#define TIER_HOT_CALLS 8
#define TIER_BIG_FLOP (1ull << 33) /* about 11 us at 800 TFLOP/s */
/* A class whose background build failed is counted again from zero and queued at its next hot
 * point (or next call, when big); after TIER_BUILD_ATTEMPTS failed builds it runs its generic
 * kernel for good (one warning says so). A failure may pass (a full disk, memory, a driver
 * error); a compiler that refuses the kernel does so every time. */
#define TIER_BUILD_ATTEMPTS 3
/* At most this many jobs wait for the worker (about 10-60 s of compiles). A class that becomes
 * hot while the queue is full is counted again from zero, not failed: it is queued at its next
 * hot point once there is room. */
#define TIER_QUEUE_MAX 128
/* The generic memo: a 2-way table of the generic plans of the problems that ran them last.
 * A problem that misses it (evicted, or new) is selected again: the old cost, never a wrong
 * plan (the whole problem is compared). About 1 KiB each. */
#define ENG_GENERIC_MEMO_SLOTS 1024

/* An sm90 kernel's tensor maps of one call and the addresses they were encoded for (A and B as
 * the kernel reads them: packed scratch where the plan packs; D). Valid for the same problem
 * and plan only (maps embed m, leading dimensions and strides too). */
typedef struct eng_tmaps {
  CUtensorMap map[3];
  CUdeviceptr a, b, d;
  int valid;
} eng_tmaps;

/* What a problem that runs a generic kernel remembers: its generic plan, that plan's loaded
 * kernel and the tensor maps of its last call. problem is compared bytewise (validation zeroes
 * an eng_problem before filling it, so padding compares equal). */
typedef struct eng_generic_memo {
  eng_problem problem;
  eng_plan plan;
  cache_kernel kernel;
  eng_tmaps tmaps;
  uint64_t key; /* eng_generic_memo_key(problem); 0: empty */
  uint64_t used; /* the table's clock at its last hit (the older of a set's two is replaced) */
} eng_generic_memo;

typedef struct eng_tier_job eng_tier_job;
typedef struct eng_tier_class eng_tier_class;

typedef struct eng_tiering {
  pthread_mutex_t lock;
  pthread_cond_t wake;       /* a job was queued, or stop was set */
  _Atomic int stop;          /* the worker must finish; its compile-lock waits read it too */
  int started;               /* the worker thread exists */
  pthread_t worker;
  eng_tier_job *head, *tail; /* queued jobs, oldest first */
  int queued;                /* jobs in the queue (<= TIER_QUEUE_MAX) */
  /* Per class (the specialised kernel's text, hashed): an open-addressing table (hash 0: an
   * empty slot). A collision of two 64-bit hashes merges two classes' counts, which only moves
   * when one is specialised; no plan or kernel is ever taken from a class record. */
  eng_tier_class *classes;
  size_t slots, used;
  eng_generic_memo *memo; /* ENG_GENERIC_MEMO_SLOTS, allocated at the first generic call */
  uint64_t clock;
  _Atomic uint64_t generic_selections; /* generic plans selected (memo misses): tests read it */
  struct eng_tiering *next_running;    /* the process's started workers (tiering.c, exit) */
} eng_tiering;

struct tcj_engine;

void eng_tier_init(eng_tiering *t);
/* Stops the worker: queued jobs are dropped, the one being built finishes (its cache entry is
 * published whole or not at all) unless it waits for another process's compile lock, which it
 * leaves at once (cache_disk_lock_or_get_cancellable); the thread is joined. Then frees the
 * tables. exit() with workers running does the same for every engine before the compiler's
 * static destructors run (tiering.c, "exit"). */
void eng_tier_shutdown(eng_tiering *t);

/* The class key of a specialised kernel's text: the kernel table's hash of it (computed once
 * per call, for both), never 0. */
uint64_t eng_tier_class_key(uint64_t table_hash);

/* Counts a call of the class `key` with flop multiply-adds times two. Returns ENG_TIER_QUEUE
 * when the class is to be specialised now (hot or big, not queued, not given up: it is marked
 * queued), with ENG_TIER_FIRST at the class's first call. */
enum { ENG_TIER_QUEUE = 1, ENG_TIER_FIRST = 2 };
int eng_tier_count(eng_tiering *t, uint64_t key, uint64_t flop);

/* Queues cfg (and the user epilogue's source, copied; may be NULL) of class `key` for the
 * background worker, starting it at the first job. Returns 0; 1 when the queue is full (the
 * class counts again, see TIER_QUEUE_MAX); -1 when out of memory, no thread can start or the
 * process is exiting (counted as a failed build of the class). */
int eng_tier_queue(struct tcj_engine *e, uint64_t key, const tcj_kernel_cfg *cfg, const char *user_source);

/* A background build of class `key` ended: ok, or failed (TIER_BUILD_ATTEMPTS). Returns 1 when
 * this failure made the class generic for good (the caller logs it, once), else 0. */
int eng_tier_built(eng_tiering *t, uint64_t key, int ok);

/* The generic memo. eng_generic_memo_get: 1 and *out (a copy of its plan, kernel and maps, not
 * of the problem) when p's generic plan is remembered, else 0. eng_generic_memo_put stores m (its problem, plan, kernel and maps),
 * replacing the older of its set. Thread-safe. */
uint64_t eng_generic_memo_key(const eng_problem *p);
int eng_generic_memo_get(eng_tiering *t, const eng_problem *p, uint64_t key, eng_generic_memo *out);
void eng_generic_memo_put(eng_tiering *t, const eng_generic_memo *m);

#endif
