/* SPDX-License-Identifier: Apache-2.0 */
/* Grouped kernels (tcj_kernel_cfg.grouped, sm80 recipe; ten sm90 configs after them): configs over the group modes (K groups too),
 * op pairs, tiles, types and epilogues (bias + activation, a user function) generate
 * deterministic PTX that reads p_groups and p_group_count, leaves before any barrier or
 * cp.async, and compiles through nvJitLink for sm_80, sm_89 and sm_90a with no spills (the
 * registers of each are printed). Without nvJitLink the compile test is skipped with a message
 * and fails when CI is set; without NVRTC the user-epilogue configs are left out, said so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/generate.h"
#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "unit/text_count.h"

enum { REGS_PER_SM = 65536, REG_ALLOC_UNIT = 8, MAX_REGS_PER_THREAD = 255 };

/* A user epilogue that reads every argument the spec defines for groups: a per-group residual
 * row of D (row: the row of D, or of the entry; batch: the group). */
static const char user_source[] =
    "struct res { const float *x; long long ld, stride; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                          long long batch, const void *params) {\n"
    "  const res *r = (const res *)params;\n"
    "  return v + r->x[batch * r->stride + row * r->ld + col] + 0.25f * c;\n"
    "}\n";

static const struct { const char *name; int sm, suffix; } archs[] = {{"sm_80", 80, 0}, {"sm_89", 89, 0}, {"sm_90a", 90, 'a'}};
/* bkb: bytes of K per stage. */
static const struct { int bm, bn, wm, wn, bkb, stages; } tiles[] = {
  {128, 128, 2, 2, 64, 4}, {64, 64, 2, 2, 64, 4}, {128, 256, 2, 4, 64, 3}, {16, 128, 1, 4, 128, 4}, {32, 128, 1, 4, 64, 4}};

typedef struct gcase {
  int arch, group; /* index into archs; PTX_GROUP_* */
  ptx_elem ab, c, d;
  int op;   /* op_a_t << 1 | op_b_t */
  int tile; /* index into tiles */
  int64_t n, k;
  ptx_bias bias;
  ptx_act act;
  int user;
} gcase;

