/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_ACT_SWIGLU on the CPU: the descriptor rules (B and the bias of 2n, what SwiGLU refuses,
 * by name), the config text and checks (act=swiglu; no split, generic, cluster), selection
 * (grouped both M modes and ungrouped, default and forced recipes, sm_80 and sm_90a: never a
 * K split or a generic kernel, tiles counted over 2n), and the selected kernels' PTX: deterministic,
 * the gate/up pairing where each recipe puts it, and (with nvJitLink) compiled for sm_80, sm_89
 * and sm_90a with no spills. The GPU test is tests/gpu/test_swiglu_gpu.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/error.h"
#include "engine/jit.h"
#include "engine/select.h"
#include "engine/validate.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "ptxgen/recipes.h"

/* Addresses far apart: validation compares spans, never dereferences. */
#define PA 0x10000000ull
#define PB 0x20000000ull
#define PD 0x30000000ull
#define PC 0x40000000ull
#define PBIAS 0x50000000ull
#define PGROUPS 0x60000000ull

enum { M = 512, N = 768, K = 2048, GROUPS = 8 };

/* Qwen3-30B-A3B's up-projection as one GEMM: D 512 x 768 bf16, B w13 [2n, k] (op_b T). */
static tcj_gemm_desc dense(void) {
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = TCJ_OP_N, d.op_b = TCJ_OP_T;
  d.m = M, d.n = N, d.k = K;
  d.a = (const void *)PA, d.a_type = TCJ_BF16, d.lda = K;
  d.b = (const void *)PB, d.b_type = TCJ_BF16, d.ldb = K;
  d.d = (void *)PD, d.d_type = TCJ_BF16, d.ldd = N;
  d.c_type = TCJ_BF16;
  d.alpha = 1, d.beta = 0;
  d.activation = TCJ_ACT_SWIGLU;
  return d;
}

static tcj_gemm_desc grouped(int mode) {
  tcj_gemm_desc d = dense();
  d.stride_b = 2 * N * K;
  d.group_mode = mode;
  d.group_count = GROUPS;
  if (mode == TCJ_GROUP_M_CONTIGUOUS) {
    d.group_ends32 = (const int32_t *)PGROUPS;
  } else {
    d.group_counts = (const int32_t *)PGROUPS;
    d.stride_a = (int64_t)M * K;
    d.stride_d = (int64_t)M * N;
  }
  return d;
}

static void expect(int line, const tcj_gemm_desc *d, tcj_status want, const char *word) {
  eng_problem p;
  tcj_status got = eng_validate_desc(d, &p);
  const char *msg = got == TCJ_SUCCESS ? "" : eng_last_error();
  if (got != want || (word && !strstr(msg, word)))
    fail_msg("line %d: %s \"%s\", expected %s naming \"%s\"", line, tcj_status_string(got), msg,
             tcj_status_string(want), word ? word : "");
}
#define EXPECT(d, s, w) expect(__LINE__, d, s, w)

