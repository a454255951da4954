/* SPDX-License-Identifier: Apache-2.0 */
/* cfg -> loaded kernel: memo lookup, else the disk cache, else PTX generation, compilation
 * (nvJitLink, else the driver) and cuModuleLoadData; a compiled cubin is published to disk
 * only after the driver accepted it. Racing threads may both compile; the memo keeps one
 * module and the loser unloads its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/generate.h"
#include "engine/jit.h"
#include "engine/log.h"
#include "engine/tiering.h"
#include "engine/warm.h"
#include "ptxgen/ptxgen.h"

#define KEY_MAX 512

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* TCJ_DUMP_PTX: dir/<cfg text with every odd character made '_'>.ptx. Best effort: a dump
 * that cannot be written is reported on stderr and never fails the GEMM. */
static void dump_ptx(const char *dir, const char *key, const char *ptx, size_t len) {
  char name[KEY_MAX];
  size_t i = 0;
  for (; key[i] && i + 1 < sizeof name; i++) {
    char ch = key[i];
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
             ch == '.' || ch == '-';
    name[i] = ok ? ch : '_';
  }
  name[i] = '\0';
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s.ptx", dir, name) >= sizeof path) {
    fprintf(stderr, "tcj: TCJ_DUMP_PTX: the path of %s.ptx in %.64s... is longer than %zu bytes; not written\n", name,
            dir, sizeof path - 1);
    return;
  }
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(ptx, 1, len, f) != len) fprintf(stderr, "tcj: TCJ_DUMP_PTX: cannot write %s\n", path);
  if (f) fclose(f);
}

/* PTX -> loaded module; *bin keeps the cubin for publishing. nvJitLink first (unless forced
 * off); when its cubin does not load (e.g. a toolkit newer than the driver), the driver
 * compiles the PTX itself and *via_driver says so. */
static tcj_status build_module(tcj_engine *e, const char *ptx, size_t len, CUmodule *mod,
                               eng_cubin *bin, int *via_driver) {
  char err[ENG_ERROR_MAX];
  tcj_status st;
  CUresult r;
  *via_driver = 0;
  if (!e->force_driver_jit) {
    st = eng_jit_compile_nvjitlink(ptx, len, e->arch, bin, err, sizeof err);
    if (st == TCJ_SUCCESS) {
      if ((r = e->cu->cuModuleLoadData(mod, bin->data)) == CUDA_SUCCESS) return TCJ_SUCCESS;
      eng_cubin_free(bin);
    } else if (st != TCJ_ERROR_NOT_SUPPORTED) { /* NOT_SUPPORTED: no nvJitLink here */
      return eng_set_error(st, "%s", err);
    }
  }
  *via_driver = 1;
  st = eng_jit_compile_driver(ptx, len, bin, err, sizeof err);
  if (st != TCJ_SUCCESS) return eng_set_error(st, "%s", err);
  r = e->cu->cuModuleLoadData(mod, bin->data);
  if (r != CUDA_SUCCESS) {
    eng_cubin_free(bin);
    return eng_cuda_error(r, "cuModuleLoadData");
  }
  return TCJ_SUCCESS;
}

tcj_status eng_module_from_ptx(tcj_engine *e, const char *ptx, size_t len, CUmodule *mod) {
  eng_cubin bin;
  int via_driver = 0;
  eng_build_enter();
  tcj_status st = build_module(e, ptx, len, mod, &bin, &via_driver);
  eng_build_leave();
  if (st == TCJ_SUCCESS) eng_cubin_free(&bin);
  return st;
}

/* The module of a cubin the disk cache gave for key (bin is freed), or NULL. A cubin the
 * driver refuses is evicted, so the caller rebuilds and replaces it. */
static CUmodule load_cached(tcj_engine *e, const char *key, void *bin) {
  CUmodule mod = NULL;
  CUresult r = e->cu->cuModuleLoadData(&mod, bin);
  free(bin);
  if (r != CUDA_SUCCESS) {
    /* Counted by the disk as a hit; it is not one. */
    atomic_fetch_sub_explicit(&e->stats.disk_hits, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.disk_misses, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.bad_entries, 1, memory_order_relaxed);
    cache_disk_evict(e->disk, key);
    eng_log(e->log, ENG_LOG_WARN, "kernel cache: the driver refused a cached cubin (%s); rebuilding it",
            eng_cuda_error_name(r));
    return NULL;
  }
  return mod;
}

