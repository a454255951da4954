/* SPDX-License-Identifier: Apache-2.0 */
/* Cache keys and cache filling shared by the engine and tcj-warmup. The key text names every
 * input that makes a cubin what it is: cache format, codegen identity, config and target arch
 * (and the NVRTC of a user epilogue: eng_cache_key). Not the compiler: any compiler's cubin
 * for the arch runs the same kernel, so a cache warmed with nvJitLink serves a process with
 * the driver alone, and the other way round. The entry records who compiled it; a cubin the
 * driver refuses is evicted and rebuilt. */
#ifndef TCJ_ENG_WARM_H
#define TCJ_ENG_WARM_H

#include <stddef.h>

#include "cache/disk_cache.h"
#include "engine/select.h"
#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

/* Identity of the compiler that would build a cubin now, without loading it: nvJitLink
 * (its library's soname and size), or "driver <version>" when nvJitLink is absent or forced
 * off. driver_version: cuDriverGetVersion's value, 0 when unknown. Recorded in entries. */
void eng_compiler_identity(int force_driver, int driver_version, char *out, size_t size);

/* Full key text of cfg for arch ("sm_90a"). Returns its length, or -1. The key of a config
 * with a user epilogue also names the NVRTC that compiles it ("epilogue compiler=NVRTC 13.0"),
 * or "any" where NVRTC cannot be opened: see warm.c for the copy that key finds. */
int eng_cache_key(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size);
/* The key of that copy ("epilogue compiler=any"); -1 for a config without a user epilogue. */
int eng_cache_key_any_nvrtc(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size);

/* Publishes a compiled cubin under key, and a user epilogue's kernel under its copy's key
 * too. Returns cache_disk_put_by's result (0, or -1 when an entry could not be written). */
int eng_cache_publish(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *arch, const char *key,
                      const char *compiler, const void *cubin, size_t size, const char *ptx, size_t ptx_len);

/* user_source: the user epilogue's source for configs that call one (cfg->user), else NULL.
 * Without a GPU: makes sure the cubin of cfg is in disk's writable dir (or a read-only root).
 * *hit = 1 when it already was; else compiles with nvJitLink and publishes; a failed publish
 * is an error (TCJ_ERROR_CACHE): filling the cache is the point. Thread-safe: many threads
 * may warm through one cache_disk. */
tcj_status eng_warm_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, int *hit, char *err,
                            size_t err_size);

/* The arch an engine compiles for ("sm_90a"). */
const char *eng_engine_arch(const tcj_engine *e);
/* The caps an engine selects with: its GPU's SM count and shared memory (and arch). */
void eng_engine_caps(const tcj_engine *e, eng_device_caps *caps);

/* Under TCJ_TUNE: the tuned choice e now runs p with (*plan: in, the plan select chose; out,
 * the choice). Returns 1 when e tunes and knows a choice for p, else 0 (*plan unchanged). */
int eng_engine_tuned_plan(tcj_engine *e, const eng_problem *p, eng_plan *plan);
/* Whether e tunes (TCJ_TUNE=1 at tcj_create, and no TCJ_RECIPE or TCJ_TILE). */
int eng_engine_tunes(const tcj_engine *e);

/* With an engine: makes sure cfg (which must target the engine's arch) is loaded, through the
 * memo, the disk cache or a compile, and published to disk after the driver accepted it.
 * *hit = 1 when it was not compiled. Errors: see tcj_last_error. */
tcj_status eng_warm_engine(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, int *hit);

#endif
