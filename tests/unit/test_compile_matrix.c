/* SPDX-License-Identifier: Apache-2.0 */
/* Every kernel ptxgen writes for a matrix of configs (types, op pairs, alignments, tiles, edge
 * sizes) must be deterministic and compile through nvJitLink for sm_80, sm_89 and sm_90a (sm90
 * recipe configs: sm_90a only) with no spills and a register count that fits the block; so must
 * every config eng_select picks for a grid of problems on those arches (the kernels a user can
 * actually get), and the generic kernel eng_select_generic picks for each (f64's included), and a
 * sample of grouped kernels (every group mode and op pair). sm90 modules are also checked for their ABI (entry, target, cluster directive)
 * and for setmaxnreg budgets that the CTA's register pool can serve. No GPU needed; without
 * nvJitLink the test is skipped with a message, and fails when CI is set.
 * TCJ_COMPILE_MATRIX=full runs every cross; TCJ_COMPILE_MATRIX_VERBOSE=1 prints the registers of
 * every kernel; TCJ_COMPILE_MATRIX_STRIDE=N compiles every Nth. TCJ_COMPILE_MATRIX_LIST=FILE appends every job's config to FILE, one per line, and
 * compiles nothing (scripts/ptx-identical.sh hashes the PTX of that list before and after a change). */
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

#include "engine/generate.h"
#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "engine/select.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "ptxgen/recipes.h"

enum {
  SM89_SMEM_OPTIN = 101376, /* max dynamic shared memory per block on sm_86/sm_89 */
  SM90_SMEM_OPTIN = 232448, /* on sm_90 (H100, H200) */
  MAX_REGS_PER_THREAD = 255,
  REGS_PER_SM = 65536,
  REG_ALLOC_UNIT = 8, /* registers are allocated per warp, 256 (8 per thread) at a time */
  MIN_CONFIGS = 100,
  MAX_CONFIGS = 512,
  MIN_SM90_CONFIGS = 100,
  MAX_SM90_CONFIGS = 2048,
  MAX_SELECTED = 8192,
  MAX_WORKERS = 4,
  NEAR_REG_LIMIT = 240, /* reported in the summary: kernels one change away from spilling */
};

/* The matrix's archs first; Blackwell's after them, for a sample of what selection picks there
 * (the sm80 recipe: Blackwell has no wgmma). */
static const struct { const char *name; int sm, suffix; } archs[] = {
  {"sm_80", 80, 0}, {"sm_89", 89, 0}, {"sm_90a", 90, 'a'}, {"sm_100", 100, 0}, {"sm_100a", 100, 'a'},
  {"sm_120", 120, 0}};
#define N_ARCHS (int)(sizeof archs / sizeof archs[0])
#define N_MATRIX_ARCHS 3
#define BLACKWELL_SAMPLE 3 /* every third selected config: the recipe is the same as on sm_80 */

