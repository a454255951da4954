/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of engine/select: shape classes -> tiles, every chosen config valid and within
 * shared memory, packing decisions for unaligned operands, not-supported reasons, the choice
 * between the sm80 and sm90 recipes, and the TCJ_RECIPE / TCJ_TILE knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/generic_set.h"
#include "engine/nvrtc.h"
#include "engine/select.h"
#include "unit/plan_text.h"
#include "unit/select_fixture.h"
#include "ptxgen/ptxgen.h"

/* Packed leading dimensions for p's ops, and the alignments validate would derive from them and
 * a base pointer aligned to base bytes: the largest power of two <= 16 dividing every row start. */
static int row_align(int base, int64_t ld, int es) {
  uint64_t bits = (uint64_t)base | (uint64_t)(ld * es) | 16;
  return (int)(bits & (~bits + 1));
}
static void packed_lds(eng_problem *p, int base) {
  p->lda = p->op_a_t ? p->m : p->k;
  p->ldb = p->op_b_t ? p->k : p->n;
  p->ldc = p->n;
  p->align_a = row_align(base, p->lda, ptx_elem_size(p->ab));
  p->align_b = row_align(base, p->ldb, ptx_elem_size(p->ab));
  p->align_c = row_align(16, p->ldc, ptx_elem_size(p->c));
}

static eng_plan select_ok(const eng_problem *p, const char *arch, int allow_packing) {
  eng_device_caps caps = caps_of(arch);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select(p, &caps, allow_packing, &plan, &why);
  if (st != TCJ_SUCCESS) print_error("eng_select: %s\n", why);
  assert_int_equal(st, TCJ_SUCCESS);
  const char *reason = tcj_cfg_check(&plan.cfg);
  if (reason) print_error("tcj_cfg_check: %s\n", reason);
  assert_null(reason);
  assert_true(tcj_cfg_smem_bytes(&plan.cfg) <= caps.max_smem_optin);
  return plan;
}

static void arch_table_knows_the_supported_arches(void **state) {
  (void)state;
  eng_device_caps c;
  assert_int_equal(eng_caps_for_arch("sm_80", &c), 0);
  assert_int_equal(c.sm, 80);
  assert_int_equal(c.arch_suffix, 0);
  assert_int_equal(c.sm_count, 108);
  assert_int_equal(c.max_smem_optin, 166912);
  assert_int_equal(eng_caps_for_arch("sm_90a", &c), 0);
  assert_int_equal(c.sm, 90);
  assert_int_equal(c.arch_suffix, 'a');
  assert_int_equal(c.max_smem_optin, 232448);
  assert_int_equal(eng_caps_for_arch("sm_89", &c), 0);
  assert_int_equal(c.max_smem_optin, 101376);
  assert_int_equal(eng_caps_for_arch("sm_100a", &c), 0);
  assert_int_equal(eng_caps_for_arch("sm_120", &c), 0);
  assert_int_equal(eng_caps_for_arch("sm_75", &c), -1);
  assert_int_equal(eng_caps_for_arch("sm_80a", &c), -1);
  assert_int_equal(eng_caps_for_arch("sm_90b", &c), -1);
  assert_int_equal(eng_caps_for_arch("compute_80", &c), -1);
  assert_int_equal(eng_caps_for_arch("", &c), -1);
  assert_int_equal(eng_caps_for_arch(NULL, &c), -1);
}

static void shape_classes_pick_their_tiles(void **state) {
  (void)state;
  struct { int64_t m, n, k; int bm, bn; } cases[] = {
    {4096, 4096, 4096, 128, 256}, /* 512 large tiles >= 108 SMs */
    {1024, 2048, 4096, 128, 128}, /* 64 large tiles < 108; 128 medium tiles >= 54 */
    {512, 512, 4096, 64, 64},     /* 16 medium tiles < 54: small */
    {1, 4096, 4096, 16, 64},      /* decode: one 16-row block, 64 columns where K is split */
    {16, 4096, 4096, 16, 64},
    {16, 16384, 4096, 16, 128},   /* 128 tiles of 128 columns >= 108 SMs: no split */
    {17, 4096, 4096, 32, 128},    /* skinny */
    {32, 8192, 1024, 32, 128},
    {100, 1000, 64, 64, 64},      /* 8 medium tiles: too few, small */
    {64, 8192, 512, 64, 64},      /* m <= 64: never medium */
    {33, 33, 33, 64, 64},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_80", 1);
    print_message("m=%lld n=%lld k=%lld -> %dx%d\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.bm, plan.cfg.bn);
    assert_int_equal(plan.cfg.bm, cases[i].bm);
    assert_int_equal(plan.cfg.bn, cases[i].bn);
    assert_int_equal(plan.pack_a, 0);
    assert_int_equal(plan.pack_b, 0);
  }
}

static void deep_k_and_skinny_shapes_split_k(void **state) {
  (void)state;
  struct { int64_t m, n, k; int split; } cases[] = {
    {512, 512, 65536, 3},   /* 64 tiles of 64x64 on 108 SMs: 216 / 64 slices */
    {1, 4096, 14336, 3},    /* 64 decode tiles: 216 / 64 */
    {4096, 4096, 4096, 0},  /* full waves: no split */
    {1, 4096, 64, 0},       /* K too short to share */
    {512, 512, 512, 0},     /* 16 K tiles: splitting costs more than it saves */
    {64, 64, 2048, 16},     /* 64 K tiles, one CTA: 16 slices of 4 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_80", 1);
    print_message("m=%lld n=%lld k=%lld -> split %d\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.split_k);
    assert_int_equal(plan.cfg.split_k, cases[i].split);
    assert_null(tcj_cfg_check(&plan.cfg));
  }
  /* s8 sums in s32: never split. */
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 512, 512, 65536);
  assert_int_equal(select_ok(&p, "sm_80", 1).cfg.split_k, 0);
}

static void cfg_carries_the_problem_and_arch(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 512, 768, 1000);
  p.op_a_t = 1;
  p.op_b_t = 0;
  eng_plan plan = select_ok(&p, "sm_89", 1);
  assert_int_equal(plan.cfg.sm, 89);
  assert_int_equal(plan.cfg.arch_suffix, 0);
  assert_int_equal(plan.cfg.ab, PTX_E_S8);
  assert_int_equal(plan.cfg.c, PTX_E_S32);
  assert_int_equal(plan.cfg.op_a_t, 1);
  assert_int_equal(plan.cfg.op_b_t, 0);
  assert_int_equal(plan.cfg.n, 768);
  assert_int_equal(plan.cfg.k, 1000);
  assert_int_equal(plan.cfg.bk, 64); /* 64 bytes of s8 */
  assert_int_equal(plan.cfg.vec_c, 2);
}

static eng_plan select_tuned_ok(const eng_problem *p, const char *arch, const eng_tuning *tuning) {
  eng_device_caps caps = caps_of(arch);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select_tuned(p, &caps, 1, tuning, &plan, &why);
  if (st != TCJ_SUCCESS) print_error("eng_select_tuned: %s\n", why);
  assert_int_equal(st, TCJ_SUCCESS);
  const char *reason = tcj_cfg_check(&plan.cfg);
  if (reason) print_error("tcj_cfg_check: %s\n", reason);
  assert_null(reason);
  assert_true(tcj_cfg_smem_bytes(&plan.cfg) <= caps.max_smem_optin);
  return plan;
}

static void every_selected_cfg_is_valid_and_fits_shared_memory(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100", "sm_120"};
  static const struct { ptx_elem ab, c; } types[] = {
    {PTX_E_F16, PTX_E_F16}, {PTX_E_BF16, PTX_E_F32}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
  static const int64_t dims[] = {1, 17, 32, 64, 100, 128, 1000, 4096, 12288};
  static const int aligns[] = {4, 8, 16};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
      for (size_t i = 0; i < sizeof dims / sizeof *dims; i++)
        for (size_t j = 0; j < sizeof dims / sizeof *dims; j++)
          for (size_t al = 0; al < sizeof aligns / sizeof *aligns; al++)
            for (int op = 0; op < 4; op++) {
              eng_problem p = problem(types[t].ab, types[t].c, dims[i], dims[j], dims[(i + j) % 9]);
              p.op_a_t = op & 1;
              p.op_b_t = op >> 1;
              packed_lds(&p, aligns[al]);
              if (!(al % 2) && (p.align_a < 4 || p.align_b < 4)) {
                /* Rows below a cp.async and no packing: refused, never a bad kernel. */
                eng_device_caps caps = caps_of(arches[a]);
                eng_plan plan;
                const char *why = NULL;
                assert_int_equal(eng_select(&p, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
                assert_non_null(strstr(why, "packing is disabled"));
                continue;
              }
              eng_plan plan = select_ok(&p, arches[a], al % 2);
              assert_true(plan.cfg.align_a >= ptx_elem_size(plan.cfg.ab));
              /* 16-bit operands in any layout; tf32 and s8 K-major (NT), or transposed into
               * K-major scratch when packing is allowed. */
              int kmajor = !p.op_a_t && p.op_b_t;
              int sm90_ok = strcmp(arches[a], "sm_90a") == 0 && p.k >= 1 &&
                            (ptx_elem_size(p.ab) == 2 || kmajor || al % 2);
              if (plan.cfg.recipe == PTX_RECIPE_SM90) {
                assert_true(sm90_ok);
                /* 3 only beside a whole tile's staging (whole_tile_epilogue) */
                assert_true(plan.cfg.stages >= 4 - plan.cfg.epi_whole && plan.cfg.stages <= 8);
                /* sm90 splits only cooperative, unclustered tiles that leave SMs idle. */
                if (plan.cfg.split_k) {
                  assert_false(plan.cfg.pingpong || plan.cfg.cluster_m);
                  assert_true(ptx_sm90_tiles(&plan.cfg, p.m) < 132);
                }
                /* TMA reads 16-byte aligned rows only: anything less is packed; MN-major tf32
                 * and s8 operands are transposed, and the kernel reads them K-major. */
                int ta = ptx_elem_size(p.ab) != 2 && p.op_a_t, tb = ptx_elem_size(p.ab) != 2 && !p.op_b_t;
                assert_int_equal(plan.pack_a, ta ? ENG_PACK_TRANSPOSE : p.align_a < 16);
                assert_int_equal(plan.pack_b, tb ? ENG_PACK_TRANSPOSE : p.align_b < 16);
                if (ptx_elem_size(p.ab) != 2) assert_true(!plan.cfg.op_a_t && plan.cfg.op_b_t);
              } else {
                assert_true(plan.cfg.stages >= 2 && plan.cfg.stages <= 4);
                /* sm_90a keeps sm80 only for split-K, small problems, or unaligned operands it
                 * may not pack. */
                int unaligned = p.align_a < 16 || p.align_b < 16;
                int small = p.m * p.n * p.k <= (1ll << 28);
                if (sm90_ok) assert_true(plan.cfg.split_k >= 2 || small || (!(al % 2) && unaligned));
              }
            }
}

static void stages_fill_the_shared_memory_budget(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a"};
  for (size_t a = 0; a < 3; a++) {
    eng_problem p = problem(PTX_E_F16, PTX_E_F32, 8192, 8192, 8192);
    eng_plan plan = select_ok(&p, arches[a], 1);
    eng_device_caps caps = caps_of(arches[a]);
    tcj_kernel_cfg more = plan.cfg;
    more.stages++;
    /* Either at the recipe's cap (sm80 4, sm90 8) or the next stage would not fit. */
    int cap = plan.cfg.recipe == PTX_RECIPE_SM90 ? 8 : 4;
    assert_true(plan.cfg.stages == cap || tcj_cfg_smem_bytes(&more) > caps.max_smem_optin);
  }
}

static void bf16_with_odd_ld_is_packed(void **state) {
  (void)state;
  /* bf16, ld = 4095: rows start 2-byte aligned. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4095, 4095, 4095);
  p.align_a = p.align_b = p.align_c = 2;
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.pack_b, 1);
  assert_int_equal(plan.cfg.align_a, 16);
  assert_int_equal(plan.cfg.align_b, 16);
  assert_int_equal(plan.cfg.vec_c, 1); /* a 2-byte aligned C row cannot take 4-byte stores */

  const char *why = NULL;
  eng_device_caps caps = caps_of("sm_90a");
  assert_int_equal(eng_select(&p, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "operand A"));
  assert_non_null(strstr(why, "packing is disabled"));
}

static void small_operand_with_8_byte_alignment_uses_narrow_copies(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_F16, PTX_E_F16, 64, 64, 68); /* lda = 68: 136-byte rows */
  p.align_a = 8;
  eng_plan plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.cfg.align_a, 8);
  assert_int_equal(plan.cfg.align_b, 16);

  /* Past 2^20 elements one packing pass beats narrow copies on every tile. */
  p = problem(PTX_E_F16, PTX_E_F16, 4096, 4096, 4100);
  p.align_a = 8;
  plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.cfg.align_a, 16);
  plan = select_ok(&p, "sm_80", 0);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.cfg.align_a, 8);
}

static void s8_with_odd_ld_is_packed_or_refused(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 8, 4095, 4095);
  p.op_b_t = 1;
  p.ldb = 4095;
  p.align_a = 1;
  p.align_b = 1;
  eng_plan plan = select_ok(&p, "sm_89", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.pack_b, 1);
  const char *why = NULL;
  eng_device_caps caps = caps_of("sm_89");
  assert_int_equal(eng_select(&p, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "1-byte aligned"));

  /* s8 with ld % 4 == 2 is 2-byte aligned: still below a cp.async. */
  p.align_a = 16;
  p.align_b = 2;
  plan = select_ok(&p, "sm_89", 1);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 1);
}

static void empty_operands_are_never_packed(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 128, 128, 0); /* k == 0: C = beta * C */
  p.align_a = p.align_b = 2;
  eng_plan plan = select_ok(&p, "sm_80", 0);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 0);
}

static void pre_ampere_and_huge_grids_are_not_supported(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_80");
  caps.sm = 75;
  eng_problem p = problem(PTX_E_F16, PTX_E_F16, 128, 128, 128);
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "sm_80"));

  caps = caps_of("sm_80");
  p = problem(PTX_E_F16, PTX_E_F16, INT64_C(4294967295), INT64_C(2147483647), 16);
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "grid"));
}

/* The configs of a spread of problems on every arch, one line each, into out (NUL-ended). The
 * same text must come from any process: a config is a cache key, shared across processes. */
static void print_selections(char *out, size_t size) {
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a", "sm_100"};
  static const struct { ptx_elem ab, c; } types[] = {
    {PTX_E_BF16, PTX_E_F32}, {PTX_E_F16, PTX_E_F16}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
  static const int64_t dims[][3] = {{3000, 5000, 700}, {16, 6144, 4096}, {4095, 4095, 4095},
                                    {1, 1, 1}, {512, 512, 65536}, {128, 28672, 4096}};
  size_t used = 0;
  out[0] = 0;
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
      for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
        eng_problem p = problem(types[t].ab, types[t].c, dims[d][0], dims[d][1], dims[d][2]);
        eng_device_caps caps = caps_of(arches[a]);
        eng_plan plan;
        memset(&plan, 0, sizeof plan);
        const char *why = NULL;
        char text[256] = "unsupported";
        if (eng_select(&p, &caps, 1, &plan, &why) == TCJ_SUCCESS) tcj_cfg_format(&plan.cfg, text, sizeof text);
        int n = snprintf(out + used, size - used, "%s pack=%d,%d\n", text, plan.pack_a, plan.pack_b);
        assert_true(n > 0 && (size_t)n < size - used);
        used += (size_t)n;
      }
}

static void selection_is_deterministic_within_and_across_processes(void **state) {
  (void)state;
  enum { SIZE = 1 << 16 };
  char *here = malloc(SIZE), *again = malloc(SIZE), *child = malloc(SIZE);
  assert_non_null(here);
  assert_non_null(again);
  assert_non_null(child);
  print_selections(here, SIZE);
  print_selections(again, SIZE);
  assert_string_equal(here, again);
  /* Two fresh processes (their own address layouts and heaps) print the same lines. */
  char self[4096], cmd[4200];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  assert_true(len > 0);
  self[len] = 0;
  snprintf(cmd, sizeof cmd, "'%s' --print-selections", self);
  for (int run = 0; run < 2; run++) {
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(child, 1, SIZE - 1, f);
    child[n] = 0;
    assert_int_equal(pclose(f), 0);
    assert_string_equal(here, child);
  }
  free(here);
  free(again);
  free(child);
}

/* ---- recipe choice ------------------------------------------------------------------------ */

static void sm90a_runs_16_bit_types_on_the_sm90_recipe(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  /* 512 tiles of 128x256: 4 waves on 132 SMs at 97% efficiency; 128x128 scores 0.8 of that. */
  assert_int_equal(plan.cfg.bm, 128);
  assert_int_equal(plan.cfg.bn, 256);
  assert_int_equal(plan.cfg.bk, 64);
  assert_int_equal(plan.cfg.warps_m, 2);
  assert_int_equal(plan.cfg.warps_n, 1);
  assert_int_equal(plan.cfg.stages, 3); /* beside the whole tile's staging (whole_tile_epilogue) */
  assert_int_equal(plan.cfg.epi_whole, 1);
  assert_int_equal(plan.cfg.align_a, 16);
  assert_int_equal(plan.cfg.align_b, 16);
  assert_int_equal(plan.cfg.vec_c, 8); /* 16 bytes of bf16 */
  assert_int_equal(plan.cfg.split_k, 0);
  assert_int_equal(plan.cfg.cluster_m, 0);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 0);
  assert_int_equal(tcj_cfg_threads(&plan.cfg), 384);

  /* f16 with an f32 C, every op pair: the same recipe, 4 floats per store. */
  for (int op = 0; op < 4; op++) {
    p = problem(PTX_E_F16, PTX_E_F32, 4096, 4096, 4096);
    p.op_a_t = op & 1;
    p.op_b_t = op >> 1;
    plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.op_a_t, op & 1);
    assert_int_equal(plan.cfg.op_b_t, op >> 1);
    assert_int_equal(plan.cfg.vec_c, 4);
  }
}

