/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-warmup: fills the kernel cache ahead of time with every kernel the engine would select for
 * the problems of a manifest: through the GPU's engine for its own arch, through nvJitLink for
 * any arch without a GPU (a build machine, CI). Each distinct kernel is compiled once. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/tools_api.h"
#include "tools/gemm_problem.h"
#include "tools/manifest.h"
#include "tools/manifest_gemm.h"
#include "tools/tune_problem.h"

static const char usage[] =
  "usage: tcj-warmup [--arch ARCH]... [--sm-count N] [--cache-dir DIR] [-j N] [--tune] [--dry-run]\n"
  "                  [--generic] [--help] MANIFEST.yaml\n"
  "       tcj-warmup --generic [--arch ARCH]... [--cache-dir DIR] [-j N] [--dry-run]\n"
  "  Compiles into the kernel cache every kernel tcj would select for the manifest's problems\n"
  "  (packed leading dimensions, 16-byte aligned operands), each distinct kernel once, with\n"
  "  their epilogue:, batch:, d_dtype: and epilogue_source: (a user epilogue, compiled by NVRTC:\n"
  "  a problem with one fails when NVRTC is not found). dtype: f16, bf16, f32 (TCJ_F32: fp32\n"
  "  accuracy, 3xTF32 kernels), tf32, f64, e4m3, e5m2 or s8. fp8 problems (dtype: e4m3 or\n"
  "  e5m2; C defaults to bf16) may also say b_dtype: (B of the other fp8 type), d_dtype: e4m3\n"
  "  or e5m2 (an fp8 D apart from C), fast_accum: true (tcj_gemm_desc.fast_accum = 1) and\n"
  "  scale: block (TCJ_SCALE_BLOCK) or tensor (the default). A problem with group: (a grouped\n"
  "  GEMM: contiguous or masked groups, tcj_gemm_desc.group_mode) compiles the grouped kernel\n"
  "  selected for its groups and their expected rows (group_rows_hint).\n"
  "  --arch ARCH     target (sm_80 sm_86 sm_87 sm_89 sm_90[a] sm_100[a] sm_120[a]), repeatable;\n"
  "                  default: the manifest's targets:, else this machine's GPU. The GPU's own\n"
  "                  arch is compiled and loaded through the driver; others through nvJitLink,\n"
  "                  which needs no GPU\n"
  "  --sm-count N    select for parts with N SMs (applies to every --arch): the SM count decides\n"
  "                  split factors and tiles, so a fleet warms one pass per SKU. Default: the\n"
  "                  GPU's own count for its arch, else the arch's flagship count; a manifest's\n"
  "                  targets: may say it per target ({arch: sm_90a, sm_count: 114})\n"
  "  --cache-dir DIR cache directory (default $TCJ_CACHE_DIR, else $XDG_CACHE_HOME/tcj, else\n"
  "                  ~/.cache/tcj)\n"
  "  -j N            parallel compiles (default: the number of CPUs)\n"
  "  --tune          then, on this machine's GPU, run each problem once with the autotuner\n"
  "                  (TCJ_TUNE=1): the candidates are timed on random operands and the fastest\n"
  "                  is kept in the cache, so that engines on GPUs of this model and SM count\n"
  "                  run it without tuning. Needs a GPU; prints `tuned PROBLEM: CONFIG`\n"
  "  --generic       also (or, without a manifest, only) the generic kernels of each arch\n"
  "                  (TCJ_JIT=generic and async run them: n and k are run-time arguments): every\n"
  "                  op pair of f16, bf16 (into themselves and f32), tf32, f32 (fp32 accuracy),\n"
  "                  s8, from sm_89 e4m3 and e5m2 (into bf16), and f64: at most 24 kernels per\n"
  "                  type pair and arch\n"
  "  --dry-run       list each problem, arch, SM count and kernel config; compile nothing\n"
  "  Problems no kernel supports on an arch (fp8 before sm_89, block scales off sm_90a or in a\n"
  "  batch, f64 where the engine has no f64 kernels) print `skip ...` on stderr and do not count\n"
  "  as failures. The last line of stdout is `compiled=N hit=N failed=N seconds=S` (`would\n"
  "  compile N kernels` with --dry-run; ` tuned=N` follows with --tune, and a problem that fails\n"
  "  to tune counts as failed).\n"
  "  Exit status: 0 ok, 1 a kernel failed to compile, 2 bad usage or a manifest error.\n";

