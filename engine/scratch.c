/* SPDX-License-Identifier: Apache-2.0 */
/* A call's device scratch: see scratch.h for the order of the sources and why tcj keeps a
 * region of its own. */
#include "engine/scratch.h"

#include <string.h>

#include "engine/engine.h"
#include "engine/error.h"

void eng_workspace_init(eng_workspace *w) {
  memset(w, 0, sizeof *w);
  pthread_mutex_init(&w->lock, NULL);
}

void eng_workspace_destroy(eng_workspace *w) { pthread_mutex_destroy(&w->lock); }

void eng_workspace_set(eng_workspace *w, CUdeviceptr ptr, size_t bytes) {
  pthread_mutex_lock(&w->lock);
  w->ptr = bytes ? ptr : 0;
  w->bytes = bytes;
  pthread_mutex_unlock(&w->lock);
}

void eng_kept_scratch_init(eng_kept_scratch *k) {
  memset(k, 0, sizeof *k);
  pthread_mutex_init(&k->lock, NULL);
}

/* cuMemAlloc and cuMemFree are calls a CUDA graph capture in global mode (by any thread) forbids:
 * made anyway, they fail and invalidate that capture. This thread's own kept-region calls are
 * never captured (kept_stream_ok), so it declares them relaxed for their duration. */
static CUstreamCaptureMode relaxed_begin(const eng_cuda_api *cu) {
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  cu->cuThreadExchangeStreamCaptureMode(&mode);
  return mode;
}

static void relaxed_end(const eng_cuda_api *cu, CUstreamCaptureMode previous) {
  cu->cuThreadExchangeStreamCaptureMode(&previous);
}

void eng_kept_scratch_free(const eng_cuda_api *cu, eng_kept_scratch *k) {
  if (cu && (k->ptr || k->retired_count)) {
    CUstreamCaptureMode mode = relaxed_begin(cu);
    if (k->ptr) cu->cuMemFree(k->ptr);
    for (int i = 0; i < k->retired_count; i++) cu->cuMemFree(k->retired[i]);
    relaxed_end(cu, mode);
  }
  pthread_mutex_destroy(&k->lock);
}

/* A stream whose calls may share the kept region: one stream, not capturing (a graph replays
 * its own allocation nodes for as long as it lives, which a region tcj may outgrow cannot
 * promise), and not the per-thread default stream (one handle for many streams). */
static int kept_stream_ok(tcj_engine *e, CUstream stream) {
  eng_kept_scratch *k = &e->kept;
  if (stream == CU_STREAM_PER_THREAD || (k->has_stream && k->stream != stream)) return 0;
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  return e->cu->cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture == CU_STREAM_CAPTURE_STATUS_NONE;
}

/* The kept region, grown to hold bytes; with the lock held on success (1). 0: use the pool. */
static int kept_get(tcj_engine *e, size_t bytes, CUstream stream, CUdeviceptr *base) {
  eng_kept_scratch *k = &e->kept;
  if (bytes > ENG_KEPT_SCRATCH_MAX) return 0;
  pthread_mutex_lock(&k->lock);
  if (!kept_stream_ok(e, stream)) {
    pthread_mutex_unlock(&k->lock);
    return 0;
  }
  if (bytes > k->bytes) {
    if (k->ptr && k->retired_count == ENG_KEPT_SCRATCH_RETIRED) {
      pthread_mutex_unlock(&k->lock);
      return 0;
    }
    size_t grown = k->bytes * 2 > ENG_KEPT_SCRATCH_MIN ? k->bytes * 2 : ENG_KEPT_SCRATCH_MIN;
    if (grown < bytes) grown = (bytes + ENG_KEPT_SCRATCH_MIN - 1) / ENG_KEPT_SCRATCH_MIN * ENG_KEPT_SCRATCH_MIN;
    if (grown > ENG_KEPT_SCRATCH_MAX) grown = ENG_KEPT_SCRATCH_MAX;
    CUdeviceptr ptr = 0;
    CUstreamCaptureMode mode = relaxed_begin(e->cu);
    CUresult r = e->cu->cuMemAlloc(&ptr, grown);
    relaxed_end(e->cu, mode);
    if (r != CUDA_SUCCESS) { /* out of memory here: the pool may still serve */
      pthread_mutex_unlock(&k->lock);
      return 0;
    }
    if (k->ptr) k->retired[k->retired_count++] = k->ptr;
    k->ptr = ptr;
    k->bytes = grown;
  }
  k->stream = stream;
  k->has_stream = 1;
  *base = k->ptr;
  return 1;
}

/* The workspace as one snapshot: pointer and size from the same tcj_set_workspace. */
static size_t workspace_of(tcj_engine *e, CUdeviceptr *ptr) {
  pthread_mutex_lock(&e->ws.lock);
  size_t bytes = e->ws.bytes;
  *ptr = e->ws.ptr;
  pthread_mutex_unlock(&e->ws.lock);
  return bytes;
}

tcj_status eng_scratch_get(tcj_engine *e, size_t bytes, CUstream stream, eng_scratch *s) {
  *s = (eng_scratch){0, bytes, ENG_SCRATCH_NONE};
  if (!bytes) return TCJ_SUCCESS;
  CUdeviceptr ws_ptr;
  size_t ws_bytes = workspace_of(e, &ws_ptr);
  if (ws_bytes) {
    if (bytes > ws_bytes)
      return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "this call needs %zu bytes of workspace; tcj_set_workspace gave %zu",
                           bytes, ws_bytes);
    s->base = ws_ptr;
    s->source = ENG_SCRATCH_WORKSPACE;
    return TCJ_SUCCESS;
  }
  if (e->alloc) {
    CUdeviceptr base = 0;
    int rc = e->alloc(e->alloc_ctx, bytes, stream, &base);
    if (rc != 0 || !base)
      return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "the allocator of tcj_options.alloc returned %d for %zu bytes of scratch",
                           rc, bytes);
    s->base = base;
    s->source = ENG_SCRATCH_ALLOC;
    return TCJ_SUCCESS;
  }
  if (kept_get(e, bytes, stream, &s->base)) {
    s->source = ENG_SCRATCH_KEPT;
    return TCJ_SUCCESS;
  }
  CUresult r = e->cu->cuMemAllocAsync(&s->base, bytes, stream);
  if (r != CUDA_SUCCESS) {
    s->base = 0;
    return eng_cuda_error(r, "cuMemAllocAsync (scratch)");
  }
  s->source = ENG_SCRATCH_POOL;
  return TCJ_SUCCESS;
}

/* Stream order frees a pool region after the kernels (or the failed copy) that used it; the
 * kept region is only handed back (its lock, held since the get, is released). */
void eng_scratch_put(tcj_engine *e, const eng_scratch *s, CUstream stream) {
  switch (s->source) {
  case ENG_SCRATCH_NONE:
  case ENG_SCRATCH_WORKSPACE: return;
  case ENG_SCRATCH_ALLOC: e->free(e->alloc_ctx, s->base, s->bytes, stream); return;
  case ENG_SCRATCH_KEPT: pthread_mutex_unlock(&e->kept.lock); return;
  case ENG_SCRATCH_POOL: e->cu->cuMemFreeAsync(s->base, stream); return;
  }
}
