/* SPDX-License-Identifier: Apache-2.0 */
/* Building a kernel (engine/build.h): key -> lock -> generate -> compile -> publish -> load, for
 * the engine and for offline warmup; the cache key and the compiler identity; the fork guard
 * every build holds.
 *
 * Layers of engine/, each calling only those below it: the entry points (gemm.c, engine.c,
 * tools_api.c) -> what a call may need built (autotune.c, tiering.c, warm.c) -> the engine's
 * loaded kernels (kernel.c) -> this build path (build.c) -> its steps and services (generate.c,
 * jit.c, jit_driver.c, nvrtc.c, context.c, select*.c, problem.c, validate.c, scratch.c, cuda_api.c,
 * error.c, log.c) -> cache/ and ptxgen/. scripts/file-cycles.py checks that no file loop
 * appears. */
#include "engine/build.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/generate.h"
#include "engine/jit.h"
#include "engine/log.h"
#include "engine/nvrtc.h"
#include "tcj_codegen_id.h"

#define KEY_MAX 512

/* ---- builds and fork() ---------------------------------------------------------------------
 * A compile or module load in flight holds the compiler's and the driver's locks, which a forked
 * child would inherit held (a child that called exit() hung in one run of five). Every build,
 * in a caller's thread or a worker, holds build_lock shared; fork() takes it exclusive, so it
 * waits for the builds in flight and none starts during it. Writers first: a stream of builds
 * on many threads cannot hold a fork off. A build never waits on another process inside it
 * (eng_build_load takes the cross-process compile lock before eng_build_enter), so a fork never
 * waits on another process either. The child makes the lock anew. The background workers' own
 * fork handlers (engine/tiering.c) are registered after these, so that fork() takes their lock
 * first and this one second, the order the workers' exit takes them in. */
static pthread_rwlock_t build_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

static void hold_builds_for_fork(void) { pthread_rwlock_wrlock(&build_lock); }

static void release_builds_after_fork(void) { pthread_rwlock_unlock(&build_lock); }

static void renew_build_lock_in_child(void) {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&build_lock, &attr);
  pthread_rwlockattr_destroy(&attr);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void register_at_fork(void) {
  pthread_atfork(hold_builds_for_fork, release_builds_after_fork, renew_build_lock_in_child);
}

void eng_build_fork_guard(void) { pthread_once(&fork_once, register_at_fork); }

/* Registered before the first build of the process can start, so no build is ever uncovered. */
void eng_build_enter(void) {
  eng_build_fork_guard();
  pthread_rwlock_rdlock(&build_lock);
}

void eng_build_leave(void) { pthread_rwlock_unlock(&build_lock); }

/* ---- the thread that builds ---------------------------------------------------------------- */

static _Thread_local int background;              /* a background worker's thread */
static _Thread_local const _Atomic int *stop_flag; /* its stop flag; NULL on any other thread */

void eng_build_in_background(const _Atomic int *stop) {
  background = 1;
  stop_flag = stop;
}

/* ---- keys and identities ------------------------------------------------------------------- */

void eng_compiler_identity(int force_driver, int driver_version, char *out, size_t size) {
  if (!force_driver && eng_nvjitlink_identity(out, size)) return;
  snprintf(out, size, "driver %d", driver_version);
}

/* The key text; epilogue_compiler: the line a config with a user epilogue adds. */
static int key_text(const tcj_kernel_cfg *cfg, const char *arch, const char *epilogue_compiler, char *out,
                    size_t size) {
  char text[256];
  tcj_kernel_cfg kernel = tcj_cfg_kernel_form(cfg); /* plans that share a kernel share its entry */
  if (tcj_cfg_format(&kernel, text, sizeof text) < 0) return -1;
  int n = snprintf(out, size, "tcj-cache format=%u\ncodegen=%s\ncfg=%s\narch=%s\n%s%s%s", CACHE_FORMAT_VERSION,
                   TCJ_CODEGEN_ID, text, arch, cfg->user ? "epilogue compiler=" : "",
                   cfg->user ? epilogue_compiler : "", cfg->user ? "\n" : "");
  return n < 0 || (size_t)n >= size ? -1 : n;
}

