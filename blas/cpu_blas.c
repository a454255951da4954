/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU BLAS that small calls go to, found once at run time: the configured library (dlopen),
 * else the next definition after libtcjblas in the process (RTLD_NEXT: libtcjblas LD_PRELOADed
 * ahead of OpenBLAS, MKL, ...), else the built-in reference GEMM with a warning. */
#include "blas/tcjblas_internal.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>

/* gfortran's ABI: everything by reference, then the two CHARACTER lengths. */
typedef void (*gemm32_fn)(const char *, const char *, const int *, const int *, const int *,
                          const void *, const void *, const int *, const void *, const int *,
                          const void *, void *, const int *, size_t, size_t);
typedef void (*gemm64_fn)(const char *, const char *, const int64_t *, const int64_t *,
                          const int64_t *, const void *, const void *, const int64_t *,
                          const void *, const int64_t *, const void *, void *, const int64_t *,
                          size_t, size_t);

static const char *const names32[] = {[TB_S] = "sgemm_", [TB_D] = "dgemm_", [TB_C] = "cgemm_", [TB_Z] = "zgemm_"};
static const char *const names64[] = {[TB_S] = "sgemm_64_", [TB_D] = "dgemm_64_", [TB_C] = "cgemm_64_", [TB_Z] = "zgemm_64_"};

static struct {
  gemm32_fn g32[4];
  gemm64_fn g64[4];
  char from[sizeof ((tb_config *)0)->cpu_blas + 64]; /* where they came from, for messages */
  int found;                                           /* any of them */
} cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

/* A symbol of libtcjblas itself would call us back forever: a configured path naming this
 * library, or (defensively) RTLD_NEXT finding it again. */
static int is_ours(void *sym) {
  Dl_info mine, theirs;
  if (!dladdr((void *)&tb_cpu_gemm, &mine) || !dladdr(sym, &theirs)) return 0;
  return mine.dli_fbase == theirs.dli_fbase;
}

/* 1 when at least one xGEMM was taken from `lib`. */
static int take_from(void *lib) {
  int took = 0, refused = 0;
  for (int t = TB_S; t <= TB_Z; t++) {
    void *f32 = dlsym(lib, names32[t]), *f64 = dlsym(lib, names64[t]);
    if (f32 && is_ours(f32)) f32 = NULL, refused = 1;
    if (f64 && is_ours(f64)) f64 = NULL, refused = 1;
    *(void **)&cpu.g32[t] = f32;
    *(void **)&cpu.g64[t] = f64;
    took |= f32 || f64;
  }
  if (refused && !took) tb_msg("the CPU BLAS %s is libtcjblas itself (ignored)", cpu.from);
  return took;
}

static void resolve_once(void) {
  const tb_config *cfg = tb_config_get();
  if (cfg->cpu_blas[0]) {
    snprintf(cpu.from, sizeof cpu.from, "%s", cfg->cpu_blas);
    /* RTLD_LOCAL: its symbols must not take the place of ours for anyone else. */
    void *lib = dlopen(cfg->cpu_blas, RTLD_NOW | RTLD_LOCAL);
    if (!lib) tb_msg("cannot open the CPU BLAS %s: %s", cfg->cpu_blas, dlerror());
    else if ((cpu.found = take_from(lib))) return;
    else if (!dlsym(lib, "dgemm_")) tb_msg("the CPU BLAS %s has no xgemm_ symbols (ignored)", cfg->cpu_blas);
  }
  snprintf(cpu.from, sizeof cpu.from, "the next library in the process (RTLD_NEXT)");
  cpu.found = take_from(RTLD_NEXT);
}

static atomic_int warned_none, warned_missing;

static void call32(gemm32_fn f, const tb_gemm *g) {
  int m = (int)g->m, n = (int)g->n, k = (int)g->k;
  int lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc;
  f(&g->ta, &g->tb, &m, &n, &k, g->alpha, g->a, &lda, g->b, &ldb, g->beta, g->c, &ldc, 1, 1);
}

static void call64(gemm64_fn f, const tb_gemm *g) {
  f(&g->ta, &g->tb, &g->m, &g->n, &g->k, g->alpha, g->a, &g->lda, g->b, &g->ldb, g->beta, g->c,
    &g->ldc, 1, 1);
}

static int fits_int(const tb_gemm *g) {
  return g->m <= INT_MAX && g->n <= INT_MAX && g->k <= INT_MAX && g->lda <= INT_MAX &&
         g->ldb <= INT_MAX && g->ldc <= INT_MAX;
}

/* Why the reference runs: said once, naming what is missing. */
static void warn_reference(const tb_gemm *g) {
  if (!cpu.found)
    tb_msg_once(&warned_none, "no CPU BLAS found (set TCJBLAS_CPU_BLAS or cpu_blas in tcjblas.conf, "
                              "or LD_PRELOAD libtcjblas ahead of one): calls that stay on the CPU "
                              "use the built-in reference GEMM, which is slow");
  else
    tb_msg_once(&warned_missing, "the CPU BLAS (%s) cannot take this %s call (%s missing, or sizes "
                                 "past 32 bits): the built-in reference GEMM runs it",
                cpu.from, names32[g->type], cpu.g32[g->type] ? names64[g->type] : names32[g->type]);
}

void tb_cpu_gemm(const tb_gemm *g) {
  pthread_once(&cpu_once, resolve_once);
  gemm32_fn f32 = cpu.g32[g->type];
  gemm64_fn f64 = cpu.g64[g->type];
  /* A 64-bit entry prefers the library's 64-bit symbol; a 32-bit one its own kind. */
  if (g->ilp64 && f64) {
    call64(f64, g);
  } else if (f32 && fits_int(g)) {
    call32(f32, g);
  } else if (f64) {
    call64(f64, g);
  } else {
    warn_reference(g);
    tb_ref_gemm(g);
  }
}