typedef struct job {
  tcj_kernel_cfg cfg; /* arch fields set */
  int arch;           /* index into archs */
  char text[256];
  /* Results, written by the one worker that ran the job, read after the join. */
  int gen_failed, nondeterministic, compile_failed, no_report, spills, registers;
  char *module_problem;   /* the module breaks its ABI or a setmaxnreg rule (it is compiled anyway) */
  int setmaxnreg_ignored; /* ptxas dropped setmaxnreg (C7504): reported, not a failure */
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

/* The most registers per thread a block of `threads` may be launched with: 255, and the
 * block's warps must fit the SM's 64K registers in allocation units (168 for 384 threads). */
static int reg_limit(int threads) {
  int fit = REGS_PER_SM / threads / REG_ALLOC_UNIT * REG_ALLOC_UNIT;
  return fit < MAX_REGS_PER_THREAD ? fit : MAX_REGS_PER_THREAD;
}

/* The integer after the first `directive` in ptx, or -1. */
static int directive_value(const char *ptx, const char *directive) {
  const char *p = strstr(ptx, directive);
  int v;
  return p && sscanf(p + strlen(directive), " %d", &v) == 1 ? v : -1;
}

/* The one count every `insn` in ptx names: -1 if none, -2 if two differ or one is unreadable. */
static int setmaxnreg_count(const char *ptx, const char *insn) {
  int count = -1;
  for (const char *p = ptx; (p = strstr(p, insn)) != NULL; p++) {
    int v;
    if (sscanf(p + strlen(insn), " %d", &v) != 1 || (count >= 0 && v != count)) return -2;
    count = v;
  }
  return count;
}

/* The sm90 kernel ABI (ptxgen.h) and setmaxnreg (PTX ISA "setmaxnreg"): counts are 24..256 in
 * steps of 8; .dec may only lower and .inc only raise the count the CTA was launched with; and
 * .inc blocks until the CTA's pool (what .dec released) holds the registers asked for, so the
 * warpgroups' counts after the change must fit in the launch allocation, or the consumers wait
 * forever. The launch count is the entry's cap: .maxnreg, else what .maxntid leaves per thread.
 * Writes a reason and returns 1 when the module breaks a rule. */
static int sm90_module_problem(const tcj_kernel_cfg *cfg, const char *ptx, char *why, size_t size) {
  int threads = tcj_cfg_threads(cfg), consumers = cfg->warps_m;
  char want[96];
  snprintf(want, sizeof want, ".entry %s(", ptx_gemm_entry(cfg));
  if (!strstr(ptx, want)) return snprintf(why, size, "no \"%s\"", want), 1;
  if (!strstr(ptx, "\n.target sm_90a\n")) return snprintf(why, size, "not a .target sm_90a module"), 1;
  if (!strstr(ptx, ".param .align 64 .b8 p_tmap_a[128]") || !strstr(ptx, ".param .align 64 .b8 p_tmap_b[128]"))
    return snprintf(why, size, "tensor maps are not .align 64 .b8 [128] parameters"), 1;
  if (directive_value(ptx, ".maxntid") != threads)
    return snprintf(why, size, ".maxntid %d, want %d", directive_value(ptx, ".maxntid"), threads), 1;
  int cluster = directive_value(ptx, ".reqnctapercluster");
  if (cluster != (tcj_cfg_cluster_ctas(cfg) == 2 ? 2 : -1))
    return snprintf(why, size, ".reqnctapercluster %d with cluster_m %d, cluster_n %d", cluster, cfg->cluster_m,
                    cfg->cluster_n), 1;
  int dec = setmaxnreg_count(ptx, "setmaxnreg.dec.sync.aligned.u32");
  int inc = setmaxnreg_count(ptx, "setmaxnreg.inc.sync.aligned.u32");
  if (dec == -1 && inc == -1) return 0;
  if (dec < 0 || inc < 0) return snprintf(why, size, "setmaxnreg: .dec %d, .inc %d (want one count each)", dec, inc), 1;
  for (int i = 0; i < 2; i++) {
    int v = i ? inc : dec;
    if (v < 24 || v > 256 || v % 8) return snprintf(why, size, "setmaxnreg count %d is not in 24..256 step 8", v), 1;
  }
  int launch = reg_limit(threads), cap = directive_value(ptx, ".maxnreg");
  if (cap > 0 && cap < launch) launch = cap;
  if (dec > launch || inc < launch)
    return snprintf(why, size, "setmaxnreg .dec %d / .inc %d around a launch count of %d", dec, inc, launch), 1;
  long need = 128L * dec + 128L * consumers * inc, pool = (long)launch * threads;
  if (need > pool)
    return snprintf(why, size,
                    "setmaxnreg asks for 128 x %d + %d x 128 x %d = %ld registers, the CTA holds %d x %d = %ld: "
                    "the consumers' .inc would wait forever",
                    dec, consumers, inc, need, threads, launch, pool), 1;
  return 0;
}

/* The user epilogue the matrix's user-epilogue configs are compiled with (by NVRTC): a residual
 * add read through params, as a transformer block would fuse it. */
static const char residual_source[] =
    "struct residual { const float *x; long long ld, stride; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                          long long batch, const void *params) {\n"
    "  const residual *r = (const residual *)params;\n"
    "  return v + r->x[batch * r->stride + row * r->ld + col] + 0.5f * c;\n"
    "}\n";

/* The module of a job: ptxgen's, or for user-epilogue configs the engine's (NVRTC + join). */
static int generate(const job *j, char **ptx, size_t *len, char *err, size_t err_size) {
  if (!j->cfg.user) return ptx_gen_gemm(&j->cfg, ptx, len, err, err_size);
  return eng_generate_ptx(&j->cfg, residual_source, archs[j->arch].name, ptx, len, err, err_size) == TCJ_SUCCESS ? 0 : -1;
}

static void run_job(job *j) {
  if (getenv("TCJ_COMPILE_MATRIX_LIST")) { /* listed by make_matrix: nothing to compile */
    j->spills = j->registers = 0;
    return;
  }
  char err[4096] = "";
  char *ptx = NULL, *again = NULL;
  size_t len = 0, again_len = 0;
  eng_cubin cubin;
  memset(&cubin, 0, sizeof cubin);
  double t0 = now();
  j->spills = -1;
  if (generate(j, &ptx, &len, err, sizeof err) != 0 || !ptx) {
    j->gen_failed = 1;
    j->message = dup_str(err);
    goto done;
  }
  if (generate(j, &again, &again_len, err, sizeof err) != 0 || !again ||
      again_len != len || memcmp(ptx, again, len) != 0) {
    j->nondeterministic = 1;
    goto done;
  }
  if (j->cfg.recipe == PTX_RECIPE_SM90 && sm90_module_problem(&j->cfg, ptx, err, sizeof err))
    j->module_problem = dup_str(err);
  err[0] = 0;
  tcj_status st = eng_jit_compile(ptx, len, archs[j->arch].name, &cubin, err, sizeof err);
  if (st != TCJ_SUCCESS) {
    j->compile_failed = 1;
    j->message = dup_str(err[0] ? err : "(empty error log)");
    goto done;
  }
  j->spills = eng_info_log_spills(cubin.info_log, &j->registers);
  if (j->spills < 0) j->no_report = 1;
  j->setmaxnreg_ignored = cubin.info_log && strstr(cubin.info_log, "'setmaxnreg' ignored") != NULL;
  if (j->spills != 0 || j->registers > reg_limit(tcj_cfg_threads(&j->cfg)))
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
/* bkb: bytes of K per stage; 16x128 with 128 is the decode tile. */
static const struct { int bm, bn, wm, wn, bkb; } tiles[] = {
  {128, 256, 2, 4, 64}, {128, 128, 2, 2, 64}, {128, 128, 2, 4, 64}, {64, 64, 2, 2, 64}, {32, 128, 1, 4, 64},
  {16, 128, 1, 4, 128}};
static const int aligns[] = {16, 4};
/* Edges: n and k multiples of every tile, or neither (odd k, n not a multiple of 8). */
static const struct { int64_t n, k; } edges[] = {{4096, 4096}, {1000, 999}, {999, 1000}};

static tcj_kernel_cfg make_cfg(int t, int op, int g, int a, int e) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = 80;
  c.ab = types[t].ab;
  c.c = c.d = types[t].c;
  c.op_a_t = op >> 1;
  c.op_b_t = op & 1;
  c.n = edges[e].n;
  c.k = edges[e].k;
  c.bm = tiles[g].bm;
  c.bn = tiles[g].bn;
  c.bk = tiles[g].bkb / ptx_elem_size(c.ab);
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

/* ---- sm90 configs: sm_90a only ---- */

/* pp: ping-pong consumers (each takes whole tiles, alternately): the 64x256 tile select uses for
 * short K, and 128x128 (two 64-row wgmma blocks per consumer). 192x128: three consumers. */
static const struct { int bm, bn, wm, pp; } sm90_tiles[] = {
  {128, 256, 2, 0}, {256, 128, 2, 0}, {128, 128, 2, 0}, {128, 64, 2, 0}, {64, 128, 1, 0}, {64, 64, 1, 0},
  {192, 128, 3, 0}, {64, 256, 2, 1},  {128, 128, 2, 1}};
static const ptx_elem sm90_abs[] = {PTX_E_BF16, PTX_E_F16};
static const ptx_elem sm90_cs[] = {PTX_E_F16, PTX_E_BF16, PTX_E_F32};
/* Edges: n and k multiples of every tile; odd k with n a multiple of 8 but of no tile; odd n. */
static const struct { int64_t n, k; } sm90_edges[] = {{4096, 4096}, {1000, 999}, {999, 1000}};
#define N_SM90_TILES (int)(sizeof sm90_tiles / sizeof *sm90_tiles)
#define N_SM90_EDGES (int)(sizeof sm90_edges / sizeof *sm90_edges)

/* wide: the widest C vector (<= 16 bytes, dividing n) instead of 1; cluster: 2 where the tile
 * allows one; stages: the deepest ring (<= 8) that fits sm_90's shared memory. */
static tcj_kernel_cfg make_sm90_cfg(int g, int op, int ab, int cc, int wide, int cluster, int e) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM90;
  c.sm = 90;
  c.arch_suffix = 'a';
  c.ab = sm90_abs[ab];
  c.c = c.d = sm90_cs[cc];
  c.op_a_t = op >> 1;
  c.op_b_t = op & 1;
  c.n = sm90_edges[e].n;
  c.k = sm90_edges[e].k;
  c.bm = sm90_tiles[g].bm;
  c.bn = sm90_tiles[g].bn;
  c.bk = 64;
  c.warps_m = sm90_tiles[g].wm;
  c.warps_n = 1;
  c.pingpong = sm90_tiles[g].pp;
  c.align_a = c.align_b = 16;
  c.vec_c = 1;
  if (wide)
    for (int v = 8; v > 1 && c.vec_c == 1; v /= 2)
      if (v * ptx_elem_size(c.c) <= 16 && c.n % v == 0) c.vec_c = v;
  c.cluster_m = cluster && c.bn % 128 == 0 ? 2 : 0;
  /* Where B cannot be halved, a 128-row tile pairs along N and shares A instead. */
  c.cluster_n = cluster && !c.cluster_m && c.bm == 128 ? 2 : 0;
  /* Every other edge, clusters of four where the tile splits in quarters. */
  if (e % 2 && c.cluster_m) {
    c.cluster_m = 4;
    if (tcj_cfg_check(&c)) c.cluster_m = 2;
  }
  if (e % 2 && c.cluster_n) {
    c.cluster_n = 4;
    if (tcj_cfg_check(&c)) c.cluster_n = 2;
  }
  c.stages = 8;
  while (c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) c.stages--;
  return c;
}

static int add_unique(tcj_kernel_cfg *out, int n, int max, const tcj_kernel_cfg *c) {
  char a[512], b[512];
  assert_true(tcj_cfg_format(c, a, sizeof a) > 0);
  for (int i = 0; i < n && i < max; i++) {
    assert_true(tcj_cfg_format(&out[i], b, sizeof b) > 0);
    if (strcmp(a, b) == 0) return n;
  }
  if (n < max) out[n] = *c;
  return n + 1;
}

/* What eng_select picks for p on arch ar, appended to out unless already there; returns the
 * new count. */
static int add_selected(tcj_kernel_cfg *out, int n, int max, const eng_problem *p, int ar) {
  eng_device_caps caps;
  assert_int_equal(eng_caps_for_arch(archs[ar].name, &caps), 0);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select(p, &caps, 1, &plan, &why);
  if (st != TCJ_SUCCESS) print_error("eng_select %s m=%lld: %s\n", archs[ar].name, (long long)p->m, why);
  assert_int_equal(st, TCJ_SUCCESS);
  n = add_unique(out, n, max, &plan.cfg);
  /* The generic kernel of the problem's class (TCJ_JIT=generic): n and k at run time (none for
   * block-scaled fp8). f64's with packing off too: its 8-byte copies are a class of their own. */
  if (p->block_scale) return n;
  for (int pack = 1; pack >= (p->ab == PTX_E_F64 ? 0 : 1); pack--) {
    st = eng_select_generic(p, &caps, pack, NULL, &plan, &why);
    if (st != TCJ_SUCCESS) print_error("eng_select_generic %s m=%lld: %s\n", archs[ar].name, (long long)p->m, why);
    assert_int_equal(st, TCJ_SUCCESS);
    assert_int_equal(plan.cfg.generic, 1);
    n = add_unique(out, n, max, &plan.cfg);
  }
  assert_true(n <= max);
  return n;
}

/* By default each cooperative (tile, op pair, C type) appears once per operand type (168
 * kernels), its vector width, cluster and edge drawn from a fixed hash of the position; each
 * ping-pong (tile, op pair, C type) appears once (24 kernels), its operand type and cluster
 * alternating so that every op pair and C type of each ping-pong tile is compiled with and
 * without a cluster, its vector width and edge from the hash. Coverage of every value is
 * checked below; TCJ_COMPILE_MATRIX=full takes the whole cross product. */
static int build_sm90_configs(tcj_kernel_cfg *out, int max) {
  const char *env = getenv("TCJ_COMPILE_MATRIX");
  int full = env && strcmp(env, "full") == 0, n = 0, pos = 0;
  for (int g = 0; g < N_SM90_TILES; g++)
    for (int op = 0; op < 4; op++)
      for (int cc = 0; cc < 3; cc++)
        for (int ab = 0; ab < 2; ab++, pos++) {
          uint32_t h = (uint32_t)pos * 2654435761u;
          h ^= h >> 15;
          h *= 2246822519u;
          h ^= h >> 13;
          int want_cluster = (int)(h >> 1 & 1);
          if (sm90_tiles[g].pp) {
            if (!full && ab != (op / 2 + cc) % 2) continue;
            want_cluster = (op + cc) % 2;
          }
          for (int wide = 0; wide < 2; wide++)
            for (int cluster = 0; cluster < 2; cluster++)
              for (int e = 0; e < N_SM90_EDGES; e++) {
                if (!full && (wide != (int)(h & 1) || cluster != want_cluster || e != (int)(h >> 2) % N_SM90_EDGES))
                  continue;
                tcj_kernel_cfg c = make_sm90_cfg(g, op, ab, cc, wide, cluster, e);
                if (tcj_cfg_check(&c) || tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) continue;
                n = add_unique(out, n, max, &c);
              }
        }
  return n;
}

static void sm90_matrix_is_valid_and_covers_every_choice(void **state) {
  (void)state;
  static tcj_kernel_cfg cfgs[MAX_SM90_CONFIGS];
  int n = build_sm90_configs(cfgs, MAX_SM90_CONFIGS);
  if (n < MIN_SM90_CONFIGS || n > 200) print_error("%d sm90 configs\n", n);
  assert_true(n >= MIN_SM90_CONFIGS && n <= (getenv("TCJ_COMPILE_MATRIX") ? MAX_SM90_CONFIGS : 200));
  int tiles[N_SM90_TILES] = {0}, ops[4] = {0}, abs[PTX_E_COUNT] = {0}, cs[PTX_E_COUNT] = {0}, edges[N_SM90_EDGES] = {0};
  int vec1 = 0, wide = 0, clustered = 0, solo_clusterable = 0, odd_k = 0, ragged_n = 0, pingpong[2] = {0};
  /* Per ping-pong tile: op pairs and C types, each with and without a cluster; operand types. */
  int pp_ops[N_SM90_TILES][4][2] = {{{0}}}, pp_cs[N_SM90_TILES][PTX_E_COUNT][2] = {{{0}}};
  int pp_abs[N_SM90_TILES][PTX_E_COUNT] = {{0}};
  for (int i = 0; i < n; i++) {
    const tcj_kernel_cfg *c = &cfgs[i];
    char text[256];
    tcj_cfg_format(c, text, sizeof text);
    const char *why = tcj_cfg_check(c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    assert_int_equal(c->recipe, PTX_RECIPE_SM90);
    assert_int_equal(c->sm, 90);
    assert_int_equal(c->arch_suffix, 'a');
    assert_true(tcj_cfg_smem_bytes(c) <= SM90_SMEM_OPTIN);
    /* The deepest ring that fits: one more stage would not (or 8 is the most). */
    tcj_kernel_cfg deeper = *c;
    deeper.stages++;
    assert_true(c->stages == 8 || tcj_cfg_smem_bytes(&deeper) > SM90_SMEM_OPTIN);
    assert_true(c->pingpong == 0 || c->pingpong == 1);
    pingpong[c->pingpong]++;
    int tile = -1;
    for (int g = 0; g < N_SM90_TILES; g++)
      if (c->bm == sm90_tiles[g].bm && c->bn == sm90_tiles[g].bn && c->warps_m == sm90_tiles[g].wm &&
          c->pingpong == sm90_tiles[g].pp)
        tile = g;
    if (tile < 0) print_error("%s: not a matrix tile\n", text);
    assert_true(tile >= 0);
    tiles[tile]++;
    if (c->pingpong) {
      pp_ops[tile][c->op_a_t * 2 + c->op_b_t][c->cluster_m == 2]++;
      pp_cs[tile][c->c][c->cluster_m == 2]++;
      pp_abs[tile][c->ab]++;
    }
    ops[c->op_a_t * 2 + c->op_b_t]++;
    abs[c->ab]++;
    cs[c->c]++;
    for (int e = 0; e < N_SM90_EDGES; e++) edges[e] += c->n == sm90_edges[e].n && c->k == sm90_edges[e].k;
    vec1 += c->vec_c == 1;
    wide += c->vec_c > 1;
    clustered += c->cluster_m == 2;
    solo_clusterable += c->cluster_m == 0 && c->bn % 128 == 0;
    odd_k += c->k % 2;
    ragged_n += c->n % c->bn != 0;
  }
  for (int g = 0; g < N_SM90_TILES; g++) {
    if (!tiles[g])
      print_error("no %dx%d/%d%s tile\n", sm90_tiles[g].bm, sm90_tiles[g].bn, sm90_tiles[g].wm, sm90_tiles[g].pp ? "/pp" : "");
    assert_true(tiles[g] > 0);
  }
  assert_true(pingpong[0] > 0 && pingpong[1] > 0);
  for (int g = 0; g < N_SM90_TILES; g++) {
    if (!sm90_tiles[g].pp) continue;
    for (int cl = 0; cl < 2; cl++) {
      for (int op = 0; op < 4; op++) {
        if (!pp_ops[g][op][cl])
          print_error("%dx%d/pp: no op %c%c %s a cluster\n", sm90_tiles[g].bm, sm90_tiles[g].bn, op & 2 ? 'T' : 'N',
                      op & 1 ? 'T' : 'N', cl ? "with" : "without");
        assert_true(pp_ops[g][op][cl] > 0);
      }
      for (int cc = 0; cc < 3; cc++) {
        if (!pp_cs[g][sm90_cs[cc]][cl])
          print_error("%dx%d/pp: no c=%s %s a cluster\n", sm90_tiles[g].bm, sm90_tiles[g].bn, ptx_elem_name(sm90_cs[cc]),
                      cl ? "with" : "without");
        assert_true(pp_cs[g][sm90_cs[cc]][cl] > 0);
      }
    }
    for (int a = 0; a < 2; a++) assert_true(pp_abs[g][sm90_abs[a]] > 0);
  }
  for (int op = 0; op < 4; op++) assert_true(ops[op] > 0);
  for (int a = 0; a < 2; a++) assert_true(abs[sm90_abs[a]] > 0);
  for (int cc = 0; cc < 3; cc++) assert_true(cs[sm90_cs[cc]] > 0);
  for (int e = 0; e < N_SM90_EDGES; e++) assert_true(edges[e] > 0);
  assert_true(vec1 > 0 && wide > 0);
  assert_true(clustered > 0 && solo_clusterable > 0);
  assert_true(odd_k > 0 && ragged_n > 0);
}

/* ---- The configs selection picks ---- */

static const struct { ptx_elem ab, c; } problem_types[] = {
  {PTX_E_F16, PTX_E_F16}, {PTX_E_F16, PTX_E_F32}, {PTX_E_BF16, PTX_E_BF16}, {PTX_E_BF16, PTX_E_F32},
  {PTX_E_F16, PTX_E_BF16}, {PTX_E_BF16, PTX_E_F16}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32},
  {PTX_E_F64, PTX_E_F64}};
/* One shape per tile class: decode (split-K; edges), small, small split-K (deep K), medium,
 * large, odd large (edges, packing). */
static const struct { int64_t m, n, k; } problem_shapes[] = {
  {1, 4096, 4096}, {16, 1000, 4095}, {100, 1000, 999}, {500, 500, 60001}, {1024, 2048, 4096}, {4096, 4096, 4096},
  {4095, 4095, 4095}};
static const int problem_aligns[] = {16, 4, 1}; /* 1: below any copy width, so packed */

/* Appends the configs eng_select picks (each with its own arch) that are not in out yet. */
static int collect_selected(tcj_kernel_cfg *out, int n, int max, int first_arch, int end_arch) {
  for (int ar = first_arch; ar < end_arch; ar++)
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
            eng_problem_plain_epilogue(&p);
            n = add_selected(out, n, max, &p, ar);
            /* The same fp32 problem to fp32 accuracy: the 3xTF32 parts' K-major tf32 GEMM. */
            if (p.ab == PTX_E_TF32 && al == 0) {
              eng_problem_split3(&p);
              n = add_selected(out, n, max, &p, ar);
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

/* sm80 configs for every arch, then sm90 configs for sm_90a; returns the count. */
static int matrix_jobs(tcj_kernel_cfg *out, int max, int *nsm80) {
  static tcj_kernel_cfg cfgs[MAX_CONFIGS], sm90[MAX_SM90_CONFIGS];
  int ncfg = build_configs(cfgs, MAX_CONFIGS), n90 = build_sm90_configs(sm90, MAX_SM90_CONFIGS), n = 0;
  assert_true(ncfg >= MIN_CONFIGS && ncfg <= MAX_CONFIGS);
  assert_true(n90 >= MIN_SM90_CONFIGS && n90 <= MAX_SM90_CONFIGS);
  *nsm80 = ncfg;
  for (int i = 0; i < ncfg; i++)
    for (int a = 0; a < N_MATRIX_ARCHS; a++) {
      assert_true(n < max);
      out[n] = cfgs[i];
      out[n].sm = archs[a].sm;
      out[n++].arch_suffix = archs[a].suffix;
    }
  for (int i = 0; i < n90; i++) {
    assert_true(n < max);
    out[n++] = sm90[i];
  }
  return n;
}

/* A config past the sm80 recipe's 32 copies per thread and operand (f16 B in 4-byte copies,
 * 128x64 tile, 64 threads: 64 copies) is refused by the check, and by the recipe itself when
 * called without the check, which must not read past its per-copy tables (found by fuzzing the
 * generator with configs from text). No nvJitLink needed. */
static void sm80_generator_refuses_more_copies_than_its_tables_hold(void **state) {
  (void)state;
  tcj_kernel_cfg c;
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_80 ab=f16 c=f16 op=NT n=4 k=496 tile=32x128x64 warps=1x2 "
                                 "stages=2 align=16,4,2 split=4",
                                 &c),
                   0);
  char *ptx = NULL, err[256] = "";
  size_t len = 0;
  assert_int_equal(ptx_gen_gemm(&c, &ptx, &len, err, sizeof err), -1);
  assert_null(ptx);
  print_message("%s\n", err);
  assert_non_null(strstr(err, "32 copies per thread"));
  ptx_builder b; /* the generator alone: its own refusal, or its builder's */
  ptx_init(&b);
  int rc = ptx_gen_gemm_sm80(&b, &c, err, sizeof err);
  if (rc == 0) rc = ptx_take(&b, &ptx, &len, err, sizeof err);
  else ptx_free(&b);
  assert_int_equal(rc, -1);
  assert_null(ptx);
  print_message("%s\n", err);
  assert_non_null(strstr(err, "64 copies per thread"));
}

static void skip_without_nvjitlink(char *version, size_t size) {
  if (!eng_nvjitlink_available(version, size)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set: the compile matrix must run in CI");
    print_message("[  SKIPPED ] nvJitLink is not available; the compile matrix needs it (CI fails here)\n");
    skip();
  }
}

/* TCJ_COMPILE_MATRIX_STRIDE=N compiles every Nth config of each list (its counts are still
 * checked on the whole list). The sanitizer build sets it (tests/CMakeLists.txt): there the
 * test looks for memory errors in ptxgen, which a sample of every recipe's configs exercises,
 * while the release build compiles every config for spills. */
static int sample_stride(void) {
  const char *env = getenv("TCJ_COMPILE_MATRIX_STRIDE");
  if (!env || !*env) return 1;
  char *end;
  long n = strtol(env, &end, 10);
  if (*end || n < 1 || n > 1000) fail_msg("TCJ_COMPILE_MATRIX_STRIDE=%s: want a whole number from 1 to 1000", env);
  return (int)n;
}

/* Jobs for cfgs, each compiled for its own arch (every stride-th of them: sample_stride). */
static matrix make_matrix(const tcj_kernel_cfg *cfgs, int n) {
  matrix m;
  int stride = sample_stride();
  if (stride > 1) print_message("TCJ_COMPILE_MATRIX_STRIDE=%d: every %dth of %d configs\n", stride, stride, n);
  n = (n + stride - 1) / stride;
  m.count = n;
  m.jobs = calloc((size_t)(n > 0 ? n : 1), sizeof *m.jobs);
  assert_non_null(m.jobs);
  atomic_init(&m.next, 0);
  for (int i = 0; i < n; i++) {
    job *j = &m.jobs[i];
    j->cfg = cfgs[(size_t)i * (size_t)stride];
    j->arch = -1;
    for (int a = 0; a < N_ARCHS; a++)
      if (archs[a].sm == j->cfg.sm && archs[a].suffix == j->cfg.arch_suffix) j->arch = a;
    assert_true(j->arch >= 0);
    assert_true(tcj_cfg_format(&j->cfg, j->text, sizeof j->text) > 0);
  }
  const char *list = getenv("TCJ_COMPILE_MATRIX_LIST");
  if (list) {
    FILE *f = fopen(list, "a");
    assert_non_null(f);
    for (int i = 0; i < n; i++) fprintf(f, "%s\n", m.jobs[i].text);
    assert_int_equal(fclose(f), 0);
    char source_path[4096]; /* the user epilogue the list's user=1 configs are generated with */
    snprintf(source_path, sizeof source_path, "%s.cu", list);
    assert_non_null(f = fopen(source_path, "w"));
    fputs(residual_source, f);
    assert_int_equal(fclose(f), 0);
  }
  return m;
}

/* Runs every job on a few threads; returns the seconds taken. */
static double run_matrix(matrix *m, int *workers) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  *workers = cpus < 2 ? 2 : cpus > MAX_WORKERS ? MAX_WORKERS : (int)cpus;
  pthread_t tid[MAX_WORKERS];
  double t0 = now();
  for (int w = 0; w < *workers; w++) assert_int_equal(pthread_create(&tid[w], NULL, worker, m), 0);
  for (int w = 0; w < *workers; w++) pthread_join(tid[w], NULL);
  return now() - t0;
}

