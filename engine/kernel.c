/* SPDX-License-Identifier: Apache-2.0 */
/* cfg -> loaded kernel: the engine's memo, else the build path (engine/build.h: the disk
 * cache, else generate, compile, load and publish), then the module's functions. Racing
 * threads may both compile; the memo keeps one module and the loser unloads its own.
 * Layer: called by gemm.c, autotune.c, tiering.c and warm.c; calls build.c and below. */
#include <stdio.h>
#include <string.h>
#include <stdatomic.h>

#include "engine/build.h"
#include "engine/engine.h"
#include "engine/error.h"
#include "engine/log.h"
#include "ptxgen/ptxgen.h"

#define KEY_MAX 512

/* A persistent grid of clusters must fit on the GPU at once: a GPC whose SM count is odd (or
 * whose SMs are partly taken) leaves SMs that no cluster can use, and a cluster that does not
 * fit waits for a whole persistent CTA to finish. Returns the CTAs of the clusters that fit,
 * or 0 (no cap: no cluster, or the driver cannot say). */
static int resident_cluster_ctas(tcj_engine *e, const tcj_kernel_cfg *cfg, CUfunction fn, int smem) {
  int ctas = tcj_cfg_cluster_ctas(cfg);
  if (ctas < 2 || !e->cu->cuOccupancyMaxActiveClusters) return 0;
  CUlaunchConfig lc;
  memset(&lc, 0, sizeof lc);
  lc.gridDimX = (unsigned)ctas; /* the cluster shape comes from the PTX */
  lc.gridDimY = lc.gridDimZ = 1;
  lc.blockDimX = (unsigned)tcj_cfg_threads(cfg);
  lc.blockDimY = lc.blockDimZ = 1;
  lc.sharedMemBytes = (unsigned)smem;
  int clusters = 0;
  CUresult r = e->cu->cuOccupancyMaxActiveClusters(&clusters, fn, &lc);
  if (r != CUDA_SUCCESS || clusters < 1) {
    eng_log(e->log, ENG_LOG_WARN, "cuOccupancyMaxActiveClusters: %s; the cluster grid assumes every SM",
            r != CUDA_SUCCESS ? eng_cuda_error_name(r) : "no cluster fits");
    return 0;
  }
  eng_log(e->log, ENG_LOG_DEBUG, "%d clusters of %d CTAs fit at once", clusters, ctas);
  return clusters * ctas;
}

/* A grouped kernel is persistent (group_schedule.h): its grid is the CTAs that fit at once,
 * every SM holding as many as its registers and shared memory allow. 0 where the driver cannot
 * say (the launch then assumes one per SM). */
static int resident_ctas(tcj_engine *e, CUfunction fn, int threads, int smem) {
  int per_sm = 0;
  if (!e->cu->cuOccupancyMaxActiveBlocksPerMultiprocessor) return 0;
  CUresult r = e->cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, (size_t)smem);
  if (r != CUDA_SUCCESS || per_sm < 1) {
    eng_log(e->log, ENG_LOG_WARN, "cuOccupancyMaxActiveBlocksPerMultiprocessor: %s; the grouped grid assumes one CTA per SM",
            r != CUDA_SUCCESS ? eng_cuda_error_name(r) : "no CTA fits");
    return 0;
  }
  return per_sm * e->caps.sm_count;
}

int eng_kernel_text(const tcj_kernel_cfg *cfg, char *buf, size_t size) {
  tcj_kernel_cfg kernel = tcj_cfg_kernel_form(cfg);
  return tcj_cfg_format(&kernel, buf, size);
}

int eng_kernel_loaded(tcj_engine *e, const char *kernel_text, uint64_t hash, cache_kernel *out) {
  if (!cache_kernel_table_find_hashed(e->kernels, kernel_text, hash, out)) return 0;
  atomic_fetch_add_explicit(&e->stats.memory_hits, 1, memory_order_relaxed);
  return 1;
}

tcj_status eng_kernel_get(tcj_engine *e, const tcj_kernel_cfg *cfg, cache_kernel *out, int *compiled) {
  return eng_kernel_get_user(e, cfg, NULL, out, compiled);
}

/* How get_kernel treats a kernel the disk cache does not hold. */
enum { COMPILE_IF_MISSING, DISK_ONLY };
static tcj_status finish_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *text, CUmodule mod,
                                cache_kernel *out);

/* A kernel is built and loaded outside any stream: a CUDA graph capture in global mode (by any
 * thread, this caller's first of all: a class first met while capturing) would refuse the
 * module calls and be invalidated, so they are declared relaxed for their duration, as the kept
 * scratch's allocations are (engine/scratch.c). */
