/* SPDX-License-Identifier: Apache-2.0 */
/* tcj_create / tcj_destroy: open the driver, bind to a context, read the device caps that
 * selection needs, and own the kernel memo. Layer: an entry point; it calls the files below it
 * (autotune.c, tiering.c, build.c, ...), none calls it. */
#include "engine/engine.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/error.h"
#include "engine/log.h"

static void unload_module(void *module, void *ctx) {
  tcj_engine *e = ctx;
  e->cu->cuModuleUnload((CUmodule)module);
}

static tcj_status read_caps(tcj_engine *e) {
  static const struct { CUdevice_attribute attr; const char *name; } attrs[] = {
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR"},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR"},
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT"},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"},
  };
  int v[4];
  for (int i = 0; i < 4; i++) {
    CUresult r = e->cu->cuDeviceGetAttribute(&v[i], attrs[i].attr, e->dev);
    if (r != CUDA_SUCCESS)
      return eng_set_error(TCJ_ERROR_CUDA, "cuDeviceGetAttribute(%s): %s", attrs[i].name, eng_cuda_error_name(r));
  }
  e->caps.sm = 10 * v[0] + v[1];
  /* wgmma and setmaxnreg exist only on the arch-specific sm_90a target. */
  e->caps.arch_suffix = e->caps.sm == 90 ? 'a' : 0;
  e->caps.sm_count = v[2];
  e->caps.max_smem_optin = v[3];
  CUresult r = e->cu->cuDeviceGetName(e->device_name, (int)sizeof e->device_name, e->dev);
  if (r != CUDA_SUCCESS) return eng_set_error(TCJ_ERROR_CUDA, "cuDeviceGetName: %s", eng_cuda_error_name(r));
  if (e->cu->cuDeviceGetAttribute(&e->l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, e->dev) != CUDA_SUCCESS)
    e->l2_bytes = 0; /* only the autotuner's timing uses it: it then times without flushing */
  return TCJ_SUCCESS;
}

static tcj_status bind_context(tcj_engine *e) {
  CUcontext cur = NULL;
  CUresult r = e->cu->cuCtxGetCurrent(&cur);
  if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuCtxGetCurrent");
  if (cur) {
    e->ctx = cur;
    if ((r = e->cu->cuCtxGetDevice(&e->dev)) != CUDA_SUCCESS) return eng_cuda_error(r, "cuCtxGetDevice");
    return TCJ_SUCCESS;
  }
  int count = 0;
  if ((r = e->cu->cuDeviceGetCount(&count)) != CUDA_SUCCESS) return eng_cuda_error(r, "cuDeviceGetCount");
  if (count == 0) return eng_set_error(TCJ_ERROR_NO_DEVICE, "the CUDA driver reports no device");
  if ((r = e->cu->cuDeviceGet(&e->dev, 0)) != CUDA_SUCCESS) return eng_cuda_error(r, "cuDeviceGet");
  if ((r = e->cu->cuDevicePrimaryCtxRetain(&e->ctx, e->dev)) != CUDA_SUCCESS)
    return eng_cuda_error(r, "cuDevicePrimaryCtxRetain");
  e->retained_primary = 1;
  return TCJ_SUCCESS;
}

static void warn_to_log(void *ctx, const char *message) {
  tcj_engine *e = ctx;
  eng_log(e->log, ENG_LOG_WARN, "%s", message);
}

/* The disk cache from options and environment; a bad directory is not an error (calls run
 * from memory, with one warning), a malformed variable is. */
static tcj_status open_disk_cache(tcj_engine *e, const tcj_options *opts) {
  int driver_version = 0;
  e->cu->cuDriverGetVersion(&driver_version);
  eng_compiler_identity(e->force_driver_jit, driver_version, e->compiler, sizeof e->compiler);
  eng_compiler_identity(1, driver_version, e->driver_id, sizeof e->driver_id);
  cache_disk_config cfg;
  char buf[4096];
  const char *why = NULL;
  /* Options first: a disabled cache reads no variable, a named directory builds no default. */
  if (opts->disable_disk_cache) return TCJ_SUCCESS;
  int r = cache_disk_config_with_dir(&cfg, opts->cache_dir, buf, sizeof buf, &why);
  if (r < 0) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s", why);
  if (r > 0) return TCJ_SUCCESS;
  if (!(e->disk = cache_disk_open(&cfg, &e->stats))) return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
  cache_disk_set_warn(e->disk, warn_to_log, e);
  return TCJ_SUCCESS;
}