static void descriptors_take_b_and_the_bias_with_2n_columns(void **state) {
  (void)state;
  eng_problem p;
  tcj_gemm_desc d = dense();
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  assert_int_equal(p.act, PTX_ACT_SWIGLU);
  assert_int_equal(p.n, N);
  assert_int_equal(eng_problem_b_cols(&p), 2 * N);
  /* op_b N: B is k x 2n, so ldb >= 2n. */
  d.op_b = TCJ_OP_N;
  d.ldb = 2 * N;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  d.ldb = 2 * N - 1;
  EXPECT(&d, TCJ_ERROR_INVALID_VALUE, "ldb");
  /* ... and its up half starts n elements into a row: n = 100 bf16 is 8-byte aligned there. */
  d = dense();
  d.op_b = TCJ_OP_N, d.n = 100, d.ldb = 256, d.ldd = 100;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  assert_int_equal(p.align_b, 8);
  /* D overlapping the up half of B (B's extent is 2n x k). */
  d = dense();
  d.d = (void *)(PB + (uint64_t)N * K * 2 + 64);
  EXPECT(&d, TCJ_ERROR_INVALID_VALUE, "overlaps");
  /* A bias of 2n values: D placed right after n of them overlaps the rest. */
  d = dense();
  d.bias = (const void *)PBIAS, d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_COL;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  assert_int_equal(p.bias, PTX_BIAS_COL);
  d.d = (void *)(PBIAS + 4 * N);
  EXPECT(&d, TCJ_ERROR_INVALID_VALUE, "bias overlaps");
  /* Grouped, both modes; batched. */
  d = grouped(TCJ_GROUP_M_CONTIGUOUS);
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  d = grouped(TCJ_GROUP_M_MASKED);
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  d = dense();
  d.batch_count = 3, d.stride_a = (int64_t)M * K, d.stride_b = 2 * N * K, d.stride_d = (int64_t)M * N;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
}

static void descriptors_swiglu_cannot_go_with_are_refused_by_name(void **state) {
  (void)state;
  tcj_gemm_desc d = dense();
  d.c = (const void *)PC, d.ldc = N, d.beta = 0.5f;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "beta");
  d = dense();
  d.c = (const void *)PC, d.ldc = N, d.beta_ptr = (const float *)PGROUPS;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "beta_ptr");
  d = dense();
  d.epilogue_source = "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long r, long long q, "
                      "long long b, const void *p) { return v; }";
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "epilogue");
  d = dense();
  d.bias = (const void *)PBIAS, d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_ROW;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_BIAS_ROW");
  d = dense();
  d.order = TCJ_ORDER_COL_MAJOR, d.lda = M, d.ldb = 2 * N, d.ldd = M;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_ORDER_COL_MAJOR");
  d = dense();
  d.a_type = d.b_type = TCJ_TF32, d.d_type = d.c_type = TCJ_F32;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_ACT_SWIGLU");
  d = dense();
  d.a_type = d.b_type = TCJ_S8, d.d_type = d.c_type = TCJ_S32;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, NULL);
  d = dense();
  d.n = ((int64_t)1 << 30) + 1, d.ldd = d.n;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "2n");
  d = dense(); /* router weights go with the down-projection; its epilogue returns before them */
  d.row_scale = (const float *)PBIAS;
  EXPECT(&d, TCJ_ERROR_NOT_SUPPORTED, "row_scale");
}

/* ---- configs ---- */

static tcj_kernel_cfg sm80_cfg(void) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = 80;
  c.ab = c.c = PTX_E_BF16;
  tcj_cfg_plain_epilogue(&c);
  c.act = PTX_ACT_SWIGLU;
  c.op_b_t = 1;
  c.n = N, c.k = K;
  c.bm = c.bn = 128, c.bk = 32, c.warps_m = c.warps_n = 2, c.stages = 4;
  c.align_a = c.align_b = 16;
  c.vec_c = 2;
  return c;
}

