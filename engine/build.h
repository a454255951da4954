/* SPDX-License-Identifier: Apache-2.0 */
/* The one path that builds a kernel: key -> lock -> generate -> compile -> publish -> load.
 * The engine (engine/kernel.c, for its synchronous calls, the autotuner and the background
 * worker) and offline warmup (engine/warm.c, tcj-warmup) build through it; the cache key and
 * the compiler's identity are made here and nowhere else.
 *
 * The key text names every input that makes a cubin what it is: cache format, codegen
 * identity, config and target arch (and the NVRTC of a user epilogue: eng_cache_key). Not the
 * compiler: any compiler's cubin for the arch runs the same kernel, so a cache warmed with
 * nvJitLink serves a process with the driver alone, and the other way round. The entry records
 * who compiled it; a cubin the driver refuses is evicted and rebuilt. */
#ifndef TCJ_ENG_BUILD_H
#define TCJ_ENG_BUILD_H

#include <cuda.h>
#include <stddef.h>

#include "cache/disk_cache.h"
#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

struct tcj_engine;

#define ENG_CACHE_KEY_MAX 1024

/* Identity of the compiler that would build a cubin now, without loading it: nvJitLink
 * (its library's soname and size), or "driver <version>" when nvJitLink is absent or forced
 * off. driver_version: cuDriverGetVersion's value, 0 when unknown. Recorded in entries. */
void eng_compiler_identity(int force_driver, int driver_version, char *out, size_t size);

/* Full key text of cfg for arch ("sm_90a"). Returns its length, or -1. The key of a config
 * with a user epilogue also names the NVRTC that compiles it ("epilogue compiler=NVRTC 13.0"),
 * or "any" where NVRTC cannot be opened: see build.c for the copy that key finds. */
int eng_cache_key(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size);
/* The key of that copy ("epilogue compiler=any"); -1 for a config without a user epilogue. */
int eng_cache_key_any_nvrtc(const tcj_kernel_cfg *cfg, const char *arch, char *out, size_t size);

/* Publishes a compiled cubin under key, and a user epilogue's kernel under its copy's key
 * too. Returns cache_disk_put_by's result (0, or -1 when an entry could not be written). */
int eng_cache_publish(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *arch, const char *key,
                      const char *compiler, const void *cubin, size_t size, const char *ptx, size_t ptx_len);

/* With an engine (its context current): the module of cfg (its kernel form, whose text is
 * `text`) from the disk cache, else generated, compiled (nvJitLink, else the driver) and
 * loaded, then published: only a cubin the driver accepted is. disk_only: nothing is compiled,
 * and *mod is NULL (with TCJ_SUCCESS) when the disk cache has no cubin the driver accepts.
 * *compiled (may be NULL) says whether it was compiled. The wait for another process's compile
 * lock comes before the build (eng_build_enter): a fork() waits for builds, never for another
 * process; on a background thread (eng_build_in_background) the wait ends when its stop flag
 * is set. Errors: see tcj_last_error. */
tcj_status eng_build_load(struct tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, const char *text,
                          int disk_only, CUmodule *mod, int *compiled);

/* Without a GPU: makes sure the cubin of cfg for arch is in disk's writable dir (or a
 * read-only root). *hit = 1 when it already was; else compiles with nvJitLink (whose identity
 * `compiler` is) and publishes: with no GPU to try the cubin on, a successful compile is what
 * allows publishing it, and a failed publish is an error (TCJ_ERROR_CACHE). Thread-safe. */
tcj_status eng_build_offline(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *user_source, const char *arch,
                             const char *compiler, int *hit, char *err, size_t err_size);

/* A module of PTX that is not a GEMM config (the autotuner's L2 flush): compiled as kernels are
 * (nvJitLink, else the driver) and loaded, never cached. Needs the engine's context current. */
tcj_status eng_module_from_ptx(struct tcj_engine *e, const char *ptx, size_t len, CUmodule *mod);

/* Builds on this thread are a background worker's (counted apart in the stats), and a wait
 * for another process's compile lock ends when *stop becomes nonzero. Called by the worker
 * thread once, before its first build (engine/tiering.c). */
void eng_build_in_background(const _Atomic int *stop);

/* Around every use of the compiler or of cuModuleLoadData, on any thread: fork() waits until
 * none is in flight (the compiler's and the driver's locks would be inherited held by the
 * child) and none starts during it. Not nested. eng_build_fork_guard only registers the fork
 * handlers (once), for a caller whose own handlers must run around them (engine/tiering.c). */
void eng_build_enter(void);
void eng_build_leave(void);
void eng_build_fork_guard(void);

#endif