static const gcase cases[] = {
  {0, PTX_GROUP_ENDS32, PTX_E_F16, PTX_E_F16, PTX_E_F16, 1, 0, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {0, PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 0, 1, 1000, 999, PTX_BIAS_COL, PTX_ACT_GELU, 0},
  {0, PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F32, PTX_E_F32, 3, 1, 999, 1000, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {0, PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 0, 2048, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 1},
  {1, PTX_GROUP_MASKED, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 2, 0, 4096, 4096, PTX_BIAS_COL, PTX_ACT_GELU_TANH, 0},
  {1, PTX_GROUP_ENDS32, PTX_E_F16, PTX_E_F32, PTX_E_F16, 1, 2, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {1, PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_F32, PTX_E_F32, 1, 4, 1000, 1000, PTX_BIAS_COL, PTX_ACT_SILU, 0},
  {1, PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 1, 3, 4096, 4096, PTX_BIAS_COL, PTX_ACT_RELU, 0},
  {2, PTX_GROUP_ENDS32, PTX_E_F16, PTX_E_F16, PTX_E_F16, 1, 2, 4096, 4096, PTX_BIAS_COL, PTX_ACT_GELU, 0},
  {2, PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 0, 0, 2048, 1000, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {2, PTX_GROUP_MASKED, PTX_E_BF16, PTX_E_BF16, PTX_E_F32, 2, 1, 1000, 999, PTX_BIAS_COL, PTX_ACT_GELU, 0},
  {2, PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 0, 0, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 1},
  {2, PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 3, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  /* K groups (weight gradients): A op T, B op N. */
  {0, PTX_GROUP_K_ENDS32, PTX_E_F16, PTX_E_F16, PTX_E_F16, 2, 0, 2048, 16384, PTX_BIAS_COL, PTX_ACT_NONE, 0},
  {1, PTX_GROUP_K_ENDS64, PTX_E_BF16, PTX_E_F32, PTX_E_F32, 2, 1, 1000, 999, PTX_BIAS_COL, PTX_ACT_GELU, 0},
  {2, PTX_GROUP_K_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 2, 2, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {2, PTX_GROUP_K_ENDS64, PTX_E_F16, PTX_E_F16, PTX_E_F16, 2, 3, 768, 1000, PTX_BIAS_NONE, PTX_ACT_NONE, 1},
};
#define N_CASES (int)(sizeof cases / sizeof *cases)

static tcj_kernel_cfg case_cfg(const gcase *g) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = archs[g->arch].sm;
  c.arch_suffix = archs[g->arch].suffix;
  c.ab = g->ab;
  c.c = g->c;
  tcj_cfg_plain_epilogue(&c);
  c.d = g->d;
  c.op_a_t = g->op >> 1;
  c.op_b_t = g->op & 1;
  c.n = g->n;
  c.k = g->k;
  c.bm = tiles[g->tile].bm;
  c.bn = tiles[g->tile].bn;
  c.bk = tiles[g->tile].bkb / ptx_elem_size(c.ab);
  c.warps_m = tiles[g->tile].wm;
  c.warps_n = tiles[g->tile].wn;
  c.stages = tiles[g->tile].stages;
  c.align_a = c.align_b = 16;
  c.vec_c = c.n % 2 == 0 ? 2 : 1;
  c.bias = g->bias;
  c.bias_t = g->bias ? PTX_E_BF16 : PTX_E_F32;
  c.act = g->act;
  c.user = g->user ? eng_epilogue_hash(user_source) : 0;
  c.grouped = g->group;
  return c;
}

static int reg_limit(int threads) {
  int fit = REGS_PER_SM / threads / REG_ALLOC_UNIT * REG_ALLOC_UNIT;
  return fit < MAX_REGS_PER_THREAD ? fit : MAX_REGS_PER_THREAD;
}

/* The case's module, or NULL (user epilogue without NVRTC). Fails the test on any other error. */
static char *generate(const tcj_kernel_cfg *c, int arch, size_t *len) {
  char err[4096] = "", *ptx = NULL;
  if (c->user) {
    tcj_status st = eng_generate_ptx(c, user_source, archs[arch].name, &ptx, len, err, sizeof err);
    if (st != TCJ_SUCCESS) print_error("eng_generate_ptx: %s\n", err);
    assert_int_equal(st, TCJ_SUCCESS);
  } else {
    int rc = ptx_gen_gemm(c, &ptx, len, err, sizeof err);
    if (rc) print_error("ptx_gen_gemm: %s\n", err);
    assert_int_equal(rc, 0);
  }
  assert_non_null(ptx);
  return ptx;
}

/* Where the first line holding `what` starts in ptx, or the end. */
static size_t first_at(const char *ptx, const char *what) {
  const char *p = strstr(ptx, what);
  return p ? (size_t)(p - ptx) : strlen(ptx);
}

static int have_nvrtc(void) {
  char version[64];
  if (eng_nvrtc_available(version, sizeof version)) return 1;
  if (getenv("CI")) fail_msg("NVRTC is not available and CI is set: the user-epilogue grouped configs must compile in CI");
  print_message("NVRTC is not available: the grouped configs with a user epilogue are left out\n");
  return 0;
}

/* Every case passes the check and its PTX: the same twice, reads the groups and their count,
 * finds its group with a warp scan (contiguous, masked) or a division (K groups), and walks its
 * units in a persistent loop whose one exit is the unit past the tiles. */
static void grouped_configs_generate_ptx_that_reads_the_groups_and_exits_first(void **state) {
  (void)state;
  int nvrtc = have_nvrtc(), done = 0;
  for (int i = 0; i < N_CASES; i++) {
    tcj_kernel_cfg c = case_cfg(&cases[i]);
    char text[256];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    if (c.user && !nvrtc) continue;
    size_t len = 0, len2 = 0;
    char *ptx = generate(&c, cases[i].arch, &len), *again = generate(&c, cases[i].arch, &len2);
    assert_true(len == len2 && memcmp(ptx, again, len) == 0);
    assert_non_null(strstr(ptx, "[p_groups]"));
    assert_non_null(strstr(ptx, "[p_group_count]"));
    assert_int_equal(strstr(ptx, "vote.sync.ballot.b32") != NULL, !ptx_group_k(c.grouped)); /* the scan's */
    assert_int_equal(strstr(ptx, "shfl.sync.bfly.b32") != NULL, ptx_group_k(c.grouped)); /* the K range's maxima */
    assert_int_equal(strstr(ptx, "[p_k]") != NULL, ptx_group_k(c.grouped));
    assert_int_equal(strstr(ptx, "ld.global.s64") != NULL, ptx_group_wide(c.grouped));
    char entry[96];
    snprintf(entry, sizeof entry, ".entry %s(", ptx_gemm_entry(&c));
    const char *body = strstr(ptx, entry); /* past a joined user function */
    assert_non_null(body);
    /* Persistent: units ctaid.x, + nctaid.x, ...; the scheduler reads the groups before the
     * unit's first barrier and copy, and no unit leaves but by the loop's one exit. */
    assert_non_null(strstr(body, "%nctaid.x"));
    assert_int_equal(count_of(body, " ret;"), 0); /* only the final "\tret;" */
    size_t groups_at = first_at(body, "[p_groups]");
    assert_true(groups_at < first_at(body, "bar.sync"));
    assert_true(groups_at < first_at(body, "cp.async"));
    assert_non_null(strstr(body, "cp.async.wait_all")); /* the ring is idle before the next unit */
    free(ptx);
    free(again);
    done++;
  }
  assert_true(done >= N_CASES - 2);
}

/* The registers of c without its groups (batched where it has masked groups): for the report
 * only, what the scheduler and the group's bases cost. -1 if it does not compile. */
static int plain_registers(const tcj_kernel_cfg *grouped, int arch) {
  tcj_kernel_cfg c = *grouped;
  c.batched = c.grouped == PTX_GROUP_MASKED || ptx_group_k(c.grouped);
  c.grouped = 0;
  size_t len = 0;
  char *ptx = generate(&c, arch, &len), err[4096];
  eng_cubin cubin;
  memset(&cubin, 0, sizeof cubin);
  int regs = -1;
  if (eng_jit_compile(ptx, len, archs[arch].name, &cubin, err, sizeof err) != TCJ_SUCCESS ||
      eng_info_log_spills(cubin.info_log, &regs) != 0)
    regs = -1;
  eng_cubin_free(&cubin);
  free(ptx);
  return regs;
}

/* Skips the test without nvJitLink (fails when CI is set: the kernels must compile in CI). */
static void need_nvjitlink(char *version, size_t size, const char *what) {
  if (!eng_nvjitlink_available(version, size)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set: the grouped kernels must compile in CI");
    print_message("[  SKIPPED ] nvJitLink is not available; compiling the %s needs it (CI fails here)\n", what);
    skip();
  }
}

/* Compiles c for archs[arch]: 1 with no spills and at most limit registers (0: no limit), else
 * 0 with the reason printed. *regs: the registers, text: the config. */
static int compiles_cleanly(const tcj_kernel_cfg *c, int arch, int limit, int *regs, char *text, size_t text_size) {
  char err[4096] = "";
  tcj_cfg_format(c, text, text_size);
  size_t len = 0;
  char *ptx = generate(c, arch, &len);
  eng_cubin cubin;
  memset(&cubin, 0, sizeof cubin);
  tcj_status st = eng_jit_compile(ptx, len, archs[arch].name, &cubin, err, sizeof err);
  int spills = -1;
  *regs = -1;
  if (st == TCJ_SUCCESS) spills = eng_info_log_spills(cubin.info_log, regs);
  int ok = st == TCJ_SUCCESS && spills == 0 && (!limit || *regs <= limit);
  if (!ok)
    print_error("FAIL %s: %s spills %d, %d registers (at most %d)\n%s\n", text, st == TCJ_SUCCESS ? "compiled," : err,
                spills, *regs, limit, cubin.info_log ? cubin.info_log : "");
  eng_cubin_free(&cubin);
  free(ptx);
  return ok;
}

static void grouped_configs_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  need_nvjitlink(version, sizeof version, "grouped kernels");
  int nvrtc = have_nvrtc(), failures = 0, compiled = 0;
  for (int i = 0; i < N_CASES; i++) {
    tcj_kernel_cfg c = case_cfg(&cases[i]);
    if (c.user && !nvrtc) continue;
    char text[256];
    int regs;
    if (!compiles_cleanly(&c, cases[i].arch, reg_limit(tcj_cfg_threads(&c)), &regs, text, sizeof text)) {
      failures++;
      continue;
    }
    print_message("%3d registers (%3d without groups), 0 spills: %s\n", regs, plain_registers(&c, cases[i].arch), text);
    compiled++;
  }
  print_message("grouped: %d configs compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_true(compiled >= N_CASES - 2);
}

/* ---- the sm90 recipe's grouped kernels (sm_90a): cooperative consumers, no cluster ---- */

typedef struct g90case {
  int group;
  ptx_elem ab, c, d;
  int op; /* op_a_t << 1 | op_b_t */
  int bm, bn, consumers;
  int64_t n, k;
  ptx_bias bias;
  ptx_act act;
  int user;
  int gather; /* gathered rows of A: the producer warpgroup's cp.async copies (sm90_gather.c) */
  int b_ptrs; /* B by pointers: B's map rewritten per group (sm90_group_maps.c) */
} g90case;

static const g90case cases90[] = {
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 256, 2, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 0},
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 256, 128, 2, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 0},
  {PTX_GROUP_ENDS64, PTX_E_F16, PTX_E_F16, PTX_E_F16, 0, 256, 128, 2, 1000, 999, PTX_BIAS_COL, PTX_ACT_GELU, 0, 0, 0},
  {PTX_GROUP_MASKED, PTX_E_BF16, PTX_E_F32, PTX_E_F32, 3, 128, 128, 2, 4096, 4096, PTX_BIAS_COL, PTX_ACT_SILU, 0, 0, 0},
  {PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 1, 64, 128, 1, 2048, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 0},
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 192, 2, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 1, 0, 0},
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_F32, 0, 128, 256, 2, 4096, 7168, PTX_BIAS_COL, PTX_ACT_GELU_TANH, 0, 0, 0},
  {PTX_GROUP_MASKED, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 256, 2, 4096, 7168, PTX_BIAS_COL, PTX_ACT_RELU, 0, 0, 0},
  {PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 2, 128, 192, 2, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_NONE, 1, 0, 0},
  /* Contiguous groups with A op T: the kernel takes them (TMA loads a box at any row), the
   * engine refuses them in this release (the sm80 kernel cannot). */
  {PTX_GROUP_ENDS32, PTX_E_F16, PTX_E_F16, PTX_E_F16, 3, 64, 64, 1, 1024, 1024, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 0},
  /* Gathered rows of A, every tile height (2, 4 and 8 rows per producer thread): the MoE
   * up-projection with SwiGLU, a K tail inside a tile, op_b N, a bias. */
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 256, 2, 768, 2048, PTX_BIAS_NONE, PTX_ACT_SWIGLU, 0, 1, 0},
  {PTX_GROUP_ENDS64, PTX_E_F16, PTX_E_F16, PTX_E_F16, 0, 256, 128, 2, 1000, 1000, PTX_BIAS_COL, PTX_ACT_GELU, 0, 1, 0},
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_F32, PTX_E_F32, 1, 64, 128, 1, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 1, 0},
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 192, 2, 2048, 1536, PTX_BIAS_NONE, PTX_ACT_NONE, 1, 1, 0},
  /* B by pointers: the producer rewrites B's map per group (sm90_group_maps.c): nn.Linear and
   * [G, K, N] weights, masked groups, with a gather and SwiGLU, fp8. */
  {PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 256, 2, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 1},
  {PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 0, 128, 128, 2, 2048, 1000, PTX_BIAS_COL, PTX_ACT_SILU, 0, 0, 1},
  {PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 128, 256, 2, 768, 2048, PTX_BIAS_NONE, PTX_ACT_SWIGLU, 0, 1, 1},
  {PTX_GROUP_ENDS32, PTX_E_E4M3, PTX_E_BF16, PTX_E_BF16, 1, 128, 128, 2, 7168, 2048, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 1},
  /* K groups (A op T, B op N, k 0: the depth is the group's): A's and B's maps rewritten per
   * group; a bias and an activation, f32 D, a user function. */
  {PTX_GROUP_K_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 2, 128, 256, 2, 2048, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0, 0, 0},
  {PTX_GROUP_K_ENDS64, PTX_E_F16, PTX_E_F32, PTX_E_F32, 2, 128, 128, 2, 1000, 0, PTX_BIAS_COL, PTX_ACT_GELU, 0, 0, 0},
  {PTX_GROUP_K_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 2, 64, 128, 1, 768, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 1, 0, 0},
};
#define N_CASES90 (int)(sizeof cases90 / sizeof *cases90)
enum { ARCH_SM90A = 2, SM90_SMEM = 232448 /* H100 / H200: 227 KiB per CTA */ };