static void cfg_text_round_trips_and_checks_refuse_what_swiglu_cannot_do(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm80_cfg(), back;
  char text[512];
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " act=swiglu"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_memory_equal(&c, &back, sizeof c);
  assert_null(tcj_cfg_check(&c));
  assert_int_equal(tcj_cfg_tile_cols(&c), 64);
  assert_int_equal(tcj_cfg_b_cols(&c), 2 * N);
  tcj_kernel_cfg t = c;
  t.split_k = 4;
  assert_non_null(tcj_cfg_check(&t));
  t = c, t.split_k = 2, t.split_cluster = 1, t.sm = 90;
  assert_non_null(tcj_cfg_check(&t));
  t = c, t.generic = 1, t.n = t.k = 0;
  assert_non_null(tcj_cfg_check(&t));
  t = c, t.bias = PTX_BIAS_ROW, t.bias_t = PTX_E_F32;
  assert_non_null(tcj_cfg_check(&t));
  t = c, t.user = 0x1234;
  assert_non_null(tcj_cfg_check(&t));
  t = c, t.ab = t.c = t.d = PTX_E_TF32, t.bk = 16;
  t.c = t.d = PTX_E_F32;
  assert_non_null(tcj_cfg_check(&t));
  /* sm80: 64 threads copying 8-byte pieces of a K-major B put a thread's copies 8 rows apart,
   * not whole pairs of n8 blocks. */
  t = c, t.bm = 64, t.bn = 64, t.warps_m = 1, t.warps_n = 2, t.align_b = 8;
  const char *why = tcj_cfg_check(&t);
  assert_non_null(why);
  assert_non_null(strstr(why, "swiglu"));
  /* sm90: MN-major B's halves are whole 64-column boxes; no clusters. */
  tcj_kernel_cfg s = c;
  s.recipe = PTX_RECIPE_SM90, s.sm = 90, s.arch_suffix = 'a';
  s.bm = 128, s.bn = 128, s.bk = 64, s.warps_m = 2, s.warps_n = 1, s.stages = 4, s.vec_c = 8;
  assert_null(tcj_cfg_check(&s));
  t = s, t.op_b_t = 0, t.bn = 192;
  assert_non_null(tcj_cfg_check(&t));
  t = s, t.op_b_t = 0;
  assert_null(tcj_cfg_check(&t));
  t = s, t.cluster_m = 2;
  assert_non_null(tcj_cfg_check(&t));
  /* Tiles of D: ceil(n / (bn / 2)) columns of tiles. */
  assert_int_equal(ptx_sm90_tiles(&s, 128), 1 * ((N + 63) / 64));
  ptx_tmap_desc md;
  ptx_tmap_batch one = {1, 0};
  assert_int_equal(ptx_sm90_tmap(&s, 1, M, K, one, &md), 0);
  assert_int_equal(md.dims[1], 2 * N); /* B's map spans both halves */
  assert_int_equal(md.box[1], 64);     /* each half a box of bn / 2 rows */
  /* D through TMA: the pairs are made in registers before the store path takes them; only
   * where the tile's bn / 2 columns of D are whole 128-byte boxes (a box past them would write
   * the next tile's columns). */
  assert_int_equal(ptx_sm90_tma_store(&s), 1);
  t = s, t.bn = 256;
  assert_int_equal(ptx_sm90_tma_store(&t), 1);
  t = s, t.bn = 192;
  assert_null(tcj_cfg_check(&t));
  assert_int_equal(ptx_sm90_tma_store(&t), 0);
  t = s, t.bn = 64, t.bm = 64, t.warps_m = 1;
  assert_null(tcj_cfg_check(&t));
  assert_int_equal(ptx_sm90_tma_store(&t), 0);
  t = s, t.bn = 64, t.bm = 64, t.warps_m = 1, t.c = t.d = PTX_E_F32, t.vec_c = 4; /* 32 f32 columns: one box */
  assert_null(tcj_cfg_check(&t));
  assert_int_equal(ptx_sm90_tma_store(&t), 1);
}

/* ---- selection ---- */

typedef struct sel {
  const char *arch;
  const ptx_recipe_row *recipe; /* forced, or NULL */
  int generic;                  /* TCJ_JIT=generic */
} sel;

