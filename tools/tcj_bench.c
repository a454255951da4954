/* tcj-bench: the main job. With a GPU: tcj_gemm against cuBLAS on the same buffers and stream,
 * a correctness check (relative Frobenius error), the cold first call (JIT compile included)
 * and median speed. Without one: select, generate and compile (nvJitLink) the same problems'
 * kernels for the given arches, with their resource reports. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/jit.h"
#include "engine/select.h"
#include "engine/warm.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "tools/host_half.h"
#include "tcj.h"

#define MAX_ARCHS 8
#define WARMUP 3
#define MIN_RUNS 20
#define MAX_RUNS 200
#define RUN_BUDGET_S 0.25 /* per library and problem, once MIN_RUNS are done */
#define MAX_SETS 8        /* buffer sets rotated so that small problems do not run from L2 */

static const char USAGE[] =
    "usage: tcj-bench [--quick] [--arch ARCH]... [--offline] [--help]\n"
    "  With a GPU: runs each problem through tcj_gemm and cuBLAS on the same buffers, checks\n"
    "  tcj against cuBLAS (relative Frobenius error) and prints cold first-call time and the\n"
    "  median time of both. Exit 1 if a check or a call fails.\n"
    "  Without a GPU (or with --offline): selects, generates and compiles (nvJitLink) each\n"
    "  problem's kernel for every ARCH and prints PTX/cubin sizes, registers, spills and compile\n"
    "  time. Exit 1 if a selection or compile fails.\n"
    "  --quick      only bf16 4096^3 and bf16 4095^3 (ld 4095: rows not 16-byte aligned)\n"
    "  --arch ARCH  offline target (repeatable; default sm_80 and sm_90a); with a GPU the first\n"
    "               one is passed to tcj_create as tcj_options.arch\n"
    "  --offline    compile only, even when a GPU is present\n"
    "  With a GPU the kernel cache is a fresh temporary directory unless TCJ_CACHE_DIR is set,\n"
    "  so the cold time includes the JIT compile. Offline, compiled kernels are published into\n"
    "  the kernel cache (TCJ_CACHE_DIR, else ~/.cache/tcj) for later processes.\n";

typedef struct problem {
  const char *name;
  tcj_dtype ab, c;
  tcj_op op_a, op_b;
  int64_t m, n, k;
} problem;

/* LLM shapes are x * W^T with W stored n x k, as torch.nn.Linear keeps it. */
static const problem DEFAULT_PROBLEMS[] = {
    {"square", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096},
    {"square", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 8192, 8192, 8192},
    {"ld-4095", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4095, 4095, 4095},
    {"square", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096},
    {"square", TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096},
    {"square", TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096},
    {"llm-decode", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 16, 6144, 4096},
    {"llm-mlp", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 128, 28672, 4096},
};
static const problem QUICK_PROBLEMS[] = {
    {"square", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096},
    {"ld-4095", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4095, 4095, 4095},
};

static const char *dtype_name(tcj_dtype t) {
  static const char *names[] = {"f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s8", "s32", "f64"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static size_t esize(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: case TCJ_BF16: return 2;
  case TCJ_S8: return 1;
  default: return 4;
  }
}

static int64_t lda_of(const problem *p) { return p->op_a == TCJ_OP_N ? p->k : p->m; }
static int64_t ldb_of(const problem *p) { return p->op_b == TCJ_OP_N ? p->n : p->k; }

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- offline mode: select + ptxgen + nvJitLink ----------------------------------------- */

static ptx_elem to_elem(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return PTX_E_F16;
  case TCJ_BF16: return PTX_E_BF16;
  case TCJ_TF32: return PTX_E_TF32;
  case TCJ_S8: return PTX_E_S8;
  case TCJ_S32: return PTX_E_S32;
  default: return PTX_E_F32;
  }
}

/* Alignment of every row start, as validate computes it, for a 256-byte aligned base. */
static int row_align(int64_t ld, size_t es) {
  int64_t bytes = ld * (int64_t)es;
  int a = 16;
  while (a > 1 && bytes % a) a /= 2;
  return a;
}

/* Offline mode publishes what it compiles into the kernel cache, as tcj-warmup would. */
static cache_disk *offline_disk;
static char offline_compiler[256];
static int offline_published;