static void other_arches_keep_the_sm80_recipe(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_100a", "sm_120a"};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
    eng_plan plan = select_ok(&p, arches[a], 1);
    print_message("%s -> %s\n", arches[a], tcj_recipe_name(plan.cfg.recipe));
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
    assert_int_equal(plan.cfg.bm, 128);
    assert_int_equal(plan.cfg.bn, 256);
    assert_int_equal(plan.cfg.warps_n, 4);
  }
  /* sm_90 without the arch-specific target has no wgmma: exactly the sm80 plan of sm_90a's
   * sm80 choice (TCJ_RECIPE=sm80). */
  eng_problem p = problem(PTX_E_F16, PTX_E_F32, 3000, 5000, 700);
  eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0};
  eng_plan a = select_ok(&p, "sm_90", 1), b = select_tuned_ok(&p, "sm_90a", &sm80);
  b.cfg.arch_suffix = 0;
  assert_memory_equal(&a, &b, sizeof a);
}

/* tf32 and s8 NN (B MN-major): wgmma after B is transposed into K-major scratch; without
 * packing, or in a batch, the sm80 recipe. */
static void sm90a_transposes_mn_major_operands_of_other_types(void **state) {
  (void)state;
  static const struct { ptx_elem ab, c; } types[] = {{PTX_E_S8, PTX_E_S32}, {PTX_E_TF32, PTX_E_F32}};
  for (size_t t = 0; t < 2; t++) {
    eng_problem p = problem(types[t].ab, types[t].c, 4096, 4096, 4096);
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.pack_a, ENG_PACK_NONE);
    assert_int_equal(plan.pack_b, ENG_PACK_TRANSPOSE);
    assert_true(!plan.cfg.op_a_t && plan.cfg.op_b_t);
    plan = select_ok(&p, "sm_90a", 0);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
    assert_int_equal(plan.cfg.sm, 90);
    assert_int_equal(plan.cfg.arch_suffix, 'a');
    p.batch = 4;
    p.stride_a = p.m * p.k, p.stride_b = p.k * p.n, p.stride_c = p.stride_d = p.m * p.n;
    assert_int_equal(select_ok(&p, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
    /* The pack's grid holds 65535 rows of 32 stored rows (k): deeper K stays on sm80. */
    eng_problem deep = problem(types[t].ab, types[t].c, 1024, 1024, 65535 * 32 + 1);
    assert_int_equal(select_ok(&deep, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
    deep.k = deep.lda = 65535 * 32;
    assert_int_equal(select_ok(&deep, "sm_90a", 1).pack_b, ENG_PACK_TRANSPOSE);
  }
  /* k == 0 is C = beta * C: no K loop for wgmma to run. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 256, 256, 0);
  assert_int_equal(select_ok(&p, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
}

/* fp8: K-major operands (op NT) run on wgmma on sm_90a, promoted unless fast accumulation is
 * asked for (promoted 128x256 where the engine compiles it whole and the MMAs bound the time,
 * else tiles of at most 64 accumulators per thread); MN-major ones on the sm80 recipe's
 * mma.sync, which sm_89 also runs; block scales only on the sm90 recipe; no fp8 on sm_80/sm_86. */
static void fp8_takes_wgmma_where_its_operands_are_k_major(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_E4M3, PTX_E_BF16, 4096, 4096, 4096);
  p.op_b_t = 1;
  p.ldb = p.k;
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_true(tcj_cfg_promotes(&plan.cfg));
  if (eng_whole_program_expected()) {
    assert_int_equal(plan.cfg.bn, 256);
    assert_false(plan.cfg.pingpong); /* promoted ping-pong 64x256 measured slower */
  } else {
    assert_true(tcj_cfg_sm90_accumulators(&plan.cfg) <= 64);
  }
  assert_int_equal(plan.cfg.cluster_m, 2); /* many tile rows: B multicast */
  eng_nvrtc_hide(1); /* no NVRTC: no whole-program compile, no promoted 128x256 */
  eng_plan hidden = select_ok(&p, "sm_90a", 1);
  eng_nvrtc_hide(0);
  assert_true(tcj_cfg_sm90_accumulators(&hidden.cfg) <= 64);
  assert_false(tcj_cfg_needs_whole_program(&hidden.cfg));
  eng_problem one_row = p;
  one_row.m = 128;
  eng_plan row_plan = select_ok(&one_row, "sm_90a", 1);
  assert_int_equal(row_plan.cfg.cluster_m, 0);
  /* One tile row of a long B: bound by HBM, where 128x128 measured faster than 128x256. */
  one_row.n = 28672;
  row_plan = select_ok(&one_row, "sm_90a", 1);
  assert_false(tcj_cfg_needs_whole_program(&row_plan.cfg));
  p.fast_accum = 1;
  plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.fast_accum, 1);
  assert_int_equal(plan.cfg.bn, 256); /* one accumulator set: the widest tile again */
  p.fast_accum = 0;
  p.block_scale = 1;
  plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_true(plan.cfg.block_scale && (128 % plan.cfg.bn == 0 || plan.cfg.bn == 256));
  p.b_other = 1; /* e4m3 x e5m2 */
  plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(tcj_cfg_b_type(&plan.cfg), PTX_E_E5M2);
  /* B MN-major: transposed for wgmma on Hopper (block scales too), mma.sync on Ada and where
   * packing is disabled; block scales then have no recipe. */
  eng_problem nn = problem(PTX_E_E5M2, PTX_E_F32, 4096, 4096, 4096);
  plan = select_ok(&nn, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.pack_b, ENG_PACK_TRANSPOSE);
  assert_int_equal(select_ok(&nn, "sm_89", 1).cfg.recipe, PTX_RECIPE_SM80);
  assert_int_equal(select_ok(&nn, "sm_90a", 0).cfg.recipe, PTX_RECIPE_SM80);
  nn.block_scale = 1;
  assert_true(select_ok(&nn, "sm_90a", 1).cfg.block_scale);
  eng_device_caps caps = caps_of("sm_90a");
  const char *why = NULL;
  assert_int_equal(eng_select(&nn, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "K-major"));
  nn.block_scale = 0;
  caps = caps_of("sm_86");
  assert_int_equal(eng_select(&nn, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "sm_89"));
}

/* On sm_90 and newer a decode split reduces in a cluster of at most 8 slices (one launch, no
 * workspace); on older archs the workspace reduction stays. */
static void decode_splits_reduce_in_a_cluster_on_sm90(void **state) {
  (void)state;
  struct { ptx_elem ab, c; int64_t m, n, k; int op_b_t; const char *arch; int cluster; } cases[] = {
    {PTX_E_BF16, PTX_E_BF16, 1, 6144, 4096, 0, "sm_90a", 1},  /* 48 tiles x 5 slices */
    {PTX_E_BF16, PTX_E_BF16, 16, 6144, 4096, 1, "sm_90a", 1},
    {PTX_E_BF16, PTX_E_BF16, 1, 4096, 14336, 1, "sm_90a", 1}, /* 32 tiles x 8 */
    {PTX_E_F16, PTX_E_F32, 8, 4096, 14336, 0, "sm_90", 1},    /* any sm_90 target */
    {PTX_E_E4M3, PTX_E_BF16, 16, 6144, 4096, 1, "sm_90a", 1}, /* fp8 decode: 128 bytes of K a tile */
    {PTX_E_BF16, PTX_E_BF16, 1, 1024, 4096, 1, "sm_90a", 1},  /* 16 tiles: 8 slices, 128 CTAs */
    {PTX_E_BF16, PTX_E_BF16, 1, 6144, 4096, 0, "sm_80", 0},   /* no clusters before sm_90 */
    {PTX_E_E4M3, PTX_E_BF16, 16, 6144, 4096, 1, "sm_89", 0},
    /* 160 tiles of 16x64, 1.2 waves: two slices even the SMs out (decode_wave_grid) */
    {PTX_E_BF16, PTX_E_BF16, 1, 10240, 8192, 1, "sm_90a", 1},
    {PTX_E_E4M3, PTX_E_BF16, 8, 9216, 4096, 0, "sm_90a", 1},  /* 144 tiles */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(cases[i].ab, cases[i].c, cases[i].m, cases[i].n, cases[i].k);
    p.op_b_t = cases[i].op_b_t;
    eng_plan plan = select_ok(&p, cases[i].arch, 1);
    char text[256];
    tcj_cfg_format(&plan.cfg, text, sizeof text);
    print_message("%s\n", text);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
    assert_int_equal(plan.cfg.bm, 16);
    assert_true(plan.cfg.split_k >= 2);
    assert_int_equal(plan.cfg.split_cluster, cases[i].cluster);
    assert_int_equal(tcj_cfg_split_workspace(&plan.cfg), !cases[i].cluster);
    if (cases[i].cluster) assert_true(plan.cfg.split_k <= TCJ_CLUSTER_MAX);
    if (cases[i].n >= 8448) assert_int_equal(plan.cfg.split_k, 2); /* past one wave */
    assert_null(tcj_cfg_check(&plan.cfg));
  }
  /* Past 1.3 waves (192 tiles), before sm_90 (no clusters), for s8 (never split) and on the
   * 16x128 tile the grid runs unsplit; so does a K too short for two slices. */
  struct { ptx_elem ab, c; int64_t m, n, k; const char *arch; } whole[] = {
    {PTX_E_BF16, PTX_E_BF16, 1, 12288, 4096, "sm_90a"},
    {PTX_E_BF16, PTX_E_BF16, 1, 10240, 8192, "sm_80"},
    {PTX_E_S8, PTX_E_S32, 1, 10240, 8192, "sm_90a"},
    {PTX_E_BF16, PTX_E_BF16, 1, 10240, 128, "sm_90a"},
    {PTX_E_BF16, PTX_E_BF16, 1, 18432, 4096, "sm_90a"}, /* 144 tiles of 16x128: not measured */
  };
  for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
    eng_problem p = problem(whole[i].ab, whole[i].c, whole[i].m, whole[i].n, whole[i].k);
    p.op_b_t = 1;
    p.ldb = p.k;
    eng_plan plan = select_ok(&p, whole[i].arch, 1);
    char text[256];
    tcj_cfg_format(&plan.cfg, text, sizeof text);
    print_message("%s\n", text);
    assert_int_equal(plan.cfg.split_k, 0);
  }
}

/* A B whose row pitch is 16-byte aligned but not a multiple of 128 bytes: 128x256 tiles in CTA
 * pairs that multicast B where K is long or the tile rows many, never ping-pong (unfused), and
 * 128x256 before 256x128; the same shapes with a 128-byte pitch keep the old choices. */
/* Where B's pitch splits lines and no pair along M takes B, 128-row tiles run in clusters along N
 * that share A (measured above SM90_PITCH_SHARE_A_MAX_ROWS): fours over at most two tile rows,
 * pairs over more; never where the pitch is whole lines, nor where 64 rows fill half a tile. */
static void sm90_shares_a_along_n_where_b_pitch_splits_lines(void **state) {
  (void)state;
  /* shared: CTAs expected to share A (four over at most two tile rows, else two) */
  struct { int64_t m, n, k, ldb_lines; int shared; } cases[] = {
    {128, 5000, 5000, 5056, 4}, {256, 5000, 5000, 5056, 4}, {1000, 1000, 1000, 1024, 2},
    {128, 3000, 5000, 3008, 4}, {100, 5000, 4096, 5056, 4}, {64, 5000, 4096, 5056, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    for (int lines = 0; lines < 2; lines++) {
      eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
      p.ldb = lines ? cases[i].ldb_lines : cases[i].n;
      eng_plan plan = select_ok(&p, "sm_90a", 1);
      char text[256];
      tcj_cfg_format(&plan.cfg, text, sizeof text);
      print_message("%s: %s\n", lines ? "whole lines" : "split lines", text);
      assert_int_equal(plan.cfg.cluster_n, lines ? 0 : cases[i].shared);
      if (plan.cfg.cluster_n) {
        assert_int_equal(plan.cfg.bm, 128);
        assert_int_equal(plan.cfg.cluster_m, 0);
      }
    }
  }
  /* tf32 (a 20000-byte pitch splits lines) and fp8 keep their tiles alone: measured and
   * GPU-tested with 16-bit operands only. */
  eng_problem p = problem(PTX_E_TF32, PTX_E_F32, 128, 5000, 5000);
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.cluster_n, 0);
  p = problem(PTX_E_E4M3, PTX_E_BF16, 128, 5008, 5008);
  p.op_b_t = 1;
  p.ldb = 5008;
  plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.cluster_n, 0);
}

static void sm90_multicasts_b_whose_pitch_splits_lines(void **state) {
  (void)state;
  struct { int64_t m, n, k, ldb_split, ldb_lines; int op_b_t, cluster, split_cluster_free; } cases[] = {
    /* m, n, k, ldb (pitch splits lines), ldb (whole lines), op_b T, CTAs sharing B expected
     * (four where the pitch also splits 32-byte sectors, from 16 tile rows) */
    {2500, 3000, 5000, 3000, 3008, 0, 4, 1},
    {7000, 7000, 7000, 7000, 7040, 0, 4, 1},
    {3000, 5000, 3000, 3000, 3008, 1, 4, 1},
    {4000, 4000, 4000, 4000, 4032, 0, 2, 1}, /* 8000 bytes: lines split, sectors whole */
    {1504, 1504, 9000, 1504, 1536, 0, 2, 1}, /* a pair beats a K split that cannot multicast */
    {6000, 6000, 1000, 6000, 6016, 0, 2, 1}, /* 16 K tiles, but 47 tile rows */
    {9000, 1504, 1504, 1504, 1536, 0, 2, 1}, /* 24 K tiles, 71 tile rows */
    {2000, 2000, 2000, 2000, 2048, 0, 0, 1}, /* 32 K tiles and 16 tile rows: no pair */
    {128, 5000, 5000, 5000, 5056, 0, 0, 1},  /* one tile row */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    for (int lines = 0; lines < 2; lines++) {
      eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
      p.op_b_t = cases[i].op_b_t;
      p.ldb = lines ? cases[i].ldb_lines : cases[i].ldb_split;
      eng_plan plan = select_ok(&p, "sm_90a", 1);
      char text[256];
      tcj_cfg_format(&plan.cfg, text, sizeof text);
      print_message("%s ldb %lld: %s\n", lines ? "whole lines" : "split lines", (long long)p.ldb, text);
      assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
      if (lines) { /* whole lines: pairs only for a K split over paired tile rows */
        int paired = plan.cfg.split_k && plan.cfg.bm >= 128 && plan.cfg.bn >= 128 &&
                     (cases[i].m + plan.cfg.bm - 1) / plan.cfg.bm >= 2;
        assert_int_equal(plan.cfg.cluster_m, paired ? 2 : 0);
        continue;
      }
      assert_int_equal(plan.cfg.pingpong, 0);
      assert_int_equal(plan.cfg.cluster_m, cases[i].cluster);
      if (cases[i].cluster) {
        assert_int_equal(plan.cfg.bm, 128);
        assert_int_equal(plan.cfg.bn, 256);
        assert_int_equal(plan.cfg.split_k, 0);
      }
      if (plan.cfg.bm * plan.cfg.bn == 128 * 256) assert_int_equal(plan.cfg.bm, 128);
    }
  }
  /* A K split still competes with the pairs: deep K over few tiles splits, for such a B and for
   * fp8 (whose tiles pair from 8 rows), and their slices run alone (split_in_pairs). */
  struct { ptx_elem ab; int64_t m, n, k, ldb; int op_b_t, cluster; } deep[] = {
    {PTX_E_BF16, 512, 520, 65536, 520, 0, 0},
    {PTX_E_E4M3, 1024, 1024, 65536, 65536, 1, 0},
  };
  for (size_t i = 0; i < sizeof deep / sizeof *deep; i++) {
    eng_problem p = problem(deep[i].ab, PTX_E_BF16, deep[i].m, deep[i].n, deep[i].k);
    p.op_b_t = deep[i].op_b_t;
    p.ldb = deep[i].ldb;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_true(plan.cfg.split_k >= 2);
    assert_int_equal(plan.cfg.cluster_m, deep[i].cluster);
  }
}

/* eng_sm90_candidates: best first by the estimate, the first what the sm90 recipe selects, and
 * each one reproduced exactly by the TCJ_RECIPE / TCJ_TILE values eng_tile_override_format
 * spells for it (what tcj-ptx --candidates prints for timing it), over dtypes, layouts,
 * pitches that split lines, deep K (split candidates), fused epilogues and batches. The sm80
 * plans' spellings reproduce them too (cluster and workspace splits). */
