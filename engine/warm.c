/* SPDX-License-Identifier: Apache-2.0 */
/* Filling the disk cache for tcj-warmup (engine/warm.h). Layer: called by tcj-warmup only
 * (through engine/tools_api.h); calls kernel.c and build.c. */
#include "engine/warm.h"

#include <stdio.h>
#include <string.h>

#include "engine/build.h"
#include "engine/engine.h"
#include "engine/error.h"
#include "engine/jit.h"

static void cfg_arch(const tcj_kernel_cfg *cfg, char *out, size_t size) {
  snprintf(out, size, "sm_%d%s", cfg->sm, cfg->arch_suffix == 'a' ? "a" : "");
}

tcj_status eng_warm_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, int *hit, char *err,
                            size_t err_size) {
  char arch[16], compiler[256];
  *hit = 0;
  cfg_arch(cfg, arch, sizeof arch);
  if (!eng_nvjitlink_identity(compiler, sizeof compiler)) {
    snprintf(err, err_size, "nvJitLink was not found: compiling without a GPU needs it");
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return eng_build_offline(disk, cfg, user_source, arch, compiler, hit, err, err_size);
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
