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
#include "ptxgen/ptxgen.h"
#include "tcj_codegen_id.h"

void eng_compiler_identity(int force_driver, int driver_version, char *out, size_t size) {
  if (!force_driver && eng_nvjitlink_identity(out, size)) return;
  snprintf(out, size, "driver %d", driver_version);
}

int eng_cache_key(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size) {
  char text[256];
  tcj_kernel_cfg kernel = tcj_cfg_kernel_form(cfg); /* plans that share a kernel share its entry */
  if (tcj_cfg_format(&kernel, text, sizeof text) < 0) return -1;
  int n = snprintf(out, size, "tcj-cache format=%u\ncodegen=%s\ncfg=%s\narch=%s\n", CACHE_FORMAT_VERSION,
                   TCJ_CODEGEN_ID, text, arch);
  return n < 0 || (size_t)n >= size ? -1 : n;
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
    free(bin);
    *hit = 1;
    return TCJ_SUCCESS;
  }
  char *ptx = NULL;
  size_t len = 0;
  tcj_status st = TCJ_ERROR_INTERNAL;
  eng_cubin cubin = {0};
  if ((st = eng_generate_ptx(cfg, user_source, arch, &ptx, &len, err, err_size)) != TCJ_SUCCESS) goto done;
  st = eng_jit_compile_nvjitlink(ptx, len, arch, &cubin, err, err_size);
  /* With no GPU to try the cubin on, a successful compile is what allows publishing it. */
  if (st == TCJ_SUCCESS && cache_disk_put_by(disk, key, compiler, cubin.data, cubin.size, ptx, len) != 0) {
    snprintf(err, err_size, "could not write the entry into %s", cache_disk_dir(disk) ? cache_disk_dir(disk) : "(no cache directory)");
    st = TCJ_ERROR_CACHE;
  }
done:
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