static eng_plan select_ok(int line, const tcj_gemm_desc *d, sel s) {
  eng_problem p;
  if (eng_validate_desc(d, &p) != TCJ_SUCCESS) fail_msg("line %d: %s", line, eng_last_error());
  eng_device_caps caps;
  assert_int_equal(eng_caps_for_arch(s.arch, &caps), 0);
  eng_tuning t;
  memset(&t, 0, sizeof t);
  t.recipe = s.recipe;
  t.generic = s.generic;
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select_tuned(&p, &caps, 1, &t, &plan, &why);
  if (st != TCJ_SUCCESS) fail_msg("line %d: %s: %s", line, tcj_status_string(st), why ? why : "");
  char text[512];
  tcj_cfg_format(&plan.cfg, text, sizeof text);
  if (plan.cfg.act != PTX_ACT_SWIGLU || plan.cfg.split_k || plan.cfg.split_cluster || plan.cfg.generic ||
      plan.pack_a || plan.pack_b || tcj_cfg_check(&plan.cfg))
    fail_msg("line %d: %s (pack %d %d; %s)", line, text, plan.pack_a, plan.pack_b,
             tcj_cfg_check(&plan.cfg) ? tcj_cfg_check(&plan.cfg) : "");
  return plan;
}

static void selection_never_splits_or_goes_generic_and_counts_tiles_over_2n(void **state) {
  (void)state;
  static const char *const arches[] = {"sm_80", "sm_89", "sm_90a"};
  for (int a = 0; a < 3; a++)
    for (int mode = 0; mode < 4; mode++)
      for (int gen = 0; gen < 2; gen++) {
        tcj_gemm_desc d = mode == 0 ? dense() : mode == 1 ? grouped(TCJ_GROUP_M_CONTIGUOUS)
                          : mode == 2 ? grouped(TCJ_GROUP_M_MASKED) : dense();
        if (mode == 3) d.m = 1, d.k = d.lda = d.ldb = 14336; /* decode, deep K: a plain GEMM would split it */
        eng_plan plan = select_ok(__LINE__, &d, (sel){arches[a], NULL, gen});
        if (a < 2) assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
      }
  /* Forced recipes, both B layouts. */
  for (int mode = 0; mode < 3; mode++)
    for (int opb = 0; opb < 2; opb++) {
      tcj_gemm_desc d = mode == 0 ? dense() : grouped(mode == 1 ? TCJ_GROUP_M_CONTIGUOUS : TCJ_GROUP_M_MASKED);
      if (!opb) d.op_b = TCJ_OP_N, d.ldb = 2 * N;
      eng_plan p90 = select_ok(__LINE__, &d, (sel){"sm_90a", &ptx_recipe_sm90, 0});
      assert_int_equal(p90.cfg.recipe, PTX_RECIPE_SM90);
      assert_int_equal(p90.cfg.cluster_m + p90.cfg.cluster_n, 0);
      eng_plan p80 = select_ok(__LINE__, &d, (sel){"sm_90a", &ptx_recipe_sm80, 0});
      assert_int_equal(p80.cfg.recipe, PTX_RECIPE_SM80);
    }
  /* Decode-sized groups keep a 16-row tile: 16x64 refuses SwiGLU's interleaved B (its copies lie
   * 8 columns apart), and the fallback goes to the other decode tile, not to 128x256. */
  for (int a = 0; a < 3; a++) {
    tcj_gemm_desc dec = grouped(TCJ_GROUP_M_CONTIGUOUS);
    dec.group_rows_hint = 4;
    eng_plan pd = select_ok(__LINE__, &dec, (sel){arches[a], NULL, 0});
    assert_int_equal(pd.cfg.recipe, PTX_RECIPE_SM80);
    assert_int_equal(pd.cfg.bm, 16);
  }
  /* The grid of a grouped plan counts tiles of bn / 2 columns of D. */
  tcj_gemm_desc d = grouped(TCJ_GROUP_M_MASKED);
  eng_plan plan = select_ok(__LINE__, &d, (sel){"sm_80", NULL, 0});
  eng_problem p;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  int64_t cols = (N + plan.cfg.bn / 2 - 1) / (plan.cfg.bn / 2);
  assert_int_equal(eng_grouped_units(&p, &plan.cfg), cols * GROUPS * ((M + plan.cfg.bm - 1) / plan.cfg.bm));
  /* Unaligned B that would need packing: SwiGLU packs nothing, the sm80 recipe's 4-byte copies
   * take an ldb of 2 (mod 8) elements, an odd one is refused by name. */
  d = dense();
  d.ldb = K + 2;
  select_ok(__LINE__, &d, (sel){"sm_90a", NULL, 0});
  d.ldb = K + 1;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  eng_device_caps caps;
  assert_int_equal(eng_caps_for_arch("sm_80", &caps), 0);
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
}