static void candidates_are_ranked_and_reproduced_by_their_tile_text(void **state) {
  (void)state;
  struct { ptx_elem ab, c; int64_t m, n, k, ldb; int op_a_t, op_b_t, epilogue, batch; } cases[] = {
    {PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096, 0, 0, 0, 0, 1},
    {PTX_E_BF16, PTX_E_BF16, 2500, 3000, 5000, 3000, 0, 0, 0, 1}, /* pitch splits lines: pairs */
    {PTX_E_BF16, PTX_E_BF16, 512, 512, 65536, 0, 0, 0, 0, 1},     /* split candidates */
    {PTX_E_F16, PTX_E_F32, 1, 28672, 4096, 4096, 0, 1, 0, 1},
    {PTX_E_BF16, PTX_E_BF16, 8192, 8192, 1024, 0, 0, 0, 0, 1},    /* ping-pong */
    {PTX_E_BF16, PTX_E_BF16, 1000, 1000, 1000, 1001, 1, 0, 0, 1}, /* B packed */
    {PTX_E_BF16, PTX_E_BF16, 128, 28672, 4096, 0, 0, 0, 1, 1},    /* bias + silu */
    {PTX_E_BF16, PTX_E_BF16, 256, 4096, 4096, 0, 0, 0, 0, 8},     /* a batch */
    {PTX_E_E4M3, PTX_E_BF16, 8192, 8192, 8192, 8192, 0, 1, 0, 1}, /* fp8 pairs */
    {PTX_E_TF32, PTX_E_F32, 4096, 4096, 4096, 0, 0, 0, 0, 1},     /* transposed B */
    {PTX_E_S8, PTX_E_S32, 16, 8192, 8192, 8192, 0, 1, 0, 1},
  };
  eng_device_caps caps = caps_of("sm_90a");
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(cases[i].ab, cases[i].c, cases[i].m, cases[i].n, cases[i].k);
    p.op_a_t = cases[i].op_a_t;
    p.op_b_t = cases[i].op_b_t;
    if (p.op_a_t) p.lda = p.m;
    if (cases[i].ldb) p.ldb = cases[i].ldb;
    else if (p.op_b_t) p.ldb = p.k;
    if (p.ldb * ptx_elem_size(p.ab) % 16) p.align_b = 2;
    if (cases[i].epilogue) {
      p.bias = PTX_BIAS_COL;
      p.bias_t = PTX_E_BF16;
      p.act = PTX_ACT_SILU;
    }
    p.batch = cases[i].batch;
    if (p.batch > 1) p.stride_a = p.m * p.k, p.stride_b = p.k * p.n, p.stride_c = p.stride_d = p.m * p.n;

    eng_candidate all[ENG_MAX_CANDIDATES];
    const char *why = NULL;
    int n = eng_sm90_candidates(&p, &caps, 1, all, ENG_MAX_CANDIDATES, &why);
    if (n < 1) print_error("case %zu: %s\n", i, why ? why : "no candidates");
    assert_true(n >= 1);
    eng_tuning forced = {&ptx_recipe_sm90, {0}, 0};
    eng_plan chosen;
    assert_int_equal(eng_select_tuned(&p, &caps, 1, &forced, &chosen, &why), TCJ_SUCCESS);
    char want[512], got[512], tile[96];
    plan_text(&chosen, want, sizeof want);
    plan_text(&all[0].plan, got, sizeof got);
    assert_string_equal(got, want);
    int splits = 0;
    for (int j = 0; j < n; j++) {
      if (j > 0) assert_true(all[j].est_us >= all[j - 1].est_us);
      splits += all[j].plan.cfg.split_k >= 2;
      assert_true(eng_tile_override_format(&all[j].plan.cfg, tile, sizeof tile) > 0);
      assert_int_equal(eng_tile_override_parse(tile, &forced.tile), 0);
      eng_plan again;
      if (eng_select_tuned(&p, &caps, 1, &forced, &again, &why) != TCJ_SUCCESS) print_error("%s: %s\n", tile, why);
      plan_text(&all[j].plan, want, sizeof want);
      plan_text(&again, got, sizeof got);
      if (strcmp(got, want)) print_error("case %zu, TCJ_TILE=%s:\n  want %s\n  got  %s\n", i, tile, want, got);
      assert_string_equal(got, want);
    }
    assert_true(eng_tile_override_format(&all[0].plan.cfg, tile, sizeof tile) > 0);
    print_message("case %zu: %d candidates, %d split; best TCJ_TILE=%s\n", i, n, splits, tile);
    if (i == 2) assert_true(splits > 0);
    forced.tile.valid = 0;
  }
  /* sm80 plans: a cluster split, a workspace split (sm_80), none. */
  struct { int64_t m, n, k; const char *arch; } sm80[] = {{1, 6144, 4096, "sm_90a"}, {1, 6144, 4096, "sm_80"},
                                                           {300, 300, 300, "sm_89"}};
  for (size_t i = 0; i < sizeof sm80 / sizeof *sm80; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, sm80[i].m, sm80[i].n, sm80[i].k);
    eng_device_caps c80 = caps_of(sm80[i].arch);
    eng_plan plan = select_ok(&p, sm80[i].arch, 1), again;
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
    char tile[96], want[512], got[512];
    assert_true(eng_tile_override_format(&plan.cfg, tile, sizeof tile) > 0);
    eng_tuning forced = {&ptx_recipe_sm80, {0}, 0};
    assert_int_equal(eng_tile_override_parse(tile, &forced.tile), 0);
    const char *why = NULL;
    assert_int_equal(eng_select_tuned(&p, &c80, 1, &forced, &again, &why), TCJ_SUCCESS);
    plan_text(&plan, want, sizeof want);
    plan_text(&again, got, sizeof got);
    assert_string_equal(got, want);
  }
  /* A buffer too small for the text is refused, not cut. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  eng_plan big = select_ok(&p, "sm_90a", 1);
  char small[8];
  assert_int_equal(eng_tile_override_format(&big.cfg, small, sizeof small), -1);
}

/* TCJ_TILE text that parses but that selection refuses for p on arch, with why_part in the
 * message. */
static void expect_tile_refused(const eng_problem *p, const char *tile, const char *arch, const char *why_part) {
  eng_tuning t = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse(tile, &t.tile), 0);
  eng_device_caps caps = caps_of(arch);
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select_tuned(p, &caps, 1, &t, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  print_message("%s %s: %s\n", tile, arch, why);
  assert_non_null(strstr(why, why_part));
}

/* TCJ_TILE "/sN" and "/scN" force the split and its reduction; the forced config is checked. */
static void tile_override_forces_a_split(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4, 6144, 4096);
  eng_tuning t = {NULL, {0}, 0};
  struct { const char *tile; int split, cluster; } ok[] = {
    {"16x128x128/1x4/4/sc8", 8, 1}, {"16x128x128/1x4/4/s3", 3, 0}, {"32x128x64/1x4/4/sc2", 2, 1},
    {"16x128x128/1x4/4/s0", 0, 0}, {"16x128x128/1x4/4/sc1", 0, 0},
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    assert_int_equal(eng_tile_override_parse(ok[i].tile, &t.tile), 0);
    eng_plan plan = select_tuned_ok(&p, "sm_90a", &t);
    assert_int_equal(plan.cfg.split_k, ok[i].split);
    assert_int_equal(plan.cfg.split_cluster, ok[i].cluster);
  }
  static const char *const malformed[] = {"16x128x128/1x4/4/s", "16x128x128/1x4/4/sc", "16x128x128/1x4/4/sx",
                                          "16x128x128/1x4/4/s-2", "16x128x128/1x4/4/s4/pp", "16x128x128/1x4/4/s100"};
  for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++)
    assert_int_equal(eng_tile_override_parse(malformed[i], &t.tile), -1);
  struct { const char *tile, *arch, *why; } bad[] = {
    {"16x128x128/1x4/4/sc9", "sm_90a", "2..8"},
    {"16x128x128/1x4/4/sc4", "sm_80", "sm_90"},
    {"16x128x128/1x4/4/s99", "sm_90a", "split_k"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) expect_tile_refused(&p, bad[i].tile, bad[i].arch, bad[i].why);
}

static void split_k_shapes_stay_on_sm80(void **state) {
  (void)state;
  /* Decode-like shapes that sm80 splits along K stay there. */
  struct { int64_t m, n, k; } cases[] = {
    {1, 4096, 14336},  /* decode against a deep weight */
    {16, 6144, 4096},
    {64, 64, 2048},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
    assert_true(plan.cfg.split_k >= 2);
  }
  /* Past one 16-row decode tile the sm90 recipe wins even where sm80 would split (small
   * batches of nn.Linear layers among them). */
  struct { int64_t m, n, k; int op_b_t; } wide[] = {
    {17, 6144, 4096, 1}, {32, 6144, 4096, 1}, {64, 4096, 4096, 1}, {64, 4096, 14336, 1},
    {128, 4096, 14336, 0}, {512, 512, 65536, 0},
  };
  for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, wide[i].m, wide[i].n, wide[i].k);
    p.op_b_t = wide[i].op_b_t;
    if (p.op_b_t) p.ldb = p.k; /* B is n x k */
    assert_int_equal(select_ok(&p, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM90);
  }
  /* Shorter K: no split; at 512^3 the problem is small enough for sm80, at 512x512x2048 it is
   * the sm90 recipe's. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 512, 512, 512);
  assert_int_equal(select_ok(&p, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  p = problem(PTX_E_BF16, PTX_E_BF16, 512, 512, 2048);
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.split_k, 0);
}

/* A decode call that streams a large K-major weight without a K split runs the sm90 recipe,
 * however few its multiply-adds; an N-major weight, a split weight or a small one stays on the
 * sm80 decode tiles. */
static void decode_of_a_large_k_major_weight_takes_sm90(void **state) {
  (void)state;
  struct { ptx_elem ab, c; int64_t m, n, k; int op_b_t; int recipe; } cases[] = {
    {PTX_E_BF16, PTX_E_BF16, 1, 28672, 4096, 1, PTX_RECIPE_SM90},  /* 235 MB, 224 tiles: no split */
    {PTX_E_BF16, PTX_E_BF16, 16, 16384, 8192, 1, PTX_RECIPE_SM90},
    {PTX_E_E4M3, PTX_E_BF16, 1, 28672, 4096, 1, PTX_RECIPE_SM90},  /* 117 MB */
    {PTX_E_BF16, PTX_E_BF16, 1, 28672, 4096, 0, PTX_RECIPE_SM80},  /* N-major weight */
    {PTX_E_BF16, PTX_E_BF16, 1, 6144, 4096, 1, PTX_RECIPE_SM80},   /* split in a cluster */
    {PTX_E_BF16, PTX_E_BF16, 1, 10240, 8192, 1, PTX_RECIPE_SM80},  /* 168 MB, 1.2 waves: split too */
    {PTX_E_BF16, PTX_E_BF16, 1, 16384, 512, 1, PTX_RECIPE_SM80},   /* 16 MB */
    {PTX_E_E4M3, PTX_E_BF16, 1, 16384, 2048, 1, PTX_RECIPE_SM80},  /* 32 MB */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(cases[i].ab, cases[i].c, cases[i].m, cases[i].n, cases[i].k);
    p.op_b_t = cases[i].op_b_t;
    if (p.op_b_t) p.ldb = p.k;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    char text[256];
    tcj_cfg_format(&plan.cfg, text, sizeof text);
    print_message("%s\n", text);
    assert_int_equal(plan.cfg.recipe, cases[i].recipe);
  }
}

static void small_problems_stay_on_sm80(void **state) {
  (void)state;
  /* At or below 2^28 multiply-adds (about 645^3) the sm80 recipe is faster (select.c). */
  struct { int64_t m, n, k; int sm90; } cases[] = {
    {512, 512, 512, 0}, {640, 640, 640, 0}, {256, 1024, 1024, 0}, {1, 6144, 4096, 0},
    {1024, 1024, 1024, 1}, {648, 648, 648, 1}, {128, 6144, 4096, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem q = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    assert_int_equal(select_ok(&q, "sm_90a", 1).cfg.recipe, cases[i].sm90 ? PTX_RECIPE_SM90 : PTX_RECIPE_SM80);
  }
}

static void sm90_packs_operands_below_16_bytes_or_falls_back(void **state) {
  (void)state;
  /* lda = 4100 f16: 8200-byte rows, 8-byte aligned. Small enough that sm80 would copy narrowly;
   * TMA cannot, so the sm90 plan packs it. */
  eng_problem p = problem(PTX_E_F16, PTX_E_F16, 1024, 1024, 4100);
  p.align_a = 8;
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.pack_b, 0);
  assert_int_equal(plan.cfg.align_a, 16);

  /* Packing disabled: the sm80 recipe with 8-byte copies. */
  plan = select_ok(&p, "sm_90a", 0);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.cfg.align_a, 8);

  /* B MN-major with ldb = 1001: 2-byte rows, packed; aligned A is not. */
  p = problem(PTX_E_BF16, PTX_E_F32, 1000, 1001, 1000);
  p.ldb = 1001;
  p.align_b = 2;
  plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 1);
  assert_int_equal(plan.cfg.vec_c, 1); /* n = 1001 is odd */
}

static void sm90_c_vector_follows_alignment_and_n(void **state) {
  (void)state;
  struct { ptx_elem c; int64_t n; int align_c, vec; } cases[] = {
    {PTX_E_BF16, 4096, 16, 8}, {PTX_E_BF16, 4096, 8, 4}, {PTX_E_BF16, 4096, 4, 2},
    {PTX_E_BF16, 4096, 2, 1},  {PTX_E_BF16, 4100, 16, 4}, {PTX_E_BF16, 4098, 16, 2},
    {PTX_E_F16, 4097, 16, 1},  {PTX_E_F32, 4096, 16, 4},  {PTX_E_F32, 4096, 8, 2},
    {PTX_E_F32, 4098, 16, 2},  {PTX_E_F32, 4096, 4, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, cases[i].c, 2048, cases[i].n, 1024);
    p.op_b_t = 1; /* B stored n x k: its rows do not depend on n */
    p.ldb = p.k;
    p.align_c = cases[i].align_c;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    print_message("c=%s n=%lld align_c=%d -> vec_c %d\n", ptx_elem_name(cases[i].c), (long long)cases[i].n,
                  cases[i].align_c, plan.cfg.vec_c);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.vec_c, cases[i].vec);
  }
}

