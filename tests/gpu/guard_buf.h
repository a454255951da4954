/* SPDX-License-Identifier: Apache-2.0 */
/* Device buffers that end where their mapping ends (tail_mem.h), with a guard of poison before
 * their data: a kernel that reads or writes one byte past the data faults, one that writes
 * before it changes the guard, which the host images (as uploaded, as read back) show. */
#ifndef TCJ_TEST_GUARD_BUF_H
#define TCJ_TEST_GUARD_BUF_H

#include "gpu_test.h"
#include "tail_mem.h"

#define GUARD_BYTES 256 /* the guard the grouped and SwiGLU tests put before every buffer */

/* What the buffers need: the driver's virtual memory API, the device they map on, the guard's
 * size (0: none) and the stream their copies are queued on. guard_ctx_init fills all but the
 * stream, which guard_group_setup makes. */
typedef struct guard_ctx {
  vmm_api vmm;
  int device;
  size_t guard;
  cudaStream_t stream;
} guard_ctx;

/* cmocka's group fixtures take no argument of the test's own, so guard_ctx_init names the one
 * context (a test program has one) whose stream guard_group_setup and _teardown make and end. */
static guard_ctx *guard_group_ctx;

/* Returns 1, or 0 with the reason printed (main returns 1: a failure). */
static inline int guard_ctx_init(guard_ctx *g, size_t guard) {
  memset(g, 0, sizeof *g);
  g->guard = guard;
  guard_group_ctx = g;
  if (!vmm_load(&g->vmm)) {
    fprintf(stderr, "the driver's virtual memory API is not available\n");
    return 0;
  }
  cudaGetDevice(&g->device);
  return 1;
}

static inline int guard_group_setup(void **state) {
  (void)state;
  return cudaStreamCreateWithFlags(&guard_group_ctx->stream, cudaStreamNonBlocking) == cudaSuccess ? 0 : -1;
}

static inline int guard_group_teardown(void **state) {
  (void)state;
  if (guard_group_ctx->stream) cudaStreamDestroy(guard_group_ctx->stream);
  return 0;
}

/* before and after lie in the tail_buf's own host images (t.host, t.back), at the offset the
 * guard takes in the mapping: no second copy of a large buffer's images on the host. */
typedef struct guard_buf {
  tail_buf t;
  size_t guard, bytes;           /* the guard's and the data's */
  unsigned char *before, *after; /* images of guard + data: as uploaded, as read back */
} guard_buf;

/* Maps guard + bytes (at least 1) and fills `before` with poison; returns 1, or 0 (either way
 * guard_buf_free frees what there is; before and after are set only on success). */
static inline int guard_buf_alloc(const guard_ctx *g, guard_buf *d, size_t bytes, unsigned char poison) {
  memset(d, 0, sizeof *d);
  if (g->guard + bytes == 0) bytes = 1;
  d->guard = g->guard;
  d->bytes = bytes;
  if (!tail_buf_create(&g->vmm, g->device, &d->t, d->guard + bytes)) return 0;
  d->before = d->t.host + d->t.size - (d->guard + bytes);
  d->after = d->t.back + d->t.size - (d->guard + bytes);
  memset(d->before, poison, d->guard + bytes);
  return 1;
}

/* A buffer that was never allocated (all zero) is freed as a no-op. */
static inline void guard_buf_free(const guard_ctx *g, guard_buf *d) {
  if (d->t.reserved) tail_buf_destroy(&g->vmm, &d->t);
  memset(d, 0, sizeof *d);
}

/* Where the guard starts on the device; the data on the device; the data in the images. */
static inline CUdeviceptr guard_buf_lo(const guard_buf *d) { return tail_buf_place(&d->t, d->guard + d->bytes); }
static inline void *guard_buf_dev(const guard_buf *d) { return (void *)(uintptr_t)(guard_buf_lo(d) + d->guard); }
static inline unsigned char *guard_buf_data(const guard_buf *d) { return d->before + d->guard; }
static inline unsigned char *guard_buf_back(const guard_buf *d) { return d->after + d->guard; }

/* Whether the guard as read back is the guard as uploaded (no write before the data). */
static inline int guard_buf_guard_intact(const guard_buf *d) { return memcmp(d->after, d->before, d->guard) == 0; }

/* Queue on g's stream: guard + data from `before` to the device; from the device to `after`. */
static inline cudaError_t guard_buf_upload(const guard_ctx *g, const guard_buf *d) {
  return cudaMemcpyAsync((void *)(uintptr_t)guard_buf_lo(d), d->before, d->guard + d->bytes, cudaMemcpyHostToDevice,
                         g->stream);
}

static inline cudaError_t guard_buf_download(const guard_ctx *g, guard_buf *d) {
  return cudaMemcpyAsync(d->after, (void *)(uintptr_t)guard_buf_lo(d), d->guard + d->bytes, cudaMemcpyDeviceToHost,
                         g->stream);
}

#endif
