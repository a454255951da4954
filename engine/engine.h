/* SPDX-License-Identifier: Apache-2.0 */
/* The engine object and the helpers its modules share (context entry, loaded kernels).
 * Private to engine/: the public view is the opaque tcj_engine of tcj.h; tools reach what they
 * may use through engine/tools_api.h. */
#ifndef TCJ_ENG_ENGINE_H
#define TCJ_ENG_ENGINE_H

#include <pthread.h>

#include "cache/disk_cache.h"
#include "cache/kernel_table.h"
#include "engine/autotune.h"
#include "engine/build.h"
#include "engine/cuda_api.h"
#include "engine/scratch.h"
#include "engine/select.h"
#include "engine/tiering.h"
#include "tcj.h"

struct tcj_engine {
  const eng_cuda_api *cu;
  CUcontext ctx;
  CUdevice dev;
  int retained_primary; /* ctx is dev's primary context, retained by tcj_create */
  eng_device_caps caps; /* sm/arch_suffix may come from tcj_options.arch */
  char arch[16];        /* "sm_90a": the compile target */
  int force_driver_jit, allow_packing;
  int log;              /* TCJ_LOG level (engine/log.h) */
  char *dump_dir;       /* TCJ_DUMP_PTX, or NULL */
  eng_tuning tuning;     /* TCJ_RECIPE, TCJ_TILE, TCJ_JIT (or jit_mode): knobs that replace what select chooses */
  int jit_async;         /* TCJ_JIT_ASYNC: generic kernels until the specialised ones are built (tiering.h) */
  eng_tiering tiering;
  int autotune;          /* TCJ_TUNE=1 (engine/autotune.h); off while TCJ_RECIPE or TCJ_TILE force a choice */
  eng_tuned_memo tuned;  /* the autotuner's choices */
  char device_name[128]; /* cuDeviceGetName: tuned choices are kept per GPU model */
  int l2_bytes;          /* the autotuner flushes twice this before each timed call */
  pthread_mutex_t flush_lock; /* the autotuner's L2 flush kernel, built at its first use: */
  CUmodule flush_module;
  CUfunction flush_fn;
  int flush_failed;
  cache_kernel_table *kernels;
  cache_disk *disk;       /* NULL: disk cache disabled */
  cache_stats stats;
  char compiler[256];     /* the compiler a build tries first (engine/build.h), for entries and logs */
  char driver_id[32];     /* "driver <version>": the identity of a cubin the driver JIT built */
  tcj_alloc_fn alloc;     /* the caller's scratch allocator (tcj_options), or NULL */
  tcj_free_fn free;
  void *alloc_ctx;
  eng_workspace ws;       /* tcj_set_workspace's region (engine/scratch.h) */
  eng_kept_scratch kept;  /* the region tcj keeps for one stream's calls (engine/scratch.h) */
};

/* Makes e->ctx current on this thread if it is not; *pushed says whether to pop. */
tcj_status eng_ctx_enter(tcj_engine *e, int *pushed);
void eng_ctx_leave(tcj_engine *e, int pushed);

/* tcj_create as if TCJ_TUNE=1 were set, without reading or writing the variable: the engine
 * tunes (unless TCJ_RECIPE, TCJ_TILE or generic kernels force a choice, or the driver cannot
 * time). For tcj-warmup --tune (engine/tools_api.h). */
tcj_status eng_create_tuned(tcj_engine **engine, const tcj_options *opts);

/* The memo key of the kernel that runs cfg: the text of tcj_cfg_kernel_form(cfg) (a split's
 * slice count is a launch value, not part of the kernel). Returns the length, or -1 when it does
 * not fit. */
int eng_kernel_text(const tcj_kernel_cfg *cfg, char *buf, size_t size);

/* 1 and *out when the kernel whose text (eng_kernel_text) is kernel_text, of hash
 * cache_kernel_table_hash(kernel_text), is loaded (a memo hit, counted), else 0: nothing is built. */
int eng_kernel_loaded(tcj_engine *e, const char *kernel_text, uint64_t hash, cache_kernel *out);

/* 1 and *out when the kernel that runs cfg is loaded or in the disk cache (then loaded), else 0:
 * nothing is compiled, no error is set. Needs the engine's context current. */
int eng_kernel_cached(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, cache_kernel *out);

/* The loaded kernel that runs cfg (tcj_cfg_kernel_form): memo hit, else the disk cache, else generate, compile, load,
 * publish to disk and memoise. *compiled (may be NULL) says whether it was compiled. Needs
 * the engine's context current. */
tcj_status eng_kernel_get(tcj_engine *e, const tcj_kernel_cfg *cfg, cache_kernel *out, int *compiled);
/* The same for a config with a user epilogue, whose source (compiled by NVRTC only when the
 * kernel is not cached) the config names by hash. user_source may be NULL for other configs. */
tcj_status eng_kernel_get_user(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source, cache_kernel *out,
                               int *compiled);

#endif