static void sm90_tiles_follow_the_time_model(void **state) {
  (void)state;
  /* Estimated time = waves x tile area / relative rate (select.c); ties go to menu order. */
  struct { int64_t m, n, k; int bm, bn, stages, pingpong; } cases[] = {
    {4096, 8192, 4096, 128, 256, 3, 0}, /* n >= m: ties go to 128x256 (whole-tile epilogue: 3 stages) */
    {8192, 4096, 4096, 256, 128, 4, 0}, /* m > n: ties go to 256x128 */
    {8192, 1024, 4096, 256, 128, 4, 0}, /* 256 tiles either way (2 waves): m > n */
    {2048, 2048, 4096, 128, 256, 4, 0}, /* 128 tiles: one wave */
    {2048, 2048, 1024, 64, 256, 5, 1},  /* the same with 16 K tiles: ping-pong 64x256 */
    {8192, 8192, 2048, 64, 256, 5, 1},  /* 32 K tiles: still ping-pong */
    {8192, 8192, 2056, 128, 256, 3, 0}, /* 33 K tiles: cooperative */
    {1024, 1024, 4096, 128, 64, 8, 0},  /* 128 tiles of 128x64 (8192 / 0.6) beat 64 of 128x128 (16384 / 0.8) */
    {2048, 512, 1024, 128, 64, 8, 0},
    {512, 512, 2048, 64, 64, 8, 0},     /* 64 tiles of 64x64 (4096 / 0.4) beat 32 of 128x64 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    print_message("m=%lld n=%lld k=%lld -> %dx%d/%d%s\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.bm, plan.cfg.bn, plan.cfg.stages, plan.cfg.pingpong ? "/pp" : "");
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.bm, cases[i].bm);
    assert_int_equal(plan.cfg.bn, cases[i].bn);
    assert_int_equal(plan.cfg.stages, cases[i].stages);
    assert_int_equal(plan.cfg.pingpong, cases[i].pingpong);
    assert_int_equal(plan.cfg.warps_m, cases[i].bm == 64 && !cases[i].pingpong ? 1 : 2);
  }
}

/* With ENG_SM90_FUSED_WHOLE_TILE, a fused bias or activation on the cooperative 128x256 tile
 * stages its whole tile, where the engine compiles the kernel whole (it needs setmaxnreg's
 * registers: tcj_cfg_needs_whole_program) and the tile runs two waves or more; else (and while
 * the switch is off, as now) the epilogue hides under ping-pong 64x256 tiles, as it does at up
 * to 32 K tiles (SM90_PINGPONG_MAX_KT). */
static void fused_epilogues_stage_the_whole_cooperative_tile_where_compiled_whole(void **state) {
  (void)state;
  struct { int64_t m, n, k; ptx_bias bias; ptx_act act; int whole; } cases[] = {
    {4096, 4096, 4096, PTX_BIAS_COL, PTX_ACT_GELU, 1},  /* 512 tiles of 128x256 */
    {8192, 8192, 8192, PTX_BIAS_COL, PTX_ACT_NONE, 1},
    {4096, 6144, 4096, PTX_BIAS_ROW, PTX_ACT_RELU, 1},
    {4096, 4096, 4096, PTX_BIAS_NONE, PTX_ACT_SILU, 1},
    {4096, 6144, 4096, PTX_BIAS_ROW, PTX_ACT_GELU, 0},  /* spilled compiled whole: ping-pong */
    {128, 28672, 4096, PTX_BIAS_COL, PTX_ACT_GELU, 0},  /* 112 tiles: one wave */
    {8192, 8192, 1024, PTX_BIAS_COL, PTX_ACT_GELU, 0},  /* 16 K tiles: ping-pong */
  };
  for (int hide = 0; hide < 2; hide++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
      p.bias = cases[i].bias;
      p.bias_t = PTX_E_BF16;
      p.act = cases[i].act;
      eng_nvrtc_hide(hide);
      eng_plan plan = select_ok(&p, "sm_90a", 1);
      eng_nvrtc_hide(0);
      int whole = ENG_SM90_FUSED_WHOLE_TILE && cases[i].whole && !hide && eng_whole_program_expected();
      char text[512];
      assert_true(tcj_cfg_format(&plan.cfg, text, sizeof text) > 0);
      print_message("%s%s\n", hide ? "no NVRTC: " : "", text);
      assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
      assert_int_equal(plan.cfg.epi_whole, whole);
      assert_int_equal(plan.cfg.pingpong, !whole);
      assert_int_equal(plan.cfg.bm, whole ? 128 : 64);
      assert_int_equal(plan.cfg.bn, 256);
      assert_int_equal(plan.cfg.stages, whole ? 3 : 5);
      assert_int_equal(tcj_cfg_needs_whole_program(&plan.cfg), whole);
      assert_true(ptx_sm90_tma_store(&plan.cfg));
    }
}

/* ---- TCJ_RECIPE and TCJ_TILE ------------------------------------------------------------ */

static void forced_recipes_select_or_say_why_not(void **state) {
  (void)state;
  const ptx_recipe_row *r;
  assert_int_equal(eng_recipe_parse("sm80", &r), 0);
  assert_int_equal(r, &ptx_recipe_sm80);
  assert_int_equal(eng_recipe_parse("sm90", &r), 0);
  assert_int_equal(r, &ptx_recipe_sm90);
  assert_int_equal(eng_recipe_parse("auto", &r), 0);
  assert_int_equal(r, NULL);
  assert_int_equal(eng_recipe_parse("sm90a", &r), -1);
  assert_int_equal(eng_recipe_parse("SM80", &r), -1);
  assert_int_equal(eng_recipe_parse("", &r), -1);

  eng_device_caps caps = caps_of("sm_90a");
  assert_null(eng_recipe_check(&ptx_recipe_sm90, &caps));
  caps = caps_of("sm_90");
  assert_non_null(strstr(eng_recipe_check(&ptx_recipe_sm90, &caps), "sm_90a"));
  caps = caps_of("sm_100a");
  assert_non_null(eng_recipe_check(&ptx_recipe_sm90, &caps));
  assert_null(eng_recipe_check(&ptx_recipe_sm80, &caps));

  /* sm80 forced on sm_90a: the sm80 plan. sm90 forced: even where sm80 would split K. */
  eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0}, sm90 = {&ptx_recipe_sm90, {0}, 0};
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  assert_int_equal(select_tuned_ok(&p, "sm_90a", &sm80).cfg.recipe, PTX_RECIPE_SM80);
  p = problem(PTX_E_BF16, PTX_E_BF16, 512, 512, 65536);
  eng_plan plan = select_tuned_ok(&p, "sm_90a", &sm90);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_true(plan.cfg.split_k >= 2); /* 2 tiles of 128x256 and 1024 K tiles: split */

  /* What the forced sm90 recipe cannot run is refused with the reason (k == 0 has no mainloop and
   * runs anyway: test_epilogue.c). */
  struct { ptx_elem ab, c; int64_t k; int align_a, allow_packing; const char *arch, *why; } bad[] = {
    {PTX_E_S8, PTX_E_S32, 64, 16, 0, "sm_90a", "K-major only"}, /* problem() is op NN: no transposing pack */
    {PTX_E_TF32, PTX_E_F32, 64, 16, 0, "sm_90a", "K-major only"},
    {PTX_E_BF16, PTX_E_BF16, 64, 8, 0, "sm_90a", "packing is disabled"},
    {PTX_E_BF16, PTX_E_BF16, 64, 16, 1, "sm_80", "sm_90a"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    p = problem(bad[i].ab, bad[i].c, 256, 256, bad[i].k);
    p.align_a = bad[i].align_a;
    caps = caps_of(bad[i].arch);
    const char *why = NULL;
    assert_int_equal(eng_select_tuned(&p, &caps, bad[i].allow_packing, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
    print_message("%s\n", why);
    assert_non_null(strstr(why, "TCJ_RECIPE=sm90"));
    assert_non_null(strstr(why, bad[i].why));
  }
}

static void tile_override_text_takes_an_optional_cluster(void **state) {
  (void)state;
  eng_tile_override o;
  assert_int_equal(eng_tile_override_parse("128x256x128/2x1/4/c2", &o), 0);
  assert_int_equal(o.valid, 1);
  assert_int_equal(o.bm, 128);
  assert_int_equal(o.bn, 256);
  assert_int_equal(o.bk_bytes, 128);
  assert_int_equal(o.warps_m, 2);
  assert_int_equal(o.warps_n, 1);
  assert_int_equal(o.stages, 4);
  assert_int_equal(o.cluster_m, 2);
  assert_int_equal(o.cluster_n, 0);
  assert_int_equal(eng_tile_override_parse("128x64x128/2x1/8/cn2/s3", &o), 0);
  assert_int_equal(o.cluster_m, 0);
  assert_int_equal(o.cluster_n, 2);
  assert_int_equal(o.split_k, 3);
  assert_int_equal(eng_tile_override_parse("128x256x64/2x4/3", &o), 0);
  assert_int_equal(o.cluster_m, 0);
  assert_int_equal(o.cluster_n, 0);
  static const char *malformed[] = {"128x256x128/2x1/4/c3", "128x256x128/2x1/4/c2/", "128x256x128/2x1/4c2",
                                    "128x256x128/2x1/4/cn3", "128x256x128/2x1/4/cn", "128x256x128/2x1/4/c2/cn2",
                                    "128x256x128/2x1/4/", "128x256x128/2x1/4/c", "128x256x128/2x1", ""};
  for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
    print_message("\"%s\"\n", malformed[i]);
    assert_int_equal(eng_tile_override_parse(malformed[i], &o), -1);
  }
}

static void tile_override_applies_to_sm90_plans(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  eng_tuning t = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6/c2", &t.tile), 0);
  eng_plan plan = select_tuned_ok(&p, "sm_90a", &t);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.bm, 128);
  assert_int_equal(plan.cfg.bn, 128);
  assert_int_equal(plan.cfg.bk, 64);
  assert_int_equal(plan.cfg.stages, 6);
  assert_int_equal(plan.cfg.cluster_m, 2);
  char text[256];
  assert_true(tcj_cfg_format(&plan.cfg, text, sizeof text) > 0);
  assert_non_null(strstr(text, " cluster=2"));

  /* One consumer warpgroup, no cluster. */
  assert_int_equal(eng_tile_override_parse("64x128x128/1x1/8", &t.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &t);
  assert_int_equal(plan.cfg.warps_m, 1);
  assert_int_equal(plan.cfg.cluster_m, 0);
  assert_int_equal(tcj_cfg_threads(&plan.cfg), 256);

  /* What the recipe cannot run is refused, naming TCJ_TILE and the recipe. */
  struct { const char *tile, *arch; const ptx_recipe_row *recipe; const char *why; } bad[] = {
    {"128x256x64/2x4/3", "sm_90a", NULL, "sm90"},           /* an sm80 tile */
    {"128x64x128/2x1/8/c2", "sm_90a", NULL, "cluster"},    /* B halves of 32 columns */
    {"128x256x128/2x1/8", "sm_90a", NULL, "shared memory"}, /* 8 stages of 48 KiB */
    {"128x128x128/2x1/4/c2", "sm_90a", &ptx_recipe_sm80, "cluster"},
    {"128x128x128/2x1/4/c2", "sm_80", NULL, "cluster"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    t.recipe = bad[i].recipe;
    assert_int_equal(eng_tile_override_parse(bad[i].tile, &t.tile), 0);
    eng_device_caps caps = caps_of(bad[i].arch);
    const char *why = NULL;
    assert_int_equal(eng_select_tuned(&p, &caps, 1, &t, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
    print_message("%s %s: %s\n", bad[i].tile, bad[i].arch, why);
    assert_non_null(strstr(why, "TCJ_TILE: "));
    assert_non_null(strstr(why, bad[i].why));
  }
}

/* "/c2" and "/pp" are optional, in that order, each at most once, and nothing may follow. */
static void tile_override_text_takes_an_optional_pingpong(void **state) {
  (void)state;
  static const struct { const char *text; int cluster_m, pingpong; } good[] = {
    {"128x128x128/2x1/6", 0, 0},
    {"128x128x128/2x1/6/c2", 2, 0},
    {"128x128x128/2x1/6/pp", 0, 1},
    {"128x128x128/2x1/6/c2/pp", 2, 1},
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    eng_tile_override o;
    memset(&o, 0x5a, sizeof o);
    print_message("\"%s\"\n", good[i].text);
    assert_int_equal(eng_tile_override_parse(good[i].text, &o), 0);
    assert_int_equal(o.valid, 1);
    assert_int_equal(o.bm, 128);
    assert_int_equal(o.bn, 128);
    assert_int_equal(o.bk_bytes, 128);
    assert_int_equal(o.warps_m, 2);
    assert_int_equal(o.warps_n, 1);
    assert_int_equal(o.stages, 6);
    assert_int_equal(o.cluster_m, good[i].cluster_m);
    assert_int_equal(o.pingpong, good[i].pingpong);
  }
  static const char *malformed[] = {
    "128x128x128/2x1/6/pp/c2", "128x128x128/2x1/6/p",     "128x128x128/2x1/6/pp/",  "128x128x128/2x1/6/ppx",
    "128x128x128/2x1/6/pp2",   "128x128x128/2x1/6/pp/pp", "128x128x128/2x1/6/c2/pp/", "128x128x128/2x1/6/c2/pp/c2",
    "128x128x128/2x1/6/c2/c2", "128x128x128/2x1/6/c2pp",  "128x128x128/2x1/6pp",    "128x128x128/2x1/6/PP",
    "128x128x128/2x1/6/pp ",   "128x128x128/2x1/6 /pp",   "128x128x128/2x1/6/c2/p", "128x128x128/2x1/6/c2/pp/pp",
    "128x128x128/2x1/pp",      "/pp",
  };
  for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
    eng_tile_override o, before;
    memset(&o, 0x5a, sizeof o);
    before = o;
    print_message("\"%s\"\n", malformed[i]);
    assert_int_equal(eng_tile_override_parse(malformed[i], &o), -1);
    assert_memory_equal(&o, &before, sizeof o); /* a failed parse leaves the output alone */
  }
}

/* "/ew" (after "/pp") asks for the whole-tile TMA epilogue: kernels that store D through TMA
 * take it (a fused bias and GELU among them, which the TMA path applies when it stages the whole
 * tile), the others (a batch beside 128 accumulators here) keep their staged epilogue under the
 * same tile, so one forced tile runs a test's every case; shared memory is checked with it
 * (128x256 bf16 holds 3 stages beside 4 boxes a consumer, not 4); other recipes refuse it. */
static void tile_override_whole_epilogue_goes_where_d_stores_through_tma(void **state) {
  (void)state;
  eng_tuning t = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6/pp/ew", &t.tile), 0);
  assert_int_equal(t.tile.pingpong, 1);
  assert_int_equal(t.tile.epi_whole, 1);
  eng_tile_override bad;
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6/ew/pp", &bad), -1);
  assert_int_equal(eng_tile_override_parse("128x256x128/2x1/3/ew", &t.tile), 0);
  eng_problem plain = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  eng_plan plan = select_tuned_ok(&plain, "sm_90a", &t);
  assert_int_equal(plan.cfg.epi_whole, 1);
  char text[64]; /* what runs it again */
  assert_true(eng_tile_override_format(&plan.cfg, text, sizeof text) > 0);
  assert_string_equal(text, "128x256x128/2x1/3/ew/s0");
  eng_problem fused = plain;
  fused.bias = PTX_BIAS_COL;
  fused.bias_t = PTX_E_BF16;
  fused.act = PTX_ACT_GELU;
  plan = select_tuned_ok(&fused, "sm_90a", &t);
  assert_int_equal(plan.cfg.epi_whole, 1);
  assert_int_equal(plan.cfg.bn, 256);
  fused.bias = PTX_BIAS_ROW; /* beside erf GELU: staged (it spilled as a whole tile) */
  plan = select_tuned_ok(&fused, "sm_90a", &t);
  assert_int_equal(plan.cfg.epi_whole, 0);
  assert_int_equal(plan.cfg.bn, 256);
  eng_problem batched = plain;
  batched.batch = 4;
  batched.stride_a = batched.m * batched.k;
  batched.stride_b = batched.k * batched.n;
  batched.stride_c = batched.stride_d = batched.m * batched.n;
  plan = select_tuned_ok(&batched, "sm_90a", &t);
  assert_int_equal(plan.cfg.epi_whole, 0);
  assert_int_equal(plan.cfg.bn, 256);
  eng_device_caps caps = caps_of("sm_90a");
  const char *why = NULL;
  /* Where the whole tile does not fit beside the stages, the box-at-a-time epilogue runs. */
  assert_int_equal(eng_tile_override_parse("128x256x128/2x1/4/ew", &t.tile), 0);
  assert_int_equal(eng_select_tuned(&plain, &caps, 1, &t, &plan, &why), TCJ_SUCCESS);
  assert_int_equal(plan.cfg.epi_whole, 0);
  assert_int_equal(plan.cfg.stages, 4);
  caps = caps_of("sm_80");
  assert_int_equal(eng_tile_override_parse("128x128x64/2x2/3/ew", &t.tile), 0);
  assert_int_equal(eng_select_tuned(&plain, &caps, 1, &t, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "/ew is the sm90 recipe's"));
}

/* Deep K over few tiles splits K, and the slices of paired tile rows run in CTA pairs that
 * multicast B (select.c, split_in_pairs), 128x256 before 256x128 (less read from L2 per CTA).
 * One tile row, tiles below 128x128 or a B whose pitch splits lines split alone. */
static void k_splits_pair_tile_rows(void **state) {
  (void)state;
  static const struct { int64_t m, n, k, ldb; int bm, bn, paired; } cases[] = {
    {512, 512, 65536, 512, 128, 256, 1},  /* deepk */
    {2048, 512, 32768, 512, 128, 256, 1}, /* m > n: still 128x256 */
    {1024, 1024, 32768, 1024, 128, 256, 1},
    {260, 256, 16384, 256, 128, 128, 1},  /* 3 tile rows: the last pair's second CTA idles */
    {256, 6144, 32768, 6144, 128, 256, 1}, /* two 128-row tile rows pair; 256x128 would not */
    {128, 1024, 65536, 1024, 0, 0, 0},    /* one tile row: nothing to pair */
    {512, 512, 65536, 520, 0, 0, 0},      /* B's pitch splits lines: split alone */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    p.ldb = cases[i].ldb;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    char text[256];
    tcj_cfg_format(&plan.cfg, text, sizeof text);
    print_message("%lldx%lldx%lld ldb %lld: %s\n", (long long)p.m, (long long)p.n, (long long)p.k,
                  (long long)p.ldb, text);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_true(plan.cfg.split_k > 1);
    assert_int_equal(plan.cfg.cluster_m, cases[i].paired ? 2 : 0);
    if (cases[i].bm) {
      assert_int_equal(plan.cfg.bm, cases[i].bm);
      assert_int_equal(plan.cfg.bn, cases[i].bn);
    }
    assert_null(tcj_cfg_check(&plan.cfg));
  }
}

/* A forced "/pp" tile on an sm90 plan: the cfg takes ping-pong (with or without a cluster) and
 * passes tcj_cfg_check; tiles whose consumers would each need more than 128 accumulators, or
 * that break another ping-pong rule, are refused with the rule's reason. */
/* A forced tile keeps the selected K split where it can take it (cooperative consumers, alone
 * or in pairs) and drops it where it cannot (ping-pong): deep K on few tiles selects a split. */
static void tile_override_drops_a_split_the_forced_tile_cannot_take(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 256, 256, 65536);
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_true(plan.cfg.split_k > 1);
  eng_tuning t = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6", &t.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &t);
  assert_true(plan.cfg.split_k > 1); /* cooperative, no cluster: the split stays */
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6/c2", &t.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &t);
  assert_true(plan.cfg.split_k > 1);
  assert_int_equal(plan.cfg.cluster_m, 2);
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6/pp", &t.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &t);
  assert_int_equal(plan.cfg.split_k, 0);
  assert_int_equal(plan.cfg.pingpong, 1);
}

static void tile_override_pingpong_applies_to_sm90_plans(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096); /* 64 K tiles: cooperative */
  static const struct { const char *tile; int bm, bn, stages, cluster_m; const char *tail; } good[] = {
    {"128x128x128/2x1/6/pp", 128, 128, 6, 0, " tile=128x128x64 warps=2x1 stages=6 align=16,16,8 pingpong=1"},
    {"64x256x128/2x1/5/pp", 64, 256, 5, 0, " tile=64x256x64 warps=2x1 stages=5 align=16,16,8 pingpong=1"},
    {"128x128x128/2x1/6/c2/pp", 128, 128, 6, 2, " tile=128x128x64 warps=2x1 stages=6 align=16,16,8 cluster=2 pingpong=1"},
    {"64x256x128/2x1/5/c2/pp", 64, 256, 5, 2, " tile=64x256x64 warps=2x1 stages=5 align=16,16,8 cluster=2 pingpong=1"},
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    eng_tuning t = {NULL, {0}, 0};
    assert_int_equal(eng_tile_override_parse(good[i].tile, &t.tile), 0);
    eng_plan plan = select_tuned_ok(&p, "sm_90a", &t); /* tcj_cfg_check and shared memory */
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.pingpong, 1);
    assert_int_equal(plan.cfg.bm, good[i].bm);
    assert_int_equal(plan.cfg.bn, good[i].bn);
    assert_int_equal(plan.cfg.bk, 64);
    assert_int_equal(plan.cfg.warps_m, 2);
    assert_int_equal(plan.cfg.warps_n, 1);
    assert_int_equal(plan.cfg.stages, good[i].stages);
    assert_int_equal(plan.cfg.cluster_m, good[i].cluster_m);
    assert_int_equal(tcj_cfg_threads(&plan.cfg), 384);
    char text[256];
    assert_true(tcj_cfg_format(&plan.cfg, text, sizeof text) > 0);
    size_t len = strlen(text), tail = strlen(good[i].tail);
    if (len < tail || strcmp(text + len - tail, good[i].tail) != 0) print_error("%s -> %s\n", good[i].tile, text);
    assert_true(len >= tail && strcmp(text + len - tail, good[i].tail) == 0);
  }

  /* The override sets ping-pong rather than keeping the plan's: short K selects ping-pong
   * 64x256, and a forced tile without "/pp" is cooperative (64x256 then has 32-row consumers). */
  eng_problem short_k = problem(PTX_E_BF16, PTX_E_BF16, 2048, 2048, 1024);
  eng_plan plan = select_ok(&short_k, "sm_90a", 1);
  assert_int_equal(plan.cfg.pingpong, 1);
  eng_tuning t = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse("128x256x128/2x1/4", &t.tile), 0);
  plan = select_tuned_ok(&short_k, "sm_90a", &t);
  assert_int_equal(plan.cfg.pingpong, 0);
  assert_int_equal(plan.cfg.bm, 128);
  assert_int_equal(plan.cfg.bn, 256);

  struct { const eng_problem *p; const char *tile, *arch; const ptx_recipe_row *recipe; const char *why; } bad[] = {
    /* Each consumer would hold a whole 128x256 tile: 256 accumulators per thread. */
    {&p, "128x256x128/2x1/4/pp", "sm_90a", NULL, "TCJ_TILE: accumulators exceed 128 registers per thread"},
    {&p, "128x256x128/2x1/4/c2/pp", "sm_90a", NULL, "TCJ_TILE: accumulators exceed 128 registers per thread"},
    {&p, "128x192x128/2x1/4/pp", "sm_90a", NULL, "TCJ_TILE: accumulators exceed 128 registers per thread"},
    {&p, "256x128x128/2x1/4/pp", "sm_90a", NULL, "TCJ_TILE: each sm90 consumer owns 64 or 128 rows"},
    {&p, "64x128x128/1x1/8/pp", "sm_90a", NULL, "TCJ_TILE: ping-pong needs two consumer warpgroups"},
    {&p, "64x256x128/2x1/6/pp", "sm_90a", NULL, "TCJ_TILE: needs more shared memory than the device has"},
    {&p, "64x64x128/2x1/8/c2/pp", "sm_90a", NULL, "TCJ_TILE: a cluster along M splits B"},
    {&short_k, "64x256x128/2x1/5", "sm_90a", NULL, "TCJ_TILE: each sm90 consumer owns 64 or 128 rows"},
    /* The sm80 recipe has no consumer warpgroups to alternate. */
    {&p, "128x128x64/2x2/3/pp", "sm_90a", &ptx_recipe_sm80, "TCJ_TILE: the sm80 recipe has no clusters or ping-pong"},
    {&p, "128x128x64/2x2/3/pp", "sm_80", NULL, "TCJ_TILE: the sm80 recipe has no clusters or ping-pong"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    t.recipe = bad[i].recipe;
    assert_int_equal(eng_tile_override_parse(bad[i].tile, &t.tile), 0);
    assert_int_equal(t.tile.pingpong, strstr(bad[i].tile, "/pp") != NULL);
    eng_device_caps caps = caps_of(bad[i].arch);
    const char *why = NULL;
    assert_int_equal(eng_select_tuned(bad[i].p, &caps, 1, &t, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
    print_message("%s %s: %s\n", bad[i].tile, bad[i].arch, why);
    assert_non_null(strstr(why, bad[i].why));
  }
}

/* TCJ_TILE takes any int for the warp grid: a 2^16 x 2^16 grid (2^32 warps, 0 in 32-bit
 * arithmetic) is refused as a bad warp grid, on either recipe, without overflowing. */
static void tile_override_with_a_huge_warp_grid_is_refused(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4096, 4096, 4096);
  static const struct { const char *tile, *arch, *why; } bad[] = {
    {"128x128x64/65536x65536/3", "sm_80", "TCJ_TILE: bad warp grid"},
    {"128x128x64/1073741824x2/3", "sm_80", "TCJ_TILE: bad warp grid"},
    {"128x128x128/65536x65536/4", "sm_90a", "TCJ_TILE: sm90 runs 1, 2 or 3 consumer warpgroups"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) expect_tile_refused(&p, bad[i].tile, bad[i].arch, bad[i].why);
}

static void tuning_comes_from_the_environment(void **state) {
  (void)state;
  eng_tuning t;
  unsetenv("TCJ_RECIPE");
  unsetenv("TCJ_TILE");
  assert_null(eng_tuning_from_env(&t));
  assert_int_equal(t.recipe, NULL);
  assert_int_equal(t.tile.valid, 0);
  setenv("TCJ_RECIPE", "sm90", 1);
  setenv("TCJ_TILE", "256x128x128/2x1/4/c2", 1);
  assert_null(eng_tuning_from_env(&t));
  assert_int_equal(t.recipe, &ptx_recipe_sm90);
  assert_int_equal(t.tile.valid, 1);
  assert_int_equal(t.tile.bm, 256);
  assert_int_equal(t.tile.cluster_m, 2);
  setenv("TCJ_RECIPE", "", 1); /* empty: as unset */
  assert_null(eng_tuning_from_env(&t));
  assert_int_equal(t.recipe, NULL);
  setenv("TCJ_RECIPE", "wgmma", 1);
  const char *why = eng_tuning_from_env(&t);
  assert_non_null(why);
  assert_non_null(strstr(why, "TCJ_RECIPE=\"wgmma\""));
  setenv("TCJ_RECIPE", "sm80", 1);
  setenv("TCJ_TILE", "128x256x128/2x1/4/c3", 1);
  why = eng_tuning_from_env(&t);
  assert_non_null(why);
  assert_non_null(strstr(why, "TCJ_TILE=\"128x256x128/2x1/4/c3\""));
  assert_non_null(strstr(why, "[/c2|/c4|/cn2|/cn4]"));
  setenv("TCJ_TILE", "64x256x128/2x1/5/c2/pp", 1);
  assert_null(eng_tuning_from_env(&t));
  assert_int_equal(t.recipe, &ptx_recipe_sm80);
  assert_int_equal(t.tile.bm, 64);
  assert_int_equal(t.tile.cluster_m, 2);
  assert_int_equal(t.tile.pingpong, 1);
  setenv("TCJ_TILE", "64x256x128/2x1/5/pp/c2", 1);
  why = eng_tuning_from_env(&t);
  assert_non_null(why);
  assert_non_null(strstr(why, "TCJ_TILE=\"64x256x128/2x1/5/pp/c2\""));
  unsetenv("TCJ_RECIPE");
  unsetenv("TCJ_TILE");
}

/* Arch names: the canonical spelling of every arch in the table is accepted, and nothing else
 * (a sign, a space, a leading zero or another suffix would make two names of one target). */
static void arch_parser_accepts_only_canonical_names(void **state) {
  (void)state;
  static const char *const good[] = {"sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                                     "sm_120", "sm_120a"};
  static const char *const bad[] = {"sm_+80", "sm_ 80", "sm_080", "sm80", "SM_80", "sm_80 ", "sm_80b", "sm_80a",
                                    "sm_89a", "sm_90f", "sm_", "sm_-90", "sm_1000", "sm_75", "", "sm_90aa"};
  eng_device_caps caps;
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    if (eng_caps_for_arch(good[i], &caps) != 0) print_error("refused %s\n", good[i]);
    assert_int_equal(eng_caps_for_arch(good[i], &caps), 0);
  }
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (eng_caps_for_arch(bad[i], &caps) == 0) print_error("accepted \"%s\"\n", bad[i]);
    assert_int_equal(eng_caps_for_arch(bad[i], &caps), -1);
  }
  assert_int_equal(eng_caps_for_arch(NULL, &caps), -1);
}

/* A valid call whose D TMA cannot address (a leading dimension past 2^40 bytes; only one row
 * exists, so little memory) gets a plan that does not store D through TMA: every tensor map the
 * launch will encode is checked here, so no valid call meets TCJ_ERROR_INTERNAL there. */
static void sm90_plans_only_tensor_maps_tma_can_encode(void **state) {
  (void)state;
  int sm90 = 0;
  for (int m = 1; m <= 4096; m *= 8) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, m, 16896, 16384);
    p.op_b_t = 1;
    p.ldb = p.k;
    p.ldc = p.ldd = (int64_t)1 << 40;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    if (plan.cfg.recipe != PTX_RECIPE_SM90) continue;
    sm90++;
    ptx_tmap_desc d;
    ptx_tmap_batch one = {1, 0};
    int use = ptx_sm90_tmap_d(&plan.cfg, p.m, p.ldd, one, &d);
    if (use < 0) print_error("m=%d: the plan stores D through a tensor map TMA cannot encode\n", m);
    assert_true(use >= 0);
  }
  assert_true(sm90 >= 2); /* the large ones do run on the sm90 recipe */
}

/* Generic plans (TCJ_JIT_GENERIC) for random shapes of every operand type, op pair and
 * alignment class, on every arch: valid generic configs (n = k = 0, no split, no cluster along
 * N), D's vectors dividing n; and few kernels per class: over 300 shapes of one op pair and
 * operand alignment, at most 3 tiles x 2 D classes (+ 128x192's on sm90 and the 8-warp
 * 128x128 on sm80 where layouts need them: 8). */
static void generic_plans_are_valid_and_few_per_class(void **state) {
  (void)state;
  static const char *archs[] = {"sm_80", "sm_89", "sm_90a"};
  static const ptx_elem types[][2] = {{PTX_E_BF16, PTX_E_BF16}, {PTX_E_F16, PTX_E_F32}, {PTX_E_TF32, PTX_E_F32},
                                      {PTX_E_S8, PTX_E_S32}, {PTX_E_E4M3, PTX_E_BF16}, {PTX_E_F64, PTX_E_F64}};
  static const int aligns[] = {16, 2};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int a = 0; a < 3; a++) {
    eng_device_caps caps = caps_of(archs[a]);
    for (int t = 0; t < 6; t++) {
      if (types[t][0] == PTX_E_E4M3 && caps.sm < 89) continue;
      for (int ops = 0; ops < 4; ops++)
        for (int al = 0; al < 2; al++) {
          char seen[8][256];
          int distinct = 0;
          for (int i = 0; i < 300; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* Every third n odd (D's vectors then single elements). k == 0 (C = beta C) runs
             * the sm80 recipe's generic kernels, which the sm90 one cannot replace (its loop
             * runs at least one K tile): a class of its own, checked once below. */
            int64_t m = 1 + (int64_t)(x % 5000), n = 8 * (1 + (int64_t)((x >> 16) % 1000)) - (i % 3 == 0),
                    k = i == 299 ? 0 : 8 * (1 + (int64_t)((x >> 32) % 1000));
            eng_problem p = problem(types[t][0], types[t][1], m, n, k);
            p.op_a_t = ops & 1;
            p.op_b_t = ops >> 1;
            /* Leading dimensions that agree with the alignment class: rows padded to 16 bytes,
             * or packed rows said to be aligned to one element only. */
            int es = ptx_elem_size(p.ab), pad = aligns[al] == 16 ? 16 / es : 1;
            p.lda = ((p.op_a_t ? m : k) + pad - 1) / pad * pad;
            p.ldb = ((p.op_b_t ? k : n) + pad - 1) / pad * pad;
            p.align_a = p.align_b = aligns[al] == 16 ? 16 : es;
            eng_plan plan;
            const char *why = NULL;
            tcj_status st = eng_select_generic(&p, &caps, 1, NULL, &plan, &why);
            if (st != TCJ_SUCCESS) fail_msg("%s %s m=%lld n=%lld k=%lld ops=%d: %s", archs[a], ptx_elem_name(p.ab),
                                            (long long)m, (long long)n, (long long)k, ops, why);
            const tcj_kernel_cfg *c = &plan.cfg;
            assert_int_equal(c->generic, 1);
            assert_true(c->n == 0 && c->k == 0 && !c->split_cluster && c->cluster_n == 0);
            assert_null(tcj_cfg_check(c));
            /* A split is a launch value: the kernel is the unsplit one's. */
            tcj_kernel_cfg kernel = tcj_cfg_kernel_form(c);
            assert_int_equal(kernel.split_k, 0);
            c = &kernel;
            /* vec_c still divides this problem's n (the class promises it). */
            assert_int_equal(n % c->vec_c, 0);
            char text[256];
            assert_true(tcj_cfg_format(c, text, sizeof text) > 0);
            int found = 0;
            for (int j = 0; j < distinct; j++) found |= strcmp(seen[j], text) == 0;
            if (!found && k > 0) {
              if (distinct == 8) {
                for (int j = 0; j < distinct; j++) fprintf(stderr, "  %s\n", seen[j]);
                fail_msg("%s %s ops=%d align=%d: more than 8 generic kernels (%s)", archs[a],
                                           ptx_elem_name(p.ab), ops, aligns[al], text);
              }
              snprintf(seen[distinct++], sizeof seen[0], "%s", text);
            }
          }
        }
    }
  }
}