static tcj_kernel_cfg case90_cfg(const g90case *g) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM90;
  c.sm = 90;
  c.arch_suffix = 'a';
  c.ab = g->ab;
  c.c = g->c;
  tcj_cfg_plain_epilogue(&c);
  c.d = g->d;
  c.op_a_t = g->op >> 1;
  c.op_b_t = g->op & 1;
  c.n = g->n;
  c.k = g->k;
  c.bm = g->bm;
  c.bn = g->bn;
  c.bk = 64;
  c.warps_m = g->consumers;
  c.warps_n = 1;
  c.align_a = c.align_b = 16;
  int es = ptx_elem_size(g->c) > ptx_elem_size(g->d) ? ptx_elem_size(g->c) : ptx_elem_size(g->d);
  c.vec_c = 16 / es;
  while (c.n % c.vec_c) c.vec_c /= 2;
  c.bias = g->bias;
  c.bias_t = g->bias ? PTX_E_BF16 : PTX_E_F32;
  c.act = g->act;
  c.user = g->user ? eng_epilogue_hash(user_source) : 0;
  c.grouped = g->group;
  c.gather = g->gather;
  c.b_ptrs = g->b_ptrs;
  if (ptx_elem_is_fp8(c.ab)) c.bk = 128; /* one 128-byte line of one-byte elements */
  for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM; c.stages--) continue;
  return c;
}


/* Every sm90 case passes the check and its PTX is the same twice; the producer and the
 * consumers each run the scheduler (two reads of p_groups, after setmaxnreg.dec and after
 * setmaxnreg.inc: inside their loops over units), a warp scan for contiguous groups and a
 * division for masked ones; a unit without a tile branches on in the loop and never returns
 * (no predicated ret: the CTA's other warpgroups still run); D leaves by predicated stores,
 * never the TMA store (it would write the next group's rows); B is read through a rank-3 map,
 * A through rank 3 for masked groups only. */