static int offline_one(const char *arch, const eng_device_caps *caps, const problem *pr) {
  char cfg_text[512] = "-", err[4096] = "";
  char *ptx = NULL;
  size_t ptx_len = 0;
  eng_cubin cubin = {0};
  eng_problem p = {0};
  eng_plan plan;
  const char *why = NULL;
  int ok = 0, regs = -1, spills = -1;
  double gen_ms = 0, compile_ms = 0;
  p.op_a_t = pr->op_a == TCJ_OP_T;
  p.op_b_t = pr->op_b == TCJ_OP_T;
  p.m = pr->m;
  p.n = pr->n;
  p.k = pr->k;
  p.lda = lda_of(pr);
  p.ldb = ldb_of(pr);
  p.ldc = pr->n;
  p.ab = to_elem(pr->ab);
  p.c = to_elem(pr->c);
  p.align_a = row_align(p.lda, esize(pr->ab));
  p.align_b = row_align(p.ldb, esize(pr->ab));
  p.align_c = row_align(p.ldc, esize(pr->c));
  memset(&plan, 0, sizeof plan);
  tcj_status st = eng_select(&p, caps, 1, &plan, &why);
  if (st != TCJ_SUCCESS) {
    snprintf(err, sizeof err, "select: %s: %s", tcj_status_string(st), why ? why : "");
    goto report;
  }
  if (tcj_cfg_format(&plan.cfg, cfg_text, sizeof cfg_text) < 0) snprintf(cfg_text, sizeof cfg_text, "?");
  double t0 = now_s();
  if (ptx_gen_gemm(&plan.cfg, &ptx, &ptx_len, err, sizeof err) != 0) {
    char reason[4096];
    snprintf(reason, sizeof reason, "ptxgen: %s", err);
    snprintf(err, sizeof err, "%s", reason);
    goto report;
  }
  double t1 = now_s();
  st = eng_jit_compile_nvjitlink(ptx, ptx_len, arch, &cubin, err, sizeof err);
  double t2 = now_s();
  gen_ms = 1e3 * (t1 - t0);
  compile_ms = 1e3 * (t2 - t1);
  if (st != TCJ_SUCCESS) goto report;
  spills = eng_info_log_spills(cubin.info_log, &regs);
  ok = 1;
  char key[1024];
  if (offline_disk && eng_cache_key(&plan.cfg, arch, offline_compiler, key, sizeof key) > 0 &&
      cache_disk_put(offline_disk, key, cubin.data, cubin.size, ptx, ptx_len) == 0)
    offline_published++;
report:;
  char shape[64], pack[16];
  snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)pr->m, (long long)pr->n, (long long)pr->k);
  snprintf(pack, sizeof pack, "%s%s", plan.pack_a ? "A" : "", plan.pack_b ? "B" : "");
  printf("%-7s %-10s %-9s %c%c %-16s %9zu %9zu %4d %6d %7.1f %9.1f %-4s %-4s %s\n", arch, pr->name,
         dtype_name(pr->ab), pr->op_a ? 'T' : 'N', pr->op_b ? 'T' : 'N', shape, ptx_len,
         cubin.size, regs, spills, gen_ms, compile_ms, ok ? (pack[0] ? pack : "-") : "-",
         ok ? (spills > 0 ? "ok!" : "ok") : "FAIL", cfg_text);
  if (!ok) printf("    %s\n", err);
  else if (spills > 0) printf("    note: %d spill bytes (loads + stores)\n", spills);
  fflush(stdout);
  free(ptx);
  eng_cubin_free(&cubin);
  return ok;
}