/* f64 has generic plans (TCJ_JIT_GENERIC, and async's first calls): the dmma recipe's generic
 * kernel, n = k = 0, no K split at launch, on every arch, for every op pair and edge shape (k of
 * 0 and 1, m or n of 1, odd n: D in single elements). Operands in 8-byte rows are packed into
 * 16-byte rows (the generic set's class); with packing off they keep 8-byte copies, a class of
 * their own. TCJ_RECIPE and TCJ_TILE name the other types' recipes: f64 ignores them here as its
 * specialised selection does. At most 2 tiles x 2 D classes per op pair and copy class. */
static void f64_has_generic_plans_on_the_dmma_recipe(void **state) {
  (void)state;
  static const char *archs[] = {"sm_80", "sm_89", "sm_90a", "sm_100"};
  static const int64_t shapes[][3] = {{1, 1, 1},     {7, 3, 1},     {129, 77, 33},   {1000, 999, 1},  {5, 13, 0},
                                      {333, 1000, 17}, {4095, 4095, 4095}, {64, 64, 64}, {1, 4096, 4096}, {3000, 2, 5}};
  eng_tuning forced;
  memset(&forced, 0, sizeof forced);
  forced.generic = 1;
  forced.recipe = &ptx_recipe_sm80;
  assert_int_equal(eng_tile_override_parse("64x64x64/2x2/4", &forced.tile), 0);
  for (size_t a = 0; a < sizeof archs / sizeof *archs; a++) {
    eng_device_caps caps = caps_of(archs[a]);
    for (int ops = 0; ops < 4; ops++)
      for (int align = 8; align <= 16; align += 8)
        for (int pack = 0; pack < 2; pack++) {
          char seen[4][256];
          int distinct = 0;
          for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
            int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
            eng_problem p = problem(PTX_E_F64, PTX_E_F64, m, n, k);
            p.op_a_t = ops & 1;
            p.op_b_t = ops >> 1;
            int pad = align / 8; /* rows of whole 16 bytes, or any number of elements */
            p.lda = ((p.op_a_t ? m : k) + pad - 1) / pad * pad + (align == 8);
            p.ldb = ((p.op_b_t ? k : n) + pad - 1) / pad * pad + (align == 8);
            p.align_a = p.align_b = align;
            p.align_c = n % 2 ? 8 : 16;
            eng_plan plan, again;
            const char *why = NULL;
            tcj_status st = eng_select_generic(&p, &caps, pack, NULL, &plan, &why);
            if (st != TCJ_SUCCESS)
              fail_msg("%s f64 %lldx%lldx%lld ops=%d align=%d pack=%d: %s", archs[a], (long long)m, (long long)n,
                       (long long)k, ops, align, pack, why);
            const tcj_kernel_cfg *c = &plan.cfg;
            assert_int_equal(c->recipe, PTX_RECIPE_DMMA);
            assert_int_equal(c->generic, 1);
            assert_true(c->n == 0 && c->k == 0 && c->split_k == 0);
            assert_null(tcj_cfg_check(c));
            assert_true(tcj_cfg_smem_bytes(c) <= caps.max_smem_optin);
            assert_false(tcj_cfg_splits_at_launch(c));
            assert_int_equal(n % c->vec_c, 0);
            /* 8-byte rows: packed (16-byte copies) where packing is on and the operand holds data. */
            int a_elems = m * k > 0, b_elems = k * n > 0;
            if (align == 16 || !pack) {
              assert_int_equal(c->align_a, a_elems ? align : 16);
              assert_int_equal(c->align_b, b_elems ? align : 16);
            } else {
              assert_true(c->align_a == 16 && c->align_b == 16);
              assert_int_equal(plan.pack_a, a_elems ? ENG_PACK_COPY : ENG_PACK_NONE);
              assert_int_equal(plan.pack_b, b_elems ? ENG_PACK_COPY : ENG_PACK_NONE);
            }
            /* The forced recipe and tile do not apply to f64. */
            assert_int_equal(eng_select_tuned(&p, &caps, pack, &forced, &again, &why), TCJ_SUCCESS);
            assert_memory_equal(&again.cfg, &plan.cfg, sizeof plan.cfg);
            char text[256];
            assert_true(tcj_cfg_format(c, text, sizeof text) > 0);
            int found = 0;
            for (int j = 0; j < distinct; j++) found |= strcmp(seen[j], text) == 0;
            if (!found && (a_elems && b_elems)) {
              if (distinct == 4) fail_msg("%s f64 ops=%d align=%d pack=%d: a fifth generic kernel %s", archs[a], ops,
                                          align, pack, text);
              snprintf(seen[distinct++], sizeof seen[0], "%s", text);
            }
          }
        }
  }
}