static void grouped_sm90_configs_generate_ptx_that_walks_the_units(void **state) {
  (void)state;
  int nvrtc = have_nvrtc(), done = 0;
  for (int i = 0; i < N_CASES90; i++) {
    tcj_kernel_cfg c = case90_cfg(&cases90[i]);
    char text[256];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    if (c.user && !nvrtc) continue;
    size_t len = 0, len2 = 0;
    char *ptx = generate(&c, ARCH_SM90A, &len), *again = generate(&c, ARCH_SM90A, &len2);
    assert_true(len == len2 && memcmp(ptx, again, len) == 0);
    char entry[96];
    snprintf(entry, sizeof entry, ".entry %s(", ptx_gemm_entry(&c));
    const char *body = strstr(ptx, entry);
    assert_non_null(body);
    if (count_of(body, "[p_groups]") != 2) print_error("%s: p_groups read %d times\n", text, count_of(body, "[p_groups]"));
    assert_int_equal(count_of(body, "[p_groups]"), 2);
    assert_true(count_of(body, "[p_group_count]") >= 3); /* the unit count and both schedulers */
    /* The unit count (the first read of p_group_count): masked groups and K groups run every
     * group's whole tile grid, tile rows x G (a sum, tile rows + G, ran too few units: a K-grouped
     * kernel left D tiles of the later groups unwritten on an H100); contiguous groups the
     * bound tile rows + G. */
    const char *count_at = strstr(body, "[p_group_count]");
    const char *next = strchr(count_at, '\n') + 1;
    next += strspn(next, "\t ");
    int product = c.grouped == PTX_GROUP_MASKED || ptx_group_k(c.grouped);
    if (strncmp(next, product ? "mul.lo.u32" : "add.u32", product ? 10 : 7) != 0)
      print_error("%s: the unit count after p_group_count is %.40s\n", text, next);
    assert_int_equal(strncmp(next, product ? "mul.lo.u32" : "add.u32", product ? 10 : 7), 0);
    const char *dec = strstr(body, "setmaxnreg.dec"), *inc = strstr(body, "setmaxnreg.inc");
    assert_non_null(dec);
    assert_non_null(inc);
    const char *first = strstr(body, "[p_groups]"), *second = strstr(first + 1, "[p_groups]");
    assert_true(first > dec && first < inc && second > inc);
    int contiguous = c.grouped != PTX_GROUP_MASKED;
    /* the producer's scan and the consumers' (K groups reduce their range with shuffles) */
    assert_int_equal(count_of(body, "vote.sync.ballot.b32"), ptx_group_k(c.grouped) ? 0 : 2);
    assert_int_equal(strstr(body, "ld.global.s64") != NULL, ptx_group_wide(c.grouped));
    assert_int_equal(count_of(body, " ret;"), 0); /* only the final "\tret;" */
    /* D through TMA where the config takes it (contiguous groups, 16-byte rows, no fused
     * epilogue in these cooperative kernels): a tile inside its group stores by TMA, and the
     * row guard of the staged path (p_m's bound replaced by the group's end) serves the tile
     * that crosses it, so the branch compares the tile's last row with the group's end. */
    int tma_d = ptx_sm90_tma_store(&c);
    assert_int_equal(tma_d, contiguous && !ptx_group_k(c.grouped) && c.vec_c * ptx_elem_size(c.d) == 16 &&
                                (!tcj_cfg_fused(&c) || (tcj_cfg_swiglu(&c) && c.bn % 128 == 0)) &&
                                !ptx_elem_is_fp8(c.ab)); /* fp8's D scale and amax are staged; K groups' D is a
                                                            batch of entries; SwiGLU pairs its values first */
    assert_int_equal(strstr(body, "cp.async.bulk.tensor.2d.global.shared") != NULL, tma_d);
    assert_int_equal(strstr(body, ", p_tmap_d;") != NULL, tma_d); /* its address taken */
    /* ...into the same staging buffer as the TMA path's boxes: every thread of the staged path
     * first waits (unpredicated) for this consumer's earlier TMA stores to have read it. */
    const char *wait = strstr(body, "\tcp.async.bulk.wait_group.read 0;");
    assert_int_equal(wait != NULL, tma_d);
    if (wait) assert_non_null(strstr(wait, "st.shared.v2.")); /* the staged writes follow it */
    assert_non_null(strstr(body, "cp.async.bulk.tensor.3d.shared::cluster.global")); /* B by group */
    /* A by TMA (rank 2 over all rows), or gathered: the producer's threads copy its rows with
     * cp.async (bm / 16 per stage each), arrive on a full barrier of 1 + 128 arrivals, and the
     * consumers fence the proxies before their wgmmas read them. */
    assert_int_equal(strstr(body, "cp.async.bulk.tensor.2d.shared::cluster.global") != NULL, contiguous && !c.gather);
    assert_int_equal(count_of(body, "[p_gather]"), c.gather);
    assert_int_equal(count_of(body, "cp.async.cg.shared.global"), c.gather ? c.bm / 16 : 0);
    assert_int_equal(count_of(body, "cp.async.mbarrier.arrive.noinc.shared::cta.b64"), c.gather);
    tcj_kernel_cfg plain = c;
    plain.gather = 0;
    size_t plain_len = 0;
    char *plain_ptx = generate(&plain, ARCH_SM90A, &plain_len);
    assert_int_equal(count_of(body, "fence.proxy.async.shared::cta"),
                     count_of(strstr(plain_ptx, ".entry "), "fence.proxy.async.shared::cta") + c.gather);
    free(plain_ptx);
    assert_int_equal(strstr(body, "], 129;") != NULL, c.gather);
    /* B by pointers: one rewrite of B's map (the group's pointer read once, in it), copied to a
     * slot of p_work and acquired there; PTX ISA 8.3 for tensormap.replace; B's own map is not
     * prefetched (no copy reads it). */
    /* K groups: both maps rewritten (address and K extent), copied and acquired per group. */
    int maps = tcj_cfg_sm90_group_maps(&c), by_k = ptx_group_k(c.grouped);
    assert_int_equal(maps, by_k ? 2 : c.b_ptrs);
    /* Their slots: a ring of stages + 1 per CTA, each the maps' 128 bytes, in the call's scratch. */
    assert_int_equal(tcj_cfg_sm90_map_ring(&c), maps ? c.stages + 1 : 0);
    assert_int_equal(ptx_recipe_sm90.cta_scratch_bytes(&c), (int64_t)(maps ? c.stages + 1 : 0) * maps * 128);
    assert_int_equal(count_of(body, "tensormap.replace.tile.global_address.shared::cta"), maps);
    assert_int_equal(count_of(body, "tensormap.replace.tile.global_dim.shared::cta.b1024.b32"), by_k ? 2 : 0);
    if (by_k) { /* an empty group's maps start at row 0 (selp 0 over its start), never past K */
      const char *rep = strstr(body, "tensormap.replace.tile.global_address"), *from = rep - 400 > body ? rep - 400 : body;
      char window[512] = "";
      memcpy(window, from, (size_t)(rep - from));
      assert_non_null(strstr(window, "selp.u32"));
      assert_non_null(strstr(strstr(window, "selp.u32"), ", 0, %r"));
    }
    assert_int_equal(count_of(body, "tensormap.cp_fenceproxy.global.shared::cta"), maps);
    assert_int_equal(count_of(body, "fence.proxy.tensormap::generic.acquire.gpu"), maps);
    assert_int_equal(count_of(body, "[p_work]"), maps > 0);
    assert_int_equal(count_of(body, "ld.global.nc.u64"), c.b_ptrs);
    int major = 0, minor = 0; /* tensormap.replace: PTX ISA 8.3 (a user function's may be later) */
    assert_int_equal(sscanf(ptx, ".version %d.%d", &major, &minor), 2);
    if (maps) assert_true(10 * major + minor >= 83);
    else if (!c.user) assert_int_equal(10 * major + minor, 80);
    assert_int_equal(count_of(body, "prefetch.tensormap"), 2 - maps + tma_d);
    free(ptx);
    free(again);
    done++;
  }
  assert_true(done >= N_CASES90 - 2);
}

static void grouped_sm90_configs_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  need_nvjitlink(version, sizeof version, "grouped sm90 kernels");
  int nvrtc = have_nvrtc(), failures = 0, compiled = 0;
  for (int i = 0; i < N_CASES90; i++) {
    tcj_kernel_cfg c = case90_cfg(&cases90[i]);
    if (c.user && !nvrtc) continue;
    char text[256];
    int regs;
    if (!compiles_cleanly(&c, ARCH_SM90A, 0, &regs, text, sizeof text)) {
      failures++;
      continue;
    }
    print_message("%3d registers, 0 spills: %s\n", regs, text);
    compiled++;
  }
  print_message("grouped sm90: %d configs compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_true(compiled >= N_CASES90 - 2);
}