/* Prints why a finished job failed and returns 1, or returns 0. */
static int job_failed(const job *j) {
  int threads = tcj_cfg_threads(&j->cfg);
  if (j->module_problem) print_error("FAIL module: %s\n  %s\n", j->text, j->module_problem);
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
  else if (j->registers > reg_limit(threads))
    print_error("FAIL %d registers x %d threads (at most %d fit): %s\n%s\n", j->registers, threads,
                reg_limit(threads), j->text, j->message);
  else
    return j->module_problem != NULL;
  return 1;
}

static void free_matrix(matrix *m) {
  for (int i = 0; i < m->count; i++) {
    free(m->jobs[i].message);
    free(m->jobs[i].module_problem);
  }
  free(m->jobs);
}

static void every_kernel_compiles_for_every_arch_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);

  /* The matrix (sm80 configs for every arch, sm90 configs for sm_90a), then what selection
   * picks, each for the arch it was picked for (selected configs carry their arch; those
   * already in the matrix are skipped). */
  static tcj_kernel_cfg selected[MAX_SELECTED];
  int ncfg = 0;
  int nsel = matrix_jobs(selected, MAX_SELECTED, &ncfg);
  int nmatrix = nsel;
  nsel = collect_selected(selected, nsel, MAX_SELECTED, 0, N_MATRIX_ARCHS);
  int sm90_matrix = 0, sm90_selected = 0, pingpong = 0, cluster_split = 0, decode = 0, f64_generic = 0;
  for (int i = 0; i < nsel; i++) {
    if (selected[i].recipe == PTX_RECIPE_SM90) *(i < nmatrix ? &sm90_matrix : &sm90_selected) += 1;
    f64_generic += selected[i].recipe == PTX_RECIPE_DMMA && selected[i].generic;
    pingpong += selected[i].pingpong != 0;
    cluster_split += selected[i].split_cluster;
    decode += selected[i].bm == 16;
  }
  /* The matrix's ping-pong kernels go through the same spill, register and setmaxnreg checks,
   * and selection's decode kernels (16-row tiles, cluster splits on sm_90a) with them. */
  assert_true(pingpong >= 24);
  assert_true(cluster_split >= 8 && decode >= 24);
  /* f64's generic kernels (the dmma recipe, n and k at run time): on each of the 3 archs both
   * tiles, 4 op pairs, 16-byte and (packing off) 8-byte copies. */
  if (f64_generic < 3 * 2 * 4 * 2) fail_msg("%d f64 generic kernels selected, want at least %d", f64_generic, 3 * 2 * 4 * 2);
  print_message("%d matrix compiles (%d sm90) + %d selected configs not in the matrix (%d sm90); %d ping-pong, "
                "%d decode tiles, %d cluster splits, %d f64 generic\n",
                nmatrix, sm90_matrix, nsel - nmatrix, sm90_selected, pingpong, decode, cluster_split, f64_generic);
  matrix m = make_matrix(selected, nsel);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);

  int failures = 0, max_regs = 0, max_at = 0, near_limit = 0, ignored = 0;
  double slowest = 0;
  int verbose = getenv("TCJ_COMPILE_MATRIX_VERBOSE") != NULL;
  for (int i = 0; i < m.count; i++) {
    job *j = &m.jobs[i];
    ignored += j->setmaxnreg_ignored;
    if (verbose) print_message("%3d registers %4d spill bytes %.2f s: %s\n", j->registers, j->spills, j->seconds, j->text);
    if (job_failed(j)) {
      failures++;
      continue;
    }
    if (j->registers > max_regs) { max_regs = j->registers; max_at = i; }
    if (j->registers >= NEAR_REG_LIMIT) near_limit++;
    if (j->seconds > slowest) slowest = j->seconds;
  }
  print_message("compile matrix: %d sm80 configs, %d compiles (%s, %d threads), %d failed, max registers %d "
                "(%s), %d kernels at >= %d registers, %.1f s (slowest %.2f s)\n",
                ncfg, m.count, version, workers, failures, max_regs, m.jobs[max_at].text, near_limit,
                NEAR_REG_LIMIT, seconds, slowest);
  /* Without NVRTC 12.4 ptxas drops setmaxnreg (C7504) and every warpgroup keeps the launch
   * count: reported, not a failure. With it, every sm90 kernel must compile whole (jit.h). */
  if (ignored) print_message("note: ptxas ignored setmaxnreg (C7504) in %d sm90 kernels\n", ignored);
  free_matrix(&m);
  assert_int_equal(failures, 0);
  if (eng_nvrtc_whole_program_available()) assert_int_equal(ignored, 0);
}