static int offline_mode(const char *reason, const char **archs, int narch, const problem *probs, int nprob) {
  char ver[128] = "";
  printf("tcj-bench: offline mode (%s): selecting and compiling kernels with nvJitLink for", reason);
  for (int i = 0; i < narch; i++) printf(" %s", archs[i]);
  printf("; no timing, no cuBLAS\n");
  if (!eng_nvjitlink_available(ver, sizeof ver)) {
    printf("FAIL: nvJitLink could not be opened (libnvJitLink.so from the CUDA toolkit): offline "
           "compilation needs it\n");
    return 1;
  }
  time_t now = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
  printf("compiler: %s; date: %s\n", ver, date);
  cache_disk_config cc;
  char buf[4096];
  const char *why = NULL;
  if (cache_disk_config_from_env(&cc, buf, sizeof buf, &why) == 0 && cc.dir &&
      (offline_disk = cache_disk_open(&cc, NULL)) != NULL) {
    eng_compiler_identity(0, 0, offline_compiler, sizeof offline_compiler);
    printf("kernel cache: %s (compiled kernels are published there)\n", cc.dir);
  } else {
    printf("kernel cache: none (%s)\n", why ? why : "TCJ_CACHE_DISABLE or no directory");
  }
  eng_device_caps caps[MAX_ARCHS];
  for (int i = 0; i < narch; i++) {
    if (eng_caps_for_arch(archs[i], &caps[i]) != 0) {
      fprintf(stderr, "tcj-bench: unknown or unsupported arch '%s'\n%s", archs[i], USAGE);
      return 2;
    }
  }
  printf("%-7s %-10s %-9s %-2s %-16s %9s %9s %4s %6s %7s %9s %-4s %-4s %s\n", "arch", "problem",
         "dtype", "op", "m x n x k", "PTX B", "cubin B", "regs", "spills", "gen ms", "compile ms",
         "pack", "ok", "cfg");
  int failed = 0, total = 0;
  for (int a = 0; a < narch; a++)
    for (int i = 0; i < nprob; i++) {
      problem pr = probs[i];
      /* s8: the GPU run picks NN or NT by what cuBLAS accepts for int8; compile both. */
      for (int v = 0; v < (pr.ab == TCJ_S8 ? 2 : 1); v++) {
        if (v) pr.op_b = pr.op_b == TCJ_OP_N ? TCJ_OP_T : TCJ_OP_N;
        total++;
        failed += !offline_one(archs[a], &caps[a], &pr);
      }
    }
  printf("%s: %d of %d kernels compiled", failed ? "FAIL" : "PASS", total - failed, total);
  if (offline_disk) printf("; %d published to %s", offline_published, cache_disk_dir(offline_disk));
  printf("\n");
  cache_disk_close(offline_disk);
  return failed ? 1 : 0;
}

/* ---- GPU mode ---------------------------------------------------------------------------- */


static double get(tcj_dtype t, const void *buf, size_t i) {
  switch (t) {
  case TCJ_F16: return f16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_BF16: return bf16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_S8: return ((const int8_t *)buf)[i];
  case TCJ_S32: return ((const int32_t *)buf)[i];
  default: return ((const float *)buf)[i];
  }
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [-1, 1] for float types, integers in [-8, 8] for s8. */
static void fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(&seed);
    float v = (float)((double)(r >> 11) * 0x1.0p-52 - 1.0);
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16(v); break;
    case TCJ_S8: ((int8_t *)buf)[i] = (int8_t)((int)(r % 17) - 8); break;
    default: ((float *)buf)[i] = v; break;
    }
  }
}

static cudaDataType cuda_type(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return CUDA_R_16F;
  case TCJ_BF16: return CUDA_R_16BF;
  case TCJ_S8: return CUDA_R_8I;
  case TCJ_S32: return CUDA_R_32I;
  default: return CUDA_R_32F;
  }
}

static double bound_of(const problem *p) {
  if (p->c == TCJ_S32) return 0;
  if (p->ab == TCJ_TF32) return 1e-2;
  return p->c == TCJ_F16 ? 2e-3 : p->c == TCJ_BF16 ? 1e-2 : 1e-4;
}

typedef struct gpu {
  tcj_engine *eng;
  cublasHandle_t blas;
  cudaStream_t stream;
  size_t l2_bytes;
} gpu;

/* Row-major C = op(A) op(B) as column-major C^T = op(B)^T op(A)^T: operands and m/n swap. */
static cublasStatus_t cublas_gemm(gpu *g, const problem *p, const void *a, const void *b, void *c) {
  float fa = 1, fb = 0;
  int32_t ia = 1, ib = 0;
  int is_int = p->c == TCJ_S32;
  cublasComputeType_t ct = is_int ? CUBLAS_COMPUTE_32I
                           : p->ab == TCJ_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                               : CUBLAS_COMPUTE_32F;
  return cublasGemmEx(g->blas, p->op_b == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T,
                      p->op_a == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T, (int)p->n, (int)p->m,
                      (int)p->k, is_int ? (const void *)&ia : (const void *)&fa, b,
                      cuda_type(p->ab), (int)ldb_of(p), a, cuda_type(p->ab), (int)lda_of(p),
                      is_int ? (const void *)&ib : (const void *)&fb, c, cuda_type(p->c),
                      (int)p->n, ct, CUBLAS_GEMM_DEFAULT);
}