/* Clusters along M on the M modes: each contiguous or masked case without a gather or pointers
 * and with a B tile a pair can split (bn 128 or more, halves of whole atoms or boxes) takes cluster_m 2: its module asks for
 * pairs, its units are pairs of tile rows (the scheduler's tile count rounds to 2 bm), each CTA
 * loads half of B's tile and multicasts it, and it compiles without spills. Along N, and with
 * K groups, pointers or gathers, clusters are refused. */
static void grouped_sm90_clusters_pair_tile_rows(void **state) {
  (void)state;
  char version[128] = "";
  need_nvjitlink(version, sizeof version, "grouped sm90 cluster kernels");
  int nvrtc = have_nvrtc(), paired = 0, failures = 0;
  for (int i = 0; i < N_CASES90; i++) {
    tcj_kernel_cfg c = case90_cfg(&cases90[i]);
    c.cluster_m = 2;
    int takes = !ptx_group_k(c.grouped) && !c.gather && !c.b_ptrs;
    const char *why = tcj_cfg_check(&c);
    if (!takes) {
      assert_non_null(why);
      continue;
    }
    if (c.bn < 128 || c.bn % (c.op_b_t ? 16 : 128)) { /* each CTA's half: whole swizzle atoms or boxes */
      assert_non_null(why);
      continue;
    }
    char text[256];
    tcj_cfg_format(&c, text, sizeof text);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    assert_int_equal(tcj_cfg_group_unit_rows(&c), 2 * c.bm);
    if (c.user && !nvrtc) continue;
    size_t len = 0;
    char *ptx = generate(&c, ARCH_SM90A, &len);
    assert_non_null(strstr(ptx, ".reqnctapercluster 2, 1, 1"));
    assert_non_null(strstr(ptx, "%cluster_ctarank"));
    assert_non_null(strstr(ptx, ".multicast::cluster"));
    char shift[64]; /* tile rows of a group: ceil(rows / (2 bm)) */
    snprintf(shift, sizeof shift, ", %d;", 2 * c.bm - 1);
    assert_non_null(strstr(ptx, shift));
    free(ptx);
    int regs;
    if (!compiles_cleanly(&c, ARCH_SM90A, 0, &regs, text, sizeof text)) failures++;
    else paired++;
  }
  /* What selection picks for DeepGEMM's shapes (4 x 8192 rows, n 4096, k 7168): bf16 pairs,
   * and fp8 pairs with block scales, row scales, and row scales with fast accumulation; and for
   * Qwen3's down-projection with the router weights (row_scale). */
  static const char *fp8_pairs[] = {
    "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=7168 tile=128x256x64 warps=2x1 stages=4 align=16,16,8 cluster=2 group=1",
    "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=4096 k=7168 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 cluster=2 scale=block group=1",
    "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=4096 k=7168 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 cluster=2 group=1 scale=row",
    "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=4096 k=7168 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 cluster=2 fast=1 group=1 scale=row",
    "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=2048 k=768 tile=128x256x64 warps=2x1 stages=4 align=16,16,8 cluster=2 group=1 rowscale",
  };
  for (size_t i = 0; i < sizeof fp8_pairs / sizeof *fp8_pairs; i++) {
    tcj_kernel_cfg c;
    assert_int_equal(tcj_cfg_parse(fp8_pairs[i], &c), 0);
    assert_int_equal(c.cluster_m, 2);
    assert_null(tcj_cfg_check(&c));
    assert_int_equal(tcj_cfg_group_unit_rows(&c), 2 * c.bm);
    /* A row scale alone (the router weights) is staged in shared memory and stored by TMA. */
    if (c.row_scale) assert_true(ptx_sm90_tma_store(&c));
    char text[256];
    int regs;
    if (!compiles_cleanly(&c, ARCH_SM90A, 0, &regs, text, sizeof text)) failures++;
    else paired++;
  }
  print_message("grouped sm90 clusters: %d configs compiled (%s), %d failed\n", paired, version, failures);
  assert_int_equal(failures, 0);
  assert_true(paired >= 11);
  tcj_kernel_cfg n = case90_cfg(&cases90[0]);
  n.cluster_n = 2;
  assert_non_null(strstr(tcj_cfg_check(&n), "along M only"));
}

/* Ping-pong consumers on the M modes (TCJ_TILE's /pp; selection keeps grouped calls
 * cooperative): each contiguous or masked case as two 64-row tiles, one per consumer, passes the
 * check, takes the two turn barriers and the producer's one arrival per stage (only the consumer
 * whose tile it is frees a stage), each consumer runs the scheduler on its own units, and the
 * module compiles without spills; K groups, pairs of tile rows and a user function over 128
 * accumulators are refused. The Qwen3-30B-A3B layer's two GEMMs on 64x256 ping-pong tiles (the
 * configs measured in docs/perf.md) are compiled too. */
static void grouped_sm90_pingpong_consumers_take_turns(void **state) {
  (void)state;
  char version[128] = "";
  need_nvjitlink(version, sizeof version, "grouped sm90 ping-pong kernels");
  int nvrtc = have_nvrtc(), compiled = 0, failures = 0;
  for (int i = 0; i < N_CASES90; i++) {
    tcj_kernel_cfg c = case90_cfg(&cases90[i]);
    c.bm = 64;
    c.warps_m = 2;
    c.pingpong = 1;
    for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM; c.stages--) continue;
    char text[256];
    tcj_cfg_format(&c, text, sizeof text);
    const char *why = tcj_cfg_check(&c);
    if (ptx_group_k(c.grouped)) {
      assert_non_null(why);
      assert_non_null(strstr(why, "ping-pong takes M groups"));
      continue;
    }
    if (c.user && tcj_cfg_sm90_accumulators(&c) > 96) {
      assert_non_null(why);
      continue;
    }
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    tcj_kernel_cfg pair = c;
    pair.cluster_m = 2;
    assert_non_null(tcj_cfg_check(&pair));
    if (c.user && !nvrtc) continue;
    size_t len = 0;
    char *ptx = generate(&c, ARCH_SM90A, &len);
    char entry[96];
    snprintf(entry, sizeof entry, ".entry %s(", ptx_gemm_entry(&c));
    const char *body = strstr(ptx, entry);
    assert_non_null(body);
    /* stages + stages + 2 barriers, each stage's empty one freed by one consumer's 4 warps */
    assert_int_equal(count_of(body, "mbarrier.init.shared::cta.b64"), 2 * c.stages + 2);
    char empty[32];
    snprintf(empty, sizeof empty, "+%d], 4;", 8 * (c.stages - 1));
    assert_non_null(strstr(body, empty));
    assert_int_equal(count_of(body, "[p_groups]"), 2); /* the producer's scan and the consumers' */
    free(ptx);
    int regs;
    if (!compiles_cleanly(&c, ARCH_SM90A, 0, &regs, text, sizeof text)) {
      failures++;
      continue;
    }
    print_message("%3d registers, 0 spills: %s\n", regs, text);
    compiled++;
  }
  static const char *qwen3[] = {
    "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=1536 k=2048 tile=64x256x64 warps=2x1 stages=4 align=16,16,8 "
    "pingpong=1 act=swiglu group=1 gather",
    "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=2048 k=768 tile=64x256x64 warps=2x1 stages=4 align=16,16,8 "
    "pingpong=1 group=1 rowscale",
    "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=2048 k=768 tile=64x256x64 warps=2x1 stages=4 align=16,16,8 "
    "pingpong=1 group=1 rowscale scatter=store",
  };
  for (size_t i = 0; i <= sizeof qwen3 / sizeof *qwen3; i++) {
    tcj_kernel_cfg c;
    assert_int_equal(tcj_cfg_parse(qwen3[i < 3 ? i : 1], &c), 0);
    if (i == 3) { /* the rows added into float32 D */
      c.c = c.d = PTX_E_F32;
      c.vec_c = 4;
      c.scatter = PTX_SCATTER_ADD;
    }
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", qwen3[i], why);
    assert_null(why);
    char text[256];
    int regs;
    if (!compiles_cleanly(&c, ARCH_SM90A, 0, &regs, text, sizeof text)) failures++;
    else compiled++;
  }
  print_message("grouped sm90 ping-pong: %d configs compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_true(compiled >= 12);
}