/* Blackwell (sm_100, sm_100a, sm_120) runs the sm80 recipe (and f64 the dmma recipe): a sample
 * of the configs selection picks there must assemble (its PTX declares the ISA version the
 * target needs) without spills and within the registers, as on the matrix's archs. */
static void blackwell_targets_compile_a_sample_of_their_selected_configs(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  static tcj_kernel_cfg selected[MAX_SELECTED], sample[MAX_SELECTED];
  int nsel = collect_selected(selected, 0, MAX_SELECTED, N_MATRIX_ARCHS, N_ARCHS), n = 0;
  for (int i = 0; i < nsel; i++) {
    assert_int_equal(selected[i].recipe, selected[i].ab == PTX_E_F64 ? PTX_RECIPE_DMMA : PTX_RECIPE_SM80);
    if (i % BLACKWELL_SAMPLE == 0) sample[n++] = selected[i];
  }
  matrix m = make_matrix(sample, n);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);
  int failures = 0;
  for (int i = 0; i < m.count; i++) failures += job_failed(&m.jobs[i]);
  print_message("Blackwell: %d of %d selected configs compiled for sm_100, sm_100a and sm_120 (%s), %d failed, %.1f s\n",
                m.count, nsel, version, failures, seconds);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* Beyond the matrix's tiles: one kernel for every sm90 tile and consumer count that
 * tcj_cfg_check accepts (a forced TCJ_TILE can reach any of them), with and without a cluster,
 * cooperative and ping-pong, must compile without spills too. */