/* A user epilogue's kernel (cfg->user: the hash of its source) is two entries with one cubin:
 *   - "epilogue compiler=NVRTC 13.0": the key a process with NVRTC looks up, so a new NVRTC
 *     builds new kernels. NVRTC turns the user's C++ into code (a newer one may fix or speed
 *     up what it made), where nvJitLink only assembles the PTX tcj wrote: so the one is in
 *     the key and the other is not;
 *   - "epilogue compiler=any": a copy written with every publish, the key a process without
 *     NVRTC looks up, so that a cache warmed elsewhere (by tcj-warmup on a build host) serves
 *     an image that does not ship NVRTC. It holds the last kernel any NVRTC built from that
 *     source for that config and arch; without NVRTC there is nothing newer to build anyway.
 * A copy rather than a small entry naming the versioned one: it is an entry like any other
 * (checksum, trust, LRU, read-only roots) and needs no second read. Reading NVRTC's version
 * loads it (about 5 ms, once per process, only for user epilogues that miss the memo). */
int eng_cache_key(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size) {
  char nvrtc[64] = "any"; /* eng_nvrtc_available writes only when NVRTC opens */
  if (cfg->user) eng_nvrtc_available(nvrtc, sizeof nvrtc);
  return key_text(cfg, arch, nvrtc, out, size);
}

int eng_cache_key_any_nvrtc(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size) {
  return cfg->user ? key_text(cfg, arch, "any", out, size) : -1;
}

int eng_cache_publish(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *arch, const char *key,
                      const char *compiler, const void *cubin, size_t size, const char *ptx, size_t ptx_len) {
  int rc = cache_disk_put_by(disk, key, compiler, cubin, size, ptx, ptx_len);
  char any[ENG_CACHE_KEY_MAX];
  if (rc == 0 && eng_cache_key_any_nvrtc(cfg, arch, any, sizeof any) > 0 && strcmp(any, key) != 0)
    rc = cache_disk_put_by(disk, any, compiler, cubin, size, ptx, ptx_len);
  return rc;
}

/* ---- the engine's build -------------------------------------------------------------------- */

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
    st = eng_jit_compile(ptx, len, e->arch, bin, err, sizeof err);
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
    if (background) atomic_fetch_add_explicit(&e->stats.compiles_background, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.compile_ns, (uint64_t)(ms * 1e6), memory_order_relaxed);
    /* Any compiler's cubin for this arch is the kernel: it is published whoever built it, and
     * the entry records who (the key does not name a compiler: see eng_cache_key). */
    char who[128];
    if (e->disk)
      eng_cache_publish(e->disk, cfg, e->arch, key, eng_cubin_compiler(&bin, via_driver ? e->driver_id : e->compiler, who, sizeof who),
                        bin.data, bin.size, ptx, len);
    const char *via = via_driver ? "the driver" : bin.whole_program ? "NVRTC (whole program)" : "nvJitLink";
    /* The whole-program route fell back (jit.h): say why, as the kernel keeps 168 registers. */
    if (bin.info_log && strncmp(bin.info_log, ENG_JIT_NOT_WHOLE, strlen(ENG_JIT_NOT_WHOLE)) == 0)
      eng_log(e->log, ENG_LOG_WARN, "%.*s", (int)strcspn(bin.info_log, "\n"), bin.info_log);
    eng_cubin_free(&bin);
    eng_log(e->log, ENG_LOG_INFO, "compiled %s for %s via %s in %.1f ms", text, e->arch, via, ms);
  }
  free(ptx);
  return st;
}