#define MAX_ARCHS 16
#define BAR_WIDTH 30

static int bad(const char *msg, const char *arg) {
  fprintf(stderr, "tcj-warmup: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
  return 2;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { J_PENDING, J_COMPILED, J_HIT, J_FAILED };
static const char *const result_name[] = {"pending", "compiled", "hit", "FAILED"};

typedef struct job {
  char arch[16];
  tcj_kernel_cfg cfg;
  const char *user_source, *user_path; /* the user epilogue of cfg->user and its file, else NULL */
  char text[512]; /* the plan's config text (a split's count included) */
  char key[512];  /* the kernel's (tcj_cfg_kernel_form): jobs are deduplicated by it */
  int on_engine; /* arch is the GPU's: load through the engine (the driver vets the cubin) */
  int result;
  double ms;
  char err[1024];
} job;

typedef struct warm_run {
  job *jobs;
  size_t njobs;
  atomic_size_t next;
  tcj_engine *engine;
  cache_disk *disk;
  const char *no_jitlink; /* why offline jobs cannot compile, or NULL */
  int tty;
  pthread_mutex_t mu; /* counters and the terminal */
  size_t done, counts[4];
} warm_run;

static void draw_bar(const warm_run *r) {
  char bar[BAR_WIDTH + 1];
  size_t filled = r->njobs ? r->done * BAR_WIDTH / r->njobs : BAR_WIDTH;
  for (size_t i = 0; i < BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
  bar[BAR_WIDTH] = '\0';
  fprintf(stderr, "\r\033[K[%s] %zu/%zu compiled=%zu hit=%zu failed=%zu", bar, r->done, r->njobs,
          r->counts[J_COMPILED], r->counts[J_HIT], r->counts[J_FAILED]);
  fflush(stderr);
}

/* Called with r->mu held. */
static void report(warm_run *r, const job *j) {
  if (r->tty) {
    if (j->result == J_FAILED)
      fprintf(stderr, "\r\033[KFAILED %s %s%s%s%s: %s\n", j->arch, j->text, j->user_path ? " (epilogue_source " : "",
              j->user_path ? j->user_path : "", j->user_path ? ")" : "", j->err);
    draw_bar(r);
    return;
  }
  printf("%s %s %s (%.1f ms)\n", result_name[j->result], j->arch, j->text, j->ms);
  fflush(stdout);
  if (j->result == J_FAILED)
    fprintf(stderr, "tcj-warmup: %s %s%s%s%s: %s\n", j->arch, j->text, j->user_path ? " (epilogue_source " : "",
            j->user_path ? j->user_path : "", j->user_path ? ")" : "", j->err);
}

static void *worker(void *arg) {
  warm_run *r = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&r->next, 1);
    if (i >= r->njobs) return NULL;
    job *j = &r->jobs[i];
    double t0 = now_s();
    int hit = 0;
    tcj_status st;
    if (j->on_engine) {
      st = eng_warm_engine(r->engine, &j->cfg, j->user_source, &hit);
      if (st != TCJ_SUCCESS) snprintf(j->err, sizeof j->err, "%s", tcj_last_error(r->engine));
    } else if (r->no_jitlink) {
      st = TCJ_ERROR_NOT_SUPPORTED;
      snprintf(j->err, sizeof j->err, "%s", r->no_jitlink);
    } else {
      st = eng_warm_offline(r->disk, &j->cfg, j->user_source, &hit, j->err, sizeof j->err);
    }
    j->ms = 1e3 * (now_s() - t0);
    j->result = st != TCJ_SUCCESS ? J_FAILED : hit ? J_HIT : J_COMPILED;
    pthread_mutex_lock(&r->mu);
    r->done++;
    r->counts[j->result]++;
    report(r, j);
    pthread_mutex_unlock(&r->mu);
  }
}

/* Disk cache warnings come from the workers, in the middle of the bar. */
static void warn_cb(void *ctx, const char *message) {
  warm_run *r = ctx;
  pthread_mutex_lock(&r->mu);
  fprintf(stderr, "%stcj-warmup: warning: %s\n", r->tty ? "\r\033[K" : "", message);
  if (r->tty) draw_bar(r);
  pthread_mutex_unlock(&r->mu);
}

/* The engine's kernel for pr on arch, or a reason why there is none. */
static const char *select_cfg(const manifest_problem *pr, const eng_device_caps *caps_in, const eng_tuning *tuning,
                              tcj_kernel_cfg *cfg) {
  eng_device_caps caps = *caps_in;
  gemm_problem p = manifest_gemm(pr);
  eng_plan plan;
  const char *why = NULL;
  if (gemm_problem_select(&p, &caps, tuning, &plan, &why) != TCJ_SUCCESS) return why;
  *cfg = plan.cfg;
  return NULL;
}

/* "name m=M n=N k=K", then what tcj_gemm_ex adds: " epilogue=bias_gelu batch=8 broadcast_b
 * d=f32 b=e5m2 fast_accum scale=block source=FILE". */
static void describe(const manifest_problem *pr, char *out, size_t size) {
  int n = snprintf(out, size, "%s m=%lld n=%lld k=%lld", pr->name, (long long)pr->m, (long long)pr->n,
                   (long long)pr->k);
  if (n >= 0 && (size_t)n < size && pr->epilogue != MANIFEST_EPI_NONE)
    n += snprintf(out + n, size - (size_t)n, " epilogue=%s", manifest_epilogue_name(pr->epilogue));
  if (n >= 0 && (size_t)n < size && pr->batch > 1)
    n += snprintf(out + n, size - (size_t)n, " batch=%lld%s", (long long)pr->batch,
                  pr->broadcast_b ? " broadcast_b" : "");
  if (n >= 0 && (size_t)n < size && pr->has_d)
    n += snprintf(out + n, size - (size_t)n, " d=%s", tcj_dtype_name(pr->d));
  if (n >= 0 && (size_t)n < size && pr->has_b)
    n += snprintf(out + n, size - (size_t)n, " b=%s", tcj_dtype_name(pr->b));
  if (n >= 0 && (size_t)n < size && pr->fast_accum) n += snprintf(out + n, size - (size_t)n, " fast_accum");
  if (n >= 0 && (size_t)n < size && pr->scale != TCJ_SCALE_TENSOR)
    n += snprintf(out + n, size - (size_t)n, " scale=%s", pr->scale == TCJ_SCALE_BLOCK ? "block" : "row");
  if (n >= 0 && (size_t)n < size && pr->group.mode != TCJ_GROUP_NONE)
    n += snprintf(out + n, size - (size_t)n, " group=%s:%lld%s", pr->group.mode == TCJ_GROUP_M_MASKED ? "masked"
                  : pr->group.mode == TCJ_GROUP_K_CONTIGUOUS ? "k" : "contiguous", (long long)pr->group.count,
                  pr->group.ends64 ? " ends=int64" : "");
  if (n >= 0 && (size_t)n < size && (pr->row_scale || pr->b_ptrs || pr->gather || pr->scatter))
    n += snprintf(out + n, size - (size_t)n, "%s%s%s%s%s", pr->row_scale ? " row_scale" : "", pr->b_ptrs ? " b_ptrs" : "",
                  pr->gather ? " gather" : "", pr->scatter ? " scatter=" : "",
                  pr->scatter ? gemm_scatter_name(pr->scatter) : "");
  if (n >= 0 && (size_t)n < size && pr->epilogue_path)
    snprintf(out + n, size - (size_t)n, " source=%s", pr->epilogue_path);
}

/* Distinct (arch, cfg text) pairs: open addressing over job indices. */
/* j->key from j->cfg: plans that differ only in a split's count (a launch value) are one kernel. */
static int kernel_key(job *j) {
  tcj_kernel_cfg kernel = tcj_cfg_kernel_form(&j->cfg);
  return tcj_cfg_format(&kernel, j->key, sizeof j->key);
}

typedef struct dedupe {
  size_t *slot; /* job index + 1; 0 empty */
  size_t cap;
} dedupe;

static uint64_t fnv1a(const char *a, const char *b) {
  uint64_t h = 1469598103934665603ull;
  for (const char *s = a; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  h = (h ^ '|') * 1099511628211ull;
  for (const char *s = b; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Returns 1 if jobs[n] (just filled) duplicates an earlier job, 0 if new, -1 out of memory. */
static int dedupe_add(dedupe *d, const job *jobs, size_t n) {
  if (2 * (n + 1) > d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < d->cap; i++)
      if (d->slot[i]) {
        size_t h = fnv1a(jobs[d->slot[i] - 1].arch, jobs[d->slot[i] - 1].key) & (cap - 1);
        while (slot[h]) h = (h + 1) & (cap - 1);
        slot[h] = d->slot[i];
      }
    free(d->slot);
    d->slot = slot;
    d->cap = cap;
  }
  size_t h = fnv1a(jobs[n].arch, jobs[n].key) & (d->cap - 1);
  for (; d->slot[h]; h = (h + 1) & (d->cap - 1)) {
    const job *o = &jobs[d->slot[h] - 1];
    if (strcmp(o->arch, jobs[n].arch) == 0 && strcmp(o->key, jobs[n].key) == 0) return 1;
  }
  d->slot[h] = n + 1;
  return 0;
}

/* --generic: the generic set of arch (engine/generic_set.h), each kernel once, appended to the
 * jobs. Returns 0, or -1 when out of memory. */
static int add_generic_jobs(job **jobs, size_t *njobs, size_t *cap, dedupe *seen, const char *arch,
                            const eng_device_caps *caps, const char *gpu_arch, int dry_run) {
  ptx_elem ab[ENG_GENERIC_PAIRS_MAX], c[ENG_GENERIC_PAIRS_MAX];
  int npairs = eng_generic_pairs(caps, ab, c);
  for (int t = 0; t < npairs; t++) {
    tcj_kernel_cfg set[64];
    int n = eng_generic_set(caps, ab[t], c[t], set, 64);
    for (int i = 0; i < n; i++) {
      if (*njobs == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 64;
        job *grown = realloc(*jobs, grown_cap * sizeof *grown);
        if (!grown) return -1;
        *jobs = grown;
        *cap = grown_cap;
      }
      job *j = &(*jobs)[*njobs];
      memset(j, 0, sizeof *j);
      j->cfg = set[i];
      if (tcj_cfg_format(&j->cfg, j->text, sizeof j->text) < 0 || kernel_key(j) < 0)
        continue;
      snprintf(j->arch, sizeof j->arch, "%s", arch);
      int dup = dedupe_add(seen, *jobs, *njobs);
      if (dup < 0) return -1;
      if (dry_run) printf("generic %s>%s %s %s%s\n", ptx_elem_name(ab[t]), ptx_elem_name(c[t]), arch, j->text,
                          dup ? " (already listed)" : "");
      if (dup) continue;
      j->on_engine = gpu_arch && strcmp(arch, gpu_arch) == 0;
      (*njobs)++;
    }
  }
  return 0;
}

/* --tune: each problem the GPU's arch runs, once through the engine's autotuner (after the
 * compiles, one at a time: timings taken side by side would measure each other). */
static void tune_all(const manifest *man, tcj_engine *engine, const char *gpu_arch, size_t *tuned, size_t *failed) {
  eng_device_caps caps;
  eng_engine_caps(engine, &caps);
  for (size_t i = 0; i < man->nproblems; i++) {
    const manifest_problem *pr = &man->problems[i];
    char what[768], choice[512], err[1024];
    describe(pr, what, sizeof what);
    tcj_kernel_cfg cfg;
    if (pr->group.mode != TCJ_GROUP_NONE || pr->row_scale) { /* the autotuner's calls have no grouped or
                                                                 row_scale arrays to pass */
      fprintf(stderr, "skip tuning %s %s: %s calls are not tuned (TCJ_TUNE)\n", what, gpu_arch,
              pr->group.mode != TCJ_GROUP_NONE ? "grouped" : "row_scale");
      continue;
    }
    const char *skip = select_cfg(pr, &caps, NULL, &cfg);
    if (skip) {
      fprintf(stderr, "skip tuning %s %s: %s\n", what, gpu_arch, skip);
      continue;
    }
    gemm_problem p = manifest_gemm(pr);
    double t0 = now_s();
    if (tune_problem(engine, &p, choice, sizeof choice, err, sizeof err) == TCJ_SUCCESS) {
      printf("tuned %s: %s (%.1f s)\n", what, choice, now_s() - t0);
      ++*tuned;
    } else {
      fprintf(stderr, "FAILED tuning %s: %s\n", what, err);
      ++*failed;
    }
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  enum { O_ARCH = 256, O_CACHE_DIR, O_DRY_RUN, O_HELP, O_SM_COUNT, O_TUNE, O_GENERIC };
  static const struct option opts[] = {
    {"arch", required_argument, 0, O_ARCH}, {"cache-dir", required_argument, 0, O_CACHE_DIR},
    {"sm-count", required_argument, 0, O_SM_COUNT},
    {"dry-run", no_argument, 0, O_DRY_RUN}, {"help", no_argument, 0, O_HELP}, {"tune", no_argument, 0, O_TUNE},
    {"jobs", required_argument, 0, 'j'},    {"generic", no_argument, 0, O_GENERIC}, {0, 0, 0, 0}};
  const char *archs[MAX_ARCHS], *cache_dir = NULL;
  int sm_counts[MAX_ARCHS] = {0}, narch = 0, dry_run = 0, sm_count = 0, tune = 0, generic = 0;
  long nthreads = sysconf(_SC_NPROCESSORS_ONLN);
  int o;
  opterr = 0;
  while ((o = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
    switch (o) {
    case 'h': case O_HELP: fputs(usage, stdout); return 0;
    case O_ARCH: {
      eng_device_caps caps;
      if (eng_caps_for_arch(optarg, &caps) != 0) return bad("unknown arch", optarg);
      int seen = 0;
      for (int i = 0; i < narch; i++) seen |= strcmp(archs[i], optarg) == 0;
      if (seen) break;
      if (narch == MAX_ARCHS) return bad("too many --arch", optarg);
      archs[narch++] = optarg;
      break;
    }
    case O_CACHE_DIR: cache_dir = optarg; break;
    case O_SM_COUNT:
      if (gemm_parse_sm_count(optarg, &sm_count)) return bad("--sm-count wants an SM count from 1 to 1024", optarg);
      break;
    case O_DRY_RUN: dry_run = 1; break;
    case O_TUNE: tune = 1; break;
    case O_GENERIC: generic = 1; break;
    case 'j': {
      char *end;
      nthreads = strtol(optarg, &end, 10);
      if (*optarg == '\0' || *end != '\0' || nthreads < 1 || nthreads > 1024)
        return bad("-j wants a thread count from 1 to 1024", optarg);
      break;
    }
    default: return bad("unknown or incomplete option", argv[optind - 1]);
    }
  }
  if (generic && tune && optind == argc) return bad("--tune tunes a manifest's problems: give one", NULL);
  if (optind + 1 != argc && !(generic && optind == argc))
    return bad(optind == argc ? "no manifest given (or --generic)" : "one manifest only", NULL);
  if (nthreads < 1) nthreads = 1;
  const char *path = optind < argc ? argv[optind] : NULL;
  double t0 = now_s();

  int rc = 2;
  manifest man;
  char err[1024], envbuf[4096];
  tcj_engine *engine = NULL;
  cache_disk *disk = NULL;
  job *jobs = NULL;
  dedupe seen = {0};
  size_t njobs = 0, cap = 0, prefailed = 0; /* prefailed: problems that failed before any compile */
  memset(&man, 0, sizeof man);
  if (path && manifest_load(path, &man, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  for (int a = 0; a < narch; a++) sm_counts[a] = sm_count; /* --sm-count applies to every --arch */
  if (narch == 0) /* --arch overrides targets: */
    for (size_t t = 0; t < man.ntargets; t++) {
      int dup = 0, count = man.target_sm_counts[t] ? man.target_sm_counts[t] : sm_count;
      for (int a = 0; a < narch; a++) dup |= strcmp(archs[a], man.targets[t]) == 0 && sm_counts[a] == count;
      if (!dup && narch < MAX_ARCHS) {
        sm_counts[narch] = count;
        archs[narch++] = man.targets[t];
      }
    }

  eng_tuning tuning;
  const char *why = eng_tuning_from_env(&tuning);
  if (why) {
    fprintf(stderr, "tcj-warmup: %s\n", why);
    goto done;
  }
  cache_disk_config dc;
  int env = cache_disk_config_with_dir(&dc, cache_dir, envbuf, sizeof envbuf, &why);
  if (env < 0) {
    fprintf(stderr, "tcj-warmup: %s\n", why ? why : "bad cache settings in the environment");
    goto done;
  }
  if (env > 0) {
    fprintf(stderr, "tcj-warmup: TCJ_CACHE_DISABLE is set: there is no cache to fill\n");
    goto done;
  }
  if (cache_dir) dc.dir = cache_dir;
  if (!dc.dir) {
    fprintf(stderr, "tcj-warmup: no cache directory: pass --cache-dir or set TCJ_CACHE_DIR\n");
    goto done;
  }

  /* A GPU compiles and vets its own arch; without archs it also says which arch to fill. */
  const char *gpu_arch = NULL;
  if (tune) {
    if (tuning.recipe || tuning.tile.valid) {
      fprintf(stderr, "tcj-warmup: --tune times the engine's own candidates: unset TCJ_RECIPE and TCJ_TILE\n");
      goto done;
    }
  }
  if (!dry_run || narch == 0 || tune) {
    tcj_options eo = TCJ_OPTIONS_INIT;
    eo.cache_dir = dc.dir;
    tcj_status st = tune ? eng_create_tuned(&engine, &eo) : tcj_create(&engine, &eo);
    if (st == TCJ_SUCCESS) {
      gpu_arch = eng_engine_arch(engine);
    } else if (tune) {
      fprintf(stderr, "tcj-warmup: --tune needs a GPU (%s: %s)\n", tcj_status_string(st), tcj_last_error(NULL));
      goto done;
    } else if (narch == 0) {
      fprintf(stderr, "tcj-warmup: no GPU to take the arch from (%s: %s); pass --arch ARCH\n",
              tcj_status_string(st), tcj_last_error(NULL));
      goto done;
    }
    if (narch == 0) {
      sm_counts[0] = sm_count;
      archs[narch++] = gpu_arch;
    }
  }

  int have_nvrtc = eng_nvrtc_available(NULL, 0);
  for (size_t p = 0; p < man.nproblems; p++) {
    const manifest_problem *pr = &man.problems[p];
    char what[768];
    describe(pr, what, sizeof what);
    if (pr->epilogue_source && !have_nvrtc) {
      /* Not a skip: the manifest asks for a kernel this machine cannot build. */
      fprintf(stderr, "FAILED %s: epilogue_source %s needs NVRTC (libnvrtc.so.13 or .12) to compile, and it was "
              "not found\n", what, pr->epilogue_path);
      prefailed++;
      continue;
    }
    for (int a = 0; a < narch; a++) {
      if (njobs == cap) {
        cap = cap ? 2 * cap : 64;
        job *grown = realloc(jobs, cap * sizeof *grown);
        if (!grown) {
          fprintf(stderr, "tcj-warmup: out of memory\n");
          goto done;
        }
        jobs = grown;
      }
      job *j = &jobs[njobs];
      memset(j, 0, sizeof *j);
      /* The caps select sees: the GPU's own (the engine's: what tcj_gemm will select there) for
       * its arch, else the arch's table entry; an SM count given wins over both. */
      eng_device_caps caps;
      if (engine && gpu_arch && strcmp(archs[a], gpu_arch) == 0) eng_engine_caps(engine, &caps);
      else if (eng_caps_for_arch(archs[a], &caps) != 0) continue; /* checked when parsed */
      if (sm_counts[a]) caps.sm_count = sm_counts[a];
      const char *skip = select_cfg(pr, &caps, &tuning, &j->cfg);
      if (!skip && (tcj_cfg_format(&j->cfg, j->text, sizeof j->text) < 0 || kernel_key(j) < 0))
        skip = "config text too long";
      if (skip) {
        fprintf(stderr, "skip %s %s: %s\n", what, archs[a], skip);
        continue;
      }
      snprintf(j->arch, sizeof j->arch, "%s", archs[a]);
      j->user_source = j->cfg.user ? pr->epilogue_source : NULL;
      j->user_path = j->cfg.user ? pr->epilogue_path : NULL;
      int dup = dedupe_add(&seen, jobs, njobs);
      if (dup < 0) {
        fprintf(stderr, "tcj-warmup: out of memory\n");
        goto done;
      }
      if (dry_run) printf("%s %s (%d SMs) %s%s\n", what, j->arch, caps.sm_count, j->text, dup ? " (already listed)" : "");
      if (dup) continue;
      j->on_engine = gpu_arch && strcmp(j->arch, gpu_arch) == 0;
      njobs++;
    }
  }
  if (generic) {
    for (int a = 0; a < narch; a++) {
      eng_device_caps caps;
      if (engine && gpu_arch && strcmp(archs[a], gpu_arch) == 0) eng_engine_caps(engine, &caps);
      else if (eng_caps_for_arch(archs[a], &caps) != 0) continue;
      if (sm_counts[a]) caps.sm_count = sm_counts[a];
      if (add_generic_jobs(&jobs, &njobs, &cap, &seen, archs[a], &caps, gpu_arch, dry_run) != 0) {
        fprintf(stderr, "tcj-warmup: out of memory\n");
        goto done;
      }
    }
  }
  if (dry_run) {
    printf("would compile %zu kernels\n", njobs);
    rc = prefailed ? 1 : 0;
    goto done;
  }

  warm_run r;
  memset(&r, 0, sizeof r);
  r.jobs = jobs;
  r.njobs = njobs;
  atomic_init(&r.next, 0);
  r.engine = engine;
  r.tty = isatty(STDERR_FILENO);
  pthread_mutex_init(&r.mu, NULL);
  static char no_jitlink[256];
  char ver[128];
  for (size_t i = 0; i < njobs && !r.no_jitlink; i++)
    if (!jobs[i].on_engine && !eng_nvjitlink_available(ver, sizeof ver)) {
      snprintf(no_jitlink, sizeof no_jitlink, "nvJitLink not found (libnvJitLink.so of the CUDA "
               "toolkit): it compiles for %s without that GPU", jobs[i].arch);
      fprintf(stderr, "tcj-warmup: %s\n", no_jitlink);
      r.no_jitlink = no_jitlink;
    }
  if (!(disk = cache_disk_open(&dc, NULL))) {
    fprintf(stderr, "tcj-warmup: out of memory\n");
    goto done;
  }
  cache_disk_set_warn(disk, warn_cb, &r);
  r.disk = disk;
  /* An unwritable or untrusted directory fails every job: say so once, up front. */
  if (cache_disk_prepare(disk) != 0) {
    fprintf(stderr, "tcj-warmup: cannot fill the cache directory %s (the warning above says why)\n", dc.dir);
    pthread_mutex_destroy(&r.mu);
    rc = 1;
    goto done;
  }
  size_t nworkers = (size_t)nthreads < njobs ? (size_t)nthreads : njobs;
  pthread_t *threads = calloc(nworkers ? nworkers : 1, sizeof *threads);
  if (!threads) {
    fprintf(stderr, "tcj-warmup: out of memory\n");
    goto done;
  }
  if (r.tty) draw_bar(&r);
  size_t started = 0;
  for (; started < nworkers; started++)
    if (pthread_create(&threads[started], NULL, worker, &r) != 0) break;
  if (started == 0 && nworkers > 0) worker(&r); /* no thread could start: do the work here */
  for (size_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
  free(threads);
  cache_disk_close(disk); /* before the mutex its warnings take */
  disk = NULL;
  pthread_mutex_destroy(&r.mu);
  if (r.tty) fputc('\n', stderr);
  size_t tuned = 0, tune_failed = 0;
  if (tune) tune_all(&man, engine, gpu_arch, &tuned, &tune_failed);
  printf("compiled=%zu hit=%zu failed=%zu seconds=%.1f", r.counts[J_COMPILED], r.counts[J_HIT],
         r.counts[J_FAILED] + prefailed + tune_failed, now_s() - t0);
  if (tune) printf(" tuned=%zu", tuned);
  putchar('\n');
  rc = r.counts[J_FAILED] + prefailed + tune_failed ? 1 : 0;
done:
  if (fflush(stdout) != 0 && rc == 0) rc = 1;
  free(seen.slot);
  free(jobs);
  cache_disk_close(disk);
  tcj_destroy(engine);
  manifest_free(&man);
  return rc;
}