/* The generic set `tcj-warmup --generic` compiles: valid generic configs, at most 24 per type
 * pair and arch, every op pair and the sm90 recipe's three tiles present on sm_90a; and what
 * selection picks for a plain GEMM of those pairs (other shapes than the set's sample) is in it. */
static void generic_set_is_small_and_covers_selection(void **state) {
  (void)state;
  static const char *archs[] = {"sm_80", "sm_89", "sm_90a"};
  for (int a = 0; a < 3; a++) {
    eng_device_caps caps = caps_of(archs[a]);
    ptx_elem ab[ENG_GENERIC_PAIRS_MAX], c[ENG_GENERIC_PAIRS_MAX];
    int npairs = eng_generic_pairs(&caps, ab, c);
    assert_int_equal(npairs, caps.sm >= 89 ? 10 : 8);
    for (int t = 0; t < npairs; t++) {
      tcj_kernel_cfg set[64];
      int n = eng_generic_set(&caps, ab[t], c[t], set, 64);
      if (n < 1 || n > 24) fail_msg("%s %s>%s: %d generic kernels", archs[a], ptx_elem_name(ab[t]), ptx_elem_name(c[t]), n);
      int ops_seen = 0, tiles_seen = 0, dmma_tiles = 0, f64 = ab[t] == PTX_E_F64;
      for (int i = 0; i < n; i++) {
        assert_int_equal(set[i].generic, 1);
        assert_null(tcj_cfg_check(&set[i]));
        ops_seen |= 1 << (set[i].op_a_t + 2 * set[i].op_b_t);
        if (set[i].recipe == PTX_RECIPE_SM90) tiles_seen |= set[i].bn == 256 ? 1 : set[i].bm == 128 ? 2 : 4;
        /* f64 runs the dmma recipe on every arch, in its two tiles (bit 1: 64x64, 2: 128x128). */
        assert_int_equal(set[i].recipe == PTX_RECIPE_DMMA, f64);
        if (f64) dmma_tiles |= set[i].bm == 64 ? 1 : 2;
      }
      /* wgmma reads tf32, s8 and fp8 K-major only: their kernels are all NT (others transposed);
       * 3xTF32's parts are K-major on every arch. */
      int x3 = ab[t] == PTX_E_F32;
      int k_major_only = x3 || (caps.sm == 90 && !(ab[t] == PTX_E_F16 || ab[t] == PTX_E_BF16 || f64));
      assert_int_equal(ops_seen, k_major_only ? 1 << 2 : 15);
      /* 128x256 (bit 1), 128x128 or 128x192 (2), 64x128 (4); promoted fp8 reaches 128x256
       * where the engine compiles it whole, promoted 3xTF32 stops at 128x128. */
      if (caps.sm == 90 && !f64)
        assert_int_equal(tiles_seen, x3 || (ptx_elem_is_fp8(ab[t]) && !eng_whole_program_expected()) ? 6 : 7);
      if (f64) assert_int_equal(dmma_tiles, 3);
      for (int i = 0; i < n; i++) assert_int_equal(set[i].tf32x3, x3);
      /* Selection on shapes outside the sample finds its kernel in the set. */
      uint64_t x = 0x1234567ull + (uint64_t)t;
      eng_tuning generic = {NULL, {0}, 1};
      for (int i = 0; i < 100; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t m = 1 + (int64_t)(x % 9000), nn = 8 * (1 + (int64_t)((x >> 20) % 1500)), k = 8 * (1 + (int64_t)((x >> 40) % 1500));
        eng_problem p = problem(x3 ? PTX_E_TF32 : ab[t], c[t], m, nn, k);
        p.op_a_t = i & 1;
        p.op_b_t = (i >> 1) & 1;
        int64_t pad = 16 / ptx_elem_size(ab[t]); /* rows of 16-byte multiples, as align 16 says */
        p.lda = ((p.op_a_t ? m : k) + pad - 1) / pad * pad;
        p.ldb = ((p.op_b_t ? k : nn) + pad - 1) / pad * pad;
        if (x3) eng_problem_split3(&p);
        eng_plan plan;
        const char *why = NULL;
        assert_int_equal(eng_select_tuned(&p, &caps, 1, &generic, &plan, &why), TCJ_SUCCESS);
        char text[512], other[512];
        tcj_kernel_cfg kernel = tcj_cfg_kernel_form(&plan.cfg); /* what runs it: a split is a launch value */
        assert_true(tcj_cfg_format(&kernel, text, sizeof text) > 0);
        int found = 0;
        for (int j = 0; j < n && !found; j++) found = tcj_cfg_format(&set[j], other, sizeof other) > 0 && !strcmp(text, other);
        if (!found) fail_msg("%s: %s is selected for m=%lld n=%lld k=%lld but not in the generic set", archs[a], text,
                             (long long)m, (long long)nn, (long long)k);
      }
    }
  }
}

/* A split's count depends on the SM count, its kernel does not: on two parts of one arch the
 * plans that differ only in the count share one kernel (tcj_cfg_kernel_form, the memo and cache
 * key), and ptxgen writes the same PTX for every count. */
static void split_counts_share_one_kernel(void **state) {
  (void)state;
  static const struct { const char *arch; int sms[2]; } parts[] = {
      {"sm_90a", {132, 114}}, {"sm_89", {128, 58}}, {"sm_80", {108, 46}}};
  static const int64_t ms[] = {1, 16, 48, 128}, ns[] = {1024, 2048, 4096}, ks[] = {2048, 8192, 14336};
  for (size_t a = 0; a < sizeof parts / sizeof parts[0]; a++) {
    int shared = 0;
    for (int op = 0; op < 2; op++)
      for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 3; j++)
          for (size_t l = 0; l < 3; l++) {
            eng_plan plan[2];
            for (int s = 0; s < 2; s++) {
              eng_device_caps caps = caps_of(parts[a].arch);
              caps.sm_count = parts[a].sms[s];
              eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, ms[i], ns[j], ks[l]);
              p.op_b_t = op;
              p.ldb = op ? ks[l] : ns[j];
              const char *why = NULL;
              assert_int_equal(eng_select(&p, &caps, 1, &plan[s], &why), TCJ_SUCCESS);
            }
            tcj_kernel_cfg x = plan[0].cfg, y = plan[1].cfg;
            if (!tcj_cfg_split_workspace(&x) || !tcj_cfg_split_workspace(&y) || x.split_k == y.split_k) continue;
            y.split_k = x.split_k;
            if (memcmp(&x, &y, sizeof x) != 0) continue; /* another tile too: another kernel */
            char tx[512], ty[512];
            tcj_kernel_cfg kx = tcj_cfg_kernel_form(&plan[0].cfg), ky = tcj_cfg_kernel_form(&plan[1].cfg);
            assert_true(tcj_cfg_format(&kx, tx, sizeof tx) > 0 && tcj_cfg_format(&ky, ty, sizeof ty) > 0);
            assert_string_equal(tx, ty);
            char *px = NULL, *py = NULL, err[256];
            size_t lx = 0, ly = 0;
            assert_int_equal(ptx_gen_gemm(&plan[0].cfg, &px, &lx, err, sizeof err), 0);
            assert_int_equal(ptx_gen_gemm(&plan[1].cfg, &py, &ly, err, sizeof err), 0);
            assert_true(lx == ly && memcmp(px, py, lx) == 0);
            free(px);
            free(py);
            shared++;
          }
    /* The problems were chosen so that every part splits some of them differently. */
    if (shared < 2) fail_msg("%s: only %d plans differ in the split count alone", parts[a].arch, shared);
  }
}

/* Generic kernels split K at launch where the specialised choice would: deep K against few
 * tiles splits on both recipes (a launch value: the kernel is the unsplit one's). */
static void generic_plans_split_deep_k(void **state) {
  (void)state;
  static const struct { const char *arch; int64_t m, n, k; } cases[] = {
      {"sm_80", 16, 1024, 16384}, {"sm_89", 64, 512, 30000}, {"sm_90a", 512, 512, 65536}, {"sm_90a", 1, 4096, 14336}};
  eng_tuning generic = {NULL, {0}, 1};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    eng_device_caps caps = caps_of(cases[i].arch);
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan;
    const char *why = NULL;
    assert_int_equal(eng_select_tuned(&p, &caps, 1, &generic, &plan, &why), TCJ_SUCCESS);
    if (plan.cfg.split_k < 2 || plan.cfg.split_cluster)
      fail_msg("%s %lldx%lldx%lld: generic plan split %d", cases[i].arch, (long long)cases[i].m, (long long)cases[i].n,
               (long long)cases[i].k, plan.cfg.split_k);
    assert_int_equal(tcj_cfg_kernel_form(&plan.cfg).split_k, 0);
  }
}


/* ---- grouped GEMM ------------------------------------------------------------------------- */

/* A grouped problem as validation makes it: m total (or per entry) rows, G groups, group_rows. */
static eng_problem grouped(int kind, int64_t m, int64_t n, int64_t k, int64_t groups, int64_t group_rows) {
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, m, n, k);
  p.op_b_t = 1;
  p.ldb = k;
  p.grouped = kind;
  p.groups = groups;
  p.group_rows = group_rows;
  p.stride_b = n * k;
  return p;
}

/* The plan TCJ_RECIPE=sm80 picks for one group of `rows` rows, without its K split, marked
 * grouped: what a grouped problem must get. */
static eng_plan sm80_plan_of_one_group(const eng_problem *g, const char *arch, int64_t rows) {
  eng_problem one = *g;
  one.grouped = 0;
  one.groups = one.group_rows = 0;
  one.m = rows;
  eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0};
  eng_plan plan = select_tuned_ok(&one, arch, &sm80);
  plan.cfg.split_k = plan.cfg.split_cluster = 0;
  plan.cfg.grouped = g->grouped;
  return plan;
}

/* Off sm_90a, and on it for groups of fewer than 64 expected rows (the sm90 plan's own test is
 * below). */
static void grouped_problems_take_the_sm80_plan_of_their_expected_rows(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a", "sm_100"};
  static const struct { int kind; int64_t m, n, k, groups, rows; } cases[] = {
    {PTX_GROUP_ENDS32, 32768, 4096, 7168, 4, 8192}, /* DeepGEMM's contiguous shape */
    {PTX_GROUP_ENDS64, 4096, 4096, 7168, 32, 128},  /* DeepSeek-V3 EP up-projection, skewed */
    {PTX_GROUP_ENDS32, 4096, 4096, 7168, 256, 4},   /* decode-like groups: the 16-row tile */
    {PTX_GROUP_MASKED, 256, 4096, 7168, 8, 256},
    {PTX_GROUP_MASKED, 256, 4096, 14336, 32, 16},   /* a plain 16 x 4096 x 14336 splits K */
  };
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      if (!strcmp(arches[a], "sm_90a") && cases[i].rows >= 64) continue;
      eng_problem p = grouped(cases[i].kind, cases[i].m, cases[i].n, cases[i].k, cases[i].groups, cases[i].rows);
      eng_plan plan = select_ok(&p, arches[a], 1), want = sm80_plan_of_one_group(&p, arches[a], cases[i].rows);
      if (memcmp(&plan.cfg, &want.cfg, sizeof plan.cfg) != 0) {
        char got_text[512], want_text[512];
        tcj_cfg_format(&plan.cfg, got_text, sizeof got_text);
        tcj_cfg_format(&want.cfg, want_text, sizeof want_text);
        print_error("%s case %zu: %s, wanted %s\n", arches[a], i, got_text, want_text);
      }
      assert_memory_equal(&plan.cfg, &want.cfg, sizeof plan.cfg);
      assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
      assert_int_equal(plan.cfg.grouped, cases[i].kind);
      assert_int_equal(plan.cfg.split_k, 0);
      assert_int_equal(plan.pack_a + plan.pack_b, 0);
    }
  /* The hint steers the tile: 4-row groups get the 16-row decode tile, 8192-row ones a large one. */
  eng_problem small = grouped(PTX_GROUP_ENDS32, 4096, 4096, 7168, 256, 4);
  eng_problem tall = grouped(PTX_GROUP_ENDS32, 4096, 4096, 7168, 256, 4096);
  assert_int_equal(select_ok(&small, "sm_90a", 1).cfg.bm, 16);
  assert_true(select_ok(&tall, "sm_90a", 1).cfg.bm >= 64);
  assert_int_equal(select_ok(&small, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  /* The plain problem of the same rows splits K where the grouped one does not. */
  eng_problem plain = problem(PTX_E_BF16, PTX_E_BF16, 16, 4096, 14336);
  plain.op_b_t = 1, plain.ldb = 14336;
  assert_true(select_ok(&plain, "sm_80", 1).cfg.split_k >= 2);
  /* And sm_90a runs the plain problem of the total rows on the sm90 recipe (the grouped one too:
   * below). */
  plain = problem(PTX_E_BF16, PTX_E_BF16, 32768, 4096, 7168);
  assert_int_equal(select_ok(&plain, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM90);
}

/* A weight gradient in K groups (Qwen3's experts: G 128, m 768, n 2048, 16384 tokens): A op T
 * (k x m), B op N (k x n), the ends' expected depth as the hint. */
static eng_problem k_grouped(int kind, int64_t m, int64_t n, int64_t k, int64_t groups, int64_t depth) {
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, m, n, k);
  p.op_a_t = 1;
  p.op_b_t = 0;
  p.lda = m;
  p.ldb = n;
  p.grouped = kind;
  p.groups = groups;
  p.group_rows = depth;
  p.stride_d = p.stride_c = m * n;
  return p;
}

/* K groups take a plan for all m rows and the expected depth: k = 0 in the config (the kernel
 * reads its K range), one kernel for every token count. On sm_90a the sm90 recipe's (its
 * producer rewrites A's and B's maps per group), by default and under TCJ_RECIPE=sm90; the sm80
 * recipe's on every other arch and under TCJ_RECIPE=sm80. */
static void k_groups_take_a_plan_of_all_rows_and_no_k(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a", "sm_100"};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (int kind = PTX_GROUP_K_ENDS32; kind <= PTX_GROUP_K_ENDS64; kind++) {
      eng_problem p = k_grouped(kind, 768, 2048, 16384, 128, 128);
      eng_plan plan = select_ok(&p, arches[a], 1);
      int sm90 = !strcmp(arches[a], "sm_90a");
      assert_int_equal(plan.cfg.recipe, sm90 ? PTX_RECIPE_SM90 : PTX_RECIPE_SM80);
      assert_int_equal(plan.cfg.grouped, kind);
      assert_int_equal(plan.cfg.k, 0);
      assert_int_equal(plan.cfg.op_a_t, 1);
      assert_int_equal(plan.cfg.op_b_t, 0);
      assert_int_equal(plan.cfg.split_k + plan.pack_a + plan.pack_b, 0);
      eng_problem more = k_grouped(kind, 768, 2048, 20000, 128, 128); /* another token count */
      eng_plan other = select_ok(&more, arches[a], 1);
      assert_memory_equal(&other.cfg, &plan.cfg, sizeof plan.cfg);
      eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0}, sm90_only = {&ptx_recipe_sm90, {0}, 0};
      other = select_tuned_ok(&p, arches[a], &sm80);
      assert_int_equal(other.cfg.recipe, PTX_RECIPE_SM80);
      if (!sm90) assert_memory_equal(&other.cfg, &plan.cfg, sizeof plan.cfg);
      if (sm90) { /* TCJ_RECIPE=sm90: the default's sm90 plan, k = 0 */
        eng_plan forced = select_tuned_ok(&p, arches[a], &sm90_only);
        assert_memory_equal(&forced.cfg, &plan.cfg, sizeof plan.cfg);
        assert_int_equal(forced.cfg.recipe, PTX_RECIPE_SM90);
        assert_int_equal(forced.cfg.grouped, kind);
        assert_int_equal(forced.cfg.k, 0);
        assert_int_equal(tcj_cfg_sm90_group_maps(&forced.cfg), 2);
      }
      /* G x tiles of D units. */
      assert_int_equal(eng_grouped_units(&p, &plan.cfg),
                       128 * ((768 + plan.cfg.bm - 1) / plan.cfg.bm) * ((2048 + plan.cfg.bn - 1) / plan.cfg.bn));
    }
}

/* B by pointer arrays and gathered rows of A take the plan the same problem without them takes,
 * with the flags set: on sm_90a the sm90 plan where groups hold 64 rows or more (its producer
 * copies gathered rows with cp.async and rewrites B's map per group), else the sm80 plan of
 * their expected rows, as TCJ_RECIPE=sm80 gives it. TCJ_RECIPE=sm90 runs both, except gathers
 * with k of 2^30 or more (32-bit byte offsets in a row), which go to the sm80 kernel by
 * default. */
