/* Every kernel ptxgen writes for a matrix of configs (types, op pairs, alignments, tiles, edge
 * sizes) must be deterministic and compile through nvJitLink for sm_80, sm_89 and sm_90a with no
 * spills and a register count that fits the block; so must every config eng_select picks for a
 * grid of problems on those arches (the kernels a user can actually get). No GPU needed; without nvJitLink the test is
 * skipped with a message, and fails when CI is set. TCJ_COMPILE_MATRIX=full runs every cross;
 * TCJ_COMPILE_MATRIX_VERBOSE=1 prints the registers of every kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "engine/jit.h"
#include "engine/select.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"

enum {
  SM89_SMEM_OPTIN = 101376, /* max dynamic shared memory per block on sm_86/sm_89 */
  MAX_REGS_PER_THREAD = 255,
  REGS_PER_SM = 65536,
  MIN_CONFIGS = 100,
  MAX_CONFIGS = 512,
  MAX_SELECTED = 2048,
  MAX_WORKERS = 4,
  NEAR_REG_LIMIT = 240, /* reported in the summary: kernels one change away from spilling */
};

static const struct { const char *name; int sm, suffix; } archs[] = {
  {"sm_80", 80, 0}, {"sm_89", 89, 0}, {"sm_90a", 90, 'a'}};
#define N_ARCHS (int)(sizeof archs / sizeof archs[0])

typedef struct job {
  tcj_kernel_cfg cfg; /* arch fields set */
  int arch;           /* index into archs */
  char text[256];
  /* Results, written by the one worker that ran the job, read after the join. */
  int gen_failed, nondeterministic, compile_failed, no_report, spills, registers;
  double seconds;
  char *message; /* generator or compiler error, or the info log when the resources are bad */
} job;

typedef struct matrix {
  job *jobs;
  int count;
  atomic_int next;
} matrix;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *dup_str(const char *s) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static void run_job(job *j) {
  char err[4096] = "";
  char *ptx = NULL, *again = NULL;
  size_t len = 0, again_len = 0;
  eng_cubin cubin;
  memset(&cubin, 0, sizeof cubin);
  double t0 = now();
  j->spills = -1;
  if (ptx_gen_gemm(&j->cfg, &ptx, &len, err, sizeof err) != 0 || !ptx) {
    j->gen_failed = 1;
    j->message = dup_str(err);
    goto done;
  }
  if (ptx_gen_gemm(&j->cfg, &again, &again_len, err, sizeof err) != 0 || !again ||
      again_len != len || memcmp(ptx, again, len) != 0) {
    j->nondeterministic = 1;
    goto done;
  }
  err[0] = 0;
  tcj_status st = eng_jit_compile_nvjitlink(ptx, len, archs[j->arch].name, &cubin, err, sizeof err);
  if (st != TCJ_SUCCESS) {
    j->compile_failed = 1;
    j->message = dup_str(err[0] ? err : "(empty error log)");
    goto done;
  }
  j->spills = eng_info_log_spills(cubin.info_log, &j->registers);
  if (j->spills < 0) j->no_report = 1;
  int threads = tcj_cfg_threads(&j->cfg);
  if (j->spills != 0 || j->registers > MAX_REGS_PER_THREAD || j->registers * threads > REGS_PER_SM)
    j->message = dup_str(cubin.info_log ? cubin.info_log : "(no info log)");
done:
  j->seconds = now() - t0;
  eng_cubin_free(&cubin);
  free(ptx);
  free(again);
}

static void *worker(void *arg) {
  matrix *m = arg;
  for (;;) {
    int i = atomic_fetch_add(&m->next, 1);
    if (i >= m->count) return NULL;
    run_job(&m->jobs[i]);
  }
}

/* ---- The config matrix ---- */

