/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-bench: the main job. With a GPU: tcj_gemm against cuBLAS on the same buffers and stream,
 * a correctness check (relative Frobenius error), the cold first call (JIT compile included)
 * and median speed. Without one: select, generate and compile (as the engine does) the same problems'
 * kernels for the given arches, with their resource reports. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/tools_api.h"
#include "tcj.h"
#include "tools/gemm_runner.h"

#define MAX_ARCHS 8
#define MIN_RUNS 20
#define MAX_RUNS 200
#define RUN_BUDGET_S 0.25 /* per library and problem, once MIN_RUNS are done */

static const char USAGE[] =
    "usage: tcj-bench [--quick] [--arch ARCH]... [--offline] [--help]\n"
    "  With a GPU: runs each problem through tcj_gemm and cuBLAS on the same buffers, checks\n"
    "  tcj against cuBLAS (relative Frobenius error; f32 and f64, against cublasSgemm and\n"
    "  cublasDgemm, both held to a float64 reference) and prints cold first-call time and the\n"
    "  median time of both. Exit 1 if a check or a call fails.\n"
    "  Without a GPU (or with --offline): selects, generates and compiles (as the engine: NVRTC\n"
    "  for sm90 kernels, whole-program, where it is there; nvJitLink otherwise) each\n"
    "  problem's kernel for every ARCH and prints PTX/cubin sizes, registers, spills and compile\n"
    "  time. Exit 1 if a selection or compile fails.\n"
    "  A problem this build of tcj does not support (TCJ_ERROR_NOT_SUPPORTED) is reported SKIP\n"
    "  with the reason, and is not a failure.\n"
    "  --quick      only bf16 4096^3 and bf16 4095^3 (ld 4095: rows not 16-byte aligned)\n"
    "  --arch ARCH  offline target (repeatable; default sm_80 and sm_90a); with a GPU the first\n"
    "               one is passed to tcj_create as tcj_options.arch\n"
    "  --offline    compile only, even when a GPU is present\n"
    "  With a GPU the kernel cache is a fresh temporary directory unless TCJ_CACHE_DIR is set,\n"
    "  so the cold time includes the JIT compile. Offline, compiled kernels are published into\n"
    "  the kernel cache (TCJ_CACHE_DIR, else ~/.cache/tcj) for later processes.\n";

typedef struct problem {
  const char *name;
  gemm_problem g;
} problem;

/* LLM shapes are x * W^T with W stored n x k, as torch.nn.Linear keeps it. */
static const problem DEFAULT_PROBLEMS[] = {
    {"square", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"square", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 8192, 8192, 8192)},
    {"ld-4095", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4095, 4095, 4095)},
    {"square", GEMM_PLAIN(TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"square", GEMM_PLAIN(TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"square", GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)}, /* fp32 accuracy */
    {"square", GEMM_PLAIN(TCJ_F64, TCJ_F64, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"square", GEMM_PLAIN(TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"llm-decode", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 16, 6144, 4096)},
    {"llm-mlp", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 128, 28672, 4096)},
};
static const problem QUICK_PROBLEMS[] = {
    {"square", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4096, 4096, 4096)},
    {"ld-4095", GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 4095, 4095, 4095)},
};

/* ---- offline mode: select + ptxgen + compile ----------------------------------------- */

/* Offline mode publishes what it compiles into the kernel cache, as tcj-warmup would. */
static cache_disk *offline_disk;
static char offline_compiler[256];
static int offline_published;

/* A problem's types this build's engine refuses as not supported (validation's answer, which no
 * arch changes): the bench skips it instead of failing, saying why. Selection's own failures
 * (no kernel for a supported problem) stay failures. */
static const char *unsupported(const gemm_problem *pr) {
  eng_problem ep;
  const char *why = NULL;
  return gemm_problem_validate(pr, &ep, &why) == TCJ_ERROR_NOT_SUPPORTED && why ? why : NULL;
}

enum { OFFLINE_FAIL, OFFLINE_OK, OFFLINE_SKIP };