static void b_pointer_arrays_and_gathers_take_the_plan_of_their_problem_without_them(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a", "sm_100"};
  static const struct { int kind, b_ptrs, gather; int64_t m, n, k, groups, rows; } cases[] = {
    {PTX_GROUP_ENDS32, 0, 1, 65536, 1536, 2048, 128, 512}, /* Qwen3-30B-A3B up at prefill (SwiGLU's 2n) */
    {PTX_GROUP_ENDS32, 0, 1, 1024, 1536, 2048, 128, 8},    /* the same at decode */
    {PTX_GROUP_ENDS64, 1, 0, 32768, 7168, 2048, 32, 1024}, /* DeepSeek-V3 EP8 down at prefill */
    {PTX_GROUP_ENDS32, 1, 1, 32768, 4096, 7168, 4, 8192},
    {PTX_GROUP_MASKED, 1, 0, 256, 4096, 7168, 8, 256},
  };
  eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0}, sm90 = {&ptx_recipe_sm90, {0}, 0};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      eng_problem p = grouped(cases[i].kind, cases[i].m, cases[i].n, cases[i].k, cases[i].groups, cases[i].rows);
      p.b_ptrs = cases[i].b_ptrs;
      p.gather = cases[i].gather;
      p.gather_rows = cases[i].gather ? cases[i].m / 8 : 0;
      if (p.b_ptrs) p.stride_b = 0;
      eng_problem bare = p;
      bare.b_ptrs = bare.gather = 0;
      bare.gather_rows = 0;
      eng_plan plan = select_ok(&p, arches[a], 1), want = sm80_plan_of_one_group(&bare, arches[a], cases[i].rows);
      want.cfg.b_ptrs = cases[i].b_ptrs;
      want.cfg.gather = cases[i].gather;
      int on_sm90 = !strcmp(arches[a], "sm_90a") && cases[i].rows >= 64;
      if (on_sm90) {
        eng_problem plain_b = bare;
        plain_b.stride_b = p.n * p.k;
        eng_plan sm90_want = select_ok(&plain_b, arches[a], 1);
        sm90_want.cfg.b_ptrs = cases[i].b_ptrs;
        sm90_want.cfg.gather = cases[i].gather;
        /* without a pair of tile rows, which the grouped kernel does not take with either */
        if (cases[i].b_ptrs || cases[i].gather) sm90_want.cfg.cluster_m = 0;
        assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
        assert_memory_equal(&plan.cfg, &sm90_want.cfg, sizeof plan.cfg);
      } else {
        assert_memory_equal(&plan.cfg, &want.cfg, sizeof plan.cfg);
        assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
      }
      assert_int_equal(plan.pack_a + plan.pack_b, 0);
      eng_plan forced = select_tuned_ok(&p, arches[a], &sm80);
      assert_memory_equal(&forced.cfg, &want.cfg, sizeof plan.cfg);
      /* The same problem without the arrays takes the sm90 plan on sm_90a where its groups are
       * large: the arrays are what routes it. */
      eng_problem plain = bare;
      plain.stride_b = p.n * p.k;
      if (!strcmp(arches[a], "sm_90a") && cases[i].rows >= 64)
        assert_int_equal(select_ok(&plain, arches[a], 1).cfg.recipe, PTX_RECIPE_SM90);
    }
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = grouped(PTX_GROUP_ENDS32, 32768, 4096, 7168, 4, 8192);
  p.b_ptrs = 1, p.stride_b = 0;
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select_tuned(&p, &caps, 1, &sm90, &plan, &why), TCJ_SUCCESS);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.b_ptrs, 1);
  /* Gathers under TCJ_RECIPE=sm90: the sm90 plan of the same problem without the gather, with
   * the flag set and no pair of tile rows, decode-size groups too; past the 32-bit row offsets,
   * refused. */
  for (int rows = 8; rows <= 8192; rows *= 32) {
    eng_problem g = grouped(PTX_GROUP_ENDS32, 4 * rows, 4096, 7168, 4, rows);
    g.gather = 1, g.gather_rows = 3 * rows;
    assert_int_equal(eng_select_tuned(&g, &caps, 1, &sm90, &plan, &why), TCJ_SUCCESS);
    eng_problem bare = g;
    bare.gather = 0, bare.gather_rows = 0;
    eng_plan want;
    assert_int_equal(eng_select_tuned(&bare, &caps, 1, &sm90, &want, &why), TCJ_SUCCESS);
    want.cfg.gather = 1;
    want.cfg.cluster_m = 0; /* gathers run without pairs of tile rows */
    assert_memory_equal(&plan.cfg, &want.cfg, sizeof plan.cfg);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_null(tcj_cfg_check(&plan.cfg));
  }
  eng_problem deep = grouped(PTX_GROUP_ENDS32, 1024, 256, (int64_t)1 << 30, 4, 256);
  deep.gather = 1, deep.gather_rows = 512;
  assert_int_equal(eng_select_tuned(&deep, &caps, 1, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "gather_a"));
  assert_int_equal(select_ok(&deep, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
}

/* A grouped sm90 plan: the grouped config of cooperative consumers, no cluster along N (along M
 * a pair at most), no K split, nothing packed. */
static void assert_grouped_sm90(const eng_plan *plan, int kind) {
  assert_int_equal(plan->cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan->cfg.grouped, kind);
  assert_true(plan->cfg.cluster_m == 0 || plan->cfg.cluster_m == 2);
  assert_int_equal(plan->cfg.cluster_n + plan->cfg.pingpong + plan->cfg.split_k, 0);
  assert_int_equal(plan->pack_a + plan->pack_b, 0);
  assert_null(tcj_cfg_check(&plan->cfg));
}

/* 16-bit m-grouped problems on 128x256 tiles whose group's B passes 32 MiB run in pairs of tile
 * rows (cluster_m 2, measured faster on an H100): Mixtral's and DeepSeek-V3's up-projections,
 * f16 and bf16, contiguous and masked; the same problems with gathers or B pointers run
 * unpaired, and so do groups whose B stays in L2 (DeepSeek-V3's down-projection, 29 MB; Qwen3's,
 * 3 MB), where pairs were measured slower. */
static void grouped_16bit_128x256_tiles_run_in_pairs(void **state) {
  (void)state;
  static const struct { int kind; ptx_elem ab; int64_t m, n, k, groups, rows; } cases[] = {
    {PTX_GROUP_ENDS32, PTX_E_BF16, 8192, 28672, 4096, 8, 1024},
    {PTX_GROUP_ENDS64, PTX_E_F16, 4096, 4096, 7168, 32, 128},
    {PTX_GROUP_MASKED, PTX_E_BF16, 1024, 14336, 4096, 8, 1024},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = grouped(cases[i].kind, cases[i].m, cases[i].n, cases[i].k, cases[i].groups, cases[i].rows);
    p.ab = p.c = p.d = cases[i].ab;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    if (plan.cfg.bm != 128 || tcj_cfg_tile_cols(&plan.cfg) != 256) continue;
    assert_int_equal(plan.cfg.cluster_m, 2);
    assert_null(tcj_cfg_check(&plan.cfg));
    eng_problem g = p;
    g.b_ptrs = 1, g.stride_b = 0;
    if (cases[i].kind != PTX_GROUP_MASKED) {
      assert_int_equal(select_ok(&g, "sm_90a", 1).cfg.cluster_m, 0);
      g = p;
      g.gather = 1, g.gather_rows = p.m;
      assert_int_equal(select_ok(&g, "sm_90a", 1).cfg.cluster_m, 0);
    }
  }
  /* DeepGEMM's 4 x 8192 rows, for which the time model rates 256x128 as high, take 128x256
   * pairs too (prefer_128x256_for_m_groups), bf16 and fp8 with fast accumulation. */
  eng_problem deep = grouped(PTX_GROUP_ENDS32, 32768, 4096, 7168, 4, 8192);
  eng_plan plan = select_ok(&deep, "sm_90a", 1);
  assert_int_equal(plan.cfg.bm, 128);
  assert_int_equal(tcj_cfg_tile_cols(&plan.cfg), 256);
  assert_int_equal(plan.cfg.cluster_m, 2);
  eng_problem deep8 = deep;
  deep8.ab = PTX_E_E4M3, deep8.fast_accum = 1;
  plan = select_ok(&deep8, "sm_90a", 1);
  assert_int_equal(plan.cfg.bm, 128);
  assert_int_equal(tcj_cfg_tile_cols(&plan.cfg), 256);
  /* The first case must have taken the pair (the loop skips other tiles). */
  eng_problem mix = grouped(PTX_GROUP_ENDS32, 8192, 28672, 4096, 8, 1024);
  assert_int_equal(select_ok(&mix, "sm_90a", 1).cfg.cluster_m, 2);
  /* Groups whose B L2 holds: 128x256 single CTAs, contiguous and masked. */
  static const struct { int kind; int64_t m, n, k, groups, rows; } small_b[] = {
    {PTX_GROUP_ENDS32, 4096, 7168, 2048, 32, 128},  /* DeepSeek-V3 EP8 down: 29 MB a group */
    {PTX_GROUP_ENDS32, 65536, 2048, 768, 128, 512}, /* Qwen3-30B-A3B down at 8192 tokens */
    {PTX_GROUP_MASKED, 1024, 7168, 2048, 8, 1024},
  };
  for (size_t i = 0; i < sizeof small_b / sizeof *small_b; i++) {
    eng_problem p = grouped(small_b[i].kind, small_b[i].m, small_b[i].n, small_b[i].k, small_b[i].groups, small_b[i].rows);
    plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.bm, 128);
    assert_int_equal(tcj_cfg_tile_cols(&plan.cfg), 256);
    assert_int_equal(plan.cfg.cluster_m, 0);
  }
}

/* Three consumers (192-row tiles) where the time model gives them fuller waves, measured on an
 * H100 (engine/select_sm90.c): mid2304, mid1280 and 70B-class qkv at 512 rows take them; wide
 * or deep problems, B pitches that split lines, other operand types and grouped problems do
 * not. */