static void every_sm90_tile_the_check_accepts_compiles(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  static const int bms[] = {64, 128, 256}, bns[] = {64, 128, 192, 256};
  tcj_kernel_cfg cfgs[96];
  int n = 0, npp = 0;
  /* Cooperative consumers, then ping-pong ones (TCJ_TILE "/pp"; 2 consumers only). */
  for (int pp = 0; pp <= 1; pp++)
    for (size_t a = 0; a < 3; a++)
      for (size_t b = 0; b < 4; b++)
        for (int wm = 1 + pp; wm <= 2; wm++)
          for (int cluster = 0; cluster <= 2; cluster += 2) {
            tcj_kernel_cfg c;
            memset(&c, 0, sizeof c);
            c.recipe = PTX_RECIPE_SM90;
            c.sm = 90;
            c.arch_suffix = 'a';
            c.ab = n % 2 ? PTX_E_F16 : PTX_E_BF16;
            c.c = c.d = n % 3 == 0 ? PTX_E_F32 : c.ab;
            c.op_a_t = n % 4 >> 1;
            c.op_b_t = n % 4 & 1;
            c.n = 4096;
            c.k = 4096;
            c.bm = bms[a];
            c.bn = bns[b];
            c.bk = 64;
            c.warps_m = wm;
            c.warps_n = 1;
            c.align_a = c.align_b = 16;
            c.vec_c = 16 / ptx_elem_size(c.c);
            c.cluster_m = cluster;
            c.pingpong = pp;
            c.stages = 8;
            while (c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) c.stages--;
            if (tcj_cfg_check(&c) || tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) continue;
            assert_true(n < 64);
            cfgs[n++] = c;
            npp += pp;
          }
  assert_true(n - npp >= 12);
  /* Ping-pong: 64 x {64, 128, 192, 256} and 128 x {64, 128} (at most 128 accumulators per
   * consumer), with a cluster where B splits in halves (bn >= 128: a multiple of 128, or 192
   * with B K-major, as the op pattern gives 64x192 here). */
  assert_int_equal(npp, 10);
  /* Each of them that stores D through TMA again with the whole-tile epilogue (TCJ_TILE "/ew";
   * what selection gives dense 128x256 tiles), where it fits beside 3 stages or more. */
  int plain = n, nwhole = 0;
  for (int i = 0; i < plain; i++) {
    tcj_kernel_cfg c = cfgs[i];
    if (!ptx_sm90_tma_store(&c)) continue;
    c.epi_whole = 1;
    while (c.stages > 3 && tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) c.stages--;
    if (tcj_cfg_check(&c) || tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN) continue;
    assert_true(n < 96);
    cfgs[n++] = c;
    nwhole += c.bm == 128 && c.bn == 256 && !c.pingpong;
  }
  assert_true(nwhole >= 1); /* 128x256 cooperative with 16-bit D (f32 D does not fit) */
  print_message("%d of them with the whole-tile epilogue\n", n - plain);
  /* A cooperative whole tile also takes fused epilogues through TMA (TCJ_TILE "/ew" with a bias
   * or an activation), compiled whole: each bias kind and an activation of each formula. */
  static const struct { ptx_bias bias; ptx_act act; } fused[] = {
    {PTX_BIAS_COL, PTX_ACT_GELU}, {PTX_BIAS_ROW, PTX_ACT_RELU}, {PTX_BIAS_NONE, PTX_ACT_GELU_TANH},
    {PTX_BIAS_COL, PTX_ACT_SILU}};
  int whole_end = n, nfused = 0;
  for (int i = plain; i < whole_end; i++) {
    if (cfgs[i].pingpong || cfgs[i].bm != 128 || cfgs[i].bn != 256) continue;
    for (size_t f = 0; f < sizeof fused / sizeof *fused; f++) {
      tcj_kernel_cfg c = cfgs[i];
      c.bias = fused[f].bias;
      c.bias_t = f % 2 ? PTX_E_F32 : c.ab;
      c.act = fused[f].act;
      assert_null(tcj_cfg_check(&c));
      assert_true(tcj_cfg_needs_whole_program(&c));
      assert_true(n < 96);
      cfgs[n++] = c;
      nfused++;
    }
  }
  assert_true(nfused >= 4);
  matrix m = make_matrix(cfgs, n);
  int workers = 0, failures = 0;
  run_matrix(&m, &workers);
  for (int i = 0; i < m.count; i++) failures += job_failed(&m.jobs[i]);
  print_message("%d sm90 tiles compiled (%d ping-pong), %d failed\n", m.count, npp, failures);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* tf32 and s8 on the sm90 recipe (wgmma .tf32 k8, .s8 k32 with s32 accumulators; both operands
 * K-major): every sm90 tile shape, with and without a cluster, both edge kinds, the widest and
 * the narrowest D vector, plain and with a fused bias and activation, compile without spills. */
static void sm90_tf32_and_s8_tiles_compile(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  static tcj_kernel_cfg cfgs[512];
  int n = 0, per_type[2] = {0, 0};
  for (int g = 0; g < N_SM90_TILES; g++)
    for (int t = 0; t < 2; t++)
      for (int variant = 0; variant < 4; variant++) {
        tcj_kernel_cfg c;
        memset(&c, 0, sizeof c);
        c.recipe = PTX_RECIPE_SM90;
        c.sm = 90;
        c.arch_suffix = 'a';
        c.ab = t ? PTX_E_S8 : PTX_E_TF32;
        c.c = c.d = t ? PTX_E_S32 : PTX_E_F32;
        c.op_a_t = 0;
        c.op_b_t = 1;
        c.n = sm90_edges[variant % 2 ? 1 : 0].n;
        c.k = sm90_edges[variant % 2 ? 1 : 0].k;
        c.bm = sm90_tiles[g].bm;
        c.bn = sm90_tiles[g].bn;
        c.bk = 128 / ptx_elem_size(c.ab);
        c.warps_m = sm90_tiles[g].wm;
        c.warps_n = 1;
        c.pingpong = sm90_tiles[g].pp;
        c.align_a = c.align_b = 16;
        c.vec_c = variant / 2 ? 1 : (c.n % 4 == 0 ? 4 : 1);
        c.cluster_m = (g + variant) % 2 ? 2 : 0;
        c.bias = PTX_BIAS_NONE;
        c.bias_t = PTX_E_F32;
        if (variant == 3) {
          c.bias = PTX_BIAS_COL;
          c.act = t ? PTX_ACT_RELU : PTX_ACT_GELU;
        }
        for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN; c.stages--) {}
        if (c.cluster_m && tcj_cfg_check(&c)) c.cluster_m = 0;
        if (tcj_cfg_check(&c)) continue; /* e.g. a fused s8 epilogue on 128 accumulators */
        assert_true(n < (int)(sizeof cfgs / sizeof *cfgs));
        cfgs[n++] = c;
        per_type[t]++;
      }
  assert_true(per_type[0] >= 20 && per_type[1] >= 16);
  matrix m = make_matrix(cfgs, n);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);
  int failures = 0;
  for (int i = 0; i < m.count; i++) failures += job_failed(&m.jobs[i]);
  print_message("sm90 tf32/s8: %d tf32 + %d s8 configs compiled (%s), %d failed, %.1f s\n", per_type[0], per_type[1],
                version, failures, seconds);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* The fused epilogues (tcj_gemm_ex): what selection picks for problems with a bias (per column
 * and per row), every activation, a D of another type than C, batches (broadcast B, packed
 * entries) and split-K (the reduction runs the epilogue), on sm_80, sm_89 and sm_90a, must
 * compile without spills; and a user epilogue (NVRTC, joined into the module) on both recipes. */