/* K groups run where K is both operands' row (A op T, B op N), on both recipes, and the M modes'
 * rules stay as they were. */
static void k_groups_take_a_t_b_n_on_both_recipes(void **state) {
  (void)state;
  tcj_kernel_cfg c = case_cfg(&cases[N_CASES - 3]); /* K ends64, bf16 */
  assert_true(ptx_group_k(c.grouped));
  assert_null(tcj_cfg_check(&c));
  char text[256];
  tcj_kernel_cfg back;
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " group=5"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(back.grouped, PTX_GROUP_K_ENDS64);
  for (int op = 0; op < 4; op++) {
    c.op_a_t = op >> 1;
    c.op_b_t = op & 1;
    const char *why = tcj_cfg_check(&c);
    if (op == 2) assert_null(why);
    else assert_non_null(why);
  }
  c.grouped = 6;
  assert_non_null(tcj_cfg_check(&c));
  /* The sm90 recipe takes them too (its producer rewrites A's and B's maps per group), with the
   * same op rule, and k 0 (the depth is each group's). */
  g90case g = cases90[0];
  g.group = PTX_GROUP_K_ENDS32;
  g.k = 0;
  for (g.op = 0; g.op < 4; g.op++) {
    tcj_kernel_cfg c90 = case90_cfg(&g);
    const char *why = tcj_cfg_check(&c90);
    if (g.op == 2) assert_null(why);
    else assert_non_null(why);
  }
  g.group = PTX_GROUP_ENDS32, g.op = 1;
  tcj_kernel_cfg m_groups = case90_cfg(&g);
  assert_non_null(tcj_cfg_check(&m_groups)); /* M groups need k >= 1 */
}

/* ---- B by pointer arrays (bptrs, sm80 recipe only) and gathered rows of A (gather) ---- */

typedef struct opcase {
  gcase base;
  int b_ptrs, gather;
} opcase;

static const opcase op_cases[] = {
  {{0, PTX_GROUP_ENDS32, PTX_E_F16, PTX_E_F16, PTX_E_F16, 1, 0, 4096, 4096, PTX_BIAS_COL, PTX_ACT_GELU, 0}, 1, 1},
  {{0, PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 0, 1, 1000, 999, PTX_BIAS_NONE, PTX_ACT_NONE, 0}, 0, 1},
  {{0, PTX_GROUP_MASKED, PTX_E_BF16, PTX_E_F32, PTX_E_F32, 3, 1, 999, 1000, PTX_BIAS_NONE, PTX_ACT_NONE, 0}, 1, 0},
  {{1, PTX_GROUP_ENDS32, PTX_E_E4M3, PTX_E_BF16, PTX_E_BF16, 1, 2, 7168, 2048, PTX_BIAS_NONE, PTX_ACT_NONE, 0}, 1, 1},
  {{1, PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 3, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 0}, 0, 1},
  {{2, PTX_GROUP_ENDS32, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 2, 768, 2048, PTX_BIAS_COL, PTX_ACT_SWIGLU, 0}, 1, 1},
  {{2, PTX_GROUP_MASKED, PTX_E_F16, PTX_E_F16, PTX_E_F16, 0, 4, 2048, 1000, PTX_BIAS_COL, PTX_ACT_SILU, 0}, 1, 0},
  {{2, PTX_GROUP_ENDS64, PTX_E_BF16, PTX_E_BF16, PTX_E_BF16, 1, 4, 4096, 7168, PTX_BIAS_NONE, PTX_ACT_NONE, 1}, 1, 1},
};
#define N_OP_CASES (int)(sizeof op_cases / sizeof *op_cases)

static tcj_kernel_cfg op_case_cfg(const opcase *o) {
  tcj_kernel_cfg c = case_cfg(&o->base);
  c.b_ptrs = o->b_ptrs;
  c.gather = o->gather;
  if (ptx_elem_is_fp8(c.ab)) c.bk = tiles[o->base.tile].bkb; /* one byte each */
  return c;
}