/* ---- PTX of the selected kernels ---- */

static const char *const ptx_arches[] = {"sm_80", "sm_89", "sm_90a"};

static char *generate(const tcj_kernel_cfg *c, size_t *len) {
  char err[1024] = "", *ptx = NULL;
  int rc = ptx_gen_gemm(c, &ptx, len, err, sizeof err);
  if (rc) fail_msg("ptx_gen_gemm: %s", err);
  return ptx;
}

/* The configs the engine selects for a spread of SwiGLU problems on arch a. */
static int selected_configs(int a, tcj_kernel_cfg *out, int max) {
  int n = 0;
  for (int mode = 0; mode < 4; mode++)
    for (int opb = 0; opb < 2; opb++)
      for (int forced = 0; forced < (a == 2 ? 2 : 1); forced++)
        for (int v = 0; v < 2 && n < max; v++) {
          tcj_gemm_desc d = mode < 2 ? dense() : grouped(mode == 2 ? TCJ_GROUP_M_CONTIGUOUS : TCJ_GROUP_M_MASKED);
          if (mode == 1) d.m = 8, d.batch_count = 1; /* decode */
          if (!opb) d.op_b = TCJ_OP_N, d.ldb = 2 * N;
          if (v) { /* f16 with a bias, f32 out, n not a multiple of a tile */
            d.a_type = d.b_type = TCJ_F16, d.d_type = TCJ_F32, d.c_type = TCJ_F16;
            d.n = 1000, d.ldd = 1000, d.k = 1000, d.lda = 1000, d.ldb = opb ? 1000 : 2000;
            if (d.group_mode) d.stride_b = 2000 * 1000, d.stride_a = d.stride_a ? (int64_t)M * 1000 : 0;
            if (d.group_mode == TCJ_GROUP_M_MASKED) d.stride_d = (int64_t)M * 1000;
            d.bias = (const void *)PBIAS, d.bias_type = TCJ_BF16, d.bias_kind = TCJ_BIAS_COL, d.stride_bias = 2000;
          }
          eng_plan plan = select_ok(__LINE__, &d, (sel){ptx_arches[a], forced ? &ptx_recipe_sm90 : NULL, 0});
          out[n++] = plan.cfg;
        }
  /* sm90's widest tiles, which the shapes above may not select: 128 accumulators per thread
   * (cooperative 128x256, ping-pong 64x256) with the pairing and a bias beside them. */
  static const struct { int bm, bn, consumers, pingpong, grouped; } wide[] = {
    {128, 256, 2, 0, 0}, {64, 256, 2, 1, 0}, {256, 128, 2, 0, 0}, {128, 256, 2, 0, PTX_GROUP_ENDS32},
    {128, 192, 2, 0, PTX_GROUP_MASKED}, {64, 128, 1, 0, PTX_GROUP_ENDS64}};
  for (size_t i = 0; a == 2 && i < sizeof wide / sizeof *wide; i++)
    for (int opb = 0; opb < 2 && n < max; opb++) {
      tcj_kernel_cfg c = out[0];
      c.recipe = PTX_RECIPE_SM90;
      c.op_b_t = opb;
      c.bm = wide[i].bm, c.bn = wide[i].bn, c.bk = 64, c.warps_m = wide[i].consumers, c.warps_n = 1;
      c.pingpong = wide[i].pingpong, c.grouped = wide[i].grouped, c.batched = 0;
      c.bias = PTX_BIAS_COL, c.bias_t = PTX_E_F32;
      c.split_k = c.split_cluster = c.cluster_m = c.cluster_n = 0;
      c.vec_c = 8, c.align_a = c.align_b = 16;
      for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > 232448; c.stages--) continue;
      if (tcj_cfg_check(&c)) continue; /* bn 192 with MN-major B */
      out[n++] = c;
    }
  return n;
}