static void three_consumer_tiles_take_mid_sizes_only(void **state) {
  (void)state;
  static const struct { int64_t m, n, k; int op_b_t, want; } cases[] = {
    {2304, 4096, 4096, 0, 1}, {1280, 4096, 4096, 0, 1}, {512, 10240, 8192, 1, 1}, {1280, 14336, 4096, 1, 1},
    {4096, 4096, 4096, 0, 0}, {8192, 8192, 8192, 0, 0}, {2560, 4096, 4096, 0, 0}, {4095, 4095, 4095, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    p.op_b_t = cases[i].op_b_t;
    packed_lds(&p, 16);
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    if ((plan.cfg.warps_m == 3) != cases[i].want)
      print_error("%lldx%lldx%lld: bm %d, warps %d\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.bm, plan.cfg.warps_m);
    assert_int_equal(plan.cfg.warps_m == 3, cases[i].want);
    if (cases[i].want) assert_int_equal(plan.cfg.bm, 192);
  }
  /* mid2304 with B's rows 4100 elements apart (lines split), as tf32, and mid1280 as one group. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 2304, 4096, 4096);
  packed_lds(&p, 16);
  p.ldb = 4100;
  assert_int_not_equal(select_ok(&p, "sm_90a", 1).cfg.warps_m, 3);
  p = problem(PTX_E_TF32, PTX_E_F32, 2304, 4096, 4096);
  p.op_b_t = 1;
  packed_lds(&p, 16);
  assert_int_not_equal(select_ok(&p, "sm_90a", 1).cfg.warps_m, 3);
  p = grouped(PTX_GROUP_ENDS32, 1280, 4096, 4096, 1, 1280);
  assert_int_not_equal(select_ok(&p, "sm_90a", 1).cfg.warps_m, 3);
}

/* 16-bit m-groups of at most 128 expected rows and 12 K tiles take 128x128 tiles on ping-pong
 * consumers (6 stages, as measured; select_sm90.c, pingpong_short_k_groups): Qwen3-30B-A3B's
 * down-projection at 2048 tokens, plain, with router weights, rows stored or added, contiguous
 * ends of either width; not at 512 rows a group, not at 13 K tiles (its up-projection's 32
 * neither), not for fp8 or K groups, and not as a dense problem. */
static void short_k_groups_of_few_rows_run_128x128_pingpong(void **state) {
  (void)state;
  static const struct { int kind; int64_t m, n, k, groups, rows; int row_scale, scatter, want; } cases[] = {
    {PTX_GROUP_ENDS32, 16384, 2048, 768, 128, 128, 0, 0, 1},
    {PTX_GROUP_ENDS64, 16384, 2048, 768, 128, 128, 1, 0, 1},
    {PTX_GROUP_ENDS32, 16384, 2048, 768, 128, 128, 1, PTX_SCATTER_STORE, 1},
    {PTX_GROUP_ENDS32, 16384, 2048, 768, 128, 128, 1, PTX_SCATTER_ADD, 1},
    {PTX_GROUP_ENDS32, 65536, 2048, 768, 128, 512, 0, 0, 0},
    {PTX_GROUP_ENDS32, 32768, 2048, 768, 128, 256, 1, PTX_SCATTER_STORE, 0},
    {PTX_GROUP_ENDS32, 16384, 2048, 832, 128, 128, 0, 0, 0},
    {PTX_GROUP_ENDS32, 16384, 1536, 2048, 128, 128, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = grouped(cases[i].kind, cases[i].m, cases[i].n, cases[i].k, cases[i].groups, cases[i].rows);
    p.row_scale = cases[i].row_scale;
    p.scatter = cases[i].scatter;
    p.scatter_rows = p.scatter ? p.m : 0;
    if (p.scatter == PTX_SCATTER_ADD) p.c = p.d = PTX_E_F32;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
    assert_int_equal(plan.cfg.grouped, cases[i].kind);
    assert_null(tcj_cfg_check(&plan.cfg));
    if (plan.cfg.pingpong != cases[i].want)
      print_error("case %zu: tile %dx%d pingpong %d\n", i, plan.cfg.bm, plan.cfg.bn, plan.cfg.pingpong);
    assert_int_equal(plan.cfg.pingpong, cases[i].want);
    assert_int_equal(plan.cfg.bm, 128);
    assert_int_equal(plan.cfg.bn, cases[i].want ? 128 : 256);
    if (cases[i].want) assert_int_equal(plan.cfg.stages, 6);
    assert_int_equal(plan.cfg.cluster_m + plan.cfg.split_k, 0);
  }
  /* A user epilogue (a call beside every accumulator) cannot take 128 of them: cooperative. */
  eng_problem user = grouped(PTX_GROUP_ENDS32, 16384, 2048, 768, 128, 128);
  user.user = 0x1234;
  eng_plan with_user = select_ok(&user, "sm_90a", 1);
  assert_int_equal(with_user.cfg.pingpong, 0);
  assert_null(tcj_cfg_check(&with_user.cfg));
  /* fp8 groups of the same shape keep their promoted tiles, cooperative. */
  eng_problem f8 = grouped(PTX_GROUP_ENDS32, 16384, 2048, 768, 128, 128);
  f8.ab = PTX_E_E4M3, f8.c = f8.d = PTX_E_BF16;
  assert_int_equal(select_ok(&f8, "sm_90a", 1).cfg.pingpong, 0);
  /* The dense problem of one group's rows is not grouped: the rule leaves it alone. */
  eng_problem one = problem(PTX_E_BF16, PTX_E_BF16, 16384, 2048, 768);
  one.op_b_t = 1;
  one.ldb = 768;
  eng_plan dense = select_ok(&one, "sm_90a", 1);
  assert_false(dense.cfg.bm == 128 && dense.cfg.bn == 128 && dense.cfg.pingpong);
}

/* MoE layers keep cooperative consumers when grouped, as measured (select_plan_sm90_grouped),
 * where dense problems of their tiles can take ping-pong ones (short K, fused epilogues):
 * Qwen3-30B-A3B's up-projection (gathered, SwiGLU) and down-projection (router weights, rows
 * stored or added) at 8192 tokens, DeepSeek-V3's down-projection; and the selected config is
 * one the grouped kernel takes. (Groups of at most 128 rows and 12 K tiles run 128x128
 * ping-pong tiles: short_k_groups_of_few_rows_run_128x128_pingpong.) */
static void moe_layers_keep_cooperative_consumers(void **state) {
  (void)state;
  static const struct { int64_t m, n, k, groups, rows; int gather, swiglu, row_scale, scatter; } cases[] = {
    {65536, 1536, 2048, 128, 512, 1, 1, 0, 0},              /* Qwen3 up, 8192 tokens */
    {16384, 1536, 2048, 128, 128, 1, 1, 0, 0},              /* the same at 2048 tokens */
    {65536, 2048, 768, 128, 512, 0, 0, 1, PTX_SCATTER_ADD},  /* Qwen3 down, combined */
    {65536, 2048, 768, 128, 512, 0, 0, 1, PTX_SCATTER_STORE},
    {65536, 2048, 768, 128, 512, 0, 0, 1, 0},
    {32768, 7168, 2048, 32, 1024, 0, 0, 0, 0},              /* DeepSeek-V3 EP8 down */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = grouped(PTX_GROUP_ENDS32, cases[i].m, cases[i].n, cases[i].k, cases[i].groups, cases[i].rows);
    p.gather = cases[i].gather;
    p.gather_rows = p.gather ? p.m / 8 : 0;
    if (cases[i].swiglu) p.act = PTX_ACT_SWIGLU;
    p.row_scale = cases[i].row_scale;
    p.scatter = cases[i].scatter;
    p.scatter_rows = p.scatter ? p.m : 0;
    if (p.scatter == PTX_SCATTER_ADD) p.c = p.d = PTX_E_F32;
    eng_plan plan = select_ok(&p, "sm_90a", 1);
    assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
    assert_true(plan.cfg.bm >= 128);
  }
  /* DeepSeek-V3's 1024 rows of a group as one dense problem run ping-pong: the rule is what
   * keeps the grouped plan cooperative. */
  eng_problem one = problem(PTX_E_BF16, PTX_E_BF16, 1024, 7168, 2048);
  one.op_b_t = 1;
  one.ldb = 2048;
  assert_int_equal(select_ok(&one, "sm_90a", 1).cfg.pingpong, 1);
}

/* On sm_90a groups of 64 expected rows or more take the sm90 recipe (wgmma), with a tile for
 * all the groups' tiles together: DeepGEMM's 4 x 8192 rows a 256-row tile, 32 groups of 128
 * rows a 128-row one (not the small tile one group alone would get); 63 rows, another arch, an
 * operand TMA cannot read (8-byte rows, a group stride off 16 bytes) take the sm80 plan. */
static void grouped_problems_of_64_rows_or_more_take_the_sm90_plan_on_sm_90a(void **state) {
  (void)state;
  eng_problem deep = grouped(PTX_GROUP_ENDS32, 32768, 4096, 7168, 4, 8192);
  eng_plan plan = select_ok(&deep, "sm_90a", 1);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  assert_int_equal(plan.cfg.bm * plan.cfg.bn, 256 * 128);
  eng_problem ep = grouped(PTX_GROUP_ENDS64, 4096, 4096, 7168, 32, 128);
  plan = select_ok(&ep, "sm_90a", 1);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS64);
  assert_int_equal(plan.cfg.bm, 128);
  eng_problem masked = grouped(PTX_GROUP_MASKED, 256, 4096, 7168, 8, 64);
  masked.stride_a = 256 * 7168;
  plan = select_ok(&masked, "sm_90a", 1);
  assert_grouped_sm90(&plan, PTX_GROUP_MASKED);
  /* A fused epilogue still runs cooperative (a plain 128x256 fused problem takes ping-pong). */
  eng_problem fused = deep;
  fused.bias = PTX_BIAS_COL;
  fused.bias_t = PTX_E_BF16;
  fused.act = PTX_ACT_GELU;
  assert_grouped_sm90((plan = select_ok(&fused, "sm_90a", 1), &plan), PTX_GROUP_ENDS32);
  /* 63 rows, and other arches: sm80. */
  eng_problem small = grouped(PTX_GROUP_ENDS32, 63 * 64, 4096, 7168, 64, 63);
  assert_int_equal(select_ok(&small, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  small.group_rows = 64;
  assert_int_equal(select_ok(&small, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(select_ok(&deep, "sm_90", 1).cfg.recipe, PTX_RECIPE_SM80);
  assert_int_equal(select_ok(&deep, "sm_100", 1).cfg.recipe, PTX_RECIPE_SM80);
  /* What TMA cannot read falls back to sm80. */
  eng_problem narrow = deep;
  narrow.align_b = 8;
  assert_int_equal(select_ok(&narrow, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  eng_problem odd = masked;
  odd.stride_a = 256 * 7168 + 4; /* 8 bytes off */
  assert_int_equal(select_ok(&odd, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  /* Forced: TCJ_RECIPE=sm80 keeps large groups on sm80, sm90 takes small ones, and names why
   * where it cannot run. */
  eng_tuning sm80 = {&ptx_recipe_sm80, {0}, 0}, sm90 = {&ptx_recipe_sm90, {0}, 0};
  assert_int_equal(select_tuned_ok(&deep, "sm_90a", &sm80).cfg.recipe, PTX_RECIPE_SM80);
  /* k == 0 (a host alpha of 0) has no mainloop: the sm80 kernel, TCJ_RECIPE=sm90 or not. */
  eng_problem no_k = deep;
  no_k.k = 0;
  assert_int_equal(select_tuned_ok(&no_k, "sm_90a", &sm90).cfg.recipe, PTX_RECIPE_SM80);
  assert_int_equal(select_ok(&no_k, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  small.group_rows = 4;
  plan = select_tuned_ok(&small, "sm_90a", &sm90);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  eng_device_caps caps = caps_of("sm_90a");
  const char *why = NULL;
  assert_int_equal(eng_select_tuned(&narrow, &caps, 1, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "TCJ_RECIPE=sm90"));
  assert_non_null(strstr(why, "16-byte aligned"));
  assert_int_equal(eng_select_tuned(&odd, &caps, 1, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "TMA"));
  caps = caps_of("sm_80");
  assert_int_equal(eng_select_tuned(&deep, &caps, 1, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "sm_90a"));
  /* The launch's grid for it: persistent CTAs, at most one per SM, at most the units. */
  plan = select_ok(&deep, "sm_90a", 1);
  ptx_grid g = ptx_recipe_of(&plan.cfg)->grid(&plan.cfg, deep.m, deep.groups, 132);
  assert_int_equal(g.x, 132);
  assert_int_equal(g.y, 1);
  g = ptx_recipe_of(&plan.cfg)->grid(&plan.cfg, 128, 1, 132);
  /* fewer units than SMs: one CTA per unit, two where a unit is a pair of tile rows */
  assert_int_equal(g.x, eng_grouped_units(&(eng_problem){.grouped = PTX_GROUP_ENDS32, .m = 128, .n = 4096, .groups = 1},
                                          &plan.cfg) * (plan.cfg.cluster_m ? 2 : 1));
}

/* fp8 grouped problems: DeepGEMM's block-scaled contiguous shape takes the sm90 plan with the
 * promoted tile the ungrouped problem of one group gets (no cluster), at any group size (block
 * scales exist on sm90 only); per-tensor and row scales run the sm80 plan off sm_90a (sm_89),
 * and on sm_90a where wgmma cannot read the operands (fp8 is K-major only, and grouped calls
 * pack nothing); forced sm90 names why. Row scales keep sm80 warp tiles of at most 64x32. */
static void fp8_grouped_problems_take_the_promoted_tiles_of_ungrouped_ones(void **state) {
  (void)state;
  eng_problem deep = grouped(PTX_GROUP_ENDS32, 32768, 4096, 7168, 4, 8192);
  deep.ab = PTX_E_E4M3;
  deep.block_scale = 1;
  eng_plan plan = select_ok(&deep, "sm_90a", 1);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  assert_int_equal(plan.cfg.block_scale, 1);
  eng_problem one = deep;
  one.grouped = 0;
  one.groups = one.group_rows = 0;
  one.m = 8192;
  one.stride_b = 0;
  eng_plan ungrouped = select_ok(&one, "sm_90a", 1);
  assert_int_equal(ungrouped.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.bm, ungrouped.cfg.bm);
  assert_int_equal(plan.cfg.bn, ungrouped.cfg.bn);
  assert_true(plan.cfg.bm * plan.cfg.bn >= 128 * 128);
  eng_problem small = deep;
  small.group_rows = 4;
  assert_grouped_sm90((plan = select_ok(&small, "sm_90a", 1), &plan), PTX_GROUP_ENDS32);
  eng_device_caps caps = caps_of("sm_89");
  const char *why = NULL;
  assert_int_equal(eng_select_tuned(&deep, &caps, 1, NULL, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "block scales"));
  /* Per-tensor scales: sm80 on sm_89, the grouped sm80 plan of one group. */
  eng_problem tensor = deep;
  tensor.block_scale = 0;
  plan = select_ok(&tensor, "sm_89", 1);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
  assert_int_equal(plan.cfg.ab, PTX_E_E4M3);
  assert_int_equal(plan.cfg.grouped, PTX_GROUP_ENDS32);
  caps = caps_of("sm_80");
  assert_int_equal(eng_select_tuned(&tensor, &caps, 1, NULL, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "sm_89"));
  /* On sm_90a large groups take sm90 with K-major operands, sm80 with B N-major (op NN). */
  assert_grouped_sm90((plan = select_ok(&tensor, "sm_90a", 1), &plan), PTX_GROUP_ENDS32);
  eng_problem nn = tensor;
  nn.op_b_t = 0;
  nn.ldb = 4096;
  assert_int_equal(select_ok(&nn, "sm_90a", 1).cfg.recipe, PTX_RECIPE_SM80);
  eng_tuning sm90 = {&ptx_recipe_sm90, {0}, 0};
  caps = caps_of("sm_90a");
  assert_int_equal(eng_select_tuned(&nn, &caps, 1, &sm90, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "K-major"));
  /* Row scales: the sm80 plan's warp tile is at most 64x32 (a larger one spills). */
  eng_problem row = tensor;
  row.scale_row = 1;
  row.row_scale = 1;
  plan = select_ok(&row, "sm_89", 1);
  assert_int_equal(plan.cfg.scale_row, 1);
  assert_int_equal(plan.cfg.row_scale, 1);
  assert_true(plan.cfg.bm / plan.cfg.warps_m * (plan.cfg.bn / plan.cfg.warps_n) <= 64 * 32);
  plan = select_ok(&row, "sm_90a", 1);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  assert_int_equal(plan.cfg.scale_row, 1);
}

static void grouped_knobs_force_sm80_tiles_but_not_sm90_splits_or_generic_kernels(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = grouped(PTX_GROUP_ENDS32, 8192, 4096, 4096, 8, 1024);
  eng_plan plan;
  const char *why = NULL;
  eng_tuning sm90 = {&ptx_recipe_sm90, {0}, 0};
  plan = select_tuned_ok(&p, "sm_90a", &sm90);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  /* TCJ_JIT=generic: the specialised plan (no generic kernel exists for groups). */
  eng_tuning generic = {NULL, {0}, 1};
  plan = select_tuned_ok(&p, "sm_90a", &generic);
  assert_int_equal(plan.cfg.generic, 0);
  assert_int_equal(plan.cfg.grouped, PTX_GROUP_ENDS32);
  assert_int_equal(eng_select_generic(&p, &caps, 1, NULL, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "grouped"));
  /* TCJ_TILE applies, and the check sees the grouped config. */
  eng_tuning tile = {&ptx_recipe_sm80, {0}, 0};
  assert_int_equal(eng_tile_override_parse("64x64x64/2x2/3", &tile.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &tile);
  assert_int_equal(plan.cfg.bm, 64);
  assert_int_equal(plan.cfg.bn, 64);
  assert_int_equal(plan.cfg.grouped, PTX_GROUP_ENDS32);
  assert_int_equal(eng_tile_override_parse("64x64x64/2x2/3/s4", &tile.tile), 0);
  assert_int_equal(eng_select_tuned(&p, &caps, 1, &tile, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "split"));
  /* An sm90 tile applies to the sm90 grouped plan, a cluster along M too (a pair of tile rows). */
  eng_tuning tile90 = {NULL, {0}, 0};
  assert_int_equal(eng_tile_override_parse("128x128x128/2x1/6", &tile90.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &tile90);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  assert_int_equal(plan.cfg.bm * 1000 + plan.cfg.bn, 128128);
  assert_int_equal(eng_tile_override_parse("128x256x128/2x1/4/c2", &tile90.tile), 0);
  plan = select_tuned_ok(&p, "sm_90a", &tile90);
  assert_grouped_sm90(&plan, PTX_GROUP_ENDS32);
  assert_int_equal(plan.cfg.cluster_m, 2);
}

/* No packing for grouped calls: below 4 bytes is refused, 8-byte rows are copied 8 bytes at a
 * time where a plain problem this big would be packed. */
static void grouped_operands_are_never_packed(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_80");
  eng_problem p = grouped(PTX_GROUP_ENDS32, 8192, 4096, 4096, 8, 1024);
  p.align_b = 8;
  eng_plan plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(plan.pack_b, 0);
  assert_int_equal(plan.cfg.align_b, 8);
  eng_problem plain = p;
  plain.grouped = 0;
  assert_int_equal(select_ok(&plain, "sm_80", 1).pack_b, 1);
  p.align_a = 2;
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "grouped"));
  assert_non_null(strstr(why, "operand A"));
}

/* The grid of the spec: tiles_n (ceil(m / bm) + G) contiguous, tiles_n G ceil(m / bm) masked;
 * more than 2^31 - 1 is refused by select. */
static void grouped_grid_units_follow_the_formula(void **state) {
  (void)state;
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.bm = 128, c.bn = 64;
  eng_problem p = grouped(PTX_GROUP_ENDS32, 1000, 100, 64, 5, 200);
  assert_int_equal(eng_grouped_units(&p, &c), 2 * (8 + 5));
  p.grouped = PTX_GROUP_ENDS64;
  assert_int_equal(eng_grouped_units(&p, &c), 2 * (8 + 5));
  p.grouped = PTX_GROUP_MASKED;
  assert_int_equal(eng_grouped_units(&p, &c), 2 * 5 * 8);
  p.m = 1024; /* exact tiles */
  assert_int_equal(eng_grouped_units(&p, &c), 2 * 5 * 8);
  p.groups = 0;
  assert_int_equal(eng_grouped_units(&p, &c), 0);
  p.grouped = PTX_GROUP_ENDS32;
  assert_int_equal(eng_grouped_units(&p, &c), 2 * 8);
  p = grouped(PTX_GROUP_MASKED, INT32_MAX, INT32_MAX, 64, INT32_MAX, 16);
  assert_int_equal(eng_grouped_units(&p, &c), INT64_MAX); /* saturated */
  /* 2^31 - 1 masked groups of 16 rows on the 16 x 64 decode tile: 2^31 - 1 units of one tile
   * column fit, one more column does not. */
  p = grouped(PTX_GROUP_MASKED, 16, 64, 64, INT32_MAX, 16);
  eng_plan plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(eng_grouped_units(&p, &plan.cfg), INT32_MAX);
  p.n = 65;
  eng_device_caps caps = caps_of("sm_80");
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "2^31 - 1"));
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--print-selections") == 0) { /* the other process of the test above */
    static char text[1 << 16];
    print_selections(text, sizeof text);
    fputs(text, stdout);
    return 0;
  }
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(generic_set_is_small_and_covers_selection),
    cmocka_unit_test(f64_has_generic_plans_on_the_dmma_recipe),
    cmocka_unit_test(split_counts_share_one_kernel),
    cmocka_unit_test(generic_plans_split_deep_k),
    cmocka_unit_test(generic_plans_are_valid_and_few_per_class),
    cmocka_unit_test(sm90_plans_only_tensor_maps_tma_can_encode),
    cmocka_unit_test(arch_parser_accepts_only_canonical_names),
    cmocka_unit_test(arch_table_knows_the_supported_arches),
    cmocka_unit_test(shape_classes_pick_their_tiles),
    cmocka_unit_test(deep_k_and_skinny_shapes_split_k),
    cmocka_unit_test(cfg_carries_the_problem_and_arch),
    cmocka_unit_test(every_selected_cfg_is_valid_and_fits_shared_memory),
    cmocka_unit_test(stages_fill_the_shared_memory_budget),
    cmocka_unit_test(bf16_with_odd_ld_is_packed),
    cmocka_unit_test(small_operand_with_8_byte_alignment_uses_narrow_copies),
    cmocka_unit_test(s8_with_odd_ld_is_packed_or_refused),
    cmocka_unit_test(empty_operands_are_never_packed),
    cmocka_unit_test(pre_ampere_and_huge_grids_are_not_supported),
    cmocka_unit_test(selection_is_deterministic_within_and_across_processes),
    cmocka_unit_test(sm90a_runs_16_bit_types_on_the_sm90_recipe),
    cmocka_unit_test(other_arches_keep_the_sm80_recipe),
    cmocka_unit_test(sm90a_transposes_mn_major_operands_of_other_types),
    cmocka_unit_test(fp8_takes_wgmma_where_its_operands_are_k_major),
    cmocka_unit_test(split_k_shapes_stay_on_sm80),
    cmocka_unit_test(decode_splits_reduce_in_a_cluster_on_sm90),
    cmocka_unit_test(tile_override_forces_a_split),
    cmocka_unit_test(candidates_are_ranked_and_reproduced_by_their_tile_text),
    cmocka_unit_test(sm90_multicasts_b_whose_pitch_splits_lines),
    cmocka_unit_test(sm90_shares_a_along_n_where_b_pitch_splits_lines),
    cmocka_unit_test(decode_of_a_large_k_major_weight_takes_sm90),
    cmocka_unit_test(small_problems_stay_on_sm80),
    cmocka_unit_test(sm90_packs_operands_below_16_bytes_or_falls_back),
    cmocka_unit_test(sm90_c_vector_follows_alignment_and_n),
    cmocka_unit_test(sm90_tiles_follow_the_time_model),
    cmocka_unit_test(fused_epilogues_stage_the_whole_cooperative_tile_where_compiled_whole),
    cmocka_unit_test(forced_recipes_select_or_say_why_not),
    cmocka_unit_test(tile_override_text_takes_an_optional_cluster),
    cmocka_unit_test(tile_override_applies_to_sm90_plans),
    cmocka_unit_test(tile_override_text_takes_an_optional_pingpong),
    cmocka_unit_test(tile_override_whole_epilogue_goes_where_d_stores_through_tma),
    cmocka_unit_test(tile_override_pingpong_applies_to_sm90_plans),
    cmocka_unit_test(k_splits_pair_tile_rows),
    cmocka_unit_test(tile_override_drops_a_split_the_forced_tile_cannot_take),
    cmocka_unit_test(tile_override_with_a_huge_warp_grid_is_refused),
    cmocka_unit_test(tuning_comes_from_the_environment),
    cmocka_unit_test(grouped_problems_take_the_sm80_plan_of_their_expected_rows),
    cmocka_unit_test(k_groups_take_a_plan_of_all_rows_and_no_k),
    cmocka_unit_test(b_pointer_arrays_and_gathers_take_the_plan_of_their_problem_without_them),
    cmocka_unit_test(grouped_knobs_force_sm80_tiles_but_not_sm90_splits_or_generic_kernels),
    cmocka_unit_test(grouped_problems_of_64_rows_or_more_take_the_sm90_plan_on_sm_90a),
    cmocka_unit_test(grouped_16bit_128x256_tiles_run_in_pairs),
    cmocka_unit_test(short_k_groups_of_few_rows_run_128x128_pingpong),
    cmocka_unit_test(moe_layers_keep_cooperative_consumers),
    cmocka_unit_test(three_consumer_tiles_take_mid_sizes_only),
    cmocka_unit_test(fp8_grouped_problems_take_the_promoted_tiles_of_ungrouped_ones),
    cmocka_unit_test(grouped_operands_are_never_packed),
    cmocka_unit_test(grouped_grid_units_follow_the_formula),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