/* The flags' rules, their text (parse(format(c)) == c) and the sm90 recipe's refusal. */
static void operand_arrays_check_and_round_trip(void **state) {
  (void)state;
  tcj_kernel_cfg c = op_case_cfg(&op_cases[0]), back;
  char text[256];
  assert_null(tcj_cfg_check(&c));
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " bptrs gather"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(back.b_ptrs, 1);
  assert_int_equal(back.gather, 1);
  assert_int_equal(memcmp(&back, &c, sizeof c), 0);
  c.gather = 0;
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(back.b_ptrs, 1);
  assert_int_equal(back.gather, 0);
  /* gather: contiguous groups over A op N, no fp8 row scales; bptrs: M groups. */
  c = op_case_cfg(&op_cases[1]);
  c.grouped = PTX_GROUP_MASKED;
  assert_non_null(strstr(tcj_cfg_check(&c), "gather"));
  c = op_case_cfg(&op_cases[1]);
  c.grouped = 0;
  assert_non_null(strstr(tcj_cfg_check(&c), "gather"));
  c = op_case_cfg(&op_cases[3]);
  c.scale_row = 1;
  assert_non_null(strstr(tcj_cfg_check(&c), "gather"));
  c.gather = 0; /* the row scales' own rules may refuse the tile, gather is no reason any more */
  assert_true(tcj_cfg_check(&c) == NULL || strstr(tcj_cfg_check(&c), "gather") == NULL);
  c = op_case_cfg(&op_cases[2]);
  c.b_ptrs = 2;
  assert_non_null(tcj_cfg_check(&c));
  c.b_ptrs = 1;
  c.grouped = 0;
  assert_non_null(strstr(tcj_cfg_check(&c), "bptrs"));
  tcj_kernel_cfg k = case_cfg(&cases[N_CASES - 3]); /* K groups */
  k.b_ptrs = 1;
  assert_non_null(strstr(tcj_cfg_check(&k), "bptrs"));
  tcj_kernel_cfg a_t = case_cfg(&cases[N_CASES - 3]);
  a_t.grouped = PTX_GROUP_ENDS32, a_t.gather = 1; /* A op T */
  assert_non_null(tcj_cfg_check(&a_t));
  /* On the sm90 recipe: gathers (its producer copies the rows) and pointer arrays. */
  tcj_kernel_cfg c90 = case90_cfg(&cases90[0]);
  assert_null(tcj_cfg_check(&c90));
  c90.gather = 1;
  assert_null(tcj_cfg_check(&c90));
  c90.k = (int64_t)1 << 30; /* a row's byte offsets are 32-bit */
  assert_non_null(strstr(tcj_cfg_check(&c90), "gather"));
  c90 = case90_cfg(&cases90[0]);
  c90.b_ptrs = 1; /* the producer rewrites B's map per group */
  assert_null(tcj_cfg_check(&c90));
  assert_int_equal(tcj_cfg_sm90_map_ring(&c90), c90.stages + 1);
}

/* The registers of c without its arrays, for the report only; -1 if it does not compile or
 * spills (some plain configs here are wider than selection takes). */
static int array_free_registers(const tcj_kernel_cfg *with, int arch) {
  tcj_kernel_cfg c = *with;
  c.b_ptrs = c.gather = 0;
  size_t len = 0;
  char *ptx = generate(&c, arch, &len), err[4096];
  eng_cubin cubin;
  memset(&cubin, 0, sizeof cubin);
  int regs = -1;
  if (eng_jit_compile(ptx, len, archs[arch].name, &cubin, err, sizeof err) != TCJ_SUCCESS ||
      eng_info_log_spills(cubin.info_log, &regs) != 0)
    regs = -1;
  eng_cubin_free(&cubin);
  free(ptx);
  return regs;
}

/* Each case's PTX reads the pointer array (one 64-bit load of group g's entry) where it takes
 * one, and the indices and the row count where it gathers, and nothing of them otherwise; it
 * compiles with no spills for its arch. */