/* Generates, compiles and loads cfg, then publishes the cubin the driver accepted. */
static tcj_status compile_module(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source,
                                 const char *text, const char *key, CUmodule *mod) {
  double t0 = now_ms();
  char *ptx = NULL;
  size_t len = 0;
  char err[ENG_ERROR_MAX];
  tcj_status gst = eng_generate_ptx(cfg, user_source, e->arch, &ptx, &len, err, sizeof err);
  if (gst != TCJ_SUCCESS) return eng_set_error(gst, "%s", err);
  if (e->dump_dir) dump_ptx(e->dump_dir, text, ptx, len);
  eng_cubin bin;
  int via_driver = 0;
  tcj_status st = build_module(e, ptx, len, mod, &bin, &via_driver);
  if (st == TCJ_SUCCESS) {
    double ms = now_ms() - t0;
    atomic_fetch_add_explicit(&e->stats.compiles, 1, memory_order_relaxed);
    if (eng_tier_on_worker()) atomic_fetch_add_explicit(&e->stats.compiles_background, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.compile_ns, (uint64_t)(ms * 1e6), memory_order_relaxed);
    /* Any compiler's cubin for this arch is the kernel: it is published whoever built it, and
     * the entry records who (the key does not name a compiler: see eng_cache_key). */
    if (e->disk) eng_cache_publish(e->disk, cfg, e->arch, key, via_driver ? e->driver_id : e->compiler, bin.data, bin.size, ptx, len);
    eng_cubin_free(&bin);
    eng_log(e->log, ENG_LOG_INFO, "compiled %s for %s via %s in %.1f ms", text, e->arch,
            via_driver ? "the driver" : "nvJitLink", ms);
  }
  free(ptx);
  return st;
}

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

/* How load_kernel treats a kernel the disk cache does not hold. */
enum { COMPILE_IF_MISSING, DISK_ONLY };
static tcj_status load_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                              cache_kernel *out, int *compiled, int missing, int *found);

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
  tcj_status st = load_kernel(e, cfg, user_source, text, out, compiled, missing, found);
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

static tcj_status finish_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                                const char *key, void *bin, cache_lock *lock, int missing, cache_kernel *out,
                                int *compiled, int *found);

/* The rest of get_kernel: disk cache, else compile (or, DISK_ONLY, *found = 0 and nothing
 * else); then the function and the memo. The wait for another process's compile lock comes
 * before the build (eng_build_enter): a fork() waits for builds, never for another process;
 * on the background worker the wait ends when tcj_destroy or exit() stops it. */
static tcj_status load_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                              cache_kernel *out, int *compiled, int missing, int *found) {
  char key[ENG_CACHE_KEY_MAX];
  if (eng_cache_key(cfg, e->arch, key, sizeof key) < 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "cache key exceeds %d bytes", ENG_CACHE_KEY_MAX);

  /* Disk first; on a miss, take the kernel's compile lock, so that of the processes (and
   * threads) that start cold together one compiles and the others load its entry. */
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  if (missing == DISK_ONLY) {
    if (!e->disk || !cache_disk_get(e->disk, key, &bin, &size)) {
      *found = 0;
      return TCJ_SUCCESS;
    }
  } else if (e->disk && !cache_disk_get(e->disk, key, &bin, &size)) {
    int got = cache_disk_lock_or_get_cancellable(e->disk, key, &bin, &size, &lock, eng_tier_cancel_flag());
    if (got < 0)
      return eng_set_error(TCJ_ERROR_CACHE, "the build of %s was stopped (tcj_destroy or exit) while another process "
                           "held its compile lock", text);
    if (!got) bin = NULL;
  }
  eng_build_enter();
  tcj_status st = finish_kernel(e, cfg, user_source, text, key, bin, lock, missing, out, compiled, found);
  eng_build_leave();
  return st;
}

/* Inside the build: the module of the cached cubin `bin` (NULL: none; freed), else (unless
 * DISK_ONLY: then *found = 0) a compile under `lock`; then the functions and the memo. */
static tcj_status finish_kernel(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                                const char *key, void *bin, cache_lock *lock, int missing, cache_kernel *out,
                                int *compiled, int *found) {
  CUmodule mod = bin ? load_cached(e, key, bin) : NULL;
  tcj_status st = TCJ_SUCCESS;
  if (!mod && missing == DISK_ONLY) {
    *found = 0; /* the driver refused the cached cubin (evicted): nothing is compiled here */
    return TCJ_SUCCESS;
  }
  if (mod) {
    eng_log(e->log, ENG_LOG_DEBUG, "disk cache hit: %s", text);
  } else {
    st = compile_module(e, cfg, user_source, text, key, &mod);
    cache_disk_unlock(lock);
    if (st != TCJ_SUCCESS) return st;
    if (compiled) *compiled = 1;
  }

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
  cache_kernel k = {mod, fn, extra[PTX_EXTRA_REDUCE], extra[PTX_EXTRA_TRANSPOSE], extra[PTX_EXTRA_SPLIT],
                    row->threads(cfg), smem, cfg->bm, cfg->bn, (int)cfg->recipe, tcj_cfg_cluster_ctas(cfg),
                    row->persistent ? resident_cluster_ctas(e, cfg, fn, smem) : 0};
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
