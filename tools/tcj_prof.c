/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-prof: the shape-sweep profiler. Each problem of a suite runs through tcj_gemm (tcj_gemm_ex
 * for epilogues, batches, a separate D and fp8) on fresh random data, is checked against its
 * cuBLAS baseline (cublasGemmEx, cublasGemmStridedBatchedEx, cuBLASLt with a fused epilogue or
 * followed by an activation kernel; fp8 against a float64 reference, cuBLASLt's fp8 GEMM too),
 * then both are timed on the same buffers and stream and reported against the problem's
 * roofline floor. fp8 problems make a row per accumulation mode, grouped ones (group:) a row per
 * baseline (cublasGemmGroupedBatchedEx, a cublasGemmEx loop). --dry-run lists the kernels tcj
 * would select. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/tools_api.h"
#include "tools/gemm_problem.h"
#include "tools/gemm_runner.h"
#include "tools/manifest.h"
#include "tools/manifest_gemm.h"
#include "tools/prof_groups.h"
#include "tools/prof_report.h"

extern char **environ;

/* Where the default suite and the plot script are, relative to this executable's directory
 * (CMake: bin -> share/tcj), so that no source or install path is compiled in. */
#ifndef TCJ_DATA_REL
#define TCJ_DATA_REL "../share/tcj"
#endif

/* <directory of this executable>/TCJ_DATA_REL/file, into out (file alone when unknown). */
static const char *data_file(const char *file, char *out, size_t size) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (!slash || snprintf(out, size, "%.*s/%s/%s", (int)(slash - exe), exe, TCJ_DATA_REL, file) >= (int)size)
    snprintf(out, size, "%s", file);
  return out;
}
static char g_default_suite[4096], g_plot_script[4096];

#define MAX_FILTERS 32
#define MIN_REPEAT 20
#define MAX_REPEAT 100000
#define BAR_WIDTH 24
#define COPY_RUNS 10
#define COPY_MAX_BYTES (1ull << 30)

