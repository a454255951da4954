/* SPDX-License-Identifier: Apache-2.0 */
/* cfg (+ the user epilogue's source) -> the PTX module to compile: the one path from a config to
 * PTX that the engine and tcj-warmup share. */
#ifndef TCJ_ENG_GENERATE_H
#define TCJ_ENG_GENERATE_H

#include <stddef.h>

#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

/* Writes cfg's module for arch ("sm_90a"). A config with a user epilogue (cfg->user) needs its
 * source: NVRTC compiles it for arch and its code joins the module. On success *ptx is
 * malloc'ed (caller frees). Errors: TCJ_ERROR_INVALID_VALUE (a user config without source),
 * NVRTC's (NOT_SUPPORTED, COMPILE with its log in err), TCJ_ERROR_INTERNAL (ptxgen). */
tcj_status eng_generate_ptx(const tcj_kernel_cfg *cfg, const char *user_source, const char *arch, char **ptx,
                            size_t *len, char *err, size_t err_size);

#endif