/* Sizes of the structs as tcj 0.1 shipped them: no caller's struct_size is smaller. */
#define OPTIONS_V1_SIZE (offsetof(tcj_options, disable_disk_cache) + sizeof(int))
#define STATS_V1_SIZE (offsetof(tcj_stats, write_failures) + sizeof(uint64_t))

/* A struct_size of 0 is a struct zeroed and never initialised: before 1.0 it meant the 0.1
 * layout, so that fields set after the memset were dropped (options) or never filled (stats)
 * without a word. Refused, as is any size below the first layout. */
static tcj_status check_struct_size(const char *what, size_t size, size_t v1_size, const char *init) {
  if (size == 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s.struct_size = 0: start from %s_INIT or %s_init() (a zeroed "
                         "struct needs struct_size = sizeof(%s))",
                         what, init, what, what);
  if (size < v1_size)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s.struct_size = %zu is below the first %s's %zu bytes: start "
                         "from %s_INIT or %s_init()", what, size, what, v1_size, init, what);
  return TCJ_SUCCESS;
}

/* The initialisers of tcj.h for callers without the C macros: never past the caller's size. */
static tcj_status init_struct(void *s, size_t size, size_t v1_size, const char *what) {
  if (!s) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is NULL", what);
  if (size < v1_size)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "struct_size = %zu is below the first %s's %zu bytes: pass the size "
                         "of the struct as declared (sizeof, or the binding's layout)", size, what, v1_size);
  memset(s, 0, size);
  memcpy(s, &size, sizeof size); /* struct_size, the first field */
  return TCJ_SUCCESS;
}

tcj_status tcj_options_init(tcj_options *opts, size_t struct_size) {
  return init_struct(opts, struct_size, OPTIONS_V1_SIZE, "tcj_options");
}

tcj_status tcj_stats_init(tcj_stats *stats, size_t struct_size) {
  return init_struct(stats, struct_size, STATS_V1_SIZE, "tcj_stats");
}

int tcj_version(void) { return TCJ_VERSION; }

/* tcj_options.jit_mode over TCJ_JIT (already read and checked by eng_tuning_from_env, which
 * sets tuning->generic), else async; sync where TCJ_RECIPE or TCJ_TILE forces a kernel (a
 * measurement of that kernel, which a generic one must not stand in for). The engine's mode, or
 * 0 with the error set. */
static int jit_mode_in(tcj_engine *e, int mode) {
  if (mode == TCJ_JIT_DEFAULT) { /* the variable, which eng_tuning_from_env has checked */
    mode = eng_jit_mode_parse(getenv("TCJ_JIT"));
    if (mode == TCJ_JIT_DEFAULT) mode = e->tuning.recipe || e->tuning.tile.valid ? TCJ_JIT_SYNC : TCJ_JIT_ASYNC;
  }
  if (mode != TCJ_JIT_SYNC && mode != TCJ_JIT_GENERIC && mode != TCJ_JIT_ASYNC) {
    eng_set_error(TCJ_ERROR_INVALID_VALUE, "options.jit_mode = %d is not a tcj_jit_mode", mode);
    return 0;
  }
  e->tuning.generic = mode == TCJ_JIT_GENERIC;
  e->jit_async = mode == TCJ_JIT_ASYNC;
  return 1;
}

/* The caller's options in this library's layout: fields past the caller's size are zero. */
static tcj_status options_in(const tcj_options *in, tcj_options *out) {
  memset(out, 0, sizeof *out);
  out->struct_size = sizeof *out;
  if (!in) return TCJ_SUCCESS;
  tcj_status st = check_struct_size("tcj_options", in->struct_size, OPTIONS_V1_SIZE, "TCJ_OPTIONS");
  if (st != TCJ_SUCCESS) return st;
  size_t size = in->struct_size;
  /* A newer caller may set fields this library does not know: refuse rather than ignore. */
  for (size_t i = sizeof *out; i < size; i++)
    if (((const unsigned char *)in)[i])
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED,
                           "options.struct_size = %zu sets fields that tcj %d.%d.%d (%zu bytes of options) does not know",
                           in->struct_size, TCJ_VERSION_MAJOR, TCJ_VERSION_MINOR, TCJ_VERSION_PATCH, sizeof *out);
  memcpy((char *)out + sizeof out->struct_size, (const char *)in + sizeof in->struct_size,
         (size < sizeof *out ? size : sizeof *out) - sizeof in->struct_size);
  return TCJ_SUCCESS;
}

