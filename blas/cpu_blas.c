/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU BLAS that small calls go to, found once at run time: the configured library (dlopen),
 * else the next definition after libtcjblas in the process (RTLD_NEXT: libtcjblas LD_PRELOADed
 * ahead of OpenBLAS, MKL, ...), else the built-in reference with a warning. Every routine is
 * looked up by name from one table: "<t><name>_" and "<t><name>_64_" for each of its types. */
#include "blas/tcjblas_l3.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

/* Indexed by TB_CPU_GEMM and TB_CPU_L3(op). */
static const struct { const char *name; int complex_only; } routines[TB_CPU_ROUTINES] = {
  [TB_CPU_GEMM] = {"gemm", 0},
#define TB_CPU_ROW(name, NAME, SHAPE, CPLX) [TB_CPU_L3(TB_##NAME)] = {#name, CPLX},
  TB_L3_OPS(TB_CPU_ROW)
#undef TB_CPU_ROW
};

/* gfortran's ABI for GEMM: everything by reference, then the two CHARACTER lengths. */
typedef void (*gemm32_fn)(const char *, const char *, const int *, const int *, const int *,
                          const void *, const void *, const int *, const void *, const int *,
                          const void *, void *, const int *, size_t, size_t);
typedef void (*gemm64_fn)(const char *, const char *, const int64_t *, const int64_t *,
                          const int64_t *, const void *, const void *, const int64_t *,
                          const void *, const int64_t *, const void *, void *, const int64_t *,
                          size_t, size_t);

static struct {
  tb_fn f32[TB_CPU_ROUTINES][4], f64[TB_CPU_ROUTINES][4];
  char from[sizeof ((tb_config *)0)->cpu_blas + 64]; /* where they came from, for messages */
  int found;                                           /* any of them */
} cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

/* "dsyrk_" or "dsyrk_64_". */
static void symbol_name(char *out, size_t size, int routine, tb_type t, int ilp64) {
  snprintf(out, size, "%c%s_%s", "sdcz"[t], routines[routine].name, ilp64 ? "64_" : "");
}

/* A symbol of libtcjblas itself would call us back forever: a configured path naming this
 * library, or (defensively) RTLD_NEXT finding it again. */
static int is_ours(void *sym) {
  Dl_info mine, theirs;
  if (!dladdr((void *)&tb_cpu_gemm, &mine) || !dladdr(sym, &theirs)) return 0;
  return mine.dli_fbase == theirs.dli_fbase;
}

/* One symbol of `lib`, NULL when it lacks it or it is ours (*refused set). */
static tb_fn take(void *lib, int routine, tb_type t, int ilp64, int *refused) {
  char name[32];
  symbol_name(name, sizeof name, routine, t, ilp64);
  void *sym = dlsym(lib, name);
  tb_fn f = NULL;
  if (sym && is_ours(sym)) *refused = 1;
  else *(void **)&f = sym;
  return f;
}

/* FlexiBLAS calls its backend's __flexiblas_initialize (FLEXIBLAS_INIT_FUNCTION_NAME in its
 * flexiblas_backend.h) when it loads it: then libtcjblas is what FlexiBLAS's own dgemm_ ...
 * forward to, and FlexiBLAS cannot be our CPU BLAS (it would call us back forever). */
static atomic_int flexiblas_backend;
TB_EXPORT int __flexiblas_initialize(void) {
  atomic_store(&flexiblas_backend, 1);
  return 0;
}

/* Is the object that defines `sym` FlexiBLAS (libflexiblas exports flexiblas_avail)? */
static int is_flexiblas(void *sym) {
  Dl_info info;
  if (!sym || !dladdr(sym, &info) || !info.dli_fname) return 0;
  void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return 0;
  int yes = dlsym(h, "flexiblas_avail") != NULL;
  dlclose(h);
  return yes;
}