tcj_status eng_build_load(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                          int disk_only, CUmodule *mod, int *compiled) {
  *mod = NULL;
  if (compiled) *compiled = 0;
  char key[ENG_CACHE_KEY_MAX];
  if (eng_cache_key(cfg, e->arch, key, sizeof key) < 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "cache key exceeds %d bytes", ENG_CACHE_KEY_MAX);

  /* Disk first; on a miss, take the kernel's compile lock, so that of the processes (and
   * threads) that start cold together one compiles and the others load its entry. */
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  if (disk_only) {
    if (!e->disk || !cache_disk_get(e->disk, key, &bin, &size)) return TCJ_SUCCESS;
  } else if (e->disk && !cache_disk_get(e->disk, key, &bin, &size)) {
    int got = cache_disk_lock_or_get_cancellable(e->disk, key, &bin, &size, &lock, stop_flag);
    if (got < 0)
      return eng_set_error(TCJ_ERROR_CACHE, "the build of %s was stopped (tcj_destroy or exit) while another process "
                           "held its compile lock", text);
    if (!got) bin = NULL;
  }
  eng_build_enter();
  tcj_status st = TCJ_SUCCESS;
  *mod = bin ? load_cached(e, key, bin) : NULL;
  if (*mod) {
    eng_log(e->log, ENG_LOG_DEBUG, "disk cache hit: %s", text);
  } else if (!disk_only) { /* disk_only: the driver refused the cached cubin (evicted); nothing is compiled */
    st = compile_module(e, cfg, user_source, text, key, mod);
    cache_disk_unlock(lock);
    if (st == TCJ_SUCCESS && compiled) *compiled = 1;
  }
  eng_build_leave();
  return st;
}

/* ---- the offline build --------------------------------------------------------------------- */

tcj_status eng_build_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, const char *arch,
                             const char *compiler, int *hit, char *err, size_t err_size) {
  char key[ENG_CACHE_KEY_MAX];
  *hit = 0;
  if (eng_cache_key(cfg, arch, key, sizeof key) < 0) {
    snprintf(err, err_size, "cache key longer than %d bytes", ENG_CACHE_KEY_MAX);
    return TCJ_ERROR_INTERNAL;
  }
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  /* Another process warming the same manifest may be compiling this one: wait for it. */
  if (cache_disk_get(disk, key, &bin, &size) || cache_disk_lock_or_get(disk, key, &bin, &size, &lock)) {
    /* A cache warmed for images without NVRTC needs the copy of a user epilogue's kernel too
     * (eng_cache_key), which the LRU may have dropped while its versioned entry was in use. */
    char any[ENG_CACHE_KEY_MAX];
    void *copy = NULL;
    size_t copy_size = 0;
    int rc = 0;
    if (eng_cache_key_any_nvrtc(cfg, arch, any, sizeof any) > 0 && strcmp(any, key) != 0 &&
        !cache_disk_get(disk, any, &copy, &copy_size))
      rc = cache_disk_put_by(disk, any, compiler, bin, size, NULL, 0);
    free(copy);
    free(bin);
    if (rc != 0) {
      snprintf(err, err_size, "could not write the entry into %s", cache_disk_dir(disk) ? cache_disk_dir(disk) : "(no cache directory)");
      return TCJ_ERROR_CACHE;
    }
    *hit = 1;
    return TCJ_SUCCESS;
  }
  char *ptx = NULL;
  size_t len = 0;
  eng_cubin cubin = {0};
  eng_build_enter(); /* a fork() waits for it */
  tcj_status st = eng_generate_ptx(cfg, user_source, arch, &ptx, &len, err, err_size);
  if (st == TCJ_SUCCESS) st = eng_jit_compile(ptx, len, arch, &cubin, err, err_size);
  eng_build_leave();
  /* With no GPU to try the cubin on, a successful compile is what allows publishing it. */
  char who[128];
  if (st == TCJ_SUCCESS &&
      eng_cache_publish(disk, cfg, arch, key, eng_cubin_compiler(&cubin, compiler, who, sizeof who), cubin.data, cubin.size, ptx, len) != 0) {
    snprintf(err, err_size, "could not write the entry into %s", cache_disk_dir(disk) ? cache_disk_dir(disk) : "(no cache directory)");
    st = TCJ_ERROR_CACHE;
  }
  eng_cubin_free(&cubin);
  cache_disk_unlock(lock);
  free(ptx);
  return st;
}