tcj_status tcj_get_stats(const tcj_engine *e, tcj_stats *stats) {
  if (!stats) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "stats is NULL");
  tcj_status st = check_struct_size("tcj_stats", stats->struct_size, STATS_V1_SIZE, "TCJ_STATS");
  if (st != TCJ_SUCCESS) return st;
  if (!e) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine is NULL");
  tcj_engine *m = (tcj_engine *)e; /* atomics are read through a non-const lvalue */
  tcj_stats all, *out = &all;
  out->memory_hits = atomic_load(&m->stats.memory_hits);
  out->disk_hits = atomic_load(&m->stats.disk_hits);
  out->disk_misses = atomic_load(&m->stats.disk_misses);
  out->bad_entries = atomic_load(&m->stats.bad_entries);
  out->compiles = atomic_load(&m->stats.compiles);
  out->compile_ns = atomic_load(&m->stats.compile_ns);
  out->bytes_written = atomic_load(&m->stats.bytes_written);
  out->evictions = atomic_load(&m->stats.evictions);
  out->write_failures = atomic_load(&m->stats.write_failures);
  out->compiles_background = atomic_load(&m->stats.compiles_background);
  out->generic_launches = atomic_load(&m->stats.generic_launches);
  out->swaps = atomic_load(&m->stats.swaps);
  size_t size = stats->struct_size < sizeof all ? stats->struct_size : sizeof all;
  memcpy((char *)stats + sizeof all.struct_size, (char *)&all + sizeof all.struct_size, size - sizeof all.struct_size);
  return TCJ_SUCCESS;
}

/* tcj_create; tune: as if TCJ_TUNE=1 (the variable is not read). */
static tcj_status create(tcj_engine **out, const tcj_options *opts, int tune) {
  if (!out) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine out-pointer is NULL");
  *out = NULL;
  tcj_options given;
  tcj_status st = options_in(opts, &given);
  if (st != TCJ_SUCCESS) return st;
  opts = &given;
  eng_device_caps forced = {0};
  if (opts->arch && eng_caps_for_arch(opts->arch, &forced) != 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "options.arch = \"%s\" is not a known arch (sm_80, sm_86, sm_87, sm_89, sm_90[a], sm_100[a], sm_120[a])", opts->arch);
  const char *why = NULL;
  const eng_cuda_api *cu = eng_cuda_load(&why);
  if (!cu) return eng_set_error(TCJ_ERROR_NO_DEVICE, "%s", why);

  tcj_engine *e = calloc(1, sizeof *e);
  if (!e) return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
  e->cu = cu;
  eng_kept_scratch_init(&e->kept);
  eng_workspace_init(&e->ws);
  eng_tuned_memo_init(&e->tuned);
  eng_tier_init(&e->tiering);
  pthread_mutex_init(&e->flush_lock, NULL);
  st = bind_context(e);
  if (st != TCJ_SUCCESS) goto fail;
  if ((st = read_caps(e)) != TCJ_SUCCESS) goto fail;
  if (opts->arch) {
    e->caps.sm = forced.sm;
    e->caps.arch_suffix = forced.arch_suffix;
  }
  snprintf(e->arch, sizeof e->arch, "sm_%d%s", e->caps.sm, e->caps.arch_suffix ? "a" : "");
  e->force_driver_jit = opts->force_driver_jit != 0;
  if (!opts->alloc != !opts->free) {
    st = eng_set_error(TCJ_ERROR_INVALID_VALUE, "options.alloc and options.free go together: %s is NULL",
                       opts->alloc ? "free" : "alloc");
    goto fail;
  }
  e->alloc = opts->alloc;
  e->free = opts->free;
  e->alloc_ctx = opts->alloc_ctx;
  e->allow_packing = !opts->disable_packing;
  const char *dump = getenv("TCJ_DUMP_PTX");
  e->log = eng_log_level_from_env();
  if (dump && *dump && !(e->dump_dir = strdup(dump))) {
    st = eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
    goto fail;
  }
  if ((why = eng_tuning_from_env(&e->tuning)) != NULL) {
    st = eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s", why);
    goto fail;
  }
  if (tune) {
    e->autotune = 1;
  } else if (eng_autotune_from_env(&e->autotune) != 0) {
    st = eng_set_error(TCJ_ERROR_INVALID_VALUE, "TCJ_TUNE=\"%.64s\" is not 1 or 0", getenv("TCJ_TUNE"));
    goto fail;
  }
  if (!jit_mode_in(e, opts->jit_mode)) {
    st = TCJ_ERROR_INVALID_VALUE;
    goto fail;
  }
  /* A forced recipe or tile is a measurement of that choice: nothing may replace it; generic
   * kernels are chosen from few, not tuned per shape. */
  if (e->tuning.recipe || e->tuning.tile.valid || e->tuning.generic) e->autotune = 0;
  /* The autotuner times candidates at a class's first call, in the caller's thread: with it,
   * classes run their tuned kernels from the first call, as in sync mode. */
  if (e->autotune && e->jit_async) {
    eng_log(e->log, ENG_LOG_INFO, "TCJ_TUNE=1 tunes in the caller's thread: TCJ_JIT=async runs as sync");
    e->jit_async = 0;
  }
  if (e->autotune && !eng_autotune_driver_ok(e->cu)) {
    eng_log(e->log, ENG_LOG_WARN, "TCJ_TUNE=1: the CUDA driver lacks the event calls the tuner times with (CUDA "
            "12.8 or newer); the time model's choices run");
    e->autotune = 0;
  }
  if ((why = eng_recipe_check(e->tuning.recipe, &e->caps)) != NULL) {
    st = eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "TCJ_RECIPE=sm90: %s; this engine compiles for %s", why,
                       e->arch);
    goto fail;
  }
  if (!(e->kernels = cache_kernel_table_create(unload_module, e))) {
    st = eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
    goto fail;
  }
  if ((st = open_disk_cache(e, opts)) != TCJ_SUCCESS) goto fail;
  *out = e;
  return TCJ_SUCCESS;