static void every_epilogue_compiles_on_both_recipes_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  static const struct { ptx_elem ab, c, d; } etypes[] = {
    {PTX_E_BF16, PTX_E_BF16, PTX_E_BF16}, {PTX_E_F16, PTX_E_F32, PTX_E_F16}, {PTX_E_BF16, PTX_E_BF16, PTX_E_F32},
    {PTX_E_TF32, PTX_E_F32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32, PTX_E_S32}};
  /* Large (sm90 on sm_90a), decode (split-K), batched (64 entries), odd (edges, packing). */
  static const struct { int64_t m, n, k, batch; int align; } eshapes[] = {
    {4096, 4096, 4096, 1, 16}, {1, 4096, 4096, 1, 16}, {512, 512, 512, 64, 16}, {1000, 1000, 999, 3, 2}};
  static const struct { ptx_bias bias; ptx_act act; int row_scale; } epis[] = {
    {PTX_BIAS_NONE, PTX_ACT_NONE, 0} /* D apart from C, batches */, {PTX_BIAS_COL, PTX_ACT_NONE, 0},
    {PTX_BIAS_COL, PTX_ACT_RELU, 0}, {PTX_BIAS_ROW, PTX_ACT_GELU, 0}, {PTX_BIAS_COL, PTX_ACT_GELU_TANH, 0},
    {PTX_BIAS_NONE, PTX_ACT_SILU, 0},
    /* row_scale alone takes the sm90 TMA store (sm90_abi.c); with a bias, the staged path */
    {PTX_BIAS_NONE, PTX_ACT_NONE, 1}, {PTX_BIAS_COL, PTX_ACT_RELU, 1}};
  static tcj_kernel_cfg cfgs[MAX_SELECTED];
  int n = 0, users = 0;
  char nvrtc_version[64];
  int have_nvrtc = eng_nvrtc_available(nvrtc_version, sizeof nvrtc_version);
  for (int ar = 0; ar < N_MATRIX_ARCHS; ar++) {
    for (size_t t = 0; t < sizeof etypes / sizeof *etypes; t++)
      for (size_t sh = 0; sh < sizeof eshapes / sizeof *eshapes; sh++)
        for (size_t ep = 0; ep < sizeof epis / sizeof *epis + 1; ep++) {
          int user = ep == sizeof epis / sizeof *epis;
          if (etypes[t].ab == PTX_E_S8 && (user || (epis[ep].act != PTX_ACT_NONE && epis[ep].act != PTX_ACT_RELU)))
            continue;
          if (user && (!have_nvrtc || sh > 1)) continue;
          eng_problem p;
          memset(&p, 0, sizeof p);
          p.op_a_t = (int)(t + sh + ep) % 2;
          p.op_b_t = (int)(t + ep) % 2;
          p.m = eshapes[sh].m;
          p.n = eshapes[sh].n;
          p.k = eshapes[sh].k;
          p.ab = etypes[t].ab;
          p.c = etypes[t].c;
          p.lda = p.op_a_t ? p.m : p.k;
          p.ldb = p.op_b_t ? p.k : p.n;
          p.ldc = p.n;
          int al = eshapes[sh].align < ptx_elem_size(p.ab) ? ptx_elem_size(p.ab) : eshapes[sh].align;
          p.align_a = p.align_b = al;
          p.align_c = 16;
          eng_problem_plain_epilogue(&p);
          p.d = etypes[t].d;
          p.batch = eshapes[sh].batch;
          if (p.batch > 1) {
            p.stride_a = p.m * p.k;
            p.stride_b = ep % 2 ? 0 : p.k * p.n; /* every other one broadcasts B */
            p.stride_c = p.stride_d = p.m * p.n;
          }
          if (!user) {
            p.bias = epis[ep].bias;
            p.bias_t = ep % 2 ? PTX_E_BF16 : PTX_E_F32;
            if (p.ab == PTX_E_S8) p.bias_t = PTX_E_F32;
            p.act = epis[ep].act;
            p.row_scale = epis[ep].row_scale;
          } else {
            p.user = eng_epilogue_hash(residual_source);
          }
          int before = n;
          n = add_selected(cfgs, n, MAX_SELECTED, &p, ar);
          users += user && n > before;
        }
  }
  int sm90 = 0, split = 0, batched = 0;
  for (int i = 0; i < n; i++) {
    sm90 += cfgs[i].recipe == PTX_RECIPE_SM90;
    split += cfgs[i].split_k != 0;
    batched += cfgs[i].batched;
  }
  /* Both recipes, split-K reductions and batches are in the sample (and user epilogues on both
   * recipes where NVRTC is present). */
  assert_true(sm90 >= 10 && split >= 10 && batched >= 10);
  if (have_nvrtc) assert_true(users >= 4);
  matrix m = make_matrix(cfgs, n);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);
  int failures = 0;
  for (int i = 0; i < m.count; i++) failures += job_failed(&m.jobs[i]);
  print_message("epilogues: %d configs (%d sm90, %d split-K, %d batched, %d user%s) compiled (%s), %d failed, %.1f s\n",
                m.count, sm90, split, batched, users, have_nvrtc ? "" : "; no NVRTC here", version, failures, seconds);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* Grouped kernels (tcj_kernel_cfg.grouped: contiguous groups by int32 or int64 ends, masked
 * groups; sm80 recipe on every arch): each mode and op pair (contiguous groups take A op N
 * only) with two tiles, f16 and bf16 (D in f32 for one), a plain epilogue, a column bias with
 * GELU, and a user epilogue where NVRTC is present, on sm_80, sm_89 and sm_90a. 0 spills. */