static tcj_status tcj_run(gpu *g, const problem *p, const void *a, const void *b, void *c) {
  return tcj_gemm(g->eng, p->op_a, p->op_b, p->m, p->n, p->k, 1.0f, a, p->ab, lda_of(p), b, p->ab,
                  ldb_of(p), 0.0f, c, p->c, p->n, (CUstream)g->stream);
}

/* cuBLAS int8 GEMM has layout rules that vary by version: probe NN, fall back to NT (both
 * operands K-major, cuBLAS's column-major "TN"). */
static tcj_op s8_op_b(gpu *g) {
  problem p = {"probe", TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 64, 64, 64};
  void *a = NULL, *b = NULL, *c = NULL;
  cublasStatus_t st = CUBLAS_STATUS_ALLOC_FAILED;
  if (cudaMalloc(&a, 4096) == cudaSuccess && cudaMalloc(&b, 4096) == cudaSuccess &&
      cudaMalloc(&c, 16384) == cudaSuccess && cudaMemset(a, 1, 4096) == cudaSuccess &&
      cudaMemset(b, 1, 4096) == cudaSuccess)
    st = cublas_gemm(g, &p, a, b, c);
  cudaStreamSynchronize(g->stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  if (st == CUBLAS_STATUS_SUCCESS) {
    printf("s8: cuBLAS accepts int8 NN; the s8 problem runs NN\n");
    return TCJ_OP_N;
  }
  printf("s8: cuBLAS refused int8 NN (%s); the s8 problem runs NT (B stored n x k; cuBLAS "
         "column-major TN)\n", cublasGetStatusName(st));
  return TCJ_OP_T;
}

typedef struct result {
  double tcj_us, blas_us, cold_ms, err;
  int runs, sets, ok;
  char note[512];
} result;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of `runs` timed calls, rotating over the buffer sets; 0 with a note on failure. */
static double time_lib(gpu *g, const problem *p, int lib, void **a, void **b, void **c, int sets,
                       int runs, char *note, size_t note_size) {
  cudaEvent_t *ev = calloc((size_t)(2 * runs), sizeof *ev);
  double *t = calloc((size_t)runs, sizeof *t), med = 0;
  int made = 0, fail = 0;
  if (!ev || !t) goto done;
  for (; made < 2 * runs; made++)
    if (cudaEventCreate(&ev[made]) != cudaSuccess) goto done;
  for (int r = 0; r < runs && !fail; r++) {
    int s = r % sets;
    cudaEventRecord(ev[2 * r], g->stream);
    if (lib == 0) {
      tcj_status st = tcj_run(g, p, a[s], b[s], c[s]);
      if (st != TCJ_SUCCESS) {
        snprintf(note, note_size, "tcj_gemm (timed) %s: %s", tcj_status_string(st), tcj_last_error(g->eng));
        fail = 1;
      }
    } else {
      cublasStatus_t st = cublas_gemm(g, p, a[s], b[s], c[s]);
      if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(note, note_size, "cuBLAS (timed): %s", cublasGetStatusName(st));
        fail = 1;
      }
    }
    cudaEventRecord(ev[2 * r + 1], g->stream);
  }
  cudaError_t ce = cudaStreamSynchronize(g->stream);
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "%s run failed: %s", lib ? "cuBLAS" : "tcj", cudaGetErrorName(ce));
    fail = 1;
  }
  if (fail) goto done;
  for (int r = 0; r < runs; r++) {
    float ms = 0;
    cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]);
    t[r] = 1e3 * ms;
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_double);
  med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
done:
  for (int i = 0; i < made; i++) cudaEventDestroy(ev[i]);
  free(ev);
  free(t);
  return med;
}