static void operand_array_configs_read_their_arrays_and_compile(void **state) {
  (void)state;
  int nvrtc = have_nvrtc(), failures = 0, compiled = 0;
  char version[128] = "";
  int jit = eng_nvjitlink_available(version, sizeof version);
  for (int i = 0; i < N_OP_CASES; i++) {
    tcj_kernel_cfg c = op_case_cfg(&op_cases[i]);
    char text[256];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    if (c.user && !nvrtc) continue;
    size_t len = 0;
    char *ptx = generate(&c, op_cases[i].base.arch, &len);
    char entry[96];
    snprintf(entry, sizeof entry, ".entry %s(", ptx_gemm_entry(&c));
    const char *body = strstr(ptx, entry);
    assert_non_null(body);
    assert_non_null(strstr(body, "p_gather_rows")); /* declared by every kernel (the ABI) */
    assert_int_equal(count_of(body, "[p_gather]"), c.gather);
    assert_int_equal(count_of(body, "[p_gather_rows]"), c.gather);
    assert_int_equal(count_of(body, "ld.global.nc.u32") > 0, c.gather);
    assert_int_equal(count_of(body, "ld.global.nc.u64"), c.b_ptrs);
    free(ptx);
    if (!jit) continue;
    int regs;
    if (!compiles_cleanly(&c, op_cases[i].base.arch, reg_limit(tcj_cfg_threads(&c)), &regs, text, sizeof text)) {
      failures++;
      continue;
    }
    print_message("%3d registers (%3d without the arrays), 0 spills, %s: %s\n", regs, array_free_registers(&c, op_cases[i].base.arch),
                  archs[op_cases[i].base.arch].name, text);
    compiled++;
  }
  if (!jit) need_nvjitlink(version, sizeof version, "B pointer array and gather kernels");
  print_message("bptrs / gather: %d configs compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_true(compiled >= N_OP_CASES - 1);
}

/* ---- the MoE combine: rows added into D through indices (scatter) ---- */

/* The down-projection of an MoE layer on every arch and both recipes: the sm80 kernel (decode
 * groups; on sm_90a too), the sm90 kernel of 128x256, 256x128 and 64x128 tiles, with router
 * weights, a gather, a bias and an activation, fp8 operands; rows added into f32 D, or stored
 * (bf16 D, and fp8 D with its scale and amax). */
typedef struct scase {
  int sm90, arch, tile; /* sm80: index into tiles; sm90: index into cases90 */
  ptx_elem ab;
  int row_scale, gather, mode; /* PTX_SCATTER_* */
  ptx_elem d;
} scase;

static const scase scatter_cases[] = {
  {0, 0, 4, PTX_E_BF16, 1, 0, PTX_SCATTER_ADD, PTX_E_F32},    {0, 1, 3, PTX_E_BF16, 1, 1, PTX_SCATTER_ADD, PTX_E_F32},
  {0, 2, 4, PTX_E_BF16, 1, 0, PTX_SCATTER_ADD, PTX_E_F32},    {0, 2, 0, PTX_E_F16, 0, 1, PTX_SCATTER_ADD, PTX_E_F32},
  {0, 1, 0, PTX_E_E4M3, 0, 0, PTX_SCATTER_ADD, PTX_E_F32},    {1, 2, 0, PTX_E_BF16, 1, 0, PTX_SCATTER_ADD, PTX_E_F32},
  {1, 2, 1, PTX_E_BF16, 1, 1, PTX_SCATTER_ADD, PTX_E_F32},    {1, 2, 12, PTX_E_BF16, 0, 1, PTX_SCATTER_ADD, PTX_E_F32},
  {1, 2, 6, PTX_E_BF16, 0, 0, PTX_SCATTER_ADD, PTX_E_F32},    {0, 0, 4, PTX_E_BF16, 1, 0, PTX_SCATTER_STORE, PTX_E_BF16},
  {0, 2, 0, PTX_E_F16, 0, 1, PTX_SCATTER_STORE, PTX_E_F16},   {1, 2, 0, PTX_E_BF16, 1, 0, PTX_SCATTER_STORE, PTX_E_BF16},
  {1, 2, 1, PTX_E_BF16, 1, 1, PTX_SCATTER_STORE, PTX_E_F32},  {1, 2, 17, PTX_E_E4M3, 0, 0, PTX_SCATTER_STORE, PTX_E_E4M3},
};
#define N_SCATTER_CASES (int)(sizeof scatter_cases / sizeof *scatter_cases)

static tcj_kernel_cfg scatter_cfg(const scase *s) {
  tcj_kernel_cfg c;
  if (s->sm90) {
    c = case90_cfg(&cases90[s->tile]);
  } else {
    gcase g = {s->arch, PTX_GROUP_ENDS32, s->ab, PTX_E_F32, PTX_E_F32, 1, s->tile, 2048, 768, PTX_BIAS_NONE,
               PTX_ACT_NONE, 0};
    c = case_cfg(&g);
    if (ptx_elem_is_fp8(c.ab)) c.bk = tiles[s->tile].bkb;
  }
  c.grouped = PTX_GROUP_ENDS32;
  c.c = ptx_elem_is_fp8(s->d) ? PTX_E_BF16 : s->d; /* C is not read: an fp8 D's C is a float type */
  c.d = s->d;
  c.row_scale = s->row_scale;
  c.gather = s->gather;
  c.scatter = s->mode;
  int es = ptx_elem_size(c.c) > ptx_elem_size(c.d) ? ptx_elem_size(c.c) : ptx_elem_size(c.d);
  if (s->sm90) /* 16-byte vectors (sm80: pairs, as case_cfg set) */
    for (c.vec_c = 16 / es; c.n % c.vec_c;) c.vec_c /= 2;
  return c;
}

/* The flag's rules and text; the sm90 recipe never stores such tiles by TMA. */
static void scatter_configs_check_and_round_trip(void **state) {
  (void)state;
  tcj_kernel_cfg c = scatter_cfg(&scatter_cases[1]), back;
  char text[256];
  assert_null(tcj_cfg_check(&c));
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " gather scatter=add"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(memcmp(&back, &c, sizeof c), 0);
  c.scatter = PTX_SCATTER_STORE;
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " gather scatter=store"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(memcmp(&back, &c, sizeof c), 0);
  c.scatter = 3;
  assert_non_null(strstr(tcj_cfg_check(&c), "scatter"));
  c = scatter_cfg(&scatter_cases[0]);
  c.d = PTX_E_BF16; /* adds are f32 atomics */
  assert_non_null(strstr(tcj_cfg_check(&c), "scatter"));
  c.scatter = PTX_SCATTER_STORE;
  assert_null(tcj_cfg_check(&c));
  c = scatter_cfg(&scatter_cases[0]);
  c.grouped = PTX_GROUP_MASKED;
  assert_non_null(strstr(tcj_cfg_check(&c), "scatter"));
  c.grouped = 0;
  assert_non_null(strstr(tcj_cfg_check(&c), "scatter"));
  for (int i = 0; i < N_SCATTER_CASES; i++) {
    c = scatter_cfg(&scatter_cases[i]);
    if (c.recipe != PTX_RECIPE_SM90) continue;
    assert_int_equal(ptx_sm90_tma_store(&c), 0);
  }
  /* ...where the same tile without the flag stores by TMA (f32 D, router weights alone). */
  c = scatter_cfg(&scatter_cases[5]);
  c.scatter = 0;
  assert_int_equal(ptx_sm90_tma_store(&c), 1);
}

/* Each case reads the indices and D's rows once per kernel; adds go into D by reductions
 * (vectors on sm_90a, whose module then declares PTX ISA 8.1) and store nothing, stores store
 * and reduce nothing; each compiles with no spills. */
static void scatter_configs_add_into_d_and_compile(void **state) {
  (void)state;
  char version[128] = "";
  int jit = eng_nvjitlink_available(version, sizeof version), failures = 0, compiled = 0;
  for (int i = 0; i < N_SCATTER_CASES; i++) {
    const scase *s = &scatter_cases[i];
    tcj_kernel_cfg c = scatter_cfg(s);
    char text[256];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    size_t len = 0;
    char *ptx = generate(&c, s->arch, &len);
    char entry[96];
    snprintf(entry, sizeof entry, ".entry %s(", ptx_gemm_entry(&c));
    const char *body = strstr(ptx, entry);
    assert_non_null(body);
    /* sm90 kernels of 16-byte D rows send beta == 0 tiles' stored rows by bulk copies, each
     * path reading the parameters itself; other tiles, and adds, are staged. */
    int bulk = c.recipe == PTX_RECIPE_SM90 && ptx_sm90_bulk_rows(&c);
    assert_int_equal(bulk, c.recipe == PTX_RECIPE_SM90 && s->mode == PTX_SCATTER_STORE &&
                               ptx_elem_size(c.d) * c.vec_c == 16 && !ptx_elem_is_fp8(c.ab) &&
                               c.bias == PTX_BIAS_NONE && c.act == PTX_ACT_NONE);
    assert_int_equal(count_of(body, "[p_scatter]"), 1 + bulk);
    assert_int_equal(count_of(body, "[p_scatter_rows]"), 1 + bulk);
    int adds = s->mode == PTX_SCATTER_ADD, vec = adds && c.sm >= 90;
    assert_int_equal(count_of(body, "cp.async.bulk.global.shared::cta.bulk_group") > 0, bulk);
    assert_null(strstr(body, "d.global.shared::cta")); /* no tensor store of D: rows go where they point */
    assert_int_equal(count_of(body, "red.global.add.v") > 0, vec);
    assert_int_equal(count_of(body, "red.global.add") > 0, adds);
    assert_int_equal(count_of(body, "st.global.v") + count_of(body, "st.global.f32") + count_of(body, "st.global.b") > 0,
                     !adds);
    assert_non_null(strstr(ptx, vec ? ".version 8.1" : ".version 8."));
    free(ptx);
    if (!jit) continue;
    int regs;
    if (!compiles_cleanly(&c, s->arch, s->sm90 ? 0 : reg_limit(tcj_cfg_threads(&c)), &regs, text, sizeof text)) {
      failures++;
      continue;
    }
    print_message("%3d registers, 0 spills, %s: %s\n", regs, archs[s->arch].name, text);
    compiled++;
  }
  if (!jit) need_nvjitlink(version, sizeof version, "scatter kernels");
  print_message("scatter: %d configs compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_int_equal(compiled, N_SCATTER_CASES);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(scatter_configs_check_and_round_trip),
    cmocka_unit_test(scatter_configs_add_into_d_and_compile),
    cmocka_unit_test(operand_arrays_check_and_round_trip),
    cmocka_unit_test(operand_array_configs_read_their_arrays_and_compile),
    cmocka_unit_test(k_groups_take_a_t_b_n_on_both_recipes),
    cmocka_unit_test(grouped_configs_generate_ptx_that_reads_the_groups_and_exits_first),
    cmocka_unit_test(grouped_configs_compile_without_spills),
    cmocka_unit_test(grouped_sm90_configs_generate_ptx_that_walks_the_units),
    cmocka_unit_test(grouped_sm90_configs_compile_without_spills),
    cmocka_unit_test(grouped_sm90_clusters_pair_tile_rows),
    cmocka_unit_test(grouped_sm90_pingpong_consumers_take_turns),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