static void grouped_configs_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  char nvrtc_version[64];
  int have_nvrtc = eng_nvrtc_available(nvrtc_version, sizeof nvrtc_version);
  static tcj_kernel_cfg cfgs[512];
  int n = 0, per_mode[4] = {0}, users = 0, pos = 0;
  for (int ar = 0; ar < N_MATRIX_ARCHS; ar++)
    for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_MASKED; mode++)
      for (int op = 0; op < 4; op++)
        for (int pick = 0; pick < 2; pick++, pos++) {
          if (mode != PTX_GROUP_MASKED && op >> 1) continue; /* contiguous groups: A op N */
          int t = pos % 2 ? 2 : 0; /* f16 or bf16 */
          int g = (pos + 3 * pick) % (int)(sizeof tiles / sizeof *tiles);
          int epi = (pos + pick) % 3; /* 0 plain, 1 bias + GELU, 2 user */
          tcj_kernel_cfg c = make_cfg(t, op, g, 0, (pos / 3) % 3);
          c.sm = archs[ar].sm;
          c.arch_suffix = archs[ar].suffix;
          c.grouped = mode;
          if (pos % 4 == 1) c.d = PTX_E_F32;
          if (epi == 1) {
            c.bias = PTX_BIAS_COL;
            c.bias_t = pos % 2 ? PTX_E_BF16 : PTX_E_F32;
            c.act = pos % 5 ? PTX_ACT_GELU : PTX_ACT_GELU_TANH;
          }
          if (epi == 2) {
            if (!have_nvrtc) continue;
            c.user = eng_epilogue_hash(residual_source);
          }
          char text[256];
          tcj_cfg_format(&c, text, sizeof text);
          const char *why = tcj_cfg_check(&c);
          if (why) fail_msg("%s: %s", text, why);
          assert_true(n < (int)(sizeof cfgs / sizeof *cfgs));
          cfgs[n++] = c;
          per_mode[mode]++;
          users += c.user != 0;
        }
  assert_true(per_mode[1] >= 6 && per_mode[2] >= 6 && per_mode[3] >= 12);
  matrix m = make_matrix(cfgs, n);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);
  int failures = 0, max_regs = 0;
  for (int i = 0; i < m.count; i++) {
    failures += job_failed(&m.jobs[i]);
    if (m.jobs[i].registers > max_regs) max_regs = m.jobs[i].registers;
  }
  print_message("grouped: %d configs (%d ends32, %d ends64, %d masked, %d user%s) compiled (%s), %d failed, at most "
                "%d registers, %.1f s\n",
                m.count, per_mode[1], per_mode[2], per_mode[3], users, have_nvrtc ? "" : "; no NVRTC here", version,
                failures, max_regs, seconds);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* fp8: what selection picks on sm_89 (mma.sync) and sm_90a (wgmma, promoted or fast) for
 * every pair of e4m3/e5m2, every op pair (MN-major operands take the sm80 recipe), D in bf16,
 * f32 or fp8, a fused bias and activation, block scales, decode (split-K) and large shapes;
 * and every sm90 tile the check accepts with promotion and with block scales. 0 spills. */