static int offline_one(const char *arch, const eng_device_caps *caps, const problem *prob) {
  const gemm_problem *pr = &prob->g;
  char cfg_text[512] = "-", err[4096] = "";
  char *ptx = NULL;
  size_t ptx_len = 0;
  eng_cubin cubin = {0};
  eng_plan plan;
  const char *why = NULL;
  int ok = 0, regs = -1, spills = -1;
  double gen_ms = 0, compile_ms = 0;
  memset(&plan, 0, sizeof plan);
  if ((why = unsupported(pr)) != NULL) {
    printf("%-7s %-10s %-9s %c%c %lldx%lldx%lld: SKIP (%s)\n", arch, prob->name, tcj_dtype_name(pr->ab),
           pr->op_a ? 'T' : 'N', pr->op_b ? 'T' : 'N', (long long)pr->m, (long long)pr->n, (long long)pr->k, why);
    return OFFLINE_SKIP;
  }
  tcj_status st = gemm_problem_select(pr, caps, NULL, &plan, &why);
  if (st != TCJ_SUCCESS) {
    snprintf(err, sizeof err, "select: %s: %s", tcj_status_string(st), why ? why : "");
    goto report;
  }
  if (tcj_cfg_format(&plan.cfg, cfg_text, sizeof cfg_text) < 0) snprintf(cfg_text, sizeof cfg_text, "?");
  double t0 = gr_now_s();
  char gen_err[sizeof err - 16]; /* room for the prefix */
  if (ptx_gen_gemm(&plan.cfg, &ptx, &ptx_len, gen_err, sizeof gen_err) != 0) {
    snprintf(err, sizeof err, "ptxgen: %s", gen_err);
    goto report;
  }
  double t1 = gr_now_s();
  st = eng_jit_compile(ptx, ptx_len, arch, &cubin, err, sizeof err);
  double t2 = gr_now_s();
  gen_ms = 1e3 * (t1 - t0);
  compile_ms = 1e3 * (t2 - t1);
  if (st != TCJ_SUCCESS) goto report;
  spills = eng_info_log_spills(cubin.info_log, &regs);
  ok = 1;
  char key[1024], who[128];
  if (offline_disk && eng_cache_key(&plan.cfg, arch, key, sizeof key) > 0 &&
      eng_cache_publish(offline_disk, &plan.cfg, arch, key, eng_cubin_compiler(&cubin, offline_compiler, who, sizeof who),
                        cubin.data, cubin.size, ptx, ptx_len) == 0)
    offline_published++;
report:;
  char shape[64], pack[16];
  snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)pr->m, (long long)pr->n, (long long)pr->k);
  snprintf(pack, sizeof pack, "%s%s", plan.pack_a ? "A" : "", plan.pack_b ? "B" : "");
  printf("%-7s %-10s %-9s %c%c %-16s %9zu %9zu %4d %6d %7.1f %9.1f %-4s %-4s %s\n", arch, prob->name,
         tcj_dtype_name(pr->ab), pr->op_a ? 'T' : 'N', pr->op_b ? 'T' : 'N', shape, ptx_len,
         cubin.size, regs, spills, gen_ms, compile_ms, ok ? (pack[0] ? pack : "-") : "-",
         ok ? (spills > 0 ? "ok!" : "ok") : "FAIL", cfg_text);
  if (!ok) printf("    %s\n", err);
  else if (spills > 0) printf("    note: %d spill bytes (loads + stores)\n", spills);
  fflush(stdout);
  free(ptx);
  eng_cubin_free(&cubin);
  return ok ? OFFLINE_OK : OFFLINE_FAIL;
}