static const char usage[] =
  "usage: tcj-prof [--suite FILE.yaml] [--filter SUBSTR]... [--dtype T] [--repeat N] [--out DIR]\n"
  "                [--no-cublas] [--cold] [--dry-run] [--arch ARCH] [--peak-tflops X]\n"
  "                [--bandwidth-gbs X] [--fast-accum 0|1|both] [--groups-out FILE] [--help]\n"
  "  Profiles tcj against cuBLAS over a suite of GEMM problems: for each, tcj_gemm on fresh\n"
  "  random data checked against cuBLAS (a mismatch is a failure and is not timed), then both\n"
  "  timed on the same rotated buffers and stream (warm-up, median of N cudaEvent-timed runs).\n"
  "  Prints a table with TFLOP/s, the tcj/cuBLAS speed ratio (>1: tcj faster), the share of the\n"
  "  problem's floor max(2mnk/peak, bytes/bandwidth) and the selected config (with TCJ_TUNE=1:\n"
  "  the one the autotuner chose at the first call), ending with a geometric-mean ratio per\n"
  "  dtype. The peaks are measured at start: bandwidth with a large\n"
  "  device-to-device copy, TFLOP/s per dtype as the best cuBLAS GEMM of 8192^3 and 16384^3 in\n"
  "  the layout cuBLAS is fastest in: NN for f16, bf16, f32 (SGEMM), tf32 and f64 (DGEMM); NT\n"
  "  (cuBLAS's TN, both operands K-major) for s8, and for fp8 through cuBLASLt, the better of\n"
  "  FAST_ACCUM 0 and 1 (e5m2 with e4m3 operands: cuBLASLt has no e5m2 x e5m2 GEMM; both run at\n"
  "  one tensor-core rate). A problem tcj refuses as not supported (fp8 on sm_80, say, or a\n"
  "  MoE field this engine does not build: the note names it) is reported unsupported, not a\n"
  "  failure; cuBLAS is timed alone, once its output matches the float64 reference.\n"
  "  MoE extras (manifest keys epilogue: swiglu, scale: row, row_scale, b_ptrs, gather, scatter,\n"
  "  group mode k): grouped fp8 against a cuBLASLt call per group with its scale pointers (row\n"
  "  scales: its outer-vector mode); SwiGLU, row_scale, gathered and scattered rows against the\n"
  "  reference alone (scatter: store or add sends each routed row to a seeded shuffle of D's\n"
  "  rows, the MoE combine's permutation; add into a zeroed f32 D, so each row is added once).\n"
  "  Problems with epilogue:, batch: or d_dtype: run tcj_gemm_ex against what a cuBLAS user\n"
  "  would call (the baseline column): cublasGemmStridedBatchedEx for a batch (strideB 0 with\n"
  "  broadcast_b), cuBLASLt with the BIAS, RELU_BIAS or GELU_BIAS epilogue (its GELU is the\n"
  "  tanh form: the check allows for the difference), and for bias_silu and bias_gelu_tanh\n"
  "  cuBLASLt's BIAS epilogue followed by an activation kernel compiled with NVRTC at start,\n"
  "  timed together. Their geometric means are reported apart (\"fused\"). Problems with an\n"
  "  epilogue_source: (a user epilogue) have no baseline and are reported unsupported; tcj-warmup\n"
  "  compiles them.\n"
  "  fp8 problems (e4m3, e5m2) run tcj_gemm_ex with per-tensor device scales (scale_a 0.5,\n"
  "  scale_b 0.25) on operands exact in fp8, are checked against a float64 reference on sampled\n"
  "  elements of D, and are timed against cuBLASLt's fp8 GEMM (the same scale pointers, compute\n"
  "  32F), once per accumulation mode: a row with tcj's fast_accum 0 against FAST_ACCUM 0, and\n"
  "  a row named NAME+fastacc with fast_accum 1 against FAST_ACCUM 1, averaged apart\n"
  "  (\"fastacc\"). cuBLASLt's fp8 takes only NT (row-major op_a N, op_b T) and no e5m2 x e5m2:\n"
  "  other rows are timed alone, status no-baseline (not a failure). A problem with\n"
  "  fast_accum: true makes its +fastacc row only, one with scale: block its fast_accum 0 row\n"
  "  only, timed alone (cuBLASLt on Hopper has no block scales): every block scale is the\n"
  "  per-tensor value, so the same check applies. Rows with a b_dtype: other than dtype: or an\n"
  "  fp8 d_dtype: are listed with their kernels but reported unsupported (no check or baseline\n"
  "  here); tcj-warmup compiles them.\n"
  "  Grouped problems (group:, a Mixture-of-Experts layer) run tcj_gemm_ex with the group fields\n"
  "  on group sizes drawn from the manifest's routing with its seed (the ends or counts uploaded\n"
  "  once), are checked against a float64 reference on sampled rows of every non-empty group (and\n"
  "  rows no group owns must stay unwritten), and are timed twice: NAME against\n"
  "  cublasGemmGroupedBatchedEx with one cuBLAS group per non-empty expert (cuBLAS 12.5 or\n"
  "  later, else no-baseline), NAME+loop against a cublasGemmEx per non-empty group on the same\n"
  "  stream. The batch column says G<groups>/contig or /masked; TFLOP/s and the floor count the\n"
  "  rows computed and the weights of the non-empty groups only. Averaged apart (\"grouped\",\n"
  "  \"grouped loop\").\n"
  "  f32 problems (TCJ_F32: fp32 accuracy, 3xTF32 on tensor cores; tf32 is the fast tf32 path)\n"
  "  run against cublasSgemm (CUBLAS_COMPUTE_32F, no tf32), f64 problems against cublasDgemm\n"
  "  (CUBLAS_COMPUTE_64F). Both are checked against a float64 reference (compensated sums for\n"
  "  f64), tcj and cuBLAS alike: every sampled element within (k + 2) 2^-23 + 2^-20 (f32) or\n"
  "  (k + 2) 2^-52 (f64) of (|A||B|)_ij. Accuracy columns: for every floating-point problem\n"
  "  without an epilogue, err tcj and err cuBLAS are max |got - ref| / (|A||B|)_ij over sampled\n"
  "  elements of D (rows spread over D, first and last included, times every column, up to\n"
  "  2^28 multiply-adds) against that reference; \"-\" where they do not apply.\n"
  "  --suite FILE      problems (bench/suite.yaml format, lists and grids); default:\n"
  "                    suite.yaml in " TCJ_DATA_REL " beside this program\n"
  "  --filter SUBSTR   only problems whose name contains SUBSTR; repeated, those whose name\n"
  "                    contains any of them\n"
  "  --dtype T         only problems with operand type T (f16 bf16 f32 tf32 f64 s8 e4m3 e5m2)\n"
  "  --repeat N        timed runs per library and problem, N >= 20 (default 20)\n"
  "  --out DIR         also write DIR/results.{txt,csv,json} and DIR/results.png (the plot needs\n"
  "                    python3 with matplotlib; a failed plot is reported, not fatal)\n"
  "  --no-cublas       time tcj only: no check, no ratio, no measured TFLOP/s peaks\n"
  "  --cold            a fresh empty kernel cache and CUDA_CACHE_DISABLE=1: the first call's\n"
  "                    time (cold ms) includes the JIT compile (problems that share a kernel\n"
  "                    find it compiled)\n"
  "  --dry-run         list the problems and the config tcj would select for ARCH; no GPU needed\n"
  "  --arch ARCH       target arch (sm_80 ... sm_90a); default: the GPU's, else sm_90a\n"
  "  --peak-tflops X   use X as the peak of every dtype instead of measuring\n"
  "  --bandwidth-gbs X use X as the memory bandwidth instead of measuring\n"
  "  --fast-accum M    fp8 rows: 0 (fast_accum 0 only), 1 (the +fastacc rows only) or both\n"
  "                    (default)\n"
  "  --groups-out FILE write a JSON line per grouped row to FILE (with --dry-run too; before any\n"
  "                    row runs), for timing the same problems elsewhere (tools/torch_grouped.py:\n"
  "                    torch._grouped_mm): name, problem, mode (contiguous, masked, k), ab, b, c,\n"
  "                    d (the types), op_a, op_b (op_b T: weights [G, N, K]; N: [G, K, N]), m, n,\n"
  "                    k (masked: m is max_rows; k mode: k is the routed rows), b_cols (op(B)'s\n"
  "                    columns: 2n with SwiGLU), groups, experts, ep, tokens, topk, routed_rows,\n"
  "                    skew, exponent, seed, ends (int32, int64; null when masked), max_rows\n"
  "                    (masked, else null), rows (computed in all) and nonempty (groups with\n"
  "                    rows), flops (as the table counts them), scale (fp8: tensor, block, row;\n"
  "                    else null), fast_accum, epilogue, row_scale, b_ptrs, gather, gather_rows\n"
  "                    and sizes: every group's rows in order as this run draws them (masked:\n"
  "                    the counts, each at most max_rows; k mode: each group's K). A +loop row\n"
  "                    is its problem's NAME row again: it gets no line of its own\n"
  "  The engine runs in TCJ_JIT's mode when it is set, else sync: every timed call of a class runs\n"
  "  its specialised kernel (TCJ_JIT=generic times the generic kernels).\n"
  "  Exit status: 0 ok, 1 a mismatch, a tcj error, a refused row's baseline off the reference, no\n"
  "  GPU or an output error, 2 bad usage or a suite error.\n";

enum { ACCUM_EXACT = 1, ACCUM_FAST = 2 }; /* --fast-accum: fp8 rows of fast_accum 0, 1 */

typedef struct prof_opts {
  const char *suite, *out, *arch;
  const char *groups_out; /* --groups-out FILE, or NULL */
  const char *cache_dir; /* --cold: the fresh kernel cache, else NULL (TCJ_CACHE_DIR or the default) */
  const char *filter[MAX_FILTERS];
  int nfilter;
  int dtype; /* tcj_dtype, or -1 */
  int repeat, no_cublas, cold, dry_run;
  int fp8_accum; /* ACCUM_EXACT | ACCUM_FAST */
  double peak_tflops, bandwidth_gbs;
} prof_opts;

/* A result row: a problem and, for fp8 operands, its accumulation mode. */
typedef struct prof_job {
  const manifest_problem *p;
  size_t index; /* the problem's: both modes of an fp8 problem run on the same operands */
  int fast_accum;
  int loop; /* grouped: against a cublasGemmEx per group ("+loop"), else cublasGemmGroupedBatchedEx */
} prof_job;

/* The rows of probs, in order (fp8: fast_accum 0, then 1, as --fast-accum asks, of the modes
 * the problem allows: fast_accum: true the fast one, scale: block the other; grouped: against
 * cublasGemmGroupedBatchedEx, then against the loop; grouped fp8 rows as other fp8 rows, against
 * a cuBLASLt call per group; grouped rows cuBLAS has no baseline for (an epilogue, row_scale, a
 * gather), one row) into jobs, which holds 2n. Returns their count. */
