/* cfg -> loaded kernel: memo lookup, else PTX generation, compilation (nvJitLink, else the
 * driver), cuModuleLoadData and publication in the memo. Racing threads may both compile;
 * the memo keeps one module and the loser unloads its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/jit.h"
#include "ptxgen/ptxgen.h"

#define KEY_MAX 256

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
  snprintf(path, sizeof path, "%s/%s.ptx", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(ptx, 1, len, f) != len) fprintf(stderr, "tcj: TCJ_DUMP_PTX: cannot write %s\n", path);
  if (f) fclose(f);
}

/* PTX -> loaded module. nvJitLink first (unless forced off); when its cubin does not load
 * (e.g. a toolkit newer than the driver), the driver compiles the PTX itself. */
static tcj_status build_module(tcj_engine *e, const char *ptx, size_t len, CUmodule *mod,
                               const char **compiler) {
  char err[ENG_ERROR_MAX];
  eng_cubin bin;
  tcj_status st;
  CUresult r;
  if (!e->force_driver_jit) {
    *compiler = "nvJitLink";
    st = eng_jit_compile_nvjitlink(ptx, len, e->arch, &bin, err, sizeof err);
    if (st == TCJ_SUCCESS) {
      r = e->cu->cuModuleLoadData(mod, bin.data);
      eng_cubin_free(&bin);
      if (r == CUDA_SUCCESS) return TCJ_SUCCESS;
    } else if (st != TCJ_ERROR_NOT_SUPPORTED) { /* NOT_SUPPORTED: no nvJitLink here */
      return eng_set_error(st, "%s", err);
    }
  }
  *compiler = "driver";
  st = eng_jit_compile_driver(ptx, len, &bin, err, sizeof err);
  if (st != TCJ_SUCCESS) return eng_set_error(st, "%s", err);
  r = e->cu->cuModuleLoadData(mod, bin.data);
  eng_cubin_free(&bin);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuModuleLoadData");
}

tcj_status eng_kernel_get(tcj_engine *e, const tcj_kernel_cfg *cfg, cache_kernel *out) {
  char key[KEY_MAX];
  if (tcj_cfg_format(cfg, key, sizeof key) < 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "kernel config text exceeds %d bytes", KEY_MAX);
  if (cache_kernel_table_find(e->kernels, key, out)) return TCJ_SUCCESS;

  double t0 = now_ms();
  char *ptx = NULL;
  size_t len = 0;
  char err[ENG_ERROR_MAX];
  if (ptx_gen_gemm(cfg, &ptx, &len, err, sizeof err) != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "ptxgen (%s): %s", key, err);
  if (e->dump_dir) dump_ptx(e->dump_dir, key, ptx, len);

  CUmodule mod = NULL;
  const char *compiler = "";
  tcj_status st = build_module(e, ptx, len, &mod, &compiler);
  free(ptx);
  if (st != TCJ_SUCCESS) return st;

  CUfunction fn = NULL;
  int smem = tcj_cfg_smem_bytes(cfg);
  CUresult r = e->cu->cuModuleGetFunction(&fn, mod, PTX_GEMM_ENTRY);
  if (r != CUDA_SUCCESS) {
    st = eng_cuda_error(r, "cuModuleGetFunction(" PTX_GEMM_ENTRY ")");
    goto fail;
  }
  /* Above 48 KiB, dynamic shared memory must be opted in per function. */
  r = e->cu->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  if (r != CUDA_SUCCESS) {
    st = eng_cuda_error(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
    goto fail;
  }
  cache_kernel k = {mod, fn, tcj_cfg_threads(cfg), smem, cfg->bm, cfg->bn};
  int ins = cache_kernel_table_insert(e->kernels, key, &k, out);
  if (ins < 0) {
    st = eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
    goto fail;
  }
  if (ins == 0) e->cu->cuModuleUnload(mod); /* another thread published first */
  if (e->log)
    fprintf(stderr, "tcj: compiled %s for %s via %s in %.1f ms\n", key, e->arch, compiler, now_ms() - t0);
  return TCJ_SUCCESS;
fail:
  e->cu->cuModuleUnload(mod);
  return st;
}