/* 1 when at least one routine was taken from `lib`. */
static int take_from(void *lib) {
  int took = 0, refused = 0;
  for (int r = 0; r < TB_CPU_ROUTINES; r++)
    for (int t = routines[r].complex_only ? TB_C : TB_S; t <= TB_Z; t++) {
      cpu.f32[r][t] = take(lib, r, (tb_type)t, 0, &refused);
      cpu.f64[r][t] = take(lib, r, (tb_type)t, 1, &refused);
      took |= cpu.f32[r][t] || cpu.f64[r][t];
    }
  if (refused && !took) tb_msg("the CPU BLAS %s is libtcjblas itself (ignored)", cpu.from);
  if (took && atomic_load(&flexiblas_backend) && is_flexiblas(dlsym(lib, "dgemm_"))) {
    tb_msg("the CPU BLAS %s is FlexiBLAS, whose backend is libtcjblas itself (ignored): set "
           "TCJBLAS_CPU_BLAS to a BLAS library proper, such as OpenBLAS", cpu.from);
    memset(cpu.f32, 0, sizeof cpu.f32), memset(cpu.f64, 0, sizeof cpu.f64);
    took = 0;
  }
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

/* Why the reference runs: said once, naming what is missing. */
static void warn_reference(int routine, tb_type t) {
  char call[32], missing[32];
  symbol_name(call, sizeof call, routine, t, 0);
  symbol_name(missing, sizeof missing, routine, t, cpu.f32[routine][t] != NULL);
  if (!cpu.found && atomic_load(&flexiblas_backend))
    tb_msg_once(&warned_none, "no CPU BLAS found: libtcjblas runs as a FlexiBLAS backend, where "
                              "it cannot see FlexiBLAS's other libraries; set TCJBLAS_CPU_BLAS or "
                              "cpu_blas in tcjblas.conf (a BLAS library such as OpenBLAS, not "
                              "FlexiBLAS): calls that stay on the CPU use the built-in reference "
                              "BLAS, which is slow");
  else if (!cpu.found)
    tb_msg_once(&warned_none, "no CPU BLAS found (set TCJBLAS_CPU_BLAS or cpu_blas in tcjblas.conf, "
                              "or LD_PRELOAD libtcjblas ahead of one): calls that stay on the CPU "
                              "use the built-in reference BLAS, which is slow");
  else
    tb_msg_once(&warned_missing, "the CPU BLAS (%s) cannot take this %s call (%s missing, or sizes "
                                 "past 32 bits): the built-in reference runs it",
                cpu.from, call, missing);
}

/* The call this thread has in flight in the CPU BLAS. The same call coming back to us while it
 * is (same routine, type, sizes and arrays) means the CPU BLAS forwards to libtcjblas (FlexiBLAS
 * with libtcjblas as its backend, a libblas.so.3 that is a dispatcher, ...): without this guard
 * the two would call each other until the stack overflows. Then the CPU BLAS is dropped and the
 * built-in reference runs the call; a CPU BLAS's own nested calls (another routine, or other
 * sizes) go through. */
static _Thread_local tb_cpu_call *in_flight;
static atomic_int looped, warned_loop;

static int same_call(const tb_cpu_call *x, const tb_cpu_call *y) {
  return x->routine == y->routine && x->type == y->type && x->m == y->m && x->n == y->n &&
         x->k == y->k && x->a == y->a && x->b == y->b && x->c == y->c;
}

tb_fn tb_cpu_begin(tb_cpu_call *call, int want64, int fits_int, int *ilp64) {
  tb_fn f = NULL;
  if (in_flight && same_call(in_flight, call)) {
    atomic_store(&looped, 1);
    in_flight->came_back = 1;
    tb_msg_once(&warned_loop, "the CPU BLAS (%s) calls libtcjblas back with the same call%s: "
                              "it is dropped, and the built-in reference runs the calls that "
                              "stay on the CPU (slow); set TCJBLAS_CPU_BLAS to a BLAS library "
                              "proper, such as OpenBLAS", cpu.from,
                atomic_load(&flexiblas_backend) ? " (FlexiBLAS, whose backend is libtcjblas)" : "");
  } else if (!atomic_load(&looped)) {
    f = tb_cpu_fn(call->routine, call->type, want64, fits_int, ilp64);
  }
  if (!f) {
    tb_report_ran(TB_RAN_BUILT_IN);
    return NULL;
  }
  call->outer = in_flight;
  in_flight = call;
  return f;
}

void tb_cpu_end(tb_cpu_call *call) {
  in_flight = call->outer;
  if (!call->came_back) tb_report_ran(TB_RAN_CPU_BLAS);
}

tb_fn tb_cpu_fn(int routine, tb_type type, int want64, int fits_int, int *ilp64) {
  pthread_once(&cpu_once, resolve_once);
  tb_fn f32 = cpu.f32[routine][type], f64 = cpu.f64[routine][type];
  int f32_takes_it = f32 && fits_int;
  /* A 64-bit entry prefers the library's 64-bit symbol; a 32-bit one its own kind. */
  *ilp64 = f64 && (want64 || !f32_takes_it);
  if (*ilp64) return f64;
  if (f32_takes_it) return f32;
  warn_reference(routine, type);
  return NULL;
}

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

void tb_cpu_gemm(const tb_gemm *g) {
  int ilp64;
  tb_cpu_call call = {.routine = TB_CPU_GEMM, .type = g->type, .m = g->m, .n = g->n, .k = g->k, .a = g->a, .b = g->b, .c = g->c};
  tb_fn f = tb_cpu_begin(&call, g->ilp64, fits_int(g), &ilp64);
  if (!f) {
    tb_ref_gemm(g);
    return;
  }
  if (ilp64) call64((gemm64_fn)f, g);
  else call32((gemm32_fn)f, g);
  tb_cpu_end(&call);
}