static int make_jobs(const prof_opts *o, const manifest_problem **probs, int n, prof_job *jobs) {
  int nj = 0;
  for (int i = 0; i < n; i++) {
    const manifest_problem *p = probs[i];
    int modes = ACCUM_EXACT;
    if (gemm_dtype_is_fp8(p->ab))
      modes = o->fp8_accum & (p->fast_accum                ? ACCUM_FAST
                              : p->scale == TCJ_SCALE_BLOCK ? ACCUM_EXACT
                                                            : ACCUM_EXACT | ACCUM_FAST);
    if (p->group.mode != TCJ_GROUP_NONE && !gemm_dtype_is_fp8(p->ab) &&
        (p->epilogue != MANIFEST_EPI_NONE || p->row_scale || p->gather)) { /* no cuBLAS baseline: one row */
      jobs[nj++] = (prof_job){p, (size_t)i, 0, 0};
      continue;
    }
    if (p->group.mode != TCJ_GROUP_NONE && !gemm_dtype_is_fp8(p->ab)) { /* one row per baseline */
      jobs[nj++] = (prof_job){p, (size_t)i, 0, 0};
      jobs[nj++] = (prof_job){p, (size_t)i, 0, 1};
      continue;
    }
    for (int fast = 0; fast <= 1; fast++)
      if (modes & (fast ? ACCUM_FAST : ACCUM_EXACT)) jobs[nj++] = (prof_job){p, (size_t)i, fast, 0};
  }
  return nj;
}

/* Why tcj-prof does not run p, into buf, or NULL: fp8 keys its check and baselines do not cover
 * (tcj-warmup compiles their kernels). */
static const char *not_measured(const manifest_problem *p, char *buf, size_t size) {
  if (p->has_b && p->b != p->ab)
    snprintf(buf, size, "b_dtype %s: tcj-prof runs fp8 operands of one type (its operands, check and peaks are "
             "per dtype); tcj-warmup compiles it", tcj_dtype_name(p->b));
  else if (p->has_d && gemm_dtype_is_fp8(p->d))
    snprintf(buf, size, "d_dtype %s: tcj-prof does not run an fp8 D (its check has no D scale or saturation); "
             "tcj-warmup compiles it", tcj_dtype_name(p->d));
  else
    return NULL;
  return buf;
}

/* The row's name: the problem's, "+fastacc" after it for fp8's fast accumulation. */
static void job_name(const prof_job *j, char *out, size_t size) {
  const char *suffix = j->fast_accum ? "+fastacc" : j->loop ? "+loop" : "";
  int keep = *suffix ? (int)(size - strlen(suffix) - 1) : (int)size; /* the suffix is never cut */
  snprintf(out, size, "%.*s%s", keep, j->p->name, suffix);
}

static int bad(const char *msg, const char *arg) {
  fprintf(stderr, "tcj-prof: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
  return 2;
}

static int parse_positive(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (*s == '\0' || *end != '\0' || errno || !isfinite(v) || v <= 0) return -1;
  *out = v;
  return 0;
}

static int operand_dtype(const char *s) {
  static const tcj_dtype ab[] = {TCJ_F16, TCJ_BF16, TCJ_F32, TCJ_TF32, TCJ_F64, TCJ_S8, TCJ_E4M3, TCJ_E5M2};
  for (size_t i = 0; i < sizeof ab / sizeof *ab; i++)
    if (strcmp(s, tcj_dtype_name(ab[i])) == 0) return (int)ab[i];
  return -1;
}

/* The arch tcj compiles for on device 0 (sm_90a on compute capability 9.0, as the engine
 * chooses), or NULL without a GPU. */
static const char *gpu_arch(char *buf, size_t size) {
  int n = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess)
    return NULL;
  snprintf(buf, size, "sm_%d%d%s", major, minor, major == 9 && minor == 0 ? "a" : "");
  return buf;
}

/* The SM count and shared memory limit of device 0 over an arch table's, as the engine reads
 * them (selection depends on both). */
static void device_caps(eng_device_caps *caps) {
  int v = 0;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess) caps->sm_count = v;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess)
    caps->max_smem_optin = v;
}

/* --groups-out: a line per grouped row but the +loop ones (the same problem as the row before).
 * Returns 0, or 1 with the cause on stderr. */
static int write_groups(const char *path, const prof_job *jobs, int nj) {
  FILE *f = fopen(path, "w");
  int bad = !f;
  for (int i = 0; i < nj && !bad; i++) {
    if (jobs[i].p->group.mode == TCJ_GROUP_NONE || jobs[i].loop) continue;
    char name[64];
    job_name(&jobs[i], name, sizeof name);
    bad = prof_groups_write(f, name, jobs[i].p, jobs[i].fast_accum) != 0;
  }
  if (f && fclose(f) != 0) bad = 1;
  if (bad) fprintf(stderr, "tcj-prof: cannot write %s: %s\n", path, strerror(errno));
  return bad;
}

/* ---- dry run ------------------------------------------------------------------------------ */

static int dry_run(const prof_opts *o, int n, const prof_job *jobs, int nj) {
  char archbuf[16];
  const char *arch = o->arch, *from = "--arch";
  if (!arch && (arch = gpu_arch(archbuf, sizeof archbuf)) != NULL) from = "the GPU";
  if (!arch) arch = "sm_90a", from = "default, no GPU";
  eng_device_caps caps;
  if (eng_caps_for_arch(arch, &caps) != 0) {
    fprintf(stderr, "tcj-prof: the GPU's arch %s has no tcj recipe; pass --arch\n", arch);
    return 1;
  }
  if (arch == archbuf) device_caps(&caps); /* as the engine will see this GPU */
  eng_tuning tuning;
  const char *bad_env = eng_tuning_from_env(&tuning);
  if (bad_env) {
    fprintf(stderr, "tcj-prof: %s\n", bad_env);
    return 2;
  }
  printf("tcj-prof: dry run: %d problem%s of %s for %s (%s)\n", n, n == 1 ? "" : "s", o->suite,
         arch, from);
  printf("%-20s %-10s %-2s %6s %6s %6s %-14s %-9s  %s\n", "name", "dtype", "op", "m", "n", "k", "epilogue", "batch",
         "cfg");
  int with = 0;
  for (int i = 0; i < nj; i++) {
    const manifest_problem *p = jobs[i].p;
    gemm_problem g = manifest_gemm(p);
    g.fast_accum = jobs[i].fast_accum;
    eng_plan plan;
    const char *why = NULL;
    char cfg[640], dt[24], epi[32], batch[32], name[64];
    if (gemm_problem_select(&g, &caps, &tuning, &plan, &why) == TCJ_SUCCESS &&
        gemm_plan_format(&plan, cfg, sizeof cfg) >= 0)
      with++;
    else
      snprintf(cfg, sizeof cfg, "- (no tcj kernel: %s)", why ? why : "config text too long");
    snprintf(dt, sizeof dt, "%s%s%s>%s", tcj_dtype_name(p->ab), p->has_b ? "x" : "",
             p->has_b ? tcj_dtype_name(p->b) : "", tcj_dtype_name(p->d));
    snprintf(epi, sizeof epi, "%s%s", p->epilogue_source && p->epilogue == MANIFEST_EPI_NONE ? "user"
                                      : manifest_epilogue_name(p->epilogue),
             p->epilogue_source && p->epilogue != MANIFEST_EPI_NONE ? "+user" : "");
    if (p->group.mode != TCJ_GROUP_NONE)
      snprintf(batch, sizeof batch, "G%lld/%s", (long long)p->group.count,
               p->group.mode == TCJ_GROUP_M_MASKED ? "masked" : p->group.mode == TCJ_GROUP_K_CONTIGUOUS ? "k" : "contig");
    else
      snprintf(batch, sizeof batch, "%lld%s", (long long)p->batch, p->broadcast_b ? "/bcast_b" : "");
    job_name(&jobs[i], name, sizeof name);
    printf("%-20s %-10s %c%c %6lld %6lld %6lld %-14s %-9s  %s\n", name, dt, p->op_a == TCJ_OP_T ? 'T' : 'N',
           p->op_b == TCJ_OP_T ? 'T' : 'N', (long long)p->m, (long long)p->n, (long long)p->k, epi, batch, cfg);
  }
  if (nj == n)
    printf("%d problem%s: %d with a tcj kernel, %d without\n", n, n == 1 ? "" : "s", with, nj - with);
  else /* fp8 problems make a row per accumulation mode, grouped ones a row per baseline */
    printf("%d problem%s (%d rows): %d with a tcj kernel, %d without\n", n, n == 1 ? "" : "s", nj, with, nj - with);
  return fflush(stdout) == 0 ? 0 : 1;
}