static int offline_mode(const char *reason, const char **archs, int narch, const problem *probs, int nprob) {
  char ver[128] = "";
  printf("tcj-bench: offline mode (%s): selecting and compiling kernels (nvJitLink; NVRTC for whole-program ones) for", reason);
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
  int failed = 0, skipped = 0, total = 0;
  for (int a = 0; a < narch; a++)
    for (int i = 0; i < nprob; i++) {
      problem pr = probs[i];
      /* s8: the GPU run picks NN or NT by what cuBLAS accepts for int8; compile both. */
      for (int v = 0; v < (pr.g.ab == TCJ_S8 ? 2 : 1); v++) {
        if (v) pr.g.op_b = pr.g.op_b == TCJ_OP_N ? TCJ_OP_T : TCJ_OP_N;
        int r = offline_one(archs[a], &caps[a], &pr);
        total += r != OFFLINE_SKIP;
        failed += r == OFFLINE_FAIL;
        skipped += r == OFFLINE_SKIP;
      }
    }
  printf("%s: %d of %d kernels compiled", failed ? "FAIL" : "PASS", total - failed, total);
  if (skipped) printf("; %d skipped (not supported by this build)", skipped);
  if (offline_disk) printf("; %d published to %s", offline_published, cache_disk_dir(offline_disk));
  printf("\n");
  cache_disk_close(offline_disk);
  return failed ? 1 : 0;
}

/* ---- GPU mode ---------------------------------------------------------------------------- */

typedef struct result {
  double tcj_us, blas_us, cold_ms;
  gr_figures fig;
  int runs, sets, ok, skipped;
  char note[512];
} result;

static void bench_one(gr_gpu *g, const gemm_problem *p, result *res) {
  gr_buffers buf;
  memset(res, 0, sizeof *res);
  res->fig.rel_err = -1;
  const char *why = unsupported(p);
  if (why) {
    snprintf(res->note, sizeof res->note, "not supported by this build: %s", why);
    res->skipped = 1;
    return;
  }
  if (gr_buffers_alloc(g, p, 0xA11CEull ^ (uint64_t)p->m, 0xB0Bull ^ (uint64_t)p->n, &buf, res->note,
                       sizeof res->note) != 0)
    return;
  res->sets = buf.sets;

  /* Cold: the first call for this problem class, JIT compile included. */
  cudaError_t ce = cudaSuccess;
  double t0 = gr_now_s();
  tcj_status st = gr_tcj(g, p, buf.a[0], buf.b[0], buf.c[0], NULL, buf.scales);
  if (st == TCJ_SUCCESS) ce = cudaStreamSynchronize(g->stream);
  res->cold_ms = 1e3 * (gr_now_s() - t0);
  if (st != TCJ_SUCCESS || ce != cudaSuccess) {
    snprintf(res->note, sizeof res->note, "tcj_gemm: %s: %s",
             st != TCJ_SUCCESS ? tcj_status_string(st) : cudaGetErrorName(ce),
             st != TCJ_SUCCESS ? tcj_last_error(g->eng) : cudaGetErrorString(ce));
    goto done;
  }
  if (gr_check(g, p, NULL, &buf, &res->fig, res->note, sizeof res->note) != GR_CHECK_PASS) goto done;

  /* Warm-up, then enough runs for a stable median; tcj first, then cuBLAS, same rotation. */
  for (int lib = GR_TCJ; lib <= GR_CUBLAS; lib++)
    if (gr_time(g, p, (gr_lib)lib, NULL, &buf, GR_WARMUP, res->note, sizeof res->note) <= 0) goto done;
  double est = gr_time(g, p, GR_TCJ, NULL, &buf, 1, res->note, sizeof res->note);
  if (est <= 0) goto done;
  int runs = (int)(RUN_BUDGET_S * 1e6 / est);
  res->runs = runs < MIN_RUNS ? MIN_RUNS : runs > MAX_RUNS ? MAX_RUNS : runs;
  res->tcj_us = gr_time(g, p, GR_TCJ, NULL, &buf, res->runs, res->note, sizeof res->note);
  if (res->tcj_us <= 0) goto done;
  res->blas_us = gr_time(g, p, GR_CUBLAS, NULL, &buf, res->runs, res->note, sizeof res->note);
  if (res->blas_us <= 0) goto done;
  res->ok = 1;
done:
  gr_buffers_free(&buf);
}

