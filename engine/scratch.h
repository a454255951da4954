/* SPDX-License-Identifier: Apache-2.0 */
/* Where a call's device scratch comes from (tcj.h, "Scratch memory"): the caller's workspace,
 * else the caller's allocator, else a region tcj keeps for the calls of one stream, else the
 * device's stream-ordered pool. A call decides once, in eng_scratch_get, and its put returns
 * the region to that source whatever tcj_set_workspace did meanwhile in another thread.
 *
 * Why tcj keeps a region: the first cuMemAllocAsync of a process sets up the stream-ordered
 * pool, 11-14 ms on an H100 (a pool of tcj's own: 9 ms), where a cuMemAlloc takes 0.08 ms.
 * That was the whole of a warm start whose first call needed scratch (a split-K call's
 * workspace: 9-13 ms, against 0.2 ms for a call without scratch). */
#ifndef TCJ_ENGINE_SCRATCH_H
#define TCJ_ENGINE_SCRATCH_H

#include <pthread.h>
#include <stddef.h>

#include "engine/cuda_api.h"
#include "tcj.h"

/* The kept region grows to at most 32 MiB (cuBLAS's default workspace on Hopper): larger
 * scratch (packed copies of big operands) comes from the pool. It starts at 1 MiB and at least
 * doubles when it grows, so a few regions are ever outgrown. */
#define ENG_KEPT_SCRATCH_MAX ((size_t)32 << 20)
#define ENG_KEPT_SCRATCH_MIN ((size_t)1 << 20)
#define ENG_KEPT_SCRATCH_RETIRED 8

typedef struct eng_kept_scratch {
  /* Held from a call's get to its put: a call's copies and kernels that use the region are
   * enqueued together, so two threads on the stream cannot interleave theirs. */
  pthread_mutex_t lock;
  CUdeviceptr ptr; /* 0 until a call needs it */
  size_t bytes;
  CUstream stream; /* the one stream it serves (the first that asked), once has_stream */
  int has_stream;
  /* Outgrown regions: kernels enqueued before the growth may still read them, so they are
   * freed with the engine. */
  CUdeviceptr retired[ENG_KEPT_SCRATCH_RETIRED];
  int retired_count;
} eng_kept_scratch;

/* tcj_set_workspace's region. Pointer and size change together under the lock, and a call
 * reads them together once (eng_scratch_get): a call sees the old region or the new one,
 * never the new size with the old pointer. */
typedef struct eng_workspace {
  pthread_mutex_t lock;
  CUdeviceptr ptr;
  size_t bytes; /* 0: none */
} eng_workspace;

void eng_workspace_init(eng_workspace *w);
void eng_workspace_destroy(eng_workspace *w);
void eng_workspace_set(eng_workspace *w, CUdeviceptr ptr, size_t bytes);

/* Where a call's scratch came from: the snapshot eng_scratch_put decides by. Put never looks
 * at the workspace again: a workspace set or cleared between a call's get and put would
 * otherwise send the caller's region to options.free, or leak the allocator's block. */
typedef enum eng_scratch_source {
  ENG_SCRATCH_NONE,      /* no scratch (0 bytes) */
  ENG_SCRATCH_WORKSPACE, /* the caller's workspace: nothing to give back */
  ENG_SCRATCH_ALLOC,     /* tcj_options.alloc: back through tcj_options.free */
  ENG_SCRATCH_KEPT,      /* the kept region: its lock, held since the get, is released */
  ENG_SCRATCH_POOL,      /* cuMemAllocAsync: cuMemFreeAsync */
} eng_scratch_source;

typedef struct eng_scratch {
  CUdeviceptr base; /* 0 when source is ENG_SCRATCH_NONE */
  size_t bytes;
  eng_scratch_source source;
} eng_scratch;

struct tcj_engine;

void eng_kept_scratch_init(eng_kept_scratch *k);
/* tcj_destroy: frees every region (cuMemFree waits for the kernels that use them). */
void eng_kept_scratch_free(const eng_cuda_api *cu, eng_kept_scratch *k);

/* The call's scratch of `bytes` (0: none, s->base = 0) for its work on `stream`; every
 * success must be followed by eng_scratch_put(s) once the call's work is enqueued (or given
 * up). On failure *s is ENG_SCRATCH_NONE (a put of it is a no-op). */
tcj_status eng_scratch_get(struct tcj_engine *e, size_t bytes, CUstream stream, eng_scratch *s);
void eng_scratch_put(struct tcj_engine *e, const eng_scratch *s, CUstream stream);

#endif