static const struct { ptx_elem ab, c; } types[] = {
  {PTX_E_F16, PTX_E_F16}, {PTX_E_F16, PTX_E_F32}, {PTX_E_BF16, PTX_E_BF16},
  {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
static const struct { int bm, bn, wm, wn; } tiles[] = {
  {128, 256, 2, 4}, {128, 128, 2, 2}, {128, 128, 2, 4}, {64, 64, 2, 2}, {32, 128, 1, 4}};
static const int aligns[] = {16, 4};
/* Edges: n and k multiples of every tile, or neither (odd k, n not a multiple of 8). */
static const struct { int64_t n, k; } edges[] = {{4096, 4096}, {1000, 999}, {999, 1000}};

static tcj_kernel_cfg make_cfg(int t, int op, int g, int a, int e) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = 80;
  c.ab = types[t].ab;
  c.c = types[t].c;
  c.op_a_t = op >> 1;
  c.op_b_t = op & 1;
  c.n = edges[e].n;
  c.k = edges[e].k;
  c.bm = tiles[g].bm;
  c.bn = tiles[g].bn;
  c.bk = 64 / ptx_elem_size(c.ab); /* 64-byte K tile */
  c.warps_m = tiles[g].wm;
  c.warps_n = tiles[g].wn;
  c.align_a = c.align_b = aligns[a];
  c.vec_c = c.n % 2 == 0 ? 2 : 1;
  /* Deepest pipeline (of 4, 3) that fits the smallest opt-in among the target archs. */
  c.stages = (t + op + g) % 2 ? 3 : 4;
  while (c.stages > 3 && tcj_cfg_smem_bytes(&c) > SM89_SMEM_OPTIN) c.stages--;
  return c;
}

/* By default each (type, op, tile) gets two of the four (alignment, edge) pairs, alternating so
 * that every pair appears for every type; TCJ_COMPILE_MATRIX=full takes all four. */
static int build_configs(tcj_kernel_cfg *out, int max) {
  const char *env = getenv("TCJ_COMPILE_MATRIX");
  int full = env && strcmp(env, "full") == 0, n = 0, combo = 0;
  for (int t = 0; t < (int)(sizeof types / sizeof *types); t++)
    for (int op = 0; op < 4; op++)
      for (int g = 0; g < (int)(sizeof tiles / sizeof *tiles); g++, combo++)
        for (int a = 0; a < 2; a++)
          for (int odd = 0; odd < 2; odd++) {
            if (!full && (a ^ odd) != (combo & 1)) continue;
            int e = odd ? 1 + (combo / 2) % 2 : 0;
            tcj_kernel_cfg c = make_cfg(t, op, g, a, e);
            if (tcj_cfg_check(&c) || tcj_cfg_smem_bytes(&c) > SM89_SMEM_OPTIN) continue;
            if (n < max) out[n] = c;
            n++;
          }
  return n;
}

/* ---- The configs selection picks ---- */

static const struct { ptx_elem ab, c; } problem_types[] = {
  {PTX_E_F16, PTX_E_F16}, {PTX_E_F16, PTX_E_F32}, {PTX_E_BF16, PTX_E_BF16}, {PTX_E_BF16, PTX_E_F32},
  {PTX_E_F16, PTX_E_BF16}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
/* One shape per tile class: decode (skinny, split-K), small, small split-K (deep K), medium,
 * large, odd large (edges, packing). */
static const struct { int64_t m, n, k; } problem_shapes[] = {
  {1, 4096, 4096}, {100, 1000, 999}, {500, 500, 60001}, {1024, 2048, 4096}, {4096, 4096, 4096},
  {4095, 4095, 4095}};
static const int problem_aligns[] = {16, 4, 1}; /* 1: below any copy width, so packed */

/* Appends the configs eng_select picks (each with its own arch) that are not in out yet. */
static int collect_selected(tcj_kernel_cfg *out, int n, int max) {
  char a[256], b[256];
  for (int ar = 0; ar < N_ARCHS; ar++) {
    eng_device_caps caps;
    assert_int_equal(eng_caps_for_arch(archs[ar].name, &caps), 0);
    for (size_t t = 0; t < sizeof problem_types / sizeof *problem_types; t++)
      for (int op = 0; op < 4; op++)
        for (size_t sh = 0; sh < sizeof problem_shapes / sizeof *problem_shapes; sh++)
          for (size_t al = 0; al < sizeof problem_aligns / sizeof *problem_aligns; al++) {
            eng_problem p;
            memset(&p, 0, sizeof p);
            p.op_a_t = op >> 1;
            p.op_b_t = op & 1;
            p.m = problem_shapes[sh].m;
            p.n = problem_shapes[sh].n;
            p.k = problem_shapes[sh].k;
            p.ab = problem_types[t].ab;
            p.c = problem_types[t].c;
            p.lda = p.op_a_t ? p.m : p.k;
            p.ldb = p.op_b_t ? p.k : p.n;
            p.ldc = p.n;
            p.align_a = p.align_b = problem_aligns[al] < ptx_elem_size(p.ab) ? ptx_elem_size(p.ab) : problem_aligns[al];
            p.align_c = 16;
            eng_plan plan;
            const char *why = NULL;
            tcj_status st = eng_select(&p, &caps, 1, &plan, &why);
            if (st != TCJ_SUCCESS) print_error("eng_select %s m=%lld: %s\n", archs[ar].name, (long long)p.m, why);
            assert_int_equal(st, TCJ_SUCCESS);
            assert_true(tcj_cfg_format(&plan.cfg, a, sizeof a) > 0);
            int seen = 0;
            for (int i = 0; i < n && !seen; i++) {
              assert_true(tcj_cfg_format(&out[i], b, sizeof b) > 0);
              seen = strcmp(a, b) == 0;
            }
            if (seen) continue;
            assert_true(n < max);
            out[n++] = plan.cfg;
          }
  }
  return n;
}

static void config_matrix_is_large_and_valid(void **state) {
  (void)state;
  static tcj_kernel_cfg cfgs[MAX_CONFIGS];
  int n = build_configs(cfgs, MAX_CONFIGS);
  assert_true(n <= MAX_CONFIGS);
  if (n < MIN_CONFIGS) print_error("only %d configs pass tcj_cfg_check\n", n);
  assert_true(n >= MIN_CONFIGS);
  char a[256], b[256];
  for (int i = 0; i < n; i++) {
    assert_null(tcj_cfg_check(&cfgs[i]));
    assert_true(tcj_cfg_format(&cfgs[i], a, sizeof a) > 0);
    for (int j = 0; j < i; j++) {
      assert_true(tcj_cfg_format(&cfgs[j], b, sizeof b) > 0);
      if (strcmp(a, b) == 0) print_error("config %d and %d are both %s\n", j, i, a);
      assert_true(strcmp(a, b) != 0);
    }
  }
}

static void every_kernel_compiles_for_every_arch_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  if (!eng_nvjitlink_available(version, sizeof version)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set: the compile matrix must run in CI");
    print_message("[  SKIPPED ] nvJitLink is not available; the compile matrix needs it (CI fails here)\n");
    skip();
  }

  static tcj_kernel_cfg cfgs[MAX_CONFIGS];
  int ncfg = build_configs(cfgs, MAX_CONFIGS);
  assert_true(ncfg >= MIN_CONFIGS && ncfg <= MAX_CONFIGS);

  /* The matrix for every arch, then what selection picks, each for the arch it was picked for
   * (selected configs carry their arch; those already in the matrix are skipped). */
  static tcj_kernel_cfg selected[MAX_SELECTED];
  int nsel = 0;
  for (int i = 0; i < ncfg; i++)
    for (int a = 0; a < N_ARCHS; a++) {
      selected[nsel] = cfgs[i];
      selected[nsel].sm = archs[a].sm;
      selected[nsel++].arch_suffix = archs[a].suffix;
    }
  int nmatrix = nsel;
  nsel = collect_selected(selected, nsel, MAX_SELECTED);
  matrix m;
  m.count = nsel;
  m.jobs = calloc((size_t)m.count, sizeof *m.jobs);
  assert_non_null(m.jobs);
  atomic_init(&m.next, 0);
  for (int i = 0; i < nsel; i++) {
    job *j = &m.jobs[i];
    j->cfg = selected[i];
    j->arch = -1;
    for (int a = 0; a < N_ARCHS; a++)
      if (archs[a].sm == j->cfg.sm && archs[a].suffix == j->cfg.arch_suffix) j->arch = a;
    assert_true(j->arch >= 0);
    assert_true(tcj_cfg_format(&j->cfg, j->text, sizeof j->text) > 0);
  }
  print_message("%d matrix compiles + %d selected configs not in the matrix\n", nmatrix, nsel - nmatrix);

  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int workers = cpus < 2 ? 2 : cpus > MAX_WORKERS ? MAX_WORKERS : (int)cpus;
  pthread_t tid[MAX_WORKERS];
  double t0 = now();
  for (int w = 0; w < workers; w++) assert_int_equal(pthread_create(&tid[w], NULL, worker, &m), 0);
  for (int w = 0; w < workers; w++) pthread_join(tid[w], NULL);
  double seconds = now() - t0;

  int failures = 0, max_regs = 0, max_at = 0, near_limit = 0;
  double slowest = 0;
  int verbose = getenv("TCJ_COMPILE_MATRIX_VERBOSE") != NULL;
  for (int i = 0; i < m.count; i++) {
    job *j = &m.jobs[i];
    int threads = tcj_cfg_threads(&j->cfg);
    if (verbose) print_message("%3d registers %4d spill bytes %.2f s: %s\n", j->registers, j->spills, j->seconds, j->text);
    if (j->gen_failed)
      print_error("FAIL ptx_gen_gemm: %s\n  %s\n", j->text, j->message);
    else if (j->nondeterministic)
      print_error("FAIL nondeterministic output: %s\n", j->text);
    else if (j->compile_failed)
      print_error("FAIL nvJitLink %s: %s\n%s\n", archs[j->arch].name, j->text, j->message);
    else if (j->no_report)
      print_error("FAIL no resource report in the info log: %s\n%s\n", j->text, j->message ? j->message : "");
    else if (j->spills != 0)
      print_error("FAIL %d spill bytes (%d registers): %s\n%s\n", j->spills, j->registers, j->text, j->message);
    else if (j->registers > MAX_REGS_PER_THREAD || j->registers * threads > REGS_PER_SM)
      print_error("FAIL %d registers x %d threads: %s\n%s\n", j->registers, threads, j->text, j->message);
    else {
      if (j->registers > max_regs) { max_regs = j->registers; max_at = i; }
      if (j->registers >= NEAR_REG_LIMIT) near_limit++;
      if (j->seconds > slowest) slowest = j->seconds;
      continue;
    }
    failures++;
  }
  print_message("compile matrix: %d configs, %d compiles (%s, %d threads), %d failed, max registers %d "
                "(%s), %d kernels at >= %d registers, %.1f s (slowest %.2f s)\n",
                ncfg, m.count, version, workers, failures, max_regs, m.jobs[max_at].text, near_limit,
                NEAR_REG_LIMIT, seconds, slowest);
  for (int i = 0; i < m.count; i++) free(m.jobs[i].message);
  free(m.jobs);
  assert_int_equal(failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(config_matrix_is_large_and_valid),
    cmocka_unit_test(every_kernel_compiles_for_every_arch_without_spills),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