static void fp8_configs_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  static const ptx_elem fp8[2] = {PTX_E_E4M3, PTX_E_E5M2};
  static const ptx_elem douts[3] = {PTX_E_BF16, PTX_E_F32, PTX_E_E4M3};
  static const struct { int64_t m, n, k; } shapes[] = {{4096, 4096, 4096}, {16, 6144, 4096}, {128, 28672, 4096}, {1000, 1000, 1000}};
  static tcj_kernel_cfg cfgs[MAX_SELECTED];
  int n = 0, pos = 0, sm90 = 0, sm89 = 0, promoted = 0, block = 0;
  for (int ar = 1; ar < N_MATRIX_ARCHS; ar++) /* sm_80 has no fp8 */
    for (int a = 0; a < 2; a++)
      for (int bb = 0; bb < 2; bb++)
        for (int op = 0; op < 4; op++)
          for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++, pos++) {
            eng_problem p;
            memset(&p, 0, sizeof p);
            p.op_a_t = op >> 1;
            p.op_b_t = op & 1;
            p.m = shapes[sh].m;
            p.n = shapes[sh].n;
            p.k = shapes[sh].k;
            p.ab = fp8[a];
            p.b_other = a != bb;
            p.c = PTX_E_BF16;
            p.lda = p.op_a_t ? p.m : p.k;
            p.ldb = p.op_b_t ? p.k : p.n;
            p.ldc = p.n;
            p.align_a = p.align_b = sh == 3 ? 8 : 16;
            p.align_c = 16;
            eng_problem_plain_epilogue(&p);
            p.d = douts[pos % 3];
            p.fast_accum = pos % 5 == 1;
            if (pos % 4 == 2) {
              p.bias = PTX_BIAS_COL;
              p.bias_t = PTX_E_BF16;
              p.act = pos % 8 == 2 ? PTX_ACT_GELU : PTX_ACT_RELU;
            }
            /* Block scales: sm_90a, K-major operands only. */
            p.block_scale = ar == 2 && op == 1 && !p.fast_accum && pos % 3 != 1;
            n = add_selected(cfgs, n, MAX_SELECTED, &p, ar);
          }
  /* Every tile the check accepts, promoted and block-scaled (the selection above picks few), and
   * 128x192, the widest promoted tile (partial sums in two column chunks); with a user epilogue
   * too where NVRTC is here (variants 2 and 3: a call with every accumulator live around it). */
  char nvrtc_version[64];
  int have_nvrtc = eng_nvrtc_available(nvrtc_version, sizeof nvrtc_version);
  int users = 0, wide = 0;
  for (int g = 0; g <= N_SM90_TILES; g++)
    for (int variant = 0; variant < (have_nvrtc ? 4 : 2); variant++) {
      int bm = g < N_SM90_TILES ? sm90_tiles[g].bm : 128, bn = g < N_SM90_TILES ? sm90_tiles[g].bn : 192;
      tcj_kernel_cfg c;
      memset(&c, 0, sizeof c);
      c.recipe = PTX_RECIPE_SM90;
      c.sm = 90;
      c.arch_suffix = 'a';
      int odd = variant % 2;
      c.ab = PTX_E_E4M3;
      c.b_other = odd;
      c.c = PTX_E_BF16;
      tcj_cfg_plain_epilogue(&c);
      c.d = odd ? PTX_E_E4M3 : PTX_E_BF16;
      c.op_b_t = 1;
      c.n = sm90_edges[odd].n;
      c.k = sm90_edges[odd].k;
      c.bm = bm;
      c.bn = bn;
      c.bk = 128;
      c.warps_m = g < N_SM90_TILES ? sm90_tiles[g].wm : 2;
      c.warps_n = 1;
      c.pingpong = g < N_SM90_TILES ? sm90_tiles[g].pp : 0;
      c.align_a = c.align_b = 16;
      c.vec_c = c.n % 8 == 0 ? 8 : 1;
      c.block_scale = odd;
      if (variant >= 2) c.user = eng_epilogue_hash(residual_source);
      for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM_OPTIN; c.stages--) {}
      if (tcj_cfg_check(&c)) continue;
      n = add_unique(cfgs, n, MAX_SELECTED, &c);
      users += variant >= 2;
      wide += bn == 192;
    }
  assert_true(wide >= (have_nvrtc ? 3 : 2)); /* 128x192 promoted, block-scaled, with a user epilogue */
  for (int i = 0; i < n; i++) {
    sm90 += cfgs[i].recipe == PTX_RECIPE_SM90;
    sm89 += cfgs[i].sm == 89;
    promoted += tcj_cfg_promotes(&cfgs[i]);
    block += cfgs[i].block_scale;
  }
  assert_true(sm90 >= 10 && sm89 >= 10 && promoted >= 8 && block >= 4);
  matrix m = make_matrix(cfgs, n);
  int workers = 0;
  double seconds = run_matrix(&m, &workers);
  int failures = 0;
  for (int i = 0; i < m.count; i++) failures += job_failed(&m.jobs[i]);
  print_message("fp8: %d configs (%d sm90, %d promoted, %d block-scaled, %d with a user epilogue%s, %d sm_89) compiled "
                "(%s), %d failed, %.1f s\n", m.count, sm90, promoted, block, users, have_nvrtc ? "" : ": no NVRTC here", sm89,
                version, failures, seconds);
  free_matrix(&m);
  assert_int_equal(failures, 0);
}

/* An arch the toolkit's nvJitLink cannot target is an error that names the arch and the
 * nvJitLink version (sm_999 stands for a GPU newer than the toolkit). */
static void an_arch_nvjitlink_cannot_target_is_named_with_its_version(void **state) {
  (void)state;
  char version[128] = "";
  skip_without_nvjitlink(version, sizeof version);
  tcj_kernel_cfg c = make_cfg(0, 1, 3, 0, 0); /* a small sm80 tile */
  tcj_cfg_plain_epilogue(&c);
  char *ptx = NULL, err[1024] = "";
  size_t len = 0;
  assert_int_equal(ptx_gen_gemm(&c, &ptx, &len, err, sizeof err), 0);
  eng_cubin bin;
  tcj_status st = eng_jit_compile_nvjitlink(ptx, len, "sm_999", &bin, err, sizeof err);
  free(ptx);
  assert_int_equal(st, TCJ_ERROR_COMPILE);
  print_message("%s\n", err);
  assert_non_null(strstr(err, "sm_999"));
  assert_non_null(strstr(err, "nvJitLink 1"));
}

/* The autotuner's L2 flush module (ptxgen/l2_flush.c), which the engine builds for its own arch:
 * deterministic, and compiled without spills for every arch of the table. */
static void l2_flush_module_compiles_for_every_arch(void **state) {
  (void)state;
  char version[128];
  skip_without_nvjitlink(version, sizeof version);
  for (int a = 0; a < N_ARCHS; a++) {
    char *ptx = NULL, *again = NULL, err[4096] = "";
    size_t len = 0, again_len = 0;
    assert_int_equal(ptx_gen_l2_flush(archs[a].sm, archs[a].suffix, &ptx, &len, err, sizeof err), 0);
    assert_int_equal(ptx_gen_l2_flush(archs[a].sm, archs[a].suffix, &again, &again_len, err, sizeof err), 0);
    assert_true(len == again_len && memcmp(ptx, again, len) == 0);
    assert_non_null(strstr(ptx, ".entry " PTX_L2_FLUSH_ENTRY));
    eng_cubin cubin;
    memset(&cubin, 0, sizeof cubin);
    if (eng_jit_compile(ptx, len, archs[a].name, &cubin, err, sizeof err) != TCJ_SUCCESS) {
      /* An arch this nvJitLink cannot target is the last test's business. */
      print_message("%s: %s\n", archs[a].name, err);
      assert_true(a >= N_MATRIX_ARCHS);
    } else {
      int regs = 0;
      assert_int_equal(eng_info_log_spills(cubin.info_log, &regs), 0);
      assert_true(regs <= reg_limit(PTX_L2_FLUSH_THREADS));
    }
    eng_cubin_free(&cubin);
    free(ptx);
    free(again);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(config_matrix_is_large_and_valid),
    cmocka_unit_test(sm80_generator_refuses_more_copies_than_its_tables_hold),
    cmocka_unit_test(sm90_matrix_is_valid_and_covers_every_choice),
    cmocka_unit_test(every_sm90_tile_the_check_accepts_compiles),
    cmocka_unit_test(every_kernel_compiles_for_every_arch_without_spills),
    cmocka_unit_test(blackwell_targets_compile_a_sample_of_their_selected_configs),
    cmocka_unit_test(every_epilogue_compiles_on_both_recipes_without_spills),
    cmocka_unit_test(grouped_configs_compile_without_spills),
    cmocka_unit_test(fp8_configs_compile_without_spills),
    cmocka_unit_test(sm90_tf32_and_s8_tiles_compile),
    cmocka_unit_test(l2_flush_module_compiles_for_every_arch),
    cmocka_unit_test(an_arch_nvjitlink_cannot_target_is_named_with_its_version),
  };
  const char *only = getenv("TCJ_TEST_FILTER"); /* a cmocka pattern: one part of the matrix */
  if (only && *only) cmocka_set_test_filter(only);
  return cmocka_run_group_tests(tests, 0, 0);
}