static void selected_kernels_generate_ptx_that_pairs_gate_and_up(void **state) {
  (void)state;
  tcj_kernel_cfg cfgs[80];
  for (int a = 0; a < 3; a++) {
    int n = selected_configs(a, cfgs, 80), sm90 = 0;
    for (int i = 0; i < n; i++) {
      size_t len = 0, len2 = 0;
      char *ptx = generate(&cfgs[i], &len), *again = generate(&cfgs[i], &len2);
      assert_true(len == len2 && memcmp(ptx, again, len) == 0);
      assert_non_null(strstr(ptx, "ex2.approx.ftz.f32")); /* silu(g) */
      assert_null(strstr(ptx, "[p_work]"));               /* no split-K workspace */
      if (cfgs[i].recipe == PTX_RECIPE_SM90) {
        sm90++;
        char up[64]; /* the producer's up half starts at column n of B */
        snprintf(up, sizeof up, ", %lld;", (long long)cfgs[i].n);
        assert_non_null(strstr(ptx, up));
      }
      free(ptx);
      free(again);
    }
    if (a == 2) assert_true(sm90 >= 8);
  }
}

static void selected_kernels_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  if (!eng_nvjitlink_available(version, sizeof version)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set: the SwiGLU kernels must compile in CI");
    print_message("[  SKIPPED ] nvJitLink is not available; compiling the SwiGLU kernels needs it (CI fails here)\n");
    skip();
  }
  tcj_kernel_cfg cfgs[80];
  int failures = 0, compiled = 0;
  for (int a = 0; a < 3; a++) {
    int n = selected_configs(a, cfgs, 80);
    for (int i = 0; i < n; i++) {
      int dup = 0;
      for (int j = 0; j < i; j++) dup |= memcmp(&cfgs[i], &cfgs[j], sizeof cfgs[i]) == 0;
      if (dup) continue;
      char text[512], err[4096] = "";
      tcj_cfg_format(&cfgs[i], text, sizeof text);
      size_t len = 0;
      char *ptx = generate(&cfgs[i], &len);
      eng_cubin cubin;
      memset(&cubin, 0, sizeof cubin);
      tcj_status st = eng_jit_compile(ptx, len, ptx_arches[a], &cubin, err, sizeof err);
      int regs = -1, spills = st == TCJ_SUCCESS ? eng_info_log_spills(cubin.info_log, &regs) : -1;
      if (spills != 0) {
        print_error("FAIL %s: %s spills %d\n%s\n", text, st == TCJ_SUCCESS ? "compiled," : err, spills,
                    cubin.info_log ? cubin.info_log : "");
        failures++;
      } else {
        print_message("%3d registers, 0 spills: %s\n", regs, text);
        compiled++;
      }
      eng_cubin_free(&cubin);
      free(ptx);
    }
  }
  print_message("swiglu: %d kernels compiled (%s), %d failed\n", compiled, version, failures);
  assert_int_equal(failures, 0);
  assert_true(compiled >= 12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(descriptors_take_b_and_the_bias_with_2n_columns),
    cmocka_unit_test(descriptors_swiglu_cannot_go_with_are_refused_by_name),
    cmocka_unit_test(cfg_text_round_trips_and_checks_refuse_what_swiglu_cannot_do),
    cmocka_unit_test(selection_never_splits_or_goes_generic_and_counts_tiles_over_2n),
    cmocka_unit_test(selected_kernels_generate_ptx_that_pairs_gate_and_up),
    cmocka_unit_test(selected_kernels_compile_without_spills),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