fail:
  tcj_destroy(e);
  return st;
}

tcj_status tcj_create(tcj_engine **out, const tcj_options *opts) { return create(out, opts, 0); }

tcj_status eng_create_tuned(tcj_engine **out, const tcj_options *opts) { return create(out, opts, 1); }

void tcj_destroy(tcj_engine *e) {
  if (!e) return;
  /* First: the worker uses the kernel table, the disk cache and the context. */
  eng_tier_shutdown(&e->tiering);
  if (e->log >= ENG_LOG_INFO && e->kernels) {
    tcj_stats s = TCJ_STATS_INIT;
    tcj_get_stats(e, &s);
    eng_log(e->log, ENG_LOG_INFO,
            "cache: memory_hits=%llu disk_hits=%llu disk_misses=%llu bad_entries=%llu compiles=%llu "
            "(background %llu) compile_ms=%.1f bytes_written=%llu evictions=%llu write_failures=%llu "
            "generic_launches=%llu swaps=%llu (%s)",
            (unsigned long long)s.memory_hits, (unsigned long long)s.disk_hits, (unsigned long long)s.disk_misses,
            (unsigned long long)s.bad_entries, (unsigned long long)s.compiles,
            (unsigned long long)s.compiles_background, s.compile_ns / 1e6, (unsigned long long)s.bytes_written,
            (unsigned long long)s.evictions, (unsigned long long)s.write_failures,
            (unsigned long long)s.generic_launches, (unsigned long long)s.swaps, e->disk && cache_disk_dir(e->disk) ? cache_disk_dir(e->disk) : "no disk cache");
  }
  cache_disk_close(e->disk);
  {
    int pushed = 0;
    /* Modules and the kept scratch belong to e->ctx: release them with it current. */
    int entered = e->ctx && eng_ctx_enter(e, &pushed) == TCJ_SUCCESS;
    if (e->kernels) cache_kernel_table_destroy(e->kernels);
    if (e->flush_module && entered) e->cu->cuModuleUnload(e->flush_module);
    eng_kept_scratch_free(entered ? e->cu : NULL, &e->kept);
    if (entered) eng_ctx_leave(e, pushed);
  }
  if (e->retained_primary) e->cu->cuDevicePrimaryCtxRelease(e->dev);
  eng_tuned_memo_free(&e->tuned);
  eng_workspace_destroy(&e->ws);
  pthread_mutex_destroy(&e->flush_lock);
  free(e->dump_dir);
  free(e);
}