/* ---- GPU run ------------------------------------------------------------------------------ */

typedef struct prof_run {
  const prof_opts *o;
  gr_gpu g;
  eng_device_caps caps;
  eng_tuning tuning;
  prof_device dev;
} prof_run;

/* snprintf into a fixed field of a result, where cutting a long text short is intended. */
static void set_text(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_text(char *dst, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, size, fmt, ap);
  va_end(ap);
}

static void copy_note(prof_row *r, const char *note) { set_text(r->note, sizeof r->note, "%s", note); }

/* Device facts for every output. Clocks: the attributes' peak SM and memory clocks (NVML, which
 * reads the current ones, is not linked). */
static void device_facts(prof_run *r, int argc, char **argv) {
  prof_device *d = &r->dev;
  struct cudaDeviceProp prop;
  int drv = 0, rt = 0, blas = 0, khz = 0;
  cudaGetDeviceProperties(&prop, 0);
  set_text(d->name, sizeof d->name, "%s", prop.name);
  d->sm_count = prop.multiProcessorCount;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess) d->sm_clock_mhz = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess) d->mem_clock_mhz = khz / 1000;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  cublasGetVersion(r->g.blas, &blas);
  /* The kernel module's version where the driver publishes it, with the driver API version. */
  char kmod[64] = "", line[256];
  FILE *f = fopen("/proc/driver/nvidia/version", "r");
  if (f) {
    /* "NVRM version: NVIDIA UNIX [Open Kernel Module for] x86_64 Kernel Module  580.159.04 ...":
     * the layout varies, so take the first token shaped like a version (digits and dots). */
    if (fgets(line, sizeof line, f)) {
      char *save = NULL;
      for (char *tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
        if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.') && strspn(tok, "0123456789.") == strlen(tok)) {
          snprintf(kmod, sizeof kmod, "%.20s", tok);
          break;
        }
    }
    fclose(f);
  }
  set_text(d->driver, sizeof d->driver, "%s%sCUDA %d.%d%s", kmod, *kmod ? " (" : "", drv / 1000,
           drv % 1000 / 10, *kmod ? ")" : "");
  set_text(d->cuda, sizeof d->cuda, "runtime %d.%d, cuBLAS %d.%d.%d", rt / 1000, rt % 1000 / 10,
           blas / 10000, blas / 100 % 100, blas % 100);
  time_t now = time(NULL);
  struct tm tm;
  strftime(d->date, sizeof d->date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  size_t used = 0;
  for (int i = 0; i < argc && used + 1 < sizeof d->command; i++) {
    int w = snprintf(d->command + used, sizeof d->command - used, "%s%s", i ? " " : "", argv[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

static void measure_bandwidth(prof_run *r) {
  size_t free_b = 0, total_b = 0;
  char note[256];
  cudaMemGetInfo(&free_b, &total_b);
  size_t bytes = free_b / 4 < COPY_MAX_BYTES ? free_b / 4 : COPY_MAX_BYTES;
  bytes &= ~(size_t)((1 << 20) - 1);
  r->dev.bandwidth_gbs = bytes ? gr_copy_gbs(&r->g, bytes, COPY_RUNS, note, sizeof note) : 0;
  if (r->dev.bandwidth_gbs > 0)
    fprintf(stderr, "tcj-prof: bandwidth %.1f GB/s (device-to-device copy of %zu MiB, median of %d)\n",
            r->dev.bandwidth_gbs, bytes >> 20, COPY_RUNS);
  else
    fprintf(stderr, "tcj-prof: warning: no bandwidth measured (%s); floors use compute only\n",
            bytes ? note : "no free device memory");
}

/* cuBLAS's TFLOP/s on one square problem p (its baseline: cublasGemmEx, cuBLASLt for fp8), or 0
 * with the cause in note. */
static double peak_one(prof_run *r, const gemm_problem *p, char *label, size_t label_size, char *note,
                       size_t note_size) {
  gr_buffers buf;
  gr_baseline base;
  double us = 0;
  uint64_t s = (uint64_t)p->m;
  gr_baseline_label(p, label, label_size);
  if (gr_buffers_alloc(&r->g, p, 0x5EEDull + s, 0xFEEDull + s, &buf, note, note_size) != 0) return 0;
  if (gr_baseline_open(&r->g, p, &buf, &base, note, note_size) == 0 &&
      gr_time(&r->g, p, GR_CUBLAS, &base, &buf, GR_WARMUP, note, note_size) > 0)
    us = gr_time(&r->g, p, GR_CUBLAS, &base, &buf, r->o->repeat, note, note_size);
  gr_baseline_close(&base);
  gr_buffers_free(&buf);
  return us > 0 ? 2.0 * (double)s * (double)s * (double)s / us * 1e-6 : 0;
}

/* The best cuBLAS TFLOP/s of ab (output c) over 8192^3 and 16384^3, in the layout cuBLAS is
 * fastest in: NN for the 16-bit types, f32, tf32 and f64; NT (cuBLAS's TN, both operands
 * K-major) for s8, whose NN GEMMs cuBLAS runs several times slower (a peak from them put s8 rows
 * far above 100% of their floor), and for fp8, the only layout cuBLASLt takes, at the better of
 * FAST_ACCUM 0 and 1. e5m2 runs with e4m3 operands: cuBLASLt has no e5m2 x e5m2 GEMM, and the
 * tensor cores run every fp8 pair at one rate. 0 when none ran. */
static double measure_peak(prof_run *r, tcj_dtype ab, tcj_dtype c) {
  static const int64_t sizes[] = {8192, 16384};
  int fp8 = gemm_dtype_is_fp8(ab);
  tcj_op op_b = ab == TCJ_S8 || fp8 ? TCJ_OP_T : TCJ_OP_N;
  double best = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (int fast = 0; fast <= fp8; fast++) {
      int64_t s = sizes[i];
      gemm_problem p = GEMM_PLAIN(fp8 ? TCJ_E4M3 : ab, c, TCJ_OP_N, op_b, s, s, s);
      p.fast_accum = fast;
      char label[48], note[512];
      double tf = peak_one(r, &p, label, sizeof label, note, sizeof note);
      fprintf(stderr, "tcj-prof: peak %s: %s %s>%s N%c %lld^3 ", tcj_dtype_name(ab), label, tcj_dtype_name(p.ab),
              tcj_dtype_name(c), op_b == TCJ_OP_T ? 'T' : 'N', (long long)s);
      if (tf > 0)
        fprintf(stderr, "%.1f TFLOP/s\n", tf);
      else
        fprintf(stderr, "not measured: %s\n", note);
      if (tf > best) best = tf;
    }
  return best;
}

static void row_init(prof_row *row, const prof_job *job) {
  const manifest_problem *p = job->p;
  memset(row, 0, sizeof *row);
  job_name(job, row->name, sizeof row->name);
  row->fast_accum = job->fast_accum;
  row->ab = p->ab;
  row->c = p->c;
  row->op_a = p->op_a;
  row->op_b = p->op_b;
  row->m = p->m;
  row->n = p->n;
  row->k = p->k;
  row->has_d = p->has_d;
  row->d = p->d;
  row->bias = manifest_epilogue_bias(p->epilogue);
  row->act = manifest_epilogue_act(p->epilogue);
  row->user = p->epilogue_source != NULL;
  row->batch = p->batch;
  row->broadcast_b = p->broadcast_b;
  row->group_mode = p->group.mode;
  row->groups = p->group.count;
  row->group_loop = job->loop;
  row->rel_err = -1; /* not compared */
  row->err_tcj = row->err_blas = -1; /* not measured */
}

/* One row: cold call, check, then timing. Returns -1 when the CUDA context is broken. */
static int prof_one(prof_run *r, const prof_job *job, prof_row *row) {
  const prof_opts *o = r->o;
  const manifest_problem *mp = job->p;
  gemm_problem p = manifest_gemm(mp);
  eng_plan plan;
  const char *why = NULL;
  char note[512] = "", base_note[512] = "";
  int broken = 0;
  int64_t *sizes = NULL;
  p.fast_accum = job->fast_accum;
  row_init(row, job);
  if (p.group_mode != TCJ_GROUP_NONE) { /* the routing: the manifest's distribution with its seed */
    if (!(sizes = calloc((size_t)p.groups, sizeof *sizes))) {
      row->status = PROF_TCJ_ERROR;
      snprintf(row->note, sizeof row->note, "host out of memory (group sizes)");
      return 0;
    }
    manifest_group_sizes(&mp->group, sizes);
    p.group_sizes = sizes;
    for (int64_t g = 0; g < p.groups; g++) {
      row->group_rows += sizes[g];
      row->group_nonempty += sizes[g] > 0;
    }
  }
  if (gemm_problem_select(&p, &r->caps, &r->tuning, &plan, &why) == TCJ_SUCCESS &&
      gemm_plan_format(&plan, row->cfg, sizeof row->cfg) < 0)
    snprintf(row->cfg, sizeof row->cfg, "?");
  if (p.m == 0 || p.n == 0) {
    row->status = PROF_UNSUPPORTED;
    snprintf(row->note, sizeof row->note, "C is empty: nothing to time");
    free(sizes);
    return 0;
  }
  if (p.epilogue_source) {
    row->status = PROF_UNSUPPORTED;
    snprintf(row->note, sizeof row->note, "epilogue_source %s: tcj-prof does not run user epilogues (no cuBLAS "
             "baseline); tcj-warmup compiles them", mp->epilogue_path);
    free(sizes);
    return 0;
  }
  if (not_measured(mp, note, sizeof note)) {
    row->status = PROF_UNSUPPORTED;
    copy_note(row, note);
    free(sizes);
    return 0;
  }

  gr_buffers buf;
  gr_baseline base;
  memset(&base, 0, sizeof base);
  uint64_t seed = 0x9e3779b97f4a7c15ull * (job->index + 1);
  if (gr_buffers_alloc(&r->g, &p, 0xA11CEull ^ seed, 0xB0Bull ^ seed, &buf, note, sizeof note) != 0) {
    row->status = PROF_TCJ_ERROR;
    copy_note(row, note);
    free(sizes);
    return 0;
  }
  p.group_dev = buf.groups; /* the ends or counts, uploaded once */
  p.extras = &buf.extras[0]; /* the MoE extras' arrays of set 0 (gr_time passes each set's) */
  int use_tcj = 1, use_blas = !o->no_cublas, no_base = 0;
  const char *call = gemm_is_ex(&p) ? "tcj_gemm_ex" : "tcj_gemm";
  double t0 = gr_now_s();
  tcj_status st = gr_tcj(&r->g, &p, buf.a[0], buf.b[0], buf.c[0], buf.bias[0], buf.scales);
  cudaError_t ce = st == TCJ_SUCCESS ? cudaStreamSynchronize(r->g.stream) : cudaSuccess;
  if (o->cold) row->cold_ms = 1e3 * (gr_now_s() - t0);
  eng_problem ep;
  if (st == TCJ_SUCCESS && eng_engine_tunes(r->g.eng) && gemm_problem_validate(&p, &ep, &why) == TCJ_SUCCESS &&
      eng_engine_tuned_plan(r->g.eng, &ep, &plan) && gemm_plan_format(&plan, row->cfg, sizeof row->cfg) < 0)
    snprintf(row->cfg, sizeof row->cfg, "?"); /* TCJ_TUNE: the config the first call chose */
  if (st != TCJ_SUCCESS) {
    row->status = st == TCJ_ERROR_NOT_SUPPORTED ? PROF_UNSUPPORTED : PROF_TCJ_ERROR;
    snprintf(note, sizeof note, "%s: %s: %s", call, tcj_status_string(st), tcj_last_error(r->g.eng));
    copy_note(row, note);
    use_tcj = 0;
  } else if (ce != cudaSuccess) {
    row->status = PROF_TCJ_ERROR;
    snprintf(note, sizeof note, "%s: %s: %s", call, cudaGetErrorName(ce), cudaGetErrorString(ce));
    copy_note(row, note);
    broken = 1;
    goto done;
  }

  /* The baseline: cuBLASLt's descriptors and algorithm are made once, outside the timing. An
   * fp8 GEMM cuBLASLt does not have leaves tcj checked against the reference and timed alone. */
  if (use_blas) {
    int opened = p.group_mode != TCJ_GROUP_NONE
                   ? gr_baseline_open_grouped(&r->g, &p, &buf, job->loop, &base, note, sizeof note)
                   : gr_baseline_open(&r->g, &p, &buf, &base, note, sizeof note);
    snprintf(row->baseline, sizeof row->baseline, "%s", base.label);
    if (opened == 1) {
      snprintf(base_note, sizeof base_note, "%s", note);
      no_base = 1;
      use_blas = 0;
    } else if (opened != 0) {
      if (row->status == PROF_OK) row->status = PROF_BLAS_ERROR;
      if (!row->note[0]) copy_note(row, note);
      use_blas = 0;
    }
  }

  if (!use_tcj && use_blas && row->status == PROF_UNSUPPORTED) {
    /* tcj refused the row (a field this engine does not build): its baseline is still held to the
     * float64 reference, so that a wrong baseline fails the run instead of timing nonsense. */
    if (gr_check_baseline(&r->g, &p, &base, &buf, note, sizeof note) != GR_CHECK_PASS) {
      row->baseline_off = 1;
      size_t len = strlen(row->note);
      snprintf(row->note + len, sizeof row->note - len, "; baseline: %s", note);
      use_blas = 0;
    }
  }
  if (use_tcj && (use_blas || no_base)) {
    gr_figures fig;
    gr_check_result checked = gr_check(&r->g, &p, &base, &buf, &fig, note, sizeof note);
    row->rel_err = fig.rel_err;
    row->err_tcj = fig.err_tcj;
    row->err_blas = fig.err_blas;
    switch (checked) {
    case GR_CHECK_PASS: break;
    case GR_CHECK_MISMATCH:
      row->status = PROF_MISMATCH;
      copy_note(row, note);
      goto done;
    case GR_CHECK_BLAS_ERROR:
      row->status = PROF_BLAS_ERROR;
      copy_note(row, note);
      use_blas = 0;
      break;
    case GR_CHECK_ERROR:
      row->status = PROF_TCJ_ERROR;
      copy_note(row, note);
      goto done;
    }
  }

  /* Warm-up, then the timed runs; tcj first, then cuBLAS, over the same rotation. */
  for (int lib = GR_TCJ; lib <= GR_CUBLAS; lib++) {
    if (!(lib == GR_TCJ ? use_tcj : use_blas)) continue;
    double us = gr_time(&r->g, &p, (gr_lib)lib, &base, &buf, GR_WARMUP, note, sizeof note);
    if (us > 0) us = gr_time(&r->g, &p, (gr_lib)lib, &base, &buf, o->repeat, note, sizeof note);
    if (us <= 0) {
      if (row->status == PROF_OK) row->status = lib == GR_TCJ ? PROF_TCJ_ERROR : PROF_BLAS_ERROR;
      copy_note(row, note);
      continue;
    }
    if (lib == GR_TCJ) row->tcj_us = us;
    else row->blas_us = us;
    row->runs = o->repeat;
  }
  if (no_base && row->status == PROF_OK) {
    row->status = PROF_NO_BASELINE;
    copy_note(row, base_note);
  }
done:
  gr_baseline_close(&base);
  gr_buffers_free(&buf);
  free(sizes);
  if (!broken && (ce = cudaDeviceSynchronize()) != cudaSuccess) {
    if (row->status == PROF_OK) row->status = PROF_TCJ_ERROR;
    snprintf(note, sizeof note, "the CUDA context broke: %s", cudaGetErrorName(ce));
    copy_note(row, note);
    broken = 1;
  }
  return broken ? -1 : 0;
}

/* On a terminal: one line, redrawn, "[####....] 7/25 sq8192" for the problem now running. */
static void progress_bar(int done, int n, const char *name) {
  char bar[BAR_WIDTH + 1];
  int filled = n ? done * BAR_WIDTH / n : BAR_WIDTH;
  for (int b = 0; b < BAR_WIDTH; b++) bar[b] = b < filled ? '#' : '.';
  bar[BAR_WIDTH] = '\0';
  fprintf(stderr, "\r\033[K[%s] %d/%d %s", bar, done + 1, n, name);
  fflush(stderr);
}

/* Elsewhere (a log): a plain line per problem once it is done. */
static void progress_line(int i, int n, const prof_row *row) {
  char epi[32] = "", batch[32] = "";
  if (prof_fused(row)) {
    prof_epilogue_label(row, epi, sizeof epi);
    prof_batch_label(row, batch, sizeof batch);
  }
  fprintf(stderr, "tcj-prof: %d/%d %s %s %c%c %lldx%lldx%lld%s%s%s%s: %s", i, n, row->name,
          tcj_dtype_name(row->ab), row->op_a == TCJ_OP_T ? 'T' : 'N',
          row->op_b == TCJ_OP_T ? 'T' : 'N', (long long)row->m, (long long)row->n,
          (long long)row->k, *epi ? " epilogue " : "", epi, *batch ? " batch " : "", batch,
          prof_status_name(row->status));
  if (row->tcj_us > 0) fprintf(stderr, ", tcj %.2f us", row->tcj_us);
  if (row->blas_us > 0) fprintf(stderr, ", %s %.2f us", row->baseline[0] ? row->baseline : "cuBLAS", row->blas_us);
  if (row->note[0]) fprintf(stderr, " (%s)", row->note);
  fputc('\n', stderr);
  fflush(stderr);
}

typedef int (*writer)(FILE *, const prof_device *, const prof_row *, int);

static int write_file(const char *dir, const char *name, writer w, const prof_device *d,
                      const prof_row *rows, int n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  int bad = !f || w(f, d, rows, n) != 0;
  if (f && fclose(f) != 0) bad = 1;
  if (bad) fprintf(stderr, "tcj-prof: cannot write %s: %s\n", path, strerror(errno));
  return bad ? -1 : 0;
}

/* python3 plot_perf.py results.json results.png, its output on stderr. */
static void plot(const char *dir) {
  char json[4096], png[4096];
  snprintf(json, sizeof json, "%s/results.json", dir);
  snprintf(png, sizeof png, "%s/results.png", dir);
  char *args[] = {"python3", g_plot_script, json, png, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid;
  int status = 0, rc = posix_spawnp(&pid, "python3", &fa, NULL, args, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    fprintf(stderr, "tcj-prof: the plot failed (python3: %s); results.png not written\n", strerror(rc));
  else if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "tcj-prof: the plot failed (%s exited %d); results.png not written\n",
            g_plot_script, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static int make_dirs(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
  for (char *s = buf + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    *s = '/';
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
}

static int run_gpu(const prof_opts *o, const manifest_problem **probs, int n, const prof_job *jobs, int nj, int argc,
                   char **argv) {
  prof_run r;
  prof_row *rows = NULL;
  char err[512];
  int rc = 1, ndev = 0;
  memset(&r, 0, sizeof r);
  r.o = o;
  cudaError_t ce = cudaGetDeviceCount(&ndev);
  if (ce != cudaSuccess || ndev == 0) {
    fprintf(stderr, "tcj-prof: no GPU: cudaGetDeviceCount: %s (--dry-run lists the problems "
            "and configs without one)\n", ce != cudaSuccess ? cudaGetErrorName(ce) : "0 devices");
    return 1;
  }
  if (o->out && make_dirs(o->out) != 0) {
    fprintf(stderr, "tcj-prof: cannot create %s: %s\n", o->out, strerror(errno));
    return 1;
  }
  if ((ce = cudaFree(0)) != cudaSuccess) { /* the primary context, current for tcj_create */
    fprintf(stderr, "tcj-prof: cudaFree(0): %s\n", cudaGetErrorName(ce));
    return 1;
  }
  tcj_options eo = TCJ_OPTIONS_INIT;
  eo.arch = o->arch;
  eo.cache_dir = o->cache_dir;
  eo.jit_mode = gr_jit_mode_for_timing();
  tcj_status st = tcj_create(&r.g.eng, &eo);
  if (st != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-prof: tcj_create: %s: %s\n", tcj_status_string(st), tcj_last_error(NULL));
    return 1;
  }
  if (gr_open(&r.g, err, sizeof err) != 0) {
    fprintf(stderr, "tcj-prof: %s\n", err);
    goto done;
  }
  /* The engine's caps, for the cfg column. */
  eng_caps_for_arch(eng_engine_arch(r.g.eng), &r.caps);
  device_caps(&r.caps);
  eng_tuning_from_env(&r.tuning); /* tcj_create vetted it */
  device_facts(&r, argc, argv);
  fprintf(stderr, "tcj-prof: %s, %d SMs, tcj arch %s, %s, %s; %d problem%s of %s\n", r.dev.name,
          r.dev.sm_count, eng_engine_arch(r.g.eng), r.dev.driver, r.dev.cuda, n, n == 1 ? "" : "s",
          o->suite);

  if (o->bandwidth_gbs > 0) r.dev.bandwidth_gbs = o->bandwidth_gbs;
  else measure_bandwidth(&r);
  unsigned present = 0;
  tcj_dtype c_of[TCJ_F64 + 1];
  for (int i = 0; i < n; i++)
    if (!(present & 1u << probs[i]->ab)) {
      present |= 1u << probs[i]->ab;
      c_of[probs[i]->ab] = probs[i]->c;
    }
  for (int t = 0; t <= TCJ_F64; t++) {
    if (!(present & 1u << t)) continue;
    if (o->peak_tflops > 0) r.dev.peak_tflops[t] = o->peak_tflops;
    else if (o->no_cublas)
      fprintf(stderr, "tcj-prof: peak %s: not measured with --no-cublas (give --peak-tflops)\n",
              tcj_dtype_name((tcj_dtype)t));
    else if (!(r.dev.peak_tflops[t] = measure_peak(&r, (tcj_dtype)t, c_of[t])))
      fprintf(stderr, "tcj-prof: peak %s: not measured; its floors use bandwidth only\n",
              tcj_dtype_name((tcj_dtype)t));
  }

  /* The activation kernel of the bias_silu and bias_gelu_tanh baselines, once. */
  int need_act = 0;
  for (int i = 0; i < n; i++)
    need_act |= !probs[i]->epilogue_source && (manifest_epilogue_act(probs[i]->epilogue) == TCJ_ACT_SILU ||
                                               manifest_epilogue_act(probs[i]->epilogue) == TCJ_ACT_GELU_TANH);
  if (need_act && !o->no_cublas) {
    if (gr_act_compile(&r.g, err, sizeof err) == 0)
      fprintf(stderr, "tcj-prof: activation kernels of the cuBLASLt+bias baselines compiled with NVRTC\n");
    else
      fprintf(stderr, "tcj-prof: warning: %s; bias_silu and bias_gelu_tanh rows get no baseline (tcj is "
              "timed alone)\n", err);
  }

  if (!(rows = calloc((size_t)nj, sizeof *rows))) {
    fprintf(stderr, "tcj-prof: out of memory\n");
    goto done;
  }
  int tty = isatty(STDERR_FILENO);
  for (int i = 0; i < nj; i++) {
    if (tty) {
      char name[sizeof rows[i].name];
      job_name(&jobs[i], name, sizeof name);
      progress_bar(i, nj, name);
    }
    int broken = prof_one(&r, &jobs[i], &rows[i]);
    if (!tty) progress_line(i + 1, nj, &rows[i]);
    if (broken) {
      for (int j = i + 1; j < nj; j++) {
        row_init(&rows[j], &jobs[j]);
        rows[j].status = PROF_TCJ_ERROR;
        snprintf(rows[j].note, sizeof rows[j].note, "not run: the CUDA context broke at %s", rows[i].name);
      }
      break;
    }
  }
  if (tty) fprintf(stderr, "\r\033[K");

  rc = 0;
  for (int i = 0; i < nj; i++) {
    rows[i].floor_us = prof_floor_us(&rows[i], r.dev.peak_tflops[rows[i].ab], r.dev.bandwidth_gbs);
    rc |= rows[i].status == PROF_MISMATCH || rows[i].status == PROF_TCJ_ERROR || rows[i].baseline_off;
  }
  if (prof_print_table(stdout, &r.dev, rows, nj) != 0) rc = 1;
  if (o->out) {
    if (write_file(o->out, "results.txt", prof_print_table, &r.dev, rows, nj) != 0) rc = 1;
    if (write_file(o->out, "results.csv", prof_write_csv, &r.dev, rows, nj) != 0) rc = 1;
    if (write_file(o->out, "results.json", prof_write_json, &r.dev, rows, nj) != 0) rc = 1;
    else plot(o->out);
  }
done:
  free(rows);
  gr_close(&r.g);
  tcj_destroy(r.g.eng);
  return rc;
}

int main(int argc, char **argv) {
  enum { O_SUITE = 256, O_FILTER, O_DTYPE, O_REPEAT, O_OUT, O_NO_CUBLAS, O_COLD, O_DRY_RUN, O_ARCH,
         O_PEAK, O_BW, O_FAST_ACCUM, O_GROUPS_OUT, O_HELP };
  static const struct option longopts[] = {
    {"suite", required_argument, 0, O_SUITE},   {"filter", required_argument, 0, O_FILTER},
    {"dtype", required_argument, 0, O_DTYPE},   {"repeat", required_argument, 0, O_REPEAT},
    {"out", required_argument, 0, O_OUT},       {"no-cublas", no_argument, 0, O_NO_CUBLAS},
    {"cold", no_argument, 0, O_COLD},           {"dry-run", no_argument, 0, O_DRY_RUN},
    {"arch", required_argument, 0, O_ARCH},     {"peak-tflops", required_argument, 0, O_PEAK},
    {"bandwidth-gbs", required_argument, 0, O_BW}, {"fast-accum", required_argument, 0, O_FAST_ACCUM},
    {"groups-out", required_argument, 0, O_GROUPS_OUT}, {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0}};
  data_file("plot_perf.py", g_plot_script, sizeof g_plot_script);
  prof_opts o = {.suite = data_file("suite.yaml", g_default_suite, sizeof g_default_suite), .dtype = -1,
                 .repeat = MIN_REPEAT, .fp8_accum = ACCUM_EXACT | ACCUM_FAST};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'h': case O_HELP: fputs(usage, stdout); return 0;
    case O_SUITE: o.suite = optarg; break;
    case O_FILTER:
      if (o.nfilter == MAX_FILTERS) return bad("too many --filter (32 at most)", optarg);
      o.filter[o.nfilter++] = optarg;
      break;
    case O_DTYPE:
      if ((o.dtype = operand_dtype(optarg)) < 0)
        return bad("--dtype wants f16 bf16 f32 tf32 f64 s8 e4m3 or e5m2", optarg);
      break;
    case O_REPEAT: {
      char *end;
      long v = strtol(optarg, &end, 10);
      if (*optarg == '\0' || *end != '\0' || v < MIN_REPEAT || v > MAX_REPEAT)
        return bad("--repeat wants a run count from 20 to 100000", optarg);
      o.repeat = (int)v;
      break;
    }
    case O_OUT: o.out = optarg; break;
    case O_GROUPS_OUT: o.groups_out = optarg; break;
    case O_NO_CUBLAS: o.no_cublas = 1; break;
    case O_COLD: o.cold = 1; break;
    case O_DRY_RUN: o.dry_run = 1; break;
    case O_ARCH: {
      eng_device_caps caps;
      if (eng_caps_for_arch(optarg, &caps) != 0) return bad("unknown arch", optarg);
      o.arch = optarg;
      break;
    }
    case O_PEAK:
      if (parse_positive(optarg, &o.peak_tflops) != 0) return bad("--peak-tflops wants a positive number", optarg);
      break;
    case O_BW:
      if (parse_positive(optarg, &o.bandwidth_gbs) != 0) return bad("--bandwidth-gbs wants a positive number", optarg);
      break;
    case O_FAST_ACCUM:
      if (strcmp(optarg, "0") == 0) o.fp8_accum = ACCUM_EXACT;
      else if (strcmp(optarg, "1") == 0) o.fp8_accum = ACCUM_FAST;
      else if (strcmp(optarg, "both") == 0) o.fp8_accum = ACCUM_EXACT | ACCUM_FAST;
      else return bad("--fast-accum wants 0, 1 or both", optarg);
      break;
    default: return bad("unknown or incomplete option", argv[optind - 1]);
    }
  }
  if (optind != argc) return bad("unexpected argument", argv[optind]);

  manifest man;
  char err[1024];
  if (manifest_load(o.suite, &man, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  int rc = 2, n = 0, nj = 0;
  const manifest_problem **probs = calloc(man.nproblems ? man.nproblems : 1, sizeof *probs);
  prof_job *jobs = calloc(man.nproblems ? 2 * man.nproblems : 1, sizeof *jobs);
  if (!probs || !jobs) {
    fprintf(stderr, "tcj-prof: out of memory\n");
    goto done;
  }
  for (size_t i = 0; i < man.nproblems; i++) {
    const manifest_problem *p = &man.problems[i];
    int wanted = o.nfilter == 0;
    for (int f = 0; f < o.nfilter && !wanted; f++) wanted = strstr(p->name, o.filter[f]) != NULL;
    if (!wanted) continue;
    if (o.dtype >= 0 && (int)p->ab != o.dtype) continue;
    probs[n++] = p;
  }
  if (n == 0) {
    fprintf(stderr, "tcj-prof: no problem of %s matches", o.suite);
    for (int f = 0; f < o.nfilter; f++) fprintf(stderr, " --filter %s", o.filter[f]);
    fprintf(stderr, "%s%s\n", o.dtype >= 0 ? " --dtype " : "",
            o.dtype >= 0 ? tcj_dtype_name((tcj_dtype)o.dtype) : "");
    goto done;
  }
  nj = make_jobs(&o, probs, n, jobs);
  if (nj == 0) { /* only fp8 problems, none of them in the asked mode */
    fprintf(stderr, "tcj-prof: --fast-accum %s leaves no row of %s (fast_accum: true problems run fast only, "
            "scale: block ones fast_accum 0 only)\n", o.fp8_accum == ACCUM_FAST ? "1" : "0", o.suite);
    goto done;
  }
  if (o.groups_out && write_groups(o.groups_out, jobs, nj) != 0) {
    rc = 1;
    goto done;
  }
  if (o.dry_run) {
    rc = dry_run(&o, n, jobs, nj);
    goto done;
  }
  /* Before the first CUDA call: the driver reads CUDA_CACHE_DISABLE when it starts. */
  char cache_dir[] = "/tmp/tcj-prof-cache-XXXXXX";
  int own_cache = 0;
  if (o.cold) {
    if (gr_fresh_cache_dir(cache_dir) != 0) {
      fprintf(stderr, "tcj-prof: mkdtemp %s: %s\n", cache_dir, strerror(errno));
      rc = 1;
      goto done;
    }
    own_cache = 1;
    o.cache_dir = cache_dir;
    setenv("CUDA_CACHE_DISABLE", "1", 1);
  }
  rc = run_gpu(&o, probs, n, jobs, nj, argc, argv);
  if (own_cache) gr_remove_tree(cache_dir);
done:
  free(probs);
  free(jobs);
  manifest_free(&man);
  return rc;
}