static int gpu_mode(int ndev, const char **archs, int narch, const problem *probs, int nprob) {
  gr_gpu g = {0};
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
  const char *cache_env = getenv("TCJ_CACHE_DIR");
  if (!cache_env || !*cache_env) {
    if (gr_fresh_cache_dir(tmpdir) != 0) {
      printf("FAIL: mkdtemp %s: %s\n", tmpdir, strerror(errno));
      return 1;
    }
    own_cache = 1;
  }
  tcj_options opts = TCJ_OPTIONS_INIT;
  if (narch > 0) opts.arch = archs[0];
  opts.jit_mode = gr_jit_mode_for_timing();
  if (own_cache) opts.cache_dir = tmpdir;
  tcj_status st = tcj_create(&g.eng, &opts);
  if (st != TCJ_SUCCESS) {
    printf("FAIL: tcj_create: %s: %s\n", tcj_status_string(st), tcj_last_error(NULL));
    failed = 1;
    goto done;
  }
  char err[256];
  if (gr_open(&g, err, sizeof err) != 0) {
    printf("FAIL: %s\n", err);
    failed = 1;
    goto done;
  }
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
         "exceeds 3x L2 where memory allows\n", GR_WARMUP, MIN_RUNS, MAX_RUNS);
  tcj_op s8_op = TCJ_OP_N;
  for (int i = 0; i < nprob; i++)
    if (probs[i].g.ab == TCJ_S8) {
      cublasStatus_t bs = gr_s8_probe_nn(&g);
      if (bs == CUBLAS_STATUS_SUCCESS) {
        printf("s8: cuBLAS accepts int8 NN; the s8 problem runs NN\n");
      } else {
        printf("s8: cuBLAS refused int8 NN (%s); the s8 problem runs NT (B stored n x k; cuBLAS "
               "column-major TN)\n", cublasGetStatusName(bs));
        s8_op = TCJ_OP_T;
      }
      break;
    }
  printf("\n%-10s %-9s %-2s %6s %6s %6s %10s %10s %8s %8s %7s %9s %9s %4s %4s %s\n", "problem",
         "dtype", "op", "m", "n", "k", "tcj us", "cuBLAS us", "tcj TF/s", "cuBL TF/s", "tcj/cuBL",
         "cold ms", "err", "sets", "runs", "check");
  for (int i = 0; i < nprob; i++) {
    const char *name = probs[i].name;
    gemm_problem p = probs[i].g;
    if (p.ab == TCJ_S8) p.op_b = s8_op;
    result r;
    bench_one(&g, &p, &r);
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    char dt[16], err[16] = "-";
    snprintf(dt, sizeof dt, "%s>%s", tcj_dtype_name(p.ab), tcj_dtype_name(p.c));
    if (r.fig.rel_err >= 0) snprintf(err, sizeof err, "%.2e", r.fig.rel_err);
    if (r.skipped) {
      printf("%-10s %-9s %c%c %6lld %6lld %6lld SKIP (%s)\n", name, dt, p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N',
             (long long)p.m, (long long)p.n, (long long)p.k, r.note);
    } else if (r.ok) {
      printf("%-10s %-9s %c%c %6lld %6lld %6lld %10.1f %10.1f %8.1f %9.1f %7.3f %9.1f %9s %4d %4d PASS\n",
             name, dt, p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N', (long long)p.m, (long long)p.n,
             (long long)p.k, r.tcj_us, r.blas_us, flops / r.tcj_us * 1e-6, flops / r.blas_us * 1e-6,
             r.blas_us / r.tcj_us, r.cold_ms, err, r.sets, r.runs);
    } else {
      printf("%-10s %-9s %c%c %6lld %6lld %6lld %10s %10s %8s %9s %7s %9.1f %9s %4d %4s FAIL\n",
             name, dt, p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N', (long long)p.m, (long long)p.n,
             (long long)p.k, "-", "-", "-", "-", "-", r.cold_ms, err, r.sets, "-");
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
  gr_close(&g);
  tcj_destroy(g.eng);
  if (own_cache) gr_remove_tree(tmpdir);
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
