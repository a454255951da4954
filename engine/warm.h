/* SPDX-License-Identifier: Apache-2.0 */
/* Filling the disk cache for tcj-warmup: without a GPU (offline, nvJitLink) or through an
 * engine. Both build through the one build path (engine/build.h). */
#ifndef TCJ_ENG_WARM_H
#define TCJ_ENG_WARM_H

#include <stddef.h>

#include "cache/disk_cache.h"
#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

/* user_source: the user epilogue's source for configs that call one (cfg->user), else NULL.
 * Without a GPU: makes sure the cubin of cfg is in disk's writable dir (or a read-only root).
 * *hit = 1 when it already was; else compiles with nvJitLink and publishes; a failed publish
 * is an error (TCJ_ERROR_CACHE): filling the cache is the point. Thread-safe: many threads
 * may warm through one cache_disk. */
tcj_status eng_warm_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, int *hit, char *err,
                            size_t err_size);

/* With an engine: makes sure cfg (which must target the engine's arch) is loaded, through the
 * memo, the disk cache or a compile, and published to disk after the driver accepted it.
 * *hit = 1 when it was not compiled. Errors: see tcj_last_error. */
tcj_status eng_warm_engine(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, int *hit);

#endif