static void bench_one(gpu *g, const problem *p, result *res) {
  size_t es = esize(p->ab), esc = esize(p->c);
  size_t na = (size_t)(p->m * p->k), nb = (size_t)(p->k * p->n), nc = (size_t)(p->m * p->n);
  size_t set_bytes = (na + nb) * es + nc * esc;
  void *a[MAX_SETS] = {0}, *b[MAX_SETS] = {0}, *c[MAX_SETS] = {0}, *cref = NULL;
  void *ha = malloc(na * es), *hb = malloc(nb * es), *hc = malloc(nc * esc), *hr = malloc(nc * esc);
  memset(res, 0, sizeof *res);
  if (!ha || !hb || !hc || !hr) {
    snprintf(res->note, sizeof res->note, "host out of memory");
    goto done;
  }
  /* Enough sets that one rotation overflows L2 (3x), within free device memory. */
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  int sets = (int)((3 * g->l2_bytes + set_bytes - 1) / set_bytes);
  if (sets < 1) sets = 1;
  if (sets > MAX_SETS) sets = MAX_SETS;
  while (sets > 1 && (size_t)sets * set_bytes + nc * esc > free_b / 10 * 8) sets--;
  res->sets = sets;
  fill_host(p->ab, ha, na, 0xA11CEull ^ (uint64_t)p->m);
  fill_host(p->ab, hb, nb, 0xB0Bull ^ (uint64_t)p->n);
  cudaError_t ce = cudaSuccess;
  for (int s = 0; s < sets && ce == cudaSuccess; s++) {
    if ((ce = cudaMalloc(&a[s], na * es)) || (ce = cudaMalloc(&b[s], nb * es)) ||
        (ce = cudaMalloc(&c[s], nc * esc)))
      break;
    if ((ce = cudaMemcpy(a[s], ha, na * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemcpy(b[s], hb, nb * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemset(c[s], 0xff, nc * esc))) /* NaN (-1 for s32): unwritten shows up */
      break;
  }
  if (ce == cudaSuccess && (ce = cudaMalloc(&cref, nc * esc)) == cudaSuccess)
    ce = cudaMemset(cref, 0xff, nc * esc);
  if (ce == cudaSuccess) ce = cudaDeviceSynchronize();
  if (ce != cudaSuccess) {
    snprintf(res->note, sizeof res->note, "setup: %s", cudaGetErrorName(ce));
    goto done;
  }

  /* Cold: the first call for this problem class, JIT compile included. */
  double t0 = now_s();
  tcj_status st = tcj_run(g, p, a[0], b[0], c[0]);
  if (st == TCJ_SUCCESS) ce = cudaStreamSynchronize(g->stream);
  res->cold_ms = 1e3 * (now_s() - t0);
  if (st != TCJ_SUCCESS || ce != cudaSuccess) {
    snprintf(res->note, sizeof res->note, "tcj_gemm: %s: %s",
             st != TCJ_SUCCESS ? tcj_status_string(st) : cudaGetErrorName(ce),
             st != TCJ_SUCCESS ? tcj_last_error(g->eng) : cudaGetErrorString(ce));
    goto done;
  }
  cublasStatus_t bs = cublas_gemm(g, p, a[0], b[0], cref);
  if (bs != CUBLAS_STATUS_SUCCESS) {
    snprintf(res->note, sizeof res->note, "cuBLAS: %s", cublasGetStatusName(bs));
    goto done;
  }
  if ((ce = cudaMemcpyAsync(hc, c[0], nc * esc, cudaMemcpyDeviceToHost, g->stream)) ||
      (ce = cudaMemcpyAsync(hr, cref, nc * esc, cudaMemcpyDeviceToHost, g->stream)) ||
      (ce = cudaStreamSynchronize(g->stream))) {
    snprintf(res->note, sizeof res->note, "read-back: %s", cudaGetErrorName(ce));
    goto done;
  }
  double e2 = 0, r2 = 0;
  int64_t diff = 0;
  for (size_t i = 0; i < nc; i++) {
    double x = get(p->c, hc, i), y = get(p->c, hr, i), d = x - y;
    if (isnan(d)) d = INFINITY;
    diff += d != 0;
    e2 += d * d;
    r2 += y * y;
  }
  res->err = r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
  double bound = bound_of(p);
  if (bound == 0 ? diff != 0 : !(res->err <= bound)) {
    snprintf(res->note, sizeof res->note,
             "check vs cuBLAS failed: rel Frobenius error %.3g (bound %.3g), %lld elements differ",
             res->err, bound, (long long)diff);
    goto done;
  }

  /* Warm-up, then enough runs for a stable median; tcj first, then cuBLAS, same rotation. */
  for (int lib = 0; lib < 2; lib++)
    if (time_lib(g, p, lib, a, b, c, sets, WARMUP, res->note, sizeof res->note) <= 0) goto done;
  double est = time_lib(g, p, 0, a, b, c, sets, 1, res->note, sizeof res->note);
  if (est <= 0) goto done;
  int runs = (int)(RUN_BUDGET_S * 1e6 / est);
  res->runs = runs < MIN_RUNS ? MIN_RUNS : runs > MAX_RUNS ? MAX_RUNS : runs;
  res->tcj_us = time_lib(g, p, 0, a, b, c, sets, res->runs, res->note, sizeof res->note);
  if (res->tcj_us <= 0) goto done;
  res->blas_us = time_lib(g, p, 1, a, b, c, sets, res->runs, res->note, sizeof res->note);
  if (res->blas_us <= 0) goto done;
  res->ok = 1;
done:
  for (int s = 0; s < MAX_SETS; s++) {
    cudaFree(a[s]);
    cudaFree(b[s]);
    cudaFree(c[s]);
  }
  cudaFree(cref);
  free(ha);
  free(hb);
  free(hc);
  free(hr);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static int gpu_mode(int ndev, const char **archs, int narch, const problem *probs, int nprob) {
  gpu g = {0};
  struct cudaDeviceProp prop;
  int drv = 0, rt = 0, blas_ver = 0, failed = 0;
  char tmpdir[] = "/tmp/tcj-bench-cache-XXXXXX";
  int own_cache = 0;
  cudaError_t ce;
  printf("tcj-bench: GPU mode: %d CUDA device%s found; benchmarking device 0 against cuBLAS\n", ndev,
         ndev == 1 ? "" : "s");
  if ((ce = cudaFree(0)) != cudaSuccess) { /* primary context, current for tcj_create */
    printf("FAIL: cudaFree(0): %s\n", cudaGetErrorName(ce));
    return 1;
  }
  cudaGetDeviceProperties(&prop, 0);
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  g.l2_bytes = (size_t)prop.l2CacheSize;
  const char *cache_env = getenv("TCJ_CACHE_DIR");
  if (!cache_env || !*cache_env) {
    if (!mkdtemp(tmpdir)) {
      printf("FAIL: mkdtemp %s: %s\n", tmpdir, strerror(errno));
      return 1;
    }
    setenv("TCJ_CACHE_DIR", tmpdir, 1);
    own_cache = 1;
  }
  tcj_options opts = {0};
  if (narch > 0) opts.arch = archs[0];
  tcj_status st = tcj_create(&g.eng, narch > 0 ? &opts : NULL);
  if (st != TCJ_SUCCESS) {
    printf("FAIL: tcj_create: %s: %s\n", tcj_status_string(st), tcj_last_error(NULL));
    failed = 1;
    goto done;
  }
  if (cublasCreate(&g.blas) != CUBLAS_STATUS_SUCCESS ||
      cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking) != cudaSuccess) {
    printf("FAIL: cuBLAS handle or stream creation failed\n");
    failed = 1;
    goto done;
  }
  cublasSetStream(g.blas, g.stream);
  cublasGetVersion(g.blas, &blas_ver);
  time_t now = time(NULL);
  char date[64], jit[128] = "driver JIT (nvJitLink not found)";
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
  eng_nvjitlink_available(jit, sizeof jit);
  printf("GPU: %s (sm_%d%d, %d SMs, %zu MiB L2, %.0f GiB)\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, g.l2_bytes >> 20, (double)prop.totalGlobalMem / (1 << 30));
  printf("CUDA driver API %d.%d, runtime %d.%d, cuBLAS %d; tcj compiler: %s%s%s\n", drv / 1000,
         drv % 1000 / 10, rt / 1000, rt % 1000 / 10, blas_ver, jit, narch ? "; tcj arch: " : "",
         narch ? archs[0] : "");
  if (narch > 1) printf("note: only the first --arch is used with a GPU\n");
  printf("date: %s\n", date);
  printf("kernel cache: %s%s\n", own_cache ? tmpdir : cache_env,
         own_cache ? " (fresh: cold = JIT compile + first run)" : " (TCJ_CACHE_DIR: cold may be a cache hit)");
  printf("method: alpha=1 beta=0, packed lds, same buffers and stream for both; %d warm-up runs, "
         "then the median of %d..%d cudaEvent-timed runs; buffer sets rotated so each rotation "
         "exceeds 3x L2 where memory allows\n", WARMUP, MIN_RUNS, MAX_RUNS);
  tcj_op s8_op = TCJ_OP_N;
  for (int i = 0; i < nprob; i++)
    if (probs[i].ab == TCJ_S8) {
      s8_op = s8_op_b(&g);
      break;
    }
  printf("\n%-10s %-9s %-2s %6s %6s %6s %10s %10s %8s %8s %7s %9s %9s %4s %4s %s\n", "problem",
         "dtype", "op", "m", "n", "k", "tcj us", "cuBLAS us", "tcj TF/s", "cuBL TF/s", "tcj/cuBL",
         "cold ms", "err", "sets", "runs", "check");
  for (int i = 0; i < nprob; i++) {
    problem p = probs[i];
    if (p.ab == TCJ_S8) p.op_b = s8_op;
    result r;
    bench_one(&g, &p, &r);
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    char dt[16];
    snprintf(dt, sizeof dt, "%s>%s", dtype_name(p.ab), dtype_name(p.c));
    if (r.ok)
      printf("%-10s %-9s %c%c %6lld %6lld %6lld %10.1f %10.1f %8.1f %9.1f %7.3f %9.1f %9.2e %4d %4d PASS\n",
             p.name, dt, p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N', (long long)p.m, (long long)p.n,
             (long long)p.k, r.tcj_us, r.blas_us, flops / r.tcj_us * 1e-6, flops / r.blas_us * 1e-6,
             r.blas_us / r.tcj_us, r.cold_ms, r.err, r.sets, r.runs);
    else {
      printf("%-10s %-9s %c%c %6lld %6lld %6lld %10s %10s %8s %9s %7s %9.1f %9.2e %4d %4s FAIL\n",
             p.name, dt, p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N', (long long)p.m, (long long)p.n,
             (long long)p.k, "-", "-", "-", "-", "-", r.cold_ms, r.err, r.sets, "-");
      printf("    %s\n", r.note);
      failed++;
    }
    fflush(stdout);
    if ((ce = cudaDeviceSynchronize()) != cudaSuccess) {
      printf("FAIL: the CUDA context is broken after this problem (%s); stopping\n", cudaGetErrorName(ce));
      failed++;
      break;
    }
  }
  printf("\ntcj/cuBL = cuBLAS time / tcj time (>1: tcj faster). %s: %d problem%s failed\n",
         failed ? "FAIL" : "PASS", failed, failed == 1 ? "" : "s");
done:
  if (g.blas) cublasDestroy(g.blas);
  if (g.stream) cudaStreamDestroy(g.stream);
  tcj_destroy(g.eng);
  if (own_cache) nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  const char *archs[MAX_ARCHS];
  int narch = 0, quick = 0, offline = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(USAGE, stdout);
      return 0;
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else if (!strcmp(argv[i], "--offline")) {
      offline = 1;
    } else if (!strcmp(argv[i], "--arch") && i + 1 < argc && narch < MAX_ARCHS) {
      archs[narch++] = argv[++i];
    } else if (!strncmp(argv[i], "--arch=", 7) && narch < MAX_ARCHS) {
      archs[narch++] = argv[i] + 7;
    } else {
      fprintf(stderr, "tcj-bench: bad argument '%s'\n%s", argv[i], USAGE);
      return 2;
    }
  }
  for (int i = 0; i < narch; i++) {
    eng_device_caps caps;
    if (eng_caps_for_arch(archs[i], &caps) != 0) {
      fprintf(stderr, "tcj-bench: unknown or unsupported arch '%s'\n%s", archs[i], USAGE);
      return 2;
    }
  }
  const problem *probs = quick ? QUICK_PROBLEMS : DEFAULT_PROBLEMS;
  int nprob = quick ? (int)(sizeof QUICK_PROBLEMS / sizeof *QUICK_PROBLEMS)
                    : (int)(sizeof DEFAULT_PROBLEMS / sizeof *DEFAULT_PROBLEMS);
  int ndev = 0;
  char reason[256];
  cudaError_t ce = cudaGetDeviceCount(&ndev);
  if (ce != cudaSuccess) snprintf(reason, sizeof reason, "no GPU: cudaGetDeviceCount: %s", cudaGetErrorName(ce));
  else if (ndev == 0) snprintf(reason, sizeof reason, "no GPU: cudaGetDeviceCount found 0 devices");
  else snprintf(reason, sizeof reason, "--offline given; %d GPU%s present", ndev, ndev == 1 ? "" : "s");
  if (offline || ce != cudaSuccess || ndev == 0) {
    static const char *default_archs[] = {"sm_80", "sm_90a"};
    if (narch == 0) return offline_mode(reason, default_archs, 2, probs, nprob);
    return offline_mode(reason, archs, narch, probs, nprob);
  }
  return gpu_mode(ndev, archs, narch, probs, nprob);
}
