/* SPDX-License-Identifier: Apache-2.0 */
/* Cache keys, compiler identity, and filling the disk cache without a GPU (tcj-warmup) or
 * through an engine. */
#include "engine/warm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/generate.h"
#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "ptxgen/ptxgen.h"
#include "tcj_codegen_id.h"

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

static void cfg_arch(const tcj_kernel_cfg *cfg, char *out, size_t size) {
  snprintf(out, size, "sm_%d%s", cfg->sm, cfg->arch_suffix == 'a' ? "a" : "");
}

tcj_status eng_warm_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, int *hit, char *err,
                            size_t err_size) {
  char arch[16], compiler[256], key[ENG_CACHE_KEY_MAX];
  *hit = 0;
  cfg_arch(cfg, arch, sizeof arch);
  if (!eng_nvjitlink_identity(compiler, sizeof compiler)) {
    snprintf(err, err_size, "nvJitLink was not found: compiling without a GPU needs it");
    return TCJ_ERROR_NOT_SUPPORTED;
  }
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
  eng_build_enter(); /* a fork() waits for it (tiering.h) */
  tcj_status st = eng_generate_ptx(cfg, user_source, arch, &ptx, &len, err, err_size);
  if (st == TCJ_SUCCESS) st = eng_jit_compile_nvjitlink(ptx, len, arch, &cubin, err, err_size);
  eng_build_leave();
  /* With no GPU to try the cubin on, a successful compile is what allows publishing it. */
  if (st == TCJ_SUCCESS && eng_cache_publish(disk, cfg, arch, key, compiler, cubin.data, cubin.size, ptx, len) != 0) {
    snprintf(err, err_size, "could not write the entry into %s", cache_disk_dir(disk) ? cache_disk_dir(disk) : "(no cache directory)");
    st = TCJ_ERROR_CACHE;
  }
  eng_cubin_free(&cubin);
  cache_disk_unlock(lock);
  free(ptx);
  return st;
}

const char *eng_engine_arch(const tcj_engine *e) { return e->arch; }

void eng_engine_caps(const tcj_engine *e, eng_device_caps *caps) { *caps = e->caps; }

int eng_engine_tunes(const tcj_engine *e) { return e->autotune; }

int eng_engine_tuned_plan(tcj_engine *e, const eng_problem *p, eng_plan *plan) {
  return e->autotune && eng_autotune_known(e, p, plan);
}

tcj_status eng_warm_engine(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, int *hit) {
  char arch[16];
  cfg_arch(cfg, arch, sizeof arch);
  if (strcmp(arch, e->arch) != 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "config for %s given to an engine for %s", arch, e->arch);
  int pushed = 0, compiled = 0;
  tcj_status st = eng_ctx_enter(e, &pushed);
  if (st != TCJ_SUCCESS) return st;
  cache_kernel k;
  st = eng_kernel_get_user(e, cfg, user_source, &k, &compiled);
  eng_ctx_leave(e, pushed);
  *hit = !compiled;
  return st;
}