static tcj_status get_kernel(tcj_engine *e, const tcj_kernel_cfg *plan_cfg, const char *user_source, cache_kernel *out,
                             int *compiled, int missing, int *found) {
  char text[KEY_MAX];
  const tcj_kernel_cfg kernel = tcj_cfg_kernel_form(plan_cfg), *cfg = &kernel;
  if (compiled) *compiled = 0;
  *found = 1;
  if (tcj_cfg_format(cfg, text, sizeof text) < 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "kernel config text exceeds %d bytes", KEY_MAX);
  if (cache_kernel_table_find(e->kernels, text, out)) {
    atomic_fetch_add_explicit(&e->stats.memory_hits, 1, memory_order_relaxed);
    return TCJ_SUCCESS;
  }
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  e->cu->cuThreadExchangeStreamCaptureMode(&mode);
  CUmodule mod = NULL;
  tcj_status st = eng_build_load(e, cfg, user_source, text, missing == DISK_ONLY, &mod, compiled);
  if (st == TCJ_SUCCESS && mod) st = finish_kernel(e, cfg, text, mod, out);
  else if (st == TCJ_SUCCESS) *found = 0; /* DISK_ONLY: not in the disk cache, or refused by the driver (evicted) */
  e->cu->cuThreadExchangeStreamCaptureMode(&mode);
  return st;
}

tcj_status eng_kernel_get_user(tcj_engine *e, const tcj_kernel_cfg *plan_cfg, const char *user_source,
                               cache_kernel *out, int *compiled) {
  int found;
  return get_kernel(e, plan_cfg, user_source, out, compiled, COMPILE_IF_MISSING, &found);
}

int eng_kernel_cached(tcj_engine *e, const tcj_kernel_cfg *plan_cfg, const char *user_source, cache_kernel *out) {
  int found = 0;
  return get_kernel(e, plan_cfg, user_source, out, NULL, DISK_ONLY, &found) == TCJ_SUCCESS && found;
}

/* The functions of a loaded module and the memo: the loser of a race unloads its own. */
static tcj_status finish_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *text, CUmodule mod,
                                cache_kernel *out) {
  tcj_status st = TCJ_SUCCESS;
  /* The recipe's GEMM entry, then each extra entry its row says cfg's module holds. */
  const ptx_recipe_row *row = ptx_recipe_of(cfg);
  CUfunction fn = NULL, extra[PTX_EXTRA_COUNT] = {NULL};
  int smem = row->smem_bytes(cfg);
  char call[64];
  CUresult r = e->cu->cuModuleGetFunction(&fn, mod, row->entry);
  if (r != CUDA_SUCCESS) {
    snprintf(call, sizeof call, "cuModuleGetFunction(%s)", row->entry);
    st = eng_cuda_error(r, call);
    goto fail;
  }
  /* Above 48 KiB, dynamic shared memory must be opted in per function. */
  r = e->cu->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  if (r != CUDA_SUCCESS) {
    st = eng_cuda_error(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
    goto fail;
  }
  for (const ptx_extra_entry *const *x = row->extras; *x; x++) {
    if (!(*x)->present(cfg)) continue;
    if ((r = e->cu->cuModuleGetFunction(&extra[(*x)->kind], mod, (*x)->name)) != CUDA_SUCCESS) {
      snprintf(call, sizeof call, "cuModuleGetFunction(%s)", (*x)->name);
      st = eng_cuda_error(r, call);
      goto fail;
    }
  }
  int resident = row->persistent ? resident_cluster_ctas(e, cfg, fn, smem) : 0;
  if (!row->persistent && cfg->grouped) resident = resident_ctas(e, fn, row->threads(cfg), smem);
  cache_kernel k = {mod, fn, extra[PTX_EXTRA_REDUCE], extra[PTX_EXTRA_TRANSPOSE], extra[PTX_EXTRA_SPLIT],
                    row->threads(cfg), smem, cfg->bm, cfg->bn, (int)cfg->recipe, tcj_cfg_cluster_ctas(cfg), resident};
  int ins = cache_kernel_table_insert(e->kernels, text, &k, out);
  if (ins < 0) {
    st = eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
    goto fail;
  }
  if (ins == 0) e->cu->cuModuleUnload(mod); /* another thread published first */
  return TCJ_SUCCESS;
fail:
  e->cu->cuModuleUnload(mod);
  return st;
}
